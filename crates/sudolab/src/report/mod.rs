//! The comparison report: one serializable model, and one pure renderer per format.
//!
//! A run produces [`Row`]s (one per puzzle and strategy) and [`PuzzleProblem`]s. Rows are
//! folded into an [`Aggregator`] as they come, so a run of a million puzzles keeps only
//! fixed-size histograms per strategy; the renderers that list rows ([`csv`], and the JSON
//! document written by [`json::JsonWriter`]) stream them. [`Report`] is what the other renderers
//! take: the context, the per-strategy [`Summary`], the problems and the rows kept in memory.
//!
//! Aggregates are always computed from rows, never averaged from other aggregates: merging the
//! JSON reports of several shards ([`merge`]) re-folds their rows, so it gives the same
//! aggregates as one run over the whole corpus.

#[cfg(feature = "arrow")]
pub mod arrow;
mod clock;
pub mod columns;
pub mod csv;
pub mod diff;
mod histogram;
pub mod html;
pub mod json;
pub mod markdown;
mod merge;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod plots;
mod sink;
pub mod stats;
pub mod table;
pub mod text;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::check::Problem;
use crate::plan::Order;
use crate::strategy::{Counter, Stats, Stop, Verdict, WorkUnit};

pub use clock::Clock;
pub use histogram::Histogram;
pub use merge::{MergeError, Merged, merge};
pub use sink::{
    Format, FormatError, Sink, SinkError, counter_union, remove_partial_files, render, render_bytes,
};

/// The format version written into JSON reports. Version 2 took the means and quantiles over
/// decided searches only, the ratio as a geometric mean over paired puzzles, and named the
/// work unit (`work_*` for `nodes_*`); [`json::read`] still reads version 1, whose rows merge
/// as before.
pub const FORMAT: &str = "sudolab-report/2";

/// The format version before [`FORMAT`], still read.
pub const FORMAT_1: &str = "sudolab-report/1";

/// At most this many points per strategy in the cactus plot.
pub const PLOT_POINTS: usize = 200;

/// At most this many points per strategy in the scatter plot against the baseline.
pub const SCATTER_POINTS: usize = 2000;

/// How many rows a report keeps in memory for the Markdown and HTML per-puzzle tables; CSV and
/// JSON stream every row.
pub const KEPT_ROWS: usize = 2000;

/// One strategy on one puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The puzzle's position in the input (0-based, over all files, malformed records skipped);
    /// shards keep the positions of the whole corpus, so merged reports line up.
    pub puzzle: u64,
    /// Where the puzzle came from: `FILE:LINE`.
    pub source: String,
    /// The side of the board (9 for 9x9).
    pub side: usize,
    /// Number of givens.
    pub clues: usize,
    /// The strategy's registry name.
    pub strategy: String,
    /// The uniqueness verdict (or none/multiple with a higher limit).
    pub verdict: Verdict,
    /// Solutions found.
    pub solutions: u64,
    /// Whether the whole search tree was explored (the count is exact).
    pub exhausted: bool,
    /// Why the search stopped early.
    pub stopped: Option<Stop>,
    /// Wall-clock time of the fastest repeat, in nanoseconds.
    pub time_ns: u64,
    /// Median wall-clock time over the repeats, in nanoseconds.
    pub median_ns: u64,
    /// Thread CPU time of the repeat that used least, in nanoseconds; `null` when the search
    /// ran on a thread of its own (`dlx` above 9x9 and on variants) or the clock could not be
    /// read, and in reports older than the field.
    #[serde(default)]
    pub cpu_ns: Option<u64>,
    /// The engine's counters.
    pub counters: Stats,
}

/// A problem found on one puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleProblem {
    /// The puzzle's position in the input.
    pub puzzle: u64,
    /// Where the puzzle came from: `FILE:LINE`.
    pub source: String,
    /// The puzzle, in line form when it fits.
    pub grid: String,
    /// What went wrong.
    #[serde(flatten)]
    pub problem: Problem,
}

