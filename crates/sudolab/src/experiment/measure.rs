//! One strategy on one puzzle, timed honestly: only the search is inside the clock.
//!
//! The callback an engine calls per solution copies the grid's cells into a buffer reserved
//! before the clock starts (no allocation, no certification while timed). When the clock has
//! stopped, every recorded solution is certified with [`validate`]. A search that delivers more
//! solutions than the buffer holds (counting all solutions of an open board, say) certifies the
//! rest inside the callback, with the clock paused around each one, so that every solution is
//! still certified and the time is still the engine's own. Untimed (a caller that shows no
//! time: `count` without `--stats`), there is no clock to keep work out of: each solution is
//! certified inside the callback, on the engine's own grid, and only the first valid one is
//! copied, into a recycled grid.
//!
//! Each search is timed by two clocks: the wall clock ([`Instant`]) and the CPU clock of the
//! thread that runs it (`CLOCK_THREAD_CPUTIME_ID`, through `cpu_time::ThreadTime`). On a
//! loaded machine a search may wait for a core, and the wall clock counts the wait; the
//! thread's CPU clock counts only the time the search ran. A search whose work ran on a thread
//! of its own (`dlx` above 9x9 and on variants, which must be abandonable at its deadline) has
//! no CPU time: the measuring thread's clock would miss the work.

use std::ops::Range;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

use crate::check::Run;
use crate::model::{Grid, Shape, solves, validate};
use crate::plan::Repeats;
use crate::strategy::{Limits, Outcome, Stop, Strategy, take_failure, take_ran_elsewhere};

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

/// The CPU clock's own share of a timed region, as [`timer_overhead`] measures the wall
/// clock's: the median of 1,001 regions with nothing but the wall clock's two reads inside
/// (as a search's region has them), subtracted from every CPU time. `None` where the thread's
/// CPU clock cannot be read.
pub fn cpu_timer_overhead() -> Option<Duration> {
    static OVERHEAD: OnceLock<Option<Duration>> = OnceLock::new();
    *OVERHEAD.get_or_init(|| {
        let mut empty: Vec<Duration> = (0..1001)
            .map(|_| {
                let started = ThreadTime::try_now().ok()?;
                let wall = Instant::now();
                std::hint::black_box(wall.elapsed());
                cpu_since(started)
            })
            .collect::<Option<_>>()?;
        empty.sort_unstable();
        Some(empty[empty.len() / 2])
    })
}

/// The CPU time this thread has used since `started`, or `None` if the clock cannot be read.
fn cpu_since(started: ThreadTime) -> Option<Duration> {
    let now = ThreadTime::try_now().ok()?;
    Some(now.as_duration().saturating_sub(started.as_duration()))
}

/// Scratch space reused from one chunk of searches to the next, so that recording a solution
/// while the clock runs never allocates; with what callers hand back ([`Scratch::recycle`]),
/// a run's vector and solution grid are not allocated per puzzle either.
#[derive(Debug, Default)]
pub struct Scratch {
    cells: Vec<u8>,
    times: Vec<Duration>,
    cpu_times: Vec<Duration>,
    timed: Vec<Timed>,
    /// Solution grids of recycled runs, for the next certified solutions.
    grids: Vec<Grid>,
    /// A recycled, empty vector of runs.
    runs: Vec<Run>,
}

/// Solution grids a scratch keeps for reuse: one per strategy of a plan is plenty.
const KEPT_GRIDS: usize = 16;

impl Scratch {
    /// Takes back runs their caller is done with: their vector and solution grids are reused
    /// by the next measurements with this scratch ([`check_puzzle`](super::check_puzzle)),
    /// which then allocate nothing per puzzle: with `fast`'s 2 µs searches, an allocation and
    /// its free cost about 200 instructions, a tenth of a search.
    pub fn recycle(&mut self, mut runs: Vec<Run>) {
        for run in &mut runs {
            if let Some(grid) = run
                .solution
                .take()
                .filter(|_| self.grids.len() < KEPT_GRIDS)
            {
                self.grids.push(grid);
            }
        }
        runs.clear();
        if runs.capacity() > self.runs.capacity() {
            self.runs = runs;
        }
    }

