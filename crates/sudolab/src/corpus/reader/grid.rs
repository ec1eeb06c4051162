//! The grid form: `n` rows of `n` numbers (separated by spaces, commas or `|`) or of `n`
//! symbols, with printed rules between bands allowed; puzzles separated by a blank line.

use std::io::BufRead;

use crate::model::{
    Found, Grid, MAX_LINE_SIDE, ParseError, Shape, count_tokens, describe_alphabet,
    is_grid_separator, is_rule_line, parse_grid_row, symbol_value,
};

use super::Reader;
use crate::corpus::{CorpusError, Record};

impl<R: BufRead> Reader<R> {
    /// Reads one grid-form puzzle whose first row is the current line.
    pub(super) fn read_grid_puzzle(&mut self) -> Result<Record, CorpusError> {
        let first_line = self.line_no;
        // Rows of symbols with no separator (`53..7....`, the .sdk form), or of numbers.
        let chars = count_tokens(&self.line) == 1 && self.line.trim_ascii().len() > 2;
        let row_of = |text: &[u8], side: usize, line: usize| {
            if chars {
                parse_char_row(text, side, line)
            } else {
                parse_grid_row(text, side, line)
            }
        };
        let shape = if let Some(shape) = self.shape {
            shape
        } else {
            let (side, what) = if chars {
                (self.line.trim_ascii().len(), "symbols")
            } else {
                (count_tokens(&self.line), "numbers")
            };
            match Shape::for_side(side) {
                Ok(shape) => shape,
                Err(_) if self.boxless() && (1..=crate::model::MAX_SIDE).contains(&side) => {
                    Shape::rows_only(side)
                }
                Err(err) => {
                    return Err(ParseError::line(
                        first_line,
                        format!("a first row of {side} {what}: {err}"),
                    )
                    .into());
                }
            }
        };
        let side = shape.side();
        let mut cells = Vec::with_capacity(shape.cell_count());
        cells.extend(row_of(&self.line, side, self.line_no)?);
        while cells.len() < shape.cell_count() {
            let rows_read = cells.len() / side;
            let more = self.next_line()?;
            if self.overlong {
                self.check_line_bytes()?;
            }
            if !more || self.is_blank() {
                return Err(ParseError::line(
                    self.line_no,
                    format!("expected {side} rows for the puzzle starting at line {first_line}, found {rows_read}"),
                )
                .into());
            }
            if self.is_comment() || is_rule_line(&self.line) {
                continue;
            }
            self.check_line_bytes()?;
            cells.extend(row_of(&self.line, side, self.line_no)?);
        }
        Ok(Record {
            number: self.number,
            line: first_line,
            puzzle: Grid::from_cells(shape, cells).expect("every row was checked against the side"),
            solution: None,
            count: None,
        })
    }
}

/// Whether a first line is a row of a grid written as symbols with no separator (`53..7....`,
/// the .sdk form): one token whose length is a side with a default box shape but not the
/// length of a line-form puzzle (9 symbols are a 9x9 row, 16 a 4x4 puzzle), at least 6.
pub(super) fn is_char_row(token: &[u8], boxless: bool) -> bool {
    let len = token.len();
    // A boxless variant (`--variant latin`) reads a line of any square length as a puzzle.
    let line_form = (1..=MAX_LINE_SIDE)
        .any(|side| side * side == len && (boxless || Shape::for_side(side).is_ok()));
    // From 6 up: a 4-symbol line is more likely a line-form puzzle missing its box shape.
    (6..=MAX_LINE_SIDE).contains(&len)
        && !line_form
        && !token.iter().any(is_grid_separator)
        && token.iter().all(|&byte| symbol_value(byte, len).is_some())
        && Shape::for_side(len).is_ok()
}

