//! The HTML report: one self-contained file (inline CSS, inline SVG charts, nothing fetched).
//!
//! Charts are drawn by `plotters` with its SVG backend only: the time distribution of each
//! strategy (cumulative, log time axis), mean nodes per strategy, and mean nodes against the
//! number of clues.

use std::fmt::Write as _;

use plotters::prelude::*;

use super::markdown::context_pairs;
use super::table::{Align, Emphasis, Table, rows_table, summary_table};
use super::{Report, Summary};

const WIDTH: u32 = 760;
const HEIGHT: u32 = 380;

/// A colour per strategy, stable across charts.
fn colour(index: usize) -> RGBColor {
    const PALETTE: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    PALETTE[index % PALETTE.len()]
}

/// Renders the whole report as one HTML page.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let w = &mut out;
    w.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>sudolab comparison</title>\n<style>\n\
         body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}\n\
         table{border-collapse:collapse;margin:1em 0;font-size:14px}\n\
         th,td{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right}\n\
         th{background:#f0f0f0}.bad{color:#b00;font-weight:bold}.warn{color:#a60}\n\
         figure{margin:1em 0}figcaption{font-size:14px;color:#555}\n\
         code{font-size:12px}\n</style></head><body>\n<h1>sudolab comparison</h1>\n",
    );
    if let Some(reason) = report.incomplete_reason() {
        writeln!(
            w,
            "<p class=\"bad\" id=\"incomplete\">Incomplete: {}.</p>",
            escape(&reason)
        )
        .expect("String write");
    }
    w.push_str("<table id=\"context\">\n");
    for (key, value) in context_pairs(report) {
        writeln!(w, "<tr><th>{key}</th><td>{}</td></tr>", escape(&value)).expect("String write");
    }
    w.push_str("</table>\n<h2>Per strategy</h2>\n");
    write_table(w, "summary", &summary_table(&report.summary));
    problems_section(w, report);
    if !report.input_errors.is_empty() {
        writeln!(
            w,
            "<h2>Input errors</h2>\n<p class=\"bad\">{} records could not be read and are not \
             in the tables:</p>\n<ul id=\"input-errors\">",
            report.input_errors.len()
        )
        .expect("String write");
        for error in &report.input_errors {
            writeln!(w, "<li><code>{}</code></li>", escape(error)).expect("String write");
        }
        w.push_str("</ul>\n");
    }
    w.push_str("<h2>Charts</h2>\n");
    for (id, caption, svg) in [
        (
            "chart-time",
            "Time per puzzle: the fraction of puzzles each strategy finished within a time \
             (cumulative; further left is faster). Searches stopped by a budget count at the \
             time they stopped.",
            time_chart(&report.summary),
        ),
        (
            "chart-nodes",
            "Mean search nodes per puzzle (log scale); engines that do not count nodes are \
             left out.",
            nodes_chart(&report.summary),
        ),
        (
            "chart-clues",
            "Mean search nodes against the number of clues.",
            clues_chart(&report.summary),
        ),
    ] {
        writeln!(
            w,
            "<figure id=\"{id}\">{svg}<figcaption>{caption}</figcaption></figure>"
        )
        .expect("String write");
    }
    rows_section(w, report);
    w.push_str("</body></html>\n");
    out
}

fn problems_section(w: &mut String, report: &Report) {
    w.push_str("<h2>Cross-check</h2>\n");
    if report.puzzles == 0 {
        w.push_str("<p id=\"verdict\">No puzzles were compared.</p>\n");
    } else if report.problems.is_empty() {
        w.push_str(
            "<p id=\"verdict\">Every returned grid was certified; every definite verdict agrees \
             across strategies.</p>\n",
        );
    } else {
        writeln!(
            w,
            "<p id=\"verdict\" class=\"bad\">{} problems.</p>\n<table><tr><th>source</th>\
             <th>kind</th><th>detail</th><th>puzzle</th></tr>",
            report.problems.len()
        )
        .expect("String write");
        for p in &report.problems {
            writeln!(
                w,
                "<tr class=\"bad\"><td>{}</td><td>{:?}</td><td>{}</td><td><code>{}</code></td></tr>",
                escape(&p.source),
                p.problem.kind,
                escape(&p.problem.detail),
                escape(&p.grid)
            )
            .expect("String write");
        }
        w.push_str("</table>\n");
    }
}

