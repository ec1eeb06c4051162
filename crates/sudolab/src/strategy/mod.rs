//! The strategy trait, what a search is allowed to spend, how it ended, and the engines.
//!
//! Every engine implements one required method, [`Strategy::search`], which calls back once per
//! solution and honours [`Limits`]. Counting and solving are provided on top of it. A search
//! that stops early is never evidence of "no solution": its [`Verdict`] is `Unknown`.

mod backtrack;
mod budget;
mod callback;
mod choose;
mod detach;
mod dlx;
mod dlx_knuth;
mod external;
mod external_dimacs;
mod fast;
mod mrv;
mod observe;
mod registry;
pub mod rng;
mod sat;
mod scan;
mod stats;
mod toggle;
mod variant;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::model::{Grid, Rules, Shape, find_conflict};

pub use callback::{
    Answer, CALLBACK_COUNTERS, Callback, CallbackError, MAX_CALLBACK_NAME_CHARS, SolveFn,
};
pub use choose::{
    AUTO_SAT_FROM_SIDE, EngineChoice, ListError, NoEngine, auto_verifier_engines, auto_verifiers,
    find_all, find_all_among,
};
pub use detach::{MAX_ABANDONED, abandoned_running};
pub(crate) use detach::{mark_ran_elsewhere, take_ran_elsewhere};
pub use dlx::{Dlx, MAX_DLX_RS_SIDE};
pub use dlx_knuth::DlxKnuth;
pub use external::{
    External, ExternalError, MAX_ANSWER_BYTES, MAX_NAME_CHARS, PROTOCOL_VERSION, ProcessLimits,
    STDERR_TAIL_BYTES, cpu_limit, distinct_outside_names, format_size, outside_solver, parse_size,
};
pub use external_dimacs::{Dimacs, MAX_DIMACS_OUTPUT_BYTES};
pub use fast::Fast;
pub use mrv::Mrv;
pub use observe::{Event, Observer, Silent};
pub use registry::{UnknownStrategy, find, names, registry};
pub use sat::{MAX_SAT_SIDE, Sat};
pub use scan::Scan;
pub use stats::{Counter, Stats};
pub use toggle::Toggle;

pub(crate) use budget::Budget;
pub(crate) use observe::Dyn;

/// What a search may spend before it stops: plain data, so that one value serves every search
/// of a run (the timeout becomes a deadline when each search starts, inside the engine).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many solutions; `None` enumerates them all.
    pub max_solutions: Option<u64>,
    /// Stop after visiting this many search nodes (for engines that count nodes).
    pub max_nodes: Option<u64>,
    /// Stop after this much work in the engine's own deterministic unit
    /// ([`Strategy::budget_unit`]): the same search stops at the same point on any machine at
    /// any load, unlike `timeout`. Ignored by an engine whose unit is [`WorkUnit::None`].
    pub budget: Option<u64>,
    /// Stop this long after the search starts.
    pub timeout: Option<Duration>,
    /// Stop when this flag becomes true (set from another thread, for example on Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Break ties between equally good choices at random and try values in a random order,
    /// from this seed (engines whose [`Strategy::randomizes`] is true); `None`: the textbook
    /// order.
    pub randomize: Option<u64>,
    /// Restart a randomized search for one solution after a node cutoff that grows by this
    /// schedule (heavy-tail experiments; Gomes, Selman and Kautz, AAAI 1998).
    pub restarts: Option<Restarts>,
}

/// A restart schedule: the node cutoff of run `k` (from 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Restarts {
    /// `unit` times the Luby sequence 1, 1, 2, 1, 1, 2, 4, ... (Luby, Sinclair and Zuckerman,
    /// 1993: within a log factor of the best fixed cutoff for any run-time distribution).
    Luby {
        /// Nodes per step of the sequence.
        unit: u64,
    },
    /// `unit`, then each cutoff `factor` times the one before.
    Geometric {
        /// The first cutoff, in nodes.
        unit: u64,
        /// The growth per run, above 1.
        factor: f64,
    },
}