    /// An empty vector for runs: the recycled one, if any.
    pub(super) fn take_runs(&mut self) -> Vec<Run> {
        std::mem::take(&mut self.runs)
    }
}

/// What the timed phase leaves for certification: one entry per puzzle.
#[derive(Debug)]
struct Timed {
    outcome: Outcome,
    best: Duration,
    median: Duration,
    /// The thread CPU time of the repeat that used least, when every repeat has one.
    cpu: Option<Duration>,
    /// The recorded solutions: `scratch.cells[cells]`.
    cells: Range<usize>,
    /// A solution beyond the buffer that failed certification inside the callback, or, with
    /// the clock off, the first solution that failed it.
    invalid: Option<String>,
    /// With the clock off, the first solution, certified inside the callback.
    solution: Option<Grid>,
    /// How an outside solver failed on the puzzle (the first repeat's failure).
    failure: Option<String>,
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
    let mut runs = Vec::with_capacity(1);
    measure_into(
        strategy,
        &[puzzle],
        limits,
        (repeats, Clock::On),
        scratch,
        &mut runs,
    );
    runs.pop().expect("one run per puzzle")
}

/// Whether searches are timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Clock {
    /// Each search between two clock reads.
    On,
    /// No clock read: for callers that show no time. The runs' times are zero.
    Off,
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
    let mut runs = Vec::with_capacity(puzzles.len());
    measure_into(
        strategy,
        puzzles,
        limits,
        (repeats, Clock::On),
        scratch,
        &mut runs,
    );
    runs
}

/// [`measure_all`], timed or not, appending the runs to `runs`.
pub(super) fn measure_into(
    strategy: &'static dyn Strategy,
    puzzles: &[&Grid],
    limits: &Limits,
    (repeats, clock): (Repeats, Clock),
    scratch: &mut Scratch,
    runs: &mut Vec<Run>,
) {
    if let (
        [puzzle],
        Clock::Off,
        Repeats {
            warmup: 0,
            timed: 0 | 1,
        },
    ) = (puzzles, clock, repeats)
    {
        // One untimed search (`count` and `solve` without `--stats`): no buffer, no timed
        // phase, the run made at once.
        runs.push(search_untimed(strategy, puzzle, limits, &mut scratch.grids));
        return;
    }
    let wanted = limits
        .max_solutions
        .map_or(RECORDED, |limit| (limit as usize).min(RECORDED));
    let room: usize = puzzles
        .iter()
        .map(|puzzle| wanted * puzzle.shape().cell_count())
        .sum();
    scratch.cells.clear();
    scratch.cells.reserve(room);
    if let [puzzle] = puzzles {
        // One puzzle (`count`, `solve`, `check`): certified at once, without the chunk's list.
        let timed = time_one(strategy, puzzle, limits, (repeats, clock), scratch);
        runs.push(certify(
            strategy,
            puzzle,
            timed,
            &scratch.cells,
            &mut scratch.grids,
        ));
        return;
    }
    scratch.timed.clear();
    scratch.timed.reserve(puzzles.len());
    for puzzle in puzzles {
        let timed = time_one(strategy, puzzle, limits, (repeats, clock), scratch);
        scratch.timed.push(timed);
    }
    // The clocks have stopped: certify what was recorded.
    runs.extend(scratch.timed.drain(..).zip(puzzles).map(|(timed, puzzle)| {
        certify(strategy, puzzle, timed, &scratch.cells, &mut scratch.grids)
    }));
}