/// Everything about how a report was made. Fields added since the first format default when
/// an older report is read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Context {
    /// The sudolab version.
    pub version: String,
    /// The git commit sudolab was built from, when known.
    pub commit: Option<String>,
    /// Whether the source tree differed from `commit` when sudolab was built (`null` where the
    /// build had no git).
    pub dirty: Option<bool>,
    /// When `dirty`, a hash of the differing files (`sha256:` and 64 hex digits).
    pub diff_hash: Option<String>,
    /// The compiler sudolab was built with, when known.
    pub rustc: Option<String>,
    /// How sudolab was compiled (`null` in reports older than the field).
    pub build: Option<Build>,
    /// The processor, as the operating system names it.
    pub cpu: String,
    /// The machine the run used (`null` in reports older than the field).
    pub machine: Option<Machine>,
    /// Set when the machine's load left fewer cores free than the run's jobs, at its start or
    /// its end: times then compare only as ratios within the run. A merge keeps every
    /// shard's, each after its file's name.
    pub load_warning: Option<String>,
    /// The operating system.
    pub os: String,
    /// When the run started (RFC 3339, UTC).
    pub date: String,
    /// The command line.
    pub command: String,
    /// The input files.
    pub inputs: Vec<String>,
    /// The SHA-256 of each input's bytes, in the order of `inputs` (`sha256:` and 64 hex
    /// digits; `null` for standard input and what is not a regular file): what identifies an
    /// input when shards merge, whatever path named it.
    pub input_hashes: Vec<Option<String>>,
    /// The side files of known answers (counts, solutions), each with its SHA-256.
    pub side_files: Vec<SideFileHash>,
    /// The solution limit (0 = count all).
    pub limit: u64,
    /// Node budget per search.
    pub max_nodes: Option<u64>,
    /// Work budget per search, each strategy's in its own unit (`budget_units`); a search it
    /// stops has `stopped` `budget`.
    pub budget: Option<u64>,
    /// The unit of each strategy's work budget, by strategy name (`none`: the engine has no
    /// work budget, only the timeout stops it).
    pub budget_units: BTreeMap<String, WorkUnit>,
    /// Time budget per search, in milliseconds: the wall-clock safety net beside a work
    /// budget (a search it stops has `stopped` `deadline`).
    pub timeout_ms: Option<u64>,
    /// Strategies whose limits differ from the ones above (experiment files can set them).
    pub overrides: Vec<StrategyLimits>,
    /// Timed repeats per search; the best and median times are reported.
    pub repeat: u32,
    /// Untimed warm-up searches before the timed ones.
    pub warmup: u32,
    /// In which order the searches ran (absent in reports older than the field).
    pub order: Option<Order>,
    /// What the clock measured.
    pub timer: String,
    /// Puzzles solved in parallel.
    pub jobs: usize,
    /// The sample size and seed, when a sample was drawn.
    pub sample: Option<(u64, u64)>,
    /// This run's shard, `K/N`, when the corpus was split.
    pub shard: Option<String>,
    /// The strategy the speed ratios are relative to: the one asked for, else `fast` when it
    /// ran, else the first strategy.
    pub baseline: Option<String>,
    /// The seed of the ratios' bootstrap intervals (the same seed and times give the same
    /// intervals; `null` in reports older than the field).
    pub bootstrap_seed: Option<u64>,
    /// The resamples of each bootstrap interval.
    pub bootstrap_resamples: Option<u32>,
    /// The clock of the summaries' times and ratios ([`Clock::of`]: reports older than the
    /// field made them with the wall clock).
    pub clock: Option<Clock>,
    /// Reports merged into this one, when it is a merge.
    pub merged_from: Vec<String>,
    /// The processor of each merged report, in the order of `merged_from`.
    pub merged_cpus: Vec<String>,
    /// Shards missing from a merge made with `--allow-partial`.
    pub missing_shards: Vec<u64>,
}

/// How sudolab was compiled, as the build recorded it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Build {
    /// Cargo's profile: `debug` or `release` (`bench` builds as `release`).
    pub profile: String,
    /// The optimisation level (`0`-`3`, `s`, `z`).
    pub opt_level: String,
    /// The library's enabled Cargo features.
    pub features: Vec<String>,
    /// The target triple.
    pub target: String,
    /// The `-C target-cpu` the build was given, if any.
    pub target_cpu: Option<String>,
    /// Which of the CPU features that the engines' bit operations use were enabled at
    /// compile time (of `sse4.2`, `popcnt`, `bmi2`, `avx2`, `avx512f`).
    pub target_features: Vec<String>,
}

/// The machine a run used. Each field is `null` where the operating system does not tell.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Machine {
    /// The processor's model name (`/proc/cpuinfo`).
    pub cpu_model: Option<String>,
    /// The processor's flags (`/proc/cpuinfo`: `flags`, or `Features` on ARM).
    pub cpu_flags: Option<Vec<String>>,
    /// Logical cores this process may use (`std::thread::available_parallelism`).
    pub cores: Option<u64>,
    /// Total memory in bytes (`/proc/meminfo`).
    pub memory_bytes: Option<u64>,
    /// The load average when the run started (`/proc/loadavg`).
    pub load_start: Option<LoadAverage>,
    /// The load average when the run ended.
    pub load_end: Option<LoadAverage>,
}

/// A load average: runnable and waiting tasks, averaged over 1, 5 and 15 minutes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadAverage {
    /// Over the last minute.
    #[serde(rename = "1m")]
    pub one: f64,
    /// Over the last 5 minutes.
    #[serde(rename = "5m")]
    pub five: f64,
    /// Over the last 15 minutes.
    #[serde(rename = "15m")]
    pub fifteen: f64,
}

/// A side file of known answers and the SHA-256 of its bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SideFileHash {
    /// The file, as it was named.
    pub path: String,
    /// What it gives: `counts` or `solutions`.
    pub kind: String,
    /// `sha256:` and 64 hex digits, read again when the run starts (`null` when it could not
    /// be).
    pub sha256: Option<String>,
}

/// The limits of one strategy, when they differ from the run's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrategyLimits {
    /// The strategy's registry name.
    pub strategy: String,
    /// Its solution limit (0 = count all).
    pub limit: u64,
    /// Its node budget per search.
    pub max_nodes: Option<u64>,
    /// Its work budget per search, in its unit (`Context::budget_units`).
    pub budget: Option<u64>,
    /// Its time budget per search, in milliseconds.
    pub timeout_ms: Option<u64>,
}

