//! Unit tests of the 9x9 path: its tables, its word update against other update orders, its
//! column singles against counting, its cell choice against a plain count of peers.

use super::board::{Board, givens, nonzero_bytes, segments, write_solution};
use super::search::{FEW_UNSOLVED, choose_cell, unsolved_peers};
use super::tables::{BAND, BAND_ALLOWED, LOCKED_COLUMNS, column_cells};
use crate::model::{Grid, Shape};

#[test]
fn nonzero_bytes_marks_every_non_zero_byte() {
    assert_eq!(nonzero_bytes(&[]), 0);
    assert_eq!(nonzero_bytes(&[0; 27]), 0);
    assert_eq!(nonzero_bytes(&[9; 27]), (1 << 27) - 1);
    let mut bytes = [0u8; 27];
    for (i, byte) in bytes.iter_mut().enumerate() {
        // 1, 2, 4, ..., 128 and 255 in turn, every third byte left at zero.
        if i % 3 != 1 {
            *byte = if i % 9 == 8 { 255 } else { 1 << (i % 8) };
        }
    }
    let expected = (0..27)
        .filter(|i| i % 3 != 1)
        .fold(0, |mask, i| mask | 1 << i);
    assert_eq!(nonzero_bytes(&bytes), expected);
    assert_eq!(nonzero_bytes(&[0, 0, 0, 0, 0, 0, 0, 0, 7]), 1 << 8);
}

#[test]
fn write_solution_writes_every_cell_of_a_solved_board() {
    let text = include_str!("../../../../../../corpora/generated/9x9-minimal.txt");
    let solutions = crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Line, None)
        .map(|record| record.unwrap().solution.unwrap())
        .take(20);
    for solution in solutions {
        // A full grid's board: each word holds exactly the cells of its digit.
        let board = givens(&solution).unwrap();
        let mut cells = [0u8; 81];
        write_solution(&board, &mut cells);
        assert_eq!(&cells[..], solution.cells());
    }
}

#[test]
fn segments_are_numbered_box_major() {
    assert_eq!(segments(0), 0);
    assert_eq!(segments(BAND), 0x1FF);
    // Row 0 of box 0, row 1 of box 1, row 2 of box 2: one cell each.
    let diagonal = 1 | 1 << (9 + 4) | 1 << (18 + 8);
    assert_eq!(segments(diagonal), 1 | 1 << 4 | 1 << 8);
    // Row 1 of box 0 and row 0 of box 2.
    assert_eq!(segments(1 << 10 | 1 << 7), 1 << 1 | 1 << 6);
    assert_eq!(BAND_ALLOWED[segments(diagonal)], 7 | 7 << 12 | 7 << 24);
    assert_eq!(BAND_ALLOWED[segments(1 << 10 | 1 << 7)], 0);
}

#[test]
fn a_box_with_one_column_left_locks_it() {
    // Box 0: columns 0 and 1; box 1: none; box 2: column 6 only.
    assert_eq!(LOCKED_COLUMNS[0b001_000_011], column_cells(0b001_000_000));
    assert_eq!(LOCKED_COLUMNS[0b100_010_001], column_cells(0b100_010_001));
    assert_eq!(LOCKED_COLUMNS[0b111_111_111], 0);
}

/// Whether two cells of the board (0 to 80) are peers: distinct, and in one row, column or
/// box.
fn are_peers(cell: usize, other: usize) -> bool {
    let (row, col) = (cell / 9, cell % 9);
    let (r, c) = (other / 9, other % 9);
    other != cell && (r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3))
}

