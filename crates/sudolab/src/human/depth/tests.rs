//! The propagation levels and T&E depths pinned on bundled puzzles, and held to a second,
//! deliberately plain implementation: houses from coordinates, one rule at a time in another
//! order, house consistency by trying every assignment of a house, T&E scanning candidates
//! from the last cell back. The fixed points of monotone rules do not depend on the order, so
//! the two must agree exactly.

use super::*;
use crate::model::{Grid, parse_line_record};

fn grid(line: &str) -> Grid {
    line.parse().expect("a valid test puzzle")
}

/// The plain model: candidate bits per cell (`0` once placed), values, and the houses as
/// lists of cells built from row and column numbers.
#[derive(Clone)]
struct Plain {
    side: usize,
    values: Vec<u8>,
    candidates: Vec<u64>,
    houses: Vec<Vec<usize>>,
}

impl Plain {
    fn new(puzzle: &Grid) -> Plain {
        let shape = puzzle.shape();
        let side = shape.side();
        let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
        let mut houses = Vec::new();
        for row in 0..side {
            houses.push((0..side).map(|col| row * side + col).collect());
        }
        for col in 0..side {
            houses.push((0..side).map(|row| row * side + col).collect());
        }
        for band in 0..side / box_rows {
            for stack in 0..side / box_cols {
                let mut cells = Vec::new();
                for row in band * box_rows..(band + 1) * box_rows {
                    for col in stack * box_cols..(stack + 1) * box_cols {
                        cells.push(row * side + col);
                    }
                }
                houses.push(cells);
            }
        }
        let full = (1u64 << side) - 1;
        let mut plain = Plain {
            side,
            values: vec![0; side * side],
            candidates: vec![full; side * side],
            houses,
        };
        for (cell, &value) in puzzle.cells().iter().enumerate() {
            if value != 0 {
                plain.place(cell, value);
            }
        }
        plain
    }

    fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        self.candidates[cell] = 0;
        for house in &self.houses {
            if house.contains(&cell) {
                for &peer in house {
                    self.candidates[peer] &= !(1 << (digit - 1));
                }
            }
        }
    }

    fn solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    fn broken(&self) -> bool {
        let empty_cell =
            (0..self.values.len()).any(|c| self.values[c] == 0 && self.candidates[c] == 0);
        let lost_digit = self.houses.iter().any(|house| {
            (1..=self.side as u8).any(|digit| {
                house
                    .iter()
                    .all(|&c| self.values[c] != digit && self.candidates[c] >> (digit - 1) & 1 == 0)
            })
        });
        empty_cell || lost_digit
    }

    /// One rule of `level`, the first that changes anything, scanning from the end.
    fn one_rule(&mut self, level: Propagation) -> bool {
        for cell in (0..self.values.len()).rev() {
            if self.values[cell] == 0 && self.candidates[cell].is_power_of_two() {
                self.place(cell, self.candidates[cell].trailing_zeros() as u8 + 1);
                return true;
            }
        }
        if level >= HiddenSingles {
            for house in self.houses.clone().iter().rev() {
                for digit in (1..=self.side as u8).rev() {
                    let places: Vec<usize> = house
                        .iter()
                        .copied()
                        .filter(|&c| self.candidates[c] >> (digit - 1) & 1 != 0)
                        .collect();
                    if places.len() == 1 {
                        self.place(places[0], digit);
                        return true;
                    }
                }
            }
        }
        if level >= LockedCandidates {
            let houses = self.houses.clone();
            for house in houses.iter().rev() {
                for digit in (1..=self.side as u8).rev() {
                    let bit = 1u64 << (digit - 1);
                    let places: Vec<usize> = house
                        .iter()
                        .copied()
                        .filter(|&c| self.candidates[c] & bit != 0)
                        .collect();
                    if places.len() < 2 {
                        continue;
                    }
                    for other in &houses {
                        if other == house || !places.iter().all(|c| other.contains(c)) {
                            continue;
                        }
                        let mut changed = false;
                        for &cell in other {
                            if !house.contains(&cell) && self.candidates[cell] & bit != 0 {
                                self.candidates[cell] &= !bit;
                                changed = true;
                            }
                        }
                        if changed {
                            return true;
                        }
                    }
                }
            }
        }
        if level >= HouseConsistency {
            for house in self.houses.clone().iter().rev() {
                let empty: Vec<usize> = house
                    .iter()
                    .copied()
                    .filter(|&c| self.values[c] == 0)
                    .collect();
                for (index, &cell) in empty.iter().enumerate() {
                    for digit in 1..=self.side as u8 {
                        let bit = 1u64 << (digit - 1);
                        if self.candidates[cell] & bit == 0 {
                            continue;
                        }
                        let others: Vec<usize> = empty
                            .iter()
                            .enumerate()
                            .filter(|&(i, _)| i != index)
                            .map(|(_, &c)| c)
                            .collect();
                        if !self.assignable(&others, bit) {
                            self.candidates[cell] &= !bit;
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether the cells can take different candidates, none of them in `used`.
    fn assignable(&self, cells: &[usize], used: u64) -> bool {
        let Some((&first, rest)) = cells.split_first() else {
            return true;
        };
        (0..self.side).any(|d| {
            let bit = 1u64 << d;
            self.candidates[first] & bit != 0
                && used & bit == 0
                && self.assignable(rest, used | bit)
        })
    }

    /// The rules of `level` one at a time until none applies; `false` when broken.
    fn close(&mut self, level: Propagation) -> bool {
        while !self.broken() && self.one_rule(level) {}
        !self.broken()
    }

    /// T&E(`depth`) with hypotheses tried from the last cell and digit back.
    fn trial_and_error(&mut self, depth: u32) -> bool {
        if !self.close(HiddenSingles) {
            return false;
        }
        if depth == 0 {
            return true;
        }
        loop {
            let mut removed = false;
            for cell in (0..self.values.len()).rev() {
                for digit in (1..=self.side as u8).rev() {
                    if self.candidates[cell] >> (digit - 1) & 1 == 0 {
                        continue;
                    }
                    let mut supposed = self.clone();
                    supposed.place(cell, digit);
                    if !supposed.trial_and_error(depth - 1) {
                        self.candidates[cell] &= !(1 << (digit - 1));
                        if !self.trial_and_error(depth - 1) {
                            return false;
                        }
                        removed = true;
                    }
                }
            }
            if !removed {
                return true;
            }
        }
    }
}

/// The plain implementation's propagation level and T&E depth (up to `max_depth`).
fn plain_metrics(puzzle: &Grid, max_depth: u32) -> (Option<Propagation>, Option<u32>) {
    let start = Plain::new(puzzle);
    let level = Propagation::ALL.into_iter().find(|&level| {
        let mut plain = start.clone();
        plain.close(level) && plain.solved()
    });
    let depth = (0..=max_depth).find(|&depth| {
        let mut plain = start.clone();
        plain.trial_and_error(depth) && plain.solved()
    });
    (level, depth)
}

fn metrics(puzzle: &Grid, max_depth: u32) -> (Option<Propagation>, Option<u32>) {
    let board = Board::new(puzzle).expect("consistent givens");
    (propagation_level(&board), te_depth(&board, max_depth))
}

/// Every puzzle of a bundled file: (propagation level, T&E depth up to 1), counted.
fn tally(path: &str, check_plain: bool) -> Vec<(Option<Propagation>, Option<u32>, usize)> {
    let text = std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR")))
        .expect("a bundled corpus file");
    let mut counts: Vec<(Option<Propagation>, Option<u32>, usize)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        // The rated sample puts an id first: the puzzle is the first long field.
        let field = line
            .split_whitespace()
            .find(|field| field.len() >= 16)
            .expect("a puzzle on the line");
        let puzzle = parse_line_record(field.as_bytes(), None, index + 1)
            .expect("bundled puzzle")
            .puzzle;
        let found = metrics(&puzzle, 1);
        if check_plain {
            assert_eq!(found, plain_metrics(&puzzle, 1), "{path}:{}", index + 1);
        }
        match counts.iter_mut().find(|(l, d, _)| (*l, *d) == found) {
            Some(entry) => entry.2 += 1,
            None => counts.push((found.0, found.1, 1)),
        }
    }
    counts.sort();
    counts
}

use Propagation::{HiddenSingles, HouseConsistency, LockedCandidates, NakedSingles};

#[test]
fn board_a_falls_to_naked_singles() {
    // Board A of docs/teaching.md, 37 givens: forward checking alone solves it.
    let puzzle =
        grid("030260701680070090190004500820100040004602900050003028009300074040050036703018000");
    assert_eq!(metrics(&puzzle, 2), (Some(NakedSingles), Some(0)));
}

#[test]
fn the_levels_and_depths_of_the_bundled_puzzles_agree_with_the_plain_implementation() {
    assert_eq!(
        tally("corpora/generated/4x4.txt", true),
        vec![(Some(NakedSingles), Some(0), 20)]
    );
    assert_eq!(
        tally("corpora/generated/6x6.txt", true),
        vec![
            (None, Some(1), 3),
            (Some(NakedSingles), Some(0), 16),
            (Some(HiddenSingles), Some(0), 1),
        ]
    );
    assert_eq!(
        tally("corpora/generated/9x9-rot180.txt", true),
        vec![
            (None, Some(1), 8),
            (Some(NakedSingles), Some(0), 1),
            (Some(HiddenSingles), Some(0), 9),
            (Some(LockedCandidates), Some(1), 2),
        ]
    );
    assert_eq!(
        tally("corpora/generated/9x9-minimal.txt", true),
        vec![
            (None, Some(1), 44),
            (Some(HiddenSingles), Some(0), 39),
            (Some(LockedCandidates), Some(1), 11),
            (Some(HouseConsistency), Some(1), 6),
        ]
    );
    // The 30 puzzles of Sukaku Explainer's 5.5 to 8.9: none yields to propagation alone, and
    // one trial level is enough for each (Berthier: T&E(1) covers nearly every puzzle rated
    // below 9).
    assert_eq!(
        tally("corpora/rated/sample.txt", true),
        vec![(None, Some(1), 30)]
    );
}

#[test]
fn the_hardest_known_puzzles_need_two_trial_levels() {
    // Easter Monster and Platinum Blonde (gsf's q1), from the public corpora's
    // misc/famous_hardest.tsv:
    // T&E(1) leaves them open, T&E(2) solves them (Berthier finds every known 9x9 puzzle in
    // T&E(2)); the plain implementation agrees, and T&E(2)'s end is the solution.
    for (line, solution) in [
        (
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
            "174385962293467158586192734451923876928674315367851249719548623635219487842736591",
        ),
        (
            ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
            "839465712146782953752391486391824675564173829287659341628537194913248567475916238",
        ),
    ] {
        let puzzle = grid(line);
        assert_eq!(metrics(&puzzle, 2), (None, Some(2)), "{line}");
        assert_eq!(plain_metrics(&puzzle, 2), (None, Some(2)), "{line}");
        let mut board = Board::new(&puzzle).unwrap();
        assert!(trial_and_error(&mut board, 2));
        assert_eq!(board.to_grid(), grid(solution), "{line}");
    }
}

#[test]
fn a_house_consistency_step_is_a_hidden_pair_in_disguise() {
    // Row 1 keeps 1 and 2 only in r1c1 and r1c2 (hidden pair); house consistency removes the
    // other candidates of those two cells, as the pair does.
    let mut board = Board::new(&grid(&".".repeat(81))).unwrap();
    for col in 2..9 {
        board.eliminate(col, 1);
        board.eliminate(col, 2);
    }
    assert_eq!(house_consistency(&mut board), Some(true));
    assert_eq!(board.candidates(0).iter().collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(board.candidates(1).iter().collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(board.candidates(2).iter().count(), 7);
    // Three cells of a row with only 1 and 2 between them: no perfect matching.
    let mut board = Board::new(&grid(&".".repeat(81))).unwrap();
    for cell in 0..3 {
        for digit in 3..=9 {
            board.eliminate(cell, digit);
        }
    }
    assert_eq!(house_consistency(&mut board), None);
}

#[test]
fn level_names_read_back() {
    for level in Propagation::ALL {
        assert_eq!(Propagation::from_name(level.name()), Some(level));
    }
    assert_eq!(Propagation::from_name("singles"), None);
    assert_eq!(max_te_depth(9), 2);
    assert_eq!(max_te_depth(16), 1);
    assert_eq!(max_te_depth(25), 0);
}