/// Per-strategy aggregates over all puzzles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The strategy's registry name.
    pub strategy: String,
    /// Puzzles run.
    pub runs: u64,
    /// Puzzles with at least one solution found, whatever the verdict. Reports older than this
    /// field wrote this number as `solved`; [`json::read`] moves it here (`None` only before).
    #[serde(default)]
    pub found_any: Option<u64>,
    /// Verdict tallies.
    pub unique: u64,
    /// See `unique`.
    pub multiple: u64,
    /// See `unique`.
    pub none: u64,
    /// Searches that found a solution and stopped there, at a solution limit of one (the
    /// verdict `solved`: uniqueness not asked).
    pub solved: u64,
    /// Searches that stopped before a verdict (budget, timeout, unsupported shape).
    pub unknown: u64,
    /// `unknown` by reason (absent from reports older than the field; [`json::read`] counts
    /// it from their rows when they hold every row).
    #[serde(default)]
    pub unknown_reasons: UnknownReasons,
    /// Searches that answered the question asked within their budget: `unique`, `multiple`,
    /// `none` and `solved` (absent from reports older than the field).
    #[serde(default)]
    pub decided: u64,
    /// Total time of every search, decided or not, nanoseconds.
    pub total_ns: u64,
    /// Mean time of the decided searches, microseconds (0 when none was decided).
    pub mean_us: f64,
    /// Median time of the decided searches, microseconds.
    pub median_us: f64,
    /// 90th percentile of the decided searches' times (linear interpolation between closest
    /// ranks), microseconds.
    pub p90_us: f64,
    /// Slowest search, decided or not, microseconds.
    pub max_us: f64,
    /// PAR-2: the mean time over every search, an undecided one counted as twice
    /// `par2_limit_us`, microseconds.
    #[serde(default)]
    pub par2_us: f64,
    /// The time limit PAR-2 doubles, microseconds: the strategy's timeout, or with none the
    /// slowest search of the whole run (`par2_limit_from` says which).
    #[serde(default)]
    pub par2_limit_us: f64,
    /// Where `par2_limit_us` came from: `timeout` or `slowest_search`.
    #[serde(default)]
    pub par2_limit_from: String,
    /// What the work figures count: the engine's counter of search work (`updates` for
    /// `dlx-knuth`, `nodes` for the backtrackers and `fast`); `None` for an engine that counts
    /// none (its matrix or formula sizes are in the rows, not work).
    #[serde(default)]
    pub work_unit: Option<String>,
    /// Total work, in `work_unit`, over the searches that counted it.
    #[serde(default)]
    pub work_total: Option<u64>,
    /// Mean work per search, in `work_unit`.
    #[serde(default)]
    pub work_mean: Option<f64>,
    /// Median work per search, in `work_unit`.
    #[serde(default)]
    pub work_median: Option<u64>,
    /// Most work on one search, in `work_unit`.
    #[serde(default)]
    pub work_max: Option<u64>,
    /// The geometric mean over the puzzles both this strategy and the baseline decided of
    /// this strategy's time divided by the baseline's (2.0 = twice as slow); 1 for the
    /// baseline itself, `None` when no puzzle was decided by both.
    pub ratio: Option<f64>,
    /// The lower end of the ratio's 95% bootstrap interval (seeded: the context's
    /// `bootstrap_seed`).
    #[serde(default)]
    pub ratio_low: Option<f64>,
    /// The upper end of the ratio's 95% bootstrap interval.
    #[serde(default)]
    pub ratio_high: Option<f64>,
    /// Puzzles both this strategy and the baseline decided: the pairs of the ratio and the
    /// test.
    #[serde(default)]
    pub ratio_pairs: u64,
    /// The two-sided p-value of the Wilcoxon signed-rank test of the paired times against the
    /// baseline's (normal approximation); `None` for the baseline and without a nonzero
    /// difference.
    #[serde(default)]
    pub wilcoxon_p: Option<f64>,
    /// Time distribution: (fraction of puzzles, microseconds) points for a cumulative chart.
    pub time_cdf: Vec<(f64, f64)>,
    /// The cactus plot's points: (decided searches, microseconds), the k-th fastest decided
    /// search's time for up to [`PLOT_POINTS`] values of k, the last one included.
    #[serde(default)]
    pub cactus: Vec<(u64, f64)>,
    /// The scatter plot's points against the baseline, one per puzzle both ran, up to
    /// [`SCATTER_POINTS`] taken evenly in input order: (baseline's microseconds, this
    /// strategy's microseconds), an undecided search drawn at its PAR-2 limit.
    #[serde(default)]
    pub scatter: Vec<(f64, f64)>,
    /// Mean work per board side and clue count: (side, clues, puzzles, mean work in
    /// `work_unit`).
    #[serde(default)]
    pub work_by_clues: Vec<(usize, usize, u64, f64)>,
    /// The same strategy per board size, smallest first: times and nodes of a 4x4 and a 25x25
    /// puzzle do not belong in one distribution (absent from reports older than the field).
    #[serde(default)]
    pub by_side: Vec<SideSummary>,
}

/// One board size's part of a strategy's aggregates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// The side of the boards (9 for 9x9).
    pub side: usize,
    /// Puzzles of this size run.
    pub runs: u64,
    /// Median time, microseconds.
    pub median_us: f64,
    /// Mean work per puzzle, in the summary's `work_unit`, when the engine counts work.
    #[serde(default)]
    pub work_mean: Option<f64>,
    /// Time distribution: (fraction of puzzles, microseconds), as [`Summary::time_cdf`].
    pub time_cdf: Vec<(f64, f64)>,
}

/// Why searches ended `unknown`, one count per reason; a summary's `unknown` is their sum.
/// A refusal (`unsupported`) and a timeout are different facts about an engine, and a
/// table that adds them up hides which one it was: each reason keeps its own count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UnknownReasons {
    /// Stopped by the work budget (`--budget`, in the engine's unit; `budget`): the same
    /// searches on any machine at any load.
    pub budget: u64,
    /// Stopped by the time budget (`--timeout`; the rows' `stopped` is `deadline`).
    pub timed_out: u64,
    /// Stopped by the node budget (`--max-nodes`; `node_limit`).
    pub node_budget: u64,
    /// Refused: the engine does not take puzzles of this shape (`unsupported`).
    pub unsupported: u64,
    /// Not started: too many earlier searches of an uninterruptible engine were abandoned at
    /// their deadline and still run (`backlog`).
    pub not_started: u64,
    /// The engine itself failed (`engine_failure`).
    pub engine_failed: u64,
    /// Cancelled (Ctrl-C; an interrupted run leaves such puzzles out, so only a hand-made
    /// report has any).
    pub cancelled: u64,
}

