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
//! flattened (each option's items, each item's options) and its links (as kudoku keeps its one
//! 9x9 matrix), every option's nodes in their blank-grid places for good. A search builds its
//! links there: the givens' items are covered, the options that share an item with a given are
//! left out of every list, and the rest are linked into their items' lists in matrix order. That
//! is exactly the state of links built from the puzzle's own pruned matrix (the same active items
//! and options, in the same order; where a node sits in the array plays no part), so the tree and
//! every counter are those of the pruned matrix, which larger shapes still build per search. A
//! search that stops (solution limit, budget) returns at once and leaves its links as they are:
//! the next search links them again.
//!
//! Links of up to 65,536 nodes (every plain shape up to 16x16) have `u16` fields kept in arrays
//! of exactly 65,536 entries, so that every index is in bounds by its type and the compiler
//! drops the bounds checks (this crate forbids unsafe code); larger links have `u32` fields in
//! checked slices. One generic code serves both ([`NodeIdx`]).
//!
//! Counters: `nodes` (search-tree nodes, the root included), `placements` (options tried),
//! `backtracks` (options withdrawn) and Knuth's `updates` (nodes unlinked from their item's
//! list while covering; the givens are pruned, not covered, so they cost no updates).

use std::cell::RefCell;
use std::ops::{IndexMut, Range};
use std::sync::Arc;

use crate::encode::{CoverMatrix, CoverOption, Item};
use crate::model::{Grid, Rules, Shape};

use super::backtrack::Backtrack;
use super::traced_engine;
use super::{
    Counter, Event, Limits, Observer, Outcome, Refusals, RuleKind, Stop, Strategy, WorkUnit,
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

    /// Variants without cages: each house and digit is one more item, and each pair of cells
    /// (anti-king, anti-knight, non-consecutive) brings secondary items.
    fn supports_rules(&self, rules: &Rules) -> Result<(), &'static str> {
        crate::encode::exact_cover_takes(rules)
    }

    fn refusals(&self) -> Refusals {
        Refusals {
            max_side: None,
            rules: &[RuleKind::Cages],
        }
    }

    /// Knuth's cost measure, which the algorithm fixes: updates.
    fn budget_unit(&self) -> WorkUnit {
        WorkUnit::Updates
    }

    fn default_budget(&self) -> Option<u64> {
        Some(30_000_000)
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
    static CACHE: RefCell<Vec<(Matrix, AnyLinks)>> = const { RefCell::new(Vec::new()) };
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
        let mut links = Links::<u32>::new(&matrix);
        links.build(&matrix, &Grid::empty(shape));
        return search(&mut links, &matrix, puzzle, limits, on_solution, observer);
    }
    let (matrix, mut links) = take_cached(puzzle);
    let outcome = match &mut links {
        AnyLinks::Narrow(links) => {
            run_cached(links, &matrix, puzzle, limits, on_solution, observer)
        }
        AnyLinks::Wide(links) => run_cached(links, &matrix, puzzle, limits, on_solution, observer),
    };
    put_back(matrix, links);
    outcome
}

/// The search from the blank-grid links of `matrix` with the givens of `puzzle` pruned.
fn run_cached<I: NodeIdx, O: Observer>(
    links: &mut Links<I>,
    matrix: &Matrix,
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    if links.build(matrix, puzzle) {
        search(links, matrix, puzzle, limits, on_solution, observer)
    } else {
        // Conflicting givens, which `answer_without_search` answers before we get here.
        let mut outcome = Backtrack::new(puzzle, limits, on_solution, observer).finish();
        outcome.stats.set(Counter::Updates, 0);
        outcome
    }
}

/// The search from the links as built.
fn search<I: NodeIdx, O: Observer>(
    links: &mut Links<I>,
    matrix: &Matrix,
    puzzle: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let mut search = Backtrack::without_work(puzzle, limits, on_solution, observer);
    let mut dance = Dance::<I> {
        len: &mut links.len,
        nodes: &mut links.nodes,
        primary: matrix.primary_padded,
        updates: 0,
        max_updates: limits.budget.unwrap_or(u64::MAX),
    };
    search_level(&mut search, &mut dance, matrix, 0);
    let mut outcome = search.finish();
    outcome.stats.set(Counter::Updates, dance.updates);
    outcome
}

