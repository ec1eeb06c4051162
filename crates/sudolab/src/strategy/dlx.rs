//! `dlx`: exact cover through the `dlx-rs` crate.
//!
//! The matrix is [`CoverMatrix`]: 4 n^2 items less those the givens cover, one option per
//! candidate of each empty cell. The crate's own sudoku helper is square-only and names options
//! with strings, so the generic `Solver` is used for every shape, with option indices as names.
//!
//! Limits of the crate, designed around here:
//! - it exposes no node or update counter, so `dlx` reports only `items`, `options` and
//!   `solutions_enumerated` (no `nodes`: absent, not zero), and a node budget does not apply;
//! - its search cannot be interrupted between two solutions, so it runs on a thread of its own
//!   that is abandoned at the deadline or on cancellation (see `detach`); only on plain Sudoku
//!   up to 9x9, where every search takes milliseconds, it runs on the caller's thread and the
//!   clock is read after each solution (a 9x9 variant can take seconds between two);
//! - `select()` of two conflicting options silently yields a wrong solution and item 0 loops
//!   forever, so givens are pruned from the matrix (never selected), conflicting givens are
//!   answered before the crate is called, and items are numbered from 1.

use std::sync::Arc;

use dlx_rs::Solver;

use crate::encode::CoverMatrix;
use crate::model::{Grid, Shape};

use super::detach;
use super::{
    Budget, Counter, Limits, Outcome, Refusals, RuleKind, Solutions, Stats, Strategy, Unsupported,
    answer_without_search,
};

/// The largest side `dlx` accepts. Its search cannot be stopped, only abandoned at the deadline
/// on its own thread, where it holds a core until it ends: on the minimal 25x25 puzzles of the
/// bundled corpus it did not finish in minutes, on minimal 16x16 it takes at most 0.4 s.
pub const MAX_DLX_RS_SIDE: usize = 16;

const COUNTERS: [Counter; 3] = [
    Counter::Items,
    Counter::Options,
    Counter::SolutionsEnumerated,
];

/// Exact cover (Algorithm X with dancing links) by the `dlx-rs` crate.
pub struct Dlx;

impl Strategy for Dlx {
    /// Variants without cages: each house and digit is one more item, and each pair of cells
    /// (anti-king, anti-knight, non-consecutive) brings secondary items.
    fn supports_rules(&self, rules: &crate::model::Rules) -> Result<(), &'static str> {
        crate::encode::exact_cover_takes(rules)
    }

    fn refusals(&self) -> Refusals {
        Refusals {
            max_side: Some(MAX_DLX_RS_SIDE),
            rules: &[RuleKind::Cages],
        }
    }

    fn name(&self) -> &'static str {
        "dlx"
    }

    fn summary(&self) -> &'static str {
        "exact cover with the dlx-rs crate (Algorithm X, MRV item choice); no node counter or work budget; abandoned at its deadline above 9x9 and on variants"
    }

    fn untraceable_reason(&self) -> &'static str {
        "its search runs inside the dlx-rs crate, which reports no events; dlx-knuth is the same \
         algorithm (Knuth's dancing links) with events"
    }

    fn counters(&self) -> &'static [Counter] {
        &COUNTERS
    }

    /// None: `dlx_rs::Solver::solve` runs Algorithm X's steps X2 to X8 in a private loop that
    /// returns only with a solution or at the end of the tree, calls nothing of ours on the
    /// way (the option names are only cloned into a solution) and exposes no counter, so no
    /// unit of its work can be counted or stopped at. Only the wall-clock timeout stops it;
    /// `dlx-knuth` is the same algorithm with a work budget in updates.
    fn budget_unit(&self) -> super::WorkUnit {
        super::WorkUnit::None
    }

    fn supports(&self, shape: Shape) -> Result<(), Unsupported> {
        if shape.side() > MAX_DLX_RS_SIDE {
            return Err(Unsupported {
                side: shape.side(),
                max_side: MAX_DLX_RS_SIDE,
                uninterruptible: "dlx-rs cannot be stopped inside a search, only abandoned on its thread",
                risk: "a search may not end",
                instead: "dlx-knuth takes any size",
            });
        }
        Ok(())
    }

    fn search(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        if let Some(outcome) = answer_without_search(self, puzzle) {
            return outcome;
        }
        let budget = Budget::without_work(limits);
        let mut solutions = Solutions::new(limits, on_solution);
        let matrix = CoverMatrix::build(puzzle);
        let mut stats = Stats::new();
        stats.set(Counter::Items, matrix.items.len() as u64);
        stats.set(Counter::Options, matrix.options.len() as u64);
        // An item no option covers (an empty cell with no candidate, a digit with no place in
        // a house) means no solution; dlx-rs itself indexes past its empty solution stack on
        // such a matrix and panics, so the answer must be given here, before it is called.
        // (Only primary items must be covered; a variant's pairs are secondary.)
        let mut covered = vec![false; matrix.primary];
        for option in &matrix.options {
            for &item in option.items() {
                covered[item as usize] = true;
            }
        }
        let dead_item = covered.contains(&false);
        let mut stopped = budget.check_clock().err();
        if stopped.is_none() && !dead_item {
            let matrix = Arc::new(matrix);
            let thread_matrix = Arc::clone(&matrix);
            let search = move |emit: &mut dyn FnMut(Vec<u32>) -> bool| {
                let primary = thread_matrix.primary;
                let mut solver: Solver<u32> = if primary == thread_matrix.items.len() {
                    Solver::new(primary)
                } else {
                    // Its optional items are numbered after the mandatory ones, as ours are.
                    Solver::new_optional(primary, thread_matrix.items.len() - primary)
                };
                let mut item_numbers = Vec::with_capacity(4);
                for (option_idx, option) in thread_matrix.options.iter().enumerate() {
                    item_numbers.clear();
                    // dlx-rs numbers items from 1; item 0 is its root.
                    item_numbers.extend(option.items().iter().map(|&item| item as usize + 1));
                    let secondary = thread_matrix.secondary_of(option_idx);
                    item_numbers.extend(secondary.iter().map(|&item| item as usize + 1));
                    solver.add_option(option_idx as u32, &item_numbers);
                }
                for chosen in solver {
                    if !emit(chosen) {
                        break;
                    }
                }
            };
            let abandonable = !detach::known_short(puzzle);
            stopped = detach::run(&budget, abandonable, search, &mut |chosen| {
                let mut grid = puzzle.clone().without_rules();
                for option_idx in chosen {
                    let option = matrix.options[option_idx as usize];
                    grid.set(option.cell, option.digit);
                }
                solutions.report(&grid)
            })
            .err();
        }
        stats.set(Counter::SolutionsEnumerated, solutions.found());
        Outcome {
            found: solutions.found(),
            stopped,
            stats,
        }
    }
}
