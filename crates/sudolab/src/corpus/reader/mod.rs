//! The streaming reader: one record or one error per puzzle, lines read with bounded memory.
//! The form is forced or detected from the first puzzle; the grid form is read in `grid`, and
//! the pipelines' fast path, which leaves line-form puzzles unparsed, is in `deferred`.

use std::io::{self, BufRead};
use std::sync::Arc;

use crate::model::{
    MAX_LINE_SIDE, ParseError, Rules, RulesSpec, Shape, count_tokens, is_grid_separator,
    is_rule_line, parse_line_record,
};

use super::json::JsonStream;
use super::{CorpusError, Format, Record};

mod deferred;
mod grid;

pub use deferred::{Deferred, LineAt, parse_line_into};

/// The longest line read. The widest legitimate line is far shorter: a 35x35 line-form puzzle
/// with its solution is under 3 KB, a row of a 64x64 grid under 200 bytes, a 64x64 puzzle
/// written as JSON on one line about 20 KB. A longer line is an error naming the column where
/// the limit was crossed, and the rest of its source is not read, so that an endless input
/// (`/dev/zero`, a stream without line ends) ends with an error instead of being scanned forever.
pub const MAX_LINE_BYTES: usize = 1 << 20;

enum Mode {
    Undecided,
    Line,
    /// The rated corpora's `ID PUZZLE RATING` lines: the line form's puzzle in the second
    /// field, between an identifier and a rating that are not claims to check.
    Rated,
    Grid,
    Json(Box<JsonStream>),
    /// A TOML document, read whole on the first call; its records, in order.
    Toml(std::collections::VecDeque<Result<Record, CorpusError>>),
    Done,
}

/// Reads puzzles from any buffered source, one at a time.
#[expect(
    clippy::struct_excessive_bools,
    reason = "four independent flags of the line reader's state; an enum would only rename them"
)]
pub struct Reader<R> {
    input: R,
    shape: Option<Shape>,
    mode: Mode,
    /// The current line, without its line ending.
    line: Vec<u8>,
    /// Whether the current line was longer than [`MAX_LINE_BYTES`].
    overlong: bool,
    /// Whether `line` holds a line that was read but not yet used.
    held: bool,
    line_no: usize,
    number: usize,
    /// After a broken grid-form puzzle: skip to the next blank line.
    skip_to_blank: bool,
    /// Whether the input's start was looked at for a UTF-8 byte-order mark.
    bom_checked: bool,
    /// Variant rules given for every puzzle (`--variant`), and the rules last built from them
    /// with the shape they were built for (one build per shape, not per puzzle).
    variant: Option<RulesSpec>,
    variant_rules: Option<(Shape, Arc<Rules>)>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `format` (or the detected one), with every puzzle read as `shape` when given.
    pub fn new(input: R, format: Format, shape: Option<Shape>) -> Reader<R> {
        let mode = match format {
            Format::Auto => Mode::Undecided,
            Format::Json => Mode::Json(Box::new(JsonStream::new(shape, 1, 1))),
            Format::Line => Mode::Line,
            Format::Grid => Mode::Grid,
            Format::Toml => Mode::Toml(std::collections::VecDeque::new()),
        };
        Reader {
            input,
            shape,
            mode,
            line: Vec::new(),
            overlong: false,
            held: false,
            line_no: 0,
            number: 0,
            skip_to_blank: false,
            bom_checked: false,
            variant: None,
            variant_rules: None,
        }
    }

    /// The same reader, with every plain puzzle read under a variant's rules (the command
    /// line's `--variant`); puzzles that carry rules of their own (the JSON and TOML variant
    /// form) keep them.
    #[must_use]
    pub fn with_variant(mut self, spec: Option<RulesSpec>) -> Reader<R> {
        self.variant = spec.filter(|spec| !spec.is_plain());
        self
    }

    /// Whether the variant has no boxes, so that a side with no default box still reads.
    fn boxless(&self) -> bool {
        self.variant
            .as_ref()
            .is_some_and(|spec| spec.latin || spec.regions.is_some())
    }

