//! Column layouts of iostat-like tables: header names to columns and units,
//! value cells, and one device row in common units.

use awrflash_model::{DeviceSample, SourceRef};

use super::round;

/// What one column of a device table holds, and its unit factor to KB.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Col {
    Device,
    Rs,
    Ws,
    Tps,
    Rkb(f64),
    Wkb(f64),
    Kb(f64),
    Await,
    RAwait,
    WAwait,
    /// Solaris `wsvc_t`, sar `avwait`: time queued before service.
    WaitT,
    /// Solaris `asvc_t`/`svc_t`, sar `avserv`: time in service.
    ServT,
    AvgRq(f64),
    Queue,
    /// Solaris `wait`: requests queued.
    WaitQ,
    /// Solaris `actv`: requests in service.
    Actv,
    Util,
    Ignore,
}

/// Maps a header cell to a column.
pub(crate) fn column(name: &str) -> Col {
    let n = name.trim_end_matches(':').to_ascii_lowercase();
    match n.as_str() {
        "device" | "dev" => Col::Device,
        "r/s" => Col::Rs,
        "w/s" => Col::Ws,
        "tps" | "r+w/s" => Col::Tps,
        "rkb/s" | "kb_read/s" | "kr/s" => Col::Rkb(1.0),
        "rmb/s" | "mb_read/s" | "mr/s" => Col::Rkb(1024.0),
        "rsec/s" | "rd_sec/s" | "blk_read/s" => Col::Rkb(0.5),
        "wkb/s" | "kb_wrtn/s" | "kw/s" => Col::Wkb(1.0),
        "wmb/s" | "mb_wrtn/s" | "mw/s" => Col::Wkb(1024.0),
        "wsec/s" | "wr_sec/s" | "blk_wrtn/s" => Col::Wkb(0.5),
        "blks/s" => Col::Kb(0.5),
        "kbs/s" => Col::Kb(1.0),
        "await" => Col::Await,
        "r_await" => Col::RAwait,
        "w_await" => Col::WAwait,
        "wsvc_t" | "avwait" => Col::WaitT,
        "asvc_t" | "svc_t" | "avserv" => Col::ServT,
        "avgrq-sz" => Col::AvgRq(0.5),
        "areq-sz" => Col::AvgRq(1.0),
        "avgqu-sz" | "aqu-sz" | "avque" => Col::Queue,
        "wait" => Col::WaitQ,
        "actv" => Col::Actv,
        "%util" | "%b" | "%busy" => Col::Util,
        _ => Col::Ignore,
    }
}

/// Whether a header row names device statistics.
pub(super) fn is_stat_column(c: Col) -> bool {
    !matches!(c, Col::Device | Col::Ignore)
}

/// A value cell: `.` or `,` as the decimal mark (iostat never prints
/// thousands separators), `#####` as overflow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Cell {
    Value(f64),
    Overflow,
    Invalid,
}

/// Decimal mark seen in a cell, for the mixed-locale warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    None,
    Dot,
    Comma,
}

pub(crate) fn cell(tok: &str) -> (Cell, Mark) {
    if !tok.is_empty() && tok.bytes().all(|b| b == b'#') {
        return (Cell::Overflow, Mark::None);
    }
    // Digits, one decimal mark, a sign first: anything else is no value.
    let mut mark = Mark::None;
    let (mut mantissa, mut digits, mut point) = (0u64, 0usize, 0usize);
    for (i, b) in tok.bytes().enumerate() {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa
                    .saturating_mul(10)
                    .saturating_add(u64::from(b - b'0'));
                digits += 1;
            }
            b'.' if mark == Mark::None => (mark, point) = (Mark::Dot, digits),
            b',' if mark == Mark::None => (mark, point) = (Mark::Comma, digits),
            b'-' | b'+' if i == 0 => {}
            _ => return (Cell::Invalid, Mark::None),
        }
    }
    // Most cells: a few digits, read as `str::parse` reads them without
    // calling it (a test compares the two over every short cell).
    let fraction = if mark == Mark::None {
        0
    } else {
        digits - point
    };
    if digits > 0
        && let Some(v) = crate::num::exact_decimal(mantissa, fraction)
    {
        let v = if tok.starts_with('-') { -v } else { v };
        return (Cell::Value(v), mark);
    }
    // Read as it is, or with its one comma made a point.
    let v = if mark == Mark::Comma {
        tok.replacen(',', ".", 1).parse::<f64>()
    } else {
        tok.parse::<f64>()
    };
    match v {
        Ok(v) if v.is_finite() => (Cell::Value(v), mark),
        _ => (Cell::Invalid, Mark::None),
    }
}

/// Values of one device row, before deriving the common fields.
#[derive(Debug, Default)]
pub(crate) struct Row {
    pub r_s: Option<f64>,
    pub w_s: Option<f64>,
    pub tps: Option<f64>,
    pub rkb: Option<f64>,
    pub wkb: Option<f64>,
    pub kb: Option<f64>,
    pub await_: Option<f64>,
    pub r_await: Option<f64>,
    pub w_await: Option<f64>,
    pub wait_t: Option<f64>,
    pub serv_t: Option<f64>,
    pub avg_rq: Option<f64>,
    pub queue: Option<f64>,
    pub wait_q: Option<f64>,
    pub actv: Option<f64>,
    pub util: Option<f64>,
}

