//! `fast` on large boards (sides of [`MIN_SIDE`] and up, variants included): propagation
//! strong enough that guessing is rare, and guesses where they split the least.
//!
//! Every cell keeps its candidate digits as one word (up to 64 digits); a cell with one
//! candidate has been placed and removed from its peers. Rules, each applied to the fixpoint
//! before the next, dearer one is tried (each is sound for houses of `side` cells that hold
//! every digit once, the only houses a layout has):
//! - naked singles, as a placement removes the digit from the peers;
//! - hidden singles: a digit with one place in a house goes there;
//! - locked candidates: when two houses share two or more cells and a digit of one of them
//!   can only be in the shared cells, the other house's remaining cells lose it (pointing and
//!   claiming, for any pair of houses: boxes and lines, jigsaw regions, diagonals);
//! - naked and hidden pairs: two cells of a house with the same two candidates take them from
//!   the house's other cells; two digits with the same two places in a house leave those cells
//!   nothing else.
//!
//! When propagation stalls the search branches on an unplaced cell (one branch per candidate)
//! or on a digit of a house (one branch per place), whichever has the fewest branches per unit
//! of weight, a house's weight growing with every contradiction met in it (dom/wdeg): the
//! search keeps to the houses where the puzzle is hard. Either split is exhaustive and its
//! branches exclusive, so counting stays exact.
//!
//! From side [`HANDOVER_SIDE`] a search for at most [`HANDOVER_SOLUTIONS`] solutions (one, or
//! two to prove it unique) still undecided after [`HANDOVER_NODES`] nodes is
//! finished by the learning search of [`super::learn`], from this root and with the solutions
//! already reported forbidden: an easy puzzle never pays for the learner's set-up, and a hard
//! one does not have to refute a wrong early split without learning.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::model::layout::Layout;
use crate::model::{DigitSet, Grid, Shape};

use super::{Limits, Outcome, Tally};

/// The smallest side that takes this path: below it the general path's singles decide at
/// once, and the 9x9 band board is faster still.
pub(super) const MIN_SIDE: usize = 10;

/// How many nodes pass between two looks at the clock: a node here can cost tens of
/// microseconds (a 64x64 board is 4,096 cells), so the shared interval of 1,024 nodes could
/// overshoot a deadline by a large fraction of a second.
const CLOCK_NODES: u64 = 16;

/// Two houses that share two or more cells.
struct Meet {
    shared: Vec<u16>,
    /// The first house's other cells.
    first_rest: Vec<u16>,
    /// The second house's other cells.
    second_rest: Vec<u16>,
}

/// What the rules need beyond the layout: the pairs of houses that meet in several cells.
pub(super) struct Geometry {
    meets: Vec<Meet>,
}

impl Geometry {
    /// The geometry of a plain shape, built once per shape and process (at most 64 shapes).
    pub(super) fn of(shape: Shape, layout: &Layout) -> &'static Geometry {
        static SHAPES: OnceLock<Mutex<HashMap<Shape, &'static Geometry>>> = OnceLock::new();
        let mut shapes = SHAPES
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        shapes
            .entry(shape)
            .or_insert_with(|| Box::leak(Box::new(Geometry::new(layout))))
    }

    pub(super) fn new(layout: &Layout) -> Geometry {
        let side = layout.side;
        let mut shared: HashMap<(u16, u16), Vec<u16>> = HashMap::new();
        for cell in 0..layout.cells {
            let houses = layout.houses_of_cell(cell);
            for (i, &first) in houses.iter().enumerate() {
                for &second in &houses[i + 1..] {
                    shared.entry((first, second)).or_default().push(cell as u16);
                }
            }
        }
        let mut pairs: Vec<((u16, u16), Vec<u16>)> = shared
            .into_iter()
            .filter(|(_, cells)| cells.len() >= 2)
            .collect();
        pairs.sort_unstable();
        let house = |index: u16| &layout.houses[index as usize * side..][..side];
        let meets = pairs
            .into_iter()
            .map(|((first, second), shared)| {
                let rest = |index: u16| -> Vec<u16> {
                    house(index)
                        .iter()
                        .copied()
                        .filter(|cell| !shared.contains(cell))
                        .collect()
                };
                Meet {
                    first_rest: rest(first),
                    second_rest: rest(second),
                    shared,
                }
            })
            .collect();
        Geometry { meets }
    }
}

