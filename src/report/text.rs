//! The aligned table printed on standard output.

use std::fmt::Write as _;

use super::{Report, Row, Summary};

/// Renders the per-strategy table, then the problems and input errors. With `colour`, problem
/// lines are red and unknown counts yellow (ANSI escapes; callers pass `colour` only for a
/// terminal).
pub fn render(report: &Report, colour: bool) -> String {
    let paint = |code: &str, text: String| {
        if colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text
        }
    };
    let mut out = String::new();
    let header = SUMMARY_COLUMNS;
    let mut table: Vec<Vec<String>> = vec![header.iter().map(ToString::to_string).collect()];
    for summary in &report.summary {
        table.push(summary_cells(summary));
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|col| table.iter().map(|row| row[col].len()).max().unwrap_or(0))
        .collect();
    for (index, row) in table.iter().enumerate() {
        let mut line = String::new();
        for (col, cell) in row.iter().enumerate() {
            if col > 0 {
                line.push_str("  ");
            }
            // Names left-aligned, numbers right-aligned.
            if col == 0 {
                write!(line, "{cell:<width$}", width = widths[col]).expect("String write");
            } else {
                let padded = format!("{cell:>width$}", width = widths[col]);
                let unknown_col = col == 5;
                if unknown_col && index > 0 && cell != "0" {
                    line.push_str(&paint("33", padded));
                } else {
                    line.push_str(&padded);
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    writeln!(
        out,
        "{} puzzles, limit {}{}",
        report.puzzles,
        limit_text(report.context.limit),
        if report.complete {
            ""
        } else {
            " (INCOMPLETE: interrupted)"
        }
    )
    .expect("String write");
    if report.problems.is_empty() {
        out.push_str("cross-check: every answer certified, every definite verdict agrees\n");
    } else {
        let line = format!(
            "cross-check: {} PROBLEMS (strategies disagree or an answer is invalid)",
            report.problems.len()
        );
        out.push_str(&paint("31;1", line));
        out.push('\n');
        for problem in &report.problems {
            let line = format!(
                "  {} {}: {}\n    {}",
                problem.source,
                serde_json::to_value(problem.problem.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                problem.problem.detail,
                problem.grid
            );
            out.push_str(&paint("31", line));
            out.push('\n');
        }
    }
    if !report.input_errors.is_empty() {
        writeln!(out, "input errors: {}", report.input_errors.len()).expect("String write");
    }
    out
}

/// The text of a solution limit: `2`, or `none (count all)`.
pub(crate) fn limit_text(limit: u64) -> String {
    if limit == 0 {
        "none (count all)".to_string()
    } else {
        limit.to_string()
    }
}

/// The per-strategy table's columns, as the text table and CSV-minded tools see them; the
/// Markdown and HTML tables show them through [`heading`].
pub(crate) const SUMMARY_COLUMNS: [&str; 12] = [
    "strategy",
    "puzzles",
    "unique",
    "multiple",
    "none",
    "unknown",
    "mean_us",
    "median_us",
    "p90_us",
    "max_us",
    "nodes_mean",
    "ratio",
];

/// The per-puzzle table's columns (Markdown and HTML), matching [`row_cells`].
pub(crate) const ROW_COLUMNS: [&str; 7] = [
    "source",
    "clues",
    "strategy",
    "verdict",
    "solutions",
    "time_us",
    "counters",
];

/// A column name for people: `mean_us` becomes `mean µs`, `nodes_mean` `nodes mean`.
pub(crate) fn heading(column: &str) -> String {
    column.replace("_us", " µs").replace('_', " ")
}

/// One per-puzzle row as cells (the count marked `+` when the search did not finish).
pub(crate) fn row_cells(row: &Row) -> [String; 7] {
    let plus = if row.exhausted { "" } else { "+" };
    [
        row.source.clone(),
        row.clues.to_string(),
        row.strategy.clone(),
        row.verdict.to_string(),
        format!("{}{plus}", row.solutions),
        micros(row.time_ns as f64 / 1e3),
        row.counters.to_string(),
    ]
}

/// One summary row as cells, shared by the text, Markdown and HTML tables.
pub(crate) fn summary_cells(summary: &Summary) -> Vec<String> {
    vec![
        summary.strategy.clone(),
        summary.runs.to_string(),
        summary.unique.to_string(),
        summary.multiple.to_string(),
        summary.none.to_string(),
        summary.unknown.to_string(),
        micros(summary.mean_us),
        micros(summary.median_us),
        micros(summary.p90_us),
        micros(summary.max_us),
        summary
            .nodes_mean
            .map_or_else(|| "-".to_string(), |nodes| format!("{nodes:.1}")),
        summary
            .ratio
            .map_or_else(|| "-".to_string(), |ratio| format!("{ratio:.2}")),
    ]
}

/// Microseconds with precision that suits their size.
pub(crate) fn micros(us: f64) -> String {
    if us >= 100.0 {
        format!("{us:.0}")
    } else {
        format!("{us:.1}")
    }
}
