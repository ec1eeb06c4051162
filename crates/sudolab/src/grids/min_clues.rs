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
//! - it branches on the cells of the smallest such set (the dynamic order of the paper), the
//!   cells in the most known sets first; a set left with no live cell ends the branch, and so
//!   do more pairwise disjoint un-hit sets than clues left to place (each needs its own clue).
//!   The choice and these bounds look only at the first [`SURVEY_SETS`] un-hit sets, the
//!   smallest collected ones (a bound from some of the sets is sound, only weaker);
//! - with one clue left the candidates are the cells common to every un-hit set;
//! - when every known set is hit the engine counts the puzzle's solutions up to two: one means
//!   the puzzle is unique (and so is every superset: with clues still to place, each superset of
//!   the live cells is listed); a second solution differs from G on a new unavoidable set,
//!   which joins the collection for the rest of the search.
//!
//! Nothing is missed: a unique K-clue puzzle hits every unavoidable set, so it is never cut, and
//! every leaf is decided by a full count, never by the sets alone.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

use super::classes::essentially_different_grids;
use super::unavoidable::unavoidable_sets;
use crate::model::cells::{Cells, all_cells, bit, difference};
use crate::model::{Grid, Shape, find_conflict};
use crate::strategy::{Fast, Limits, Strategy};

/// The most cells a board may have: cells are bits of a `u128`.
pub const MAX_CELLS: usize = crate::model::cells::MAX_CELLS;

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
    /// Whether the grid has a unique puzzle of one clue fewer, decided from a complete listing
    /// (see [`min_clues`]); `None` when the search was not complete, asked for no clue, or
    /// listed more than [`MAX_LISTED`] puzzles.
    pub fewer: Option<bool>,
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
///
/// A complete listing also decides `clues - 1` ([`MinCluesStats::fewer`]): a unique puzzle
/// of one clue fewer, plus any other cell, is a unique puzzle of `clues` clues that is not
/// minimal, and a listed puzzle that is not minimal, less the clue it can lose, is a unique
/// puzzle of one clue fewer. So there is one exactly when some listed puzzle is not minimal,
/// which the engine checks clue by clue (unless the search met a unique puzzle of fewer
/// clues on its way).
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
    let bounds = Bounds {
        options,
        deadline,
        survey_sets: SURVEY_SETS,
        refine: true,
    };
    search_within(grid, clues, sets, &bounds, on_puzzle)
}

/// What the search may look at and spend.
struct Bounds<'a> {
    options: &'a MinCluesOptions,
    deadline: Option<Instant>,
    /// The most un-hit sets a survey looks at.
    survey_sets: usize,
    /// Whether [`Search::repack`] and [`Search::refine`] run (off only in tests, to show they
    /// change no listing).
    refine: bool,
}

