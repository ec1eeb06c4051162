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
//! cells, row-digits, column-digits, box-digits, then a variant's other houses), which is the minimum-remaining-values rule and
//! includes hidden singles: a row-digit item with one option left is a digit with one place left
//! in its row.
//!
//! Each thread keeps, per shape up to [`CACHED_MAX_SIDE`], the matrix of the blank grid
//! flattened (each option's items, each item's options) and the link buffers (as kudoku keeps
//! its one 9x9 matrix). A search builds its links in those buffers: the givens' items are
//! covered, the options that share an item with a given are left out, and the rest are linked in
//! matrix order. That is exactly the state of links built from the puzzle's own pruned matrix
//! (the same active items and options, in the same order), so the tree and every counter are
//! those of the pruned matrix, which larger shapes still build per search. A search that stops
//! (solution limit, budget) returns at once and leaves its links as they are: the next search
//! builds them again.
//!
//! Counters: `nodes` (search-tree nodes, the root included), `placements` (options tried),
//! `backtracks` (options withdrawn) and Knuth's `updates` (nodes unlinked from their item's
//! list while covering; the givens are pruned, not covered, so they cost no updates).

use std::cell::RefCell;
use std::sync::Arc;

use crate::encode::{CoverMatrix, CoverOption, Item};
use crate::model::{Grid, Rules, Shape};

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

    /// Variants without cages: each house and digit is one more item, and each pair of cells
    /// (anti-king, anti-knight, non-consecutive) brings secondary items.
    fn supports_rules(&self, rules: &Rules) -> Result<(), &'static str> {
        crate::encode::exact_cover_takes(rules)
    }

    traced_engine!(run, COUNTERS);
}

const COUNTERS: [Counter; 4] = [
    Counter::Nodes,
    Counter::Placements,
    Counter::Backtracks,
    Counter::Updates,
];

/// The largest side whose blank-grid matrix each thread keeps between searches (a 16x16
/// matrix has 4,096 options); larger shapes build the pruned matrix per search.
const CACHED_MAX_SIDE: usize = 16;

/// How many shapes each thread keeps a matrix for.
const CACHED_SHAPES: usize = 4;

thread_local! {
    /// Blank-grid matrices and link buffers by shape, taken out for a search and put back
    /// after it (a search that panics drops them; the next one builds them again).
    static CACHE: RefCell<Vec<(Matrix, Links)>> = const { RefCell::new(Vec::new()) };
}

fn run<O: Observer>(
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let shape = puzzle.shape();
    if shape.side() > CACHED_MAX_SIDE {
        let matrix = Matrix::new(shape, &CoverMatrix::build(puzzle));
        let mut links = Links::default();
        links.build(&matrix, &Grid::empty(shape));
        return search(&mut links, &matrix, puzzle, limits, on_solution, observer);
    }
    let (matrix, mut links) = take_cached(puzzle);
    let outcome = if links.build(&matrix, puzzle) {
        search(&mut links, &matrix, puzzle, limits, on_solution, observer)
    } else {
        // Conflicting givens, which `answer_without_search` answers before we get here.
        let mut outcome = Backtrack::new(puzzle, limits, on_solution, observer).finish();
        outcome.stats.set(Counter::Updates, 0);
        outcome
    };
    put_back(matrix, links);
    outcome
}

/// The search from the links as built.
fn search<O: Observer>(
    links: &mut Links,
    matrix: &Matrix,
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    let mut dance = Dance {
        len: &mut links.len,
        nodes: &mut links.nodes,
        primary: matrix.primary_padded,
        updates: 0,
    };
    search_level(&mut search, &mut dance, matrix, 0);
    let mut outcome = search.finish();
    outcome.stats.set(Counter::Updates, dance.updates);
    outcome
}

/// The blank-grid matrix of `puzzle`'s shape and rules, and link buffers, from this thread's
/// cache or new: a variant's matrix has its extra houses' items, so the rules are part of the
/// key (compared by pointer first: the puzzles of one file share one `Rules`).
fn take_cached(puzzle: &Grid) -> (Matrix, Links) {
    let shape = puzzle.shape();
    let rules = puzzle.rules();
    let same_rules = |cached: Option<&Arc<Rules>>| match (cached, rules) {
        (None, None) => true,
        (Some(cached), Some(rules)) => Arc::ptr_eq(cached, rules) || cached == rules,
        _ => false,
    };
    let cached = CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let idx = cache
            .iter()
            .position(|(matrix, _)| matrix.shape == shape && same_rules(matrix.rules.as_ref()))?;
        Some(cache.swap_remove(idx))
    });
    cached.unwrap_or_else(|| {
        let blank = match rules {
            Some(rules) => Grid::empty_with_rules(Arc::clone(rules)),
            None => Grid::empty(shape),
        };
        let mut matrix = Matrix::new(shape, &CoverMatrix::build(&blank));
        matrix.rules = rules.cloned();
        (matrix, Links::default())
    })
}

