//! Search counters: a named set of numbers that can be summed across runs.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

/// One search counter. Engines report the counters they can observe; a counter an engine cannot
/// observe is absent, never zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counter {
    /// Search-tree nodes, the root included: calls of the recursive search.
    Nodes,
    /// Values written during search (givens excluded).
    Placements,
    /// Placements undone.
    Backtracks,
    /// Dancing-links updates: links removed while covering (Knuth's `updates`).
    Updates,
    /// Exact-cover items (columns) of the matrix.
    Items,
    /// Exact-cover options (rows) of the matrix.
    Options,
    /// Solutions an exact-cover engine enumerated.
    SolutionsEnumerated,
    /// SAT variables.
    Variables,
    /// SAT clauses.
    Clauses,
    /// SAT solver invocations.
    SolverCalls,
    /// Guesses: branches where propagation alone could not decide.
    Guesses,
    /// Rounds of constraint propagation.
    PropagationRounds,
    /// Runs abandoned at their node cutoff (`mrv` with a restart schedule, `--restarts`; absent
    /// without one, so not among any engine's declared counters). Nodes count every run.
    Restarts,
    /// Nanoseconds an outside solver says its own search took (`time_ns=` in its answer):
    /// beside the round trip sudolab times, the program's own share of it.
    TimeNs,
}

impl Counter {
    /// Every counter, in report order.
    pub const ALL: [Counter; 14] = [
        Counter::Nodes,
        Counter::Placements,
        Counter::Backtracks,
        Counter::Updates,
        Counter::Items,
        Counter::Options,
        Counter::SolutionsEnumerated,
        Counter::Variables,
        Counter::Clauses,
        Counter::SolverCalls,
        Counter::Guesses,
        Counter::PropagationRounds,
        Counter::Restarts,
        Counter::TimeNs,
    ];

    /// The counter's name in reports: `nodes`, `placements`, ...
    pub fn name(self) -> &'static str {
        match self {
            Counter::Nodes => "nodes",
            Counter::Placements => "placements",
            Counter::Backtracks => "backtracks",
            Counter::Updates => "updates",
            Counter::Items => "items",
            Counter::Options => "options",
            Counter::SolutionsEnumerated => "solutions_enumerated",
            Counter::Variables => "variables",
            Counter::Clauses => "clauses",
            Counter::SolverCalls => "solver_calls",
            Counter::Guesses => "guesses",
            Counter::PropagationRounds => "propagation_rounds",
            Counter::Restarts => "restarts",
            Counter::TimeNs => "time_ns",
        }
    }
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The counters one search (or many, summed) reported.
///
/// A fixed array indexed by counter, not a map: every search returns one, and building it must
/// not allocate (a map cost `fast` a tenth of its time on an easy 9x9 puzzle). The values and a
/// bit per counter present rather than an `Option` each: 112 bytes instead of 208, moved with
/// every run from the search to its report. In JSON it is a map from counter name to value, in
/// report order, as before.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "BTreeMap<Counter, u64>", into = "BTreeMap<Counter, u64>")]
pub struct Stats {
    /// Each counter's value; zero when absent.
    values: [u64; Counter::ALL.len()],
    /// Bit `counter as usize` for each counter present.
    present: u16,
}

const _: () = assert!(Counter::ALL.len() <= 16, "one bit of `present` per counter");

impl Stats {
    /// No counters.
    pub fn new() -> Stats {
        Stats::default()
    }

    /// Records a counter, replacing any earlier value.
    pub fn set(&mut self, counter: Counter, value: u64) {
        self.values[counter as usize] = value;
        self.present |= 1 << counter as usize;
    }

    /// A counter's value, `None` when the engine does not observe it.
    pub fn get(&self, counter: Counter) -> Option<u64> {
        (self.present & (1 << counter as usize) != 0).then(|| self.values[counter as usize])
    }

    /// The counters present, in report order.
    pub fn iter(&self) -> impl Iterator<Item = (Counter, u64)> + '_ {
        Counter::ALL
            .iter()
            .filter_map(|&counter| Some((counter, self.get(counter)?)))
    }

    /// Whether no counter is present.
    pub fn is_empty(&self) -> bool {
        self.present == 0
    }
}

impl fmt::Debug for Stats {
    /// As the array of options it was: `Stats([Some(3), None, ...])`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: [Option<u64>; Counter::ALL.len()] =
            Counter::ALL.map(|counter| self.get(counter));
        f.debug_tuple("Stats").field(&values).finish()
    }
}

impl From<BTreeMap<Counter, u64>> for Stats {
    fn from(map: BTreeMap<Counter, u64>) -> Stats {
        let mut stats = Stats::new();
        for (counter, value) in map {
            stats.set(counter, value);
        }
        stats
    }
}

impl From<Stats> for BTreeMap<Counter, u64> {
    fn from(stats: Stats) -> BTreeMap<Counter, u64> {
        stats.iter().collect()
    }
}

impl AddAssign<&Stats> for Stats {
    /// Sums counter by counter; a counter present on either side is present in the sum.
    fn add_assign(&mut self, other: &Stats) {
        for (counter, value) in other.iter() {
            let sum = self.get(counter).unwrap_or(0) + value;
            self.set(counter, sum);
        }
    }
}

impl fmt::Display for Stats {
    /// `nodes=53 placements=52 backtracks=0`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (idx, (counter, value)) in self.iter().enumerate() {
            if idx > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{counter}={value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_sit_at_their_report_position() {
        for (idx, &counter) in Counter::ALL.iter().enumerate() {
            assert_eq!(counter as usize, idx, "{counter}");
        }
        let mut stats = Stats::new();
        stats.set(Counter::PropagationRounds, 9);
        stats.set(Counter::Nodes, 4);
        let json = serde_json::to_string(&stats).unwrap();
        assert_eq!(json, r#"{"nodes":4,"propagation_rounds":9}"#);
        assert_eq!(serde_json::from_str::<Stats>(&json).unwrap(), stats);
    }

    #[test]
    fn sums_counter_by_counter() {
        let mut total = Stats::new();
        let mut one = Stats::new();
        one.set(Counter::Nodes, 3);
        one.set(Counter::Placements, 2);
        let mut two = Stats::new();
        two.set(Counter::Nodes, 4);
        two.set(Counter::Updates, 10);
        total += &one;
        total += &two;
        assert_eq!(total.to_string(), "nodes=7 placements=2 updates=10");
        assert_eq!(total.get(Counter::Backtracks), None);
        assert_eq!(
            serde_json::to_string(&total).unwrap(),
            r#"{"nodes":7,"placements":2,"updates":10}"#
        );
    }
}