impl Restarts {
    /// The node cutoff of run `run` (1, 2, ...).
    pub fn cutoff(self, run: u32) -> u64 {
        match self {
            Restarts::Luby { unit } => unit.saturating_mul(luby(u64::from(run.max(1)))),
            Restarts::Geometric { unit, factor } => {
                let grown =
                    unit as f64 * factor.powi(i32::try_from(run.max(1) - 1).unwrap_or(i32::MAX));
                if grown >= u64::MAX as f64 {
                    u64::MAX
                } else {
                    grown.ceil() as u64
                }
            }
        }
    }
}

/// The Luby sequence from `index` 1: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
fn luby(mut index: u64) -> u64 {
    loop {
        let bits = 64 - index.leading_zeros();
        if index == (1u64 << bits) - 1 {
            return 1u64 << (bits - 1);
        }
        index = index - (1u64 << (bits - 1)) + 1;
    }
}

impl std::str::FromStr for Restarts {
    type Err = String;

    /// `luby`, `luby:UNIT`, `geometric`, `geometric:UNIT` or `geometric:UNIT:FACTOR`
    /// (defaults: unit 100 nodes, factor 1.5).
    fn from_str(text: &str) -> Result<Restarts, String> {
        let mut parts = text.trim().split(':');
        let kind = parts.next().unwrap_or_default();
        let unit = match parts.next() {
            Some(unit) => unit
                .parse::<u64>()
                .ok()
                .filter(|&unit| unit > 0)
                .ok_or_else(|| {
                    format!("expected a cutoff unit of 1 node or more, found '{unit}'")
                })?,
            None => 100,
        };
        let restarts = match kind {
            "luby" => Restarts::Luby { unit },
            "geometric" => {
                let factor = match parts.next() {
                    Some(factor) => factor
                        .parse::<f64>()
                        .ok()
                        .filter(|&factor| factor > 1.0 && factor.is_finite())
                        .ok_or_else(|| {
                            format!("expected a growth factor above 1, found '{factor}'")
                        })?,
                    None => 1.5,
                };
                Restarts::Geometric { unit, factor }
            }
            _ => {
                return Err(format!(
                    "expected luby[:UNIT] or geometric[:UNIT[:FACTOR]], found '{text}'"
                ));
            }
        };
        if parts.next().is_some() {
            return Err(format!(
                "expected luby[:UNIT] or geometric[:UNIT[:FACTOR]], found '{text}'"
            ));
        }
        Ok(restarts)
    }
}

impl Limits {
    /// No limit at all: enumerate every solution.
    pub fn unlimited() -> Limits {
        Limits::default()
    }

    /// Stop after `max_solutions` solutions; `0` means no limit.
    pub fn solutions(max_solutions: u64) -> Limits {
        Limits::default().with_max_solutions(max_solutions)
    }

    /// The same limits with another solution cap; `0` means no limit.
    #[must_use]
    pub fn with_max_solutions(mut self, max_solutions: u64) -> Limits {
        self.max_solutions = (max_solutions > 0).then_some(max_solutions);
        self
    }

    /// The same limits with a node budget.
    #[must_use]
    pub fn with_max_nodes(mut self, max_nodes: u64) -> Limits {
        self.max_nodes = Some(max_nodes);
        self
    }

    /// The same limits with a work budget per search, in each engine's
    /// [`Strategy::budget_unit`]; `0` means no work budget.
    #[must_use]
    pub fn with_budget(mut self, budget: u64) -> Limits {
        self.budget = (budget > 0).then_some(budget);
        self
    }

    /// The same limits with a time budget per search, counted from the start of each search;
    /// a zero duration means no time limit.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Limits {
        self.timeout = (!timeout.is_zero()).then_some(timeout);
        self
    }

    /// The same limits, stopped by `flag` (when it becomes true).
    #[must_use]
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(flag);
        self
    }
}

/// Why a search stopped before exploring its whole tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// It found as many solutions as it was asked for.
    SolutionLimit,
    /// It used up its node budget.
    NodeLimit,
    /// It used up its work budget ([`Limits::budget`], in the engine's [`WorkUnit`]): a
    /// deterministic stop, unlike [`Stop::Deadline`].
    Budget,
    /// It reached its deadline.
    Deadline,
    /// It was cancelled.
    Cancelled,
    /// The engine does not take puzzles of this shape (see [`Strategy::supports`]).
    Unsupported,
    /// The engine itself failed (an error inside its crate): no verdict, and not a
    /// cancellation either.
    EngineFailure,
    /// Not started: the engine's crate cannot be interrupted, and too many of its searches
    /// abandoned at their deadline still run (see [`MAX_ABANDONED`]).
    Backlog,
}

