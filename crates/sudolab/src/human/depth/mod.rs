//! Two exact measures of how much reasoning a puzzle needs, beside the path of easiest steps:
//! the weakest propagation level whose fixed point solves it, and Berthier's trial-and-error
//! depth T&E(n).
//!
//! Both are fixed points of monotone rules (every rule only places or removes candidates and
//! stays valid when more is known), so the result does not depend on the order in which the
//! rules fire: they are properties of the puzzle, not of the solver. The propagation levels
//! follow Simonis ("Sudoku as a Constraint Problem", CP 2005 workshop on modelling and
//! reformulating CSPs), who classified puzzles by the weakest propagation that solves them
//! without search; the house level is generalized arc consistency of each house's
//! all-different constraint, by Régin's matching argument ("A filtering algorithm for
//! constraints of difference in CSPs", AAAI 1994). T&E(n) is Berthier's ("The Hidden Logic of
//! Sudoku", 2007; "Pattern-Based Constraint Satisfaction and Logic Puzzles", 2012, ch. 5):
//! T&E(0) is the basic resolution theory (singles), and T&E(n + 1) removes a candidate when
//! asserting it and applying T&E(n) to a copy of the board reaches a contradiction.

use serde::Serialize;

use super::board::Board;

/// A propagation level: the rules applied together until none changes the board. Each level
/// holds the rules of the levels before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Propagation {
    /// A placed digit leaves its peers' candidates, and a cell with one candidate takes it
    /// (forward checking).
    NakedSingles,
    /// Also: a digit with one place in a house goes there (Berthier's basic resolution
    /// theory, which is T&E(0)).
    HiddenSingles,
    /// Also: a digit whose places in a house all lie in a second house leaves the rest of the
    /// second house (pointing and claiming).
    LockedCandidates,
    /// Also: every candidate that no assignment of the house's missing digits to its empty
    /// cells uses is removed (generalized arc consistency of each house's all-different
    /// constraint: every naked and hidden subset of every size).
    HouseConsistency,
}

impl Propagation {
    /// Every level, weakest first.
    pub const ALL: [Propagation; 4] = [
        Propagation::NakedSingles,
        Propagation::HiddenSingles,
        Propagation::LockedCandidates,
        Propagation::HouseConsistency,
    ];

    /// The level's name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Propagation::NakedSingles => "naked-singles",
            Propagation::HiddenSingles => "hidden-singles",
            Propagation::LockedCandidates => "locked-candidates",
            Propagation::HouseConsistency => "house-consistency",
        }
    }

    /// The level named `name`, if any.
    pub fn from_name(name: &str) -> Option<Propagation> {
        Propagation::ALL
            .into_iter()
            .find(|level| level.name() == name)
    }
}