fn put_back(matrix: Matrix, links: Links) {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHED_SHAPES {
            cache.remove(0);
        }
        cache.push((matrix, links));
    });
}

/// Added to the length of a covered item: above any real length (an item has at most 64
/// options, one per digit or per cell of a house).
const COVERED: u8 = 0x80;

/// One in every byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The `item` of a spacer node.
const SPACER: u32 = u32::MAX;

/// Item lengths are scanned in chunks of this many bytes (the array is padded with covered
/// entries to a whole number of chunks).
const LANES: usize = 32;

/// The items an option covers: the one place that reads [`CoverOption::items`] (four on plain
/// Sudoku, more on a variant's cells that lie in more houses; any number works from here on).
fn items_of(option: &CoverOption) -> &[u32] {
    option.items()
}

/// A [`CoverMatrix`] flattened for building links: each option's items, whatever their number,
/// side by side.
struct Matrix {
    shape: Shape,
    /// The variant's rules the matrix was built for (`None`: plain Sudoku).
    rules: Option<Arc<Rules>>,
    /// The primary items, for the trace's events (only they are chosen).
    items: Vec<Item>,
    /// Item slots: the primary items, padding up to a whole number of [`LANES`] (headers and
    /// covered lengths no option touches), then the secondary items, which the choice of an
    /// item never scans.
    primary_padded: usize,
    item_slots: usize,
    /// The items of option `o` are `option_items[option_start[o]..option_start[o + 1]]`.
    option_items: Vec<u32>,
    option_start: Vec<u32>,
    /// The cell and digit of each option.
    placements: Vec<(u32, u8)>,
    /// `option_at[cell * side + digit - 1]`: the option writing `digit` in `cell`, if any.
    option_at: Vec<u32>,
    /// The options of item `i` are `item_options[item_start[i]..item_start[i + 1]]`.
    item_options: Vec<u32>,
    item_start: Vec<u32>,
}

impl Matrix {
    fn new(shape: Shape, cover: &CoverMatrix) -> Matrix {
        let side = shape.side();
        let primary_padded = cover.primary.div_ceil(LANES) * LANES;
        let item_slots = primary_padded + cover.items.len() - cover.primary;
        // Secondary items move past the padding.
        let slot = |item: u32| {
            if (item as usize) < cover.primary {
                item
            } else {
                (item as usize - cover.primary + primary_padded) as u32
            }
        };
        let mut matrix = Matrix {
            shape,
            rules: None,
            items: cover.items[..cover.primary].to_vec(),
            primary_padded,
            item_slots,
            option_items: Vec::new(),
            option_start: vec![0],
            placements: Vec::with_capacity(cover.options.len()),
            option_at: vec![u32::MAX; shape.cell_count() * side],
            item_options: Vec::new(),
            item_start: Vec::new(),
        };
        let mut options_of_item = vec![Vec::new(); item_slots];
        for (option_idx, option) in cover.options.iter().enumerate() {
            let start = matrix.option_items.len();
            matrix.option_items.extend_from_slice(items_of(option));
            let secondary = cover
                .secondary_of(option_idx)
                .iter()
                .map(|&item| slot(item));
            matrix.option_items.extend(secondary);
            matrix.option_start.push(matrix.option_items.len() as u32);
            matrix.placements.push((option.cell as u32, option.digit));
            matrix.option_at[option.cell * side + option.digit as usize - 1] = option_idx as u32;
            for &item in &matrix.option_items[start..] {
                options_of_item[item as usize].push(option_idx as u32);
            }
        }
        matrix.item_start.push(0);
        for options in options_of_item {
            assert!(
                options.len() < COVERED as usize,
                "an item has at most 64 options (sides are at most 64), below the covered flag"
            );
            matrix.item_options.extend(options);
            matrix.item_start.push(matrix.item_options.len() as u32);
        }
        matrix
    }

