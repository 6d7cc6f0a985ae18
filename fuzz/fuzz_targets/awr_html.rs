//! Any input straight into the AWR HTML parser, past the sniffer, so that
//! inputs without the format's signature still reach its inner code: as
//! decoded text, and as raw bytes checked as UTF-8 only where text is kept.
//! The two readings must agree wherever they see the same bytes: on UTF-8
//! input, and on input short enough that decoding cannot push a marker out
//! of the head and tail windows the parser searches (8 KiB, each invalid
//! byte decoding to at most 3).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = awrflash_parse::decode::decode(data);
    let decoded = awrflash_parse::awr_html::parse("fuzz.in", &text);
    if let Err(e) = &decoded {
        assert!(e.to_string().contains("fuzz.in"), "{e}");
    }
    // `parse_bytes` is handed the bytes after a UTF-8 byte order mark, as
    // the entry point hands them; UTF-16 is transcoded there instead.
    let Some(bytes) = awrflash_parse::decode::utf8_body(data) else {
        return;
    };
    let raw = awrflash_parse::awr_html::parse_bytes("fuzz.in", bytes);
    if std::str::from_utf8(bytes).is_ok() || bytes.len() <= 8192 / 3 {
        assert_eq!(raw, decoded);
    }
});