impl UnknownReasons {
    /// Counts one `unknown` search that stopped for `stopped` (a search that was not stopped
    /// is not unknown, and is not counted).
    pub fn add(&mut self, stopped: Option<Stop>) {
        let slot = match stopped {
            Some(Stop::Budget) => &mut self.budget,
            Some(Stop::Deadline) => &mut self.timed_out,
            Some(Stop::NodeLimit) => &mut self.node_budget,
            Some(Stop::Unsupported) => &mut self.unsupported,
            Some(Stop::Backlog) => &mut self.not_started,
            Some(Stop::EngineFailure) => &mut self.engine_failed,
            Some(Stop::Cancelled) => &mut self.cancelled,
            Some(Stop::SolutionLimit) | None => return,
        };
        *slot += 1;
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &UnknownReasons) {
        self.budget += other.budget;
        self.timed_out += other.timed_out;
        self.node_budget += other.node_budget;
        self.unsupported += other.unsupported;
        self.not_started += other.not_started;
        self.engine_failed += other.engine_failed;
        self.cancelled += other.cancelled;
    }

    /// The name of the reason a search stopped for (`timed_out`), as [`UnknownReasons::named`]
    /// gives it; `None` for a search that was not stopped or reached its solution limit.
    pub fn reason(stopped: Option<Stop>) -> Option<&'static str> {
        let mut one = UnknownReasons::default();
        one.add(stopped);
        one.named()
            .into_iter()
            .find(|(_, count)| *count > 0)
            .map(|(name, _)| name)
    }

    /// Every reason with its name (as JSON writes it) and count, in table order.
    pub fn named(&self) -> [(&'static str, u64); 7] {
        [
            ("budget", self.budget),
            ("timed_out", self.timed_out),
            ("node_budget", self.node_budget),
            ("unsupported", self.unsupported),
            ("not_started", self.not_started),
            ("engine_failed", self.engine_failed),
            ("cancelled", self.cancelled),
        ]
    }

    /// All the reasons' counts together.
    pub fn total(&self) -> u64 {
        self.named().iter().map(|(_, count)| count).sum()
    }
}

/// A report: what the renderers draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The format version, [`FORMAT`].
    pub format: String,
    /// How the report was made.
    pub context: Context,
    /// The strategies compared, in the order they ran.
    pub strategies: Vec<String>,
    /// Puzzles compared.
    pub puzzles: u64,
    /// Malformed records and unreadable files met on the way.
    pub input_errors: Vec<String>,
    /// Disagreements and invalid answers.
    pub problems: Vec<PuzzleProblem>,
    /// Per-strategy aggregates.
    pub summary: Vec<Summary>,
    /// False when the run was interrupted: the report covers the puzzles done.
    pub complete: bool,
    /// The rows (in a JSON report, every row; in memory, at most [`KEPT_ROWS`]).
    pub rows: Vec<Row>,
}

impl Report {
    /// How many rows the run made: a row per search of each strategy (an interrupted run's
    /// strategies may have searched different numbers of puzzles), or, in a report without
    /// summaries, one per puzzle and strategy.
    fn run_rows(&self) -> u64 {
        // Saturating: a hostile report's counts must not wrap into "complete".
        if self.summary.is_empty() {
            return self.puzzles.saturating_mul(self.strategies.len() as u64);
        }
        self.summary
            .iter()
            .fold(0u64, |rows, summary| rows.saturating_add(summary.runs))
    }

    /// Whether the rows listed are all the rows of the run.
    pub fn rows_truncated(&self) -> bool {
        (self.rows.len() as u64) < self.run_rows()
    }

    /// The rows the Markdown and HTML per-puzzle tables list: the first [`KEPT_ROWS`], however
    /// many the report holds (a JSON report read back, or a merge, holds every row; a page of a
    /// million rows is unusable).
    pub fn listed_rows(&self) -> &[Row] {
        &self.rows[..self.rows.len().min(KEPT_ROWS)]
    }

    /// How many rows of the run the per-puzzle tables leave out: the rows beyond
    /// [`Report::listed_rows`], counting those a report kept in memory never held.
    pub fn rows_left_out(&self) -> u64 {
        let total = self.run_rows().max(self.rows.len() as u64);
        total - self.listed_rows().len() as u64
    }

    /// Why the report is incomplete, in words (`None` when it is complete): every form says
    /// it, the streamed ones (CSV, JSON lines) in a last line of their own.
    pub fn incomplete_reason(&self) -> Option<String> {
        if self.complete {
            return None;
        }
        let c = &self.context;
        Some(if !c.missing_shards.is_empty() {
            let missing: Vec<String> = c.missing_shards.iter().map(u64::to_string).collect();
            format!(
                "shards {} of {} are missing from this merge",
                missing.join(", "),
                c.merged_from.len() + c.missing_shards.len()
            )
        } else if !c.merged_from.is_empty() {
            "a merged shard was interrupted; each shard covers the searches that ended before it \
             stopped"
                .to_string()
        } else if self
            .summary
            .iter()
            .all(|summary| summary.runs == self.puzzles)
        {
            format!(
                "the run was interrupted; this covers the {} puzzles whose searches ended before \
                 it stopped",
                self.puzzles
            )
        } else {
            let searched: Vec<String> = self
                .summary
                .iter()
                .map(|summary| format!("{} {}", summary.strategy, summary.runs))
                .collect();
            format!(
                "the run was interrupted; this covers the searches that ended before it stopped, \
                 on {} puzzles (puzzles searched: {}; the rows say which)",
                self.puzzles,
                searched.join(", ")
            )
        })
    }

    /// The sentence above a capped per-puzzle table, or `None` when it lists every row.
    pub fn rows_note(&self) -> Option<String> {
        let left_out = self.rows_left_out();
        (left_out > 0).then(|| {
            let listed = self.listed_rows().len() as u64;
            format!(
                "The first {listed} of {} rows; {left_out} rows are left out here. The CSV and \
                 JSON reports list every row.",
                listed + left_out
            )
        })
    }
}

