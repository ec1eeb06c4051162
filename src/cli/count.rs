//! `sudolab count`: solution counts and uniqueness verdicts.

use std::fmt::Write as _;

use clap::Args;
use serde_json::json;

use sudolab::check::ProblemKind;
use sudolab::experiment::{self, Plan, Scratch};
use sudolab::model::find_conflict;
use sudolab::strategy::Verdict;

use super::input::{for_each_record, item, key, place};
use super::output::Out;
use super::solve::check_known;
use super::{BudgetArgs, InputArgs, ShardArgs, Status, strategy_named};

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

    #[command(flatten)]
    budget: BudgetArgs,

    #[command(flatten)]
    shard: ShardArgs,
}

pub(crate) fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let strategy = strategy_named(&args.strategy)?;
    args.budget.check(strategy)?;
    let limit = if args.all { 0 } else { args.limit };
    let plan = Plan::new(&[strategy], &args.budget.limits().with_max_solutions(limit));
    let mut scratch = Scratch::default();
    let mut ordinal = 0;
    let mut out = Out::new();
    let status = for_each_record(&args.input, |source, record| {
        let here = ordinal;
        ordinal += 1;
        if !args.shard.keeps(here) {
            return Ok(Status::Success);
        }
        let place = place(source, record);
        if let Err(reason) = strategy.supports(record.puzzle.shape()) {
            note!(
                "sudolab: {place}: {} cannot count this puzzle: {reason}",
                strategy.name()
            );
            return Ok(Status::Error);
        }
        let checked = experiment::check(&plan, item(here, source, record), &mut scratch);
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
                    note!("sudolab: {place}: the engine returned an invalid solution: {invalid}");
                    Status::Error
                }
                ProblemKind::ContradictsKnownSolution => match &run.solution {
                    Some(found) => check_known(&place, record, found),
                    // "none" against a known solution: the verdict already says so.
                    None => Status::Negative,
                },
                ProblemKind::ContradictsKnownCount => {
                    note!(
                        "sudolab: {place}: found {} solutions but the source says {}",
                        run.count.found,
                        checked.item.count.unwrap_or_default()
                    );
                    Status::Negative
                }
                ProblemKind::InvalidKnownSolution => {
                    note!("sudolab: {place}: {}", problem.detail);
                    Status::Negative
                }
                // One strategy cannot disagree with another.
                ProblemKind::VerdictsDisagree | ProblemKind::SolutionsDisagree => Status::Negative,
            };
            status = status.max(said);
        }
        // `solved 1`: the one solution asked for (`1+` would read as "maybe more").
        let count_text = match run.stopped {
            None => run.count.found.to_string(),
            Some(_) if verdict == Verdict::Solved => run.count.found.to_string(),
            Some(_) => format!("{}+", run.count.found),
        };
        let time_us = run.best.as_nanos() as f64 / 1e3;
        let line = if args.json {
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
                object["time_us"] = json!(time_us);
                object["stats"] = json!(run.stats);
            }
            object.to_string()
        } else {
            let mut line = format!("{}\t{verdict}\t{count_text}", key(source, record));
            if let Some(stop) = run.stopped.filter(|_| verdict == Verdict::Unknown) {
                write!(line, "\t({stop})").expect("writing to a String cannot fail");
            }
            if let Some(conflict) = find_conflict(&record.puzzle) {
                write!(line, "\t(givens conflict: {conflict})")
                    .expect("writing to a String cannot fail");
            }
            if args.stats {
                line.push_str(&format!("\ttime_us={time_us:.1}\t{}", run.stats).replace(' ', "\t"));
            }
            line
        };
        out.write_str(&line)?;
        out.write_str("\n")?;
        out.end_record()?;
        Ok(status)
    })?;
    out.finish()?;
    Ok(status)
}
