//! Two runs over the same puzzles side by side (`sudolab diff`): what changed between a report
//! made before a change and one made after it.
//!
//! Rows are paired by puzzle position and strategy. A verdict or a count that differs is a
//! change, listed one by one; counters are compared per strategy; times are compared per
//! strategy on the puzzles both runs decided, as the geometric mean of the per-puzzle ratios
//! `after / before` with a seeded percentile-bootstrap 95% interval. Reports over different
//! inputs are refused: pairing their rows would compare different puzzles.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::stats::{self, BOOTSTRAP_RESAMPLES};
use super::{Report, Row};
use crate::strategy::{Counter, Verdict};

/// Puzzles both runs must decide before a time ratio is called slower or faster: below it a
/// bootstrap interval is too unstable to mean anything.
pub const MIN_PAIRS: usize = 10;

/// Reports that cannot be compared row by row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    /// The reports read different inputs, or the same ones in another order.
    #[error(
        "the reports read different inputs ({what}): a diff pairs puzzles by their position, \
         so both runs must read the same files in the same order"
    )]
    DifferentInputs {
        /// Which input differs, and how.
        what: String,
    },
    /// A report lists fewer rows than its run made (a report kept in memory, not a JSON file).
    #[error("the {which} report lists {listed} of its run's {made} rows; a diff needs every row")]
    Truncated {
        /// `first` or `second`.
        which: &'static str,
        /// Rows listed.
        listed: u64,
        /// Rows the run made.
        made: u64,
    },
}

/// One side of a diff: which run it was.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunInfo {
    /// The commit sudolab was built from, with `+dirty` when the tree differed from it.
    pub commit: Option<String>,
    /// When the run started.
    pub date: String,
    /// The command line.
    pub command: String,
    /// The processor.
    pub cpu: String,
    /// Whether the run finished.
    pub complete: bool,
}

/// A verdict or a count that differs between the runs on one puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The puzzle's position in the input.
    pub puzzle: u64,
    /// Where the puzzle came from (as the second report names it).
    pub source: String,
    /// The strategy.
    pub strategy: String,
    /// The first run's verdict and solutions found: `unique (1)`.
    pub before: String,
    /// The second run's.
    pub after: String,
}

/// One counter of one strategy, summed over the puzzles both runs searched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterChange {
    /// The counter's name.
    pub counter: &'static str,
    /// Its total in the first run.
    pub before: u64,
    /// Its total in the second run.
    pub after: u64,
    /// On how many puzzles it differs.
    pub puzzles: u64,
}

/// The time ratio of one strategy, `after / before`, on the puzzles both runs decided.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratio {
    /// The clock compared: `cpu` where every paired search has a CPU time, else `wall`.
    pub clock: &'static str,
    /// Puzzles both runs decided.
    pub puzzles: u64,
    /// Geometric mean of the per-puzzle ratios.
    pub geomean: f64,
    /// The 95% bootstrap interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The two-sided p-value of the paired Wilcoxon signed-rank test (`report::stats`), `null`
    /// when every pair is a tie.
    pub p_value: Option<f64>,
    /// `slower` or `faster` when the interval excludes 1, `unchanged` when it holds it, and
    /// `too few` below [`MIN_PAIRS`] puzzles.
    pub change: &'static str,
}

/// One strategy across the two runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategyDiff {
    /// The strategy's name.
    pub strategy: String,
    /// Puzzles both runs searched with it.
    pub paired: u64,
    /// Searches only the first run made (or only the second, below).
    pub only_before: u64,
    /// Searches only the second run made.
    pub only_after: u64,
    /// Searches the first run decided (unique, multiple, none or solved).
    pub decided_before: u64,
    /// Searches the second run decided.
    pub decided_after: u64,
    /// Verdict or count changes.
    pub changes: u64,
    /// Counters whose totals or per-puzzle values differ.
    pub counters: Vec<CounterChange>,
    /// The time ratio, when both runs decided at least one common puzzle.
    pub ratio: Option<Ratio>,
}