fn rows_section(w: &mut String, report: &Report) {
    w.push_str("<h2>Per puzzle</h2>\n");
    if let Some(note) = report.rows_note() {
        writeln!(w, "<p id=\"rows-note\">{}</p>", escape(&note)).expect("String write");
    }
    write_table(w, "rows", &rows_table(report.listed_rows()));
}

/// A table; numbers right-aligned (class `n`), warnings marked (class `warn`).
fn write_table(w: &mut String, id: &str, table: &Table) {
    write!(w, "<table id=\"{id}\"><tr>").expect("String write");
    for column in &table.columns {
        write!(w, "<th>{}</th>", escape(&column.heading())).expect("String write");
    }
    w.push_str("</tr>\n");
    for row in &table.rows {
        w.push_str("<tr>");
        for (column, cell) in table.columns.iter().zip(row) {
            let class = match (column.align, cell.emphasis) {
                (Align::Left, Emphasis::Plain) => "",
                (Align::Left, Emphasis::Warning) => " class=\"warn\"",
                (Align::Right, Emphasis::Plain) => " class=\"n\"",
                (Align::Right, Emphasis::Warning) => " class=\"n warn\"",
            };
            write!(w, "<td{class}>{}</td>", escape(&cell.text)).expect("String write");
        }
        w.push_str("</tr>\n");
    }
    w.push_str("</table>\n");
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A log axis range that holds `values`, padded to whole decades.
fn decades(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    // A report is input like any other: values beyond 1e15 (31 years in microseconds, or more
    // nodes than any search makes) or not finite are left off the axis, whose key points
    // plotters would otherwise count without end (issue 22, D11).
    let (low, high) = values
        .filter(|v| v.is_finite() && *v > 0.0 && *v <= 1e15)
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if low > high {
        return 0.1..10.0;
    }
    10f64.powf(low.log10().floor())..10f64.powf(high.log10().ceil().max(low.log10().floor() + 1.0))
}

/// Draws with `draw` into an SVG string; a drawing error becomes a note in place of the chart.
fn svg(
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Result<(), String>,
) -> String {
    let mut buffer = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut buffer, (WIDTH, HEIGHT)).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(|err| err.to_string())
            .and_then(|()| draw(&root));
        drawn.and_then(|()| root.present().map_err(|err| err.to_string()))
    };
    match result {
        Ok(()) => buffer,
        Err(err) => format!("<p class=\"bad\">chart not drawn: {}</p>", escape(&err)),
    }
}

