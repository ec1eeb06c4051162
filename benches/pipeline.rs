//! Are the times `compare` reports what the engines cost? The experiment pipeline against a
//! bare loop over the same engine and puzzles, in one process, interleaved.
//!
//! For each engine (`SUDOLAB_PIPELINE_ENGINES`, default `fast,dlx-knuth`) and the first
//! `SUDOLAB_PIPELINE_TAKE` puzzles (default 10,000) of the 17-clue set, each of
//! `SUDOLAB_PIPELINE_ROUNDS` rounds (default 5) times:
//! - the bare loop: `count_up_to(puzzle, 2)` back to back, the way `benches/peer.rs` and
//!   criterion time an engine (wall clock of the pass, divided by the puzzles);
//! - the pipeline: `experiment::Runner` with one job in each order, as `compare -j1` runs it; the
//!   figure is the mean of the per-search times it reports (what `compare` prints as mean µs).
//!
//! - with `SUDOLAB_PIPELINE_CLI` set to a `sudolab` binary (`target/release/sudolab`), the
//!   command itself: `sudolab compare -s ENGINES -j1` (its defaults: engine order, the 1 s
//!   timeout) on the same puzzles written to a file, its means read from its JSON report.
//!
//! It prints each round's pipeline/loop ratio, their median and their spread. Both must give
//! the same verdict on every puzzle before anything is timed.

mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sudolab::corpus::{Format, Reader};
use sudolab::experiment::{self, Item, Order, Plan};
use sudolab::model::Grid;
use sudolab::strategy::{self, Limits, Strategy};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Mean microseconds per puzzle of a bare loop.
fn bare_loop(engine: &dyn Strategy, puzzles: &[Grid]) -> f64 {
    let start = Instant::now();
    for puzzle in puzzles {
        black_box(engine.count_up_to(black_box(puzzle), 2, &Limits::default()));
    }
    start.elapsed().as_secs_f64() * 1e6 / puzzles.len() as f64
}

/// Mean microseconds per puzzle of a bare loop that asks for the solutions (as the pipeline
/// must, to certify them), each dropped in the callback.
fn search_loop(engine: &dyn Strategy, puzzles: &[Grid]) -> f64 {
    let limits = Limits::solutions(2);
    let start = Instant::now();
    for puzzle in puzzles {
        black_box(engine.search(black_box(puzzle), &limits, &mut |grid| {
            black_box(grid);
        }));
    }
    start.elapsed().as_secs_f64() * 1e6 / puzzles.len() as f64
}

