//! Puzzles with a unique solution: a seeded full grid, then clues removed while a checker
//! strategy still proves the solution unique.
//!
//! Every random choice comes from a ChaCha8 stream: puzzle `i` of seed `s` uses stream `i` of
//! the generator seeded with `s`, and draws only 32-bit integers, so the same seed and options
//! give the same puzzles on every platform, in any order and on any number of threads.

use std::time::Duration;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use std::sync::Arc;

use crate::model::rules::RuleCheck;
use crate::model::{DigitSet, Grid, Rules, Shape};

mod families;
pub mod unbiased;

use crate::strategy::{Counter, Limits, Strategy, Verdict};
pub use families::{Balance, hole_cells, latin_rules, latin_square, random_cages};

crate::model::choice::choice! {
    /// The symmetry kept while removing clues: cells are removed a whole orbit at a time.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Symmetry ("symmetry", default None) {
        /// Any cell on its own.
        None = "none",
        /// 180-degree rotation about the centre.
        Rot180 = "rot180",
        /// 90-degree rotation (four-cell orbits).
        Rot90 = "rot90",
        /// Left-right mirror.
        Mirror = "mirror",
        /// Reflection in the main diagonal.
        Diagonal = "diagonal",
    }
}

impl Symmetry {
    /// The cells of `cell`'s orbit, `cell` first, without repeats.
    pub fn orbit(self, shape: Shape, cell: usize) -> Vec<usize> {
        let n = shape.side();
        let (r, c) = (shape.row_of(cell), shape.col_of(cell));
        let images: Vec<(usize, usize)> = match self {
            Symmetry::None => vec![(r, c)],
            Symmetry::Rot180 => vec![(r, c), (n - 1 - r, n - 1 - c)],
            Symmetry::Rot90 => vec![
                (r, c),
                (c, n - 1 - r),
                (n - 1 - r, n - 1 - c),
                (n - 1 - c, r),
            ],
            Symmetry::Mirror => vec![(r, c), (r, n - 1 - c)],
            Symmetry::Diagonal => vec![(r, c), (c, r)],
        };
        let mut orbit: Vec<usize> = Vec::with_capacity(images.len());
        for (row, col) in images {
            let image = shape.cell_at(row, col);
            if !orbit.contains(&image) {
                orbit.push(image);
            }
        }
        orbit
    }

    /// Whether `puzzle`'s givens (not their values) are symmetric.
    pub fn holds(self, puzzle: &Grid) -> bool {
        let shape = puzzle.shape();
        (0..shape.cell_count()).all(|cell| {
            let given = puzzle.get(cell) != 0;
            self.orbit(shape, cell)
                .iter()
                .all(|image| (puzzle.get(*image) != 0) == given)
        })
    }
}

/// The generator's options.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Options {
    /// The board shape (its box, `3x3`, in JSON).
    #[serde(rename = "box", serialize_with = "shape_text")]
    pub shape: Shape,
    /// Stop removing at this many clues (`None`: remove as many as possible).
    pub clues: Option<usize>,
    /// Remove until no clue (no orbit, with a symmetry) can be removed.
    pub minimal: bool,
    /// The symmetry kept.
    pub symmetry: Symmetry,
    /// The budget of each uniqueness check; an undecided check keeps its clues.
    #[serde(skip)]
    pub check_timeout: Option<Duration>,
}

// serde's `serialize_with` passes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn shape_text<S: serde::Serializer>(shape: &Shape, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(shape)
}

/// Why a set of options cannot give a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// More clues than cells.
    #[error("--clues {clues} is more than the {cells} cells of a {side}x{side} board")]
    TooMany {
        /// Asked for.
        clues: usize,
        /// Cells of the board.
        cells: usize,
        /// Board side.
        side: usize,
    },
    /// Fewer clues than any unique puzzle can have.
    #[error(
        "--clues {clues} cannot give a unique {side}x{side} puzzle: {reason}; ask for at least \
         {least}"
    )]
    TooFew {
        /// Asked for.
        clues: usize,
        /// Board side.
        side: usize,
        /// The lower bound.
        least: usize,
        /// Why.
        reason: &'static str,
    },
}

