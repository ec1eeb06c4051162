//! Berthier's controlled-bias generator of minimal puzzles (D. Berthier, "Unbiased statistics
//! of a CSP: a controlled-bias generator", 2009).
//!
//! An attempt takes a complete grid drawn uniformly (the caller's, from `grids::GridSampler`:
//! this module sits beside `grids` and cannot reach it) and deletes its cells in a uniformly
//! random order, with no uniqueness check on the way, until the puzzle has more than one
//! solution; the last cell deleted is put back. The puzzle is kept only if it is minimal (no
//! clue can go with the solution staying unique).
//!
//! A minimal puzzle of `n` clues out of `cells` comes out of its grid exactly when its
//! `cells - n` blanks are the first deleted, whatever their order and whichever clue follows:
//! probability `1 / C(cells, n)`. Weighting each kept puzzle by `C(cells, n)` (normalised)
//! therefore estimates the real distribution of clue counts over all minimal puzzles of all
//! grids ([`CluesSummary`]).
//!
//! Uniqueness is monotone along the deletion order (each deletion can only add solutions), so
//! the breaking point is found by bisection: about `log2(cells)` checks instead of one a cell.

use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::shuffle;
use crate::model::Grid;
use crate::model::cells::{Cells, MAX_CELLS, all_cells, bit, difference};
use crate::strategy::{Limits, Strategy, Verdict};

/// One attempt of the controlled-bias generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The attempt's index in the seed's stream.
    pub index: u64,
    /// The puzzle at the breaking point: unique, and deleting the next cell of the order
    /// would give it a second solution.
    pub puzzle: Grid,
    /// Its solution, the grid it was cut from.
    pub solution: Grid,
    /// Clues of the puzzle.
    pub clues: usize,
    /// Whether no clue can go (only minimal puzzles are kept).
    pub minimal: bool,
    /// Uniqueness checks made (the bisection's and the minimality test's).
    pub checks: u64,
}

/// Whether `checker` proves `puzzle` unique. There is no budget: an undecided check would
/// bias the distribution, so every check runs to its end.
fn unique(checker: &dyn Strategy, puzzle: &Grid, checks: &mut u64) -> bool {
    *checks += 1;
    checker.count_up_to(puzzle, 2, &Limits::default()).verdict() == Verdict::Unique
}

/// One attempt on `solution` (a uniformly drawn complete grid, for the distribution to be
/// Berthier's): cells deleted in an order drawn from `rng`, the breaking point found by
/// bisection, then the minimality test.
pub fn attempt(
    solution: Grid,
    checker: &dyn Strategy,
    rng: &mut ChaCha8Rng,
    index: u64,
) -> Attempt {
    let order = deletion_order(&solution, rng);
    by_bisection(solution, &order, checker, index)
}

