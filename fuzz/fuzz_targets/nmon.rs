//! Any text straight into the nmon parser, past the sniffer, so that
//! inputs without the format's signature still reach its inner code.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = awrflash_parse::decode::decode(data);
    if let Err(e) = awrflash_parse::nmon::parse("fuzz.in", &text) {
        assert!(e.to_string().contains("fuzz.in"), "{e}");
    }
});
