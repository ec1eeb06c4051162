//! Exactly uniform 9x9 grids, fast: the band method's counts made into tables once, so that a
//! draw is a few weighted choices.
//!
//! A 9x9 grid is three bands. Given the first band's column layout `L1` (the column of each
//! digit in each stack), a second band of layout `L2` leaves the third band's layout `L3`
//! fixed (each digit takes, in each stack, the column the first two leave), so the grids with
//! a first band are `sum over L2 of bands(L2) * bands(L3)`. Three tables make that quick:
//!
//! - `bands(L)` depends on `L` only up to relabelling digits and permuting the columns inside
//!   a stack: relabel the digits so that the first stack reads 012 345 678 down its columns,
//!   put the other two stacks' columns in the order of their first digit, and `L` is a pair of
//!   the 280 normal stack assignments: a table of 280 x 280 counts.
//! - The first band's layouts fall into the 44 classes of the band method (`count::classify`'s
//!   grouping); each class's representative `R` has 56 second-band choices per stack, so its
//!   completions are a sum over 56^3 pairs of table entries, kept as partial sums over the
//!   first two stacks' choices.
//! - A draw picks a class (by layouts times bands times completions), a band of layout `R`
//!   (each equally likely), the second band's layout stack by stack from the partial sums,
//!   a band of it and one of the third layout, and then a uniform element of the group of
//!   digit relabellings, stack orders and column orders inside stacks. That group maps grids
//!   whose first band has a layout of the class onto each other, and a grid whose first layout
//!   is `R` drawn uniformly, moved by a uniform element, is uniform over the grids of the
//!   class (each is reached by exactly as many elements as fix `R`). Every 9x9 grid is
//!   therefore exactly equally likely.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::count::{Board, Layout, MAX_SIDE, MAX_STACKS, layout_classes};
use super::sample::{bits, pick, pick_cumulative, running_sums, shuffle};
use crate::model::{Grid, Shape};

/// Normal stack assignments (digit to column, columns in the order of their first digit).
const ASSIGNMENTS: usize = 280;
/// A stack's choices of the second band's columns, each digit in one of the two columns the
/// first band leaves it, three digits a column.
const CHOICES: usize = 56;
/// 3^9: an assignment as a base-3 number.
const CODES: usize = 19_683;

/// A 9x9 layout: `at[d][k]` is the column, inside stack `k`, of digit `d`.
type Layout9 = [[u8; 3]; 9];

/// One class of first-band layouts with the tables of its draw.
struct Class9 {
    /// A layout of the class, the first stack reading 012 345 678 down its columns.
    layout: Layout9,
    /// Layouts of the class among those whose first stack is fixed.
    layouts: u128,
    /// Bands with the layout.
    bands: u64,
    /// Ways to complete the grid below one band of the layout.
    completions: u64,
    /// `choices[k][i]`: the `i`th second-band choice of stack `k`.
    choices: [[[u8; 9]; CHOICES]; 3],
    /// `firsts[i0]`: the completions whose second band takes choice `i0` in the first stack.
    firsts: [u64; CHOICES],
    /// `pairs[i0 * CHOICES + i1]`: those that take `i0`, then `i1` in the second stack.
    pairs: Vec<u64>,
    /// Running sums of `firsts`, and of each `i0`'s row of `pairs`, for drawing by bisection.
    firsts_sums: Vec<u64>,
    pairs_sums: Vec<u64>,
    /// `second[i0 * CHOICES + i1]`, `third[i0 * CHOICES + i2]`: the table indices of the second
    /// band's second and third stacks once its first stack is normalised by choice `i0`;
    /// `second_left`, `third_left` the same for the third band.
    second: Vec<u16>,
    third: Vec<u16>,
    second_left: Vec<u16>,
    third_left: Vec<u16>,
}

/// The 9x9 sampler's tables.
pub(super) struct Nine {
    /// `index[code]`: the normal assignment with that base-3 code, `u16::MAX` for others.
    index: Vec<u16>,
    /// `bands[a * ASSIGNMENTS + b]`: bands whose layout normalises to the assignments `a`, `b`.
    bands: Vec<u32>,
    classes: Vec<Class9>,
    /// Running sums of the classes' grid counts (layouts x bands x completions).
    class_sums: Vec<u128>,
}

