//! Unit tests of the step solver: hand-checked positions per technique, and every step of the
//! bundled puzzles checked against their solutions.

use super::*;
use crate::model::parse_line_record;

fn grid(line: &str) -> Grid {
    parse_line_record(line.as_bytes(), None, 1)
        .expect("a valid test puzzle")
        .puzzle
}

/// Board A of docs/teaching.md.
const BOARD_A: &str =
    "030260701680070090190004500820100040004602900050003028009300074040050036703018000";

#[test]
fn board_a_is_solved_by_singles_and_every_step_is_right() {
    let puzzle = grid(BOARD_A);
    let path = solve_path(&puzzle).unwrap();
    assert!(path.solved);
    let solution = is_proper(&puzzle).unwrap();
    check_path(&path, &solution).unwrap();
    assert_eq!(path.end, solution);
    assert_eq!(path.steps.len(), puzzle.cells().iter().filter(|&&v| v == 0).count());
}