impl Row {
    pub(crate) fn set(&mut self, col: Col, v: f64) {
        match col {
            Col::Rs => self.r_s = Some(v),
            Col::Ws => self.w_s = Some(v),
            Col::Tps => self.tps = Some(v),
            Col::Rkb(f) => self.rkb = Some(v * f),
            Col::Wkb(f) => self.wkb = Some(v * f),
            Col::Kb(f) => self.kb = Some(v * f),
            Col::Await => self.await_ = Some(v),
            Col::RAwait => self.r_await = Some(v),
            Col::WAwait => self.w_await = Some(v),
            Col::WaitT => self.wait_t = Some(v),
            Col::ServT => self.serv_t = Some(v),
            Col::AvgRq(f) => self.avg_rq = Some(v * f),
            Col::Queue => self.queue = Some(v),
            Col::WaitQ => self.wait_q = Some(v),
            Col::Actv => self.actv = Some(v),
            Col::Util => self.util = Some(v),
            Col::Device | Col::Ignore => {}
        }
    }

    /// The sample in common units.
    pub(crate) fn into_sample(self, device: &str, src: SourceRef) -> DeviceSample {
        let iops = match (self.r_s, self.w_s) {
            (Some(r), Some(w)) => Some(r + w),
            _ => self.tps,
        };
        let kb = match (self.rkb, self.wkb) {
            (Some(r), Some(w)) => Some(r + w),
            _ => self.kb,
        };
        let await_ms = self
            .await_
            .or(match (self.wait_t, self.serv_t) {
                (Some(w), Some(s)) => Some(w + s),
                (None, Some(s)) => Some(s),
                _ => None,
            })
            .or(match (self.r_s, self.w_s, self.r_await, self.w_await) {
                (Some(r), Some(w), Some(ra), Some(wa)) if r + w > 0.0 => {
                    Some(round((r * ra + w * wa) / (r + w)))
                }
                (Some(_), Some(_), Some(_), Some(_)) => Some(0.0),
                _ => None,
            });
        let avg_rq_kb = self.avg_rq.or(match (iops, kb) {
            (Some(n), Some(k)) if n > 0.0 => Some(round(k / n)),
            (Some(_), Some(_)) => Some(0.0),
            _ => None,
        });
        let queue = self.queue.or(match (self.wait_q, self.actv) {
            (Some(w), Some(a)) => Some(w + a),
            _ => None,
        });
        DeviceSample {
            time: None,
            interval: 0,
            device: device.to_string(),
            r_s: self.r_s,
            w_s: self.w_s,
            rkb_s: self.rkb,
            wkb_s: self.wkb,
            r_await_ms: self.r_await,
            w_await_ms: self.w_await,
            avg_rq_kb,
            queue,
            util_pct: self.util,
            since_boot: false,
            src,
            tps: self.tps.or(iops),
            kb_s: self.kb.or(kb),
            await_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cell` as the shape check and `str::parse` read it.
    fn cell_by_parse(tok: &str) -> (Cell, Mark) {
        if !tok.is_empty() && tok.bytes().all(|b| b == b'#') {
            return (Cell::Overflow, Mark::None);
        }
        let marks = tok.bytes().filter(|b| matches!(b, b'.' | b',')).count();
        let shape = tok.bytes().enumerate().all(|(i, b)| {
            b.is_ascii_digit() || matches!(b, b'.' | b',') || (i == 0 && matches!(b, b'-' | b'+'))
        });
        if !shape || marks > 1 {
            return (Cell::Invalid, Mark::None);
        }
        let mark = match (tok.contains('.'), tok.contains(',')) {
            (true, _) => Mark::Dot,
            (_, true) => Mark::Comma,
            _ => Mark::None,
        };
        match tok.replace(',', ".").parse::<f64>() {
            Ok(v) if v.is_finite() => (Cell::Value(v), mark),
            _ => (Cell::Invalid, Mark::None),
        }
    }

    /// A cell with its value's bits, so that -0 and 0 differ.
    fn bits((c, m): (Cell, Mark)) -> (Option<u64>, bool, bool, Mark) {
        match c {
            Cell::Value(v) => (Some(v.to_bits()), false, false, m),
            Cell::Overflow => (None, true, false, m),
            Cell::Invalid => (None, false, true, m),
        }
    }

    /// Every cell of up to five pieces (digits, a run of ten, both marks,
    /// signs, `#`, a letter), and cells past 15 digits or 22 decimals:
    /// read as `str::parse` reads them, bit for bit.
    #[test]
    fn cells_read_as_str_parse_reads_them() {
        let alphabet = ["0", "1", "7", ".", ",", "-", "+", "#", "x", "1234567890"];
        let mut cells = awrflash_testkit::every_text(&alphabet, 5);
        cells.extend(
            [
                "999999999999999",
                "1000000000000000",
                "12345678901234567890123",
                "-0",
                "-0,0",
                "0.0000000000000000000001",
                "0.00000000000000000000001",
                "4503599627370497.5",
            ]
            .map(String::from),
        );
        for t in &cells {
            assert_eq!(bits(cell(t)), bits(cell_by_parse(t)), "{t:?}");
        }
    }
}
