//! `sudolab solve`: one solution per puzzle.

use clap::Args;
use serde_json::json;

use sudolab::corpus::Record;
use sudolab::experiment::{self, Plan, Scratch};
use sudolab::model::{Grid, find_conflict, validate};

use super::input::{for_each_record, item, key, place};
use super::output::{GridOutput, GridWriter, Out};
use super::{BudgetArgs, InputArgs, Status, strategy_named};

#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The strategy to solve with (see 'sudolab strategies').
    #[arg(long, short = 's', default_value = "fast")]
    strategy: String,

    /// How to write solutions.
    #[arg(long, short = 'o', value_enum, default_value_t = GridOutput::Line)]
    output: GridOutput,

    /// Also report time and search counters per puzzle (on standard error, or inside the JSON
    /// objects with --output json).
    #[arg(long)]
    stats: bool,

    #[command(flatten)]
    budget: BudgetArgs,
}

pub(crate) fn run(args: &SolveArgs) -> anyhow::Result<Status> {
    let strategy = strategy_named(&args.strategy)?;
    args.budget.check(strategy)?;
    let plan = Plan::new(&[strategy], &args.budget.limits().with_max_solutions(1));
    let mut scratch = Scratch::default();
    let mut ordinal = 0;
    let mut out = Out::new();
    let mut writer = GridWriter::new(args.output);
    let status = for_each_record(&args.input, |source, record| {
        let here = ordinal;
        ordinal += 1;
        let place = place(source, record);
        if let Err(reason) = strategy.supports(record.puzzle.shape()) {
            note!(
                "sudolab: {place}: {} cannot solve this puzzle: {reason}",
                strategy.name()
            );
            return Ok(Status::Error);
        }
        if let Err(message) = writer.can_write(&record.puzzle) {
            note!("sudolab: {place}: {message}");
            return Ok(Status::Error);
        }
        let checked = experiment::check(&plan, item(here, source, record), &mut scratch);
        let outcome = &checked.runs[0];
        let elapsed = outcome.best;
        let stats_text = format!(
            "strategy={} time_us={:.1} {}",
            strategy.name(),
            elapsed.as_secs_f64() * 1e6,
            outcome.stats
        );
        if let Some(invalid) = &outcome.invalid {
            note!("sudolab: {place}: the engine returned an invalid solution: {invalid}");
            return Ok(Status::Error);
        }
        let Some(solution) = outcome.solution.clone() else {
            let why = match outcome.stopped {
                None => match find_conflict(&record.puzzle) {
                    Some(conflict) => format!("no solution: the givens conflict: {conflict}"),
                    None => "no solution".to_string(),
                },
                Some(stop) => format!("gave up: {stop} ({})", outcome.stats),
            };
            note!("sudolab: {place}: {why}");
            return Ok(Status::Negative);
        };
        let status = check_known(&place, record, &solution);
        if args.stats && args.output != GridOutput::Json {
            note!("{}: {stats_text}", key(source, record));
        }
        let extra = (args.output == GridOutput::Json).then(|| {
            let mut fields = serde_json::Map::new();
            fields.insert("source".into(), json!(source));
            fields.insert("line".into(), json!(record.line));
            if args.stats {
                fields.insert("strategy".into(), json!(strategy.name()));
                fields.insert("time_us".into(), json!(elapsed.as_secs_f64() * 1e6));
                fields.insert("stats".into(), json!(outcome.stats));
            }
            fields
        });
        writer.write(&mut out, &solution, extra)?;
        Ok(status)
    })?;
    writer.finish(&mut out)?;
    out.finish()?;
    Ok(status)
}

/// Certifies a solution and compares it with the one the source gives, if any.
pub(crate) fn check_known(place: &str, record: &Record, solution: &Grid) -> Status {
    if let Err(invalid) = validate(&record.puzzle, solution) {
        note!("sudolab: {place}: the engine returned an invalid solution: {invalid}");
        return Status::Error;
    }
    match &record.solution {
        Some(known) if known != solution => {
            match validate(&record.puzzle, known) {
                Ok(()) => note!(
                    "sudolab: {place}: the known solution differs from the one found (both are valid: the puzzle has several solutions)"
                ),
                Err(invalid) => {
                    note!("sudolab: {place}: the known solution is wrong: {invalid}");
                }
            }
            Status::Negative
        }
        _ => Status::Success,
    }
}
