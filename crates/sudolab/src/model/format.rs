//! Text forms of one puzzle: the symbols, the line form and the grid form.
//!
//! This module turns text that is already in memory into grids and back; the streaming readers
//! that feed it lines live in [`crate::corpus`]. Every error names the line and column (both
//! one-based), what was expected and what was found.

use std::fmt::{self, Write as _};

use super::grid::Grid;
use super::shape::Shape;

/// The largest side the line form can write: `1-9` then `A-Z`.
pub const MAX_LINE_SIDE: usize = 35;

/// The characters that mean "empty" in the line form.
pub const EMPTY_SYMBOLS: [u8; 4] = [b'.', b'0', b'_', b'-'];

/// A malformed piece of text, with its place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {message}", column.map(|c| format!(", column {c}")).unwrap_or_default())]
pub struct ParseError {
    /// One-based line number.
    pub line: usize,
    /// One-based column, when one place is to blame.
    pub column: Option<usize>,
    /// What was expected and what was found.
    pub message: String,
}

impl ParseError {
    /// An error at a line and column.
    pub fn at(line: usize, column: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            column: Some(column),
            message: message.into(),
        }
    }

    /// An error about a whole line.
    pub fn line(line: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            column: None,
            message: message.into(),
        }
    }
}

/// Shows one byte of input in an error: `'x'` when printable, `byte 0x00` otherwise.
pub struct Found(pub u8);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_ascii_graphic() {
            write!(f, "'{}'", self.0 as char)
        } else if self.0 == b' ' {
            f.write_str("a space")
        } else {
            write!(f, "byte 0x{:02X}", self.0)
        }
    }
}

/// The digit a line-form symbol stands for on a board of side `side`: `Some(0)` for an empty
/// symbol, `Some(d)` for a digit `1..=side`, `None` for anything else. Letters are
/// case-insensitive and follow `9`: `A` is 10, `G` is 16, `Z` is 35.
pub fn symbol_value(symbol: u8, side: usize) -> Option<u8> {
    let value = SYMBOL_VALUES[symbol as usize];
    (value as usize <= side).then_some(value)
}

/// The value of every byte in the line form: 0 for the empty symbols, 1-35 for the digits and
/// letters, [`NOT_A_SYMBOL`] for the rest. One table read per symbol, where matching ranges and
/// searching [`EMPTY_SYMBOLS`] took a tenth of `sudolab count`'s time per puzzle.
const SYMBOL_VALUES: [u8; 256] = {
    let mut table = [NOT_A_SYMBOL; 256];
    let mut byte = 0;
    while byte < 256 {
        let symbol = byte as u8;
        table[byte] = match symbol {
            b'1'..=b'9' => symbol - b'0',
            b'a'..=b'z' => symbol - b'a' + 10,
            b'A'..=b'Z' => symbol - b'A' + 10,
            _ => NOT_A_SYMBOL,
        };
        byte += 1;
    }
    let mut empty = 0;
    while empty < EMPTY_SYMBOLS.len() {
        table[EMPTY_SYMBOLS[empty] as usize] = 0;
        empty += 1;
    }
    table
};

/// The value of a byte that is no symbol: above every side.
const NOT_A_SYMBOL: u8 = u8::MAX;

/// The line-form symbol for a value; `.` for empty.
///
/// # Panics
/// When `value` is above 35: the line form cannot write it (callers check the side first).
pub fn symbol_for(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        10..=35 => (b'A' + value - 10) as char,
        _ => panic!("the line form writes values up to 35, got {value}"),
    }
}

/// The alphabet of a side, as an error message says it: `a digit 1-9 or '.'`,
/// `a symbol 1-9, A-G or '.'`.
pub fn describe_alphabet(side: usize, empty_allowed: bool) -> String {
    let empty = if empty_allowed { " or '.'" } else { "" };
    match side {
        1 => format!("the digit 1{empty}"),
        2..=9 => format!("a digit 1-{side}{empty}"),
        10 => format!("a symbol 1-9, A{empty}"),
        _ => format!(
            "a symbol 1-9, A-{}{empty}",
            (b'A' + (side.min(MAX_LINE_SIDE) - 10) as u8) as char
        ),
    }
}

