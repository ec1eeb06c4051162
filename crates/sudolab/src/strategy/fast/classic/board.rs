//! The board of the 9x9 path: its words, the word update and the passes over all words.

use super::tables::{
    ALL_WORDS, BAND, BAND_ALLOWED, BAND_PEERS, BOX_CELLS, CELL_HOUSES, LOCKED_COLUMNS,
    LONE_SEGMENT, ROW_CELLS, SAME_DIGIT, SPREAD, column_cells,
};
use crate::model::Grid;

/// Candidates of the whole board: 124 bytes of fixed arrays, copied whole on a guess. The bit
/// layout of its words is drawn in the module doc of [`classic`](super), beside JCZSolve's
/// names for the same things.
///
/// What the code relies on: bits 27 to 31 of every word are zero; a solved cell has its place
/// in its digit's word and in no other; a word whose places changed since its last update has
/// its bit in `dirty` (or, during [`Board::update_until_settled`], in that loop's local).
#[derive(Clone, Copy)]
pub(super) struct Board {
    /// `places[3 * digit + band]`: the cells of `band` where `digit` (0-based) can still go.
    pub(super) places: [u32; 27],
    /// Words changed since their last update (bit `word`).
    pub(super) dirty: u32,
    /// Cells not yet solved, per band.
    pub(super) unsolved: [u32; 3],
}

impl Board {
    /// Puts `digit` in cell `cell` of `band`: it leaves the cell's row and box in the band,
    /// and the other digits leave the cell. The word update does the rest. `false` when the
    /// digit cannot go there.
    #[inline]
    fn assign(&mut self, band: usize, cell: usize, digit: usize) -> bool {
        let bit = 1 << cell;
        let word = 3 * digit + band;
        let places = self.places[word];
        if places & bit == 0 {
            return false;
        }
        // Branch-free: the clearing also takes the bit from this digit; `places` puts it back.
        self.clear_cells(band, bit);
        self.settle(band, cell, digit, places);
        true
    }

    /// Puts `digit` in cell `cell` of `band`, one of the cell's `candidates` (bit per digit):
    /// as [`Board::assign`], but only the other candidates have the cell to lose, one of them
    /// on a cell with two.
    #[inline]
    pub(super) fn guess(&mut self, band: usize, cell: usize, digit: usize, candidates: u32) {
        let bit = 1 << cell;
        let mut others = candidates & !(1 << digit);
        while others != 0 {
            let other = others.trailing_zeros() as usize;
            others &= others - 1;
            self.remove(3 * other + band, bit);
        }
        self.settle(band, cell, digit, self.places[3 * digit + band]);
    }

    /// The last step of a placement once the other digits have left the cell: `digit`'s word
    /// becomes `places` without the cell's row and box peers, and the cell is solved.
    #[inline]
    fn settle(&mut self, band: usize, cell: usize, digit: usize, places: u32) {
        let word = 3 * digit + band;
        self.places[word] = places & !BAND_PEERS[cell];
        self.dirty |= 1 << word;
        self.unsolved[band] &= !(1 << cell);
    }

    /// Puts in cell `cell` of `band` its only candidate, `digit`. No other digit has the cell
    /// to lose, so it is marked solved here and the update skips that step.
    #[inline]
    pub(super) fn assign_single(&mut self, band: usize, cell: usize, digit: usize) {
        self.remove(3 * digit + band, BAND_PEERS[cell]);
        self.unsolved[band] &= !(1 << cell);
    }

