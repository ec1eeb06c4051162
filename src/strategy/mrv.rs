//! `mrv`: backtracking on the most constrained cell (minimum remaining values).
//!
//! At each node the search branches on the empty cell with the fewest candidates (ties: the
//! first in row-major order), trying its candidates ascending. A cell with no candidate fails
//! the node at once. This is the "bitmask MRV" solver of the benchmark tables: no propagation
//! beyond the choice of cell.
//!
//! The candidates and their counts are kept incrementally (a placement removes its digit from
//! its peers, an undo gives it back), so that the choice of cell is a minimum over a byte array
//! instead of three table reads and a popcount per cell; the tree is the textbook one.

use crate::model::Grid;

use super::backtrack::{Backtrack, CLASSIC_COUNTERS, HouseMasks, digits_of};
use super::traced_engine;
use super::{Limits, Observer, Outcome, Strategy};

/// Backtracking that always branches on the empty cell with the fewest candidates.
pub struct Mrv;

impl Strategy for Mrv {
    fn name(&self) -> &'static str {
        "mrv"
    }

    fn summary(&self) -> &'static str {
        "backtracking on the empty cell with the fewest candidates (ties row-major), values ascending"
    }

    traced_engine!(run, CLASSIC_COUNTERS);
}

fn run<O: Observer>(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let mut state = Candidates::new(puzzle);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    search_node(&mut search, &mut state, 0);
    search.finish()
}

/// One call per node. Returns `false` when the search must stop.
fn search_node<O: Observer>(
    search: &mut Backtrack<'_, O>,
    state: &mut Candidates,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(cell) = state.most_constrained() else {
        return search.solution(depth);
    };
    let free = state.candidates[cell];
    search.choose(depth, cell, free.count_ones() as usize);
    if free == 0 {
        search.dead_end(depth);
        return true;
    }
    for (value, bit) in digits_of(free) {
        let mark = state.place(cell, bit);
        search.place(depth, cell, value);
        if !search_node(search, state, depth + 1) {
            return false;
        }
        state.undo(cell, free, bit, mark);
        search.undo(depth, cell, value);
    }
    true
}

/// Every empty cell's candidates and their count, kept up to date as values are placed and
/// undone. A filled cell has no candidates and the count [`FILLED`], so that the choice of cell
/// is a minimum over a byte array, which the compiler vectorises, and the first position of
/// that minimum is the first most constrained cell in row-major order.
#[expect(
    clippy::struct_field_names,
    reason = "the candidates of each cell are what the struct is about"
)]
struct Candidates {
    /// Candidate digits (as bits) of each cell; zero for filled cells.
    candidates: Vec<u64>,
    /// Candidate count of each empty cell; [`FILLED`] for filled cells.
    counts: Vec<u8>,
    /// `peers[cell * peer_count..][..peer_count]`: the cells sharing a house with `cell`.
    peers: Vec<u16>,
    peer_count: usize,
    /// Peers that lost a candidate, to give it back on undo.
    trail: Vec<u16>,
}

/// The count of a filled cell: above any real count (at most 64).
const FILLED: u8 = u8::MAX;

impl Candidates {
    fn new(puzzle: &Grid) -> Candidates {
        let shape = puzzle.shape();
        let cell_count = shape.cell_count();
        let masks = HouseMasks::new(puzzle);
        let peer_lists: Vec<Vec<usize>> = (0..cell_count).map(|cell| shape.peers(cell)).collect();
        let peer_count = peer_lists.first().map_or(0, Vec::len);
        let candidates: Vec<u64> = (0..cell_count)
            .map(|cell| {
                if puzzle.get(cell) == 0 {
                    masks.free(cell)
                } else {
                    0
                }
            })
            .collect();
        let counts = (0..cell_count)
            .map(|cell| {
                if puzzle.get(cell) == 0 {
                    candidates[cell].count_ones() as u8
                } else {
                    FILLED
                }
            })
            .collect();
        Candidates {
            candidates,
            counts,
            peers: peer_lists
                .iter()
                .flatten()
                .map(|&peer| peer as u16)
                .collect(),
            peer_count,
            trail: Vec::with_capacity(cell_count * peer_count),
        }
    }

    /// The empty cell with the fewest candidates, the first in row-major order among equals.
    #[inline]
    fn most_constrained(&self) -> Option<usize> {
        let fewest = self.counts.iter().copied().min().unwrap_or(FILLED);
        if fewest == FILLED {
            return None;
        }
        self.counts.iter().position(|&count| count == fewest)
    }

    /// Fills `cell` with the digit `bit`; returns the trail mark to undo to.
    #[inline]
    fn place(&mut self, cell: usize, bit: u64) -> usize {
        let mark = self.trail.len();
        self.counts[cell] = FILLED;
        self.candidates[cell] = 0;
        let peers = &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count];
        for &peer in peers {
            let peer_idx = peer as usize;
            // Filled peers have no candidates, so they never match.
            if self.candidates[peer_idx] & bit != 0 {
                self.candidates[peer_idx] ^= bit;
                self.counts[peer_idx] -= 1;
                self.trail.push(peer);
            }
        }
        mark
    }

    /// Takes `bit` back out of `cell`, whose candidates were `free`, restoring its peers down
    /// to `mark`.
    #[inline]
    fn undo(&mut self, cell: usize, free: u64, bit: u64, mark: usize) {
        for &peer in &self.trail[mark..] {
            let peer_idx = peer as usize;
            self.candidates[peer_idx] |= bit;
            self.counts[peer_idx] += 1;
        }
        self.trail.truncate(mark);
        self.candidates[cell] = free;
        self.counts[cell] = free.count_ones() as u8;
    }
}
