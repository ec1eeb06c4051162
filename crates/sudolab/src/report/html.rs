//! The HTML report: one self-contained file (inline CSS, inline SVG charts, nothing fetched).
//!
//! Charts are drawn by `plotters` with its SVG backend only: the time distribution of each
//! strategy (cumulative, log time axis), the cactus plot and the scatter plots against the
//! baseline ([`super::plots`]), mean work per strategy (dots on a log axis, with their values,
//! one chart per unit of work), and mean work against the number of clues. Log axes start at the decade of
//! the smallest value; every axis names its quantity and unit; legends are HTML lists under
//! the charts, never on the data. A report that mixes board sizes gets the charts once per
//! size: a 4x4 and a 25x25 time do not belong in one distribution.

use std::fmt::Write as _;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::markdown::context_pairs;
use super::table::{Align, Emphasis, Table, rows_table, summary_notes, summary_table};
use super::{Clock, Report, Summary};

/// The size of a chart when a report has one board size.
const LARGE: (u32, u32) = (760, 380);
/// The size of each chart when a report has several board sizes (two side by side).
const SMALL: (u32, u32) = (540, 330);

/// A colour per strategy, stable across charts: Okabe and Ito's palette for colour-blind
/// readers (no two reds), then three more.
pub(super) fn colour(index: usize) -> RGBColor {
    const PALETTE: [RGBColor; 10] = [
        RGBColor(0, 114, 178),
        RGBColor(230, 159, 0),
        RGBColor(0, 158, 115),
        RGBColor(213, 94, 0),
        RGBColor(204, 121, 167),
        RGBColor(86, 180, 233),
        RGBColor(0, 0, 0),
        RGBColor(160, 140, 0),
        RGBColor(153, 153, 153),
        RGBColor(140, 81, 10),
    ];
    PALETTE[index % PALETTE.len()]
}

/// A colour as CSS writes it.
fn hex(colour: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", colour.0, colour.1, colour.2)
}

/// What a chart draws of one strategy: its colour index, name, times and mean work in its
/// unit (over every puzzle, or over one board size).
struct Line<'a> {
    index: usize,
    name: &'a str,
    time_cdf: &'a [(f64, f64)],
    work: Option<(f64, &'a str)>,
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
         figure{margin:1em 0}figcaption{font-size:14px;color:#555;max-width:760px}\n\
         .charts{display:flex;flex-wrap:wrap;gap:0 20px}.charts figure{width:540px}\n\
         ul.legend{list-style:none;padding:0;margin:.3em 0;display:flex;flex-wrap:wrap;\
         gap:.3em 1.2em;font-size:14px}\n\
         .swatch{display:inline-block;width:14px;height:14px;margin-right:5px;\
         vertical-align:-2px}\n\
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
    writeln!(
        w,
        "<p id=\"clock\">{}</p>",
        escape(Clock::of(report.context.clock).note())
    )
    .expect("String write");
    w.push_str("<ul id=\"summary-notes\">");
    for note in summary_notes(report) {
        write!(w, "<li>{}</li>", escape(&note)).expect("String write");
    }
    w.push_str("</ul>\n");
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
    charts_section(w, report);
    rows_section(w, report);
    w.push_str("</body></html>\n");
    out
}

/// The charts: once, or once per board size when the report mixes sizes.
fn charts_section(w: &mut String, report: &Report) {
    w.push_str("<h2>Charts</h2>\n");
    competition_charts(w, report);
    let mut sides: Vec<usize> = report
        .summary
        .iter()
        .flat_map(|s| s.by_side.iter().map(|part| part.side))
        .collect();
    sides.sort_unstable();
    sides.dedup();
    if sides.len() <= 1 {
        let lines: Vec<Line<'_>> = report
            .summary
            .iter()
            .enumerate()
            .map(|(index, s)| Line {
                index,
                name: &s.strategy,
                time_cdf: &s.time_cdf,
                work: work(s.work_mean, s),
            })
            .collect();
        let side = clue_side(&report.summary);
        write_charts(w, report, &lines, side, "", LARGE);
        return;
    }
    let sizes: Vec<String> = sides.iter().map(|side| format!("{side}x{side}")).collect();
    writeln!(
        w,
        "<p id=\"sizes\">The puzzles are of {} board sizes ({}): each size has its own charts, \
         since times and node counts of different sizes do not compare. The table above pools \
         them.</p>",
        sides.len(),
        sizes.join(", ")
    )
    .expect("String write");
    for (side, size) in sides.iter().zip(&sizes) {
        let lines: Vec<Line<'_>> = report
            .summary
            .iter()
            .enumerate()
            .filter_map(|(index, s)| {
                let part = s.by_side.iter().find(|part| part.side == *side)?;
                Some(Line {
                    index,
                    name: &s.strategy,
                    time_cdf: &part.time_cdf,
                    work: work(part.work_mean, s),
                })
            })
            .collect();
        let puzzles = report
            .summary
            .iter()
            .filter_map(|s| s.by_side.iter().find(|part| part.side == *side))
            .map(|part| part.runs)
            .max()
            .unwrap_or(0);
        writeln!(
            w,
            "<h3 id=\"size-{size}\">{size} puzzles ({puzzles})</h3>\n<div class=\"charts\">"
        )
        .expect("String write");
        write_charts(w, report, &lines, Some(*side), &format!("-{size}"), SMALL);
        w.push_str("</div>\n");
    }
}

/// The units of work the strategies of `lines` count, in strategy order, each once.
fn units<'a>(lines: &[Line<'a>]) -> Vec<&'a str> {
    let mut units: Vec<&str> = Vec::new();
    for unit in lines.iter().filter_map(|l| l.work.map(|(_, unit)| unit)) {
        if !units.contains(&unit) {
            units.push(unit);
        }
    }
    units
}

