//! The bookkeeping the three classic backtrackers share: the board, the counters, the budget,
//! the solution callback and the observer. Each engine keeps only its own choice of cell and
//! its own test of which values are allowed.

use crate::model::Grid;
use crate::model::layout::Layout;

use super::{Budget, Counter, Event, Limits, Observer, Outcome, Solutions, Stats, Stop};

/// One backtracking search in progress.
pub(crate) struct Backtrack<'a, O: Observer> {
    pub(crate) puzzle: &'a Grid,
    /// The working board, row-major, `0` for empty.
    pub(crate) cells: Vec<u8>,
    pub(crate) nodes: u64,
    placements: u64,
    backtracks: u64,
    solutions: Solutions<'a>,
    budget: Budget<'a>,
    stopped: Option<Stop>,
    pub(crate) observer: O,
}

impl<'a, O: Observer> Backtrack<'a, O> {
    pub(crate) fn new(
        puzzle: &'a Grid,
        limits: &'a Limits,
        on_solution: &'a mut dyn FnMut(&Grid),
        observer: O,
    ) -> Backtrack<'a, O> {
        Backtrack::with_budget(puzzle, Budget::new(limits), limits, on_solution, observer)
    }

    /// A search whose engine counts its work budget in a unit other than nodes, and checks it
    /// itself ([`Backtrack::stop`]).
    pub(crate) fn without_work(
        puzzle: &'a Grid,
        limits: &'a Limits,
        on_solution: &'a mut dyn FnMut(&Grid),
        observer: O,
    ) -> Backtrack<'a, O> {
        let budget = Budget::without_work(limits);
        Backtrack::with_budget(puzzle, budget, limits, on_solution, observer)
    }

    fn with_budget(
        puzzle: &'a Grid,
        budget: Budget<'a>,
        limits: &'a Limits,
        on_solution: &'a mut dyn FnMut(&Grid),
        observer: O,
    ) -> Backtrack<'a, O> {
        Backtrack {
            puzzle,
            cells: puzzle.cells().to_vec(),
            nodes: 0,
            placements: 0,
            backtracks: 0,
            solutions: Solutions::new(limits, on_solution),
            budget,
            stopped: None,
            observer,
        }
    }

    /// Counts a new node, or returns `false` when the budget forbids it (the search must then
    /// unwind without further work).
    #[inline]
    pub(crate) fn enter_node(&mut self) -> bool {
        if let Err(stop) = self.budget.admit(self.nodes) {
            self.stopped = Some(stop);
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Stops the search for `stop` (the engine's own work budget); it must then unwind.
    pub(crate) fn stop(&mut self, stop: Stop) {
        self.stopped = Some(stop);
    }

    /// Reports the complete board as a solution; `false` when the solution limit is reached.
    pub(crate) fn solution(&mut self, depth: usize) -> bool {
        self.observer.event(depth, self.nodes, Event::Solution);
        let grid = Grid::from_cells(self.puzzle.shape(), self.cells.clone())
            .expect("the search writes only digits 1..=n");
        if let Err(stop) = self.solutions.report(&grid) {
            self.stopped = Some(stop);
            return false;
        }
        true
    }

    /// Announces the cell the search branches on.
    #[inline]
    pub(crate) fn choose(&mut self, depth: usize, cell: usize, candidates: usize) {
        self.observer
            .event(depth, self.nodes, Event::Choose { cell, candidates });
    }

    /// Announces that a node has no allowed value.
    #[inline]
    pub(crate) fn dead_end(&mut self, depth: usize) {
        self.observer.event(depth, self.nodes, Event::DeadEnd);
    }

    /// Writes `value` into `cell`.
    #[inline]
    pub(crate) fn place(&mut self, depth: usize, cell: usize, value: u8) {
        self.cells[cell] = value;
        self.placements += 1;
        self.observer
            .event(depth, self.nodes, Event::Try { cell, value });
    }

    /// Takes `value` back out of `cell`.
    #[inline]
    pub(crate) fn undo(&mut self, depth: usize, cell: usize, value: u8) {
        self.cells[cell] = 0;
        self.backtracks += 1;
        self.observer
            .event(depth, self.nodes, Event::Undo { cell, value });
    }

    /// The outcome, with the three classic counters.
    pub(crate) fn finish(self) -> Outcome {
        let mut stats = Stats::new();
        stats.set(Counter::Nodes, self.nodes);
        stats.set(Counter::Placements, self.placements);
        stats.set(Counter::Backtracks, self.backtracks);
        Outcome {
            found: self.solutions.found(),
            stopped: self.stopped,
            stats,
        }
    }
}

/// The counters of the classic backtrackers, for a puzzle whose givens conflict.
pub(crate) const CLASSIC_COUNTERS: [Counter; 3] =
    [Counter::Nodes, Counter::Placements, Counter::Backtracks];

/// Used-digit tables for every row, column and box, one bit per digit, with each cell's three
/// houses precomputed. `toggle` flips entries with XOR; `mrv` reads candidates from them.
pub(crate) struct HouseMasks {
    full: u64,
    /// `(row, column, box)` of every cell.
    houses_of: &'static [[u8; 3]],
    row_used: Vec<u64>,
    col_used: Vec<u64>,
    box_used: Vec<u64>,
}

impl HouseMasks {
    /// Tables holding the givens of `puzzle`, which must not conflict.
    pub(crate) fn new(puzzle: &Grid) -> HouseMasks {
        let shape = puzzle.shape();
        let side = shape.side();
        let mut masks = HouseMasks {
            full: crate::model::DigitSet::full(side).bits(),
            houses_of: &Layout::of(shape).houses_of,
            row_used: vec![0; side],
            col_used: vec![0; side],
            box_used: vec![0; side],
        };
        for (cell, &value) in puzzle.cells().iter().enumerate() {
            if value != 0 {
                masks.toggle(cell, 1u64 << (value - 1));
            }
        }
        masks
    }

    /// The digits (as bits) that no house of `cell` uses yet.
    #[inline]
    pub(crate) fn free(&self, cell: usize) -> u64 {
        let [row, col, box_idx] = self.houses_of[cell];
        self.full
            & !(self.row_used[row as usize]
                | self.col_used[col as usize]
                | self.box_used[box_idx as usize])
    }

    /// Flips one digit bit in the three houses of `cell`.
    #[inline]
    pub(crate) fn toggle(&mut self, cell: usize, bit: u64) {
        let [row, col, box_idx] = self.houses_of[cell];
        self.row_used[row as usize] ^= bit;
        self.col_used[col as usize] ^= bit;
        self.box_used[box_idx as usize] ^= bit;
    }
}

/// The digits of a bit set, ascending, with their bits.
#[inline]
pub(crate) fn digits_of(mut bits: u64) -> impl Iterator<Item = (u8, u64)> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let bit = bits & bits.wrapping_neg();
        bits ^= bit;
        Some((bit.trailing_zeros() as u8 + 1, bit))
    })
}