/// The blank-grid matrix of `puzzle`'s shape and rules, and link buffers, from this thread's
/// cache or new: a variant's matrix has its extra houses' items, so the rules are part of the
/// key (compared by pointer first: the puzzles of one file share one `Rules`).
fn take_cached(puzzle: &Grid) -> (Matrix, AnyLinks) {
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
        let links = if matrix.node_count() <= u16::CAPACITY {
            AnyLinks::Narrow(Links::new(&matrix))
        } else {
            AnyLinks::Wide(Links::new(&matrix))
        };
        (matrix, links)
    })
}

fn put_back(matrix: Matrix, links: AnyLinks) {
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
    /// The number of items of every option, when they all have the same (4 on plain Sudoku).
    width: Option<usize>,
    /// The cell and digit of each option.
    placements: Vec<(u32, u8)>,
    /// `option_at[cell * side + digit - 1]`: the option writing `digit` in `cell`, if any.
    option_at: Vec<u32>,
    /// The options of item `i` as bits of the words of an option set: pairs (the first option
    /// of the word, the word's bits), `item_words[item_start[i]..item_start[i + 1]]`.
    item_words: Vec<(u32, u64)>,
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
            width: None,
            placements: Vec::with_capacity(cover.options.len()),
            option_at: vec![u32::MAX; shape.cell_count() * side],
            item_words: Vec::new(),
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
        let mut widths = (0..cover.options.len()).map(|option| matrix.items_of(option).len());
        matrix.width = widths
            .next()
            .filter(|&first| widths.all(|width| width == first));
        matrix.item_start.push(0);
        for options in options_of_item {
            assert!(
                options.len() < COVERED as usize,
                "an item has at most 64 options (sides are at most 64), below the covered flag"
            );
            // The options are ascending: those in one word are side by side.
            let words = &mut matrix.item_words;
            let begin = words.len();
            for option in options {
                let first = option / 64 * 64;
                let bit = 1 << (option % 64);
                let last = words[begin..].last_mut();
                if let Some((_, bits)) = last.filter(|(word_first, _)| *word_first == first) {
                    *bits |= bit;
                } else {
                    words.push((first, bit));
                }
            }
            matrix.item_start.push(matrix.item_words.len() as u32);
        }
        matrix
    }

    /// The nodes of the links of the whole matrix: item headers, one node per item of each
    /// option, and a spacer before and after each option.
    fn node_count(&self) -> usize {
        self.item_slots + self.option_items.len() + self.placements.len() + 1
    }

    /// The options of item `item`, as words of an option set.
    #[inline]
    fn option_words_of(&self, item: usize) -> &[(u32, u64)] {
        &self.item_words[self.item_start[item] as usize..self.item_start[item + 1] as usize]
    }

    /// The items of option `option`.
    #[inline]
    fn items_of(&self, option: usize) -> &[u32] {
        &self.option_items
            [self.option_start[option] as usize..self.option_start[option + 1] as usize]
    }
}

/// A node's index, and the arrays indexed by it. With `u16` the node and length arrays have
/// exactly 65,536 entries, so that every index is in bounds by its type and the compiler drops
/// the bounds checks (unsafe code is forbidden in this crate); links of more nodes (sides above
/// 16, or a variant's many secondary items) take `u32` and checked slices. Both walk the same
/// tree: the links are the same, only the width of their fields differs.
trait NodeIdx: Copy + Eq + 'static {
    /// The `item` of a spacer node, and the `option` of a header or a spacer.
    const NONE: Self;
    /// The most nodes links of this width hold.
    const CAPACITY: usize;
    type Nodes: ?Sized
        + IndexMut<usize, Output = Node<Self>>
        + IndexMut<Range<usize>, Output = [Node<Self>]>;
    type Lens: ?Sized + IndexMut<usize, Output = u8> + IndexMut<Range<usize>, Output = [u8]>;
    /// One bit per option, 64 to a word.
    type Bits: ?Sized + IndexMut<usize, Output = u64> + IndexMut<Range<usize>, Output = [u64]>;
    /// A node array of at least `count` nodes (more for `u16`: always 65,536).
    fn new_nodes(count: usize) -> Box<Self::Nodes>;
    /// A length array of at least `count` items.
    fn new_lens(count: usize) -> Box<Self::Lens>;
    /// A bit array of at least `count` bits.
    fn new_bits(count: usize) -> Box<Self::Bits>;
    fn at(self) -> usize;
    /// `idx`, which must be below [`NodeIdx::CAPACITY`].
    fn of(idx: usize) -> Self;
    /// The next node (wrapping, so that the type's arrays need no check).
    fn next(self) -> Self;
    /// The node before.
    fn prev(self) -> Self;
    /// The node `k` places on (wrapping).
    fn plus(self, k: usize) -> Self;
}

