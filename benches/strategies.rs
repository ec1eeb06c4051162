//! Criterion benchmarks: every registered strategy on the bundled corpus, `toggle`'s raw
//! placement rate, and `mrv` on the public corpora when they are present.
//!
//! Every answer is checked before anything is timed: a benchmark of a wrong engine is worthless.
//! The public sets are read from `$SUDOLAB_PUBLIC_CORPORA` or `../shared/corpora`; without them
//! that group is left out with a note (the checks on them live in the `public_corpora` test).

#![expect(
    missing_docs,
    reason = "criterion's macros generate undocumented functions"
)]

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use sudolab::corpus::{Format, Reader, Record};
use sudolab::model::{Grid, validate};
use sudolab::strategy::{self, Counter, Limits, Strategy, Verdict};

fn read(path: &Path, take: usize) -> Vec<Record> {
    let file = std::fs::File::open(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    Reader::new(std::io::BufReader::new(file), Format::Line, None)
        .take(take)
        .map(|record| record.unwrap_or_else(|err| panic!("{}: {err}", path.display())))
        .collect()
}

/// Reads a bundled file whose lines carry their solutions: (puzzles, solutions).
fn read_bundled(file: &str) -> (Vec<Grid>, Vec<Grid>) {
    read(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        usize::MAX,
    )
    .into_iter()
    .map(|record| {
        let solution = record
            .solution
            .unwrap_or_else(|| panic!("{file}: every bundled puzzle carries its solution"));
        (record.puzzle, solution)
    })
    .unzip()
}

/// Reads a solutions file (one solution per line, in puzzle order).
fn read_solutions(path: &Path, puzzles: &[Record]) -> Vec<Grid> {
    read(path, puzzles.len())
        .into_iter()
        .map(|record| record.puzzle)
        .collect()
}

/// Counts to two on every puzzle and checks the verdict and the solution; returns the summed
/// placements, so that throughput can be stated per placement.
fn check_unique(strategy: &dyn Strategy, puzzles: &[Grid], solutions: &[Grid]) -> u64 {
    let mut placements = 0;
    for (puzzle, expected) in puzzles.iter().zip(solutions) {
        let mut found = None;
        let outcome = strategy.search(puzzle, &Limits::solutions(2), &mut |grid| {
            found.get_or_insert_with(|| grid.clone());
        });
        assert_eq!(outcome.verdict(), Verdict::Unique, "{}", strategy.name());
        let found = found.expect("a unique puzzle has a solution");
        assert_eq!(validate(puzzle, &found), Ok(()));
        assert_eq!(&found, expected, "{}", strategy.name());
        placements += outcome.stats.get(Counter::Placements).unwrap_or(0);
    }
    placements
}

fn count_all(strategy: &dyn Strategy, puzzles: &[Grid]) {
    for puzzle in puzzles {
        black_box(strategy.count_up_to(black_box(puzzle), 2, &Limits::default()));
    }
}

fn bundled(c: &mut Criterion) {
    let (puzzles, solutions) = read_bundled("corpora/reference.txt");
    let mut group = c.benchmark_group("reference-boards-uniqueness");
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    for strategy in strategy::registry() {
        check_unique(*strategy, &puzzles, &solutions);
        group.bench_function(strategy.name(), |b| {
            b.iter(|| count_all(*strategy, &puzzles));
        });
    }
    group.finish();

    // Placements per second on board B: the raw speed of walking the textbook tree.
    let mut group = c.benchmark_group("placements");
    for name in ["scan", "toggle"] {
        let strategy = strategy::find(name).unwrap();
        let placements = check_unique(strategy, &puzzles[1..], &solutions[1..]);
        group.throughput(Throughput::Elements(placements));
        group.bench_function(BenchmarkId::new(name, "board-b"), |b| {
            b.iter(|| count_all(strategy, &puzzles[1..]));
        });
    }
    group.finish();
}

fn public_corpora_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SUDOLAB_PUBLIC_CORPORA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
        PathBuf::from,
    );
    dir.join("PROVENANCE.md").exists().then_some(dir)
}

/// The engines compared on a public set: every puzzle counted to two, answers checked first.
fn bench_set(
    c: &mut Criterion,
    group_name: &str,
    label: &str,
    puzzles: &[Grid],
    solutions: &[Grid],
    strategies: &[&str],
) {
    let mut group = c.benchmark_group(group_name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    for name in strategies {
        let strategy = strategy::find(name).unwrap();
        check_unique(strategy, puzzles, solutions);
        group.bench_function(BenchmarkId::new(*name, label), |b| {
            b.iter(|| count_all(strategy, puzzles));
        });
    }
    group.finish();
}

fn public(c: &mut Criterion) {
    let Some(dir) = public_corpora_dir() else {
        eprintln!("note: public corpora not found; set SUDOLAB_PUBLIC_CORPORA to benchmark them");
        return;
    };
    let sets = [
        (
            "17-clue-first-1000",
            "tdoku/puzzles2_17_clue.txt",
            "solutions/tdoku_puzzles2_17_clue.solutions.txt",
            1000,
        ),
        (
            "top1465",
            "tdoku/puzzles3_magictour_top1465.txt",
            "solutions/tdoku_puzzles3_magictour_top1465.solutions.txt",
            usize::MAX,
        ),
        (
            "gecode-16x16",
            "large/gecode_16x16.txt",
            "solutions/large_gecode_16x16.solutions.txt",
            usize::MAX,
        ),
    ];
    // Engines to time, from `SUDOLAB_BENCH_STRATEGIES` (comma-separated) or all but the
    // row-major backtrackers, which need minutes per puzzle on these sets.
    let chosen = std::env::var("SUDOLAB_BENCH_STRATEGIES")
        .unwrap_or_else(|_| "mrv,dlx-knuth,dlx,sat,sat-extended,sat-minimal".to_string());
    let strategies: Vec<&str> = chosen.split(',').collect();
    for (label, puzzles_path, solutions_path, take) in sets {
        let records = read(&dir.join(puzzles_path), take);
        let solutions = read_solutions(&dir.join(solutions_path), &records);
        let puzzles: Vec<Grid> = records.into_iter().map(|record| record.puzzle).collect();
        bench_set(
            c,
            "public-uniqueness",
            label,
            &puzzles,
            &solutions,
            &strategies,
        );
    }
}

/// The bundled minimal 16x16 puzzles: where exact cover and SAT part ways. (The minimal 25x25
/// ones take seconds for SAT and more than minutes for exact cover, which cannot be stopped
/// inside a criterion iteration: they are measured with `sudolab count --timeout`, see
/// `docs/tools/engine_table.py` and docs/benchmarks.md.)
fn large(c: &mut Criterion) {
    let chosen = std::env::var("SUDOLAB_BENCH_LARGE_STRATEGIES")
        .unwrap_or_else(|_| "fast,dlx-knuth,dlx,sat,sat-extended".to_string());
    let strategies: Vec<&str> = chosen.split(',').collect();
    let (puzzles, solutions) = read_bundled("corpora/minimal-16x16.txt");
    bench_set(
        c,
        "large-uniqueness",
        "minimal-16x16",
        &puzzles,
        &solutions,
        &strategies,
    );
}

criterion_group!(benches, bundled, public, large);
criterion_main!(benches);
