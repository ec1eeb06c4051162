//! The aligned table printed on standard output.

use std::fmt::Write as _;

use super::table::{Align, Cell, Emphasis, summary_notes, summary_table};
use super::{Clock, Report};

/// Renders the per-strategy table, then the problems and input errors. With `colour`, problem
/// lines are red and unknown counts yellow (ANSI escapes; callers pass `colour` only for a
/// terminal).
pub fn render(report: &Report, colour: bool) -> String {
    render_table(report, colour, Problems::Listed)
}

/// [`render`] for a reader who has seen every problem already (`compare` prints each on
/// standard error as it is found, and both streams go to the same terminal): the number of
/// problems, without listing them a second time.
pub fn render_after_live_problems(report: &Report, colour: bool) -> String {
    render_table(report, colour, Problems::ShownAbove)
}

/// Whether the problems are listed under the table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Problems {
    Listed,
    ShownAbove,
}

/// The summary table in aligned columns, warnings painted.
fn aligned_summary(report: &Report, paint: &dyn Fn(&str, String) -> String) -> String {
    let mut out = String::new();
    let table = summary_table(&report.summary);
    let mut lines: Vec<Vec<&Cell>> = Vec::new();
    let headings: Vec<Cell> = table
        .columns
        .iter()
        .map(|column| column.name.clone().into())
        .collect();
    lines.push(headings.iter().collect());
    lines.extend(table.rows.iter().map(|row| row.iter().collect()));
    let widths: Vec<usize> = (0..table.columns.len())
        .map(|col| {
            lines
                .iter()
                .map(|line| line[col].text.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for line_cells in &lines {
        let mut line = String::new();
        for ((column, cell), width) in table.columns.iter().zip(line_cells).zip(&widths) {
            if !line.is_empty() {
                line.push_str("  ");
            }
            let padded = match column.align {
                Align::Left => format!("{:<width$}", cell.text),
                Align::Right => format!("{:>width$}", cell.text),
            };
            match cell.emphasis {
                Emphasis::Warning => line.push_str(&paint("33", padded)),
                Emphasis::Plain => line.push_str(&padded),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn render_table(report: &Report, colour: bool, problems: Problems) -> String {
    let paint = |code: &str, text: String| {
        if colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text
        }
    };
    let mut out = aligned_summary(report, &paint);
    writeln!(out, "{}", Clock::of(report.context.clock).note()).expect("String write");
    for note in summary_notes(report) {
        writeln!(out, "{note}").expect("String write");
    }
    writeln!(
        out,
        "{} {}, limit {}{}{}",
        report.puzzles,
        if report.puzzles == 1 {
            "puzzle"
        } else {
            "puzzles"
        },
        limit_text(report.context.limit),
        report.context.budget.map_or_else(String::new, |_| {
            let budget = work_budget(report.context.budget, &report.context.budget_units);
            format!(", {}", budget.trim_end_matches(", "))
        }),
        report
            .incomplete_reason()
            .map_or_else(String::new, |reason| format!(" (INCOMPLETE: {reason})"))
    )
    .expect("String write");
    if report.puzzles == 0 {
        // Nothing was certified: "every answer certified" would be vacuously true, so the
        // line must say that no puzzle was compared.
        out.push_str("cross-check: no puzzles were compared\n");
    } else if report.problems.is_empty() {
        out.push_str("cross-check: every answer certified, every definite verdict agrees\n");
    } else {
        let line = format!(
            "cross-check: {} PROBLEMS (strategies disagree or an answer is invalid){}",
            report.problems.len(),
            match problems {
                Problems::Listed => "",
                Problems::ShownAbove => "; each is printed above, as it was found",
            }
        );
        out.push_str(&paint("31;1", line));
        out.push('\n');
        let listed = match problems {
            Problems::Listed => report.problems.as_slice(),
            Problems::ShownAbove => &[],
        };
        for problem in listed {
            let line = format!(
                "  {} {}: {}\n    {}",
                problem.source,
                problem.problem.kind.as_str(),
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

/// The text of a work budget, with each strategy's unit, and a separator: `work 5000 (fast:
/// nodes, sat: proof_bytes), `; nothing without one.
pub(crate) fn work_budget(
    budget: Option<u64>,
    units: &std::collections::BTreeMap<String, crate::strategy::WorkUnit>,
) -> String {
    let Some(budget) = budget else {
        return String::new();
    };
    let units: Vec<String> = units
        .iter()
        .map(|(strategy, unit)| format!("{strategy}: {unit}"))
        .collect();
    format!("work {budget} ({}), ", units.join(", "))
}

/// The text of a solution limit: `2`, or `none (count all)`.
pub(crate) fn limit_text(limit: u64) -> String {
    if limit == 0 {
        "none (count all)".to_string()
    } else {
        limit.to_string()
    }
}
