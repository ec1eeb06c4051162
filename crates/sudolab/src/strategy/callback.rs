//! A function as a strategy: a front end hands over a closure (the Python package wraps a
//! Python function in one), and the run treats it as it treats an engine.
//!
//! Like [`External`](super::External), a [`Callback`] is made a `&'static dyn Strategy` once per
//! run ([`Callback::leak`]), so the plan, the cross-check, every report form and the session take
//! it with no second kind of strategy to thread through them; it is not in the registry, and a
//! name that is a built-in's is refused. Every solution it gives is certified by the caller like
//! any engine's. An error the function returns is that solver's failure on that puzzle: the
//! search answers `unknown` (stopped `engine_failure`) and the failure reaches the measurement
//! through [`take_failure`], which makes it a located `solver_failed` problem, never a crash.
//!
//! The function runs on the searching thread, so that thread's CPU clock times it. It cannot be
//! stopped from outside while it runs: the cancel flag is looked at before each call, and the
//! limits are handed to it to honour.

use std::cell::RefCell;
use std::sync::RwLock;
use std::sync::atomic::Ordering;

use crate::model::{Grid, Shape};

use super::{
    Counter, Limits, Outcome, Refusals, RuleKind, Stats, Stop, Strategy, WorkUnit,
    answer_without_search, registry,
};

/// The most characters of a function strategy's name.
pub const MAX_CALLBACK_NAME_CHARS: usize = 40;

/// The counters a function's answer may carry, by their report names: the ones an outside
/// solver may report, so that the two kinds of outside strategy fill the same columns.
pub const CALLBACK_COUNTERS: [Counter; 6] = [
    Counter::Nodes,
    Counter::Placements,
    Counter::Backtracks,
    Counter::Guesses,
    Counter::PropagationRounds,
    Counter::TimeNs,
];

/// What a function answers for one puzzle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The solutions it found, each different (at most the solution limit are taken).
    pub solutions: Vec<Grid>,
    /// Whether these are all the solutions there are: with fewer than the limit, a complete
    /// answer is a verdict (`none`, `unique`, a count), an incomplete one is `unknown`.
    pub complete: bool,
    /// Its counters, among [`CALLBACK_COUNTERS`].
    pub stats: Stats,
}

/// The search a [`Callback`] runs: the puzzle and the limits in, an answer or what went wrong
/// (in words, such as `raised ValueError: no digit fits r3c4`) out.
pub type SolveFn = dyn Fn(&Grid, &Limits) -> Result<Answer, String> + Send + Sync;

/// A name given to a function strategy that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CallbackError {
    /// The name is empty, too long, or has a character other than a letter, a digit, `-` or
    /// `_`.
    #[error(
        "strategy function name '{0}': expected 1 to {MAX_CALLBACK_NAME_CHARS} letters, digits, \
         '-' or '_' (give a (name, function) pair to name it)"
    )]
    BadName(String),
    /// The name is a built-in strategy's.
    #[error(
        "strategy function name '{0}' is a built-in strategy's; choose another (give a (name, \
         function) pair; built-in: {names})",
        names = super::names().join(", ")
    )]
    BuiltIn(String),
}

/// A function run as a strategy.
pub struct Callback {
    name: &'static str,
    summary: &'static str,
    /// The function; `None` once released ([`Callback::release`]).
    solve: RwLock<Option<Box<SolveFn>>>,
}

