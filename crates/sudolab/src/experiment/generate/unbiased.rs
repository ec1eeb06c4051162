//! A controlled-bias run (`generate --unbiased`): Berthier's attempts
//! ([`crate::generate::unbiased`]) on exactly uniform grids ([`GridSampler`]), attempt `i` on
//! grid `i / attempts_per_grid`, the minimal puzzles kept in attempt order until the count is
//! reached, and the clue-count distribution of those kept ([`Attempts::summary`]).
//!
//! Every grid and every attempt's order come from `strategy::rng::stream`, so a seed gives the
//! same puzzles with any thread pool and in any chunk size.

use std::ops::Range;

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

/// Attempts on one grid a chunk makes at most: a grid of more attempts goes on in the next
/// chunk, so that a small count stops soon after its last puzzle.
const MAX_GRID_RUN: u64 = 1 << 14;

/// A drawn grid: its index, the grid, its stream after the draw and the unavoidable sets its
/// attempts have found.
type Drawn = (u64, Grid, Stream, KnownSets);

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
            end: u64::MAX,
            made: 0,
            grids: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// The run of every attempt on the grids of `grids` (by index), every minimal puzzle kept:
    /// the same attempts, puzzles and checks as a count's run makes on those grids, so that
    /// runs on consecutive ranges (shards) together are the run on their union.
    pub fn grid_range(&self, grids: Range<u64>) -> Attempts<'_> {
        let (next_index, end) = (
            grids.start.saturating_mul(self.per_grid),
            grids.end.saturating_mul(self.per_grid),
        );
        Attempts {
            run: self,
            left: if next_index < end { u64::MAX } else { 0 },
            next_index,
            end,
            made: 0,
            grids: Vec::new(),
            kept: Vec::new(),
        }
    }
}

/// A controlled-bias run's output, chunk by chunk: the minimal puzzles kept, in attempt order.
pub struct Attempts<'a> {
    run: &'a Unbiased,
    /// Puzzles still to keep; `u64::MAX` for a run of grids until its last attempt is made.
    left: u64,
    next_index: u64,
    /// The index after the run's last attempt (`u64::MAX` for a count's run).
    end: u64,
    /// Attempts made up to the last one handed on (or looked at, while the count is short).
    made: u64,
    /// The grids the current attempts are cut from, in index order.
    grids: Vec<Drawn>,
    /// Each kept puzzle's clues and grid index, for the distribution.
    kept: Vec<(usize, u64)>,
}

