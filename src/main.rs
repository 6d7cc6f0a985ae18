//! The `awrflash` binary: a thin shell over `awrflash-cli`.

fn main() -> std::process::ExitCode {
    awrflash_cli::main()
}
