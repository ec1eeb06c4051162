//! Unavoidable sets of a complete grid, as bit-sets of cells.
//!
//! A set of cells is *unavoidable* when another grid differs from this one exactly on it: a
//! puzzle with no clue in the set has both grids as solutions, so every puzzle with a unique
//! solution has a clue in every unavoidable set. The sets are found by blanking every cell of a
//! few digits and enumerating all completions of what is left (the brute-force method of the
//! 17-clue searches): each completion other than the grid differs from it on an unavoidable
//! set. Blanking `d` digits finds every unavoidable set made of at most `d` digits, because
//! the other grid agrees with this one on every cell outside the set.

use crate::model::Grid;
pub use crate::model::cells::Cells;
use crate::model::cells::difference;
use crate::strategy::{Fast, Limits, Strategy};

/// What the collection of unavoidable sets found and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    /// The minimal sets found (no one contains another), smallest first, ties in the order of
    /// their bits.
    pub sets: Vec<Cells>,
    /// Digit subsets blanked.
    pub subsets: u64,
    /// Completions enumerated over all subsets (the grid itself included).
    pub completions: u64,
}

/// Every minimal unavoidable set of `grid` made of at most `max_digits` digits (the grid must
/// be complete, consistent and of at most 128 cells; [`super::min_clues`] checks that).
pub fn unavoidable_sets(grid: &Grid, max_digits: usize) -> Collection {
    let side = grid.side();
    let max_digits = max_digits.min(side);
    let mut found: Vec<Cells> = Vec::new();
    let mut subsets = 0;
    let mut completions = 0;
    // Every digit subset of 2..=max_digits digits (one digit alone cannot move: its cells are
    // fixed by the other digits), as a bit mask over digits 1..=side.
    for mask in 0u32..(1 << side) {
        let digits = mask.count_ones() as usize;
        if digits < 2 || digits > max_digits {
            continue;
        }
        subsets += 1;
        let mut puzzle = grid.clone();
        for cell in 0..grid.cells().len() {
            if mask & (1 << (grid.get(cell) - 1)) != 0 {
                puzzle.set(cell, 0);
            }
        }
        let outcome = Fast.search(&puzzle, &Limits::unlimited(), &mut |other| {
            let set = difference(grid, other);
            if set != 0 {
                found.push(set);
            }
        });
        completions += outcome.found;
    }
    Collection {
        sets: minimal(found),
        subsets,
        completions,
    }
}

/// The sets of `sets` that contain no other, without repeats, smallest first.
pub(super) fn minimal(mut sets: Vec<Cells>) -> Vec<Cells> {
    sets.sort_unstable_by_key(|set| (set.count_ones(), *set));
    sets.dedup();
    let mut kept: Vec<Cells> = Vec::with_capacity(sets.len());
    for set in sets {
        // Every set that could be inside this one is no larger, so it is already kept.
        if !kept.iter().any(|small| small & set == *small) {
            kept.push(set);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;

    fn grid(line: &str, shape: Shape) -> Grid {
        let cells = line.bytes().map(|b| b - b'0').collect();
        Grid::from_cells(shape, cells).unwrap()
    }

    #[test]
    fn minimal_keeps_only_sets_that_contain_no_other() {
        assert_eq!(
            minimal(vec![0b1111, 0b0011, 0b0011, 0b1100, 0b0110]),
            vec![0b0011, 0b0110, 0b1100]
        );
    }

    #[test]
    fn all_digits_blanked_gives_the_minimal_differences_to_every_other_grid() {
        let shape = Shape::new(2, 2).unwrap();
        let grid = grid("1234341221434321", shape);
        // Independently: the differences to all 288 grids of the board, minimized.
        let mut differences = Vec::new();
        let all = Fast.search(&Grid::empty(shape), &Limits::unlimited(), &mut |other| {
            if difference(&grid, other) != 0 {
                differences.push(difference(&grid, other));
            }
        });
        assert_eq!(all.found, 288);
        let collection = unavoidable_sets(&grid, 4);
        assert_eq!(collection.sets, minimal(differences));
        // 6 pairs, 4 triples and 1 quadruple of digits.
        assert_eq!(collection.subsets, 11);
        // Two digits find the sets that swap two digits (a rectangle of 4 cells, or a cycle of
        // 8 through all four rows): each holds its two digits equally often, and every one is
        // among the minimal sets.
        let pairs = unavoidable_sets(&grid, 2);
        let mut sizes: Vec<u32> = pairs.sets.iter().map(|set| set.count_ones()).collect();
        sizes.sort_unstable();
        assert_eq!(sizes, [4, 4, 4, 4, 4, 4, 4, 4, 8, 8]);
        for set in &pairs.sets {
            let mut digits = [0usize; 5];
            for cell in (0..16).filter(|cell| set >> cell & 1 == 1) {
                digits[usize::from(grid.cells()[cell])] += 1;
            }
            let used: Vec<usize> = digits.into_iter().filter(|&n| n > 0).collect();
            assert_eq!(used, [set.count_ones() as usize / 2; 2], "{set:#b}");
        }
        assert!(pairs.sets.iter().all(|set| collection.sets.contains(set)));
    }
}
