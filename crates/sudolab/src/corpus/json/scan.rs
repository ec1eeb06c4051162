//! Scanning a JSON document as it is read: the top-level array (or the `"puzzles"` array of a
//! top-level object) is cut into its elements, each handed to [`decode`](super::decode) alone.

use std::io::BufRead;

use serde_json::Value;

use crate::model::{Found, ParseError, Shape};

use super::decode::{puzzle_from_json, strip_position};
use crate::corpus::{CorpusError, Record};

/// The largest JSON value kept in memory at once: one puzzle of an array, or a document that
/// is a single puzzle (a 64x64 puzzle with its solution is about 20 KB).
pub const MAX_JSON_VALUE_BYTES: usize = 16 << 20;

/// Where the JSON stream stands between two puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Nothing read yet.
    Start,
    /// Inside an array of puzzles: `first` before its first element; `in_object` when the array
    /// is the `"puzzles"` member of an object (`sudolab generate --json`).
    Elements { first: bool, in_object: bool },
    /// Finished, or stopped by an error that leaves no safe place to go on from.
    Done,
}

/// Reads a JSON document from a byte stream one puzzle at a time: the top-level array (or the
/// `"puzzles"` array of a top-level object) is split into its elements, and only one element
/// is parsed and held in memory at a time, so that memory stays bounded by the largest puzzle
/// however long the document (a 263 MB document took 6.2 GB when parsed whole). Positions are
/// tracked so that every error names its line and column.
pub(in crate::corpus) struct JsonStream {
    stage: Stage,
    /// One-based position of the next byte.
    line: usize,
    column: usize,
    /// One-based position just after the last byte that was not whitespace (where an error
    /// about the end of the input points, rather than past a final newline).
    end_line: usize,
    end_column: usize,
    /// Puzzles handed out.
    number: usize,
    shape: Option<Shape>,
    /// The value being scanned.
    value: Vec<u8>,
    /// Whether every byte consumed is also kept in `recorded`: while a document may turn out to
    /// be one puzzle, which is then parsed whole with its own line breaks (for exact positions).
    recording: bool,
    recorded: Vec<u8>,
}

/// How a scan failed.
enum ScanError {
    Io(std::io::Error),
    Syntax(ParseError),
}

impl From<std::io::Error> for ScanError {
    fn from(err: std::io::Error) -> ScanError {
        ScanError::Io(err)
    }
}

impl From<ScanError> for CorpusError {
    fn from(err: ScanError) -> CorpusError {
        match err {
            ScanError::Io(err) => CorpusError::Io(err),
            ScanError::Syntax(err) => CorpusError::Parse(err),
        }
    }
}

impl JsonStream {
    /// A stream whose first byte is at `line`, `column`.
    pub(in crate::corpus) fn new(shape: Option<Shape>, line: usize, column: usize) -> JsonStream {
        JsonStream {
            stage: Stage::Start,
            line,
            column,
            end_line: line,
            end_column: column,
            number: 0,
            shape,
            value: Vec::new(),
            recording: false,
            recorded: Vec::new(),
        }
    }

    /// The next puzzle of the document, or `None` at its end.
    pub(in crate::corpus) fn next_record(
        &mut self,
        input: &mut impl BufRead,
    ) -> Option<Result<Record, CorpusError>> {
        let result = self.step(input);
        if matches!(
            result,
            Some(Err(CorpusError::Io(_) | CorpusError::Parse(_)))
        ) {
            self.stage = Stage::Done;
        }
        result
    }

    fn step(&mut self, input: &mut impl BufRead) -> Option<Result<Record, CorpusError>> {
        match self.stage {
            Stage::Done => None,
            Stage::Start => self.start(input).transpose(),
            Stage::Elements { first, in_object } => {
                self.next_element(input, first, in_object).transpose()
            }
        }
    }