/// What one line of the line form holds: a puzzle and optionally what is known of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRecord {
    /// The puzzle.
    pub puzzle: Grid,
    /// A known solution, when the line gives one.
    pub solution: Option<Grid>,
    /// A known number of solutions, when the line gives one (as tdoku's test files do).
    pub count: Option<u64>,
}

/// Parses one line of the line form: `n*n` symbols, then optional fields separated by `,`,
/// `;`, `:` or whitespace, each either a known solution (`n*n` digits) or a known solution
/// count (a decimal number). The first field's length fixes the side unless `shape` is given.
pub fn parse_line_record(
    text: &[u8],
    shape: Option<Shape>,
    line: usize,
) -> Result<LineRecord, ParseError> {
    if let Some(shape) = bare_puzzle_shape(text, shape) {
        let mut cells = vec![0; text.len()];
        if symbols_into(text, shape.side(), &mut cells) {
            return Ok(LineRecord {
                puzzle: Grid::from_cells(shape, cells).expect("every symbol is within the side"),
                solution: None,
                count: None,
            });
        }
    }
    let mut fields = split_fields(text);
    let (start, field) = fields
        .next()
        .ok_or_else(|| ParseError::line(line, "expected a puzzle, found an empty line"))?;
    let shape = match shape {
        Some(shape) => shape,
        None => infer_line_shape(field.len())
            .ok_or_else(|| {
                ParseError::at(
                    line,
                    start + 1,
                    format!(
                        "expected n*n symbols for a side n of 1 to {MAX_LINE_SIDE} (16 for 4x4, 36 for 6x6, 81 for 9x9, 144 for 12x12, 256 for 16x16, 625 for 25x25), found {}",
                        field.len()
                    ),
                )
            })?
            .map_err(|message| ParseError::at(line, start + 1, message))?,
    };
    let puzzle = parse_symbols(field, shape, true, line, start)?;
    let mut record = LineRecord {
        puzzle,
        solution: None,
        count: None,
    };
    for (start, field) in fields {
        if field.iter().all(u8::is_ascii_digit) && field.len() < shape.cell_count().min(20) {
            let count = std::str::from_utf8(field)
                .ok()
                .and_then(|digits| digits.parse().ok())
                .ok_or_else(|| ParseError::at(line, start + 1, "solution count is too large"))?;
            record.count = Some(count);
        } else {
            record.solution = Some(parse_symbols(field, shape, false, line, start)?);
        }
    }
    Ok(record)
}

/// A puzzle in the line form, alone: `"4..3.....1....2.".parse::<Grid>()`.
///
/// The text is read as [`parse_line_record`] reads line 1 with no shape given (the default box
/// for the side; surrounding whitespace ignored), with the same errors, and must hold the
/// puzzle only: a known solution or solution count after it is refused rather than dropped
/// (read such a line with [`parse_line_record`], which keeps them). A side with no default box
/// (side 2, 4 symbols) or a box other than the default needs [`parse_line_record`] with the
/// shape.
impl std::str::FromStr for Grid {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Grid, ParseError> {
        let record = parse_line_record(text.as_bytes(), None, 1)?;
        if record.solution.is_some() || record.count.is_some() {
            let (start, _) = split_fields(text.as_bytes())
                .nth(1)
                .expect("a solution or a count is a second field");
            return Err(ParseError::at(
                1,
                start + 1,
                "expected the puzzle alone, found a second field (a solution or a count): \
                 a line with one is read by parse_line_record",
            ));
        }
        Ok(record.puzzle)
    }
}

