//! Certifying answers against the rules and the givens. Nothing here searches.

use std::fmt;

use super::digits::DigitSet;
use super::grid::Grid;
use super::layout::Layout;
use super::rules::{Rules, sum_range};
use super::shape::{MAX_SIDE, Shape, cell_name};

/// A broken rule among the filled cells: two cells of one house holding the same digit, or (in
/// a variant) a must-differ pair holding one digit, adjacent consecutive digits, or a cage
/// whose digits cannot add up to its sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The rule broken.
    pub rule: ConflictRule,
    /// The digit involved (the smaller of two consecutive digits; `0` for a cage's sum).
    pub digit: u8,
    /// Two cells involved, row-major (for a cage, its first and last cells).
    pub cells: (usize, usize),
    shape: Shape,
}

/// Which rule a [`Conflict`] breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConflictRule {
    /// A digit repeated in a house, named as people name it (`box 2`, `the main diagonal`).
    House(String),
    /// A must-differ pair (anti-king, anti-knight, `different`) holding one digit.
    Different,
    /// Orthogonal neighbours holding consecutive digits (non-consecutive).
    Consecutive,
    /// A digit repeated in a cage (one-based number).
    CageRepeat(usize),
    /// A cage whose digits add up to `found` with `empty` cells still empty, which no filling
    /// of the empty cells brings to `sum`.
    CageSum {
        /// One-based cage number.
        cage: usize,
        /// The cage's sum.
        sum: u32,
        /// The sum of its filled cells.
        found: u32,
        /// Its empty cells.
        empty: usize,
    },
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (first, second) = (
            cell_name(self.shape, self.cells.0),
            cell_name(self.shape, self.cells.1),
        );
        let digit = self.digit;
        match &self.rule {
            ConflictRule::House(house) => {
                write!(
                    f,
                    "digit {digit} appears twice in {house} ({first} and {second})"
                )
            }
            ConflictRule::Different => write!(
                f,
                "digit {digit} is in both {first} and {second}, which must hold different digits"
            ),
            ConflictRule::Consecutive => write!(
                f,
                "{first} and {second} hold {digit} and {}, consecutive digits side by side",
                digit + 1
            ),
            ConflictRule::CageRepeat(cage) => {
                write!(
                    f,
                    "digit {digit} appears twice in cage {cage} ({first} and {second})"
                )
            }
            ConflictRule::CageSum {
                cage,
                sum,
                found,
                empty: 0,
            } => write!(f, "cage {cage} adds up to {found}, not {sum}"),
            ConflictRule::CageSum {
                cage,
                sum,
                found,
                empty,
            } => write!(
                f,
                "cage {cage} cannot add up to {sum}: its digits make {found} with {empty} cells empty"
            ),
        }
    }
}

