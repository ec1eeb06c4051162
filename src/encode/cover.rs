//! The exact-cover matrix of a puzzle.
//!
//! Items: one per cell (`p`) and one per house and digit: row-digit (`r`), column-digit (`c`)
//! and box-digit (`b`), `4 n^2` in all for plain Sudoku; a variant's other houses add theirs
//! (jigsaw regions `j` instead of boxes, diagonals `d`, windows `w`; a Latin square has no
//! boxes). Options: one per cell and digit, covering its cell item and its digit's item in
//! every house of the cell. The givens are pruned rather than selected: their items are
//! dropped, and only the candidates of the empty cells (digits not yet used in any house of
//! the cell) become options. The puzzle's givens must not conflict (callers check
//! [`crate::model::find_conflict`] first). Rules that are not houses (must-differ and
//! non-consecutive pairs, cages) are not items: the exact-cover engines refuse them.

use std::fmt::{self, Write as _};

use crate::model::layout::Layout;
use crate::model::{Grid, RegionKind, Rules, Shape};

/// The most items one option covers: its cell, and a row, a column, a box or region, two
/// diagonals and a window.
pub const MAX_OPTION_ITEMS: usize = 8;

/// Whether the exact-cover matrix can express `rules`: only houses become items; `Err` says
/// why not, for the engines' refusals.
pub fn exact_cover_takes(rules: &Rules) -> Result<(), &'static str> {
    if rules.is_house_based() && rules.different_pairs().is_empty() {
        Ok(())
    } else {
        Err(
            "exact cover takes houses only; must-differ and non-consecutive pairs and cages \
             are not exactly-one constraints (sat, scan, toggle and mrv take every rule)",
        )
    }
}

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
    /// Another house of a variant holds digit: its kind, its number among houses of that kind.
    HouseDigit(RegionKind, usize, u8),
}

impl fmt::Display for Item {
    /// Knuth-style names with one-based numbers: `p3.7` (cell r3c7), `r3.5` (row 3 holds 5),
    /// `c7.5`, `b2.5`, and for variants `j2.5` (jigsaw region), `d1.5` (diagonal), `w4.5`
    /// (window). At most 8 characters for sides up to 64, as DLX1 requires.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Item::Cell(row, col) => write!(f, "p{}.{}", row + 1, col + 1),
            Item::RowDigit(row, digit) => write!(f, "r{}.{digit}", row + 1),
            Item::ColDigit(col, digit) => write!(f, "c{}.{digit}", col + 1),
            Item::BoxDigit(box_idx, digit) => write!(f, "b{}.{digit}", box_idx + 1),
            Item::HouseDigit(kind, index, digit) => {
                write!(f, "{}{}.{digit}", kind.letter(), index + 1)
            }
        }
    }
}

/// One option: writing `digit` into `cell`, which covers its cell item and one item per house
/// of the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoverOption {
    /// Row-major cell index.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// Indices into [`CoverMatrix::items`], the first `len`: cell, then the digit in each house
    /// of the cell in house order (row, column, box for plain Sudoku).
    slots: [u32; MAX_OPTION_ITEMS],
    len: u8,
}

impl CoverOption {
    /// The items this option covers (indices into [`CoverMatrix::items`]): the cell's, then
    /// the digit's in each house of the cell, in house order.
    #[inline]
    pub fn items(&self) -> &[u32] {
        &self.slots[..self.len as usize]
    }
}

/// The exact-cover matrix of a puzzle with its givens pruned.
#[derive(Clone, Debug)]
pub struct CoverMatrix {
    shape: Shape,
    /// The items still to cover: cells, then each house's digits in house order.
    pub items: Vec<Item>,
    /// The options, cell by cell in row-major order, digits ascending.
    pub options: Vec<CoverOption>,
}

impl CoverMatrix {
    /// Builds the matrix of `puzzle`, whose givens must not conflict; a variant's houses are
    /// items like the rest (its other rules are not: see the module's documentation).
    pub fn build(puzzle: &Grid) -> CoverMatrix {
        let shape = puzzle.shape();
        let layout = match puzzle.rules() {
            Some(rules) => rules.layout(),
            None => Layout::of(shape),
        };
        let side = shape.side();
        let area = side * side;
        // Item slots in the full matrix: cells, then each house's digits.
        let house_slot = |house: usize, digit: u8| area + house * side + digit as usize - 1;
        let slot_count = area + layout.house_count() * side;

        let mut covered = vec![false; slot_count];
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                covered[cell] = true;
                for &house in layout.houses_of_cell(cell) {
                    covered[house_slot(house as usize, digit)] = true;
                }
            }
        }
        let kinds: Vec<(RegionKind, usize)> = match puzzle.rules() {
            Some(rules) => rules
                .houses()
                .iter()
                .map(|region| (region.kind, region.index))
                .collect(),
            None => [RegionKind::Row, RegionKind::Column, RegionKind::Box]
                .into_iter()
                .flat_map(|kind| (0..side).map(move |index| (kind, index)))
                .collect(),
        };
        let mut index_of = vec![u32::MAX; slot_count];
        let mut items = Vec::new();
        for (slot, &is_covered) in covered.iter().enumerate() {
            if is_covered {
                continue;
            }
            index_of[slot] = items.len() as u32;
            if slot < area {
                items.push(Item::Cell(slot / side, slot % side));
                continue;
            }
            let (house, digit) = ((slot - area) / side, ((slot - area) % side + 1) as u8);
            items.push(match kinds[house] {
                (RegionKind::Row, index) => Item::RowDigit(index, digit),
                (RegionKind::Column, index) => Item::ColDigit(index, digit),
                (RegionKind::Box, index) => Item::BoxDigit(index, digit),
                (kind, index) => Item::HouseDigit(kind, index, digit),
            });
        }
        let mut options = Vec::new();
        for cell in 0..shape.cell_count() {
            if puzzle.get(cell) != 0 {
                continue;
            }
            let houses = layout.houses_of_cell(cell);
            'digits: for digit in 1..=side as u8 {
                let mut option = CoverOption {
                    cell,
                    digit,
                    slots: [0; MAX_OPTION_ITEMS],
                    len: 1 + houses.len() as u8,
                };
                option.slots[0] = index_of[cell];
                for (k, &house) in houses.iter().enumerate() {
                    let slot = house_slot(house as usize, digit);
                    if covered[slot] {
                        continue 'digits;
                    }
                    option.slots[k + 1] = index_of[slot];
                }
                options.push(option);
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
            "| items: pR.C cell, rR.D row R holds D, cC.D column, bB.D box, jJ.D jigsaw region, dK.D diagonal, wW.D window (one-based); an option pR.C rR.D cC.D bB.D writes D at rRcC"
        );
        let names: Vec<String> = self.items.iter().map(ToString::to_string).collect();
        text.push_str(&names.join(" "));
        text.push('\n');
        for option in &self.options {
            let names: Vec<&str> = option
                .items()
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