    /// Removes `cells` of `band` from all nine digits, marking dirty the words that changed.
    /// The changes are gathered at fixed shifts and moved to the band once: one shift by the
    /// band instead of one per word (why: docs/benchmarks.md, 'fast: what was tried').
    #[expect(
        clippy::inline_always,
        reason = "it belongs in the word update, the search's hot loop, and left to itself the \
                  compiler calls it out of line from there"
    )]
    #[inline(always)]
    fn clear_cells(&mut self, band: usize, cells: u32) {
        let mut dirty = self.dirty;
        self.clear_cells_into(band, cells, &mut dirty);
        self.dirty = dirty;
    }

    /// [`Board::clear_cells`], marking the words that changed in `dirty`.
    #[expect(clippy::inline_always, reason = "as `clear_cells`, whose body this is")]
    #[inline(always)]
    fn clear_cells_into(&mut self, band: usize, cells: u32, dirty: &mut u32) {
        let mut changed = [0; 9];
        for (digit, changed) in changed.iter_mut().enumerate() {
            let word = 3 * digit + band;
            let old = self.places[word];
            self.places[word] = old & !cells;
            *changed = u32::from(old & cells != 0) << (3 * digit);
        }
        // Combined as a tree, not a chain: the choice of the next word to update waits on this.
        // The bits are distinct, so `+` is `|`; mixing the two keeps LLVM from seeing an OR
        // reduction, which it vectorises into a slower gather (docs/benchmarks.md, 'fast: what
        // was tried').
        let [d0, d1, d2, d3, d4, d5, d6, d7, d8] = changed;
        *dirty |= ((((d0 + d1) | (d2 + d3)) + ((d4 | d5) + (d6 | d7))) | d8) << band;
    }

    /// Removes `cells` from word `word`, marking it dirty if that changed it.
    #[inline]
    fn remove(&mut self, word: usize, cells: u32) {
        self.dirty |= self.remove_changed(word, cells);
    }

    /// [`Board::remove`] without the marking: the word's dirty bit if it changed, else 0.
    #[inline]
    fn remove_changed(&mut self, word: usize, cells: u32) -> u32 {
        let old = self.places[word];
        let new = old & !cells;
        self.places[word] = new;
        u32::from(old & cells != 0) << word
    }

    /// Propagates the change to word `word` (digit `word / 3`, band `word % 3`), marking the
    /// words it changes in `dirty`; `false` on a contradiction. `dirty` is the caller's local,
    /// not [`Board::dirty`], so that it stays in a register: it is on the chain of dependent
    /// steps that picks the next word (docs/benchmarks.md, 'fast: what was tried').
    #[inline]
    pub(super) fn update(&mut self, word: usize, dirty: &mut u32) -> bool {
        let band = word % 3;
        let mut places = self.places[word];
        let segments = segments(places);
        let allowed = BAND_ALLOWED[segments];
        if allowed == 0 {
            return false;
        }
        // Every row keeps a place (each permutation has one segment per row); a row with one
        // place left is a placement: one segment of the row kept, with one place.
        let single = LONE_SEGMENT[segments] & alone_in_segment(places);
        places &= allowed;
        self.places[word] = places;
        let locked = LOCKED_COLUMNS[columns(places) as usize];
        let [next, last] = SAME_DIGIT[word].map(usize::from);
        if (self.places[next] | self.places[last]) & locked != 0 {
            *dirty |= self.remove_changed(next, locked) | self.remove_changed(last, locked);
        }
        let solved = single & self.unsolved[band];
        if solved != 0 {
            self.unsolved[band] &= !solved;
            // The clearing hits this word too; it is written back whole after it.
            self.clear_cells_into(band, solved, dirty);
            *dirty &= !(1 << word);
            self.places[word] = places;
        }
        true
    }

    /// Word updates until none is dirty; `false` on a contradiction. Lowest word first, except
    /// that the word after the current one is chosen before the current one's update, so that
    /// two updates can overlap. Every rule only removes places, so any order settles to the
    /// same board (or finds a contradiction), and the search's trees do not depend on it:
    /// `word_updates_settle_the_same_in_any_order` holds this loop to other orders.
    #[expect(
        clippy::inline_always,
        reason = "the word-update loop is the search's hot loop; it stays in `Search::run`"
    )]
    #[inline(always)]
    pub(super) fn update_until_settled(&mut self) -> bool {
        let mut dirty = self.dirty;
        self.dirty = 0;
        if dirty == 0 {
            return true;
        }
        let mut word = dirty.trailing_zeros() as usize;
        dirty &= dirty - 1;
        loop {
            // The word after this one (its bit), chosen before this update when there is one.
            let following = dirty & dirty.wrapping_neg();
            dirty ^= following;
            if !self.update(word, &mut dirty) {
                return false;
            }
            let queued = if following != 0 {
                following
            } else if dirty != 0 {
                dirty & dirty.wrapping_neg()
            } else {
                return true;
            };
            dirty &= !queued;
            word = queued.trailing_zeros() as usize;
        }
    }

    /// For each band, the unsolved cells with at least one, two and three candidates. Bands 0
    /// and 1 are counted together, one in each half of a `u64`: a digit's words for them are
    /// neighbours, so one load fetches both.
    #[inline]
    pub(super) fn candidate_counts(&self) -> [(u32, u32, u32); 3] {
        let (mut one, mut two, mut three) = (0u64, 0u64, 0u64);
        let (mut one_2, mut two_2, mut three_2) = (0u32, 0u32, 0u32);
        for digit in 0..9 {
            let places =
                u64::from(self.places[3 * digit]) | u64::from(self.places[3 * digit + 1]) << 32;
            three |= two & places;
            two |= one & places;
            one |= places;
            let places = self.places[3 * digit + 2];
            three_2 |= two_2 & places;
            two_2 |= one_2 & places;
            one_2 |= places;
        }
        let [unsolved_0, unsolved_1, unsolved_2] = self.unsolved;
        let half = |counts: u64, shift: u32, unsolved: u32| (counts >> shift) as u32 & unsolved;
        [
            (
                half(one, 0, unsolved_0),
                half(two, 0, unsolved_0),
                half(three, 0, unsolved_0),
            ),
            (
                half(one, 32, unsolved_1),
                half(two, 32, unsolved_1),
                half(three, 32, unsolved_1),
            ),
            (one_2 & unsolved_2, two_2 & unsolved_2, three_2 & unsolved_2),
        ]
    }

    /// Hidden singles in columns, the one house the band words do not see whole: places them
    /// and says whether there were any; `None` when a digit has no place left in a column.
    /// Two digits are counted at once, one in each half of a `u64`.
    #[inline]
    pub(super) fn column_singles(&mut self) -> Option<bool> {
        const ROW: u64 = 0x1FF | 0x1FF << 32;
        let mut placed = false;
        // Unsolved cells in both halves; a cell solved below leaves the later digits' words,
        // so these may stay as they are.
        let unsolved = self
            .unsolved
            .map(|unsolved| u64::from(unsolved) | u64::from(unsolved) << 32);
        for first in (0..9).step_by(2) {
            // With no tenth digit, the high half has a place everywhere: no single, no gap.
            let pair = |band: usize| {
                let high = if first < 8 {
                    self.places[3 * (first + 1) + band]
                } else {
                    BAND
                };
                u64::from(self.places[3 * first + band]) | u64::from(high) << 32
            };
            let [w0, w1, w2] = [pair(0), pair(1), pair(2)];
            // A column's nine places are three rows of each band: the three bands stacked
            // first, then the three rows of the stack folded.
            let stacked = w0 | w1 | w2;
            let stacked_twice = (w0 & w1) | ((w0 | w1) & w2);
            let (row0, row1, row2) = (stacked, stacked >> 9, stacked >> 18);
            let once = (row0 | row1 | row2) & ROW;
            let twice = (stacked_twice | stacked_twice >> 9 | stacked_twice >> 18)
                | (row0 & row1)
                | ((row0 | row1) & row2);
            let twice = twice & ROW;
            // The columns where the digits are already placed.
            let solved = (w0 & !unsolved[0]) | (w1 & !unsolved[1]) | (w2 & !unsolved[2]);
            let done = (solved | solved >> 9 | solved >> 18) & ROW;
            if once != ROW {
                return None;
            }
            let mut singles = once & !twice & !done;
            while singles != 0 {
                let bit = singles.trailing_zeros();
                singles &= singles - 1;
                let (digit, column) = (first + (bit / 32) as usize, bit % 32);
                let cells = column_cells(1 << column);
                let band = (0..3).find(|&band| self.places[3 * digit + band] & cells != 0)?;
                let cell = (self.places[3 * digit + band] & cells).trailing_zeros() as usize;
                if !self.assign(band, cell, digit) {
                    return None;
                }
                placed = true;
            }
        }
        Some(placed)
    }

    /// How many cells are not yet solved.
    #[inline]
    pub(super) fn unsolved_count(&self) -> u32 {
        let [unsolved_0, unsolved_1, unsolved_2] = self.unsolved;
        (u64::from(unsolved_0) | u64::from(unsolved_1) << 32).count_ones() + unsolved_2.count_ones()
    }

    /// The digits (bit `d` for digit `d`, 0-based) still possible in a cell.
    #[inline]
    pub(super) fn digits_at(&self, band: usize, cell: usize) -> u32 {
        let mut digits = 0;
        for digit in 0..9 {
            digits |= ((self.places[3 * digit + band] >> cell) & 1) << digit;
        }
        digits
    }
}