impl std::fmt::Display for Propagation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The deepest T&E level `te_depth` tries on boards up to 9x9; T&E(1) up to 16x16 (a T&E(2)
/// pass on a 16x16 board asserts each of about 2,000 candidates under a T&E(1) of its own), and
/// T&E(0) above, as the chains (a T&E(1) pass on 25x25 asserts about 10,000 candidates).
pub const MAX_TE_DEPTH: u32 = 2;

/// The deepest T&E level tried on boards of side `side`.
pub fn max_te_depth(side: usize) -> u32 {
    match side {
        0..=9 => MAX_TE_DEPTH,
        10..=super::MAX_CHAIN_SIDE => 1,
        _ => 0,
    }
}

/// The weakest propagation level whose fixed point solves the board, or `None` when even
/// house consistency with locked candidates leaves cells open (the puzzle needs a guess, or
/// chains, or T&E). The board is assumed consistent (a proper puzzle).
pub fn propagation_level(board: &Board) -> Option<Propagation> {
    let mut board = board.clone();
    // Each level's fixed point is reached from the previous one's: the earlier rules are part
    // of it, and the fixed point of monotone rules does not depend on where it starts.
    Propagation::ALL.into_iter().find(|&level| {
        propagate(&mut board, level);
        board.is_solved()
    })
}

/// The smallest `n` up to `max_depth` such that T&E(n) solves the board, or `None` when
/// T&E(`max_depth`) does not. The board is assumed consistent (a proper puzzle).
pub fn te_depth(board: &Board, max_depth: u32) -> Option<u32> {
    let mut board = board.clone();
    // As for the levels: T&E(n)'s fixed point is reached from T&E(n - 1)'s.
    (0..=max_depth).find(|&depth| {
        trial_and_error(&mut board, depth);
        board.is_solved()
    })
}

/// Applies T&E(`depth`) until nothing changes; `false` when the board breaks.
pub(super) fn trial_and_error(board: &mut Board, depth: u32) -> bool {
    if !propagate(board, Propagation::HiddenSingles) {
        return false;
    }
    if depth == 0 {
        return true;
    }
    if !trial_and_error(board, depth - 1) {
        return false;
    }
    loop {
        let mut removed_any = false;
        for cell in 0..board.cell_count() {
            let mut untried = board.bits(cell);
            while untried != 0 {
                let digit = untried.trailing_zeros() as u8 + 1;
                untried &= untried - 1;
                if !board.has(cell, digit) {
                    continue;
                }
                let mut supposed = board.clone();
                supposed.place(cell, digit);
                if !trial_and_error(&mut supposed, depth - 1) {
                    board.eliminate(cell, digit);
                    if !trial_and_error(board, depth - 1) {
                        return false;
                    }
                    removed_any = true;
                }
            }
        }
        if !removed_any || board.is_solved() {
            return true;
        }
    }
}

/// Applies the rules of `level` until none changes the board; `false` when the board breaks
/// (an empty cell without candidates, a digit with no place in a house that lacks it).
pub(super) fn propagate(board: &mut Board, level: Propagation) -> bool {
    loop {
        let Some(mut changed) = naked_singles(board) else {
            return false;
        };
        if level >= Propagation::HiddenSingles {
            match hidden_singles(board) {
                Some(placed) => changed |= placed,
                None => return false,
            }
        }
        if changed {
            continue;
        }
        if level >= Propagation::LockedCandidates {
            changed = locked_candidates(board);
        }
        if !changed && level >= Propagation::HouseConsistency {
            match house_consistency(board) {
                Some(removed) => changed = removed,
                None => return false,
            }
        }
        if !changed {
            return !board.is_broken();
        }
    }
}

/// Places every cell with one candidate; `None` when a cell has none.
fn naked_singles(board: &mut Board) -> Option<bool> {
    let mut placed = false;
    for cell in 0..board.cell_count() {
        if board.value(cell) != 0 {
            continue;
        }
        let bits = board.bits(cell);
        if bits == 0 {
            return None;
        }
        if bits.is_power_of_two() {
            board.place(cell, bits.trailing_zeros() as u8 + 1);
            placed = true;
        }
    }
    Some(placed)
}

/// Places every digit with one place in a house; `None` when a house has no place left for a
/// digit it lacks.
fn hidden_singles(board: &mut Board) -> Option<bool> {
    let full = crate::model::DigitSet::full(board.side()).bits();
    let mut placed_any = false;
    for house in 0..board.house_count() {
        let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
        for &cell in board.house(house) {
            let cell = usize::from(cell);
            let bits = board.bits(cell);
            twice |= once & bits;
            once |= bits;
            if board.value(cell) != 0 {
                placed |= 1 << (board.value(cell) - 1);
            }
        }
        if once | placed != full {
            return None;
        }
        let mut singles = once & !twice & !placed;
        while singles != 0 {
            let digit = singles.trailing_zeros() as u8 + 1;
            singles &= singles - 1;
            let cell = board
                .house(house)
                .iter()
                .map(|&cell| usize::from(cell))
                .find(|&cell| board.has(cell, digit));
            // Gone when an earlier single of this house took its cell: the next pass finds the
            // house broken.
            if let Some(cell) = cell {
                board.place(cell, digit);
                placed_any = true;
            }
        }
    }
    Some(placed_any)
}

/// Pointing and claiming: a digit whose places in one house all lie in another house leaves
/// the rest of that other house. Whether anything was removed.
fn locked_candidates(board: &mut Board) -> bool {
    let mut removed = false;
    for house in 0..board.house_count() {
        for digit in 1..=board.side() as u8 {
            let bit = 1u64 << (digit - 1);
            // The houses (other than `house`) that hold every place of the digit.
            let mut common: Option<[usize; 3]> = None;
            let mut places = 0;
            for &cell in board.house(house) {
                let cell = usize::from(cell);
                if board.bits(cell) & bit == 0 {
                    continue;
                }
                places += 1;
                let houses = board.houses_of(cell);
                common = Some(match common {
                    None => houses,
                    Some(mut kept) => {
                        for (slot, other) in kept.iter_mut().zip(houses) {
                            if *slot != other {
                                *slot = usize::MAX;
                            }
                        }
                        kept
                    }
                });
            }
            let Some(common) = common else { continue };
            if places < 2 {
                // One place is a hidden single, which the lower level places.
                continue;
            }
            for other in common {
                if other == usize::MAX || other == house {
                    continue;
                }
                for index in 0..board.side() {
                    let cell = usize::from(board.house(other)[index]);
                    if board.bits(cell) & bit != 0 && !board.houses_of(cell).contains(&house) {
                        board.eliminate(cell, digit);
                        removed = true;
                    }
                }
            }
        }
    }
    removed
}

/// Generalized arc consistency of every house's all-different constraint. A house's empty
/// cells and missing digits are as many; a candidate is kept only when some perfect matching
/// of cells to digits uses it. With one matching `m` in hand, cell `x` can take digit `v`
/// (`v` not `m(x)`) exactly when the cell `y` holding `v` in `m` reaches `x` in the graph
/// "cell `a` -> cell `b` when `a` has the digit `b` holds in `m`" (then `x <- v`, `y` moves
/// on along the path and the last cell takes `x`'s old digit: an alternating cycle). Whether
/// anything was removed; `None` when a house has no perfect matching.
fn house_consistency(board: &mut Board) -> Option<bool> {
    let mut removed = false;
    let mut cells: Vec<usize> = Vec::with_capacity(board.side());
    for house in 0..board.house_count() {
        cells.clear();
        cells.extend(
            board
                .house(house)
                .iter()
                .map(|&cell| usize::from(cell))
                .filter(|&cell| board.value(cell) == 0),
        );
        if cells.len() < 2 {
            continue;
        }
        let digit_of = perfect_matching(board, &cells)?;
        // cell_of[d]: the index in `cells` of the cell holding digit d + 1 in the matching.
        let mut cell_of = [usize::MAX; 64];
        for (index, &digit) in digit_of.iter().enumerate() {
            cell_of[usize::from(digit - 1)] = index;
        }
        // reach[a]: the cells (as indices) reachable from cell a, by Warshall's closure.
        let mut reach: Vec<u64> = cells
            .iter()
            .enumerate()
            .map(|(index, &cell)| {
                let mut next = 0u64;
                let mut bits = board.bits(cell) & !(1u64 << (digit_of[index] - 1));
                while bits != 0 {
                    next |= 1 << cell_of[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
                next
            })
            .collect();
        for middle in 0..cells.len() {
            let through = reach[middle];
            for row in &mut reach {
                if *row >> middle & 1 != 0 {
                    *row |= through;
                }
            }
        }
        for (index, &cell) in cells.iter().enumerate() {
            let mut bits = board.bits(cell) & !(1u64 << (digit_of[index] - 1));
            while bits != 0 {
                let digit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if reach[cell_of[digit]] >> index & 1 == 0 {
                    board.eliminate(cell, digit as u8 + 1);
                    removed = true;
                }
            }
        }
    }
    Some(removed)
}

/// A perfect matching of `cells` to digits among their candidates (Kuhn's augmenting paths):
/// the digit of each cell, in the order of `cells`; `None` when there is none.
fn perfect_matching(board: &Board, cells: &[usize]) -> Option<Vec<u8>> {
    // holder[d]: the index of the cell holding digit d + 1.
    let mut holder = [usize::MAX; 64];
    let mut digit_of = vec![0u8; cells.len()];
    for start in 0..cells.len() {
        let mut visited = 0u64;
        if !augment(
            board,
            cells,
            start,
            &mut visited,
            &mut holder,
            &mut digit_of,
        ) {
            return None;
        }
    }
    Some(digit_of)
}

fn augment(
    board: &Board,
    cells: &[usize],
    index: usize,
    visited: &mut u64,
    holder: &mut [usize; 64],
    digit_of: &mut [u8],
) -> bool {
    let mut bits = board.bits(cells[index]) & !*visited;
    while bits != 0 {
        let digit = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        *visited |= 1 << digit;
        let free = holder[digit] == usize::MAX;
        if free || augment(board, cells, holder[digit], visited, holder, digit_of) {
            holder[digit] = index;
            digit_of[index] = digit as u8 + 1;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests;