/// A strategy's mean work with its unit, when it counts work.
fn work(mean: Option<f64>, summary: &Summary) -> Option<(f64, &str)> {
    Some((mean?, summary.work_unit.as_deref()?))
}

/// The figures of one set of charts; `suffix` ends their ids (`chart-time-9x9`). Work is
/// charted once per unit (`chart-work-nodes`, `chart-work-updates`): no axis mixes units.
fn write_charts(
    w: &mut String,
    report: &Report,
    lines: &[Line<'_>],
    clue_side: Option<usize>,
    suffix: &str,
    size: (u32, u32),
) {
    let everyone: Vec<(usize, &str)> = lines.iter().map(|l| (l.index, l.name)).collect();
    figure(
        w,
        &format!("chart-time{suffix}"),
        &time_chart(lines, size),
        &everyone,
        "Time per puzzle: the fraction of puzzles each strategy finished within a time \
         (cumulative; further left is faster; the time axis is logarithmic and starts at the \
         decade of the fastest search). Searches stopped by a budget count at the time they \
         stopped.",
    );
    let units = units(lines);
    if units.is_empty() {
        writeln!(
            w,
            "<p id=\"chart-work{suffix}\">No strategy here counts its search work.</p>"
        )
        .expect("String write");
    }
    for unit in units {
        let counted: Vec<(usize, &str)> = lines
            .iter()
            .filter(|l| l.work.is_some_and(|(_, of)| of == unit))
            .map(|l| (l.index, l.name))
            .collect();
        figure(
            w,
            &format!("chart-work-{unit}{suffix}"),
            &work_chart(lines, unit, size),
            &counted,
            &format!(
                "Mean {unit} per puzzle, one dot per strategy that counts its work in {unit}, \
                 with its value (logarithmic axis from the decade of the smallest mean)."
            ),
        );
        let Some(side) = clue_side else {
            continue;
        };
        let of_unit = |s: &Summary| s.work_unit.as_deref() == Some(unit);
        let with_clues: Vec<(usize, &str)> = report
            .summary
            .iter()
            .enumerate()
            .filter(|(_, s)| of_unit(s) && s.work_by_clues.iter().any(|p| p.0 == side))
            .map(|(index, s)| (index, s.strategy.as_str()))
            .collect();
        // A chart against clues needs at least two clue counts.
        let mut clue_counts: Vec<usize> = report
            .summary
            .iter()
            .filter(|s| of_unit(s))
            .flat_map(|s| s.work_by_clues.iter().filter(|p| p.0 == side).map(|p| p.1))
            .collect();
        clue_counts.sort_unstable();
        clue_counts.dedup();
        if with_clues.is_empty() || clue_counts.len() < 2 {
            continue;
        }
        figure(
            w,
            &format!("chart-clues-{unit}{suffix}"),
            &clues_chart(&report.summary, unit, side, size),
            &with_clues,
            &format!(
                "Mean {unit} against the number of clues, {side}x{side} puzzles \
                 (logarithmic axis)."
            ),
        );
    }
}

/// The cactus plot and the scatter plots against the baseline, over every puzzle.
fn competition_charts(w: &mut String, report: &Report) {
    let everyone: Vec<(usize, &str)> = report
        .summary
        .iter()
        .enumerate()
        .map(|(index, s)| (index, s.strategy.as_str()))
        .collect();
    if let Some(cactus) = super::plots::cactus(report) {
        figure(
            w,
            "chart-cactus",
            &cactus,
            &everyone,
            "Cactus plot: how many puzzles each strategy decided (unique, multiple, none, or \
             solved at a limit of one) within a time per search; further up and left is better. \
             Undecided searches never arrive. Grey vertical lines: the time limits (a work \
             budget has no place on a time axis).",
        );
    }
    let scatters = super::plots::scatters(report);
    if scatters.is_empty() {
        return;
    }
    let baseline = report.context.baseline.as_deref().unwrap_or_default();
    writeln!(
        w,
        "<p id=\"scatter-note\">Each strategy against the baseline, {}, per puzzle (log-log; \
         at most {} puzzles each, taken evenly in input order). Points above the grey \
         diagonal are puzzles the baseline searched faster; an undecided search sits on its \
         grey limit line (its timeout, or the slowest search of the run without one).</p>\n\
         <div class=\"charts\">",
        escape(baseline),
        super::SCATTER_POINTS
    )
    .expect("String write");
    for (name, svg) in &scatters {
        let index = everyone
            .iter()
            .find(|(_, n)| n == name)
            .map_or(0, |(index, _)| *index);
        figure(
            w,
            &format!("chart-scatter-{}", escape(name)),
            svg,
            &[(index, name.as_str())],
            &format!("{} against {}.", escape(name), escape(baseline)),
        );
    }
    w.push_str("</div>\n");
}

/// A figure: the chart, its legend as an HTML list (off the data), its caption.
fn figure(w: &mut String, id: &str, svg: &str, legend: &[(usize, &str)], caption: &str) {
    write!(w, "<figure id=\"{id}\">{svg}<ul class=\"legend\">").expect("String write");
    for (index, name) in legend {
        write!(
            w,
            "<li><span class=\"swatch\" style=\"background:{}\"></span>{}</li>",
            hex(colour(*index)),
            escape(name)
        )
        .expect("String write");
    }
    writeln!(w, "</ul><figcaption>{caption}</figcaption></figure>").expect("String write");
}

/// The board side the clues chart of a one-size report draws: the one with the most puzzles.
fn clue_side(summary: &[Summary]) -> Option<usize> {
    let mut per_side: std::collections::BTreeMap<usize, u64> = std::collections::BTreeMap::new();
    for point in summary.iter().flat_map(|s| &s.work_by_clues) {
        *per_side.entry(point.0).or_default() += point.2;
    }
    per_side
        .iter()
        .max_by_key(|(side, puzzles)| (**puzzles, **side))
        .map(|(side, _)| *side)
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
                "<tr class=\"bad\"><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
                escape(&p.source),
                p.problem.kind.as_str(),
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
pub(super) fn decades(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    // A report is input like any other: values beyond 1e15 (31 years in microseconds, or more
    // nodes than any search makes) or not finite are left off the axis, whose key points
    // plotters would otherwise count without end: the range must stay finite and small.
    let (low, high) = values
        .filter(|v| v.is_finite() && *v > 0.0 && *v <= 1e15)
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if low > high {
        return 0.1..10.0;
    }
    10f64.powf(low.log10().floor())..10f64.powf(high.log10().ceil().max(low.log10().floor() + 1.0))
}

/// Draws with `draw` into an SVG string; a drawing error becomes a note in place of the chart.
pub(super) fn svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Result<(), String>,
) -> String {
    let mut buffer = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut buffer, size).into_drawing_area();
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

/// Axis labels and descriptions large enough to read: the SVG backend draws a size of 16 at
/// about 13 px (plotters' default, 10, at 8 px).
pub(super) const LABEL: (&str, u32) = ("sans-serif", 16);
pub(super) const DESCRIPTION: (&str, u32) = ("sans-serif", 17);
pub(super) const CAPTION: (&str, u32) = ("sans-serif", 20);

fn time_chart(lines: &[Line<'_>], size: (u32, u32)) -> String {
    svg(size, |root| {
        let x = decades(lines.iter().flat_map(|l| l.time_cdf.iter().map(|p| p.1)));
        let mut chart = ChartBuilder::on(root)
            .caption("time per puzzle (cumulative)", CAPTION)
            .margin(12)
            .x_label_area_size(46)
            .y_label_area_size(62)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..1f64)
            .map_err(|err| err.to_string())?;
        chart
            .configure_mesh()
            .x_desc("time per puzzle (µs, log scale)")
            .x_label_formatter(&|v| short(*v))
            .y_desc("fraction of puzzles finished")
            .y_label_formatter(&|v| format!("{v:.1}"))
            .label_style(LABEL)
            .axis_desc_style(DESCRIPTION)
            .draw()
            .map_err(|err| err.to_string())?;
        for line in lines {
            let style = colour(line.index).stroke_width(2);
            let start = line.time_cdf.first().map_or(x.start, |p| p.1.max(x.start));
            let mut points: Vec<(f64, f64)> = vec![(start, 0.0)];
            points.extend(
                line.time_cdf
                    .iter()
                    .map(|(fraction, us)| (us.max(x.start), *fraction)),
            );
            chart
                .draw_series(LineSeries::new(points, style))
                .map_err(|err| err.to_string())?;
        }
        Ok(())
    })
}

fn work_chart(lines: &[Line<'_>], unit: &str, size: (u32, u32)) -> String {
    let dots: Vec<(usize, &str, f64)> = lines
        .iter()
        .filter_map(|l| match l.work {
            Some((mean, of)) if of == unit => Some((l.index, l.name, mean.max(1.0))),
            _ => None,
        })
        .collect();
    svg(size, |root| {
        let x = decades(dots.iter().map(|d| d.2));
        // Room on the right for the value printed beside the largest dot.
        let x = x.start..x.end * 3.0;
        let names: Vec<String> = dots.iter().map(|d| d.1.to_string()).collect();
        let count = dots.len();
        let mut chart = ChartBuilder::on(root)
            .caption(format!("mean {unit} per puzzle"), CAPTION)
            .margin(12)
            .x_label_area_size(46)
            .y_label_area_size(100)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..count as f64)
            .map_err(|err| err.to_string())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(count * 2 + 1)
            .y_label_formatter(&|y| {
                let slot = *y - 0.5;
                if slot >= 0.0 && (slot - slot.round()).abs() < 1e-6 {
                    // The first strategy at the top.
                    names
                        .get(count - 1 - slot.round() as usize)
                        .cloned()
                        .unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_desc(format!("mean {unit} per puzzle (log scale)"))
            .x_label_formatter(&|v| short(*v))
            .label_style(LABEL)
            .axis_desc_style(DESCRIPTION)
            .draw()
            .map_err(|err| err.to_string())?;
        for (slot, (index, _, work)) in dots.iter().enumerate() {
            let y = (count - 1 - slot) as f64 + 0.5;
            let style = colour(*index);
            let beside = LABEL
                .into_font()
                .color(&style)
                .pos(Pos::new(HPos::Left, VPos::Center));
            // The dot, and its value 12 pixels to its right.
            let dot = EmptyElement::at((*work, y))
                + Circle::new((0, 0), 6, style.filled())
                + Text::new(with_commas(*work), (12, 0), beside);
            chart.draw_series([dot]).map_err(|err| err.to_string())?;
        }
        Ok(())
    })
}

/// One strategy's line: its colour index, name and points.
type Series<'a> = (usize, &'a str, Vec<(f64, f64)>);

fn clues_chart(summary: &[Summary], unit: &str, side: usize, size: (u32, u32)) -> String {
    let series: Vec<Series<'_>> = summary
        .iter()
        .enumerate()
        .filter(|(_, s)| s.work_unit.as_deref() == Some(unit))
        .map(|(index, s)| {
            let points = s
                .work_by_clues
                .iter()
                .filter(|p| p.0 == side)
                .map(|p| (p.1 as f64, p.3.max(1.0)))
                .collect::<Vec<_>>();
            (index, s.strategy.as_str(), points)
        })
        .filter(|(_, _, points)| !points.is_empty())
        .collect();
    svg(size, |root| {
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
                format!("mean {unit} against clues, {side}x{side} puzzles"),
                CAPTION,
            )
            .margin(12)
            .x_label_area_size(46)
            .y_label_area_size(70)
            .build_cartesian_2d(low - 0.5..high + 0.5, y.log_scale())
            .map_err(|err| err.to_string())?;
        chart
            .configure_mesh()
            .x_desc("clues (givens)")
            .y_desc(format!("mean {unit} (log scale)"))
            .x_label_formatter(&|v| {
                // Whole clue counts only.
                if (v - v.round()).abs() < 1e-6 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| short(*v))
            .label_style(LABEL)
            .axis_desc_style(DESCRIPTION)
            .draw()
            .map_err(|err| err.to_string())?;
        for (index, _, points) in &series {
            let style = colour(*index);
            chart
                .draw_series(LineSeries::new(points.clone(), style.stroke_width(1)))
                .map_err(|err| err.to_string())?;
            chart
                .draw_series(points.iter().map(|p| Circle::new(*p, 3, style.filled())))
                .map_err(|err| err.to_string())?;
        }
        Ok(())
    })
}

/// A count for people: `1,122` (one decimal below 100: `4.5`).
fn with_commas(value: f64) -> String {
    if value < 100.0 {
        return format!("{value:.1}");
    }
    let digits = format!("{value:.0}");
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A number for a log axis: 1, 10, 100, 1k, 10k, 1M...
pub(super) fn short(value: f64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axes_start_at_the_decade_of_the_smallest_value() {
        assert_eq!(decades([0.6, 12.0].into_iter()), 0.1..100.0);
        assert_eq!(decades([120_101.0, 3_470_863.0].into_iter()), 1e5..1e7);
        assert_eq!(decades([3.0].into_iter()), 1.0..10.0);
        assert_eq!(with_commas(1_120_198.4), "1,120,198");
        assert_eq!(with_commas(87.94), "87.9");
        assert_eq!(hex(colour(0)), "#0072b2");
    }
}
