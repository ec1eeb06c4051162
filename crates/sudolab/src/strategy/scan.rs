//! `scan`: plain backtracking as the textbooks write it.
//!
//! Recursion over the cells in row-major order; at the first empty cell try `1..=n` ascending;
//! a value is allowed when scanning its row, column and box finds no equal value. No auxiliary
//! tables: every test reads the board. It explores exactly the same tree as `toggle`, so both
//! report the same `nodes`, `placements` and `backtracks` on every puzzle; only the cost per
//! node differs.

use crate::model::{Grid, Shape};

use super::backtrack::{Backtrack, CLASSIC_COUNTERS};
use super::traced_engine;
use super::{Limits, Observer, Outcome, Strategy};

/// Plain row-major backtracking that checks each value by scanning the board.
pub struct Scan;

impl Strategy for Scan {
    fn name(&self) -> &'static str {
        "scan"
    }

    fn summary(&self) -> &'static str {
        "plain backtracking: row-major cells, values ascending, each checked by scanning row, column and box"
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
        Some(5_000_000)
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
        return super::variant::scan(puzzle, rules, limits, on_solution, observer);
    }
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    search_from(&mut search, puzzle.shape(), 0, 0);
    search.finish()
}

/// One call per node: finds the first empty cell at or after `from` and tries every allowed
/// value there. Returns `false` when the search must stop.
fn search_from<O: Observer>(
    search: &mut Backtrack<'_, O>,
    shape: Shape,
    from: usize,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(cell) = (from..search.cells.len()).find(|&cell| search.cells[cell] == 0) else {
        return search.solution(depth);
    };
    let side = shape.side() as u8;
    if search.observer.is_active() {
        let candidates = (1..=side)
            .filter(|&value| is_allowed(&search.cells, shape, cell, value))
            .count();
        search.choose(depth, cell, candidates);
    }
    let mut tried_any = false;
    for value in 1..=side {
        if !is_allowed(&search.cells, shape, cell, value) {
            continue;
        }
        tried_any = true;
        search.place(depth, cell, value);
        if !search_from(search, shape, cell + 1, depth + 1) {
            return false;
        }
        search.undo(depth, cell, value);
    }
    if !tried_any {
        search.dead_end(depth);
    }
    true
}

/// Whether `value` appears nowhere in the row, column and box of `cell`, by scanning them.
fn is_allowed(cells: &[u8], shape: Shape, cell: usize, value: u8) -> bool {
    let side = shape.side();
    let (row, col) = (cell / side, cell % side);
    let row_cells = &cells[row * side..(row + 1) * side];
    if row_cells.contains(&value) {
        return false;
    }
    if (0..side).any(|other_row| cells[other_row * side + col] == value) {
        return false;
    }
    let top = row - row % shape.box_rows();
    let left = col - col % shape.box_cols();
    !(top..top + shape.box_rows()).any(|box_row| {
        cells[box_row * side + left..box_row * side + left + shape.box_cols()].contains(&value)
    })
}
