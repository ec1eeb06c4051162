//! Essentially different grids by Burnside's lemma, after Russell and Jarvis (2006).
//!
//! The validity-preserving group `G` moves cells: rows inside a band, bands, columns inside a
//! stack, stacks, and the transposition when boxes are square. Relabelling digits (`S_n`)
//! commutes with it, and the essentially different grids are the orbits of `G x S_n`:
//! `(1 / |G|) * sum over g in G of F(g) / n!`, where `F(g)` counts the grids `X` for which
//! `X o g` is a relabelling of `X`. That property survives relabelling `X`, and relabelling acts
//! freely, so `F(g) / n!` is the number of such grids whose first row reads `1..n`, which is
//! what is counted. `F` is constant on each conjugacy class of `G`, so it is counted once per
//! class: the identity's term is the band method's grid count over `n!`, every other class's by
//! a search over the grids with that first row, with the relabelling `sigma` (where
//! `X(g(c)) = sigma(X(c))`) built as the cells are filled.

use std::collections::HashMap;

use crate::model::Shape;

use super::count::{CountError, count_grids};

/// The largest side whose group is enumerated: 9 (3x3 boxes, 3,359,232 moves).
const MAX: usize = 9;

/// The most counts of a bulk part remembered for one class (about 200 MB at most).
const MEMO_LIMIT: usize = 1 << 20;

/// The search nodes a class is given to be counted by listing its grids, before the bulk
/// count takes over.
const LISTING_NODES: u64 = 5_000_000;

/// One conjugacy class of the validity-preserving group and the grids each of its moves fixes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedClass {
    /// Moves in the class.
    pub size: u64,
    /// Whether the class's moves transpose the board.
    pub transposes: bool,
    /// The lengths of the cycles of one move of the class on the cells, longest first.
    pub cycles: Vec<usize>,
    /// Grids whose first row reads `1..n` that one move of the class maps to a relabelling of
    /// themselves (`F(g) / n!`).
    pub fixed: u128,
}

/// The count of essentially different grids of one box shape, with the classes it summed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BurnsideCount {
    /// Moves of the validity-preserving group.
    pub group_order: u64,
    /// Its conjugacy classes, the identity first, then in order of first move enumerated.
    pub classes: Vec<FixedClass>,
    /// The number of essentially different grids.
    pub essentially_different: u128,
}

/// A move of the validity-preserving group: cell `(r, c)` goes to `(rows[r], cols[c])`, or
/// after transposing, `(rows[c], cols[r])`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Move {
    transpose: bool,
    rows: [u8; MAX],
    cols: [u8; MAX],
}

/// The group of one box shape: `box_rows`-row bands permuted with the rows inside each, and
/// `box_cols`-column stacks likewise, and the transposition when the box is square.
#[derive(Debug, Clone, Copy)]
struct Group {
    side: usize,
    box_rows: usize,
    box_cols: usize,
    /// Row permutations: `bands! * box_rows!^bands`.
    row_moves: usize,
    /// Column permutations: `stacks! * box_cols!^stacks`.
    col_moves: usize,
}

fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// The permutation of `0..n` of rank `rank` (Lehmer code).
fn unrank(mut rank: usize, n: usize) -> [u8; MAX] {
    let mut left: Vec<u8> = (0..n as u8).collect();
    let mut out = [0u8; MAX];
    for (i, slot) in out.iter_mut().enumerate().take(n) {
        let f = factorial(n - 1 - i);
        *slot = left.remove(rank / f);
        rank %= f;
    }
    out
}

/// The rank of a permutation of `0..n` (the inverse of [`unrank`]).
fn rank(perm: &[u8]) -> usize {
    let n = perm.len();
    (0..n)
        .map(|i| {
            let smaller_after = perm[i + 1..].iter().filter(|&&x| x < perm[i]).count();
            smaller_after * factorial(n - 1 - i)
        })
        .sum()
}

