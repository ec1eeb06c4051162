//! A human-style step solver: the techniques people use, each step a value with its reason in
//! words, and a difficulty rating after Sudoku Explainer's scale.
//!
//! The solver keeps a candidate grid ([`Board`]) and always applies the easiest technique that
//! makes progress ([`next_step`]), so the whole solve ([`solve_path`]) is the path of easiest
//! steps; its hardest step is the puzzle's rating ([`rate`]), as Sudoku Explainer defines it
//! (the technique weights of its v1.2.1 rating table: hidden single 1.2/1.5, naked single 2.3,
//! pointing 2.6, claiming 2.8, ... forcing chains 7.0 and up, with 0.1 added per length
//! threshold a chain passes).
//!
//! Singles, locked candidates, naked and hidden subsets and fish work on every shape; wings,
//! uniqueness techniques and chains on every shape up to 16x16 (larger boards stop at the
//! fish). Uniqueness techniques (unique rectangles, BUG+1) assume one solution: the path is only
//! defined for proper puzzles, which the caller checks first ([`is_proper`]).

mod basic;
mod board;
mod chains;
mod chart;
mod correlation;
mod depth;
mod dynamic;
mod wings;

use std::fmt;

use serde::Serialize;

pub use board::Board;
pub use chart::calibration_html;
pub use correlation::{kendall_tau_b, spearman};
pub use depth::{MAX_TE_DEPTH, Propagation, max_te_depth, propagation_level, te_depth};

use crate::model::{Grid, Shape, cell_name};
use crate::strategy::{self, Limits, Stop, Strategy as _, Verdict};

