//! What the command line costs beyond the library: `sudolab count`, `solve` and `compare` on
//! the 49,158 puzzles of the 17-clue set, against the library's own `fast` count of the same
//! puzzles, in one process, interleaved, by CPU time.
//!
//! Each of `SUDOLAB_CLI_ROUNDS` rounds (default 7) measures, one after the other:
//! - `library`: `fast.count_up_to(puzzle, 2)` over the puzzles parsed beforehand, by this
//!   thread's CPU clock (the library's CPU time, the reference of every ratio);
//! - `library + read`: the same with the file read and parsed by `corpus::Reader` in the pass;
//! - the commands, run as child processes with standard output to `/dev/null`, by the CPU time
//!   (user and system, every thread, process start included) the kernel accounts to the child
//!   (`getrusage(RUSAGE_CHILDREN)` before and after): `count -s fast -j1` first, then `count`
//!   (one job per core), `solve`, `compare -s fast -j1` and `compare -s fast -j2`;
//! - start-up: `count -s fast -j1` on one puzzle given as an argument, and `sudolab --version`,
//!   `SUDOLAB_CLI_STARTS` runs each (default 50), their mean CPU time per run.
//!
//! It prints, per step, the best and median microseconds per puzzle and the median and spread
//! (min-max) of the rounds' own ratios to `library`, the start-up times, then `compare -j1 /
//! -j2` per round by wall clock (a speed-up is a matter of elapsed time). On a shared machine
//! only the ratios measured within a round mean anything.
//!
//! `SUDOLAB_CLI_BINARY=PATH` runs another build of `sudolab` as the commands, and
//! `SUDOLAB_CLI_BASELINE=PATH` adds a second set of the `count -s fast -j1` and start-up steps
//! run with that build, interleaved with the first (an older commit's, to compare before and
//! after under the same load).
//!
//! For instruction counts (valgrind's callgrind, the noise-free measure on a shared machine),
//! `SUDOLAB_CLI_LIBRARY_ONCE=FILE` runs only the `library` step, once, over FILE's puzzles
//! (parsed before it starts; callgrind's inclusive cost of `count_up_to` is the search):
//!
//! ```sh
//! SUDOLAB_CLI_LIBRARY_ONCE=first10k.txt valgrind --tool=callgrind target/release/deps/cli-HASH
//! valgrind --tool=callgrind target/release/sudolab count -s fast -j1 first10k.txt > /dev/null
//! ```

mod common;

use std::ffi::{OsStr, OsString};
use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use cpu_time::ThreadTime;
use nix::sys::resource::{UsageWho, getrusage};
use nix::sys::time::TimeVal;

use sudolab::corpus::{Format, Reader};
use sudolab::model::Grid;
use sudolab::strategy::{self, Limits};

fn read(path: &Path) -> Vec<Grid> {
    let file = std::fs::File::open(path).expect("the corpus opens");
    Reader::new(std::io::BufReader::new(file), Format::Auto, None)
        .map(|record| record.expect("a well-formed corpus").puzzle)
        .collect()
}

/// This thread's CPU seconds so far.
fn thread_cpu() -> f64 {
    ThreadTime::now().as_duration().as_secs_f64()
}

/// CPU seconds of one pass of the library's count over parsed puzzles.
fn library(puzzles: &[Grid]) -> f64 {
    let fast = strategy::find("fast").expect("fast is registered");
    let limits = Limits::default();
    let start = thread_cpu();
    for puzzle in puzzles {
        black_box(fast.count_up_to(black_box(puzzle), 2, &limits));
    }
    thread_cpu() - start
}

/// CPU seconds of one pass that reads and parses the file too.
fn library_with_read(path: &Path) -> f64 {
    let fast = strategy::find("fast").expect("fast is registered");
    let limits = Limits::default();
    let start = thread_cpu();
    let file = std::fs::File::open(path).expect("the corpus opens");
    for record in Reader::new(std::io::BufReader::new(file), Format::Auto, None) {
        let record = record.expect("a well-formed corpus");
        black_box(fast.count_up_to(&record.puzzle, 2, &limits));
    }
    thread_cpu() - start
}