/// Line `k * width + i` to `blocks_perm(k) * width + inside_k(i)`, from a mixed-radix index:
/// the blocks' permutation, then each block's inside permutation.
fn wreath(index: usize, width: usize, blocks: usize) -> [u8; MAX] {
    let inside = factorial(width);
    let outer = unrank(index / inside.pow(blocks as u32), blocks);
    let mut rest = index % inside.pow(blocks as u32);
    let mut out = [0u8; MAX];
    for k in 0..blocks {
        let within = unrank(rest % inside, width);
        rest /= inside;
        for i in 0..width {
            out[k * width + i] = outer[k] * width as u8 + within[i];
        }
    }
    out
}

/// The index of a block-preserving line permutation (the inverse of [`wreath`]).
fn wreath_rank(lines: &[u8], width: usize, blocks: usize) -> usize {
    let inside = factorial(width);
    let outer: Vec<u8> = (0..blocks)
        .map(|k| lines[k * width] / width as u8)
        .collect();
    let mut index = 0;
    for k in (0..blocks).rev() {
        let within: Vec<u8> = (0..width)
            .map(|i| lines[k * width + i] % width as u8)
            .collect();
        index = index * inside + rank(&within);
    }
    rank(&outer) * inside.pow(blocks as u32) + index
}

impl Group {
    fn new(box_rows: usize, box_cols: usize) -> Group {
        let side = box_rows * box_cols;
        let (bands, stacks) = (box_cols, box_rows);
        Group {
            side,
            box_rows,
            box_cols,
            row_moves: factorial(bands) * factorial(box_rows).pow(bands as u32),
            col_moves: factorial(stacks) * factorial(box_cols).pow(stacks as u32),
        }
    }

    fn square(self) -> bool {
        self.box_rows == self.box_cols
    }

    fn order(self) -> usize {
        self.row_moves * self.col_moves * if self.square() { 2 } else { 1 }
    }

    fn decode(self, index: usize) -> Move {
        let transpose = index >= self.row_moves * self.col_moves;
        let index = index % (self.row_moves * self.col_moves);
        Move {
            transpose,
            rows: wreath(index / self.col_moves, self.box_rows, self.box_cols),
            cols: wreath(index % self.col_moves, self.box_cols, self.box_rows),
        }
    }

    fn encode(self, g: &Move) -> usize {
        let n = self.side;
        let rows = wreath_rank(&g.rows[..n], self.box_rows, self.box_cols);
        let cols = wreath_rank(&g.cols[..n], self.box_cols, self.box_rows);
        (usize::from(g.transpose) * self.row_moves + rows) * self.col_moves + cols
    }

    /// `f o g` as maps of cells. Transposing then permuting rows by `a` and columns by `b` is
    /// permuting rows by `b` and columns by `a` then transposing, whence the swap.
    fn compose(self, f: &Move, g: &Move) -> Move {
        let (a, b) = if f.transpose {
            (g.cols, g.rows)
        } else {
            (g.rows, g.cols)
        };
        let mut out = Move {
            transpose: f.transpose != g.transpose,
            rows: [0; MAX],
            cols: [0; MAX],
        };
        for i in 0..self.side {
            out.rows[i] = f.rows[a[i] as usize];
            out.cols[i] = f.cols[b[i] as usize];
        }
        out
    }

    fn identity() -> Move {
        let mut lines = [0u8; MAX];
        for (i, line) in lines.iter_mut().enumerate() {
            *line = i as u8;
        }
        Move {
            transpose: false,
            rows: lines,
            cols: lines,
        }
    }

    /// Involutions generating the group: neighbouring rows inside a band and neighbouring
    /// bands swapped, the same for columns and stacks, and the transposition (square boxes).
    fn generators(self) -> Vec<Move> {
        let id = Group::identity();
        let swapped = |width: usize, first: usize, second: usize| {
            let mut lines = id.rows;
            for i in 0..width {
                lines.swap(first + i, second + i);
            }
            lines
        };
        let mut out = Vec::new();
        for (width, blocks, rows) in [
            (self.box_rows, self.box_cols, true),
            (self.box_cols, self.box_rows, false),
        ] {
            let mut lines = Vec::new();
            for k in 0..blocks {
                for i in 0..width - 1 {
                    lines.push(swapped(1, k * width + i, k * width + i + 1));
                }
            }
            for k in 0..blocks - 1 {
                lines.push(swapped(width, k * width, (k + 1) * width));
            }
            out.extend(lines.into_iter().map(|lines| Move {
                rows: if rows { lines } else { id.rows },
                cols: if rows { id.cols } else { lines },
                ..id
            }));
        }
        if self.square() {
            out.push(Move {
                transpose: true,
                ..id
            });
        }
        out
    }

