//! Wings and the uniqueness techniques: XY-Wing, XYZ-Wing, the big wings, W-Wing, unique
//! rectangles (types 1 to 4) and BUG+1. The uniqueness techniques assume the puzzle has one
//! solution; the solver only runs on proper puzzles.

use super::board::Board;
use super::{Step, Technique, and_list, cell_list};
use crate::model::cell_name;

fn single_digit(bits: u64) -> u8 {
    bits.trailing_zeros() as u8 + 1
}

/// The eliminations of `digit` from every cell that sees all of `cells` (and is none of them).
fn common_peer_eliminations(board: &Board, cells: &[usize], digit: u8) -> Vec<(usize, u8)> {
    board
        .peers(cells[0])
        .iter()
        .map(|&cell| usize::from(cell))
        .filter(|&cell| {
            !cells.contains(&cell)
                && board.has(cell, digit)
                && cells.iter().all(|&other| board.sees(cell, other))
        })
        .map(|cell| (cell, digit))
        .collect()
}

/// XY-Wing: a pivot `{x, y}` seeing pincers `{x, z}` and `{y, z}`; whichever the pivot holds,
/// one pincer is `z`, so a cell seeing both pincers is not `z`.
pub(super) fn xy_wing(board: &Board) -> Option<Step> {
    let bivalue = |cell: usize| board.value(cell) == 0 && board.bits(cell).count_ones() == 2;
    for pivot in (0..board.cell_count()).filter(|&cell| bivalue(cell)) {
        let pivot_bits = board.bits(pivot);
        let wings: Vec<usize> = board
            .peers(pivot)
            .iter()
            .map(|&cell| usize::from(cell))
            .filter(|&cell| bivalue(cell) && (board.bits(cell) & pivot_bits).is_power_of_two())
            .collect();
        for (index, &first) in wings.iter().enumerate() {
            for &second in &wings[index + 1..] {
                let (a, b) = (board.bits(first), board.bits(second));
                let z = a & b & !pivot_bits;
                if z == 0 || a & pivot_bits == b & pivot_bits {
                    continue;
                }
                let digit = single_digit(z);
                let eliminations = common_peer_eliminations(board, &[first, second], digit);
                if eliminations.is_empty() {
                    continue;
                }
                let shape = board.shape();
                let reason = format!(
                    "{} is {} or {}: either way {} or {} is {digit}, so no cell seeing both is {digit}",
                    cell_name(shape, pivot),
                    single_digit(a & pivot_bits),
                    single_digit(b & pivot_bits),
                    cell_name(shape, first),
                    cell_name(shape, second)
                );
                return Some(Step::eliminating(
                    Technique::XyWing,
                    vec![pivot, first, second],
                    eliminations,
                    reason,
                ));
            }
        }
    }
    None
}

/// XYZ-Wing: a pivot `{x, y, z}` seeing pincers `{x, z}` and `{y, z}`: one of the three is `z`, so
/// a cell seeing all three is not `z`.
pub(super) fn xyz_wing(board: &Board) -> Option<Step> {
    for pivot in 0..board.cell_count() {
        let pivot_bits = board.bits(pivot);
        if board.value(pivot) != 0 || pivot_bits.count_ones() != 3 {
            continue;
        }
        let wings: Vec<usize> = board
            .peers(pivot)
            .iter()
            .map(|&cell| usize::from(cell))
            .filter(|&cell| {
                let bits = board.bits(cell);
                bits.count_ones() == 2 && bits & !pivot_bits == 0
            })
            .collect();
        for (index, &first) in wings.iter().enumerate() {
            for &second in &wings[index + 1..] {
                let (a, b) = (board.bits(first), board.bits(second));
                if a == b || a | b != pivot_bits {
                    continue;
                }
                let digit = single_digit(a & b);
                let eliminations = common_peer_eliminations(board, &[pivot, first, second], digit);
                if eliminations.is_empty() {
                    continue;
                }
                let cells = vec![pivot, first, second];
                let reason = format!(
                    "one of {} is {digit}, so no cell seeing all three is {digit}",
                    cell_list(board.shape(), &cells)
                );
                return Some(Step::eliminating(
                    Technique::XyzWing,
                    cells,
                    eliminations,
                    reason,
                ));
            }
        }
    }
    None
}

