//! Uniformly distributed complete grids, drawn through the band method's exact counts.
//!
//! A grid is drawn in the orientation counted, band by band, every choice with probability
//! proportional to the number of grids it leaves: the first band's layout class (its layouts
//! times bands times completions), a layout of the class (each equally likely, its other stacks
//! in a uniform order and their columns in a uniform order), each later band's layout
//! (proportional to its bands times the completions below it), and the rows of every band
//! (each band of its layout equally likely, cell by cell by counts). The first stack was fixed
//! by relabelling digits, so a uniform relabelling of the digits ends the draw, and a grid of
//! a shape counted transposed is transposed. Every grid is therefore exactly equally likely.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::count::{Board, Class, CountError, Layout, MAX_SIDE, MAX_STACKS, MAX_WIDTH, classify};
use super::three::Nine;
use crate::model::{Grid, Shape};

/// Draws complete grids of one box shape, every grid equally likely.
pub struct GridSampler {
    shape: Shape,
    board: Board,
    assignments: Vec<[u8; MAX_SIDE]>,
    classes: Vec<Class>,
    /// The 9x9 board's tables (`three.rs`), which draw its grids without weighing every
    /// second band; `None` on the two-band boards, whose second band is the first's complement.
    nine: Option<Nine>,
}

/// A band's cells: `rows[r][k][c]` is the digit in row `r`, stack `k`, column `c` of the stack.
type Band = [[[u8; MAX_WIDTH]; MAX_STACKS]; MAX_STACKS];

impl GridSampler {
    /// A sampler of the grids with boxes of `shape` (the shapes `count_grids` counts).
    pub fn new(shape: Shape) -> Result<GridSampler, CountError> {
        let board = Board::of(shape)?;
        if board.width == 3 {
            return Ok(GridSampler {
                shape,
                board,
                assignments: Vec::new(),
                classes: Vec::new(),
                nine: Some(Nine::new()),
            });
        }
        let assignments = board.stack_assignments();
        let classes = classify(board, &assignments);
        Ok(GridSampler {
            shape,
            board,
            assignments,
            classes,
            nine: None,
        })
    }

    /// One grid, every complete grid of the shape equally likely.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Grid {
        if let Some(nine) = &self.nine {
            return nine.sample(rng);
        }
        let board = self.board;
        let class = pick(
            rng,
            self.classes.iter().map(|class| {
                let count = &class.count;
                count.layouts * count.bands * count.completions
            }),
        );
        let class = &self.classes[class];
        let member = pick(rng, class.members.iter().map(|(_, orders)| *orders));
        let mut picks = class.members[member].0.clone();
        // A uniform shuffle of a multiset gives each of its distinct orders equally often.
        shuffle(&mut picks, rng);
        let mut first = board.layout_of(&self.assignments, &picks);
        for k in 1..board.stacks {
            let mut order: Vec<u8> = (0..board.width as u8).collect();
            shuffle(&mut order, rng);
            for stacks in first.iter_mut().take(board.side) {
                stacks[k] = order[stacks[k] as usize];
            }
        }
        let mut layouts = vec![first];
        let mut taken = [[0u8; MAX_STACKS]; MAX_SIDE];
        mark(board, &mut taken, &first);
        for bands_left in (1..board.width).rev() {
            let next = self.next_layout(&mut taken, bands_left, rng);
            mark(board, &mut taken, &next);
            layouts.push(next);
        }
        let mut relabel: Vec<u8> = (1..=board.side as u8).collect();
        shuffle(&mut relabel, rng);
        let side = board.side;
        let mut cells = vec![0u8; side * side];
        for (b, layout) in layouts.iter().enumerate() {
            let band = sample_band(board, layout, rng);
            for (r, row) in band.iter().enumerate().take(board.stacks) {
                for (k, stack) in row.iter().enumerate().take(board.stacks) {
                    for (c, &digit) in stack.iter().enumerate().take(board.width) {
                        let (y, x) = (b * board.stacks + r, k * board.width + c);
                        let (y, x) = if self.shape.box_rows() == board.stacks {
                            (y, x)
                        } else {
                            (x, y)
                        };
                        cells[y * side + x] = relabel[digit as usize];
                    }
                }
            }
        }
        Grid::from_cells(self.shape, cells).expect("digits 1..=side on a board of the shape")
    }

    /// The layout of the next band, given the columns each digit already takes in each stack,
    /// with probability proportional to its bands times the completions below it.
    fn next_layout(
        &self,
        taken: &mut [[u8; MAX_STACKS]; MAX_SIDE],
        bands_left: usize,
        rng: &mut ChaCha8Rng,
    ) -> Layout {
        let board = self.board;
        let full = (1u8 << board.width) - 1;
        let mut layout: Layout = [[0; MAX_STACKS]; MAX_SIDE];
        if bands_left == 1 {
            for digit in 0..board.side {
                for k in 0..board.stacks {
                    layout[digit][k] = (full & !taken[digit][k]).trailing_zeros() as u8;
                }
            }
            return layout;
        }
        let per_stack: Vec<Vec<[u8; MAX_SIDE]>> = (0..board.stacks)
            .map(|stack| {
                let mut out = Vec::new();
                board.fill_stack(
                    taken,
                    stack,
                    0,
                    &mut [0; MAX_WIDTH],
                    &mut [0; MAX_SIDE],
                    &mut out,
                );
                out
            })
            .collect();
        let mut candidates = Vec::new();
        every_layout(board, &per_stack, 0, &mut layout, &mut candidates);
        let weights: Vec<u128> = candidates
            .iter()
            .map(|candidate| {
                let bands = board.bands_with_layout(candidate);
                if bands == 0 {
                    return 0;
                }
                mark(board, taken, candidate);
                let below = board.completions(taken, bands_left - 1);
                unmark(board, taken, candidate);
                bands * below
            })
            .collect();
        candidates[pick(rng, weights.into_iter())]
    }
}

