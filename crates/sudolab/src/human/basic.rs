//! Singles, locked candidates, naked and hidden subsets and basic fish: the techniques that
//! make sense on every shape.

use super::board::Board;
use super::{Step, Technique, and_list, cell_list};
use crate::model::cell_name;

/// A house with one empty cell left: that cell takes the missing digit.
pub(super) fn full_house(board: &Board) -> Option<Step> {
    for house in (2 * board.side()..board.house_count()).chain(0..2 * board.side()) {
        let mut empties = board
            .house(house)
            .iter()
            .map(|&cell| usize::from(cell))
            .filter(|&cell| board.value(cell) == 0);
        let (Some(cell), None) = (empties.next(), empties.next()) else {
            continue;
        };
        let candidates = board.candidates(cell);
        if candidates.len() != 1 {
            continue;
        }
        let digit = candidates.iter().next().expect("one candidate");
        return Some(Step::placing(
            Technique::FullHouse,
            cell,
            digit,
            format!(
                "{} is the last empty cell of {}, so it takes the missing {digit}",
                cell_name(board.shape(), cell),
                board.house_name(house)
            ),
        ));
    }
    None
}

/// A digit with one place left in a house: boxes (`in_boxes`) or rows and columns.
pub(super) fn hidden_single(board: &Board, in_boxes: bool) -> Option<Step> {
    let side = board.side();
    let houses = if in_boxes {
        2 * side..3 * side
    } else {
        0..2 * side
    };
    for house in houses {
        let (mut once, mut twice) = (0u64, 0u64);
        for &cell in board.house(house) {
            let bits = board.bits(usize::from(cell));
            twice |= once & bits;
            once |= bits;
        }
        let single = once & !twice;
        if single == 0 {
            continue;
        }
        let digit = single.trailing_zeros() as u8 + 1;
        let cell = board
            .house(house)
            .iter()
            .map(|&cell| usize::from(cell))
            .find(|&cell| board.has(cell, digit))
            .expect("the digit has one place");
        let technique = if in_boxes {
            Technique::HiddenSingleBox
        } else {
            Technique::HiddenSingleLine
        };
        return Some(Step::placing(
            technique,
            cell,
            digit,
            format!(
                "{} is the only place for {digit} in {}",
                cell_name(board.shape(), cell),
                board.house_name(house)
            ),
        ));
    }
    None
}

/// A cell with one candidate left.
pub(super) fn naked_single(board: &Board) -> Option<Step> {
    (0..board.cell_count()).find_map(|cell| {
        let bits = board.bits(cell);
        (board.value(cell) == 0 && bits.is_power_of_two()).then(|| {
            let digit = bits.trailing_zeros() as u8 + 1;
            Step::placing(
                Technique::NakedSingle,
                cell,
                digit,
                format!(
                    "{} can only be {digit}: every other digit is already in its row, column or box",
                    cell_name(board.shape(), cell)
                ),
            )
        })
    })
}

/// The cells of `house` holding `digit` as a candidate.
fn cells_with(board: &Board, house: usize, digit: u8) -> Vec<usize> {
    board
        .house(house)
        .iter()
        .map(|&cell| usize::from(cell))
        .filter(|&cell| board.has(cell, digit))
        .collect()
}

/// Locked candidates: a digit confined to the intersection of a box and a line. Pointing
/// (`pointing`: the box's places lie on one line) or claiming (the line's places lie in one box).
pub(super) fn locked_candidates(board: &Board, pointing: bool) -> Option<Step> {
    let side = board.side();
    let houses = if pointing {
        2 * side..3 * side
    } else {
        0..2 * side
    };
    for house in houses {
        for digit in 1..=side as u8 {
            let cells = cells_with(board, house, digit);
            if cells.len() < 2 {
                continue;
            }
            // The other houses every place shares: a line for a box, the box for a line.
            let shared: Vec<usize> = board
                .houses_of(cells[0])
                .into_iter()
                .filter(|&other| {
                    other != house
                        && (other >= 2 * side) != pointing
                        && cells
                            .iter()
                            .all(|&cell| board.houses_of(cell).contains(&other))
                })
                .collect();
            for other in shared {
                let eliminations: Vec<(usize, u8)> = cells_with(board, other, digit)
                    .into_iter()
                    .filter(|cell| !cells.contains(cell))
                    .map(|cell| (cell, digit))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let technique = if pointing {
                    Technique::Pointing
                } else {
                    Technique::Claiming
                };
                let reason = format!(
                    "in {}, {digit} can only go in {} ({}), so {digit} leaves the rest of {}",
                    board.house_name(house),
                    board.house_name(other),
                    cell_list(board.shape(), &cells),
                    board.house_name(other)
                );
                return Some(Step::eliminating(technique, cells, eliminations, reason));
            }
        }
    }
    None
}

