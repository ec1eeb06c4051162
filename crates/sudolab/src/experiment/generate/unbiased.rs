//! A controlled-bias run (`generate --unbiased`): Berthier's attempts
//! ([`crate::generate::unbiased`]) on exactly uniform grids ([`GridSampler`]), attempt `i` on
//! grid `i / attempts_per_grid`, the minimal puzzles kept in attempt order until the count is
//! reached, and the clue-count distribution of those kept ([`Attempts::summary`]).
//!
//! Every grid and every attempt's order come from `strategy::rng::stream`, so a seed gives the
//! same puzzles with any thread pool and in any chunk size.

use rayon::prelude::*;

use super::{GenerateError, Request, choose_checker};
use crate::generate::unbiased::{self as method, Attempt, CluesSummary, KnownSets};
use crate::grids::GridSampler;
use crate::model::{Grid, Shape};
use crate::strategy::Strategy;
use crate::strategy::rng::{Stream, stream};

/// Attempts per job made at a time: enough to keep every job busy between hand-overs, few
/// enough that a small count does not run many attempts past its last puzzle.
const ATTEMPTS_PER_JOB: u64 = 128;

/// The sets one job's attempts knew and found, grid by grid (by index), in attempt order.
type FoundSets = Vec<(u64, KnownSets)>;

/// A controlled-bias run, ready: its board, grid sampler and checker.
pub struct Unbiased {
    shape: Shape,
    sampler: GridSampler,
    checker: &'static dyn Strategy,
    seed: u64,
    per_grid: u64,
}

impl Request {
    /// The options `--unbiased` cannot take, each with the reason, in the command line's
    /// words; then the board, its sampler and the checker.
    pub(super) fn prepare_unbiased(&self) -> Result<Unbiased, GenerateError> {
        if self.human_filter.any() {
            return Err(GenerateError::new(
                "--unbiased keeps every minimal puzzle of its attempts: --technique, \
                 --propagation and --te-depth would bias it again; generate without them",
            ));
        }
        let conflict = [
            (self.clues.is_some(), "--clues"),
            (
                self.symmetry != crate::generate::Symmetry::None,
                "--symmetry",
            ),
            (self.rating != super::RatingFilter::Any, "--rating"),
            (self.variant.is_some(), "--variant"),
            (self.rules.is_some(), "--rules"),
            (self.model != super::Model::Sudoku, "--model"),
            (self.holes.is_some(), "--holes"),
            (!self.verify.is_empty(), "--verify"),
            (!self.outside.0.is_empty(), "--external"),
        ]
        .into_iter()
        .find_map(|(given, option)| given.then_some(option));
        if let Some(option) = conflict {
            return Err(unbiased_conflict(option));
        }
        if self.attempts_per_grid == 0 {
            return Err(GenerateError::new(
                "--attempts-per-grid: expected 1 or more attempts on each grid, found 0",
            ));
        }
        let shape = match self.box_shape {
            Some(shape) => shape,
            None => self.size_shape()?,
        };
        let sampler = GridSampler::new(shape)
            .map_err(|err| GenerateError::new(format!("--unbiased draws uniform grids: {err}")))?;
        let checker = choose_checker(&self.checker, &Grid::empty(shape))?;
        Ok(Unbiased {
            shape,
            sampler,
            checker,
            seed: self.seed,
            per_grid: self.attempts_per_grid,
        })
    }
}

/// `--unbiased` refused beside `option`: its method fixes how puzzles are made, which ones
/// are kept and how they are proven.
pub fn unbiased_conflict(option: &str) -> GenerateError {
    GenerateError::new(format!(
        "--unbiased cannot be used with {option}: Berthier's method keeps every minimal puzzle \
         of uniform grids as its checker proves it, and {option} would change which puzzles \
         are made, kept or proven; generate without it"
    ))
}

impl Unbiased {
    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The checker of every uniqueness check (no budget: an undecided check would bias the
    /// distribution).
    pub fn checker(&self) -> &'static dyn Strategy {
        self.checker
    }

    /// Attempts on each drawn grid.
    pub fn attempts_per_grid(&self) -> u64 {
        self.per_grid
    }

    /// The run of `count` kept puzzles from the seed's first attempt.
    pub fn attempts(&self, count: u64) -> Attempts<'_> {
        Attempts {
            run: self,
            left: count,
            next_index: 0,
            made: 0,
            grids: Vec::new(),
            kept: Vec::new(),
        }
    }
}

/// A controlled-bias run's output, chunk by chunk: the minimal puzzles kept, in attempt order.
pub struct Attempts<'a> {
    run: &'a Unbiased,
    left: u64,
    next_index: u64,
    /// Attempts made up to the last one handed on (or looked at, while the count is short).
    made: u64,
    /// The grids the current attempts are cut from, each with its stream after the draw and
    /// the unavoidable sets its attempts have found.
    grids: Vec<(u64, Grid, Stream, KnownSets)>,
    /// Each kept puzzle's clues and grid index, for the distribution.
    kept: Vec<(usize, u64)>,
}

