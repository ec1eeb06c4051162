//! Every puzzle of K clues with a unique solution inside a complete grid, after McGuire,
//! Tugemann and Civario's search for a 16-clue Sudoku (2012).
//!
//! A puzzle whose clues are taken from grid G has G as its only solution exactly when its
//! clues hit every unavoidable set of G. The search enumerates the K-cell sets that hit the
//! unavoidable sets known so far (`unavoidable.rs`) and asks the `fast` engine about each:
//!
//! - a node holds the clues placed, the *dead* cells (cells an earlier branch already tried:
//!   every K-set is reached through exactly one branch, the one of its first cell in the order
//!   of the branched set) and the known sets no clue hits, with their dead cells taken out;
//! - it branches on the cells of the smallest such set (the dynamic order of the paper); a set
//!   left with no live cell ends the branch, and so do more pairwise disjoint un-hit sets than
//!   clues left to place (each needs its own clue);
//! - with one clue left the candidates are the cells common to every un-hit set;
//! - when every known set is hit the engine counts the puzzle's solutions up to two: one means
//!   the puzzle is unique (and so is every superset: with clues still to place, each superset of
//!   the live cells is listed); a second solution differs from G on a new unavoidable set,
//!   which joins the collection for the rest of the search.
//!
//! Nothing is missed: a unique K-clue puzzle hits every unavoidable set, so it is never cut, and
//! every leaf is decided by a full count, never by the sets alone.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

use super::unavoidable::{Cells, bit, difference, unavoidable_sets};
use crate::model::{Grid, Shape, find_conflict};
use crate::strategy::{Fast, Limits, Strategy};

/// The most cells a board may have: cells are bits of a `u128`.
pub const MAX_CELLS: usize = 128;

/// Digits blanked together when the unavoidable sets are collected, unless asked otherwise.
pub const DEFAULT_SET_DIGITS: usize = 4;

/// Why a grid or a clue count is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MinCluesError {
    /// The grid has empty cells.
    #[error("the grid has {empty} empty cells: min-clues needs a complete solution grid")]
    NotComplete {
        /// Empty cells.
        empty: usize,
    },
    /// Two equal digits share a house.
    #[error("the grid is not a valid solution grid: {conflict}")]
    Conflict {
        /// The conflict, in words.
        conflict: String,
    },
    /// The board has more cells than the bit-sets hold.
    #[error(
        "a {side}x{side} board has {cells} cells; min-clues takes boards of at most {MAX_CELLS} \
         cells (sides up to 11)"
    )]
    TooLarge {
        /// The board side.
        side: usize,
        /// Its cells.
        cells: usize,
    },
    /// More clues than cells.
    #[error("--clues {clues} is more than the board's {cells} cells")]
    TooManyClues {
        /// Clues asked for.
        clues: usize,
        /// Cells of the board.
        cells: usize,
    },
}

/// Why a search stopped before it was complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GaveUp {
    /// The node budget ran out.
    Nodes,
    /// The time budget ran out.
    Timeout,
    /// The cancel flag was raised.
    Cancelled,
}

impl GaveUp {
    /// The reason's name, as printed and in JSON: `nodes`, `timeout`, `cancelled`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GaveUp::Nodes => "nodes",
            GaveUp::Timeout => "timeout",
            GaveUp::Cancelled => "cancelled",
        }
    }
}

/// How the search runs and when it gives up.
#[derive(Debug, Clone)]
pub struct MinCluesOptions {
    /// Digits blanked together when the unavoidable sets are collected (2 up to the side).
    pub set_digits: usize,
    /// Nodes of the hitting-set search before it gives up; `None`: no bound.
    pub max_nodes: Option<u64>,
    /// Time before it gives up, counted from the start; `None`: no bound.
    pub timeout: Option<Duration>,
    /// Stop after this many puzzles (the search is then not complete); `None`: all.
    pub max_puzzles: Option<u64>,
    /// Raised from outside to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for MinCluesOptions {
    fn default() -> MinCluesOptions {
        MinCluesOptions {
            set_digits: DEFAULT_SET_DIGITS,
            max_nodes: None,
            timeout: None,
            max_puzzles: None,
            cancel: None,
        }
    }
}