impl Stop {
    /// The reason's name, as the reports write it (JSON, CSV, Arrow): `solution_limit`,
    /// `node_limit`, `budget`, `deadline`, `cancelled`, `unsupported`, `engine_failure`,
    /// `backlog`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Stop::SolutionLimit => "solution_limit",
            Stop::NodeLimit => "node_limit",
            Stop::Budget => "budget",
            Stop::Deadline => "deadline",
            Stop::Cancelled => "cancelled",
            Stop::Unsupported => "unsupported",
            Stop::EngineFailure => "engine_failure",
            Stop::Backlog => "backlog",
        }
    }
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::SolutionLimit => "solution limit reached",
            Stop::NodeLimit => "node budget used up",
            Stop::Budget => "work budget used up",
            Stop::Deadline => "timed out",
            Stop::Cancelled => "cancelled",
            Stop::Unsupported => "puzzle not supported by this engine (its shape or its rules)",
            Stop::EngineFailure => "the engine failed",
            Stop::Backlog => "not started: earlier searches abandoned at their deadline still run",
        })
    }
}

/// What an engine's work budget ([`Limits::budget`]) counts: a unit the engine's own search
/// fixes, so that a budget stops it at the same point whatever the machine and its load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkUnit {
    /// Search-tree nodes ([`Counter::Nodes`]); a stopped search reports exactly the budget.
    Nodes,
    /// Dancing-links updates ([`Counter::Updates`]), checked as each node is entered: a
    /// stopped search reports the budget or more, by less than one node's covering.
    Updates,
    /// Bytes of the SAT solver's proof (varisat's native format: its learned and deleted
    /// clauses), checked at each 8 KiB flush of the proof, so a stop is up to 8 KiB past the
    /// budget; no counter reports it.
    ProofBytes,
    /// None: the engine's crate offers no point to count or stop at inside a search (`dlx`),
    /// so only the wall-clock timeout stops it.
    None,
}

impl WorkUnit {
    /// The unit's name, as the command line and the reports write it: `nodes`, `updates`,
    /// `proof_bytes`, `none`.
    pub const fn as_str(self) -> &'static str {
        match self {
            WorkUnit::Nodes => "nodes",
            WorkUnit::Updates => "updates",
            WorkUnit::ProofBytes => "proof_bytes",
            WorkUnit::None => "none",
        }
    }

    /// The counter that reports the work spent in this unit, if one does.
    pub const fn counter(self) -> Option<Counter> {
        match self {
            WorkUnit::Nodes => Some(Counter::Nodes),
            WorkUnit::Updates => Some(Counter::Updates),
            WorkUnit::ProofBytes | WorkUnit::None => None,
        }
    }
}

impl fmt::Display for WorkUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a search ended and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found (each one was passed to the callback).
    pub found: u64,
    /// Why the search stopped early; `None` when it explored the whole tree.
    pub stopped: Option<Stop>,
    /// The counters this engine observes.
    pub stats: Stats,
}

impl Outcome {
    /// A search stopped by `stop` after `found` solutions, with no counters: how an outside
    /// solver's search ends when its program or function gives no answer to count.
    pub fn stopped_after(found: u64, stop: Stop) -> Outcome {
        Outcome {
            found,
            stopped: Some(stop),
            stats: Stats::new(),
        }
    }

    /// The solution count and whether it is exact.
    pub fn count(&self) -> Count {
        Count {
            found: self.found,
            exhausted: self.stopped.is_none(),
        }
    }

    /// The verdict this outcome supports: [`Count::verdict`], or [`Verdict::Solved`] when the
    /// search stopped at a solution limit of one ([`Verdict::of`]).
    pub fn verdict(&self) -> Verdict {
        Verdict::of(self.count(), self.stopped)
    }
}

/// A solution count: exact when the search was exhausted, a lower bound otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// Solutions found.
    pub found: u64,
    /// Whether the whole search tree was explored.
    pub exhausted: bool,
}

