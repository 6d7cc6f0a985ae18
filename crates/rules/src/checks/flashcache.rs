//! Database Smart Flash Cache: whether, how big, what it costs (003; 001);
//! an existing flash cache judged (001); Exadata cell flash (reads already
//! optimized).

use awrflash_model::Severity;
use serde::Deserialize;

use super::{Check, Ctx, Hit, derived, row_ev};
use crate::util::{f0, f1, f2};
use awrflash_facts::{IntervalFacts, MULTIBLOCK, Num, SINGLE_BLOCK, ratio};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlashCacheCandidate {
    single_block_share_pct_min: f64,
    write_share_pct_max: f64,
    cpu_busy_pct_max: f64,
    advisory_read_factor_max: f64,
    free_buffer_share_pct_max: f64,
    gain_pct_min: f64,
    advisory_fit_r2_min: f64,
}

/// A flash cache recommendation (the plan keeps the one it makes).
pub use crate::projection::FlashCachePick as FcChoice;

/// Does the database already run a flash cache?
pub fn existing_flash_cache(w: &IntervalFacts) -> bool {
    let size = w
        .report
        .parameter("db_flash_cache_size")
        .and_then(|p| crate::util::parse_size(&p.value))
        .unwrap_or(0.0);
    size > 0.0
        || w.stat_total("physical read flash cache hits")
            .is_some_and(|n| n.value > 0.0)
        || w.stat_total("flash cache inserts")
            .is_some_and(|n| n.value > 0.0)
}

impl FlashCacheCandidate {
    /// The R^2 a Buffer Pool Advisory fit needs before the projection
    /// extrapolates it.
    pub fn fit_r2_min(&self) -> f64 {
        self.advisory_fit_r2_min
    }

    /// Ok(choice) or Err(reason it is not recommended).
    pub fn assess(&self, ctx: &Ctx) -> Result<FcChoice, String> {
        let w = ctx.w;
        if existing_flash_cache(w) {
            return Err("a flash cache is already configured (judged by AF071)".into());
        }
        let Some(plan) = &ctx.plan.flash_cache else {
            return Err(
                "not enough data: the Buffer Pool Advisory or the buffer cache size is missing"
                    .into(),
            );
        };
        let single = w.share_pct(SINGLE_BLOCK);
        if single < self.single_block_share_pct_min {
            return Err(format!(
                "single-block reads are only {}% of DB time",
                f1(single)
            ));
        }
        let multi = w.share_pct(MULTIBLOCK);
        if multi > single {
            return Err(format!(
                "scans ({}% of DB time) outweigh single-block reads ({}%): direct-path (DSS) reads bypass the flash cache",
                f1(multi),
                f1(single)
            ));
        }
        // Data file requests only (IOStat by Filetype) where the report has
        // them: LGWR, archive and flashback writes never touch the cache.
        let requests = datafile_requests(w).map(|(r, wr)| (r, wr, "data file writes", "data file"));
        let totals = match (&w.read_iops, &w.write_iops) {
            (Some(r), Some(wr)) => Some((r.value, wr.value, "writes", "")),
            _ => None,
        };
        let requests = requests.or(totals);
        if let Some((r, wr, what, of)) = requests {
            let ws = ratio(wr * 100.0, r + wr);
            if ws > self.write_share_pct_max {
                let of = if of.is_empty() {
                    String::new()
                } else {
                    format!("{of} ")
                };
                return Err(format!(
                    "{what} are {}% of {of}I/O requests: the flash cache serves read-mostly work",
                    f1(ws)
                ));
            }
        }
        if let Some(c) = &w.host_busy_pct
            && c.value > self.cpu_busy_pct_max
        {
            return Err(format!("the CPUs are {}% busy", f1(c.value)));
        }
        let fbw = w.share_pct(&["free buffer waits", "write complete waits"]);
        if fbw > self.free_buffer_share_pct_max {
            return Err(format!(
                "free buffer / write complete waits are {}% of DB time: a busy DBWR skips flash cache inserts",
                f1(fbw)
            ));
        }
        let rf = advisory_max_factor(w);
        if let Some((size_factor, read_factor, _)) = &rf
            && *read_factor > self.advisory_read_factor_max
        {
            return Err(format!(
                "the Buffer Pool Advisory shows only {}% fewer reads at {}x the cache: the working set is (nearly) cached",
                f1((1.0 - read_factor) * 100.0),
                f1(*size_factor)
            ));
        }
        let Some(size) = plan.size_gb else {
            return Err(ctx.plan.fit_refused.as_deref().map_or_else(
                || "no flash cache size projected".to_string(),
                |r| r.trim_start_matches("not recommended: ").to_string(),
            ));
        };
        let key = ctx
            .plan
            .options
            .iter()
            .filter(|o| o.key.starts_with("flash-cache-"))
            .find(|o| o.capacity_gb.is_some_and(|c| (c - size).abs() < 1e-6))
            .map(|o| o.key.clone())
            .unwrap_or_default();
        let gain = ctx
            .plan
            .options
            .iter()
            .find(|o| o.key == key)
            .map_or(0.0, |o| crate::projection::mid_gain(o) * 100.0);
        if gain < self.gain_pct_min {
            return Err(format!(
                "the projected gain ({}%) is below {}%",
                f1(gain),
                f0(self.gain_pct_min)
            ));
        }
        Ok(FcChoice {
            size_gb: size,
            sga_cost_mb: plan.sga_cost_mb.unwrap_or(0.0),
            key,
        })
    }
}

