//! `fast` on the classic 9x9 board: candidates kept per digit and per band.
//!
//! The idea of band words and permutation tables is JCZSolve's (zhouyundong_2012's solver, as
//! tuned by champagne and then JasonLion; dobrichev's fsss2 is of the same family). This is an
//! independent implementation: no code or table of theirs is used.
//!
//! # Layout
//!
//! A band is three rows of boxes, 27 cells. Cell `i` of the board (row-major, 0 to 80) is bit
//! `i % 27` of band `i / 27`, and within a band bit `9 * row_in_band + column`:
//!
//! ```text
//!    column:  0  1  2   3  4  5   6  7  8
//!           +---------+---------+---------+
//!    row 0  |  0  1  2|  3  4  5|  6  7  8|   band 0 = rows 0-2 (board cells 0-26)
//!    row 1  |  9 10 11| 12 13 14| 15 16 17|   band 1 = rows 3-5 (board cells 27-53)
//!    row 2  | 18 19 20| 21 22 23| 24 25 26|   band 2 = rows 6-8 (board cells 54-80)
//!           +---------+---------+---------+   bits 27-31 of a word: always 0
//!             box 0     box 1     box 2
//! ```
//!
//! A segment is one row of one box, three cells (`7 << (9 * row + 3 * box)`). The nine segments
//! of a band are numbered box-major: bit `3 * box + row` of the 9-bit index that
//! [`segments`](board::segments) builds and [`BAND_ALLOWED`](tables::BAND_ALLOWED) and
//! [`LONE_SEGMENT`](tables::LONE_SEGMENT) take:
//!
//! ```text
//!           box 0  box 1  box 2
//!    row 0    0      3      6
//!    row 1    1      4      7
//!    row 2    2      5      8
//! ```
//!
//! The board ([`Board`](board::Board), 124 bytes, copied whole on a guess, never allocated):
//!
//! ```text
//!    places[27]   word 3 * digit + band: the cells of the band where the digit (0-8) can go
//!                 [d0 b0][d0 b1][d0 b2][d1 b0][d1 b1] ... [d8 b1][d8 b2]
//!    unsolved[3]  per band, the cells not yet solved (the same 27-bit layout)
//!    dirty        bit w: word w changed since its last update (bits 0-26)
//! ```
//!
//! sudolab's names against those of JCZSolve.c (JasonLion's version, the one tdoku benchmarks
//! against); the notes under the table say where the two differ in more than the name:
//!
//! | sudolab | JCZSolve.c |
//! |---|---|
//! | `Board::places[3 * digit + band]` | `bands[digit*3 + subBand]` (1) |
//! | `Board::unsolved` | `unsolvedCells` |
//! | `Board::dirty` | `prevBands` (2) |
//! | none (3) | `unsolvedRows` |
//! | `Search::pairs` | `pairs` |
//! | `segments` | `TblShrinkMask` (4) |
//! | `BAND_ALLOWED` | `TblComplexMask` (4) |
//! | `LOCKED_COLUMNS` | `TblMaskSingle` (5) |
//! | `LONE_SEGMENT`, `alone_in_segment` | `TblShrinkSingle`, `TblColumnSingle`, `TblRowUniq` (3) |
//! | `SAME_DIGIT` | `TblAnother1`, `TblAnother2` |
//! | `BAND_PEERS` | `TblSelfMask`, complemented (6) |
//! | `Board::update` | one `UPDN` and `UPWCL` step of `Update` |
//! | `Board::update_until_settled` | `Update` (7) |
//! | `Board::candidate_counts`, naked singles | `ApplySingleOrEmptyCells` |
//! | `Search::propagate` | `FullUpdate` |
//! | `Board::column_singles` | none: JCZSolve has no hidden singles in columns |
//! | `choose_cell` | `GuessBiValueInCell`, `GuessFirstCell` (8) |
//! | `givens` | `InitSudoku`, `SetSolvedDigit` |
//! | `write_solution` | `ExtractSolution` |
//!
//! (1) JCZSolve calls a word a "band" and a band a "subBand". (2) JCZSolve keeps each word's
//! value at its last update and compares; sudolab keeps one bit per changed word. (3) JCZSolve
//! finds row singles through three tables and keeps unsolved rows; sudolab takes them from
//! one table on the segment index and keeps no row bits: the same job, not a one-to-one match.
//! (4) JCZSolve's index is row-major (bit `3 * row + box`), one look-up per row; sudolab's is
//! box-major and arithmetic. (5) JCZSolve's is a mask to keep; sudolab's, the cells to clear.
//! (6) As far as read here; not checked bit by bit. (7) JCZSolve sweeps the 27 words in a
//! fixed, unrolled order and repeats while any changed; sudolab takes the lowest dirty word.
//! (8) JCZSolve guesses on the first bivalue cell, else on every value of the first unsolved
//! cell; sudolab scores bivalue cells by unsolved peers, else takes a cell with the fewest.
//!
//! # Propagation
//!
//! Propagation works on one (digit, band) word at a time, whenever it changed:
//!
//! * In a band, a digit takes one cell in each of the three rows and in each of the three boxes,
//!   so the segments it occupies form a 3x3 permutation matrix. [`BAND_ALLOWED`] maps the nine
//!   "segment still possible" bits to the cells of every permutation that fits; anything
//!   outside goes. That one table look-up does the row and box eliminations of placed digits,
//!   hidden singles in boxes and box-line reductions inside the band, and finds a row or box
//!   with no place left (no permutation fits).
//! * A box of the band with its places for the digit in one column only locks that column:
//!   the digit leaves it in the two other bands ([`LOCKED_COLUMNS`], pointing along columns).
//!   A solved cell is such a box, so this also does the column eliminations of placements.
//! * A row with one place left for the digit is a placement: the cell is solved and the other
//!   digits leave it (a naked single, which has no other digit, is marked solved when placed).
//! * When no word changes any more, cells with one candidate (naked singles) are placed and
//!   cells with none are contradictions, found for a whole band at once by bit-sliced counting
//!   over the nine digit words.
//! * Then hidden singles in columns, the one house no band word sees whole, by the same
//!   counting: the three bands of a digit stacked, then the three rows of the stack folded. A
//!   column with no place left is a contradiction. Near the leaves (at most [`FEW_UNSOLVED`]
//!   cells unsolved) they are skipped.
//!
//! When propagation stalls, the search guesses on a cell with two candidates, the one with the
//! most unsolved peers (near the leaves simply the first; with none, a cell with the fewest),
//! each value but the last on a copy of the board.
//!
//! Counters as in the general path: `nodes` (boards propagated: the root and one per guess),
//! `guesses` (values tried on a cell with two or more candidates), `propagation_rounds` (passes
//! of word updates: each begins with a placement or after the singles found by the last pass).
//! Tests pin them: any change to the rules, their order or the cell choice must keep them.
//!
//! # Speed
//!
//! Everything here is inlined into `Search::run`, so a change anywhere can move the registers
//! of the word-update loop: check that loop's assembly after a change, not only its
//! instruction count. The word updates form a latency chain (each update's load waits for the
//! index of its word, which comes from the update before), so a change that lengthens that
//! chain costs time even at the same instruction count. What was tried and measured, and what
//! did not pay: docs/benchmarks.md, 'fast: what was tried, measured, and did not pay'.
//!
//! [`BAND_ALLOWED`]: tables::BAND_ALLOWED
//! [`LOCKED_COLUMNS`]: tables::LOCKED_COLUMNS
//! [`FEW_UNSOLVED`]: search::FEW_UNSOLVED

mod board;
mod search;
mod tables;
#[cfg(test)]
mod tests;

use crate::model::Grid;
use crate::strategy::{Limits, Outcome};
use search::{Output, run};

/// Searches a 9x9 puzzle, passing each solution to `on_solution`. Givens that conflict are no
/// solution, proved with no search (every counter at zero), as
/// [`answer_without_search`](crate::strategy::answer_without_search) answers for other shapes;
/// finding them here saves that separate pass.
pub(super) fn search(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
) -> Outcome {
    run(puzzle, limits, on_solution, Output::Grids)
}

/// The same search when only the number of solutions is wanted: no solution grid is written.
pub(super) fn count(puzzle: &Grid, limits: &Limits) -> Outcome {
    run(puzzle, limits, &mut |_| {}, Output::CountOnly)
}
