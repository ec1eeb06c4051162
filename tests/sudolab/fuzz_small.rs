//! The properties of the cargo-fuzz targets (`fuzz/`), at small size and with proptest, so that
//! every `cargo test` exercises them: the readers, the model decoder and the report reader take
//! any bytes without panicking, and every engine agrees with a brute-force counter on random
//! small puzzles, clashing and dead ones included.

use proptest::prelude::*;

use sudolab::corpus::{Format, Reader};
use sudolab::encode::decode_dimacs_model;
use sudolab::model::{Grid, Shape, validate};
use sudolab::report::json;
use sudolab::strategy::{self, Limits, Verdict};

/// Solutions of `grid` up to `limit`, by plain backtracking on the rules (no code shared with
/// the engines).
fn brute_count(grid: &mut Vec<u8>, shape: Shape, limit: u64) -> u64 {
    let side = shape.side();
    let Some(cell) = grid.iter().position(|&value| value == 0) else {
        return 1;
    };
    let (row, col) = (cell / side, cell % side);
    let (box_row, box_col) = (
        row / shape.box_rows() * shape.box_rows(),
        col / shape.box_cols() * shape.box_cols(),
    );
    let mut found = 0;
    for digit in 1..=side as u8 {
        let clash = (0..side)
            .any(|k| grid[row * side + k] == digit || grid[k * side + col] == digit)
            || (0..shape.box_rows()).any(|r| {
                (0..shape.box_cols()).any(|c| grid[(box_row + r) * side + box_col + c] == digit)
            });
        if clash {
            continue;
        }
        grid[cell] = digit;
        found += brute_count(grid, shape, limit - found);
        grid[cell] = 0;
        if found >= limit {
            break;
        }
    }
    found
}

/// Whether two givens of the same digit share a house.
fn givens_clash(grid: &Grid) -> bool {
    let shape = grid.shape();
    let cells = grid.cells();
    (0..cells.len()).any(|a| {
        (a + 1..cells.len()).any(|b| {
            cells[a] != 0
                && cells[a] == cells[b]
                && (shape.row_of(a) == shape.row_of(b)
                    || shape.col_of(a) == shape.col_of(b)
                    || shape.box_of(a) == shape.box_of(b))
        })
    })
}

fn small_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::new(1, 2).unwrap()),
        Just(Shape::new(2, 2).unwrap()),
        Just(Shape::new(2, 3).unwrap()),
        Just(Shape::new(3, 2).unwrap()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn readers_take_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400), form in 0..4u8) {
        let format = [Format::Auto, Format::Line, Format::Grid, Format::Json][form as usize];
        let mut records = 0;
        for record in Reader::new(bytes.as_slice(), format, None) {
            records += 1;
            prop_assert!(records <= bytes.len() + 1, "the reader does not end");
            if let Ok(record) = record {
                prop_assert!(record.number >= 1 && record.line >= 1);
                if let Some(solution) = &record.solution {
                    prop_assert_eq!(solution.shape(), record.puzzle.shape());
                }
            }
        }
    }

    #[test]
    fn readers_take_mutated_puzzle_text(
        cut in 0..200usize,
        insert in proptest::collection::vec(prop_oneof![Just(b'['), Just(b'{'), Just(b'"'), Just(b'\n'), Just(b','), Just(b'9'), Just(0xEF)], 0..6),
        base in 0..3usize,
    ) {
        let texts: [&[u8]; 3] = [
            b"4..3.....1....2. 4213134221343421\n# c\n1...............\n",
            b"1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 4\n\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
            br#"{"puzzles":[{"puzzle":{"box":[2,2],"cells":[[4,0,0,3],[0,0,0,0],[0,1,0,0],[0,0,2,0]]}},[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]]]}"#,
        ];
        let text = texts[base];
        let cut = cut.min(text.len());
        let mut bytes = text[..cut].to_vec();
        bytes.extend(&insert);
        bytes.extend(&text[cut..]);
        for format in [Format::Auto, Format::Json] {
            for record in Reader::new(bytes.as_slice(), format, None) {
                if let Err(err) = record {
                    // Every error names a place that exists.
                    let text = err.to_string();
                    prop_assert!(!text.contains("column 0"), "{}", text);
                }
            }
        }
    }

    #[test]
    fn the_model_decoder_takes_any_text(cnf in "(c sudolab (box [0-9x]{1,4}|given [0-9 ]{0,8}|var [0-9 ]{0,10})\n){0,6}", model in "[-0-9 vsSATUN\n]{0,40}") {
        let _ = decode_dimacs_model(&cnf, &model);
    }

    #[test]
    fn the_report_reader_takes_any_text(text in "[{}\\[\\]\":,0-9a-z_ .-]{0,200}") {
        let _ = json::read(&text);
    }

    #[test]
    fn every_engine_agrees_with_brute_force_on_small_puzzles(
        shape in small_shape(),
        givens in proptest::collection::vec((0..36usize, 1..=6u8), 0..10),
    ) {
        let side = shape.side();
        let mut cells = vec![0u8; shape.cell_count()];
        for (cell, digit) in givens {
            if cell < cells.len() && digit as usize <= side {
                cells[cell] = digit;
            }
        }
        let puzzle = Grid::from_cells(shape, cells.clone()).unwrap();
        let expected = if givens_clash(&puzzle) { 0 } else { brute_count(&mut cells, shape, 3) };
        let verdict = match expected {
            0 => Verdict::None,
            1 => Verdict::Unique,
            _ => Verdict::Multiple,
        };
        let limits = Limits::default().with_max_nodes(5_000_000);
        for engine in strategy::registry() {
            if engine.supports(shape).is_err() {
                continue;
            }
            let outcome = engine.count_up_to(&puzzle, 3, &limits);
            prop_assert_eq!(outcome.verdict(), verdict, "{} on {:?}", engine.name(), puzzle.cells());
            prop_assert_eq!(outcome.found.min(3), expected, "{}", engine.name());
            if let (Some(solution), _) = engine.solve(&puzzle, &limits) {
                prop_assert_eq!(validate(&puzzle, &solution), Ok(()), "{}", engine.name());
            }
        }
    }
}