/// The first repeated digit in any house (rows, then columns, then boxes), or `None` when the
/// filled cells are consistent. Empty cells are ignored, so this works on puzzles and on
/// partial grids alike.
pub fn find_conflict(grid: &Grid) -> Option<Conflict> {
    if let Some(rules) = grid.rules() {
        return rules_conflict(rules, grid.cells());
    }
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
                    rule: ConflictRule::House(house.to_string()),
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

/// The first broken rule of a variant among `cells`: houses in order, then must-differ pairs,
/// non-consecutive pairs and cages. Empty cells are ignored (a cage's sum is checked against
/// what its empty cells could still add).
pub(crate) fn rules_conflict(rules: &Rules, cells: &[u8]) -> Option<Conflict> {
    let shape = rules.shape();
    let side = rules.side();
    let conflict = |rule, digit, first: u16, second: u16| Conflict {
        rule,
        digit,
        cells: (first as usize, second as usize),
        shape,
    };
    let mut seen_at = vec![u16::MAX; side + 1];
    for house in rules.houses() {
        seen_at.fill(u16::MAX);
        for &cell in &house.cells {
            let digit = cells[cell as usize];
            if digit == 0 {
                continue;
            }
            let first = seen_at[digit as usize];
            if first != u16::MAX {
                return Some(conflict(
                    ConflictRule::House(house.to_string()),
                    digit,
                    first,
                    cell,
                ));
            }
            seen_at[digit as usize] = cell;
        }
    }
    for &[a, b] in rules.different_pairs() {
        let digit = cells[a as usize];
        if digit != 0 && digit == cells[b as usize] {
            return Some(conflict(ConflictRule::Different, digit, a, b));
        }
    }
    for &[a, b] in rules.nonconsecutive_pairs() {
        let (x, y) = (cells[a as usize], cells[b as usize]);
        if x != 0 && y != 0 && x.abs_diff(y) == 1 {
            return Some(conflict(ConflictRule::Consecutive, x.min(y), a, b));
        }
    }
    for (idx, cage) in rules.cages().iter().enumerate() {
        seen_at.fill(u16::MAX);
        let (mut found, mut empty) = (0u32, 0usize);
        for &cell in &cage.cells {
            let digit = cells[cell as usize];
            if digit == 0 {
                empty += 1;
                continue;
            }
            let first = seen_at[digit as usize];
            if first != u16::MAX {
                return Some(conflict(
                    ConflictRule::CageRepeat(idx + 1),
                    digit,
                    first,
                    cell,
                ));
            }
            seen_at[digit as usize] = cell;
            found += u32::from(digit);
        }
        if let Some(sum) = cage.sum {
            let (low, high) = sum_range(empty, side);
            if found + low > sum || found + high < sum {
                let (first, last) = (cage.cells[0], cage.cells[cage.cells.len() - 1]);
                let rule = ConflictRule::CageSum {
                    cage: idx + 1,
                    sum,
                    found,
                    empty,
                };
                return Some(conflict(rule, 0, first, last));
            }
        }
    }
    None
}

/// Whether `answer`, of `puzzle`'s shape, solves it: in one pass without a branch per cell, the
/// digits of every house gathered as bits. A complete grid whose every house holds all `n`
/// digits in its `n` cells repeats none, so each house is a permutation.
fn is_solution(puzzle: &Grid, answer: &Grid) -> bool {
    let shape = puzzle.shape();
    if shape == Shape::CLASSIC {
        return is_classic_solution(puzzle.cells(), answer.cells());
    }
    is_solution_by_layout(puzzle, answer)
}

/// [`is_solution`] for any shape, through the layout's houses of each cell.
fn is_solution_by_layout(puzzle: &Grid, answer: &Grid) -> bool {
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

/// [`is_solution`] on 9x9, where every command certifies `fast`'s 2 µs answers: the cells'
/// digit bits gathered by rows of 9 rather than through the layout's table (a row's three
/// box triples give its row and its boxes; columns are nine rows OR-ed lane by lane), about
/// 400 instructions instead of 1,100.
fn is_classic_solution(puzzle: &[u8], answer: &[u8]) -> bool {
    const FULL: u16 = 0x3FE;
    let (Ok(puzzle), Ok(answer)) = (<&[u8; 81]>::try_from(puzzle), <&[u8; 81]>::try_from(answer))
    else {
        return false;
    };
    // An empty cell or a value above 9 (the answer need not be a grid yet: `solves`), or a
    // given changed.
    let wrong = puzzle
        .iter()
        .zip(answer)
        .fold(0u8, |wrong, (&given, &found)| {
            wrong
                | u8::from(found.wrapping_sub(1) > 8)
                | (u8::from(given != 0) & u8::from(given != found))
        });
    // Digit `d` is bit `d` (one shift, where `d - 1` cost two instructions more a cell): an
    // empty cell's bit 0 is in no full house, and values above 9, which may fold onto digits
    // here, are in `wrong`.
    let bits: [u16; 81] = std::array::from_fn(|cell| 1u16 << (answer[cell] & 15));
    let mut cols = [0u16; 9];
    let mut houses_full = true;
    for band in bits.chunks_exact(27) {
        let mut boxes = [0u16; 3];
        for row in band.chunks_exact(9) {
            let triples = [
                row[0] | row[1] | row[2],
                row[3] | row[4] | row[5],
                row[6] | row[7] | row[8],
            ];
            houses_full &= (triples[0] | triples[1] | triples[2]) == FULL;
            for (digits, triple) in boxes.iter_mut().zip(triples) {
                *digits |= triple;
            }
            for (digits, &bit) in cols.iter_mut().zip(row) {
                *digits |= bit;
            }
        }
        houses_full &= boxes.iter().all(|&digits| digits == FULL);
    }
    houses_full &= cols.iter().all(|&digits| digits == FULL);
    wrong == 0 && houses_full
}

/// Whether `answer`, the row-major cells of an answer to `puzzle` (any values, not yet a
/// [`Grid`]), solves it: [`validate`]'s common case, answered without making a grid of the
/// cells. Only plain 9x9 puzzles are answered here; `false` means "ask [`validate`]", which
/// names what is wrong, or certifies the other shapes and the variants.
pub fn solves(puzzle: &Grid, answer: &[u8]) -> bool {
    puzzle.shape() == Shape::CLASSIC
        && puzzle.rules().is_none()
        && is_classic_solution(puzzle.cells(), answer)
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
    if puzzle.rules().is_none() && is_solution(puzzle, answer) {
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
    if let Some(rules) = puzzle.rules() {
        return match rules_conflict(rules, answer.cells()) {
            Some(conflict) => Err(Invalid::Duplicate(conflict.to_string())),
            None => Ok(()),
        };
    }
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
    fn the_classic_check_agrees_with_the_general_one() {
        let text =
            "435269781682571493197834562826195347374682915951743628519326874248957136763418259";
        let solution: Vec<u8> = text.bytes().map(|b| b - b'0').collect();
        let shape = Shape::CLASSIC;
        let mut puzzle_cells = solution.clone();
        for cell in (0..81).step_by(2) {
            puzzle_cells[cell] = 0;
        }
        let puzzle = Grid::from_cells(shape, puzzle_cells).unwrap();
        let mut answers = vec![solution.clone()];
        for cell in 0..81 {
            for value in 0..=9 {
                let mut changed = solution.clone();
                changed[cell] = value;
                answers.push(changed);
            }
            // Two cells of a row swapped: rows stay full, columns and maybe boxes do not.
            let mut swapped = solution.clone();
            swapped.swap(cell, cell / 9 * 9 + (cell + 4) % 9);
            answers.push(swapped);
        }
        for cells in answers {
            let answer = Grid::from_cells(shape, cells).unwrap();
            assert_eq!(
                is_classic_solution(puzzle.cells(), answer.cells()),
                is_solution_by_layout(&puzzle, &answer),
                "{:?}",
                answer.cells()
            );
        }
        assert!(is_classic_solution(puzzle.cells(), &solution));
        assert!(solves(&puzzle, &solution));
        // Cells that are no grid: a digit and the digit plus 16 share a bit modulo 16, so
        // only the range check tells them apart (cells 0 and 40 are blanks of the puzzle).
        for (cell, value) in [(0, solution[0] + 16), (40, solution[40] + 16), (80, 255)] {
            let mut raw = solution.clone();
            raw[cell] = value;
            assert!(!solves(&puzzle, &raw), "{value} at {cell}");
        }
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
