//! `sat`, `sat-extended`, `sat-minimal`: the puzzle as CNF, solved by the `varisat` crate.
//!
//! Encodings in [`crate::encode::Cnf`]: `sat` uses the reduced encoding (givens propagated
//! away, after Kwon and Jain 2006), `sat-extended` and `sat-minimal` Lynce and Ouaknine's (2006).
//! Counting and uniqueness: after each model, a clause that forbids the same values on the
//! empty cells is added and the solver is called again.
//!
//! Limits of varisat 0.2, designed around here: it has no statistics API, so the counters are
//! the formula's `variables` and `clauses` and the `solver_calls` made (no `nodes`); it cannot be
//! interrupted, so the deadline and the cancel flag are checked between solver calls; a node
//! budget does not apply. Its `Solver` is not `Send`: each search builds its own, on the thread
//! that runs it. This engine is the readable reference the others are checked against.

use std::cell::RefCell;
use std::io;

use varisat::{ExtendFormula, Lit, ProofFormat, Solver, solver::SolverError};

use crate::encode::{Cnf, Encoding};
use crate::model::{Grid, Shape};

use super::detach::BOUNDED_SIDE;
use super::{
    Budget, Counter, Limits, Outcome, Solutions, Stats, Stop, Strategy, Unsupported,
    answer_without_search,
};

/// The largest side the SAT strategies accept (and `export cnf` writes): a 49x49 minimal
/// encoding already needs tens of millions of clauses.
pub const MAX_SAT_SIDE: usize = 36;

/// The largest side each encoding is run on. A varisat call is stopped at the deadline (through
/// its proof output), so the limits say where an encoding is useful: where its slowest call on
/// the bundled minimal puzzles is seconds:
/// `sat` decides minimal 25x25 in 0.5 to 10 s and `sat-extended` in about 8 s, while
/// `sat-minimal` ran past a minute on the first of them (and takes up to 0.6 s on 16x16).
const fn max_side(encoding: Encoding) -> usize {
    match encoding {
        Encoding::Reduced => MAX_SAT_SIDE,
        Encoding::Extended => 25,
        Encoding::Minimal => 16,
    }
}

const COUNTERS: [Counter; 3] = [Counter::Variables, Counter::Clauses, Counter::SolverCalls];

/// SAT solving with one of the CNF encodings.
pub struct Sat {
    name: &'static str,
    encoding: Encoding,
}

impl Sat {
    /// The reduced encoding, registered as `sat`.
    pub const REDUCED: Sat = Sat {
        name: "sat",
        encoding: Encoding::Reduced,
    };
    /// The extended encoding, registered as `sat-extended`.
    pub const EXTENDED: Sat = Sat {
        name: "sat-extended",
        encoding: Encoding::Extended,
    };
    /// The minimal encoding, registered as `sat-minimal`.
    pub const MINIMAL: Sat = Sat {
        name: "sat-minimal",
        encoding: Encoding::Minimal,
    };
}

impl Strategy for Sat {
    fn name(&self) -> &'static str {
        self.name
    }

    fn summary(&self) -> &'static str {
        match self.encoding {
            Encoding::Reduced => {
                "SAT (varisat) on the reduced encoding: givens propagated away first (Kwon and Jain 2006)"
            }
            Encoding::Extended => {
                "SAT (varisat) on the extended encoding (Lynce and Ouaknine 2006)"
            }
            Encoding::Minimal => "SAT (varisat) on the minimal encoding (Lynce and Ouaknine 2006)",
        }
    }

    fn untraceable_reason(&self) -> &'static str {
        "its search runs inside the varisat crate, which reports no events"
    }

    fn supports(&self, shape: Shape) -> Result<(), Unsupported> {
        let max_side = max_side(self.encoding);
        if shape.side() > max_side {
            return Err(Unsupported {
                side: shape.side(),
                max_side,
                uninterruptible: "varisat would only run into its deadline",
                risk: "this encoding can run for minutes",
                instead: "'sat' takes up to 36",
            });
        }
        Ok(())
    }

    fn counters(&self) -> &'static [Counter] {
        &COUNTERS
    }

    fn search(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        if let Some(outcome) = answer_without_search(self, puzzle) {
            return outcome;
        }
        if puzzle.shape().side() <= BOUNDED_SIDE {
            search_reused(self.encoding, puzzle, limits, on_solution)
        } else {
            search_built(self.encoding, puzzle, limits, on_solution)
        }
    }
}

