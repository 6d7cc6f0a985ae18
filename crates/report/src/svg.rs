//! Inline SVG charts built from numbers. This is the only markup the HTML
//! template inserts unescaped, so every piece of text that goes into an SVG
//! (labels, tooltips, names from the inputs) passes through [`esc`] here.

use std::fmt::Write as _;

use crate::fmt::{axis, coord};

/// Escapes text for SVG/HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML text.
            c if c.is_control() && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Chart colours: one palette for every chart, readable printed in grey.
pub const PALETTE: [&str; 8] = [
    "#4e79a7", "#e15759", "#f28e2b", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c9c9c",
];
pub(crate) const INK: &str = "#222";
const GRID: &str = "#ddd";
pub(crate) const MUTED: &str = "#666";
const ACCENT: &str = "#d62728";

/// An SVG document being written.
pub struct Svg {
    w: f64,
    h: f64,
    body: String,
}

impl Svg {
    pub fn new(w: f64, h: f64) -> Self {
        Self {
            w,
            h,
            body: String::new(),
        }
    }

    /// A rectangle, with an optional tooltip.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, tip: Option<&str>) {
        let _ = write!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}">"#,
            coord(x),
            coord(y),
            coord(w.max(0.0)),
            coord(h.max(0.0)),
            esc(fill)
        );
        if let Some(t) = tip {
            let _ = write!(self.body, "<title>{}</title>", esc(t));
        }
        self.body.push_str("</rect>");
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, dash: bool) {
        let _ = write!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1"{}/>"#,
            coord(x1),
            coord(y1),
            coord(x2),
            coord(y2),
            esc(stroke),
            if dash {
                r#" stroke-dasharray="4 3""#
            } else {
                ""
            }
        );
    }

    pub fn polyline(&mut self, pts: &[(f64, f64)], stroke: &str, dash: bool) {
        if pts.is_empty() {
            return;
        }
        let p: Vec<String> = pts
            .iter()
            .map(|(x, y)| format!("{},{}", coord(*x), coord(*y)))
            .collect();
        let _ = write!(
            self.body,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{}/>"#,
            p.join(" "),
            esc(stroke),
            if dash {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            }
        );
    }

    pub fn circle(&mut self, x: f64, y: f64, r: f64, fill: &str, tip: Option<&str>) {
        let _ = write!(
            self.body,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{}">"#,
            coord(x),
            coord(y),
            coord(r),
            esc(fill)
        );
        if let Some(t) = tip {
            let _ = write!(self.body, "<title>{}</title>", esc(t));
        }
        self.body.push_str("</circle>");
    }

    /// Text; `anchor` is `start`, `middle` or `end`.
    pub fn text(&mut self, x: f64, y: f64, s: &str, anchor: &str, size: f64, fill: &str) {
        let _ = write!(
            self.body,
            r#"<text x="{}" y="{}" text-anchor="{}" font-size="{}" fill="{}">{}</text>"#,
            coord(x),
            coord(y),
            esc(anchor),
            coord(size),
            esc(fill),
            esc(s)
        );
    }

    /// Text rotated by -45 degrees around its anchor point (long axis labels).
    pub fn text_slanted(&mut self, x: f64, y: f64, s: &str, size: f64) {
        let _ = write!(
            self.body,
            r#"<text x="{x}" y="{y}" text-anchor="end" font-size="{}" fill="{MUTED}" transform="rotate(-40 {x} {y})">{}</text>"#,
            coord(size),
            esc(s),
            x = coord(x),
            y = coord(y),
        );
    }

    /// The finished `<svg>` element; `label` is its accessible name. No `xmlns`:
    /// the HTML parser puts inline `<svg>` in the SVG namespace, and the page
    /// stays free of any URL.
    pub fn finish(self, label: &str) -> String {
        format!(
            r#"<svg viewBox="0 0 {} {}" role="img" aria-label="{}" font-family="sans-serif"><title>{}</title>{}</svg>"#,
            coord(self.w),
            coord(self.h),
            esc(label),
            esc(label),
            self.body
        )
    }
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `n` ticks up to `max`.
pub fn nice_step(max: f64, n: f64) -> f64 {
    if !max.is_finite() || max <= 0.0 {
        return 1.0;
    }
    let raw = max / n.max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// The top of an axis: the first tick at or above `max`.
pub fn nice_max(max: f64, n: f64) -> f64 {
    let step = nice_step(max, n);
    let top = (max / step).ceil() * step;
    if top <= 0.0 { step } else { top }
}

/// A plotting frame: the area inside the margins, with y axes.
pub(crate) struct Frame {
    pub(crate) left: f64,
    pub(crate) top: f64,
    pub(crate) w: f64,
    pub(crate) h: f64,
}

impl Frame {
    pub(crate) fn y(&self, v: f64, max: f64) -> f64 {
        let f = if max > 0.0 {
            (v / max).clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.top + self.h - f * self.h
    }

    /// The tick values of an axis from 0 to `max`.
    fn ticks(max: f64) -> Vec<f64> {
        let step = nice_step(max, 4.0);
        (0..20)
            .map(|i| f64::from(i) * step)
            .take_while(|v| *v <= max * 1.0001)
            .collect()
    }

    /// Horizontal grid lines and left tick labels up to `max`.
    pub(crate) fn left_axis(&self, svg: &mut Svg, max: f64, unit: &str) {
        for v in Self::ticks(max) {
            let y = self.y(v, max);
            svg.line(self.left, y, self.left + self.w, y, GRID, false);
            svg.text(self.left - 6.0, y + 4.0, &axis(v), "end", 11.0, MUTED);
        }
        // The unit goes above the axis, from the left edge, so long units stay inside.
        svg.text(4.0, self.top - 10.0, unit, "start", 11.0, MUTED);
        svg.line(
            self.left,
            self.top + self.h,
            self.left + self.w,
            self.top + self.h,
            INK,
            false,
        );
    }

    /// Right tick labels up to `max` (no grid).
    fn right_axis(&self, svg: &mut Svg, max: f64, unit: &str, color: &str) {
        for v in Self::ticks(max) {
            let y = self.y(v, max);
            svg.text(
                self.left + self.w + 6.0,
                y + 4.0,
                &axis(v),
                "start",
                11.0,
                color,
            );
        }
        svg.text(
            self.left + self.w + 50.0,
            self.top - 10.0,
            unit,
            "end",
            11.0,
            color,
        );
    }
}

/// One stacked bar of a breakdown chart.
pub struct StackedBar<'a> {
    pub label: &'a str,
    /// `(component, seconds)`, in legend order.
    pub parts: Vec<(&'a str, f64)>,
}

/// Horizontal stacked bars sharing one scale (DB time before vs after).
pub fn stacked_bars(bars: &[StackedBar<'_>], label: &str) -> String {
    let width = 760.0;
    let left = 120.0;
    let right = 90.0;
    let bar_h = 34.0;
    let gap = 18.0;
    let legend_h = 22.0 * 2.0;
    let height = 20.0 + bars.len() as f64 * (bar_h + gap) + legend_h + 10.0;
    let mut svg = Svg::new(width, height);
    let max = bars
        .iter()
        .map(|b| b.parts.iter().map(|p| p.1.max(0.0)).sum::<f64>())
        .fold(0.0, f64::max);
    let plot_w = width - left - right;
    for (i, bar) in bars.iter().enumerate() {
        let y = 20.0 + i as f64 * (bar_h + gap);
        svg.text(
            left - 8.0,
            y + bar_h / 2.0 + 4.0,
            bar.label,
            "end",
            13.0,
            INK,
        );
        let total: f64 = bar.parts.iter().map(|p| p.1.max(0.0)).sum();
        let mut x = left;
        for (j, (name, v)) in bar.parts.iter().enumerate() {
            let v = v.max(0.0);
            if v <= 0.0 || max <= 0.0 {
                continue;
            }
            let w = v / max * plot_w;
            let share = if total > 0.0 { v / total * 100.0 } else { 0.0 };
            let tip = format!(
                "{}: {} ({} of {})",
                name,
                crate::fmt::secs(v),
                crate::fmt::pct(share),
                bar.label
            );
            let color = PALETTE.get(j % PALETTE.len()).copied().unwrap_or(INK);
            svg.rect(x, y, w, bar_h, color, Some(&tip));
            if w > 46.0 {
                svg.text(
                    x + w / 2.0,
                    y + bar_h / 2.0 + 4.0,
                    &crate::fmt::pct(share),
                    "middle",
                    11.0,
                    "#fff",
                );
            }
            x += w;
        }
        svg.text(
            x + 6.0,
            y + bar_h / 2.0 + 4.0,
            &crate::fmt::secs(total),
            "start",
            12.0,
            INK,
        );
    }
    // Legend: the components of the first bar, in order, wrapped on two rows.
    if let Some(first) = bars.first() {
        let ly = 20.0 + bars.len() as f64 * (bar_h + gap) + 4.0;
        let per_row = first.parts.len().div_ceil(2).max(1);
        for (j, (name, _)) in first.parts.iter().enumerate() {
            let row = (j / per_row) as f64;
            let col = (j % per_row) as f64;
            let x = left + col * (plot_w + right) / per_row as f64;
            let y = ly + row * 22.0;
            let color = PALETTE.get(j % PALETTE.len()).copied().unwrap_or(INK);
            svg.rect(x, y, 12.0, 12.0, color, None);
            svg.text(x + 16.0, y + 10.5, name, "start", 11.5, INK);
        }
    }
    svg.finish(label)
}

/// Vertical bars with a label under each (a latency histogram).
pub fn bars(values: &[(String, f64)], unit: &str, label: &str) -> String {
    let width = 360.0;
    let height = 210.0;
    let fr = Frame {
        left: 44.0,
        top: 24.0,
        w: width - 56.0,
        h: height - 70.0,
    };
    let mut svg = Svg::new(width, height);
    let max = nice_max(values.iter().map(|v| v.1).fold(0.0, f64::max), 4.0);
    fr.left_axis(&mut svg, max, unit);
    let n = values.len().max(1) as f64;
    let slot = fr.w / n;
    for (i, (name, v)) in values.iter().enumerate() {
        let x = fr.left + i as f64 * slot;
        let y = fr.y(*v, max);
        let tip = format!("{name}: {}{unit}", crate::fmt::fixed(*v, 1));
        svg.rect(
            x + slot * 0.12,
            y,
            slot * 0.76,
            fr.top + fr.h - y,
            PALETTE[0],
            Some(&tip),
        );
        if n <= 12.0 && *v > 0.0 {
            svg.text(
                x + slot / 2.0,
                y - 3.0,
                &crate::fmt::fixed(*v, 1),
                "middle",
                9.5,
                INK,
            );
        }
        if n <= 12.0 {
            svg.text(
                x + slot / 2.0,
                fr.top + fr.h + 14.0,
                name,
                "middle",
                10.0,
                MUTED,
            );
        } else {
            svg.text_slanted(x + slot / 2.0, fr.top + fr.h + 12.0, name, 9.0);
        }
    }
    svg.finish(label)
}

/// One line of a [`lines`] chart.
pub struct Series<'a> {
    pub name: &'a str,
    pub ys: Vec<f64>,
    pub right_axis: bool,
    pub dashed: bool,
    pub unit: &'a str,
}

/// A vertical marker on a line chart (a recommended size, a peak).
pub struct Marker<'a> {
    pub at: usize,
    pub text: &'a str,
}

/// A line chart over shared x labels; up to two y axes (left, right).
/// `positions` places the points on a numeric x scale (flash cache size as a
/// multiple of the buffer cache); without it they are evenly spaced (report
/// intervals).
pub fn lines(
    xs: &[String],
    positions: Option<&[f64]>,
    series: &[Series<'_>],
    x_title: &str,
    marker: Option<Marker<'_>>,
    label: &str,
) -> String {
    let width = 760.0;
    let height = 280.0;
    let fr = Frame {
        left: 64.0,
        top: 36.0,
        w: width - 64.0 - 70.0,
        h: height - 36.0 - 64.0,
    };
    let mut svg = Svg::new(width, height);
    let max_of = |right: bool| {
        nice_max(
            series
                .iter()
                .filter(|s| s.right_axis == right)
                .flat_map(|s| s.ys.iter().copied())
                .filter(|v| v.is_finite())
                .fold(0.0, f64::max),
            4.0,
        )
    };
    let lmax = max_of(false);
    let rmax = max_of(true);
    let left_unit = series.iter().find(|s| !s.right_axis).map_or("", |s| s.unit);
    fr.left_axis(&mut svg, lmax, left_unit);
    if let Some(r) = series.iter().position(|s| s.right_axis) {
        let color = PALETTE.get(r % PALETTE.len()).copied().unwrap_or(INK);
        let unit = series.get(r).map_or("", |s| s.unit);
        fr.right_axis(&mut svg, rmax, unit, color);
    }
    let n = xs.len();
    let scale = positions.and_then(|p| {
        let finite = p.iter().copied().filter(|v| v.is_finite());
        let lo = finite.clone().fold(f64::INFINITY, f64::min);
        let hi = finite.fold(f64::NEG_INFINITY, f64::max);
        (p.len() == n && hi > lo).then_some((p, lo, hi))
    });
    let x_at = |i: usize| match scale {
        Some((p, lo, hi)) => {
            let v = p.get(i).copied().filter(|v| v.is_finite()).unwrap_or(lo);
            fr.left + (v - lo) / (hi - lo) * fr.w
        }
        None if n <= 1 => fr.left + fr.w / 2.0,
        None => fr.left + i as f64 * fr.w / (n - 1) as f64,
    };
    // X labels: as many as fit side by side (about 6 px per character at
    // 10.5 px), always the first, and the last when it does not touch the
    // one before it.
    let longest = xs.iter().map(|x| x.chars().count()).max().unwrap_or(1) as f64;
    let label_w = longest * 6.0 + 12.0;
    let fit = ((fr.w + label_w) / label_w).floor().max(2.0) as usize;
    let every = n.div_ceil(fit).max(1);
    let mut last_shown: Option<usize> = None;
    for (i, xl) in xs.iter().enumerate() {
        let regular = i % every == 0;
        let final_one = i + 1 == n && last_shown.is_none_or(|p| x_at(i) - x_at(p) >= label_w);
        if regular || final_one {
            svg.text(x_at(i), fr.top + fr.h + 16.0, xl, "middle", 10.5, MUTED);
            last_shown = Some(i);
        }
    }
    svg.text(
        fr.left + fr.w / 2.0,
        fr.top + fr.h + 34.0,
        x_title,
        "middle",
        11.5,
        INK,
    );
    if let Some(m) = &marker
        && m.at < n
    {
        let x = x_at(m.at);
        svg.line(x, fr.top, x, fr.top + fr.h, ACCENT, true);
        let anchor = if m.at * 2 > n { "end" } else { "start" };
        let dx = if anchor == "end" { -4.0 } else { 4.0 };
        svg.text(x + dx, fr.top + 10.0, m.text, anchor, 11.0, ACCENT);
    }
    for (k, s) in series.iter().enumerate() {
        let color = PALETTE.get(k % PALETTE.len()).copied().unwrap_or(INK);
        let max = if s.right_axis { rmax } else { lmax };
        let pts: Vec<(f64, f64)> =
            s.ys.iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .map(|(i, v)| (x_at(i), fr.y(*v, max)))
                .collect();
        svg.polyline(&pts, color, s.dashed);
        for (i, v) in s.ys.iter().enumerate() {
            if v.is_finite() {
                let xl = xs.get(i).map_or("", String::as_str);
                let tip = format!("{} at {}: {} {}", s.name, xl, crate::fmt::num(*v), s.unit);
                svg.circle(x_at(i), fr.y(*v, max), 3.0, color, Some(&tip));
            }
        }
        // Legend above the plot.
        let lx = fr.left + k as f64 * 240.0;
        svg.line(lx, 12.0, lx + 18.0, 12.0, color, s.dashed);
        svg.rect(lx, 11.0, 18.0, 2.0, color, None);
        let axis_note = if series.iter().any(|o| o.right_axis) {
            if s.right_axis { " (right)" } else { " (left)" }
        } else {
            ""
        };
        svg.text(
            lx + 24.0,
            16.0,
            &format!("{}{}", s.name, axis_note),
            "start",
            11.5,
            INK,
        );
    }
    svg.finish(label)
}

/// A Pareto chart: bars (left axis) and the cumulative percentage (right axis, 0-100%).
pub fn pareto(names: &[String], values: &[f64], cumulative: &[f64], label: &str) -> String {
    let width = 760.0;
    let height = 300.0;
    let fr = Frame {
        left: 64.0,
        top: 30.0,
        w: width - 64.0 - 56.0,
        h: height - 30.0 - 56.0,
    };
    let mut svg = Svg::new(width, height);
    let max = nice_max(values.iter().copied().fold(0.0, f64::max), 4.0);
    fr.left_axis(&mut svg, max, "read requests");
    fr.right_axis(&mut svg, 100.0, "cumulative %", PALETTE[1]);
    let n = values.len().max(1) as f64;
    let slot = fr.w / n;
    let mut pts = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let x = fr.left + i as f64 * slot;
        let y = fr.y(*v, max);
        let name = names.get(i).map_or("", String::as_str);
        let cum = cumulative.get(i).copied().unwrap_or(f64::NAN);
        let tip = format!(
            "#{} {}: {} read requests, {} cumulative",
            i + 1,
            name,
            crate::fmt::num(*v),
            crate::fmt::pct(cum)
        );
        svg.rect(
            x + slot * 0.1,
            y,
            slot * 0.8,
            fr.top + fr.h - y,
            PALETTE[0],
            Some(&tip),
        );
        svg.text(
            x + slot / 2.0,
            fr.top + fr.h + 14.0,
            &format!("{}", i + 1),
            "middle",
            10.0,
            MUTED,
        );
        if cum.is_finite() {
            pts.push((x + slot / 2.0, fr.y(cum, 100.0)));
        }
    }
    svg.polyline(&pts, PALETTE[1], false);
    for (i, p) in pts.iter().enumerate() {
        let cum = cumulative.get(i).copied().unwrap_or(f64::NAN);
        svg.circle(
            p.0,
            p.1,
            3.0,
            PALETTE[1],
            Some(&format!("{} cumulative", crate::fmt::pct(cum))),
        );
    }
    svg.text(
        fr.left + fr.w / 2.0,
        fr.top + fr.h + 34.0,
        "segment rank (see the table for names)",
        "middle",
        11.5,
        INK,
    );
    svg.finish(label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_labels_are_escaped() {
        let mut svg = Svg::new(10.0, 10.0);
        svg.text(0.0, 0.0, "<script>alert(1)</script>", "start", 10.0, "#000");
        let out = svg.finish("\"><img src=x onerror=alert(1)>");
        assert!(!out.contains("<script>"));
        assert!(!out.contains("<img"));
        assert!(out.contains("&lt;script&gt;"));
        assert!(out.contains("&quot;&gt;&lt;img"));
    }

    #[test]
    fn nice_steps_are_one_two_five() {
        assert_eq!(nice_step(100.0, 4.0), 50.0);
        assert_eq!(nice_step(7.0, 4.0), 2.0);
        assert_eq!(nice_max(7.0, 4.0), 8.0);
        assert_eq!(nice_max(0.0, 4.0), 1.0);
        assert_eq!(nice_step(f64::NAN, 4.0), 1.0);
    }

    #[test]
    fn long_x_labels_are_thinned_so_they_do_not_overlap() {
        let xs: Vec<String> = (0..168)
            .map(|i| format!("2026-11-{:02}T{:02}:00:00", 16 + i / 24, i % 24))
            .collect();
        let ys: Vec<f64> = (0..168).map(f64::from).collect();
        let out = lines(
            &xs,
            None,
            &[Series {
                name: "DB time",
                ys,
                right_axis: false,
                dashed: false,
                unit: "s",
            }],
            "interval",
            None,
            "week",
        );
        let shown = xs
            .iter()
            .filter(|x| out.contains(&format!(">{x}<")))
            .count();
        // 626 px of plot, labels of 19 characters (about 126 px): at most 5 or 6.
        assert!((2..=6).contains(&shown), "{shown} labels");
    }

    #[test]
    fn empty_charts_do_not_panic() {
        assert!(bars(&[], "%", "empty").starts_with("<svg"));
        assert!(lines(&[], None, &[], "x", None, "empty").starts_with("<svg"));
        assert!(lines(&[], Some(&[]), &[], "x", None, "empty").starts_with("<svg"));
        assert!(pareto(&[], &[], &[], "empty").starts_with("<svg"));
        assert!(stacked_bars(&[], "empty").starts_with("<svg"));
    }
}
