//! Shards: one part of a corpus split into N, and the shard a job array's task runs (Slurm,
//! SGE, LSF, PBS and the like), read from its environment.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One part of a corpus split into `count` shards: the puzzles whose position modulo `count` is
/// `index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// One-based: 1 ..= count.
    pub index: u64,
    /// How many shards the corpus is split into.
    pub count: u64,
}

/// The most shards a run may be split into (and a report may claim to be one of): far more
/// than any cluster runs, and small enough that a merge can list the missing ones.
pub const MAX_SHARDS: u64 = 1_000_000;

/// A shard that is not `K/N` with `1 <= K <= N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// More shards than [`MAX_SHARDS`].
    #[error("{0} shards are more than the {MAX_SHARDS} a run may be split into")]
    TooMany(u64),
    /// Not of the form `K/N`.
    #[error("expected K/N with 1 <= K <= N, such as 2/4; found '{0}'")]
    Malformed(String),
    /// `--shard auto` outside a job array.
    #[error(
        "--shard auto found no job array: set SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT \
         (a Slurm array job), or give K/N"
    )]
    NoArray,
    /// `--shard auto/N` outside a job array or GNU parallel.
    #[error(
        "--shard auto/N found no task number: run it in a Slurm array job \
         (SLURM_ARRAY_TASK_ID) or under GNU parallel (PARALLEL_SEQ), or give K/N"
    )]
    NoTask,
    /// A job-array variable that is not a number.
    #[error("{name}='{value}' is not a task number")]
    BadVariable {
        /// The environment variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
}

impl Shard {
    /// Whether the puzzle at `ordinal` (0-based over the whole input) belongs to this shard.
    pub fn keeps(self, ordinal: u64) -> bool {
        ordinal % self.count == self.index - 1
    }

    /// The part `[start, end)` of `0..total` this shard takes when the work is a range of
    /// indices (the generator's puzzles): contiguous, sizes differing by at most one, and the
    /// shards `1..=N` together cover the range once.
    pub fn range(self, total: u64) -> std::ops::Range<u64> {
        let share = |k: u64| (u128::from(total) * u128::from(k) / u128::from(self.count)) as u64;
        share(self.index - 1)..share(self.index)
    }

    /// The shard of this task of a Slurm job array: task `SLURM_ARRAY_TASK_ID` (counted from
    /// `SLURM_ARRAY_TASK_MIN`, 1 by default) of `SLURM_ARRAY_TASK_COUNT`.
    pub fn from_job_array(var: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        let (Some(index), Some(count)) = (
            slurm_task(&var)?,
            task_number(&var, "SLURM_ARRAY_TASK_COUNT")?,
        ) else {
            return Err(ShardError::NoArray);
        };
        if count > MAX_SHARDS {
            return Err(ShardError::TooMany(count));
        }
        if count == 0 || index == 0 || index > count {
            return Err(ShardError::Malformed(format!(
                "{index}/{count} (from SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and \
                 SLURM_ARRAY_TASK_COUNT)"
            )));
        }
        Ok(Shard { index, count })
    }

    /// Shard `K` of `count`, `K` being this task's number: a Slurm array task's (counted from
    /// `SLURM_ARRAY_TASK_MIN`), or GNU parallel's job sequence number `PARALLEL_SEQ` (not its
    /// slot, `{%}`, which repeats when there are more jobs than slots).
    pub fn from_task(
        var: impl Fn(&str) -> Option<String>,
        count: u64,
        text: &str,
    ) -> Result<Shard, ShardError> {
        let index = if let Some(index) = slurm_task(&var)? {
            index
        } else if let Some(seq) = task_number(&var, "PARALLEL_SEQ")? {
            seq
        } else {
            return Err(ShardError::NoTask);
        };
        if index == 0 || index > count {
            return Err(ShardError::Malformed(format!(
                "{text} (task {index} of {count})"
            )));
        }
        Ok(Shard { index, count })
    }
}

/// This Slurm array task's one-based place in its array (`SLURM_ARRAY_TASK_ID` counted from
/// `SLURM_ARRAY_TASK_MIN`, 1 when unset), if it is one.
fn slurm_task(var: &impl Fn(&str) -> Option<String>) -> Result<Option<u64>, ShardError> {
    let Some(id) = task_number(var, "SLURM_ARRAY_TASK_ID")? else {
        return Ok(None);
    };
    let min = task_number(var, "SLURM_ARRAY_TASK_MIN")?.unwrap_or(1);
    Ok(Some(id.wrapping_sub(min).wrapping_add(1)))
}

/// A job-array variable as a number, if it is set.
fn task_number(
    var: &impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<u64>, ShardError> {
    var(name)
        .map(|value| {
            value.trim().parse().map_err(|_| ShardError::BadVariable {
                name,
                value: value.clone(),
            })
        })
        .transpose()
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `K/N`; `auto` for the task of a Slurm job array; `auto/N` for this task's shard of `N`
    /// (a Slurm array task or a GNU parallel job).
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let env = |name: &str| std::env::var(name).ok();
        if text.trim() == "auto" {
            return Shard::from_job_array(env);
        }
        let bad = || ShardError::Malformed(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count > MAX_SHARDS {
            return Err(ShardError::TooMany(count));
        }
        if k.trim() == "auto" && count > 0 {
            return Shard::from_task(env, count, text);
        }
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
