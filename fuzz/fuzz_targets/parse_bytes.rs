//! Any bytes through the full entry point: decode, sniff, limits, parser.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = awrflash_parse::parse_bytes("fuzz.in", data) {
        // Every refusal names its file.
        assert!(e.to_string().contains("fuzz.in"), "{e}");
    }
});
