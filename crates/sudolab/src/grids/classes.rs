//! Essentially different grids: the classes of complete grids under the validity-preserving
//! transformations (relabelling digits, permuting rows inside a band, bands, columns inside a
//! stack and stacks, and transposing when the boxes are square).
//!
//! The classes are counted as orbits: every grid is one with its first row `1..side`
//! relabelled, so the grids with that first row stand for all; each is joined (union-find) with
//! its image under each generator of the positional group, relabelled back to that first row,
//! and the classes are the components. That needs every such grid in memory: 12 for 4x4,
//! 39,168 for 6x6, but about 7.2e11 for 8x8 and 1.8e16 for 9x9. `burnside.rs` counts the same
//! classes by Burnside's lemma instead (Russell and Jarvis, 2006), and agrees on the small
//! boards; it enumerates 9x9's 275 conjugacy classes, but its search for the grids each class
//! fixes is too slow there, so 9x9 stays refused.

use std::collections::HashMap;

use crate::model::{Grid, Shape};

/// Why a box shape's classes are not counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClassesError {
    /// The board is beyond counting orbits of its grids one by one.
    #[error(
        "--box {shape} --essentially-different: counted as orbits only for 2x2, 2x3 and 3x2 \
         boxes, whose grids with a fixed first row fit in memory ({grids} here), and by \
         Burnside's lemma alone for 3x3; other boxes are refused: their grids are too many for \
         orbits, and the lemma's search for the grids each conjugacy class fixes is not \
         measured on them"
    )]
    Unsupported {
        /// The shape asked for.
        shape: Shape,
        /// How many grids with a fixed first row the board has, as words.
        grids: &'static str,
    },
}

/// The largest board side whose classes are counted.
pub const MAX_CLASSES_SIDE: usize = 6;

/// The number of essentially different grids with boxes of `shape` (2x2: 2, 2x3 and 3x2: 49).
pub fn essentially_different(shape: Shape) -> Result<u64, ClassesError> {
    let (rows, cols) = (shape.box_rows(), shape.box_cols());
    let side = shape.side();
    if side > MAX_CLASSES_SIDE || rows < 2 || cols < 2 {
        let grids = match side {
            8 => "about 7.2e11",
            9 => "about 1.8e16",
            _ => "beyond reach",
        };
        return Err(ClassesError::Unsupported { shape, grids });
    }
    Ok(representatives(rows, cols).len() as u64)
}

/// One grid of each class of essentially different grids of `shape`, for boards up to
/// [`MAX_CLASSES_SIDE`] (boxes of one row or column included): the first of its class among the
/// grids whose first row reads `1..side`, in the order of a plain fill. Each move of the group
/// maps every puzzle of one grid to a puzzle of the other with as many clues and solutions, so
/// one grid a class stands for all (`min_clues::minimum_over_grids`). For `2x2` this gives 2
/// classes of the 12 such grids, for `2x3` 49 of 39,168.
pub fn essentially_different_grids(shape: Shape) -> Result<Vec<Grid>, ClassesError> {
    if shape.side() > MAX_CLASSES_SIDE {
        return essentially_different(shape).map(|_| Vec::new());
    }
    Ok(representatives(shape.box_rows(), shape.box_cols())
        .into_iter()
        .map(|cells| Grid::from_cells(shape, cells).expect("a complete grid of the shape"))
        .collect())
}

