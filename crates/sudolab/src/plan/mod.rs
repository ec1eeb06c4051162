//! What an experiment runs, as plain data: the strategies with their limits, repeats, the order
//! of the searches, jobs, and which puzzles of the input (all, a sample or a shard). Built from
//! command-line options, an experiment file or code; [`crate::experiment`] runs it and
//! [`crate::report`] records it in a report's context.

mod duration;
mod shard;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use crate::model::Grid;
use crate::strategy::{Counter, Limits, Strategy};

pub use duration::parse_duration;
pub use shard::{MAX_SHARDS, Shard, ShardError};

/// The most jobs (worker threads) a plan may ask for: one thread per job, and thousands of
/// them only exhaust the machine.
pub const MAX_JOBS: usize = 1024;

/// The most timed (or warm-up) searches per puzzle and strategy.
pub const MAX_REPEATS: u32 = 10_000;

crate::model::choice::choice! {
    /// In which order the searches of a batch run.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Order ("order", default Engine) {
        /// Each strategy runs the whole batch back to back, then the next strategy (as tdoku's
        /// harness does): its code and tables stay in the caches and branch predictors between
        /// puzzles, so fast engines are timed as they run in a loop. The cross-check follows per
        /// batch.
        Engine = "engine",
        /// Every strategy on one puzzle, then the next puzzle: each engine starts cold, after the
        /// others have run.
        Puzzle = "puzzle",
    }
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

/// Which puzzles of the input a run takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// Every puzzle.
    #[default]
    All,
    /// A uniform random sample of `size` puzzles (reservoir sampling, drawn by `seed` from a
    /// ChaCha8 stream), run in input order.
    Sample {
        /// Puzzles in the sample.
        size: u64,
        /// Seed of the draw.
        seed: u64,
    },
    /// One shard.
    Shard(Shard),
}

impl Selection {
    /// Whether the puzzle at `ordinal` (its position in the whole input) is a candidate of the
    /// run: every puzzle, or the shard's. A sample is drawn from all puzzles as they are read
    /// (reservoir sampling), so every puzzle is a candidate of it. The one place the shard is
    /// decided.
    pub fn takes(self, ordinal: u64) -> bool {
        match self {
            Selection::Shard(shard) => shard.keeps(ordinal),
            Selection::All | Selection::Sample { .. } => true,
        }
    }
}

/// One strategy of a plan, with its own limits.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The engine.
    pub strategy: &'static dyn Strategy,
    /// What each of its searches may spend.
    pub limits: Limits,
}

/// What an experiment runs: plain data, built from command-line options, an experiment file or
/// code.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The strategies, in the order of the report.
    pub entries: Vec<Entry>,
    /// Untimed and timed searches per puzzle and strategy.
    pub repeats: Repeats,
    /// In which order a batch's searches run.
    pub order: Order,
    /// Puzzles searched in parallel (each search on one thread).
    pub jobs: usize,
    /// Which puzzles of the input run.
    pub selection: Selection,
    /// Set to stop the run (Ctrl-C): searches stop, and the run ends after the batch.
    pub cancel: Option<Arc<AtomicBool>>,
    /// No clock read around the searches, for callers that show no time (`count` and `solve`
    /// without `--stats`): every run's `best` and `median` are zero.
    pub untimed: bool,
}

impl Plan {
    /// Every strategy with the same limits, one timed search each, engine order, one job.
    pub fn new(strategies: &[&'static dyn Strategy], limits: &Limits) -> Plan {
        Plan {
            entries: strategies
                .iter()
                .map(|&strategy| Entry {
                    strategy,
                    limits: limits.clone(),
                })
                .collect(),
            repeats: Repeats::default(),
            order: Order::default(),
            jobs: 1,
            selection: Selection::All,
            cancel: None,
            untimed: false,
        }
    }

    /// Every counter the plan's strategies report, in counter order: the counter columns of
    /// its report files.
    pub fn counters(&self) -> Vec<Counter> {
        let mut counters: Vec<Counter> = self
            .entries
            .iter()
            .flat_map(|entry| entry.strategy.counters().iter().copied())
            .collect();
        counters.sort_unstable();
        counters.dedup();
        counters
    }

    /// The strategies' registry names, in order.
    pub fn names(&self) -> Vec<String> {
        self.entries
            .iter()
            .map(|entry| entry.strategy.name().to_string())
            .collect()
    }

    /// An entry's limits, with the plan's cancel flag.
    pub fn limits(&self, entry: &Entry) -> Limits {
        match &self.cancel {
            Some(flag) => entry.limits.clone().with_cancel(Arc::clone(flag)),
            None => entry.limits.clone(),
        }
    }

    /// Whether the run was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::SeqCst))
    }
}

/// One puzzle to run, with where it came from and what its source claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Position in the whole input (0-based, malformed records not counted); shards and
    /// samples keep these positions, so their reports merge.
    pub ordinal: u64,
    /// Where it came from: `FILE:LINE`.
    pub source: String,
    /// The puzzle.
    pub puzzle: Grid,
    /// A solution the source gives.
    pub solution: Option<Grid>,
    /// An exact solution count the source gives.
    pub count: Option<u64>,
}
