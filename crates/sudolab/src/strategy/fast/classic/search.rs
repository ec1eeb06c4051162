//! The search of the 9x9 path: propagation to a fixed point, the choice of the cell to guess on,
//! and the solutions handed out.

use std::cell::Cell;

use super::board::{Board, givens, write_solution};
use super::tables::{BAND_PEERS, COLUMN, ONES_IN_9_BITS, OTHER_BANDS};
use crate::model::{Grid, Shape};
use crate::strategy::fast::Tally;
use crate::strategy::{Limits, Outcome};

/// Near the leaves: with at most this many unsolved cells, propagation skips hidden singles in
/// columns and [`choose_cell`] takes the first cell with two candidates without scoring. So
/// close to a solution both change the tree little and cost more than they save (measured:
/// docs/benchmarks.md, 'fast: what was tried'). The pinned node counters depend on this value.
pub(super) const FEW_UNSOLVED: u32 = 25;

/// What the search does with each solution it finds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Output {
    /// Writes it into a grid and hands the grid to the caller's callback.
    Grids,
    /// Counts it only: no grid is written and the callback is never called.
    CountOnly,
}

/// Searches the 9x9 `puzzle` from its givens; conflicting givens end it with every counter at
/// zero.
pub(super) fn run(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    output: Output,
) -> Outcome {
    let mut search = Search {
        solution: None,
        output,
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
    /// The grid this thread's last search wrote its solutions into, kept for the next one, so
    /// that a search allocates no grid of its own (docs/benchmarks.md, 'fast: what was tried').
    static SOLUTION_GRID: Cell<Option<Grid>> = const { Cell::new(None) };
}

struct Search<'a> {
    /// Where solutions are written before they are reported: the thread's kept grid
    /// ([`SOLUTION_GRID`]), taken at the first solution.
    solution: Option<Grid>,
    /// Whether solutions are written out or only counted.
    output: Output,
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
            // Words are numbered digit by digit, so lowest first goes digit by digit: an update
            // changes the same digit's other bands (columns) more often than other digits
            // (solved cells). Why not band by band: docs/benchmarks.md, 'fast: what was tried'.
            // Any order settles to the same board (see `Board::update_until_settled`).
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
        if self.output == Output::CountOnly {
            return self.tally.count();
        }
        let solution = self.solution.get_or_insert_with(|| {
            SOLUTION_GRID
                .take()
                .unwrap_or_else(|| Grid::empty(Shape::CLASSIC))
        });
        // Digits 0..9 become values 1..=9 of a 9x9 grid: always in range, so the cells are
        // written directly, without `Grid::set`'s range check per cell.
        let cells: &mut [u8; 81] = solution
            .cells_mut()
            .try_into()
            .expect("the classic path runs on 9x9 grids");
        write_solution(board, cells);
        self.tally.report(solution)
    }
}

/// How many of the cell's 20 peers are unsolved. With `popcnt` (the workspace's x86-64 builds,
/// `.cargo/config.toml`) one instruction counts the band's part; a target without it counts
/// by table, since there `count_ones` is a dozen instructions. Both ways give the same count,
/// so the tree does not depend on the target.
#[inline]
pub(super) fn unsolved_peers(board: &Board, band: usize, cell: usize) -> u32 {
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

/// The cell to guess on, `(band, cell in band)`: among the cells with two candidates (found
/// band by band with bit-sliced counts), the first with the most unsolved peers, or simply the
/// first when few cells are left ([`FEW_UNSOLVED`]); with none, the first cell with the fewest
/// candidates; `None` when every cell is solved. Why crowded neighbourhoods: they make much
/// smaller trees on hard puzzles than the first bivalue cell (docs/benchmarks.md, 'fast: what
/// was tried').
#[inline]
pub(super) fn choose_cell(board: &Board, pairs: [u32; 3]) -> Option<(usize, usize)> {
    if board.unsolved == [0; 3] {
        return None;
    }
    // Counted again rather than carried from `propagate` in a field, which made `Search::run`
    // keep more on the stack (docs/benchmarks.md, 'fast: what was tried').
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