/// Reads a line that is one bare puzzle (`n*n` symbols and no other field) into `grid`,
/// reusing its cells when the shape is the same, as on nearly every line of a corpus: no
/// allocation per line, one pass over the symbols. `false` for any other line (a known
/// solution or count after the puzzle, a wrong symbol or length), which [`parse_line_record`]
/// reads and whose errors it names; `grid` may then have been emptied.
pub fn parse_bare_line_into(text: &[u8], shape: Option<Shape>, grid: &mut Grid) -> bool {
    let Some(shape) = bare_puzzle_shape(text, shape) else {
        return false;
    };
    if grid.shape() != shape || grid.rules().is_some() {
        *grid = Grid::empty(shape);
    }
    if symbols_into(text, shape.side(), grid.cells_mut()) {
        return true;
    }
    // A grid never holds a value above its side.
    grid.cells_mut().fill(0);
    false
}

/// The shape of a line that may be one bare puzzle and nothing else: `n*n` bytes of a side
/// the line form takes (`shape`'s, or the default for that length). `None` sends the line to
/// the general parser, which also finds every error; so does a '0' on a side of 10 or more
/// (it may be a hexadecimal digit, which the general parser explains).
fn bare_puzzle_shape(text: &[u8], shape: Option<Shape>) -> Option<Shape> {
    let shape = match shape {
        Some(shape) => shape,
        None if text.len() == 81 => Shape::CLASSIC,
        None => infer_line_shape(text.len())?.ok()?,
    };
    let side = shape.side();
    (text.len() == shape.cell_count()
        && side <= MAX_LINE_SIDE
        && (side < 10 || !text.contains(&b'0')))
    .then_some(shape)
}

/// Writes the values of `text`'s symbols into `cells` (of the same length) and says whether
/// they are all within `side`; `cells` holds values above `side` when not.
fn symbols_into(text: &[u8], side: usize, cells: &mut [u8]) -> bool {
    // 9x9 with the length known.
    if let (Ok(text), Ok(cells)) = (
        <&[u8; 81]>::try_from(text),
        <&mut [u8; 81]>::try_from(&mut *cells),
    ) {
        // Digits and '.' (nearly every 9x9 corpus) by arithmetic, which the compiler
        // vectorizes: a digit is its byte minus '0' ('0' is empty), '.' is 0. Through the
        // table, one load, one read and one store a cell, it was 500 instructions a line.
        let mut others = 0;
        for (cell, &symbol) in cells.iter_mut().zip(text) {
            let digit = symbol.wrapping_sub(b'0');
            let is_digit = digit <= 9;
            *cell = if is_digit { digit } else { 0 };
            others |= u8::from(!is_digit && symbol != b'.');
        }
        if others == 0 {
            return true;
        }
        // Other empty symbols, or letters (of which none fits 9x9, but the general parser
        // names them).
        for (cell, &symbol) in cells.iter_mut().zip(text) {
            *cell = SYMBOL_VALUES[symbol as usize];
        }
    } else {
        for (cell, &symbol) in cells.iter_mut().zip(text) {
            *cell = SYMBOL_VALUES[symbol as usize];
        }
    }
    // A second pass rather than a running maximum: it is vectorized, the table reads are not.
    let largest = cells.iter().fold(0, |largest, &value| largest.max(value));
    largest as usize <= side
}

/// The shape a line-form field of `len` symbols implies: `None` when `len` is not a square,
/// `Some(Err(message))` when it is but no default box shape fits.
fn infer_line_shape(len: usize) -> Option<Result<Shape, String>> {
    let side = (1..=MAX_LINE_SIDE).find(|side| side * side == len)?;
    Some(
        Shape::for_side(side)
            .map_err(|err| format!("a puzzle of {len} symbols is {side}x{side}, but {err}")),
    )
}