/// What a search found and what it cost.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MinCluesStats {
    /// Minimal unavoidable sets collected before the search.
    pub initial_sets: usize,
    /// Digit subsets blanked to collect them.
    pub digit_subsets: u64,
    /// Completions enumerated to collect them.
    pub completions: u64,
    /// Unavoidable sets added during the search (from second solutions).
    pub sets_added: usize,
    /// Nodes of the hitting-set search (leaves included).
    pub nodes: u64,
    /// Puzzles whose solutions the engine counted.
    pub checks: u64,
    /// Unique puzzles of the asked clue count found.
    pub puzzles: u64,
    /// Why the search stopped early; `None` when it is complete (every puzzle was found).
    pub gave_up: Option<GaveUp>,
    /// Whether it stopped at [`MinCluesOptions::max_puzzles`].
    pub stopped_at_max_puzzles: bool,
    /// Wall-clock seconds, the collection of sets included.
    pub seconds: f64,
    /// CPU seconds of the calling thread, where the platform gives them.
    pub cpu_seconds: Option<f64>,
}

impl MinCluesStats {
    /// Whether the search was complete: every unique puzzle of the clue count was reported.
    pub fn complete(&self) -> bool {
        self.gave_up.is_none() && !self.stopped_at_max_puzzles
    }
}

/// Checks that `grid` is a complete, valid grid the search takes and `clues` fits it.
pub fn check_grid(grid: &Grid, clues: usize) -> Result<(), MinCluesError> {
    let cells = grid.cells().len();
    if cells > MAX_CELLS {
        return Err(MinCluesError::TooLarge {
            side: grid.side(),
            cells,
        });
    }
    let empty = grid.cells().len() - grid.clue_count();
    if empty > 0 {
        return Err(MinCluesError::NotComplete { empty });
    }
    if let Some(conflict) = find_conflict(grid) {
        return Err(MinCluesError::Conflict {
            conflict: conflict.to_string(),
        });
    }
    if clues > cells {
        return Err(MinCluesError::TooManyClues { clues, cells });
    }
    Ok(())
}

/// Calls `on_puzzle` with every puzzle of exactly `clues` clues taken from `grid` whose only
/// solution is `grid`, in a fixed order, and says what the search cost and whether it was
/// complete.
pub fn min_clues(
    grid: &Grid,
    clues: usize,
    options: &MinCluesOptions,
    on_puzzle: &mut dyn FnMut(&Grid),
) -> Result<MinCluesStats, MinCluesError> {
    check_grid(grid, clues)?;
    let started = Instant::now();
    let cpu_started = ThreadTime::try_now().ok();
    let deadline = options.timeout.map(|timeout| started + timeout);
    let collection = unavoidable_sets(grid, options.set_digits.max(2));
    let mut stats = search(grid, clues, collection.sets, options, deadline, on_puzzle);
    stats.digit_subsets = collection.subsets;
    stats.completions = collection.completions;
    stats.seconds = started.elapsed().as_secs_f64();
    stats.cpu_seconds = cpu_started
        .and_then(|cpu| cpu.try_elapsed().ok())
        .map(|cpu| cpu.as_secs_f64());
    Ok(stats)
}

/// The hitting-set search over `sets` (unavoidable sets of `grid`, checked by the caller).
fn search(
    grid: &Grid,
    clues: usize,
    sets: Vec<Cells>,
    options: &MinCluesOptions,
    deadline: Option<Instant>,
    on_puzzle: &mut dyn FnMut(&Grid),
) -> MinCluesStats {
    let cells = grid.cells().len();
    let mut search = Search {
        grid,
        full: if cells == MAX_CELLS {
            Cells::MAX
        } else {
            bit(cells) - 1
        },
        target: clues,
        initial: sets.len(),
        sets,
        pool: Vec::new(),
        puzzle: grid.clone(),
        options,
        deadline,
        on_puzzle,
        stats: MinCluesStats::default(),
    };
    search.node(0, 0, 0, Vec::new(), 0);
    search.stats.initial_sets = search.initial;
    search.stats.sets_added = search.sets.len() - search.initial;
    search.stats
}

/// The largest board side whose grids [`minimum_over_grids`] runs over.
pub const MAX_ALL_SIDE: usize = 6;

/// The fewest clues of a unique puzzle over every grid of a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minimum {
    /// The fewest clues; `None` when the search gave up first.
    pub clues: Option<usize>,
    /// A unique puzzle with that many clues.
    pub witness: Option<Grid>,
    /// Grids run over: every grid whose first row is 1, 2, ..., side (every grid is one of
    /// these relabelled, and relabelling keeps a puzzle's clue count and uniqueness).
    pub grids: u64,
    /// Grids with a unique puzzle of the fewest clues (first rows fixed as above).
    pub grids_at_minimum: u64,
    /// Hitting-set nodes over all grids.
    pub nodes: u64,
    /// Why the run stopped early, if it did.
    pub gave_up: Option<GaveUp>,
}

/// Why a board is refused by [`minimum_over_grids`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "--all runs over every grid of the board, which takes boards up to {MAX_ALL_SIDE}x{MAX_ALL_SIDE} \
     (boxes 2x2, 2x3, 3x2, and 1xN); --box {shape} has {side}x{side}"
)]
pub struct TooManyGrids {
    /// The box shape asked for.
    pub shape: Shape,
    /// Its side.
    pub side: usize,
}