impl Attempts<'_> {
    /// How many puzzles are still to come: 0 when the run is over.
    pub fn left(&self) -> u64 {
        self.left
    }

    /// Attempts made so far: with the count reached, up to the one that completed it.
    pub fn made(&self) -> u64 {
        self.made
    }

    /// Grids drawn for the attempts made so far.
    pub fn grids(&self) -> u64 {
        self.made.div_ceil(self.run.per_grid)
    }

    /// The clue-count distribution of the puzzles kept so far, raw and weighted; `None`
    /// before the first.
    pub fn summary(&self) -> Option<CluesSummary> {
        method::summarize(self.run.shape.cell_count(), &self.kept)
    }

    /// The next chunk of attempts, made on `pool` ([`ATTEMPTS_PER_JOB`] a thread): the
    /// minimal puzzles among them, in attempt order, up to the one that completes the count
    /// (the same puzzles at any pool size). Often empty: few attempts keep a puzzle.
    pub fn next_chunk(&mut self, pool: &rayon::ThreadPool) -> Vec<Attempt> {
        if self.left == 0 {
            return Vec::new();
        }
        let jobs = pool.current_num_threads().max(1) as u64;
        let chunk = jobs * ATTEMPTS_PER_JOB;
        let indices: Vec<u64> = (self.next_index..self.next_index + chunk).collect();
        self.next_index += chunk;
        let made = self.attempts_on_grids(pool, &indices);
        let mut kept = Vec::new();
        for attempt in made {
            self.made += 1;
            if !attempt.minimal {
                continue;
            }
            self.kept
                .push((attempt.clues, attempt.index / self.run.per_grid));
            kept.push(attempt);
            self.left -= 1;
            if self.left == 0 {
                break;
            }
        }
        kept
    }

    /// The attempts of `indices`, attempt `i` on grid `i / per_grid`: the grids not yet
    /// drawn are drawn (each with its stream after the draw) and those before the chunk's
    /// first dropped.
    ///
    /// With more than one attempt a grid, each job's attempts on a grid start from the sets
    /// the grid's earlier chunks found ([`method::attempt_knowing`]), and what they find is
    /// added for the next chunk, in job order. The attempts themselves do not depend on the
    /// sets, so neither does the output.
    fn attempts_on_grids(&mut self, pool: &rayon::ThreadPool, indices: &[u64]) -> Vec<Attempt> {
        let run = self.run;
        let (sampler, checker, seed, per_grid) =
            (&run.sampler, run.checker, run.seed, run.per_grid);
        let (first, last) = (indices[0] / per_grid, indices[indices.len() - 1] / per_grid);
        let grids = &mut self.grids;
        grids.retain(|(grid, ..)| *grid >= first);
        let missing: Vec<u64> = (first..=last)
            .filter(|index| !grids.iter().any(|(grid, ..)| grid == index))
            .collect();
        let drawn: Vec<_> = pool.install(|| {
            missing
                .par_iter()
                .map(|&index| {
                    let mut rng = stream(seed, index);
                    (index, sampler.sample(&mut rng), rng, KnownSets::new())
                })
                .collect()
        });
        grids.extend(drawn);
        let shared = &*grids;
        let jobs: Vec<(Vec<Attempt>, FoundSets)> = pool.install(|| {
            indices
                .par_chunks(ATTEMPTS_PER_JOB as usize)
                .map(|indices| {
                    let mut found = FoundSets::new();
                    let attempts = indices
                        .iter()
                        .map(|&index| {
                            let (grid_index, nth) = (index / per_grid, index % per_grid);
                            let (_, grid, after_draw, known) = shared
                                .iter()
                                .find(|(grid, ..)| *grid == grid_index)
                                .expect("every grid of the chunk is drawn");
                            // The first attempt on a grid goes on with the grid's own stream
                            // (one attempt a grid is then the plain method); the others take
                            // streams of seeds after the run's, which no grid of this run uses.
                            let mut rng = if nth == 0 {
                                after_draw.clone()
                            } else {
                                stream(seed.wrapping_add(nth), grid_index)
                            };
                            if per_grid == 1 {
                                // Sets found by one attempt would help no other.
                                return method::attempt(grid.clone(), checker, &mut rng, index);
                            }
                            if found.last().is_none_or(|(grid, _)| *grid != grid_index) {
                                found.push((grid_index, known.clone()));
                            }
                            let (_, known) = found.last_mut().expect("just pushed");
                            method::attempt_knowing(grid.clone(), checker, &mut rng, index, known)
                        })
                        .collect();
                    (attempts, found)
                })
                .collect()
        });
        let mut made = Vec::with_capacity(indices.len());
        for (attempts, found) in jobs {
            made.extend(attempts);
            for (grid_index, sets) in found {
                if let Some((.., known)) = grids.iter_mut().find(|(grid, ..)| *grid == grid_index) {
                    known.merge(&sets);
                }
            }
        }
        made
    }
}
