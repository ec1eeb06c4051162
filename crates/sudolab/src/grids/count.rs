//! Exact counts of complete grids by the band method.
//!
//! The board is cut into bands (the rows of one row of boxes) and stacks (the columns of one
//! column of boxes). A band's *column layout* says, for every digit and every stack, in which
//! column of that stack the digit stands; a grid is a choice of one band per band position
//! whose layouts give every column each digit once. Two facts make the count small:
//!
//! - the number of bands with a given layout (`bands_with_layout`) and the number of ways to
//!   complete the other bands around a first band (`completions`) depend on the first band only
//!   through its layout, so the grids are `sum over layouts L of bands(L) * completions(L)`;
//! - both are unchanged by relabelling digits, permuting the columns inside a stack and
//!   permuting stacks, so the first band's layouts fall into a few classes, each counted once.
//!
//! The board is turned (a transposed grid is a grid of the transposed box shape) so that the
//! number of bands is the smaller box side. Counts of boards up to 9x9 stay below 10^22 and fit
//! in `u128`.

use std::collections::HashMap;
use std::fmt;

use crate::model::Shape;

/// The largest board side counted: the 12x12 boards' layouts are beyond this method's time.
pub const MAX_SIDE: usize = 9;

/// Why a box shape is not counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// The box shape is outside the shapes counted.
    #[error(
        "--box {shape}: grid counting needs boxes of at least 2 rows and 2 columns and a board \
         side of at most {MAX_SIDE} (2x2, 2x3, 3x2, 2x4, 4x2, 3x3)"
    )]
    Unsupported {
        /// The shape asked for.
        shape: Shape,
    },
}

/// One class of first-band column layouts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutClass {
    /// Layouts of the first band in the class, among those whose first stack is fixed.
    pub layouts: u128,
    /// Bands with one layout of the class.
    pub bands: u128,
    /// Ways to complete the grid below one band of the class.
    pub completions: u128,
}

/// The count of complete grids of one box shape, with the classes it was summed over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridCount {
    /// The box shape asked for.
    pub shape: String,
    /// Rows of a band in the orientation counted (the larger box side).
    pub band_rows: usize,
    /// Bands of the board in the orientation counted (the smaller box side).
    pub bands: usize,
    /// Layouts of the first band for each layout whose first stack is fixed: the relabellings
    /// of the first stack times the column orders of the other stacks.
    pub multiplier: u128,
    /// The classes, largest first.
    pub classes: Vec<LayoutClass>,
    /// The number of complete grids: `multiplier * sum(layouts * bands * completions)`.
    pub grids: u128,
}

impl fmt::Display for GridCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.grids)
    }
}

/// The orientation counted: `stacks` stacks of `width` columns, `width` bands of `stacks`
/// rows, side `stacks * width`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Board {
    /// Rows per band, which is also the number of stacks.
    pub(super) stacks: usize,
    /// Columns per stack, which is also the number of bands.
    pub(super) width: usize,
    pub(super) side: usize,
}

/// The largest number of stacks (board side 9 with bands of at least 2 rows: at most 4).
pub(super) const MAX_STACKS: usize = 4;
/// The largest number of columns per stack.
pub(super) const MAX_WIDTH: usize = 4;

/// A column layout: `at[d][k]` is the column, inside stack `k`, of digit `d`.
pub(super) type Layout = [[u8; MAX_STACKS]; MAX_SIDE];

impl Board {
    pub(super) fn of(shape: Shape) -> Result<Board, CountError> {
        let (rows, cols) = (shape.box_rows(), shape.box_cols());
        if rows < 2 || cols < 2 || rows * cols > MAX_SIDE {
            return Err(CountError::Unsupported { shape });
        }
        Ok(Board {
            stacks: rows.max(cols),
            width: rows.min(cols),
            side: rows * cols,
        })
    }

