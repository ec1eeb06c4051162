//! `sudolab solve`: one solution per puzzle, or a word in its place.

use std::io;

use clap::Args;
use serde_json::json;

use std::fmt::Write as _;

use sudolab::check::{ProblemKind, Run};
use sudolab::corpus::{Record, grid_to_json};
use sudolab::experiment::{self, Plan, Scratch};
use sudolab::model::{Grid, find_conflict, push_line, to_grid_text, validate};
use sudolab::strategy::{Strategy, Verdict};

use super::count::{Engines, count_claim_note};
use super::input::{Placed, Said, key, place, walk_in_parallel};
use super::output::{GridOutput, GridWriter, Out};
use super::{BudgetArgs, InputArgs, Status};

#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The strategy to solve with (see 'sudolab strategies'), or 'auto': per puzzle, fast up
    /// to 12x12 and sat above (the other one when the first refuses the puzzle; with
    /// --max-nodes, fast). --output json names the engine that ran.
    #[arg(long, short = 's', default_value = "auto")]
    strategy: String,

    /// Refuse puzzles with several solutions: 'multiple' in place of the solution, exit
    /// status 1 (and 'unknown' when the budget ran out before uniqueness was decided).
    /// Without it such a puzzle gets one of its solutions, with a note on standard error and
    /// "verdict": "multiple" in JSON; with --randomize (and no --unique) or --restarts, solve
    /// looks for one solution only, and says "solved".
    #[arg(long, conflicts_with = "restarts")]
    unique: bool,

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
    // Two solutions: the answer, and whether another one exists (a puzzle with several is
    // said so, and a count claim is checked as `count` checks it). A randomized search looks
    // for one, unless --unique asks for more: its experiments time the first solution, and
    // a restarted run would find earlier solutions again.
    let first_only =
        args.order.restarts.is_some() || (args.order.randomize.is_some() && !args.unique);
    let limit = if first_only { 1 } else { 2 };
    let engines = Engines::new(&args.strategy, &args.budget, &args.order, limit)?;
    let limits = args
        .order
        .apply(args.budget.limits())
        .with_max_solutions(limit);
    // Without --stats no time is shown, so none is measured.
    let plans = engines.plans(&limits, !args.stats);
    let mut out = Out::new();
    let mut answers = Answers {
        form: args.output,
        written: 0,
    };
    // One job: solve has always searched one puzzle at a time. The walk's calling thread
    // reads the lines and writes the answers while the job parses, solves and formats.
    let status = walk_in_parallel(
        &args.input,
        Some(1),
        None,
        |source, record, scratch, text| match engines.plan_for(&plans, &record.puzzle, "solve") {
            Ok(plan) => solve_one(args, plan, source, record, scratch, text),
            Err(why) => say_missing(args.output, (source, record), text, Missing::Error, &why),
        },
        |out, placed| match placed {
            Placed::Puzzle(text) => {
                answers.separate(out)?;
                out.write_str(text)
            }
            Placed::Unread {
                source,
                message,
                in_place_of_puzzle: true,
            } => {
                answers.separate(out)?;
                let mut text = String::new();
                push_missing(
                    &mut text,
                    args.output,
                    Missing::Error,
                    source,
                    None,
                    message,
                );
                out.write_str(&text)
            }
            Placed::Unread { .. } => Ok(()),
        },
        &mut out,
    )?;
    answers.finish(&mut out)?;
    out.finish()?;
    Ok(status)
}

/// Solves one puzzle and appends its answer (a solution, or the word in its place) to `text`;
/// runs on the walk's worker.
fn solve_one(
    args: &SolveArgs,
    plan: &Plan,
    source: &str,
    record: &Record,
    scratch: &mut Scratch,
    text: &mut String,
) -> Said {
    let strategy = plan.entries[0].strategy;
    if let Err(message) = GridWriter::new(args.output).can_write(&record.puzzle) {
        return say_missing(
            args.output,
            (source, record),
            text,
            Missing::Error,
            &message,
        );
    }
    let checked = experiment::check_puzzle(
        plan,
        &record.puzzle,
        record.solution.as_ref(),
        record.count,
        scratch,
    );
    let run = &checked.runs[0];
    let mut said = answer(args, strategy, (source, record), run, text);
    // A count claim, judged by the cross-check as for `count` and `compare`.
    if checked
        .problems
        .iter()
        .any(|problem| problem.kind == ProblemKind::ContradictsKnownCount)
    {
        said.notes
            .push(count_claim_note(&place(source, record), run, record));
        said.status = said.status.max(Status::Negative);
    }
    scratch.recycle(checked.runs);
    said
}

/// Writes `word` in place of a solution, and the note that says `why`.
fn say_missing(
    output: GridOutput,
    (source, record): (&str, &Record),
    text: &mut String,
    word: Missing,
    why: &str,
) -> Said {
    push_missing(text, output, word, source, Some(record.line), why);
    let status = match word {
        Missing::Error => Status::Error,
        Missing::None | Missing::Unknown | Missing::Multiple => Status::Negative,
    };
    Said {
        notes: vec![format!("sudolab: {}: {why}", place(source, record))],
        status,
    }
}