impl Count {
    /// None when nothing was found in a complete search, unique when exactly one was, multiple
    /// whenever two were found, unknown otherwise (a stopped search proves neither none nor
    /// unique).
    pub fn verdict(self) -> Verdict {
        match (self.found, self.exhausted) {
            (0, true) => Verdict::None,
            (1, true) => Verdict::Unique,
            (found, _) if found >= 2 => Verdict::Multiple,
            _ => Verdict::Unknown,
        }
    }
}

/// What a search proves about the number of solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique,
    /// Two or more solutions.
    Multiple,
    /// A solution was found and the search stopped there, at its solution limit of one: the
    /// puzzle is solved (the grid is certified like any other), and whether the solution is
    /// unique was not asked.
    Solved,
    /// The search stopped before it could tell.
    Unknown,
}

impl Verdict {
    /// The verdict of a search that found `count` and stopped for `stopped`: the count's
    /// ([`Count::verdict`]), except that one solution found by a search that stopped at its
    /// solution limit is [`Verdict::Solved`], not unknown: the limit was one, so the search did
    /// all it was asked to.
    pub fn of(count: Count, stopped: Option<Stop>) -> Verdict {
        if count.found == 1 && !count.exhausted && stopped == Some(Stop::SolutionLimit) {
            Verdict::Solved
        } else {
            count.verdict()
        }
    }
}

impl Verdict {
    /// The verdict's name, as printed and in JSON: `none`, `unique`, `multiple`, `solved`,
    /// `unknown`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::None => "none",
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::Solved => "solved",
            Verdict::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an engine refuses puzzles of a shape: one call of its crate cannot be interrupted, and on
/// boards this large one call was seen to run for minutes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{uninterruptible}, and on a {side}x{side} board {risk} (sides up to {max_side}; {instead})"
)]
pub struct Unsupported {
    /// The side of the refused board.
    pub side: usize,
    /// The largest side the engine takes.
    pub max_side: usize,
    /// What cannot be interrupted.
    pub uninterruptible: &'static str,
    /// What was seen to happen on boards this large.
    pub risk: &'static str,
    /// What to use instead.
    pub instead: &'static str,
}

/// Why an engine refuses a puzzle: its shape ([`Unsupported`]) or its variant's rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The board is too large for the engine.
    #[error(transparent)]
    Shape(#[from] Unsupported),
    /// The engine cannot express one of the variant's rules.
    #[error("{engine} does not take {variant} puzzles: {why}")]
    Rules {
        /// The engine's name.
        engine: &'static str,
        /// The variant (its features joined by `+`).
        variant: String,
        /// What the engine cannot express.
        why: &'static str,
    },
}

/// A kind of variant rule, as the engines tell them apart when they refuse one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// Houses other than the rows, columns and boxes of the shape: diagonals, windows, jigsaw
    /// regions, or a Latin square's missing boxes.
    Houses,
    /// Pairs of cells that must differ (anti-king, anti-knight, `different`).
    DifferentPairs,
    /// Pairs of orthogonal neighbours that must not hold consecutive digits.
    NonconsecutivePairs,
    /// Cages: no repeated digit, and a sum when one is given (killer).
    Cages,
}

impl RuleKind {
    /// Every kind.
    pub const ALL: [RuleKind; 4] = [
        RuleKind::Houses,
        RuleKind::DifferentPairs,
        RuleKind::NonconsecutivePairs,
        RuleKind::Cages,
    ];

    /// Whether `rules` have a rule of this kind.
    pub fn used_by(self, rules: &Rules) -> bool {
        let spec = rules.spec();
        match self {
            RuleKind::Houses => {
                spec.latin || spec.diagonals || spec.windows || spec.regions.is_some()
            }
            RuleKind::DifferentPairs => !rules.different_pairs().is_empty(),
            RuleKind::NonconsecutivePairs => !rules.nonconsecutive_pairs().is_empty(),
            RuleKind::Cages => !rules.cages().is_empty(),
        }
    }
}

/// What an engine refuses, declared as data beside its code ([`Strategy::refusals`]). The
/// behaviour is [`Strategy::supports`] and [`Strategy::supports_rules`]; the suite's guard
/// tests hold the two to each other on every case, so a declaration is what the engine does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusals {
    /// The largest side the engine takes; `None`: every side.
    pub max_side: Option<usize>,
    /// The kinds of rule it cannot express: it refuses every variant that has one of them.
    pub rules: &'static [RuleKind],
}