/// Folds rows into per-strategy aggregates: fixed-size histograms and counts, and each
/// search's time and whether it was decided (24 bytes a search), which the paired statistics
/// against the baseline need.
#[derive(Clone, Debug)]
pub struct Aggregator {
    strategies: Vec<String>,
    baseline: Option<String>,
    clock: Clock,
    per_strategy: Vec<Tally>,
    kept: Vec<Row>,
}

/// The counters that measure an engine's search work, in order of preference: a row's work
/// is the first of these it reports (`dlx-knuth` reports nodes too, but its unit of work is
/// Knuth's updates). Engines that report none (`dlx`, the sat family) have no work figures.
const WORK_COUNTERS: [Counter; 2] = [Counter::Updates, Counter::Nodes];

/// A row's work: its unit and amount.
fn work_of(row: &Row) -> Option<(Counter, u64)> {
    WORK_COUNTERS
        .iter()
        .find_map(|counter| Some((*counter, row.counters.get(*counter)?)))
}

/// One search as the paired statistics need it.
#[derive(Clone, Copy, Debug)]
struct Search {
    puzzle: u64,
    time_ns: u64,
    decided: bool,
}

#[derive(Clone, Debug, Default)]
struct Tally {
    runs: u64,
    found_any: u64,
    unique: u64,
    multiple: u64,
    none: u64,
    solved: u64,
    unknown: u64,
    unknown_reasons: UnknownReasons,
    total_ns: u64,
    times: Histogram,
    searches: Vec<Search>,
    /// Total work and its distribution, per unit (one unit per engine; kept apart so that no
    /// figure ever adds two units).
    work: BTreeMap<Counter, (u64, Histogram)>,
    by_clues: BTreeMap<(Counter, usize, usize), (u64, u64)>,
    by_side: BTreeMap<usize, SideTally>,
}

impl Tally {
    /// Adds another tally of the same strategy ([`Aggregator::merge`]).
    fn merge(&mut self, other: &Tally) {
        self.runs += other.runs;
        self.found_any += other.found_any;
        self.unique += other.unique;
        self.multiple += other.multiple;
        self.none += other.none;
        self.solved += other.solved;
        self.unknown += other.unknown;
        self.unknown_reasons.merge(&other.unknown_reasons);
        self.total_ns = self.total_ns.saturating_add(other.total_ns);
        self.times.merge(&other.times);
        self.searches.extend_from_slice(&other.searches);
        for (unit, (total, histogram)) in &other.work {
            let (ours, our_histogram) = self.work.entry(*unit).or_default();
            *ours = ours.saturating_add(*total);
            our_histogram.merge(histogram);
        }
        for (key, (count, work)) in &other.by_clues {
            let entry = self.by_clues.entry(*key).or_default();
            entry.0 += count;
            entry.1 = entry.1.saturating_add(*work);
        }
        for (side, theirs) in &other.by_side {
            let ours = self.by_side.entry(*side).or_default();
            ours.runs += theirs.runs;
            ours.times.merge(&theirs.times);
            for (unit, (total, count)) in &theirs.work {
                let (our_total, our_count) = ours.work.entry(*unit).or_default();
                *our_total = our_total.saturating_add(*total);
                *our_count += count;
            }
        }
    }

    /// The unit of the strategy's work figures: the most preferred counter any of its rows
    /// reported.
    fn work_unit(&self) -> Option<Counter> {
        WORK_COUNTERS
            .iter()
            .copied()
            .find(|unit| self.work.contains_key(unit))
    }
}

/// A strategy's tallies on one board size: at most 64 sizes, so memory stays fixed.
#[derive(Clone, Debug, Default)]
struct SideTally {
    runs: u64,
    times: Histogram,
    /// Total work and the searches that counted it, per unit.
    work: BTreeMap<Counter, (u64, u64)>,
}

/// What the summaries need from the context: each strategy's time limit for PAR-2 and the
/// bootstrap's seed and resamples.
struct Settings {
    limits_ns: Vec<Option<u64>>,
    seed: u64,
    resamples: u32,
}

impl Settings {
    fn of(context: &Context, strategies: &[String]) -> Settings {
        let limits_ns = strategies
            .iter()
            .map(|name| {
                let own = context.overrides.iter().find(|o| o.strategy == *name);
                let timeout_ms = match own {
                    Some(own) => own.timeout_ms,
                    None => context.timeout_ms,
                };
                timeout_ms.map(|ms| ms.saturating_mul(1_000_000))
            })
            .collect();
        Settings {
            limits_ns,
            seed: context.bootstrap_seed.unwrap_or(stats::DEFAULT_SEED),
            resamples: context
                .bootstrap_resamples
                .unwrap_or(stats::BOOTSTRAP_RESAMPLES),
        }
    }
}

impl Aggregator {
    /// An empty aggregator for these strategies; ratios are relative to `baseline`, or with
    /// none to `fast` when it is among them, else to the first.
    pub fn new(strategies: Vec<String>, baseline: Option<String>) -> Aggregator {
        let per_strategy = vec![Tally::default(); strategies.len()];
        Aggregator {
            strategies,
            baseline,
            clock: Clock::default(),
            per_strategy,
            kept: Vec::new(),
        }
    }

    /// The same aggregator, its times and ratios by `clock` (the CPU clock by default).
    #[must_use]
    pub fn with_clock(self, clock: Clock) -> Aggregator {
        Aggregator { clock, ..self }
    }

    /// The strategy the ratios are relative to: the one asked for when it is among the
    /// strategies, else `fast` when it is, else the first. `None` only without strategies.
    pub fn baseline(&self) -> Option<&str> {
        let among = |name: &str| self.strategies.iter().any(|s| s == name);
        self.baseline
            .as_deref()
            .filter(|name| among(name))
            .or_else(|| among("fast").then_some("fast"))
            .or_else(|| self.strategies.first().map(String::as_str))
    }

