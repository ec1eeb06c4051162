//! The three classic backtrackers on a variant's rules: the same trees as on plain Sudoku (row-
//! major cells or the fewest candidates, values ascending), with every rule checked.
//!
//! A value is allowed in a cell when no peer holds it (a peer shares a house or must differ),
//! no orthogonal neighbour of a non-consecutive board holds a digit one away, the cell's cage
//! does not hold it yet, and the cage's sum can still be reached: its filled digits, this
//! value and the smallest (largest) sum of as many different digits as cells stay empty bracket
//! the target. At a complete board every cage therefore adds up to its sum exactly.
//!
//! `scan` reads every peer from the board; `toggle` keeps one used-digit word per house,
//! toggled on enter and undo, and reads the board only for the rules that are not houses; both
//! allow the same values, so they walk the same tree, as on plain Sudoku. `mrv` computes every
//! empty cell's allowed values at each node and branches on the first with the fewest.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::model::rules::RuleCheck;
use crate::model::{Grid, Rules};

use super::backtrack::{Backtrack, digits_of};
use super::{Counter, Limits, Observer, Outcome};

/// `scan` on a variant: row-major cells, values ascending, each tested by reading the board.
pub(super) fn scan<O: Observer>(
    puzzle: &Grid,
    rules: &Rules,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let check = RuleCheck::new(rules);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    scan_from(&mut search, &check, 0, 0);
    search.finish()
}

fn scan_from<O: Observer>(
    search: &mut Backtrack<'_, O>,
    check: &RuleCheck<'_>,
    from: usize,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some(cell) = (from..search.cells.len()).find(|&cell| search.cells[cell] == 0) else {
        return search.solution(depth);
    };
    let free = check.allowed(&search.cells, cell);
    branch(search, cell, free, depth, |search| {
        scan_from(search, check, cell + 1, depth + 1)
    })
}