impl Nine {
    pub(super) fn new() -> Nine {
        let board = Board::of(Shape::new(3, 3).expect("3x3 boxes")).expect("counted");
        let assignments = board.stack_assignments();
        assert_eq!(
            assignments.len(),
            ASSIGNMENTS,
            "the normal 3-column assignments"
        );
        let mut index = vec![u16::MAX; CODES];
        for (i, assignment) in assignments.iter().enumerate() {
            index[code(&assignment[..9])] = i as u16;
        }
        let mut bands = vec![0u32; ASSIGNMENTS * ASSIGNMENTS];
        for a in 0..ASSIGNMENTS {
            for b in a..ASSIGNMENTS {
                let count = board.bands_with_layout(&board.layout_of(&assignments, &[a, b]));
                let count = u32::try_from(count).expect("a band's count is far below 2^32");
                // Swapping the two stacks keeps the count.
                bands[a * ASSIGNMENTS + b] = count;
                bands[b * ASSIGNMENTS + a] = count;
            }
        }
        let mut nine = Nine {
            index,
            bands,
            classes: Vec::new(),
            class_sums: Vec::new(),
        };
        for (layout, members) in layout_classes(board, &assignments) {
            let layout = narrow(&layout);
            let layouts = members.iter().map(|(_, orders)| orders).sum();
            let class = nine.class(layout, layouts);
            nine.classes.push(class);
        }
        nine.class_sums = running_sums(nine.counts().map(|(l, b, c)| l * b * c));
        nine
    }

    /// The table index of the layout whose first stack reads 012 345 678 and whose other
    /// stacks are `second` and `third` (any column order).
    fn pair(&self, second: &[u8; 9], third: &[u8; 9]) -> usize {
        let a = self.index[code(&normal(second))] as usize;
        let b = self.index[code(&normal(third))] as usize;
        a * ASSIGNMENTS + b
    }

    /// Bands with layout `layout`.
    fn bands_of(&self, layout: &Layout9) -> u64 {
        let relabel = standard(layout);
        let (mut second, mut third) = ([0u8; 9], [0u8; 9]);
        for digit in 0..9 {
            second[relabel[digit] as usize] = layout[digit][1];
            third[relabel[digit] as usize] = layout[digit][2];
        }
        u64::from(self.bands[self.pair(&second, &third)])
    }

    fn class(&self, layout: Layout9, layouts: u128) -> Class9 {
        let mut choices = [[[0u8; 9]; CHOICES]; 3];
        for (k, out) in choices.iter_mut().enumerate() {
            let mut found = 0;
            every_choice(&layout, k, 0, &mut [0; 3], &mut [0; 9], out, &mut found);
            assert_eq!(found, CHOICES, "56 second-band choices a stack");
        }
        // For a normalising relabelling, the table index of each choice of another stack.
        let row = |stack_of: &dyn Fn(usize, usize) -> u8, relabel: &[u8; 9]| {
            let mut out = [0u16; CHOICES];
            for (j, index) in out.iter_mut().enumerate() {
                let mut moved = [0u8; 9];
                for digit in 0..9 {
                    moved[relabel[digit] as usize] = stack_of(j, digit);
                }
                *index = self.index[code(&normal(&moved))];
            }
            out
        };
        let mut tables = [
            vec![0u16; CHOICES * CHOICES],
            vec![0u16; CHOICES * CHOICES],
            vec![0u16; CHOICES * CHOICES],
            vec![0u16; CHOICES * CHOICES],
        ];
        for i0 in 0..CHOICES {
            let mut band2: Layout9 = [[0; 3]; 9];
            let mut band3: Layout9 = [[0; 3]; 9];
            for digit in 0..9 {
                band2[digit][0] = choices[0][i0][digit];
                band3[digit][0] = 3 - layout[digit][0] - choices[0][i0][digit];
            }
            let (relabel2, relabel3) = (standard(&band2), standard(&band3));
            let span = i0 * CHOICES..(i0 + 1) * CHOICES;
            for stack in 1..3 {
                let mine = row(&|j, digit| choices[stack][j][digit], &relabel2);
                let rest = row(
                    &|j, digit| 3 - layout[digit][stack] - choices[stack][j][digit],
                    &relabel3,
                );
                tables[stack - 1][span.clone()].copy_from_slice(&mine);
                tables[stack + 1][span.clone()].copy_from_slice(&rest);
            }
        }
        let [second, third, second_left, third_left] = tables;
        let mut class = Class9 {
            layout,
            layouts,
            bands: self.bands_of(&layout),
            completions: 0,
            choices,
            firsts: [0; CHOICES],
            pairs: vec![0; CHOICES * CHOICES],
            firsts_sums: Vec::new(),
            pairs_sums: Vec::new(),
            second,
            third,
            second_left,
            third_left,
        };
        for i0 in 0..CHOICES {
            for i1 in 0..CHOICES {
                let sum = (0..CHOICES).map(|i2| self.weight(&class, i0, i1, i2)).sum();
                class.pairs[i0 * CHOICES + i1] = sum;
                class.firsts[i0] += sum;
            }
            class.completions += class.firsts[i0];
        }
        class.firsts_sums = running_sums(class.firsts);
        class.pairs_sums = class
            .pairs
            .chunks(CHOICES)
            .flat_map(|row| running_sums(row.iter().copied()))
            .collect();
        class
    }

