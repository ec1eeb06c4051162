//! `sudolab solve`: one solution per puzzle, or a word in its place.

use std::io;

use clap::Args;
use serde_json::json;

use sudolab::corpus::{Record, grid_to_json};
use sudolab::experiment::{self, Plan, Scratch};
use sudolab::model::{Grid, find_conflict, to_grid_text, to_line, validate};

use super::input::{ErrorNotes, for_each_item, item, key, place};
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

    #[command(flatten)]
    order: super::OrderArgs,
}

pub(crate) fn run(args: &SolveArgs) -> anyhow::Result<Status> {
    let strategy = strategy_named(&args.strategy)?;
    args.budget.check(strategy)?;
    args.order.check(strategy, 1)?;
    let limits = args.order.apply(args.budget.limits()).with_max_solutions(1);
    let plan = Plan::new(&[strategy], &limits);
    let mut scratch = Scratch::default();
    let mut ordinal = 0;
    let mut out = Out::new();
    let mut answers = Answers {
        form: args.output,
        written: 0,
    };
    let mut notes = ErrorNotes::default();
    let status = for_each_item(&args.input, |source, record| {
        let record = match record {
            Ok(record) => record,
            Err(unread) => {
                notes.note(source, &unread.message);
                if unread.in_place_of_puzzle {
                    answers.missing(&mut out, Missing::Error, source, None, &unread.message)?;
                }
                return Ok(Status::Error);
            }
        };
        let here = ordinal;
        ordinal += 1;
        // Formatted only for a note: most puzzles have none.
        let place = || place(source, record);
        let missing = |answers: &mut Answers, out: &mut Out, word: Missing, why: &str| {
            note!("sudolab: {}: {why}", place());
            answers.missing(out, word, source, Some(record.line), why)?;
            anyhow::Ok(match word {
                Missing::Error => Status::Error,
                Missing::None | Missing::Unknown => Status::Negative,
            })
        };
        if let Err(reason) = strategy.accepts(&record.puzzle) {
            let why = format!("{} cannot solve this puzzle: {reason}", strategy.name());
            return missing(&mut answers, &mut out, Missing::Error, &why);
        }
        if let Err(message) = GridWriter::new(args.output).can_write(&record.puzzle) {
            return missing(&mut answers, &mut out, Missing::Error, &message);
        }
        let checked = experiment::check(&plan, item(here, source, record), &mut scratch);
        let outcome = &checked.runs[0];
        let elapsed = outcome.best;
        if let Some(invalid) = &outcome.invalid {
            let why = format!("the engine returned an invalid solution: {invalid}");
            return missing(&mut answers, &mut out, Missing::Error, &why);
        }
        let Some(solution) = outcome.solution.clone() else {
            let (word, why) = match outcome.stopped {
                None => match find_conflict(&record.puzzle) {
                    Some(conflict) => (
                        Missing::None,
                        format!("no solution: the givens conflict: {conflict}"),
                    ),
                    None => (Missing::None, "no solution".to_string()),
                },
                Some(stop) => (
                    Missing::Unknown,
                    format!("gave up: {stop} ({})", outcome.stats),
                ),
            };
            return missing(&mut answers, &mut out, word, &why);
        };
        let status = check_known(place, record, &solution);
        if args.stats && args.output != GridOutput::Json {
            note!(
                "{}: strategy={} time_us={:.1} {}",
                key(source, record),
                strategy.name(),
                elapsed.as_nanos() as f64 / 1e3,
                outcome.stats
            );
        }
        let mut fields = serde_json::Map::new();
        if args.output == GridOutput::Json {
            fields.insert("source".into(), json!(source));
            fields.insert("line".into(), json!(record.line));
            if args.stats {
                fields.insert("strategy".into(), json!(strategy.name()));
                fields.insert("time_us".into(), json!(elapsed.as_nanos() as f64 / 1e3));
                fields.insert("stats".into(), json!(outcome.stats));
            }
        }
        answers.solution(&mut out, &solution, fields)?;
        Ok(status)
    })?;
    notes.finish();
    answers.finish(&mut out)?;
    out.finish()?;
    Ok(status)
}