    /// The conjugacy classes: the moves joined (union-find) with their conjugates by each
    /// generator. Each class as its first move's index and its size, in index order.
    fn conjugacy_classes(self) -> Vec<(usize, u64)> {
        let order = self.order();
        let generators = self.generators();
        let mut parent: Vec<u32> = (0..order as u32).collect();
        for index in 0..order {
            let g = self.decode(index);
            for s in &generators {
                // Every generator is its own inverse.
                let conjugate = self.encode(&self.compose(s, &self.compose(&g, s)));
                let (a, b) = (root(&mut parent, index), root(&mut parent, conjugate));
                if a != b {
                    parent[a.max(b)] = a.min(b) as u32;
                }
            }
        }
        let mut sizes: HashMap<usize, u64> = HashMap::new();
        for index in 0..order {
            *sizes.entry(root(&mut parent, index)).or_default() += 1;
        }
        let mut classes: Vec<(usize, u64)> = sizes.into_iter().collect();
        classes.sort_unstable();
        classes
    }

    /// Where each cell goes under `g`.
    fn cells(self, g: &Move) -> Vec<usize> {
        let n = self.side;
        (0..n * n)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                let (r, c) = if g.transpose { (c, r) } else { (r, c) };
                g.rows[r] as usize * n + g.cols[c] as usize
            })
            .collect()
    }
}

fn root(parent: &mut [u32], mut at: usize) -> usize {
    while parent[at] as usize != at {
        parent[at] = parent[parent[at] as usize];
        at = parent[at] as usize;
    }
    at
}

/// The lengths of the cycles of a permutation of cells, longest first.
fn cycle_lengths(image: &[usize]) -> Vec<usize> {
    let mut seen = vec![false; image.len()];
    let mut out = Vec::new();
    for start in 0..image.len() {
        let mut length = 0;
        let mut at = start;
        while !seen[at] {
            seen[at] = true;
            at = image[at];
            length += 1;
        }
        if length > 0 {
            out.push(length);
        }
    }
    out.sort_unstable_by(|a, b| b.cmp(a));
    out
}

/// The number of essentially different grids with boxes of `shape`, by Burnside's lemma (the
/// identity's grids come from [`count_grids`]). Exact for any shape [`count_grids`] takes; a
/// class's fixed grids are listed one by one, or with a part the move maps onto itself counted
/// in bulk ([`Block`]) when listing would take long. 2x2, 2x3 and 3x2 boxes take well under a
/// second, 9x9's 275 classes minutes (`docs/benchmarks.md`).
pub fn burnside(shape: Shape) -> Result<BurnsideCount, CountError> {
    let total = count_grids(shape)?.grids;
    let group = Group::new(shape.box_rows(), shape.box_cols());
    let n = group.side;
    let relabellings = (1..=n as u128).product::<u128>();
    debug_assert_eq!(total % relabellings, 0);
    let mut classes = Vec::new();
    let mut sum = 0u128;
    for (index, size) in group.conjugacy_classes() {
        let g = group.decode(index);
        let image = group.cells(&g);
        let fixed = if index == 0 {
            total / relabellings
        } else {
            Fixed::count_either_way(group, &image)
        };
        sum += u128::from(size) * fixed;
        classes.push(FixedClass {
            size,
            transposes: g.transpose,
            cycles: cycle_lengths(&image),
            fixed,
        });
    }
    let order = group.order() as u128;
    // Burnside's lemma: the sum is the orbits times the group's order, exactly.
    assert_eq!(sum % order, 0, "Burnside's sum is a multiple of |G|");
    Ok(BurnsideCount {
        group_order: order as u64,
        classes,
        essentially_different: sum / order,
    })
}