/// [`attempt`] helped by the unavoidable sets of `solution` that earlier attempts on it
/// found (`known`, which this one adds to): the same order from `rng` and the same
/// [`Attempt`] (breaking point, puzzle and verdict) with fewer checks.
///
/// A puzzle with no clue in an unavoidable set has a second solution, so the first deletion
/// that empties a known set is past the breaking point. The attempt takes the deletion
/// before it as the breaking point and tests the puzzle's clues (but the last deleted) one
/// by one, skipping each that is alone in some known set (deleting it empties that set):
/// - a clue that can go shows the puzzle unique and not minimal, in one check;
/// - a second solution without the clue differs from the grid on a new unavoidable set: with
///   the clue in it, the clue is needed (and the puzzle itself is checked before the next
///   clue); without, the puzzle itself is not unique, and the new set moves the breaking
///   point earlier;
/// - with every clue needed and the puzzle unique, it is minimal.
///
/// After [`MAX_MISSES`] such moves, or when the guess has fewer clues than every puzzle the
/// checks proved unique on this grid (a likely miss, and a sparse puzzle is a costly check),
/// the breaking point is found by bisection as [`attempt`] finds it, below the bound the
/// sets give and with a known set answering a check where it can. Every verdict comes from a
/// complete count of the checker or from an unavoidable set its second solutions showed, so
/// the outcome is [`attempt`]'s whatever sets are known: they change only the checks made.
/// Boards of more than 128 cells, and a 1x1 board (whose empty puzzle is unique), take
/// [`attempt`]'s path.
pub fn attempt_knowing(
    solution: Grid,
    checker: &dyn Strategy,
    rng: &mut ChaCha8Rng,
    index: u64,
    known: &mut KnownSets,
) -> Attempt {
    let order = deletion_order(&solution, rng);
    let cells = order.len();
    if cells > MAX_CELLS || solution.shape().side() == 1 {
        return by_bisection(solution, &order, checker, index);
    }
    let mut rank = [0u8; MAX_CELLS];
    for (position, &cell) in order.iter().enumerate() {
        // At most 128 cells: positions fit in a byte.
        rank[cell] = position as u8;
    }
    // `deleted[d]`: the first `d` cells of the order, as a set.
    let mut deleted = [0; MAX_CELLS + 1];
    for (position, &cell) in order.iter().enumerate() {
        deleted[position + 1] = deleted[position] | bit(cell);
    }
    let all = all_cells(cells);
    let mut checking = Checking {
        checker,
        solution: &solution,
        scratch: (solution.clone(), all),
        checks: 0,
    };
    // `lo` deletions are known to leave the puzzle unique (none: the full grid); `hi` are
    // known not to (all: the empty board, with two digits or more).
    let mut lo = 0;
    let mut hi = known.first_emptied(&deleted, &rank).unwrap_or(cells);
    let mut misses = 0;
    let minimal = 'attempt: loop {
        // A guess sparser than every puzzle proven unique on this grid is likely wrong, and
        // a puzzle of few clues is a costly check (a long path of guesses to each solution):
        // bisection then, from the bound the sets give.
        if misses >= MAX_MISSES || cells - (hi - 1) < known.fewest_unique {
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                let gone = deleted[mid];
                if known.any_within(gone) {
                    hi = mid;
                    continue;
                }
                match checking.check(known, !gone & all) {
                    Check::Unique => lo = mid,
                    Check::Another(set) => hi = emptied_by(set, &rank),
                    Check::Undecided => break 'attempt None,
                }
            }
        }
        let clues = !deleted[hi - 1] & all;
        let alone = known.alone(clues);
        // Whether the puzzle is known to be unique. Until it is, one clue is tried: a clue
        // that can go settles the attempt, and one that cannot says nothing of the puzzle,
        // which is then checked itself before any other clue.
        let mut unique = lo == hi - 1;
        for &cell in &order[hi..] {
            if alone & bit(cell) != 0 {
                continue;
            }
            let without = clues & !bit(cell);
            match checking.check(known, without) {
                Check::Unique => break 'attempt Some(false),
                Check::Another(set) => {
                    if set & bit(cell) == 0 {
                        // The puzzle itself has the second solution; no known set was
                        // emptied before `hi`, so this one is the first. (Past `lo`, which
                        // the checker proved unique, unless it contradicts itself.)
                        hi = emptied_by(set, &rank);
                        if hi <= lo {
                            break 'attempt None;
                        }
                        misses += 1;
                        continue 'attempt;
                    }
                }
                Check::Undecided => break 'attempt None,
            }
            if !unique {
                match checking.check(known, clues) {
                    Check::Unique => {
                        unique = true;
                        lo = hi - 1;
                    }
                    Check::Another(set) => {
                        hi = emptied_by(set, &rank);
                        misses += 1;
                        continue 'attempt;
                    }
                    Check::Undecided => break 'attempt None,
                }
            }
        }
        if unique {
            break Some(true);
        }
        match checking.check(known, clues) {
            Check::Unique => break Some(true),
            Check::Another(set) => {
                hi = emptied_by(set, &rank);
                misses += 1;
            }
            Check::Undecided => break 'attempt None,
        }
    };
    let checks = checking.checks;
    match minimal {
        Some(minimal) => cut(solution, &order, hi - 1, minimal, checks, index),
        None => by_bisection(solution, &order, checker, index),
    }
}

/// The attempt of `order` on `solution` whose breaking point is `lo` deletions.
fn cut(
    solution: Grid,
    order: &[usize],
    lo: usize,
    minimal: bool,
    checks: u64,
    index: u64,
) -> Attempt {
    let mut puzzle = solution.clone();
    for &cell in &order[..lo] {
        puzzle.set(cell, 0);
    }
    Attempt {
        index,
        clues: order.len() - lo,
        puzzle,
        solution,
        minimal,
        checks,
    }
}

