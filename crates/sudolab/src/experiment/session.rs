//! A comparison session: a plan run over an input, every answer certified and cross-checked,
//! every row tallied into the report and written to the report files, the report finished.
//! `compare`, `run` and Python's `compare` are this one function; a front end parses its
//! options, opens the report files, draws progress and prints, and nothing else.
//!
//! Rows and problems are made on the workers, and tallied there into one aggregator per part
//! of each batch (merged exactly at the end); only the rows the report keeps, a report file
//! takes or a row hook asks for come to the calling thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use super::{
    Checked, Ended, Input, InputProblem, Item, Plan, PoolError, Runner, Selection, SideError,
    SideKind,
};
use crate::corpus::{Met, Source, Walk};
use crate::model::to_one_line;
use crate::report::{
    Aggregator, Clock, Context, Format, PuzzleProblem, Report, Row, SideFileHash, Sink, SinkError,
    csv,
};

/// What a session runs and where its rows go.
pub struct Session {
    /// The plan.
    pub plan: Plan,
    /// The report's context (its provenance: [`super::provenance::context`]); its `clock` is
    /// the clock of the summaries (the default, the CPU clock, when it names none).
    pub context: Context,
    /// The strategy the report's ratios are relative to.
    pub baseline: Option<String>,
    /// Report files, fed every row and finished with the report.
    pub sinks: Vec<Sink>,
}

/// Takes a row and its run's first solution in the line form.
pub type RowHook<'h> = dyn FnMut(&Row, Option<&str>) + 'h;

/// A front end's hooks into a session. Every hook but `progress` is called on the calling
/// thread, in input order.
pub struct Hooks<'h> {
    /// Called on the worker threads as `k` more searches end (a progress bar).
    pub progress: &'h (dyn Fn(u64) + Sync),
    /// A record of the input skipped (its message also goes into the report's input errors).
    pub skipped: &'h mut dyn FnMut(&str),
    /// A problem found on a puzzle (a disagreement, a wrong answer, a failed claim), as found.
    pub problem: &'h mut dyn FnMut(&PuzzleProblem),
    /// Every row with its run's first solution in the line form, when the front end keeps the
    /// rows itself (Python's tables).
    pub row: Option<&'h mut RowHook<'h>>,
}

/// A session that could not run to its end.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The worker threads could not be started.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// A side file failed (a count or solution list that does not match the input).
    #[error(transparent)]
    Side(#[from] SideError),
    /// A report file could not be written.
    #[error(transparent)]
    Sink(#[from] SinkError),
    /// A sample larger than the input it is drawn from.
    #[error(
        "a sample of {size} puzzles was asked for, but the input holds {puzzles}; ask for at \
         most {puzzles}, or leave out the sample to take every puzzle"
    )]
    Sample {
        /// The sample size asked for.
        size: u64,
        /// The puzzles of the input.
        puzzles: u64,
    },
}

/// A session's end: the report (also written to every report file) and how the run ended.
#[derive(Debug)]
pub struct Compared {
    /// The report, complete unless the run was interrupted.
    pub report: Report,
    /// Puzzles run, and whether the cancel flag stopped the run.
    pub ended: Ended,
}

/// What a worker makes of one puzzle for the calling thread.
struct Made {
    problems: Vec<PuzzleProblem>,
    rows: Vec<Row>,
    solutions: Vec<Option<String>>,
}

impl Made {
    fn of(checked: &Checked, with_solutions: bool) -> Made {
        Made {
            problems: checked.puzzle_problems(),
            rows: checked.rows(),
            solutions: if with_solutions {
                checked
                    .runs
                    .iter()
                    .map(|run| run.solution.as_ref().map(to_one_line))
                    .collect()
            } else {
                Vec::new()
            },
        }
    }
}

/// Where a session's puzzles come from.
pub enum Puzzles<'a> {
    /// Files and standard input, read and parsed as the run goes.
    Walk(Box<Input>),
    /// Puzzles already read (Python's).
    Items(Box<dyn Iterator<Item = Item> + 'a>),
}