/// Appends the answer of one certified run (its solution, or the word in its place) to
/// `text`.
fn answer(
    args: &SolveArgs,
    strategy: &dyn Strategy,
    (source, record): (&str, &Record),
    outcome: &Run,
    text: &mut String,
) -> Said {
    // Formatted only for a note: most puzzles have none.
    let place = || place(source, record);
    let missing = |text: &mut String, word: Missing, why: &str| {
        say_missing(args.output, (source, record), text, word, why)
    };
    let elapsed = outcome.best;
    if let Some(invalid) = &outcome.invalid {
        let why = format!("the engine returned an invalid solution: {invalid}");
        return missing(text, Missing::Error, &why);
    }
    let Some(solution) = &outcome.solution else {
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
        return missing(text, word, &why);
    };
    let verdict = outcome.verdict();
    if args.unique && verdict != Verdict::Unique {
        let why = match outcome.stopped {
            Some(stop) if verdict != Verdict::Multiple => format!(
                "gave up before deciding whether the solution is unique (--unique): {stop} ({})",
                outcome.stats
            ),
            _ => "several solutions, and --unique asks for one".to_string(),
        };
        let word = if verdict == Verdict::Multiple {
            Missing::Multiple
        } else {
            Missing::Unknown
        };
        return missing(text, word, &why);
    }
    let mut notes = Vec::new();
    let (status, said) = known_solution_check(&place, record, solution);
    notes.extend(said);
    if verdict == Verdict::Multiple {
        notes.push(format!(
            "sudolab: {}: several solutions; this is one of them (--unique refuses such puzzles)",
            place()
        ));
    }
    if args.stats && args.output != GridOutput::Json {
        notes.push(format!(
            "{}: strategy={} time_us={:.1} {}",
            key(source, record),
            strategy.name(),
            elapsed.as_nanos() as f64 / 1e3,
            outcome.stats
        ));
    }
    match args.output {
        GridOutput::Line => {
            push_line(text, solution);
            text.push('\n');
        }
        GridOutput::Grid => text.push_str(&to_grid_text(solution)),
        GridOutput::Json => {
            let mut object = grid_to_json(solution);
            if let Some(fields) = object.as_object_mut() {
                fields.insert("source".into(), json!(source));
                fields.insert("line".into(), json!(record.line));
                // `unique`, `multiple`, or `solved`: uniqueness undecided (the budget ran out
                // after the first solution) or not sought (--restarts).
                let shown = match verdict {
                    Verdict::Unknown => Verdict::Solved,
                    verdict => verdict,
                };
                fields.insert("verdict".into(), json!(shown));
                fields.insert("strategy".into(), json!(strategy.name()));
                if args.stats {
                    fields.insert("time_us".into(), json!(elapsed.as_nanos() as f64 / 1e3));
                    fields.insert("stats".into(), json!(outcome.stats));
                }
            }
            write!(text, "{object}").expect("writing to a String cannot fail");
        }
    }
    Said { notes, status }
}

/// What stands in for a solution that is not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Missing {
    /// The puzzle has no solution.
    None,
    /// The search gave up (a budget ran out).
    Unknown,
    /// The puzzle has several solutions, and `--unique` refuses it.
    Multiple,
    /// The puzzle could not be read or solved (malformed, a shape the strategy refuses, a side
    /// the output form cannot write, an invalid answer).
    Error,
}

impl Missing {
    fn word(self) -> &'static str {
        match self {
            Missing::None => "none",
            Missing::Unknown => "unknown",
            Missing::Multiple => "multiple",
            Missing::Error => "error",
        }
    }
}

/// Solve's output: one entry per input puzzle, in input order, so that entry i answers puzzle
/// i: the solution in the chosen form, or in its place a word (`none`, `unknown`, `error`) on a
/// line of its own (line and grid forms) or an object `{"verdict": word, ...}` (JSON). The
/// entries are formatted by the worker; this puts them together.
struct Answers {
    form: GridOutput,
    written: usize,
}

impl Answers {
    /// What goes before an entry: a blank line between grids, commas in the JSON array.
    fn separate(&mut self, out: &mut Out) -> io::Result<()> {
        let separator = match self.form {
            GridOutput::Line => "",
            GridOutput::Grid if self.written == 0 => "",
            GridOutput::Grid => "\n",
            GridOutput::Json if self.written == 0 => "[\n",
            GridOutput::Json => ",\n",
        };
        self.written += 1;
        // Nothing between two lines of the line form: no call per puzzle to write nothing.
        if separator.is_empty() {
            return Ok(());
        }
        out.write_str(separator)
    }

    /// Closes the JSON array (an empty one when nothing was written).
    fn finish(&mut self, out: &mut Out) -> io::Result<()> {
        if self.form == GridOutput::Json {
            out.write_str(if self.written == 0 { "[]\n" } else { "\n]\n" })?;
        }
        Ok(())
    }
}

/// Appends the word that stands in for a missing solution, and in JSON where and why.
fn push_missing(
    text: &mut String,
    form: GridOutput,
    missing: Missing,
    source: &str,
    line: Option<usize>,
    reason: &str,
) {
    if form == GridOutput::Json {
        let mut object = json!({"verdict": missing.word(), "source": source});
        if let Some(line) = line {
            object["line"] = json!(line);
        }
        object["reason"] = json!(reason);
        write!(text, "{object}").expect("writing to a String cannot fail");
    } else {
        text.push_str(missing.word());
        text.push('\n');
    }
}

/// Compares a solution with the one the source gives, if any: the status, and the line to
/// print on standard error when they differ.
/// `solution` is one the pipeline certified (a run's `solution` is kept only when valid), so it
/// is not validated again; `place` is formatted only for a line to print.
pub(crate) fn known_solution_check(
    place: &impl Fn() -> String,
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
