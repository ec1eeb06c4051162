//! `sudolab count`: solution counts and uniqueness verdicts.

use std::fmt::Write as _;
use std::io::IsTerminal;

use clap::Args;
use serde_json::json;

use sudolab::check::ProblemKind;
use sudolab::experiment::{self, Plan, Scratch};
use sudolab::model::find_conflict;
use sudolab::strategy::Verdict;

use rayon::prelude::*;
use sudolab::corpus::{Met, Record, Source};

use super::input::{ErrorNotes, item, key, place, walk_arguments};
use super::output::Out;
use super::solve::known_solution_check;
use super::{BudgetArgs, InputArgs, ShardArgs, Status, strategy_named, worker_pool};

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
    shard: ShardArgs,
}

pub(crate) fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let strategy = strategy_named(&args.strategy)?;
    args.budget.check(strategy)?;
    let limit = if args.all { 0 } else { args.limit };
    let plan = Plan::new(&[strategy], &args.budget.limits().with_max_solutions(limit));
    let (pool, jobs) = worker_pool(args.jobs)?;
    let walk = walk_arguments(&args.input.files, args.input.read);
    let names: Vec<String> = walk.sources().iter().map(Source::name).collect();
    let reads_stdin = walk.sources().iter().any(Source::is_stdin);
    let mut notes = ErrorNotes::default();
    let mut out = Out::new();
    let mut batch: Vec<Pending> = Vec::new();
    let mut ordinal = 0;
    // Puzzles are gathered in batches, counted in parallel, and written in input order, with
    // each puzzle's notes and the input errors between them where they were met.
    let flush = |batch: &mut Vec<Pending>, notes: &mut ErrorNotes, out: &mut Out| {
        // One scratch per job and chunk, as one search after another reuses it.
        let per_job = batch.len().div_ceil(jobs).max(1);
        let counted: Vec<Option<Counted>> = pool.install(|| {
            batch
                .par_chunks(per_job)
                .flat_map_iter(|chunk| {
                    let mut scratch = Scratch::default();
                    chunk
                        .iter()
                        .map(|pending| match pending {
                            Pending::Puzzle {
                                ordinal,
                                source,
                                record,
                            } => Some(count_one(
                                args,
                                &plan,
                                *ordinal,
                                &names[*source],
                                record,
                                &mut scratch,
                            )),
                            Pending::Unread { .. } => None,
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        });
        let mut worst = Status::Success;
        let mut counted = counted.into_iter().flatten();
        for pending in batch.drain(..) {
            match pending {
                Pending::Unread { source, message } => {
                    notes.note(&names[source], &message);
                    worst = worst.max(Status::Error);
                }
                Pending::Puzzle { .. } => {
                    let Some(counted) = counted.next() else {
                        continue;
                    };
                    for note in &counted.notes {
                        note!("{note}");
                    }
                    if let Some(line) = &counted.line {
                        out.write_str(line)?;
                        out.write_str("\n")?;
                        out.end_record()?;
                    }
                    worst = worst.max(counted.status);
                }
            }
        }
        Ok::<Status, anyhow::Error>(worst)
    };
    // Large batches: handing a batch to the pool and back costs about as much as 60 short
    // searches (with 64 puzzles a batch, -j1 ran at 1.4x the sequential time; with 1,024 at
    // 1.06x). A person typing puzzles gets each answer at once.
    let typing = reads_stdin && std::io::stdin().is_terminal();
    let batch_size = if typing { 1 } else { 1024 * jobs };
    let mut walked = Status::Success;
    for met in walk {
        match met {
            Met::Puzzle { source, record } => {
                let here = ordinal;
                ordinal += 1;
                if !args.shard.keeps(here) {
                    continue;
                }
                batch.push(Pending::Puzzle {
                    ordinal: here,
                    source,
                    record,
                });
            }
            Met::Problem {
                source, message, ..
            } => batch.push(Pending::Unread { source, message }),
        }
        if batch.len() >= batch_size {
            walked = walked.max(flush(&mut batch, &mut notes, &mut out)?);
        }
    }
    let status = walked.max(flush(&mut batch, &mut notes, &mut out)?);
    notes.finish();
    out.finish()?;
    Ok(status)
}

/// A puzzle waiting for its batch, or an input error keeping its place in the output.
/// `source` is the index of the puzzle's source in the walk.
enum Pending {
    Puzzle {
        ordinal: u64,
        source: usize,
        record: Record,
    },
    Unread {
        source: usize,
        message: String,
    },
}

/// One puzzle counted: its output line, its notes for standard error, its status.
struct Counted {
    line: Option<String>,
    notes: Vec<String>,
    status: Status,
}

/// Counts one puzzle and says what to write; runs on a worker thread.
fn count_one(
    args: &CountArgs,
    plan: &Plan,
    here: u64,
    source: &str,
    record: &Record,
    scratch: &mut Scratch,
) -> Counted {
    let strategy = plan.entries[0].strategy;
    let mut notes = Vec::new();
    let place = place(source, record);
    if let Err(reason) = strategy.supports(record.puzzle.shape()) {
        notes.push(format!(
            "sudolab: {place}: {} cannot count this puzzle: {reason}",
            strategy.name()
        ));
        return Counted {
            line: None,
            notes,
            status: Status::Error,
        };
    }
    let checked = experiment::check(plan, item(here, source, record), scratch);
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
                    "sudolab: {place}: the engine returned an invalid solution: {invalid}"
                ));
                Status::Error
            }
            ProblemKind::ContradictsKnownSolution => match &run.solution {
                Some(found) => {
                    let (said, note) = known_solution_check(&place, record, found);
                    notes.extend(note);
                    said
                }
                // "none" against a known solution: the verdict already says so.
                None => Status::Negative,
            },
            ProblemKind::ContradictsKnownCount => {
                notes.push(format!(
                    "sudolab: {place}: found {} solutions but the source says {}",
                    run.count.found,
                    checked.item.count.unwrap_or_default()
                ));
                Status::Negative
            }
            ProblemKind::InvalidKnownSolution => {
                notes.push(format!("sudolab: {place}: {}", problem.detail));
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
    Counted {
        line: Some(line),
        notes,
        status,
    }
}