    fn start(&mut self, input: &mut impl BufRead) -> Result<Option<Record>, CorpusError> {
        match self.skip_whitespace(input)? {
            None => Err(self
                .at_end("expected a JSON document, found the end of the input")
                .into()),
            Some(b'[') => {
                let (line, column) = (self.line, self.column);
                self.start_recording();
                self.advance(input, b'[');
                match self.skip_whitespace(input)? {
                    Some(b']') => {
                        self.advance(input, b']');
                        self.expect_end(input)?;
                        Ok(None)
                    }
                    Some(byte) if byte == b'-' || byte.is_ascii_digit() => {
                        // A flat array of cells: the whole document is one puzzle.
                        self.scan_rest_of_array(input, true)?;
                        self.expect_end(input)?;
                        self.stage = Stage::Done;
                        self.record_from_value(line, column).map(Some)
                    }
                    _ => {
                        let (first_line, first_column) = (self.line, self.column);
                        self.scan_value(input)?;
                        if is_row(&self.value) {
                            // Rows of cells: the whole document is one puzzle.
                            self.scan_rest_of_array(input, false)?;
                            self.expect_end(input)?;
                            self.stage = Stage::Done;
                            return self.record_from_value(line, column).map(Some);
                        }
                        self.stop_recording();
                        self.stage = Stage::Elements {
                            first: false,
                            in_object: false,
                        };
                        self.record_from_value(first_line, first_column).map(Some)
                    }
                }
            }
            Some(b'{') => self.start_object(input),
            Some(byte) => Err(self
                .error_here(format!(
                    "expected a JSON array or object, found {}",
                    Found(byte)
                ))
                .into()),
        }
    }

    /// A top-level object: one puzzle (`{"box": ..., "cells": ...}`), or a document whose
    /// `"puzzles"` member is an array of puzzles (what `sudolab generate --json` writes).
    fn start_object(&mut self, input: &mut impl BufRead) -> Result<Option<Record>, CorpusError> {
        let (line, column) = (self.line, self.column);
        self.start_recording();
        self.advance(input, b'{');
        let mut first = true;
        loop {
            match self.skip_whitespace(input)? {
                Some(b'}') => {
                    self.advance(input, b'}');
                    self.expect_end(input)?;
                    self.stage = Stage::Done;
                    self.value = self.stop_recording();
                    return self.record_from_value(line, column).map(Some);
                }
                Some(b',') if !first => {
                    self.advance(input, b',');
                    self.skip_whitespace(input)?;
                }
                None => {
                    return Err(self
                        .at_end("expected '}' closing the object, found the end of the input")
                        .into());
                }
                Some(_) if first => {}
                Some(byte) => {
                    return Err(self
                        .error_here(format!(
                            "expected ',' or '}}' in the object, found {}",
                            Found(byte)
                        ))
                        .into());
                }
            }
            first = false;
            let (key_line, key_column) = (self.line, self.column);
            if self.skip_whitespace(input)? != Some(b'"') {
                return Err(self
                    .unexpected(input, "a member name in double quotes")?
                    .into());
            }
            self.scan_value(input)?;
            let key: String = serde_json::from_slice(&self.value).map_err(|err| {
                ScanError::Syntax(ParseError::at(key_line, key_column, strip_position(&err)))
            })?;
            if self.skip_whitespace(input)? != Some(b':') {
                return Err(self.unexpected(input, "':' after the member name")?.into());
            }
            self.advance(input, b':');
            if key == "puzzles" && self.skip_whitespace(input)? == Some(b'[') {
                self.stop_recording();
                self.advance(input, b'[');
                self.stage = Stage::Elements {
                    first: true,
                    in_object: true,
                };
                return self.next_element(input, true, true);
            }
            self.scan_value(input)?;
            self.check_recorded(line, column)?;
        }
    }

    fn start_recording(&mut self) {
        self.recording = true;
        self.recorded.clear();
    }

    /// Stops recording; what was recorded.
    fn stop_recording(&mut self) -> Vec<u8> {
        self.recording = false;
        std::mem::take(&mut self.recorded)
    }