    /// Puts `record`'s puzzle under the variant's rules (its solution stays a plain grid).
    fn apply_variant(&mut self, mut record: Record) -> Result<Record, CorpusError> {
        let Some(spec) = &self.variant else {
            return Ok(record);
        };
        if record.puzzle.rules().is_some() {
            return Ok(record);
        }
        let shape = record.puzzle.shape();
        let rules = match &self.variant_rules {
            Some((built_for, rules)) if *built_for == shape => Arc::clone(rules),
            _ => {
                let boxes = (!self.boxless()).then_some(shape);
                let rules = Rules::new(shape.side(), boxes, spec.clone())
                    .map_err(|err| ParseError::line(record.line, format!("--variant: {err}")))?;
                let rules = Arc::new(rules);
                self.variant_rules = Some((shape, Arc::clone(&rules)));
                rules
            }
        };
        record.puzzle = record.puzzle.with_rules(rules);
        Ok(record)
    }

    /// The shape of a line-form puzzle of a boxless variant whose side has no default box.
    fn boxless_line_shape(&self) -> Option<Shape> {
        if !self.boxless() {
            return None;
        }
        let field = self
            .line
            .split(|byte| matches!(byte, b',' | b';' | b':') || byte.is_ascii_whitespace())
            .find(|field| !field.is_empty())?;
        let side = (1..=MAX_LINE_SIDE).find(|side| side * side == field.len())?;
        Some(Shape::for_side(side).unwrap_or_else(|_| Shape::rows_only(side)))
    }

    /// Drops a UTF-8 byte-order mark at the start of the input (Windows editors write one).
    fn skip_bom(&mut self) -> io::Result<()> {
        self.bom_checked = true;
        let buffer = fill(&mut self.input)?;
        if buffer.starts_with(b"\xEF\xBB\xBF") {
            self.input.consume(3);
        }
        Ok(())
    }

    /// Whether the next line opens a JSON document (`[` or `{` after spaces); if so, the
    /// spaces are consumed and the JSON stream starts at the bracket. JSON is recognised before
    /// its line is read, so that a one-line document of any length is read as JSON, not
    /// refused as an overlong line.
    fn json_starts_here(&mut self) -> io::Result<Option<usize>> {
        let buffer = fill(&mut self.input)?;
        let indent = buffer
            .iter()
            .position(|&byte| byte != b' ' && byte != b'\t');
        match indent {
            Some(indent) if matches!(buffer[indent], b'[' | b'{') => {
                self.input.consume(indent);
                Ok(Some(indent + 1))
            }
            _ => Ok(None),
        }
    }

    /// Reads the next line into `self.line`; `false` at the end of the input.
    fn next_line(&mut self) -> io::Result<bool> {
        if self.held {
            self.held = false;
            return Ok(true);
        }
        self.line.clear();
        self.overlong = false;
        let mut read_any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if available.is_empty() {
                break;
            }
            read_any = true;
            let newline = memchr::memchr(b'\n', available);
            let chunk = &available[..newline.unwrap_or(available.len())];
            let room = MAX_LINE_BYTES.saturating_sub(self.line.len());
            if chunk.len() > room {
                // Nothing past the limit is read: the line is refused and its source abandoned.
                self.overlong = true;
                self.line.extend_from_slice(&chunk[..room]);
                self.input.consume(room);
                break;
            }
            self.line.extend_from_slice(chunk);
            let used = newline.map_or(available.len(), |idx| idx + 1);
            self.input.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if !read_any {
            return Ok(false);
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        self.line_no += 1;
        Ok(true)
    }

    fn is_blank(&self) -> bool {
        self.line.iter().all(u8::is_ascii_whitespace)
    }

    /// A printed grid's rule between bands or border (`------+------`, `+-----+-----+`). In the
    /// line form a run of `-` is an empty puzzle, so there only a rule with `+` or `|` counts.
    fn is_border(&self) -> bool {
        match self.mode {
            Mode::Grid => is_rule_line(&self.line),
            Mode::Undecided => {
                is_rule_line(&self.line) && self.line.iter().any(|byte| matches!(byte, b'+' | b'|'))
            }
            _ => false,
        }
    }

    /// The header of a CSV file of puzzles (`quizzes,solutions`, as in the popular Kaggle set)
    /// before the form is decided: column names of letters, no digit and no empty-cell symbol.
    fn is_header(&self) -> bool {
        matches!(self.mode, Mode::Undecided)
            && self.line.contains(&b',')
            && self.line.iter().all(|byte| {
                byte.is_ascii_alphabetic() || matches!(byte, b',' | b';' | b' ' | b'\t')
            })
    }

    fn is_comment(&self) -> bool {
        self.line.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'#')
    }