impl Refusals {
    /// Refuses nothing: every size, every rule.
    pub const NONE: Refusals = Refusals {
        max_side: None,
        rules: &[],
    };

    /// Every size, plain Sudoku only (what an engine that overrides neither `supports` nor
    /// `supports_rules` does).
    pub const PLAIN_ONLY: Refusals = Refusals {
        max_side: None,
        rules: &RuleKind::ALL,
    };

    /// Whether the engine refuses boards of this side.
    pub fn refuses_side(self, side: usize) -> bool {
        self.max_side.is_some_and(|max_side| side > max_side)
    }

    /// Whether the engine refuses a variant with these rules.
    pub fn refuses_rules(self, rules: &Rules) -> bool {
        self.rules.iter().any(|kind| kind.used_by(rules))
    }
}

/// A solving strategy: one engine in the registry.
pub trait Strategy: Send + Sync {
    /// The registry name, as typed on the command line: `scan`, `mrv`, ...
    fn name(&self) -> &'static str;

    /// One line on what the engine does.
    fn summary(&self) -> &'static str;

    /// The counters this engine reports; the others are absent from its `Stats`, never zero.
    /// A node budget (`Limits::max_nodes`) applies only to engines that count `nodes`.
    fn counters(&self) -> &'static [Counter];

    /// What the engine's work budget ([`Limits::budget`]) counts; [`WorkUnit::None`] when
    /// nothing inside its search can be counted, and only the timeout stops it.
    fn budget_unit(&self) -> WorkUnit;

    /// The work budget `compare` gives the engine when none is asked for: about a second of
    /// its work on one core of the reference machine on the hardest bundled puzzles
    /// (`docs/benchmarks.md`, 'Work budgets'); `None` for an engine without a work budget.
    fn default_budget(&self) -> Option<u64> {
        None
    }

    /// Whether the engine handles puzzles of this shape; `Err` says why not.
    fn supports(&self, _shape: Shape) -> Result<(), Unsupported> {
        Ok(())
    }

    /// Whether the engine takes puzzles under these variant rules; `Err` says what it cannot
    /// express. By default an engine knows only rows, columns and boxes.
    fn supports_rules(&self, _rules: &Rules) -> Result<(), &'static str> {
        Err("it knows only the rows, columns and boxes of plain Sudoku")
    }

    /// What the engine refuses, as data: the sizes and kinds of rule that `supports` and
    /// `supports_rules` turn down. Every engine declares it beside those two; the default is
    /// theirs (every size, plain Sudoku only).
    fn refusals(&self) -> Refusals {
        Refusals::PLAIN_ONLY
    }

    /// Whether the engine takes `puzzle`: its shape, and its variant's rules if it has any.
    fn accepts(&self, puzzle: &Grid) -> Result<(), Refusal> {
        self.supports(puzzle.shape())?;
        if let Some(rules) = puzzle.rules() {
            self.supports_rules(rules).map_err(|why| Refusal::Rules {
                engine: self.name(),
                variant: rules.name(),
                why,
            })?;
        }
        Ok(())
    }

    /// Searches for solutions of `puzzle`, calling `on_solution` once per solution found, until
    /// the tree is exhausted or a limit stops it.
    fn search(&self, puzzle: &Grid, limits: &Limits, on_solution: &mut dyn FnMut(&Grid))
    -> Outcome;

    /// Whether the engine follows [`Limits::randomize`] and [`Limits::restarts`] (`mrv`); the
    /// others search in their own fixed order and refuse them on the command line.
    fn randomizes(&self) -> bool {
        false
    }

    /// Whether [`Strategy::search_observed`] reports events (the engines the `trace` command
    /// takes).
    fn traceable(&self) -> bool {
        false
    }

    /// Why an engine that is not [`traceable`](Strategy::traceable) reports no events, and
    /// what to trace instead; `trace` says it when it refuses the engine.
    fn untraceable_reason(&self) -> &'static str {
        "its search reports no events"
    }

    /// The same search, reporting every event to `observer`; `None` when this engine cannot be
    /// traced.
    fn search_observed(
        &self,
        _puzzle: &Grid,
        _limits: &Limits,
        _on_solution: &mut dyn FnMut(&Grid),
        _observer: &mut dyn Observer,
    ) -> Option<Outcome> {
        None
    }

    /// Counts solutions up to `limit` (`0`: no limit), within the other `limits`.
    fn count_up_to(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Outcome {
        let limits = limits.clone().with_max_solutions(limit);
        self.search(puzzle, &limits, &mut |_| {})
    }

    /// Finds one solution, if there is one within `limits`.
    fn solve(&self, puzzle: &Grid, limits: &Limits) -> (Option<Grid>, Outcome) {
        let limits = limits.clone().with_max_solutions(1);
        let mut solution = None;
        let outcome = self.search(puzzle, &limits, &mut |grid| {
            solution.get_or_insert_with(|| grid.clone());
        });
        (solution, outcome)
    }
}