    /// A document that may be one puzzle must stay small enough to hold.
    fn check_recorded(&self, line: usize, column: usize) -> Result<(), ScanError> {
        if self.recorded.len() > MAX_JSON_VALUE_BYTES {
            return Err(ScanError::Syntax(ParseError::at(
                line,
                column,
                format!("expected a puzzle, found one over {MAX_JSON_VALUE_BYTES} bytes"),
            )));
        }
        Ok(())
    }

    /// The next element of an array of puzzles, or `None` after its `]`.
    fn next_element(
        &mut self,
        input: &mut impl BufRead,
        first: bool,
        in_object: bool,
    ) -> Result<Option<Record>, CorpusError> {
        match self.skip_whitespace(input)? {
            Some(b']') => {
                self.advance(input, b']');
                if in_object {
                    self.skip_rest_of_object(input)?;
                }
                self.expect_end(input)?;
                self.stage = Stage::Done;
                return Ok(None);
            }
            Some(b',') if !first => {
                self.advance(input, b',');
                self.skip_whitespace(input)?;
            }
            Some(_) if first => {}
            None => {
                return Err(self
                    .at_end(
                        "expected ',' or ']' in the array of puzzles, found the end of the input",
                    )
                    .into());
            }
            Some(byte) => {
                return Err(self
                    .error_here(format!(
                        "expected ',' or ']' in the array of puzzles, found {}",
                        Found(byte)
                    ))
                    .into());
            }
        }
        let (line, column) = (self.line, self.column);
        self.scan_value(input)?;
        self.stage = Stage::Elements {
            first: false,
            in_object,
        };
        self.record_from_value(line, column).map(Some)
    }

    /// Parses the value just scanned as the next puzzle, starting at `line`, `column`.
    fn record_from_value(&mut self, line: usize, column: usize) -> Result<Record, CorpusError> {
        self.number += 1;
        let number = self.number;
        let value: Value = serde_json::from_slice(&self.value).map_err(|err| {
            let (err_line, err_column) = (err.line(), err.column().max(1));
            let (at_line, at_column) = if err_line <= 1 {
                (line, column + err_column - 1)
            } else {
                (line + err_line - 1, err_column)
            };
            ParseError::at(at_line, at_column, strip_position(&err))
        })?;
        puzzle_from_json(&value, self.shape)
            // A JSON record's "line" is its number, as documented on `Record::line`: a one-line
            // document would otherwise label every puzzle `FILE:1`; errors give the real place.
            .map(|(puzzle, solution)| Record {
                number,
                line: number,
                puzzle,
                solution,
                count: None,
            })
            .map_err(|message| CorpusError::Json {
                line,
                column,
                puzzle: number,
                message,
            })
    }

    /// After the `"puzzles"` array: the object's other members, skipped, and its `}`.
    fn skip_rest_of_object(&mut self, input: &mut impl BufRead) -> Result<(), ScanError> {
        loop {
            match self.skip_whitespace(input)? {
                Some(b'}') => {
                    self.advance(input, b'}');
                    return Ok(());
                }
                Some(b',') => {
                    self.advance(input, b',');
                    if self.skip_whitespace(input)? != Some(b'"') {
                        return Err(self.unexpected(input, "a member name in double quotes")?);
                    }
                    self.scan_value(input)?;
                    if self.skip_whitespace(input)? != Some(b':') {
                        return Err(self.unexpected(input, "':' after the member name")?);
                    }
                    self.advance(input, b':');
                    self.scan_value(input)?;
                }
                _ => return Err(self.unexpected(input, "',' or '}' in the object")?),
            }
        }
    }