/// The search for the grids with first row `1..n` that one move maps to a relabelling of
/// themselves: a cell's digit `d` forces `sigma(d)` into the cell it goes to once `sigma(d)` is
/// known, and fixes `sigma(d)` once that cell is filled; `sigma` stays one-to-one.
struct Fixed {
    n: usize,
    box_rows: usize,
    box_cols: usize,
    image: Vec<usize>,
    preimage: Vec<usize>,
    /// The length of each cell's cycle under the move.
    period: Vec<usize>,
    /// Digits 1..=n, 0 for empty.
    values: Vec<u8>,
    /// Digits used in each row, column and box, as bits `1 << d`.
    row: [u16; MAX],
    col: [u16; MAX],
    boxes: [u16; MAX],
    /// `sigma` and its inverse, 0 where not yet known.
    sigma: [u8; MAX + 1],
    sigma_inv: [u8; MAX + 1],
    trail: Vec<Undo>,
    queue: Vec<usize>,
    filled: usize,
    /// A part that the move maps onto itself, counted in bulk (see [`Block`]).
    block: Option<Block>,
    /// Search nodes left; at 0 [`Fixed::search`] gives up and its count means nothing.
    budget: u64,
}

/// A part `B` that the move maps onto itself (a band, a stack, or a band and a stack
/// together), filled last and counted in bulk.
///
/// The search fills every cell outside `B` first. Outside `B` lie whole lines or whole boxes,
/// so every digit is placed there, and the move maps the outside onto itself, so each placed
/// digit's image is placed too: `sigma` is complete once the outside is. From there the
/// completions of `B` depend only on `B`'s cells, the digits of the houses crossing it, and
/// `sigma`, the key under which they are counted once and remembered: many fillings of the
/// outside leave the same key, and the counts of `B` are then added in bulk rather than
/// listed grid by grid.
struct Block {
    /// Whether each cell lies in `B`.
    inside: Vec<bool>,
    /// `B`'s cells, in order.
    cells: Vec<usize>,
    /// Empty cells outside `B`.
    outside_empty: usize,
    /// Set while `B` is being counted: the search below does not look its key up again.
    counting: bool,
    memo: HashMap<Vec<u8>, u128>,
}

#[derive(Debug, Clone, Copy)]
enum Undo {
    Cell(usize),
    Sigma(u8),
}

impl Fixed {
    fn new(group: Group, image: &[usize]) -> Fixed {
        let mut preimage = vec![0; image.len()];
        for (cell, &to) in image.iter().enumerate() {
            preimage[to] = cell;
        }
        let mut period = vec![0; image.len()];
        for start in 0..image.len() {
            let (mut at, mut length) = (image[start], 1);
            while at != start {
                at = image[at];
                length += 1;
            }
            period[start] = length;
        }
        Fixed {
            period,
            n: group.side,
            box_rows: group.box_rows,
            box_cols: group.box_cols,
            image: image.to_vec(),
            preimage,
            values: vec![0; image.len()],
            row: [0; MAX],
            col: [0; MAX],
            boxes: [0; MAX],
            sigma: [0; MAX + 1],
            sigma_inv: [0; MAX + 1],
            trail: Vec::new(),
            queue: Vec::new(),
            filled: 0,
            block: Block::choose(group, image),
            budget: u64::MAX,
        }
    }

    fn houses(&self, cell: usize) -> (usize, usize, usize) {
        let (r, c) = (cell / self.n, cell % self.n);
        (r, c, r / self.box_rows * self.box_rows + c / self.box_cols)
    }

    fn count(self) -> u128 {
        self.count_within(u64::MAX)
            .expect("no search runs 2^64 nodes")
    }

    /// The count, or `None` if the search needs more than `budget` nodes.
    fn count_within(mut self, budget: u64) -> Option<u128> {
        self.budget = budget;
        let ok = (0..self.n).all(|c| self.place(c, c as u8 + 1)) && self.settle();
        let count = if ok { self.search() } else { 0 };
        (self.budget > 0).then_some(count)
    }

    /// The count, by listing every grid if that takes at most [`LISTING_NODES`] search nodes,
    /// else with the bulk part. Listing is quick where few grids are fixed, and there the
    /// bulk part can cost more: filling the outside first enumerates fillings that the part
    /// then refutes one by one.
    fn count_either_way(group: Group, image: &[usize]) -> u128 {
        let mut listing = Fixed::new(group, image);
        if listing.block.take().is_none() {
            return listing.count();
        }
        listing
            .count_within(LISTING_NODES)
            .unwrap_or_else(|| Fixed::new(group, image).count())
    }