#[test]
fn unsolved_peers_counts_the_unsolved_cells_among_the_twenty_peers() {
    let text = include_str!("../../../../../../corpora/generated/9x9-minimal.txt");
    let puzzles = crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Line, None)
        .map(|record| record.unwrap().puzzle)
        .take(20);
    let mut checked = 0;
    for puzzle in puzzles {
        let board = givens(&puzzle).unwrap();
        let unsolved = |cell: usize| board.unsolved[cell / 27] & (1 << (cell % 27)) != 0;
        for cell in (0..81).filter(|&cell| unsolved(cell)) {
            let expected = (0..81)
                .filter(|&other| are_peers(cell, other) && unsolved(other))
                .count();
            let counted = unsolved_peers(&board, cell / 27, cell % 27);
            assert_eq!(counted as usize, expected, "cell {cell}");
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn choose_cell_scores_open_boards_and_takes_the_first_pair_near_the_leaves() {
    let text = include_str!("../../../../../../corpora/generated/9x9-minimal.txt");
    let records = crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Line, None)
        .map(|record| record.unwrap())
        .take(30);
    let (mut near_leaves, mut open) = (0, 0);
    for record in records {
        let solution = record.solution.unwrap();
        let blanks: Vec<usize> = (0..81)
            .filter(|&cell| record.puzzle.get(cell) == 0)
            .collect();
        for left in [
            FEW_UNSOLVED as usize - 5,
            FEW_UNSOLVED as usize,
            FEW_UNSOLVED as usize + 1,
            40,
        ] {
            // The solution with `left` of the puzzle's blanks open again.
            let mut grid = solution.clone();
            for &cell in &blanks[..left] {
                grid.set(cell, 0);
            }
            let board = givens(&grid).unwrap();
            let pairs = board.candidate_counts().map(|(_, two, three)| two & !three);
            let cells = |band: usize| (0..27).filter(move |&cell| pairs[band] & (1 << cell) != 0);
            let all_pairs: Vec<(usize, usize)> = (0..3)
                .flat_map(|band| cells(band).map(move |cell| (band, cell)))
                .collect();
            let Some(&first) = all_pairs.first() else {
                continue;
            };
            let open_peers = |&(band, cell): &(usize, usize)| {
                (0..81)
                    .filter(|&other| are_peers(27 * band + cell, other) && grid.get(other) == 0)
                    .count()
            };
            let expected = if left <= FEW_UNSOLVED as usize {
                near_leaves += 1;
                first
            } else {
                open += 1;
                let most = all_pairs.iter().map(open_peers).max().unwrap();
                *all_pairs
                    .iter()
                    .find(|pair| open_peers(pair) == most)
                    .unwrap()
            };
            assert_eq!(
                choose_cell(&board, pairs),
                Some(expected),
                "{left} open cells"
            );
        }
    }
    assert!(
        near_leaves > 40 && open > 40,
        "{near_leaves} boards near the leaves, {open} open"
    );
}

/// The generated minimal 9x9 puzzles of the project's corpus.
fn minimal_puzzles() -> impl Iterator<Item = Grid> {
    let text = include_str!("../../../../../../corpora/generated/9x9-minimal.txt");
    crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Line, None)
        .map(|record| record.unwrap().puzzle)
}

/// Word updates until none changes, lowest first: the board `propagate` settles to.
fn settle_words(board: &mut Board) -> bool {
    settle_in_order(board, u32::trailing_zeros)
}

/// Word updates until none changes, each time on the dirty word `pick` chooses.
fn settle_in_order(board: &mut Board, mut pick: impl FnMut(u32) -> u32) -> bool {
    let mut dirty = board.dirty;
    board.dirty = 0;
    while dirty != 0 {
        let word = pick(dirty);
        assert_ne!(dirty & (1 << word), 0, "word {word} is not dirty");
        dirty &= !(1 << word);
        if !board.update(word as usize, &mut dirty) {
            return false;
        }
    }
    true
}

/// The word after `dirty`'s lowest, in a fixed pseudo-random order (xorshift), among the
/// dirty words.
fn any_dirty(state: &mut u64, dirty: u32) -> u32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    let skip = (*state % u64::from(dirty.count_ones())) as usize;
    let mut rest = dirty;
    for _ in 0..skip {
        rest &= rest - 1;
    }
    rest.trailing_zeros()
}

/// `propagate` takes the next word before each update, so its order is not strictly
/// lowest first: the rules only remove places, so any order must settle to the same board
/// (or find a contradiction), and the search's trees depend on that.
#[test]
fn word_updates_settle_the_same_in_any_order() {
    let puzzles = minimal_puzzles();
    let (mut boards, mut contradictions, mut state) = (0, 0, 0x9E37_79B9_7F4A_7C15_u64);
    let settled = |board: &Board, ok: bool| ok.then_some((board.places, board.unsolved));
    for puzzle in puzzles {
        let root = givens(&puzzle).unwrap();
        let mut settled_root = root;
        assert!(settle_words(&mut settled_root));
        // The root before and after its updates, and every guess on its first two
        // unsolved cells: wrong guesses give contradictions.
        let mut cases = vec![root, settled_root];
        let mut unsolved = settled_root.unsolved;
        for _ in 0..2 {
            let Some(band) = (0..3).find(|&band| unsolved[band] != 0) else {
                break;
            };
            let cell = unsolved[band].trailing_zeros() as usize;
            unsolved[band] &= !(1 << cell);
            let candidates = settled_root.digits_at(band, cell);
            for digit in (0..9).filter(|&digit| candidates & (1 << digit) != 0) {
                let mut child = settled_root;
                child.guess(band, cell, digit, candidates);
                cases.push(child);
            }
        }
        for board in cases {
            let mut pipelined = board;
            let ok = pipelined.update_until_settled();
            let expected = settled(&pipelined, ok);
            let mut lowest = board;
            let ok = settle_words(&mut lowest);
            assert_eq!(settled(&lowest, ok), expected);
            let mut highest = board;
            let ok = settle_in_order(&mut highest, u32::ilog2);
            assert_eq!(settled(&highest, ok), expected);
            let mut shuffled = board;
            let ok = settle_in_order(&mut shuffled, |dirty| any_dirty(&mut state, dirty));
            assert_eq!(settled(&shuffled, ok), expected);
            boards += 1;
            contradictions += usize::from(expected.is_none());
        }
    }
    assert!(
        boards > 500 && contradictions > 20,
        "{boards} boards, {contradictions} contradictions"
    );
}

