//! `fast`: constraint propagation on bit boards, guessing only when it must.
//!
//! 9x9 puzzles take the dedicated path in [`classic`] (digit-per-band words, JCZSolve's
//! representation, with locked candidates; why: several times faster there than the general
//! path, docs/benchmarks.md, 'fast: what was tried'). Boards of side 10 and up (variants
//! included) take [`large`]: the singles below plus locked candidates and naked and hidden
//! pairs, branching on a cell or on a digit of a house, whichever splits less; from side 16 a
//! search undecided after a few nodes goes on with conflict learning ([`learn`]). Every other
//! shape takes the general path below, which unit tests also run on 9x9 to hold the three to
//! the same solutions.
//!
//! In the general path every cell keeps its candidate digits as one word. Placing a digit removes it from the
//! cell's peers; a peer left with one candidate is placed in turn (naked single); a house where
//! a digit fits in one cell only gets it placed there (hidden single, found for all digits of a
//! house at once with the "seen once / seen twice" bit trick); a cell with no candidate or a
//! digit with no place is a contradiction. When propagation stalls, the search guesses on the
//! cell with the fewest candidates (MRV), each guess on a copy of the board: copying a few
//! hundred bytes is cheaper than undoing.
//!
//! Counters: `nodes` (boards propagated: the root and one per guess), `guesses` (values tried
//! on a cell with two or more candidates; zero means solved by propagation alone, tdoku's
//! "no_guess"), `propagation_rounds` (passes of the hidden-single scan over all houses; the 9x9
//! path counts its own kind of pass). Once a search of side 16 or more hands over to learning
//! (`learn.rs`), each of its decisions is one more node, and each propagation to the fixpoint
//! one more round.

mod classic;
mod large;
mod learn;

use crate::model::layout::Layout;
use crate::model::{DigitSet, Grid, Rules, Shape};

use super::{
    Budget, Counter, Limits, Outcome, Solutions, Stats, Stop, Strategy, answer_without_search,
};

/// Propagation with naked and hidden singles (and locked candidates on 9x9 and from 10x10), MRV guessing; the
/// default strategy.
pub struct Fast;

const COUNTERS: [Counter; 3] = [Counter::Nodes, Counter::Guesses, Counter::PropagationRounds];

impl Strategy for Fast {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn summary(&self) -> &'static str {
        "bit-board propagation (singles; band words and column pointing on 9x9; locked candidates and pairs from 10x10) with MRV guessing; the default"
    }

    fn untraceable_reason(&self) -> &'static str {
        "its bit-parallel propagation, which fills many cells at once, is not instrumented for \
         events; trace mrv (the same fewest-candidates choice, one cell at a time) or dlx-knuth \
         to see forced moves"
    }

    fn counters(&self) -> &'static [Counter] {
        &COUNTERS
    }

    /// Nodes, the root and one per guess: a stopped search reports exactly the budget.
    fn budget_unit(&self) -> super::WorkUnit {
        super::WorkUnit::Nodes
    }

    fn default_budget(&self) -> Option<u64> {
        Some(200_000)
    }

    /// Variants made of houses and must-differ pairs (X, windoku, jigsaw, Latin squares,
    /// anti-king, anti-knight), on the general path: every house takes part in hidden singles
    /// and every must-differ partner is a peer.
    fn supports_rules(&self, rules: &Rules) -> Result<(), &'static str> {
        if rules.is_house_based() {
            Ok(())
        } else {
            Err(
                "its propagation knows houses and must-differ pairs, not non-consecutive pairs or cages",
            )
        }
    }

    fn refusals(&self) -> super::Refusals {
        use super::RuleKind::{Cages, NonconsecutivePairs};
        super::Refusals {
            max_side: None,
            rules: &[NonconsecutivePairs, Cages],
        }
    }

    fn search(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        if puzzle.shape() == Shape::CLASSIC && puzzle.rules().is_none() {
            return classic::search(puzzle, limits, on_solution);
        }
        if let Some(outcome) = answer_without_search(self, puzzle) {
            return outcome;
        }
        search_any_shape(puzzle, limits, on_solution)
    }

    /// As every engine counts, except that on 9x9 no solution grid is written out.
    fn count_up_to(&self, puzzle: &Grid, limit: u64, limits: &Limits) -> Outcome {
        let limits = limits.clone().with_max_solutions(limit);
        if puzzle.shape() == Shape::CLASSIC && puzzle.rules().is_none() {
            return classic::count(puzzle, &limits);
        }
        self.search(puzzle, &limits, &mut |_| {})
    }
}