    /// Adds one row. Rows of strategies not in the list are an error of the caller and are
    /// ignored.
    pub fn add(&mut self, row: Row) {
        if self.tally(&row) {
            self.keep(row);
        }
    }

    /// Folds one row into the tallies without keeping it for the per-puzzle table, as a
    /// worker's own aggregator does (its tallies are [`merge`](Aggregator::merge)d, the rows
    /// kept in input order elsewhere). `false` for a row of a strategy not in the list.
    pub fn tally(&mut self, row: &Row) -> bool {
        let Some(index) = self.strategies.iter().position(|s| *s == row.strategy) else {
            return false;
        };
        let tally = &mut self.per_strategy[index];
        tally.runs += 1;
        if row.solutions > 0 {
            tally.found_any += 1;
        }
        match row.verdict {
            Verdict::Unique => tally.unique += 1,
            Verdict::Multiple => tally.multiple += 1,
            Verdict::None => tally.none += 1,
            Verdict::Solved => tally.solved += 1,
            Verdict::Unknown => {
                tally.unknown += 1;
                tally.unknown_reasons.add(row.stopped);
            }
        }
        // Sums saturate: a report's times and counters are input, may be absurd, and must
        // not wrap.
        let time_ns = self.clock.time_ns(row);
        tally.total_ns = tally.total_ns.saturating_add(time_ns);
        tally.times.record(time_ns);
        tally.searches.push(Search {
            puzzle: row.puzzle,
            time_ns,
            decided: row.verdict != Verdict::Unknown,
        });
        let side = tally.by_side.entry(row.side).or_default();
        side.runs += 1;
        side.times.record(time_ns);
        if let Some((unit, work)) = work_of(row) {
            let (total, count) = side.work.entry(unit).or_default();
            *total = total.saturating_add(work);
            *count += 1;
            let (total, histogram) = tally.work.entry(unit).or_default();
            *total = total.saturating_add(work);
            histogram.record(work);
            let entry = tally
                .by_clues
                .entry((unit, row.side, row.clues))
                .or_default();
            entry.0 += 1;
            entry.1 = entry.1.saturating_add(work);
        }
        true
    }

    /// Keeps a row for the per-puzzle table, while fewer than [`KEPT_ROWS`] are kept.
    pub fn keep(&mut self, row: Row) {
        if self.wants_rows() {
            self.kept.push(row);
        }
    }

    /// Whether [`keep`](Aggregator::keep) would still keep a row.
    pub fn wants_rows(&self) -> bool {
        self.kept.len() < KEPT_ROWS
    }

    /// Adds the tallies of `other`, an aggregator of the same strategies that saw other rows
    /// (a worker's, or another shard's): counts and totals add, histograms add bucket by
    /// bucket, searches join, so the result is what one aggregator given every row would
    /// hold, in any order. `other`'s kept rows follow this one's, up to [`KEPT_ROWS`].
    pub fn merge(&mut self, other: &Aggregator) {
        for (tally, theirs) in self.per_strategy.iter_mut().zip(&other.per_strategy) {
            tally.merge(theirs);
        }
        for row in &other.kept {
            self.keep(row.clone());
        }
    }

    /// The per-strategy aggregates so far, with no time limit (PAR-2 doubles the slowest
    /// search) and the default bootstrap seed.
    pub fn summary(&self) -> Vec<Summary> {
        self.summaries(&Settings::of(&Context::default(), &self.strategies))
    }