/// The timed phase of one puzzle: warm-up, then the timed repeats.
fn time_one(
    strategy: &'static dyn Strategy,
    puzzle: &Grid,
    limits: &Limits,
    (repeats, clock): (Repeats, Clock),
    scratch: &mut Scratch,
) -> Timed {
    // A failure left by a search made elsewhere (not through here) is not this puzzle's.
    take_failure();
    let mut failure = None;
    for _ in 0..repeats.warmup {
        let outcome = strategy.search(puzzle, limits, &mut |_| {});
        let failed = take_failure();
        failure = failure.or(failed);
        if stopped_early(outcome.stopped) {
            break;
        }
    }
    scratch.times.clear();
    scratch.cpu_times.clear();
    let start = scratch.cells.len();
    let (overhead, cpu_overhead) = match clock {
        Clock::On => (timer_overhead(), cpu_timer_overhead()),
        Clock::Off => (Duration::ZERO, Some(Duration::ZERO)),
    };
    let now = || (clock == Clock::On).then(Instant::now);
    let since = |started: Option<Instant>| started.map_or(Duration::ZERO, |at| at.elapsed());
    // `Some(None)`: the CPU clock is wanted and cannot be read.
    let cpu_now = || (clock == Clock::On).then(|| ThreadTime::try_now().ok());
    let cpu_elapsed = |started: Option<Option<ThreadTime>>| match started {
        None => Some(Duration::ZERO),
        Some(started) => started.and_then(cpu_since),
    };
    let mut invalid: Option<String> = None;
    // With the clock off, the first certified solution of the last repeat.
    let mut kept: Option<Grid> = None;
    // Whether every repeat so far has a CPU time.
    let mut cpu_known = true;
    loop {
        scratch.cells.truncate(start);
        let mut recorded = 0;
        let mut paused = Duration::ZERO;
        let mut cpu_paused = Duration::ZERO;
        let cells = &mut scratch.cells;
        take_ran_elsewhere();
        // The CPU clock's reads outside the wall clock's: a CPU clock read is a system call,
        // which the wall time then does not hold.
        let cpu_started = cpu_now();
        let started = now();
        let grids = &mut scratch.grids;
        if let Some(grid) = kept.take() {
            grids.push(grid);
        }
        let outcome = strategy.search(puzzle, limits, &mut |grid| {
            if clock == Clock::Off {
                // No clock runs: each solution is certified at once, on the engine's own grid
                // (no copy into the buffer and back), and the first kept, as `certify` does.
                if invalid.is_none() {
                    match validate(puzzle, grid) {
                        Err(err) => invalid = Some(err.to_string()),
                        Ok(()) if kept.is_none() => kept = Some(keep(grid, grids)),
                        Ok(()) => {}
                    }
                }
            } else if recorded < RECORDED {
                cells.extend_from_slice(grid.cells());
                recorded += 1;
            } else if invalid.is_none() {
                let cpu_pause = cpu_now();
                let pause = now();
                invalid = validate(puzzle, grid).err().map(|err| err.to_string());
                paused += since(pause);
                cpu_paused += cpu_elapsed(cpu_pause).unwrap_or_default();
            }
        });
        let elapsed = since(started).saturating_sub(paused + overhead);
        let failed = take_failure();
        failure = failure.or(failed);
        let cpu = cpu_elapsed(cpu_started)
            .zip(cpu_overhead)
            .map(|(cpu, overhead)| cpu.saturating_sub(cpu_paused + overhead));
        scratch.times.push(elapsed);
        match cpu {
            Some(cpu) if !take_ran_elsewhere() => scratch.cpu_times.push(cpu),
            _ => cpu_known = false,
        }
        let timed_enough = scratch.times.len() >= repeats.timed.max(1) as usize;
        if timed_enough || stopped_early(outcome.stopped) {
            if scratch.times.len() > 1 {
                scratch.times.sort_unstable();
            }
            return Timed {
                outcome,
                best: scratch.times[0],
                median: scratch.times[scratch.times.len() / 2],
                cpu: scratch
                    .cpu_times
                    .iter()
                    .min()
                    .copied()
                    .filter(|_| cpu_known),
                cells: start..scratch.cells.len(),
                invalid,
                solution: kept,
                failure,
            };
        }
    }
}