/// The first grid of each class (orbits of the grids with first row `1..side`, joined by the
/// generators), in enumeration order.
fn representatives(rows: usize, cols: usize) -> Vec<Vec<u8>> {
    let side = rows * cols;
    let grids = first_row_grids(rows, cols);
    let index: HashMap<&[u8], usize> = grids
        .iter()
        .enumerate()
        .map(|(i, grid)| (grid.as_slice(), i))
        .collect();
    let moves = generators(rows, cols);
    let mut parent: Vec<usize> = (0..grids.len()).collect();
    for (i, grid) in grids.iter().enumerate() {
        for cells in &moves {
            let image = normalized(&cells.iter().map(|&at| grid[at]).collect::<Vec<u8>>(), side);
            let j = index[image.as_slice()];
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            if a != b {
                // The smaller index is the root: a class's root is its first grid.
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let firsts: Vec<bool> = (0..grids.len())
        .map(|i| root(&mut parent, i) == i)
        .collect();
    grids
        .into_iter()
        .zip(firsts)
        .filter_map(|(grid, first)| first.then_some(grid))
        .collect()
}

fn root(parent: &mut [usize], mut at: usize) -> usize {
    while parent[at] != at {
        parent[at] = parent[parent[at]];
        at = parent[at];
    }
    at
}

/// The grid relabelled so that its first row reads `1..=side`.
fn normalized(grid: &[u8], side: usize) -> Vec<u8> {
    let mut relabel = [0u8; MAX_CLASSES_SIDE + 1];
    for (j, &digit) in grid[..side].iter().enumerate() {
        relabel[digit as usize] = j as u8 + 1;
    }
    grid.iter().map(|&digit| relabel[digit as usize]).collect()
}

/// Generators of the positional group, each as the cell each cell's new digit comes from:
/// swaps of neighbouring rows inside a band, of neighbouring bands, the same for columns and
/// stacks, and the transposition when boxes are square.
fn generators(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let side = rows * cols;
    let from_rows = |map: &dyn Fn(usize) -> usize| -> Vec<usize> {
        (0..side * side)
            .map(|cell| map(cell / side) * side + cell % side)
            .collect()
    };
    let from_cols = |map: &dyn Fn(usize) -> usize| -> Vec<usize> {
        (0..side * side)
            .map(|cell| cell / side * side + map(cell % side))
            .collect()
    };
    // Swapping lines a and b, or blocks of `width` lines starting at a and b.
    let swap = |a: usize, b: usize, width: usize| {
        move |line: usize| {
            if (a..a + width).contains(&line) {
                line - a + b
            } else if (b..b + width).contains(&line) {
                line - b + a
            } else {
                line
            }
        }
    };
    let mut out = Vec::new();
    // Bands are `rows` rows high; stacks `cols` columns wide.
    for band in 0..side / rows {
        for r in 0..rows - 1 {
            let first = band * rows + r;
            out.push(from_rows(&swap(first, first + 1, 1)));
        }
    }
    for band in 0..side / rows - 1 {
        out.push(from_rows(&swap(band * rows, (band + 1) * rows, rows)));
    }
    for stack in 0..side / cols {
        for c in 0..cols - 1 {
            let first = stack * cols + c;
            out.push(from_cols(&swap(first, first + 1, 1)));
        }
    }
    for stack in 0..side / cols - 1 {
        out.push(from_cols(&swap(stack * cols, (stack + 1) * cols, cols)));
    }
    if rows == cols {
        out.push(
            (0..side * side)
                .map(|cell| cell % side * side + cell / side)
                .collect(),
        );
    }
    out
}

/// Every complete grid with boxes of `rows` x `cols` whose first row reads `1..=side`, by a
/// plain backtracking fill in cell order (independent of the search engines).
fn first_row_grids(rows: usize, cols: usize) -> Vec<Vec<u8>> {
    let side = rows * cols;
    let mut grid = vec![0u8; side * side];
    for (j, cell) in grid.iter_mut().take(side).enumerate() {
        *cell = j as u8 + 1;
    }
    let house = |cell: usize| {
        let (r, c) = (cell / side, cell % side);
        [r, c, r / rows * rows + c / cols]
    };
    let mut marks = vec![[0u16; MAX_CLASSES_SIDE]; 3];
    for (cell, &digit) in grid.iter().enumerate().take(side) {
        for (kind, h) in house(cell).into_iter().enumerate() {
            marks[kind][h] |= 1 << digit;
        }
    }
    let mut out = Vec::new();
    fill(&mut grid, side, side, &house, &mut marks, &mut out);
    out
}

fn fill(
    grid: &mut [u8],
    side: usize,
    at: usize,
    house: &dyn Fn(usize) -> [usize; 3],
    marks: &mut [[u16; MAX_CLASSES_SIDE]],
    out: &mut Vec<Vec<u8>>,
) {
    if at == grid.len() {
        out.push(grid.to_vec());
        return;
    }
    let houses = house(at);
    for digit in 1..=side as u8 {
        let bit = 1u16 << digit;
        if houses
            .iter()
            .enumerate()
            .any(|(kind, &h)| marks[kind][h] & bit != 0)
        {
            continue;
        }
        for (kind, &h) in houses.iter().enumerate() {
            marks[kind][h] |= bit;
        }
        grid[at] = digit;
        fill(grid, side, at + 1, house, marks, out);
        for (kind, &h) in houses.iter().enumerate() {
            marks[kind][h] &= !bit;
        }
    }
    grid[at] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_row_grids_are_the_counts_over_the_relabellings() {
        // 288 / 4! and 28,200,960 / 6!.
        assert_eq!(first_row_grids(2, 2).len(), 12);
        assert_eq!(first_row_grids(2, 3).len(), 39_168);
    }

    #[test]
    fn generators_are_permutations_of_the_cells() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2)] {
            for cells in generators(rows, cols) {
                let mut sorted = cells.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..rows * cols * rows * cols).collect::<Vec<_>>());
            }
        }
    }
}