/// Tries every value of `free` in `cell`, ascending, running `deeper` after each placement.
/// Returns `false` when the search must stop.
fn branch<O: Observer>(
    search: &mut Backtrack<'_, O>,
    cell: usize,
    free: u64,
    depth: usize,
    mut deeper: impl FnMut(&mut Backtrack<'_, O>) -> bool,
) -> bool {
    search.choose(depth, cell, free.count_ones() as usize);
    if free == 0 {
        search.dead_end(depth);
        return true;
    }
    for (value, _) in digits_of(free) {
        search.place(depth, cell, value);
        if !deeper(search) {
            return false;
        }
        search.undo(depth, cell, value);
    }
    true
}

/// `toggle` on a variant: the blanks in row-major order, one used-digit word per house.
pub(super) fn toggle<O: Observer>(
    puzzle: &Grid,
    rules: &Rules,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let check = RuleCheck::new(rules);
    let layout = check.layout;
    let mut used = vec![0u64; layout.house_count()];
    for (cell, &value) in puzzle.cells().iter().enumerate() {
        if value != 0 {
            for &house in layout.houses_of_cell(cell) {
                used[house as usize] |= 1u64 << (value - 1);
            }
        }
    }
    let blanks: Vec<usize> = (0..puzzle.cells().len())
        .filter(|&cell| puzzle.get(cell) == 0)
        .collect();
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    let mut state = Toggled {
        check: &check,
        used,
        blanks,
    };
    state.blank(&mut search, 0);
    search.finish()
}

struct Toggled<'c, 'r> {
    check: &'c RuleCheck<'r>,
    used: Vec<u64>,
    blanks: Vec<usize>,
}

impl Toggled<'_, '_> {
    fn blank<O: Observer>(&mut self, search: &mut Backtrack<'_, O>, k: usize) -> bool {
        if !search.enter_node() {
            return false;
        }
        let Some(&cell) = self.blanks.get(k) else {
            return search.solution(k);
        };
        let layout = self.check.layout;
        let mut taken = layout
            .houses_of_cell(cell)
            .iter()
            .fold(0u64, |taken, &house| taken | self.used[house as usize]);
        // Must-differ partners are peers but not houses: read from the board.
        for &peer in layout.peers(cell) {
            let value = search.cells[peer as usize];
            taken |= (1u64 << (value.wrapping_sub(1) & 63)) * u64::from(value != 0);
        }
        let free = self
            .check
            .allowed_beyond_houses(&search.cells, cell, self.check.full & !taken);
        search.choose(k, cell, free.count_ones() as usize);
        if free == 0 {
            search.dead_end(k);
            return true;
        }
        for (value, bit) in digits_of(free) {
            self.flip(cell, bit);
            search.place(k, cell, value);
            if !self.blank(search, k + 1) {
                return false;
            }
            self.flip(cell, bit);
            search.undo(k, cell, value);
        }
        true
    }

    fn flip(&mut self, cell: usize, bit: u64) {
        for &house in self.check.layout.houses_of_cell(cell) {
            self.used[house as usize] ^= bit;
        }
    }
}

/// `mrv` on a variant: the empty cell with the fewest allowed values (ties row-major), values
/// ascending; the allowed values of every empty cell are recomputed at each node.
pub(super) fn mrv<O: Observer>(
    puzzle: &Grid,
    rules: &Rules,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let check = RuleCheck::new(rules);
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    mrv_node(&mut search, &check, 0);
    search.finish()
}

fn mrv_node<O: Observer>(
    search: &mut Backtrack<'_, O>,
    check: &RuleCheck<'_>,
    depth: usize,
) -> bool {
    if !search.enter_node() {
        return false;
    }
    let Some((cell, free)) = check.most_constrained(&search.cells) else {
        return search.solution(depth);
    };
    branch(search, cell, free, depth, |search| {
        mrv_node(search, check, depth + 1)
    })
}

/// `mrv` randomized (`Limits::randomize`): among the empty cells with the fewest allowed values
/// one is taken uniformly at random, and its values are tried in a random order, from a ChaCha
/// stream of the seed. With `Limits::restarts` and a solution limit of one, a run that reaches
/// its node cutoff is abandoned and the search starts again from the givens with the stream
/// where it was (Gomes, Selman and Kautz, "Boosting combinatorial search through
/// randomization", AAAI 1998); the counters add up every run. A run that ends within its
/// cutoff has explored its whole tree, so its verdict is as sound as the textbook search's.
/// Plain puzzles run on their shape's rules, so one implementation serves every puzzle.
pub(super) fn mrv_randomized<O: Observer>(
    puzzle: &Grid,
    limits: &Limits,
    seed: u64,
    on_solution: &mut dyn FnMut(&Grid),
    observer: O,
) -> Outcome {
    let plain;
    let rules: &Rules = if let Some(rules) = puzzle.rules() {
        rules
    } else {
        plain = Rules::plain(puzzle.shape());
        &plain
    };
    let check = RuleCheck::new(rules);
    let mut rng = super::rng::stream(seed, 0);
    let restarts = limits.restarts.filter(|_| limits.max_solutions == Some(1));
    let mut search = Backtrack::new(puzzle, limits, on_solution, observer);
    let mut run = 1;
    loop {
        let cutoff = restarts.map_or(u64::MAX, |schedule| {
            search.nodes.saturating_add(schedule.cutoff(run))
        });
        let mut state = Randomized {
            check: &check,
            rng: &mut rng,
            cutoff,
            cut: false,
        };
        state.node(&mut search, 0);
        if !state.cut {
            break;
        }
        // Abandoned at the cutoff: the board goes back to the givens for the next run.
        search.cells.copy_from_slice(puzzle.cells());
        run += 1;
    }
    let mut outcome = search.finish();
    if restarts.is_some() {
        outcome.stats.set(Counter::Restarts, u64::from(run - 1));
    }
    outcome
}

struct Randomized<'c, 'r> {
    check: &'c RuleCheck<'r>,
    rng: &'c mut ChaCha8Rng,
    /// The total node count at which this run is abandoned.
    cutoff: u64,
    /// Whether it was.
    cut: bool,
}

impl Randomized<'_, '_> {
    fn node<O: Observer>(&mut self, search: &mut Backtrack<'_, O>, depth: usize) -> bool {
        if search.nodes >= self.cutoff {
            self.cut = true;
            return false;
        }
        if !search.enter_node() {
            return false;
        }
        let (mut best, mut fewest, mut ties) = (None, u32::MAX, 0u32);
        for cell in 0..search.cells.len() {
            if search.cells[cell] != 0 {
                continue;
            }
            let free = self.check.allowed(&search.cells, cell);
            let count = free.count_ones();
            if count < fewest {
                (best, fewest, ties) = (Some((cell, free)), count, 1);
            } else if count == fewest {
                // Reservoir sampling: each tied cell is kept with probability 1 / ties.
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    best = Some((cell, free));
                }
            }
            if free == 0 {
                break;
            }
        }
        let Some((cell, free)) = best else {
            return search.solution(depth);
        };
        search.choose(depth, cell, free.count_ones() as usize);
        if free == 0 {
            search.dead_end(depth);
            return true;
        }
        let mut values: Vec<u8> = digits_of(free).map(|(value, _)| value).collect();
        for i in (1..values.len()).rev() {
            let j = self.rng.random_range(0..=i as u32) as usize;
            values.swap(i, j);
        }
        for value in values {
            search.place(depth, cell, value);
            if !self.node(search, depth + 1) {
                return false;
            }
            search.undo(depth, cell, value);
        }
        true
    }
}