impl NodeIdx for u16 {
    const NONE: u16 = u16::MAX;
    const CAPACITY: usize = 1 << 16;
    type Nodes = [Node<u16>; 1 << 16];
    type Lens = [u8; 1 << 16];
    type Bits = [u64; 1 << 10];

    fn new_nodes(_count: usize) -> Box<Self::Nodes> {
        vec![Node::new(0, 0, 0, 0); 1 << 16]
            .into_boxed_slice()
            .try_into()
            .expect("a vector of 65,536 nodes")
    }

    fn new_lens(_count: usize) -> Box<Self::Lens> {
        vec![0; 1 << 16]
            .into_boxed_slice()
            .try_into()
            .expect("a vector of 65,536 lengths")
    }

    fn new_bits(_count: usize) -> Box<Self::Bits> {
        vec![0; 1 << 10]
            .into_boxed_slice()
            .try_into()
            .expect("a vector of 65,536 bits")
    }

    #[inline]
    fn at(self) -> usize {
        self as usize
    }

    #[inline]
    fn of(idx: usize) -> u16 {
        idx as u16
    }

    #[inline]
    fn next(self) -> u16 {
        self.wrapping_add(1)
    }

    #[inline]
    fn prev(self) -> u16 {
        self.wrapping_sub(1)
    }

    #[inline]
    fn plus(self, k: usize) -> u16 {
        self.wrapping_add(k as u16)
    }
}

impl NodeIdx for u32 {
    const NONE: u32 = u32::MAX;
    const CAPACITY: usize = u32::MAX as usize;
    type Nodes = [Node<u32>];
    type Lens = [u8];
    type Bits = [u64];

    fn new_nodes(count: usize) -> Box<Self::Nodes> {
        vec![Node::new(0, 0, 0, 0); count].into_boxed_slice()
    }

    fn new_lens(count: usize) -> Box<Self::Lens> {
        vec![0; count].into_boxed_slice()
    }

    fn new_bits(count: usize) -> Box<Self::Bits> {
        vec![0; count.div_ceil(64)].into_boxed_slice()
    }

    #[inline]
    fn at(self) -> usize {
        self as usize
    }

    #[inline]
    fn of(idx: usize) -> u32 {
        idx as u32
    }

    #[inline]
    fn next(self) -> u32 {
        self.wrapping_add(1)
    }

    #[inline]
    fn prev(self) -> u32 {
        self.wrapping_sub(1)
    }

    #[inline]
    fn plus(self, k: usize) -> u32 {
        self.wrapping_add(k as u32)
    }
}

/// One node of the links: an item header (its own index as `item`), an option's node, or a
/// spacer between options (`item == NONE`; `up` is the first node of the option before it,
/// `down` the last node of the option after it, as in DLX1).
#[derive(Clone, Copy, Debug)]
struct Node<I> {
    up: I,
    down: I,
    item: I,
    option: I,
}

impl<I> Node<I> {
    #[inline]
    fn new(up: I, down: I, item: I, option: I) -> Node<I> {
        Node {
            up,
            down,
            item,
            option,
        }
    }
}

/// The links of one cached matrix, as narrow as its node count allows.
enum AnyLinks {
    Narrow(Links<u16>),
    Wide(Links<u32>),
}

