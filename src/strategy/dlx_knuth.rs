//! `dlx-knuth`: our own Dancing Links (Knuth, "Dancing Links", 2000; Algorithm X laid out as
//! in his DLX1), the reference exact-cover engine.
//!
//! The matrix is [`CoverMatrix`]. As in DLX1, every node lives in one array of small records
//! (up, down, item, option): item headers first, then each option's nodes side by side between
//! spacer nodes, so an option of any length is walked by `+ 1` and `- 1`, the spacers leading
//! back to its first or last node. Knuth's horizontal list of active items is replaced by a
//! flag in each item's length (a covered item's length is frozen, so adding [`COVERED`] marks it
//! and subtracting restores it), one byte per item: choosing the item is then a minimum over one
//! contiguous array, which the compiler vectorises, and picks the same item. At each search node
//! the item with the fewest remaining options is chosen (the first such item in list order:
//! cells, row-digits, column-digits, box-digits), which is the minimum-remaining-values rule and
//! includes hidden singles: a row-digit item with one option left is a digit with one place left
//! in its row.
//!
//! Each thread keeps the links of the blank grid of every shape up to [`CACHED_MAX_SIDE`] between
//! searches (as kudoku keeps its one 9x9 matrix): a search selects the givens' options (covers
//! their items), searches, and deselects them, which by the dancing-links property puts every
//! link back. The state the search starts from is then exactly the matrix with the givens pruned
//! (the same active items and options, in the same order), so the tree and every counter are
//! those of a matrix built for the puzzle, which larger shapes still get.
//!
//! Counters: `nodes` (search-tree nodes, the root included), `placements` (options tried),
//! `backtracks` (options withdrawn) and Knuth's `updates` (nodes unlinked from their item's
//! list while covering; the givens' selection is not counted).

use std::cell::RefCell;

use crate::encode::{CoverMatrix, Item};
use crate::model::{Grid, Shape};

use super::backtrack::Backtrack;
use super::traced_engine;
use super::{Counter, Event, Limits, Observer, Outcome, Strategy};

/// Dancing Links exact cover, written for sudolab, with Knuth's counters.
pub struct DlxKnuth;

impl Strategy for DlxKnuth {
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

/// The largest side whose blank-grid links each thread keeps between searches (a 16x16 matrix
/// has 4,096 options, about 100 KB of links); larger shapes build the pruned matrix per search.
const CACHED_MAX_SIDE: usize = 16;

/// How many shapes each thread keeps links for.
const CACHED_SHAPES: usize = 4;

thread_local! {
    /// Blank-grid links by shape, taken out for a search and put back pristine after it (a
    /// search that panics drops them; the next one rebuilds).
    static CACHE: RefCell<Vec<Links>> = const { RefCell::new(Vec::new()) };
}

fn run<O: Observer>(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let shape = puzzle.shape();
    if shape.side() > CACHED_MAX_SIDE {
        let mut links = Links::new(shape, &CoverMatrix::build(puzzle));
        return search(&mut links, puzzle, limits, on_solution, observer);
    }
    let mut links = take_cached(shape);
    let outcome = if links.select_givens(puzzle) {
        search(&mut links, puzzle, limits, on_solution, observer)
    } else {
        // Conflicting givens, which `answer_without_search` answers before we get here.
        let mut outcome = Backtrack::new(puzzle, limits, on_solution, observer).finish();
        outcome.stats.set(Counter::Updates, 0);
        outcome
    };
    links.deselect_givens();
    put_back(links);
    outcome
}

/// The search from the links' current state, which it leaves as it found it.
fn search<O: Observer>(
    links: &mut Links,
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    links.updates = 0;
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    search_level(&mut search, links, 0);
    let mut outcome = search.finish();
    outcome.stats.set(Counter::Updates, links.updates);
    outcome
}

/// The blank-grid links of `shape`, from this thread's cache or new.
fn take_cached(shape: Shape) -> Links {
    let cached = CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let idx = cache.iter().position(|links| links.shape == shape)?;
        Some(cache.swap_remove(idx))
    });
    // The blank grid of the puzzle's kind: with rules beyond the shape (variants), the cache
    // key and this grid must carry them too.
    cached.unwrap_or_else(|| Links::new(shape, &CoverMatrix::build(&Grid::empty(shape))))
}

fn put_back(links: Links) {
    debug_assert!(links.selected.is_empty(), "the givens are deselected");
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHED_SHAPES {
            cache.remove(0);
        }
        cache.push(links);
    });
}

/// Added to the length of a covered item: above any real length (an item has at most 64
/// options, one per digit or per cell of a house).
const COVERED: u8 = 0x80;