/// Searches `puzzle` on the large-board path.
pub(super) fn search(
    puzzle: &Grid,
    layout: &Layout,
    geometry: &Geometry,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
) -> Outcome {
    // Enumerating many solutions stays with the plain search: the learner blocks each solution
    // with a clause of its own, and those clauses slow every later propagation.
    let few_wanted = limits
        .max_solutions
        .is_some_and(|wanted| wanted <= HANDOVER_SOLUTIONS);
    let handover = (layout.side >= HANDOVER_SIDE && few_wanted).then_some(HANDOVER_NODES);
    search_handing_over(puzzle, layout, geometry, limits, on_solution, handover)
}

/// [`search`], handing over to learning after `handover` nodes if given.
fn search_handing_over(
    puzzle: &Grid,
    layout: &Layout,
    geometry: &Geometry,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    handover: Option<u64>,
) -> Outcome {
    let mut solver = Solver {
        layout,
        geometry,
        puzzle,
        queue: Vec::with_capacity(layout.cells),
        places: vec![0; layout.side],
        weights: vec![1; layout.house_count()],
        handover: handover.map(|at| Handover {
            at,
            found: Vec::new(),
        }),
        tally: Tally::new(limits, on_solution),
    };
    let mut root = vec![DigitSet::full(layout.side).bits(); layout.cells];
    let consistent = puzzle
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &digit)| digit != 0)
        .all(|(cell, &digit)| solver.assign(&mut root, cell, 1u64 << (digit - 1)));
    if consistent {
        let mut boards = vec![root];
        solver.search_from(&mut boards, 0);
        // The search went past the handover's node only by handing over.
        let nodes = solver.tally.nodes;
        if let Some(handover) = solver
            .handover
            .take()
            .filter(|handover| nodes > handover.at)
        {
            // `boards[0]` is the root as the plain search left it: closed under the rules.
            super::learn::search(
                layout,
                puzzle,
                &boards[0],
                &handover.found,
                &mut solver.tally,
            );
        }
    }
    solver.tally.outcome()
}

/// One bit set in a nonzero word. Tested without a popcount: the default x86-64 target has
/// none, and `count_ones` (which `is_power_of_two` calls) is then a dozen instructions, in the
/// loops that every propagation round runs over every cell.
#[inline]
pub(super) fn single(word: u64) -> bool {
    word & word.wrapping_sub(1) == 0
}

/// Exactly two bits set, tested without a popcount (see [`single`]).
#[inline]
fn two(word: u64) -> bool {
    let rest = word & word.wrapping_sub(1);
    rest != 0 && single(rest)
}

/// A branch point: a cell and its candidates, or a digit and its places in a house.
#[derive(Clone, Copy)]
enum Split {
    Cell(usize),
    Digit { house: usize, bit: u64 },
}

pub(super) struct Solver<'a> {
    layout: &'a Layout,
    geometry: &'a Geometry,
    puzzle: &'a Grid,
    /// Cells reduced to one candidate, waiting to be removed from their peers.
    queue: Vec<u16>,
    /// Scratch for one house: the places of each digit, bit `i` for the house's `i`-th cell.
    places: Vec<u64>,
    /// Each house's weight: one plus the contradictions met in it so far (a cell left without
    /// candidates counts for each of its houses), Boussemart et al.'s dom/wdeg (ECAI 2004).
    weights: Vec<u64>,
    /// The node past which the search hands over to learning ([`Handover`]).
    handover: Option<Handover>,
    tally: Tally<'a>,
}