    /// Decides the form from the first meaningful line, which stays held for the chosen parser.
    fn detect(&mut self) {
        let trimmed = self.line.trim_ascii_start();
        // A grid row is at least three short numbers ("0 3 0 2"); a line-form puzzle with its
        // solution is two long fields, or two one-symbol fields for a 1x1 board.
        let mut tokens = trimmed.split(is_grid_separator).filter(|t| !t.is_empty());
        let looks_like_row = count_tokens(trimmed) >= 3
            && tokens.all(|token| {
                token.len() <= 2 && token.iter().all(|&b| b.is_ascii_digit() || b == b'.')
            });
        let boxless = self.boxless();
        let trimmed = self.line.trim_ascii();
        self.mode = if is_rated_line(trimmed, self.shape) {
            Mode::Rated
        } else if looks_like_row || grid::is_char_row(trimmed, boxless) {
            Mode::Grid
        } else {
            Mode::Line
        };
        self.held = true;
    }

    /// Refuses binary input and overlong lines before any parser sees them; either ends the
    /// source.
    fn check_line_bytes(&mut self) -> Result<(), ParseError> {
        if let Some(idx) = memchr::memchr(0, &self.line) {
            self.mode = Mode::Done;
            return Err(ParseError::at(
                self.line_no,
                idx + 1,
                "expected puzzle text, found byte 0x00: this looks like a binary file",
            ));
        }
        if self.overlong {
            self.mode = Mode::Done;
            return Err(ParseError::at(
                self.line_no,
                MAX_LINE_BYTES + 1,
                format!(
                    "expected a puzzle, found a line longer than {MAX_LINE_BYTES} bytes \
                     (the longest a puzzle line may be); the rest of the input is not read"
                ),
            ));
        }
        Ok(())
    }
}

/// Whether a first line is in the rated corpora's form, `ID PUZZLE RATING`: three fields
/// separated by whitespace, the second as long as a line-form puzzle of side 4 or more (it
/// need not read: a mistake in it is then reported with its column), the third a number, and
/// the first not as long as the second (so `PUZZLE SOLUTION COUNT` stays the line form).
fn is_rated_line(line: &[u8], shape: Option<Shape>) -> bool {
    let fields: Vec<&[u8]> = line
        .split(u8::is_ascii_whitespace)
        .filter(|field| !field.is_empty())
        .collect();
    let &[id, puzzle, rating] = &fields[..] else {
        return false;
    };
    id.len() != puzzle.len()
        && std::str::from_utf8(rating)
            .ok()
            .and_then(|text| text.parse::<f64>().ok())
            .is_some_and(f64::is_finite)
        && shape.map_or_else(
            || (4..=MAX_LINE_SIDE).any(|side| side * side == puzzle.len()),
            |shape| shape.cell_count() == puzzle.len(),
        )
}

/// A rated line with every field but the second (the puzzle) blanked out, so that the line
/// form reads the puzzle with its own columns in errors.
fn rated_puzzle_only(line: &[u8]) -> Vec<u8> {
    let mut masked = line.to_vec();
    let mut field = 0;
    let mut in_field = false;
    for byte in &mut masked {
        if byte.is_ascii_whitespace() {
            in_field = false;
            continue;
        }
        if !in_field {
            in_field = true;
            field += 1;
        }
        if field != 2 {
            *byte = b' ';
        }
    }
    masked
}

/// The input's buffered bytes (more are read when it is empty), retried when interrupted.
fn fill<R: BufRead>(input: &mut R) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            // Returning the buffer from inside the loop is refused by today's borrow checker;
            // a second call returns the same buffered bytes without reading.
            Ok(_) => break,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    input.fill_buf()
}

