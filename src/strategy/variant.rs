//! The three classic backtrackers on a variant's rules: the same trees as on plain Sudoku (row-
//! major cells or the fewest candidates, values ascending), with every rule checked.
//!
//! A value is allowed in a cell when no peer holds it (a peer shares a house or must differ),
//! no orthogonal neighbour of a non-consecutive board holds a digit one away, the cell's cage
//! does not hold it yet, and the cage's sum can still be reached: its filled digits, this
//! value and the smallest (largest) sum of as many different digits as cells stay empty bracket
//! the target. At a complete board every cage therefore adds up to its sum exactly.
//!
//! `scan` reads every peer from the board; `toggle` keeps one used-digit word per house,
//! toggled on enter and undo, and reads the board only for the rules that are not houses; both
//! allow the same values, so they walk the same tree, as on plain Sudoku. `mrv` computes every
//! empty cell's allowed values at each node and branches on the first with the fewest.

use crate::model::rules::RuleCheck;
use crate::model::{Grid, Rules};

use super::backtrack::{Backtrack, digits_of};
use super::{Limits, Observer, Outcome};

/// `scan` on a variant: row-major cells, values ascending, each tested by reading the board.
pub(super) fn scan<O: Observer>(
    puzzle: &Grid,
    rules: &Rules,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let check = RuleCheck::new(rules);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    scan_from(&mut search, &check, 0, 0);
    search.finish()
}

fn scan_from<O: Observer>(
    search: &mut Backtrack<'_, O>,
    check: &RuleCheck<'_>,
    from: usize,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(cell) = (from..search.cells.len()).find(|&cell| search.cells[cell] == 0) else {
        return search.solution(depth);
    };
    let free = check.allowed(&search.cells, cell);
    branch(search, cell, free, depth, |search| {
        scan_from(search, check, cell + 1, depth + 1)
    })
}

/// Tries every value of `free` in `cell`, ascending, running `deeper` after each placement.
/// Returns `false` when the search must stop.
fn branch<O: Observer>(
    search: &mut Backtrack<'_, O>,
    cell: usize,
    free: u64,
    depth: usize,
    mut deeper: impl FnMut(&mut Backtrack<'_, O>) -> bool,
) -> bool {
    search.choose(depth, cell, free.count_ones() as usize);
    if free == 0 {
        search.dead_end(depth);
        return true;
    }
    for (value, _) in digits_of(free) {
        search.place(depth, cell, value);
        if !deeper(search) {
            return false;
        }
        search.undo(depth, cell, value);
    }
    true
}

/// `toggle` on a variant: the blanks in row-major order, one used-digit word per house.
pub(super) fn toggle<O: Observer>(
    puzzle: &Grid,
    rules: &Rules,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let check = RuleCheck::new(rules);
    let layout = check.layout;
    let mut used = vec![0u64; layout.house_count()];
    for (cell, &value) in puzzle.cells().iter().enumerate() {
        if value != 0 {
            for &house in layout.houses_of_cell(cell) {
                used[house as usize] |= 1u64 << (value - 1);
            }
        }
    }
    let blanks: Vec<usize> = (0..puzzle.cells().len())
        .filter(|&cell| puzzle.get(cell) == 0)
        .collect();
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    let mut state = Toggled {
        check: &check,
        used,
        blanks,
    };
    state.blank(&mut search, 0);
    search.finish()
}

struct Toggled<'c, 'r> {
    check: &'c RuleCheck<'r>,
    used: Vec<u64>,
    blanks: Vec<usize>,
}

impl Toggled<'_, '_> {
    fn blank<O: Observer>(&mut self, search: &mut Backtrack<'_, O>, k: usize) -> bool {
        if !search.enter_node() {
            return false;
        }
        let Some(&cell) = self.blanks.get(k) else {
            return search.solution(k);
        };
        let layout = self.check.layout;
        let mut taken = layout
            .houses_of_cell(cell)
            .iter()
            .fold(0u64, |taken, &house| taken | self.used[house as usize]);
        // Must-differ partners are peers but not houses: read from the board.
        for &peer in layout.peers(cell) {
            let value = search.cells[peer as usize];
            taken |= (1u64 << (value.wrapping_sub(1) & 63)) * u64::from(value != 0);
        }
        let free = self
            .check
            .allowed_beyond_houses(&search.cells, cell, self.check.full & !taken);
        search.choose(k, cell, free.count_ones() as usize);
        if free == 0 {
            search.dead_end(k);
            return true;
        }
        for (value, bit) in digits_of(free) {
            self.flip(cell, bit);
            search.place(k, cell, value);
            if !self.blank(search, k + 1) {
                return false;
            }
            self.flip(cell, bit);
            search.undo(k, cell, value);
        }
        true
    }

    fn flip(&mut self, cell: usize, bit: u64) {
        for &house in self.check.layout.houses_of_cell(cell) {
            self.used[house as usize] ^= bit;
        }
    }
}

/// `mrv` on a variant: the empty cell with the fewest allowed values (ties row-major), values
/// ascending; the allowed values of every empty cell are recomputed at each node.
pub(super) fn mrv<O: Observer>(
    puzzle: &Grid,
    rules: &Rules,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let check = RuleCheck::new(rules);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    mrv_node(&mut search, &check, 0);
    search.finish()
}

fn mrv_node<O: Observer>(
    search: &mut Backtrack<'_, O>,
    check: &RuleCheck<'_>,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let mut best: Option<(usize, u64)> = None;
    for cell in 0..search.cells.len() {
        if search.cells[cell] != 0 {
            continue;
        }
        let free = check.allowed(&search.cells, cell);
        if best.is_none_or(|(_, best_free)| free.count_ones() < best_free.count_ones()) {
            best = Some((cell, free));
            if free == 0 {
                break;
            }
        }
    }
    let Some((cell, free)) = best else {
        return search.solution(depth);
    };
    branch(search, cell, free, depth, |search| {
        mrv_node(search, check, depth + 1)
    })
}
