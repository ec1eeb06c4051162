//! Which clock a report's summaries (means, quantiles, ratios) are computed from. Every row
//! carries both times; the choice is only what the aggregates fold.

use serde::{Deserialize, Serialize};

use super::Row;

crate::model::choice::choice! {
    /// The clock of a report's summaries.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Clock ("clock", default Cpu) {
        /// The CPU time of the thread that ran each search: what the search cost, whatever
        /// else the machine was doing (a search with no CPU time, one that ran on a thread of
        /// its own, counts its wall time).
        Cpu = "cpu",
        /// Wall-clock time: includes the time a search waited for a core on a busy machine.
        Wall = "wall",
    }
}

impl Clock {
    /// A row's time by this clock, in nanoseconds: its CPU time, or its wall time where it has
    /// none (a search that ran on a thread of its own, a report older than CPU times).
    pub fn time_ns(self, row: &Row) -> u64 {
        match self {
            Clock::Cpu => row.cpu_ns.unwrap_or(row.time_ns),
            Clock::Wall => row.time_ns,
        }
    }

    /// The clock a report's summaries were made with: reports older than the field made them
    /// with the wall clock.
    pub fn of(recorded: Option<Clock>) -> Clock {
        recorded.unwrap_or(Clock::Wall)
    }

    /// The line that says which clock a summary table's times use.
    pub fn note(self) -> &'static str {
        match self {
            Clock::Cpu => {
                "times: thread CPU time of each search (--clock cpu; wall time where a search \
                 has none)"
            }
            Clock::Wall => "times: wall-clock time of each search (--clock wall)",
        }
    }
}