/// Moves of the breaking point by sets that [`attempt_knowing`] makes before it bisects: a
/// move costs a check, as a bisection step does, and with the sets of a few hundred attempts
/// known the first guess is nearly always right.
const MAX_MISSES: usize = 2;

/// A uniformly random order of `solution`'s cells.
fn deletion_order(solution: &Grid, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..solution.shape().cell_count()).collect();
    shuffle(&mut order, rng);
    order
}

/// The attempt of `order` on `solution`: the breaking point by bisection, then the
/// minimality test.
fn by_bisection(solution: Grid, order: &[usize], checker: &dyn Strategy, index: u64) -> Attempt {
    let cells = order.len();
    let blanked = |deleted: usize| {
        let mut puzzle = solution.clone();
        for &cell in &order[..deleted] {
            puzzle.set(cell, 0);
        }
        puzzle
    };
    let mut checks = 0;
    // `lo` deletions leave the puzzle unique (none: the full grid), `hi` do not.
    let (mut lo, mut hi) = (0, cells);
    // With two digits or more the empty board is never unique (swapping two digits of a
    // solution gives another), so only a 1x1 board needs that check.
    if solution.shape().side() == 1 && unique(checker, &blanked(cells), &mut checks) {
        lo = cells;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if unique(checker, &blanked(mid), &mut checks) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut puzzle = blanked(lo);
    // The clue at `order[lo]` is known to be needed: deleting it is the breaking point.
    let mut minimal = true;
    for &cell in &order[(lo + 1).min(cells)..] {
        let value = puzzle.get(cell);
        puzzle.set(cell, 0);
        let still_unique = unique(checker, &puzzle, &mut checks);
        puzzle.set(cell, value);
        if still_unique {
            minimal = false;
            break;
        }
    }
    cut(solution, order, lo, minimal, checks, index)
}

/// The most sets [`KnownSets`] keeps: every attempt scans them all, and the sets that move a
/// breaking point are found early (later ones are rarely needed).
const MAX_KNOWN_SETS: usize = 128;

/// The largest set [`KnownSets`] keeps. A set is emptied before the breaking point only when
/// every one of its cells is deleted first, which a large set almost never is; the sets the
/// checks find are often large (a second solution can differ from the grid on many cells).
const MAX_KNOWN_SET_CELLS: u32 = 12;

/// Unavoidable sets of one grid (cells where another grid differs from it), as the checks
/// of [`attempt_knowing`] find them. Sets found on one grid are meaningless on another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownSets {
    sets: Vec<Cells>,
    /// The fewest clues of a puzzle the checks proved unique (more than the board's cells
    /// before the first).
    fewest_unique: usize,
}

impl Default for KnownSets {
    fn default() -> KnownSets {
        KnownSets {
            sets: Vec::new(),
            fewest_unique: usize::MAX,
        }
    }
}

impl KnownSets {
    /// No set known.
    pub fn new() -> KnownSets {
        KnownSets::default()
    }

    /// Sets known.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether no set is known.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// Adds `set` unless it is known, larger than [`MAX_KNOWN_SET_CELLS`] or the collection
    /// is full; the sets are kept smallest first.
    pub fn add(&mut self, set: Cells) {
        let size = set.count_ones();
        if self.sets.len() == MAX_KNOWN_SETS || size > MAX_KNOWN_SET_CELLS {
            return;
        }
        let at = self.sets.partition_point(|known| known.count_ones() < size);
        if !self.sets[at..]
            .iter()
            .take_while(|known| known.count_ones() == size)
            .any(|&known| known == set)
        {
            self.sets.insert(at, set);
        }
    }

    /// The fewest deletions that empty some known set, in the order of which `deleted` holds
    /// the first cells (`deleted[d]`, the first `d`) and `rank` each cell's position; `None`
    /// with no set known.
    fn first_emptied(
        &self,
        deleted: &[Cells; MAX_CELLS + 1],
        rank: &[u8; MAX_CELLS],
    ) -> Option<usize> {
        let mut first: Option<usize> = None;
        for &set in &self.sets {
            // Only a set within the deletions before the best so far can do better, and one
            // test says whether it is.
            if first.is_none_or(|first| set & !deleted[first - 1] == 0) {
                first = Some(emptied_by(set, rank));
            }
        }
        first
    }