/// Runs `session` over `puzzles`.
pub fn compare(
    session: Session,
    puzzles: Puzzles<'_>,
    hooks: Hooks<'_>,
) -> Result<Compared, SessionError> {
    let Session {
        plan,
        mut context,
        baseline,
        mut sinks,
    } = session;
    if let Puzzles::Walk(input) = &puzzles {
        context.input_hashes = input.walk.sources().iter().map(content_hash).collect();
        context.side_files = side_file_hashes(input);
    }
    let Hooks {
        progress,
        skipped,
        problem: on_found,
        row: mut on_row,
    } = hooks;
    let names = plan.names();
    // A context that names no clock gets the default one, and records it.
    let clock = *context.clock.get_or_insert_with(Clock::default);
    let new_aggregator = || Aggregator::new(names.clone(), baseline.clone()).with_clock(clock);
    let mut aggregator = new_aggregator();
    let runner = Runner::new(&plan).progress(progress);
    let part_aggregators: Vec<Mutex<Aggregator>> = (0..runner.parts())
        .map(|_| Mutex::new(new_aggregator()))
        .collect();
    let solutions_wanted = on_row.is_some();
    // Once nobody takes rows (no report file, no row hook, the report's first rows kept),
    // they are dropped on the workers.
    let rows_wanted = AtomicBool::new(true);
    let mut problems = Vec::new();
    let mut input_errors = Vec::new();
    let mut fatal = None;

    let make = |checked: Checked| Made::of(&checked, solutions_wanted);
    let tally = |part: usize, made: &mut Made| {
        let mut aggregator = part_aggregators[part]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for row in &made.rows {
            aggregator.tally(row);
        }
        if !rows_wanted.load(Ordering::Relaxed) {
            // Dropped here, on the worker, buffer and all.
            drop(std::mem::take(&mut made.rows));
        }
    };
    let hand_on = |made: Made| -> Result<(), SinkError> {
        for found in &made.problems {
            on_found(found);
        }
        problems.extend(made.problems);
        for (index, row) in made.rows.into_iter().enumerate() {
            for sink in &mut sinks {
                sink.row(&row)?;
            }
            if let Some(on_row) = on_row.as_mut() {
                let solution = made.solutions.get(index).and_then(Option::as_deref);
                on_row(&row, solution);
            }
            aggregator.keep(row);
        }
        if sinks.is_empty() && on_row.is_none() && !aggregator.wants_rows() {
            rows_wanted.store(false, Ordering::Relaxed);
        }
        Ok(())
    };
    let ended = match puzzles {
        Puzzles::Walk(input) => {
            check_before_run(&input, plan.selection)?;
            let on_problem = |problem| match problem {
                InputProblem::Skipped(message) => {
                    skipped(&message);
                    input_errors.push(message);
                }
                InputProblem::Fatal(err) => fatal = Some(err),
            };
            runner
                .map(make)
                .tally(tally)
                .walk(*input, on_problem, hand_on)??
        }
        Puzzles::Items(items) => runner.map(make).tally(tally).items(items, hand_on)??,
    };
    if let Some(err) = fatal {
        return Err(err.into());
    }
    for part in part_aggregators {
        aggregator.merge(&part.into_inner().unwrap_or_else(PoisonError::into_inner));
    }
    let interrupted = ended.interrupted || plan.cancelled();
    note_load(&mut context, plan.jobs);
    let report = aggregator.report(context, input_errors, problems, !interrupted);
    finish_sinks(sinks, &report)?;
    Ok(Compared {
        report,
        ended: Ended {
            interrupted,
            ..ended
        },
    })
}