/// Unique rectangles of type 1 (`type_two` false: three corners are `{a, b}`, so the fourth is
/// not `a` or `b`) or type 2 (two corners `{a, b}`, two `{a, b, c}`: one of those is `c`).
pub(super) fn unique_rectangle(board: &Board, kind: u8) -> Option<Step> {
    find_rectangle(board, |corners, pair| match kind {
        1 => ur_type_one(board, corners, pair),
        2 => ur_type_two(board, corners, pair),
        _ => ur_type_four(board, corners, pair),
    })
}

/// Unique rectangle type 3 whose naked subset has `size` digits (Sudoku Explainer: 4.5 plus
/// 0.1 per digit past the first, so a pair is 4.6, a triple 4.7, a quad 4.8).
pub(super) fn unique_rectangle_three(board: &Board, size: usize) -> Option<Step> {
    find_rectangle(board, |corners, pair| {
        ur_type_three(board, corners, pair, size)
    })
}

/// The first step `found` makes of a rectangle: four empty corners in two rows, two columns
/// and two boxes, all holding the same two digits `pair`, one of them holding nothing else.
fn find_rectangle(
    board: &Board,
    mut found: impl FnMut([usize; 4], u64) -> Option<Step>,
) -> Option<Step> {
    let side = board.side();
    let shape = board.shape();
    for row1 in 0..side {
        for row2 in row1 + 1..side {
            for col1 in 0..side {
                for col2 in col1 + 1..side {
                    let corners = [
                        shape.cell_at(row1, col1),
                        shape.cell_at(row1, col2),
                        shape.cell_at(row2, col1),
                        shape.cell_at(row2, col2),
                    ];
                    let mut boxes: Vec<usize> = corners.iter().map(|&c| shape.box_of(c)).collect();
                    boxes.sort_unstable();
                    boxes.dedup();
                    if boxes.len() != 2 || corners.iter().any(|&c| board.value(c) != 0) {
                        continue;
                    }
                    let pair = corners
                        .iter()
                        .map(|&c| board.bits(c))
                        .filter(|bits| bits.count_ones() == 2)
                        .fold(u64::MAX, |acc, bits| acc & bits);
                    if pair.count_ones() != 2
                        || corners.iter().any(|&c| board.bits(c) & pair != pair)
                    {
                        continue;
                    }
                    let step = found(corners, pair);
                    if step.is_some() {
                        return step;
                    }
                }
            }
        }
    }
    None
}

fn ur_type_one(board: &Board, corners: [usize; 4], pair: u64) -> Option<Step> {
    let extra: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| board.bits(c) != pair)
        .collect();
    let [fourth] = extra[..] else {
        return None;
    };
    let digits: Vec<u8> = crate::model::DigitSet::from_bits(pair).iter().collect();
    let eliminations = digits.iter().map(|&digit| (fourth, digit)).collect();
    let reason = format!(
        "{} would be a deadly pattern of {} (two solutions) unless {} holds another digit, so it \
         is neither {} nor {}",
        cell_list(board.shape(), &corners),
        and_list(&digits),
        cell_name(board.shape(), fourth),
        digits[0],
        digits[1]
    );
    Some(Step::eliminating(
        Technique::UniqueRectangle1,
        corners.to_vec(),
        eliminations,
        reason,
    ))
}

fn ur_type_two(board: &Board, corners: [usize; 4], pair: u64) -> Option<Step> {
    let extra: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| board.bits(c) != pair)
        .collect();
    let [first, second] = extra[..] else {
        return None;
    };
    let third = board.bits(first) & !pair;
    if third.count_ones() != 1 || board.bits(second) != board.bits(first) {
        return None;
    }
    let digit = single_digit(third);
    let eliminations = common_peer_eliminations(board, &[first, second], digit);
    if eliminations.is_empty() {
        return None;
    }
    let reason = format!(
        "{} would be a deadly pattern (two solutions) unless {} or {} is {digit}, so no cell \
         seeing both is {digit}",
        cell_list(board.shape(), &corners),
        cell_name(board.shape(), first),
        cell_name(board.shape(), second)
    );
    Some(Step::eliminating(
        Technique::UniqueRectangle2,
        corners.to_vec(),
        eliminations,
        reason,
    ))
}