/// One search of `puzzle` with the clock off and no warm-up, its run made at once: what
/// [`time_one`] and [`certify`] make of it, without the timed phase's bookkeeping (the repeat
/// times, the recording buffer, the hand-over between the two). Every solution is certified
/// inside the callback, on the engine's own grid, and the first valid one kept.
fn search_untimed(
    strategy: &'static dyn Strategy,
    puzzle: &Grid,
    limits: &Limits,
    grids: &mut Vec<Grid>,
) -> Run {
    // A failure or a detached search left by a search made elsewhere is not this puzzle's.
    take_failure();
    take_ran_elsewhere();
    let mut invalid: Option<String> = None;
    let mut solution: Option<Grid> = None;
    let outcome = strategy.search(puzzle, limits, &mut |grid| {
        if invalid.is_none() {
            match validate(puzzle, grid) {
                Err(err) => invalid = Some(err.to_string()),
                Ok(()) if solution.is_none() => solution = Some(keep(grid, grids)),
                Ok(()) => {}
            }
        }
    });
    let failure = take_failure();
    Run {
        strategy: strategy.name(),
        count: outcome.count(),
        stopped: outcome.stopped,
        stats: outcome.stats,
        best: Duration::ZERO,
        median: Duration::ZERO,
        // As with the clock on: no CPU time for a search whose work ran elsewhere.
        cpu: (!take_ran_elsewhere()).then_some(Duration::ZERO),
        solution: if invalid.is_none() { solution } else { None },
        invalid,
        failure,
    }
}

