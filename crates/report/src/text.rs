use awrflash_model::Analysis;
pub fn render(_a: &Analysis, _c: bool) -> String {
    String::new()
}