    /// The options of item `item`.
    #[inline]
    fn options_of(&self, item: usize) -> &[u32] {
        &self.item_options[self.item_start[item] as usize..self.item_start[item + 1] as usize]
    }

    /// The items of option `option`.
    #[inline]
    fn items_of(&self, option: usize) -> &[u32] {
        &self.option_items
            [self.option_start[option] as usize..self.option_start[option + 1] as usize]
    }
}

/// One node of the links: an item header (its own index as `item`), an option's node, or a
/// spacer between options (`item == SPACER`; `up` is the first node of the option before it,
/// `down` the last node of the option after it, as in DLX1).
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    up: u32,
    down: u32,
    item: u32,
    option: u32,
}

/// The dancing-links structure: nodes `0..items` are the item headers.
#[derive(Default)]
struct Links {
    /// Options left in each item's list, plus [`COVERED`] while the item is covered; padded
    /// with covered entries to a multiple of [`LANES`].
    len: Vec<u8>,
    nodes: Vec<Node>,
    /// The options that share an item with a given (built per search).
    pruned: Vec<bool>,
}

impl Links {
    /// The links of `matrix` with the givens of `puzzle` pruned: their items covered, and only
    /// the options none of whose items is covered, in matrix order. The same state as links
    /// built from the puzzle's own (pruned) matrix. `false` when two givens conflict.
    fn build(&mut self, matrix: &Matrix, puzzle: &Grid) -> bool {
        let item_count = matrix.item_slots;
        self.len.clear();
        self.len.resize(item_count, 0);
        self.len[matrix.items.len()..matrix.primary_padded].fill(COVERED);
        let side = matrix.shape.side();
        self.pruned.clear();
        self.pruned.resize(matrix.placements.len(), false);
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let option = matrix.option_at[cell * side + digit as usize - 1];
            if option == u32::MAX {
                return false;
            }
            for &item in matrix.items_of(option as usize) {
                if self.len[item as usize] == COVERED {
                    return false;
                }
                self.len[item as usize] = COVERED;
                for &pruned in matrix.options_of(item as usize) {
                    self.pruned[pruned as usize] = true;
                }
            }
        }
        // Every node is written by index into a buffer sized once for the whole matrix.
        let node_count = item_count + matrix.option_items.len() + matrix.placements.len() + 1;
        if self.nodes.len() < node_count {
            self.nodes.resize(node_count, Node::default());
        }
        for (header, node) in self.nodes[..item_count].iter_mut().enumerate() {
            let header = header as u32;
            *node = Node {
                up: header,
                down: header,
                item: header,
                option: u32::MAX,
            };
        }
        let spacer = |up: u32| Node {
            up,
            down: 0,
            item: SPACER,
            option: u32::MAX,
        };
        let mut next = item_count;
        self.nodes[next] = spacer(0);
        next += 1;
        for (option, &pruned) in self.pruned.iter().enumerate() {
            if pruned {
                continue;
            }
            let items = matrix.items_of(option);
            let first = next;
            for &item in items {
                let last = self.nodes[item as usize].up;
                self.nodes[next] = Node {
                    up: last,
                    down: item,
                    item,
                    option: option as u32,
                };
                self.nodes[last as usize].down = next as u32;
                self.nodes[item as usize].up = next as u32;
                self.len[item as usize] += 1;
                next += 1;
            }
            self.nodes[first - 1].down = next as u32 - 1;
            self.nodes[next] = spacer(first as u32);
            next += 1;
        }
        true
    }
}

/// The links during a search: the node and length arrays as separate borrows, so that the
/// compiler knows a write to one leaves the other alone.
struct Dance<'a> {
    len: &'a mut [u8],
    nodes: &'a mut [Node],
    /// The lengths the choice scans: the primary items and their padding.
    primary: usize,
    updates: u64,
}