/// The `item` of a spacer node.
const SPACER: u32 = u32::MAX;

/// Item lengths are scanned in chunks of this many bytes (the array is padded with covered
/// entries to a whole number of chunks).
const LANES: usize = 32;

/// One node of the links: an item header (its own index as `item`), an option's node, or a
/// spacer between options (`item == SPACER`; `up` is the first node of the option before it,
/// `down` the last node of the option after it, as in DLX1).
#[derive(Clone, Copy, Debug)]
struct Node {
    up: u32,
    down: u32,
    item: u32,
    option: u32,
}

/// The dancing-links structure: nodes `0..items` are the item headers.
struct Links {
    shape: Shape,
    /// The items, for the trace's events.
    items: Vec<Item>,
    /// Options left in each item's list, plus [`COVERED`] while the item is covered; padded
    /// with covered entries to a multiple of [`LANES`].
    len: Vec<u8>,
    nodes: Vec<Node>,
    /// The cell and digit of each option.
    placements: Vec<(u32, u8)>,
    /// The first node of each option.
    first_node: Vec<u32>,
    /// `option_at[cell * side + digit - 1]`: the option writing `digit` in `cell`, if any.
    option_at: Vec<u32>,
    /// The givens' options selected by [`Links::select_givens`], in order.
    selected: Vec<u32>,
    updates: u64,
}

impl Links {
    /// The links of `matrix`, whatever the number of items of each option.
    fn new(shape: Shape, matrix: &CoverMatrix) -> Links {
        let item_count = matrix.items.len();
        let side = shape.side();
        let mut links = Links {
            shape,
            items: matrix.items.clone(),
            len: vec![COVERED; item_count.div_ceil(LANES) * LANES],
            nodes: (0..item_count as u32)
                .map(|header| Node {
                    up: header,
                    down: header,
                    item: header,
                    option: u32::MAX,
                })
                .collect(),
            placements: Vec::with_capacity(matrix.options.len()),
            first_node: Vec::with_capacity(matrix.options.len()),
            option_at: vec![u32::MAX; shape.cell_count() * side],
            selected: Vec::new(),
            updates: 0,
        };
        let mut counts = vec![0u32; item_count];
        let spacer = |up: u32| Node {
            up,
            down: 0,
            item: SPACER,
            option: u32::MAX,
        };
        links.nodes.push(spacer(0));
        for (option_idx, option) in matrix.options.iter().enumerate() {
            let first = links.nodes.len() as u32;
            for &item in option.items.iter() {
                let node = links.nodes.len() as u32;
                let last = links.nodes[item as usize].up;
                links.nodes.push(Node {
                    up: last,
                    down: item,
                    item,
                    option: option_idx as u32,
                });
                links.nodes[last as usize].down = node;
                links.nodes[item as usize].up = node;
                counts[item as usize] += 1;
            }
            let last = links.nodes.len() as u32 - 1;
            let previous_spacer = first as usize - 1;
            links.nodes[previous_spacer].down = last;
            links.nodes.push(spacer(first));
            links.placements.push((option.cell as u32, option.digit));
            links.first_node.push(first);
            links.option_at[option.cell * side + option.digit as usize - 1] = option_idx as u32;
        }
        for (len, count) in links.len.iter_mut().zip(counts) {
            *len = u8::try_from(count)
                .ok()
                .filter(|&count| count < COVERED)
                .expect("an item has at most 64 options: sides are at most 64");
        }
        links
    }