    /// Whether some known set lies within `cells` (so a puzzle without them is not unique).
    fn any_within(&self, cells: Cells) -> bool {
        self.sets.iter().any(|&set| set & !cells == 0)
    }

    /// The clues of `clues` that are the only clue in some known set: each is needed.
    fn alone(&self, clues: Cells) -> Cells {
        self.sets.iter().fold(0, |alone, &set| {
            let hit = set & clues;
            let single = u128::from(hit & hit.wrapping_sub(1) == 0);
            alone | (hit & single.wrapping_neg())
        })
    }
}

/// The deletions, in the order of which `rank` gives each cell's position, after which no
/// cell of `set` is left.
fn emptied_by(set: Cells, rank: &[u8; MAX_CELLS]) -> usize {
    let mut last = 0;
    let mut rest = set;
    while rest != 0 {
        last = last.max(rank[rest.trailing_zeros() as usize]);
        rest &= rest - 1;
    }
    usize::from(last) + 1
}

/// What a checker says of a puzzle cut from a grid.
enum Check {
    /// The grid is its only solution.
    Unique,
    /// Another solution differs from the grid on these cells (an unavoidable set).
    Another(Cells),
    /// Neither: the checker stopped before a second solution or the end of its tree.
    Undecided,
}

/// The checks of one attempt: its checker, grid and scratch puzzle, and how many it made.
struct Checking<'a> {
    checker: &'a dyn Strategy,
    solution: &'a Grid,
    /// A puzzle of `solution` and its clues, rewritten where they differ from the next
    /// check's.
    scratch: (Grid, Cells),
    checks: u64,
}

impl Checking<'_> {
    /// What the checker says of the puzzle of the grid's cells in `clues`, as [`unique`] asks
    /// it (no budget), recorded in `known`: a second solution's difference from the grid is added
    /// to its sets.
    fn check(&mut self, known: &mut KnownSets, clues: Cells) -> Check {
        let (checker, solution) = (self.checker, self.solution);
        self.checks += 1;
        let (puzzle, held) = &mut self.scratch;
        let mut changed = *held ^ clues;
        while changed != 0 {
            let cell = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            puzzle.set(
                cell,
                if clues & bit(cell) != 0 {
                    solution.get(cell)
                } else {
                    0
                },
            );
        }
        *held = clues;
        let mut other = None;
        let outcome = checker.search(puzzle, &Limits::solutions(2), &mut |found| {
            if other.is_none() && found.cells() != solution.cells() {
                other = Some(difference(solution, found));
            }
        });
        match (outcome.verdict(), other) {
            (Verdict::Unique, _) => {
                known.fewest_unique = known.fewest_unique.min(clues.count_ones() as usize);
                Check::Unique
            }
            (_, Some(set)) => {
                known.add(set);
                Check::Another(set)
            }
            (_, None) => Check::Undecided,
        }
    }
}

/// `C(n, k)` as a float: the weights reach `C(81, 40)`, about 2e23, far inside `f64`'s range,
/// and only their ratios matter.
pub fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// A mean and a standard deviation, each with its standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Moments {
    /// The mean.
    pub mean: f64,
    /// Standard error of the mean.
    pub mean_se: f64,
    /// The standard deviation (divisor: the total weight, as Berthier's).
    pub sd: f64,
    /// Standard error of the standard deviation.
    pub sd_se: f64,
}

/// One clue count's line of the distribution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CluesRow {
    /// The clue count.
    pub clues: usize,
    /// Kept puzzles with that many clues.
    pub kept: u64,
    /// Their share of the kept puzzles.
    pub raw: f64,
    /// Their share once each is weighted by `C(cells, clues)`: the estimate of the real share
    /// among all minimal puzzles.
    pub weighted: f64,
    /// Standard error of `weighted` (delta method, as for the moments).
    pub weighted_se: f64,
}

/// The clue-count distribution of kept puzzles, raw and weighted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CluesSummary {
    /// The board's cells.
    pub cells: usize,
    /// Puzzles summarised.
    pub puzzles: u64,
    /// One row per clue count seen, fewest clues first.
    pub rows: Vec<CluesRow>,
    /// The kept puzzles' own mean and spread (the generator's bias left in).
    pub raw: Moments,
    /// The estimate of the real mean and spread over all minimal puzzles.
    pub weighted: Moments,
}