/// What changed between two runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diff {
    /// The first run.
    pub before: RunInfo,
    /// The second run.
    pub after: RunInfo,
    /// What makes the comparison weaker than it looks: other machines, loaded machines,
    /// unfinished runs, inputs whose content was not recorded.
    pub warnings: Vec<String>,
    /// The bootstrap's seed.
    pub seed: u64,
    /// Every verdict or count change, in puzzle order.
    pub changes: Vec<Change>,
    /// Per strategy, in the first run's order, then the second run's new ones.
    pub strategies: Vec<StrategyDiff>,
}

impl Diff {
    /// Whether a verdict or a count changed: a front end's exit code.
    pub fn changed(&self) -> bool {
        !self.changes.is_empty()
    }
}

/// Compares `before` with `after`, row by row; `seed` seeds the bootstrap intervals.
pub fn diff(before: &Report, after: &Report, seed: u64) -> Result<Diff, DiffError> {
    same_inputs(before, after)?;
    for (which, report) in [("first", before), ("second", after)] {
        if report.rows_truncated() {
            return Err(DiffError::Truncated {
                which,
                listed: report.rows.len() as u64,
                made: report.run_rows(),
            });
        }
    }
    let mut names: Vec<String> = before.strategies.clone();
    for name in &after.strategies {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    let index = |rows: &[Row]| -> BTreeMap<(String, u64), usize> {
        rows.iter()
            .enumerate()
            .map(|(at, row)| ((row.strategy.clone(), row.puzzle), at))
            .collect()
    };
    let (first, second) = (index(&before.rows), index(&after.rows));
    let mut changes = Vec::new();
    let mut strategies = Vec::new();
    for (number, name) in names.iter().enumerate() {
        let mut entry = StrategyDiff {
            strategy: name.clone(),
            paired: 0,
            only_before: 0,
            only_after: 0,
            decided_before: 0,
            decided_after: 0,
            changes: 0,
            counters: Vec::new(),
            ratio: None,
        };
        let mut counters: BTreeMap<Counter, CounterChange> = BTreeMap::new();
        let mut pairs: Vec<(&Row, &Row)> = Vec::new();
        for ((strategy, _), &at) in first.range((name.clone(), 0)..=(name.clone(), u64::MAX)) {
            let a = &before.rows[at];
            entry.decided_before += u64::from(decided(a));
            let Some(&other) = second.get(&(strategy.clone(), a.puzzle)) else {
                entry.only_before += 1;
                continue;
            };
            let b = &after.rows[other];
            entry.paired += 1;
            if a.verdict != b.verdict || a.solutions != b.solutions {
                entry.changes += 1;
                changes.push(Change {
                    puzzle: b.puzzle,
                    source: b.source.clone(),
                    strategy: name.clone(),
                    before: outcome(a),
                    after: outcome(b),
                });
            }
            for counter in Counter::ALL {
                let (x, y) = (a.counters.get(counter), b.counters.get(counter));
                if x.is_none() && y.is_none() {
                    continue;
                }
                let tally = counters.entry(counter).or_insert(CounterChange {
                    counter: counter.name(),
                    before: 0,
                    after: 0,
                    puzzles: 0,
                });
                tally.before = tally.before.saturating_add(x.unwrap_or(0));
                tally.after = tally.after.saturating_add(y.unwrap_or(0));
                tally.puzzles += u64::from(x != y);
            }
            if decided(a) && decided(b) {
                pairs.push((a, b));
            }
        }
        for ((_, puzzle), &at) in second.range((name.clone(), 0)..=(name.clone(), u64::MAX)) {
            entry.decided_after += u64::from(decided(&after.rows[at]));
            if !first.contains_key(&(name.clone(), *puzzle)) {
                entry.only_after += 1;
            }
        }
        entry.counters = counters
            .into_values()
            .filter(|tally| tally.puzzles > 0 || tally.before != tally.after)
            .collect();
        entry.ratio = ratio(&pairs, seed, number as u64);
        strategies.push(entry);
    }
    changes.sort_by(|x, y| (x.puzzle, &x.strategy).cmp(&(y.puzzle, &y.strategy)));
    Ok(Diff {
        before: info(before),
        after: info(after),
        warnings: warnings(before, after),
        seed,
        changes,
        strategies,
    })
}

/// Refuses reports whose inputs differ in number, or in content where both recorded it.
fn same_inputs(before: &Report, after: &Report) -> Result<(), DiffError> {
    let (a, b) = (&before.context, &after.context);
    if a.inputs.len() != b.inputs.len() {
        return Err(DiffError::DifferentInputs {
            what: format!("{} files against {}", a.inputs.len(), b.inputs.len()),
        });
    }
    for (at, (x, y)) in a.input_hashes.iter().zip(&b.input_hashes).enumerate() {
        if let (Some(x), Some(y)) = (x, y)
            && x != y
        {
            return Err(DiffError::DifferentInputs {
                what: format!(
                    "input {} is {} in the first and {} in the second, with other contents",
                    at + 1,
                    a.inputs[at],
                    b.inputs[at]
                ),
            });
        }
    }
    if a.sample != b.sample {
        return Err(DiffError::DifferentInputs {
            what: "the runs drew different samples".into(),
        });
    }
    if a.shard != b.shard {
        return Err(DiffError::DifferentInputs {
            what: "the runs are different shards".into(),
        });
    }
    Ok(())
}

fn warnings(before: &Report, after: &Report) -> Vec<String> {
    let (a, b) = (&before.context, &after.context);
    let mut warnings = Vec::new();
    let model = |report: &Report| {
        report
            .context
            .machine
            .as_ref()
            .and_then(|machine| machine.cpu_model.clone())
            .unwrap_or_else(|| report.context.cpu.clone())
    };
    if model(before) != model(after) || a.os != b.os {
        warnings.push(format!(
            "the runs were made on different machines ({} / {}): their times compare only \
             across machines",
            model(before),
            model(after)
        ));
    }
    for (which, report) in [("first", before), ("second", after)] {
        if let Some(load) = &report.context.load_warning {
            warnings.push(format!("the {which} run's machine was loaded: {load}"));
        }
        if !report.complete {
            warnings.push(format!(
                "the {which} run did not finish: only the puzzles both runs searched are compared"
            ));
        }
    }
    let unconfirmed = a
        .input_hashes
        .iter()
        .zip(&b.input_hashes)
        .filter(|(x, y)| x.is_none() || y.is_none())
        .count();
    if unconfirmed > 0 {
        warnings.push(format!(
            "{unconfirmed} input(s) have no recorded content hash (standard input, or a report \
             older than hashes): that both runs read the same puzzles is not confirmed"
        ));
    }
    if (a.limit, a.max_nodes, a.timeout_ms) != (b.limit, b.max_nodes, b.timeout_ms) {
        warnings.push(
            "the runs had different limits or budgets: verdict changes may come from them".into(),
        );
    }
    warnings
}

fn info(report: &Report) -> RunInfo {
    let c = &report.context;
    RunInfo {
        commit: c.commit.as_ref().map(|commit| {
            if c.dirty == Some(true) {
                format!("{commit}+dirty")
            } else {
                commit.clone()
            }
        }),
        date: c.date.clone(),
        command: c.command.clone(),
        cpu: c.cpu.clone(),
        complete: report.complete,
    }
}

fn decided(row: &Row) -> bool {
    row.verdict != Verdict::Unknown
}

fn outcome(row: &Row) -> String {
    match row.stopped {
        Some(stop) if row.verdict == Verdict::Unknown => {
            format!("{} ({})", row.verdict.as_str(), stop.as_str())
        }
        _ => format!("{} ({})", row.verdict.as_str(), row.solutions),
    }
}

/// The geometric-mean ratio of the pairs' times with its bootstrap interval, on stream
/// `stream` of `seed` (one per strategy, so adding a strategy moves no other's interval).
fn ratio(pairs: &[(&Row, &Row)], seed: u64, stream: u64) -> Option<Ratio> {
    if pairs.is_empty() {
        return None;
    }
    let cpu = pairs
        .iter()
        .all(|(a, b)| a.cpu_ns.is_some() && b.cpu_ns.is_some());
    let time = |row: &Row| {
        let ns = if cpu {
            row.cpu_ns.unwrap_or(row.time_ns)
        } else {
            row.time_ns
        };
        // `stats::log_ratios` floors a time at one nanosecond.
        ns
    };
    let times: Vec<(u64, u64)> = pairs.iter().map(|(a, b)| (time(b), time(a))).collect();
    let logs = stats::log_ratios(&times);
    let geomean = stats::geometric_mean(&logs)?;
    let (low, high) = stats::bootstrap_interval(&logs, seed, stream, BOOTSTRAP_RESAMPLES)?;
    let change = if pairs.len() < MIN_PAIRS {
        "too few"
    } else if low > 1.0 {
        "slower"
    } else if high < 1.0 {
        "faster"
    } else {
        "unchanged"
    };
    Some(Ratio {
        clock: if cpu { "cpu" } else { "wall" },
        puzzles: pairs.len() as u64,
        geomean,
        low,
        high,
        p_value: stats::wilcoxon_p(&times),
        change,
    })
}

/// The diff as text for a terminal: the changes, then a table per strategy.
pub fn text(diff: &Diff) -> String {
    let mut out = String::new();
    head(diff, &mut out, "");
    if diff.changes.is_empty() {
        out.push_str("verdicts and counts: no change\n");
    } else {
        let _ = writeln!(out, "verdicts and counts: {} CHANGED", diff.changes.len());
        for change in &diff.changes {
            let _ = writeln!(
                out,
                "  {}\t{}\t{} -> {}",
                change.source, change.strategy, change.before, change.after
            );
        }
    }
    out.push('\n');
    let rows: Vec<[String; 6]> = diff.strategies.iter().map(cells).collect();
    let header = [
        "strategy",
        "paired",
        "decided",
        "changes",
        "time ratio (95% interval)",
        "counters",
    ];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &[&str]| {
        let mut text = String::new();
        for (at, (cell, width)) in cells.iter().zip(widths).enumerate() {
            if at + 1 == cells.len() {
                text.push_str(cell);
            } else {
                let _ = write!(text, "{cell:<width$}  ");
            }
        }
        text.trim_end().to_owned() + "\n"
    };
    out.push_str(&line(&header));
    for row in &rows {
        out.push_str(&line(&row.each_ref().map(String::as_str)));
    }
    let _ = writeln!(
        out,
        "time ratio: second / first, geometric mean over the puzzles both decided; interval: \
         {BOOTSTRAP_RESAMPLES} bootstrap resamples, seed {}",
        diff.seed
    );
    out
}

/// The diff as a Markdown section.
pub fn markdown(diff: &Diff) -> String {
    let mut out = String::from("# sudolab diff\n\n");
    head(diff, &mut out, "- ");
    out.push('\n');
    if diff.changes.is_empty() {
        out.push_str("Verdicts and counts: no change.\n\n");
    } else {
        let _ = writeln!(
            out,
            "**Verdicts and counts: {} changed.**\n\n| source | strategy | first | second |\n\
             |---|---|---|---|",
            diff.changes.len()
        );
        for change in &diff.changes {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                markdown_cell(&change.source),
                change.strategy,
                change.before,
                change.after
            );
        }
        out.push('\n');
    }
    out.push_str(
        "| strategy | paired | decided | changes | time ratio (95% interval) | counters |\n\
         |---|---:|---:|---:|---|---|\n",
    );
    for strategy in &diff.strategies {
        let cells = cells(strategy).map(|cell| markdown_cell(&cell));
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    let _ = writeln!(
        out,
        "\nTime ratio: second / first, geometric mean over the puzzles both runs decided; \
         interval: {BOOTSTRAP_RESAMPLES} bootstrap resamples, seed {}.",
        diff.seed
    );
    out
}

/// The diff as a standalone HTML page.
pub fn html(diff: &Diff) -> String {
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>sudolab diff</title><style>body{font-family:sans-serif;margin:2em}\
         table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em}\
         .changed{color:#b00;font-weight:bold}.slower{color:#b00}.faster{color:#070}\
         </style></head><body>\n<h1>sudolab diff</h1>\n<ul>\n",
    );
    let mut lines = String::new();
    head(diff, &mut lines, "");
    for line in lines.lines() {
        let _ = writeln!(out, "<li>{}</li>", escape(line));
    }
    out.push_str("</ul>\n");
    if diff.changes.is_empty() {
        out.push_str("<p>Verdicts and counts: no change.</p>\n");
    } else {
        let _ = writeln!(
            out,
            "<p class=\"changed\">Verdicts and counts: {} changed.</p>\n<table><tr><th>source\
             </th><th>strategy</th><th>first</th><th>second</th></tr>",
            diff.changes.len()
        );
        for change in &diff.changes {
            let _ = writeln!(
                out,
                "<tr class=\"changed\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&change.source),
                escape(&change.strategy),
                escape(&change.before),
                escape(&change.after)
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str(
        "<table><tr><th>strategy</th><th>paired</th><th>decided</th><th>changes</th>\
         <th>time ratio (95% interval)</th><th>counters</th></tr>\n",
    );
    for strategy in &diff.strategies {
        let class = strategy.ratio.as_ref().map_or("", |ratio| ratio.change);
        let cells = cells(strategy);
        let _ = write!(out, "<tr class=\"{class}\">");
        for cell in &cells {
            let _ = write!(out, "<td>{}</td>", escape(cell));
        }
        out.push_str("</tr>\n");
    }
    let _ = writeln!(
        out,
        "</table>\n<p>Time ratio: second / first, geometric mean over the puzzles both runs \
         decided; interval: {BOOTSTRAP_RESAMPLES} bootstrap resamples, seed {}.</p>\n</body></html>",
        diff.seed
    );
    out
}

/// The diff as JSON.
pub fn json(diff: &Diff) -> String {
    let mut text = serde_json::to_string_pretty(diff).expect("a diff serializes");
    text.push('\n');
    text
}

fn head(diff: &Diff, out: &mut String, bullet: &str) {
    for (which, run) in [("first", &diff.before), ("second", &diff.after)] {
        let _ = writeln!(
            out,
            "{bullet}{which}: {} at {}{}: {}",
            run.commit.as_deref().unwrap_or("unknown commit"),
            run.date,
            if run.complete { "" } else { " (incomplete)" },
            run.command
        );
    }
    for warning in &diff.warnings {
        let _ = writeln!(out, "{bullet}warning: {warning}");
    }
}

fn cells(strategy: &StrategyDiff) -> [String; 6] {
    let mut paired = strategy.paired.to_string();
    if strategy.only_before + strategy.only_after > 0 {
        let _ = write!(
            paired,
            " (+{} / +{} unpaired)",
            strategy.only_before, strategy.only_after
        );
    }
    let ratio = match &strategy.ratio {
        Some(r) => format!(
            "{:.3}x ({:.3}-{:.3}, p {}, {} on {}){}",
            r.geomean,
            r.low,
            r.high,
            r.p_value.map_or_else(|| "-".into(), |p| format!("{p:.2e}")),
            r.clock,
            r.puzzles,
            match r.change {
                "unchanged" => String::new(),
                change => format!(" {change}"),
            }
        ),
        None => "-".into(),
    };
    let counters = if strategy.counters.is_empty() {
        "same".into()
    } else {
        strategy
            .counters
            .iter()
            .map(|c| {
                format!(
                    "{} {} -> {} ({} puzzles)",
                    c.counter, c.before, c.after, c.puzzles
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    [
        strategy.strategy.clone(),
        paired,
        format!("{} -> {}", strategy.decided_before, strategy.decided_after),
        strategy.changes.to_string(),
        ratio,
        counters,
    ]
}

fn markdown_cell(text: &str) -> String {
    text.replace('|', "\\|")
}