/// The general path: the puzzle's own formula in a new solver, blocking clauses added for good.
/// Above [`BOUNDED_SIDE`] the solver writes its proof into [`Interrupt`], so that a call stops at
/// the deadline.
fn search_built(
    encoding: Encoding,
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
) -> Outcome {
    let budget = Budget::new(limits);
    let mut solutions = Solutions::new(limits, on_solution);
    let cnf = Cnf::build(puzzle, encoding);
    let mut solver = Solver::new();
    if budget.has_clock() && puzzle.shape().side() > BOUNDED_SIDE {
        solver.write_proof(Interrupt { budget: &budget }, ProofFormat::Varisat);
    }
    let mut lits = Vec::new();
    for clause in cnf.clauses() {
        lits.clear();
        lits.extend(clause.iter().map(|&lit| Lit::from_dimacs(lit as isize)));
        solver.add_clause(&lits);
    }
    let mut calls = 0;
    let mut true_vars = vec![false; cnf.var_count() + 1];
    let stopped = loop {
        if let Err(stop) = budget.check_clock() {
            break Some(stop);
        }
        calls += 1;
        match solver.solve() {
            Ok(true) => {}
            Ok(false) => break None,
            Err(error) => break Some(failure(&budget, &error)),
        }
        true_vars.fill(false);
        for lit in solver.model().unwrap_or_default() {
            if lit.is_positive() {
                true_vars[lit.var().to_dimacs() as usize] = true;
            }
        }
        let grid = cnf.decode(|var| true_vars[var as usize]);
        if let Err(stop) = solutions.report(&grid) {
            break Some(stop);
        }
        let blocking = cnf.blocking_clause(&grid);
        if blocking.is_empty() {
            // A complete puzzle: its only solution is itself.
            break None;
        }
        lits.clear();
        lits.extend(blocking.iter().map(|&lit| Lit::from_dimacs(lit as isize)));
        solver.add_clause(&lits);
    };
    let stats = sat_stats(cnf.var_count(), cnf.clause_count(), calls);
    Outcome {
        found: solutions.found(),
        stopped,
        stats,
    }
}

/// How many searches one cached solver serves before it is built again: each search that
/// counts past its first model leaves a retired activation variable behind (and the learned
/// clauses pile up), so the solver is renewed now and then.
const SEARCHES_PER_SOLVER: u32 = 2_000;

/// How many cached solvers (shape and encoding) each thread keeps.
const CACHED_SOLVERS: usize = 4;

/// A solver holding the formula of the blank grid, reused by the searches of one thread.
struct Reused {
    shape: Shape,
    encoding: Encoding,
    solver: Solver<'static>,
    /// The blank grid's formula: variable numbering and size.
    cnf: Cnf,
    searches: u32,
}

thread_local! {
    /// Solvers by shape and encoding, taken out for a search and put back after it (a search
    /// that panics or fails drops its solver; the next one builds another).
    static SOLVERS: RefCell<Vec<Reused>> = const { RefCell::new(Vec::new()) };
}

