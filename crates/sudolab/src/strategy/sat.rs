//! `sat`, `sat-extended`, `sat-minimal`: the puzzle as CNF, solved by the `varisat` crate.
//!
//! Encodings in [`crate::encode::Cnf`]: `sat` uses the reduced encoding (givens propagated
//! away, after Kwon and Jain 2006), `sat-extended` and `sat-minimal` Lynce and Ouaknine's (2006).
//! Counting and uniqueness: after each model, a clause that forbids the same values on the
//! empty cells is added and the solver is called again.
//!
//! Before varisat sees the formula, its units are propagated at level 0 ([`Cnf::propagate_units`],
//! generic over the encodings and the variants' clauses), and varisat loads only the clauses
//! left, over the free variables. That is the first thing a CDCL solver does with a formula;
//! done here, it halves the time on easy puzzles, where varisat's loading of each clause and
//! variable was two thirds of the time. The counters still describe the encoding.
//!
//! Limits of varisat 0.2, designed around here: it has no statistics API, so the counters are
//! the formula's `variables` and `clauses` and the `solver_calls` made (no `nodes`); it has no
//! stop flag and no conflict limit (its configuration has none), so a call is stopped through its
//! proof output (`Interrupt`) above 9x9, on variants and whenever a work budget is set, and the
//! budget, the deadline and the cancel flag are also checked between solver calls; a node budget
//! does not apply. The work budget counts the bytes of that proof (varisat's native format, its
//! learned and deleted clauses): the one deterministic measure of its work that it shows. Its `Solver` is not `Send`: each search builds its own, on the thread
//! that runs it. This engine is the readable reference the others are checked against.

use std::cell::Cell;
use std::io;

use varisat::{ExtendFormula, Lit, ProofFormat, Solver, Var, solver::SolverError};

use crate::encode::{Cnf, Encoding};
use crate::model::{Grid, Shape};

use super::detach;
use super::{
    Budget, Counter, Limits, Outcome, Refusals, Solutions, Stats, Stop, Strategy, Unsupported,
    WorkUnit, answer_without_search,
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
    /// Every rule: houses as exactly-one clauses, pairs as binary clauses, cages as at-most-one
    /// clauses and a partial-sum encoding of the sum (`encode::Cnf`).
    fn supports_rules(&self, _rules: &crate::model::Rules) -> Result<(), &'static str> {
        Ok(())
    }

    fn refusals(&self) -> Refusals {
        Refusals {
            max_side: Some(max_side(self.encoding)),
            rules: &[],
        }
    }

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

    /// Bytes of varisat's proof: a deterministic function of its search, seen at each flush.
    fn budget_unit(&self) -> WorkUnit {
        WorkUnit::ProofBytes
    }

    fn default_budget(&self) -> Option<u64> {
        Some(8_000_000)
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
        let budget = Budget::without_work(limits);
        let max_work = limits.budget.unwrap_or(u64::MAX);
        let work = Cell::new(0);
        let interrupted = Cell::new(None);
        let mut solutions = Solutions::new(limits, on_solution);
        let cnf = Cnf::build(puzzle, self.encoding);
        let mut solver = Solver::new();
        // A work budget needs the proof on every puzzle, so that it stops the same searches
        // whatever their size; the clock alone only where a call may be long.
        if limits.budget.is_some() || (budget.has_clock() && !detach::known_short(puzzle)) {
            let sink = Interrupt {
                budget: &budget,
                work: &work,
                max_work,
                interrupted: &interrupted,
            };
            solver.write_proof(sink, ProofFormat::Varisat);
        }
        // Level-0 unit propagation first, as a CDCL solver would do with the loaded formula:
        // varisat then loads only the clauses left, over the free variables (its loading is most
        // of its time on an easy puzzle). The counters keep describing the encoding.
        let level0 = cnf.propagate_units();
        let mut lits = Vec::new();
        if level0.conflict() {
            solver.add_clause(&[]);
        }
        for clause in level0.clauses() {
            lits.clear();
            lits.extend(clause.iter().map(|&lit| Lit::from_dimacs(lit as isize)));
            solver.add_clause(&lits);
        }
        let mut stats = Stats::new();
        stats.set(Counter::Variables, cnf.var_count() as u64);
        stats.set(Counter::Clauses, cnf.clause_count() as u64);
        let mut calls = 0;
        let mut true_vars = vec![false; cnf.var_count() + 1];
        let stopped = loop {
            if work.get() >= max_work {
                break Some(Stop::Budget);
            }
            if let Err(stop) = budget.check_clock() {
                break Some(stop);
            }
            calls += 1;
            match solver.solve() {
                Ok(true) => {}
                Ok(false) => break None,
                // Only proof writing can fail, and no proof is written; should varisat fail
                // anyway, the search has no verdict and says why.
                Err(SolverError::ProofIoError { .. }) => {
                    break Some(interrupted.get().unwrap_or(Stop::EngineFailure));
                }
                Err(_) => break Some(Stop::EngineFailure),
            }
            // The fixed values, then the model's (a free variable no clause is left to
            // constrain is absent from the model: false).
            for (var, value) in true_vars.iter_mut().enumerate().skip(1) {
                *value = level0.fixed(var as u32) == Some(true);
            }
            for lit in solver.model().unwrap_or_default() {
                if lit.is_positive() {
                    true_vars[level0.original(lit.var().index() + 1) as usize] = true;
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
            // Over the free variables: a literal of a variable fixed true is false for good.
            // When none is left the clause is empty, and the next call finds no model.
            lits.clear();
            lits.extend(blocking.iter().filter_map(|&lit| {
                let var = level0.compact(lit.unsigned_abs())?;
                Some(Lit::from_var(Var::from_index(var - 1), lit > 0))
            }));
            solver.add_clause(&lits);
        };
        stats.set(Counter::SolverCalls, calls);
        Outcome {
            found: solutions.found(),
            stopped,
            stats,
        }
    }
}

/// How a varisat call is interrupted: varisat has no stop flag, but it stops a search as soon as
/// writing its proof fails. This sink discards the proof, counts its bytes, and fails once they
/// reach the work budget or the budget's clock has run out (or the run was cancelled), keeping
/// the reason. varisat writes through an 8 KiB buffer, so the sink is called every few hundred
/// conflicts, at points its search alone fixes.
struct Interrupt<'a> {
    budget: &'a Budget<'a>,
    /// Proof bytes written so far.
    work: &'a Cell<u64>,
    max_work: u64,
    interrupted: &'a Cell<Option<Stop>>,
}

impl io::Write for Interrupt<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let work = self.work.get() + buf.len() as u64;
        self.work.set(work);
        let verdict = if work >= self.max_work {
            Err(Stop::Budget)
        } else {
            self.budget.check_clock()
        };
        match verdict {
            Ok(()) => Ok(buf.len()),
            Err(stop) => {
                self.interrupted.set(Some(stop));
                Err(io::Error::other(stop.to_string()))
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