/// The segments (row of a box, three cells) of a band word that have a place, as 9 bits: bit
/// `3 * box + row`. Each segment's three bits are folded into its lowest (bits `3 * k`), and
/// shifting by 8 and 16 brings the nine lowest bits together without overlap. Arithmetic, not
/// a table look-up per row, because it is on the chain of dependent steps of every update.
#[inline]
pub(super) fn segments(word: u32) -> usize {
    let folded = (word | word >> 1 | word >> 2) & 0x0124_9249;
    ((folded | folded >> 8 | folded >> 16) & 0x1FF) as usize
}

/// The places of a band word that are alone in their segment (row of a box).
#[inline]
fn alone_in_segment(word: u32) -> u32 {
    let (second, third) = (word >> 1, word >> 2);
    let crowded = ((word & second) | (second & third) | (word & third)) & 0x0124_9249;
    word & !(crowded * 7)
}

/// The columns (9 bits) in which a band word has a place.
#[inline]
fn columns(word: u32) -> u32 {
    (word | (word >> 9) | (word >> 18)) & 0x1FF
}

/// The board with the givens of `puzzle` placed, not yet propagated; `None` when two givens
/// share a digit in a row, column or box. Built word by word (each digit's places are the free
/// cells outside the rows, columns and boxes of its givens) rather than by placing the givens
/// one by one, which costs much more (docs/benchmarks.md, 'fast: what was tried').
#[inline]
pub(super) fn givens(puzzle: &Grid) -> Option<Board> {
    // Per digit, the rows, columns and boxes (bits 0-8, 9-17, 18-26) that have it.
    let mut houses = [0u32; 9];
    // Per band, the cells with a given; per word, those of its digit.
    let mut given = [0u32; 3];
    let mut own = [0u32; 27];
    for (band, cells) in puzzle.cells().chunks_exact(27).enumerate() {
        // The givens of the band as a bit set first, then one step per given.
        let mut present = nonzero_bytes(cells);
        given[band] = present;
        while present != 0 {
            let bit = present.trailing_zeros() as usize;
            present &= present - 1;
            let digit = usize::from(cells[bit] - 1);
            let its = CELL_HOUSES[27 * band + bit];
            if houses[digit] & its != 0 {
                return None;
            }
            houses[digit] |= its;
            own[3 * digit + band] |= 1 << bit;
        }
    }
    let mut places = [0; 27];
    for (digit, &houses) in houses.iter().enumerate() {
        let columns = column_cells((houses >> 9) & 0x1FF);
        for (band, &given) in given.iter().enumerate() {
            let rows = (houses >> (3 * band)) & 7;
            let boxes = (houses >> (18 + 3 * band)) & 7;
            let blocked = ROW_CELLS[rows as usize] | BOX_CELLS[boxes as usize] | columns;
            let word = 3 * digit + band;
            places[word] = (BAND & !given & !blocked) | own[word];
        }
    }
    Some(Board {
        places,
        dirty: ALL_WORDS,
        unsolved: given.map(|given| BAND & !given),
    })
}