/// Moments of values `x` with weights `w` in groups `g`, by the delta method for ratio
/// estimators: the weighted mean `m = S(w x) / S(w)` has standard error
/// `sqrt(S_g(S_i(w (x - m))^2)) / S(w)`, the residuals summed within each group first (the
/// attempts on one grid are not independent of each other; the grids are); the variance
/// `v = S(w (x - m)^2) / S(w)` is the same kind of ratio in `y = (x - m)^2` (the estimated `m`
/// adds nothing to first order, since `S(w (x - m)) = 0`), and the standard deviation's error
/// is the variance's over `2 sd`. With one value a group and equal weights these are the usual
/// `sd / sqrt(n)` and, for a normal sample, close to `sd / sqrt(2 n)`.
fn moments(values: &[(f64, f64, u64)]) -> Moments {
    let total: f64 = values.iter().map(|(_, w, _)| w).sum();
    let mean = values.iter().map(|(x, w, _)| w * x).sum::<f64>() / total;
    let variance = values
        .iter()
        .map(|(x, w, _)| w * (x - mean).powi(2))
        .sum::<f64>()
        / total;
    let mean_se =
        grouped_squares(values.iter().map(|&(x, w, g)| (g, w * (x - mean)))).sqrt() / total;
    let variance_se = grouped_squares(
        values
            .iter()
            .map(|&(x, w, g)| (g, w * ((x - mean).powi(2) - variance))),
    )
    .sqrt()
        / total;
    let sd = variance.sqrt();
    Moments {
        mean,
        mean_se,
        sd,
        sd_se: if sd > 0.0 {
            variance_se / (2.0 * sd)
        } else {
            0.0
        },
    }
}

/// The sum of the squares of each group's sum of residuals; a group's residuals come
/// together (kept puzzles are in attempt order, and a grid's attempts are consecutive).
fn grouped_squares(residuals: impl Iterator<Item = (u64, f64)>) -> f64 {
    let mut total = 0.0;
    let mut current: Option<(u64, f64)> = None;
    for (group, residual) in residuals {
        current = match current {
            Some((g, sum)) if g == group => Some((g, sum + residual)),
            Some((_, sum)) => {
                total += sum * sum;
                Some((group, residual))
            }
            None => Some((group, residual)),
        };
    }
    total + current.map_or(0.0, |(_, sum)| sum * sum)
}

/// The distribution of the kept puzzles' clue counts on a board of `cells` cells, raw and
/// weighted by `C(cells, n)`: `kept` holds each puzzle's clues and the index of the grid it
/// was cut from, in attempt order (the standard errors take a grid's puzzles as one sample).
/// `None` without puzzles.
pub fn summarize(cells: usize, kept: &[(usize, u64)]) -> Option<CluesSummary> {
    if kept.is_empty() {
        return None;
    }
    let clues: Vec<usize> = kept.iter().map(|&(n, _)| n).collect();
    // Weights relative to the largest among the counts seen, so that sums stay near 1.
    let top = clues
        .iter()
        .map(|&n| binomial(cells, n))
        .fold(0.0, f64::max);
    let weight = |n: usize| binomial(cells, n) / top;
    let raw: Vec<(f64, f64, u64)> = kept.iter().map(|&(n, g)| (n as f64, 1.0, g)).collect();
    let weighted: Vec<(f64, f64, u64)> = kept
        .iter()
        .map(|&(n, g)| (n as f64, weight(n), g))
        .collect();
    let (least, most) = (
        *clues.iter().min().expect("not empty"),
        *clues.iter().max().expect("not empty"),
    );
    let puzzles = clues.len() as u64;
    let total_weight: f64 = weighted.iter().map(|(_, w, _)| w).sum();
    let rows = (least..=most)
        .filter_map(|n| {
            let kept = clues.iter().filter(|&&c| c == n).count() as u64;
            (kept > 0).then(|| {
                let share = kept as f64 * weight(n) / total_weight;
                // The share is the weighted mean of the indicator of n clues.
                let se = grouped_squares(
                    weighted
                        .iter()
                        .map(|&(x, w, g)| (g, w * (f64::from(u8::from(x as usize == n)) - share))),
                )
                .sqrt()
                    / total_weight;
                CluesRow {
                    clues: n,
                    kept,
                    raw: kept as f64 / puzzles as f64,
                    weighted: share,
                    weighted_se: se,
                }
            })
        })
        .collect();
    Some(CluesSummary {
        cells,
        puzzles,
        rows,
        raw: moments(&raw),
        weighted: moments(&weighted),
    })
}