/// W-Wing: cells `A` and `B`, not seeing each other, both `{x, y}`, and a house where `y`
/// has exactly two places, one seeing `A` and one seeing `B`. Were neither `A` nor `B` `x`,
/// both would be `y` and the house would have no place left for `y`; so one of them is `x`,
/// and a cell seeing both is not `x`. It is the alternating inference chain
/// `x@A = y@A - y@P = y@Q - y@B = x@B` of six nodes, rated as that chain (7.0).
pub(super) fn w_wing(board: &Board) -> Option<Step> {
    let shape = board.shape();
    let bivalue: Vec<usize> = (0..board.cell_count())
        .filter(|&cell| board.value(cell) == 0 && board.bits(cell).count_ones() == 2)
        .collect();
    for (index, &a) in bivalue.iter().enumerate() {
        for &b in &bivalue[index + 1..] {
            if board.bits(a) != board.bits(b) || board.sees(a, b) {
                continue;
            }
            let digits: Vec<u8> = crate::model::DigitSet::from_bits(board.bits(a))
                .iter()
                .collect();
            for (which, &link) in digits.iter().enumerate() {
                let other = digits[1 - which];
                let eliminations = common_peer_eliminations(board, &[a, b], other);
                if eliminations.is_empty() {
                    continue;
                }
                for house in 0..board.house_count() {
                    let positions = board.positions(house, link);
                    if positions.count_ones() != 2 {
                        continue;
                    }
                    let first =
                        usize::from(board.house(house)[positions.trailing_zeros() as usize]);
                    let second =
                        usize::from(board.house(house)[63 - positions.leading_zeros() as usize]);
                    if [first, second].iter().any(|&c| c == a || c == b) {
                        continue;
                    }
                    let (near_a, near_b) = if board.sees(first, a) && board.sees(second, b) {
                        (first, second)
                    } else if board.sees(second, a) && board.sees(first, b) {
                        (second, first)
                    } else {
                        continue;
                    };
                    let reason = format!(
                        "{} and {} both hold only {} and {}, and {link} goes in {} or {} in {}; \
                         were neither {other}, both would be {link} and {} would have no place \
                         for it, so one of them is {other}: no cell seeing both is {other}",
                        cell_name(shape, a),
                        cell_name(shape, b),
                        digits[0],
                        digits[1],
                        cell_name(shape, near_a),
                        cell_name(shape, near_b),
                        board.house_name(house),
                        board.house_name(house)
                    );
                    return Some(Step::eliminating(
                        Technique::WWing,
                        vec![a, near_a, near_b, b],
                        eliminations,
                        reason,
                    ));
                }
            }
        }
    }
    None
}