/// [`search`] with its bounds spelled out.
fn search_within(
    grid: &Grid,
    clues: usize,
    mut sets: Vec<Cells>,
    bounds: &Bounds<'_>,
    on_puzzle: &mut dyn FnMut(&Grid),
) -> MinCluesStats {
    let cells = grid.cells().len();
    // The smallest sets prune best; the rest only cost time at every node, and leaving a set
    // out never loses a puzzle (every leaf is decided by a full count).
    sets.truncate(MAX_INITIAL_SETS);
    let initial = sets.len();
    let mut search = Search {
        grid,
        full: all_cells(cells),
        target: clues,
        sets: Vec::with_capacity(MAX_SETS),
        degree: [0; MAX_CELLS],
        rank: [0; MAX_CELLS],
        by_rank: [0; MAX_CELLS],
        ranks_stale: true,
        contains: vec![0; cells * SET_WORDS],
        levels: vec![0; (clues + 1) * SET_WORDS],
        path: vec![0; clues + 1],
        listed: Vec::new(),
        unique_below: false,
        puzzle: grid.clone(),
        options: bounds.options,
        deadline: bounds.deadline,
        survey_sets: bounds.survey_sets,
        refine: bounds.refine,
        lives: Vec::with_capacity(bounds.survey_sets.min(MAX_SETS)),
        on_puzzle,
        stats: MinCluesStats::default(),
    };
    for set in sets {
        search.add_set(set, 0);
    }
    search.node(0, 0, 0);
    let decides_fewer = search.stats.complete() && clues > 0;
    if decides_fewer && search.unique_below {
        search.stats.fewer = Some(true);
    } else if decides_fewer && search.listed.len() <= MAX_LISTED {
        let listed = std::mem::take(&mut search.listed);
        let mut fewer = Some(false);
        for &puzzle in &listed {
            if search.out_of_time().is_some() {
                fewer = None;
                break;
            }
            if cells_of(puzzle)
                .any(|cell| matches!(search.check(puzzle & !bit(cell)), Check::Unique))
            {
                fewer = Some(true);
                break;
            }
        }
        search.stats.fewer = fewer;
    }
    search.stats.initial_sets = initial;
    search.stats.sets_added = search.sets.len() - initial;
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
    /// Grids run over: one of each class of essentially different grids (see
    /// [`super::essentially_different_grids`]).
    pub grids: u64,
    /// Classes with a unique puzzle of the fewest clues.
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
/// One grid of each class of essentially different grids is asked only whether it has a
/// unique puzzle of one clue fewer than the best so far (a unique puzzle plus any clue is
/// unique, so fewer is the only question), then, with the final minimum, the classes reaching
/// it are counted.
pub fn minimum_over_grids(
    shape: Shape,
    options: &MinCluesOptions,
) -> Result<Minimum, TooManyGrids> {
    let side = shape.side();
    if side > MAX_ALL_SIDE {
        return Err(TooManyGrids { shape, side });
    }
    let deadline = options.timeout.map(|timeout| Instant::now() + timeout);
    let grids = essentially_different_grids(shape).map_err(|_| TooManyGrids { shape, side })?;
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

/// The most unavoidable sets collected before the search that it uses (the smallest ones).
const MAX_INITIAL_SETS: usize = 1536;

/// The most listed puzzles whose minimality is checked to decide one clue fewer.
pub const MAX_LISTED: usize = 1 << 16;

/// The most sets the search holds, those found at its leaves included; a set found when the
/// search holds this many is not kept (the leaf is still decided by the count).
const MAX_SETS: usize = 2048;

/// The most un-hit sets a survey looks at, the first ones in the order of `sets` (the smallest
/// collected first). Bounds drawn from some of the sets are sound, only weaker; the sets left
/// unseen still end branches through the last clue's candidates and the engine's checks. With
/// one or two thousand sets known, looking at all of them made each node scan hundreds near the
/// top of the tree for little more pruning.
const SURVEY_SETS: usize = 32;

/// The most disjoint sets a survey keeps for [`Search::refine`].
const MAX_PARTS: usize = 32;

/// Words of a bit-vector over the sets' indices.
const SET_WORDS: usize = MAX_SETS / 64;

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
    /// Every unavoidable set known: the collection, smallest first, then the sets found during
    /// the search (later in the surveys' order: found sets are larger than the collected ones
    /// and, looked at first, chose worse branches).
    sets: Vec<Cells>,
    /// For each cell, how many of the known sets contain it.
    degree: [u32; MAX_CELLS],
    /// Each cell's place in the branch order (most known sets first, lowest cell first among
    /// equals), and the cell at each place; valid unless `ranks_stale`.
    rank: [u8; MAX_CELLS],
    by_rank: [u8; MAX_CELLS],
    /// Whether a set was added since `rank` was made.
    ranks_stale: bool,
    /// For each cell, the sets that contain it (`SET_WORDS` words a cell).
    contains: Vec<u64>,
    /// For each depth of the current path, the sets its clues do not hit (`SET_WORDS` words a
    /// depth): a child's are its parent's AND-NOT the new clue's sets.
    levels: Vec<u64>,
    /// The clues at each depth of the current path.
    path: Vec<Cells>,
    /// The clues of the puzzles listed, up to one more than [`MAX_LISTED`].
    listed: Vec<Cells>,
    /// Whether the search met a unique puzzle of fewer than `target` clues (whose supersets
    /// it lists), which answers one clue fewer without checking the listing.
    unique_below: bool,
    /// Scratch puzzle, the grid with the cells outside the clues emptied.
    puzzle: Grid,
    options: &'a MinCluesOptions,
    deadline: Option<Instant>,
    /// The most un-hit sets a survey looks at ([`SURVEY_SETS`] but in tests).
    survey_sets: usize,
    /// Whether [`Search::repack`] and [`Search::refine`] run (always but in tests).
    refine: bool,
    /// Scratch for [`Search::repack`]: the live cells of the sets it packs second.
    lives: Vec<Cells>,
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

/// Adds `live` to a packing of pairwise disjoint sets when it is disjoint from them (`used`,
/// their union; `count` of them, the first [`MAX_PARTS`] kept in `parts`): true when it
/// was added and the packing now holds more than `most` (the callers stop there).
#[inline]
fn pack(
    live: Cells,
    used: &mut Cells,
    count: &mut usize,
    parts: &mut [Cells; MAX_PARTS],
    most: usize,
) -> bool {
    if live & *used != 0 {
        return false;
    }
    *used |= live;
    if *count < MAX_PARTS {
        parts[*count] = live;
    }
    *count += 1;
    *count > most
}

/// Calls `visit` on each of the first `budget` sets of `sets` whose bits are set in `unhit`
/// (a bit-vector over their indices), in order, until it breaks: the window of un-hit sets a
/// survey looks at, or all of them with a `budget` of `usize::MAX`. Internal iteration, so
/// that the callers' loops compile as if written out (an `Iterator` did not;
/// docs/benchmarks.md).
#[inline]
fn each_in_window<B>(
    unhit: &[u64],
    sets: &[Cells],
    budget: usize,
    mut visit: impl FnMut(Cells) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut budget = budget;
    for (word_index, &word) in unhit.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            if budget == 0 {
                return ControlFlow::Continue(());
            }
            budget -= 1;
            let index = word_index * 64 + word.trailing_zeros() as usize;
            word &= word - 1;
            visit(sets[index])?;
        }
    }
    ControlFlow::Continue(())
}