/// Mean reported microseconds per puzzle of each engine in the pipeline (all engines in one
/// plan, as `compare -s a,b -j1` runs them), and the wall-clock microseconds per puzzle.
fn pipeline(engines: &[&'static dyn Strategy], items: &[Item], order: Order) -> (Vec<f64>, f64) {
    let plan = Plan {
        order,
        ..Plan::new(engines, &Limits::solutions(2))
    };
    let mut total_ns = vec![0u128; engines.len()];
    let start = Instant::now();
    experiment::Runner::new(&plan)
        .items(items.iter().cloned(), |checked| {
            assert!(checked.problems.is_empty(), "{:?}", checked.problems);
            for (total, run) in total_ns.iter_mut().zip(&checked.runs) {
                *total += run.best.as_nanos();
            }
            Ok::<(), ()>(())
        })
        .expect("a pool")
        .expect("no error");
    let wall = start.elapsed().as_secs_f64() * 1e6 / items.len() as f64;
    let means = total_ns
        .iter()
        .map(|ns| *ns as f64 / 1e3 / items.len() as f64)
        .collect();
    (means, wall)
}

/// Mean reported microseconds per puzzle of each engine in `sudolab compare`, run as a command.
fn command(sudolab: &Path, engines: &[&'static dyn Strategy], file: &Path) -> Vec<f64> {
    let report = file.with_extension("json");
    let names: Vec<&str> = engines.iter().map(|e| e.name()).collect();
    let status = std::process::Command::new(sudolab)
        .args(["compare", "-j1", "-s", &names.join(",")])
        .arg("--report")
        .arg(&report)
        .arg(file)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("sudolab runs");
    assert!(status.success(), "sudolab compare failed");
    let text = std::fs::read_to_string(&report).expect("the report");
    let report = sudolab::report::json::read(&text).expect("a JSON report");
    report
        .summary
        .iter()
        .map(|summary| summary.mean_us)
        .collect()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// One engine's per-round measurements, microseconds per puzzle.
#[derive(Clone, Default)]
struct Samples {
    count_loop: Vec<f64>,
    search_loop: Vec<f64>,
    engine_order: Vec<f64>,
    puzzle_order: Vec<f64>,
    command: Vec<f64>,
}

impl Samples {
    /// The median of `times` over the loop's time of the same round, with the spread.
    fn ratio(&self, times: &[f64]) -> String {
        let mut ratios: Vec<f64> = times
            .iter()
            .zip(&self.count_loop)
            .map(|(t, l)| t / l)
            .collect();
        let min = ratios.iter().copied().fold(f64::MAX, f64::min);
        let max = ratios.iter().copied().fold(f64::MIN, f64::max);
        format!("{:.3} [{min:.3}, {max:.3}]", median(&mut ratios))
    }
}

fn print_table(engines: &[&'static dyn Strategy], samples: &[Samples], with_command: bool) {
    println!(
        "engine     | loop us | search loop us | order engine us | ratio median [min, max] | \
         order puzzle us | ratio median [min, max]"
    );
    for (engine, samples) in engines.iter().zip(samples) {
        println!(
            "{:<10} | {:7.2} | {:14.2} | {:15.2} | {:>23} | {:15.2} | {:>23}",
            engine.name(),
            median(&mut samples.count_loop.clone()),
            median(&mut samples.search_loop.clone()),
            median(&mut samples.engine_order.clone()),
            samples.ratio(&samples.engine_order),
            median(&mut samples.puzzle_order.clone()),
            samples.ratio(&samples.puzzle_order),
        );
    }
    if with_command {
        println!("engine     | loop us | sudolab compare us | ratio median [min, max]");
        for (engine, samples) in engines.iter().zip(samples) {
            println!(
                "{:<10} | {:7.2} | {:18.2} | {}",
                engine.name(),
                median(&mut samples.count_loop.clone()),
                median(&mut samples.command.clone()),
                samples.ratio(&samples.command),
            );
        }
    }
}

/// The first `take` puzzles of the 17-clue set, and the same as experiment items.
fn puzzles(path: &Path, take: usize) -> (Vec<Grid>, Vec<Item>) {
    let file = std::fs::File::open(path).expect("the corpus opens");
    let puzzles: Vec<Grid> = Reader::new(std::io::BufReader::new(file), Format::Line, None)
        .take(take)
        .map(|record| record.expect("a valid puzzle").puzzle)
        .collect();
    let items = puzzles
        .iter()
        .enumerate()
        .map(|(ordinal, puzzle)| Item {
            ordinal: ordinal as u64,
            source: format!("17-clue:{}", ordinal + 1),
            puzzle: puzzle.clone(),
            solution: None,
            count: None,
        })
        .collect();
    (puzzles, items)
}

fn main() {
    // `cargo bench` passes --bench; nothing else is taken.
    let take = env_or("SUDOLAB_PIPELINE_TAKE", 10_000);
    let rounds = env_or("SUDOLAB_PIPELINE_ROUNDS", 5).max(1);
    let engines: Vec<&'static dyn Strategy> = std::env::var("SUDOLAB_PIPELINE_ENGINES")
        .unwrap_or_else(|_| "fast,dlx-knuth".to_string())
        .split(',')
        .map(|name| strategy::find(name.trim()).expect("a registered engine"))
        .collect();
    let path = common::seventeen_clue();
    let (puzzles, items) = puzzles(&path, take);
    println!(
        "{} puzzles of {}, {rounds} rounds, count to 2, one job",
        puzzles.len(),
        path.display()
    );
    for engine in &engines {
        for puzzle in &puzzles {
            assert_eq!(
                engine.count_up_to(puzzle, 2, &Limits::default()).verdict(),
                strategy::Verdict::Unique
            );
        }
    }
    let cli = std::env::var_os("SUDOLAB_PIPELINE_CLI").map(PathBuf::from);
    let puzzle_file =
        std::env::temp_dir().join(format!("sudolab-pipeline-{}.txt", std::process::id()));
    let lines: Vec<String> = puzzles
        .iter()
        .map(|p| sudolab::model::to_line(p).expect("9x9"))
        .collect();
    std::fs::write(&puzzle_file, lines.join("\n") + "\n").expect("a scratch file");
    // Per round: each engine's loops, then the pipeline in each order, then the command.
    let mut samples = vec![Samples::default(); engines.len()];
    let mut walls = Vec::new();
    for _ in 0..rounds {
        for (engine, samples) in engines.iter().zip(&mut samples) {
            samples.count_loop.push(bare_loop(*engine, &puzzles));
            samples.search_loop.push(search_loop(*engine, &puzzles));
        }
        let (means, wall) = pipeline(&engines, &items, Order::Engine);
        walls.push(wall);
        for (samples, mean) in samples.iter_mut().zip(means) {
            samples.engine_order.push(mean);
        }
        let (means, _) = pipeline(&engines, &items, Order::Puzzle);
        for (samples, mean) in samples.iter_mut().zip(means) {
            samples.puzzle_order.push(mean);
        }
        if let Some(sudolab) = &cli {
            let means = command(sudolab, &engines, &puzzle_file);
            for (samples, mean) in samples.iter_mut().zip(means) {
                samples.command.push(mean);
            }
        }
    }
    print_table(&engines, &samples, cli.is_some());
    println!(
        "pipeline wall clock, order engine, all engines: {:.2} us per puzzle",
        median(&mut walls)
    );
    let _ = std::fs::remove_file(&puzzle_file);
    let _ = std::fs::remove_file(puzzle_file.with_extension("json"));
}
