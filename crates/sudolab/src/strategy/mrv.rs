//! `mrv`: backtracking on the most constrained cell (minimum remaining values).
//!
//! At each node the search branches on the empty cell with the fewest candidates (ties: the
//! first in row-major order), trying its candidates ascending. A cell with no candidate fails
//! the node at once. This is the "bitmask MRV" solver of the benchmark tables: no propagation
//! beyond the choice of cell.
//!
//! The candidate counts are kept incrementally (a placement removes its digit from its peers,
//! an undo gives it back), so that choosing a cell does not re-read three tables and count bits
//! for every empty cell; the tree is the textbook one. On boards of up to 256 cells (16x16)
//! each digit's candidate cells are a bit set and the counts are bit-sliced across five more
//! ([`Bitboards`]): a placement finds the peers that lose its digit with one AND per word and
//! subtracts one from all their counts at once, the undo needs no trail (the lost cells are a
//! local of the node), and no step of a node loops over peers or cells. Larger boards keep each
//! cell's candidates and count in tables, the minimum found over a byte array, and a trail of
//! the peers that lost a candidate ([`Candidates`]).

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

    fn refusals(&self) -> super::Refusals {
        super::Refusals::NONE
    }

    /// Random tie-breaking among the most constrained cells, random value order, restarts.
    fn randomizes(&self) -> bool {
        true
    }

    fn budget_unit(&self) -> super::WorkUnit {
        super::WorkUnit::Nodes
    }

    fn default_budget(&self) -> Option<u64> {
        Some(20_000_000)
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
    // Bit sets of one to four words for boards of up to 256 cells (9x9 takes two); larger
    // boards index tables of 4,096 entries with twelve bits, so that no index needs a bounds
    // check.
    match puzzle.shape().cell_count().div_ceil(64) {
        1 => search_node(&mut search, &mut Bitboards::<1>::new(puzzle), 0),
        2 => search_node(&mut search, &mut Bitboards::<2>::new(puzzle), 0),
        3 => search_node(&mut search, &mut Bitboards::<3>::new(puzzle), 0),
        4 => search_node(&mut search, &mut Bitboards::<4>::new(puzzle), 0),
        _ => search_node(&mut search, &mut Candidates::<4096>::new(puzzle), 0),
    };
    search.finish()
}

/// What the search needs from the board: the cell to branch on, its candidates, and placing
/// and undoing a digit.
trait CellChoice {
    /// What a placement must hand back to its undo.
    type Mark;
    /// The empty cell with the fewest candidates, the first in row-major order among equals.
    fn most_constrained(&self) -> Option<usize>;
    /// The candidates (as bits) of an empty cell.
    fn candidates(&self, cell: usize) -> u64;
    /// Fills `cell` with the digit `bit`.
    fn place(&mut self, cell: usize, bit: u64) -> Self::Mark;
    /// Takes `bit` back out of `cell`, whose candidates were `free`.
    fn undo(&mut self, cell: usize, free: u64, bit: u64, mark: Self::Mark);
}

/// One call per node. Returns `false` when the search must stop.
fn search_node<O: Observer, S: CellChoice>(
    search: &mut Backtrack<'_, O>,
    state: &mut S,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(cell) = state.most_constrained() else {
        return search.solution(depth);
    };
    let free = state.candidates(cell);
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
}

impl<const N: usize> CellChoice for Candidates<N> {
    /// The trail's top before the placement.
    type Mark = usize;

    #[inline]
    fn most_constrained(&self) -> Option<usize> {
        first_minimum(&self.counts[..self.scanned])
    }

    #[inline]
    fn candidates(&self, cell: usize) -> u64 {
        self.candidates[cell % N]
    }

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

