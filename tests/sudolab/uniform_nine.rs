//! Exactly uniform 9x9 grids from tables (`grids::three`): the 9x9 count they give, and the
//! draws `grids sample --box 3x3` makes from them. The uniformity of the draws is tested where
//! the class chances are reachable, next to the tables (`grids::three`'s unit tests). Also the
//! classes of essentially different grids that `min-clues --all` runs over, on Latin squares.

use std::collections::BTreeSet;

use sudolab::model::{Grid, Shape, parse_line_record, validate};

use crate::cli::sudolab;

/// Felgenhauer and Jarvis's 6,670,903,752,021,072,936,960 9x9 grids, from the same tables the
/// sampler draws by: 44 classes of first-band layouts, whose layouts, bands and completions
/// times the multiplier add up to the count.
#[test]
fn the_9x9_count_is_felgenhauer_and_jarvis_from_the_samplers_tables() {
    let run = sudolab(&["grids", "count", "--box", "3x3"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "6670903752021072936960\n");
    let run = sudolab(&["grids", "count", "--box", "3x3", "--json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let number = |value: &serde_json::Value| value.as_str().unwrap().parse::<u128>().unwrap();
    let classes = json["classes"].as_array().unwrap();
    assert_eq!(classes.len(), 44);
    // 9! / (3!)^3 relabellings of the first stack times 3!^2 column orders of the others.
    assert_eq!(number(&json["multiplier"]), 1680 * 36);
    let sum: u128 = classes
        .iter()
        .map(|class| {
            number(&class["layouts"]) * number(&class["bands"]) * number(&class["completions"])
        })
        .sum();
    assert_eq!(
        number(&json["multiplier"]) * sum,
        6_670_903_752_021_072_936_960
    );
    // The other two stacks run over the 280 column assignments in normal order each.
    let layouts: u128 = classes.iter().map(|class| number(&class["layouts"])).sum();
    assert_eq!(layouts, 280 * 280);
}

/// 9x9 draws are complete valid grids, different from each other, and the same for a seed
/// whatever the count (grid I comes from stream I of the seed).
#[test]
fn sampled_9x9_grids_are_valid_distinct_and_seeded() {
    let run = sudolab(
        &["grids", "sample", "--box", "3x3", "--seed", "4", "-c", "40"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 40);
    let shape = Shape::new(3, 3).unwrap();
    for line in &lines {
        let grid = parse_line_record(line.as_bytes(), Some(shape), 1)
            .unwrap()
            .puzzle;
        assert_eq!(grid.clue_count(), 81, "{line}");
        assert_eq!(validate(&Grid::empty(shape), &grid), Ok(()), "{line}");
    }
    let distinct: BTreeSet<&str> = lines.iter().copied().collect();
    assert_eq!(distinct.len(), 40);
    let again = sudolab(
        &["grids", "sample", "--box", "3x3", "--seed", "4", "-c", "10"],
        "",
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.stdout.lines().collect::<Vec<_>>(), lines[..10]);
}

/// `min-clues --all` on boards of one-row boxes (Latin squares) takes its classes from the same
/// engine-free code as `grids count --essentially-different`: the Latin squares of order 3 are
/// one class under row, column and symbol permutations, those of order 4 two (their isotopy
/// classes), and the smallest critical sets have 2 and 4 cells.
#[test]
fn the_fewest_clues_of_small_latin_squares_come_from_their_classes() {
    for (shape, grids, clues) in [("1x3", 1, 2), ("3x1", 1, 2), ("1x4", 2, 4)] {
        let run = sudolab(
            &["grids", "min-clues", "--all", "--box", shape, "--json"],
            "",
        );
        assert_eq!(run.code, 0, "{shape}: {}", run.stderr);
        let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(value["grids"], grids, "{shape}");
        assert_eq!(value["min_clues"], clues, "{shape}");
        assert_eq!(value["complete"], true, "{shape}");
    }
}