    /// The ways to finish the grid below `class`'s first band with the second band's choices
    /// `i0`, `i1`, `i2`: its bands times the third band's.
    fn weight(&self, class: &Class9, i0: usize, i1: usize, i2: usize) -> u64 {
        let at = |table: &[u16], i: usize| table[i0 * CHOICES + i] as usize;
        let band2 = self.bands[at(&class.second, i1) * ASSIGNMENTS + at(&class.third, i2)];
        let band3 =
            self.bands[at(&class.second_left, i1) * ASSIGNMENTS + at(&class.third_left, i2)];
        u64::from(band2) * u64::from(band3)
    }

    /// The classes as the band method counts them: layouts, bands, completions.
    pub(super) fn counts(&self) -> impl Iterator<Item = (u128, u128, u128)> + Clone + '_ {
        self.classes.iter().map(|class| {
            (
                class.layouts,
                u128::from(class.bands),
                u128::from(class.completions),
            )
        })
    }

    /// One 9x9 grid, every grid equally likely.
    pub(super) fn sample(&self, rng: &mut ChaCha8Rng) -> Grid {
        // Each pick draws as `pick` over the plain weights would: the same grid for a seed.
        let class = &self.classes[pick_cumulative(rng, &self.class_sums)];
        let i0 = pick_cumulative(rng, &class.firsts_sums);
        let i1 = pick_cumulative(rng, &class.pairs_sums[i0 * CHOICES..(i0 + 1) * CHOICES]);
        let weights: Vec<u128> = (0..CHOICES)
            .map(|i2| u128::from(self.weight(class, i0, i1, i2)))
            .collect();
        let i2 = pick(rng, weights.into_iter());
        let first = class.layout;
        let mut second: Layout9 = [[0; 3]; 9];
        let mut third: Layout9 = [[0; 3]; 9];
        for digit in 0..9 {
            for (k, i) in [i0, i1, i2].into_iter().enumerate() {
                second[digit][k] = class.choices[k][i][digit];
                third[digit][k] = 3 - first[digit][k] - second[digit][k];
            }
        }
        // The group element: a relabelling, a stack order, a column order in each stack.
        let mut relabel: Vec<u8> = (1..=9).collect();
        shuffle(&mut relabel, rng);
        let mut stacks = [0usize, 1, 2];
        shuffle(&mut stacks, rng);
        let mut columns = [[0usize, 1, 2]; 3];
        for order in &mut columns {
            shuffle(order, rng);
        }
        let mut cells = vec![0u8; 81];
        for (b, layout) in [first, second, third].iter().enumerate() {
            let band = band_of(layout, rng);
            for (r, row) in band.iter().enumerate() {
                for (k, stack) in row.iter().enumerate() {
                    for (c, &digit) in stack.iter().enumerate() {
                        let x = stacks[k] * 3 + columns[k][c];
                        cells[(b * 3 + r) * 9 + x] = relabel[digit as usize];
                    }
                }
            }
        }
        Grid::from_cells(Shape::new(3, 3).expect("3x3 boxes"), cells)
            .expect("digits 1..=9 on a 9x9 board")
    }
}