/// The fewest clues of a puzzle with a unique solution over every grid of `shape`.
///
/// Each grid with its first row fixed is asked only whether it has a unique puzzle of one clue
/// fewer than the best so far (a unique puzzle plus any clue is unique, so fewer is the only
/// question), then, with the final minimum, the grids reaching it are counted.
pub fn minimum_over_grids(
    shape: Shape,
    options: &MinCluesOptions,
) -> Result<Minimum, TooManyGrids> {
    let side = shape.side();
    if side > MAX_ALL_SIDE {
        return Err(TooManyGrids { shape, side });
    }
    let deadline = options.timeout.map(|timeout| Instant::now() + timeout);
    let mut first_row = Grid::empty(shape);
    for col in 0..side {
        first_row.set(col, u8::try_from(col + 1).expect("a side of at most 6"));
    }
    let mut grids = Vec::new();
    Fast.search(&first_row, &Limits::unlimited(), &mut |grid| {
        grids.push(grid.clone());
    });
    // Each grid's sets are collected when its turn comes, so the deadline holds from the start.
    let mut collections: Vec<Vec<Cells>> = Vec::with_capacity(grids.len());
    let mut minimum = Minimum {
        clues: None,
        witness: None,
        grids: grids.len() as u64,
        grids_at_minimum: 0,
        nodes: 0,
        gave_up: None,
    };
    let once = MinCluesOptions {
        max_puzzles: Some(1),
        ..options.clone()
    };
    let mut best = shape.cell_count();
    let mut witness = None;
    for grid in &grids {
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            minimum.gave_up = Some(GaveUp::Timeout);
            return Ok(minimum);
        }
        collections.push(unavoidable_sets(grid, options.set_digits.max(2)).sets);
        let sets = collections.last().expect("just pushed");
        while best > 0 {
            let mut found = None;
            let stats = search(
                grid,
                best - 1,
                sets.clone(),
                &once,
                deadline,
                &mut |puzzle| {
                    found = Some(puzzle.clone());
                },
            );
            minimum.nodes += stats.nodes;
            if stats.gave_up.is_some() {
                minimum.gave_up = stats.gave_up;
                return Ok(minimum);
            }
            match found {
                Some(puzzle) => {
                    best -= 1;
                    witness = Some(puzzle);
                }
                None => break,
            }
        }
    }
    for (grid, sets) in grids.iter().zip(&collections) {
        let mut found = false;
        let stats = search(grid, best, sets.clone(), &once, deadline, &mut |_| {
            found = true;
        });
        minimum.nodes += stats.nodes;
        if stats.gave_up.is_some() {
            minimum.gave_up = stats.gave_up;
            return Ok(minimum);
        }
        minimum.grids_at_minimum += u64::from(found);
    }
    minimum.clues = Some(best);
    minimum.witness = witness;
    Ok(minimum)
}

/// What the engine says of a puzzle's clues.
enum Check {
    /// The grid is its only solution.
    Unique,
    /// Another solution differs from the grid on these cells.
    Another(Cells),
}

struct Search<'a> {
    grid: &'a Grid,
    full: Cells,
    target: usize,
    initial: usize,
    /// Every unavoidable set known: the collection, then the sets found during the search.
    sets: Vec<Cells>,
    /// Spare lists of sets, reused from node to node.
    pool: Vec<Vec<Cells>>,
    /// Scratch puzzle, the grid with the cells outside the clues emptied.
    puzzle: Grid,
    options: &'a MinCluesOptions,
    deadline: Option<Instant>,
    on_puzzle: &'a mut dyn FnMut(&Grid),
    stats: MinCluesStats,
}

/// The cells of a set, lowest first.
fn cells_of(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let cell = set.trailing_zeros() as usize;
            set &= set - 1;
            cell
        })
    })
}