impl<R: BufRead> Reader<R> {
    /// Reads a TOML document whole (it cannot be split as it is read) into its records.
    fn read_toml(&mut self) {
        self.number = 1;
        let mut text = String::new();
        let read = io::Read::read_to_string(
            &mut io::Read::take(&mut self.input, super::MAX_JSON_VALUE_BYTES as u64 + 1),
            &mut text,
        );
        let records = match read {
            Ok(_) if text.len() > super::MAX_JSON_VALUE_BYTES => {
                vec![Err(ParseError::line(
                    1,
                    format!(
                        "a TOML document is read whole, and this one is over {} bytes",
                        super::MAX_JSON_VALUE_BYTES
                    ),
                )
                .into())]
            }
            Ok(_) => super::toml::records_from_toml(&text, self.shape),
            Err(err) => vec![Err(err.into())],
        };
        self.mode = Mode::Toml(records.into());
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Record, CorpusError>;

    fn next(&mut self) -> Option<Self::Item> {
        let record = match self.next_step(false)? {
            Ok(Step::Record(record)) => record,
            Ok(Step::Line(_)) => unreachable!("lines are left unparsed only when asked"),
            Err(err) => return Some(Err(err)),
        };
        Some(self.apply_variant(record))
    }
}

/// What the reader's loop found.
enum Step {
    Record(Record),
    Line(LineAt),
}

impl<R: BufRead> Reader<R> {
    /// The next puzzle as written, before `--variant` applies; with `defer`, a line-form
    /// puzzle as its place only (its bytes are in `self.line`).
    fn next_step(&mut self, defer: bool) -> Option<Result<Step, CorpusError>> {
        if !self.bom_checked {
            if let Err(err) = self.skip_bom() {
                self.mode = Mode::Done;
                return Some(Err(err.into()));
            }
        }
        if matches!(&self.mode, Mode::Toml(records) if records.is_empty()) && self.number == 0 {
            self.read_toml();
        }
        if let Mode::Toml(records) = &mut self.mode {
            return records.pop_front().map(|record| record.map(Step::Record));
        }
        loop {
            if let Mode::Json(stream) = &mut self.mode {
                let record = stream.next_record(&mut self.input);
                if record.is_none() {
                    self.mode = Mode::Done;
                }
                return record.map(|record| record.map(Step::Record));
            }
            if matches!(self.mode, Mode::Done) {
                return None;
            }
            if matches!(self.mode, Mode::Undecided) {
                match self.json_starts_here() {
                    Ok(Some(column)) => {
                        let stream = JsonStream::new(self.shape, self.line_no + 1, column);
                        self.mode = Mode::Json(Box::new(stream));
                        continue;
                    }
                    Ok(None) => {}
                    Err(err) => {
                        self.mode = Mode::Done;
                        return Some(Err(err.into()));
                    }
                }
            }
            match self.next_line() {
                Ok(true) => {}
                Ok(false) => {
                    self.mode = Mode::Done;
                    return None;
                }
                Err(err) => {
                    self.mode = Mode::Done;
                    return Some(Err(err.into()));
                }
            }
            // An overlong line is refused whatever it holds (blank or a comment too): the rest
            // of it is unread, so nothing after it can be placed.
            if self.overlong {
                if let Err(err) = self.check_line_bytes() {
                    self.number += 1;
                    return Some(Err(err.into()));
                }
            }
            if self.is_blank() {
                self.skip_to_blank = false;
                continue;
            }
            if self.is_comment() || self.skip_to_blank || self.is_border() || self.is_header() {
                continue;
            }
            if let Err(err) = self.check_line_bytes() {
                self.number += 1;
                return Some(Err(err.into()));
            }
            match self.mode {
                Mode::Undecided => self.detect(),
                Mode::Line | Mode::Rated => return Some(self.line_step(defer)),
                Mode::Grid => {
                    self.number += 1;
                    let record = self.read_grid_puzzle();
                    if record.is_err() && !self.is_blank() {
                        self.skip_to_blank = true;
                    }
                    return Some(record.map(Step::Record));
                }
                Mode::Json(_) | Mode::Toml(_) | Mode::Done => unreachable!("handled above"),
            }
        }
    }