    // One `Summary` literal of thirty fields, each a line or two: splitting it would scatter
    // the fields of one struct over several functions.
    #[allow(clippy::too_many_lines)]
    fn summaries(&self, settings: &Settings) -> Vec<Summary> {
        let micros = |ns: f64| ns / 1e3;
        // Each strategy's searches in puzzle order: the order rows came in does not matter.
        let searches: Vec<Vec<Search>> = self
            .per_strategy
            .iter()
            .map(|tally| {
                let mut searches = tally.searches.clone();
                searches.sort_by_key(|search| search.puzzle);
                searches
            })
            .collect();
        let slowest_ns = self
            .per_strategy
            .iter()
            .map(|tally| tally.times.max())
            .max()
            .unwrap_or(0);
        let limit_of = |index: usize| match settings.limits_ns.get(index).copied().flatten() {
            Some(limit) => (limit, "timeout"),
            None => (slowest_ns, "slowest_search"),
        };
        let baseline = self
            .baseline()
            .and_then(|name| self.strategies.iter().position(|s| s == name));
        self.strategies
            .iter()
            .zip(&self.per_strategy)
            .enumerate()
            .map(|(index, (strategy, tally))| {
                let mut decided: Vec<f64> = searches[index]
                    .iter()
                    .filter(|search| search.decided)
                    .map(|search| search.time_ns as f64)
                    .collect();
                decided.sort_by(f64::total_cmp);
                let (limit_ns, limit_from) = limit_of(index);
                let par2_total: f64 = searches[index]
                    .iter()
                    .map(|search| {
                        if search.decided {
                            search.time_ns as f64
                        } else {
                            2.0 * limit_ns as f64
                        }
                    })
                    .sum();
                let paired = baseline.map(|base| {
                    pairs(
                        &searches[index],
                        &searches[base],
                        limit_of(index).0,
                        limit_of(base).0,
                    )
                });
                let decided_pairs: Vec<(u64, u64)> = paired
                    .iter()
                    .flatten()
                    .filter(|pair| pair.both_decided)
                    .map(|pair| (pair.time_ns, pair.baseline_ns))
                    .collect();
                let logs = stats::log_ratios(&decided_pairs);
                let is_baseline = baseline == Some(index);
                let interval = if is_baseline {
                    None
                } else {
                    stats::bootstrap_interval(
                        &logs,
                        settings.seed,
                        index as u64,
                        settings.resamples,
                    )
                };
                let unit = tally.work_unit();
                let work = unit.and_then(|unit| tally.work.get(&unit));
                Summary {
                    strategy: strategy.clone(),
                    runs: tally.runs,
                    found_any: Some(tally.found_any),
                    unique: tally.unique,
                    multiple: tally.multiple,
                    none: tally.none,
                    solved: tally.solved,
                    unknown: tally.unknown,
                    unknown_reasons: tally.unknown_reasons,
                    decided: decided.len() as u64,
                    total_ns: tally.total_ns,
                    // One division, not a mean then a change of unit: whole nanoseconds over a count
                    // give `1.001`, never `1.0010000000000001`.
                    mean_us: decided.iter().sum::<f64>() / (decided.len().max(1) as f64 * 1e3),
                    median_us: micros(stats::quantile(&decided, 0.5).unwrap_or(0.0)),
                    p90_us: micros(stats::quantile(&decided, 0.9).unwrap_or(0.0)),
                    max_us: micros(tally.times.max() as f64),
                    par2_us: par2_total / (tally.runs.max(1) as f64 * 1e3),
                    par2_limit_us: micros(limit_ns as f64),
                    par2_limit_from: limit_from.to_string(),
                    work_unit: unit.map(|unit| unit.name().to_string()),
                    work_total: work.map(|(total, _)| *total),
                    work_mean: work.map(|(total, h)| *total as f64 / h.len().max(1) as f64),
                    work_median: work.map(|(_, h)| h.quantile(0.5)),
                    work_max: work.map(|(_, h)| h.max()),
                    ratio: if is_baseline {
                        Some(1.0)
                    } else {
                        stats::geometric_mean(&logs)
                    },
                    ratio_low: interval.map(|(low, _)| low),
                    ratio_high: interval.map(|(_, high)| high),
                    ratio_pairs: decided_pairs.len() as u64,
                    wilcoxon_p: if is_baseline {
                        None
                    } else {
                        stats::wilcoxon_p(&decided_pairs)
                    },
                    time_cdf: cdf_us(&tally.times),
                    cactus: spread(decided.len(), PLOT_POINTS)
                        .map(|k| ((k + 1) as u64, micros(decided[k])))
                        .collect(),
                    scatter: paired
                        .filter(|_| !is_baseline)
                        .map(|paired| {
                            spread(paired.len(), SCATTER_POINTS)
                                .map(|i| {
                                    let pair = &paired[i];
                                    (micros(pair.baseline_plot), micros(pair.time_plot))
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                    work_by_clues: tally
                        .by_clues
                        .iter()
                        .filter(|((of, _, _), _)| Some(*of) == unit)
                        .map(|((_, side, clues), (count, work))| {
                            (*side, *clues, *count, *work as f64 / *count as f64)
                        })
                        .collect(),
                    by_side: side_summaries(tally, unit),
                }
            })
            .collect()
    }

    /// Puzzles seen so far: every puzzle gets one row per strategy.
    pub fn puzzles(&self) -> u64 {
        self.per_strategy
            .iter()
            .map(|tally| tally.runs)
            .max()
            .unwrap_or(0)
    }

    /// The report so far, with the rows kept in memory; the summaries take their time limits
    /// and bootstrap seed from `context`, which records the clock, the baseline and the seed
    /// they used.
    pub fn report(
        &self,
        mut context: Context,
        input_errors: Vec<String>,
        problems: Vec<PuzzleProblem>,
        complete: bool,
    ) -> Report {
        context.clock = Some(self.clock);
        context.baseline = self.baseline().map(str::to_string);
        let settings = Settings::of(&context, &self.strategies);
        context.bootstrap_seed = Some(settings.seed);
        context.bootstrap_resamples = Some(settings.resamples);
        Report {
            format: FORMAT.to_string(),
            strategies: self.strategies.clone(),
            puzzles: self.puzzles(),
            input_errors,
            problems,
            summary: self.summaries(&settings),
            complete,
            rows: self.kept.clone(),
            context,
        }
    }
}

/// One puzzle both a strategy and the baseline ran.
struct Pair {
    time_ns: u64,
    baseline_ns: u64,
    both_decided: bool,
    /// The times the scatter plot draws: an undecided search at its limit.
    time_plot: f64,
    baseline_plot: f64,
}

/// The puzzles of `ours` and `theirs` (each in puzzle order) that both ran, in puzzle order;
/// an undecided search is drawn at its limit.
fn pairs(ours: &[Search], theirs: &[Search], our_limit: u64, their_limit: u64) -> Vec<Pair> {
    let plot = |search: &Search, limit: u64| {
        if search.decided {
            search.time_ns as f64
        } else {
            limit as f64
        }
    };
    let mut paired = Vec::new();
    let mut rest = theirs;
    for search in ours {
        let skip = rest.partition_point(|other| other.puzzle < search.puzzle);
        rest = &rest[skip..];
        if let Some(other) = rest.first().filter(|other| other.puzzle == search.puzzle) {
            paired.push(Pair {
                time_ns: search.time_ns,
                baseline_ns: other.time_ns,
                both_decided: search.decided && other.decided,
                time_plot: plot(search, our_limit),
                baseline_plot: plot(other, their_limit),
            });
        }
    }
    paired
}

/// A histogram's distribution in 64 points, in microseconds.
fn cdf_us(times: &Histogram) -> Vec<(f64, f64)> {
    times
        .cdf(64)
        .into_iter()
        .map(|(fraction, ns)| (fraction, ns as f64 / 1e3))
        .collect()
}

/// A strategy's figures per board size, its work in `unit`.
fn side_summaries(tally: &Tally, unit: Option<Counter>) -> Vec<SideSummary> {
    tally
        .by_side
        .iter()
        .map(|(side, part)| SideSummary {
            side: *side,
            runs: part.runs,
            median_us: part.times.quantile(0.5) as f64 / 1e3,
            work_mean: unit
                .and_then(|unit| part.work.get(&unit))
                .map(|(total, count)| *total as f64 / (*count).max(1) as f64),
            time_cdf: cdf_us(&part.times),
        })
        .collect()
}

/// Up to `points` indices of `0..len`, evenly spread, the last one included.
fn spread(len: usize, points: usize) -> impl Iterator<Item = usize> {
    let taken = len.min(points);
    (1..=taken).map(move |i| (i * len).div_ceil(taken) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn row(puzzle: u64, strategy: &str, time_ns: u64, nodes: u64) -> Row {
        let mut counters = Stats::new();
        counters.set(Counter::Nodes, nodes);
        Row {
            puzzle,
            source: format!("t.txt:{}", puzzle + 1),
            side: 9,
            clues: 20 + (puzzle % 3) as usize,
            strategy: strategy.to_string(),
            verdict: Verdict::Unique,
            solutions: 1,
            exhausted: true,
            stopped: None,
            time_ns,
            median_ns: time_ns,
            cpu_ns: Some(time_ns),
            counters,
        }
    }

    /// Every report form spells a stop reason and a problem kind by `as_str`; JSON by serde.
    /// The two agree for every variant (the matches fail to compile when one is added, until it
    /// is listed here too).
    #[test]
    fn as_str_is_the_json_spelling_of_every_stop_and_problem_kind() {
        use crate::check::ProblemKind;
        let stops = [
            Stop::SolutionLimit,
            Stop::NodeLimit,
            Stop::Budget,
            Stop::Deadline,
            Stop::Cancelled,
            Stop::Unsupported,
            Stop::EngineFailure,
            Stop::Backlog,
        ];
        for stop in stops {
            match stop {
                Stop::SolutionLimit
                | Stop::NodeLimit
                | Stop::Budget
                | Stop::Deadline
                | Stop::Cancelled
                | Stop::Unsupported
                | Stop::EngineFailure
                | Stop::Backlog => {}
            }
            assert_eq!(
                serde_json::to_value(stop).unwrap(),
                stop.as_str(),
                "{stop:?}"
            );
        }
        let kinds = [
            ProblemKind::InvalidAnswer,
            ProblemKind::VerdictsDisagree,
            ProblemKind::SolutionsDisagree,
            ProblemKind::ContradictsKnownSolution,
            ProblemKind::ContradictsKnownCount,
            ProblemKind::InvalidKnownSolution,
            ProblemKind::SolverFailed,
        ];
        for kind in kinds {
            match kind {
                ProblemKind::InvalidAnswer
                | ProblemKind::VerdictsDisagree
                | ProblemKind::SolutionsDisagree
                | ProblemKind::ContradictsKnownSolution
                | ProblemKind::ContradictsKnownCount
                | ProblemKind::InvalidKnownSolution
                | ProblemKind::SolverFailed => {}
            }
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                kind.as_str(),
                "{kind:?}"
            );
        }
    }

    pub(crate) fn rows() -> Vec<Row> {
        (0..10u64)
            .flat_map(|p| {
                [
                    row(p, "a", 1000 + p * 100, 10 + p),
                    row(p, "b", 3000 + p * 7, 100 * p),
                ]
            })
            .collect()
    }

    #[test]
    fn merged_aggregators_equal_one_given_every_row() {
        let names = || vec!["a".to_string(), "b".to_string()];
        let mut whole = Aggregator::new(names(), Some("a".into()));
        let mut parts = [
            Aggregator::new(names(), Some("a".into())),
            Aggregator::new(names(), Some("a".into())),
            Aggregator::new(names(), Some("a".into())),
        ];
        for (index, mut row) in rows().into_iter().enumerate() {
            if index % 7 == 3 {
                row.verdict = Verdict::Unknown;
                row.stopped = Some(Stop::Deadline);
                row.side = 16;
            }
            parts[index % 3].tally(&row);
            whole.add(row);
        }
        let mut merged = Aggregator::new(names(), Some("a".into()));
        for part in &parts {
            merged.merge(part);
        }
        assert_eq!(
            format!("{:?}", merged.summary()),
            format!("{:?}", whole.summary())
        );
        assert_eq!(merged.puzzles(), whole.puzzles());
    }

    #[test]
    fn aggregates_are_exact_where_they_can_be() {
        let mut aggregator = Aggregator::new(vec!["a".into(), "b".into()], Some("a".into()));
        for row in rows() {
            aggregator.add(row);
        }
        let summary = aggregator.summary();
        assert_eq!(aggregator.puzzles(), 10);
        assert_eq!(summary[0].runs, 10);
        assert_eq!(summary[0].total_ns, 14_500);
        assert!((summary[0].mean_us - 1.45).abs() < 1e-9);
        assert_eq!(summary[0].work_total, Some(145));
        assert_eq!(summary[0].work_max, Some(19));
        assert_eq!(summary[0].work_unit.as_deref(), Some("nodes"));
        assert_eq!(summary[0].ratio, Some(1.0));
        assert_eq!(summary[1].total_ns, 30_315);
        // The geometric mean of the ten ratios (3000 + 7p) / (1000 + 100p).
        let expected = ((0..10u64)
            .map(|p| ((3_000 + 7 * p) as f64 / (1_000 + 100 * p) as f64).ln())
            .sum::<f64>()
            / 10.0)
            .exp();
        assert!((summary[1].ratio.unwrap() - expected).abs() < 1e-12);
        // Clues 20, 21, 22 in turn: puzzles 0,3,6,9 have 20 clues.
        assert_eq!(summary[1].work_by_clues[0], (9, 20, 4, 450.0));
    }
}
