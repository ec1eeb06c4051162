//! The generator and `sudolab verify`: reproducible output, uniqueness re-proven by other
//! engines, minimality, symmetry, impossible targets.

use std::path::Path;

use proptest::prelude::*;
use sudolab::generate::{Options, Symmetry, generate};
use sudolab::model::{Grid, Shape, parse_line_record, validate};
use sudolab::strategy::{self, Limits, Verdict};

use crate::cli::sudolab;

/// The puzzles (with solutions) of a bundled generated file, and its first-line command.
fn generated_file(name: &str) -> (String, Vec<(Grid, Grid)>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/generated")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("a bundled generated file");
    let command = text
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("# sudolab generate "))
        .expect("the first line is the command")
        .to_string();
    let puzzles = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .enumerate()
        .map(|(i, line)| {
            let record = parse_line_record(line.as_bytes(), None, i + 2).expect("a valid line");
            (
                record.puzzle,
                record.solution.expect("written --with-solution"),
            )
        })
        .collect();
    (command, puzzles)
}

const FILES: [&str; 7] = [
    "4x4.txt",
    "6x6.txt",
    "9x9-minimal.txt",
    "9x9-rot180.txt",
    "12x12.txt",
    "16x16.txt",
    "25x25.txt",
];

#[test]
fn the_same_seed_gives_the_same_bytes_with_any_jobs() {
    // The bundled files pin the output: re-running their commands gives the same puzzles.
    for name in ["4x4.txt", "6x6.txt", "9x9-rot180.txt"] {
        let (command, puzzles) = generated_file(name);
        for jobs in ["1", "2"] {
            let mut args: Vec<&str> = vec!["generate"];
            args.extend(command.split_whitespace());
            args.extend(["--jobs", jobs]);
            let run = sudolab(&args, "");
            assert_eq!(run.code, 0, "{}", run.stderr);
            let lines: Vec<&str> = run.stdout.lines().collect();
            assert_eq!(lines.len(), puzzles.len(), "{name}");
            let expected = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("corpora/generated")
                    .join(name),
            )
            .unwrap();
            let expected: Vec<&str> = expected.lines().skip(1).collect();
            assert_eq!(lines, expected, "{name} with --jobs {jobs}");
        }
    }
}

#[test]
fn every_bundled_puzzle_is_unique_for_two_engines_other_than_the_checker() {
    for name in FILES {
        let (command, puzzles) = generated_file(name);
        // The checker was fast (up to 12x12) or sat (16x16 and up): re-prove with two others.
        let side = puzzles[0].0.side();
        let others: &[&str] = if side >= 16 {
            &["fast", "dlx-knuth"]
        } else {
            &["dlx-knuth", "sat"]
        };
        for (puzzle, solution) in &puzzles {
            assert_eq!(validate(puzzle, solution), Ok(()), "{name}");
            for other in others {
                let engine = strategy::find(other).unwrap();
                let (found, _) = engine.solve(puzzle, &Limits::default());
                assert_eq!(found.as_ref(), Some(solution), "{name} {other}");
                let count = engine.count_up_to(puzzle, 2, &Limits::default());
                assert_eq!(
                    count.verdict(),
                    Verdict::Unique,
                    "{name} {other} ({command})"
                );
            }
        }
    }
}

#[test]
fn minimal_puzzles_are_minimal_and_symmetric_ones_symmetric() {
    let knuth = strategy::find("dlx-knuth").unwrap();
    let (_, puzzles) = generated_file("9x9-minimal.txt");
    let mut clue_total = 0;
    for (puzzle, _) in puzzles.iter().take(25) {
        clue_total += puzzle.clue_count();
        for cell in 0..81 {
            if puzzle.get(cell) == 0 {
                continue;
            }
            let mut fewer = puzzle.clone();
            fewer.set(cell, 0);
            let outcome = knuth.count_up_to(&fewer, 2, &Limits::default());
            assert_eq!(
                outcome.verdict(),
                Verdict::Multiple,
                "clue {cell} of a minimal puzzle"
            );
        }
    }
    assert!((20 * 25..=28 * 25).contains(&clue_total), "{clue_total}");
    let (_, puzzles) = generated_file("9x9-rot180.txt");
    for (puzzle, _) in &puzzles {
        assert!(Symmetry::Rot180.holds(puzzle));
    }
}