fn time_chart(summary: &[Summary]) -> String {
    svg(|root| {
        let x = decades(summary.iter().flat_map(|s| s.time_cdf.iter().map(|p| p.1)));
        let mut chart = ChartBuilder::on(root)
            .caption("time per puzzle (cumulative)", ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(x.log_scale(), 0f64..1f64)
            .map_err(|err| err.to_string())?;
        chart
            .configure_mesh()
            .x_desc("microseconds per puzzle (log)")
            .x_label_formatter(&|v| short(*v))
            .y_desc("fraction of puzzles")
            .draw()
            .map_err(|err| err.to_string())?;
        for (index, s) in summary.iter().enumerate() {
            let style = colour(index).stroke_width(2);
            let mut points: Vec<(f64, f64)> = vec![(s.time_cdf.first().map_or(1.0, |p| p.1), 0.0)];
            points.extend(
                s.time_cdf
                    .iter()
                    .map(|(fraction, us)| (us.max(1e-3), *fraction)),
            );
            chart
                .draw_series(LineSeries::new(points, style))
                .map_err(|err| err.to_string())?
                .label(s.strategy.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|err| err.to_string())
    })
}

fn nodes_chart(summary: &[Summary]) -> String {
    let bars: Vec<(usize, &str, f64)> = summary
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.nodes_mean.map(|n| (i, s.strategy.as_str(), n.max(1.0))))
        .collect();
    if bars.is_empty() {
        return "<p>No strategy here counts search nodes.</p>".to_string();
    }
    svg(|root| {
        let x = decades(bars.iter().map(|b| b.2));
        let names: Vec<String> = bars.iter().map(|b| b.1.to_string()).collect();
        let count = bars.len();
        let mut chart = ChartBuilder::on(root)
            .caption("mean nodes per puzzle", ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(90)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..count as f64)
            .map_err(|err| err.to_string())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(count * 2 + 1)
            .y_label_formatter(&|y| {
                let slot = *y - 0.5;
                if slot >= 0.0 && (slot - slot.round()).abs() < 1e-6 {
                    names
                        .get(slot.round() as usize)
                        .cloned()
                        .unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_desc("nodes (log)")
            .x_label_formatter(&|v| short(*v))
            .draw()
            .map_err(|err| err.to_string())?;
        chart
            .draw_series(bars.iter().enumerate().map(|(slot, (index, _, nodes))| {
                Rectangle::new(
                    [(x.start, slot as f64 + 0.15), (*nodes, slot as f64 + 0.85)],
                    colour(*index).filled(),
                )
            }))
            .map_err(|err| err.to_string())?;
        Ok(())
    })
}

/// One strategy's line: its colour index, name and points.
type Series<'a> = (usize, &'a str, Vec<(f64, f64)>);

fn clues_chart(summary: &[Summary]) -> String {
    // Clue counts only compare within one board size: chart the size with the most puzzles.
    let mut per_side: std::collections::BTreeMap<usize, u64> = std::collections::BTreeMap::new();
    for point in summary.iter().flat_map(|s| &s.nodes_by_clues) {
        *per_side.entry(point.0).or_default() += point.2;
    }
    let Some(side) = per_side
        .iter()
        .max_by_key(|(side, puzzles)| (**puzzles, **side))
        .map(|(side, _)| *side)
    else {
        return "<p>No strategy here counts search nodes.</p>".to_string();
    };
    let series: Vec<Series<'_>> = summary
        .iter()
        .enumerate()
        .map(|(index, s)| {
            let points = s
                .nodes_by_clues
                .iter()
                .filter(|p| p.0 == side)
                .map(|p| (p.1 as f64, p.3.max(1.0)))
                .collect::<Vec<_>>();
            (index, s.strategy.as_str(), points)
        })
        .filter(|(_, _, points)| !points.is_empty())
        .collect();
    svg(|root| {
        let (low, high) = series
            .iter()
            .flat_map(|(_, _, points)| points.iter().map(|p| p.0))
            .fold((f64::MAX, f64::MIN), |(lo, hi), c| (lo.min(c), hi.max(c)));
        let y = decades(
            series
                .iter()
                .flat_map(|(_, _, points)| points.iter().map(|p| p.1)),
        );
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("mean nodes against clues, {side}x{side} puzzles"),
                ("sans-serif", 18),
            )
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(low - 0.5..high + 0.5, y.log_scale())
            .map_err(|err| err.to_string())?;
        chart
            .configure_mesh()
            .x_desc("clues")
            .y_desc("mean nodes (log)")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| short(*v))
            .draw()
            .map_err(|err| err.to_string())?;
        for (index, name, points) in &series {
            let style = colour(*index);
            chart
                .draw_series(LineSeries::new(points.clone(), style.stroke_width(1)))
                .map_err(|err| err.to_string())?
                .label(*name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
            chart
                .draw_series(points.iter().map(|p| Circle::new(*p, 3, style.filled())))
                .map_err(|err| err.to_string())?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|err| err.to_string())
    })
}

/// A number for a log axis: 1, 10, 100, 1k, 10k, 1M...
fn short(value: f64) -> String {
    let (scaled, unit) = match value.abs() {
        v if v >= 1e9 => (value / 1e9, "G"),
        v if v >= 1e6 => (value / 1e6, "M"),
        v if v >= 1e3 => (value / 1e3, "k"),
        _ => (value, ""),
    };
    if (scaled - scaled.round()).abs() < 1e-9 {
        format!("{scaled:.0}{unit}")
    } else {
        format!("{scaled:.1}{unit}")
    }
}
