//! `sudolab count`: solution counts and uniqueness verdicts.

use std::fmt::Write as _;

use clap::Args;
use serde_json::json;

use sudolab::check::{ProblemKind, Run};
use sudolab::experiment::{self, Plan, Scratch};
use sudolab::model::{Grid, find_conflict};
use sudolab::strategy::{Counter, EngineChoice, Limits, Strategy, Verdict, WorkUnit};

use sudolab::corpus::Record;

use super::input::{Placed, Said, place, walk_in_parallel};
use super::output::Out;
use super::solve::known_solution_check;
use super::{BudgetArgs, InputArgs, OrderArgs, ShardArgs, Status};
use sudolab::model::push_decimal;

#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The strategy to count with (see 'sudolab strategies'), or 'auto': per puzzle, fast
    /// up to 12x12 and sat above (the other one when the first refuses the puzzle; with
    /// --max-nodes, fast, since sat counts no nodes). JSON lines and --stats name the engine
    /// that ran.
    #[arg(long, short = 's', default_value = "auto")]
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
    order: OrderArgs,

    #[command(flatten)]
    shard: ShardArgs,
}

pub(crate) fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let limit = if args.all { 0 } else { args.limit };
    let engines = Engines::new(&args.strategy, &args.budget, &args.order, limit)?;
    let limits = args
        .order
        .apply(args.budget.limits())
        .with_max_solutions(limit);
    // Without --stats no time is shown, so none is measured.
    let plans = engines.plans(&limits, !args.stats);
    let mut out = Out::new();
    let status = walk_in_parallel(
        &args.input,
        args.jobs,
        args.shard.selected(),
        |source, record, scratch, text| {
            let plan = match engines.plan_for(&plans, &record.puzzle, "count") {
                Ok(plan) => plan,
                Err(why) => {
                    return Said {
                        notes: vec![format!("sudolab: {}: {why}", place(source, record))],
                        status: Status::Error,
                    };
                }
            };
            count_one(args, plan, source, record, scratch, text)
        },
        |out, placed| match placed {
            Placed::Puzzle(text) => out.write_str(text),
            Placed::Unread { .. } => Ok(()),
        },
        &mut out,
    )?;
    out.finish()?;
    Ok(status)
}

/// The engine choice of `count` and `solve` (`--strategy`, `auto` by default) and the checks
/// of the options that depend on the engine, made once before any puzzle is read.
pub(crate) struct Engines {
    choice: EngineChoice,
    /// Whether a node budget was given: `auto` then takes only engines that count nodes.
    node_budget: bool,
    /// Whether a work budget was given: `auto` then takes only engines that have one.
    work_budget: bool,
}

impl Engines {
    /// Resolves `name` and refuses the options its engines cannot follow.
    pub(crate) fn new(
        name: &str,
        budget: &BudgetArgs,
        order: &OrderArgs,
        solution_limit: u64,
    ) -> anyhow::Result<Engines> {
        let choice: EngineChoice = name.parse().map_err(|err| anyhow::anyhow!("{err}"))?;
        let engines = Engines {
            choice,
            node_budget: budget.max_nodes.is_some(),
            work_budget: budget.budget.is_some_and(|budget| budget > 0),
        };
        for engine in engines.candidates() {
            budget.check(engine)?;
            order.check(engine, solution_limit)?;
        }
        Ok(engines)
    }

    /// The engines this choice may run, each able to follow the budget.
    fn candidates(&self) -> Vec<&'static dyn Strategy> {
        let mut engines = self.choice.engines();
        if matches!(self.choice, EngineChoice::Auto) {
            // `fast` counts nodes: one engine is always left.
            engines.retain(|engine| self.usable(*engine));
        }
        engines
    }

    fn usable(&self, engine: &dyn Strategy) -> bool {
        (!self.node_budget || engine.counters().contains(&Counter::Nodes))
            && (!self.work_budget || engine.budget_unit() != WorkUnit::None)
    }

    /// One plan per engine the choice may run, with `limits`.
    pub(crate) fn plans(&self, limits: &Limits, untimed: bool) -> Vec<Plan> {
        self.candidates()
            .into_iter()
            .map(|engine| Plan {
                untimed,
                ..Plan::new(&[engine], limits)
            })
            .collect()
    }

    /// The plan of the engine that takes `puzzle`, or why none does (`verb`: what the
    /// command does with it, for the message).
    pub(crate) fn plan_for<'p>(
        &self,
        plans: &'p [Plan],
        puzzle: &Grid,
        verb: &str,
    ) -> Result<&'p Plan, String> {
        if let (EngineChoice::Named(engine), [plan]) = (self.choice, plans) {
            // A named engine has the one plan and is never replaced: only its refusal is
            // asked, without the candidate list `resolve_among` builds per puzzle (an
            // allocation and a search of the plans by name, about 200 instructions a puzzle).
            return match engine.accepts(puzzle) {
                Ok(()) => Ok(plan),
                Err(refusal) => Err(format!(
                    "{} cannot {verb} this puzzle: {refusal}",
                    engine.name()
                )),
            };
        }
        let engine = self
            .choice
            .resolve_among(puzzle, |engine| self.usable(engine))
            .map_err(|no| {
                let auto = if no.auto { " (auto)" } else { "" };
                format!(
                    "{}{auto} cannot {verb} this puzzle: {}",
                    no.engine, no.refusal
                )
            })?;
        plans
            .iter()
            .find(|plan| plan.entries[0].strategy.name() == engine.name())
            .ok_or_else(|| format!("{} cannot {verb} this puzzle", engine.name()))
    }
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
                    let (said, note) = known_solution_check(&place, record, found);
                    notes.extend(note);
                    said
                }
                // "none" against a known solution: the verdict already says so.
                None => Status::Negative,
            },
            ProblemKind::ContradictsKnownCount => {
                notes.push(count_claim_note(&place(), run, record));
                Status::Negative
            }
            ProblemKind::InvalidKnownSolution | ProblemKind::SolverFailed => {
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

/// The note of a count claim that the run contradicts (the cross-check's
/// `contradicts_known_count`), in the words of `count` and `solve`.
pub(crate) fn count_claim_note(place: &str, run: &Run, record: &Record) -> String {
    let plus = if run.count.exhausted { "" } else { "+" };
    format!(
        "sudolab: {place}: found {}{plus} solutions but the source says {}",
        run.count.found,
        record.count.unwrap_or_default()
    )
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
        let stats = format!(
            "\tstrategy={}\ttime_us={time_us:.1}\t{}",
            run.strategy, run.stats
        );
        line.push_str(&stats.replace(' ', "\t"));
    }
}