    /// The assignments of digits to the columns of one stack, `stacks` digits per column,
    /// columns numbered in the order of their first digit (each column order counted once).
    pub(super) fn stack_assignments(self) -> Vec<[u8; MAX_SIDE]> {
        fn extend(
            board: Board,
            at: usize,
            used: &mut [usize; MAX_WIDTH],
            cur: &mut [u8; MAX_SIDE],
            out: &mut Vec<[u8; MAX_SIDE]>,
        ) {
            if at == board.side {
                out.push(*cur);
                return;
            }
            let opened = used.iter().take(board.width).filter(|&&n| n > 0).count();
            for col in 0..board.width.min(opened + 1) {
                if used[col] < board.stacks {
                    used[col] += 1;
                    cur[at] = col as u8;
                    extend(board, at + 1, used, cur, out);
                    used[col] -= 1;
                }
            }
        }
        let mut out = Vec::new();
        extend(self, 0, &mut [0; MAX_WIDTH], &mut [0; MAX_SIDE], &mut out);
        out
    }

    /// The bands whose column layout is `layout`: the ways to split each stack's columns into
    /// rows so that every row holds each digit once.
    pub(super) fn bands_with_layout(self, layout: &Layout) -> u128 {
        let mut cells = [[0u16; MAX_WIDTH]; MAX_STACKS];
        for (digit, stacks) in layout.iter().enumerate().take(self.side) {
            for (stack, &col) in stacks.iter().enumerate().take(self.stacks) {
                cells[stack][col as usize] |= 1 << digit;
            }
        }
        self.rows(&mut cells, self.stacks)
    }

    /// Ways to fill `rows_left` rows from the digits left in each column of each stack.
    pub(super) fn rows(self, cells: &mut [[u16; MAX_WIDTH]; MAX_STACKS], rows_left: usize) -> u128 {
        if rows_left <= 1 {
            // Each column holds one digit, and each digit is left in one stack: one row (or,
            // every row drawn, nothing is left: one way).
            return 1;
        }
        if rows_left == 2 {
            return self.two_rows(cells);
        }
        self.one_row(cells, rows_left, 0, 0)
    }

    /// Two rows from columns of two digits each: each digit is left in two columns, so the
    /// digits and columns form disjoint cycles, and each cycle goes into the two rows in
    /// exactly two ways. The ways are 2 to the number of cycles (joined digits, counted by
    /// union-find).
    fn two_rows(self, cells: &[[u16; MAX_WIDTH]; MAX_STACKS]) -> u128 {
        fn root(parent: &mut [u8; MAX_SIDE], mut digit: u8) -> u8 {
            while parent[digit as usize] != digit {
                parent[digit as usize] = parent[parent[digit as usize] as usize];
                digit = parent[digit as usize];
            }
            digit
        }
        let mut parent: [u8; MAX_SIDE] = std::array::from_fn(|digit| digit as u8);
        let mut cycles = self.side as u32;
        for stack in cells.iter().take(self.stacks) {
            for &column in stack.iter().take(self.width) {
                let first = column.trailing_zeros() as u8;
                let second = (column & (column - 1)).trailing_zeros() as u8;
                let (a, b) = (root(&mut parent, first), root(&mut parent, second));
                if a != b {
                    parent[a as usize] = b;
                    cycles -= 1;
                }
            }
        }
        1 << cycles
    }

    /// Chooses the digit of the row being filled in column `at` (stack-major), none used twice.
    pub(super) fn one_row(
        self,
        cells: &mut [[u16; MAX_WIDTH]; MAX_STACKS],
        rows_left: usize,
        at: usize,
        used: u16,
    ) -> u128 {
        if at == self.side {
            return self.rows(cells, rows_left - 1);
        }
        let (stack, col) = (at / self.width, at % self.width);
        let mut choices = cells[stack][col] & !used;
        let mut total = 0;
        while choices != 0 {
            let bit = choices & choices.wrapping_neg();
            choices &= choices - 1;
            cells[stack][col] &= !bit;
            total += self.one_row(cells, rows_left, at + 1, used | bit);
            cells[stack][col] |= bit;
        }
        total
    }

