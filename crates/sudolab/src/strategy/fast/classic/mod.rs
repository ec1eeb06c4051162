//! `fast` on the classic 9x9 board: candidates kept per digit and per band.
//!
//! A band is three rows of boxes, 27 cells, so the places left for one digit in one band fit in
//! one `u32` (bit `9 * row_in_band + column`), and cell `i` of the board is bit `i % 27` of band
//! `i / 27`. The whole board is 27 such words, one per digit and band, a word of unsolved cells
//! per band and a word of changed words: 124 bytes, copied whole on a guess, never allocated.
//!
//! Propagation works on one (digit, band) word at a time, whenever it changed:
//!
//! * In a band, a digit takes one cell in each of the three rows and in each of the three boxes,
//!   so the row segments (row x box, three cells each) it occupies form a 3x3 permutation
//!   matrix. [`BAND_ALLOWED`] maps the nine "segment still possible" bits to the cells of every
//!   permutation that fits; anything outside goes. That one table look-up does the row and box
//!   eliminations of placed digits, hidden singles in boxes and box-line reductions inside the
//!   band, and finds a row or box with no place left (no permutation fits).
//! * A box of the band with its places for the digit in one column only locks that column:
//!   the digit leaves it in the two other bands ([`LOCKED_COLUMNS`], pointing along columns).
//!   A solved cell is such a box, so this also does the column eliminations of placements;
//!   the extra eliminations cut the boards per puzzle by a third on top1465 (33.8 to 22.7).
//! * A row with one place left for the digit is a placement: the cell is solved and the other
//!   digits leave it (a naked single, which has no other digit, is marked solved when placed).
//! * When no word changes any more, cells with one candidate (naked singles) are placed and
//!   cells with none are contradictions, found for a whole band at once by bit-sliced counting
//!   over the nine digit words.
//! * Then hidden singles in columns, the one house no band word sees whole, by the same
//!   counting: the three bands of a digit stacked, then the three rows of the stack folded. A
//!   column with no place left is a contradiction. They cut the guesses on the 17-clue set from
//!   27.5 to 3.3 per puzzle. Near the leaves (at most [`FEW_UNSOLVED`] cells unsolved) they are
//!   skipped: there they hardly ever find anything, and on serg's set, which never needs them,
//!   they cost a twelfth of the instructions.
//!
//! When propagation stalls, the search guesses on a cell with two candidates, the one with the
//! most unsolved peers (near the leaves simply the first; with none, a cell with the fewest),
//! each value but the last on a copy of the board. The idea of band words and permutation
//! tables is JCZSolve's (zhouyundong_2012, later tuned by champagne and dobrichev); this is an
//! independent implementation.
//!
//! Counters as in the general path: `nodes` (boards propagated: the root and one per guess),
//! `guesses` (values tried on a cell with two or more candidates), `propagation_rounds` (passes
//! of word updates: each begins with a placement or after the singles found by the last pass).
//!
//! What did not pay (timed interleaved with the `sudoku` crate, docs/benchmarks.md): removing a
//! solved cell from the other digits once per pass instead of once per update, looking for
//! column singles only in digits whose words changed, branch-free updates, band-major words,
//! scoring bivalue cells by the candidates their values would remove (more work per guess,
//! no smaller tree), pushing locked columns to the other bands without first checking that
//! they have any (8% slower on serg's set at the same instruction count), updating the 27
//! words in a fixed, unrolled sweep instead of lowest changed word first (9 to 25% slower), in
//! batches of the words changed so far (more updates on the 17-clue set), or with the look-ups
//! of row singles and locked columns taken before the permutation filter (more updates), and a
//! band's nine words side by side so that SSE2 clears a cell from all of them (15% slower on
//! serg: the wide loads wait for the narrow stores before them). Everything here is inlined
//! into [`Search::run`], so a change anywhere can move the word-update loop's registers: a
//! cheaper guess score (two field reads per cell) made the compiler keep the board's address
//! on the stack inside that loop, and every set got 3 to 6% slower. Check the loop's assembly
//! after any change, not only the instruction count.
//!
//! The word updates are a chain: each update's load waits for the index of its word, which
//! came from the dirty bits of the update before (three cycles more on that chain, a
//! multiplication by a black-boxed 1, made every set 4 to 5% slower). What paid was shortening
//! or overlapping it: row singles from the segment index, `dirty` in a register, the next word
//! chosen before the update (docs/benchmarks.md, item 5). What did not, on the race harness's
//! native build (2026-11-26, branch `fast6`): with `dirty` in a register and the combining
//! tree all `|`, LLVM turned the nine tests into an AVX2 gather (10 to 15% slower); the
//! clearing without its `solved != 0` branch (25% slower: every update then waits for it);
//! a predicted branch taking the lowest word still dirty as the next one, unless the update
//! marked a lower one (8% slower: it does in 31% of updates); locked columns taken from the
//! word before the permutation filter, those the filter adds behind a second, rarely taken
//! branch (2 to 5% slower, more spills); dirty bits built at their final positions, a shift by
//! `3 * digit + band` per word instead of one shift by the band (more spills, no faster);
//! choosing two words ahead instead of one (no faster), or the next word from another band
//! than the current one (forum slower).