/// Splits a line into fields at `,`, `;`, `:` and runs of whitespace, with each field's
/// zero-based byte offset.
fn split_fields(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    /// The separators as a table: one load per byte of the line.
    const SEPARATORS: [bool; 256] = {
        let mut table = [false; 256];
        let mut byte = 0;
        while byte < 256 {
            table[byte] =
                matches!(byte as u8, b',' | b';' | b':') || (byte as u8).is_ascii_whitespace();
            byte += 1;
        }
        table
    };
    let is_separator = |byte: &u8| SEPARATORS[*byte as usize];
    let mut offset = 0;
    text.split(is_separator).filter_map(move |field| {
        let start = offset;
        offset += field.len() + 1;
        (!field.is_empty()).then_some((start, field))
    })
}

/// Parses `n*n` line-form symbols starting at byte `start` of the line.
fn parse_symbols(
    field: &[u8],
    shape: Shape,
    empty_allowed: bool,
    line: usize,
    start: usize,
) -> Result<Grid, ParseError> {
    let side = shape.side();
    let what = if empty_allowed { "puzzle" } else { "solution" };
    if side > MAX_LINE_SIDE {
        return Err(ParseError::at(
            line,
            start + 1,
            format!(
                "the line form holds sides up to {MAX_LINE_SIDE}; a {shape} box shape has side {side}: use the grid or JSON form"
            ),
        ));
    }
    // '0' is an empty cell here; beside another empty symbol it can only be a digit, as in a
    // 16x16 written 0-F: refused with the conversion rather than read as another puzzle.
    if side >= 10 && field.contains(&b'0') {
        if let Some(offset) = field
            .iter()
            .position(|symbol| *symbol != b'0' && EMPTY_SYMBOLS.contains(symbol))
        {
            return Err(ParseError::at(
                line,
                start + offset + 1,
                format!(
                    "this {what} uses both '0' and '{}' for an empty cell: in sudolab's line \
                     form 1-9 then A-{} are the digits and '.' or '0' an empty cell; a {side}x{side} \
                     grid written with 0-{} (hexadecimal) converts with tr 0-9A-{} 1-9A-{}",
                    field[offset] as char,
                    symbol_for(side as u8),
                    symbol_for(side as u8 - 1),
                    symbol_for(side as u8 - 1),
                    symbol_for(side as u8),
                ),
            ));
        }
    }
    // The common case in one pass: the right length, every symbol in the alphabet.
    if field.len() == shape.cell_count() {
        let cells: Vec<u8> = field
            .iter()
            .map(|&symbol| SYMBOL_VALUES[symbol as usize])
            .collect();
        let lowest = u8::from(!empty_allowed);
        // Folded rather than `all`, so that the check is one vectorized pass with no branch.
        let (least, largest) = cells.iter().fold((u8::MAX, 0), |(least, largest), &value| {
            (least.min(value), largest.max(value))
        });
        if lowest <= least && largest <= side as u8 {
            return Ok(Grid::from_cells(shape, cells).expect("every symbol is within the side"));
        }
    }
    // Otherwise the first wrong symbol, or the wrong length, with its column.
    let mut cells = Vec::with_capacity(shape.cell_count());
    for (offset, &symbol) in field.iter().enumerate() {
        let column = start + offset + 1;
        if offset >= shape.cell_count() {
            return Err(ParseError::at(
                line,
                column,
                format!(
                    "expected {} symbols for a {side}x{side} {what}, found {}",
                    shape.cell_count(),
                    field.len()
                ),
            ));
        }
        match symbol_value(symbol, side) {
            Some(value) if value != 0 || empty_allowed => cells.push(value),
            _ => {
                return Err(ParseError::at(
                    line,
                    column,
                    format!(
                        "expected {}, found {}",
                        describe_alphabet(side, empty_allowed),
                        Found(symbol)
                    ),
                ));
            }
        }
    }
    if cells.len() < shape.cell_count() {
        return Err(ParseError::at(
            line,
            start + field.len() + 1,
            format!(
                "expected {} symbols for a {side}x{side} {what}, found {}",
                shape.cell_count(),
                field.len()
            ),
        ));
    }
    Ok(Grid::from_cells(shape, cells).expect("every symbol was checked against the side"))
}