/// Writes the solved `board` as values 1 to 9 into `cells`. A band's cells get their value
/// bit by bit: bit `k` of a value is set where one of the digits whose value has it is
/// placed (OR of their words, four bit planes), and [`SPREAD`] turns eight cells of a plane
/// into eight bytes, instead of a loop over the 81 placed bits.
#[inline]
pub(super) fn write_solution(board: &Board, cells: &mut [u8; 81]) {
    let places = &board.places;
    for (band, band_cells) in cells.chunks_exact_mut(27).enumerate() {
        let word = |digit: usize| places[3 * digit + band];
        // Value `digit + 1`: bit 0 for 1, 3, 5, 7, 9; bit 1 for 2, 3, 6, 7; bit 2 for 4 to 7;
        // bit 3 for 8 and 9.
        let planes = [
            word(0) | word(2) | word(4) | word(6) | word(8),
            word(1) | word(2) | word(5) | word(6),
            word(3) | word(4) | word(5) | word(6),
            word(7) | word(8),
        ];
        for (chunk, bytes) in band_cells.chunks_mut(8).enumerate() {
            let spread = |plane: u32| SPREAD[((plane >> (8 * chunk)) & 0xFF) as usize];
            let values = spread(planes[0])
                | spread(planes[1]) << 1
                | spread(planes[2]) << 2
                | spread(planes[3]) << 3;
            bytes.copy_from_slice(&values.to_le_bytes()[..bytes.len()]);
        }
    }
}

/// Bit `i` set when `bytes[i]` is not zero (at most 32 bytes), eight bytes at a time: each
/// byte's bits are folded into its lowest bit, and one multiplication gathers the eight low
/// bits into the top byte (bit `8 * j` moves to `56 + j`; no two products share a position, so
/// nothing carries).
#[inline]
pub(super) fn nonzero_bytes(bytes: &[u8]) -> u32 {
    debug_assert!(bytes.len() <= 32, "{} bytes do not fit a u32", bytes.len());
    let mut mask = 0;
    for (chunk_index, chunk) in bytes.chunks(8).enumerate() {
        let mut eight = [0; 8];
        eight[..chunk.len()].copy_from_slice(chunk);
        let word = u64::from_le_bytes(eight);
        let folded = word | word >> 4;
        let folded = folded | folded >> 2;
        let low_bits = (folded | folded >> 1) & 0x0101_0101_0101_0101;
        let gathered = low_bits.wrapping_mul(0x0102_0408_1020_4080) >> 56;
        mask |= (gathered as u32) << (8 * chunk_index);
    }
    mask
}