/// Unique rectangle type 3: two corners are `{a, b}`, the other two (the roof, in one house)
/// hold `a`, `b` and other digits; one roof cell must take one of those other digits (or the
/// rectangle is a deadly pattern), so the roof acts as one cell holding them. With `size - 1`
/// more cells of the house it makes a naked subset of `size` digits, which leave the house's
/// other cells.
fn ur_type_three(board: &Board, corners: [usize; 4], pair: u64, size: usize) -> Option<Step> {
    let roof: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| board.bits(c) != pair)
        .collect();
    let [first, second] = roof[..] else {
        return None;
    };
    let extra = (board.bits(first) | board.bits(second)) & !pair;
    // One extra digit is type 2; more than `size` cannot make a subset of `size`.
    if extra.count_ones() < 2 || extra.count_ones() as usize > size {
        return None;
    }
    let shape = board.shape();
    for house in board.houses_of(first) {
        if !board.houses_of(second).contains(&house) {
            continue;
        }
        let others: Vec<usize> = board
            .house(house)
            .iter()
            .map(|&cell| usize::from(cell))
            .filter(|&cell| {
                cell != first
                    && cell != second
                    && board.value(cell) == 0
                    && board.bits(cell).count_ones() as usize <= size
            })
            .collect();
        let step = super::basic::first_combination(&others, size - 1, &mut |chosen: &[usize]| {
            let digits = chosen
                .iter()
                .fold(extra, |acc, &cell| acc | board.bits(cell));
            if digits.count_ones() as usize != size {
                return None;
            }
            let eliminations: Vec<(usize, u8)> = board
                .house(house)
                .iter()
                .map(|&cell| usize::from(cell))
                .filter(|&cell| cell != first && cell != second && !chosen.contains(&cell))
                .flat_map(|cell| {
                    crate::model::DigitSet::from_bits(board.bits(cell) & digits)
                        .iter()
                        .map(move |digit| (cell, digit))
                })
                .collect();
            if eliminations.is_empty() {
                return None;
            }
            let pair_digits: Vec<u8> = crate::model::DigitSet::from_bits(pair).iter().collect();
            let extra_digits: Vec<u8> = crate::model::DigitSet::from_bits(extra).iter().collect();
            let subset_digits: Vec<u8> = crate::model::DigitSet::from_bits(digits).iter().collect();
            let reason = format!(
                "{} would be a deadly pattern of {} and {} (two solutions) unless {} or {} holds \
                 {}; with {} they hold {} between them in {}, so those digits leave the rest of \
                 {}",
                cell_list(shape, &corners),
                pair_digits[0],
                pair_digits[1],
                cell_name(shape, first),
                cell_name(shape, second),
                or_list(&extra_digits),
                cell_list(shape, chosen),
                and_list(&subset_digits),
                board.house_name(house),
                board.house_name(house)
            );
            let mut cells = corners.to_vec();
            cells.extend_from_slice(chosen);
            let mut step =
                Step::eliminating(Technique::UniqueRectangle3, cells, eliminations, reason);
            step.difficulty = 45 + size as u32 - 1;
            Some(step)
        });
        if step.is_some() {
            return step;
        }
    }
    None
}

/// `3 or 7`, `3, 7 or 9`.
fn or_list(digits: &[u8]) -> String {
    match digits {
        [init @ .., last] if !init.is_empty() => format!(
            "{} or {last}",
            init.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => and_list(digits),
    }
}

/// Unique rectangle type 4: two corners are `{a, b}`, the other two (the roof, in one house)
/// hold more; when `a` has no other place in that house the roof holds `a` once, so neither
/// roof cell is `b` (or the roof would be `{a, b}`, a deadly pattern).
fn ur_type_four(board: &Board, corners: [usize; 4], pair: u64) -> Option<Step> {
    let roof: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| board.bits(c) != pair)
        .collect();
    let [first, second] = roof[..] else {
        return None;
    };
    let digits: Vec<u8> = crate::model::DigitSet::from_bits(pair).iter().collect();
    for house in board.houses_of(first) {
        if !board.houses_of(second).contains(&house) {
            continue;
        }
        for (index, &locked) in digits.iter().enumerate() {
            let other = digits[1 - index];
            if board.positions(house, locked).count_ones() != 2 {
                continue;
            }
            let reason = format!(
                "{} would be a deadly pattern of {} and {} (two solutions); {locked} goes in {} or \
                 {} ({} has no other place for it), so neither is {other}",
                cell_list(board.shape(), &corners),
                digits[0],
                digits[1],
                cell_name(board.shape(), first),
                cell_name(board.shape(), second),
                board.house_name(house)
            );
            return Some(Step::eliminating(
                Technique::UniqueRectangle4,
                corners.to_vec(),
                vec![(first, other), (second, other)],
                reason,
            ));
        }
    }
    None
}