    /// The rest of an array that is one puzzle, up to and with its `]`; the whole array, as
    /// recorded since its `[`, is left in `value`. `first` when no element was read yet.
    fn scan_rest_of_array(
        &mut self,
        input: &mut impl BufRead,
        first: bool,
    ) -> Result<(), ScanError> {
        let (line, column) = (self.line, self.column);
        let mut first = first;
        loop {
            match self.skip_whitespace(input)? {
                Some(b']') => {
                    self.advance(input, b']');
                    self.value = self.stop_recording();
                    return Ok(());
                }
                Some(b',') if !first => {
                    self.advance(input, b',');
                    self.skip_whitespace(input)?;
                }
                Some(_) if first => {}
                _ => return Err(self.unexpected(input, "',' or ']' in the puzzle's array")?),
            }
            first = false;
            self.scan_value(input)?;
            self.check_recorded(line, column)?;
        }
    }

    /// One JSON value's bytes into `self.value`, checked only for its extent (strings, nesting);
    /// serde_json checks the rest when it parses them.
    fn scan_value(&mut self, input: &mut impl BufRead) -> Result<(), ScanError> {
        self.value.clear();
        self.skip_whitespace(input)?;
        let (line, column) = (self.line, self.column);
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        loop {
            let Some(byte) = peek(input)? else {
                if self.value.is_empty() {
                    return Err(ScanError::Syntax(
                        self.at_end("expected a value, found the end of the input"),
                    ));
                }
                if depth == 0 && !in_string {
                    return Ok(());
                }
                return Err(ScanError::Syntax(self.at_end(if in_string {
                    "expected '\"' closing the string, found the end of the input"
                } else {
                    "expected the value to be closed, found the end of the input"
                })));
            };
            if in_string {
                if escaped {
                    escaped = false;
                } else if byte == b'\\' {
                    escaped = true;
                } else if byte == b'"' {
                    in_string = false;
                }
            } else {
                match byte {
                    b'"' => in_string = true,
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' if depth > 0 => depth -= 1,
                    b']' | b'}' | b',' | b':' if depth == 0 => {
                        if self.value.is_empty() {
                            return Err(ScanError::Syntax(
                                self.error_here(format!("expected a value, found {}", Found(byte))),
                            ));
                        }
                        return Ok(());
                    }
                    byte if byte.is_ascii_whitespace() && depth == 0 => return Ok(()),
                    _ => {}
                }
            }
            self.advance(input, byte);
            self.value.push(byte);
            if self.value.len() > MAX_JSON_VALUE_BYTES {
                return Err(ScanError::Syntax(ParseError::at(
                    line,
                    column,
                    format!("expected a puzzle, found a value over {MAX_JSON_VALUE_BYTES} bytes"),
                )));
            }
            if depth == 0 && !in_string && matches!(byte, b']' | b'}' | b'"') {
                return Ok(());
            }
        }
    }

    /// Skips whitespace; the next byte, not consumed, or `None` at the end of the input.
    fn skip_whitespace(&mut self, input: &mut impl BufRead) -> Result<Option<u8>, ScanError> {
        while let Some(byte) = peek(input)? {
            if !byte.is_ascii_whitespace() {
                return Ok(Some(byte));
            }
            self.advance(input, byte);
        }
        Ok(None)
    }

    /// Only whitespace may follow the document.
    fn expect_end(&mut self, input: &mut impl BufRead) -> Result<(), ScanError> {
        match self.skip_whitespace(input)? {
            None => Ok(()),
            Some(byte) => Err(ScanError::Syntax(self.error_here(format!(
                "expected the end of the JSON document, found {}",
                Found(byte)
            )))),
        }
    }

    /// Consumes `byte`, which `peek` just returned.
    fn advance(&mut self, input: &mut impl BufRead, byte: u8) {
        input.consume(1);
        if self.recording {
            self.recorded.push(byte);
        }
        if byte == b'\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
            if !byte.is_ascii_whitespace() {
                (self.end_line, self.end_column) = (self.line, self.column);
            }
        }
    }

    fn error_here(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.line, self.column, message)
    }

    fn at_end(&self, message: &str) -> ParseError {
        ParseError::at(self.end_line, self.end_column, message)
    }

    /// The error for an unexpected byte or end where `what` was expected.
    fn unexpected(&mut self, input: &mut impl BufRead, what: &str) -> Result<ScanError, ScanError> {
        Ok(ScanError::Syntax(match peek(input)? {
            None => self.at_end(&format!("expected {what}, found the end of the input")),
            Some(byte) => self.error_here(format!("expected {what}, found {}", Found(byte))),
        }))
    }
}