    /// Restores the peers on the trail down to `mark`.
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

/// The first position of the smallest count in `counts` (whose length is a multiple of 16), or
/// `None` when every count is [`FILLED`].
#[inline]
fn first_minimum(counts: &[u8]) -> Option<usize> {
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

/// The board of up to `64 * W` cells (at most 16 digits) as bit sets: for each digit, the empty
/// cells that still have it as a candidate, and each cell's candidate count written in binary
/// across five bit sets (bit-sliced: bit `k` of every cell's count in `count_bits[k]`).
///
/// A placement of digit `d` in `cell` computes the empty peers that lose `d` as
/// `digit_cells[d] & peers(cell) & empty`, one AND per word, clears them, and subtracts one
/// from the counts of exactly those cells with a borrow running through the five sets (a few
/// operations per word, however many peers lost the digit); the undo ORs the same set back and
/// adds one to the same counts. The set is returned to the node, which holds it until its
/// undo, so there is no trail. A filled cell's bits are left as they were when it was filled
/// (every later change to them is masked out by `empty`), and the undos come in reverse order,
/// so they are right again when it is emptied.
///
/// The most constrained cells are found from the highest count bit down: keep the cells whose
/// bit is 0 whenever some are left, and what remains are the empty cells with the smallest
/// count; the lowest bit of that set is the first of them in row-major order. The candidates
/// of that cell come from the house tables.
struct Bitboards<const W: usize> {
    /// Each cell's peers as a bit set, `W` words per cell ([`Layout::peer_bits`]).
    peer_bits: &'static [u64],
    /// `digit_cells[d]`: the empty cells where digit `d + 1` is a candidate.
    digit_cells: [[u64; W]; MAX_SMALL_SIDE],
    /// `count_bits[k]`: the cells whose candidate count has bit `k` set (counts up to 16).
    count_bits: [[u64; W]; COUNT_BITS],
    /// The empty cells.
    empty: [u64; W],
    masks: HouseMasks,
}

/// The largest board [`Bitboards`] takes: 16x16.
const MAX_SMALL_CELLS: usize = 256;
const MAX_SMALL_SIDE: usize = 16;
/// Bits of a candidate count of at most 16.
const COUNT_BITS: usize = 5;

impl<const W: usize> Bitboards<W> {
    fn new(puzzle: &Grid) -> Bitboards<W> {
        let layout = Layout::of(puzzle.shape());
        assert!(layout.cells <= 64 * W && 64 * W <= MAX_SMALL_CELLS);
        let masks = HouseMasks::new(puzzle);
        let mut board = Bitboards {
            peer_bits: layout.peer_bits::<W>(),
            digit_cells: [[0; W]; MAX_SMALL_SIDE],
            count_bits: [[0; W]; COUNT_BITS],
            empty: [0; W],
            masks,
        };
        for cell in 0..layout.cells {
            if puzzle.get(cell) == 0 {
                let (word, cell_bit) = (cell / 64, 1 << (cell % 64));
                board.empty[word] |= cell_bit;
                for (_, bit) in digits_of(board.masks.free(cell)) {
                    board.digit_cells[bit.trailing_zeros() as usize][word] |= cell_bit;
                }
            }
        }
        // Each count is the number of digit sets its cell is in: add the sets up, bit-sliced.
        for digit_cells in &board.digit_cells[..layout.side.min(MAX_SMALL_SIDE)] {
            for word in 0..W {
                let mut carry = digit_cells[word];
                for bits in &mut board.count_bits {
                    let before = bits[word];
                    bits[word] = before ^ carry;
                    carry &= before;
                }
            }
        }
        board
    }
}

impl<const W: usize> CellChoice for Bitboards<W> {
    /// The empty peers that lost the digit.
    type Mark = [u64; W];

    #[inline]
    fn most_constrained(&self) -> Option<usize> {
        let mut fewest = self.empty;
        for bits in self.count_bits.iter().rev() {
            let mut without = [0; W];
            let mut any = 0;
            for word in 0..W {
                without[word] = fewest[word] & !bits[word];
                any |= without[word];
            }
            if any != 0 {
                fewest = without;
            }
        }
        let word_idx = fewest.iter().position(|&word| word != 0)?;
        Some(word_idx * 64 + fewest[word_idx].trailing_zeros() as usize)
    }

    #[inline]
    fn candidates(&self, cell: usize) -> u64 {
        self.masks.free(cell)
    }

    #[inline]
    fn place(&mut self, cell: usize, bit: u64) -> [u64; W] {
        let digit_cells = &mut self.digit_cells[bit.trailing_zeros() as usize % MAX_SMALL_SIDE];
        let peers: &[u64; W] = self.peer_bits[cell * W..(cell + 1) * W]
            .try_into()
            .expect("W words per cell");
        let mut lost = [0; W];
        for word in 0..W {
            lost[word] = digit_cells[word] & peers[word] & self.empty[word];
            digit_cells[word] ^= lost[word];
            // Minus one on the lost cells' counts: a bit flips where the borrow reaches it,
            // and the borrow goes on past the bits that were 0.
            let mut borrow = lost[word];
            for bits in &mut self.count_bits {
                let before = bits[word];
                bits[word] = before ^ borrow;
                borrow &= !before;
            }
        }
        self.empty[(cell / 64) % W] ^= 1 << (cell % 64);
        self.masks.toggle(cell, bit);
        lost
    }

    #[inline]
    fn undo(&mut self, cell: usize, _free: u64, bit: u64, lost: [u64; W]) {
        let digit_cells = &mut self.digit_cells[bit.trailing_zeros() as usize % MAX_SMALL_SIDE];
        for word in 0..W {
            digit_cells[word] |= lost[word];
            // Plus one: the carry goes on past the bits that were 1.
            let mut carry = lost[word];
            for bits in &mut self.count_bits {
                let before = bits[word];
                bits[word] = before ^ carry;
                carry &= before;
            }
        }
        self.empty[(cell / 64) % W] |= 1 << (cell % 64);
        self.masks.toggle(cell, bit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;
    use crate::strategy::Event;

    /// Every event and the counters of one search on `puzzle` under the state `S`.
    fn events_of<S: CellChoice>(
        puzzle: &Grid,
        mut state: S,
    ) -> (Vec<(usize, u64, Event)>, Outcome) {
        // Hard boards stop at the node budget, at the same node under both states.
        let limits = Limits::default()
            .with_max_solutions(2)
            .with_max_nodes(50_000);
        let mut events = Vec::new();
        let mut on_solution = |_: &Grid| {};
        let mut search =
            Backtrack::new(puzzle, &limits, &mut on_solution, |depth, nodes, event| {
                events.push((depth, nodes, event));
            });
        search_node(&mut search, &mut state, 0);
        let outcome = search.finish();
        (events, outcome)
    }

    #[test]
    fn the_bit_sets_walk_the_candidate_tables_tree() {
        let puzzles = [
            // Board A and board B (corpora/reference.txt), a 17-clue puzzle, one of serg's
            // with several solutions, a 4x4 and a 6x6 puzzle, then empty 12x12 and 16x16
            // boards.
            "030260701680070090190004500820100040004602900050003028009300074040050036703018000",
            "040060020000080000960040087390807041000090000800306002700000009005000300600105004",
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
            "4..3.....1....2.",
            "1.....4...3..2...5.6....2...1.3.....",
        ];
        let mut grids: Vec<Grid> = puzzles
            .iter()
            .map(|text| text.parse().expect("a puzzle"))
            .collect();
        grids.push(Grid::empty(Shape::new(3, 4).expect("3x4 boxes")));
        grids.push(Grid::empty(Shape::new(4, 4).expect("4x4 boxes")));
        for puzzle in &grids {
            let tables = events_of(puzzle, Candidates::<4096>::new(puzzle));
            let bits = match puzzle.shape().cell_count().div_ceil(64) {
                1 => events_of(puzzle, Bitboards::<1>::new(puzzle)),
                2 => events_of(puzzle, Bitboards::<2>::new(puzzle)),
                3 => events_of(puzzle, Bitboards::<3>::new(puzzle)),
                _ => events_of(puzzle, Bitboards::<4>::new(puzzle)),
            };
            assert_eq!(bits.0, tables.0, "events on {puzzle:?}");
            assert_eq!(bits.1.stats, tables.1.stats, "counters on {puzzle:?}");
            assert_eq!(bits.1.found, tables.1.found);
        }
    }
}
