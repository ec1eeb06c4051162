//! Every engine keeps its time budget on hostile inputs, or refuses the puzzle up front. The
//! engines that call into crates (`dlx`, the `sat` family) must be stopped from outside those
//! calls, or one puzzle can hold a core for minutes past `--timeout`.
//!
//! Each run is the command line, as a user runs it, so that a search abandoned inside a crate
//! that cannot be interrupted (dlx-rs) ends with its process instead of holding a core for the
//! rest of the suite.
//!
//! The bound: 2 x the timeout per puzzle, plus a fixed slack of 2 s for the whole run. The
//! engines look at the clock every 1,024 nodes, and the slowest node measured (`scan` on a
//! 64x64) costs well under a millisecond; what the slack covers is the process itself (start,
//! reading, the sat encodings built before the clock can be read: about 50 ms at 25x25) on a
//! shared 2-core machine that runs the other tests at the same time. Measured in release on
//! these inputs: every run ends within 0.31 s per puzzle at `--timeout 300ms`.

use std::time::{Duration, Instant};

use sudolab::strategy;

use crate::cli::sudolab;

const TIMEOUT_MS: u64 = 300;
const SLACK: Duration = Duration::from_secs(2);

/// Runs `count` with every engine on `file` (holding `puzzles` puzzles) and checks that each
/// run ends in its budget with a verdict, or refuses the shape with its reason.
fn every_engine_keeps_its_budget(file: &str, puzzles: u32, extra: &[&str]) {
    let timeout = format!("{TIMEOUT_MS}ms");
    let bound = Duration::from_millis(2 * TIMEOUT_MS) * puzzles + SLACK;
    for engine in strategy::registry() {
        let mut args = vec!["count", "-s", engine.name(), "--timeout", &timeout, file];
        args.extend_from_slice(extra);
        let start = Instant::now();
        let run = sudolab(&args, "");
        let took = start.elapsed();
        assert!(
            took <= bound,
            "{} on {file} took {took:?}, over {bound:?}",
            engine.name()
        );
        match run.code {
            // A verdict for every puzzle: decided, or unknown because the budget ran out.
            0 | 1 => {
                assert_eq!(
                    run.stdout.lines().count(),
                    puzzles as usize,
                    "{} on {file}: {}",
                    engine.name(),
                    run.stdout
                );
                for line in run.stdout.lines() {
                    assert!(
                        ["unique", "multiple", "none"]
                            .iter()
                            .any(|verdict| line.contains(verdict))
                            || line.ends_with("(timed out)"),
                        "{} on {file}: {line}",
                        engine.name()
                    );
                }
            }
            // Refused before any search, with the reason.
            2 => assert!(
                run.stderr
                    .contains(&format!("{} cannot count this puzzle", engine.name())),
                "{} on {file}: {}",
                engine.name(),
                run.stderr
            ),
            code => panic!("{} on {file}: exit {code}: {}", engine.name(), run.stderr),
        }
    }
}

#[test]
fn a_16x16_deep_in_dlx_rs_tree() {
    every_engine_keeps_its_budget("corpora/hostile/dlx-deep-16x16.txt", 1, &[]);
}

#[test]
fn the_bundled_minimal_25x25() {
    every_engine_keeps_its_budget("corpora/minimal-25x25.txt", 4, &[]);
}

#[test]
fn a_64x64_with_one_row_given() {
    every_engine_keeps_its_budget("corpora/hostile/row-64x64.json", 1, &[]);
}

#[test]
fn counting_every_solution_of_the_empty_9x9() {
    // `--limit 0` asks for every solution: only the clock stops it.
    every_engine_keeps_its_budget("corpora/hostile/empty-9x9.txt", 1, &["--limit", "0"]);
}

#[test]
fn compare_on_the_hostile_16x16_ends_in_its_budget() {
    let engines = strategy::registry().len() as u32;
    let start = Instant::now();
    let run = sudolab(
        &[
            "compare",
            "--timeout",
            "300ms",
            "corpora/hostile/dlx-deep-16x16.txt",
        ],
        "",
    );
    let took = start.elapsed();
    assert!(
        took <= Duration::from_millis(2 * TIMEOUT_MS) * engines + SLACK,
        "compare took {took:?}"
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // dlx was stopped at its deadline inside dlx-rs, and the run says so.
    assert!(
        run.stderr
            .contains("1 search stopped at the deadline inside a crate"),
        "{}",
        run.stderr
    );
}
