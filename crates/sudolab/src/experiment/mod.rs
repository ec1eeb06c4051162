//! The experiment: a plan (strategies with their limits, repeats, order, jobs, selection) run
//! over a stream of puzzles, every answer certified and cross-checked, results in input order.
//!
//! Every command that runs engines on puzzles goes through here: `compare` and `run` through
//! [`run`] (batches on a thread pool), `count`, `solve`, `verify` and `generate --verify` through
//! [`check`] (one puzzle, now). Both time only the searches ([`measure`]) and both compare the
//! answers with [`cross_check`] against each other and against what the input claims.
//!
//! The plan is plain data: [`Limits`] holds a timeout, which each search turns into a deadline
//! when it starts, so one plan serves every search of a run, on any thread.
//!
//! # Example
//!
//! Three engines on two puzzles, in engine order, each answer certified and cross-checked:
//!
//! ```
//! use std::time::Duration;
//! use sudolab::experiment::{self, Item, Plan};
//! use sudolab::model::parse_line_record;
//! use sudolab::strategy::{self, Limits, Verdict};
//!
//! let items = ["4..3.....1....2.", "4..3............"].iter().enumerate().map(|(i, line)| Item {
//!     ordinal: i as u64,
//!     source: format!("example:{}", i + 1),
//!     puzzle: parse_line_record(line.as_bytes(), None, 1).unwrap().puzzle,
//!     solution: None,
//!     count: None,
//! });
//! let engines = ["fast", "dlx-knuth", "sat"].map(|name| strategy::find(name).unwrap());
//! let limits = Limits::solutions(2).with_timeout(Duration::from_secs(1));
//! let plan = Plan::new(&engines, &limits);
//! let mut verdicts = Vec::new();
//! let ended = experiment::run(&plan, items, |checked| {
//!     assert!(checked.problems.is_empty(), "the engines agree");
//!     verdicts.push(checked.runs.iter().map(|run| run.verdict()).collect::<Vec<_>>());
//!     Ok::<(), ()>(())
//! })
//! .expect("a thread pool")
//! .expect("no error from the callback");
//! assert_eq!(ended.puzzles, 2);
//! assert_eq!(verdicts, [[Verdict::Unique; 3], [Verdict::Multiple; 3]]);
//! ```

pub mod file;
mod input;
mod measure;
mod pipeline;
pub mod provenance;
mod session;
mod side;
mod verify;
mod walk;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::check::{Claims, Problem, Run, cross_check};
use crate::model::{Grid, to_one_line};
use crate::report::{PuzzleProblem, Row};
use crate::strategy::{Stop, Verdict};

pub use file::{Experiment, ExperimentError};
pub use input::{InputProblem, Items, Sides, attach, count_selected};
use measure::{Clock, measure_into};
pub use measure::{Scratch, measure, measure_all, timer_overhead};
pub use pipeline::{ReadNext, run_blocks};
pub use session::{Compared, Hooks, Puzzles, Session, SessionError, compare};
pub use side::{SideError, SideFile, SideKind};
pub use verify::{Verification, verify};
pub use walk::{Input, run_walk};

pub use crate::plan::{
    Entry, Item, MAX_JOBS, MAX_REPEATS, MAX_SHARDS, Order, Plan, Repeats, Selection, Shard,
    ShardError, parse_duration,
};

/// Whether the searches of `plan` are timed.
fn clock(plan: &Plan) -> Clock {
    if plan.untimed { Clock::Off } else { Clock::On }
}

/// How many puzzles one worker searches back to back in engine order before it certifies
/// their answers: long enough for a loop, short enough that the chunks of a batch spread
/// evenly over the jobs.
const CHUNK: usize = 32;

/// How many puzzles per job a batch holds: enough that the slowest puzzle of a batch rarely
/// leaves the other threads idle (with 16 per job, two jobs gave 1.53 times the throughput of
/// one; with 256, 1.86 times).
const BATCH_PER_JOB: usize = 256;

/// One puzzle run by every strategy of a plan: the certified runs and the cross-check.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The puzzle.
    pub item: Item,
    /// One run per plan entry, in plan order.
    pub runs: Vec<Run>,
    /// Disagreements, invalid answers and contradicted claims.
    pub problems: Vec<Problem>,
}

