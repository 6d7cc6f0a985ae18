//! Before/after charts of a comparison, as finished `<svg>` markup (text
//! escaped by the SVG builder).

use crate::fmt;
use crate::svg::{Frame, INK, MUTED, PALETTE, Svg, nice_max};

/// Two bars per label (before, after) on one scale, with a legend. `width`
/// is the chart's own width; long labels are slanted under the bars and get
/// the room they need.
pub fn paired_bars(
    labels: &[String],
    before: &[f64],
    after: &[f64],
    unit: &str,
    label: &str,
    width: f64,
) -> String {
    let n = labels.len().max(1) as f64;
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let slanted = longest * 5.5 > (width - 56.0) / n;
    let below = if slanted { 34.0 + longest * 4.4 } else { 54.0 };
    let height = 146.0 + below;
    let fr = Frame {
        left: 44.0,
        top: 30.0,
        w: width - 56.0,
        h: 116.0,
    };
    let mut svg = Svg::new(width, height);
    let max = nice_max(
        before
            .iter()
            .chain(after)
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max),
        4.0,
    );
    fr.left_axis(&mut svg, max, unit);
    let slot = fr.w / n;
    let sides = [("before", before, PALETTE[0]), ("after", after, PALETTE[4])];
    for (i, name) in labels.iter().enumerate() {
        let x0 = fr.left + i as f64 * slot;
        for (j, (side, vals, color)) in sides.iter().enumerate() {
            let v = vals.get(i).copied().unwrap_or(0.0);
            let y = fr.y(v, max);
            let tip = format!("{name}, {side}: {}", fmt::with_unit(v, unit));
            svg.rect(
                x0 + slot * (0.1 + 0.4 * j as f64),
                y,
                slot * 0.38,
                fr.top + fr.h - y,
                color,
                Some(&tip),
            );
        }
        if !slanted {
            svg.text(
                x0 + slot / 2.0,
                fr.top + fr.h + 14.0,
                name,
                "middle",
                10.0,
                MUTED,
            );
        } else {
            svg.text_slanted(x0 + slot / 2.0, fr.top + fr.h + 12.0, name, 9.0);
        }
    }
    for (j, (side, _, color)) in sides.iter().enumerate() {
        let x = fr.left + j as f64 * 90.0;
        let y = height - 16.0;
        svg.rect(x, y - 10.0, 12.0, 12.0, color, None);
        svg.text(x + 16.0, y, side, "start", 11.5, INK);
    }
    svg.finish(label)
}