/// What stands in for a solution that is not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Missing {
    /// The puzzle has no solution.
    None,
    /// The search gave up (a budget ran out).
    Unknown,
    /// The puzzle could not be read or solved (malformed, a shape the strategy refuses, a side
    /// the output form cannot write, an invalid answer).
    Error,
}

impl Missing {
    fn word(self) -> &'static str {
        match self {
            Missing::None => "none",
            Missing::Unknown => "unknown",
            Missing::Error => "error",
        }
    }
}

/// Solve's output: one entry per input puzzle, in input order, so that entry i answers puzzle
/// i: the solution in the chosen form, or in its place a word (`none`, `unknown`, `error`) on a
/// line of its own (line and grid forms) or an object `{"verdict": word, ...}` (JSON).
struct Answers {
    form: GridOutput,
    written: usize,
}

impl Answers {
    /// What goes between two entries: a blank line between grids, commas in the JSON array.
    fn separate(&mut self, out: &mut Out) -> io::Result<()> {
        let separator = match self.form {
            GridOutput::Line => "",
            GridOutput::Grid if self.written == 0 => "",
            GridOutput::Grid => "\n",
            GridOutput::Json if self.written == 0 => "[\n",
            GridOutput::Json => ",\n",
        };
        self.written += 1;
        out.write_str(separator)
    }

    /// Writes a solution; `fields` are added to its JSON object.
    fn solution(
        &mut self,
        out: &mut Out,
        grid: &Grid,
        fields: serde_json::Map<String, serde_json::Value>,
    ) -> io::Result<()> {
        self.separate(out)?;
        match self.form {
            GridOutput::Line => {
                out.write_str(&to_line(grid).expect("checked by can_write"))?;
                out.write_str("\n")?;
            }
            GridOutput::Grid => out.write_str(&to_grid_text(grid))?,
            GridOutput::Json => {
                let mut object = grid_to_json(grid);
                if let Some(object) = object.as_object_mut() {
                    object.extend(fields);
                }
                out.write_str(&object.to_string())?;
            }
        }
        out.end_record()
    }

    /// Writes the word that stands in for a missing solution, and in JSON where and why.
    fn missing(
        &mut self,
        out: &mut Out,
        missing: Missing,
        source: &str,
        line: Option<usize>,
        reason: &str,
    ) -> io::Result<()> {
        self.separate(out)?;
        if self.form == GridOutput::Json {
            let mut object = json!({"verdict": missing.word(), "source": source});
            if let Some(line) = line {
                object["line"] = json!(line);
            }
            object["reason"] = json!(reason);
            out.write_str(&object.to_string())?;
        } else {
            out.write_str(missing.word())?;
            out.write_str("\n")?;
        }
        out.end_record()
    }

    /// Closes the JSON array (an empty one when nothing was written).
    fn finish(&mut self, out: &mut Out) -> io::Result<()> {
        if self.form == GridOutput::Json {
            out.write_str(if self.written == 0 { "[]\n" } else { "\n]\n" })?;
        }
        Ok(())
    }
}

/// Compares a solution with the one the source gives, if any, and says so on standard error.
pub(crate) fn check_known(place: impl Fn() -> String, record: &Record, solution: &Grid) -> Status {
    let (status, said) = known_solution_check(place, record, solution);
    if let Some(said) = said {
        note!("{said}");
    }
    status
}

/// [`check_known`]'s verdict and the line it would print, for callers that print later.
/// `solution` is one the pipeline certified (a run's `solution` is kept only when valid), so it
/// is not validated again; `place` is formatted only for a line to print.
pub(crate) fn known_solution_check(
    place: impl Fn() -> String,
    record: &Record,
    solution: &Grid,
) -> (Status, Option<String>) {
    match &record.solution {
        Some(known) if known != solution => {
            let place = place();
            let said = match validate(&record.puzzle, known) {
                Ok(()) => format!(
                    "sudolab: {place}: the known solution differs from the one found (both are valid: the puzzle has several solutions)"
                ),
                Err(invalid) => format!("sudolab: {place}: the known solution is wrong: {invalid}"),
            };
            (Status::Negative, Some(said))
        }
        _ => (Status::Success, None),
    }
}
