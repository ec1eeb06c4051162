//! The Markdown report: context, per-strategy table, problems, per-puzzle rows.

use std::fmt::Write as _;

use super::table::{Align, Table, rows_table, summary_notes, summary_table};
use super::text::{limit_text, work_budget};
use super::{Clock, Report};

/// Renders the whole report as GitHub-flavoured Markdown.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let w = &mut out;
    writeln!(w, "# sudolab comparison\n").expect("String write");
    if let Some(reason) = report.incomplete_reason() {
        writeln!(w, "**Incomplete**: {}.\n", escape(&reason)).expect("String write");
    }
    writeln!(w, "| | |\n|---|---|").expect("String write");
    for (key, value) in context_pairs(report) {
        writeln!(w, "| {key} | {} |", escape(&value)).expect("String write");
    }
    writeln!(w, "\n## Per strategy\n").expect("String write");
    write_table(w, &summary_table(&report.summary));
    writeln!(w, "\n{}", escape(Clock::of(report.context.clock).note())).expect("String write");
    for note in summary_notes(report) {
        writeln!(w, "\n{}", escape(&note)).expect("String write");
    }
    writeln!(w, "\n## Cross-check\n").expect("String write");
    if report.puzzles == 0 {
        writeln!(w, "No puzzles were compared.").expect("String write");
    } else if report.problems.is_empty() {
        writeln!(
            w,
            "Every returned grid was certified; every definite verdict agrees across strategies."
        )
        .expect("String write");
    } else {
        writeln!(w, "**{} problems.**\n", report.problems.len()).expect("String write");
        writeln!(
            w,
            "| puzzle | source | kind | strategies | detail |\n|---|---|---|---|---|"
        )
        .expect("String write");
        for p in &report.problems {
            writeln!(
                w,
                "| `{}` | {} | {} | {} | {} |",
                escape(&p.grid),
                escape(&p.source),
                p.problem.kind.as_str(),
                escape(&p.problem.strategies.join(", ")),
                escape(&p.problem.detail)
            )
            .expect("String write");
        }
    }
    if !report.input_errors.is_empty() {
        writeln!(w, "\n## Input errors\n").expect("String write");
        for error in &report.input_errors {
            writeln!(w, "- {}", escape(error)).expect("String write");
        }
    }
    writeln!(w, "\n## Per puzzle\n").expect("String write");
    if let Some(note) = report.rows_note() {
        writeln!(w, "{note}\n").expect("String write");
    }
    write_table(w, &rows_table(report.listed_rows()));
    out
}

/// A table with its header and alignment row; numbers right-aligned.
fn write_table(w: &mut String, table: &Table) {
    let headings: Vec<String> = table.columns.iter().map(|c| escape(&c.heading())).collect();
    let rule: Vec<&str> = table
        .columns
        .iter()
        .map(|c| match c.align {
            Align::Left => "---",
            Align::Right => "---:",
        })
        .collect();
    writeln!(w, "| {} |\n|{}|", headings.join(" | "), rule.join("|")).expect("String write");
    for row in &table.rows {
        let cells: Vec<String> = row.iter().map(|cell| escape(&cell.text)).collect();
        writeln!(w, "| {} |", cells.join(" | ")).expect("String write");
    }
}

