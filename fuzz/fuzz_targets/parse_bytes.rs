//! Any bytes through the full entry point: decode, sniff, limits, parser.
//! The same bytes placed across the end of the sniffer's head (after up to
//! 31 bytes short of it of filler) sniff from the head of the bytes as from
//! the decoded whole.
#![no_main]

use awrflash_parse::sniff::HEAD;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = awrflash_parse::parse_bytes("fuzz.in", data) {
        // Every refusal names its file.
        assert!(e.to_string().contains("fuzz.in"), "{e}");
    }
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let mut padded = vec![b'x'; HEAD - 1 - usize::from(first % 32)];
    padded.extend_from_slice(rest);
    let whole = awrflash_parse::sniff::sniff(&awrflash_parse::decode::decode(&padded));
    assert_eq!(awrflash_parse::sniff_bytes(&padded), Some(whole));
});
