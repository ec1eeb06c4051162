//! The candidate grid a person pencils in: placed values and, for every empty cell, the digits
//! still possible there.

use crate::model::layout::Layout;
use crate::model::{DigitSet, Grid, Shape, find_conflict};

/// Placed values and candidates of one puzzle, for any shape.
#[derive(Clone)]
pub struct Board {
    shape: Shape,
    layout: &'static Layout,
    /// `0` for an empty cell.
    values: Vec<u8>,
    /// Candidate bits of each empty cell (digit `d` at bit `d - 1`); `0` for a placed cell.
    candidates: Vec<u64>,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("shape", &self.shape)
            .field("values", &self.values)
            .finish_non_exhaustive()
    }
}

impl Board {
    /// The board of `puzzle` with every candidate the givens allow; `None` when two givens
    /// conflict.
    pub fn new(puzzle: &Grid) -> Option<Board> {
        if find_conflict(puzzle).is_some() {
            return None;
        }
        let shape = puzzle.shape();
        let layout = Layout::of(shape);
        let full = DigitSet::full(shape.side()).bits();
        let mut board = Board {
            shape,
            layout,
            values: vec![0; shape.cell_count()],
            candidates: vec![full; shape.cell_count()],
        };
        for (cell, &value) in puzzle.cells().iter().enumerate() {
            if value != 0 {
                board.place(cell, value);
            }
        }
        Some(board)
    }

    /// The shape of the puzzle.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The side `n`.
    pub fn side(&self) -> usize {
        self.layout.side
    }

    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        self.layout.cells
    }

    /// The value of `cell`, `0` when empty.
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (empty for a placed cell).
    pub fn candidates(&self, cell: usize) -> DigitSet {
        DigitSet::from_bits(self.candidates[cell])
    }

    pub(crate) fn bits(&self, cell: usize) -> u64 {
        self.candidates[cell]
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates[cell] >> (digit - 1) & 1 != 0
    }

    /// Whether every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&value| value != 0)
    }

    /// The grid of placed values.
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(self.shape, self.values.clone()).expect("values stay in range")
    }

    /// Places `digit` in `cell` and removes it from the candidates of the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        self.candidates[cell] = 0;
        let bit = !(1u64 << (digit - 1));
        for &peer in self.layout.peers(cell) {
            self.candidates[usize::from(peer)] &= bit;
        }
    }

    /// Removes `digit` from the candidates of `cell`.
    pub fn eliminate(&mut self, cell: usize, digit: u8) {
        self.candidates[cell] &= !(1u64 << (digit - 1));
    }

    /// The number of houses: rows, then columns, then boxes.
    pub fn house_count(&self) -> usize {
        3 * self.layout.side
    }

    /// The cells of house `house` (rows `0..n`, columns `n..2n`, boxes `2n..3n`).
    pub fn house(&self, house: usize) -> &[u16] {
        let side = self.layout.side;
        &self.layout.houses[house * side..(house + 1) * side]
    }

    /// The houses of `cell`: its row, column and box, as house indices.
    pub fn houses_of(&self, cell: usize) -> [usize; 3] {
        let side = self.layout.side;
        let [row, col, box_idx] = self.layout.houses_of[cell];
        [
            usize::from(row),
            side + usize::from(col),
            2 * side + usize::from(box_idx),
        ]
    }

    /// The cells sharing a house with `cell`.
    pub fn peers(&self, cell: usize) -> &[u16] {
        self.layout.peers(cell)
    }

    /// Whether two different cells share a house.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let [ra, ca, ba] = self.layout.houses_of[a];
        let [rb, cb, bb] = self.layout.houses_of[b];
        ra == rb || ca == cb || ba == bb
    }

    /// The cells of `house` where `digit` is a candidate, as a bit set over positions in the
    /// house (positions `0..n`).
    pub fn positions(&self, house: usize, digit: u8) -> u64 {
        let bit = 1u64 << (digit - 1);
        let mut positions = 0u64;
        for (position, &cell) in self.house(house).iter().enumerate() {
            if self.candidates[usize::from(cell)] & bit != 0 {
                positions |= 1 << position;
            }
        }
        positions
    }

    /// Whether `digit` is placed somewhere in `house`.
    pub fn placed_in(&self, house: usize, digit: u8) -> bool {
        self.house(house)
            .iter()
            .any(|&cell| self.values[usize::from(cell)] == digit)
    }

    /// A house's name for people: `row 3`, `column 7`, `box 5`.
    pub fn house_name(&self, house: usize) -> String {
        let side = self.layout.side;
        match house / side {
            0 => format!("row {}", house + 1),
            1 => format!("column {}", house - side + 1),
            _ => format!("box {}", house - 2 * side + 1),
        }
    }

    /// Whether the board is broken: an empty cell without candidates, or a digit with no
    /// place left in a house that lacks it.
    pub fn is_broken(&self) -> bool {
        if (0..self.cell_count()).any(|cell| self.values[cell] == 0 && self.candidates[cell] == 0) {
            return true;
        }
        (0..self.house_count()).any(|house| {
            let mut seen = 0u64;
            for &cell in self.house(house) {
                let cell = usize::from(cell);
                seen |= self.candidates[cell];
                if self.values[cell] != 0 {
                    seen |= 1 << (self.values[cell] - 1);
                }
            }
            seen != DigitSet::full(self.side()).bits()
        })
    }
}