    /// Puts `digit` in `cell` and queues the cell for `settle`; false when that breaks a rule.
    fn place(&mut self, cell: usize, digit: u8) -> bool {
        let held = self.values[cell];
        if held != 0 {
            return held == digit;
        }
        let (r, c, b) = self.houses(cell);
        let bit = 1u16 << digit;
        if (self.row[r] | self.col[c] | self.boxes[b]) & bit != 0 {
            return false;
        }
        self.row[r] |= bit;
        self.col[c] |= bit;
        self.boxes[b] |= bit;
        self.values[cell] = digit;
        self.filled += 1;
        if let Some(block) = &mut self.block
            && !block.inside[cell]
        {
            block.outside_empty -= 1;
        }
        self.trail.push(Undo::Cell(cell));
        self.queue.push(cell);
        true
    }

    /// Sets `sigma(from) = to`, queueing the cells holding either digit; false when `sigma`
    /// would stop being one-to-one.
    fn relabel(&mut self, from: u8, to: u8) -> bool {
        if self.sigma[from as usize] == to {
            return true;
        }
        if self.sigma[from as usize] != 0 || self.sigma_inv[to as usize] != 0 {
            return false;
        }
        self.sigma[from as usize] = to;
        self.sigma_inv[to as usize] = from;
        self.trail.push(Undo::Sigma(from));
        for cell in 0..self.values.len() {
            let digit = self.values[cell];
            if digit == from || digit == to {
                self.queue.push(cell);
            }
        }
        true
    }

    /// Applies `X(image(c)) = sigma(X(c))` around every queued cell until nothing changes.
    fn settle(&mut self) -> bool {
        while let Some(cell) = self.queue.pop() {
            let digit = self.values[cell];
            if !self.cycle_fits(digit, self.period[cell]) {
                self.queue.clear();
                return false;
            }
            let (next, prev) = (self.image[cell], self.preimage[cell]);
            let forward = self.sigma[digit as usize];
            let ok = if forward != 0 {
                self.place(next, forward)
            } else if self.values[next] != 0 {
                self.relabel(digit, self.values[next])
            } else {
                true
            };
            if !ok {
                self.queue.clear();
                return false;
            }
            let backward = self.sigma_inv[digit as usize];
            let ok = if backward != 0 {
                self.place(prev, backward)
            } else if self.values[prev] != 0 {
                self.relabel(self.values[prev], digit)
            } else {
                true
            };
            if !ok {
                self.queue.clear();
                return false;
            }
        }
        true
    }