/// The 9x9 part of a layout of `count`'s form.
fn narrow(layout: &Layout) -> Layout9 {
    let mut out: Layout9 = [[0; 3]; 9];
    for (digit, stacks) in out.iter_mut().enumerate() {
        stacks.copy_from_slice(&layout[digit][..3]);
    }
    out
}

const _: () = assert!(MAX_SIDE >= 9 && MAX_STACKS >= 3);

/// An assignment (nine columns in 0..3) as a base-3 number.
fn code(assignment: &[u8]) -> usize {
    assignment
        .iter()
        .rev()
        .fold(0, |code, &col| code * 3 + col as usize)
}

/// The assignment with its columns renumbered in the order of their first digit.
fn normal(assignment: &[u8; 9]) -> [u8; 9] {
    let mut rename = [u8::MAX; 3];
    let mut next = 0;
    let mut out = [0u8; 9];
    for (digit, &col) in assignment.iter().enumerate() {
        if rename[col as usize] == u8::MAX {
            rename[col as usize] = next;
            next += 1;
        }
        out[digit] = rename[col as usize];
    }
    out
}

/// The relabelling that makes the layout's first stack read 012 345 678 down its columns:
/// digit `d` becomes `relabel[d]` (digits of one column kept in their order).
fn standard(layout: &Layout9) -> [u8; 9] {
    let mut relabel = [0u8; 9];
    let mut filled = [0u8; 3];
    for (digit, stacks) in layout.iter().enumerate() {
        let col = stacks[0] as usize;
        relabel[digit] = (col * 3) as u8 + filled[col];
        filled[col] += 1;
    }
    relabel
}

/// The second band's choices in stack `k` below a first band of layout `first`, in the order
/// of `Board::fill_stack`: each digit in a column it does not take yet, three a column.
fn every_choice(
    first: &Layout9,
    k: usize,
    digit: usize,
    per_col: &mut [u8; 3],
    cur: &mut [u8; 9],
    out: &mut [[u8; 9]; CHOICES],
    found: &mut usize,
) {
    if digit == 9 {
        if *found < CHOICES {
            out[*found] = *cur;
        }
        *found += 1;
        return;
    }
    for col in 0..3u8 {
        if first[digit][k] != col && per_col[col as usize] < 3 {
            per_col[col as usize] += 1;
            cur[digit] = col;
            every_choice(first, k, digit + 1, per_col, cur, out, found);
            per_col[col as usize] -= 1;
        }
    }
}

/// A band's digits: `rows[r][k][c]` in row `r`, stack `k`, column `c` of the stack.
type Band9 = [[[u8; 3]; 3]; 3];

/// A band of layout `layout`, each such band equally likely. Its first row takes one digit of
/// each column, all nine different; the two rows left then hold two digits a column, which
/// join the digits into cycles (each digit is left in two columns), and each cycle goes into
/// the two rows in exactly two ways. So the first row is drawn in proportion to 2 to the
/// number of cycles it leaves, and each cycle's way by a fair coin.
fn band_of(layout: &Layout9, rng: &mut ChaCha8Rng) -> Band9 {
    // cells[k * 3 + c]: the digits of column c of stack k, as bits.
    let mut cells = [0u16; 9];
    for (digit, stacks) in layout.iter().enumerate() {
        for (k, &col) in stacks.iter().enumerate() {
            cells[k * 3 + col as usize] |= 1 << digit;
        }
    }
    // Each stack's ways to take one digit of each of its columns, as digit sets; the third
    // stack's looked up by set (its columns are disjoint, so a set is one way).
    let ways = |k: usize| {
        let mut out = Vec::with_capacity(27);
        for a in bits(cells[k * 3]) {
            for b in bits(cells[k * 3 + 1]) {
                for c in bits(cells[k * 3 + 2]) {
                    out.push(a | b | c);
                }
            }
        }
        out
    };
    let (first, second) = (ways(0), ways(1));
    // The third stack's ways as a set of 9-bit digit sets.
    let mut third = [0u64; 8];
    for c in ways(2) {
        third[usize::from(c >> 6)] |= 1 << (c & 63);
    }
    let mut rows = Vec::new();
    for &a in &first {
        for &b in &second {
            if a & b != 0 {
                continue;
            }
            let c = 0x1ff & !(a | b);
            if third[usize::from(c >> 6)] >> (c & 63) & 1 != 0 {
                // A digit of the row leaves only the column it takes in the row.
                let taken = [a, b, c];
                let left: [u16; 9] = std::array::from_fn(|j| cells[j] & !taken[j / 3]);
                rows.push(([a, b, c], left, cycles(&left)));
            }
        }
    }
    let chosen = pick(rng, rows.iter().map(|&(_, _, n)| 1u128 << n));
    let (_, left, _) = rows[chosen];
    let mut band: Band9 = [[[0; 3]; 3]; 3];
    for j in 0..9 {
        band[0][j / 3][j % 3] = (cells[j] & !left[j]).trailing_zeros() as u8;
    }
    // Row 1 of each column, by cycles: a column's digit in row 1 puts its other digit in
    // row 2, and that digit's other column must have it in row 1.
    let mut upper = [0u16; 9];
    let mut done = [false; 9];
    for start in 0..9 {
        if done[start] {
            continue;
        }
        let mut column = start;
        let mut up = if rng.random_bool(0.5) {
            left[start] & left[start].wrapping_neg()
        } else {
            left[start] & (left[start] - 1)
        };
        while !done[column] {
            done[column] = true;
            upper[column] = up;
            let down = left[column] & !up;
            let Some(next) = (0..9).find(|&j| j != column && left[j] & down != 0) else {
                break;
            };
            column = next;
            up = down;
        }
    }
    for j in 0..9 {
        band[1][j / 3][j % 3] = upper[j].trailing_zeros() as u8;
        band[2][j / 3][j % 3] = (left[j] & !upper[j]).trailing_zeros() as u8;
    }
    band
}