use std::cell::Cell;

use super::Tally;
use crate::model::{Grid, Shape};
use crate::strategy::{Limits, Outcome};

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// All 27 words of a board, as dirty bits.
const ALL_WORDS: u32 = (1 << 27) - 1;

/// For the segments still possible (bit `3 * box + row`, as [`segments`] finds them), the cells
/// of the band covered by the union of all 3x3 permutation matrices among them; 0 when none
/// fits.
const BAND_ALLOWED: [u32; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0; 512];
    let mut segments = 0;
    while segments < 512 {
        let mut union = 0;
        let mut p = 0;
        while p < PERMUTATIONS.len() {
            let perm = PERMUTATIONS[p];
            let matrix = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if segments & matrix == matrix {
                union |= matrix;
            }
            p += 1;
        }
        let mut cells = 0;
        let mut bit = 0;
        while bit < 9 {
            if union & (1 << bit) != 0 {
                cells |= 7 << (9 * (bit / 3) + 3 * (bit % 3));
            }
            bit += 1;
        }
        // Built from the row-major bit order (`3 * row + box`), stored under the box-major one.
        let mut transposed = 0;
        let mut bit = 0;
        while bit < 9 {
            if segments & (1 << bit) != 0 {
                transposed |= 1 << (3 * (bit % 3) + bit / 3);
            }
            bit += 1;
        }
        table[transposed] = cells;
        segments += 1;
    }
    table
};

/// For the segments still possible (as [`BAND_ALLOWED`] takes them), the cells of each row
/// whose places [`BAND_ALLOWED`] keep in one segment only: a place alone in that segment is
/// the row's only place, a placement. Taken from the same index as [`BAND_ALLOWED`], so that
/// row singles need not wait for that look-up and a look-up per row after it.
const LONE_SEGMENT: [u32; 512] = {
    let mut table = [0; 512];
    let mut segments = 0;
    while segments < 512 {
        let allowed = BAND_ALLOWED[segments];
        let mut row = 0;
        while row < 3 {
            let cells = (allowed >> (9 * row)) & 0x1FF;
            let mut kept = 0;
            let mut k = 0;
            while k < 3 {
                if cells & (7 << (3 * k)) != 0 {
                    kept += 1;
                }
                k += 1;
            }
            if kept == 1 {
                table[segments] |= cells << (9 * row);
            }
            row += 1;
        }
        segments += 1;
    }
    table
};

/// For a 9-bit set of columns where a digit can go in a band, the columns that are the only
/// one left in their box: the digit is there in this band, so not in the other two bands. As
/// the cells of those columns on the three rows of a band: a multiplication after the look-up
/// would lengthen the chain of dependent steps of every word update.
const LOCKED_COLUMNS: [u32; 512] = {
    let mut table = [0; 512];
    let mut columns: usize = 0;
    while columns < 512 {
        let mut locked = 0;
        let mut k = 0;
        while k < 3 {
            let in_box = (columns >> (3 * k)) & 7;
            if in_box.is_power_of_two() {
                locked |= in_box << (3 * k);
            }
            k += 1;
        }
        table[columns] = column_cells(locked as u32);
        columns += 1;
    }
    table
};

/// For each cell of a band, its column.
const COLUMN: [u8; 27] = {
    let mut table = [0; 27];
    let mut cell = 0;
    while cell < 27 {
        table[cell] = (cell % 9) as u8;
        cell += 1;
    }
    table
};

/// For each word, the words of the same digit in the two other bands.
const SAME_DIGIT: [[u8; 2]; 27] = {
    let mut table = [[0; 2]; 27];
    let mut word = 0;
    while word < 27 {
        let first = word - word % 3;
        table[word] = [
            (first + (word + 1) % 3) as u8,
            (first + (word + 2) % 3) as u8,
        ];
        word += 1;
    }
    table
};

/// For each band, the two other bands.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [2, 0], [0, 1]];

/// The number of ones in each 9-bit value.
const ONES_IN_9_BITS: [u8; 512] = {
    let mut table = [0; 512];
    let mut value = 0;
    while value < 512 {
        table[value] = (value as u32).count_ones() as u8;
        value += 1;
    }
    table
};

/// For each set of rows of a band (bit per row), their cells.
const ROW_CELLS: [u32; 8] = {
    let mut table = [0; 8];
    let mut rows = 0;
    while rows < 8 {
        let mut row = 0;
        while row < 3 {
            if rows & (1 << row) != 0 {
                table[rows] |= 0x1FF << (9 * row);
            }
            row += 1;
        }
        rows += 1;
    }
    table
};

