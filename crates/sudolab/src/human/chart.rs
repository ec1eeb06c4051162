//! The calibration chart of `rate --against`: one self-contained HTML page with an SVG bubble
//! chart of our rating against the ground truth, one bubble per pair of values, its area the
//! number of puzzles, and the diagonal where the two scales agree.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The page for `pairs` of (ground truth, our rating), titled with `title` (escaped here).
pub fn calibration_html(
    title: &str,
    pairs: &[(f64, f64)],
    spearman: Option<f64>,
    kendall: Option<f64>,
) -> String {
    let mut counts: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    for &(truth, ours) in pairs {
        *counts
            .entry(((truth * 10.0).round() as i64, (ours * 10.0).round() as i64))
            .or_default() += 1;
    }
    let values = pairs.iter().flat_map(|&(a, b)| [a, b]);
    let low = values
        .clone()
        .fold(f64::INFINITY, f64::min)
        .floor()
        .min(1.0);
    let high = values
        .fold(f64::NEG_INFINITY, f64::max)
        .ceil()
        .max(low + 1.0);
    let (size, margin) = (480.0, 60.0);
    let scale = |value: f64| (value - low) / (high - low) * size;
    let most = counts.values().copied().max().unwrap_or(1) as f64;
    let mut svg = String::new();
    let total = size + 2.0 * margin;
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total}\" height=\"{total}\" \
         role=\"img\" aria-label=\"sudolab rating against the ground truth\">"
    );
    let (x0, y0) = (margin, margin + size);
    let _ = write!(
        svg,
        "<rect x=\"{x0}\" y=\"{margin}\" width=\"{size}\" height=\"{size}\" fill=\"none\" \
         stroke=\"#888\"/><line x1=\"{x0}\" y1=\"{y0}\" x2=\"{}\" y2=\"{margin}\" \
         stroke=\"#bbb\" stroke-dasharray=\"4 4\"/>",
        x0 + size
    );
    let mut tick = low;
    while tick <= high + 1e-9 {
        let offset = scale(tick);
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">{tick}</text>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{tick}</text>",
            x0 + offset,
            y0 + 18.0,
            x0 - 6.0,
            y0 - offset + 4.0
        );
        tick += 1.0;
    }
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"middle\">ground truth \
         (Sudoku Explainer rating)</text><text x=\"16\" y=\"{:.1}\" font-size=\"13\" \
         text-anchor=\"middle\" transform=\"rotate(-90 16 {:.1})\">sudolab rating (path of \
         easiest steps)</text>",
        x0 + size / 2.0,
        y0 + 42.0,
        margin + size / 2.0,
        margin + size / 2.0
    );
    for (&(truth, ours), &count) in &counts {
        let (truth, ours) = (truth as f64 / 10.0, ours as f64 / 10.0);
        let radius = 2.0 + 12.0 * (count as f64 / most).sqrt();
        let _ = write!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{radius:.1}\" fill=\"#3366cc\" \
             fill-opacity=\"0.45\"><title>truth {truth:.1}, ours {ours:.1}: {count} \
             puzzle{}</title></circle>",
            x0 + scale(truth),
            y0 - scale(ours),
            if count == 1 { "" } else { "s" }
        );
    }
    svg.push_str("</svg>");
    let shown = |value: Option<f64>| value.map_or("undefined".to_string(), |v| format!("{v:.4}"));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>sudolab rating \
         calibration</title><style>body{{font-family:sans-serif;margin:2em}}</style></head>\
         <body><h1>Rating calibration</h1><p>{} puzzles of {}: Spearman {}, Kendall tau-b {}. \
         One bubble per pair of ratings, its area the number of puzzles; the dashed line is \
         where the scales agree.</p>{svg}</body></html>\n",
        pairs.len(),
        escape(title),
        shown(spearman),
        shown(kendall)
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_has_one_bubble_per_pair_of_values_and_escapes_the_title() {
        let page = calibration_html(
            "a<b>.txt",
            &[(5.5, 5.5), (5.5, 5.5), (7.2, 7.1)],
            Some(1.0),
            Some(1.0),
        );
        assert_eq!(page.matches("<circle").count(), 2);
        assert!(page.contains("truth 5.5, ours 5.5: 2 puzzles"));
        assert!(page.contains("truth 7.2, ours 7.1: 1 puzzle<"));
        assert!(page.contains("3 puzzles of a&lt;b&gt;.txt: Spearman 1.0000"));
        assert!(page.starts_with("<!DOCTYPE html>"));
    }
}