    /// The current line as a line-form or rated puzzle; with `defer`, a line-form puzzle as
    /// its place only.
    fn line_step(&mut self, defer: bool) -> Result<Step, CorpusError> {
        self.number += 1;
        let rated = matches!(self.mode, Mode::Rated);
        let shape = if rated {
            self.shape
        } else {
            self.shape.or_else(|| self.boxless_line_shape())
        };
        if defer && !rated {
            return Ok(Step::Line(LineAt {
                line: self.line_no,
                number: self.number,
                shape,
            }));
        }
        let masked;
        let text: &[u8] = if rated {
            masked = rated_puzzle_only(&self.line);
            &masked
        } else {
            &self.line
        };
        let parsed = parse_line_record(text, shape, self.line_no)?;
        Ok(Step::Record(Record {
            number: self.number,
            line: self.line_no,
            puzzle: parsed.puzzle,
            solution: parsed.solution,
            count: parsed.count,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8]) -> Vec<Result<Record, String>> {
        Reader::new(text, Format::Auto, None)
            .map(|item| item.map_err(|err| err.to_string()))
            .collect()
    }

    #[test]
    fn line_form_skips_comments_and_reports_broken_lines() {
        let text = b"# two 4x4 puzzles\n\n1...............\r\n1..x............\n..2.............\n";
        let records = read(text);
        assert_eq!(records.len(), 3);
        assert_eq!(records[0].as_ref().unwrap().line, 3);
        assert_eq!(
            records[1].as_ref().unwrap_err(),
            "line 4, column 4: expected a digit 1-4 or '.', found 'x'"
        );
        assert_eq!(records[2].as_ref().unwrap().number, 3);
    }

    #[test]
    fn binary_and_overlong_input_get_one_error() {
        let records = read(b"\x7fELF\x02\x01\x01\x00\x00\n\x00\x00\n");
        assert_eq!(records.len(), 1);
        assert_eq!(
            records[0].as_ref().unwrap_err(),
            "line 1, column 8: expected puzzle text, found byte 0x00: this looks like a binary file"
        );
        let mut long = vec![b'1'; MAX_LINE_BYTES + 10];
        long.extend_from_slice(b"\n................\n");
        let records = read(&long);
        assert_eq!(
            records[0].as_ref().unwrap_err(),
            "line 1, column 1048577: expected a puzzle, found a line longer than 1048576 bytes \
             (the longest a puzzle line may be); the rest of the input is not read"
        );
        assert_eq!(records.len(), 1);
    }

    #[test]
    fn json_is_detected_and_line_numbers_kept() {
        let records = read(b"# comment\n[[1,0,0,0],[0,0,0,0],\n[0,0,0,0],[0,0,0,x]]");
        assert_eq!(
            records[0].as_ref().unwrap_err(),
            "line 3, column 18: expected value"
        );
        let records = read(b"# comment\n\n  {\"box\": [1, 2],\n \"cells\": [[1, 0], [0, 3]]}\n");
        assert_eq!(
            records[0].as_ref().unwrap_err(),
            "line 3, column 3: puzzle 1: row 2, column 2: expected a number 0-2, found 3"
        );
    }

    #[test]
    fn a_csv_header_is_skipped() {
        let records = read(b"quizzes,solutions\n4..3.....1....2.,4213134221343421\n");
        assert_eq!(records.len(), 1);
        let record = records[0].as_ref().unwrap();
        assert_eq!(record.line, 2);
        assert!(record.solution.is_some());
    }

    #[test]
    fn a_hexadecimal_16x16_is_refused_with_the_conversion() {
        let hex = format!("0123456789ABCDEF{}", ".".repeat(240));
        let records = read(hex.as_bytes());
        assert_eq!(
            records[0].as_ref().unwrap_err(),
            "line 1, column 17: this puzzle uses both '0' and '.' for an empty cell: in sudolab's \
             line form 1-9 then A-G are the digits and '.' or '0' an empty cell; a 16x16 grid \
             written with 0-F (hexadecimal) converts with tr 0-9A-F 1-9A-G"
        );
        // A single symbol is named as such, not as "a digit 1-1".
        assert_eq!(
            read(b"7\n")[0].as_ref().unwrap_err(),
            "line 1, column 1: expected the digit 1 or '.', found '7'"
        );
    }

    #[test]
    fn the_rated_form_reads_its_second_field() {
        let records =
            read(b"# id, puzzle, rating\nab12 4..3.....1....2.  8.9\ncd34 4..3.....1....x.  7\n");
        assert_eq!(records.len(), 2);
        let record = records[0].as_ref().unwrap();
        assert_eq!((record.line, record.solution.is_none()), (2, true));
        assert_eq!(
            crate::model::to_line(&record.puzzle).unwrap(),
            "4..3.....1....2."
        );
        assert_eq!(
            records[1].as_ref().unwrap_err(),
            "line 3, column 20: expected a digit 1-4 or '.', found 'x'"
        );
        // A puzzle, its solution and a count stay the line form.
        let records = read(b"4..3.....1....2. 4213134221343421 1\n");
        assert_eq!(records[0].as_ref().unwrap().count, Some(1));
    }

    #[test]
    fn a_byte_order_mark_and_crlf_are_ignored() {
        let records = read(b"\xEF\xBB\xBF# made on Windows\r\n4..3.....1....2.\r\n");
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].as_ref().unwrap().line, 2);
        let records = read(b"\xEF\xBB\xBF[[4,0,0,3],[0,0,0,0],[0,1,0,0],[0,0,2,0]]\r\n");
        assert_eq!(
            crate::model::to_line(&records[0].as_ref().unwrap().puzzle).unwrap(),
            "4..3.....1....2."
        );
    }
}