/// Refuses, before anything runs, side files whose length is not the number of puzzles they
/// answer and a sample larger than the input: the input is read once to count its puzzles
/// (parsed, not searched), only when there is a side file or a sample. Standard input cannot
/// be read twice: a side file of it is held to it as the run goes (one that ends first ends
/// the run), and a sample of it takes what there is.
fn check_before_run(input: &Input, selection: Selection) -> Result<(), SessionError> {
    let sample = match selection {
        Selection::Sample { size, .. } => Some(size),
        Selection::All | Selection::Shard(_) => None,
    };
    let whole = [&input.whole.counts, &input.whole.solutions];
    let any_whole = whole.iter().any(|side| side.is_some());
    let sources = input.walk.sources();
    let mut total = Some(0u64);
    for (index, source) in sources.iter().enumerate() {
        let own = input
            .sides
            .get(index)
            .map(|sides| [&sides.counts, &sides.solutions]);
        let any_own = own.is_some_and(|own| own.iter().any(|side| side.is_some()));
        if !(any_own || any_whole || sample.is_some()) {
            continue;
        }
        if source.is_stdin() {
            total = None;
            continue;
        }
        let puzzles = Walk::new(vec![source.clone()])
            .filter(|met| matches!(met, Met::Puzzle { .. }))
            .count() as u64;
        for side in own.into_iter().flatten().flatten() {
            side.check_length(puzzles, &source.name())?;
        }
        total = total.map(|total| total + puzzles);
    }
    let Some(total) = total else {
        return Ok(());
    };
    if any_whole || sample.is_some() {
        let input = match sources {
            [one] => one.name(),
            _ => format!("the input ({} files)", sources.len()),
        };
        for side in whole.into_iter().flatten() {
            side.check_length(total, &input)?;
        }
        if let Some(size) = sample.filter(|size| *size > total) {
            return Err(SessionError::Sample {
                size,
                puzzles: total,
            });
        }
    }
    Ok(())
}

/// The SHA-256 of a source's bytes that identifies it in a report's context, or `None` for
/// standard input ([`super::provenance::file_sha256`] says what else has none).
fn content_hash(source: &Source) -> Option<String> {
    if source.is_stdin() {
        return None;
    }
    super::provenance::file_sha256(&source.path)
}

/// The side files of `input`, each with its SHA-256, the input's own first, in input order.
fn side_file_hashes(input: &Input) -> Vec<SideFileHash> {
    input
        .sides
        .iter()
        .chain(std::iter::once(&input.whole))
        .flat_map(|sides| [&sides.counts, &sides.solutions])
        .flatten()
        .map(|side| SideFileHash {
            path: side.path().display().to_string(),
            kind: match side.kind() {
                SideKind::Counts => "counts",
                SideKind::Solutions => "solutions",
            }
            .to_string(),
            sha256: super::provenance::file_sha256(side.path()),
        })
        .collect()
}

/// Records the load average at the run's end in `context`'s machine, and the warning when the
/// load at the start or the end left fewer cores free than the run's `jobs`.
fn note_load(context: &mut Context, jobs: usize) {
    let Some(machine) = context.machine.as_mut() else {
        return;
    };
    machine.load_end = super::provenance::load_average();
    let Some(cores) = machine.cores else {
        return;
    };
    context.load_warning = super::provenance::load_warning(
        machine.load_start.map(|load| load.one),
        machine.load_end.map(|load| load.one),
        cores as usize,
        jobs.max(1),
    );
}

/// Ends every report file with `report`, and writes the problems file beside each CSV one
/// (`report::csv`: the CSV's problems and input errors, in a file of their own).
fn finish_sinks(sinks: Vec<Sink>, report: &Report) -> Result<(), SinkError> {
    for sink in sinks {
        let path = sink.path().to_path_buf();
        sink.finish(report)?;
        // A report of no puzzle is not written (`Sink::finish`), and neither is its companion.
        if report.puzzles > 0 && Format::of(&path).ok() == Some(Format::Csv) {
            csv::write_problems(&path, report).map_err(|source| SinkError::Write {
                path: csv::problems_path(&path).display().to_string(),
                error: source,
            })?;
        }
    }
    Ok(())
}
