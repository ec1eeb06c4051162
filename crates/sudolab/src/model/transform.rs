//! Symmetries of the puzzle space: transformations that map every solution of a puzzle to a
//! solution of the transformed puzzle, one to one. They keep verdicts and counts, which makes
//! them the backbone of the metamorphic tests and of the generator's symmetry options.

use super::grid::Grid;
use super::shape::Shape;

/// Renames the digits: value `v` becomes `mapping[v - 1]`; `mapping` must be a permutation of
/// `1..=n`.
///
/// # Panics
/// When `mapping` is not a permutation of `1..=n`.
pub fn relabel(grid: &Grid, mapping: &[u8]) -> Grid {
    let side = grid.side();
    let mut sorted = mapping.to_vec();
    sorted.sort_unstable();
    assert!(
        sorted.iter().copied().eq(1..=side as u8),
        "relabel needs a permutation of 1..={side}"
    );
    let cells = grid
        .cells()
        .iter()
        .map(|&value| {
            if value == 0 {
                0
            } else {
                mapping[value as usize - 1]
            }
        })
        .collect();
    Grid::from_cells(grid.shape(), cells).expect("a permutation keeps values in range")
}

/// Mirrors the grid on its main diagonal; `RxC` boxes become `CxR` boxes.
pub fn transpose(grid: &Grid) -> Grid {
    let shape = grid.shape();
    let transposed = Shape::new(shape.box_cols(), shape.box_rows())
        .expect("swapping box dimensions keeps them in range");
    let side = shape.side();
    let cells = (0..side * side)
        .map(|cell_idx| grid.at(cell_idx % side, cell_idx / side))
        .collect();
    Grid::from_cells(transposed, cells).expect("transposing keeps values in range")
}

/// Permutes the rows: row `r` of the result is row `order[r]` of `grid`. Only permutations
/// that keep each band's rows together (rows within a band, or whole bands) keep solutions.
fn permute_rows(grid: &Grid, order: &[usize]) -> Grid {
    let side = grid.side();
    let cells = order
        .iter()
        .flat_map(|&source_row| grid.cells()[source_row * side..(source_row + 1) * side].iter())
        .copied()
        .collect();
    Grid::from_cells(grid.shape(), cells).expect("moving rows keeps values in range")
}

/// Swaps rows `row_a` and `row_b`, which must lie in the same band.
///
/// # Panics
/// When the rows are in different bands or out of range.
pub fn swap_rows_in_band(grid: &Grid, row_a: usize, row_b: usize) -> Grid {
    let box_rows = grid.shape().box_rows();
    assert_eq!(row_a / box_rows, row_b / box_rows, "rows must share a band");
    let mut order: Vec<usize> = (0..grid.side()).collect();
    order.swap(row_a, row_b);
    permute_rows(grid, &order)
}

/// Swaps bands (horizontal stripes of boxes) `band_a` and `band_b`.
///
/// # Panics
/// When a band is out of range.
pub fn swap_bands(grid: &Grid, band_a: usize, band_b: usize) -> Grid {
    let box_rows = grid.shape().box_rows();
    let mut order: Vec<usize> = (0..grid.side()).collect();
    for offset in 0..box_rows {
        order.swap(band_a * box_rows + offset, band_b * box_rows + offset);
    }
    permute_rows(grid, &order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::validate;

    fn solved_6x6() -> Grid {
        let rows = [
            [1, 2, 3, 4, 5, 6],
            [4, 5, 6, 1, 2, 3],
            [2, 3, 1, 5, 6, 4],
            [5, 6, 4, 2, 3, 1],
            [3, 1, 2, 6, 4, 5],
            [6, 4, 5, 3, 1, 2],
        ];
        Grid::from_cells("2x3".parse().unwrap(), rows.concat()).unwrap()
    }

    #[test]
    fn transformations_keep_solutions_valid() {
        let grid = solved_6x6();
        let empty = |g: &Grid| Grid::empty(g.shape());
        for transformed in [
            relabel(&grid, &[6, 5, 4, 3, 2, 1]),
            transpose(&grid),
            swap_rows_in_band(&grid, 2, 3),
            swap_bands(&grid, 0, 2),
        ] {
            assert_eq!(validate(&empty(&transformed), &transformed), Ok(()));
        }
        assert_eq!(transpose(&grid).shape().to_string(), "3x2");
        assert_eq!(transpose(&transpose(&grid)), grid);
    }
}