/// The advisory row with the largest size factor: (size factor, read
/// factor, src).
fn advisory_max_factor(w: &IntervalFacts) -> Option<(f64, f64, awrflash_model::EvidenceSrc)> {
    w.report
        .buffer_pool_advisory
        .iter()
        .filter(|r| r.pool.is_empty() || r.pool.eq_ignore_ascii_case("D"))
        .filter_map(|r| Some((r.size_factor?, r.est_phys_read_factor?, w.src(&r.src))))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// SQL lines that configure a flash cache of `size_gb`.
pub fn flash_cache_sql(w: &IntervalFacts, size_gb: f64, sga_cost_mb: f64) -> Vec<String> {
    let mut v = vec![
        "-- Database Smart Flash Cache runs on Oracle Linux and Solaris only".to_string(),
        "ALTER SYSTEM SET db_flash_cache_file = '/dev/flash/flash_cache01' SCOPE = SPFILE;".into(),
        format!(
            "ALTER SYSTEM SET db_flash_cache_size = {}G SCOPE = SPFILE;",
            f0(size_gb.ceil())
        ),
    ];
    let sga = w
        .report
        .parameter("sga_target")
        .and_then(|p| crate::util::parse_size(&p.value))
        .filter(|b| *b > 0.0);
    if let Some(b) = sga {
        let new_mb = (b / 1_048_576.0 + sga_cost_mb).ceil();
        v.push(format!(
            "ALTER SYSTEM SET sga_target = {}M SCOPE = SPFILE; -- + {} MB for flash buffer headers",
            f0(new_mb),
            f0(sga_cost_mb.ceil())
        ));
    } else {
        v.push(format!(
            "-- grow the SGA (sga_target or db_cache_size) by {} MB for the flash buffer headers",
            f0(sga_cost_mb.ceil())
        ));
    }
    v.push("-- restart the instance for the flash cache to take effect".into());
    v
}

impl Check for FlashCacheCandidate {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        // The plan made the decision with these thresholds; the check
        // reports it.
        let Some(choice) = &ctx.plan.flash_cache_pick else {
            return Vec::new();
        };
        let opt = ctx.plan.options.iter().find(|o| o.key == choice.key);
        let buf_gb = w
            .buffer_cache_bytes
            .as_ref()
            .map_or(0.0, |b| b.value / 1_073_741_824.0);
        let mut h = Hit::new(format!(
            "A Database Smart Flash Cache of {} GB ({}x the {} GB buffer cache) would serve most of the single-block reads the buffer cache misses; it costs {} MB of SGA for buffer headers ({} bytes per flash buffer). Read-mostly, working set beyond the buffer cache, CPU to spare: the case the flash cache was built for.",
            f0(choice.size_gb),
            f1(ratio(choice.size_gb, buf_gb)),
            f1(buf_gb),
            f0(choice.sga_cost_mb),
            if w.rac { 200 } else { 100 }
        ));
        h = h
            .ev_opt(w.buffer_cache_bytes.as_ref().map(|b| {
                Num {
                    value: b.value / 1_073_741_824.0,
                    src: b.src.clone(),
                    derived: Some("buffer cache bytes / 2^30".into()),
                }
                .evidence("buffer cache", "GB")
            }))
            .ev(derived(
                "single-block read share of DB time",
                w.share_pct(SINGLE_BLOCK),
                "%",
                "sum of single-block read events / DB time",
            ));
        if let Some((sf, rf, src)) = advisory_max_factor(w) {
            h = h.ev(row_ev(
                format!("Buffer Pool Advisory read factor at {}x", f1(sf)),
                rf,
                "ratio",
                src,
            ));
        }
        if let Some(o) = opt {
            h = h.projection(Some(o.projection.clone()));
        }
        vec![h.fix(
            format!(
                "Configure a {} GB flash cache on a flash device and grow the SGA by {} MB; the curve in the flash cache plan shows the sizes tried.",
                f0(choice.size_gb),
                f0(choice.sga_cost_mb)
            ),
            flash_cache_sql(w, choice.size_gb, choice.sga_cost_mb),
        )]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlashCacheJudged {
    dbwr_overloaded_pct_warning: f64,
}

/// A flash cache statistic from the report, else from a sysstat spool.
fn fc_stat(ctx: &Ctx, name: &str) -> Option<Num> {
    if let Some(n) = ctx.w.stat_total(name) {
        return Some(n);
    }
    for s in &ctx.sysstat {
        let path = awrflash_model::SharedStr::new(&s.source.path);
        let from = |v: &awrflash_model::SysstatValue| {
            v.value.map(|x| Num {
                value: x,
                src: Some(awrflash_model::EvidenceSrc {
                    path: path.clone(),
                    section: v.src.section.clone(),
                    line: v.src.line,
                }),
                derived: None,
            })
        };
        if let Some(v) = s.deltas.iter().find(|v| v.name.eq_ignore_ascii_case(name)) {
            return from(v);
        }
        if let Some(v) = s
            .captures
            .last()
            .and_then(|c| c.values.iter().find(|v| v.name.eq_ignore_ascii_case(name)))
        {
            return from(v);
        }
    }
    None
}

impl Check for FlashCacheJudged {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let hits = fc_stat(ctx, "physical read flash cache hits");
        let inserts = fc_stat(ctx, "flash cache inserts");
        if hits.as_ref().is_none_or(|h| h.value <= 0.0)
            && inserts.as_ref().is_none_or(|h| h.value <= 0.0)
        {
            return Vec::new();
        }
        let skip_names = [
            "flash cache insert skip: DBWR overloaded",
            "flash cache insert skip: exists",
            "flash cache insert skip: not current",
            "flash cache insert skip: not useful",
            "flash cache insert skip: modification",
            "flash cache insert skip: corrupt",
        ];
        let skips: Vec<(&str, Num)> = skip_names
            .iter()
            .filter_map(|n| fc_stat(ctx, n).map(|v| (*n, v)))
            .collect();
        let skip_total: f64 = skips.iter().map(|(_, v)| v.value).sum();
        let ins = inserts.as_ref().map_or(0.0, |n| n.value);
        let dbwr = skips
            .iter()
            .find(|(n, _)| n.ends_with("DBWR overloaded"))
            .map_or(0.0, |(_, v)| v.value);
        let dbwr_pct = ratio(dbwr * 100.0, ins + skip_total);
        let disk_ms = {
            let evs = w.events_in(&["db file sequential read"]);
            evs.first().map(|e| e.avg_ms)
        };
        let fc_ms = w
            .event("db flash cache single block physical read")
            .map(|e| e.avg_ms)
            .unwrap_or_else(|| {
                ctx.flash
                    .service_ms(crate::devices::IoKind::Read, w.block_size / 1024.0, 1.0)
            });
        let hit_n = hits.as_ref().map_or(0.0, |h| h.value);
        let mut msg = format!(
            "A flash cache is in use: {} reads served from it, {} inserts, {}% of insert attempts skipped because DBWR was overloaded.",
            f0(hit_n),
            f0(ins),
            f1(dbwr_pct)
        );
        let mut h = Hit::new(String::new());
        if let Some(d) = disk_ms {
            let saved = hit_n * (d - fc_ms).max(0.0) / 1000.0;
            msg.push_str(&format!(
                " Time saved: {} hits x ({} ms disk read - {} ms flash cache read) = {} s{}.",
                f0(hit_n),
                f2(d),
                f2(fc_ms),
                f0(saved),
                if w.db_time() > 0.0 {
                    format!(" ({}% of DB time)", f1(saved * 100.0 / w.db_time()))
                } else {
                    String::new()
                }
            ));
            h = h.ev(derived(
                "time saved by flash cache hits",
                saved,
                "s",
                "hits x (db file sequential read avg - flash cache read avg)",
            ));
        }
        if let Some(n) = &hits {
            h = h.ev(n.evidence("physical read flash cache hits", "reads"));
        }
        if let Some(n) = &inserts {
            h = h.ev(n.evidence("flash cache inserts", "inserts"));
        }
        for (n, v) in &skips {
            h = h.ev(v.evidence(n, "skips"));
        }
        if dbwr_pct >= self.dbwr_overloaded_pct_warning {
            msg.push_str(" DBWR is too busy to populate the cache: it is ineffective until the write load is relieved.");
            h = h.severity(Severity::Warning).fix(
                "Relieve DBWR first (faster datafile writes, more DB writers) or move the most-written segments to flash; the flash cache only helps reads of blocks DBWR had time to insert.",
                Vec::new(),
            );
        } else {
            h = h.fix(
                "Keep it; compare the time saved with the SGA its headers take, and check the size against the flash cache curve.",
                Vec::new(),
            );
        }
        h.message = msg;
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExadataOptimized {
    optimized_pct_low: f64,
    log_file_sync_share_pct_min: f64,
    write_wait_share_pct_min: f64,
    write_share_pct_min: f64,
    redo_write_ms_slow: f64,
    keep_sql_max: usize,
}

impl Check for ExadataOptimized {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        if !on_exadata(w) {
            return Vec::new();
        }
        let Some(cf) = crate::platform::cell_flash_share(w) else {
            return Vec::new();
        };
        let unopt_s = ratio((cf.total.value - cf.served.value).max(0.0), w.elapsed());
        let mut msg = format!(
            "Exadata: cell flash already serves {}% of read requests ({} / {}); {} unoptimized read requests per second remain on disk. Only what the cell flash does not yet cover is left to advise:",
            f1(cf.pct),
            cf.served_stat,
            "physical read total IO requests",
            f0(unopt_s)
        );
        let mut h = Hit::new(String::new())
            .severity(Severity::Info)
            .ev(cf
                .total
                .evidence("physical read total IO requests", "requests"))
            .ev(cf.served.evidence(cf.served_stat, "requests"))
            .ev(derived(
                "read requests served by cell flash",
                cf.pct,
                "%",
                &format!("{} / physical read total IO requests", cf.served_stat),
            ));
        let mut fix = Vec::new();
        let mut sql = Vec::new();
        let mut warn = cf.pct < self.optimized_pct_low;
        // Unoptimized reads: the hot segments by unoptimized reads.
        let keep = ctx
            .plan
            .options
            .iter()
            .find(|o| o.key == crate::projection::exadata::KEEP);
        let segs: Vec<_> = ctx
            .plan
            .ranked
            .list
            .iter()
            .filter(|s| s.fits_budget != Some(false))
            .collect();
        if let Some(o) = keep {
            let (lo, hi) = (
                (1.0 - o.projection.response_ratio_high) * 100.0,
                (1.0 - o.projection.response_ratio_low) * 100.0,
            );
            if hi < 1.0 {
                msg.push_str(" (1) unoptimized reads: so few remain that serving them from cell flash would save under 1% of DB time.");
            } else {
                msg.push_str(&format!(
                    " (1) unoptimized reads: {} would cut DB time by {}-{}%.",
                    crate::verdict::lower_first(&o.title),
                    f0(lo),
                    f0(hi)
                ));
            }
            if segs.is_empty() {
                fix.push("Find the segments with most unoptimized reads (Segments by UnOptimized Reads) and set CELL_FLASH_CACHE KEEP on them (002: use AWR to find the objects with most physical reads).".to_string());
            } else {
                fix.push(format!(
                    "Set CELL_FLASH_CACHE KEEP on the {} segments with most unoptimized reads (002: use AWR to find the objects with most physical reads); KEEP takes cell flash from other data, so keep the list short.",
                    segs.len().min(self.keep_sql_max)
                ));
                sql.extend(
                    segs.iter()
                        .take(self.keep_sql_max)
                        .filter_map(|s| s.sql.clone()),
                );
            }
        }
        // Redo: Smart Flash Log.
        if let Some(lfs) = w.event("log file sync")
            && lfs.pct_db_time >= self.log_file_sync_share_pct_min
        {
            let lfpw = w.background("log file parallel write");
            let slow = lfpw
                .as_ref()
                .is_none_or(|e| e.avg_ms >= self.redo_write_ms_slow);
            msg.push_str(&format!(
                " (2) redo: log file sync takes {}% of DB time ({} ms{}).",
                f1(lfs.pct_db_time),
                f2(lfs.avg_ms),
                lfpw.as_ref()
                    .map(|e| format!("; log file parallel write {} ms", f2(e.avg_ms)))
                    .unwrap_or_default()
            ));
            h = h.ev(row_ev(
                "log file sync share of DB time".into(),
                lfs.pct_db_time,
                "%",
                lfs.src(),
            ));
            if let Some(e) = &lfpw {
                h = h.ev(row_ev(
                    "log file parallel write average".into(),
                    e.avg_ms,
                    "ms",
                    e.src(),
                ));
            }
            if slow {
                warn = true;
                fix.push("Check that Smart Flash Log is on and healthy on every cell (CellCLI LIST FLASHLOG; default from storage software 11.2.2.4): it acknowledges each redo write from flash or disk, whichever finishes first (004: redo on flash took log file sync out of the top events).".to_string());
            } else {
                msg.push_str(" The redo write is already flash-fast, so Smart Flash Log can shorten little: the rest of log file sync is commit rate and LGWR scheduling, not storage.");
            }
        }
        // Writes: write-back flash cache.
        let ww = w.share_pct(&["free buffer waits", "write complete waits"]);
        let write_share = match (&w.read_iops, &w.write_iops) {
            (Some(r), Some(wr)) if r.value + wr.value > 0.0 => {
                Some(ratio(wr.value * 100.0, r.value + wr.value))
            }
            _ => None,
        };
        let heavy = write_share.filter(|s| *s >= self.write_share_pct_min);
        if ww >= self.write_wait_share_pct_min || heavy.is_some() {
            warn = true;
            msg.push_str(" (3) writes:");
            if ww >= self.write_wait_share_pct_min {
                msg.push_str(&format!(
                    " free buffer and write complete waits take {}% of DB time: DBWR cannot write fast enough.",
                    f1(ww)
                ));
                h = h.ev(derived(
                    "free buffer and write complete waits share of DB time",
                    ww,
                    "%",
                    "sum of free buffer waits and write complete waits / DB time",
                ));
            }
            if let Some(s) = heavy {
                msg.push_str(&format!(
                    " writes are {}% of I/O requests: a write-heavy load the write-through cell flash does not serve.",
                    f1(s)
                ));
                h = h.ev(derived(
                    "write share of I/O requests",
                    s,
                    "%",
                    "write requests/s / (read + write requests/s)",
                ));
            }
            fix.push("Run the cells' flash cache in write-back mode (CellCLI ALTER CELL flashCacheMode = WriteBack) if it is write-through (001: free buffer waits are DBWR not keeping up; 003: the flash cache serves read-mostly work, so write-through mode leaves writes on disk).".to_string());
        }
        fix.push("No seed covers I/O Resource Management: awrflash does not read the report's Exadata sections, so check Top Databases by Requests there; if several databases share these cells, an IORM plan (flashCacheMin, flashCacheLimit) keeps another database from taking this one's cell flash.".to_string());
        if warn {
            h = h.severity(Severity::Warning);
        }
        if let Some(best) = ctx.plan.options.first() {
            h = h.projection(Some(best.projection.clone()));
        }
        h.message = msg;
        vec![h.fix(fix.join(" "), sql)]
    }
}

/// The database runs on Exadata storage: `cell ...` wait events, or cell
/// flash cache read hits in the statistics.
pub fn on_exadata(w: &IntervalFacts) -> bool {
    w.events.iter().any(|e| e.name.starts_with("cell "))
        || w.stat_total("cell flash cache read hits")
            .is_some_and(|n| n.value > 0.0)
}

/// Why Database Smart Flash Cache is not an option for this database, in
/// one line; `None` when it is (or when the report does not show the
/// platform). It runs only on Oracle Linux and Oracle Solaris (the platform
/// from the report header), and on Exadata the cell flash cache already
/// plays its role.
pub fn flash_cache_unavailable(w: &IntervalFacts) -> Option<String> {
    if on_exadata(w) {
        return Some("Database Smart Flash Cache is not offered on Exadata, where the cell flash cache plays its role.".into());
    }
    if let crate::platform::Platform::Service(why) = crate::platform::detect(w) {
        return Some(format!(
            "Database Smart Flash Cache needs a flash device on the host, and a managed service gives no host access ({why})."
        ));
    }
    // A report without the platform (Statspack, some text reports) keeps
    // the option; the plan notes the platform requirement on it.
    let platform = w.report.header.platform.as_deref()?;
    let p = platform.to_ascii_lowercase();
    if p.contains("linux") || p.contains("solaris") {
        None
    } else {
        Some(format!(
            "Database Smart Flash Cache runs only on Oracle Linux and Oracle Solaris, and this database runs on {}.",
            platform.trim()
        ))
    }
}

/// Data file read and write requests per second from IOStat by Filetype,
/// when the report has a `Data File` row with both.
fn datafile_requests(w: &IntervalFacts) -> Option<(f64, f64)> {
    let rows: Vec<_> = w
        .report
        .iostat_filetype
        .iter()
        .filter(|r| {
            r.filetype
                .as_deref()
                .is_some_and(|f| f.trim().eq_ignore_ascii_case("data file"))
        })
        .collect();
    let r: Option<f64> = rows.iter().map(|x| x.read_reqs_per_s).sum();
    let wr: Option<f64> = rows.iter().map(|x| x.write_reqs_per_s).sum();
    match (r, wr) {
        (Some(r), Some(wr)) if !rows.is_empty() && r + wr > 0.0 => Some((r, wr)),
        _ => None,
    }
}
