//! One strategy on one puzzle, timed honestly: only the search is inside the clock.
//!
//! The callback an engine calls per solution copies the grid's cells into a buffer reserved
//! before the clock starts (no allocation, no certification while timed). When the clock has
//! stopped, every recorded solution is certified with [`validate`]. A search that delivers more
//! solutions than the buffer holds (counting all solutions of an open board, say) certifies the
//! rest inside the callback, with the clock paused around each one, so that every solution is
//! still certified and the time is still the engine's own.

use std::ops::Range;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::check::Run;
use crate::model::{Grid, validate};
use crate::strategy::{Limits, Outcome, Stop, Strategy};

/// Solutions recorded per search before the callback starts certifying inline.
const RECORDED: usize = 64;

/// The clock's own share of a timed region: the median of 1,001 empty regions (two clock
/// reads back to back), measured once per process and subtracted from every time. About 30 ns
/// here, which is 1.5% of `fast`'s mean search on the 17-clue set.
pub fn timer_overhead() -> Duration {
    static OVERHEAD: OnceLock<Duration> = OnceLock::new();
    *OVERHEAD.get_or_init(|| {
        let mut empty: Vec<Duration> = (0..1001)
            .map(|_| {
                let started = Instant::now();
                started.elapsed()
            })
            .collect();
        empty.sort_unstable();
        empty[empty.len() / 2]
    })
}

/// What a measurement repeats: untimed warm-up searches first, then timed ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeats {
    /// Untimed searches before the timed ones (to warm caches and branch predictors).
    pub warmup: u32,
    /// Timed searches (at least one); the best and the median are reported.
    pub timed: u32,
}

impl Default for Repeats {
    fn default() -> Repeats {
        Repeats {
            warmup: 0,
            timed: 1,
        }
    }
}

/// Scratch space reused from one chunk of searches to the next, so that recording a solution
/// while the clock runs never allocates.
#[derive(Debug, Default)]
pub struct Scratch {
    cells: Vec<u8>,
    times: Vec<Duration>,
    timed: Vec<Timed>,
}

/// What the timed phase leaves for certification: one entry per puzzle.
#[derive(Debug)]
struct Timed {
    outcome: Outcome,
    best: Duration,
    median: Duration,
    /// The recorded solutions: `scratch.cells[cells]`.
    cells: Range<usize>,
    /// A solution beyond the buffer that failed certification inside the callback.
    invalid: Option<String>,
}

/// Runs `strategy` on `puzzle` under `limits` (the timeout counts from the start of each
/// search), `repeats.warmup` times untimed and `repeats.timed` times timed, and certifies every
/// solution it reports.
///
/// A stopped repeat (timeout, node budget, cancellation) ends the repeats: timing a search again
/// that could not finish would only multiply the wait.
pub fn measure(
    strategy: &'static dyn Strategy,
    puzzle: &Grid,
    limits: &Limits,
    repeats: Repeats,
    scratch: &mut Scratch,
) -> Run {
    measure_all(strategy, &[puzzle], limits, repeats, scratch)
        .pop()
        .expect("one run per puzzle")
}

/// [`measure`] on several puzzles back to back: every search of the chunk first, each timed
/// alone and with nothing but the recording of its solutions between the clocks, then the
/// certification of all of them. A search runs as it would in a loop over a corpus, with its
/// code and tables warm; certifying in between would put other work in its caches.
pub fn measure_all(
    strategy: &'static dyn Strategy,
    puzzles: &[&Grid],
    limits: &Limits,
    repeats: Repeats,
    scratch: &mut Scratch,
) -> Vec<Run> {
    let wanted = limits
        .max_solutions
        .map_or(RECORDED, |limit| (limit as usize).min(RECORDED));
    let room: usize = puzzles
        .iter()
        .map(|puzzle| wanted * puzzle.shape().cell_count())
        .sum();
    scratch.cells.clear();
    scratch.cells.reserve(room);
    scratch.timed.clear();
    scratch.timed.reserve(puzzles.len());
    for puzzle in puzzles {
        let timed = time_one(strategy, puzzle, limits, repeats, scratch);
        scratch.timed.push(timed);
    }
    // The clocks have stopped: certify what was recorded.
    scratch
        .timed
        .drain(..)
        .zip(puzzles)
        .map(|(timed, puzzle)| certify(strategy, puzzle, timed, &scratch.cells))
        .collect()
}

