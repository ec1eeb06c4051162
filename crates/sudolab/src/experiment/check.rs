//! One puzzle through every strategy of a plan, now, on this thread: each answer measured,
//! certified and cross-checked.

use crate::check::{Claims, Problem, Run, cross_check};
use crate::model::{Grid, to_one_line};
use crate::report::{PuzzleProblem, Row};
use crate::strategy::{Stop, Verdict};

use super::{Item, Plan, Scratch, clock, measure_into};

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
                cpu_ns: run.cpu.map(|cpu| cpu.as_nanos() as u64),
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
pub(super) fn run_plan(plan: &Plan, puzzle: &Grid, scratch: &mut Scratch) -> Vec<Run> {
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

pub(super) fn finish(item: Item, runs: Vec<Run>) -> Checked {
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