    /// Going round a cell's cycle of length `period` applies `sigma` `period` times to its
    /// digit and comes back to the cell, so `sigma^period` fixes the digit: the known part of
    /// the digit's `sigma`-cycle must close after a divisor of `period` steps, and cannot run
    /// `period` steps open.
    fn cycle_fits(&self, digit: u8, period: usize) -> bool {
        let mut at = digit;
        for step in 1..=period {
            at = self.sigma[at as usize];
            if at == 0 {
                return true;
            }
            if at == digit {
                return period % step == 0;
            }
        }
        false
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop().expect("above the mark") {
                Undo::Cell(cell) => {
                    let (r, c, b) = self.houses(cell);
                    let bit = !(1u16 << self.values[cell]);
                    self.row[r] &= bit;
                    self.col[c] &= bit;
                    self.boxes[b] &= bit;
                    self.values[cell] = 0;
                    self.filled -= 1;
                    if let Some(block) = &mut self.block
                        && !block.inside[cell]
                    {
                        block.outside_empty += 1;
                    }
                }
                Undo::Sigma(from) => {
                    let to = self.sigma[from as usize];
                    self.sigma[from as usize] = 0;
                    self.sigma_inv[to as usize] = 0;
                }
            }
        }
    }

    /// What the completions of the bulk part depend on once the outside is filled: its cells,
    /// the digits of every row, column and box, and `sigma`.
    fn block_key(&self) -> Vec<u8> {
        let block = self.block.as_ref().expect("a part counted in bulk");
        let mut key: Vec<u8> = block.cells.iter().map(|&cell| self.values[cell]).collect();
        for masks in [&self.row, &self.col, &self.boxes] {
            key.extend(masks.iter().flat_map(|mask| mask.to_le_bytes()));
        }
        key.extend_from_slice(&self.sigma[1..]);
        key
    }

    /// The completions of the current state, branching on the empty cell with the fewest
    /// digits its houses allow.
    fn search(&mut self) -> u128 {
        if self.filled == self.values.len() {
            return 1;
        }
        if self.budget == 0 {
            return 0;
        }
        self.budget -= 1;
        let (outside_first, at_key) = self.block.as_ref().map_or((false, false), |block| {
            (
                block.outside_empty > 0,
                block.outside_empty == 0 && !block.counting,
            )
        });
        if at_key {
            let key = self.block_key();
            let block = self.block.as_mut().expect("checked above");
            if let Some(&count) = block.memo.get(&key) {
                return count;
            }
            block.counting = true;
            let count = self.search();
            let block = self.block.as_mut().expect("checked above");
            block.counting = false;
            if block.memo.len() < MEMO_LIMIT {
                block.memo.insert(key, count);
            }
            return count;
        }
        let all = ((1u16 << self.n) - 1) << 1;
        let mut best = (u32::MAX, 0usize, 0u16);
        for cell in 0..self.values.len() {
            if self.values[cell] != 0 {
                continue;
            }
            let (r, c, b) = self.houses(cell);
            let free = all & !(self.row[r] | self.col[c] | self.boxes[b]);
            let options = free.count_ones();
            // While the outside is filled first, a dead cell of the bulk part still ends the
            // branch; its live cells wait.
            if options == 0 {
                return 0;
            }
            if outside_first && self.block.as_ref().is_some_and(|block| block.inside[cell]) {
                continue;
            }
            if options < best.0 {
                best = (options, cell, free);
                if options <= 1 {
                    break;
                }
            }
        }
        let (_, cell, mut free) = best;
        let mut count = 0;
        while free != 0 {
            let digit = free.trailing_zeros() as u8;
            free &= free - 1;
            let mark = self.trail.len();
            if self.place(cell, digit) && self.settle() {
                count += self.search();
            }
            self.undo(mark);
        }
        count
    }
}

