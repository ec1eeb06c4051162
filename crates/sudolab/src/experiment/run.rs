//! The runner: a plan over puzzles in batches on a thread pool, every puzzle checked
//! ([`check`](super::check())), mapped and tallied on its worker, handed on in input order.
//! [`Runner`] is its one entry point, over items already read or over a walk of files.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::check::finish;
use super::pipeline::{ReadNext, run_blocks};
use super::walk::{Input, run_walk};
use super::{
    Checked, InputProblem, Item, MAX_JOBS, Order, Plan, Scratch, Selection, check, clock,
    measure_into,
};
use crate::check::Run;
use crate::model::Grid;
use crate::strategy::Stop;

/// The most puzzles one worker searches back to back in engine order before it certifies
/// their answers: long enough for a loop, short enough that the chunks of a batch spread
/// evenly over the jobs.
const CHUNK: usize = 32;

/// How many puzzles a chunk of a batch of `len` holds with `jobs` jobs: [`CHUNK`], or fewer so
/// that a short batch still makes at least four chunks a job (one chunk is one worker's, so a
/// batch of 18 puzzles in chunks of 32 would keep one core busy whatever the jobs).
fn chunk_size(len: usize, jobs: usize) -> usize {
    len.div_ceil(4 * jobs.max(1)).clamp(1, CHUNK)
}

/// What became of a puzzle's searches when its batch ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ran {
    /// Every search ended.
    Whole,
    /// Some ended before the run was interrupted: the puzzle is handed on with those alone
    /// (its cancelled searches are left out of its result, rows and cross-check).
    Part,
    /// None ended: the puzzle is not handed on.
    Nothing,
}

/// A puzzle's result without its cancelled searches, and what that leaves: an interrupted run
/// keeps every search that ended, whichever order ran them (in engine order, the strategies
/// before the one under way have searched the whole batch).
fn without_cancelled(checked: Checked) -> (Ran, Checked) {
    if !checked.cancelled() {
        return (Ran::Whole, checked);
    }
    let Checked { item, mut runs, .. } = checked;
    runs.retain(|run| run.stopped != Some(Stop::Cancelled));
    let ran = if runs.is_empty() {
        Ran::Nothing
    } else {
        Ran::Part
    };
    // Cross-checked again, among the searches that ended.
    (ran, finish(item, runs))
}

/// How many puzzles per job a batch holds: enough that the slowest puzzle of a batch rarely
/// leaves the other threads idle (with 16 per job, two jobs gave 1.53 times the throughput of
/// one; with 256, 1.86 times).
pub(super) const BATCH_PER_JOB: usize = 256;

/// Runs a plan over puzzles: what each puzzle becomes on its worker ([`Runner::map`]), what is
/// tallied there ([`Runner::tally`]), progress; then [`Runner::items`] or [`Runner::walk`].
///
/// Puzzles are run in batches of 256 per job on a pool of `plan.jobs` threads, in `plan.order`;
/// each search is timed on its own thread. The selection is applied to the items' ordinals (a
/// sample keeps at most its size in memory). The cancel flag is looked at between items and
/// batches; an interrupted run hands on every puzzle with a search that ended, with the
/// searches that ended ([`Ended::interrupted`]), and runs no later batch. An error from
/// `on_done` ends the run and is returned.
///
/// What a caller makes of a puzzle (report rows, formatted lines) is made in parallel by
/// `map`, and only what must be in order (writing) is left to the calling thread. `tally(part,
/// result)` is called on the workers for every result that will be handed on, before it is:
/// each batch's results are split into as many parts as the plan has jobs, and one part's
/// results are tallied one call after another, so a caller can keep one accumulator per part
/// without contention and merge them at the end. A result that is not handed on (a puzzle none
/// of whose searches ended) is not tallied.
pub struct Runner<'r, M, Y> {
    plan: &'r Plan,
    progress: &'r (dyn Fn(u64) + Sync),
    map: M,
    tally: Y,
}

/// The runner's map before [`Runner::map`]: each puzzle's [`Checked`] as it is.
type Unmapped = fn(Checked) -> Checked;
/// A runner's tally before [`Runner::tally`]: nothing.
type Untallied<T> = fn(usize, &mut T);

impl<'r> Runner<'r, Unmapped, Untallied<Checked>> {
    /// A runner of `plan` that hands on each puzzle's [`Checked`].
    pub fn new(plan: &'r Plan) -> Self {
        Runner {
            plan,
            progress: &|_| {},
            map: std::convert::identity,
            tally: |_, _| {},
        }
    }
}

