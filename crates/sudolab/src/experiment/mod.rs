//! The experiment: a plan (strategies with their limits, repeats, order, jobs, selection) run
//! over a stream of puzzles, every answer certified and cross-checked, results in input order.
//!
//! Three ways in, one above the other: [`check`] runs one puzzle now, on this thread (`count`,
//! `solve`, `verify`, `generate --verify`); the [`Runner`] runs a plan over many puzzles in
//! batches on a thread pool; a comparison [`Session`] ([`compare`]) runs the runner and feeds
//! the report (`compare`, `run`, Python). All of them time only the searches ([`measure`]) and
//! compare the answers with [`cross_check`](crate::check::cross_check) against each other and
//! against what the input claims.
//!
//! The plan is plain data: [`Limits`] holds a timeout, which each search turns into a deadline
//! when it starts, so one plan serves every search of a run, on any thread.
//!
//! # Example
//!
//! Three engines on two puzzles, in engine order, each answer certified and cross-checked:
//!
//! ```
//! use std::time::Duration;
//! use sudolab::experiment::{Item, Plan, Runner};
//! use sudolab::strategy::{self, Limits, Verdict};
//!
//! let items = ["4..3.....1....2.", "4..3............"].iter().enumerate().map(|(i, line)| Item {
//!     ordinal: i as u64,
//!     source: format!("example:{}", i + 1),
//!     puzzle: line.parse().unwrap(),
//!     solution: None,
//!     count: None,
//! });
//! let engines = ["fast", "dlx-knuth", "sat"].map(|name| strategy::find(name).unwrap());
//! let limits = Limits::solutions(2).with_timeout(Duration::from_secs(1));
//! let plan = Plan::new(&engines, &limits);
//! let mut verdicts = Vec::new();
//! let ended = Runner::new(&plan).items(items, |checked| {
//!     assert!(checked.problems.is_empty(), "the engines agree");
//!     verdicts.push(checked.runs.iter().map(|run| run.verdict()).collect::<Vec<_>>());
//!     Ok::<(), ()>(())
//! })
//! .expect("a thread pool")
//! .expect("no error from the callback");
//! assert_eq!(ended.puzzles, 2);
//! assert_eq!(verdicts, [[Verdict::Unique; 3], [Verdict::Multiple; 3]]);
//! ```

mod check;
pub mod file;
pub mod generate;
mod input;
mod measure;
mod pipeline;
pub mod provenance;
mod run;
mod session;
mod side;
mod verify;
mod walk;

pub use check::{Checked, PuzzleRuns, check, check_puzzle};
pub use file::{Experiment, ExperimentError};
pub use input::{InputProblem, Items, Sides, attach, count_selected};
use measure::{Clock, measure_into};
pub use measure::{Scratch, measure, measure_all, timer_overhead};
pub use pipeline::{ReadNext, run_blocks};
pub use run::{Ended, PoolError, Runner};
pub use session::{Compared, Hooks, Puzzles, Session, SessionError, compare};
pub use side::{SideError, SideFile, SideKind};
pub use verify::{Verification, verify};
pub use walk::Input;

pub use crate::plan::{
    Entry, Item, MAX_JOBS, MAX_REPEATS, MAX_SHARDS, Order, Plan, Repeats, Selection, Shard,
    ShardError, parse_duration,
};

/// Whether the searches of `plan` are timed.
fn clock(plan: &Plan) -> Clock {
    if plan.untimed { Clock::Off } else { Clock::On }
}

#[cfg(test)]
mod tests;
