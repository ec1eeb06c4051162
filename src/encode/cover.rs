//! The exact-cover matrix of a puzzle.
//!
//! Items: one per cell (`p`), row-digit (`r`), column-digit (`c`) and box-digit (`b`), `4 n^2`
//! in all. Options: one per cell and digit, covering its four items. The givens are pruned
//! rather than selected: their items are dropped, and only the candidates of the empty cells
//! (digits not yet used in the cell's row, column or box) become options. The puzzle's givens
//! must not conflict (callers check [`crate::model::find_conflict`] first).

use std::fmt::{self, Write as _};

use crate::model::{Grid, Shape};

/// One item of the matrix: a constraint that exactly one chosen option must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// Cell (row, column) holds some digit.
    Cell(usize, usize),
    /// Row holds digit.
    RowDigit(usize, u8),
    /// Column holds digit.
    ColDigit(usize, u8),
    /// Box holds digit.
    BoxDigit(usize, u8),
}

impl fmt::Display for Item {
    /// Knuth-style names with one-based numbers: `p3.7` (cell r3c7), `r3.5` (row 3 holds 5),
    /// `c7.5`, `b2.5`. At most 8 characters for sides up to 64, as DLX1 requires.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Item::Cell(row, col) => write!(f, "p{}.{}", row + 1, col + 1),
            Item::RowDigit(row, digit) => write!(f, "r{}.{digit}", row + 1),
            Item::ColDigit(col, digit) => write!(f, "c{}.{digit}", col + 1),
            Item::BoxDigit(box_idx, digit) => write!(f, "b{}.{digit}", box_idx + 1),
        }
    }
}

/// One option: writing `digit` into `cell`, which covers four items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoverOption {
    /// Row-major cell index.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// Indices into [`CoverMatrix::items`]: cell, row-digit, column-digit, box-digit.
    pub items: [u32; 4],
}

/// The exact-cover matrix of a puzzle with its givens pruned.
#[derive(Clone, Debug)]
pub struct CoverMatrix {
    shape: Shape,
    /// The items still to cover, in the order cell, row-digit, column-digit, box-digit.
    pub items: Vec<Item>,
    /// The options, cell by cell in row-major order, digits ascending.
    pub options: Vec<CoverOption>,
}

impl CoverMatrix {
    /// Builds the matrix of `puzzle`, whose givens must not conflict.
    pub fn build(puzzle: &Grid) -> CoverMatrix {
        let shape = puzzle.shape();
        let side = shape.side();
        let area = side * side;
        // Item slots in the full matrix: cells, then row-, column- and box-digits.
        let cell_slot = |row: usize, col: usize| row * side + col;
        let row_slot = |row: usize, digit: u8| area + row * side + digit as usize - 1;
        let col_slot = |col: usize, digit: u8| 2 * area + col * side + digit as usize - 1;
        let box_slot = |box_idx: usize, digit: u8| 3 * area + box_idx * side + digit as usize - 1;

        let mut covered = vec![false; 4 * area];
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                let (row, col) = (shape.row_of(cell), shape.col_of(cell));
                covered[cell_slot(row, col)] = true;
                covered[row_slot(row, digit)] = true;
                covered[col_slot(col, digit)] = true;
                covered[box_slot(shape.box_of(cell), digit)] = true;
            }
        }
        let mut index_of = vec![u32::MAX; 4 * area];
        let mut items = Vec::new();
        for (slot, &is_covered) in covered.iter().enumerate() {
            if is_covered {
                continue;
            }
            index_of[slot] = items.len() as u32;
            let (kind, within) = (slot / area, slot % area);
            let (major, digit) = (within / side, (within % side + 1) as u8);
            items.push(match kind {
                0 => Item::Cell(major, within % side),
                1 => Item::RowDigit(major, digit),
                2 => Item::ColDigit(major, digit),
                _ => Item::BoxDigit(major, digit),
            });
        }
        let mut options = Vec::new();
        for cell in 0..shape.cell_count() {
            if puzzle.get(cell) != 0 {
                continue;
            }
            let (row, col, box_idx) = (shape.row_of(cell), shape.col_of(cell), shape.box_of(cell));
            for digit in 1..=side as u8 {
                let slots = [
                    cell_slot(row, col),
                    row_slot(row, digit),
                    col_slot(col, digit),
                    box_slot(box_idx, digit),
                ];
                if slots.iter().any(|&slot| covered[slot]) {
                    continue;
                }
                options.push(CoverOption {
                    cell,
                    digit,
                    items: slots.map(|slot| index_of[slot]),
                });
            }
        }
        CoverMatrix {
            shape,
            items,
            options,
        }
    }

    /// The puzzle's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The matrix in the text format of Knuth's DLX1: comment lines starting with `|`, one line
    /// of item names, then one option per line as the names of its items.
    pub fn to_dlx_text(&self, puzzle: &Grid) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "| sudolab exact cover, box {}, {} givens pruned: {} items, {} options",
            self.shape,
            puzzle.clue_count(),
            self.items.len(),
            self.options.len()
        );
        let _ = writeln!(
            text,
            "| items: pR.C cell, rR.D row R holds D, cC.D column, bB.D box (one-based); an option pR.C rR.D cC.D bB.D writes D at rRcC"
        );
        let names: Vec<String> = self.items.iter().map(ToString::to_string).collect();
        text.push_str(&names.join(" "));
        text.push('\n');
        for option in &self.options {
            let names: Vec<&str> = option
                .items
                .iter()
                .map(|&item| names[item as usize].as_str())
                .collect();
            text.push_str(&names.join(" "));
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prunes_the_givens() {
        let puzzle = Grid::from_cells(
            "2x2".parse().unwrap(),
            vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        )
        .unwrap();
        let matrix = CoverMatrix::build(&puzzle);
        assert_eq!(matrix.items.len(), 4 * 16 - 4);
        // 15 empty cells x 4 digits, less digit 1 in the 7 peers of r1c1.
        assert_eq!(matrix.options.len(), 15 * 4 - 7);
        let text = matrix.to_dlx_text(&puzzle);
        let mut lines = text.lines().skip(2);
        assert!(lines.next().unwrap().starts_with("p1.2 p1.3 p1.4 p2.1"));
        assert_eq!(lines.next().unwrap(), "p1.2 r1.2 c2.2 b1.2");
    }
}