impl Block {
    /// The part to count in bulk: of the bands, the stacks and the unions of one band and one
    /// stack that the move maps onto itself, the one with the most cells outside the first
    /// row (which is filled from the start); `None` when the move maps none onto itself.
    fn choose(group: Group, image: &[usize]) -> Option<Block> {
        let n = group.side;
        let (bands, stacks) = (n / group.box_rows, n / group.box_cols);
        let band = |k: usize| move |cell: usize| cell / n / group.box_rows == k;
        let stack = |k: usize| move |cell: usize| cell % n / group.box_cols == k;
        let mut candidates: Vec<Vec<bool>> = Vec::new();
        for k in 0..bands {
            candidates.push((0..n * n).map(band(k)).collect());
        }
        for j in 0..stacks {
            candidates.push((0..n * n).map(stack(j)).collect());
        }
        // A transposing move maps bands to stacks, and the union of the band and stack it
        // swaps leaves an outside of boxes so loosely tied that listing its fillings costs
        // more than the bulk count saves.
        let transposes = image[0] / n != image[1] / n;
        if !transposes {
            for k in 0..bands {
                for j in 0..stacks {
                    let union = (0..n * n).map(|cell| band(k)(cell) || stack(j)(cell));
                    candidates.push(union.collect());
                }
            }
        }
        let inside = candidates
            .into_iter()
            .filter(|inside| (0..n * n).all(|cell| inside[cell] == inside[image[cell]]))
            .max_by_key(|inside| (n..n * n).filter(|&cell| inside[cell]).count())?;
        let cells: Vec<usize> = (0..n * n).filter(|&cell| inside[cell]).collect();
        Some(Block {
            outside_empty: n * n - cells.len(),
            inside,
            cells,
            counting: false,
            memo: HashMap::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_through_their_indices() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
            let group = Group::new(rows, cols);
            for index in (0..group.order()).step_by(97) {
                assert_eq!(group.encode(&group.decode(index)), index);
            }
        }
    }

    #[test]
    fn composing_moves_composes_their_cell_maps() {
        let group = Group::new(3, 3);
        for (i, j) in [(5, 123_456), (2_000_000, 77), (3_000_001, 1_700_003)] {
            let (f, g) = (group.decode(i), group.decode(j));
            let (fc, gc) = (group.cells(&f), group.cells(&g));
            let composed: Vec<usize> = gc.iter().map(|&at| fc[at]).collect();
            assert_eq!(group.cells(&group.compose(&f, &g)), composed);
        }
    }

    #[test]
    fn class_sizes_add_up_to_the_group_order() {
        for (rows, cols, order) in [(2, 2, 128), (2, 3, 3_456), (3, 2, 3_456)] {
            let group = Group::new(rows, cols);
            assert_eq!(group.order(), order);
            let classes = group.conjugacy_classes();
            assert_eq!(
                classes.iter().map(|&(_, size)| size).sum::<u64>(),
                order as u64
            );
            assert_eq!(classes[0], (0, 1), "the identity is a class of its own");
        }
    }

    #[test]
    fn the_nine_by_nine_group_has_russell_and_jarviss_275_classes() {
        let group = Group::new(3, 3);
        assert_eq!(group.order(), 3_359_232);
        let classes = group.conjugacy_classes();
        assert_eq!(classes.len(), 275);
        assert_eq!(
            classes.iter().map(|&(_, size)| size).sum::<u64>(),
            3_359_232
        );
        // Russell and Jarvis's table of the classes fixing grids, as (class size, grids with
        // first row 1..9 fixed up to relabelling), for the class sizes whose searches take
        // seconds: every class of these sizes is counted, and those fixing grids must be
        // exactly these rows (the other classes of these sizes fix none).
        let published: Vec<(u64, u128)> = vec![
            (288, 5_184),
            (1_728, 2_592),
            (1_728, 294_912),
            (2_304, 648),
            (3_456, 1_296),
            (3_888, 27_648),
            (7_776, 13_824),
            (10_368, 1_854),
            (15_552, 1_728),
            (15_552, 3_456),
            (20_736, 162),
            (20_736, 288),
            (31_104, 6_480),
            (69_984, 13_056),
            (93_312, 288),
        ];
        let sizes: Vec<u64> = published.iter().map(|&(size, _)| size).collect();
        let mut found: Vec<(u64, u128)> = classes
            .iter()
            .filter(|(_, size)| sizes.contains(size))
            .map(|&(index, size)| {
                let image = group.cells(&group.decode(index));
                (size, Fixed::count_either_way(group, &image))
            })
            .filter(|&(_, fixed)| fixed > 0)
            .collect();
        found.sort_unstable();
        assert_eq!(found, published);
    }

    #[test]
    fn counting_a_part_in_bulk_keeps_every_class_count() {
        // Every class of the small boards, counted with the bulk part the move offers and by
        // listing every grid; the bulk count must be in use for some classes that fix grids.
        let mut bulk_used = 0;
        for (rows, cols) in [(2, 2), (2, 3), (3, 2)] {
            let group = Group::new(rows, cols);
            for (index, _) in group.conjugacy_classes() {
                let image = group.cells(&group.decode(index));
                let bulk = Fixed::new(group, &image);
                let mut listed = Fixed::new(group, &image);
                let uses_bulk = listed.block.take().is_some();
                let fixed = bulk.count();
                assert_eq!(
                    fixed,
                    listed.count(),
                    "{rows}x{cols}, class of move {index}"
                );
                bulk_used += usize::from(uses_bulk && fixed > 0);
            }
        }
        assert!(bulk_used >= 10, "bulk counts used on {bulk_used} classes");
    }

    #[test]
    fn burnside_agrees_with_the_orbits_on_small_boards() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2)] {
            let shape = Shape::new(rows, cols).unwrap();
            let count = burnside(shape).unwrap();
            assert_eq!(
                count.essentially_different,
                u128::from(super::super::classes::essentially_different(shape).unwrap()),
                "{shape}"
            );
        }
    }
}