/// The plain-Sudoku fast path, at sides up to [`BOUNDED_SIDE`], where building the formula and
/// the solver cost more than solving (as tdoku's MiniSat harness does): one solver per thread,
/// shape and encoding holds the formula of the blank grid, and each search passes the givens as
/// assumptions. To count, each model is blocked by a clause guarded by an activation literal
/// `a` of this search (`!a` or some empty cell differs), assumed true in this search's later
/// calls; when the search ends, the unit clause `!a` retires those clauses for good, so later
/// searches (which never assume `a`) are not constrained by them. Learned clauses are implied
/// by the blank formula and the guarded clauses, so they stay sound. No call here needs the
/// interrupting proof sink: at these sides every call is milliseconds.
///
/// The counters are those of the formula the puzzle would have on its own (`Cnf::build`): for
/// the reduced encoding, what is left of the blank formula once the givens are assumed and
/// propagated one step; for the others, the blank formula plus one unit clause per given.
fn search_reused(
    encoding: Encoding,
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
) -> Outcome {
    let budget = Budget::new(limits);
    let mut solutions = Solutions::new(limits, on_solution);
    let mut reused = take_solver(puzzle.shape(), encoding);
    let (var_count, clause_count) = match encoding {
        Encoding::Reduced => Cnf::reduced_size(puzzle),
        Encoding::Minimal | Encoding::Extended => (
            reused.cnf.var_count(),
            reused.cnf.clause_count() + puzzle.clue_count(),
        ),
    };
    let lit = |cnf: &Cnf, cell: usize, digit: u8| {
        let var = cnf
            .var_of(cell, digit)
            .expect("the blank grid's formula has every cell and digit");
        Lit::from_dimacs(var as isize)
    };
    let mut assumptions: Vec<Lit> = puzzle
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &digit)| digit != 0)
        .map(|(cell, &digit)| lit(&reused.cnf, cell, digit))
        .collect();
    let mut activation: Option<Lit> = None;
    let mut lits = Vec::new();
    let mut grid = puzzle.clone();
    let mut calls = 0;
    let mut failed = false;
    let stopped = loop {
        if let Err(stop) = budget.check_clock() {
            break Some(stop);
        }
        calls += 1;
        reused.solver.assume(&assumptions);
        match reused.solver.solve() {
            Ok(true) => {}
            Ok(false) => break None,
            Err(error) => {
                failed = true;
                break Some(failure(&budget, &error));
            }
        }
        let model = reused.solver.model().unwrap_or_default();
        for model_lit in &model {
            if !model_lit.is_positive() {
                continue;
            }
            // Activation variables have no meaning on the board.
            let meaning = reused.cnf.meaning(model_lit.var().to_dimacs() as u32);
            if let Some((cell, digit)) = meaning.filter(|&(cell, _)| puzzle.get(cell) == 0) {
                grid.set(cell, digit);
            }
        }
        if let Err(stop) = solutions.report(&grid) {
            break Some(stop);
        }
        let activation_lit = *activation.get_or_insert_with(|| {
            let lit = reused.solver.new_lit();
            assumptions.push(lit);
            lit
        });
        lits.clear();
        lits.push(!activation_lit);
        lits.extend(
            (0..grid.cells().len())
                .filter(|&cell| puzzle.get(cell) == 0)
                .map(|cell| !lit(&reused.cnf, cell, grid.get(cell))),
        );
        if lits.len() == 1 {
            // A complete puzzle: its only solution is itself.
            break None;
        }
        reused.solver.add_clause(&lits);
    };
    if let Some(activation_lit) = activation {
        reused.solver.add_clause(&[!activation_lit]);
    }
    if !failed {
        put_solver_back(reused);
    }
    Outcome {
        found: solutions.found(),
        stopped,
        stats: sat_stats(var_count, clause_count, calls),
    }
}

/// This thread's solver for `shape` and `encoding`, or a new one.
fn take_solver(shape: Shape, encoding: Encoding) -> Reused {
    let cached = SOLVERS.with(|solvers| {
        let mut solvers = solvers.borrow_mut();
        let idx = solvers
            .iter()
            .position(|reused| reused.shape == shape && reused.encoding == encoding)?;
        Some(solvers.swap_remove(idx))
    });
    if let Some(mut reused) = cached.filter(|reused| reused.searches < SEARCHES_PER_SOLVER) {
        reused.searches += 1;
        return reused;
    }
    // The blank grid of the puzzle's kind (rules beyond the shape would join the cache key).
    let cnf = Cnf::build(&Grid::empty(shape), encoding);
    let mut solver = Solver::new();
    let mut lits = Vec::new();
    for clause in cnf.clauses() {
        lits.clear();
        lits.extend(clause.iter().map(|&lit| Lit::from_dimacs(lit as isize)));
        solver.add_clause(&lits);
    }
    Reused {
        shape,
        encoding,
        solver,
        cnf,
        searches: 1,
    }
}

fn put_solver_back(reused: Reused) {
    SOLVERS.with(|solvers| {
        let mut solvers = solvers.borrow_mut();
        if solvers.len() >= CACHED_SOLVERS {
            solvers.remove(0);
        }
        solvers.push(reused);
    });
}

/// Why a varisat call failed. Only proof writing can fail (the interrupting sink at the
/// deadline); should varisat fail otherwise, the search has no verdict and says why.
fn failure(budget: &Budget<'_>, error: &SolverError) -> Stop {
    match error {
        SolverError::ProofIoError { .. } => {
            budget.check_clock().err().unwrap_or(Stop::EngineFailure)
        }
        _ => Stop::EngineFailure,
    }
}

fn sat_stats(var_count: usize, clause_count: usize, calls: u64) -> Stats {
    let mut stats = Stats::new();
    stats.set(Counter::Variables, var_count as u64);
    stats.set(Counter::Clauses, clause_count as u64);
    stats.set(Counter::SolverCalls, calls);
    stats
}

/// How a varisat call is interrupted: varisat has no stop flag, but it stops a search as soon as
/// writing its proof fails. This sink discards the proof and fails once the budget's clock has
/// run out (or the run was cancelled); varisat writes through an 8 KiB buffer, so the clock is
/// read every few hundred conflicts.
struct Interrupt<'a> {
    budget: &'a Budget<'a>,
}

impl io::Write for Interrupt<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.budget.check_clock() {
            Ok(()) => Ok(buf.len()),
            Err(stop) => Err(io::Error::other(stop.to_string())),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