impl std::fmt::Debug for Callback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Callback")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Callback {
    /// A strategy named `name` (not a built-in's) that answers each puzzle with `solve`;
    /// `summary` is its line in reports.
    pub fn new(name: &str, summary: &str, solve: Box<SolveFn>) -> Result<Callback, CallbackError> {
        let well_formed = !name.is_empty()
            && name.chars().count() <= MAX_CALLBACK_NAME_CHARS
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !well_formed {
            return Err(CallbackError::BadName(name.to_string()));
        }
        if registry().iter().any(|strategy| strategy.name() == name) || name == "auto" {
            return Err(CallbackError::BuiltIn(name.to_string()));
        }
        Ok(Callback {
            name: Box::leak(name.to_string().into_boxed_str()),
            summary: Box::leak(summary.to_string().into_boxed_str()),
            solve: RwLock::new(Some(solve)),
        })
    }

    /// This function as a strategy for the rest of the process (the plan and the reports hold
    /// strategies as `&'static dyn Strategy`); [`Callback::release`] drops the function itself
    /// once the run is over, so only the few bytes of the name stay.
    pub fn leak(self) -> &'static Callback {
        Box::leak(Box::new(self))
    }

    /// Drops the function (and what it holds, such as a Python object); a search after this is
    /// a failure that says so.
    pub fn release(&self) {
        if let Ok(mut solve) = self.solve.write() {
            *solve = None;
        }
    }

    fn call(&self, puzzle: &Grid, limits: &Limits) -> Result<Answer, String> {
        let solve = self
            .solve
            .read()
            .map_err(|_| "could not be called: an earlier call panicked".to_string())?;
        let solve = solve
            .as_ref()
            .ok_or_else(|| "could not be called: its run is over".to_string())?;
        solve(puzzle, limits)
    }
}

impl Strategy for Callback {
    fn name(&self) -> &'static str {
        self.name
    }

    fn summary(&self) -> &'static str {
        self.summary
    }

    fn counters(&self) -> &'static [Counter] {
        &CALLBACK_COUNTERS
    }

    /// The function's work is its own: sudolab cannot count it, only hand it the limits.
    fn budget_unit(&self) -> WorkUnit {
        WorkUnit::None
    }

    fn supports(&self, _shape: Shape) -> Result<(), super::Unsupported> {
        Ok(())
    }

    fn supports_rules(&self, _rules: &crate::model::Rules) -> Result<(), &'static str> {
        Err("a strategy function is given plain puzzles only")
    }

    fn refusals(&self) -> Refusals {
        Refusals {
            max_side: None,
            rules: &RuleKind::ALL,
        }
    }

    fn untraceable_reason(&self) -> &'static str {
        "it is a function given at run time, whose search sudolab cannot see"
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
        let stopped = |stop| Outcome::stopped_after(0, stop);
        if limits
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return stopped(Stop::Cancelled);
        }
        let answer = self
            .call(puzzle, limits)
            .and_then(|answer| checked(answer, puzzle.shape()));
        match answer {
            Ok(answer) => deliver(answer, limits, on_solution),
            Err(why) => {
                let text = format!("{} {why}", self.name);
                super::failure_recorded();
                FAILURE.with(|failure| *failure.borrow_mut() = Some(text));
                stopped(Stop::EngineFailure)
            }
        }
    }
}

/// Refuses an answer that repeats a solution or gives one of another shape (a repeated grid
/// would count twice).
fn checked(answer: Answer, shape: Shape) -> Result<Answer, String> {
    for (index, solution) in answer.solutions.iter().enumerate() {
        if solution.shape() != shape {
            return Err(format!(
                "returned solution {} of {} boxes for a puzzle of {shape} boxes",
                index + 1,
                solution.shape()
            ));
        }
        if answer.solutions[..index].contains(solution) {
            return Err(format!(
                "returned the same solution twice (solutions {} and {})",
                answer.solutions[..index]
                    .iter()
                    .position(|earlier| earlier == solution)
                    .map_or(0, |at| at + 1),
                index + 1
            ));
        }
    }
    Ok(answer)
}

