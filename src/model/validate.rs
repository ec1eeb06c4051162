//! Certifying answers against the rules and the givens. Nothing here searches.

use std::fmt;

use super::digits::DigitSet;
use super::grid::Grid;
use super::layout::Layout;
use super::shape::{House, MAX_SIDE, Shape, cell_name};

/// Two cells of one house holding the same digit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The house where the digit repeats.
    pub house: House,
    /// The repeated digit.
    pub digit: u8,
    /// The first two cells holding it, row-major.
    pub cells: (usize, usize),
    shape: Shape,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "digit {} appears twice in {} ({} and {})",
            self.digit,
            self.house,
            cell_name(self.shape, self.cells.0),
            cell_name(self.shape, self.cells.1)
        )
    }
}

/// The first repeated digit in any house (rows, then columns, then boxes), or `None` when the
/// filled cells are consistent. Empty cells are ignored, so this works on puzzles and on
/// partial grids alike.
pub fn find_conflict(grid: &Grid) -> Option<Conflict> {
    // Every engine asks this before each search: answer the common "no conflict" with one pass
    // over the cells and bit masks on the stack, and only look for the first conflict's houses
    // and cells (which allocates) when there is one.
    if is_consistent(grid) {
        return None;
    }
    let shape = grid.shape();
    let mut seen_at = vec![usize::MAX; shape.side() + 1];
    for house in shape.houses() {
        seen_at.fill(usize::MAX);
        for cell_idx in shape.house_cells(house) {
            let digit = grid.get(cell_idx);
            if digit == 0 {
                continue;
            }
            let first = seen_at[digit as usize];
            if first != usize::MAX {
                return Some(Conflict {
                    house,
                    digit,
                    cells: (first, cell_idx),
                    shape,
                });
            }
            seen_at[digit as usize] = cell_idx;
        }
    }
    None
}

/// Whether `answer`, of `puzzle`'s shape, solves it: in one pass without a branch per cell, the
/// digits of every house gathered as bits. A complete grid whose every house holds all `n`
/// digits in its `n` cells repeats none, so each house is a permutation.
fn is_solution(puzzle: &Grid, answer: &Grid) -> bool {
    let shape = puzzle.shape();
    let houses_of = &Layout::of(shape).houses_of;
    let full = DigitSet::full(shape.side()).bits();
    let (mut rows, mut cols, mut boxes) = ([0u64; MAX_SIDE], [0u64; MAX_SIDE], [0u64; MAX_SIDE]);
    // An empty cell, or a given changed: integer flags folded rather than `||`, so that this
    // pass is vectorized with no branch per cell.
    let wrong = puzzle
        .cells()
        .iter()
        .zip(answer.cells())
        .fold(0u8, |wrong, (&given, &found)| {
            wrong | u8::from(found == 0) | (u8::from(given != 0) & u8::from(given != found))
        });
    for (&found, &[row, col, box_idx]) in answer.cells().iter().zip(houses_of) {
        let bit = 1u64 << (found.wrapping_sub(1) & 63);
        // Houses are below MAX_SIDE = 64: the mask proves it, so no bounds checks.
        rows[row as usize & 63] |= bit;
        cols[col as usize & 63] |= bit;
        boxes[box_idx as usize & 63] |= bit;
    }
    let side = shape.side();
    wrong == 0
        && rows[..side]
            .iter()
            .chain(&cols[..side])
            .chain(&boxes[..side])
            .all(|&digits| digits == full)
}

/// Whether no digit repeats in any house, in one pass over the cells (no allocation).
fn is_consistent(grid: &Grid) -> bool {
    let houses_of = &Layout::of(grid.shape()).houses_of;
    // One word of digits per row, column and box (sides are at most 64).
    let (mut rows, mut cols, mut boxes) = ([0u64; MAX_SIDE], [0u64; MAX_SIDE], [0u64; MAX_SIDE]);
    // Repeats are collected, not returned at once: no branch per cell.
    let mut repeated = 0;
    for (&digit, &[row, col, box_idx]) in grid.cells().iter().zip(houses_of) {
        // An empty cell adds no bit: no branch on which cells are given.
        let bit = (1u64 << (digit.wrapping_sub(1) & 63)) * u64::from(digit != 0);
        let (row, col, box_idx) = (row as usize & 63, col as usize & 63, box_idx as usize & 63);
        repeated |= (rows[row] | cols[col] | boxes[box_idx]) & bit;
        rows[row] |= bit;
        cols[col] |= bit;
        boxes[box_idx] |= bit;
    }
    repeated == 0
}