impl Attempts<'_> {
    /// How many puzzles are still to come: 0 when the run is over (`u64::MAX` while a run of
    /// grids has attempts to make).
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

    /// The next chunk of attempts, made on `pool`: the minimal puzzles among them, in attempt
    /// order, up to the one that completes a count (the same puzzles, with the same checks,
    /// at any pool size). Often empty: few attempts keep a puzzle.
    pub fn next_chunk(&mut self, pool: &rayon::ThreadPool) -> Vec<Attempt> {
        if self.left == 0 {
            return Vec::new();
        }
        let jobs = pool.current_num_threads().max(1) as u64;
        let chunk = jobs * chunk_per_job(self.run.per_grid);
        let last = self.next_index.saturating_add(chunk).min(self.end);
        let indices: Vec<u64> = (self.next_index..last).collect();
        self.next_index = last;
        if last == self.end {
            // A run of grids keeps what its last chunk makes; a count's run cannot get here.
            self.left = 0;
        }
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
            if self.end == u64::MAX {
                self.left -= 1;
                if self.left == 0 {
                    break;
                }
            }
        }
        kept
    }

    /// The attempts of `indices`, attempt `i` on grid `i / per_grid`: the grids not yet
    /// drawn are drawn (each with its stream after the draw) and those before the chunk's
    /// first dropped.
    ///
    /// With more than one attempt a grid, a grid's attempts run in attempt order in one job,
    /// each starting from the sets all earlier attempts on the grid found
    /// ([`method::attempt_knowing`]), carried from chunk to chunk. The checks therefore do not
    /// depend on the pool or the chunk size, and the attempts themselves not even on the sets.
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
        grids.sort_by_key(|(grid, ..)| *grid);
        // One attempt: its grid's own stream goes on (one attempt a grid is then the plain
        // method); the others take streams of seeds after the run's, which no grid of this
        // run uses.
        let stream_of = |index: u64, after_draw: &Stream| {
            let (grid_index, nth) = (index / per_grid, index % per_grid);
            if nth == 0 {
                after_draw.clone()
            } else {
                stream(seed.wrapping_add(nth), grid_index)
            }
        };
        // The chunk's attempts grid by grid (the grids are sorted, as are the indices).
        let runs: Vec<(&[u64], &mut Drawn)> = indices
            .chunk_by(|a, b| a / per_grid == b / per_grid)
            .zip(grids.iter_mut().skip_while(|(grid, ..)| *grid < first))
            .collect();
        let per_job = (ATTEMPTS_PER_JOB / per_grid).max(1) as usize;
        pool.install(|| {
            runs.into_par_iter()
                .with_min_len(per_job)
                .flat_map_iter(|(indices, (grid_index, grid, after_draw, known))| {
                    debug_assert!(indices.iter().all(|index| index / per_grid == *grid_index));
                    indices
                        .iter()
                        .map(|&index| {
                            let mut rng = stream_of(index, after_draw);
                            if per_grid == 1 {
                                // Sets found by one attempt would help no other.
                                return method::attempt(grid.clone(), checker, &mut rng, index);
                            }
                            method::attempt_knowing(grid.clone(), checker, &mut rng, index, known)
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        })
    }
}

/// Attempts a job is handed in each chunk: [`ATTEMPTS_PER_JOB`] rounded up to whole grids, so
/// that a job runs each grid's attempts one after the other, or [`MAX_GRID_RUN`] of a grid
/// with more.
fn chunk_per_job(per_grid: u64) -> u64 {
    if per_grid > MAX_GRID_RUN {
        MAX_GRID_RUN
    } else {
        ATTEMPTS_PER_JOB.div_ceil(per_grid) * per_grid
    }
}

/// What one shard of a run of grids ([`Unbiased::grid_range`]) made, as its output records it.
#[derive(Clone, Debug)]
pub struct GridShard {
    /// Where it was read from, for messages.
    pub name: String,
    /// The run's seed.
    pub seed: u64,
    /// The board.
    pub shape: Shape,
    /// The checker's name.
    pub checker: String,
    /// Attempts on each grid.
    pub per_grid: u64,
    /// The grids it made every attempt on.
    pub grids: Range<u64>,
    /// The grids of the whole run it is a shard of (the M of `--grids M`): grids `0..M`.
    pub run_grids: u64,
    /// The attempts it made (a finished shard: all of its grids').
    pub attempts: u64,
    /// Each kept puzzle's clues and attempt index.
    pub kept: Vec<(usize, u64)>,
}

/// Shards joined into their run: the first shard (by grids) gives the run's settings.
#[derive(Clone, Debug)]
pub struct JoinedShards {
    /// The first shard's settings, with the grids and attempts of all.
    pub run: GridShard,
    /// Shards joined.
    pub shards: usize,
    /// The grids of the run that no shard made, in order (only with `allow_partial`).
    pub missing: Vec<Range<u64>>,
    /// The clue-count distribution of every kept puzzle; `None` with none kept.
    pub summary: Option<CluesSummary>,
}

/// The run that `shards` (in any order) are the parts of: of one seed, board, checker,
/// attempts a grid and run of grids, each finished, their grid ranges covering the run's
/// grids with no gap and no overlap, from its first grid to its last. Anything else is an
/// error naming the shards, never a smaller sample; with `allow_partial`, the grids no shard
/// made are joined over and listed (every grid is drawn alike, so the shards made are still a
/// sample of the run's distribution, a smaller one).
pub fn join_shards(
    mut shards: Vec<GridShard>,
    allow_partial: bool,
) -> Result<JoinedShards, GenerateError> {
    for shard in &shards {
        check_shard(shard)?;
    }
    shards.sort_by_key(|shard| (shard.grids.start, shard.grids.end));
    let Some(first) = shards.first() else {
        return Err(GenerateError::new("no shard to join"));
    };
    for shard in &shards[1..] {
        let differs = [
            (shard.seed != first.seed, "seed"),
            (shard.shape != first.shape, "box"),
            (shard.checker != first.checker, "checker"),
            (shard.per_grid != first.per_grid, "attempts_per_grid"),
            (shard.run_grids != first.run_grids, "run_grids"),
        ]
        .into_iter()
        .find_map(|(differs, field)| differs.then_some(field));
        if let Some(field) = differs {
            return Err(GenerateError::new(format!(
                "{} and {} differ in \"{field}\": the shards of one run share seed, board, \
                 checker, attempts a grid and run of grids",
                first.name, shard.name
            )));
        }
    }
    let missing = missing_grids(&shards, allow_partial)?;
    let last = &shards[shards.len() - 1];
    let per_grid = first.per_grid;
    let kept: Vec<(usize, u64)> = shards
        .iter()
        .flat_map(|shard| {
            shard
                .kept
                .iter()
                .map(|&(clues, index)| (clues, index / per_grid))
        })
        .collect();
    let summary = method::summarize(first.shape.cell_count(), &kept);
    let mut run = first.clone();
    run.grids = first.grids.start..last.grids.end;
    run.attempts = shards.iter().map(|shard| shard.attempts).sum();
    run.kept = shards.iter().flat_map(|shard| shard.kept.clone()).collect();
    Ok(JoinedShards {
        run,
        shards: shards.len(),
        missing,
        summary,
    })
}

/// A shard's own consistency: attempts a grid, all its grids' attempts made, its grids inside
/// its run's, its puzzles from its grids.
fn check_shard(shard: &GridShard) -> Result<(), GenerateError> {
    if shard.per_grid == 0 {
        return Err(GenerateError::new(format!(
            "{}: 0 attempts a grid: a run of grids makes 1 or more on each",
            shard.name
        )));
    }
    let expected =
        (shard.grids.end.saturating_sub(shard.grids.start)).saturating_mul(shard.per_grid);
    if shard.attempts != expected {
        return Err(GenerateError::new(format!(
            "{}: {} attempts made of the {expected} on grids {}..{} at {} a grid: the \
             shard did not finish; run it again",
            shard.name, shard.attempts, shard.grids.start, shard.grids.end, shard.per_grid
        )));
    }
    if shard.grids.end > shard.run_grids {
        return Err(GenerateError::new(format!(
            "{}: grids {}..{} are not all of its run of {} grids",
            shard.name, shard.grids.start, shard.grids.end, shard.run_grids
        )));
    }
    let cells = shard.shape.cell_count();
    if let Some(&(clues, index)) = shard
        .kept
        .iter()
        .find(|&&(clues, index)| clues > cells || !shard.grids.contains(&(index / shard.per_grid)))
    {
        return Err(GenerateError::new(format!(
            "{}: the puzzle of attempt {index} ({clues} clues) is not of grids {}..{} of \
             a {} board",
            shard.name, shard.grids.start, shard.grids.end, shard.shape
        )));
    }
    Ok(())
}

/// The grids of the run that none of `shards` (sorted by grids, one run's, at least one) made:
/// an error naming them unless `allow_partial`, and an overlap always.
fn missing_grids(
    shards: &[GridShard],
    allow_partial: bool,
) -> Result<Vec<Range<u64>>, GenerateError> {
    let mut missing = Vec::new();
    // A gap is listed with `allow_partial`, else the first one is the error, `why` saying
    // where it lies.
    let mut gap = |grids: Range<u64>, why: String| {
        if !allow_partial {
            return Err(GenerateError::new(format!(
                "grids {}..{} are in no shard: {why}",
                grids.start, grids.end
            )));
        }
        missing.push(grids);
        Ok(())
    };
    let (first, last) = (&shards[0], &shards[shards.len() - 1]);
    if first.grids.start > 0 {
        gap(
            0..first.grids.start,
            format!(
                "the run's grids start at 0 and the first shard given, {}, starts at {}; run \
                 the missing shards (or join what there is with --allow-partial)",
                first.name, first.grids.start
            ),
        )?;
    }
    for pair in shards.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b.grids.start < a.grids.end {
            return Err(GenerateError::new(format!(
                "{} (grids {}..{}) and {} (grids {}..{}) overlap: give each shard once",
                a.name, a.grids.start, a.grids.end, b.name, b.grids.start, b.grids.end
            )));
        }
        if b.grids.start > a.grids.end {
            gap(
                a.grids.end..b.grids.start,
                format!(
                    "{} ends at {} and {} starts at {}; run the missing shard (or join what \
                     there is with --allow-partial)",
                    a.name, a.grids.end, b.name, b.grids.start
                ),
            )?;
        }
    }
    if last.grids.end < last.run_grids {
        gap(
            last.grids.end..last.run_grids,
            format!(
                "the run has {} grids and the last shard given, {}, ends at {}; run the \
                 missing shards (or join what there is with --allow-partial)",
                last.run_grids, last.name, last.grids.end
            ),
        )?;
    }
    Ok(missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(name: &str, grids: Range<u64>, kept: Vec<(usize, u64)>) -> GridShard {
        GridShard {
            name: name.to_string(),
            seed: 3,
            shape: Shape::new(2, 2).unwrap(),
            checker: "fast".to_string(),
            per_grid: 4,
            attempts: (grids.end - grids.start) * 4,
            grids,
            run_grids: 7,
            kept,
        }
    }

    #[test]
    fn joined_shards_are_their_run_in_grid_order() {
        let joined = join_shards(
            vec![
                shard("b", 2..7, vec![(5, 9), (4, 19)]),
                shard("a", 0..2, vec![(4, 1)]),
            ],
            false,
        )
        .unwrap();
        assert_eq!((joined.run.grids, joined.run.attempts), (0..7, 28));
        assert_eq!(joined.run.kept, vec![(4, 1), (5, 9), (4, 19)]);
        assert_eq!(joined.shards, 2);
        assert!(joined.missing.is_empty());
        let summary = joined.summary.unwrap();
        assert_eq!((summary.cells, summary.puzzles), (16, 3));
    }

    #[test]
    fn a_partial_join_lists_its_gaps() {
        let shards = vec![
            shard("c", 6..7, vec![(5, 25)]),
            shard("a", 0..2, vec![(4, 1)]),
            shard("b", 3..5, Vec::new()),
        ];
        assert_eq!(
            join_shards(shards.clone(), false).unwrap_err().to_string(),
            "grids 2..3 are in no shard: a ends at 2 and b starts at 3; run the missing shard \
             (or join what there is with --allow-partial)"
        );
        let joined = join_shards(shards.clone(), true).unwrap();
        assert_eq!(joined.missing, vec![2..3, 5..6]);
        assert_eq!((joined.run.grids, joined.run.attempts), (0..7, 20));
        assert_eq!(joined.summary.unwrap().puzzles, 2);
        // The run's first and last grids are known, so shards missing at either end are
        // gaps too, not a smaller whole run.
        let middle = vec![shards[2].clone()];
        assert_eq!(
            join_shards(middle.clone(), false).unwrap_err().to_string(),
            "grids 0..3 are in no shard: the run's grids start at 0 and the first shard given, \
             b, starts at 3; run the missing shards (or join what there is with \
             --allow-partial)"
        );
        let without_the_last = vec![shards[1].clone(), shards[2].clone()];
        assert_eq!(
            join_shards(without_the_last, true).unwrap().missing,
            vec![2..3, 5..7]
        );
        let first_two = vec![shards[1].clone(), shard("b", 2..5, Vec::new())];
        assert_eq!(
            join_shards(first_two, false).unwrap_err().to_string(),
            "grids 5..7 are in no shard: the run has 7 grids and the last shard given, b, ends \
             at 5; run the missing shards (or join what there is with --allow-partial)"
        );
        let joined = join_shards(middle, true).unwrap();
        assert_eq!(joined.missing, vec![0..3, 5..7]);
        assert_eq!((joined.run.grids, joined.run.attempts), (3..5, 8));
    }

    #[test]
    fn what_is_not_one_whole_run_is_refused() {
        let message = |shards| join_shards(shards, true).unwrap_err().to_string();
        assert_eq!(message(Vec::new()), "no shard to join");
        let mut none_a_grid = shard("z", 0..1, Vec::new());
        none_a_grid.per_grid = 0;
        assert_eq!(
            message(vec![none_a_grid]),
            "z: 0 attempts a grid: a run of grids makes 1 or more on each"
        );
        assert_eq!(
            message(vec![shard("a", 0..2, vec![(4, 8)])]),
            "a: the puzzle of attempt 8 (4 clues) is not of grids 0..2 of a 2x2 board"
        );
        let mut other_board = shard("b", 2..3, Vec::new());
        other_board.shape = Shape::new(2, 3).unwrap();
        assert_eq!(
            message(vec![shard("a", 0..2, Vec::new()), other_board]),
            "a and b differ in \"box\": the shards of one run share seed, board, checker, \
             attempts a grid and run of grids"
        );
        let mut other_run = shard("b", 2..3, Vec::new());
        other_run.run_grids = 9;
        assert_eq!(
            message(vec![shard("a", 0..2, Vec::new()), other_run]),
            "a and b differ in \"run_grids\": the shards of one run share seed, board, \
             checker, attempts a grid and run of grids"
        );
        let mut beyond = shard("c", 5..7, Vec::new());
        beyond.run_grids = 6;
        assert_eq!(
            message(vec![beyond]),
            "c: grids 5..7 are not all of its run of 6 grids"
        );
    }
}