#[test]
fn every_symmetry_holds_through_the_command_line() {
    for symmetry in ["rot90", "mirror", "diagonal"] {
        let run = sudolab(&["generate", "--count", "3", "--symmetry", symmetry], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let symmetry = match symmetry {
            "rot90" => Symmetry::Rot90,
            "mirror" => Symmetry::Mirror,
            _ => Symmetry::Diagonal,
        };
        for line in run.stdout.lines() {
            let puzzle: Grid = line.parse().unwrap();
            assert!(symmetry.holds(&puzzle), "{symmetry:?}: {line}");
        }
    }
}

#[test]
fn impossible_targets_and_unknown_names_are_explained() {
    let run = sudolab(&["generate", "--clues", "5"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --clues 5 cannot give a unique 9x9 puzzle: no 9x9 puzzle with fewer than 17 \
         clues has a unique solution (McGuire, Tugemann and Civario, 2012); ask for at least 17\n"
    );
    let run = sudolab(&["generate", "--clues", "82"], "");
    assert_eq!(
        run.stderr,
        "sudolab: --clues 82 is more than the 81 cells of a 9x9 board\n"
    );
    let run = sudolab(&["generate", "--checker", "quick"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("unknown strategy 'quick'; valid strategies: fast, scan")
    );
    let run = sudolab(&["generate", "--size", "7"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("sudolab: --size 7: "),
        "{}",
        run.stderr
    );
    // A target the removal cannot reach is reported, not looped on.
    let run = sudolab(&["generate", "--count", "4", "--clues", "17"], "");
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout.lines().count(), 4);
    assert!(
        run.stderr
            .starts_with("sudolab: 4 of 4 puzzles stopped above 17 clues"),
        "{}",
        run.stderr
    );
}

#[test]
fn json_output_has_seed_options_and_ratings() {
    let run = sudolab(
        &[
            "generate", "--count", "2", "--seed", "5", "--json", "--rating", "guess",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(value["seed"], 5);
    assert_eq!(value["options"]["box"], "3x3");
    assert_eq!(value["checker"], "fast");
    let puzzles = value["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 2);
    for puzzle in puzzles {
        assert_eq!(
            puzzle["rating"]["no_guess"], false,
            "--rating guess keeps guessers"
        );
        assert!(puzzle["rating"]["mrv_nodes"].as_u64().unwrap() > 0);
    }
}

#[test]
fn verify_checks_outside_files() {
    let run = sudolab(&["verify", "corpora/reference.txt"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "corpora/reference.txt:3\tverified\tunique by fast, dlx-knuth, sat\n\
         corpora/reference.txt:4\tverified\tunique by fast, dlx-knuth, sat\n"
    );
    let run = sudolab(
        &["verify", "-s", "fast,mrv", "-"],
        "4..3.....1....2.\n4..3............\n",
    );
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "<stdin>:1\tverified\tunique by fast, mrv\n\
         <stdin>:2\tFAILED\tnot unique: fast says multiple (2+); not unique: mrv says \
         multiple (2+)\n"
    );
}

fn shapes() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::new(2, 2).unwrap()),
        Just(Shape::new(2, 3).unwrap()),
        Just(Shape::new(3, 2).unwrap()),
        Just(Shape::new(3, 3).unwrap()),
    ]
}

fn symmetries() -> impl Strategy<Value = Symmetry> {
    prop_oneof![
        Just(Symmetry::None),
        Just(Symmetry::Rot180),
        Just(Symmetry::Rot90),
        Just(Symmetry::Mirror),
        Just(Symmetry::Diagonal),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any seed, shape and symmetry: the puzzle is unique for an engine other than the checker,
    /// its solution is the generator's, and its givens are symmetric.
    #[test]
    fn generated_puzzles_are_unique_and_symmetric(
        seed in any::<u64>(), index in 0u64..1000, shape in shapes(), symmetry in symmetries()
    ) {
        let options = Options { shape, clues: None, minimal: true, symmetry, check_timeout: None };
        let fast = strategy::find("fast").unwrap();
        let generated = generate(&options, fast, seed, index);
        let knuth = strategy::find("dlx-knuth").unwrap();
        let outcome = knuth.count_up_to(&generated.puzzle, 2, &Limits::default());
        prop_assert_eq!(outcome.verdict(), Verdict::Unique);
        let (solution, _) = knuth.solve(&generated.puzzle, &Limits::default());
        prop_assert_eq!(solution.as_ref(), Some(&generated.solution));
        prop_assert!(symmetry.holds(&generated.puzzle));
        prop_assert_eq!(generated.clues, generated.puzzle.clue_count());
        prop_assert_eq!(generate(&options, fast, seed, index), generated);
    }
}
