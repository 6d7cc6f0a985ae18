//! Every Statspack report of `../shared/corpus/statspack` parses and passes
//! the per-file consistency checks.

#[path = "awr_text_checks.rs"]
mod checks;

#[test]
fn every_statspack_corpus_file_parses_consistently() {
    checks::run_corpus("statspack", "statspack");
}