impl fmt::Debug for dyn Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Implements `counters`, `search` and `search_observed` for an engine whose search is a
/// function generic over the observer, `run(puzzle, limits, on_solution, observer)`: the
/// untraced search runs it with [`Silent`] (compiled separately, at full speed), and
/// [`answer_without_search`] answers refused shapes and conflicting givens before it runs.
macro_rules! traced_engine {
    ($run:path, $counters:expr) => {
        fn counters(&self) -> &'static [$crate::strategy::Counter] {
            &$counters
        }

        fn traceable(&self) -> bool {
            true
        }

        fn search(
            &self,
            puzzle: &$crate::model::Grid,
            limits: &$crate::strategy::Limits,
            on_solution: &mut dyn FnMut(&$crate::model::Grid),
        ) -> $crate::strategy::Outcome {
            if let Some(outcome) = $crate::strategy::answer_without_search(self, puzzle) {
                return outcome;
            }
            $run(puzzle, limits, on_solution, $crate::strategy::Silent)
        }

        fn search_observed(
            &self,
            puzzle: &$crate::model::Grid,
            limits: &$crate::strategy::Limits,
            on_solution: &mut dyn FnMut(&$crate::model::Grid),
            observer: &mut dyn $crate::strategy::Observer,
        ) -> Option<$crate::strategy::Outcome> {
            if let Some(outcome) = $crate::strategy::answer_without_search(self, puzzle) {
                return Some(outcome);
            }
            Some($run(
                puzzle,
                limits,
                on_solution,
                $crate::strategy::Dyn(observer),
            ))
        }
    };
}
pub(crate) use traced_engine;

/// Where an engine delivers solutions: counts them, calls back, and says when the solution
/// limit is reached. Every engine reports through one of these.
pub(crate) struct Solutions<'a> {
    found: u64,
    limit: u64,
    on_solution: &'a mut dyn FnMut(&Grid),
}