/// Whether a byte separates the numbers of a grid-form row: whitespace, a comma (CSV rows) or
/// `|` (the box borders of qqwing's and other printed grids).
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "a predicate for slice::split and Iterator::any, which pass a reference"
)]
pub fn is_grid_separator(byte: &u8) -> bool {
    byte.is_ascii_whitespace() || matches!(byte, b',' | b'|')
}

/// Whether a line is a printed grid's rule between bands (`------+-------+------`,
/// `-------|-------|-------`): only `-`, `=`, `+` and `|`, with at least one `-` or `=`.
pub fn is_rule_line(text: &[u8]) -> bool {
    text.iter().any(|byte| matches!(byte, b'-' | b'='))
        && text
            .iter()
            .all(|byte| byte.is_ascii_whitespace() || matches!(byte, b'-' | b'=' | b'+' | b'|'))
}

/// Parses one row of the grid form: `side` numbers `0..=side` (`.` also means empty), separated
/// by whitespace, commas or `|`.
pub fn parse_grid_row(text: &[u8], side: usize, line: usize) -> Result<Vec<u8>, ParseError> {
    let mut values = Vec::with_capacity(side);
    let mut offset = 0;
    for token in text.split(is_grid_separator) {
        let column = offset + 1;
        offset += token.len() + 1;
        if token.is_empty() {
            continue;
        }
        let value = if token == b"." {
            Some(0)
        } else {
            std::str::from_utf8(token)
                .ok()
                .filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|digits| digits.parse::<usize>().ok())
                .filter(|&value| value <= side)
        };
        let Some(value) = value else {
            let shown = match std::str::from_utf8(token) {
                Ok(text) if token.len() <= 20 && token.iter().all(u8::is_ascii_graphic) => {
                    format!("'{text}'")
                }
                _ => Found(token[0]).to_string(),
            };
            return Err(ParseError::at(
                line,
                column,
                format!("expected a number 0-{side}, found {shown}"),
            ));
        };
        if values.len() == side {
            return Err(ParseError::at(
                line,
                column,
                format!("expected {side} numbers in a row, found more"),
            ));
        }
        values.push(value as u8);
    }
    if values.len() < side {
        return Err(ParseError::at(
            line,
            text.len() + 1,
            format!("expected {side} numbers in a row, found {}", values.len()),
        ));
    }
    Ok(values)
}

/// Counts the numbers of a grid-form row (see [`is_grid_separator`]), for sizing the grid form.
pub fn count_tokens(text: &[u8]) -> usize {
    text.split(is_grid_separator)
        .filter(|token| !token.is_empty())
        .count()
}

/// The line form of a grid, or `None` when its side is above 35.
pub fn to_line(grid: &Grid) -> Option<String> {
    let mut line = String::with_capacity(grid.cells().len());
    push_line(&mut line, grid).then_some(line)
}

/// Appends the line form of a grid (no line ending) and says so; `false`, with nothing
/// appended, when its side is above 35.
pub fn push_line(out: &mut String, grid: &Grid) -> bool {
    /// The line form's symbols by value: one table read per cell.
    const SYMBOLS: &[u8; MAX_LINE_SIDE + 1] = b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if grid.side() > MAX_LINE_SIDE {
        return false;
    }
    // Through a buffer of bytes and one `push_str`: pushed as `char`s one by one, a 9x9 line
    // cost 1,250 instructions, more than reading and parsing it.
    let symbol = |value: &u8| SYMBOLS[usize::from(*value)];
    if let Ok(cells) = <&[u8; 81]>::try_from(grid.cells()) {
        // A 9x9 grid's values are at most 9: '0' plus the value, or '.', by arithmetic the
        // compiler vectorizes (through the table, 650 instructions a line with the rest).
        let mut symbols = [0u8; 81];
        for (symbol, &value) in symbols.iter_mut().zip(cells) {
            *symbol = if value == 0 { b'.' } else { b'0' + value };
        }
        out.push_str(std::str::from_utf8(&symbols).expect("the symbols are ASCII"));
    } else {
        let symbols: Vec<u8> = grid.cells().iter().map(symbol).collect();
        out.push_str(std::str::from_utf8(&symbols).expect("the symbols are ASCII"));
    }
    true
}

