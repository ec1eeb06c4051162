//! Variants and research families through the library and the command line: known counts,
//! the files of corpora/variants re-made byte for byte, QWH/GSP hole patterns, located errors
//! for bad rules, the CNF of a variant decoded against its rules. The per-engine checks of
//! every variant are the data-driven cases of corpora/cases/variants.toml (cases.rs).

use std::path::Path;
use std::sync::Arc;

use sudolab::model::{Grid, Rules, RulesSpec, Shape};
use sudolab::strategy::{self, Limits, Verdict};

use crate::cli::sudolab;

fn latin(order: usize) -> Arc<Rules> {
    let spec = RulesSpec {
        latin: true,
        ..RulesSpec::default()
    };
    Arc::new(Rules::new(order, None, spec).unwrap())
}

/// Counts every solution with `engine`, which must finish.
fn count_all(engine: &str, puzzle: &Grid) -> u64 {
    let outcome = strategy::find(engine)
        .unwrap()
        .count_up_to(puzzle, 0, &Limits::default());
    assert_eq!(outcome.stopped, None, "{engine}");
    outcome.found
}

/// The counts the issue pins: Latin squares of order 5 (161,280) counted outright; order 6
/// (812,851,200) as 9,408 reduced squares times 6! 5! (permuting the columns, then the rows
/// other than the first, maps the reduced squares one-to-one onto all of them); 6x6 Sudoku with
/// 2x3 boxes (28,200,960) as 39,168 completions of a fixed first row times 6! relabellings;
/// 4x4 Sudoku (288) outright. Each by engines of three families.
#[test]
fn known_counts() {
    let empty_5 = Grid::empty_with_rules(latin(5));
    for engine in ["fast", "dlx-knuth", "mrv"] {
        assert_eq!(count_all(engine, &empty_5), 161_280, "{engine}");
    }
    let mut reduced_6 = Grid::empty_with_rules(latin(6));
    for i in 0..6 {
        reduced_6.set(i, i as u8 + 1);
        reduced_6.set(i * 6, i as u8 + 1);
    }
    let factorial = |n: u64| (1..=n).product::<u64>();
    for engine in ["fast", "dlx-knuth", "toggle"] {
        let reduced = count_all(engine, &reduced_6);
        assert_eq!(reduced, 9_408, "{engine}");
        assert_eq!(reduced * factorial(6) * factorial(5), 812_851_200);
    }
    let six = Shape::new(2, 3).unwrap();
    let mut first_row = Grid::empty(six);
    for i in 0..6 {
        first_row.set(i, i as u8 + 1);
    }
    for engine in ["fast", "dlx-knuth"] {
        let completions = count_all(engine, &first_row);
        assert_eq!(completions, 39_168, "{engine}");
        assert_eq!(completions * factorial(6), 28_200_960);
    }
    let four = Grid::empty(Shape::new(2, 2).unwrap());
    for engine in ["fast", "dlx-knuth", "sat", "scan"] {
        assert_eq!(count_all(engine, &four), 288, "{engine}");
    }
}

/// Every file of corpora/variants is what its command in corpora/tools/make_variants.sh writes
/// today: the generator is seeded and the same on every platform.
#[test]
fn the_variant_files_are_remade_byte_for_byte() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = std::fs::read_to_string(root.join("corpora/tools/make_variants.sh")).unwrap();
    let mut remade = 0;
    for line in script.lines() {
        let Some(command) = line.strip_prefix("\"$sudolab\" ") else {
            continue;
        };
        let (args, target) = command
            .split_once(" > ")
            .expect("a command writes one file");
        let args: Vec<&str> = args.split_whitespace().collect();
        let run = sudolab(&args, "");
        assert_eq!(run.code, 0, "{command}: {}", run.stderr);
        let expected = std::fs::read_to_string(root.join(target)).unwrap();
        assert!(
            run.stdout == expected,
            "{target} differs from its command's output"
        );
        remade += 1;
    }
    assert_eq!(remade, 9);
}

