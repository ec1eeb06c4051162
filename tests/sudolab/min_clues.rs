//! `grids min-clues`: the puzzles of K clues inside a grid by unavoidable sets and a
//! hitting-set search, held to a brute force over every K-subset of cells on 4x4, to itself
//! with other starting sets on 6x6, and the fewest clues over all 4x4 grids (published: 4).

use std::collections::BTreeSet;

use sudolab::grids::{MinCluesError, MinCluesOptions, essentially_different_grids, min_clues};
use sudolab::model::{Grid, Shape, to_line};
use sudolab::strategy::{Fast, Limits, Strategy};

use crate::cli::sudolab;

const GRID_4X4: &str = "1234341221434321";
const GRID_6X6: &str = "123456456123231564564231312645645312";

fn grid(line: &str, shape: Shape) -> Grid {
    let cells = line.bytes().map(|b| b - b'0').collect();
    Grid::from_cells(shape, cells).unwrap()
}

/// Every `clues`-subset of the grid's cells whose puzzle the engine finds unique, by brute
/// force (no unavoidable set involved).
fn brute_force(grid: &Grid, clues: usize) -> BTreeSet<String> {
    let cells = grid.cells().len();
    let mut found = BTreeSet::new();
    for mask in 0u32..(1 << cells) {
        if mask.count_ones() as usize != clues {
            continue;
        }
        let mut puzzle = grid.clone();
        for cell in 0..cells {
            if mask & (1 << cell) == 0 {
                puzzle.set(cell, 0);
            }
        }
        if Fast.count_up_to(&puzzle, 2, &Limits::unlimited()).found == 1 {
            found.insert(to_line(&puzzle).unwrap());
        }
    }
    found
}

fn listed(grid: &Grid, clues: usize, set_digits: usize) -> Vec<String> {
    let options = MinCluesOptions {
        set_digits,
        ..MinCluesOptions::default()
    };
    let mut puzzles = Vec::new();
    let stats = min_clues(grid, clues, &options, &mut |puzzle| {
        puzzles.push(to_line(puzzle).unwrap());
    })
    .unwrap();
    assert!(stats.complete());
    assert_eq!(stats.puzzles, puzzles.len() as u64);
    puzzles
}

#[test]
fn four_by_four_puzzles_are_exactly_the_brute_force_ones() {
    let grid = grid(GRID_4X4, Shape::new(2, 2).unwrap());
    for clues in 0..=7 {
        let expected = brute_force(&grid, clues);
        for set_digits in [2, 3, 4] {
            let puzzles = listed(&grid, clues, set_digits);
            let unique: BTreeSet<String> = puzzles.iter().cloned().collect();
            assert_eq!(unique.len(), puzzles.len(), "a puzzle listed twice");
            assert_eq!(
                unique, expected,
                "{clues} clues, sets of {set_digits} digits"
            );
        }
    }
    // Three clues never suffice, four do (the 4x4 minimum).
    assert!(brute_force(&grid, 3).is_empty());
    assert!(!brute_force(&grid, 4).is_empty());
    // Each complete listing says whether one clue fewer has a unique puzzle.
    for clues in 1..=7 {
        let stats = min_clues(&grid, clues, &MinCluesOptions::default(), &mut |_| {}).unwrap();
        let fewer = !brute_force(&grid, clues - 1).is_empty();
        assert_eq!(stats.fewer, Some(fewer), "{clues} clues");
    }
}

#[test]
fn six_by_six_lists_do_not_depend_on_the_starting_sets() {
    let shape = Shape::new(2, 3).unwrap();
    let grid = grid(GRID_6X6, shape);
    for clues in [7, 8, 9] {
        // The order of the listing follows the sets; the puzzles listed do not.
        let mut few = listed(&grid, clues, 2);
        let mut many = listed(&grid, clues, 4);
        few.sort();
        many.sort();
        assert_eq!(few, many, "{clues} clues");
        for line in &few {
            let puzzle: Grid = sudolab::model::parse_line_record(line.as_bytes(), Some(shape), 1)
                .unwrap()
                .puzzle;
            assert_eq!(puzzle.clue_count(), clues);
            assert!(
                puzzle
                    .cells()
                    .iter()
                    .zip(grid.cells())
                    .all(|(&p, &g)| p == 0 || p == g)
            );
            let (solution, outcome) = Fast.solve(&puzzle, &Limits::unlimited());
            assert_eq!(solution.as_ref(), Some(&grid));
            assert_eq!(Fast.count_up_to(&puzzle, 2, &Limits::unlimited()).found, 1);
            assert_eq!(outcome.found, 1);
        }
    }
    // No 6x6 grid has a unique puzzle of 7 clues (the published minimum is 8).
    assert!(listed(&grid, 7, 3).is_empty());
}