    /// Selects the option of every given (covers its items), as the search selects an option;
    /// `false` (with what was selected still recorded) when two givens conflict.
    fn select_givens(&mut self, puzzle: &Grid) -> bool {
        let side = self.shape.side();
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let option = self.option_at[cell * side + digit as usize - 1];
            // An option is hidden exactly when one of its items is covered.
            let first = self.first_node[option as usize] as usize;
            if self.option_nodes(first).any(|node| self.is_covered(node)) {
                return false;
            }
            self.selected.push(option);
            for node in first..first + self.option_nodes(first).count() {
                self.cover(self.nodes[node].item as usize);
            }
        }
        true
    }

    /// Undoes [`Links::select_givens`], in reverse order.
    fn deselect_givens(&mut self) {
        while let Some(option) = self.selected.pop() {
            let first = self.first_node[option as usize] as usize;
            let count = self.option_nodes(first).count();
            for node in (first..first + count).rev() {
                self.uncover(self.nodes[node].item as usize);
            }
        }
    }

    /// The nodes of the option that starts at node `first`.
    fn option_nodes(&self, first: usize) -> impl Iterator<Item = usize> + '_ {
        (first..).take_while(|&node| self.nodes[node].item != SPACER)
    }

    fn is_covered(&self, node: usize) -> bool {
        self.len[self.nodes[node].item as usize] >= COVERED
    }

    /// Removes the other nodes of `node`'s option from their items' lists.
    #[inline]
    fn hide(&mut self, node: usize) {
        let mut other = node + 1;
        while other != node {
            let Node { up, down, item, .. } = self.nodes[other];
            if item == SPACER {
                other = up as usize;
                continue;
            }
            self.nodes[up as usize].down = down;
            self.nodes[down as usize].up = up;
            self.len[item as usize] -= 1;
            self.updates += 1;
            other += 1;
        }
    }

    /// Puts back what [`Links::hide`] removed (each node into a different item's list, so in
    /// any order).
    #[inline]
    fn unhide(&mut self, node: usize) {
        let mut other = node + 1;
        while other != node {
            let Node { up, down, item, .. } = self.nodes[other];
            if item == SPACER {
                other = up as usize;
                continue;
            }
            self.nodes[up as usize].down = other as u32;
            self.nodes[down as usize].up = other as u32;
            self.len[item as usize] += 1;
            other += 1;
        }
    }

    fn cover(&mut self, item: usize) {
        let mut node = self.nodes[item].down as usize;
        while node != item {
            self.hide(node);
            node = self.nodes[node].down as usize;
        }
        self.len[item] += COVERED;
    }

    fn uncover(&mut self, item: usize) {
        self.len[item] -= COVERED;
        let mut node = self.nodes[item].up as usize;
        while node != item {
            self.unhide(node);
            node = self.nodes[node].up as usize;
        }
    }

    /// Covers the items of `node`'s option other than its own, left to right (cyclically).
    #[inline]
    fn cover_others(&mut self, node: usize) {
        let mut other = node + 1;
        while other != node {
            let Node { up, item, .. } = self.nodes[other];
            if item == SPACER {
                other = up as usize;
                continue;
            }
            self.cover(item as usize);
            other += 1;
        }
    }

    /// Undoes [`Links::cover_others`]: right to left.
    #[inline]
    fn uncover_others(&mut self, node: usize) {
        let mut other = node - 1;
        while other != node {
            let Node { down, item, .. } = self.nodes[other];
            if item == SPACER {
                other = down as usize;
                continue;
            }
            self.uncover(item as usize);
            other -= 1;
        }
    }

    /// The active item with the fewest options, the first in item order among equals; `None`
    /// when every item is covered.
    #[inline]
    fn choose_item(&self) -> Option<usize> {
        let fewest = self
            .len
            .iter()
            .fold(u8::MAX, |fewest, &len| fewest.min(len));
        if fewest >= COVERED {
            return None;
        }
        // The first chunk holding it, found a whole chunk at a time, then the place in it.
        let (chunk_idx, chunk) = self
            .len
            .chunks_exact(LANES)
            .enumerate()
            .find(|(_, chunk)| {
                chunk
                    .iter()
                    .fold(0, |hits, &len| hits | u8::from(len == fewest))
                    != 0
            })?;
        let within = chunk.iter().position(|&len| len == fewest)?;
        Some(chunk_idx * LANES + within)
    }
}

/// One call per search node. Returns `false` when the search must stop; either way the links
/// are left as they were found (without counting the withdrawn options of a stopped search).
fn search_level<O: Observer>(
    search: &mut Backtrack<'_, O>,
    links: &mut Links,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(item) = links.choose_item() else {
        return search.solution(depth);
    };
    let options = links.len[item];
    if search.observer.is_active() {
        let event = Event::ChooseItem {
            item: links.items[item].to_string(),
            options: options as usize,
        };
        search.observer.event(depth, search.nodes, event);
    }
    if options == 0 {
        search.dead_end(depth);
        return true;
    }
    links.cover(item);
    if search.observer.is_active() {
        let event = Event::Cover {
            item: links.items[item].to_string(),
        };
        search.observer.event(depth, search.nodes, event);
    }
    let mut go_on = true;
    let mut row = links.nodes[item].down as usize;
    while row != item {
        let (cell, digit) = links.placements[links.nodes[row].option as usize];
        search.place(depth, cell as usize, digit);
        links.cover_others(row);
        go_on = search_level(search, links, depth + 1);
        links.uncover_others(row);
        if !go_on {
            break;
        }
        search.undo(depth, cell as usize, digit);
        row = links.nodes[row].down as usize;
    }
    links.uncover(item);
    if go_on && search.observer.is_active() {
        let event = Event::Uncover {
            item: links.items[item].to_string(),
        };
        search.observer.event(depth, search.nodes, event);
    }
    go_on
}