impl Options {
    /// Checks the target clue count against what is possible.
    pub fn check(&self) -> Result<(), OptionsError> {
        let side = self.shape.side();
        let cells = self.shape.cell_count();
        let Some(clues) = self.clues else {
            return Ok(());
        };
        if clues > cells {
            return Err(OptionsError::TooMany { clues, cells, side });
        }
        // Two digits that never appear among the givens can be swapped in any solution, so a
        // unique puzzle shows at least n - 1 distinct digits. For 9x9 the exact bound is known.
        let (least, reason) = if side == 9 {
            (
                17,
                "no 9x9 puzzle with fewer than 17 clues has a unique solution (McGuire, \
                 Tugemann and Civario, 2012)",
            )
        } else {
            (
                side.saturating_sub(1),
                "a unique puzzle shows at least n - 1 different digits (two absent digits \
                 could be swapped)",
            )
        };
        if clues < least {
            return Err(OptionsError::TooFew {
                clues,
                side,
                least,
                reason,
            });
        }
        Ok(())
    }
}

/// One generated puzzle and what it cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Generated {
    /// The puzzle's index in the seed's stream.
    pub index: u64,
    /// The puzzle.
    #[serde(skip)]
    pub puzzle: Grid,
    /// Its unique solution (the full grid it was cut from).
    #[serde(skip)]
    pub solution: Grid,
    /// Clues left.
    pub clues: usize,
    /// Whether the target clue count was reached (always true without a target).
    pub target_met: bool,
    /// Uniqueness checks made.
    pub checks: u64,
    /// Checks the checker could not decide within its budget (their clues were kept, so the
    /// puzzle is unique but may not be minimal).
    pub undecided: u64,
}

pub use crate::strategy::rng::stream;

/// A uniform integer below `bound` (32-bit draws, identical on every platform).
fn below(rng: &mut ChaCha8Rng, bound: usize) -> usize {
    rng.random_range(0..bound as u32) as usize
}

/// Fisher-Yates with 32-bit draws.
fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i + 1));
    }
}

/// Fresh starts of the randomized fill before [`full_grid`] falls back to a shuffled pattern.
/// Measured on 20 seeds: 9x9 to 16x16 fill at the first start (19 in 20) or the second; 25x25
/// within three; 30x30 (5x6 boxes) sometimes needs more; 6x6 boxes never filled in 16 starts
/// (half a second each), which is why the fill falls back to a pattern at all.
const FILL_STARTS: usize = 4;

/// The largest side the randomized fill is tried on; larger grids are shuffled patterns.
const FILL_MAX_SIDE: usize = 30;

/// A random full grid of `shape`: the boxes that share no row or column (box `(i, i)` of the
/// band-by-stack layout) get independent random permutations; the rest is filled by
/// randomized backtracking (most constrained cell first, candidates in random order). When
/// [`FILL_STARTS`] bounded attempts fail, or the side is above [`FILL_MAX_SIDE`], the grid is
/// a shuffled pattern instead (see [`shuffled_pattern`]): found at once, from the same stream.
pub fn full_grid(shape: Shape, rng: &mut ChaCha8Rng) -> Grid {
    let n = shape.side();
    let (rows, cols) = (shape.box_rows(), shape.box_cols());
    let bands = n / rows;
    let stacks = n / cols;
    let starts = if n <= FILL_MAX_SIDE { FILL_STARTS } else { 0 };
    for _ in 0..starts {
        let mut grid = Grid::empty(shape);
        for i in 0..bands.min(stacks) {
            let mut digits: Vec<u8> = (1..=n as u8).collect();
            shuffle(&mut digits, rng);
            for (k, digit) in digits.into_iter().enumerate() {
                grid.set(
                    shape.cell_at(i * rows + k / cols, i * cols + k % cols),
                    digit,
                );
            }
        }
        // Randomized backtracking can wander on large boards: a bounded attempt, then a fresh
        // start from the same stream (still reproducible).
        if fill_rest(&mut grid, rng, 50 * shape.cell_count() as u64) {
            return grid;
        }
    }
    shuffled_pattern(shape, rng)
}

/// A full grid made from the pattern `d(r, c) = (r mod R) * C + r div R + c (mod n)` for
/// boxes of R rows and C columns (each row, column and box holds every digit once), with its
/// digits relabelled, its rows shuffled within bands, its bands shuffled, and its columns
/// within stacks and stacks shuffled: every step keeps a grid valid. It reaches only a small
/// family of grids, so it is the fallback for shapes the randomized fill cannot complete.
fn shuffled_pattern(shape: Shape, rng: &mut ChaCha8Rng) -> Grid {
    let n = shape.side();
    let (rows, cols) = (shape.box_rows(), shape.box_cols());
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    shuffle(&mut digits, rng);
    // `order[i]` is the original line placed at position i: lines shuffled inside each group
    // of `width`, then the groups shuffled.
    let mut shuffled_lines = |width: usize| {
        let mut groups: Vec<usize> = (0..n / width).collect();
        shuffle(&mut groups, rng);
        let mut order = Vec::with_capacity(n);
        for group in groups {
            let mut lines: Vec<usize> = (group * width..(group + 1) * width).collect();
            shuffle(&mut lines, rng);
            order.extend(lines);
        }
        order
    };
    let row_order = shuffled_lines(rows);
    let col_order = shuffled_lines(cols);
    let mut grid = Grid::empty(shape);
    for (row, &r) in row_order.iter().enumerate() {
        for (col, &c) in col_order.iter().enumerate() {
            let symbol = ((r % rows) * cols + r / rows + c) % n;
            grid.set(shape.cell_at(row, col), digits[symbol]);
        }
    }
    grid
}

