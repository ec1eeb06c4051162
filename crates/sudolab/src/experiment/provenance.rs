//! Where and how a run was made, for the context of its reports: sudolab's version and commit,
//! the compiler, the processor, the operating system, the time and the plan's options.

use std::time::SystemTime;

use crate::report::{Context, StrategyLimits};
use crate::strategy::Limits;

use super::{Plan, Selection};

/// What the clock measures, as reports state it.
pub fn timer() -> String {
    format!(
        "std::time::Instant (monotonic), around each search only: solutions are copied in the \
         callback and certified after the clock stops; the clock's own cost ({} ns, the median \
         of 1,001 empty timed regions) is subtracted",
        super::measure::timer_overhead().as_nanos()
    )
}

/// The git commit sudolab was built from, when the build could tell.
pub fn commit() -> Option<String> {
    option_env!("SUDOLAB_GIT_COMMIT").map(str::to_string)
}

/// The compiler sudolab was built with (`rustc --version`), when the build could tell.
pub fn rustc() -> Option<String> {
    option_env!("SUDOLAB_RUSTC_VERSION").map(str::to_string)
}

/// The processor's name, from /proc/cpuinfo where there is one, and the threads available.
pub fn cpu() -> String {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{model} ({cores} threads available)")
}

/// The operating system: its name from /etc/os-release where there is one, and the kernel
/// family and architecture.
pub fn os() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("PRETTY_NAME="))
                .map(|name| name.trim_matches('"').to_string())
        });
    let family = format!("{} {}", std::env::consts::OS, std::env::consts::ARCH);
    match pretty {
        Some(name) => format!("{name} ({family})"),
        None => family,
    }
}

/// Now, in RFC 3339 (UTC, seconds).
pub fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// The context of a run of `plan` over `inputs`: `base` is the run's default limits (what the
/// report shows as the limit and budget); strategies whose limits differ are listed apart.
pub fn context(plan: &Plan, base: &Limits, inputs: &[String], command: String) -> Context {
    let overrides = plan
        .entries
        .iter()
        .filter(|entry| !same_limits(&entry.limits, base))
        .map(|entry| StrategyLimits {
            strategy: entry.strategy.name().to_string(),
            limit: entry.limits.max_solutions.unwrap_or(0),
            max_nodes: entry.limits.max_nodes,
            timeout_ms: entry.limits.timeout.map(|t| t.as_millis() as u64),
        })
        .collect();
    Context {
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: commit(),
        rustc: rustc(),
        cpu: cpu(),
        os: os(),
        date: now(),
        command,
        inputs: inputs.to_vec(),
        limit: base.max_solutions.unwrap_or(0),
        max_nodes: base.max_nodes,
        timeout_ms: base.timeout.map(|t| t.as_millis() as u64),
        overrides,
        repeat: plan.repeats.timed.max(1),
        warmup: plan.repeats.warmup,
        order: Some(plan.order),
        timer: timer(),
        jobs: plan.jobs,
        sample: match plan.selection {
            Selection::Sample { size, seed } => Some((size, seed)),
            _ => None,
        },
        shard: match plan.selection {
            Selection::Shard(shard) => Some(shard.to_string()),
            _ => None,
        },
        ..Context::default()
    }
}

fn same_limits(a: &Limits, b: &Limits) -> bool {
    a.max_solutions == b.max_solutions && a.max_nodes == b.max_nodes && a.timeout == b.timeout
}