impl Search<'_> {
    fn stopped(&self) -> bool {
        self.stats.gave_up.is_some() || self.stats.stopped_at_max_puzzles
    }

    /// Counts a node; false when a limit says to stop.
    fn tick(&mut self) -> bool {
        if self.stopped() {
            return false;
        }
        self.stats.nodes += 1;
        if self
            .options
            .max_nodes
            .is_some_and(|max| self.stats.nodes > max)
        {
            self.stats.gave_up = Some(GaveUp::Nodes);
            return false;
        }
        // The clock and the flag are read every 1,024 nodes: a node costs well under a
        // millisecond, so a limit is noticed within a second or so of its time.
        if self.stats.nodes % 1024 == 0 {
            if self
                .options
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
            {
                self.stats.gave_up = Some(GaveUp::Cancelled);
                return false;
            }
            if self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
            {
                self.stats.gave_up = Some(GaveUp::Timeout);
                return false;
            }
        }
        true
    }

    fn set_puzzle(&mut self, clues: Cells) {
        for cell in 0..self.puzzle.cells().len() {
            let value = if clues & bit(cell) != 0 {
                self.grid.get(cell)
            } else {
                0
            };
            self.puzzle.set(cell, value);
        }
    }

    fn check(&mut self, clues: Cells) -> Check {
        self.stats.checks += 1;
        self.set_puzzle(clues);
        let grid = self.grid;
        let mut another = None;
        Fast.search(&self.puzzle, &Limits::solutions(2), &mut |solution| {
            if another.is_none() && solution.cells() != grid.cells() {
                another = Some(difference(grid, solution));
            }
        });
        another.map_or(Check::Unique, Check::Another)
    }

    fn emit(&mut self, clues: Cells) {
        self.set_puzzle(clues);
        (self.on_puzzle)(&self.puzzle);
        self.stats.puzzles += 1;
        if self
            .options
            .max_puzzles
            .is_some_and(|max| self.stats.puzzles >= max)
        {
            self.stats.stopped_at_max_puzzles = true;
        }
    }

    /// Lists `clues` with every choice of `more` further cells from `free` (clues already
    /// unique, so every superset is too).
    fn supersets(&mut self, clues: Cells, free: Cells, more: usize) {
        if self.stopped() {
            return;
        }
        if more == 0 {
            self.emit(clues);
            return;
        }
        let mut rest = free;
        for cell in cells_of(free) {
            rest &= !bit(cell);
            if (rest.count_ones() as usize) < more - 1 {
                break;
            }
            self.supersets(clues | bit(cell), rest, more - 1);
        }
    }

    /// Decides the puzzle of `clues`, all `target` placed: lists it when unique, or keeps the
    /// unavoidable set a second solution shows.
    fn leaf(&mut self, clues: Cells) {
        if !self.tick() {
            return;
        }
        match self.check(clues) {
            Check::Unique => self.emit(clues),
            Check::Another(set) => self.sets.push(set),
        }
    }

    /// The subtree of `clues` (`placed` of them) without the `dead` cells; `list` holds the
    /// un-hit sets among the first `seen` known sets, their dead cells taken out.
    fn node(
        &mut self,
        clues: Cells,
        placed: usize,
        dead: Cells,
        mut list: Vec<Cells>,
        seen: usize,
    ) {
        self.visit(clues, placed, dead, &mut list, seen);
        list.clear();
        self.pool.push(list);
    }

    fn visit(
        &mut self,
        clues: Cells,
        placed: usize,
        dead: Cells,
        list: &mut Vec<Cells>,
        seen: usize,
    ) {
        if !self.tick() {
            return;
        }
        // Sets found since the parent's list was made.
        for &set in &self.sets[seen..] {
            if set & clues == 0 {
                list.push(set & !dead);
            }
        }
        let remaining = self.target - placed;
        loop {
            if list.contains(&0) {
                return;
            }
            if !list.is_empty() {
                break;
            }
            match self.check(clues) {
                Check::Unique => {
                    let free = self.full & !clues & !dead;
                    self.supersets(clues, free, remaining);
                    return;
                }
                Check::Another(set) => {
                    self.sets.push(set);
                    list.push(set & !dead);
                }
            }
        }
        let seen = self.sets.len();
        if remaining == 0 {
            return;
        }
        // Pairwise disjoint un-hit sets each need a clue of their own.
        let mut used: Cells = 0;
        let mut disjoint = 0;
        for &set in list.iter() {
            if set & used == 0 {
                used |= set;
                disjoint += 1;
                if disjoint > remaining {
                    return;
                }
            }
        }
        if remaining == 1 {
            let candidates = list
                .iter()
                .fold(self.full & !dead, |common, set| common & set);
            for cell in cells_of(candidates) {
                self.leaf(clues | bit(cell));
                if self.stopped() {
                    return;
                }
            }
            return;
        }
        let branch = list
            .iter()
            .copied()
            .min_by_key(|set| set.count_ones())
            .expect("the list is not empty");
        let mut dead = dead;
        for cell in cells_of(branch) {
            let mut child = self.pool.pop().unwrap_or_default();
            child.extend(
                list.iter()
                    .filter(|&&set| set & bit(cell) == 0)
                    .map(|&set| set & !dead),
            );
            self.node(clues | bit(cell), placed + 1, dead, child, seen);
            if self.stopped() {
                return;
            }
            dead |= bit(cell);
        }
    }
}