/// Every combination of one assignment per stack.
fn every_layout(
    board: Board,
    per_stack: &[Vec<[u8; MAX_SIDE]>],
    stack: usize,
    layout: &mut Layout,
    out: &mut Vec<Layout>,
) {
    if stack == board.stacks {
        out.push(*layout);
        return;
    }
    for assignment in &per_stack[stack] {
        for digit in 0..board.side {
            layout[digit][stack] = assignment[digit];
        }
        every_layout(board, per_stack, stack + 1, layout, out);
    }
}

fn mark(board: Board, taken: &mut [[u8; MAX_STACKS]; MAX_SIDE], layout: &Layout) {
    for digit in 0..board.side {
        for k in 0..board.stacks {
            taken[digit][k] |= 1 << layout[digit][k];
        }
    }
}

fn unmark(board: Board, taken: &mut [[u8; MAX_STACKS]; MAX_SIDE], layout: &Layout) {
    for digit in 0..board.side {
        for k in 0..board.stacks {
            taken[digit][k] &= !(1 << layout[digit][k]);
        }
    }
}

/// One band with the given layout, each such band equally likely: every cell's digit is drawn
/// in proportion to the bands that agree with the cells drawn so far.
fn sample_band(board: Board, layout: &Layout, rng: &mut ChaCha8Rng) -> Band {
    let mut cells = [[0u16; MAX_WIDTH]; MAX_STACKS];
    for (digit, stacks) in layout.iter().enumerate().take(board.side) {
        for (stack, &col) in stacks.iter().enumerate().take(board.stacks) {
            cells[stack][col as usize] |= 1 << digit;
        }
    }
    let mut band: Band = [[[0; MAX_WIDTH]; MAX_STACKS]; MAX_STACKS];
    for (r, row) in band.iter_mut().enumerate().take(board.stacks) {
        let rows_left = board.stacks - r;
        let mut used = 0u16;
        for at in 0..board.side {
            let (stack, col) = (at / board.width, at % board.width);
            let choices: Vec<u16> = bits(cells[stack][col] & !used).collect();
            let weights: Vec<u128> = choices
                .iter()
                .map(|&bit| {
                    cells[stack][col] &= !bit;
                    let ways = board.one_row(&mut cells, rows_left, at + 1, used | bit);
                    cells[stack][col] |= bit;
                    ways
                })
                .collect();
            let bit = choices[pick(rng, weights.into_iter())];
            cells[stack][col] &= !bit;
            used |= bit;
            row[stack][col] = bit.trailing_zeros() as u8;
        }
    }
    band
}

/// The bits of `set`, lowest first, each as a one-bit mask.
pub(super) fn bits(mut set: u16) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let bit = set & set.wrapping_neg();
            set &= set - 1;
            bit
        })
    })
}

/// An index drawn with probability proportional to its weight (the weights' sum is positive).
pub(super) fn pick(rng: &mut ChaCha8Rng, weights: impl Iterator<Item = u128> + Clone) -> usize {
    let total: u128 = weights.clone().sum();
    let mut draw = rng.random_range(0..total);
    for (index, weight) in weights.enumerate() {
        if draw < weight {
            return index;
        }
        draw -= weight;
    }
    unreachable!("the draw is below the sum of the weights")
}

/// [`pick`] over the weights whose running sums are `cumulative` (`cumulative[i]` = the sum of
/// the first `i + 1` weights): the same index for the same draw, found by bisection.
pub(super) fn pick_cumulative<T>(rng: &mut ChaCha8Rng, cumulative: &[T]) -> usize
where
    T: Copy + Into<u128>,
{
    let total: u128 = (*cumulative.last().expect("a weight to pick")).into();
    let draw = rng.random_range(0..total);
    cumulative.partition_point(|&sum| sum.into() <= draw)
}

/// Running sums of `weights`, for [`pick_cumulative`].
pub(super) fn running_sums<T>(weights: impl IntoIterator<Item = T>) -> Vec<T>
where
    T: Copy + std::ops::Add<Output = T> + Default,
{
    let mut sum = T::default();
    weights
        .into_iter()
        .map(|weight| {
            sum = sum + weight;
            sum
        })
        .collect()
}

/// Fisher-Yates with 32-bit draws.
pub(super) fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.random_range(0..=i as u32) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::validate;
    use crate::strategy::rng::stream;

    #[test]
    fn samples_are_complete_valid_grids_of_the_shape() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            let shape = Shape::new(rows, cols).unwrap();
            let sampler = GridSampler::new(shape).unwrap();
            for index in 0..3 {
                let grid = sampler.sample(&mut stream(7, index));
                assert_eq!(grid.shape(), shape);
                assert_eq!(
                    validate(&Grid::empty(shape), &grid),
                    Ok(()),
                    "{rows}x{cols}"
                );
            }
        }
    }
}