#[test]
fn column_singles_agree_with_counting_places_row_by_row() {
    let puzzles = minimal_puzzles();
    let (mut boards, mut with_singles, mut with_gaps) = (0, 0, 0);
    for puzzle in puzzles {
        let mut root = givens(&puzzle).unwrap();
        if !settle_words(&mut root) {
            continue;
        }
        // The root, and each first guess on its first unsolved cell, not yet propagated:
        // the guess leaves some columns with one place and some digits with none.
        let Some(band) = (0..3).find(|&band| root.unsolved[band] != 0) else {
            continue;
        };
        let cell = root.unsolved[band].trailing_zeros() as usize;
        let candidates = root.digits_at(band, cell);
        let mut cases = vec![root];
        for digit in (0..9).filter(|&digit| candidates & (1 << digit) != 0) {
            let mut child = root;
            child.guess(band, cell, digit, candidates);
            cases.push(child);
        }
        for board in cases {
            // Per digit and column, the places of unsolved cells and of solved ones.
            let mut open = [[0; 9]; 9];
            let mut solved = [[0; 9]; 9];
            for (digit, (open, solved)) in open.iter_mut().zip(&mut solved).enumerate() {
                for cell in 0..81 {
                    let (band, bit) = (cell / 27, 1 << (cell % 27));
                    if board.places[3 * digit + band] & bit != 0 {
                        if board.unsolved[band] & bit != 0 {
                            open[cell % 9] += 1;
                        } else {
                            solved[cell % 9] += 1;
                        }
                    }
                }
            }
            let gap = (0..9).any(|d| (0..9).any(|c| open[d][c] + solved[d][c] == 0));
            let first_single = (0..9)
                .flat_map(|d| (0..9).map(move |c| (d, c)))
                .find(|&(d, c)| open[d][c] == 1 && solved[d][c] == 0);
            let mut after = board;
            let found = after.column_singles();
            boards += 1;
            if gap {
                with_gaps += 1;
                assert_eq!(found, None);
                continue;
            }
            let Some((digit, column)) = first_single else {
                assert_eq!(found, Some(false));
                assert_eq!(after.places, board.places);
                continue;
            };
            with_singles += 1;
            if found == Some(true) {
                // The first single found is placed: its cell is solved, holding the digit.
                let band = (0..3)
                    .find(|&band| board.places[3 * digit + band] & column_cells(1 << column) != 0)
                    .unwrap();
                let bit = board.places[3 * digit + band] & column_cells(1 << column);
                assert_eq!(after.unsolved[band] & bit, 0);
                assert_ne!(after.places[3 * digit + band] & bit, 0);
            } else {
                assert_eq!(found, None, "a later single may contradict an earlier one");
            }
        }
    }
    assert!(
        boards > 300 && with_singles > 200 && with_gaps > 0,
        "{boards} boards, {with_singles} with singles, {with_gaps} with gaps"
    );
}

#[test]
fn a_locked_column_leaves_the_other_bands() {
    // Box 0 has 2 to 7 in columns 1 and 2, so its 1 is in column 0: no 1 in column 0 of
    // the bands below, though no cell of column 0 is solved.
    let mut puzzle = Grid::empty(Shape::CLASSIC);
    for (value, cell) in (2..=7).zip([1, 2, 10, 11, 19, 20]) {
        puzzle.set(cell, value);
    }
    let mut board = givens(&puzzle).unwrap();
    assert!(settle_words(&mut board));
    let column_0 = column_cells(1);
    assert_eq!(board.places[0] & !column_0 & column_cells(0b111), 0);
    assert_eq!(board.places[1] & column_0, 0);
    assert_eq!(board.places[2] & column_0, 0);
    // Column 1 of band 1 still has places for 1.
    assert_ne!(board.places[1] & column_cells(0b10), 0);
}