/// Why a grid is not a solution of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// The answer has another shape than the puzzle.
    #[error("the answer is {found} but the puzzle is {expected}")]
    ShapeMismatch {
        /// The puzzle's shape.
        expected: Shape,
        /// The answer's shape.
        found: Shape,
    },
    /// An empty cell.
    #[error("cell {cell} is empty")]
    Incomplete {
        /// The cell, as `r3c7`.
        cell: String,
    },
    /// A given that the answer changed.
    #[error("cell {cell} holds {found} but the puzzle gives {given}")]
    GivenChanged {
        /// The cell, as `r3c7`.
        cell: String,
        /// The puzzle's digit.
        given: u8,
        /// The answer's digit.
        found: u8,
    },
    /// A house that is not a permutation of `1..=n`.
    #[error("{0}")]
    Duplicate(String),
}

/// Certifies that `answer` solves `puzzle`: same shape, complete, every given kept, every row,
/// column and box a permutation of `1..=n`.
pub fn validate(puzzle: &Grid, answer: &Grid) -> Result<(), Invalid> {
    let shape = puzzle.shape();
    if answer.shape() != shape {
        return Err(Invalid::ShapeMismatch {
            expected: shape,
            found: answer.shape(),
        });
    }
    if is_solution(puzzle, answer) {
        return Ok(());
    }
    // Something is wrong: name the first thing, in the order of the checks below.
    for cell_idx in 0..shape.cell_count() {
        let (given, found) = (puzzle.get(cell_idx), answer.get(cell_idx));
        if found == 0 {
            return Err(Invalid::Incomplete {
                cell: cell_name(shape, cell_idx),
            });
        }
        if given != 0 && given != found {
            return Err(Invalid::GivenChanged {
                cell: cell_name(shape, cell_idx),
                given,
                found,
            });
        }
    }
    // A complete grid whose houses have no repeated digit has every house a permutation:
    // n cells, n distinct values from 1..=n.
    match find_conflict(answer) {
        Some(conflict) => Err(Invalid::Duplicate(conflict.to_string())),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(shape: &str, cells: &[u8]) -> Grid {
        Grid::from_cells(shape.parse().unwrap(), cells.to_vec()).unwrap()
    }

    #[test]
    fn names_the_first_conflict() {
        let puzzle = grid("2x2", &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
        // Row 1 and column 2 are fine; the 1s at r1c1 and r4c2 share no house.
        assert_eq!(find_conflict(&puzzle), None);
        let puzzle = grid("2x2", &[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            find_conflict(&puzzle).unwrap().to_string(),
            "digit 1 appears twice in box 1 (r1c1 and r2c2)"
        );
    }

    #[test]
    fn certifies_and_rejects_answers() {
        let solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut puzzle_cells = solution;
        puzzle_cells[..4].fill(0);
        let puzzle = grid("2x2", &puzzle_cells);
        assert_eq!(validate(&puzzle, &grid("2x2", &solution)), Ok(()));

        let mut changed = solution;
        changed[15] = 3;
        assert_eq!(
            validate(&puzzle, &grid("2x2", &changed))
                .unwrap_err()
                .to_string(),
            "cell r4c4 holds 3 but the puzzle gives 1"
        );
        let mut swapped = solution;
        swapped.swap(0, 1);
        assert_eq!(
            validate(&puzzle, &grid("2x2", &swapped))
                .unwrap_err()
                .to_string(),
            "digit 2 appears twice in column 1 (r1c1 and r3c1)"
        );
        let mut holey = solution;
        holey[2] = 0;
        assert_eq!(
            validate(&puzzle, &grid("2x2", &holey))
                .unwrap_err()
                .to_string(),
            "cell r1c3 is empty"
        );
    }
}
