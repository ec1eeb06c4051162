//! One strategy on one puzzle, timed honestly: only the search is inside the clock.
//!
//! The callback an engine calls per solution copies the grid's cells into a buffer reserved
//! before the clock starts (no allocation, no certification while timed). When the clock has
//! stopped, every recorded solution is certified with [`validate`]. A search that delivers more
//! solutions than the buffer holds (counting all solutions of an open board, say) certifies the
//! rest inside the callback, with the clock paused around each one, so that every solution is
//! still certified and the time is still the engine's own.

use std::time::{Duration, Instant};

use crate::check::Run;
use crate::model::{Grid, validate};
use crate::strategy::{Limits, Stop, Strategy};

/// Solutions recorded per search before the callback starts certifying inline.
const RECORDED: usize = 64;

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

/// Scratch space reused from one search to the next, so that recording a solution while the
/// clock runs never allocates.
#[derive(Debug, Default)]
pub struct Scratch {
    cells: Vec<u8>,
    times: Vec<Duration>,
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
    let cell_count = puzzle.shape().cell_count();
    let wanted = limits
        .max_solutions
        .map_or(RECORDED, |limit| (limit as usize).min(RECORDED));
    scratch.cells.clear();
    scratch.cells.reserve(wanted * cell_count);
    scratch.times.clear();

    for _ in 0..repeats.warmup {
        let outcome = strategy.search(puzzle, limits, &mut |_| {});
        if stopped_early(outcome.stopped) {
            break;
        }
    }
    let mut invalid: Option<String> = None;
    loop {
        scratch.cells.clear();
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
        let elapsed = started.elapsed().saturating_sub(paused);
        scratch.times.push(elapsed);
        let timed_enough = scratch.times.len() >= repeats.timed.max(1) as usize;
        if !timed_enough && !stopped_early(outcome.stopped) {
            continue;
        }
        // The clock has stopped: certify what was recorded.
        let mut solution = None;
        for cells in scratch.cells.chunks_exact(cell_count) {
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
        scratch.times.sort_unstable();
        return Run {
            strategy: strategy.name(),
            count: outcome.count(),
            stopped: outcome.stopped,
            stats: outcome.stats,
            best: scratch.times[0],
            median: scratch.times[scratch.times.len() / 2],
            solution: if invalid.is_none() { solution } else { None },
            invalid,
        };
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