    /// Ways to complete the bands after the first ones, given for each digit and stack the
    /// columns it already takes (`taken[d][k]`, a bit per column); `bands_left` bands remain.
    pub(super) fn completions(
        self,
        taken: &mut [[u8; MAX_STACKS]; MAX_SIDE],
        bands_left: usize,
    ) -> u128 {
        let full = (1u8 << self.width) - 1;
        if bands_left == 1 {
            let mut layout: Layout = [[0; MAX_STACKS]; MAX_SIDE];
            for digit in 0..self.side {
                for stack in 0..self.stacks {
                    layout[digit][stack] = (full & !taken[digit][stack]).trailing_zeros() as u8;
                }
            }
            return self.bands_with_layout(&layout);
        }
        // Each stack's choices are independent of the others': list them, then combine.
        let per_stack: Vec<Vec<[u8; MAX_SIDE]>> = (0..self.stacks)
            .map(|stack| {
                let mut out = Vec::new();
                let mut cur = [0u8; MAX_SIDE];
                self.fill_stack(taken, stack, 0, &mut [0; MAX_WIDTH], &mut cur, &mut out);
                out
            })
            .collect();
        let mut layout: Layout = [[0; MAX_STACKS]; MAX_SIDE];
        self.combine(&per_stack, 0, &mut layout, taken, bands_left)
    }

    /// The next band's columns in one stack: each digit in a column it does not yet take,
    /// `stacks` digits per column.
    pub(super) fn fill_stack(
        self,
        taken: &[[u8; MAX_STACKS]; MAX_SIDE],
        stack: usize,
        digit: usize,
        per_col: &mut [usize; MAX_WIDTH],
        cur: &mut [u8; MAX_SIDE],
        out: &mut Vec<[u8; MAX_SIDE]>,
    ) {
        if digit == self.side {
            out.push(*cur);
            return;
        }
        for col in 0..self.width {
            if taken[digit][stack] & (1 << col) == 0 && per_col[col] < self.stacks {
                per_col[col] += 1;
                cur[digit] = col as u8;
                self.fill_stack(taken, stack, digit + 1, per_col, cur, out);
                per_col[col] -= 1;
            }
        }
    }

    fn combine(
        self,
        per_stack: &[Vec<[u8; MAX_SIDE]>],
        stack: usize,
        layout: &mut Layout,
        taken: &mut [[u8; MAX_STACKS]; MAX_SIDE],
        bands_left: usize,
    ) -> u128 {
        if stack == self.stacks {
            let bands = self.bands_with_layout(layout);
            if bands == 0 {
                return 0;
            }
            for digit in 0..self.side {
                for k in 0..self.stacks {
                    taken[digit][k] |= 1 << layout[digit][k];
                }
            }
            let below = self.completions(taken, bands_left - 1);
            for digit in 0..self.side {
                for k in 0..self.stacks {
                    taken[digit][k] &= !(1 << layout[digit][k]);
                }
            }
            return bands * below;
        }
        let mut total = 0;
        for assignment in &per_stack[stack] {
            for digit in 0..self.side {
                layout[digit][stack] = assignment[digit];
            }
            total += self.combine(per_stack, stack + 1, layout, taken, bands_left);
        }
        total
    }

    /// A key equal for two layouts exactly when one is the other with digits relabelled,
    /// columns permuted inside stacks and stacks permuted: the least, over stack orders and
    /// column orders, of the sorted list of the digits' column vectors.
    pub(super) fn class_key(self, layout: &Layout, transforms: &Transforms) -> u128 {
        // Each digit's columns, one per stack, as a number in base `width`: the index of its
        // column vector in every transform's map.
        let mut codes = [0usize; MAX_SIDE];
        for (digit, code) in codes.iter_mut().enumerate().take(self.side) {
            *code = layout[digit][..self.stacks]
                .iter()
                .fold(0, |code, &column| code * self.width + column as usize);
        }
        // A transform's sorted list as its count of each vector, a nibble each, vector 0's the
        // highest (a count is at most 9, the digits; a vector at most 26, so 32 nibbles hold
        // them all): of two sorted lists of one length the lexicographically smaller has more
        // of the first vector where their counts differ, so the least list has the greatest
        // counts.
        let mut best = 0u128;
        for map in transforms.maps.chunks_exact(transforms.codes) {
            let counts = codes[..self.side]
                .iter()
                .fold(0u128, |counts, &code| counts + (1 << (124 - 4 * map[code])));
            best = best.max(counts);
        }
        // The least list, read back in order, one byte a vector.
        (0..32).fold(0u128, |key, vector| {
            let count = (best >> (124 - 4 * vector)) & 0xF;
            (0..count).fold(key, |key, _| key << 8 | vector)
        })
    }

