//! `mrv`: backtracking on the most constrained cell (minimum remaining values).
//!
//! At each node every empty cell's candidates are read from bit-set house tables; the search
//! branches on the cell with the fewest (ties: the first in row-major order), trying its
//! candidates ascending. A cell with no candidate fails the node at once. This is the
//! "bitmask MRV" solver of the benchmark tables: no propagation beyond the choice of cell.

use crate::model::{Grid, find_conflict};

use super::backtrack::{Backtrack, CLASSIC_COUNTERS, HouseMasks, digits_of};
use super::{Dyn, Limits, Observer, Outcome, Silent, Strategy, conflicting_givens_outcome};

/// Backtracking that always branches on the empty cell with the fewest candidates.
pub struct Mrv;

impl Strategy for Mrv {
    fn name(&self) -> &'static str {
        "mrv"
    }

    fn summary(&self) -> &'static str {
        "backtracking on the empty cell with the fewest candidates (ties row-major), values ascending"
    }

    fn search(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        run(puzzle, limits, on_solution, Silent)
    }

    fn search_observed(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
        observer: &mut dyn Observer,
    ) -> Option<Outcome> {
        Some(run(puzzle, limits, on_solution, Dyn(observer)))
    }
}

fn run<O: Observer>(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    if find_conflict(puzzle).is_some() {
        return conflicting_givens_outcome(&CLASSIC_COUNTERS);
    }
    let mut masks = HouseMasks::new(puzzle);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    search_node(&mut search, &mut masks, 0);
    search.finish()
}

/// One call per node. Returns `false` when the search must stop.
fn search_node<O: Observer>(
    search: &mut Backtrack<'_, O>,
    masks: &mut HouseMasks,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let mut best_cell = usize::MAX;
    let mut best_free = 0;
    let mut best_count = u32::MAX;
    for (cell, &value) in search.cells.iter().enumerate() {
        if value != 0 {
            continue;
        }
        let free = masks.free(cell);
        let count = free.count_ones();
        if count < best_count {
            (best_cell, best_free, best_count) = (cell, free, count);
            if count == 0 {
                break;
            }
        }
    }
    if best_cell == usize::MAX {
        return search.solution(depth);
    }
    search.choose(depth, best_cell, best_count as usize);
    if best_free == 0 {
        search.dead_end(depth);
        return true;
    }
    for (value, bit) in digits_of(best_free) {
        masks.toggle(best_cell, bit);
        search.place(depth, best_cell, value);
        if !search_node(search, masks, depth + 1) {
            return false;
        }
        masks.toggle(best_cell, bit);
        search.undo(depth, best_cell, value);
    }
    true
}
