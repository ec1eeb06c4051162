//! `sudolab hint`, `steps` and `rate`: the human-style step solver as a user runs it.

use serde_json::Value;

use crate::cli::sudolab;

const BOARD_A: &str =
    "030260701680070090190004500820100040004602900050003028009300074040050036703018000";

#[test]
fn hint_gives_the_easiest_step_and_why() {
    let run = sudolab(&["hint", BOARD_A], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "hidden single (box) (1.2): r1c1 = 4\nr1c1 is the only place for 4 in box 1\n"
    );
    let run = sudolab(&["hint", BOARD_A, "--json"], "");
    let step: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(step["technique"], "hidden-single-box");
    assert_eq!(step["placements"][0]["cell"], "r1c1");
    assert_eq!(step["placements"][0]["digit"], 4);
    assert_eq!(step["difficulty"], 1.2);
}

#[test]
fn steps_walk_the_whole_path_and_end_with_the_rating() {
    let run = sudolab(&["steps", "corpora/reference.txt", "-p", "2"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 57);
    assert_eq!(lines[56], "solved in 56 steps; rating 6.3 (VWXYZ-Wing)");
    assert_eq!(
        lines[55],
        " 56. 1.0 full house: r9c7 = 2  (r9c7 is the last empty cell of box 9, so it takes the missing 2)"
    );
    let run = sudolab(&["steps", "corpora/reference.txt", "-p", "2", "--json"], "");
    let path: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(path["solved"], true);
    assert_eq!(path["rating"], 6.3);
    assert_eq!(path["hardest"], "vwxyz-wing");
    assert_eq!(path["steps"].as_array().unwrap().len(), 56);
    assert_eq!(
        path["end"],
        "548761923217983456963542187392857641176294835854316792731428569425679318689135274"
    );
}

#[test]
fn puzzles_without_one_solution_are_not_rated() {
    let run = sudolab(
        &[
            "rate",
            "................",
            "4..3.....1....2.",
            "12......3...4...",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "<arg 1>:1\tnot a proper puzzle: it has several solutions\n\
         <arg 2>:1\t1.2\thidden single (box)\tsteps=12\tfast_nodes=1\tfast_guesses=0\t\
         propagation=naked-singles\tte=0\n\
         <arg 3>:1\tnot a proper puzzle: it has no solution\n"
    );
    let run = sudolab(&["hint", "................"], "");
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "sudolab: not a proper puzzle: it has several solutions\n"
    );
    let run = sudolab(&["steps", "12......3...4..."], "");
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "sudolab: not a proper puzzle: it has no solution\n"
    );
}

