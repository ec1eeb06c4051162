//! `dlx-knuth`: our own Dancing Links (Knuth, "Dancing Links", 2000; Algorithm X as in his
//! DLX1), the reference exact-cover engine.
//!
//! The matrix is [`CoverMatrix`] (givens pruned). Items form a circular list through `llink`
//! and `rlink`; every item heads a circular vertical list of the nodes that cover it. Every
//! option has exactly four nodes, stored side by side, so a node's row-mates are found by
//! arithmetic instead of spacer nodes. At each search node the item with the fewest remaining
//! options is chosen (the first such item in list order: cells, row-digits, column-digits,
//! box-digits), which is the minimum-remaining-values rule and includes hidden singles: a
//! row-digit item with one option left is a digit with one place left in its row.
//!
//! Counters: `nodes` (search-tree nodes, the root included), `placements` (options tried),
//! `backtracks` (options withdrawn) and Knuth's `updates` (nodes unlinked from their item's
//! list while covering).

use crate::encode::CoverMatrix;
use crate::model::{Grid, find_conflict};

use super::backtrack::Backtrack;
use super::{
    Counter, Dyn, Event, Limits, Observer, Outcome, Silent, Strategy, conflicting_givens_outcome,
};

/// Dancing Links exact cover, written for sudolab, with Knuth's counters.
pub struct DlxKnuth;

impl Strategy for DlxKnuth {
    fn name(&self) -> &'static str {
        "dlx-knuth"
    }

    fn summary(&self) -> &'static str {
        "Knuth's Dancing Links (Algorithm X, fewest-options item first), with nodes and updates counters"
    }

    fn counters(&self) -> &'static [Counter] {
        &COUNTERS
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

const COUNTERS: [Counter; 4] = [
    Counter::Nodes,
    Counter::Placements,
    Counter::Backtracks,
    Counter::Updates,
];

fn run<O: Observer>(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    if find_conflict(puzzle).is_some() {
        return conflicting_givens_outcome(&COUNTERS);
    }
    let matrix = CoverMatrix::build(puzzle);
    let mut links = Links::new(&matrix);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    search_level(&mut search, &mut links, &matrix, 0);
    let updates = links.updates;
    let mut outcome = search.finish();
    outcome.stats.set(Counter::Updates, updates);
    outcome
}

/// The dancing-links structure. Index 0 is the root; `1..=items` are item headers; option `o`
/// has its four nodes at `base + 4 * o ..`.
struct Links {
    llink: Vec<u32>,
    rlink: Vec<u32>,
    len: Vec<u32>,
    top: Vec<u32>,
    ulink: Vec<u32>,
    dlink: Vec<u32>,
    base: usize,
    updates: u64,
}

impl Links {
    fn new(matrix: &CoverMatrix) -> Links {
        let item_count = matrix.items.len();
        let base = item_count + 1;
        let node_count = base + 4 * matrix.options.len();
        let mut links = Links {
            llink: (0..=item_count as u32)
                .map(|i| if i == 0 { item_count as u32 } else { i - 1 })
                .collect(),
            rlink: (0..=item_count as u32)
                .map(|i| if i as usize == item_count { 0 } else { i + 1 })
                .collect(),
            len: vec![0; base],
            top: vec![0; node_count],
            ulink: (0..node_count as u32).collect(),
            dlink: (0..node_count as u32).collect(),
            base,
            updates: 0,
        };
        for (option_idx, option) in matrix.options.iter().enumerate() {
            for (k, &item) in option.items.iter().enumerate() {
                let node = base + 4 * option_idx + k;
                let header = item as usize + 1;
                let last = links.ulink[header] as usize;
                links.top[node] = header as u32;
                links.ulink[node] = last as u32;
                links.dlink[node] = header as u32;
                links.dlink[last] = node as u32;
                links.ulink[header] = node as u32;
                links.len[header] += 1;
            }
        }
        links
    }

    /// The option a node belongs to.
    #[inline]
    fn option_of(&self, node: usize) -> usize {
        (node - self.base) / 4
    }

    /// The other three nodes of `node`'s option, to the right (cyclically).
    #[inline]
    fn right_of(&self, node: usize) -> [usize; 3] {
        let start = node - (node - self.base) % 4;
        let k = node - start;
        [
            start + (k + 1) % 4,
            start + (k + 2) % 4,
            start + (k + 3) % 4,
        ]
    }

    /// Removes the other nodes of `node`'s option from their items' lists.
    #[inline]
    fn hide(&mut self, node: usize) {
        for other in self.right_of(node) {
            let (up, down) = (self.ulink[other], self.dlink[other]);
            self.dlink[up as usize] = down;
            self.ulink[down as usize] = up;
            self.len[self.top[other] as usize] -= 1;
            self.updates += 1;
        }
    }

    /// Puts back what [`Links::hide`] removed, in reverse order.
    #[inline]
    fn unhide(&mut self, node: usize) {
        for other in self.right_of(node).into_iter().rev() {
            let (up, down) = (self.ulink[other], self.dlink[other]);
            self.dlink[up as usize] = other as u32;
            self.ulink[down as usize] = other as u32;
            self.len[self.top[other] as usize] += 1;
        }
    }

    fn cover(&mut self, item: usize) {
        let mut node = self.dlink[item] as usize;
        while node != item {
            self.hide(node);
            node = self.dlink[node] as usize;
        }
        let (left, right) = (self.llink[item], self.rlink[item]);
        self.rlink[left as usize] = right;
        self.llink[right as usize] = left;
    }

    fn uncover(&mut self, item: usize) {
        let (left, right) = (self.llink[item], self.rlink[item]);
        self.rlink[left as usize] = item as u32;
        self.llink[right as usize] = item as u32;
        let mut node = self.ulink[item] as usize;
        while node != item {
            self.unhide(node);
            node = self.ulink[node] as usize;
        }
    }

    /// The active item with the fewest options, the first in list order among equals; `None`
    /// when every item is covered.
    #[inline]
    fn choose_item(&self) -> Option<usize> {
        let mut item = self.rlink[0] as usize;
        if item == 0 {
            return None;
        }
        let mut best = item;
        let mut best_len = self.len[item];
        while item != 0 && best_len > 0 {
            if self.len[item] < best_len {
                best = item;
                best_len = self.len[item];
            }
            item = self.rlink[item] as usize;
        }
        Some(best)
    }
}

/// One call per search node. Returns `false` when the search must stop.
fn search_level<O: Observer>(
    search: &mut Backtrack<'_, O>,
    links: &mut Links,
    matrix: &CoverMatrix,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(item) = links.choose_item() else {
        return search.solution(depth);
    };
    if search.observer.is_active() {
        let event = Event::ChooseItem {
            item: matrix.items[item - 1].to_string(),
            options: links.len[item] as usize,
        };
        search.observer.event(depth, search.nodes, event);
    }
    if links.len[item] == 0 {
        search.dead_end(depth);
        return true;
    }
    links.cover(item);
    let mut row = links.dlink[item] as usize;
    while row != item {
        let option = matrix.options[links.option_of(row)];
        search.place(depth, option.cell, option.digit);
        for other in links.right_of(row) {
            links.cover(links.top[other] as usize);
        }
        if !search_level(search, links, matrix, depth + 1) {
            return false;
        }
        for other in links.right_of(row).into_iter().rev() {
            links.uncover(links.top[other] as usize);
        }
        search.undo(depth, option.cell, option.digit);
        row = links.dlink[row] as usize;
    }
    links.uncover(item);
    true
}