    /// The first band's layout with the first stack fixed and the other stacks `picks`.
    pub(super) fn layout_of(self, assignments: &[[u8; MAX_SIDE]], picks: &[usize]) -> Layout {
        let mut layout: Layout = [[0; MAX_STACKS]; MAX_SIDE];
        for (digit, stacks) in layout.iter_mut().enumerate().take(self.side) {
            stacks[0] = (digit / self.stacks) as u8;
            for (k, &pick) in picks.iter().enumerate() {
                stacks[k + 1] = assignments[pick][digit];
            }
        }
        layout
    }

    /// First-band layouts per layout with the first stack fixed: the relabellings of the first
    /// stack, `side! / (stacks!)^width`, times the column orders of the other stacks.
    pub(super) fn multiplier(self) -> u128 {
        factorial(self.side) / factorial(self.stacks).pow(self.width as u32)
            * factorial(self.width).pow(self.stacks as u32 - 1)
    }

    /// Every stack order with every column order inside each stack, each as the map of a
    /// digit's column vector (its column in each stack, in base `width`) to the vector the
    /// transform makes of it: stack `k` of the image is stack `order[k]` of the layout, its
    /// columns renumbered by the `k`-th column order.
    pub(super) fn transforms(self) -> Transforms {
        let stack_orders = permutations(self.stacks);
        let col_orders = permutations(self.width);
        let codes = self.width.pow(self.stacks as u32);
        // `class_key` gives each vector a nibble of a `u128`.
        debug_assert!(codes <= 32, "{codes} column vectors");
        let mut maps = Vec::new();
        for order in &stack_orders {
            let mut choice = vec![0usize; self.stacks];
            loop {
                for code in 0..codes {
                    // The column in stack `from` of the vector numbered `code`.
                    let column = |from: usize| {
                        code / self.width.pow((self.stacks - 1 - from) as u32) % self.width
                    };
                    let image = (0..self.stacks).fold(0, |image, k| {
                        image * self.width
                            + col_orders[choice[k]][column(order[k] as usize)] as usize
                    });
                    // At most 4^2, 2^4 or 3^3 vectors: a byte holds every image.
                    maps.push(image as u8);
                }
                // The next combination of column orders, like an odometer.
                let mut k = 0;
                while k < self.stacks {
                    choice[k] += 1;
                    if choice[k] < col_orders.len() {
                        break;
                    }
                    choice[k] = 0;
                    k += 1;
                }
                if k == self.stacks {
                    break;
                }
            }
        }
        Transforms { codes, maps }
    }
}

/// The transforms of [`Board::transforms`]: `codes` entries of `maps` a transform.
pub(super) struct Transforms {
    codes: usize,
    maps: Vec<u8>,
}

fn permutations(n: usize) -> Vec<Vec<u8>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for smaller in permutations(n - 1) {
        for at in 0..=smaller.len() {
            let mut p = smaller.clone();
            p.insert(at, (n - 1) as u8);
            out.push(p);
        }
    }
    out
}

fn factorial(n: usize) -> u128 {
    (1..=n as u128).product()
}

/// A member of a class: the other stacks' assignments (indices into
/// [`Board::stack_assignments`], non-decreasing) and the number of orders of those stacks.
pub(super) type Member = (Vec<usize>, u128);

/// A class of first-band layouts (first stack fixed), with its members.
pub(super) struct Class {
    /// Every member as its other stacks' assignments (indices into
    /// [`Board::stack_assignments`], non-decreasing), with the number of orders of those stacks.
    pub(super) members: Vec<Member>,
    pub(super) count: LayoutClass,
}

