//! Every AWR text report of `../shared/corpus/awr-text` parses and passes
//! the per-file consistency checks.

#[path = "awr_text_checks.rs"]
mod checks;

#[test]
fn every_awr_text_corpus_file_parses_consistently() {
    checks::run_corpus("awr-text", "awr_text");
}