impl Checked {
    /// Whether a search was cancelled (the puzzle is then left out of reports).
    pub fn cancelled(&self) -> bool {
        self.runs
            .iter()
            .any(|run| run.stopped == Some(Stop::Cancelled))
    }

    /// The report rows: one per strategy.
    pub fn rows(&self) -> Vec<Row> {
        let puzzle = &self.item.puzzle;
        self.runs
            .iter()
            .map(|run| Row {
                puzzle: self.item.ordinal,
                source: self.item.source.clone(),
                side: puzzle.side(),
                clues: puzzle.clue_count(),
                strategy: run.strategy.to_string(),
                verdict: run.verdict(),
                solutions: run.count.found,
                exhausted: run.count.exhausted,
                stopped: run.stopped,
                time_ns: run.best.as_nanos() as u64,
                median_ns: run.median.as_nanos() as u64,
                counters: run.stats.clone(),
            })
            .collect()
    }

    /// What keeps this puzzle from being proved unique, in words: the cross-check's problems
    /// (disagreements, invalid grids, a wrong known solution), then every run whose own
    /// verdict is not `unique`. Empty when every engine proved the same unique solution;
    /// `generate --verify` and the Python package's `verify` report these.
    pub fn uniqueness_problems(self) -> Vec<String> {
        let mut problems: Vec<String> = self
            .problems
            .into_iter()
            .map(|problem| problem.detail)
            .collect();
        for run in &self.runs {
            match run.verdict() {
                Verdict::Unique => {}
                Verdict::Multiple => problems.push(format!(
                    "not unique: {} says {}",
                    run.strategy,
                    crate::check::describe(run)
                )),
                Verdict::None => problems.push(format!("no solution: {} says none", run.strategy)),
                Verdict::Unknown | Verdict::Solved => problems.push(format!(
                    "{} could not decide: {}",
                    run.strategy,
                    crate::check::describe(run)
                )),
            }
        }
        problems
    }

    /// The problems, placed for a report.
    pub fn puzzle_problems(&self) -> Vec<PuzzleProblem> {
        if self.problems.is_empty() {
            // Most puzzles: no line to write.
            return Vec::new();
        }
        let grid = to_one_line(&self.item.puzzle);
        self.problems
            .iter()
            .map(|problem| PuzzleProblem {
                puzzle: self.item.ordinal,
                source: self.item.source.clone(),
                grid: grid.clone(),
                problem: problem.clone(),
            })
            .collect()
    }
}

/// Runs every strategy of `plan` on one puzzle, now, on this thread, certifies every answer
/// and cross-checks them (the plan's order, jobs and selection do not apply to one puzzle).
pub fn check(plan: &Plan, item: Item, scratch: &mut Scratch) -> Checked {
    let runs = run_plan(plan, &item.puzzle, scratch);
    finish(item, runs)
}

/// What [`check_puzzle`] finds on one puzzle: a certified run per plan entry, in plan order,
/// and the cross-check's problems.
#[derive(Clone, Debug)]
pub struct PuzzleRuns {
    /// One run per plan entry.
    pub runs: Vec<Run>,
    /// Disagreements, invalid answers and contradicted claims.
    pub problems: Vec<Problem>,
}

/// [`check`] on a borrowed puzzle and what its source claims, without an [`Item`]: for callers
/// that parse every line into one grid they reuse (`count`, `solve`), which a per-puzzle
/// `Item` (its key and a copy of the grid) would cost two allocations more.
pub fn check_puzzle(
    plan: &Plan,
    puzzle: &Grid,
    solution: Option<&Grid>,
    count: Option<u64>,
    scratch: &mut Scratch,
) -> PuzzleRuns {
    let runs = run_plan(plan, puzzle, scratch);
    let claims = Claims {
        puzzle: Some(puzzle),
        solution,
        count,
    };
    let problems = cross_check(&runs, claims);
    PuzzleRuns { runs, problems }
}