impl Dance<'_> {
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

    /// Puts back what [`Dance::hide`] removed (each node into a different item's list, so in
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

    /// Undoes [`Dance::cover_others`]: right to left.
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
        let primary = &self.len[..self.primary];
        let fewest = primary.iter().fold(u8::MAX, |fewest, &len| fewest.min(len));
        if fewest >= COVERED {
            return None;
        }
        // Its first place, eight lengths at a time: a zero byte of `word ^ pattern` is a length
        // equal to `fewest`, and the lowest set bit of the classic zero-byte test marks the
        // first one (a borrow can only mark bytes above a true zero).
        let pattern = ONES * u64::from(fewest);
        for (word_idx, bytes) in primary.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(bytes.try_into().expect("chunks of 8 bytes")) ^ pattern;
            let zeros = word.wrapping_sub(ONES) & !word & (ONES << 7);
            if zeros != 0 {
                return Some(word_idx * 8 + zeros.trailing_zeros() as usize / 8);
            }
        }
        None
    }
}

/// One call per search node. Returns `false` when the search must stop, which leaves the links
/// as they are (each search builds its own) and counts no withdrawn options.
fn search_level<O: Observer>(
    search: &mut Backtrack<'_, O>,
    links: &mut Dance<'_>,
    matrix: &Matrix,
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
            item: matrix.items[item].to_string(),
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
            item: matrix.items[item].to_string(),
        };
        search.observer.event(depth, search.nodes, event);
    }
    let mut row = links.nodes[item].down as usize;
    while row != item {
        let (cell, digit) = matrix.placements[links.nodes[row].option as usize];
        search.place(depth, cell as usize, digit);
        links.cover_others(row);
        if !search_level(search, links, matrix, depth + 1) {
            return false;
        }
        links.uncover_others(row);
        search.undo(depth, cell as usize, digit);
        row = links.nodes[row].down as usize;
    }
    links.uncover(item);
    if search.observer.is_active() {
        let event = Event::Uncover {
            item: matrix.items[item].to_string(),
        };
        search.observer.event(depth, search.nodes, event);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::Silent;

    /// The search from links built by the pruned-per-search path: the puzzle's own matrix.
    fn pruned_search(puzzle: &Grid, limits: &Limits) -> Outcome {
        let shape = puzzle.shape();
        let matrix = Matrix::new(shape, &CoverMatrix::build(puzzle));
        let mut links = Links::default();
        assert!(links.build(&matrix, &Grid::empty(shape)));
        search(&mut links, &matrix, puzzle, limits, &mut |_| {}, Silent)
    }

    fn grid(box_shape: &str, cells: &str) -> Grid {
        let cells = cells
            .bytes()
            .filter(|byte| !byte.is_ascii_whitespace())
            .map(|byte| if byte == b'.' { 0 } else { byte - b'0' })
            .collect();
        Grid::from_cells(box_shape.parse().unwrap(), cells).unwrap()
    }

    /// The cached blank-grid links with the givens pruned walk the same tree, with the same
    /// counters, as links built from the puzzle's own matrix: solving, counting to two, on
    /// unique, multi-solution and unsolvable puzzles, one after another on the same thread (so
    /// the buffers are reused, also after a search that stopped at its solution limit).
    #[test]
    fn cached_links_walk_the_pruned_tree() {
        let board_b = "040060020 000080000 960040087 390807041 000090000 800306002 700000009 005000300 600105004";
        let puzzles = [
            grid(
                "3x3",
                "030260701 680070090 190004500 820100040 004602900 050003028 009300074 040050036 703018000",
            ),
            grid("3x3", board_b),
            // Board B less six givens: many solutions.
            grid(
                "3x3",
                "040060000 000080000 900040087 300807041 000090000 800306002 700000009 005000300 600105004",
            ),
            // r1c9 can only be 9, which its column already has: no solution, and no conflict.
            grid(
                "3x3",
                "12345678. ........9 ......... ......... ......... ......... ......... ......... .........",
            ),
            grid("2x2", "1... ..2. .3.. ...4"),
            grid("2x3", "1..... ..2... ....3. ...... .4.... .....5"),
        ];
        for max_solutions in [1, 2, 100] {
            let limits = Limits::default().with_max_solutions(max_solutions);
            for puzzle in &puzzles {
                let cached = run(puzzle, &limits, &mut |_| {}, Silent);
                let pruned = pruned_search(puzzle, &limits);
                assert_eq!(cached.found, pruned.found, "{puzzle:?}");
                assert_eq!(cached.stopped, pruned.stopped, "{puzzle:?}");
                for counter in COUNTERS {
                    assert_eq!(
                        cached.stats.get(counter),
                        pruned.stats.get(counter),
                        "{counter:?} of {puzzle:?}, up to {max_solutions}"
                    );
                }
            }
        }
    }
}