#[test]
fn the_command_lists_the_puzzles_and_sums_up_the_search() {
    let run = sudolab(&["grids", "min-clues", GRID_4X4, "--clues", "4"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let grid = grid(GRID_4X4, Shape::new(2, 2).unwrap());
    let expected: Vec<String> = brute_force(&grid, 4).into_iter().collect();
    let mut lines: Vec<String> = run.stdout.lines().map(str::to_string).collect();
    lines.sort();
    assert_eq!(lines, expected);
    assert!(
        run.stderr.starts_with(&format!(
            "grid 1 {GRID_4X4}: complete: {} unique puzzles of 4 clues, all minimal, so none of 3; ",
            expected.len()
        )),
        "{}",
        run.stderr
    );

    let none = sudolab(
        &["grids", "min-clues", "-", "--clues", "3"],
        &format!("{GRID_4X4}\n"),
    );
    assert_eq!(none.code, 0, "{}", none.stderr);
    assert_eq!(none.stdout, "");
    assert!(
        none.stderr
            .contains("complete: no unique puzzle of 3 clues or fewer in this grid"),
        "{}",
        none.stderr
    );

    let json = sudolab(&["grids", "min-clues", GRID_4X4, "-k", "4", "--json"], "");
    assert_eq!(json.code, 0, "{}", json.stderr);
    let value: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(value["grid"], GRID_4X4);
    assert_eq!(value["complete"], true);
    assert_eq!(value["puzzles"].as_array().unwrap().len(), expected.len());
    assert_eq!(value["digit_subsets"], 11);
    assert_eq!(value["unique_with_one_fewer"], false);
    let five = sudolab(&["grids", "min-clues", GRID_4X4, "-k", "5", "--json"], "");
    let value: serde_json::Value = serde_json::from_str(five.stdout.trim()).unwrap();
    assert_eq!(value["unique_with_one_fewer"], true);
}

#[test]
fn the_fewest_clues_over_all_4x4_grids_is_four() {
    let run = sudolab(&["grids", "min-clues", "--all", "--box", "2x2"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "4\n");
    // The 288 grids fall in 2 classes of essentially different grids.
    assert!(
        run.stderr
            .contains("of 2 essentially different grids reach it"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_grids_fall_in_the_published_numbers_of_classes() {
    // Published: 2 essentially different 4x4 grids, 49 of 6x6 (2x3 boxes).
    let four = essentially_different_grids(Shape::new(2, 2).unwrap()).unwrap();
    assert_eq!(four.len(), 2);
    let six = essentially_different_grids(Shape::new(2, 3).unwrap()).unwrap();
    assert_eq!(six.len(), 49);
    // Each stands for its class once: no two share a first row of 1..side and are equal.
    let distinct: BTreeSet<Vec<u8>> = six.iter().map(|grid| grid.cells().to_vec()).collect();
    assert_eq!(distinct.len(), 49);
}

#[test]
fn the_fewest_clues_over_all_6x6_grids_is_eight() {
    let run = sudolab(
        &["grids", "min-clues", "--all", "--box", "2x3", "--json"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(value["min_clues"], 8);
    assert_eq!(value["grids"], 49);
    assert_eq!(value["complete"], true);
    // The witness is a unique 8-clue puzzle.
    let witness = value["witness"].as_str().unwrap();
    let shape = Shape::new(2, 3).unwrap();
    let puzzle = sudolab::model::parse_line_record(witness.as_bytes(), Some(shape), 1)
        .unwrap()
        .puzzle;
    assert_eq!(puzzle.clue_count(), 8);
    assert_eq!(Fast.count_up_to(&puzzle, 2, &Limits::unlimited()).found, 1);
}

#[test]
fn a_budget_gives_up_with_a_message_and_status_one() {
    let run = sudolab(
        &[
            "grids",
            "min-clues",
            GRID_6X6,
            "--clues",
            "9",
            "--max-nodes",
            "10",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("gave up after 10 nodes (--max-nodes): the search is not complete"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_search_over_all_grids_keeps_its_deadline_while_it_collects_sets() {
    // The 6x6 board's 49 grids take far longer than a millisecond: the deadline must hold
    // from the first grid's sets on, not only once every grid's sets are collected.
    let run = sudolab(
        &[
            "grids",
            "min-clues",
            "--all",
            "--box",
            "2x3",
            "--timeout",
            "1ms",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("gave up after 0.0 s (--timeout): the search is not complete"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_grids_and_clue_counts_are_refused_with_the_reason() {
    let shape = Shape::new(2, 2).unwrap();
    let options = MinCluesOptions::default();
    let incomplete = grid("1234341221434320", shape);
    assert_eq!(
        min_clues(&incomplete, 4, &options, &mut |_| {}).unwrap_err(),
        MinCluesError::NotComplete { empty: 1 }
    );
    let too_many = min_clues(&grid(GRID_4X4, shape), 17, &options, &mut |_| {}).unwrap_err();
    assert_eq!(
        too_many.to_string(),
        "--clues 17 is more than the board's 16 cells"
    );

    let clash = sudolab(
        &["grids", "min-clues", "1234341221434312", "--clues", "4"],
        "",
    );
    assert_eq!(clash.code, 2);
    assert!(
        clash
            .stderr
            .contains("grid 1: the grid is not a valid solution grid: "),
        "{}",
        clash.stderr
    );
    let empty = sudolab(
        &["grids", "min-clues", "1234341221434.21", "--clues", "4"],
        "",
    );
    assert_eq!(empty.code, 2);
    assert!(
        empty.stderr.contains(
            "grid 1: the grid has 1 empty cells: min-clues needs a complete solution grid"
        ),
        "{}",
        empty.stderr
    );
    let big = sudolab(&["grids", "min-clues", "--all", "--box", "3x3"], "");
    assert_eq!(big.code, 2);
    assert!(
        big.stderr.contains(
            "--all runs over every grid of the board, which takes boards up to 6x6 (boxes 2x2, \
             2x3, 3x2, and 1xN); --box 3x3 has 9x9"
        ),
        "{}",
        big.stderr
    );
    let missing = sudolab(&["grids", "min-clues", GRID_4X4], "");
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("--clues <K>"), "{}", missing.stderr);
}