/// The dancing-links structure of one matrix: nodes `0..items` are the item headers.
struct Links<I: NodeIdx> {
    /// Options left in each item's list, plus [`COVERED`] while the item is covered; padded
    /// with covered entries to a multiple of [`LANES`].
    len: Box<I::Lens>,
    /// The item headers, then every option of the matrix between spacers, each in its place
    /// for good: a search's links are the kept options' nodes linked into their items' lists
    /// (the others stay out of every list, so no search reaches them). Only `up` and `down` of
    /// headers and option nodes ever change; `item` and `option`, and the spacers, are those
    /// of the blank grid's links.
    nodes: Box<I::Nodes>,
    /// The item headers with empty lists, copied at the start of each build.
    headers: Box<[Node<I>]>,
    /// A set bit for each option that shares an item with a given (built per search), and
    /// for the bits past the last option.
    pruned: Box<I::Bits>,
}

impl<I: NodeIdx> Links<I> {
    /// Link buffers for `matrix`, its options laid out as in the blank grid's links.
    fn new(matrix: &Matrix) -> Links<I> {
        let item_count = matrix.item_slots;
        let option_count = matrix.placements.len();
        let node_count = matrix.node_count();
        assert!(
            node_count <= I::CAPACITY,
            "links of {node_count} nodes in an index type for {}",
            I::CAPACITY
        );
        let mut nodes = I::new_nodes(node_count);
        for header in 0..item_count {
            let header = I::of(header);
            nodes[header.at()] = Node::new(header, header, header, I::NONE);
        }
        // A spacer's `up` is the first node of the option before it, its `down` the last node
        // of the option after it (DLX1).
        let mut spacer = item_count;
        let mut first_before = 0;
        for option in 0..option_count {
            let items = matrix.items_of(option);
            let last = spacer + items.len();
            nodes[spacer] = Node::new(I::of(first_before), I::of(last), I::NONE, I::NONE);
            for (node, &item) in (spacer + 1..).zip(items) {
                let item = I::of(item as usize);
                nodes[node] = Node::new(item, item, item, I::of(option));
            }
            first_before = spacer + 1;
            spacer = last + 1;
        }
        nodes[spacer] = Node::new(I::of(first_before), I::of(0), I::NONE, I::NONE);
        Links {
            len: I::new_lens(item_count),
            headers: nodes[0..item_count].into(),
            nodes,
            pruned: I::new_bits(option_count),
        }
    }

    /// The links of `matrix` with the givens of `puzzle` pruned: their items covered, and only
    /// the options none of whose items is covered, in matrix order. The same state as links
    /// built from the puzzle's own (pruned) matrix. `false` when two givens conflict.
    fn build(&mut self, matrix: &Matrix, puzzle: &Grid) -> bool {
        if !self.prune(matrix, puzzle) {
            return false;
        }
        match matrix.width {
            Some(4) => self.link_uniform::<4>(matrix),
            _ => self.link_any(matrix),
        }
        true
    }

    /// Covers the givens' items and marks the options that share an item with a given;
    /// `false` when two givens conflict.
    fn prune(&mut self, matrix: &Matrix, puzzle: &Grid) -> bool {
        let item_count = matrix.item_slots;
        let option_count = matrix.placements.len();
        let len = &mut self.len[0..item_count];
        len.fill(0);
        len[matrix.items.len()..matrix.primary_padded].fill(COVERED);
        let words = option_count.div_ceil(64);
        let pruned = &mut self.pruned[0..words];
        pruned.fill(0);
        if option_count % 64 != 0 {
            pruned[words - 1] = !0 << (option_count % 64);
        }
        let side = matrix.shape.side();
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let option = matrix.option_at[cell * side + digit as usize - 1];
            if option == u32::MAX {
                return false;
            }
            for &item in matrix.items_of(option as usize) {
                let item = I::of(item as usize);
                if self.len[item.at()] == COVERED {
                    return false;
                }
                self.len[item.at()] = COVERED;
                for &(first, bits) in matrix.option_words_of(item.at()) {
                    self.pruned[I::of(first as usize).at() / 64] |= bits;
                }
            }
        }
        true
    }

    /// Links the options left by [`Links::prune`] when every option has `W` items: option
    /// `o`'s nodes are at a known place, and the loop over them is unrolled.
    fn link_uniform<const W: usize>(&mut self, matrix: &Matrix) {
        let item_count = matrix.item_slots;
        let words = matrix.placements.len().div_ceil(64);
        let nodes = &mut self.nodes;
        let len = &mut self.len;
        nodes[0..item_count].copy_from_slice(&self.headers);
        for (word_idx, &word) in self.pruned[0..words].iter().enumerate() {
            let mut kept = !word;
            while kept != 0 {
                let option = word_idx * 64 + kept.trailing_zeros() as usize;
                kept &= kept - 1;
                let first = I::of(item_count + 1 + option * (W + 1));
                for k in 0..W {
                    link_last(&mut **nodes, &mut **len, first.plus(k));
                }
            }
        }
    }

    /// Links the options left by [`Links::prune`], of any number of items each.
    fn link_any(&mut self, matrix: &Matrix) {
        let item_count = matrix.item_slots;
        let option_count = matrix.placements.len();
        let nodes = &mut self.nodes;
        let len = &mut self.len;
        nodes[0..item_count].copy_from_slice(&self.headers);
        // The spacer before option `option`, whose `down` is that option's last node.
        let mut spacer = I::of(item_count);
        for option in 0..option_count {
            let last = nodes[spacer.at()].down;
            let option = I::of(option).at();
            if self.pruned[option / 64] & (1 << (option % 64)) == 0 {
                let mut node = spacer.next();
                while node != last.next() {
                    link_last(&mut **nodes, &mut **len, node);
                    node = node.next();
                }
            }
            spacer = last.next();
        }
    }
}