/// BUG+1: every empty cell has two candidates but one, which has three; with that cell at two
/// every digit would appear twice in each house (two solutions), so the cell takes the digit
/// that appears three times in its row.
pub(super) fn bug_plus_one(board: &Board) -> Option<Step> {
    let mut odd = None;
    for cell in (0..board.cell_count()).filter(|&cell| board.value(cell) == 0) {
        match board.bits(cell).count_ones() {
            2 => {}
            3 if odd.is_none() => odd = Some(cell),
            _ => return None,
        }
    }
    let cell = odd?;
    let [row, ..] = board.houses_of(cell);
    let digit = crate::model::DigitSet::from_bits(board.bits(cell))
        .iter()
        .find(|&digit| board.positions(row, digit).count_ones() == 3)?;
    // Every other house must have each candidate exactly twice for the pattern to be a BUG.
    let grave = (0..board.house_count()).all(|house| {
        (1..=board.side() as u8).all(|d| {
            let count = board.positions(house, d).count_ones();
            let extra = u32::from(d == digit && board.houses_of(cell).contains(&house));
            count == 0 || count == 2 + extra
        })
    });
    if !grave {
        return None;
    }
    let reason = format!(
        "every other empty cell has two candidates: without {digit}, {} would leave each digit \
         twice in every house, a pattern with two solutions, so it is {digit}",
        cell_name(board.shape(), cell)
    );
    Some(Step::placing(Technique::Bug1, cell, digit, reason))
}

/// The larger wings (WXYZ-Wing for 4 cells, VWXYZ-Wing for 5): a pivot and `size - 1` peers of
/// it whose candidates are `size` digits between them, every digit but one (`z`) restricted (its
/// cells in the pattern all see each other). The cells cannot all avoid `z` (`size` cells, `size
/// - 1` digits each placed at most once among them), so a cell seeing every `z` of the pattern is
/// not `z`. Returns the step and whether `z` is in the pivot.
pub(super) fn big_wing(board: &Board, size: usize) -> Option<(Step, bool)> {
    let technique = if size == 4 {
        Technique::WxyzWing
    } else {
        Technique::VwxyzWing
    };
    let small = |cell: usize| {
        board.value(cell) == 0 && (2..=size).contains(&(board.bits(cell).count_ones() as usize))
    };
    for pivot in (0..board.cell_count()).filter(|&cell| small(cell)) {
        let pivot_bits = board.bits(pivot);
        let wings: Vec<usize> = board
            .peers(pivot)
            .iter()
            .map(|&cell| usize::from(cell))
            .filter(|&cell| {
                small(cell) && (board.bits(cell) | pivot_bits).count_ones() as usize <= size
            })
            .collect();
        let found = super::basic::first_combination(&wings, size - 1, &mut |chosen: &[usize]| {
            let union = chosen
                .iter()
                .fold(pivot_bits, |acc, &cell| acc | board.bits(cell));
            if union.count_ones() as usize != size {
                return None;
            }
            let mut cells = vec![pivot];
            cells.extend_from_slice(chosen);
            let unrestricted: Vec<u8> = crate::model::DigitSet::from_bits(union)
                .iter()
                .filter(|&digit| {
                    let holders: Vec<usize> = cells
                        .iter()
                        .copied()
                        .filter(|&c| board.has(c, digit))
                        .collect();
                    holders
                        .iter()
                        .enumerate()
                        .any(|(i, &a)| holders[i + 1..].iter().any(|&b| !board.sees(a, b)))
                })
                .collect();
            let [digit] = unrestricted[..] else {
                return None;
            };
            let holders: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&c| board.has(c, digit))
                .collect();
            let eliminations = common_peer_eliminations(board, &holders, digit);
            if eliminations.is_empty() {
                return None;
            }
            let reason = format!(
                "{} hold {} digits between them, and every digit but {digit} can go only once \
                 among them, so one of {} is {digit}: no cell seeing them all is {digit}",
                cell_list(board.shape(), &cells),
                size,
                cell_list(board.shape(), &holders)
            );
            let mut step = Step::eliminating(technique, cells, eliminations, reason);
            let in_pivot = board.has(pivot, digit);
            step.difficulty += u32::from(in_pivot);
            Some((step, in_pivot))
        });
        if found.is_some() {
            return found;
        }
    }
    None
}