fn fill_rest(grid: &mut Grid, rng: &mut ChaCha8Rng, budget: u64) -> bool {
    let shape = grid.shape();
    let n = shape.side();
    let all = DigitSet::full(n);
    let mut rows = vec![DigitSet::EMPTY; n];
    let mut cols = vec![DigitSet::EMPTY; n];
    let mut boxes = vec![DigitSet::EMPTY; n];
    for cell in 0..shape.cell_count() {
        let value = grid.get(cell);
        if value != 0 {
            rows[shape.row_of(cell)].insert(value);
            cols[shape.col_of(cell)].insert(value);
            boxes[shape.box_of(cell)].insert(value);
        }
    }
    let mut empty: Vec<usize> = (0..shape.cell_count())
        .filter(|cell| grid.get(*cell) == 0)
        .collect();
    let mut nodes = 0;
    fill_step(
        grid,
        &mut empty,
        &mut [&mut rows, &mut cols, &mut boxes],
        all,
        rng,
        &mut nodes,
        budget,
    )
}

fn fill_step(
    grid: &mut Grid,
    empty: &mut Vec<usize>,
    used: &mut [&mut Vec<DigitSet>; 3],
    all: DigitSet,
    rng: &mut ChaCha8Rng,
    nodes: &mut u64,
    budget: u64,
) -> bool {
    *nodes += 1;
    if *nodes > budget {
        return false;
    }
    let shape = grid.shape();
    let candidates = |cell: usize, used: &[&mut Vec<DigitSet>; 3]| {
        let taken = used[0][shape.row_of(cell)].bits()
            | used[1][shape.col_of(cell)].bits()
            | used[2][shape.box_of(cell)].bits();
        DigitSet::from_bits(all.bits() & !taken)
    };
    let Some((slot, _)) = empty
        .iter()
        .enumerate()
        .min_by_key(|(_, cell)| candidates(**cell, used).len())
    else {
        return true;
    };
    let cell = empty.swap_remove(slot);
    let mut values: Vec<u8> = candidates(cell, used).iter().collect();
    shuffle(&mut values, rng);
    let houses = [shape.row_of(cell), shape.col_of(cell), shape.box_of(cell)];
    for value in values {
        for (table, house) in used.iter_mut().zip(houses) {
            table[house].insert(value);
        }
        grid.set(cell, value);
        if fill_step(grid, empty, used, all, rng, nodes, budget) {
            return true;
        }
        grid.set(cell, 0);
        for (table, house) in used.iter_mut().zip(houses) {
            table[house].remove(value);
        }
        if *nodes > budget {
            break;
        }
    }
    empty.push(cell);
    let last = empty.len() - 1;
    empty.swap(slot.min(last), last);
    false
}

/// Generates puzzle `index` of `seed`: a full grid, then orbits of clues removed in random
/// order, each removal kept only while `checker` proves the solution unique.
pub fn generate(options: &Options, checker: &dyn Strategy, seed: u64, index: u64) -> Generated {
    let mut rng = stream(seed, index);
    let solution = full_grid(options.shape, &mut rng);
    carve(options, solution, checker, &mut rng, index)
}

/// Generates puzzle `index` of `seed` under a variant's rules: a random solution of the rules
/// (a Latin square by Jacobson and Matthews' chain; any other variant by randomized
/// fewest-candidates backtracking), for `killer` random cages drawn over it, then clues removed
/// as [`generate`] does, each removal kept only while `checker` (which must take the rules)
/// proves the solution unique. `None` when no solution of the rules was found within the
/// fill's budget (rules with few or no solutions).
pub fn generate_variant(
    options: &Options,
    rules: &Arc<Rules>,
    killer: bool,
    checker: &dyn Strategy,
    seed: u64,
    index: u64,
) -> Option<Generated> {
    let mut rng = stream(seed, index);
    let mut solution = full_grid_for_rules(rules, &mut rng)?;
    if killer {
        let mut spec = rules.spec().clone();
        spec.cages = random_cages(&solution, &mut rng);
        let caged = Rules::new(rules.side(), rules.has_boxes().then(|| rules.shape()), spec)
            .expect("cages drawn over a solution hold");
        solution = solution.without_rules().with_rules(Arc::new(caged));
    }
    let options = Options {
        shape: rules.shape(),
        ..*options
    };
    Some(carve(&options, solution, checker, &mut rng, index))
}

