//! `sudolab count`: solution counts and uniqueness verdicts.

use std::fmt::Write as _;

use clap::Args;
use serde_json::json;

use sudolab::check::{ProblemKind, Run};
use sudolab::experiment::{self, Plan, Scratch};
use sudolab::model::{Grid, find_conflict};
use sudolab::strategy::Verdict;

use sudolab::corpus::Record;

use super::input::{Placed, Said, place, walk_in_parallel};
use super::output::Out;
use super::solve::known_solution_check;
use super::{BudgetArgs, InputArgs, ShardArgs, Status, strategy_named};
use sudolab::model::push_decimal;

#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The strategy to count with (see 'sudolab strategies').
    #[arg(long, short = 's', default_value = "fast")]
    strategy: String,

    /// Stop counting at this many solutions; 2 decides uniqueness, 0 counts them all.
    #[arg(long, short = 'l', default_value_t = 2, conflicts_with = "all")]
    limit: u64,

    /// Count every solution (the same as --limit 0).
    #[arg(long)]
    all: bool,

    /// Add time and search counters to each line.
    #[arg(long)]
    stats: bool,

    /// Write one JSON object per puzzle (JSON lines) instead of tab-separated text.
    #[arg(long)]
    json: bool,

    /// Puzzles counted in parallel (default: one per core); the output is the same, in input
    /// order. With --stats, times measured beside other searches can be higher.
    #[arg(long, short = 'j', value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<usize>,

    #[command(flatten)]
    budget: BudgetArgs,

    #[command(flatten)]
    order: super::OrderArgs,

    #[command(flatten)]
    shard: ShardArgs,
}

pub(crate) fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let strategy = strategy_named(&args.strategy)?;
    args.budget.check(strategy)?;
    let limit = if args.all { 0 } else { args.limit };
    args.order.check(strategy, limit)?;
    let limits = args
        .order
        .apply(args.budget.limits())
        .with_max_solutions(limit);
    let plan = Plan {
        // Without --stats no time is shown, so none is measured.
        untimed: !args.stats,
        ..Plan::new(&[strategy], &limits)
    };
    let mut out = Out::new();
    let status = walk_in_parallel(
        &args.input,
        args.jobs,
        args.shard.selected(),
        |source, record, scratch, text| count_one(args, &plan, source, record, scratch, text),
        |out, placed| match placed {
            Placed::Puzzle(text) => out.write_str(text),
            Placed::Unread { .. } => Ok(()),
        },
        &mut out,
    )?;
    out.finish()?;
    Ok(status)
}

/// Counts one puzzle and appends its line to `text`; runs on a worker thread.
fn count_one(
    args: &CountArgs,
    plan: &Plan,
    source: &str,
    record: &Record,
    scratch: &mut Scratch,
    text: &mut String,
) -> Said {
    let strategy = plan.entries[0].strategy;
    let mut notes = Vec::new();
    // Formatted only for a note: most puzzles have none.
    let place = || place(source, record);
    if let Err(reason) = strategy.accepts(&record.puzzle) {
        notes.push(format!(
            "sudolab: {}: {} cannot count this puzzle: {reason}",
            place(),
            strategy.name()
        ));
        return Said {
            notes,
            status: Status::Error,
        };
    }
    let checked = experiment::check_puzzle(
        plan,
        &record.puzzle,
        record.solution.as_ref(),
        record.count,
        scratch,
    );
    let run = &checked.runs[0];
    let verdict = run.verdict();
    let mut status = match verdict {
        Verdict::None | Verdict::Unknown => Status::Negative,
        Verdict::Unique | Verdict::Multiple | Verdict::Solved => Status::Success,
    };
    // The cross-check's findings against the source's claims, in count's own words.
    for problem in &checked.problems {
        let said = match problem.kind {
            ProblemKind::InvalidAnswer => {
                let invalid = run.invalid.as_deref().unwrap_or_default();
                notes.push(format!(
                    "sudolab: {}: the engine returned an invalid solution: {invalid}",
                    place()
                ));
                Status::Error
            }
            ProblemKind::ContradictsKnownSolution => match &run.solution {
                Some(found) => {
                    let (said, note) = known_solution_check(place, record, found);
                    notes.extend(note);
                    said
                }
                // "none" against a known solution: the verdict already says so.
                None => Status::Negative,
            },
            ProblemKind::ContradictsKnownCount => {
                notes.push(format!(
                    "sudolab: {}: found {} solutions but the source says {}",
                    place(),
                    run.count.found,
                    record.count.unwrap_or_default()
                ));
                Status::Negative
            }
            ProblemKind::InvalidKnownSolution => {
                notes.push(format!("sudolab: {}: {}", place(), problem.detail));
                Status::Negative
            }
            // One strategy cannot disagree with another.
            ProblemKind::VerdictsDisagree | ProblemKind::SolutionsDisagree => Status::Negative,
        };
        status = status.max(said);
    }
    // Converted only with --stats.
    let time_us = || run.best.as_nanos() as f64 / 1e3;
    if args.json {
        let mut object = json!({
            "source": source,
            "line": record.line,
            "strategy": strategy.name(),
            "verdict": verdict,
            "solutions": run.count.found,
            "exhausted": run.stopped.is_none(),
            "stopped": run.stopped,
        });
        if args.stats {
            object["time_us"] = json!(time_us());
            object["stats"] = json!(run.stats);
        }
        write!(text, "{object}").expect("writing to a String cannot fail");
    } else {
        push_text_line(
            text,
            (source, record.line),
            run,
            args.stats.then(time_us),
            &record.puzzle,
        );
    }
    text.push('\n');
    scratch.recycle(checked.runs);
    Said { notes, status }
}

/// Appends the tab-separated line of one count, without its line ending: `FILE:LINE verdict
/// count`, then why it stopped, the givens' conflict and, with `time_us`, the time and
/// counters.
fn push_text_line(
    line: &mut String,
    (source, line_no): (&str, usize),
    run: &Run,
    time_us: Option<f64>,
    puzzle: &Grid,
) {
    let verdict = run.verdict();
    // Built by appending, with no formatting machinery for the common line.
    line.push_str(source);
    line.push(':');
    push_decimal(line, line_no as u64);
    line.push('\t');
    line.push_str(verdict.as_str());
    line.push('\t');
    push_decimal(line, run.count.found);
    // `solved 1`: the one solution asked for (`1+` would read as "maybe more").
    if run.stopped.is_some() && verdict != Verdict::Solved {
        line.push('+');
    }
    if let Some(stop) = run.stopped.filter(|_| verdict == Verdict::Unknown) {
        write!(line, "\t({stop})").expect("writing to a String cannot fail");
    }
    // Givens that conflict are a puzzle without solution: only then is there one to name.
    if let Some(conflict) = (verdict == Verdict::None)
        .then(|| find_conflict(puzzle))
        .flatten()
    {
        write!(line, "\t(givens conflict: {conflict})").expect("writing to a String cannot fail");
    }
    if let Some(time_us) = time_us {
        line.push_str(&format!("\ttime_us={time_us:.1}\t{}", run.stats).replace(' ', "\t"));
    }
}