/// Appends option node `node` to its item's list.
#[inline]
fn link_last<I: NodeIdx>(nodes: &mut I::Nodes, len: &mut I::Lens, node: I) {
    let item = nodes[node.at()].item;
    let last = nodes[item.at()].up;
    nodes[node.at()].up = last;
    nodes[node.at()].down = item;
    nodes[last.at()].down = node;
    nodes[item.at()].up = node;
    len[item.at()] += 1;
}

/// The links during a search: the node and length arrays as separate borrows, so that the
/// compiler knows a write to one leaves the other alone.
struct Dance<'a, I: NodeIdx> {
    len: &'a mut I::Lens,
    nodes: &'a mut I::Nodes,
    /// The lengths the choice scans: the primary items and their padding.
    primary: usize,
    updates: u64,
    /// The work budget ([`Limits::budget`]), in updates.
    max_updates: u64,
}

impl<I: NodeIdx> Dance<'_, I> {
    /// Removes the other nodes of `node`'s option from their items' lists; returns how many.
    /// The option is walked from `node` on to the spacer after it, then from its first node
    /// (the spacer's `up`) back to `node`, so that each step tests one condition.
    #[inline]
    fn hide(&mut self, node: I) -> u64 {
        let mut hidden = 0;
        let mut other = node.next();
        loop {
            let Node { up, down, item, .. } = self.nodes[other.at()];
            if item == I::NONE {
                other = up;
                break;
            }
            self.nodes[up.at()].down = down;
            self.nodes[down.at()].up = up;
            self.len[item.at()] -= 1;
            hidden += 1;
            other = other.next();
        }
        while other != node {
            let Node { up, down, item, .. } = self.nodes[other.at()];
            self.nodes[up.at()].down = down;
            self.nodes[down.at()].up = up;
            self.len[item.at()] -= 1;
            hidden += 1;
            other = other.next();
        }
        hidden
    }

    /// Puts back what [`Dance::hide`] removed (each node into a different item's list, so in
    /// any order).
    #[inline]
    fn unhide(&mut self, node: I) {
        let mut other = node.next();
        loop {
            let Node { up, down, item, .. } = self.nodes[other.at()];
            if item == I::NONE {
                other = up;
                break;
            }
            self.nodes[up.at()].down = other;
            self.nodes[down.at()].up = other;
            self.len[item.at()] += 1;
            other = other.next();
        }
        while other != node {
            let Node { up, down, item, .. } = self.nodes[other.at()];
            self.nodes[up.at()].down = other;
            self.nodes[down.at()].up = other;
            self.len[item.at()] += 1;
            other = other.next();
        }
    }

    fn cover(&mut self, item: I) {
        let mut hidden = 0;
        let mut node = self.nodes[item.at()].down;
        while node != item {
            hidden += self.hide(node);
            node = self.nodes[node.at()].down;
        }
        self.len[item.at()] += COVERED;
        self.updates += hidden;
    }

    fn uncover(&mut self, item: I) {
        self.len[item.at()] -= COVERED;
        let mut node = self.nodes[item.at()].up;
        while node != item {
            self.unhide(node);
            node = self.nodes[node.at()].up;
        }
    }

    /// Covers the items of `node`'s option other than its own, left to right (cyclically).
    #[expect(
        clippy::inline_always,
        reason = "left to LLVM it is not inlined into the search, at 1% more instructions"
    )]
    #[inline(always)]
    fn cover_others(&mut self, node: I) {
        let mut other = node.next();
        loop {
            let Node { up, item, .. } = self.nodes[other.at()];
            if item == I::NONE {
                other = up;
                break;
            }
            self.cover(item);
            other = other.next();
        }
        while other != node {
            let item = self.nodes[other.at()].item;
            self.cover(item);
            other = other.next();
        }
    }

    /// Undoes [`Dance::cover_others`]: right to left.
    #[expect(
        clippy::inline_always,
        reason = "left to LLVM it is not inlined into the search, at 1% more instructions"
    )]
    #[inline(always)]
    fn uncover_others(&mut self, node: I) {
        let mut other = node.prev();
        loop {
            let Node { down, item, .. } = self.nodes[other.at()];
            if item == I::NONE {
                other = down;
                break;
            }
            self.uncover(item);
            other = other.prev();
        }
        while other != node {
            let item = self.nodes[other.at()].item;
            self.uncover(item);
            other = other.prev();
        }
    }

    /// The active item with the fewest options, the first in item order among equals; `None`
    /// when every item is covered.
    #[expect(
        clippy::needless_bitwise_bool,
        reason = "a lazy `||` would stop at the first match, and the fold would not be vectorised"
    )]
    #[inline]
    fn choose_item(&self) -> Option<usize> {
        let primary = &self.len[0..self.primary];
        let fewest = primary.iter().fold(u8::MAX, |fewest, &len| fewest.min(len));
        if fewest >= COVERED {
            return None;
        }
        // Its first place, eight lengths at a time: a zero byte of `word ^ pattern` is a length
        // equal to `fewest`, and the lowest set bit of the classic zero-byte test marks the
        // first one (a borrow can only mark bytes above a true zero).
        // The chunk of [`LANES`] lengths that holds it is found first (thirty-two comparisons
        // folded by `|`, which the compiler vectorises).
        let pattern = ONES * u64::from(fewest);
        for (chunk_idx, chunk) in primary.chunks_exact(LANES).enumerate() {
            if !chunk
                .iter()
                .fold(false, |found, &len| found | (len == fewest))
            {
                continue;
            }
            for (word_idx, bytes) in chunk.chunks_exact(8).enumerate() {
                let word =
                    u64::from_le_bytes(bytes.try_into().expect("chunks of 8 bytes")) ^ pattern;
                let zeros = word.wrapping_sub(ONES) & !word & (ONES << 7);
                if zeros != 0 {
                    return Some(
                        chunk_idx * LANES + word_idx * 8 + zeros.trailing_zeros() as usize / 8,
                    );
                }
            }
        }
        None
    }
}