/// Calls `visit` with every `k`-subset of `items` (in lexicographic order) until it returns
/// something.
pub(super) fn first_combination<T: Copy, R>(
    items: &[T],
    k: usize,
    visit: &mut impl FnMut(&[T]) -> Option<R>,
) -> Option<R> {
    fn walk<T: Copy, R>(
        items: &[T],
        start: usize,
        k: usize,
        chosen: &mut Vec<T>,
        visit: &mut impl FnMut(&[T]) -> Option<R>,
    ) -> Option<R> {
        if chosen.len() == k {
            return visit(chosen);
        }
        let needed = k - chosen.len();
        for index in start..items.len() {
            if items.len() - index < needed {
                break;
            }
            chosen.push(items[index]);
            let found = walk(items, index + 1, k, chosen, visit);
            chosen.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    if k == 0 || items.len() < k {
        return None;
    }
    walk(items, 0, k, &mut Vec::with_capacity(k), visit)
}

fn digits_of(bits: u64) -> Vec<u8> {
    crate::model::DigitSet::from_bits(bits).iter().collect()
}

/// `size` cells of a house whose candidates together are `size` digits: those digits leave the
/// house's other cells.
pub(super) fn naked_subset(board: &Board, size: usize) -> Option<Step> {
    let technique = match size {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    };
    for house in 0..board.house_count() {
        let cells: Vec<usize> = board
            .house(house)
            .iter()
            .map(|&cell| usize::from(cell))
            .filter(|&cell| {
                board.value(cell) == 0 && board.bits(cell).count_ones() as usize <= size
            })
            .collect();
        let found = first_combination(&cells, size, &mut |chosen: &[usize]| {
            let union = chosen
                .iter()
                .fold(0u64, |acc, &cell| acc | board.bits(cell));
            if union.count_ones() as usize != size {
                return None;
            }
            let eliminations: Vec<(usize, u8)> = board
                .house(house)
                .iter()
                .map(|&cell| usize::from(cell))
                .filter(|cell| !chosen.contains(cell))
                .flat_map(|cell| {
                    digits_of(board.bits(cell) & union)
                        .into_iter()
                        .map(move |digit| (cell, digit))
                })
                .collect();
            (!eliminations.is_empty()).then(|| {
                let reason = format!(
                    "{} hold only {} between them, so those digits leave the rest of {}",
                    cell_list(board.shape(), chosen),
                    and_list(&digits_of(union)),
                    board.house_name(house)
                );
                Step::eliminating(technique, chosen.to_vec(), eliminations, reason)
            })
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// `size` digits of a house confined to the same `size` cells: those cells hold nothing else.
pub(super) fn hidden_subset(board: &Board, size: usize) -> Option<Step> {
    let technique = match size {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    };
    let side = board.side();
    for house in 0..board.house_count() {
        let digits: Vec<(u8, u64)> = (1..=side as u8)
            .map(|digit| (digit, board.positions(house, digit)))
            .filter(|&(_, positions)| (2..=size).contains(&(positions.count_ones() as usize)))
            .collect();
        let found = first_combination(&digits, size, &mut |chosen: &[(u8, u64)]| {
            let union = chosen
                .iter()
                .fold(0u64, |acc, &(_, positions)| acc | positions);
            if union.count_ones() as usize != size {
                return None;
            }
            let kept: u64 = chosen
                .iter()
                .fold(0u64, |acc, &(digit, _)| acc | 1 << (digit - 1));
            let cells: Vec<usize> = digits_of(union)
                .into_iter()
                .map(|position| usize::from(board.house(house)[usize::from(position) - 1]))
                .collect();
            let eliminations: Vec<(usize, u8)> = cells
                .iter()
                .flat_map(|&cell| {
                    digits_of(board.bits(cell) & !kept)
                        .into_iter()
                        .map(move |digit| (cell, digit))
                })
                .collect();
            (!eliminations.is_empty()).then(|| {
                let chosen_digits: Vec<u8> = chosen.iter().map(|&(digit, _)| digit).collect();
                let reason = format!(
                    "in {}, {} can only go in {}, so those cells hold nothing else",
                    board.house_name(house),
                    and_list(&chosen_digits),
                    cell_list(board.shape(), &cells)
                );
                Step::eliminating(technique, cells.clone(), eliminations, reason)
            })
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Fish of `size` lines (X-Wing 2, Swordfish 3, Jellyfish 4): a digit whose places in `size`
/// rows (columns) lie in `size` columns (rows) leaves the rest of those columns (rows).
pub(super) fn fish(board: &Board, size: usize) -> Option<Step> {
    let technique = match size {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    let side = board.side();
    for digit in 1..=side as u8 {
        for base_offset in [0, side] {
            let cover_offset = side - base_offset;
            let bases: Vec<(usize, u64)> = (0..side)
                .map(|line| (line, board.positions(base_offset + line, digit)))
                .filter(|&(_, positions)| (2..=size).contains(&(positions.count_ones() as usize)))
                .collect();
            let found = first_combination(&bases, size, &mut |chosen: &[(usize, u64)]| {
                let union = chosen
                    .iter()
                    .fold(0u64, |acc, &(_, positions)| acc | positions);
                if union.count_ones() as usize != size {
                    return None;
                }
                let base_lines: Vec<usize> = chosen.iter().map(|&(line, _)| line).collect();
                let cover_lines: Vec<usize> =
                    (0..side).filter(|&line| union >> line & 1 != 0).collect();
                let mut eliminations = Vec::new();
                for &cover in &cover_lines {
                    for (position, &cell) in board.house(cover_offset + cover).iter().enumerate() {
                        let cell = usize::from(cell);
                        if !base_lines.contains(&position) && board.has(cell, digit) {
                            eliminations.push((cell, digit));
                        }
                    }
                }
                if eliminations.is_empty() {
                    return None;
                }
                let cells: Vec<usize> = base_lines
                    .iter()
                    .flat_map(|&line| {
                        board
                            .house(base_offset + line)
                            .iter()
                            .map(|&cell| usize::from(cell))
                            .filter(|&cell| board.has(cell, digit))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                let (base_word, cover_word) = if base_offset == 0 {
                    ("rows", "columns")
                } else {
                    ("columns", "rows")
                };
                let one_based = |lines: &[usize]| {
                    let numbers: Vec<usize> = lines.iter().map(|line| line + 1).collect();
                    and_list(&numbers)
                };
                let reason = format!(
                    "in {base_word} {}, {digit} can only go in {cover_word} {}, so {digit} leaves \
                     the rest of those {cover_word}",
                    one_based(&base_lines),
                    one_based(&cover_lines)
                );
                Some(Step::eliminating(technique, cells, eliminations, reason))
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