/// Every bundled variant puzzle is unique for sat and mrv (they take every rule), and its
/// solution is the one the file gives.
#[test]
fn the_bundled_variant_puzzles_are_unique_for_two_engines() {
    let run = sudolab(
        &[
            "verify",
            "-s",
            "sat,mrv",
            "corpora/variants/x.json",
            "corpora/variants/windoku.json",
            "corpora/variants/anti-king.json",
            "corpora/variants/anti-knight.json",
            "corpora/variants/nonconsecutive.json",
            "corpora/variants/killer.json",
            "corpora/variants/jigsaw.json",
            "corpora/variants/latin-7.json",
            "corpora/variants/examples.toml",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.stdout.lines().count(), 4 * 5 + 3 + 3 + 4 + 2);
    assert!(
        run.stderr.contains("32 verified, 0 failed"),
        "{}",
        run.stderr
    );
}

/// QWH and GSP instances: the hole count and balance asked for, the solution written beside
/// each, the same bytes for the same seed.
#[test]
fn hole_patterns_follow_the_balance() {
    for (model, size, holes) in [("qwh", "10", "43"), ("gsp", "9", "38")] {
        for balance in ["none", "rows", "full"] {
            let args = [
                "generate",
                "--model",
                model,
                "--size",
                size,
                "--holes",
                holes,
                "--balance",
                balance,
                "-c",
                "3",
                "--seed",
                "5",
                "--with-solution",
            ];
            let run = sudolab(&args, "");
            assert_eq!(run.code, 0, "{}", run.stderr);
            assert_eq!(run.stdout, sudolab(&args, "").stdout, "reproducible");
            let side: usize = size.parse().unwrap();
            let holes: usize = holes.parse().unwrap();
            for line in run.stdout.lines() {
                let (puzzle, solution) = line.split_once(' ').unwrap();
                let empty: Vec<usize> = puzzle
                    .bytes()
                    .enumerate()
                    .filter(|&(_, byte)| byte == b'.')
                    .map(|(cell, _)| cell)
                    .collect();
                assert_eq!(empty.len(), holes, "{model} {balance}");
                let spread = |of: &dyn Fn(usize) -> usize| {
                    let mut counts = vec![0; side];
                    for &cell in &empty {
                        counts[of(cell)] += 1;
                    }
                    (*counts.iter().min().unwrap(), *counts.iter().max().unwrap())
                };
                let (rows, cols) = (spread(&|c| c / side), spread(&|c| c % side));
                if balance != "none" {
                    assert!(rows.1 - rows.0 <= 1, "{model} {balance} rows {rows:?}");
                }
                if balance == "full" {
                    assert!(cols.1 - cols.0 <= 1, "{model} {balance} columns {cols:?}");
                }
                // The givens are the solution's.
                for (given, solved) in puzzle.bytes().zip(solution.bytes()) {
                    assert!(given == b'.' || given == solved);
                }
            }
            // The instance has its solution: check it with the rules it is read under.
            let variant = if model == "qwh" { "latin" } else { "" };
            let mut count = vec!["count", "--limit", "1", "-s", "sat"];
            if !variant.is_empty() {
                count.extend(["--variant", variant]);
            }
            // The puzzles alone: an instance with holes may have other solutions too.
            let puzzles: String = run
                .stdout
                .lines()
                .flat_map(|line| [line.split_once(' ').unwrap().0, "\n"])
                .collect();
            let counted = sudolab(&count, &puzzles);
            assert_eq!(counted.code, 0, "{}", counted.stderr);
            assert!(
                counted
                    .stdout
                    .lines()
                    .all(|line| line.contains("\tsolved\t")),
                "{}",
                counted.stdout
            );
        }
    }
}

/// A unique Latin square completion from the generator is unique for other engines, and a
/// prime order without a default box reads in the line form under --variant latin.
#[test]
fn latin_puzzles_of_a_prime_order_read_and_verify() {
    let run = sudolab(
        &[
            "generate",
            "--model",
            "latin",
            "--size",
            "11",
            "-c",
            "2",
            "--seed",
            "3",
            "--verify",
            "sat,dlx-knuth",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().next().unwrap().len(), 121);
    let verified = sudolab(
        &["verify", "-s", "fast,dlx-knuth,mrv", "--variant", "latin"],
        &run.stdout,
    );
    assert_eq!(verified.code, 0, "{}", verified.stderr);
    assert!(verified.stderr.contains("2 verified, 0 failed"));
    // Without --variant the side has no box.
    let plain = sudolab(&["count"], &run.stdout);
    assert_eq!(plain.code, 2);
    assert!(
        plain
            .stderr
            .contains("a puzzle of 121 symbols is 11x11, but no default box shape for side 11"),
        "{}",
        plain.stderr
    );
}

/// Bad rules are one-line errors naming the region, cage or member and what is wrong.
#[test]
fn bad_rules_are_located_one_line_errors() {
    let cases = [
        (
            r#"{"regions": ["AABB", "AABB", "CCDD", "CCDE"], "cells": "................"}"#,
            "sudolab: <stdin>: line 1, column 1: puzzle 1: regions: expected 4 regions, found 5 (ABCDE)",
        ),
        (
            r#"{"regions": ["AAAA", "ABBB", "CCDD", "CCDD"], "cells": "................"}"#,
            "sudolab: <stdin>: line 1, column 1: puzzle 1: regions: region 'A' has 5 cells; every region needs 4",
        ),
        (
            r#"{"cages": [{"sum": 3, "cells": ["r1c1", "r1c2"]}, {"sum": 4, "cells": ["r1c2", "r2c2"]}], "cells": "................"}"#,
            "sudolab: <stdin>: line 1, column 1: puzzle 1: cage 2: r1c2 is also in cage 1; cages must not overlap",
        ),
        (
            r#"{"cages": [{"sum": 20, "cells": ["r1c1", "r1c2"]}], "cells": "................"}"#,
            "sudolab: <stdin>: line 1, column 1: puzzle 1: cage 1: sum 20 cannot be reached: 2 different digits 1-4 add up to 3 to 7",
        ),
        (
            r#"{"cages": [{"sum": 5, "cells": ["r1c1", "r5c1"]}], "cells": "................"}"#,
            "sudolab: <stdin>: line 1, column 1: puzzle 1: cage 1: expected a cell such as r1c1 with row and column 1-4, found 'r5c1'",
        ),
        (
            r#"{"windows": true, "cells": "...................................."}"#,
            "sudolab: <stdin>: line 1, column 1: puzzle 1: windows need square boxes of at least 2x2 (windoku is 9x9 with 3x3 boxes), found box 2x3",
        ),
        (
            r#"{"diagonal": true, "cells": "................"}"#,
            "sudolab: <stdin>: line 1, column 1: puzzle 1: unknown member \"diagonal\"; did you mean \"diagonals\"? (the variant rules are latin, diagonals, windows, regions, anti_king, anti_knight, nonconsecutive, cages, different)",
        ),
        (
            r#"{"diagonals": 1, "cells": "................"}"#,
            "sudolab: <stdin>: line 1, column 1: puzzle 1: rules: invalid type: integer `1`, expected a boolean",
        ),
    ];
    for (input, expected) in cases {
        let run = sudolab(&["count", "-s", "sat"], input);
        assert_eq!(run.code, 2, "{input}");
        assert_eq!(run.stderr.trim_end(), expected, "{input}");
    }
    let unknown = sudolab(&["count", "--variant", "x,sudoku"], "");
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains(
            "unknown variant 'sudoku'; valid: latin, x, windoku, anti-king, anti-knight, \
             nonconsecutive, killer"
        ),
        "{}",
        unknown.stderr
    );
    let dir = std::env::temp_dir().join(format!("sudolab-variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let toml = dir.join("broken.toml");
    std::fs::write(&toml, "[[puzzles]]\ndiagonals = true\ncells = [1, 2\n").unwrap();
    let run = sudolab(&["count", toml.to_str().unwrap()], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.trim_end(),
        format!(
            "sudolab: {}: line 4, column 1: invalid array; expected `]`",
            toml.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `export cnf` of a killer puzzle names its rules in a comment, and `decode` certifies a model
/// against them: the true solution decodes, a model that breaks a cage is refused.
#[test]
fn a_variant_cnf_decodes_against_its_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("sudolab-variant-cnf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let export = sudolab(
        &[
            "export",
            "cnf",
            "--encoding",
            "extended",
            "--puzzle",
            "1",
            "corpora/variants/killer.json",
        ],
        "",
    );
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert!(
        export
            .stdout
            .contains("\nc sudolab rules {\"cages\":[{\"sum\":13,")
    );
    let cnf = dir.join("killer.cnf");
    std::fs::write(&cnf, &export.stdout).unwrap();
    let doc: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("corpora/variants/killer.json")).unwrap(),
    )
    .unwrap();
    let cells: Vec<u8> = doc["puzzles"][0]["solution"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| {
            row.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u8)
        })
        .collect();
    let expected = Grid::from_cells(Shape::CLASSIC, cells).unwrap();
    let model_for = |grid: &Grid| model_of(&export.stdout, grid);
    let model = dir.join("killer.model");
    std::fs::write(&model, model_for(&expected)).unwrap();
    let decoded = sudolab(
        &["decode", cnf.to_str().unwrap(), model.to_str().unwrap()],
        "",
    );
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    assert_eq!(
        decoded.stdout.trim_end(),
        sudolab::model::to_line(&expected).unwrap()
    );
    // Swap two digits of a row outside the givens: the houses still hold, a cage breaks.
    let mut broken = expected.clone();
    let (a, b) = (0, 1);
    let (x, y) = (broken.get(a), broken.get(b));
    broken.set(a, y);
    broken.set(b, x);
    std::fs::write(&model, model_for(&broken)).unwrap();
    let refused = sudolab(
        &["decode", cnf.to_str().unwrap(), model.to_str().unwrap()],
        "",
    );
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("the model does not decode to a solution: "),
        "{}",
        refused.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
    // The exact-cover export refuses the cages it cannot express.
    let cover = sudolab(
        &[
            "export",
            "cover",
            "--puzzle",
            "1",
            "corpora/variants/killer.json",
        ],
        "",
    );
    assert_eq!(cover.code, 2);
    assert!(
        cover
            .stderr
            .contains("no exact-cover matrix for killer puzzles")
    );
}

/// A SAT model of `cnf` (as sudolab exports it): "cell holds digit" true exactly where `grid`
/// says so.
fn model_of(cnf: &str, grid: &Grid) -> String {
    let mut literals = Vec::new();
    for line in cnf.lines() {
        let Some(rest) = line.strip_prefix("c sudolab var ") else {
            continue;
        };
        let fields: Vec<i64> = rest
            .split_whitespace()
            .map(|field| field.parse().unwrap())
            .collect();
        let (var, row, col, digit) = (fields[0], fields[1], fields[2], fields[3]);
        let cell = usize::try_from((row - 1) * 9 + col - 1).unwrap();
        let holds = i64::from(grid.get(cell)) == digit;
        literals.push((if holds { var } else { -var }).to_string());
    }
    format!("s SATISFIABLE\nv {} 0\n", literals.join(" "))
}

/// The library's generator for variants: every puzzle unique under its rules for an engine
/// other than the checker, seeded.
#[test]
fn the_library_generates_variant_puzzles() {
    let options = sudolab::generate::Options {
        shape: Shape::CLASSIC,
        clues: None,
        minimal: true,
        symmetry: sudolab::generate::Symmetry::None,
        check_timeout: None,
    };
    let spec = RulesSpec {
        diagonals: true,
        anti_knight: true,
        ..RulesSpec::default()
    };
    let rules = Arc::new(Rules::new(9, None, spec).unwrap());
    let fast = strategy::find("fast").unwrap();
    let sat = strategy::find("sat").unwrap();
    for index in 0..3 {
        let made = sudolab::generate::generate_variant(&options, &rules, false, fast, 11, index)
            .expect("X anti-knight grids exist");
        assert_eq!(
            made,
            sudolab::generate::generate_variant(&options, &rules, false, fast, 11, index).unwrap()
        );
        assert_eq!(made.puzzle.rules(), Some(&rules));
        let outcome = sat.count_up_to(&made.puzzle, 2, &Limits::default());
        assert_eq!(outcome.verdict(), Verdict::Unique);
        sudolab::model::validate(&made.puzzle, &made.solution).unwrap();
    }
}

/// `mrv --randomize`: the same seed walks the same tree, and every verdict and solution stays
/// the textbook search's; restarts (Luby or geometric cutoffs) still find the one solution and
/// still prove that a puzzle without one has none.
#[test]
fn randomized_mrv_with_restarts_keeps_every_verdict() {
    use sudolab::strategy::{Counter, Restarts};
    let mrv = strategy::find("mrv").unwrap();
    let cases = [
        "030260701680070090190004500820100040004602900050003028009300074040050036703018000",
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
    ];
    for line in cases {
        let puzzle: Grid = line.parse().unwrap();
        let textbook = mrv.count_up_to(&puzzle, 2, &Limits::default());
        let mut nodes = Vec::new();
        for seed in [1, 2, 1] {
            let limits = Limits {
                randomize: Some(seed),
                ..Limits::default()
            }
            .with_max_solutions(2);
            let mut solutions = Vec::new();
            let outcome = mrv.search(&puzzle, &limits, &mut |grid| solutions.push(grid.clone()));
            assert_eq!(outcome.verdict(), textbook.verdict());
            assert_eq!(solutions.len(), 1);
            sudolab::model::validate(&puzzle, &solutions[0]).unwrap();
            nodes.push(outcome.stats.get(Counter::Nodes).unwrap());
        }
        assert_eq!(nodes[0], nodes[2], "the same seed, the same tree");
        for schedule in [
            Restarts::Luby { unit: 2 },
            Restarts::Geometric {
                unit: 5,
                factor: 1.3,
            },
        ] {
            let limits = Limits {
                randomize: Some(9),
                restarts: Some(schedule),
                ..Limits::default()
            };
            let (solution, outcome) = mrv.solve(&puzzle, &limits);
            assert_eq!(outcome.verdict(), Verdict::Solved, "{schedule:?}");
            sudolab::model::validate(&puzzle, &solution.unwrap()).unwrap();
            // Each abandoned run spent exactly its cutoff; the last one at least its root and
            // at most its own cutoff.
            let restarts = outcome.stats.get(Counter::Restarts).unwrap();
            let nodes = outcome.stats.get(Counter::Nodes).unwrap();
            let spent: u64 = (1..=restarts as u32).map(|run| schedule.cutoff(run)).sum();
            let next = schedule.cutoff(restarts as u32 + 1);
            assert!(
                spent < nodes && nodes <= spent + next,
                "{schedule:?}: {restarts} restarts, {nodes} nodes, cutoffs {spent} + {next}"
            );
        }
        let randomized = Limits {
            randomize: Some(9),
            ..Limits::default()
        };
        assert_eq!(
            mrv.solve(&puzzle, &randomized)
                .1
                .stats
                .get(Counter::Restarts),
            None
        );
    }
    // No solution is still proved so: the last run ends within its cutoff.
    let none: Grid = "12....3...4.....".parse().unwrap();
    let limits = Limits {
        randomize: Some(3),
        restarts: Some(Restarts::Luby { unit: 1 }),
        ..Limits::default()
    };
    assert_eq!(mrv.solve(&none, &limits).1.verdict(), Verdict::None);
}

/// The command line refuses an order an engine cannot follow, and restarts on a count.
#[test]
fn randomize_and_restarts_on_the_command_line() {
    let refused = sudolab(
        &[
            "count",
            "-s",
            "dlx-knuth",
            "--randomize",
            "1",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr.trim_end(),
        "sudolab: --randomize: dlx-knuth searches in its own fixed order; mrv randomizes its ties \
         and value order"
    );
    let counted = sudolab(
        &[
            "count",
            "-s",
            "mrv",
            "--randomize",
            "1",
            "--restarts",
            "luby",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(counted.code, 2);
    assert!(counted.stderr.contains("--restarts finds one solution"));
    let solved = sudolab(
        &[
            "solve",
            "-s",
            "mrv",
            "--randomize",
            "5",
            "--restarts",
            "luby:3",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert_eq!(
        solved.stdout,
        format!(
            "{}\n548761923217983456963542187392857641176294835854316792731428569425679318689135274\n",
            crate::cli::BOARD_A_SOLUTION
        )
    );
}
