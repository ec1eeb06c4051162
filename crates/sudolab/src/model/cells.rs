//! Sets of cells of a board of at most 128 cells, as bits of a `u128`: the unavoidable sets
//! and clue sets of `grids::min_clues` and the controlled-bias generator.

use super::Grid;

/// A set of cells of a board of at most [`MAX_CELLS`] cells: bit `i` is cell `i` (row-major).
pub type Cells = u128;

/// The most cells a board may have for its cells to be a [`Cells`].
pub const MAX_CELLS: usize = 128;

/// The bit of one cell.
pub const fn bit(cell: usize) -> Cells {
    1 << cell
}

/// Every cell of a board of `cells` cells (at most [`MAX_CELLS`]).
pub const fn all_cells(cells: usize) -> Cells {
    if cells == MAX_CELLS {
        Cells::MAX
    } else {
        bit(cells) - 1
    }
}

/// The cells where `other` differs from `grid` (both complete grids of one shape of at most
/// [`MAX_CELLS`] cells).
pub fn difference(grid: &Grid, other: &Grid) -> Cells {
    grid.cells()
        .iter()
        .zip(other.cells())
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .fold(0, |set, (cell, _)| set | bit(cell))
}