/// How a search of side [`HANDOVER_SIDE`] and up passes to the learning search: the node
/// after the `at`-th is counted but not searched, and the learner starts again from the root,
/// with the solutions found so far forbidden so that none is counted twice.
struct Handover {
    at: u64,
    /// The solutions reported so far, as boards.
    found: Vec<Vec<u64>>,
}

/// The smallest side whose plain search hands over to learning after [`HANDOVER_NODES`]
/// nodes: below it the plain search decides every set measured in few nodes.
const HANDOVER_SIDE: usize = 16;

/// Plain nodes before the handover: an easy puzzle is decided within them (and never pays
/// for the learner's set-up); a hard one leaves the plain search before its first wrong
/// split becomes a subtree too large to refute without learning.
const HANDOVER_NODES: u64 = 16;

/// The most solutions a search may ask for and still hand over to learning.
const HANDOVER_SOLUTIONS: u64 = 16;

impl Solver<'_> {
    /// Places `bit` in `cell` and everything that follows by naked singles; `false` on a
    /// contradiction.
    fn assign(&mut self, board: &mut [u64], cell: usize, bit: u64) -> bool {
        self.queue.clear();
        self.place_one(board, cell, bit) && self.drain(board)
    }

    /// Places the cells waiting in the queue; `false` on a contradiction.
    fn drain(&mut self, board: &mut [u64]) -> bool {
        while let Some(next) = self.queue.pop() {
            let next = next as usize;
            if !self.place_one(board, next, board[next]) {
                self.queue.clear();
                return false;
            }
        }
        true
    }

    /// Removes `bit` from the peers of `cell` (whose candidates become `bit`), queueing peers
    /// left with a single candidate.
    #[inline]
    fn place_one(&mut self, board: &mut [u64], cell: usize, bit: u64) -> bool {
        if board[cell] & bit == 0 {
            return false;
        }
        board[cell] = bit;
        for &peer in self.layout.peers(cell) {
            let peer = peer as usize;
            let candidates = board[peer];
            if candidates & bit != 0 {
                let left = candidates & !bit;
                if left == 0 {
                    self.blame_cell(peer);
                    return false;
                }
                board[peer] = left;
                if single(left) {
                    self.queue.push(peer as u16);
                }
            }
        }
        true
    }

    /// Weighs the houses of a cell left without candidates.
    fn blame_cell(&mut self, cell: usize) {
        for &house in self.layout.houses_of_cell(cell) {
            self.weights[house as usize] += 1;
        }
    }

    /// Takes `digits` out of `cell`'s candidates, placing it if one is left; `false` on a
    /// contradiction. Returns `Some(changed)`.
    #[inline]
    fn remove(&mut self, board: &mut [u64], cell: usize, digits: u64) -> Option<bool> {
        let candidates = board[cell];
        if candidates & digits == 0 {
            return Some(false);
        }
        let left = candidates & !digits;
        if left == 0 {
            self.blame_cell(cell);
            return None;
        }
        board[cell] = left;
        if single(left) {
            self.queue.clear();
            if !self.place_one(board, cell, left) || !self.drain(board) {
                return None;
            }
        }
        Some(true)
    }

    /// Applies the rules until none changes the board; `false` on a contradiction.
    pub(super) fn propagate(&mut self, board: &mut [u64]) -> bool {
        loop {
            self.tally.rounds += 1;
            let Some(changed) = self.hidden_singles(board) else {
                return false;
            };
            if changed {
                continue;
            }
            let Some(changed) = self.locked_candidates(board) else {
                return false;
            };
            if changed {
                continue;
            }
            let Some(changed) = self.pairs(board) else {
                return false;
            };
            if !changed {
                return true;
            }
        }
    }

    /// One pass of hidden singles over every house; `Some(changed)`, `None` on a
    /// contradiction (a digit with no place in a house).
    fn hidden_singles(&mut self, board: &mut [u64]) -> Option<bool> {
        let layout = self.layout;
        let side = layout.side;
        let full = DigitSet::full(side).bits();
        let mut changed = false;
        for (index, house) in layout.houses.chunks_exact(side).enumerate() {
            let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
            for &cell in house {
                let candidates = board[cell as usize];
                if single(candidates) {
                    placed |= candidates;
                } else {
                    twice |= once & candidates;
                    once |= candidates;
                }
            }
            if (once | placed) != full {
                self.weights[index] += 1;
                return None;
            }
            let mut singles = once & !twice & !placed;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                let cell = house
                    .iter()
                    .find(|&&cell| board[cell as usize] & bit != 0)?;
                if board[*cell as usize] == bit {
                    continue;
                }
                if !self.assign(board, *cell as usize, bit) {
                    return None;
                }
                changed = true;
            }
        }
        Some(changed)
    }

    /// One pass of locked candidates over every pair of houses that meet in several cells.
    fn locked_candidates(&mut self, board: &mut [u64]) -> Option<bool> {
        let geometry = self.geometry;
        let mut changed = false;
        let union = |board: &[u64], cells: &[u16]| {
            cells
                .iter()
                .fold(0u64, |acc, &cell| acc | board[cell as usize])
        };
        for meet in &geometry.meets {
            let inside = union(board, &meet.shared);
            let first = union(board, &meet.first_rest);
            let second = union(board, &meet.second_rest);
            // A digit of the first house that is only in the shared cells is there in the
            // second house too, and the other way round.
            for (confined, rest) in [
                (inside & !first & second, &meet.second_rest),
                (inside & !second & first, &meet.first_rest),
            ] {
                if confined == 0 {
                    continue;
                }
                for &cell in rest {
                    changed |= self.remove(board, cell as usize, confined)?;
                }
            }
        }
        Some(changed)
    }

    /// Fills `places` with each digit's places among `house`'s unplaced cells (bit `i` for the
    /// house's `i`-th cell).
    fn collect_places(&mut self, board: &[u64], house: &[u16]) {
        self.places.fill(0);
        for (i, &cell) in house.iter().enumerate() {
            let mut candidates = board[cell as usize];
            if single(candidates) {
                continue;
            }
            while candidates != 0 {
                let digit = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                self.places[digit] |= 1u64 << i;
            }
        }
    }

    /// One pass of naked and hidden pairs over every house.
    fn pairs(&mut self, board: &mut [u64]) -> Option<bool> {
        let layout = self.layout;
        let side = layout.side;
        let mut changed = false;
        for house in layout.houses.chunks_exact(side) {
            // Naked pairs: two unplaced cells with the same two candidates.
            for (i, &a) in house.iter().enumerate() {
                let pair = board[a as usize];
                if !two(pair) {
                    continue;
                }
                let Some(j) = house[i + 1..]
                    .iter()
                    .position(|&b| board[b as usize] == pair)
                else {
                    continue;
                };
                let b = house[i + 1 + j];
                for &cell in house {
                    if cell != a && cell != b {
                        changed |= self.remove(board, cell as usize, pair)?;
                    }
                }
            }
            // Hidden pairs: two digits whose places in the house are the same two cells.
            self.collect_places(board, house);
            for first in 0..side {
                let spots = self.places[first];
                if !two(spots) {
                    continue;
                }
                let Some(offset) = self.places[first + 1..]
                    .iter()
                    .position(|&other| other == spots)
                else {
                    continue;
                };
                let keep = (1u64 << first) | (1u64 << (first + 1 + offset));
                let mut spots = spots;
                while spots != 0 {
                    let cell = house[spots.trailing_zeros() as usize] as usize;
                    spots &= spots - 1;
                    changed |= self.remove(board, cell, !keep)?;
                }
            }
        }
        Some(changed)
    }

    /// Propagates `boards[depth]`, then reports it or branches. `false` when the search must
    /// stop.
    fn search_from(&mut self, boards: &mut Vec<Vec<u64>>, depth: usize) -> bool {
        if !self.tally.enter_node() {
            return false;
        }
        if self
            .handover
            .as_ref()
            .is_some_and(|handover| self.tally.nodes > handover.at)
        {
            return false;
        }
        if self.tally.nodes % CLOCK_NODES == 0
            && self.tally.budget.has_clock()
            && let Err(stop) = self.tally.budget.check_clock()
        {
            self.tally.stopped = Some(stop);
            return false;
        }
        let mut board = std::mem::take(&mut boards[depth]);
        let keep_going = self.search_board(boards, &mut board, depth);
        boards[depth] = board;
        keep_going
    }

    fn search_board(
        &mut self,
        boards: &mut Vec<Vec<u64>>,
        board: &mut [u64],
        depth: usize,
    ) -> bool {
        if !self.propagate(board) {
            return true;
        }
        let Some(split) = self.choose(board) else {
            return self.report(board);
        };
        if boards.len() <= depth + 1 {
            boards.push(vec![0; board.len()]);
        }
        let side = self.layout.side;
        let (cell, mut remaining) = match split {
            Split::Cell(cell) => (cell, board[cell]),
            Split::Digit { house, bit } => {
                let cells = &self.layout.houses[house * side..][..side];
                let spots = cells
                    .iter()
                    .enumerate()
                    .filter(|&(_, &cell)| board[cell as usize] & bit != 0)
                    .fold(0u64, |acc, (i, _)| acc | 1u64 << i);
                (usize::MAX, spots)
            }
        };
        while remaining != 0 {
            let low = remaining & remaining.wrapping_neg();
            remaining ^= low;
            let (at, bit) = match split {
                Split::Cell(_) => (cell, low),
                Split::Digit { house, bit } => (
                    self.layout.houses[house * side + low.trailing_zeros() as usize] as usize,
                    bit,
                ),
            };
            self.tally.guesses += 1;
            let mut child = std::mem::take(&mut boards[depth + 1]);
            child.copy_from_slice(board);
            let consistent = self.assign(&mut child, at, bit);
            boards[depth + 1] = child;
            if consistent && !self.search_from(boards, depth + 1) {
                return false;
            }
        }
        true
    }

    /// The split with the fewest branches per unit of weight, `None` when every cell is
    /// placed: a cell's candidates over the summed weights of its houses, or a digit's places
    /// in a house over that house's weight. The first found wins ties (cells in row-major
    /// order, then houses in layout order, digits ascending).
    fn choose(&mut self, board: &[u64]) -> Option<Split> {
        let layout = self.layout;
        let mut best = None;
        // The best ratio so far as a fraction `count / weight`.
        let (mut best_count, mut best_weight) = (u64::MAX, 1u64);
        for (cell, &candidates) in board.iter().enumerate() {
            if single(candidates) {
                continue;
            }
            let count = u64::from(candidates.count_ones());
            let weight: u64 = layout
                .houses_of_cell(cell)
                .iter()
                .map(|&house| self.weights[house as usize])
                .sum();
            if u128::from(count) * u128::from(best_weight)
                < u128::from(best_count) * u128::from(weight)
            {
                best = Some(Split::Cell(cell));
                (best_count, best_weight) = (count, weight);
            }
        }
        best?;
        let side = layout.side;
        let houses_per_cell = (layout.houses.len() / layout.cells).max(1) as u64;
        for (index, house) in layout.houses.chunks_exact(side).enumerate() {
            self.collect_places(board, house);
            // Scaled by the houses a cell has on average, so that a digit and a cell of
            // equally weighted houses compare by their counts alone.
            let weight = self.weights[index] * houses_per_cell;
            for (digit, &spots) in self.places.iter().enumerate() {
                if single(spots) {
                    continue;
                }
                let count = u64::from(spots.count_ones());
                if u128::from(count) * u128::from(best_weight)
                    < u128::from(best_count) * u128::from(weight)
                {
                    best = Some(Split::Digit {
                        house: index,
                        bit: 1u64 << digit,
                    });
                    (best_count, best_weight) = (count, weight);
                }
            }
        }
        best
    }

    /// A board where every cell has one candidate: a solution (every placement was removed
    /// from its peers, so no house repeats a digit).
    fn report(&mut self, board: &[u64]) -> bool {
        if let Some(handover) = &mut self.handover {
            handover.found.push(board.to_vec());
        }
        self.tally.report(&super::solved_grid(self.puzzle, board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Format, Reader};
    use crate::strategy::Stop;

    const ALL: u64 = 0x1ff;
    const ONE: u64 = 1;
    const TWO: u64 = 2;

    /// Runs `rule` once on a 9x9 board of candidates (the rules know nothing of 9x9: any
    /// layout of full houses will do, and 9x9 positions are the easiest to write by hand).
    fn apply(board: &mut [u64], rule: Rule) -> Option<bool> {
        let layout = Layout::of(Shape::CLASSIC);
        let geometry = Geometry::new(layout);
        let puzzle = Grid::empty(Shape::CLASSIC);
        let limits = Limits::unlimited();
        let mut on_solution = |_: &Grid| {};
        let mut solver = Solver {
            layout,
            geometry: &geometry,
            puzzle: &puzzle,
            queue: Vec::new(),
            places: vec![0; 9],
            weights: vec![1; 27],
            handover: None,
            tally: Tally::new(&limits, &mut on_solution),
        };
        match rule {
            Rule::HiddenSingles => solver.hidden_singles(board),
            Rule::LockedCandidates => solver.locked_candidates(board),
            Rule::Pairs => solver.pairs(board),
        }
    }

    #[derive(Clone, Copy)]
    enum Rule {
        HiddenSingles,
        LockedCandidates,
        Pairs,
    }

    fn box_cells(index: usize) -> Vec<usize> {
        let (top, left) = (index / 3 * 3, index % 3 * 3);
        (0..9).map(|i| (top + i / 3) * 9 + left + i % 3).collect()
    }

    /// Handing over to learning after any number of nodes loses no solution and counts none
    /// twice: minimal 16x16 puzzles with one given taken out, then cells of the bundled
    /// solution given until 2 to 12 solutions are left, counted in full with the handover
    /// after 1, 3, 16 and 40 nodes and without it.
    #[test]
    fn the_handover_keeps_the_count() {
        let text = include_str!("../../../../../corpora/minimal-16x16.txt");
        let layout = Layout::of(Shape::new(4, 4).unwrap());
        let geometry = Geometry::new(layout);
        // One more than the most solutions a test puzzle has: every search counts them all.
        let limits = Limits::solutions(13);
        let all = |puzzle: &Grid, handover| {
            let mut found = Vec::new();
            let mut on_solution = |grid: &Grid| found.push(grid.cells().to_vec());
            let outcome = search_handing_over(
                puzzle,
                layout,
                &geometry,
                &limits,
                &mut on_solution,
                handover,
            );
            assert_eq!(outcome.found as usize, found.len());
            found.sort();
            (found, outcome.stats.get(crate::strategy::Counter::Nodes))
        };
        let mut handed_over = 0;
        for (index, record) in Reader::new(text.as_bytes(), Format::Line, None)
            .take(4)
            .enumerate()
        {
            let record = record.unwrap();
            let (mut puzzle, solution) = (record.puzzle, record.solution.unwrap());
            let givens: Vec<usize> = (0..256).filter(|&cell| puzzle.get(cell) != 0).collect();
            puzzle.set(givens[index * 17 % givens.len()], 0);
            // Solution cells given one by one, skipping any that would leave one solution.
            let open: Vec<usize> = (0..256).filter(|&cell| puzzle.get(cell) == 0).collect();
            let mut open = open.into_iter().step_by(3);
            let (mut plain, mut plain_nodes) = all(&puzzle, None);
            while plain.len() > 12 {
                let cell = open.next().unwrap();
                puzzle.set(cell, solution.get(cell));
                let (found, nodes) = all(&puzzle, None);
                if found.len() < 2 {
                    puzzle.set(cell, 0);
                } else {
                    (plain, plain_nodes) = (found, nodes);
                }
            }
            assert!(
                plain.len() >= 2,
                "puzzle {index}: {} solutions",
                plain.len()
            );
            for at in [1, 3, 16, 40] {
                let (found, _) = all(&puzzle, Some(at));
                assert_eq!(found, plain, "puzzle {index}, handover after {at} nodes");
                handed_over += usize::from(plain_nodes > Some(at + 1));
            }
        }
        assert!(handed_over >= 8, "only {handed_over} searches handed over");
    }

    /// A search that enumerates more solutions than [`HANDOVER_SOLUTIONS`] never hands over:
    /// counting every solution of a 16x16 puzzle with hundreds takes the plain search's nodes.
    #[test]
    fn enumerating_many_solutions_keeps_to_the_plain_search() {
        let text = include_str!("../../../../../corpora/minimal-16x16.txt");
        let layout = Layout::of(Shape::new(4, 4).unwrap());
        let geometry = Geometry::new(layout);
        let mut puzzle = Reader::new(text.as_bytes(), Format::Line, None)
            .next()
            .unwrap()
            .unwrap()
            .puzzle;
        let first = (0..256).find(|&cell| puzzle.get(cell) != 0).unwrap();
        puzzle.set(first, 0);
        let limits = Limits::unlimited();
        let mut on_solution = |_: &Grid| {};
        let plain =
            search_handing_over(&puzzle, layout, &geometry, &limits, &mut on_solution, None);
        let default = search(&puzzle, layout, &geometry, &limits, &mut on_solution);
        assert!(
            plain.found > HANDOVER_SOLUTIONS,
            "{} solutions",
            plain.found
        );
        let nodes = plain.stats.get(crate::strategy::Counter::Nodes);
        assert!(nodes > Some(HANDOVER_NODES), "{nodes:?} nodes");
        assert_eq!(
            (
                default.found,
                default.stats.get(crate::strategy::Counter::Nodes)
            ),
            (plain.found, nodes)
        );
    }

    /// The popcount-free tests agree with `is_power_of_two` and `count_ones` on the words the rules see (never zero
    /// for a cell; zero for a digit's places once it is placed), the top bit of a 64x64 board
    /// included.
    #[test]
    fn one_and_two_bits_are_told_without_a_popcount() {
        let words = [
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            0x1ff,
            1 << 24,
            1 << 63,
            (1 << 63) | 1,
            u64::MAX,
        ];
        for word in words {
            assert_eq!(single(word), word.is_power_of_two(), "{word:#x}");
            assert_eq!(two(word), word.count_ones() == 2, "{word:#x}");
        }
        assert!(!two(0));
    }

    #[test]
    fn geometry_pairs_each_box_with_its_three_rows_and_three_columns() {
        let geometry = Geometry::new(Layout::of(Shape::CLASSIC));
        assert_eq!(geometry.meets.len(), 9 * 6);
        for meet in &geometry.meets {
            assert_eq!(
                (
                    meet.shared.len(),
                    meet.first_rest.len(),
                    meet.second_rest.len()
                ),
                (3, 6, 6)
            );
        }
    }

    #[test]
    fn locked_candidates_point_from_a_box_and_claim_from_a_row() {
        let mut board = vec![ALL; 81];
        // In box 0, 1 is only in row 0: the rest of row 0 loses it.
        for &cell in &box_cells(0)[3..] {
            board[cell] &= !ONE;
        }
        // In row 4, 2 is only in box 4: the rest of box 4 loses it.
        for column in (0..3).chain(6..9) {
            board[36 + column] &= !TWO;
        }
        let mut expected = board.clone();
        for candidates in &mut expected[3..9] {
            *candidates &= !ONE;
        }
        for cell in box_cells(4) {
            if cell / 9 != 4 {
                expected[cell] &= !TWO;
            }
        }
        assert_eq!(apply(&mut board, Rule::LockedCandidates), Some(true));
        assert_eq!(board, expected);
        // Nothing more follows.
        assert_eq!(apply(&mut board, Rule::LockedCandidates), Some(false));
        assert_eq!(board, expected);
    }

    #[test]
    fn a_naked_pair_clears_its_row_and_its_box() {
        let mut board = vec![ALL; 81];
        board[0] = ONE | TWO;
        board[1] = ONE | TWO;
        let mut expected = board.clone();
        for cell in (2..9).chain([9, 10, 11, 18, 19, 20]) {
            expected[cell] &= !(ONE | TWO);
        }
        assert_eq!(apply(&mut board, Rule::Pairs), Some(true));
        assert_eq!(board, expected);
    }

    #[test]
    fn a_hidden_pair_keeps_only_its_two_digits() {
        let mut board = vec![ALL; 81];
        for candidates in &mut board[2..9] {
            *candidates &= !(ONE | TWO);
        }
        // Row 0 makes cells 0 and 1 a pair of 1 and 2; box 0 then sees a naked pair.
        let mut expected = board.clone();
        expected[0] = ONE | TWO;
        expected[1] = ONE | TWO;
        for cell in [9, 10, 11, 18, 19, 20] {
            expected[cell] &= !(ONE | TWO);
        }
        assert_eq!(apply(&mut board, Rule::Pairs), Some(true));
        assert_eq!(board, expected);
    }

    #[test]
    fn a_cell_left_without_candidates_is_a_contradiction() {
        // Cells 0 and 1 hold 1 and 2; cell 2 may only be 1 or 2 as well: three cells, two digits.
        let mut board = vec![ALL; 81];
        board[0] = ONE | TWO;
        board[1] = ONE | TWO;
        board[2] = ONE | TWO;
        assert_eq!(apply(&mut board, Rule::Pairs), None);
        // A digit of box 0 confined to row 0 while row 0 has it only in box 1: 1 cannot be
        // placed in row 0 at all.
        let mut board = vec![ALL; 81];
        for &cell in &box_cells(0)[3..] {
            board[cell] &= !ONE;
        }
        for cell in (0..3).chain(6..9) {
            board[cell] &= !ONE;
        }
        let found = apply(&mut board, Rule::LockedCandidates)
            .and_then(|_| apply(&mut board, Rule::HiddenSingles));
        assert_eq!(found, None);
    }

    fn puzzles(text: &str) -> Vec<Grid> {
        Reader::new(text.as_bytes(), Format::Line, None)
            .map(|record| record.unwrap().puzzle)
            .filter(|puzzle| puzzle.shape() == Shape::CLASSIC)
            .collect()
    }

    /// Every solution, sorted, and how the search ended.
    fn enumerate(
        search: impl Fn(&Grid, &Limits, &mut dyn FnMut(&Grid)) -> Outcome,
        puzzle: &Grid,
    ) -> (Vec<Vec<u8>>, Option<Stop>) {
        let mut solutions = Vec::new();
        let outcome = search(puzzle, &Limits::unlimited(), &mut |grid| {
            solutions.push(grid.cells().to_vec());
        });
        assert_eq!(outcome.found as usize, solutions.len());
        solutions.sort();
        (solutions, outcome.stopped)
    }

    /// The large-board path on 9x9 finds exactly the solutions of the 9x9 path, on puzzles
    /// with one to a few hundred solutions (minimal ones with givens taken out): no rule loses
    /// a solution and no split counts one twice.
    #[test]
    fn the_large_path_finds_what_the_classic_path_finds() {
        let layout = Layout::of(Shape::CLASSIC);
        let geometry = Geometry::new(layout);
        let large = |puzzle: &Grid, limits: &Limits, on: &mut dyn FnMut(&Grid)| {
            search(puzzle, layout, &geometry, limits, on)
        };
        let mut all = puzzles(include_str!("../../../../../corpora/reference.txt"));
        all.extend(super::super::loosened_minimal(20));
        let mut multiple = 0;
        for puzzle in &all {
            let classic = enumerate(super::super::classic::search, puzzle);
            let found = enumerate(large, puzzle);
            assert_eq!(found, classic, "{}", crate::model::to_line(puzzle).unwrap());
            multiple += usize::from(classic.0.len() > 1);
        }
        assert!(
            multiple >= 10,
            "only {multiple} puzzles with several solutions"
        );
    }
}