/// Every entry of `plan` on `puzzle`, measured and certified.
fn run_plan(plan: &Plan, puzzle: &Grid, scratch: &mut Scratch) -> Vec<Run> {
    let mut runs = scratch.take_runs();
    for entry in &plan.entries {
        // The entry's own limits unless a cancel flag must join them (no clone per puzzle).
        let with_cancel;
        let limits = if plan.cancel.is_some() {
            with_cancel = plan.limits(entry);
            &with_cancel
        } else {
            &entry.limits
        };
        measure_into(
            entry.strategy,
            &[puzzle],
            limits,
            (plan.repeats, clock(plan)),
            scratch,
            &mut runs,
        );
    }
    runs
}

fn finish(item: Item, runs: Vec<Run>) -> Checked {
    let problems = cross_check(
        &runs,
        Claims {
            puzzle: Some(&item.puzzle),
            solution: item.solution.as_ref(),
            count: item.count,
        },
    );
    Checked {
        item,
        runs,
        problems,
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// Puzzles run and handed on.
    pub puzzles: u64,
    /// Whether the cancel flag stopped the run. The puzzles handed on are then the first
    /// `puzzles` of the input (of the selection): the first puzzle with a cancelled search and
    /// every later one are not handed on, even those that finished.
    pub interrupted: bool,
}

/// A worker pool could not be started.
#[derive(Debug, thiserror::Error)]
#[error("cannot start {jobs} worker threads: {source}")]
pub struct PoolError {
    jobs: usize,
    source: rayon::ThreadPoolBuildError,
}

/// The pool of `plan.jobs` threads (at least one, at most [`MAX_JOBS`]) that runs its searches,
/// and how many threads it has.
fn worker_pool(plan: &Plan) -> Result<(rayon::ThreadPool, usize), PoolError> {
    let jobs = plan.jobs.clamp(1, MAX_JOBS);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|source| PoolError { jobs, source })?;
    Ok((pool, jobs))
}

/// Runs `plan` over `items` and hands each puzzle's [`Checked`] to `on_checked` in input order.
///
/// Puzzles are run in batches of 256 per job on a pool of `plan.jobs` threads, in `plan.order`;
/// each search is timed on its own thread. The selection is applied to the items' ordinals
/// (a sample keeps at most its size in memory). The cancel flag is looked at between items and
/// batches, and an interrupted run hands on a prefix of its puzzles ([`Ended::interrupted`]);
/// an error from `on_checked` ends the run and is returned.
pub fn run<E>(
    plan: &Plan,
    items: impl IntoIterator<Item = Item>,
    on_checked: impl FnMut(Checked) -> Result<(), E>,
) -> Result<Result<Ended, E>, PoolError> {
    run_with_progress(plan, items, &|_| {}, on_checked)
}

/// [`run`], calling `progress(k)` on the worker threads as `k` more searches end (for a
/// progress bar).
pub fn run_with_progress<E>(
    plan: &Plan,
    items: impl IntoIterator<Item = Item>,
    progress: &(dyn Fn(u64) + Sync),
    on_checked: impl FnMut(Checked) -> Result<(), E>,
) -> Result<Result<Ended, E>, PoolError> {
    run_mapped(plan, items, progress, |checked| checked, on_checked)
}

/// [`run_with_progress`], with `map` applied to each [`Checked`] on the worker that checked it
/// and its result handed to `on_done` in input order. What a caller makes of a puzzle (report
/// rows, formatted lines) is then made in parallel, and only what must be in order (writing,
/// tallying) is left to the calling thread: with a cheap engine, the rows and the drop of a
/// `Checked` cost about as much as the search, and made on the calling thread they kept
/// `compare -j2` at 1.4x the speed of `-j1`.
pub fn run_mapped<T: Send, E>(
    plan: &Plan,
    items: impl IntoIterator<Item = Item>,
    progress: &(dyn Fn(u64) + Sync),
    map: impl Fn(Checked) -> T + Sync,
    on_done: impl FnMut(T) -> Result<(), E>,
) -> Result<Result<Ended, E>, PoolError> {
    run_tallied(plan, items, progress, map, |_, _| {}, on_done)
}

