fn main() {
    for p in std::env::args().skip(1) {
        let Ok(b) = std::fs::read(&p) else { continue };
        match awrflash_parse::parse_bytes(&p, &b) {
            Ok(awrflash_model::Document::Iostat(c)) => {
                let devs: Vec<&str> = c.summary.iter().map(|d| d.device.as_str()).collect();
                let n_int = c
                    .samples
                    .iter()
                    .map(|s| s.interval)
                    .max()
                    .map_or(0, |m| m + 1);
                println!(
                    "{p}\n  fmt={:?} host={:?} layout={:?}\n  samples={} intervals={} cpu={} boot={} interval_s={:?}\n  devs={:?}\n  first_time={:?} last_time={:?}",
                    c.source.format,
                    c.host,
                    c.layout,
                    c.samples.len(),
                    n_int,
                    c.cpu.len(),
                    c.samples.iter().filter(|s| s.since_boot).count(),
                    c.interval_s,
                    devs,
                    c.samples.first().and_then(|s| s.time.clone()),
                    c.samples.last().and_then(|s| s.time.clone())
                );
                println!(
                    "  channel devs={:?} mb_s mean={} max={}",
                    c.channel.devices, c.channel.mb_s_mean, c.channel.mb_s_max
                );
                for d in &c.summary {
                    if !d.callouts.is_empty() {
                        println!("  callout {} {:?}", d.device, d.callouts);
                    }
                }
                for w in &c.warnings {
                    println!("  W {}:{} {}", w.section, w.line, w.message);
                }
                if std::env::var("SUM").is_ok() {
                    for d in &c.summary {
                        println!("  {:?}", d);
                    }
                }
            }
            Ok(d) => println!("{p}: other {:?}", d.source()),
            Err(e) => println!("{p}: ERR {e}"),
        }
    }
}
