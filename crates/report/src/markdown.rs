use awrflash_model::Analysis;
pub fn render(_a: &Analysis) -> String {
    String::new()
}