/// The CPU seconds (user and system) of every child this process has waited for.
fn children_cpu() -> f64 {
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).expect("getrusage of the children");
    let seconds = |time: TimeVal| time.tv_sec() as f64 + time.tv_usec() as f64 * 1e-6;
    seconds(usage.user_time()) + seconds(usage.system_time())
}

/// The `sudolab` to run: `SUDOLAB_CLI_BINARY`, or this package's.
fn binary() -> OsString {
    std::env::var_os("SUDOLAB_CLI_BINARY").unwrap_or_else(|| env!("CARGO_BIN_EXE_sudolab").into())
}

/// One run of `binary` with `args`, its output thrown away: its CPU seconds and wall seconds.
fn command(binary: &OsStr, args: &[&OsStr]) -> (f64, f64) {
    let (cpu, wall) = (children_cpu(), Instant::now());
    let status = Command::new(binary)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .expect("sudolab runs");
    let times = (children_cpu() - cpu, wall.elapsed().as_secs_f64());
    assert!(status.success(), "sudolab {args:?} failed: {status}");
    times
}

/// The mean CPU seconds of `runs` runs of `binary` with `args`.
fn starts(binary: &OsStr, args: &[&OsStr], runs: usize) -> f64 {
    (0..runs).map(|_| command(binary, args).0).sum::<f64>() / runs as f64
}

/// A named step of a round and how to measure it: CPU seconds, and wall seconds.
type Step<'a> = (String, Box<dyn Fn() -> (f64, f64) + 'a>);

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// The smallest and largest of `values`.
fn spread(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)))
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
        .max(1)
}

fn main() {
    // `cargo bench` passes `--bench`; this harness takes no options.
    let rounds = env_number("SUDOLAB_CLI_ROUNDS", 7);
    let start_runs = env_number("SUDOLAB_CLI_STARTS", 50);
    if let Some(file) = std::env::var_os("SUDOLAB_CLI_LIBRARY_ONCE") {
        let puzzles = read(Path::new(&file));
        let seconds = library(&puzzles);
        println!(
            "library: {} puzzles, {:.3} µs/puzzle",
            puzzles.len(),
            seconds / puzzles.len() as f64 * 1e6
        );
        return;
    }
    let path = common::seventeen_clue();
    let puzzles = read(&path);
    let n = puzzles.len() as f64;
    let one = std::fs::read_to_string(&path)
        .expect("the corpus reads")
        .lines()
        .find(|line| !line.starts_with('#') && !line.trim().is_empty())
        .expect("a puzzle")
        .trim()
        .to_string();
    let binary = binary();
    let baseline = std::env::var_os("SUDOLAB_CLI_BASELINE");
    let file = path.as_os_str();
    let run = |binary: &OsStr, args: &[&str]| {
        let mut all: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        all.push(file);
        command(binary, &all)
    };
    let mut steps: Vec<Step> = vec![
        (
            "library (fast.count_up_to, parsed)".into(),
            Box::new(|| {
                let cpu = library(&puzzles);
                (cpu, cpu)
            }),
        ),
        (
            "library + read and parse".into(),
            Box::new(|| {
                let cpu = library_with_read(&path);
                (cpu, cpu)
            }),
        ),
    ];
    let mut builds = vec![("", binary.as_os_str())];
    if let Some(baseline) = &baseline {
        builds.push((" (baseline)", baseline.as_os_str()));
    }
    for &(label, build) in &builds {
        steps.push((
            format!("sudolab count -s fast -j1{label}"),
            Box::new(move || run(build, &["count", "-s", "fast", "-j1"])),
        ));
    }
    for args in [
        &["count"][..],
        &["solve"],
        &["compare", "-s", "fast", "-j1"],
        &["compare", "-s", "fast", "-j2"],
    ] {
        let binary = binary.as_os_str();
        steps.push((
            format!("sudolab {}", args.join(" ")),
            Box::new(move || run(binary, args)),
        ));
    }
    let start_steps = start_steps(&builds, &one, start_runs);
    // One warm-up pass of each (page cache, the binary), then the rounds.
    for (_, step) in steps.iter().chain(&start_steps) {
        step();
    }
    let mut cpu = vec![Vec::with_capacity(rounds); steps.len()];
    let mut wall = vec![Vec::with_capacity(rounds); steps.len()];
    let mut start_cpu = vec![Vec::with_capacity(rounds); start_steps.len()];
    for _ in 0..rounds {
        for ((cpu, wall), (_, step)) in cpu.iter_mut().zip(&mut wall).zip(&steps) {
            let (c, w) = step();
            cpu.push(c);
            wall.push(w);
        }
        for (cpu, (_, step)) in start_cpu.iter_mut().zip(&start_steps) {
            cpu.push(step().0);
        }
    }
    println!(
        "{} puzzles of {}, {rounds} interleaved rounds, CPU time\n",
        puzzles.len(),
        path.display()
    );
    print_tables(
        n,
        (&steps, &cpu, &wall),
        (&start_steps, &start_cpu, start_runs),
    );
}