impl<'a> Solutions<'a> {
    pub(crate) fn new(limits: &Limits, on_solution: &'a mut dyn FnMut(&Grid)) -> Solutions<'a> {
        Solutions {
            found: 0,
            limit: limits.max_solutions.unwrap_or(u64::MAX),
            on_solution,
        }
    }

    /// Delivers one solution; `Err(Stop::SolutionLimit)` when it was the last one wanted.
    pub(crate) fn report(&mut self, grid: &Grid) -> Result<(), Stop> {
        (self.on_solution)(grid);
        self.count()
    }

    /// Counts one solution that nobody asked to see (a search that only counts, such as
    /// [`Strategy::count_up_to`], need not write it out); `Err(Stop::SolutionLimit)` when it
    /// was the last one wanted.
    pub(crate) fn count(&mut self) -> Result<(), Stop> {
        self.found += 1;
        if self.found >= self.limit {
            return Err(Stop::SolutionLimit);
        }
        Ok(())
    }

    /// Solutions delivered so far.
    pub(crate) fn found(&self) -> u64 {
        self.found
    }
}

/// Whether a failure was ever recorded in this process ([`failure_recorded`]). A failure is
/// recorded and taken on the same thread, so the thread that recorded one sees the flag set.
static FAILURE_RECORDED: AtomicBool = AtomicBool::new(false);

/// Called before a failure is stored in a thread-local, so that [`take_failure`] looks there.
pub(crate) fn failure_recorded() {
    FAILURE_RECORDED.store(true, Ordering::Relaxed);
}

/// Why the last search on this thread by an outside solver or a strategy function failed, if
/// it did (and forgets it): the measurement makes it that puzzle's `solver_failed` problem.
#[inline]
pub(crate) fn take_failure() -> Option<String> {
    // A process that never recorded a failure has none to take: the measurement asks twice
    // a puzzle, and two thread-local cells cost more than this one load, which is inlined
    // into the caller so that the common case makes no call.
    if !FAILURE_RECORDED.load(Ordering::Relaxed) {
        return None;
    }
    take_recorded_failure()
}

/// [`take_failure`] once a failure was recorded in this process.
#[cold]
#[inline(never)]
fn take_recorded_failure() -> Option<String> {
    // Both are taken, so that neither is left over for a later search.
    let external = external::take_failure();
    let function = callback::take_failure();
    external.or(function)
}

/// The answer an engine gives without searching, if any: a shape it refuses is a search that
/// stopped at once ([`Stop::Unsupported`], verdict unknown); givens that already conflict are
/// no solution, proved with no search (every counter present, at zero). `None`: search.
pub(crate) fn answer_without_search(strategy: &dyn Strategy, puzzle: &Grid) -> Option<Outcome> {
    let refused = strategy.accepts(puzzle).is_err();
    if !refused && find_conflict(puzzle).is_none() {
        return None;
    }
    let mut stats = Stats::new();
    for &counter in strategy.counters() {
        stats.set(counter, 0);
    }
    Some(Outcome {
        found: 0,
        stopped: refused.then_some(Stop::Unsupported),
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restart_schedules() {
        let luby: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(luby, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        let schedule: Restarts = "luby:10".parse().unwrap();
        assert_eq!(
            (1..=7).map(|run| schedule.cutoff(run)).collect::<Vec<_>>(),
            [10, 10, 20, 10, 10, 20, 40]
        );
        let schedule: Restarts = "geometric:100:2".parse().unwrap();
        assert_eq!(
            (1..=4).map(|run| schedule.cutoff(run)).collect::<Vec<_>>(),
            [100, 200, 400, 800]
        );
        assert_eq!(
            "geometric".parse::<Restarts>().unwrap(),
            Restarts::Geometric {
                unit: 100,
                factor: 1.5
            }
        );
        assert_eq!(
            "geometric:100:1".parse::<Restarts>().unwrap_err(),
            "expected a growth factor above 1, found '1'"
        );
        assert_eq!(
            "fibonacci".parse::<Restarts>().unwrap_err(),
            "expected luby[:UNIT] or geometric[:UNIT[:FACTOR]], found 'fibonacci'"
        );
    }

    #[test]
    fn a_stopped_search_is_never_none_or_unique() {
        let verdict = |found, exhausted| Count { found, exhausted }.verdict();
        assert_eq!(verdict(0, true), Verdict::None);
        assert_eq!(verdict(1, true), Verdict::Unique);
        assert_eq!(verdict(2, true), Verdict::Multiple);
        assert_eq!(verdict(2, false), Verdict::Multiple);
        assert_eq!(verdict(0, false), Verdict::Unknown);
        assert_eq!(verdict(1, false), Verdict::Unknown);
    }

    #[test]
    fn one_solution_at_a_limit_of_one_is_solved_and_nothing_else_is() {
        let of = |found: u64, stopped: Option<Stop>| {
            let count = Count {
                found,
                exhausted: stopped.is_none(),
            };
            Verdict::of(count, stopped)
        };
        assert_eq!(of(1, Some(Stop::SolutionLimit)), Verdict::Solved);
        assert_eq!(of(1, None), Verdict::Unique);
        assert_eq!(of(1, Some(Stop::Deadline)), Verdict::Unknown);
        assert_eq!(of(1, Some(Stop::Budget)), Verdict::Unknown);
        assert_eq!(of(0, Some(Stop::SolutionLimit)), Verdict::Unknown);
        assert_eq!(of(2, Some(Stop::SolutionLimit)), Verdict::Multiple);
        assert_eq!(
            serde_json::to_string(&Verdict::Solved).unwrap(),
            "\"solved\""
        );
        assert_eq!(Verdict::Solved.to_string(), "solved");
    }
}
