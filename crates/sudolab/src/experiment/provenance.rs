//! Where and how a run was made, for the context of its reports: sudolab's version, commit and
//! tree state, the compiler and build, the processor, the machine and its load, the operating
//! system, the time and the plan's options.

use std::io::Read as _;
use std::path::Path;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::report::{Build, Context, LoadAverage, Machine, StrategyLimits};
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

/// Whether the source tree differed from [`commit`] when sudolab was built; `None` where the
/// build had no git.
pub fn dirty() -> Option<bool> {
    option_env!("SUDOLAB_GIT_DIRTY").and_then(|flag| flag.parse().ok())
}

/// When [`dirty`], the hash of the differing files ([`tree_state`]).
pub fn diff_hash() -> Option<String> {
    option_env!("SUDOLAB_GIT_DIFF_HASH").map(str::to_string)
}

#[path = "git.rs"]
mod git;
pub use git::{TreeState, tree_state};

/// The compiler sudolab was built with (`rustc --version`), when the build could tell.
pub fn rustc() -> Option<String> {
    option_env!("SUDOLAB_RUSTC_VERSION").map(str::to_string)
}

/// How sudolab was compiled: profile, optimisation, features, target, target CPU, and the CPU
/// features that were enabled at compile time.
pub fn build() -> Build {
    let text = |value: Option<&str>| value.unwrap_or_default().to_string();
    let enabled = [
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("avx512f", cfg!(target_feature = "avx512f")),
    ];
    Build {
        profile: text(option_env!("SUDOLAB_BUILD_PROFILE")),
        opt_level: text(option_env!("SUDOLAB_BUILD_OPT_LEVEL")),
        features: option_env!("SUDOLAB_BUILD_FEATURES")
            .unwrap_or_default()
            .split(',')
            .filter(|feature| !feature.is_empty())
            .map(str::to_string)
            .collect(),
        target: text(option_env!("SUDOLAB_BUILD_TARGET")),
        target_cpu: option_env!("SUDOLAB_BUILD_TARGET_CPU")
            .filter(|cpu| !cpu.is_empty())
            .map(str::to_string),
        target_features: enabled
            .iter()
            .filter(|(_, on)| *on)
            .map(|(name, _)| (*name).to_string())
            .collect(),
    }
}

/// The machine: processor model and flags, cores, memory, and the load average now (the
/// run's start). Each part is `None` where the operating system does not tell.
pub fn machine() -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok();
    let field = |names: &[&str]| {
        cpuinfo.as_deref().and_then(|text| {
            text.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                names
                    .contains(&key.trim())
                    .then(|| value.trim().to_string())
            })
        })
    };
    let memory_bytes = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|line| line.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            kib.checked_mul(1024)
        });
    Machine {
        cpu_model: field(&["model name", "Model", "cpu model"]),
        cpu_flags: field(&["flags", "Features"])
            .map(|flags| flags.split_whitespace().map(str::to_string).collect()),
        cores: std::thread::available_parallelism()
            .ok()
            .map(|cores| usize::from(cores) as u64),
        memory_bytes,
        load_start: load_average(),
        load_end: None,
    }
}

/// The load average now, from /proc/loadavg where there is one.
pub fn load_average() -> Option<LoadAverage> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut fields = text.split_whitespace().map(str::parse::<f64>);
    Some(LoadAverage {
        one: fields.next()?.ok()?,
        five: fields.next()?.ok()?,
        fifteen: fields.next()?.ok()?,
    })
}

/// How much load beyond the free cores [`load_warning`] lets pass: half a core of other work
/// is the noise of any shared machine (a shell, a daemon), and a warning on every run would be
/// one nobody reads.
pub const LOAD_TOLERANCE: f64 = 0.5;

/// The warning a run's context carries when other work competed for its cores: when the
/// one-minute load average at the `start` exceeded the cores left free by the run's `jobs` by
/// more than [`LOAD_TOLERANCE`] (`load > cores - jobs + 0.5`), or at the `end` did so once the
/// run's own jobs are taken out (the end's average counts them). Searches then waited for a
/// core, so their times compare only as ratios within the run. `None` when neither did or the
/// figures are unknown.
pub fn load_warning(
    start: Option<f64>,
    end: Option<f64>,
    cores: usize,
    jobs: usize,
) -> Option<String> {
    let free = cores.saturating_sub(jobs);
    let limit = free as f64 + LOAD_TOLERANCE;
    let over_start = start.filter(|load| *load > limit);
    let over_end = end.filter(|load| load - jobs as f64 > limit);
    let when = match (over_start, over_end) {
        (None, None) => return None,
        (Some(start), None) => format!("{start:.2} at the start"),
        (None, Some(end)) => format!("{end:.2} at the end, {jobs} of it this run's"),
        (Some(start), Some(end)) => {
            format!("{start:.2} at the start and {end:.2} at the end, {jobs} of it this run's")
        }
    };
    Some(format!(
        "the load average was {when}, more than the {free} of {cores} {} this run's {jobs} {} \
         left free: the engines waited for a core, so times compare only as ratios within this run",
        plural(cores, "core"),
        plural(jobs, "job"),
    ))
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    }
}

/// The SHA-256 of a file's bytes, `sha256:` and 64 hex digits: the one content hash of
/// reports (inputs, side files), for identity. `None` for what is not a regular file
/// (standard input and pipes cannot be read twice, a device may never end) and for a file that
/// cannot be read.
pub fn file_sha256(path: &Path) -> Option<String> {
    if !std::fs::metadata(path).is_ok_and(|meta| meta.is_file()) {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => hasher.update(&buffer[..read]),
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(format!("sha256:{}", git::hex(&hasher.finalize())))
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
            budget: entry.limits.budget,
            timeout_ms: entry.limits.timeout.map(|t| t.as_millis() as u64),
        })
        .collect();
    Context {
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: commit(),
        dirty: dirty(),
        diff_hash: diff_hash(),
        rustc: rustc(),
        build: Some(build()),
        cpu: cpu(),
        machine: Some(machine()),
        os: os(),
        date: now(),
        command,
        inputs: inputs.to_vec(),
        limit: base.max_solutions.unwrap_or(0),
        max_nodes: base.max_nodes,
        budget: base.budget,
        budget_units: plan
            .entries
            .iter()
            .map(|entry| {
                (
                    entry.strategy.name().to_string(),
                    entry.strategy.budget_unit(),
                )
            })
            .collect(),
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
    a.max_solutions == b.max_solutions
        && a.max_nodes == b.max_nodes
        && a.budget == b.budget
        && a.timeout == b.timeout
}
