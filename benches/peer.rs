//! `fast` against a real peer in one run: the `sudoku` crate (a JCZSolve-derived bitmask
//! solver), both counting solutions up to two on the same puzzles of the public corpora.
//!
//! Before timing, both must agree on every count, and `fast`'s guesses per puzzle and share of
//! puzzles solved without guessing are printed (the crate does not expose its guesses).
//! `SUDOLAB_PEER_TAKE` caps the puzzles per set (default 10,000).
//!
//! On a shared machine the speed drifts by a fifth from minute to minute, more than the
//! difference being measured, so each set is also timed interleaved: `SUDOLAB_PEER_ROUNDS`
//! rounds (default 9) of one pass of `fast` then one pass of the crate. The best pass of each
//! gives the printed ratio, and the median of the rounds' own ratios (each round's two passes
//! seconds apart) is printed beside it. Criterion's groups follow, one engine after the other.

#![expect(
    missing_docs,
    reason = "criterion's macros generate undocumented functions"
)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use sudolab::corpus::{Format, Reader};
use sudolab::model::{Grid, to_line};
use sudolab::strategy::{self, Counter, Limits};

fn corpora_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SUDOLAB_PUBLIC_CORPORA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
        PathBuf::from,
    );
    dir.join("PROVENANCE.md").exists().then_some(dir)
}

/// `rounds` rounds of one pass of `fast` over `puzzles` then one pass of the crate over the same
/// puzzles: the best pass of each, in seconds, and the median of the rounds' own ratios.
fn interleaved(
    fast: &dyn strategy::Strategy,
    puzzles: &[Grid],
    lines: &[sudoku::Sudoku],
    rounds: usize,
) -> (f64, f64, f64) {
    let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
    let mut round_ratios = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let start = Instant::now();
        for puzzle in puzzles {
            black_box(fast.count_up_to(black_box(puzzle), 2, &Limits::default()));
        }
        let our_pass = start.elapsed().as_secs_f64();
        let start = Instant::now();
        for sudoku in lines {
            black_box(black_box(*sudoku).solutions_count_up_to(2));
        }
        let their_pass = start.elapsed().as_secs_f64();
        ours = ours.min(our_pass);
        theirs = theirs.min(their_pass);
        round_ratios.push(our_pass / their_pass);
    }
    round_ratios.sort_by(f64::total_cmp);
    (ours, theirs, round_ratios[rounds / 2])
}

fn peer(c: &mut Criterion) {
    let Some(dir) = corpora_dir() else {
        eprintln!("note: public corpora not found; set SUDOLAB_PUBLIC_CORPORA to run this bench");
        return;
    };
    let take: usize = std::env::var("SUDOLAB_PEER_TAKE")
        .ok()
        .and_then(|take| take.parse().ok())
        .unwrap_or(10_000);
    let fast = strategy::find("fast").unwrap();
    let sets = [
        ("17-clue", "tdoku/puzzles2_17_clue.txt"),
        ("top1465", "tdoku/puzzles3_magictour_top1465.txt"),
        (
            "forum-hardest-1106",
            "tdoku/puzzles6_forum_hardest_1106.txt",
        ),
        ("serg-benchmark", "tdoku/puzzles7_serg_benchmark.txt"),
    ];
    for (label, file) in sets {
        let path = dir.join(file);
        let reader = Reader::new(
            std::io::BufReader::new(std::fs::File::open(&path).unwrap()),
            Format::Line,
            None,
        );
        let puzzles: Vec<Grid> = reader
            .take(take)
            .map(|record| record.unwrap().puzzle)
            .collect();
        let lines: Vec<sudoku::Sudoku> = puzzles
            .iter()
            .map(|puzzle| sudoku::Sudoku::from_str_line(&to_line(puzzle).unwrap()).unwrap())
            .collect();

        let (mut guesses, mut no_guess) = (0, 0);
        for (puzzle, theirs) in puzzles.iter().zip(&lines) {
            let ours = fast.count_up_to(puzzle, 2, &Limits::default());
            assert_eq!(
                ours.found as usize,
                theirs.solutions_count_up_to(2),
                "{label}: {}",
                to_line(puzzle).unwrap()
            );
            let puzzle_guesses = ours.stats.get(Counter::Guesses).unwrap_or(0);
            guesses += puzzle_guesses;
            no_guess += u64::from(puzzle_guesses == 0);
        }
        eprintln!(
            "{label}: {} puzzles; fast: {:.2} guesses/puzzle, {:.1}% no_guess",
            puzzles.len(),
            guesses as f64 / puzzles.len() as f64,
            100.0 * no_guess as f64 / puzzles.len() as f64
        );

        let rounds: usize = std::env::var("SUDOLAB_PEER_ROUNDS")
            .ok()
            .and_then(|rounds| rounds.parse().ok())
            .unwrap_or(9)
            .max(1);
        let (ours, theirs, median_ratio) = interleaved(fast, &puzzles, &lines, rounds);
        let per_puzzle = |seconds: f64| seconds * 1e6 / puzzles.len() as f64;
        eprintln!(
            "{label}: interleaved best of {rounds}: fast {:.2} us/puzzle, sudoku crate {:.2} us/puzzle, ratio {:.3}; median round ratio {:.3}",
            per_puzzle(ours),
            per_puzzle(theirs),
            ours / theirs,
            median_ratio
        );

        let mut group = c.benchmark_group(format!("peer-{label}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(BenchmarkId::new("fast", label), |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    black_box(fast.count_up_to(black_box(puzzle), 2, &Limits::default()));
                }
            });
        });
        group.bench_function(BenchmarkId::new("sudoku-crate", label), |b| {
            b.iter(|| {
                for sudoku in &lines {
                    black_box(black_box(*sudoku).solutions_count_up_to(2));
                }
            });
        });
        group.finish();
    }
}

criterion_group!(benches, peer);
criterion_main!(benches);
