#![no_main]
//! `encode::decode_dimacs_model`, the library function behind `sudolab decode CNF MODEL`, on a
//! CNF text and a model text: the input is split at its first 0xFF byte (CNF before, model after;
//! no 0xFF: all CNF, empty model). Both halves must be UTF-8, as `decode` reads them with
//! `read_to_string`.
//!
//! Checks: no panic; an error names a line >= 1 when it has one; a decoded grid is complete, a
//! valid solution of the board, and keeps every given of the CNF's `c sudolab given` lines (the
//! last one wins when a cell is given twice, as the decoder does).
use libfuzzer_sys::fuzz_target;
use sudolab::encode::{DecodeError, decode_dimacs_model};
use sudolab::model::{Grid, validate};

/// The `c sudolab given ROW COL DIGIT` lines the decoder reads, as it splits them.
fn givens(cnf: &str) -> Vec<(usize, usize, u8)> {
    cnf.lines()
        .filter_map(|line| line.strip_prefix("c sudolab "))
        .filter_map(|rest| {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            match fields[..] {
                ["given", row, col, digit] => {
                    Some((row.parse().ok()?, col.parse().ok()?, digit.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let (cnf, model) = data.split_at(split);
    let model = model.get(1..).unwrap_or(&[]);
    let (Ok(cnf), Ok(model)) = (std::str::from_utf8(cnf), std::str::from_utf8(model)) else {
        return;
    };
    match decode_dimacs_model(cnf, model) {
        Ok(Some(grid)) => {
            assert!(grid.is_complete(), "a decoded grid with an empty cell");
            let empty = Grid::empty(grid.shape());
            assert_eq!(
                validate(&empty, &grid),
                Ok(()),
                "a decoded grid that breaks the rules"
            );
            let side = grid.side();
            let mut last = vec![None; side * side];
            for (row, col, digit) in givens(cnf) {
                // The decoder refuses givens off the board; those that made it are on it.
                assert!((1..=side).contains(&row) && (1..=side).contains(&col));
                last[(row - 1) * side + col - 1] = Some(digit);
            }
            for (cell, given) in last.into_iter().enumerate() {
                if let Some(digit) = given {
                    assert_eq!(grid.get(cell), digit, "the decoded grid changed a given");
                }
            }
        }
        Ok(None) => {}
        Err(err) => {
            match &err {
                DecodeError::BadComment { line, .. }
                | DecodeError::BadLiteral { line, .. }
                | DecodeError::BadClause { line, .. }
                | DecodeError::Contradiction { line, .. } => {
                    assert!(*line >= 1, "an error on line 0: {err}");
                }
                DecodeError::Falsified { number, line, .. } => {
                    assert!(*number >= 1 && *line >= 1, "a clause 0 or line 0: {err}");
                }
                DecodeError::NotSudolab | DecodeError::NotASolution(_) => {}
            }
            let _ = err.to_string();
        }
    }
});