impl<'r, T, M, Y> Runner<'r, M, Y>
where
    T: Send,
    M: Fn(Checked) -> T + Sync,
    Y: Fn(usize, &mut T) + Sync,
{
    /// Calls `progress(k)` on the worker threads as `k` more searches end (a progress bar).
    #[must_use]
    pub fn progress(self, progress: &'r (dyn Fn(u64) + Sync)) -> Self {
        Runner { progress, ..self }
    }

    /// Makes each puzzle's result on the worker that checked it; the tally starts over.
    pub fn map<U: Send, N: Fn(Checked) -> U + Sync>(self, map: N) -> Runner<'r, N, Untallied<U>> {
        Runner {
            plan: self.plan,
            progress: self.progress,
            map,
            tally: |_, _| {},
        }
    }

    /// Tallies each result that will be handed on, on its worker, in one of
    /// [`Runner::parts`] parts.
    pub fn tally<Z: Fn(usize, &mut T) + Sync>(self, tally: Z) -> Runner<'r, M, Z> {
        Runner {
            plan: self.plan,
            progress: self.progress,
            map: self.map,
            tally,
        }
    }

    /// How many parts the tally's results are split into: the plan's jobs.
    pub fn parts(&self) -> usize {
        parts(self.plan)
    }

    /// Runs over puzzles already read.
    pub fn items<E>(
        self,
        items: impl IntoIterator<Item = Item>,
        on_done: impl FnMut(T) -> Result<(), E>,
    ) -> Result<Result<Ended, E>, PoolError> {
        run_tallied(
            self.plan,
            items,
            self.progress,
            self.map,
            self.tally,
            on_done,
        )
    }

    /// Runs over a walk of files, read and parsed as the run goes (line-form puzzles parsed on
    /// the workers); `on_problem` hears of skipped records and fatal side-file errors on this
    /// thread, in input order.
    pub fn walk<E>(
        self,
        input: Input,
        on_problem: impl FnMut(InputProblem),
        on_done: impl FnMut(T) -> Result<(), E>,
    ) -> Result<Result<Ended, E>, PoolError> {
        run_walk(
            self.plan,
            input,
            on_problem,
            self.progress,
            self.map,
            self.tally,
            on_done,
        )
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// Puzzles run and handed on.
    pub puzzles: u64,
    /// Whether the cancel flag stopped the run. The puzzles handed on are then those of the
    /// batches run with at least one search that ended, each with the searches that ended:
    /// every finished (puzzle, strategy) pair and no other.
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
pub(super) fn worker_pool(plan: &Plan) -> Result<(rayon::ThreadPool, usize), PoolError> {
    let jobs = plan.jobs.clamp(1, MAX_JOBS);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|source| PoolError { jobs, source })?;
    Ok((pool, jobs))
}

/// [`Runner::items`]: `plan` over `items`, each puzzle's [`Checked`] mapped on its worker,
/// tallied there ([`Runner::tally`]) and handed to `on_done` in input order.
pub(super) fn run_tallied<T: Send, E>(
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
    // Hands on a batch's results in order: every puzzle with a search that ended.
    let mut absorb = |done: Vec<(Ran, T)>, ended: &mut Ended| -> Result<(), E> {
        for (ran, mapped) in done {
            if ran != Ran::Whole {
                ended.interrupted = true;
            }
            if ran != Ran::Nothing {
                ended.puzzles += 1;
                on_done(mapped)?;
            }
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
            // No batch after a cancelled search runs: the batches sent meanwhile are dropped
            // unrun, and so never tallied.
            if done.iter().any(|(ran, _)| *ran != Ran::Whole) {
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

/// How many parts a run splits each batch's results into: the plan's jobs.
pub(super) fn parts(plan: &Plan) -> usize {
    plan.jobs.clamp(1, MAX_JOBS)
}

/// Tallies, in `parts` parts on the current pool, the results of a batch that will be handed
/// on (those with a search that ended): [`run_batch`]'s pass when a search of the batch was
/// cancelled.
fn tally_handed_on<T: Send>(
    done: &mut [(Ran, T)],
    parts: usize,
    tally: &(impl Fn(usize, &mut T) + Sync),
) {
    let per_part = done.len().div_ceil(parts).max(1);
    done.par_chunks_mut(per_part)
        .enumerate()
        .for_each(|(part, results)| {
            for (ran, result) in results {
                if *ran != Ran::Nothing {
                    tally(part, result);
                }
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
            if !plan.selection.takes(item.ordinal) {
                continue;
            }
            match plan.selection {
                Selection::All | Selection::Shard(_) => {}
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

/// One batch, in the plan's order, on the current pool; each puzzle's `map`ped result (without
/// its cancelled searches) in the batch's order, with what ran of it, and every result that
/// will be handed on tallied ([`run_tallied`]).
///
/// In engine order the tally is made as each result is mapped, on its worker, into that
/// worker's part: one wait for the slowest job fewer per batch. That is exact only when every
/// result of the batch is handed on whole, that is when no search was cancelled, which the
/// searches' chunks record as they end. Otherwise (and in puzzle order) the results are
/// tallied afterwards ([`tally_handed_on`]).
pub(super) fn run_batch<T: Send>(
    plan: &Plan,
    batch: Vec<Item>,
    progress: &(dyn Fn(u64) + Sync),
    map: &(impl Fn(Checked) -> T + Sync),
    tally: &(impl Fn(usize, &mut T) + Sync),
) -> Vec<(Ran, T)> {
    let parts = parts(plan);
    let finished = |checked: Checked, tallied: bool| {
        let (ran, checked) = without_cancelled(checked);
        let mut mapped = map(checked);
        if tallied {
            // Worker threads are numbered from 0 in a pool of `parts` threads.
            let part = rayon::current_thread_index().unwrap_or(0) % parts;
            tally(part, &mut mapped);
        }
        (ran, mapped)
    };
    let (mut done, tallied): (Vec<(Ran, T)>, bool) = match plan.order {
        // Searches and mapping share one pass: a puzzle mapped early may be handed on while a
        // later one is cancelled, so the tally waits for the whole batch.
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
            let chunk_len = chunk_size(batch.len(), parts);
            for entry in &plan.entries {
                let limits = plan.limits(entry);
                per_item
                    .par_chunks_mut(chunk_len)
                    .zip(puzzles.par_chunks(chunk_len))
                    .for_each_init(
                        || (Scratch::default(), Vec::with_capacity(chunk_len)),
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
