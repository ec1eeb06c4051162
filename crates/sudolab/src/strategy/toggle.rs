//! `toggle`: backtracking over a list of blanks with used-digit tables.
//!
//! Collect the empty cells in row-major order once; keep `row_used`, `col_used` and `box_used`
//! tables; at the `k`-th blank try `1..=n` ascending where all three tables are free; toggle the
//! three entries and the cell on enter, toggle them back on undo. The tables are bit sets, so
//! the allowed values of a blank are one AND of three words, but the order of cells and values,
//! and so the search tree, is the textbook one: identical to `scan`'s.

use crate::model::Grid;

use super::backtrack::{Backtrack, CLASSIC_COUNTERS, HouseMasks, digits_of};
use super::traced_engine;
use super::{Limits, Observer, Outcome, Strategy};

/// Backtracking over the blanks with row, column and box used tables flipped on enter and undo.
pub struct Toggle;

impl Strategy for Toggle {
    fn name(&self) -> &'static str {
        "toggle"
    }

    fn summary(&self) -> &'static str {
        "backtracking over the blanks in row-major order with row/column/box used tables toggled on enter and undo"
    }

    /// Every rule: houses, must-differ and non-consecutive pairs, cages with their sums.
    fn supports_rules(&self, _rules: &crate::model::Rules) -> Result<(), &'static str> {
        Ok(())
    }

    fn refusals(&self) -> super::Refusals {
        super::Refusals::NONE
    }

    fn budget_unit(&self) -> super::WorkUnit {
        super::WorkUnit::Nodes
    }

    fn default_budget(&self) -> Option<u64> {
        Some(100_000_000)
    }

    traced_engine!(run, CLASSIC_COUNTERS);
}

fn run<O: Observer>(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    if let Some(rules) = puzzle.rules() {
        return super::variant::toggle(puzzle, rules, limits, on_solution, observer);
    }
    let blanks: Vec<usize> = (0..puzzle.cells().len())
        .filter(|&cell| puzzle.get(cell) == 0)
        .collect();
    let mut masks = HouseMasks::new(puzzle);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    search_blank(&mut search, &mut masks, &blanks, 0);
    search.finish()
}

/// One call per node: fills blank number `k`. Returns `false` when the search must stop.
fn search_blank<O: Observer>(
    search: &mut Backtrack<'_, O>,
    masks: &mut HouseMasks,
    blanks: &[usize],
    k: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(&cell) = blanks.get(k) else {
        return search.solution(k);
    };
    let free = masks.free(cell);
    search.choose(k, cell, free.count_ones() as usize);
    if free == 0 {
        search.dead_end(k);
        return true;
    }
    for (value, bit) in digits_of(free) {
        masks.toggle(cell, bit);
        search.place(k, cell, value);
        if !search_blank(search, masks, blanks, k + 1) {
            return false;
        }
        masks.toggle(cell, bit);
        search.undo(k, cell, value);
    }
    true
}
