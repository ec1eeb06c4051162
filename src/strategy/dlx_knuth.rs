//! `dlx-knuth`: our own Dancing Links (Knuth, "Dancing Links", 2000; Algorithm X as in his
//! DLX1), the reference exact-cover engine.
//!
//! The matrix is [`CoverMatrix`] (givens pruned). Every item heads a circular vertical list of
//! the nodes that cover it, which dance as in Knuth's paper. Every option has exactly four nodes,
//! stored side by side, so a node's row-mates are found by arithmetic instead of spacer nodes.
//! Knuth's horizontal list of active items is replaced by a flag in each item's length (a
//! covered item's length is frozen, so adding [`COVERED`] marks it and subtracting restores it):
//! choosing the item is then a minimum over one contiguous array, which the compiler vectorises,
//! instead of a walk along a linked list, and picks the same item. At each search node the item with the fewest remaining
//! options is chosen (the first such item in list order: cells, row-digits, column-digits,
//! box-digits), which is the minimum-remaining-values rule and includes hidden singles: a
//! row-digit item with one option left is a digit with one place left in its row.
//!
//! Counters: `nodes` (search-tree nodes, the root included), `placements` (options tried),
//! `backtracks` (options withdrawn) and Knuth's `updates` (nodes unlinked from their item's
//! list while covering).

use crate::encode::CoverMatrix;
use crate::model::Grid;

use super::backtrack::Backtrack;
use super::traced_engine;
use super::{Counter, Event, Limits, Observer, Outcome, Strategy};

/// Dancing Links exact cover, written for sudolab, with Knuth's counters.
pub struct DlxKnuth;

impl Strategy for DlxKnuth {
    /// Variants whose every rule is a house (X, windoku, jigsaw, Latin squares): each house
    /// and digit is one more item.
    fn supports_rules(&self, rules: &crate::model::Rules) -> Result<(), &'static str> {
        crate::encode::exact_cover_takes(rules)
    }

    fn name(&self) -> &'static str {
        "dlx-knuth"
    }

    fn summary(&self) -> &'static str {
        "Knuth's Dancing Links (Algorithm X, fewest-options item first), with nodes and updates counters"
    }

    traced_engine!(run, COUNTERS);
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
    let matrix = CoverMatrix::build(puzzle);
    let mut links = Links::new(&matrix);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    search_level(&mut search, &mut links, &matrix, 0);
    let updates = links.updates;
    let mut outcome = search.finish();
    outcome.stats.set(Counter::Updates, updates);
    outcome
}

/// Added to the length of a covered item: above any real length.
const COVERED: u32 = 1 << 31;

/// The dancing-links structure. Index 0 is unused; `1..=items` are item headers; option `o`
/// has its nodes at `base + start[o] ..` (four for plain Sudoku, more on a variant cell that
/// lies in more houses).
struct Links {
    /// Options left in each item's list, plus [`COVERED`] while the item is covered.
    len: Vec<u32>,
    top: Vec<u32>,
    ulink: Vec<u32>,
    dlink: Vec<u32>,
    base: usize,
    /// The first node of each option, and one past the last option's nodes.
    start: Vec<u32>,
    /// The option of each node (from `base` on).
    option: Vec<u32>,
    updates: u64,
}

impl Links {
    fn new(matrix: &CoverMatrix) -> Links {
        let base = matrix.items.len() + 1;
        let mut start = Vec::with_capacity(matrix.options.len() + 1);
        let mut option_of = Vec::new();
        for (option_idx, option) in matrix.options.iter().enumerate() {
            start.push((base + option_of.len()) as u32);
            option_of.extend(std::iter::repeat_n(option_idx as u32, option.items().len()));
        }
        start.push((base + option_of.len()) as u32);
        let node_count = base + option_of.len();
        let mut links = Links {
            len: vec![0; base],
            top: vec![0; node_count],
            ulink: (0..node_count as u32).collect(),
            dlink: (0..node_count as u32).collect(),
            base,
            start,
            option: option_of,
            updates: 0,
        };
        // Index 0 is no item: mark it covered so that the choice never picks it.
        links.len[0] = COVERED;
        for (option_idx, option) in matrix.options.iter().enumerate() {
            for (k, &item) in option.items().iter().enumerate() {
                let node = links.start[option_idx] as usize + k;
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
        self.option[node - self.base] as usize
    }

    /// The other nodes of `node`'s option, to the right (cyclically).
    #[inline]
    fn right_of(&self, node: usize) -> impl DoubleEndedIterator<Item = usize> + use<> {
        let option = self.option_of(node);
        let (first, end) = (self.start[option] as usize, self.start[option + 1] as usize);
        let width = end - first;
        let k = node - first;
        (1..width).map(move |step| first + (k + step) % width)
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
        for other in self.right_of(node).rev() {
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
        self.len[item] += COVERED;
    }

    fn uncover(&mut self, item: usize) {
        self.len[item] -= COVERED;
        let mut node = self.ulink[item] as usize;
        while node != item {
            self.unhide(node);
            node = self.ulink[node] as usize;
        }
    }

    /// The active item with the fewest options, the first in item order among equals; `None`
    /// when every item is covered.
    #[inline]
    fn choose_item(&self) -> Option<usize> {
        let fewest = self.len.iter().copied().min().unwrap_or(COVERED);
        if fewest >= COVERED {
            return None;
        }
        self.len.iter().position(|&len| len == fewest)
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
    if search.observer.is_active() {
        let event = Event::Cover {
            item: matrix.items[item - 1].to_string(),
        };
        search.observer.event(depth, search.nodes, event);
    }
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
        for other in links.right_of(row).rev() {
            links.uncover(links.top[other] as usize);
        }
        search.undo(depth, option.cell, option.digit);
        row = links.dlink[row] as usize;
    }
    links.uncover(item);
    if search.observer.is_active() {
        let event = Event::Uncover {
            item: matrix.items[item - 1].to_string(),
        };
        search.observer.event(depth, search.nodes, event);
    }
    true
}