/// One call per search node. Returns `false` when the search must stop, which leaves the links
/// as they are (each search builds its own) and counts no withdrawn options.
fn search_level<I: NodeIdx, O: Observer>(
    search: &mut Backtrack<'_, O>,
    links: &mut Dance<'_, I>,
    matrix: &Matrix,
    depth: usize,
) -> bool {
    // The work budget counts updates, looked at as each node is entered: the same node on
    // every machine, past the budget by less than one node's covering.
    if links.updates >= links.max_updates {
        search.stop(Stop::Budget);
        return false;
    }
    if !search.enter_node() {
        return false;
    }
    let Some(item_idx) = links.choose_item() else {
        return search.solution(depth);
    };
    let item = I::of(item_idx);
    let options = links.len[item.at()];
    if search.observer.is_active() {
        let event = Event::ChooseItem {
            item: matrix.items[item_idx].to_string(),
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
            item: matrix.items[item_idx].to_string(),
        };
        search.observer.event(depth, search.nodes, event);
    }
    let mut row = links.nodes[item.at()].down;
    while row != item {
        let (cell, digit) = matrix.placements[links.nodes[row.at()].option.at()];
        search.place(depth, cell as usize, digit);
        links.cover_others(row);
        if !search_level(search, links, matrix, depth + 1) {
            return false;
        }
        links.uncover_others(row);
        search.undo(depth, cell as usize, digit);
        row = links.nodes[row.at()].down;
    }
    links.uncover(item);
    if search.observer.is_active() {
        let event = Event::Uncover {
            item: matrix.items[item_idx].to_string(),
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
        let mut links = Links::<u32>::new(&matrix);
        assert!(links.build(&matrix, &Grid::empty(shape)));
        search(&mut links, &matrix, puzzle, limits, &mut |_| {}, Silent)
    }

    /// A puzzle on one line, symbols `1-9A-Z`, `.` blank.
    fn line(box_shape: &str, text: &str) -> Grid {
        let shape = box_shape.parse().unwrap();
        let mut grid = Grid::empty(shape);
        assert!(crate::model::parse_bare_line_into(
            text.as_bytes(),
            Some(shape),
            &mut grid
        ));
        grid
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

    /// Narrow links (`u16` fields in arrays of 65,536, which the cache takes up to 16x16) and
    /// wide ones (`u32`, which larger shapes take) walk the same tree from the same blank-grid
    /// matrix, with the same counters, on 9x9, 6x6, 12x12 and 16x16 puzzles; a plain 16x16
    /// matrix fits the narrow links and a 25x25 one does not.
    #[test]
    fn narrow_and_wide_links_walk_the_same_tree() {
        let puzzles = [
            grid(
                "3x3",
                "030260701 680070090 190004500 820100040 004602900 050003028 009300074 040050036 703018000",
            ),
            // Board B less six givens: many solutions.
            grid(
                "3x3",
                "040060000 000080000 900040087 300807041 000090000 800306002 700000009 005000300 600105004",
            ),
            grid("2x3", "1..... ..2... ....3. ...... .4.... .....5"),
            line(
                "3x4",
                "9.....8.4C...2...1..9.B5.....B...238.34C.6.15.....7.8C....6..1...27B8..4B.2...C.....3..8....B9...4...5.9..8C6.B.27.5..4.C...6....57325......6A.B",
            ),
            line(
                "4x4",
                ".GA8....3..F4..1B.6ECF.2....A..G.3C247..G.8..E...14......6.B..F.1..A.GE62..974...5.4D..AE..GFC9......354.D....GE.E.6F...57.3DA.8C7.3..D1B..AE.6FA...E....23C.14D..5.8ABGFE9..3.76..9...3D..48..B8.GB.EC.43.2.D..2....5A..G..9..C.C9....7.1....86....G8....FE.72.",
            ),
        ];
        for max_solutions in [1, 2, 100] {
            let limits = Limits::default().with_max_solutions(max_solutions);
            for puzzle in &puzzles {
                let matrix = Matrix::new(
                    puzzle.shape(),
                    &CoverMatrix::build(&Grid::empty(puzzle.shape())),
                );
                let mut narrow = Links::<u16>::new(&matrix);
                let mut wide = Links::<u32>::new(&matrix);
                let narrow = run_cached(&mut narrow, &matrix, puzzle, &limits, &mut |_| {}, Silent);
                let wide = run_cached(&mut wide, &matrix, puzzle, &limits, &mut |_| {}, Silent);
                assert_eq!(narrow.found, wide.found, "{puzzle:?}");
                assert_eq!(narrow.stopped, wide.stopped, "{puzzle:?}");
                assert!(narrow.stats.get(Counter::Nodes) > Some(0));
                for counter in COUNTERS {
                    assert_eq!(
                        narrow.stats.get(counter),
                        wide.stats.get(counter),
                        "{counter:?} of {puzzle:?}, up to {max_solutions}"
                    );
                }
            }
        }
        let blank_nodes = |box_shape: &str| {
            let shape: Shape = box_shape.parse().unwrap();
            Matrix::new(shape, &CoverMatrix::build(&Grid::empty(shape))).node_count()
        };
        assert!(blank_nodes("4x4") <= u16::CAPACITY);
        assert!(blank_nodes("5x5") > u16::CAPACITY);
    }
}
