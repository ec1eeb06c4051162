//! Dynamic forcing chains: suppose a candidate, let singles run on a copy of the board, and see
//! what follows. A supposition that breaks the board is false; a conclusion every candidate of
//! a cell (or every place of a digit in a house) leads to is true.

use super::board::Board;
use super::chains::length_tenths;
use super::{Step, Technique};
use crate::model::{DigitSet, cell_name};

/// What singles made of a supposition.
struct Propagated {
    board: Board,
    placements: u32,
    broken: bool,
}

/// Applies naked and hidden singles until none is left or the board breaks.
fn propagate(mut board: Board) -> Propagated {
    let full = DigitSet::full(board.side()).bits();
    let mut placements = 0;
    loop {
        let mut progress = false;
        for cell in 0..board.cell_count() {
            if board.value(cell) != 0 {
                continue;
            }
            let bits = board.bits(cell);
            if bits == 0 {
                return Propagated {
                    board,
                    placements,
                    broken: true,
                };
            }
            if bits.is_power_of_two() {
                board.place(cell, bits.trailing_zeros() as u8 + 1);
                placements += 1;
                progress = true;
            }
        }
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
            if (once | placed) != full {
                return Propagated {
                    board,
                    placements,
                    broken: true,
                };
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
                if let Some(cell) = cell {
                    board.place(cell, digit);
                    placements += 1;
                    progress = true;
                }
            }
        }
        if !progress {
            return Propagated {
                board,
                placements,
                broken: false,
            };
        }
    }
}

fn suppose(board: &Board, cell: usize, digit: u8) -> Propagated {
    let mut copy = board.clone();
    copy.place(cell, digit);
    let mut propagated = propagate(copy);
    propagated.placements += 1;
    propagated
}

/// A candidate whose supposition breaks the board under singles is false.
pub(super) fn dynamic_contradiction(board: &Board) -> Option<Step> {
    let mut best: Option<(u32, usize, u8)> = None;
    for cell in 0..board.cell_count() {
        for digit in DigitSet::from_bits(board.bits(cell)).iter() {
            let propagated = suppose(board, cell, digit);
            if propagated.broken && best.is_none_or(|(n, ..)| propagated.placements < n) {
                best = Some((propagated.placements, cell, digit));
            }
        }
    }
    let (placements, cell, digit) = best?;
    let reason = format!(
        "if {} were {digit}, singles would break the board after {placements} placements, so it \
         is not {digit}",
        cell_name(board.shape(), cell)
    );
    let mut step = Step::eliminating(
        Technique::DynamicForcingChain,
        vec![cell],
        vec![(cell, digit)],
        reason,
    );
    step.difficulty = 85 + length_tenths(2 * placements as usize + 1);
    Some(step)
}

/// Every candidate of a cell, or every place of a digit in a house, leads under singles to the
/// same placement or elimination, which therefore holds.
pub(super) fn dynamic_forcing(board: &Board) -> Option<Step> {
    let shape = board.shape();
    let mut premises: Vec<(String, Vec<(usize, u8)>)> = Vec::new();
    for cell in 0..board.cell_count() {
        let bits = board.bits(cell);
        if (2..=3).contains(&bits.count_ones()) {
            premises.push((
                format!("{} holds one of its candidates", cell_name(shape, cell)),
                DigitSet::from_bits(bits)
                    .iter()
                    .map(|d| (cell, d))
                    .collect(),
            ));
        }
    }
    for house in 0..board.house_count() {
        for digit in 1..=board.side() as u8 {
            let positions = board.positions(house, digit);
            if (2..=3).contains(&positions.count_ones()) {
                premises.push((
                    format!("{digit} goes somewhere in {}", board.house_name(house)),
                    DigitSet::from_bits(positions)
                        .iter()
                        .map(|p| (usize::from(board.house(house)[usize::from(p) - 1]), digit))
                        .collect(),
                ));
            }
        }
    }
    let mut best: Option<(u32, Step)> = None;
    for (premise, branches) in premises {
        let results: Vec<Propagated> = branches
            .iter()
            .map(|&(cell, digit)| suppose(board, cell, digit))
            .collect();
        // A broken branch is a contradiction, which the easier technique already looked for.
        if results.iter().any(|r| r.broken) {
            continue;
        }
        let cost: u32 = results.iter().map(|r| r.placements).sum();
        if best.as_ref().is_some_and(|(n, _)| cost >= *n) {
            continue;
        }
        let mut placements = Vec::new();
        let mut eliminations = Vec::new();
        for cell in (0..board.cell_count()).filter(|&cell| board.value(cell) == 0) {
            let first = results[0].board.value(cell);
            if first != 0 && results.iter().all(|r| r.board.value(cell) == first) {
                placements.push((cell, first));
                continue;
            }
            for digit in DigitSet::from_bits(board.bits(cell)).iter() {
                let gone = results
                    .iter()
                    .all(|r| r.board.value(cell) != digit && !r.board.has(cell, digit));
                if gone {
                    eliminations.push((cell, digit));
                }
            }
        }
        if placements.is_empty() && eliminations.is_empty() {
            continue;
        }
        // One conclusion per step, a placement first, as a person would write it down.
        let conclusion = if let Some(&(cell, digit)) = placements.first() {
            format!("{} is {digit}", cell_name(shape, cell))
        } else {
            let (cell, digit) = eliminations[0];
            format!("{} is not {digit}", cell_name(shape, cell))
        };
        let reason = format!(
            "{premise}, and singles from each of {} lead to: {conclusion}",
            branches
                .iter()
                .map(|&(cell, digit)| format!("{}={digit}", cell_name(shape, cell)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let cells: Vec<usize> = branches.iter().map(|&(c, _)| c).collect();
        let step = if let Some(&(cell, digit)) = placements.first() {
            let mut step = Step::placing(Technique::DynamicCellForcingChain, cell, digit, reason);
            step.cells = cells;
            step
        } else {
            Step::eliminating(
                Technique::DynamicCellForcingChain,
                cells,
                vec![eliminations[0]],
                reason,
            )
        };
        best = Some((cost, step));
    }
    best.map(|(cost, mut step)| {
        step.difficulty = 88 + length_tenths(2 * cost as usize + 1);
        step
    })
}