/// The general path, for every shape (9x9 included, which tests compare with the classic path).
fn search_any_shape(puzzle: &Grid, limits: &Limits, on_solution: &mut dyn FnMut(&Grid)) -> Outcome {
    let layout = match puzzle.rules() {
        Some(rules) => rules.layout(),
        None => Layout::of(puzzle.shape()),
    };
    if layout.side >= large::MIN_SIDE {
        return if puzzle.rules().is_some() {
            large::search(
                puzzle,
                layout,
                &large::Geometry::new(layout),
                limits,
                on_solution,
            )
        } else {
            let geometry = large::Geometry::of(puzzle.shape(), layout);
            large::search(puzzle, layout, geometry, limits, on_solution)
        };
    }
    let mut solver = Solver {
        layout,
        puzzle,
        boards: Vec::new(),
        queue: Vec::with_capacity(layout.cells),
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
        solver.boards.push(root);
        solver.search_from(0);
    }
    solver.tally.outcome()
}

/// What a search of either path has spent and found: `fast`'s counters, the budget, the
/// solutions delivered and why it stopped.
struct Tally<'a> {
    nodes: u64,
    guesses: u64,
    rounds: u64,
    solutions: Solutions<'a>,
    budget: Budget<'a>,
    stopped: Option<Stop>,
}

impl<'a> Tally<'a> {
    fn new(limits: &'a Limits, on_solution: &'a mut dyn FnMut(&Grid)) -> Tally<'a> {
        Tally {
            nodes: 0,
            guesses: 0,
            rounds: 0,
            solutions: Solutions::new(limits, on_solution),
            budget: Budget::new(limits),
            stopped: None,
        }
    }

    /// Counts one more node if the budget allows it; `false` (the reason kept) if not.
    #[inline]
    fn enter_node(&mut self) -> bool {
        match self.budget.admit(self.nodes) {
            Ok(()) => {
                self.nodes += 1;
                true
            }
            Err(stop) => {
                self.stopped = Some(stop);
                false
            }
        }
    }

    /// Delivers a solution; `false` (the reason kept) when it was the last one wanted.
    fn report(&mut self, solution: &Grid) -> bool {
        let counted = self.solutions.report(solution);
        self.keep_going(counted)
    }

    /// Counts a solution without showing it to anyone, for a search that only counts; `false`
    /// (the reason kept) when it was the last one wanted.
    fn count(&mut self) -> bool {
        let counted = self.solutions.count();
        self.keep_going(counted)
    }

    /// `true` when the search goes on; otherwise keeps the reason it stops.
    fn keep_going(&mut self, counted: Result<(), Stop>) -> bool {
        match counted {
            Ok(()) => true,
            Err(stop) => {
                self.stopped = Some(stop);
                false
            }
        }
    }

    /// How the search ended, with `fast`'s counters (`COUNTERS`, in order).
    fn outcome(self) -> Outcome {
        let mut stats = Stats::new();
        let counts = [self.nodes, self.guesses, self.rounds];
        for (counter, value) in COUNTERS.into_iter().zip(counts) {
            stats.set(counter, value);
        }
        Outcome {
            found: self.solutions.found(),
            stopped: self.stopped,
            stats,
        }
    }
}

struct Solver<'a> {
    layout: &'a Layout,
    puzzle: &'a Grid,
    /// One board per search depth: candidates per cell, a single bit once placed.
    boards: Vec<Vec<u64>>,
    /// Cells reduced to one candidate, waiting to be placed.
    queue: Vec<u16>,
    tally: Tally<'a>,
}