/// The start-up steps of each build: the mean CPU seconds of a run, as (cpu, cpu), of a
/// one-puzzle `count` and of `--version`.
fn start_steps<'a>(builds: &[(&str, &'a OsStr)], one: &str, runs: usize) -> Vec<Step<'a>> {
    let mut start_steps: Vec<Step> = Vec::new();
    for &(label, build) in builds {
        let one = one.to_string();
        start_steps.push((
            format!("count -s fast -j1 PUZZLE (one puzzle){label}"),
            Box::new(move || {
                let args = ["count", "-s", "fast", "-j1", &one].map(OsStr::new);
                let cpu = starts(build, &args, runs);
                (cpu, cpu)
            }),
        ));
        start_steps.push((
            format!("--version{label}"),
            Box::new(move || {
                let cpu = starts(build, &[OsStr::new("--version")], runs);
                (cpu, cpu)
            }),
        ));
    }
    start_steps
}

/// Prints the per-puzzle table (CPU time, ratios to the first step, the library), the
/// start-up table and `compare`'s speed-up by wall clock (its steps are the last two).
fn print_tables(
    n: f64,
    (steps, cpu, wall): (&[Step], &[Vec<f64>], &[Vec<f64>]),
    (start_steps, start_cpu, start_runs): (&[Step], &[Vec<f64>], usize),
) {
    println!(
        "| step | µs/puzzle best | µs/puzzle median | ÷ library, median of rounds (min-max) |"
    );
    println!("|---|---:|---:|---:|");
    for ((name, _), times) in steps.iter().zip(cpu) {
        let ratios: Vec<f64> = times.iter().zip(&cpu[0]).map(|(t, l)| t / l).collect();
        let (low, high) = spread(&ratios);
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} ({low:.3}-{high:.3}) |",
            spread(times).0 / n * 1e6,
            median(times) / n * 1e6,
            median(&ratios),
        );
    }
    println!("\n| start-up, CPU ms a run ({start_runs} runs a round) | best | median | max |");
    println!("|---|---:|---:|---:|");
    for ((name, _), times) in start_steps.iter().zip(start_cpu) {
        let (low, high) = spread(times);
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} |",
            low * 1e3,
            median(times) * 1e3,
            high * 1e3
        );
    }
    let (j1, j2) = (&wall[steps.len() - 2], &wall[steps.len() - 1]);
    let speedups: Vec<f64> = j1.iter().zip(j2).map(|(a, b)| a / b).collect();
    let (low, high) = spread(&speedups);
    println!(
        "\ncompare -s fast, wall clock: -j1 / -j2 = {:.2} (rounds {low:.2}-{high:.2})",
        median(&speedups)
    );
}