/// A solving technique, in the order the solver tries them (easiest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Technique {
    /// The last empty cell of a house.
    FullHouse,
    /// The only place for a digit in a box.
    HiddenSingleBox,
    /// The only place for a digit in a row or column.
    HiddenSingleLine,
    /// The only digit left in a cell.
    NakedSingle,
    /// A box's places for a digit on one line.
    Pointing,
    /// A line's places for a digit in one box.
    Claiming,
    /// Two cells with the same two candidates.
    NakedPair,
    /// Two rows (columns) whose places for a digit lie in two columns (rows).
    XWing,
    /// Two digits with the same two places in a house.
    HiddenPair,
    /// Three cells with three candidates between them.
    NakedTriple,
    /// The fish of three lines.
    Swordfish,
    /// Three digits with three places between them.
    HiddenTriple,
    /// A bivalue pivot and two bivalue pincers.
    XyWing,
    /// A trivalue pivot and two bivalue pincers.
    XyzWing,
    /// A unique rectangle of type 1.
    UniqueRectangle1,
    /// A unique rectangle of type 2.
    UniqueRectangle2,
    /// A unique rectangle of type 3 (its roof in a naked subset).
    UniqueRectangle3,
    /// A unique rectangle of type 4.
    UniqueRectangle4,
    /// Four cells with four candidates between them.
    NakedQuad,
    /// The fish of four lines.
    Jellyfish,
    /// Four digits with four places between them.
    HiddenQuad,
    /// A pivot and three wings holding four digits, one of them unrestricted.
    WxyzWing,
    /// Bivalue universal grave plus one.
    Bug1,
    /// A pivot and four wings holding five digits, one of them unrestricted.
    VwxyzWing,
    /// A chain on one digit (turbot fish, X-chains).
    XChain,
    /// A chain of bivalue cells.
    XyChain,
    /// Two cells with the same two candidates, joined by a strong link on one of them.
    WWing,
    /// An alternating inference chain over any links.
    Aic,
    /// A supposition that implies a candidate both on and off (static links).
    ForcingChain,
    /// Every candidate of a cell, or place of a digit in a house, implies the same conclusion.
    CellForcingChain,
    /// A supposition that breaks the board once singles run on.
    DynamicForcingChain,
    /// Every branch of a cell or house reaches the same conclusion once singles run on.
    DynamicCellForcingChain,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 32] = [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle1,
        Technique::UniqueRectangle2,
        Technique::UniqueRectangle3,
        Technique::UniqueRectangle4,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::WxyzWing,
        Technique::Bug1,
        Technique::VwxyzWing,
        Technique::XChain,
        Technique::XyChain,
        Technique::WWing,
        Technique::Aic,
        Technique::ForcingChain,
        Technique::CellForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicCellForcingChain,
    ];

    /// The name in JSON and on the command line (`generate --technique`): `x-wing`,
    /// `hidden-single-box`.
    pub fn slug(self) -> &'static str {
        match self {
            Technique::FullHouse => "full-house",
            Technique::HiddenSingleBox => "hidden-single-box",
            Technique::HiddenSingleLine => "hidden-single-line",
            Technique::NakedSingle => "naked-single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked-pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden-pair",
            Technique::NakedTriple => "naked-triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden-triple",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::UniqueRectangle1 => "unique-rectangle1",
            Technique::UniqueRectangle2 => "unique-rectangle2",
            Technique::UniqueRectangle3 => "unique-rectangle3",
            Technique::UniqueRectangle4 => "unique-rectangle4",
            Technique::NakedQuad => "naked-quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden-quad",
            Technique::WxyzWing => "wxyz-wing",
            Technique::Bug1 => "bug1",
            Technique::VwxyzWing => "vwxyz-wing",
            Technique::XChain => "x-chain",
            Technique::XyChain => "xy-chain",
            Technique::WWing => "w-wing",
            Technique::Aic => "aic",
            Technique::ForcingChain => "forcing-chain",
            Technique::CellForcingChain => "cell-forcing-chain",
            Technique::DynamicForcingChain => "dynamic-forcing-chain",
            Technique::DynamicCellForcingChain => "dynamic-cell-forcing-chain",
        }
    }

    /// The name people use.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::HiddenSingleBox => "hidden single (box)",
            Technique::HiddenSingleLine => "hidden single (line)",
            Technique::NakedSingle => "naked single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "X-Wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "Swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::XyWing => "XY-Wing",
            Technique::XyzWing => "XYZ-Wing",
            Technique::UniqueRectangle1 => "unique rectangle type 1",
            Technique::UniqueRectangle2 => "unique rectangle type 2",
            Technique::UniqueRectangle3 => "unique rectangle type 3",
            Technique::UniqueRectangle4 => "unique rectangle type 4",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "Jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::WxyzWing => "WXYZ-Wing",
            Technique::Bug1 => "BUG+1",
            Technique::VwxyzWing => "VWXYZ-Wing",
            Technique::XChain => "X-chain",
            Technique::XyChain => "XY-chain",
            Technique::WWing => "W-Wing",
            Technique::Aic => "alternating inference chain",
            Technique::ForcingChain => "forcing chain",
            Technique::CellForcingChain => "cell/region forcing chain",
            Technique::DynamicForcingChain => "dynamic forcing chain",
            Technique::DynamicCellForcingChain => "dynamic cell/region forcing chain",
        }
    }

    /// The technique's base difficulty in tenths (Sudoku Explainer's scale: 23 is 2.3); chains
    /// add tenths for their length.
    pub fn base_tenths(self) -> u32 {
        match self {
            Technique::FullHouse => 10,
            Technique::HiddenSingleBox => 12,
            Technique::HiddenSingleLine => 15,
            Technique::NakedSingle => 23,
            Technique::Pointing => 26,
            Technique::Claiming => 28,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            Technique::UniqueRectangle1 => 45,
            Technique::UniqueRectangle2
            | Technique::UniqueRectangle3
            | Technique::UniqueRectangle4 => 46,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad => 54,
            Technique::WxyzWing => 55,
            Technique::Bug1 => 56,
            Technique::VwxyzWing => 63,
            Technique::XChain => 66,
            Technique::XyChain | Technique::WWing | Technique::Aic | Technique::ForcingChain => 70,
            Technique::CellForcingChain => 82,
            Technique::DynamicForcingChain => 85,
            Technique::DynamicCellForcingChain => 88,
        }
    }

    /// Whether the technique assumes the puzzle has exactly one solution.
    pub fn assumes_uniqueness(self) -> bool {
        matches!(
            self,
            Technique::UniqueRectangle1
                | Technique::UniqueRectangle2
                | Technique::UniqueRectangle3
                | Technique::UniqueRectangle4
                | Technique::Bug1
        )
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a solve: what the technique found, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Its difficulty in tenths (Sudoku Explainer's scale): the technique's base, plus the
    /// length addition of a chain.
    pub difficulty: u32,
    /// The cells of the pattern (the cell placed, the subset, the fish's base cells, the chain).
    pub cells: Vec<usize>,
    /// Values placed, as `(cell, digit)`.
    pub placements: Vec<(usize, u8)>,
    /// Candidates removed, as `(cell, digit)`.
    pub eliminations: Vec<(usize, u8)>,
    /// The reason in words, naming cells `r3c7`.
    pub reason: String,
}

impl Step {
    fn placing(technique: Technique, cell: usize, digit: u8, reason: String) -> Step {
        Step {
            technique,
            difficulty: technique.base_tenths(),
            cells: vec![cell],
            placements: vec![(cell, digit)],
            eliminations: Vec::new(),
            reason,
        }
    }

    fn eliminating(
        technique: Technique,
        cells: Vec<usize>,
        eliminations: Vec<(usize, u8)>,
        reason: String,
    ) -> Step {
        Step {
            technique,
            difficulty: technique.base_tenths(),
            cells,
            placements: Vec::new(),
            eliminations,
            reason,
        }
    }

    /// What the step does, in words: `r3c7 = 5` or `r1c2 <> 3, r1c5 <> 3`.
    pub fn effect(&self, shape: Shape) -> String {
        let placed = self
            .placements
            .iter()
            .map(|&(cell, digit)| format!("{} = {digit}", cell_name(shape, cell)));
        let removed = self
            .eliminations
            .iter()
            .map(|&(cell, digit)| format!("{} <> {digit}", cell_name(shape, cell)));
        placed.chain(removed).collect::<Vec<_>>().join(", ")
    }
}

/// A difficulty in tenths as people write it: `7.2`.
pub fn format_tenths(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// `3 and 7`, `3, 7 and 9`.
fn and_list<T: fmt::Display>(items: &[T]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!(
            "{} and {last}",
            init.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `r1c2, r1c5 and r3c4`.
fn cell_list(shape: Shape, cells: &[usize]) -> String {
    let names: Vec<String> = cells.iter().map(|&cell| cell_name(shape, cell)).collect();
    and_list(&names)
}

/// A technique's search: the easiest step of its kind, if any.
type Finder = dyn Fn(&Board) -> Option<Step>;

/// The largest side on which wings, uniqueness techniques and chains are tried.
pub const MAX_CHAIN_SIDE: usize = 16;

/// The easiest step the board allows, or `None` when no technique applies (or it is solved).
pub fn next_step(board: &Board) -> Option<Step> {
    if board.is_solved() {
        return None;
    }
    let simple: [&Finder; 12] = [
        &basic::full_house,
        &|b| basic::hidden_single(b, true),
        &|b| basic::hidden_single(b, false),
        &basic::naked_single,
        &|b| basic::locked_candidates(b, true),
        &|b| basic::locked_candidates(b, false),
        &|b| basic::naked_subset(b, 2),
        &|b| basic::fish(b, 2),
        &|b| basic::hidden_subset(b, 2),
        &|b| basic::naked_subset(b, 3),
        &|b| basic::fish(b, 3),
        &|b| basic::hidden_subset(b, 3),
    ];
    if let Some(step) = simple.iter().find_map(|find| find(board)) {
        return Some(step);
    }
    let chains_allowed = board.side() <= MAX_CHAIN_SIDE;
    if chains_allowed {
        // Unique rectangles of type 3 rate 4.6 with a pair, 4.7 with a triple, 4.8 with a quad.
        let wings: [&Finder; 8] = [
            &wings::xy_wing,
            &wings::xyz_wing,
            &|b| wings::unique_rectangle(b, 1),
            &|b| wings::unique_rectangle(b, 2),
            &|b| wings::unique_rectangle_three(b, 2),
            &|b| wings::unique_rectangle(b, 4),
            &|b| wings::unique_rectangle_three(b, 3),
            &|b| wings::unique_rectangle_three(b, 4),
        ];
        if let Some(step) = wings.iter().find_map(|find| find(board)) {
            return Some(step);
        }
    }
    let larger: [&Finder; 3] = [
        &|b| basic::naked_subset(b, 4),
        &|b| basic::fish(b, 4),
        &|b| basic::hidden_subset(b, 4),
    ];
    if let Some(step) = larger.iter().find_map(|find| find(board)) {
        return Some(step);
    }
    if !chains_allowed {
        return None;
    }
    // WXYZ-Wing (5.5, 5.6 with z in the pivot) and BUG+1 (5.6), then VWXYZ-Wing (6.3, 6.4).
    let wxyz = wings::big_wing(board, 4);
    if let Some((step, false)) = wxyz {
        return Some(step);
    }
    if let Some(step) = wings::bug_plus_one(board) {
        return Some(step);
    }
    if let Some((step, _)) = wxyz {
        return Some(step);
    }
    if let Some((step, _)) = wings::big_wing(board, 5) {
        return Some(step);
    }
    // The chain families, each rated by its length: the easiest step over the families, looked
    // for family by family while a later family could still be easier.
    // A W-Wing is the six-node alternating inference chain (7.0) of a known shape, named
    // before the AIC family is searched.
    let families: [(u32, &Finder); 8] = [
        (66, &|b| {
            chains::alternating_chain(b, chains::Links::SameDigit)
        }),
        (70, &|b| {
            chains::alternating_chain(b, chains::Links::Bivalue)
        }),
        (70, &wings::w_wing),
        (70, &|b| chains::alternating_chain(b, chains::Links::All)),
        (70, &|b| chains::forcing_chain(b, true)),
        (82, &|b| chains::forcing_chain(b, false)),
        (85, &dynamic::dynamic_contradiction),
        (88, &dynamic::dynamic_forcing),
    ];
    let mut best: Option<Step> = None;
    for (base, find) in families {
        if best.as_ref().is_some_and(|step| step.difficulty <= base) {
            break;
        }
        if let Some(step) = find(board) {
            if best.as_ref().is_none_or(|b| step.difficulty < b.difficulty) {
                best = Some(step);
            }
        }
    }
    best
}

/// Applies a step's placements and eliminations to the board.
pub fn apply(board: &mut Board, step: &Step) {
    for &(cell, digit) in &step.placements {
        if board.value(cell) == 0 {
            board.place(cell, digit);
        }
    }
    for &(cell, digit) in &step.eliminations {
        board.eliminate(cell, digit);
    }
}

/// A whole solve: the path of easiest steps.
#[derive(Clone, Debug, Serialize)]
pub struct Path {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Whether the steps solve the puzzle; `false` when no technique applied any more.
    pub solved: bool,
    /// The grid when the path ended (the solution when solved).
    #[serde(skip)]
    pub end: Grid,
}

impl Path {
    /// The hardest step's difficulty in tenths (0 for a puzzle with nothing to do).
    pub fn difficulty(&self) -> u32 {
        self.steps
            .iter()
            .map(|step| step.difficulty)
            .max()
            .unwrap_or(0)
    }

    /// The hardest step's technique.
    pub fn hardest(&self) -> Option<Technique> {
        self.steps
            .iter()
            .max_by_key(|step| (step.difficulty, step.technique))
            .map(|step| step.technique)
    }
}

/// The path of easiest steps from `board` until it is solved or no technique applies.
pub fn solve_board(mut board: Board) -> Path {
    let mut steps = Vec::new();
    while let Some(step) = next_step(&board) {
        apply(&mut board, &step);
        steps.push(step);
    }
    Path {
        steps,
        solved: board.is_solved(),
        end: board.to_grid(),
    }
}

/// Why a puzzle has no human path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotProper {
    /// Two givens conflict, or no solution exists.
    #[error("not a proper puzzle: it has no solution")]
    NoSolution,
    /// Two or more solutions.
    #[error("not a proper puzzle: it has several solutions")]
    Several,
    /// A variant: the techniques reason over rows, columns and boxes only.
    #[error(
        "the step solver knows plain Sudoku only: its techniques reason over rows, columns and boxes, not a variant's rules"
    )]
    Variant,
    /// The uniqueness check stopped before it could tell (its budget: a deadline, a node
    /// limit, a cancellation): the puzzle may be proper or not.
    #[error("gave up: the uniqueness check stopped at its budget ({})", .0.as_str())]
    GaveUp(Stop),
}

/// The outcome of `fast`'s uniqueness check as a proper puzzle or why not; a stopped search is
/// [`NotProper::GaveUp`], never a verdict.
fn proper_verdict(outcome: &strategy::Outcome) -> Result<(), NotProper> {
    match outcome.verdict() {
        Verdict::Unique => Ok(()),
        Verdict::None => Err(NotProper::NoSolution),
        Verdict::Unknown => Err(NotProper::GaveUp(
            outcome.stopped.unwrap_or(Stop::Cancelled),
        )),
        _ => Err(NotProper::Several),
    }
}

/// Whether the puzzle has exactly one solution (by `fast`, unbounded), with that solution.
pub fn is_proper(puzzle: &Grid) -> Result<Grid, NotProper> {
    is_proper_within(puzzle, &Limits::default())
}

/// [`is_proper`] within `limits` (its timeout, node limit and cancel flag; the solution limit
/// is the check's own, two).
pub fn is_proper_within(puzzle: &Grid, limits: &Limits) -> Result<Grid, NotProper> {
    if puzzle.rules().is_some() {
        return Err(NotProper::Variant);
    }
    let fast = &strategy::Fast;
    let mut solution = None;
    let outcome = fast.search(puzzle, &limits.clone().with_max_solutions(2), &mut |grid| {
        solution.get_or_insert_with(|| grid.clone());
    });
    proper_verdict(&outcome)?;
    solution.ok_or(NotProper::NoSolution)
}

/// The path of easiest steps of a proper puzzle.
pub fn solve_path(puzzle: &Grid) -> Result<Path, NotProper> {
    is_proper(puzzle)?;
    let board = Board::new(puzzle).ok_or(NotProper::NoSolution)?;
    Ok(solve_board(board))
}

/// Checks every placement and elimination of `path` against `solution`: the first wrong one,
/// as a message naming the step.
pub fn check_path(path: &Path, solution: &Grid) -> Result<(), String> {
    let shape = solution.shape();
    for (index, step) in path.steps.iter().enumerate() {
        for &(cell, digit) in &step.placements {
            if solution.get(cell) != digit {
                return Err(format!(
                    "step {} ({}) places {digit} in {}, but the solution has {}",
                    index + 1,
                    step.technique,
                    cell_name(shape, cell),
                    solution.get(cell)
                ));
            }
        }
        for &(cell, digit) in &step.eliminations {
            if solution.get(cell) == digit {
                return Err(format!(
                    "step {} ({}) removes {digit} from {}, the solution's digit",
                    index + 1,
                    step.technique,
                    cell_name(shape, cell)
                ));
            }
        }
    }
    Ok(())
}

/// What `rate` says about a proper puzzle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The hardest step on the path of easiest steps, in tenths (Sudoku Explainer's scale).
    pub difficulty: u32,
    /// The technique of that step.
    pub hardest: Option<Technique>,
    /// The number of steps.
    pub steps: usize,
    /// Whether the path solves the puzzle (otherwise it stopped: no technique applied).
    pub solved: bool,
    /// The technique the path stopped after, when it did not solve the puzzle.
    pub stopped_after: Option<Technique>,
    /// `fast`'s search nodes for the uniqueness check (solve and prove unique).
    pub fast_nodes: u64,
    /// `fast`'s guesses in that search.
    pub fast_guesses: u64,
    /// The weakest propagation level whose fixed point solves the puzzle; `None` when none
    /// does (it needs a guess, chains or trial and error).
    pub propagation: Option<Propagation>,
    /// Berthier's trial-and-error depth: the smallest `n` such that T&E(n) solves the puzzle;
    /// `None` when T&E(`te_tried`) does not.
    pub te_depth: Option<u32>,
    /// The deepest T&E level tried ([`max_te_depth`] of the side).
    pub te_tried: u32,
}