/// The first band's layouts whose first stack is fixed, in classes (each with its first
/// layout and its members), in the order of their keys: the same order on every run.
pub(super) fn layout_classes(
    board: Board,
    assignments: &[[u8; MAX_SIDE]],
) -> Vec<(Layout, Vec<Member>)> {
    let transforms = board.transforms();
    // The first stack is fixed to digits 0..stacks in column 0 and so on (any first stack is
    // this one with the digits relabelled); the other stacks run over the assignments in
    // non-decreasing order, each multiset of stacks weighted by its number of orders.
    let mut classes: HashMap<u128, (Layout, Vec<Member>)> = HashMap::new();
    let mut picks = vec![0usize; board.stacks - 1];
    loop {
        let layout = board.layout_of(assignments, &picks);
        let key = board.class_key(&layout, &transforms);
        let orders = orders_of(&picks);
        classes
            .entry(key)
            .or_insert_with(|| (layout, Vec::new()))
            .1
            .push((picks.clone(), orders));
        // The next non-decreasing tuple: raise the last pick that can rise, copy it rightwards.
        let Some(k) = picks.iter().rposition(|&pick| pick + 1 < assignments.len()) else {
            break;
        };
        let value = picks[k] + 1;
        for later in &mut picks[k..] {
            *later = value;
        }
    }
    let mut classes: Vec<(u128, (Layout, Vec<Member>))> = classes.into_iter().collect();
    classes.sort_unstable_by_key(|&(key, _)| key);
    classes.into_iter().map(|(_, class)| class).collect()
}

/// The first band's layouts whose first stack is fixed, in classes, each class counted.
pub(super) fn classify(board: Board, assignments: &[[u8; MAX_SIDE]]) -> Vec<Class> {
    let mut out: Vec<Class> = layout_classes(board, assignments)
        .into_iter()
        .map(|(layout, members)| {
            let bands = board.bands_with_layout(&layout);
            let mut taken = [[0u8; MAX_STACKS]; MAX_SIDE];
            for digit in 0..board.side {
                for k in 0..board.stacks {
                    taken[digit][k] = 1 << layout[digit][k];
                }
            }
            let completions = if bands == 0 {
                0
            } else {
                board.completions(&mut taken, board.width - 1)
            };
            let layouts = members.iter().map(|(_, orders)| orders).sum();
            Class {
                members,
                count: LayoutClass {
                    layouts,
                    bands,
                    completions,
                },
            }
        })
        .collect();
    out.sort_by(|a, b| {
        let (a, b) = (&a.count, &b.count);
        (b.layouts, b.bands, b.completions).cmp(&(a.layouts, a.bands, a.completions))
    });
    out
}

/// The number of complete grids with boxes of `shape`, by the band method.
pub fn count_grids(shape: Shape) -> Result<GridCount, CountError> {
    let board = Board::of(shape)?;
    let multiplier = board.multiplier();
    if board.width == 3 {
        // 9x9: the sampler's tables count the completions (`three.rs`).
        let mut classes: Vec<LayoutClass> = super::three::Nine::new()
            .counts()
            .map(|(layouts, bands, completions)| LayoutClass {
                layouts,
                bands,
                completions,
            })
            .collect();
        classes.sort_by(|a, b| {
            (b.layouts, b.bands, b.completions).cmp(&(a.layouts, a.bands, a.completions))
        });
        let grids = multiplier
            * classes
                .iter()
                .map(|class| class.layouts * class.bands * class.completions)
                .sum::<u128>();
        return Ok(GridCount {
            shape: shape.to_string(),
            band_rows: board.stacks,
            bands: board.width,
            multiplier,
            classes,
            grids,
        });
    }
    let classes = classify(board, &board.stack_assignments());
    let grids = multiplier
        * classes
            .iter()
            .map(|class| class.count.layouts * class.count.bands * class.count.completions)
            .sum::<u128>();
    Ok(GridCount {
        shape: shape.to_string(),
        band_rows: board.stacks,
        bands: board.width,
        multiplier,
        classes: classes.into_iter().map(|class| class.count).collect(),
        grids,
    })
}

/// The number of distinct orders of a sorted tuple: `len! / product(run length!)`.
fn orders_of(sorted: &[usize]) -> u128 {
    let mut orders = factorial(sorted.len());
    let mut run = 1;
    for pair in sorted.windows(2) {
        if pair[0] == pair[1] {
            run += 1;
        } else {
            orders /= factorial(run);
            run = 1;
        }
    }
    orders / factorial(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grids(rows: usize, cols: usize) -> u128 {
        count_grids(Shape::new(rows, cols).unwrap()).unwrap().grids
    }

    #[test]
    fn small_boxes_match_the_published_counts() {
        assert_eq!(grids(2, 2), 288);
        assert_eq!(grids(2, 3), 28_200_960);
        assert_eq!(grids(3, 2), 28_200_960);
    }
}