#[test]
fn rate_writes_json_lines() {
    let run = sudolab(&["rate", "--json", "4..3.....1....2."], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rated: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(rated["rating"], 1.2);
    assert_eq!(rated["hardest"], "hidden-single-box");
    assert_eq!(rated["proper"], true);
    assert_eq!(rated["steps"], 12);
    assert_eq!(rated["propagation"], "naked-singles");
    assert_eq!(rated["te_depth"], 0);
    assert_eq!(rated.get("te_depth_above"), None);
}

/// The T&E depth beyond the deepest level tried: line 3 of the bundled 16x16 file, which T&E(1)
/// (the deepest tried above 9x9) leaves open.
#[test]
fn rate_says_when_the_te_depth_is_beyond_the_levels_tried() {
    let text = std::fs::read_to_string("corpora/generated/16x16.txt").unwrap();
    let puzzle = text
        .lines()
        .nth(2)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let run = sudolab(&["rate", "--json", puzzle], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rated: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(rated["propagation"], Value::Null);
    assert_eq!(rated["te_depth"], Value::Null);
    assert_eq!(rated["te_depth_above"], 1);
    let run = sudolab(&["rate", puzzle], "");
    assert!(
        run.stdout.ends_with("\tpropagation=none\tte>1\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn rate_against_a_rated_file_gives_the_correlations() {
    let run = sudolab(&["rate", "--against", "corpora/rated/sample.txt:3"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 31);
    assert!(
        lines[0].starts_with("corpora/rated/sample.txt:3\t"),
        "{}",
        lines[0]
    );
    assert!(lines[0].ends_with("\ttruth=8.9"), "{}", lines[0]);
    assert_eq!(
        lines[30],
        "# 30 puzzles rated against corpora/rated/sample.txt:3 (0 not proper, 0 stopped, \
         counted as 10.0): Spearman 0.8852, Kendall tau-b 0.8191"
    );
    // The last field is the default column.
    let default = sudolab(&["rate", "--against", "corpora/rated/sample.txt"], "");
    assert_eq!(default.stdout.lines().count(), 31);
    assert!(default.stdout.contains("Spearman 0.8852"));
}

#[test]
fn rate_against_refuses_what_it_cannot_use_with_its_place() {
    let run = sudolab(&["rate", "--against", "corpora/rated/sample.txt:5"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: corpora/rated/sample.txt: line 3: has 3 fields, so there is no column 5\n"
    );
    let run = sudolab(&["rate", "--against", "corpora/rated/sample.txt:1"], "");
    assert_eq!(
        run.stderr,
        "sudolab: corpora/rated/sample.txt: line 3, field 1: expected a number, found \
         '00121d9a9024'\n"
    );
    let run = sudolab(&["rate", "--against", "corpora/rated/sample.txt:0"], "");
    assert_eq!(
        run.stderr,
        "sudolab: --against: columns count from 1 (1 is the first field)\n"
    );
    let run = sudolab(
        &[
            "rate",
            "--against",
            "corpora/rated/sample.txt",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(
        run.stderr,
        "sudolab: --against reads its puzzles from its own file; give no FILE with it\n"
    );
    let run = sudolab(&["rate", "--against", "corpora/reference.txt:2"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: corpora/reference.txt: line 3, field 2: expected a number, found a puzzle\n"
    );
}

#[test]
fn generate_keeps_puzzles_in_a_human_rating_range() {
    let run = sudolab(
        &["generate", "-c", "3", "--seed", "1", "--rating", "4.0..9.0"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let puzzles: Vec<&str> = run.stdout.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(puzzles.len(), 3);
    let mut args = vec!["rate", "--json"];
    args.extend(&puzzles);
    let rated = sudolab(&args, "");
    for line in rated.stdout.lines() {
        let object: Value = serde_json::from_str(line).unwrap();
        let rating = object["rating"].as_f64().unwrap();
        assert!((4.0..=9.0).contains(&rating), "{line}");
    }
    let run = sudolab(&["generate", "-c", "1", "--rating", "9..8"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("the range '9..8' is empty: MIN must not exceed MAX"),
        "{}",
        run.stderr
    );
    let run = sudolab(&["generate", "-c", "1", "--rating", "hard"], "");
    assert!(
        run.stderr.contains(
            "expected guess, no-guess, any, or a range of ratings on Sudoku Explainer's scale \
             such as 7.0..8.5 (0 to 20), found 'hard'"
        ),
        "{}",
        run.stderr
    );
    let run = sudolab(
        &[
            "generate", "-c", "1", "--seed", "1", "--rating", "2.0..2.8", "--json",
        ],
        "",
    );
    let document: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(document["rating"], "2.0..2.8");
    assert_eq!(document["puzzles"][0]["human_rating"], 2.6);
}

#[test]
fn rate_against_draws_the_calibration_chart() {
    let dir = std::env::temp_dir().join(format!("sudolab-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chart = dir.join("calibration.html");
    let chart_arg = chart.to_str().unwrap();
    let run = sudolab(
        &[
            "rate",
            "--against",
            "corpora/rated/sample.txt",
            "--chart",
            chart_arg,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = std::fs::read_to_string(&chart).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(
        page.contains(
            "30 puzzles of corpora/rated/sample.txt: Spearman 0.8852, Kendall tau-b 0.8191"
        )
    );
    assert!(page.contains("<svg") && page.contains("<circle"));
    let _ = std::fs::remove_dir_all(&dir);
    let run = sudolab(&["rate", "--chart", "x.html", "corpora/reference.txt"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--against <FILE[:COLUMN]>"),
        "{}",
        run.stderr
    );
}

/// The second puzzle of magictour's top1465 (public): the solver stops after a dynamic forcing
/// chain, says so, and exits 1; `rate` names where it stopped.
#[test]
fn a_puzzle_beyond_the_solver_stops_at_a_named_technique() {
    let puzzle =
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
    let run = sudolab(&["steps", puzzle], "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().last().unwrap(),
        "stopped after 27 steps: no technique the solver knows applies; hardest so far 9.4 \
         (dynamic cell/region forcing chain)"
    );
    let run = sudolab(&["rate", puzzle], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "<arg 1>:1\tstopped\tafter dynamic forcing chain\tsteps=27\tfast_nodes=78\tfast_guesses=77\t\
         propagation=none\tte=2\n"
    );
}

/// `generate --technique`, `--propagation` and `--te-depth`: the kept puzzles, re-rated, have
/// what was asked.
#[test]
fn generate_keeps_puzzles_by_technique_propagation_and_te_depth() {
    let run = sudolab(
        &[
            "generate",
            "-c",
            "2",
            "--seed",
            "1",
            "--technique",
            "x-wing",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "34.57............8..69..5......46.71.6.....392..3....6.5...269..3..6...7.........\n\
         41.5...9.....6..5..5643...8....83......7..9..3.8...27...7..4....31...5.4...35....\n"
    );
    for puzzle in run.stdout.lines() {
        let steps = sudolab(&["steps", "--json", puzzle], "");
        let path: Value = serde_json::from_str(steps.stdout.trim()).unwrap();
        let uses_x_wing = path["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|step| step["technique"] == "x-wing");
        assert!(uses_x_wing, "{puzzle}");
    }
    let run = sudolab(
        &[
            "generate",
            "-c",
            "2",
            "--seed",
            "1",
            "--propagation",
            "house-consistency",
            "--te-depth",
            "1",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut args = vec!["rate"];
    args.extend(run.stdout.lines());
    let rated = sudolab(&args, "");
    assert_eq!(rated.stdout.lines().count(), 2);
    for line in rated.stdout.lines() {
        assert!(
            line.ends_with("\tpropagation=house-consistency\tte=1"),
            "{line}"
        );
    }
}

/// Unknown names list the valid ones; a filter nothing passes gives up with its reason.
#[test]
fn generate_filters_refuse_unknown_names_and_give_up_with_a_reason() {
    let run = sudolab(&["generate", "-c", "1", "--technique", "x wing"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "error: invalid value 'x wing' for '--technique <T>': unknown technique 'x wing'; \
         expected one of full-house, hidden-single-box, hidden-single-line, naked-single, \
         pointing, claiming, naked-pair, x-wing, hidden-pair, naked-triple, swordfish, \
         hidden-triple, xy-wing, xyz-wing, unique-rectangle1, unique-rectangle2, unique-rectangle3, \
         unique-rectangle4, naked-quad, jellyfish, hidden-quad, wxyz-wing, bug1, vwxyz-wing, \
         x-chain, xy-chain, w-wing, aic, forcing-chain, cell-forcing-chain, dynamic-forcing-chain, \
         dynamic-cell-forcing-chain"
    );
    let run = sudolab(&["generate", "-c", "1", "--propagation", "gac"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "error: invalid value 'gac' for '--propagation <LEVEL>': unknown propagation level \
         'gac'; expected one of naked-singles, hidden-singles, locked-candidates, \
         house-consistency, none"
    );
    // Singles solve every generated 4x4 puzzle: the filter gives up with its reason.
    let run = sudolab(
        &["generate", "--size", "4", "-c", "1", "--te-depth", "1"],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --te-depth 1: 10000 candidates in a row on 2x2 boxes were rejected (such \
         puzzles are rare or absent among this generator's); generate without it, or with \
         another filter\n"
    );
    let run = sudolab(
        &[
            "generate",
            "-c",
            "1",
            "--technique",
            "x-wing",
            "--shard",
            "1/2",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("sudolab: --shard splits the puzzles by index")
    );
}