impl Rating {
    /// The rating as a number for correlations: the difficulty, or 10.0 when the path stopped
    /// (harder than anything the solver names).
    pub fn value(&self) -> f64 {
        if self.solved {
            f64::from(self.difficulty) / 10.0
        } else {
            10.0
        }
    }
}

/// Rates a puzzle: its uniqueness (by `fast`, whose counters are kept), then the path of
/// easiest steps and its hardest step.
pub fn rate(puzzle: &Grid) -> Result<(Rating, Path), NotProper> {
    rate_within(puzzle, &Limits::default())
}

/// [`rate`] with the uniqueness check within `limits`. The check is the only search: the
/// steps and the depths after it are polynomial in the board.
pub fn rate_within(puzzle: &Grid, limits: &Limits) -> Result<(Rating, Path), NotProper> {
    if puzzle.rules().is_some() {
        return Err(NotProper::Variant);
    }
    let fast = &strategy::Fast;
    let outcome = fast.count_up_to(puzzle, 2, limits);
    proper_verdict(&outcome)?;
    let board = Board::new(puzzle).ok_or(NotProper::NoSolution)?;
    let propagation = propagation_level(&board);
    let te_tried = max_te_depth(board.side());
    // Singles solve exactly the puzzles of T&E(0): no trial needed to know that.
    let depth = match propagation {
        Some(Propagation::NakedSingles | Propagation::HiddenSingles) => Some(0),
        _ => te_depth(&board, te_tried),
    };
    let path = solve_board(board);
    let rating = Rating {
        difficulty: path.difficulty(),
        hardest: path.hardest(),
        steps: path.steps.len(),
        solved: path.solved,
        stopped_after: (!path.solved)
            .then(|| path.steps.last().map(|step| step.technique))
            .flatten(),
        fast_nodes: outcome.stats.get(strategy::Counter::Nodes).unwrap_or(0),
        fast_guesses: outcome.stats.get(strategy::Counter::Guesses).unwrap_or(0),
        propagation,
        te_depth: depth,
        te_tried,
    };
    Ok((rating, path))
}

#[cfg(test)]
mod tests;