/// Berthier's estimate of the real distribution of clue counts over all minimal 9x9 puzzles,
/// in percent (D. Berthier, "The real distribution of minimal puzzles", The New Sudoku
/// Players' Forum, after his controlled-bias generator; overall relative precision 0.065%).
pub const PUBLISHED_9X9_PERCENT: [(usize, f64); 13] = [
    (20, 1.32e-7),
    (21, 0.000_034),
    (22, 0.003_48),
    (23, 0.148),
    (24, 2.28),
    (25, 13.42),
    (26, 31.91),
    (27, 32.71),
    (28, 15.48),
    (29, 3.598),
    (30, 0.41),
    (31, 0.024_1),
    (32, 0.001_02),
];

/// Berthier's real mean number of clues of minimal 9x9 puzzles (2009).
pub const PUBLISHED_9X9_MEAN: f64 = 26.577;

/// Berthier's real standard deviation of that number (2009).
pub const PUBLISHED_9X9_SD: f64 = 1.116;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_exact_where_floats_are() {
        // Integers far below 2^53: exact in f64, and rounding to the nearest is exact.
        let exact = |n, k| binomial(n, k).round() as u64;
        assert_eq!(exact(16, 0), 1);
        assert_eq!(exact(16, 4), 1820);
        assert_eq!(exact(16, 16), 1);
        assert_eq!(exact(16, 17), 0);
        assert_eq!(exact(81, 1), 81);
        assert_eq!(exact(36, 10), 254_186_856);
    }

    #[test]
    fn equal_weights_give_the_usual_moments() {
        let m = moments(&[(1.0, 1.0, 0), (2.0, 1.0, 1), (3.0, 1.0, 2), (4.0, 1.0, 3)]);
        assert!((m.mean - 2.5).abs() < 1e-12);
        // Population variance 1.25; standard error sqrt(S (x - m)^2) / n = sqrt(5) / 4.
        assert!((m.sd - 1.25f64.sqrt()).abs() < 1e-12);
        assert!((m.mean_se - 5f64.sqrt() / 4.0).abs() < 1e-12);
    }

    #[test]
    fn weighting_undoes_the_chance_of_each_clue_count() {
        // Two 3-clue puzzles and one 2-clue puzzle on a 4-cell board: weights C(4,3) = 4 and
        // C(4,2) = 6, so the weighted shares are 8/14 and 6/14.
        let summary = summarize(4, &[(3, 0), (2, 1), (3, 2)]).unwrap();
        assert_eq!(summary.rows.len(), 2);
        assert_eq!((summary.rows[0].clues, summary.rows[0].kept), (2, 1));
        assert!((summary.rows[0].weighted - 6.0 / 14.0).abs() < 1e-12);
        assert!((summary.rows[1].weighted - 8.0 / 14.0).abs() < 1e-12);
        assert!((summary.weighted.mean - (2.0 * 6.0 + 3.0 * 8.0) / 14.0).abs() < 1e-12);
        assert!((summary.raw.mean - 8.0 / 3.0).abs() < 1e-12);
        assert_eq!(summarize(4, &[]), None);
    }

    #[test]
    fn the_published_table_has_the_published_mean_and_spread() {
        let total: f64 = PUBLISHED_9X9_PERCENT.iter().map(|(_, p)| p).sum();
        let mean = PUBLISHED_9X9_PERCENT
            .iter()
            .map(|&(n, p)| n as f64 * p)
            .sum::<f64>()
            / total;
        let sd = (PUBLISHED_9X9_PERCENT
            .iter()
            .map(|&(n, p)| (n as f64 - mean).powi(2) * p)
            .sum::<f64>()
            / total)
            .sqrt();
        // The table is rounded to a few digits: its moments agree with the paper's to 0.002.
        assert!((mean - PUBLISHED_9X9_MEAN).abs() < 0.002, "{mean}");
        assert!((sd - PUBLISHED_9X9_SD).abs() < 0.002, "{sd}");
    }
}