/// A random full grid under `rules`, or `None` when [`FILL_STARTS`] bounded attempts of
/// randomized fewest-candidates backtracking find none.
pub fn full_grid_for_rules(rules: &Arc<Rules>, rng: &mut ChaCha8Rng) -> Option<Grid> {
    let side = rules.side();
    if rules.spec().latin && rules.is_house_based() && rules.different_pairs().is_empty() {
        let cells = latin_square(side, rng);
        let grid = Grid::from_cells(rules.shape(), cells).expect("symbols 1..=n");
        return Some(grid.with_rules(Arc::clone(rules)));
    }
    let check = RuleCheck::new(rules);
    // Pairs and cages make the fill wander more than plain houses do: on 9x9 non-consecutive
    // boards, 1 seed in 4 needed more than 200 nodes per cell and 4 starts.
    let budget = 2_000 * (side * side) as u64;
    for _ in 0..2 * FILL_STARTS {
        let mut cells = vec![0u8; side * side];
        let mut nodes = 0;
        if fill_by_rules(&check, &mut cells, rng, &mut nodes, budget) {
            let grid = Grid::from_cells(rules.shape(), cells).expect("symbols 1..=n");
            return Some(grid.with_rules(Arc::clone(rules)));
        }
    }
    None
}

fn fill_by_rules(
    check: &RuleCheck<'_>,
    cells: &mut [u8],
    rng: &mut ChaCha8Rng,
    nodes: &mut u64,
    budget: u64,
) -> bool {
    *nodes += 1;
    if *nodes > budget {
        return false;
    }
    let Some((cell, free)) = check.most_constrained(cells) else {
        return true;
    };
    let mut values: Vec<u8> = DigitSet::from_bits(free).iter().collect();
    shuffle(&mut values, rng);
    for value in values {
        cells[cell] = value;
        if fill_by_rules(check, cells, rng, nodes, budget) {
            return true;
        }
        cells[cell] = 0;
        if *nodes > budget {
            break;
        }
    }
    false
}

/// Removes orbits of clues from `solution` in random order while `checker` proves it unique.
fn carve(
    options: &Options,
    solution: Grid,
    checker: &dyn Strategy,
    rng: &mut ChaCha8Rng,
    index: u64,
) -> Generated {
    let shape = options.shape;
    let mut puzzle = solution.clone();
    let mut orbits: Vec<Vec<usize>> = Vec::new();
    let mut seen = vec![false; shape.cell_count()];
    for cell in 0..shape.cell_count() {
        if !seen[cell] {
            let orbit = options.symmetry.orbit(shape, cell);
            for image in &orbit {
                seen[*image] = true;
            }
            orbits.push(orbit);
        }
    }
    shuffle(&mut orbits, rng);
    // Without a target the removal goes on until no orbit can go: a minimal puzzle.
    let target = options.clues.unwrap_or(0);
    let mut clues = shape.cell_count();
    let mut checks = 0;
    let mut undecided = 0;
    for orbit in &orbits {
        if clues <= target {
            break;
        }
        for cell in orbit {
            puzzle.set(*cell, 0);
        }
        let mut limits = Limits::default();
        if let Some(timeout) = options.check_timeout {
            limits = limits.with_timeout(timeout);
        }
        checks += 1;
        match checker.count_up_to(&puzzle, 2, &limits).verdict() {
            Verdict::Unique => clues -= orbit.len(),
            verdict => {
                if verdict == Verdict::Unknown {
                    undecided += 1;
                }
                for cell in orbit {
                    puzzle.set(*cell, solution.get(*cell));
                }
            }
        }
    }
    Generated {
        index,
        puzzle,
        solution: solution.without_rules(),
        clues,
        target_met: options.clues.is_none_or(|target| clues <= target),
        checks,
        undecided,
    }
}

/// How hard a puzzle is for people and for plain search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rating {
    /// Nodes `mrv` needs to prove the solution unique (counting to two); `None` when it did
    /// not finish within its budget.
    pub mrv_nodes: Option<u64>,
    /// Whether `fast`'s propagation alone solves it, with no guess: naked and hidden singles,
    /// and on 9x9 also locked candidates (box-line within a band, box to column).
    pub no_guess: bool,
}

