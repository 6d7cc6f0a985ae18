//! Prints every table the AWR HTML scanner finds: line, title, heading,
//! summary, header cells and the first data row. A debugging aid for new
//! report layouts: `cargo run -p awrflash-parse --example awr_html_tables -- FILE`.

fn main() {
    for path in std::env::args().skip(1) {
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("{path}: cannot read");
            continue;
        };
        let text = awrflash_parse::decode::decode(&bytes);
        println!("== {path}");
        let summary = awrflash_parse::awr_html::scan::scan(
            &text,
            |_| true,
            |t| {
                let head: Vec<String> = t
                    .rows()
                    .filter(|r| r.cells.iter().any(|c| c.header))
                    .map(|r| {
                        r.cells
                            .iter()
                            .map(|c| {
                                format!(
                                    "{}{}",
                                    c.text,
                                    if c.colspan > 1 {
                                        format!("*{}", c.colspan)
                                    } else {
                                        String::new()
                                    }
                                )
                            })
                            .collect::<Vec<_>>()
                            .join(" | ")
                    })
                    .collect();
                let first = t
                    .rows()
                    .find(|r| !r.cells.iter().any(|c| c.header))
                    .map(|r| {
                        r.cells
                            .iter()
                            .map(|c| c.text.as_ref())
                            .collect::<Vec<_>>()
                            .join(" | ")
                    })
                    .unwrap_or_default();
                let summ: String = t.summary().chars().take(60).collect();
                let first: String = first.chars().take(160).collect();
                println!(
                    "{:>6} [{}] <{}> ({}) rows={}{}\n       H: {}\n       R: {}",
                    t.line,
                    t.title,
                    t.heading,
                    summ,
                    t.rows().len(),
                    if t.complete { "" } else { " INCOMPLETE" },
                    head.join(" || "),
                    first
                );
            },
        );
        println!(
            "title={:?} h1={:?} lines={} notes={:?}",
            summary.doc_title, summary.h1, summary.lines, summary.notes
        );
    }
}