/// The next byte of the input, not consumed, or `None` at its end.
fn peek(input: &mut impl BufRead) -> Result<Option<u8>, ScanError> {
    loop {
        match input.fill_buf() {
            Ok(buffer) => return Ok(buffer.first().copied()),
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err.into()),
        }
    }
}

/// Whether a scanned array element is a row of cells (`[0, 3, ...]` or `[]`) rather than a
/// puzzle: an array whose first item is a number.
fn is_row(value: &[u8]) -> bool {
    let Some(rest) = value.strip_prefix(b"[") else {
        return false;
    };
    matches!(
        rest.iter().find(|byte| !byte.is_ascii_whitespace()),
        Some(b'-' | b'0'..=b'9' | b']')
    )
}

#[cfg(test)]
mod tests {
    use crate::corpus::parse_json;

    #[test]
    fn explains_bad_json() {
        let err = parse_json("[[1,0],[0", None).pop().unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, column 10: expected the value to be closed, found the end of the input"
        );
        let err = parse_json("[[1,0,0,0],[0,0,0],[0,0,0,0],[0,0,0,0]]", None)
            .pop()
            .unwrap()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, column 1: puzzle 1: row 2: expected 4 numbers, found 3"
        );
        let err = parse_json("[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,7]]", None)
            .pop()
            .unwrap()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, column 1: puzzle 1: row 4, column 4: expected a number 0-4, found 7"
        );
    }

    fn errors(text: &str) -> Vec<String> {
        parse_json(text, None)
            .into_iter()
            .filter_map(Result::err)
            .map(|err| err.to_string())
            .collect()
    }

    #[test]
    fn every_json_error_names_a_line_and_a_column_of_the_input() {
        // Never column 0, never a line past the end of the input.
        assert_eq!(
            errors("[\n"),
            ["line 1, column 2: expected a value, found the end of the input"]
        );
        assert_eq!(
            errors(""),
            ["line 1, column 1: expected a JSON document, found the end of the input"]
        );
        // A puzzle that makes no sense is named where it starts, and the next one is still read.
        let text = "[\n  [[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],\n  {\"cells\": [1, 2]},\n  [[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]]\n]\n";
        let records = parse_json(text, None);
        assert_eq!(records.len(), 3);
        assert_eq!(
            records[1].as_ref().unwrap_err().to_string(),
            "line 3, column 3: puzzle 2: expected n rows of n numbers or a flat array of n*n \
             numbers, found 2 numbers"
        );
        assert_eq!(records[2].as_ref().unwrap().line, 3);
        // A syntax error inside a puzzle points into it.
        assert_eq!(
            errors("[\n [[1,0,0,0],\n  [0,0,0,0],[0,0,0,0],[0,0,0,x]]]"),
            ["line 3, column 30: expected value"]
        );
        assert_eq!(
            errors("[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]] x"),
            ["line 1, column 43: expected the end of the JSON document, found 'x'"]
        );
    }

    #[test]
    fn a_long_array_is_read_one_puzzle_at_a_time() {
        let puzzle = "[[4,0,0,3],[0,0,0,0],[0,1,0,0],[0,0,2,0]]";
        let text = format!("[{}]", vec![puzzle; 50_000].join(","));
        let mut reader =
            crate::corpus::Reader::new(text.as_bytes(), crate::corpus::Format::Auto, None);
        let mut count = 0;
        for record in reader.by_ref() {
            assert_eq!(record.unwrap().puzzle.clue_count(), 4);
            count += 1;
        }
        assert_eq!(count, 50_000);
        assert!(
            text.len() > crate::corpus::MAX_LINE_BYTES,
            "one line longer than the line reader keeps is still read as JSON"
        );
    }
}