/// The cycles of the digits left two to a column: columns join their two digits.
fn cycles(left: &[u16; 9]) -> u32 {
    fn root(parent: &[u8; 9], mut digit: u8) -> u8 {
        while parent[digit as usize] != digit {
            digit = parent[digit as usize];
        }
        digit
    }
    let mut parent: [u8; 9] = std::array::from_fn(|digit| digit as u8);
    let mut count = 9;
    for &pair in left {
        let a = root(&parent, pair.trailing_zeros() as u8);
        let b = root(&parent, (pair & (pair - 1)).trailing_zeros() as u8);
        if a != b {
            parent[a as usize] = b;
            count -= 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::rng::stream;

    /// The layout in `count`'s form.
    fn widened(layout: &Layout9) -> Layout {
        let mut wide: Layout = [[0; MAX_STACKS]; MAX_SIDE];
        for (to, from) in wide.iter_mut().zip(layout) {
            to[..3].copy_from_slice(from);
        }
        wide
    }

    #[test]
    fn the_table_counts_bands_as_the_band_method_does() {
        let nine = Nine::new();
        let board = Board::of(Shape::new(3, 3).unwrap()).unwrap();
        // Layouts of every class, with digits relabelled and stacks and columns permuted:
        // the table's count equals the band method's.
        let mut rng = stream(5, 0);
        for class in &nine.classes {
            let mut relabel: Vec<u8> = (0..9).collect();
            shuffle(&mut relabel, &mut rng);
            let mut moved: Layout = [[0; MAX_STACKS]; MAX_SIDE];
            for digit in 0..9 {
                for k in 0..3 {
                    moved[relabel[digit] as usize][2 - k] = (class.layout[digit][k] + k as u8) % 3;
                }
            }
            assert_eq!(
                nine.bands_of(&narrow(&moved)) as u128,
                board.bands_with_layout(&moved)
            );
            assert_eq!(
                class.bands as u128,
                board.bands_with_layout(&widened(&class.layout))
            );
        }
    }

    #[test]
    fn the_draw_weights_sum_to_the_published_9x9_count() {
        let nine = Nine::new();
        // Felgenhauer and Jarvis's 44 classes of first bands, and their count of grids.
        assert_eq!(nine.classes.len(), 44);
        let board = Board::of(Shape::new(3, 3).unwrap()).unwrap();
        let weights: u128 = nine.counts().map(|(l, b, c)| l * b * c).sum();
        assert_eq!(board.multiplier() * weights, 6_670_903_752_021_072_936_960);
        // The partial sums the second band is drawn from add up to each class's completions,
        // and every first-stack choice's sum is its row of pair sums.
        for class in &nine.classes {
            assert_eq!(class.firsts.iter().sum::<u64>(), class.completions);
            for i0 in 0..CHOICES {
                let row: u64 = class.pairs[i0 * CHOICES..(i0 + 1) * CHOICES].iter().sum();
                assert_eq!(row, class.firsts[i0]);
            }
        }
    }

    #[test]
    fn a_band_of_a_layout_has_that_layout() {
        let nine = Nine::new();
        let mut rng = stream(9, 0);
        for class in &nine.classes {
            let band = band_of(&class.layout, &mut rng);
            for (digit, stacks) in class.layout.iter().enumerate() {
                for (k, &col) in stacks.iter().enumerate() {
                    let rows = (0..3)
                        .filter(|&r| band[r][k][col as usize] == digit as u8)
                        .count();
                    assert_eq!(rows, 1, "digit {digit} in stack {k}");
                }
            }
            for row in &band {
                let set: u16 = row.iter().flatten().fold(0, |set, &d| set | 1 << d);
                assert_eq!(set, 0x1ff);
            }
        }
    }

    /// The class key of the band whose row `r`, column `x` holds `digit(r, x)`.
    fn class_of(board: Board, digit: impl Fn(usize, usize) -> u8) -> u128 {
        let mut layout: Layout = [[0; MAX_STACKS]; MAX_SIDE];
        for r in 0..3 {
            for x in 0..9 {
                layout[digit(r, x) as usize - 1][x / 3] = (x % 3) as u8;
            }
        }
        board.class_key(&layout, &board.transforms())
    }

    /// In a uniform grid every band, and every stack read as a band (a transposed grid is a
    /// grid), has its layout's class with the chance the counts give the first band:
    /// layouts times bands times completions over their sum. The first band is drawn by
    /// those weights directly; the second band's class and the first stack's test the second
    /// band's draw, the band draws and the final moves. Chi-square over the classes (those
    /// expected fewer than 5 times pooled) at p > 0.01 for each fixed seed, the critical
    /// value by Wilson and Hilferty's cube-root approximation (within 1% of the tables for
    /// 20 degrees of freedom and more).
    #[test]
    fn the_second_band_and_the_first_stack_have_the_first_bands_class_chances() {
        let nine = Nine::new();
        let board = Board::of(Shape::new(3, 3).unwrap()).unwrap();
        let weights: Vec<f64> = nine.counts().map(|(l, b, c)| (l * b * c) as f64).collect();
        let total: f64 = weights.iter().sum();
        let transforms = board.transforms();
        let class_index: std::collections::HashMap<u128, usize> = nine
            .classes
            .iter()
            .enumerate()
            .map(|(i, class)| (board.class_key(&widened(&class.layout), &transforms), i))
            .collect();
        let draws = 3_000;
        for seed in [1, 2, 3] {
            let (mut second, mut stack) = (vec![0u64; 44], vec![0u64; 44]);
            for i in 0..draws {
                let grid = nine.sample(&mut stream(seed, i));
                let cells = grid.cells();
                second[class_index[&class_of(board, |r, x| cells[(3 + r) * 9 + x])]] += 1;
                stack[class_index[&class_of(board, |r, x| cells[x * 9 + r])]] += 1;
            }
            for (name, observed) in [("second band", &second), ("first stack", &stack)] {
                let (mut statistic, mut bins) = (0.0, 0);
                let (mut pooled_seen, mut pooled_expected) = (0.0, 0.0);
                for (i, &seen) in observed.iter().enumerate() {
                    let expected = draws as f64 * weights[i] / total;
                    if expected < 5.0 {
                        pooled_seen += seen as f64;
                        pooled_expected += expected;
                    } else {
                        statistic += (seen as f64 - expected).powi(2) / expected;
                        bins += 1;
                    }
                }
                if pooled_expected > 0.0 {
                    statistic += (pooled_seen - pooled_expected).powi(2) / pooled_expected;
                    bins += 1;
                }
                let df = f64::from(bins - 1);
                let critical =
                    df * (1.0 - 2.0 / (9.0 * df) + 2.326 * (2.0 / (9.0 * df)).sqrt()).powi(3);
                assert!(
                    statistic < critical,
                    "seed {seed}, {name}: chi-square {statistic:.1} over {df} df, critical {critical:.1}"
                );
            }
        }
    }
}