/// For each set of boxes of a band (bit per box), their cells.
const BOX_CELLS: [u32; 8] = {
    let mut table = [0; 8];
    let mut boxes = 0;
    while boxes < 8 {
        let mut k = 0;
        while k < 3 {
            if boxes & (1 << k) != 0 {
                table[boxes] |= column_cells(7 << (3 * k));
            }
            k += 1;
        }
        boxes += 1;
    }
    table
};

/// For each cell of a band, the other cells of its row and its box.
const BAND_PEERS: [u32; 27] = {
    let mut table = [0; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, col) = (cell / 9, cell % 9);
        let peers = (0x1FF << (9 * row)) | column_cells(7 << (3 * (col / 3)));
        table[cell] = peers & !(1 << cell);
        cell += 1;
    }
    table
};

/// For each cell of the board, its row, column and box (bits 0-8, 9-17, 18-26).
const CELL_HOUSES: [u32; 81] = {
    let mut table = [0; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, col) = (cell / 9, cell % 9);
        table[cell] = (1 << row) | (1 << (9 + col)) | (1 << (18 + 3 * (row / 3) + col / 3));
        cell += 1;
    }
    table
};

/// The segments (row of a box, three cells) of a band word that have a place, as 9 bits: bit
/// `3 * box + row`. Each segment's three bits are folded into its lowest (bits `3 * k`), and
/// shifting by 8 and 16 brings the nine lowest bits together without overlap. Arithmetic, not
/// a table: the word update is a chain of dependent steps, and this is shorter than a look-up
/// per row.
#[inline]
fn segments(word: u32) -> usize {
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

/// A 9-bit set of columns, repeated on the three rows of a band.
#[inline]
const fn column_cells(columns: u32) -> u32 {
    columns * 0x40201
}

/// Candidates of the whole board.
#[derive(Clone, Copy)]
struct Board {
    /// `places[3 * digit + band]`: the cells of `band` where `digit` (0-based) can still go.
    places: [u32; 27],
    /// Words changed since their last update (bit `word`).
    dirty: u32,
    /// Cells not yet solved, per band.
    unsolved: [u32; 3],
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
    fn guess(&mut self, band: usize, cell: usize, digit: usize, candidates: u32) {
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
    fn assign_single(&mut self, band: usize, cell: usize, digit: usize) {
        self.remove(3 * digit + band, BAND_PEERS[cell]);
        self.unsolved[band] &= !(1 << cell);
    }

    /// Removes `cells` of `band` from all nine digits, marking dirty the words that changed.
    /// The changes are gathered at fixed shifts and moved to the band once, cheaper than a
    /// shift by a variable amount per word (1.5% fewer instructions on serg's set). Keeping a
    /// band's nine words side by side instead, so that the compiler clears them with SSE2, ran
    /// 15% slower: word-sized stores then wide loads of the same bytes stall.
    #[expect(
        clippy::inline_always,
        reason = "left to itself the compiler calls it out of line from the word update; inlined, \
                  2% faster on every set (interleaved with the sudoku crate)"
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
        // Combined as a tree, not one after the other: the next word to update waits on this
        // (serg 1.03 to 1.02x of the crate, 17-clue 0.73 to 0.71x). The bits are distinct, so
        // `+` is `|`; mixing the two keeps LLVM from seeing an OR reduction: with `dirty` in a
        // register it vectorised the nine tests into an AVX2 gather on native builds, 12% slower.
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
    /// not [`Board::dirty`]: kept in the board, it went through memory two or three times per
    /// update (a store and a reload on the chain of steps that picks the next word). Together
    /// with the row singles from [`LONE_SEGMENT`], serg's set ran 3 to 4% faster and forum's
    /// 2%; neither alone gained clearly (each shortens one of two paths of about equal
    /// length: the row singles' and the locked columns').
    fn update(&mut self, word: usize, dirty: &mut u32) -> bool {
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

    /// Word updates until none is dirty; `false` on a contradiction. The order is
    /// [`Search::propagate`]'s (lowest word first, the next one chosen before each update);
    /// a test holds it to other orders.
    #[expect(
        clippy::inline_always,
        reason = "the word-update loop is the search's hot loop; it stays in `Search::run`"
    )]
    #[inline(always)]
    fn update_until_settled(&mut self) -> bool {
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
    fn candidate_counts(&self) -> [(u32, u32, u32); 3] {
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
    fn column_singles(&mut self) -> Option<bool> {
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
    fn unsolved_count(&self) -> u32 {
        let [unsolved_0, unsolved_1, unsolved_2] = self.unsolved;
        (u64::from(unsolved_0) | u64::from(unsolved_1) << 32).count_ones() + unsolved_2.count_ones()
    }

    /// The digits (bit `d` for digit `d`, 0-based) still possible in a cell.
    #[inline]
    fn digits_at(&self, band: usize, cell: usize) -> u32 {
        let mut digits = 0;
        for digit in 0..9 {
            digits |= ((self.places[3 * digit + band] >> cell) & 1) << digit;
        }
        digits
    }
}

/// Searches a 9x9 puzzle, passing each solution to `on_solution`. Givens that conflict are no
/// solution, proved with no search (every counter at zero), as
/// [`answer_without_search`](crate::strategy::answer_without_search) answers for other shapes;
/// finding them here saves that separate pass.
pub(super) fn search(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
) -> Outcome {
    run(puzzle, limits, on_solution, true)
}

/// The same search when only the number of solutions is wanted: no solution grid is written.
/// On serg's set, where every puzzle has two solutions or more, writing the two grids was 8% of
/// the time of a count to two.
pub(super) fn count(puzzle: &Grid, limits: &Limits) -> Outcome {
    run(puzzle, limits, &mut |_| {}, false)
}

fn run(puzzle: &Grid, limits: &Limits, on_solution: &mut dyn FnMut(&Grid), grids: bool) -> Outcome {
    let mut search = Search {
        solution: None,
        grids,
        tally: Tally::new(limits, on_solution),
        pairs: [0; 3],
    };
    if let Some(mut board) = givens(puzzle) {
        search.run(&mut board);
    }
    if let Some(solution) = search.solution.take() {
        SOLUTION_GRID.set(Some(solution));
    }
    search.tally.outcome()
}

thread_local! {
    /// The grid this thread's last search wrote its solutions into, kept for the next one: a
    /// new grid per search (a copy of the puzzle, as before) cost an allocation and its free,
    /// about 250 instructions a puzzle, an eighth of what the command line adds to a search.
    static SOLUTION_GRID: Cell<Option<Grid>> = const { Cell::new(None) };
}

/// For each byte value, its eight bits spread to the lowest bit of eight bytes (bit `j` to
/// byte `j`), so that a solution is written eight cells at a time.
const SPREAD: [u64; 256] = {
    let mut table = [0; 256];
    let mut value = 0;
    while value < 256 {
        let mut bit = 0;
        while bit < 8 {
            if value & (1 << bit) != 0 {
                table[value] |= 1 << (8 * bit);
            }
            bit += 1;
        }
        value += 1;
    }
    table
};

/// Writes the solved `board` as values 1 to 9 into `cells`. A band's cells get their value
/// bit by bit: bit `k` of a value is set where one of the digits whose value has it is
/// placed (OR of their words, four bit planes), and [`SPREAD`] turns eight cells of a plane
/// into eight bytes. About 300 instructions, against 1,000 for a loop over the 81 placed bits.
fn write_solution(board: &Board, cells: &mut [u8; 81]) {
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
/// nothing carries). Byte by byte it took 6 instructions per cell.
fn nonzero_bytes(bytes: &[u8]) -> u32 {
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

/// The board with the givens of `puzzle` placed, not yet propagated; `None` when two givens
/// share a digit in a row, column or box. Built word by word (each digit's places are the free
/// cells outside the rows, columns and boxes of its givens): placing the givens one by one cost
/// a tenth of the time of an easy puzzle.
fn givens(puzzle: &Grid) -> Option<Board> {
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

struct Search<'a> {
    /// Where solutions are written before they are reported: the thread's kept grid
    /// ([`SOLUTION_GRID`]), taken at the first solution.
    solution: Option<Grid>,
    /// Whether solutions are written out at all (`false` when only counted).
    grids: bool,
    tally: Tally<'a>,
    /// The cells with two candidates, per band, as the last propagation pass counted them;
    /// valid when `propagate` returns `true`, since that pass changed nothing.
    pairs: [u32; 3],
}

impl Search<'_> {
    /// Propagates `board`, then reports it or guesses; every value but the last is tried on a
    /// copy, the last on `board` itself. `false` when the search must stop.
    fn run(&mut self, board: &mut Board) -> bool {
        loop {
            if !self.tally.enter_node() {
                return false;
            }
            if !self.propagate(board) {
                return true;
            }
            let Some((band, cell)) = choose_cell(board, self.pairs) else {
                return self.report(board);
            };
            let candidates = board.digits_at(band, cell);
            let mut digits = candidates;
            loop {
                let digit = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                self.tally.guesses += 1;
                if digits == 0 {
                    board.guess(band, cell, digit, candidates);
                    break;
                }
                let mut child = *board;
                child.guess(band, cell, digit, candidates);
                if !self.run(&mut child) {
                    return false;
                }
            }
        }
    }

    /// Word updates until none changes, then naked singles, until neither finds anything;
    /// `false` on a contradiction.
    fn propagate(&mut self, board: &mut Board) -> bool {
        loop {
            // Lowest word first: digit by digit, since an update changes the same digit's
            // other bands (columns) more often than other digits (solved cells). Band by band
            // ran 8% slower, though cachegrind counted 3% fewer instructions.
            //
            // Almost: the word after the current one is taken before its update, from the
            // words dirty then, and the words that update marks wait for the one after. An
            // update is a chain of dependent steps (load, segment index, table, row singles,
            // clearing, dirty bits), and the next word's index came at its end; chosen
            // before, the processor runs two updates at once whenever they touch different
            // words. Every rule only removes places, so the words settle to the same board
            // in any order (or all orders find a contradiction; a test holds `Board::update_until_settled` to
            // lowest first, highest first and a shuffled order), and the trees are the same;
            // the updates a puzzle are as many on serg's set and 3% fewer on forum's. Serg
            // and forum ran 4 to 6% faster. Choosing two words ahead did not pay more.
            if board.dirty != 0 {
                self.tally.rounds += 1;
                if !board.update_until_settled() {
                    return false;
                }
            }
            let mut placed = false;
            for (band, (one, two, three)) in board.candidate_counts().into_iter().enumerate() {
                if one != board.unsolved[band] {
                    return false;
                }
                self.pairs[band] = two & !three;
                let mut singles = one & !two;
                while singles != 0 {
                    let cell = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    let digits = board.digits_at(band, cell);
                    if digits == 0 {
                        // An earlier single in this band took its last candidate.
                        return false;
                    }
                    board.assign_single(band, cell, digits.trailing_zeros() as usize);
                    placed = true;
                }
            }
            if placed {
                continue;
            }
            if board.unsolved == [0; 3] {
                // Solved: every column already has each digit once.
                return true;
            }
            if board.unsolved_count() <= FEW_UNSOLVED {
                return true;
            }
            match board.column_singles() {
                Some(true) => {}
                Some(false) => return true,
                None => return false,
            }
        }
    }

    fn report(&mut self, board: &Board) -> bool {
        if !self.grids {
            return self.tally.count();
        }
        let solution = self.solution.get_or_insert_with(|| {
            SOLUTION_GRID
                .take()
                .unwrap_or_else(|| Grid::empty(Shape::CLASSIC))
        });
        // Digits 0..9 become values 1..=9 of a 9x9 grid: always in range, so the cells are
        // written directly. Through Grid::set's range check per cell, a search that reports
        // its solutions took 1.06 to 1.10 times a count on the 17-clue set; written directly,
        // 0.98 (benches/pipeline.rs, the search and count loops of one run).
        let cells: &mut [u8; 81] = solution
            .cells_mut()
            .try_into()
            .expect("the classic path runs on 9x9 grids");
        write_solution(board, cells);
        self.tally.report(solution)
    }
}

/// How many of the cell's 20 peers are unsolved; counted by table, since `count_ones` is a
/// dozen instructions on the baseline x86-64 target, which lacks `popcnt`. Where `popcnt` is
/// there (`-C target-cpu=native` on any recent x86-64), one instruction counts the band's
/// part: serg's set 1 to 2% faster in the race harness's native build, the tree the same.
#[inline]
fn unsolved_peers(board: &Board, band: usize, cell: usize) -> u32 {
    let in_band = BAND_PEERS[cell] & board.unsolved[band];
    let column = COLUMN[cell];
    let [next, last] = OTHER_BANDS[band];
    // The column's unsolved cells in the other bands, 0 to 2 per row of a band (bits 0, 9 and
    // 18), summed into bits 18 to 20 by the multiplication.
    let other_bands =
        ((board.unsolved[next] >> column) & 0x40201) + ((board.unsolved[last] >> column) & 0x40201);
    let in_band = if cfg!(target_feature = "popcnt") {
        in_band.count_ones()
    } else {
        u32::from(ONES_IN_9_BITS[(in_band & 0x1FF) as usize])
            + u32::from(ONES_IN_9_BITS[((in_band >> 9) & 0x1FF) as usize])
            + u32::from(ONES_IN_9_BITS[(in_band >> 18) as usize])
    };
    in_band + ((other_bands.wrapping_mul(0x40201) >> 18) & 7)
}

/// Near the leaves: with at most this many unsolved cells, propagation skips hidden singles in
/// columns and [`choose_cell`] takes the first cell with two candidates without scoring. So
/// close to a solution both change the tree little and cost more than they save: on serg's set
/// (35 givens, where most boards are this full) 305.7 to 291.2 million instructions, serg 1.00x
/// to 0.92-0.96x of the `sudoku` crate; the trees grow by 0.7 to 1.9% and the other sets' times
/// stay within 1 to 2% (docs/benchmarks.md).
const FEW_UNSOLVED: u32 = 25;

/// The cell to guess on, `(band, cell in band)`: among the cells with two candidates (found
/// band by band with bit-sliced counts), the first with the most unsolved peers, or simply the
/// first when few cells are left ([`FEW_UNSOLVED`]); with none, the first cell with the fewest
/// candidates; `None` when every cell is solved. Preferring crowded
/// neighbourhoods halved the tree on the hard sets against taking the first bivalue cell
/// (top1465: 59.9 to 33.8 boards per puzzle; forum-hardest: 648 to 330), though serg's
/// many-solution puzzles got slower (docs/benchmarks.md).
fn choose_cell(board: &Board, pairs: [u32; 3]) -> Option<(usize, usize)> {
    if board.unsolved == [0; 3] {
        return None;
    }
    // Counted again rather than passed from `propagate`, which counted them too: carried in a
    // field, the flag made `Search::run` spill more (181 stack accesses against 146) and the
    // 17-clue set ran 0.75x of the crate instead of 0.71x.
    if board.unsolved_count() <= FEW_UNSOLVED {
        if let Some(band) = pairs.iter().position(|&pairs| pairs != 0) {
            return Some((band, pairs[band].trailing_zeros() as usize));
        }
    }
    // Scores count one more than the unsolved peers, so that any bivalue cell beats none.
    let mut best_pair = (0, 0);
    let mut best_score = 0;
    for (band, &pairs) in pairs.iter().enumerate() {
        let mut pairs = pairs;
        while pairs != 0 {
            let cell = pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            let score = unsolved_peers(board, band, cell) + 1;
            if score > best_score {
                best_pair = (band, cell);
                best_score = score;
            }
        }
    }
    if best_score > 0 {
        return Some(best_pair);
    }
    let mut best = (u32::MAX, 0, 0);
    for band in 0..3 {
        let mut unsolved = board.unsolved[band];
        while unsolved != 0 {
            let cell = unsolved.trailing_zeros() as usize;
            unsolved &= unsolved - 1;
            let count = board.digits_at(band, cell).count_ones();
            if count < best.0 {
                best = (count, band, cell);
            }
        }
    }
    Some((best.1, best.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonzero_bytes_marks_every_non_zero_byte() {
        assert_eq!(nonzero_bytes(&[]), 0);
        assert_eq!(nonzero_bytes(&[0; 27]), 0);
        assert_eq!(nonzero_bytes(&[9; 27]), (1 << 27) - 1);
        let mut bytes = [0u8; 27];
        for (i, byte) in bytes.iter_mut().enumerate() {
            // 1, 2, 4, ..., 128 and 255 in turn, every third byte left at zero.
            if i % 3 != 1 {
                *byte = if i % 9 == 8 { 255 } else { 1 << (i % 8) };
            }
        }
        let expected = (0..27)
            .filter(|i| i % 3 != 1)
            .fold(0, |mask, i| mask | 1 << i);
        assert_eq!(nonzero_bytes(&bytes), expected);
        assert_eq!(nonzero_bytes(&[0, 0, 0, 0, 0, 0, 0, 0, 7]), 1 << 8);
    }

    #[test]
    fn write_solution_writes_every_cell_of_a_solved_board() {
        let text = include_str!("../../../../../../corpora/generated/9x9-minimal.txt");
        let solutions =
            crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Line, None)
                .map(|record| record.unwrap().solution.unwrap())
                .take(20);
        for solution in solutions {
            // A full grid's board: each word holds exactly the cells of its digit.
            let board = givens(&solution).unwrap();
            let mut cells = [0u8; 81];
            write_solution(&board, &mut cells);
            assert_eq!(&cells[..], solution.cells());
        }
    }

    #[test]
    fn segments_are_numbered_box_major() {
        assert_eq!(segments(0), 0);
        assert_eq!(segments(BAND), 0x1FF);
        // Row 0 of box 0, row 1 of box 1, row 2 of box 2: one cell each.
        let diagonal = 1 | 1 << (9 + 4) | 1 << (18 + 8);
        assert_eq!(segments(diagonal), 1 | 1 << 4 | 1 << 8);
        // Row 1 of box 0 and row 0 of box 2.
        assert_eq!(segments(1 << 10 | 1 << 7), 1 << 1 | 1 << 6);
        assert_eq!(BAND_ALLOWED[segments(diagonal)], 7 | 7 << 12 | 7 << 24);
        assert_eq!(BAND_ALLOWED[segments(1 << 10 | 1 << 7)], 0);
    }

    #[test]
    fn a_box_with_one_column_left_locks_it() {
        // Box 0: columns 0 and 1; box 1: none; box 2: column 6 only.
        assert_eq!(LOCKED_COLUMNS[0b001_000_011], column_cells(0b001_000_000));
        assert_eq!(LOCKED_COLUMNS[0b100_010_001], column_cells(0b100_010_001));
        assert_eq!(LOCKED_COLUMNS[0b111_111_111], 0);
    }

    /// Whether two cells of the board (0 to 80) are peers: distinct, and in one row, column or
    /// box.
    fn are_peers(cell: usize, other: usize) -> bool {
        let (row, col) = (cell / 9, cell % 9);
        let (r, c) = (other / 9, other % 9);
        other != cell && (r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3))
    }

    #[test]
    fn unsolved_peers_counts_the_unsolved_cells_among_the_twenty_peers() {
        let text = include_str!("../../../../../../corpora/generated/9x9-minimal.txt");
        let puzzles =
            crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Line, None)
                .map(|record| record.unwrap().puzzle)
                .take(20);
        let mut checked = 0;
        for puzzle in puzzles {
            let board = givens(&puzzle).unwrap();
            let unsolved = |cell: usize| board.unsolved[cell / 27] & (1 << (cell % 27)) != 0;
            for cell in (0..81).filter(|&cell| unsolved(cell)) {
                let expected = (0..81)
                    .filter(|&other| are_peers(cell, other) && unsolved(other))
                    .count();
                let counted = unsolved_peers(&board, cell / 27, cell % 27);
                assert_eq!(counted as usize, expected, "cell {cell}");
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn choose_cell_scores_open_boards_and_takes_the_first_pair_near_the_leaves() {
        let text = include_str!("../../../../../../corpora/generated/9x9-minimal.txt");
        let records =
            crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Line, None)
                .map(|record| record.unwrap())
                .take(30);
        let (mut near_leaves, mut open) = (0, 0);
        for record in records {
            let solution = record.solution.unwrap();
            let blanks: Vec<usize> = (0..81)
                .filter(|&cell| record.puzzle.get(cell) == 0)
                .collect();
            for left in [
                FEW_UNSOLVED as usize - 5,
                FEW_UNSOLVED as usize,
                FEW_UNSOLVED as usize + 1,
                40,
            ] {
                // The solution with `left` of the puzzle's blanks open again.
                let mut grid = solution.clone();
                for &cell in &blanks[..left] {
                    grid.set(cell, 0);
                }
                let board = givens(&grid).unwrap();
                let pairs = board.candidate_counts().map(|(_, two, three)| two & !three);
                let cells =
                    |band: usize| (0..27).filter(move |&cell| pairs[band] & (1 << cell) != 0);
                let all_pairs: Vec<(usize, usize)> = (0..3)
                    .flat_map(|band| cells(band).map(move |cell| (band, cell)))
                    .collect();
                let Some(&first) = all_pairs.first() else {
                    continue;
                };
                let open_peers = |&(band, cell): &(usize, usize)| {
                    (0..81)
                        .filter(|&other| are_peers(27 * band + cell, other) && grid.get(other) == 0)
                        .count()
                };
                let expected = if left <= FEW_UNSOLVED as usize {
                    near_leaves += 1;
                    first
                } else {
                    open += 1;
                    let most = all_pairs.iter().map(open_peers).max().unwrap();
                    *all_pairs
                        .iter()
                        .find(|pair| open_peers(pair) == most)
                        .unwrap()
                };
                assert_eq!(
                    choose_cell(&board, pairs),
                    Some(expected),
                    "{left} open cells"
                );
            }
        }
        assert!(
            near_leaves > 40 && open > 40,
            "{near_leaves} boards near the leaves, {open} open"
        );
    }

    /// The generated minimal 9x9 puzzles of the project's corpus.
    fn minimal_puzzles() -> impl Iterator<Item = Grid> {
        let text = include_str!("../../../../../../corpora/generated/9x9-minimal.txt");
        crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Line, None)
            .map(|record| record.unwrap().puzzle)
    }

    /// Word updates until none changes, lowest first: the board `propagate` settles to.
    fn settle_words(board: &mut Board) -> bool {
        settle_in_order(board, u32::trailing_zeros)
    }

    /// Word updates until none changes, each time on the dirty word `pick` chooses.
    fn settle_in_order(board: &mut Board, mut pick: impl FnMut(u32) -> u32) -> bool {
        let mut dirty = board.dirty;
        board.dirty = 0;
        while dirty != 0 {
            let word = pick(dirty);
            assert_ne!(dirty & (1 << word), 0, "word {word} is not dirty");
            dirty &= !(1 << word);
            if !board.update(word as usize, &mut dirty) {
                return false;
            }
        }
        true
    }

    /// The word after `dirty`'s lowest, in a fixed pseudo-random order (xorshift), among the
    /// dirty words.
    fn any_dirty(state: &mut u64, dirty: u32) -> u32 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let skip = (*state % u64::from(dirty.count_ones())) as usize;
        let mut rest = dirty;
        for _ in 0..skip {
            rest &= rest - 1;
        }
        rest.trailing_zeros()
    }

    /// `propagate` takes the next word before each update, so its order is not strictly
    /// lowest first: the rules only remove places, so any order must settle to the same board
    /// (or find a contradiction), and the search's trees depend on that.
    #[test]
    fn word_updates_settle_the_same_in_any_order() {
        let puzzles = minimal_puzzles();
        let (mut boards, mut contradictions, mut state) = (0, 0, 0x9E37_79B9_7F4A_7C15_u64);
        let settled = |board: &Board, ok: bool| ok.then_some((board.places, board.unsolved));
        for puzzle in puzzles {
            let root = givens(&puzzle).unwrap();
            let mut settled_root = root;
            assert!(settle_words(&mut settled_root));
            // The root before and after its updates, and every guess on its first two
            // unsolved cells: wrong guesses give contradictions.
            let mut cases = vec![root, settled_root];
            let mut unsolved = settled_root.unsolved;
            for _ in 0..2 {
                let Some(band) = (0..3).find(|&band| unsolved[band] != 0) else {
                    break;
                };
                let cell = unsolved[band].trailing_zeros() as usize;
                unsolved[band] &= !(1 << cell);
                let candidates = settled_root.digits_at(band, cell);
                for digit in (0..9).filter(|&digit| candidates & (1 << digit) != 0) {
                    let mut child = settled_root;
                    child.guess(band, cell, digit, candidates);
                    cases.push(child);
                }
            }
            for board in cases {
                let mut pipelined = board;
                let ok = pipelined.update_until_settled();
                let expected = settled(&pipelined, ok);
                let mut lowest = board;
                let ok = settle_words(&mut lowest);
                assert_eq!(settled(&lowest, ok), expected);
                let mut highest = board;
                let ok = settle_in_order(&mut highest, u32::ilog2);
                assert_eq!(settled(&highest, ok), expected);
                let mut shuffled = board;
                let ok = settle_in_order(&mut shuffled, |dirty| any_dirty(&mut state, dirty));
                assert_eq!(settled(&shuffled, ok), expected);
                boards += 1;
                contradictions += usize::from(expected.is_none());
            }
        }
        assert!(
            boards > 500 && contradictions > 20,
            "{boards} boards, {contradictions} contradictions"
        );
    }

    #[test]
    fn column_singles_agree_with_counting_places_row_by_row() {
        let puzzles = minimal_puzzles();
        let (mut boards, mut with_singles, mut with_gaps) = (0, 0, 0);
        for puzzle in puzzles {
            let mut root = givens(&puzzle).unwrap();
            if !settle_words(&mut root) {
                continue;
            }
            // The root, and each first guess on its first unsolved cell, not yet propagated:
            // the guess leaves some columns with one place and some digits with none.
            let Some(band) = (0..3).find(|&band| root.unsolved[band] != 0) else {
                continue;
            };
            let cell = root.unsolved[band].trailing_zeros() as usize;
            let candidates = root.digits_at(band, cell);
            let mut cases = vec![root];
            for digit in (0..9).filter(|&digit| candidates & (1 << digit) != 0) {
                let mut child = root;
                child.guess(band, cell, digit, candidates);
                cases.push(child);
            }
            for board in cases {
                // Per digit and column, the places of unsolved cells and of solved ones.
                let mut open = [[0; 9]; 9];
                let mut solved = [[0; 9]; 9];
                for (digit, (open, solved)) in open.iter_mut().zip(&mut solved).enumerate() {
                    for cell in 0..81 {
                        let (band, bit) = (cell / 27, 1 << (cell % 27));
                        if board.places[3 * digit + band] & bit != 0 {
                            if board.unsolved[band] & bit != 0 {
                                open[cell % 9] += 1;
                            } else {
                                solved[cell % 9] += 1;
                            }
                        }
                    }
                }
                let gap = (0..9).any(|d| (0..9).any(|c| open[d][c] + solved[d][c] == 0));
                let first_single = (0..9)
                    .flat_map(|d| (0..9).map(move |c| (d, c)))
                    .find(|&(d, c)| open[d][c] == 1 && solved[d][c] == 0);
                let mut after = board;
                let found = after.column_singles();
                boards += 1;
                if gap {
                    with_gaps += 1;
                    assert_eq!(found, None);
                    continue;
                }
                let Some((digit, column)) = first_single else {
                    assert_eq!(found, Some(false));
                    assert_eq!(after.places, board.places);
                    continue;
                };
                with_singles += 1;
                if found == Some(true) {
                    // The first single found is placed: its cell is solved, holding the digit.
                    let band = (0..3)
                        .find(|&band| {
                            board.places[3 * digit + band] & column_cells(1 << column) != 0
                        })
                        .unwrap();
                    let bit = board.places[3 * digit + band] & column_cells(1 << column);
                    assert_eq!(after.unsolved[band] & bit, 0);
                    assert_ne!(after.places[3 * digit + band] & bit, 0);
                } else {
                    assert_eq!(found, None, "a later single may contradict an earlier one");
                }
            }
        }
        assert!(
            boards > 300 && with_singles > 200 && with_gaps > 0,
            "{boards} boards, {with_singles} with singles, {with_gaps} with gaps"
        );
    }

    #[test]
    fn a_locked_column_leaves_the_other_bands() {
        // Box 0 has 2 to 7 in columns 1 and 2, so its 1 is in column 0: no 1 in column 0 of
        // the bands below, though no cell of column 0 is solved.
        let mut puzzle = Grid::empty(Shape::CLASSIC);
        for (value, cell) in (2..=7).zip([1, 2, 10, 11, 19, 20]) {
            puzzle.set(cell, value);
        }
        let mut board = givens(&puzzle).unwrap();
        assert!(settle_words(&mut board));
        let column_0 = column_cells(1);
        assert_eq!(board.places[0] & !column_0 & column_cells(0b111), 0);
        assert_eq!(board.places[1] & column_0, 0);
        assert_eq!(board.places[2] & column_0, 0);
        // Column 1 of band 1 still has places for 1.
        assert_ne!(board.places[1] & column_cells(0b10), 0);
    }
}