impl Search<'_> {
    fn stopped(&self) -> bool {
        self.stats.gave_up.is_some() || self.stats.stopped_at_max_puzzles
    }

    /// Whether the cancel flag is up or the deadline has passed, and which.
    fn out_of_time(&self) -> Option<GaveUp> {
        if self
            .options
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Some(GaveUp::Cancelled);
        }
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
            .then_some(GaveUp::Timeout)
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
            self.stats.gave_up = self.out_of_time();
        }
        self.stats.gave_up.is_none()
    }

    /// Adds an unavoidable set, marked un-hit at every depth of the path up to `depth` whose
    /// clues miss it; false when the search holds no more sets.
    fn add_set(&mut self, set: Cells, depth: usize) -> bool {
        let index = self.sets.len();
        if index == MAX_SETS {
            return false;
        }
        self.sets.push(set);
        self.ranks_stale = true;
        let (word, mask) = (index / 64, 1u64 << (index % 64));
        for cell in cells_of(set) {
            self.degree[cell] += 1;
            self.contains[cell * SET_WORDS + word] |= mask;
        }
        for level in 0..=depth {
            if self.path[level] & set == 0 {
                self.levels[level * SET_WORDS + word] |= mask;
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
        if self.listed.len() <= MAX_LISTED {
            self.listed.push(clues);
        }
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

    /// Decides the puzzle of `clues`, all `target` placed (they hit every known set): lists it
    /// when unique, or keeps the unavoidable set a second solution shows.
    fn leaf(&mut self, clues: Cells, depth: usize) {
        if !self.tick() {
            return;
        }
        match self.check(clues) {
            Check::Unique => self.emit(clues),
            Check::Another(set) => {
                self.add_set(set, depth);
            }
        }
    }

    /// What the first `survey_sets` un-hit sets of `depth` say with the `dead` cells out of
    /// play: `None` when no K-set of the subtree can hit them all (a set with no live cell, or
    /// more pairwise disjoint sets than clues left), else the live cells of the one with the
    /// fewest (0 when every set is hit) and the union of the disjoint sets found, with their
    /// count.
    fn survey(
        &self,
        depth: usize,
        dead: Cells,
        remaining: usize,
        parts: &mut [Cells; MAX_PARTS],
    ) -> Option<(Cells, Cells, usize)> {
        let live_cells = !dead;
        let mut best: Cells = 0;
        let mut best_size = u32::MAX;
        let mut used: Cells = 0;
        let mut disjoint = 0;
        let flow = each_in_window(self.unhit(depth), &self.sets, self.survey_sets, |set| {
            let live = set & live_cells;
            if live == 0 || pack(live, &mut used, &mut disjoint, parts, remaining) {
                return ControlFlow::Break(());
            }
            let size = live.count_ones();
            if size < best_size {
                best_size = size;
                best = live;
            }
            ControlFlow::Continue(())
        });
        flow.is_continue().then_some((best, used, disjoint))
    }

    /// With exactly as many disjoint sets (`parts`, their live cells) as clues left, each
    /// part takes exactly one clue and no clue lies outside them: an un-hit set whose live
    /// cells meet one part only must hold that part's clue, so the part's cells outside the
    /// set die, again until none does. `None` when a set is left with no live cell, else the
    /// live cells of the set with the fewest, to branch on. Every live cell must lie in a part
    /// (the caller has killed the cells outside them).
    fn refine(&self, depth: usize, dead: &mut Cells, parts: &mut [Cells]) -> Option<Cells> {
        // Each live cell's part: a set meets one part only when its live cells all lie in the
        // part of its first. (A cell that dies keeps its entry, never read again.)
        let mut part_of = [0u8; MAX_CELLS];
        for (i, &part) in parts.iter().enumerate() {
            for cell in cells_of(part) {
                // At most MAX_PARTS parts: an index fits in a byte.
                part_of[cell] = i as u8;
            }
        }
        loop {
            let mut changed = false;
            let mut best: Cells = 0;
            let mut best_size = u32::MAX;
            let flow = each_in_window(self.unhit(depth), &self.sets, self.survey_sets, |set| {
                let live = set & !*dead;
                if live == 0 {
                    return ControlFlow::Break(());
                }
                let size = live.count_ones();
                if size < best_size {
                    best_size = size;
                    best = live;
                }
                let i = usize::from(part_of[live.trailing_zeros() as usize]);
                let out = parts[i] & !live;
                if live & !parts[i] == 0 && out != 0 {
                    *dead |= out;
                    parts[i] &= live;
                    changed = true;
                }
                ControlFlow::Continue(())
            });
            if flow.is_break() {
                return None;
            }
            if !changed {
                return Some(best);
            }
        }
    }

    /// Packs the first `survey_sets` un-hit sets of `depth` again into `parts`, those with
    /// `smallest` live cells (the survey's fewest) first and then the others in order: the
    /// union of the pairwise disjoint sets found and their count (it stops past `remaining`).
    /// Greedy packing in the sets' order lets a large early set block two small ones; taking
    /// the smallest first nearly always packs as many as sorting them all by size would.
    fn repack(
        &mut self,
        depth: usize,
        dead: Cells,
        remaining: usize,
        smallest: u32,
        parts: &mut [Cells; MAX_PARTS],
    ) -> (Cells, usize) {
        let unhit = &self.levels[depth * SET_WORDS..(depth + 1) * SET_WORDS];
        let lives = &mut self.lives;
        lives.clear();
        let mut used: Cells = 0;
        let mut disjoint = 0;
        let flow = each_in_window(unhit, &self.sets, self.survey_sets, |set| {
            let live = set & !dead;
            if live.count_ones() != smallest {
                lives.push(live);
            } else if pack(live, &mut used, &mut disjoint, parts, remaining) {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        if flow.is_break() {
            return (used, disjoint);
        }
        for &live in lives.iter() {
            if pack(live, &mut used, &mut disjoint, parts, remaining) {
                break;
            }
        }
        (used, disjoint)
    }

    /// The un-hit sets of `depth`, a bit-vector over the sets' indices.
    fn unhit(&self, depth: usize) -> &[u64] {
        &self.levels[depth * SET_WORDS..(depth + 1) * SET_WORDS]
    }

    /// Whether some known set is un-hit at `depth`.
    fn any_unhit(&self, depth: usize) -> bool {
        self.unhit(depth).iter().any(|&word| word != 0)
    }

    /// The cells of `within` that lie in every un-hit set of `depth`: the candidates for the
    /// last clue, which must hit them all.
    fn common(&self, depth: usize, within: Cells) -> Cells {
        let mut candidates = within;
        let _ = each_in_window(self.unhit(depth), &self.sets, usize::MAX, |set| {
            candidates &= set;
            if candidates == 0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        candidates
    }

    /// Decides each puzzle of the clues at `depth` and one of `candidates`.
    fn leaves(&mut self, depth: usize, candidates: Cells) {
        let clues = self.path[depth];
        for cell in cells_of(candidates) {
            self.path[depth + 1] = clues | bit(cell);
            self.leaf(clues | bit(cell), depth + 1);
            if self.stopped() {
                return;
            }
        }
    }

    /// The cells of `branch` in the order their branches are taken, into `order`, with how
    /// many there are: the cells in the most known sets first, lowest first among equals. A
    /// branched cell is dead in its later siblings, so a cell in many sets, taken first, leaves
    /// the later siblings' sets smaller, and their surveys prune more. (Counting only the un-hit
    /// sets orders a little better but costs more than it saves.) The order is read off the
    /// cells' ranks, made again only after a set was added (rarely, at leaves): no sort, and no
    /// wide array to clear, at each node.
    fn branch_order(&mut self, branch: Cells, order: &mut [u8; MAX_CELLS]) -> usize {
        if self.ranks_stale {
            let cells = self.grid.cells().len();
            let mut cells_by_rank: Vec<u8> = (0..cells as u8).collect();
            cells_by_rank
                .sort_unstable_by_key(|&cell| (u32::MAX - self.degree[usize::from(cell)], cell));
            for (rank, &cell) in cells_by_rank.iter().enumerate() {
                // At most 128 cells: ranks fit in a byte.
                self.rank[usize::from(cell)] = rank as u8;
                self.by_rank[rank] = cell;
            }
            self.ranks_stale = false;
        }
        let mut ranked: Cells = 0;
        for cell in cells_of(branch) {
            ranked |= bit(usize::from(self.rank[cell]));
        }
        let mut count = 0;
        for rank in cells_of(ranked) {
            order[count] = self.by_rank[rank];
            count += 1;
        }
        count
    }

    /// The subtree of the clues at `depth` of the path without the `dead` cells (the cells an
    /// earlier sibling branch tried, whose K-sets that branch lists).
    fn node(&mut self, depth: usize, placed: usize, dead: Cells) {
        if !self.tick() {
            return;
        }
        let clues = self.path[depth];
        let remaining = self.target - placed;
        if remaining == 1 && self.any_unhit(depth) {
            // The last clue must lie in every un-hit set: their common live cells are the
            // leaves, and what a survey would cut (a set with no live cell, two disjoint sets)
            // leaves none in common.
            let candidates = self.common(depth, !dead & self.full);
            self.leaves(depth, candidates);
            return;
        }
        let mut dead = dead;
        let mut parts = [0; MAX_PARTS];
        let branch = loop {
            let Some((best, mut used, mut disjoint)) =
                self.survey(depth, dead, remaining, &mut parts)
            else {
                return;
            };
            if best == 0 {
                // Every known set is hit: the engine decides.
                match self.check(clues) {
                    Check::Unique => {
                        // Fewer than K clues are unique: so is any K-1 of the grid's cells
                        // that hold them.
                        self.unique_below |= remaining > 0;
                        let free = self.full & !clues & !dead;
                        self.supersets(clues, free, remaining);
                        return;
                    }
                    Check::Another(set) => {
                        if !self.add_set(set, depth) {
                            // The search holds no more sets: branch on this one directly.
                            if remaining == 0 || set & !dead == 0 {
                                return;
                            }
                            break set & !dead;
                        }
                        continue;
                    }
                }
            }
            if remaining == 0 {
                return;
            }
            // Fewer disjoint sets than clues left, with three clues or more to place: packing
            // the smallest sets first often finds more, to cut the node or to confine its
            // clues below. (With two left, the children are cheaper than the second packing.)
            if self.refine && disjoint < remaining && remaining >= 3 {
                let mut again = [0; MAX_PARTS];
                let (used2, disjoint2) =
                    self.repack(depth, dead, remaining, best.count_ones(), &mut again);
                if disjoint2 > remaining {
                    return;
                }
                if disjoint2 > disjoint {
                    parts = again;
                    used = used2;
                    disjoint = disjoint2;
                }
            }
            // As many disjoint sets as clues left: each clue left lies in one of them, so the
            // cells outside their union are out of play, and so are a set's cells outside the
            // sets that meet it in one of them only.
            let outside = self.full & !used & !dead;
            if self.refine && disjoint == remaining && remaining <= MAX_PARTS {
                dead |= outside;
                match self.refine(depth, &mut dead, &mut parts[..remaining]) {
                    None => return,
                    Some(best) => break best,
                }
            }
            if disjoint == remaining && outside != 0 {
                dead |= outside;
                continue;
            }
            break best;
        };
        if remaining == 1 {
            let candidates = self.common(depth, branch & !dead);
            self.leaves(depth, candidates);
            return;
        }
        let mut order = [0u8; MAX_CELLS];
        let count = self.branch_order(branch, &mut order);
        for &cell in &order[..count] {
            let cell = usize::from(cell);
            // Only the words that hold sets (the words past them stay zero at every depth);
            // counted again for each child, as a sibling's subtree may have added sets.
            let words = self.sets.len().div_ceil(64);
            let (parent, child) = self.levels.split_at_mut((depth + 1) * SET_WORDS);
            let parent = &parent[depth * SET_WORDS..depth * SET_WORDS + words];
            let hit = &self.contains[cell * SET_WORDS..cell * SET_WORDS + words];
            for ((child, &parent), &hit) in child[..words].iter_mut().zip(parent).zip(hit) {
                *child = parent & !hit;
            }
            self.path[depth + 1] = clues | bit(cell);
            self.node(depth + 1, placed + 1, dead);
            if self.stopped() {
                return;
            }
            dead |= bit(cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::to_line;

    /// The sorted puzzles of `clues` clues in `grid`, with a survey of at most `survey_sets`.
    fn listing(grid: &Grid, clues: usize, survey_sets: usize) -> Vec<String> {
        listing_with_stats(grid, clues, survey_sets).0
    }

    /// [`listing_with_stats`] with the second packing and the confining pass on or off.
    fn listing_refined(grid: &Grid, clues: usize, refine: bool) -> (Vec<String>, MinCluesStats) {
        listing_within(grid, clues, SURVEY_SETS, refine)
    }

    /// [`listing`] and the complete search's stats.
    fn listing_with_stats(
        grid: &Grid,
        clues: usize,
        survey_sets: usize,
    ) -> (Vec<String>, MinCluesStats) {
        listing_within(grid, clues, survey_sets, true)
    }

    /// The sorted puzzles and the complete search's stats under the bounds given.
    fn listing_within(
        grid: &Grid,
        clues: usize,
        survey_sets: usize,
        refine: bool,
    ) -> (Vec<String>, MinCluesStats) {
        let options = MinCluesOptions::default();
        let bounds = Bounds {
            options: &options,
            deadline: None,
            survey_sets,
            refine,
        };
        let sets = unavoidable_sets(grid, DEFAULT_SET_DIGITS).sets;
        let mut puzzles = Vec::new();
        let stats = search_within(grid, clues, sets, &bounds, &mut |puzzle| {
            puzzles.push(to_line(puzzle).unwrap());
        });
        assert!(stats.complete());
        puzzles.sort();
        (puzzles, stats)
    }

    fn six_by_six() -> Grid {
        let shape = Shape::new(2, 3).unwrap();
        let cells = b"123456456123231564564231312645645312"
            .iter()
            .map(|b| b - b'0')
            .collect();
        Grid::from_cells(shape, cells).unwrap()
    }

    #[test]
    fn a_complete_listing_decides_one_clue_fewer() {
        let grid = six_by_six();
        // The grid's fewest clues are 9: listings of 9 and 10 clues say whether 8 and 9 have
        // a unique puzzle, as the listings of 8 and 9 themselves do.
        for clues in [9, 10] {
            let (puzzles, stats) = listing_with_stats(&grid, clues, SURVEY_SETS);
            let fewer = listing(&grid, clues - 1, SURVEY_SETS);
            assert_eq!(stats.fewer, Some(!fewer.is_empty()), "{clues} clues");
            assert_eq!(
                (puzzles.len(), fewer.len()),
                if clues == 9 { (72, 0) } else { (16_524, 72) }
            );
        }
        // An empty listing decides it too (a unique puzzle of fewer clues has supersets).
        assert_eq!(
            listing_with_stats(&grid, 8, SURVEY_SETS).1.fewer,
            Some(false)
        );
        // An incomplete search decides nothing.
        let options = MinCluesOptions {
            max_nodes: Some(10),
            ..MinCluesOptions::default()
        };
        let stats = min_clues(&grid, 10, &options, &mut |_| {}).unwrap();
        assert!(!stats.complete());
        assert_eq!(stats.fewer, None);
    }

    #[test]
    fn a_survey_of_some_sets_lists_what_a_survey_of_all_lists() {
        let grid = six_by_six();
        // More sets than the bounded survey looks at, so the bound is in play.
        assert!(unavoidable_sets(&grid, DEFAULT_SET_DIGITS).sets.len() > 4 * SURVEY_SETS);
        // This grid's fewest clues are 9 (72 puzzles); no grid has a unique 7-clue puzzle.
        for (clues, puzzles) in [(7, 0), (8, 0), (9, 72)] {
            let all = listing(&grid, clues, usize::MAX);
            assert_eq!(all.len(), puzzles, "{clues} clues");
            assert_eq!(listing(&grid, clues, SURVEY_SETS), all, "{clues} clues");
            assert_eq!(listing(&grid, clues, 1), all, "{clues} clues");
        }
    }

    #[test]
    fn packing_again_and_refining_cut_nodes_and_list_the_same_puzzles() {
        let grid = six_by_six();
        // 9 clues: the grid's 72 puzzles; 10: 16,524. (Fewer clues end at the root, where the
        // survey finds more disjoint sets than clues.) The trees are the search's own: nodes
        // refined and not.
        for (clues, nodes) in [(9, (2_612, 4_179)), (10, (51_037, 63_588))] {
            let (plain, plain_stats) = listing_refined(&grid, clues, false);
            let (refined, refined_stats) = listing_refined(&grid, clues, true);
            assert_eq!(refined, plain, "{clues} clues");
            assert_eq!(refined_stats.fewer, plain_stats.fewer, "{clues} clues");
            assert_eq!(
                (refined_stats.nodes, plain_stats.nodes),
                nodes,
                "{clues} clues"
            );
        }
    }
}
