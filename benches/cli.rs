//! What the command line costs beyond the library: `sudolab count`, `solve` and `compare` on
//! the 49,158 puzzles of the 17-clue set, against the library's own `fast` count of the same
//! puzzles, in one process, interleaved.
//!
//! Each of `SUDOLAB_CLI_ROUNDS` rounds (default 7) times, one after the other:
//! - `library`: `fast.count_up_to(puzzle, 2)` over the puzzles parsed beforehand (what the
//!   issue calls the in-process time; the reference of every ratio);
//! - `library + read`: the same with the file read and parsed by `corpus::Reader` in the pass;
//! - the commands, run as child processes with standard output to `/dev/null` (process start
//!   included): `count -j1`, `count` (one job per core), `solve`, `compare -s fast -j1` and
//!   `compare -s fast -j2`.
//!
//! It prints, per step, the best and median microseconds per puzzle and the median and spread
//! (min-max) of the rounds' own ratios to `library`, then `compare -j1 / -j2` per round. On a
//! shared machine only the ratios measured within a round mean anything.
//!
//! `SUDOLAB_CLI_BINARY=PATH` runs another build of `sudolab` as the commands (an older commit's,
//! to compare before and after under the same load).
//!
//! For instruction counts (valgrind's callgrind, the noise-free measure on a shared machine),
//! `SUDOLAB_CLI_LIBRARY_ONCE=FILE` runs only the `library` step, once, over FILE's puzzles
//! (parsed before it starts; callgrind's inclusive cost of `count_up_to` is the search):
//!
//! ```sh
//! SUDOLAB_CLI_LIBRARY_ONCE=first10k.txt valgrind --tool=callgrind target/release/deps/cli-HASH
//! valgrind --tool=callgrind target/release/sudolab count -j1 first10k.txt > /dev/null
//! ```

mod common;

use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use sudolab::corpus::{Format, Reader};
use sudolab::model::Grid;
use sudolab::strategy::{self, Limits};

fn read(path: &Path) -> Vec<Grid> {
    let file = std::fs::File::open(path).expect("the corpus opens");
    Reader::new(std::io::BufReader::new(file), Format::Auto, None)
        .map(|record| record.expect("a well-formed corpus").puzzle)
        .collect()
}

/// Seconds of one pass of the library's count over parsed puzzles.
fn library(puzzles: &[Grid]) -> f64 {
    let fast = strategy::find("fast").expect("fast is registered");
    let limits = Limits::default();
    let start = Instant::now();
    for puzzle in puzzles {
        black_box(fast.count_up_to(black_box(puzzle), 2, &limits));
    }
    start.elapsed().as_secs_f64()
}

/// Seconds of one pass that reads and parses the file too.
fn library_with_read(path: &Path) -> f64 {
    let fast = strategy::find("fast").expect("fast is registered");
    let limits = Limits::default();
    let start = Instant::now();
    let file = std::fs::File::open(path).expect("the corpus opens");
    for record in Reader::new(std::io::BufReader::new(file), Format::Auto, None) {
        let record = record.expect("a well-formed corpus");
        black_box(fast.count_up_to(&record.puzzle, 2, &limits));
    }
    start.elapsed().as_secs_f64()
}

/// Seconds of one run of the command, its output thrown away.
fn command(args: &[&str], path: &Path) -> f64 {
    let start = Instant::now();
    let binary = std::env::var_os("SUDOLAB_CLI_BINARY")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_sudolab").into());
    let status = Command::new(binary)
        .args(args)
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .expect("sudolab runs");
    let elapsed = start.elapsed().as_secs_f64();
    assert!(status.success(), "sudolab {args:?} failed: {status}");
    elapsed
}

/// A named step of a round and how to time it.
type Step<'a> = (&'a str, Box<dyn Fn() -> f64 + 'a>);

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; this harness takes no options.
    let rounds: usize = std::env::var("SUDOLAB_CLI_ROUNDS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(7)
        .max(1);
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
    let steps: Vec<Step> = vec![
        (
            "library (fast.count_up_to, parsed)",
            Box::new(|| library(&puzzles)),
        ),
        (
            "library + read and parse",
            Box::new(|| library_with_read(&path)),
        ),
        (
            "sudolab count -j1",
            Box::new(|| command(&["count", "-j1"], &path)),
        ),
        ("sudolab count", Box::new(|| command(&["count"], &path))),
        ("sudolab solve", Box::new(|| command(&["solve"], &path))),
        (
            "sudolab compare -s fast -j1",
            Box::new(|| command(&["compare", "-s", "fast", "-j1"], &path)),
        ),
        (
            "sudolab compare -s fast -j2",
            Box::new(|| command(&["compare", "-s", "fast", "-j2"], &path)),
        ),
    ];
    // One warm-up pass of each (page cache, the binary), then the rounds.
    for (_, step) in &steps {
        step();
    }
    let mut seconds = vec![Vec::with_capacity(rounds); steps.len()];
    for _ in 0..rounds {
        for (times, (_, step)) in seconds.iter_mut().zip(&steps) {
            times.push(step());
        }
    }
    println!(
        "{} puzzles of {}, {rounds} interleaved rounds\n",
        puzzles.len(),
        path.display()
    );
    println!(
        "| step | µs/puzzle best | µs/puzzle median | ÷ library, median of rounds (min-max) |"
    );
    println!("|---|---:|---:|---:|");
    for ((name, _), times) in steps.iter().zip(&seconds) {
        let ratios: Vec<f64> = times.iter().zip(&seconds[0]).map(|(t, l)| t / l).collect();
        let (low, high) = ratios
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
        println!(
            "| {name} | {:.3} | {:.3} | {:.2} ({low:.2}-{high:.2}) |",
            times.iter().copied().fold(f64::MAX, f64::min) / n * 1e6,
            median(times) / n * 1e6,
            median(&ratios),
        );
    }
    let (j1, j2) = (&seconds[steps.len() - 2], &seconds[steps.len() - 1]);
    let speedups: Vec<f64> = j1.iter().zip(j2).map(|(a, b)| a / b).collect();
    let (low, high) = speedups
        .iter()
        .fold((f64::MAX, 0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    println!(
        "\ncompare -s fast: -j1 / -j2 = {:.2} (rounds {low:.2}-{high:.2})",
        median(&speedups)
    );
}