/// Rates a puzzle with `mrv` and `fast`, each within `mrv_budget` nodes and `timeout`.
pub fn rate(puzzle: &Grid, mrv_budget: u64, timeout: Option<Duration>) -> Rating {
    let (mrv, fast) = (&crate::strategy::Mrv, &crate::strategy::Fast);
    let mut limits = Limits::default().with_max_nodes(mrv_budget);
    if let Some(timeout) = timeout {
        limits = limits.with_timeout(timeout);
    }
    let outcome = mrv.count_up_to(puzzle, 2, &limits);
    let mrv_nodes = outcome
        .stopped
        .is_none_or(|stop| stop == crate::strategy::Stop::SolutionLimit)
        .then(|| outcome.stats.get(Counter::Nodes))
        .flatten();
    // Only whether `fast` guesses matters here, so it gets the same budget: unbounded, a large
    // minimal puzzle (36x36) would keep the generator busy for ever. A search stopped
    // by its budget may not have finished propagating, so it counts as needing a guess.
    let fast_outcome = fast.count_up_to(puzzle, 2, &limits);
    Rating {
        mrv_nodes,
        no_guess: fast_outcome
            .stopped
            .is_none_or(|stop| stop == crate::strategy::Stop::SolutionLimit)
            && fast_outcome.stats.get(Counter::Guesses) == Some(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{find_conflict, validate};

    fn options(shape: Shape) -> Options {
        Options {
            shape,
            clues: None,
            minimal: true,
            symmetry: Symmetry::None,
            check_timeout: None,
        }
    }

    #[test]
    fn full_grids_are_valid_for_every_shape() {
        for (rows, cols) in [
            (1, 1),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (3, 4),
            (4, 4),
            (5, 5),
            (6, 6),
            (8, 8),
        ] {
            let shape = Shape::new(rows, cols).unwrap();
            let grid = full_grid(shape, &mut stream(7, 0));
            assert!(grid.is_complete(), "{shape}");
            assert_eq!(find_conflict(&grid), None, "{shape}");
            assert_eq!(validate(&Grid::empty(shape), &grid), Ok(()));
        }
    }

    #[test]
    fn shuffled_patterns_are_valid_and_seeded() {
        for (rows, cols) in [(1, 1), (2, 3), (3, 2), (3, 3), (4, 5), (8, 8)] {
            let shape = Shape::new(rows, cols).unwrap();
            let grid = shuffled_pattern(shape, &mut stream(3, 1));
            assert!(grid.is_complete(), "{shape}");
            assert_eq!(find_conflict(&grid), None, "{shape}");
            assert_eq!(grid, shuffled_pattern(shape, &mut stream(3, 1)), "{shape}");
        }
        let shape = Shape::new(3, 3).unwrap();
        assert_ne!(
            shuffled_pattern(shape, &mut stream(3, 1)),
            shuffled_pattern(shape, &mut stream(3, 2))
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzle_and_streams_differ() {
        let fast = crate::strategy::find("fast").unwrap();
        let shape = Shape::new(3, 3).unwrap();
        let a = generate(&options(shape), fast, 1, 0);
        let b = generate(&options(shape), fast, 1, 0);
        let c = generate(&options(shape), fast, 1, 1);
        assert_eq!(a, b);
        assert_ne!(a.solution, c.solution);
    }

    #[test]
    fn orbits_cover_each_cell_once() {
        let shape = Shape::new(3, 3).unwrap();
        assert_eq!(Symmetry::Rot90.orbit(shape, 0), [0, 8, 80, 72]);
        assert_eq!(Symmetry::Rot180.orbit(shape, 40), [40]);
        assert_eq!(Symmetry::Mirror.orbit(shape, 1), [1, 7]);
        assert_eq!(Symmetry::Diagonal.orbit(shape, 1), [1, 9]);
    }

    #[test]
    fn impossible_targets_are_explained() {
        let mut opts = options(Shape::new(3, 3).unwrap());
        opts.clues = Some(5);
        assert_eq!(
            opts.check().unwrap_err().to_string(),
            "--clues 5 cannot give a unique 9x9 puzzle: no 9x9 puzzle with fewer than 17 clues \
             has a unique solution (McGuire, Tugemann and Civario, 2012); ask for at least 17"
        );
        opts.clues = Some(82);
        assert_eq!(
            opts.check().unwrap_err().to_string(),
            "--clues 82 is more than the 81 cells of a 9x9 board"
        );
        opts.shape = Shape::new(2, 2).unwrap();
        opts.clues = Some(2);
        assert!(
            opts.check()
                .unwrap_err()
                .to_string()
                .contains("ask for at least 3")
        );
    }
}