impl Solver<'_> {
    /// Places `bit` in `cell` and removes it from the peers, placing naked singles as they
    /// appear; `false` on a contradiction.
    fn assign(&mut self, board: &mut [u64], cell: usize, bit: u64) -> bool {
        self.queue.clear();
        if !self.place_one(board, cell, bit) {
            return false;
        }
        while let Some(next) = self.queue.pop() {
            let next = next as usize;
            if !self.place_one(board, next, board[next]) {
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
        let layout = self.layout;
        let peers = layout.peers(cell);
        for &peer in peers {
            let peer = peer as usize;
            let candidates = board[peer];
            if candidates & bit != 0 {
                let left = candidates & !bit;
                if left == 0 {
                    return false;
                }
                board[peer] = left;
                if left.is_power_of_two() {
                    self.queue.push(peer as u16);
                }
            }
        }
        true
    }

    /// Hidden singles in every house until nothing changes; `false` on a contradiction.
    fn propagate(&mut self, board: &mut [u64]) -> bool {
        let layout = self.layout;
        let side = layout.side;
        let full = DigitSet::full(side).bits();
        loop {
            self.tally.rounds += 1;
            let mut changed = false;
            for house in layout.houses.chunks_exact(side) {
                let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
                for &cell in house {
                    let candidates = board[cell as usize];
                    if candidates.is_power_of_two() {
                        placed |= candidates;
                    } else {
                        twice |= once & candidates;
                        once |= candidates;
                    }
                }
                if (once | placed) != full {
                    return false;
                }
                let mut singles = once & !twice & !placed;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles ^= bit;
                    let Some(&cell) = house.iter().find(|&&cell| board[cell as usize] & bit != 0)
                    else {
                        return false;
                    };
                    if board[cell as usize] == bit {
                        continue;
                    }
                    if !self.assign(board, cell as usize, bit) {
                        return false;
                    }
                    changed = true;
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Propagates the board at `depth`, then reports it or guesses. `false` when the search
    /// must stop.
    fn search_from(&mut self, depth: usize) -> bool {
        if !self.tally.enter_node() {
            return false;
        }
        let mut board = std::mem::take(&mut self.boards[depth]);
        let keep_going = self.search_board(&mut board, depth);
        self.boards[depth] = board;
        keep_going
    }

    fn search_board(&mut self, board: &mut [u64], depth: usize) -> bool {
        if !self.propagate(board) {
            return true;
        }
        // The unplaced cell with the fewest candidates, first in row-major order. Two is the
        // fewest an unplaced cell can have, so the first two-candidate cell ends the look
        // (tested without a popcount, which this target may lack).
        let mut best = usize::MAX;
        let mut best_count = u32::MAX;
        for (cell, &candidates) in board.iter().enumerate() {
            let rest = candidates & candidates.wrapping_sub(1);
            if rest == 0 {
                continue;
            }
            if rest.is_power_of_two() {
                best = cell;
                break;
            }
            let count = candidates.count_ones();
            if count < best_count {
                best = cell;
                best_count = count;
            }
        }
        if best == usize::MAX {
            return self.report(board);
        }
        if self.boards.len() <= depth + 1 {
            self.boards.push(vec![0; board.len()]);
        }
        let mut remaining = board[best];
        while remaining != 0 {
            let bit = remaining & remaining.wrapping_neg();
            remaining ^= bit;
            self.tally.guesses += 1;
            let mut child = std::mem::take(&mut self.boards[depth + 1]);
            child.copy_from_slice(board);
            let consistent = self.assign(&mut child, best, bit);
            self.boards[depth + 1] = child;
            if consistent && !self.search_from(depth + 1) {
                return false;
            }
        }
        true
    }

    /// A board where every cell has one candidate: a solution (propagation checked every house).
    fn report(&mut self, board: &[u64]) -> bool {
        self.tally.report(&solved_grid(self.puzzle, board))
    }
}

/// The grid of `puzzle`'s board whose every cell has one candidate (bit `d` for digit `d + 1`).
fn solved_grid(puzzle: &Grid, board: &[u64]) -> Grid {
    let mut grid = puzzle.clone().without_rules();
    for (cell, &bit) in board.iter().enumerate() {
        grid.set(cell, bit.trailing_zeros() as u8 + 1);
    }
    grid
}

/// The first `take` bundled minimal 9x9 puzzles, each followed by itself with one to three
/// givens taken out: puzzles with one to a few hundred solutions, on which the tests of every
/// path hold it to the solutions of another.
#[cfg(test)]
fn loosened_minimal(take: usize) -> Vec<Grid> {
    use crate::corpus::{Format, Reader};
    let text = include_str!("../../../../../corpora/generated/9x9-minimal.txt");
    let mut all = Vec::new();
    let records = Reader::new(text.as_bytes(), Format::Line, None);
    for (idx, record) in records.take(take).enumerate() {
        let puzzle = record.unwrap().puzzle;
        let mut loose = puzzle.clone();
        let givens: Vec<usize> = (0..81).filter(|&cell| puzzle.get(cell) != 0).collect();
        for &cell in givens.iter().skip(idx % 5).take(1 + idx % 3) {
            loose.set(cell, 0);
        }
        all.push(puzzle);
        all.push(loose);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Format, Reader};

    fn puzzles(text: &str) -> Vec<Grid> {
        Reader::new(text.as_bytes(), Format::Line, None)
            .map(|record| record.unwrap().puzzle)
            .filter(|puzzle| puzzle.shape() == Shape::CLASSIC)
            .collect()
    }

    /// A search path: `classic::search` or `search_any_shape`.
    type Path = fn(&Grid, &Limits, &mut dyn FnMut(&Grid)) -> Outcome;

    /// Every solution, sorted, and how the search ended.
    fn enumerate(search: Path, puzzle: &Grid) -> (Vec<Vec<u8>>, Option<Stop>) {
        let mut solutions = Vec::new();
        let outcome = search(puzzle, &Limits::unlimited(), &mut |grid| {
            solutions.push(grid.cells().to_vec());
        });
        assert_eq!(outcome.found as usize, solutions.len());
        solutions.sort();
        (solutions, outcome.stopped)
    }

    /// The 9x9 path and the general path must find the same solutions. Puzzles: the bundled
    /// 9x9 sets, and minimal ones with one to three givens removed (2 to a few hundred
    /// solutions each).
    #[test]
    fn the_classic_path_finds_what_the_general_path_finds() {
        let mut all = puzzles(include_str!("../../../../../corpora/reference.txt"));
        all.extend(puzzles(include_str!(
            "../../../../../corpora/generated/9x9-rot180.txt"
        )));
        all.extend(loosened_minimal(30));
        let mut multiple = 0;
        for puzzle in &all {
            let classic = enumerate(classic::search, puzzle);
            let general = enumerate(search_any_shape, puzzle);
            assert_eq!(
                classic,
                general,
                "{}",
                crate::model::to_line(puzzle).unwrap()
            );
            assert_eq!(classic.1, None);
            multiple += usize::from(classic.0.len() > 1);
        }
        assert!(
            multiple >= 20,
            "only {multiple} puzzles with several solutions"
        );
    }

    /// Counting without writing grids out must end exactly as searching does: the same count,
    /// the same reason to stop, the same counters.
    #[test]
    fn the_classic_path_counts_as_it_searches() {
        let mut all = puzzles(include_str!("../../../../../corpora/reference.txt"));
        all.extend(puzzles(include_str!(
            "../../../../../corpora/generated/9x9-minimal.txt"
        )));
        // Several solutions: the first minimal puzzle with three givens taken out.
        let mut loose = all.last().unwrap().clone();
        let givens: Vec<usize> = (0..81).filter(|&cell| loose.get(cell) != 0).collect();
        for &cell in givens.iter().take(3) {
            loose.set(cell, 0);
        }
        all.push(loose);
        all.push(Grid::empty(Shape::CLASSIC));
        let mut several = 0;
        for puzzle in &all {
            for limit in [1, 2, 5] {
                let limits = Limits::unlimited().with_max_solutions(limit);
                let mut shown = 0;
                let searched = classic::search(puzzle, &limits, &mut |_| shown += 1);
                let counted = Fast.count_up_to(puzzle, limit, &Limits::unlimited());
                let line = crate::model::to_line(puzzle).unwrap();
                assert_eq!(counted.found, searched.found, "{line} up to {limit}");
                assert_eq!(counted.found, shown, "{line} up to {limit}");
                assert_eq!(counted.stopped, searched.stopped, "{line} up to {limit}");
                assert_eq!(counted.stats, searched.stats, "{line} up to {limit}");
                several += usize::from(limit == 5 && counted.found > 1);
            }
        }
        assert!(
            several >= 2,
            "only {several} puzzles with several solutions"
        );
    }

    #[test]
    fn the_classic_path_answers_clashing_givens_without_search() {
        // Two 1s in a row, a column (rows 1 and 6) and a box.
        for (first, second) in [(0, 5), (0, 45), (0, 10)] {
            let mut puzzle = Grid::empty(Shape::CLASSIC);
            puzzle.set(first, 1);
            puzzle.set(second, 1);
            let clash = (first, second);
            let outcome = Fast.count_up_to(&puzzle, 0, &Limits::unlimited());
            assert_eq!(
                outcome.verdict(),
                crate::strategy::Verdict::None,
                "{clash:?}"
            );
            assert_eq!(
                outcome.stats.to_string(),
                "nodes=0 guesses=0 propagation_rounds=0"
            );
        }
    }

    #[test]
    fn the_classic_path_stops_at_its_node_budget() {
        let empty = Grid::empty(Shape::CLASSIC);
        let limits = Limits::unlimited().with_max_nodes(100);
        let outcome = Fast.count_up_to(&empty, 0, &limits);
        assert_eq!(outcome.stopped, Some(Stop::NodeLimit));
        assert_eq!(outcome.stats.get(Counter::Nodes), Some(100));
        assert_eq!(outcome.verdict(), crate::strategy::Verdict::Multiple);
    }
}