/// The context as (label, value) pairs, shared with the HTML report.
pub(crate) fn context_pairs(report: &Report) -> Vec<(&'static str, String)> {
    let c = &report.context;
    let mut pairs = vec![
        ("sudolab", c.version.clone()),
        (
            "commit",
            match (&c.commit, c.dirty, &c.diff_hash) {
                (None, ..) => "unknown".to_string(),
                (Some(commit), Some(true), hash) => format!(
                    "{commit}, modified ({})",
                    hash.as_deref().unwrap_or("changes not hashed")
                ),
                (Some(commit), ..) => commit.clone(),
            },
        ),
        ("date", c.date.clone()),
        ("cpu", c.cpu.clone()),
        ("command", c.command.clone()),
        ("inputs", c.inputs.join(" ")),
        ("puzzles", report.puzzles.to_string()),
        ("limit", limit_text(c.limit)),
        (
            "budget",
            format!(
                "{}{} nodes, {} per search",
                work_budget(c.budget, &c.budget_units),
                c.max_nodes
                    .map_or_else(|| "no limit on".to_string(), |n| n.to_string()),
                c.timeout_ms
                    .map_or_else(|| "no time limit".to_string(), |ms| format!("{ms} ms"))
            ),
        ),
        ("repeat", c.repeat.to_string()),
        ("warm-up", c.warmup.to_string()),
        (
            "order",
            c.order
                .map_or_else(|| "not recorded".to_string(), |order| order.to_string()),
        ),
        ("jobs", c.jobs.to_string()),
    ];
    if !c.timer.is_empty() {
        pairs.push(("timer", c.timer.clone()));
    }
    if let Some(rustc) = &c.rustc {
        pairs.push(("rustc", rustc.clone()));
    }
    if !c.os.is_empty() {
        pairs.push(("os", c.os.clone()));
    }
    pairs.extend(build_and_machine(c));
    if let Some(warning) = &c.load_warning {
        pairs.push(("load warning", warning.clone()));
    }
    for limits in &c.overrides {
        pairs.push((
            "limits of",
            format!(
                "{}: limit {}, {}{} nodes, {}",
                limits.strategy,
                limit_text(limits.limit),
                limits.budget.map_or_else(String::new, |budget| format!(
                    "work {budget} {}, ",
                    c.budget_units
                        .get(&limits.strategy)
                        .map_or("units", |unit| unit.as_str())
                )),
                limits
                    .max_nodes
                    .map_or_else(|| "no limit on".to_string(), |n| n.to_string()),
                limits
                    .timeout_ms
                    .map_or_else(|| "no time limit".to_string(), |ms| format!("{ms} ms"))
            ),
        ));
    }
    if let Some((size, seed)) = c.sample {
        pairs.push(("sample", format!("{size} puzzles, seed {seed}")));
    }
    if let Some(shard) = &c.shard {
        pairs.push(("shard", shard.clone()));
    }
    if let Some(baseline) = &c.baseline {
        pairs.push(("baseline", baseline.clone()));
    }
    if let Some(seed) = c.bootstrap_seed {
        pairs.push(("bootstrap seed", seed.to_string()));
    }
    if !c.merged_from.is_empty() {
        pairs.push(("merged from", c.merged_from.join(" ")));
        let mut cpus = c.merged_cpus.clone();
        cpus.dedup();
        if cpus.len() > 1 {
            pairs.push(("shard cpus", c.merged_cpus.join("; ")));
        }
    }
    if !c.missing_shards.is_empty() {
        let missing: Vec<String> = c.missing_shards.iter().map(u64::to_string).collect();
        pairs.push(("missing shards", missing.join(", ")));
    }
    pairs
}

/// The build and the machine of a context, as (label, value) pairs (none for reports older
/// than them).
fn build_and_machine(c: &super::Context) -> Vec<(&'static str, String)> {
    let mut pairs = Vec::new();
    if let Some(build) = &c.build {
        let mut parts = vec![
            format!("{} (opt-level {})", build.profile, build.opt_level),
            build.target.clone(),
        ];
        parts.extend(
            build
                .target_cpu
                .as_ref()
                .map(|cpu| format!("target-cpu {cpu}")),
        );
        if !build.target_features.is_empty() {
            parts.push(format!("+{}", build.target_features.join(" +")));
        }
        if !build.features.is_empty() {
            parts.push(format!("features {}", build.features.join(" ")));
        }
        pairs.push(("build", parts.join(", ")));
    }
    if let Some(machine) = &c.machine {
        let known = |value: Option<String>| value.unwrap_or_else(|| "unknown".to_string());
        let load =
            |load: Option<super::LoadAverage>| known(load.map(|load| format!("{:.2}", load.one)));
        pairs.push((
            "machine",
            format!(
                "{} cores, {} memory, load {} at the start and {} at the end",
                known(machine.cores.map(|cores| cores.to_string())),
                known(
                    machine
                        .memory_bytes
                        .map(|bytes| format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30)))
                ),
                load(machine.load_start),
                load(machine.load_end),
            ),
        ));
    }
    pairs
}

/// A cell's text for Markdown: table pipes escaped, lines joined, and HTML's special
/// characters as entities, so that a file name or a re-rendered report cannot inject markup
/// into a viewer that renders inline HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace('\n', " ")
}