/// The certification phase of one puzzle: every recorded solution through [`validate`] (on
/// 9x9, its common case [`solves`] first, on the recorded cells, with no grid made of them);
/// the first valid one kept in a grid from `grids`, or a new one.
fn certify(
    strategy: &'static dyn Strategy,
    puzzle: &Grid,
    timed: Timed,
    cells: &[u8],
    grids: &mut Vec<Grid>,
) -> Run {
    let shape = puzzle.shape();
    let mut invalid = timed.invalid;
    let mut solution = timed.solution;
    for cells in cells[timed.cells].chunks_exact(shape.cell_count()) {
        let verdict = if solves(puzzle, cells) {
            Ok(())
        } else {
            match Grid::from_cells(shape, cells.to_vec()) {
                Ok(grid) => validate(puzzle, &grid).map_err(|err| err.to_string()),
                Err(err) => Err(err.to_string()),
            }
        };
        match verdict {
            Err(reason) => {
                invalid.get_or_insert(reason);
            }
            Ok(()) if solution.is_none() => {
                solution = Some(keep_cells(shape, cells, grids));
            }
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
        cpu: timed.cpu,
        solution: if invalid.is_none() { solution } else { None },
        invalid,
        failure: timed.failure,
    }
}

/// A copy of `cells`, a certified answer of `shape`, in a grid from `grids` or a new one.
fn keep_cells(shape: Shape, cells: &[u8], grids: &mut Vec<Grid>) -> Grid {
    match grids
        .pop()
        .filter(|grid| grid.shape() == shape && grid.rules().is_none())
    {
        Some(mut grid) => {
            grid.cells_mut().copy_from_slice(cells);
            grid
        }
        None => Grid::from_cells(shape, cells.to_vec())
            .expect("a certified answer's values are in range"),
    }
}

/// A copy of `grid`, a certified answer, kept as [`keep_cells`] keeps one: its cells only (a
/// variant's rules are the puzzle's, not the answer's).
fn keep(grid: &Grid, grids: &mut Vec<Grid>) -> Grid {
    keep_cells(grid.shape(), grid.cells(), grids)
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

    /// A function strategy that answers every puzzle with `solutions`, as complete.
    fn answering(solutions: Vec<Grid>) -> &'static dyn Strategy {
        use crate::strategy::{Answer, Callback, Stats};
        Callback::new(
            "answers",
            "a test function",
            Box::new(move |_: &Grid, _: &Limits| {
                Ok(Answer {
                    solutions: solutions.clone(),
                    complete: true,
                    stats: Stats::new(),
                })
            }),
        )
        .expect("a valid name")
        .leak()
    }

    /// One measurement of `strategy` on `puzzle` with the clock on or off.
    fn measured(strategy: &'static dyn Strategy, puzzle: &Grid, clock: Clock) -> Run {
        let mut runs = Vec::new();
        measure_into(
            strategy,
            &[puzzle],
            &Limits::solutions(2),
            (Repeats::default(), clock),
            &mut Scratch::default(),
            &mut runs,
        );
        runs.pop().expect("one run")
    }

    #[test]
    fn with_the_clock_off_every_solution_is_certified_as_with_it_on() {
        let puzzle = grid("4..3.....1....2.");
        let solution = grid("4213134221343421");
        // The first row repeats 1 (a given, 4, kept); the columns and boxes break too.
        let repeats = grid("4113134221343421");
        // Every house full, but the given 4 of r1c1 changed.
        let changed = grid("1243341243212134");
        let cases = [
            (vec![solution.clone()], Some(&solution), None),
            (
                vec![repeats.clone()],
                None,
                Some("digit 1 appears twice in row 1 (r1c2 and r1c3)"),
            ),
            (
                vec![changed.clone()],
                None,
                Some("cell r1c1 holds 1 but the puzzle gives 4"),
            ),
            // A valid solution does not hide an invalid one after it, and the run keeps none.
            (
                vec![solution.clone(), repeats.clone()],
                None,
                Some("digit 1 appears twice in row 1 (r1c2 and r1c3)"),
            ),
        ];
        for (solutions, kept, invalid) in cases {
            let strategy = answering(solutions.clone());
            let off = measured(strategy, &puzzle, Clock::Off);
            let on = measured(strategy, &puzzle, Clock::On);
            for run in [&off, &on] {
                assert_eq!(run.solution.as_ref(), kept, "{solutions:?}");
                assert_eq!(run.invalid.as_deref(), invalid, "{solutions:?}");
                assert_eq!(run.count.found, solutions.len() as u64);
            }
            assert_eq!(off.best, Duration::ZERO);
        }
    }

    /// A function strategy whose every search fails with `why`.
    fn failing(why: &'static str) -> &'static dyn Strategy {
        use crate::strategy::Callback;
        Callback::new(
            "fails",
            "a test function",
            Box::new(move |_: &Grid, _: &Limits| Err(why.to_string())),
        )
        .expect("a valid name")
        .leak()
    }

    #[test]
    fn one_untimed_search_makes_the_run_that_repeated_untimed_searches_make() {
        // `search_untimed` (one search, no warm-up) against `time_one` and `certify` with the
        // clock off (a warm-up and two repeats): every field but the times must match.
        let unique = grid("4..3.....1....2.");
        let two = grid("4..3.....1......");
        // The first row repeats 1.
        let wrong = grid("4113134221343421");
        let mut strategies: Vec<&'static dyn Strategy> = crate::strategy::registry().to_vec();
        strategies.push(answering(vec![wrong.clone()]));
        strategies.push(failing("the program crashed"));
        for strategy in strategies {
            for puzzle in [&unique, &two] {
                let run = |repeats: Repeats| {
                    let mut runs = Vec::new();
                    measure_into(
                        strategy,
                        &[puzzle],
                        &Limits::solutions(2),
                        (repeats, Clock::Off),
                        &mut Scratch::default(),
                        &mut runs,
                    );
                    runs.pop().expect("one run")
                };
                let once = run(Repeats::default());
                let repeated = run(Repeats {
                    warmup: 1,
                    timed: 2,
                });
                let name = strategy.name();
                assert_eq!(once.strategy, repeated.strategy);
                assert_eq!(once.count, repeated.count, "{name}");
                assert_eq!(once.stopped, repeated.stopped, "{name}");
                assert_eq!(once.stats, repeated.stats, "{name}");
                assert_eq!(once.solution, repeated.solution, "{name}");
                assert_eq!(once.invalid, repeated.invalid, "{name}");
                assert_eq!(once.failure, repeated.failure, "{name}");
                assert_eq!(once.cpu, repeated.cpu, "{name}");
                assert_eq!((once.best, once.median), (Duration::ZERO, Duration::ZERO));
            }
        }
        // What the two function strategies make of the first puzzle, exactly.
        let mut scratch = Scratch::default();
        let mut runs = Vec::new();
        let limits = Limits::solutions(2);
        for strategy in [answering(vec![wrong]), failing("the program crashed")] {
            let off = (Repeats::default(), Clock::Off);
            measure_into(strategy, &[&unique], &limits, off, &mut scratch, &mut runs);
        }
        assert_eq!(
            runs[0].invalid.as_deref(),
            Some("digit 1 appears twice in row 1 (r1c2 and r1c3)")
        );
        assert_eq!(runs[0].solution, None);
        assert_eq!(
            runs[1].failure.as_deref(),
            Some("fails the program crashed")
        );
        assert_eq!(runs[1].verdict(), Verdict::Unknown);
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
