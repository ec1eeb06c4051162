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
use crate::model::layout::Layout;

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

    /// Every rule: houses, must-differ and non-consecutive pairs, cages with their sums.
    fn supports_rules(&self, _rules: &crate::model::Rules) -> Result<(), &'static str> {
        Ok(())
    }

    /// Random tie-breaking among the most constrained cells, random value order, restarts.
    fn randomizes(&self) -> bool {
        true
    }

    traced_engine!(run, CLASSIC_COUNTERS);
}

fn run<O: Observer>(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    if let Some(seed) = limits.randomize {
        return super::variant::mrv_randomized(puzzle, limits, seed, on_solution, observer);
    }
    if let Some(rules) = puzzle.rules() {
        return super::variant::mrv(puzzle, rules, limits, on_solution, observer);
    }
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    // Boards of up to 256 cells (16x16) index tables of 256 entries with a byte, larger ones
    // tables of 4,096 with twelve bits, so that no index needs a bounds check.
    if puzzle.shape().cell_count() <= 256 {
        search_node(&mut search, &mut Candidates::<256>::new(puzzle), 0);
    } else {
        search_node(&mut search, &mut Candidates::<4096>::new(puzzle), 0);
    }
    search.finish()
}

/// One call per node. Returns `false` when the search must stop.
fn search_node<O: Observer, const N: usize>(
    search: &mut Backtrack<'_, O>,
    state: &mut Candidates<N>,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(cell) = state.most_constrained() else {
        return search.solution(depth);
    };
    let free = state.candidates[cell % N];
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
///
/// Placing and undoing are branch-free: a peer's candidate bit is cleared whether or not it was
/// there, and the peer is written on the trail every time but kept (the trail's top moves) only
/// when it lost the bit. A branch per peer, taken about half the time at random, cost more than
/// the rest of a node.
#[expect(
    clippy::struct_field_names,
    reason = "the candidates of each cell are what the struct is about"
)]
struct Candidates<const N: usize> {
    layout: &'static Layout,
    /// Candidate digits (as bits) of each cell; zero for filled cells and past the last cell.
    candidates: Box<[u64; N]>,
    /// Candidate count of each empty cell; [`FILLED`] for filled cells and past the last cell.
    counts: Box<[u8; N]>,
    /// The cells, rounded up to a multiple of 16: the part of `counts` the search for the
    /// minimum reads, in whole vectors.
    scanned: usize,
    /// Peers that lost a candidate, to give it back on undo: `trail[..top]`. Each entry is one
    /// candidate removed, and a search never removes more candidates than the root has (at
    /// most `N * 64`, or `N * 16` on boards of 16 digits or fewer), plus one slot for the write
    /// that is not kept.
    trail: Vec<u16>,
    /// `trail.len() - 1`, a power of two minus one: masking the top with it proves the index in
    /// bounds without a check.
    trail_mask: usize,
    top: usize,
}

/// The count of a filled cell: above any real count (at most 64).
const FILLED: u8 = u8::MAX;

impl<const N: usize> Candidates<N> {
    fn new(puzzle: &Grid) -> Candidates<N> {
        let layout = Layout::of(puzzle.shape());
        assert!(layout.cells <= N && N.is_power_of_two());
        let masks = HouseMasks::new(puzzle);
        let mut candidates = Box::new([0u64; N]);
        let mut counts = Box::new([FILLED; N]);
        let mut removable = 0;
        for cell in 0..layout.cells {
            if puzzle.get(cell) == 0 {
                let free = masks.free(cell);
                candidates[cell] = free;
                counts[cell] = free.count_ones() as u8;
                removable += free.count_ones() as usize;
            }
        }
        let trail_len = (removable + 1).next_power_of_two();
        Candidates {
            layout,
            candidates,
            counts,
            scanned: layout.cells.next_multiple_of(16).min(N),
            trail: vec![0; trail_len],
            trail_mask: trail_len - 1,
            top: 0,
        }
    }

    /// The empty cell with the fewest candidates, the first in row-major order among equals.
    #[inline]
    fn most_constrained(&self) -> Option<usize> {
        let counts = &self.counts[..self.scanned];
        // Sixteen lanes at a time, which the compiler turns into vector minimums.
        let lanes = counts
            .chunks_exact(16)
            .fold([FILLED; 16], |mut lanes, chunk| {
                for (lane, &count) in lanes.iter_mut().zip(chunk) {
                    *lane = (*lane).min(count);
                }
                lanes
            });
        let fewest = lanes.into_iter().min().unwrap_or(FILLED);
        if fewest == FILLED {
            return None;
        }
        // The first byte equal to `fewest`, eight at a time: a byte of `word ^ spread` is zero
        // exactly where the count equals `fewest`, and the lowest zero byte of a word is the
        // lowest set high bit of `(x - 0x01..) & !x & 0x80..` (borrows only run upwards).
        let spread = u64::from(fewest) * 0x0101_0101_0101_0101;
        for (chunk_idx, chunk) in counts.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().expect("chunks of 8")) ^ spread;
            let zeros = word.wrapping_sub(0x0101_0101_0101_0101) & !word & 0x8080_8080_8080_8080;
            if zeros != 0 {
                return Some(chunk_idx * 8 + (zeros.trailing_zeros() / 8) as usize);
            }
        }
        unreachable!("the minimum is in the array")
    }

    /// Fills `cell` with the digit `bit`; returns the trail mark to undo to.
    #[inline]
    fn place(&mut self, cell: usize, bit: u64) -> usize {
        let mark = self.top;
        let mut top = mark;
        self.counts[cell % N] = FILLED;
        self.candidates[cell % N] = 0;
        for &peer in self.layout.peers(cell) {
            let peer_idx = peer as usize % N;
            // Filled peers have no candidates, so they never lose one.
            let candidates = self.candidates[peer_idx];
            let lost = u8::from(candidates & bit != 0);
            self.candidates[peer_idx] = candidates & !bit;
            self.counts[peer_idx] -= lost;
            self.trail[top & self.trail_mask] = peer;
            top += lost as usize;
        }
        self.top = top;
        mark
    }

    /// Takes `bit` back out of `cell`, whose candidates were `free`, restoring its peers down
    /// to `mark`.
    #[inline]
    fn undo(&mut self, cell: usize, free: u64, bit: u64, mark: usize) {
        for &peer in &self.trail[mark..self.top] {
            let peer_idx = peer as usize % N;
            self.candidates[peer_idx] |= bit;
            self.counts[peer_idx] += 1;
        }
        self.top = mark;
        self.candidates[cell % N] = free;
        self.counts[cell % N] = free.count_ones() as u8;
    }
}