/// [`run_mapped`], with `tally(part, result)` called on the workers for every result that
/// will be handed on, before it is: the results of each batch are split into [`parts`]`(plan)`
/// parts, and one part's results are tallied by one call after another, so a caller can keep
/// one accumulator per part (a report's [`Aggregator`](crate::report::Aggregator)) without
/// contention, merge them at the end, and take out of a result what the calling thread need
/// not see. A result that is not handed on (after a cancelled search) is not tallied.
pub fn run_tallied<T: Send, E>(
    plan: &Plan,
    items: impl IntoIterator<Item = Item>,
    progress: &(dyn Fn(u64) + Sync),
    map: impl Fn(Checked) -> T + Sync,
    tally: impl Fn(usize, &mut T) + Sync,
    mut on_done: impl FnMut(T) -> Result<(), E>,
) -> Result<Result<Ended, E>, PoolError> {
    let (pool, jobs) = worker_pool(plan)?;
    let mut batches = Batches {
        items: items.into_iter(),
        size: jobs * BATCH_PER_JOB,
        reservoir: Vec::new(),
        rng: match plan.selection {
            Selection::Sample { seed, .. } => Some(ChaCha8Rng::seed_from_u64(seed)),
            _ => None,
        },
        read_all: false,
    };
    let mut ended = Ended {
        puzzles: 0,
        interrupted: false,
    };
    // Hands on a batch's results in order, up to the first cancelled puzzle: later puzzles of
    // the batch may have finished (another job ran them), but the puzzles handed on must be a
    // prefix of the input, without holes (NEWCOMER.md #11).
    let mut absorb = |done: Vec<(bool, T)>, ended: &mut Ended| -> Result<(), E> {
        for (cancelled, mapped) in done {
            if cancelled {
                ended.interrupted = true;
                break;
            }
            ended.puzzles += 1;
            on_done(mapped)?;
        }
        Ok(())
    };
    // Through the pipeline of `count` and `compare` ([`run_blocks`]), two batches with its
    // runner: this thread hands on the results of one batch and reads the next while the pool
    // runs the searches. Batches are `Vec`s that `run_batch` consumes, so no buffer goes round.
    let mut cancelled = false;
    let handed_on = run_blocks(
        &pool,
        2,
        ReadNext::BeforeHandingOn,
        |_spare| {
            // Once the cancel flag stops the reading (an empty batch), `run_blocks` reads no more.
            let (batch, stop) = batches.next_batch(plan);
            cancelled = stop;
            Some(batch).filter(|batch| !batch.is_empty())
        },
        |batch: &mut Vec<Item>| {
            let done = run_batch(plan, std::mem::take(batch), progress, &map, &tally);
            // Nothing after a cancelled search is handed on: the batches sent meanwhile are
            // dropped unrun, and so never tallied.
            if done.iter().any(|(cancelled, _)| *cancelled) {
                ControlFlow::Break(done)
            } else {
                ControlFlow::Continue(done)
            }
        },
        |_, done| {
            absorb(done, &mut ended)?;
            Ok(if ended.interrupted {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        },
    );
    if cancelled || plan.cancelled() {
        ended.interrupted = true;
    }
    Ok(handed_on.map(|()| ended))
}

/// How many parts [`run_tallied`] splits each batch's results into: the plan's jobs.
pub fn parts(plan: &Plan) -> usize {
    plan.jobs.clamp(1, MAX_JOBS)
}

/// Tallies, in `parts` parts on the current pool, the results of a batch up to its first
/// cancelled one (those that will be handed on): [`run_batch`]'s pass when the cancel flag
/// was raised during the batch.
fn tally_handed_on<T: Send>(
    done: &mut [(bool, T)],
    parts: usize,
    tally: &(impl Fn(usize, &mut T) + Sync),
) {
    let handed_on = done
        .iter()
        .position(|(cancelled, _)| *cancelled)
        .unwrap_or(done.len());
    let per_part = handed_on.div_ceil(parts).max(1);
    done[..handed_on]
        .par_chunks_mut(per_part)
        .enumerate()
        .for_each(|(part, results)| {
            for (_, result) in results {
                tally(part, result);
            }
        });
}

/// The items of a run cut into batches, with the plan's selection applied.
struct Batches<I> {
    items: I,
    size: usize,
    /// A sample's puzzles so far; handed on, in input order, once every item is read.
    reservoir: Vec<Item>,
    rng: Option<ChaCha8Rng>,
    read_all: bool,
}

impl<I: Iterator<Item = Item>> Batches<I> {
    /// The next batch (empty at the end), and whether the cancel flag stopped the reading;
    /// the batch is then what was read before.
    fn next_batch(&mut self, plan: &Plan) -> (Vec<Item>, bool) {
        let mut batch = Vec::with_capacity(self.size);
        while !self.read_all && batch.len() < self.size {
            if plan.cancelled() {
                return (Vec::new(), true);
            }
            let Some(item) = self.items.next() else {
                self.read_all = true;
                self.reservoir.sort_by_key(|item| item.ordinal);
                self.reservoir.reverse();
                break;
            };
            match plan.selection {
                Selection::All => {}
                Selection::Shard(shard) if shard.keeps(item.ordinal) => {}
                Selection::Shard(_) => continue,
                Selection::Sample { size, .. } => {
                    // Reservoir sampling (Algorithm R): every puzzle ends up in the sample with
                    // the same probability, in one pass, with `size` puzzles in memory.
                    let seen = item.ordinal;
                    if (self.reservoir.len() as u64) < size {
                        self.reservoir.push(item);
                    } else {
                        let rng = self.rng.as_mut().expect("a sample has its generator");
                        let slot = rng.random_range(0..=seen);
                        if slot < size {
                            self.reservoir[slot as usize] = item;
                        }
                    }
                    continue;
                }
            }
            batch.push(item);
        }
        // Once everything is read, the sample (kept reversed, so that popping gives input
        // order).
        while self.read_all && batch.len() < self.size {
            let Some(item) = self.reservoir.pop() else {
                break;
            };
            batch.push(item);
        }
        (batch, false)
    }
}

/// One batch, in the plan's order, on the current pool; each puzzle's `map`ped result in the
/// batch's order, with whether its searches were cancelled, and every result that will be
/// handed on tallied ([`run_tallied`]).
///
/// In engine order the tally is made as each result is mapped, on its worker, into that
/// worker's part: one wait for the slowest job fewer per batch. That is exact only when every
/// result of the batch is handed on, that is when no search was cancelled, which the searches'
/// chunks record as they end. Otherwise (and in puzzle order) the results are tallied
/// afterwards up to the first cancelled one ([`tally_handed_on`]).
fn run_batch<T: Send>(
    plan: &Plan,
    batch: Vec<Item>,
    progress: &(dyn Fn(u64) + Sync),
    map: &(impl Fn(Checked) -> T + Sync),
    tally: &(impl Fn(usize, &mut T) + Sync),
) -> Vec<(bool, T)> {
    let parts = parts(plan);
    let finished = |checked: Checked, tallied: bool| {
        let cancelled = checked.cancelled();
        let mut mapped = map(checked);
        if tallied {
            // Worker threads are numbered from 0 in a pool of `parts` threads.
            let part = rayon::current_thread_index().unwrap_or(0) % parts;
            tally(part, &mut mapped);
        }
        (cancelled, mapped)
    };
    let (mut done, tallied): (Vec<(bool, T)>, bool) = match plan.order {
        // Searches and mapping share one pass: a puzzle mapped early may come after one whose
        // search is cancelled later, so the tally waits for the whole batch.
        Order::Puzzle => (
            batch
                .into_par_iter()
                .map_init(Scratch::default, |scratch, item| {
                    let checked = check(plan, item, scratch);
                    progress(plan.entries.len() as u64);
                    finished(checked, false)
                })
                .collect(),
            false,
        ),
        Order::Engine => {
            let puzzles: Vec<&Grid> = batch.iter().map(|item| &item.puzzle).collect();
            // Each puzzle's runs, filled in place entry after entry by the chunk that measured
            // them: no pass on one thread moves the runs into their puzzles' vectors.
            let mut per_item: Vec<Vec<Run>> = Vec::new();
            per_item.resize_with(batch.len(), Vec::new);
            let any_cancelled = AtomicBool::new(false);
            for entry in &plan.entries {
                let limits = plan.limits(entry);
                per_item
                    .par_chunks_mut(CHUNK)
                    .zip(puzzles.par_chunks(CHUNK))
                    .for_each_init(
                        || (Scratch::default(), Vec::with_capacity(CHUNK)),
                        |(scratch, runs), (item_runs, chunk)| {
                            measure_into(
                                entry.strategy,
                                chunk,
                                &limits,
                                (plan.repeats, clock(plan)),
                                scratch,
                                runs,
                            );
                            if runs.iter().any(|run| run.stopped == Some(Stop::Cancelled)) {
                                any_cancelled.store(true, Ordering::Relaxed);
                            }
                            for (item_runs, run) in item_runs.iter_mut().zip(runs.drain(..)) {
                                item_runs.reserve_exact(plan.entries.len());
                                item_runs.push(run);
                            }
                            progress(chunk.len() as u64);
                        },
                    );
            }
            // Every search of the batch has ended: if none was cancelled, every result is
            // handed on.
            let tallied = !any_cancelled.into_inner();
            let done = batch
                .into_par_iter()
                .zip(per_item)
                .map(|(item, runs)| finished(finish(item, runs), tallied))
                .collect();
            (done, tallied)
        }
    };
    if !tallied {
        tally_handed_on(&mut done, parts, tally);
    }
    done
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::parse_line_record;
    use crate::strategy::{self, Limits, Strategy, Verdict};

    fn item(ordinal: u64, line: &str) -> Item {
        let record = parse_line_record(line.as_bytes(), None, 1).expect("a test puzzle");
        Item {
            ordinal,
            source: format!("t:{}", ordinal + 1),
            puzzle: record.puzzle,
            solution: record.solution,
            count: record.count,
        }
    }

    fn items() -> Vec<Item> {
        [
            "4..3.....1....2.",
            "4..3............",
            "44..............",
            "4..3.....1....2.:1",
        ]
        .iter()
        .cycle()
        .take(600)
        .enumerate()
        .map(|(ordinal, line)| item(ordinal as u64, line))
        .collect()
    }

    fn plan(order: Order, jobs: usize) -> Plan {
        let strategies = [
            strategy::find("fast").unwrap(),
            strategy::find("mrv").unwrap(),
            strategy::find("dlx-knuth").unwrap(),
        ];
        Plan {
            order,
            jobs,
            ..Plan::new(&strategies, &Limits::solutions(2))
        }
    }

    fn verdicts(plan: &Plan) -> Vec<(u64, Vec<Verdict>, Vec<Option<u64>>)> {
        let mut seen = Vec::new();
        let ended = run(plan, items(), |checked| {
            assert!(checked.problems.is_empty(), "{:?}", checked.problems);
            seen.push((
                checked.item.ordinal,
                checked.runs.iter().map(Run::verdict).collect(),
                checked
                    .runs
                    .iter()
                    .map(|run| run.stats.get(strategy::Counter::Nodes))
                    .collect(),
            ));
            Ok::<(), ()>(())
        })
        .expect("a pool")
        .expect("no error");
        assert!(!ended.interrupted);
        assert_eq!(ended.puzzles, seen.len() as u64);
        seen
    }

    #[test]
    fn every_order_and_job_count_gives_the_same_rows_in_input_order() {
        let reference = verdicts(&plan(Order::Puzzle, 1));
        assert_eq!(reference.len(), 600);
        assert_eq!(
            reference[..3]
                .iter()
                .map(|(_, v, _)| v.clone())
                .collect::<Vec<_>>(),
            [
                vec![Verdict::Unique; 3],
                vec![Verdict::Multiple; 3],
                vec![Verdict::None; 3]
            ]
        );
        assert!(
            reference
                .iter()
                .enumerate()
                .all(|(i, (ordinal, _, _))| *ordinal == i as u64)
        );
        assert_eq!(verdicts(&plan(Order::Engine, 1)), reference);
        assert_eq!(verdicts(&plan(Order::Engine, 2)), reference);
        assert_eq!(verdicts(&plan(Order::Puzzle, 2)), reference);
    }

    #[test]
    fn shards_partition_and_samples_are_reproducible() {
        let ordinals = |selection: Selection| {
            let plan = Plan {
                selection,
                ..plan(Order::Engine, 2)
            };
            let mut seen = Vec::new();
            run(&plan, items(), |checked| {
                seen.push(checked.item.ordinal);
                Ok::<(), ()>(())
            })
            .unwrap()
            .unwrap();
            seen
        };
        let mut all: Vec<u64> = (1..=3)
            .flat_map(|index| ordinals(Selection::Shard(Shard { index, count: 3 })))
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..600).collect::<Vec<u64>>());
        let sample = ordinals(Selection::Sample { size: 7, seed: 4 });
        assert_eq!(sample.len(), 7);
        assert!(sample.windows(2).all(|w| w[0] < w[1]), "input order");
        assert_eq!(ordinals(Selection::Sample { size: 7, seed: 4 }), sample);
        assert_ne!(ordinals(Selection::Sample { size: 7, seed: 5 }), sample);
    }

    #[test]
    fn a_cancelled_run_hands_on_no_cancelled_puzzle() {
        let flag = Arc::new(AtomicBool::new(true));
        let plan = Plan {
            cancel: Some(flag),
            ..plan(Order::Engine, 1)
        };
        let ended = run(&plan, items(), |_| Ok::<(), ()>(())).unwrap().unwrap();
        assert_eq!(
            ended,
            Ended {
                puzzles: 0,
                interrupted: true
            }
        );
    }

    /// `fast`, except on puzzles whose first cell is given: there it says its search was
    /// cancelled, as a search under way at Ctrl-C does.
    struct CancelledOnSome;

    static CANCELLED_ON_SOME: CancelledOnSome = CancelledOnSome;

    impl Strategy for CancelledOnSome {
        fn name(&self) -> &'static str {
            "cancelled-on-some"
        }

        fn summary(&self) -> &'static str {
            "fast, cancelled on puzzles with r1c1 given"
        }

        fn counters(&self) -> &'static [strategy::Counter] {
            strategy::find("fast").unwrap().counters()
        }

        fn search(
            &self,
            puzzle: &Grid,
            limits: &Limits,
            on_solution: &mut dyn FnMut(&Grid),
        ) -> strategy::Outcome {
            let mut outcome = strategy::find("fast")
                .unwrap()
                .search(puzzle, limits, on_solution);
            if puzzle.cells()[0] != 0 {
                outcome.stopped = Some(Stop::Cancelled);
            }
            outcome
        }
    }

    #[test]
    fn an_interrupted_run_hands_on_a_prefix_of_the_input() {
        // Puzzle 5 is cancelled, the ones after it finished (another job ran them): the run
        // hands on puzzles 0..5 and nothing after, in both orders and with any jobs.
        let lines = (0..12).map(|i| {
            if i == 5 {
                "4..3.....1....2."
            } else {
                ".2..1...3..1...."
            }
        });
        let items: Vec<Item> = lines
            .enumerate()
            .map(|(ordinal, line)| item(ordinal as u64, line))
            .collect();
        for (order, jobs) in [(Order::Engine, 1), (Order::Engine, 2), (Order::Puzzle, 2)] {
            let strategies: [&'static dyn Strategy; 2] =
                [strategy::find("mrv").unwrap(), &CANCELLED_ON_SOME];
            let plan = Plan {
                order,
                jobs,
                ..Plan::new(&strategies, &Limits::solutions(2))
            };
            let mut seen = Vec::new();
            let ended = run(&plan, items.clone(), |checked| {
                seen.push(checked.item.ordinal);
                Ok::<(), ()>(())
            })
            .unwrap()
            .unwrap();
            assert_eq!(seen, [0, 1, 2, 3, 4], "{order} order, {jobs} jobs");
            assert_eq!(
                ended,
                Ended {
                    puzzles: 5,
                    interrupted: true
                }
            );
        }
    }

    #[test]
    fn the_tally_counts_exactly_the_results_handed_on() {
        // Without a cancelled puzzle every result is tallied once (as it is mapped, in engine
        // order); with puzzle 300 cancelled, exactly the 300 before it, in every order, with
        // any jobs, through both pipelines, though later puzzles finished too and later
        // batches were already sent to the pool.
        let dir = std::env::temp_dir().join(format!("sudolab-tally-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for cancelled in [None, Some(300)] {
            let lines: Vec<&str> = (0..2_000)
                .map(|ordinal| {
                    if Some(ordinal) == cancelled {
                        "4..3.....1....2."
                    } else {
                        ".2..1...3..1...."
                    }
                })
                .collect();
            let path = dir.join("puzzles.txt");
            std::fs::write(&path, lines.join("\n")).unwrap();
            for (order, jobs) in [(Order::Engine, 1), (Order::Engine, 2), (Order::Puzzle, 2)] {
                let strategies: [&'static dyn Strategy; 1] = [&CANCELLED_ON_SOME];
                let plan = Plan {
                    order,
                    jobs,
                    ..Plan::new(&strategies, &Limits::solutions(2))
                };
                for walked in [false, true] {
                    let parts: Vec<std::sync::Mutex<Vec<u64>>> = (0..parts(&plan))
                        .map(|_| std::sync::Mutex::default())
                        .collect();
                    let mut handed_on = Vec::new();
                    let map = |checked: Checked| checked.item.ordinal;
                    let tally = |part: usize, ordinal: &mut u64| {
                        parts[part].lock().unwrap().push(*ordinal);
                    };
                    let on_done = |ordinal| {
                        handed_on.push(ordinal);
                        Ok::<(), ()>(())
                    };
                    if walked {
                        let input = Input {
                            walk: crate::corpus::Walk::new(vec![crate::corpus::Source {
                                path: path.clone(),
                                format: crate::corpus::Format::Auto,
                                shape: None,
                                variant: None,
                            }]),
                            sides: Vec::new(),
                            whole: Sides::default(),
                        };
                        run_walk(&plan, input, |_| {}, &|_| {}, map, tally, on_done)
                    } else {
                        let items = lines
                            .iter()
                            .enumerate()
                            .map(|(ordinal, line)| item(ordinal as u64, line));
                        run_tallied(&plan, items, &|_| {}, map, tally, on_done)
                    }
                    .unwrap()
                    .unwrap();
                    let mut tallied: Vec<u64> = parts
                        .into_iter()
                        .flat_map(|part| part.into_inner().unwrap())
                        .collect();
                    tallied.sort_unstable();
                    let expected: Vec<u64> = (0..cancelled.unwrap_or(2_000)).collect();
                    let case = format!("{order} order, {jobs} jobs, walked: {walked}");
                    assert_eq!(handed_on, expected, "{case}");
                    assert_eq!(tallied, expected, "{case}");
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_parse_split_ranges_and_read_job_arrays() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(
            "0/4".parse::<Shard>().unwrap_err().to_string(),
            "expected K/N with 1 <= K <= N, such as 2/4; found '0/4'"
        );
        let ranges: Vec<_> = (1..=3)
            .map(|index| Shard { index, count: 3 }.range(10))
            .collect();
        assert_eq!(ranges, [0..3, 3..6, 6..10]);
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| (*value).to_string())
            }
        };
        assert_eq!(
            Shard::from_job_array(env(&[
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_COUNT", "4")
            ])),
            Ok(Shard { index: 3, count: 4 })
        );
        assert_eq!(
            Shard::from_job_array(env(&[
                ("SLURM_ARRAY_TASK_ID", "0"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_COUNT", "2")
            ])),
            Ok(Shard { index: 1, count: 2 })
        );
        assert_eq!(Shard::from_job_array(env(&[])), Err(ShardError::NoArray));
        assert_eq!(
            Shard::from_task(env(&[("PARALLEL_SEQ", "3")]), 4, "auto/4"),
            Ok(Shard { index: 3, count: 4 })
        );
        assert_eq!(
            Shard::from_task(env(&[("PARALLEL_SEQ", "5")]), 4, "auto/4")
                .unwrap_err()
                .to_string(),
            "expected K/N with 1 <= K <= N, such as 2/4; found 'auto/4 (task 5 of 4)'"
        );
        assert_eq!(
            Shard::from_task(env(&[]), 4, "auto/4"),
            Err(ShardError::NoTask)
        );
        assert_eq!(
            Shard::from_job_array(env(&[
                ("SLURM_ARRAY_TASK_ID", "x"),
                ("SLURM_ARRAY_TASK_COUNT", "2")
            ]))
            .unwrap_err()
            .to_string(),
            "SLURM_ARRAY_TASK_ID='x' is not a task number"
        );
    }
}