/// Parses one row of symbols with no separator (`53..7....`): `side` line-form symbols.
fn parse_char_row(text: &[u8], side: usize, line: usize) -> Result<Vec<u8>, ParseError> {
    let start = text.len() - text.trim_ascii_start().len();
    let row = text.trim_ascii();
    let mut values = Vec::with_capacity(side);
    for (offset, &symbol) in row.iter().enumerate() {
        let column = start + offset + 1;
        if offset >= side {
            return Err(ParseError::at(
                line,
                column,
                format!("expected {side} symbols in a row, found {}", row.len()),
            ));
        }
        let value = symbol_value(symbol, side).ok_or_else(|| {
            ParseError::at(
                line,
                column,
                format!(
                    "expected {}, found {}",
                    describe_alphabet(side, true),
                    Found(symbol)
                ),
            )
        })?;
        values.push(value);
    }
    if values.len() < side {
        return Err(ParseError::at(
            line,
            start + row.len() + 1,
            format!("expected {side} symbols in a row, found {}", row.len()),
        ));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use crate::corpus::{Format, Reader, Record};

    fn read(text: &[u8]) -> Vec<Result<Record, String>> {
        Reader::new(text, Format::Auto, None)
            .map(|item| item.map_err(|err| err.to_string()))
            .collect()
    }

    #[test]
    fn grid_form_reads_puzzles_separated_by_blank_lines() {
        let text = b"1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 4\n\n0 0 0 0\n0 9 0 0\n0 0 0 0\n0 0 0 0\n\n0 0 0 0\n0 0 0 0\n";
        let records = read(text);
        assert_eq!(records.len(), 3);
        assert_eq!(records[0].as_ref().unwrap().puzzle.clue_count(), 2);
        assert_eq!(
            records[1].as_ref().unwrap_err(),
            "line 7, column 3: expected a number 0-4, found '9'"
        );
        assert_eq!(
            records[2].as_ref().unwrap_err(),
            "line 12: expected 4 rows for the puzzle starting at line 11, found 2"
        );
    }

    #[test]
    fn printed_grids_are_read_with_their_separators() {
        let board_a =
            "030260701680070090190004500820100040004602900050003028009300074040050036703018000";
        // Comma-separated rows (a spreadsheet's CSV).
        let csv: String = board_a
            .as_bytes()
            .chunks(9)
            .map(|row| {
                let cells: Vec<String> = row.iter().map(|&b| (b as char).to_string()).collect();
                cells.join(",") + "\n"
            })
            .collect();
        // qqwing's boxed grid, with dots and band rules.
        let mut boxed = String::new();
        for (r, row) in board_a.as_bytes().chunks(9).enumerate() {
            if r > 0 && r % 3 == 0 {
                boxed.push_str("-------|-------|-------\n");
            }
            for (c, &b) in row.iter().enumerate() {
                if c > 0 && c % 3 == 0 {
                    boxed.push_str("| ");
                }
                boxed.push(if b == b'0' { '.' } else { b as char });
                boxed.push(' ');
            }
            boxed.push('\n');
        }
        // A bordered grid.
        let bordered = format!(
            "+-------+-------+-------+\n{}+-------+-------+-------+\n",
            boxed
                .replace("-------|-------|-------", "+-------+-------+-------+")
                .lines()
                .map(|line| if line.starts_with('+') {
                    format!("{line}\n")
                } else {
                    format!("| {line}|\n")
                })
                .collect::<String>()
        );
        // Nine rows of nine symbols (the .sdk form).
        let rows: String = board_a
            .as_bytes()
            .chunks(9)
            .map(|row| String::from_utf8(row.to_vec()).unwrap().replace('0', ".") + "\n")
            .collect();
        for text in [csv, boxed, bordered, rows] {
            let records = read(text.as_bytes());
            assert_eq!(records.len(), 1, "{text}");
            let puzzle = &records[0]
                .as_ref()
                .unwrap_or_else(|err| panic!("{err}\n{text}"))
                .puzzle;
            assert_eq!(
                crate::model::to_line(puzzle).unwrap().replace('.', "0"),
                board_a,
                "{text}"
            );
        }
    }
}
