//! Any bytes as the head of an input, as the first pass of `awrflash
//! analyze` reads it: no panic, and a head that is read names its file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let head = data.get(..awrflash_parse::HEAD_BYTES).unwrap_or(data);
    if let Some((source, _)) = awrflash_parse::parse_head("fuzz.in", head) {
        assert_eq!(source.path, "fuzz.in");
    }
});