/// The timed phase of one puzzle: warm-up, then the timed repeats.
fn time_one(
    strategy: &'static dyn Strategy,
    puzzle: &Grid,
    limits: &Limits,
    repeats: Repeats,
    scratch: &mut Scratch,
) -> Timed {
    for _ in 0..repeats.warmup {
        let outcome = strategy.search(puzzle, limits, &mut |_| {});
        if stopped_early(outcome.stopped) {
            break;
        }
    }
    scratch.times.clear();
    let start = scratch.cells.len();
    let overhead = timer_overhead();
    let mut invalid: Option<String> = None;
    loop {
        scratch.cells.truncate(start);
        let mut recorded = 0;
        let mut paused = Duration::ZERO;
        let cells = &mut scratch.cells;
        let started = Instant::now();
        let outcome = strategy.search(puzzle, limits, &mut |grid| {
            if recorded < RECORDED {
                cells.extend_from_slice(grid.cells());
                recorded += 1;
            } else if invalid.is_none() {
                let pause = Instant::now();
                invalid = validate(puzzle, grid).err().map(|err| err.to_string());
                paused += pause.elapsed();
            }
        });
        let elapsed = started.elapsed().saturating_sub(paused + overhead);
        scratch.times.push(elapsed);
        let timed_enough = scratch.times.len() >= repeats.timed.max(1) as usize;
        if timed_enough || stopped_early(outcome.stopped) {
            scratch.times.sort_unstable();
            return Timed {
                outcome,
                best: scratch.times[0],
                median: scratch.times[scratch.times.len() / 2],
                cells: start..scratch.cells.len(),
                invalid,
            };
        }
    }
}

/// The certification phase of one puzzle: every recorded solution through [`validate`].
fn certify(strategy: &'static dyn Strategy, puzzle: &Grid, timed: Timed, cells: &[u8]) -> Run {
    let mut invalid = timed.invalid;
    let mut solution = None;
    for cells in cells[timed.cells].chunks_exact(puzzle.shape().cell_count()) {
        let grid = Grid::from_cells(puzzle.shape(), cells.to_vec());
        let verdict = match &grid {
            Ok(grid) => validate(puzzle, grid).map_err(|err| err.to_string()),
            Err(err) => Err(err.to_string()),
        };
        match verdict {
            Err(reason) => {
                invalid.get_or_insert(reason);
            }
            Ok(()) if solution.is_none() => solution = grid.ok(),
            Ok(()) => {}
        }
    }
    Run {
        strategy: strategy.name(),
        count: timed.outcome.count(),
        stopped: timed.outcome.stopped,
        stats: timed.outcome.stats,
        best: timed.best,
        median: timed.median,
        solution: if invalid.is_none() { solution } else { None },
        invalid,
    }
}

/// Whether a search stopped on a budget (rather than finishing or reaching its solution limit).
fn stopped_early(stopped: Option<Stop>) -> bool {
    !matches!(stopped, None | Some(Stop::SolutionLimit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Claims, cross_check};
    use crate::model::{Shape, parse_line_record};
    use crate::strategy::Verdict;

    fn grid(line: &str) -> Grid {
        parse_line_record(line.as_bytes(), None, 1)
            .expect("a valid test puzzle")
            .puzzle
    }

    #[test]
    fn real_engines_agree_and_are_certified() {
        let puzzle = grid("4..3.....1....2.");
        let solution = grid("4213134221343421");
        let mut scratch = Scratch::default();
        let repeats = Repeats {
            warmup: 1,
            timed: 3,
        };
        let runs: Vec<Run> = crate::strategy::registry()
            .iter()
            .map(|strategy| {
                measure(
                    *strategy,
                    &puzzle,
                    &Limits::solutions(2),
                    repeats,
                    &mut scratch,
                )
            })
            .collect();
        for run in &runs {
            assert_eq!(run.verdict(), Verdict::Unique, "{}", run.strategy);
            assert_eq!(run.solution.as_ref(), Some(&solution), "{}", run.strategy);
            assert!(run.best <= run.median);
        }
        let claims = Claims {
            puzzle: Some(&puzzle),
            solution: Some(&solution),
            count: Some(1),
        };
        assert_eq!(cross_check(&runs, claims), Vec::new());
    }

    #[test]
    fn solutions_beyond_the_buffer_are_certified_too() {
        // The empty 4x4 board has 288 solutions: 64 recorded, 224 certified inline.
        let puzzle = Grid::empty(Shape::new(2, 2).unwrap());
        let mrv = crate::strategy::find("mrv").unwrap();
        let run = measure(
            mrv,
            &puzzle,
            &Limits::unlimited(),
            Repeats::default(),
            &mut Scratch::default(),
        );
        assert_eq!(run.count.found, 288);
        assert!(run.count.exhausted);
        assert_eq!(run.invalid, None);
        assert_eq!(
            run.solution.as_ref().map(|g| g.cells()[..4].to_vec()),
            Some(vec![1, 2, 3, 4]),
            "the first solution in mrv's order"
        );
    }
}