/// The answer as a search's outcome: at most the limit's solutions handed on; the limit reached
/// stops it there, a complete answer short of it is exhausted, an incomplete one is `unknown`.
fn deliver(answer: Answer, limits: &Limits, on_solution: &mut dyn FnMut(&Grid)) -> Outcome {
    let limit = limits.max_solutions.filter(|&limit| limit > 0);
    let taken = limit.map_or(answer.solutions.len(), |limit| {
        answer
            .solutions
            .len()
            .min(usize::try_from(limit).unwrap_or(usize::MAX))
    });
    for solution in &answer.solutions[..taken] {
        on_solution(solution);
    }
    let reached = limit.is_some_and(|limit| taken as u64 >= limit);
    let stopped = if reached {
        Some(Stop::SolutionLimit)
    } else if answer.complete {
        None
    } else {
        Some(Stop::EngineFailure)
    };
    Outcome {
        found: taken as u64,
        stopped,
        stats: answer.stats,
    }
}

thread_local! {
    /// The failure of the last search on this thread, until [`take_failure`] takes it.
    static FAILURE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// What went wrong with a function in the last search on this thread (and forgets it).
pub(crate) fn take_failure() -> Option<String> {
    FAILURE.with(|failure| failure.borrow_mut().take())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_line_record;
    use crate::strategy::Verdict;

    const PUZZLE: &str = "4..3.....1....2.";
    const SOLUTION: &str = "4213134221343421";

    fn grid(text: &str) -> Grid {
        parse_line_record(text.as_bytes(), None, 1)
            .expect("a valid line")
            .puzzle
    }

    fn answering(answer: Result<Answer, String>) -> &'static Callback {
        Callback::new(
            "mine",
            "a test function",
            Box::new(move |_: &Grid, _: &Limits| answer.clone()),
        )
        .expect("a valid name")
        .leak()
    }

    #[test]
    fn answers_become_verdicts_and_failures_are_kept_for_the_measurement() {
        let unique = Answer {
            solutions: vec![grid(SOLUTION)],
            complete: true,
            stats: Stats::new(),
        };
        let solved = answering(Ok(unique.clone()));
        let outcome = solved.count_up_to(&grid(PUZZLE), 2, &Limits::default());
        assert_eq!(outcome.verdict(), Verdict::Unique);
        let (found, outcome) = solved.solve(&grid(PUZZLE), &Limits::default());
        assert_eq!(
            (found, outcome.verdict()),
            (Some(grid(SOLUTION)), Verdict::Solved)
        );
        let gave_up = answering(Ok(Answer {
            complete: false,
            ..unique.clone()
        }));
        let outcome = gave_up.count_up_to(&grid(PUZZLE), 2, &Limits::default());
        assert_eq!(
            (outcome.verdict(), outcome.stopped),
            (Verdict::Unknown, Some(Stop::EngineFailure))
        );
        assert_eq!(take_failure(), None);
        let raising = answering(Err("raised ValueError: boom".to_string()));
        let outcome = raising.count_up_to(&grid(PUZZLE), 2, &Limits::default());
        assert_eq!(outcome.verdict(), Verdict::Unknown);
        assert_eq!(
            take_failure().as_deref(),
            Some("mine raised ValueError: boom")
        );
        let twice = answering(Ok(Answer {
            solutions: vec![grid(SOLUTION), grid(SOLUTION)],
            ..unique
        }));
        twice.count_up_to(&grid(PUZZLE), 2, &Limits::default());
        assert_eq!(
            take_failure().as_deref(),
            Some("mine returned the same solution twice (solutions 1 and 2)")
        );
        raising.release();
        raising.count_up_to(&grid(PUZZLE), 2, &Limits::default());
        assert_eq!(
            take_failure().as_deref(),
            Some("mine could not be called: its run is over")
        );
    }

    #[test]
    fn built_in_and_malformed_names_are_refused() {
        let none = || -> Box<SolveFn> { Box::new(|_: &Grid, _: &Limits| Ok(Answer::default())) };
        assert_eq!(
            Callback::new("fast", "", none()).unwrap_err(),
            CallbackError::BuiltIn("fast".to_string())
        );
        assert_eq!(
            Callback::new("<lambda>", "", none()).unwrap_err(),
            CallbackError::BadName("<lambda>".to_string())
        );
        assert!(Callback::new("my_solver", "", none()).is_ok());
    }
}