/// A grid on one line for messages and reports: the line form when the side allows, otherwise
/// the grid form with its rows separated by ` / `.
pub fn to_one_line(grid: &Grid) -> String {
    to_line(grid).unwrap_or_else(|| to_grid_text(grid).trim_end().replace('\n', " / "))
}

/// The grid form: `n` lines of numbers, right-aligned so that columns line up.
pub fn to_grid_text(grid: &Grid) -> String {
    let side = grid.side();
    let width = side.to_string().len();
    let mut text = String::with_capacity(grid.cells().len() * (width + 1));
    for row in grid.cells().chunks(side) {
        for (col, value) in row.iter().enumerate() {
            if col > 0 {
                text.push(' ');
            }
            write!(text, "{value:>width$}").expect("writing to a String cannot fail");
        }
        text.push('\n');
    }
    text
}

/// "00", "01", ... "99", one after the other.
const DIGIT_PAIRS: [u8; 200] = {
    let mut pairs = [0; 200];
    let mut k = 0;
    while k < 100 {
        pairs[2 * k] = b'0' + (k / 10) as u8;
        pairs[2 * k + 1] = b'0' + (k % 10) as u8;
        k += 1;
    }
    pairs
};

/// Appends `number` in decimal. The output's line keys and counts go through this rather than
/// `format!`, whose machinery cost more per puzzle than reading and parsing its line.
pub fn push_decimal(out: &mut String, mut number: u64) {
    // One digit (a count of solutions, nearly always): no buffer, no loop.
    if number < 10 {
        out.push(char::from(b'0' + number as u8));
        return;
    }
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    // Two digits a step, from a table of the hundred pairs.
    while number >= 100 {
        let pair = 2 * (number % 100) as usize;
        number /= 100;
        start -= 2;
        digits[start..start + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if number >= 10 {
        let pair = 2 * number as usize;
        start -= 2;
        digits[start..start + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        start -= 1;
        digits[start] = b'0' + number as u8;
    }
    // Room made once, then one byte a digit: through `extend` (a `char` at a time, each
    // encoded) a number cost 100 instructions, through `from_utf8` and `push_str` 130.
    out.reserve(digits.len() - start);
    for &digit in &digits[start..] {
        out.push(char::from(digit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_by_nine_symbols_read_as_the_table_reads_them() {
        let base =
            b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        for symbol in [b'0', b'_', b'-', b'a', b'Z', b' ', b'#', 0xFF, b'9', b'.'] {
            let mut text = *base;
            text[40] = symbol;
            text[80] = symbol;
            let mut cells = [0u8; 81];
            let fits = symbols_into(&text, 9, &mut cells);
            let expected: Vec<u8> = text.iter().map(|&b| SYMBOL_VALUES[b as usize]).collect();
            assert_eq!(fits, expected.iter().all(|&value| value <= 9), "{symbol}");
            if fits {
                assert_eq!(&cells[..], &expected[..], "{symbol}");
            }
        }
    }

    #[test]
    fn decimals_are_written_like_display() {
        for number in [
            0,
            7,
            9,
            10,
            99,
            100,
            101,
            999,
            1_000,
            12_345,
            49_158,
            u64::MAX,
        ] {
            let mut text = String::from("x");
            push_decimal(&mut text, number);
            assert_eq!(text, format!("x{number}"));
        }
    }

    #[test]
    fn symbols_cover_digits_letters_and_empties() {
        assert_eq!(symbol_value(b'.', 9), Some(0));
        assert_eq!(symbol_value(b'9', 9), Some(9));
        assert_eq!(symbol_value(b'5', 4), None);
        assert_eq!(symbol_value(b'g', 16), Some(16));
        assert_eq!(symbol_value(b'G', 15), None);
        assert_eq!(describe_alphabet(16, true), "a symbol 1-9, A-G or '.'");
        assert_eq!(symbol_for(16), 'G');
    }

    #[test]
    fn line_records_carry_solutions_and_counts() {
        let record = parse_line_record(b"1.3.:2", None, 4).unwrap_err();
        assert_eq!(
            record.to_string(),
            "line 4, column 1: a puzzle of 4 symbols is 2x2, but no default box shape for side 2; pass --box RxC"
        );
        let record = parse_line_record(
            b"12..34..21..43.. 1234341221434321",
            Some("2x2".parse().unwrap()),
            1,
        )
        .unwrap();
        assert_eq!(record.puzzle.clue_count(), 8);
        assert_eq!(record.solution.unwrap().clue_count(), 16);
        let record = parse_line_record(b"................:288", None, 1).unwrap();
        assert_eq!(record.count, Some(288));
    }

    #[test]
    fn line_errors_name_the_column() {
        let err = parse_line_record(&[b'.'; 80], None, 7).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 7, column 1: expected n*n symbols for a side n of 1 to 35 (16 for 4x4, 36 for 6x6, 81 for 9x9, 144 for 12x12, 256 for 16x16, 625 for 25x25), found 80"
        );
        let mut text = vec![b'.'; 81];
        text[40] = b'x';
        assert_eq!(
            parse_line_record(&text, None, 2).unwrap_err().to_string(),
            "line 2, column 41: expected a digit 1-9 or '.', found 'x'"
        );
        text[40] = 0;
        assert_eq!(
            parse_line_record(&text, None, 2).unwrap_err().to_string(),
            "line 2, column 41: expected a digit 1-9 or '.', found byte 0x00"
        );
    }

    #[test]
    fn a_grid_parses_from_its_line_alone() {
        let grid: Grid = " 4..3.....1....2.\n".parse().unwrap();
        assert_eq!(
            grid,
            parse_line_record(b"4..3.....1....2.", None, 1)
                .unwrap()
                .puzzle
        );
        assert_eq!(to_line(&grid).unwrap(), "4..3.....1....2.");
        assert_eq!(
            "4..x.....1....2.".parse::<Grid>().unwrap_err().to_string(),
            "line 1, column 4: expected a digit 1-4 or '.', found 'x'"
        );
        assert_eq!(
            "4..3.....1....2. 4213134221343421"
                .parse::<Grid>()
                .unwrap_err()
                .to_string(),
            "line 1, column 18: expected the puzzle alone, found a second field (a solution or a \
             count): a line with one is read by parse_line_record"
        );
        assert!("4..3.....1....2.:1".parse::<Grid>().is_err());
        assert!("".parse::<Grid>().is_err());
    }

    #[test]
    fn grid_rows_are_checked() {
        assert_eq!(
            parse_grid_row(b" 1 0  4 3", 4, 1).unwrap(),
            vec![1, 0, 4, 3]
        );
        assert_eq!(
            parse_grid_row(b"1 0 5 3", 4, 9).unwrap_err().to_string(),
            "line 9, column 5: expected a number 0-4, found '5'"
        );
        assert_eq!(
            parse_grid_row(b"1 0 2", 4, 9).unwrap_err().to_string(),
            "line 9, column 6: expected 4 numbers in a row, found 3"
        );
    }

    #[test]
    fn writes_both_text_forms() {
        let grid = Grid::from_cells(
            "2x2".parse().unwrap(),
            (0..16).map(|i| (i % 4) as u8 + 1).collect(),
        )
        .unwrap();
        assert_eq!(to_line(&grid).unwrap(), "1234123412341234");
        assert_eq!(to_grid_text(&grid).lines().next().unwrap(), "1 2 3 4");
    }
}
