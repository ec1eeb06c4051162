#![no_main]
//! Every puzzle reader on arbitrary bytes.
//!
//! Input: byte 0 picks the form (`% 4`: auto, line, grid, JSON); byte 1 forces a box shape when
//! its high bit is set (`0x80 | (rows-1) << 3 | (cols-1)`, rows and cols 1..=8); the rest is the
//! file. The streaming `corpus::Reader` reads it, then the in-memory parsers
//! (`parse_line_record`, `parse_grid_row`, `parse_json`) and the shape parsers see it directly.
//!
//! Checks (a failed check is a crash, like a panic):
//! - nothing panics, and the reader ends (at most one item per input byte, plus one);
//! - every record's puzzle has `n * n` cells in `0..=n`, a given solution is complete, in range
//!   and of the puzzle's shape, and a forced shape is the record's shape;
//! - record numbers increase and line numbers never go back;
//! - every record written back (line form when the side allows, grid form, JSON) reads back as
//!   the same puzzle and solution.
//!
//! Soft findings (wording, not crashes: an error on line 0, an error message of several lines)
//! are printed once per kind on stderr and the run goes on.
use std::sync::Mutex;

use libfuzzer_sys::fuzz_target;
use sudolab::corpus::{CorpusError, Format, Reader, grid_to_json, parse_json};
use sudolab::model::{
    Grid, Shape, describe_alphabet, parse_grid_row, parse_line_record, symbol_value, to_grid_text,
    to_line, to_one_line,
};

static SEEN: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Prints a soft finding once per kind.
fn soft(kind: &'static str, detail: &str) {
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !seen.contains(&kind) {
        seen.push(kind);
        eprintln!("SOFT-FINDING [{kind}]: {detail}");
    }
}

/// The record's grids written back in every form read back as the same grids.
fn round_trip(puzzle: &Grid, solution: Option<&Grid>) {
    let shape = puzzle.shape();
    // Line form (sides up to 35), with the solution as a second field.
    if let Some(mut line) = to_line(puzzle) {
        if let Some(solution) = solution {
            line.push(' ');
            line.push_str(&to_line(solution).expect("same side as the puzzle"));
        }
        let back = parse_line_record(line.as_bytes(), Some(shape), 1).unwrap_or_else(|err| {
            panic!("line form {line:?} of a read puzzle does not read back: {err}")
        });
        assert_eq!(&back.puzzle, puzzle, "line form round trip of {line:?}");
        assert_eq!(
            back.solution.as_ref(),
            solution,
            "line form round trip of {line:?}"
        );
    }
    // Grid form, through the streaming reader with the shape forced.
    let text = to_grid_text(puzzle);
    let back: Vec<_> = Reader::new(text.as_bytes(), Format::Grid, Some(shape)).collect();
    assert_eq!(
        back.len(),
        1,
        "grid form {text:?} read back as {} items",
        back.len()
    );
    match &back[0] {
        Ok(record) => assert_eq!(&record.puzzle, puzzle, "grid form round trip of {text:?}"),
        Err(err) => panic!("grid form {text:?} of a read puzzle does not read back: {err}"),
    }
    // JSON, shape taken from the object's "box".
    let json = grid_to_json(puzzle).to_string();
    let back = parse_json(&json, None);
    assert_eq!(
        back.len(),
        1,
        "JSON {json} read back as {} items",
        back.len()
    );
    match &back[0] {
        Ok(record) => assert_eq!(&record.puzzle, puzzle, "JSON round trip of {json}"),
        Err(err) => panic!("JSON {json} of a read puzzle does not read back: {err}"),
    }
    let _ = to_one_line(puzzle);
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let format = match data[0] % 4 {
        0 => Format::Auto,
        1 => Format::Line,
        2 => Format::Grid,
        _ => Format::Json,
    };
    let shape = if data[1] & 0x80 != 0 {
        Some(
            Shape::new(
                ((data[1] >> 3) & 7) as usize + 1,
                (data[1] & 7) as usize + 1,
            )
            .expect("1..=8 by construction"),
        )
    } else {
        None
    };
    let body = &data[2..];

    let mut last_line = 0usize;
    let mut last_number = 0usize;
    for (count, item) in Reader::new(body, format, shape).enumerate() {
        assert!(
            count <= body.len(),
            "the reader yields more than {count} items for {} bytes",
            body.len()
        );
        match item {
            Ok(record) => {
                let puzzle = &record.puzzle;
                let side = puzzle.side();
                assert_eq!(puzzle.cells().len(), side * side);
                assert!(puzzle.cells().iter().all(|&v| (v as usize) <= side));
                if let Some(solution) = &record.solution {
                    assert_eq!(
                        solution.shape(),
                        puzzle.shape(),
                        "solution of another shape"
                    );
                    assert!(
                        solution
                            .cells()
                            .iter()
                            .all(|&v| v >= 1 && (v as usize) <= side),
                        "a known solution with an empty or out-of-range cell"
                    );
                }
                if let Some(shape) = shape {
                    assert_eq!(puzzle.shape(), shape, "the forced shape was not used");
                }
                assert!(record.number > last_number, "record numbers go back");
                assert!(record.line >= 1, "a record on line 0");
                assert!(record.line >= last_line, "line numbers go back");
                last_number = record.number;
                last_line = record.line;
                round_trip(puzzle, record.solution.as_ref());
            }
            Err(err) => {
                let text = err.to_string();
                if text.contains('\n') {
                    soft("multi-line error", &format!("{text:?}"));
                }
                match &err {
                    CorpusError::Parse(parse) => {
                        if parse.line == 0 {
                            soft("line 0", &format!("{text:?} from {body:?}"));
                        }
                        if parse.column == Some(0) {
                            soft("column 0", &format!("{text:?} from {body:?}"));
                        }
                    }
                    CorpusError::Json { puzzle, .. } => {
                        if *puzzle == 0 {
                            soft("JSON puzzle 0", &format!("{text:?}"));
                        }
                    }
                    CorpusError::Io(_) => {}
                }
            }
        }
    }

    // The in-memory parsers directly, on the whole body.
    if let Ok(record) = parse_line_record(body, shape, 1) {
        round_trip(&record.puzzle, record.solution.as_ref());
    }
    let side = shape.map_or((data[1] as usize % 70) + 1, Shape::side);
    if let Ok(row) = parse_grid_row(body, side, 1) {
        assert_eq!(row.len(), side, "a grid row of the wrong length");
        assert!(row.iter().all(|&v| (v as usize) <= side));
    }
    for &byte in body.iter().take(64) {
        if let Some(value) = symbol_value(byte, side) {
            assert!((value as usize) <= side);
        }
    }
    let _ = describe_alphabet(side, data[0] & 4 != 0);
    if let Ok(text) = std::str::from_utf8(body) {
        for record in parse_json(text, shape).into_iter().flatten() {
            round_trip(&record.puzzle, record.solution.as_ref());
        }
        if let Ok(parsed) = text.parse::<Shape>() {
            assert!((1..=64).contains(&parsed.side()));
            assert_eq!(
                parsed.to_string().parse::<Shape>(),
                Ok(parsed),
                "shape display round trip"
            );
        }
        if let Ok(form) = text.parse::<Format>() {
            assert_eq!(form.to_string().parse::<Format>(), Ok(form));
        }
    }
    let _ = Shape::for_side(data[1] as usize);
});
