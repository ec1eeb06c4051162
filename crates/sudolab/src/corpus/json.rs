//! The JSON form: `[[0,3,0,...],...]` (rows), a flat array of `n*n` numbers, or an object
//! `{"box": [r, c], "cells": ..., "solution": ...}`; a document holds one puzzle or an array of
//! them.

use std::io::BufRead;

use serde_json::{Value, json};

use std::sync::Arc;

use crate::model::{Found, Grid, ParseError, Rules, RulesSpec, Shape, parse_line_record};

use super::{CorpusError, Record};

/// The JSON object for a grid: `{"box": [r, c], "cells": [[...], ...]}`, with a variant's rules
/// beside the cells (and no `box` when its boxes are not houses).
pub fn grid_to_json(grid: &Grid) -> Value {
    if let Some(rules) = grid.rules() {
        let rows: Vec<&[u8]> = grid.cells().chunks(grid.side()).collect();
        let mut object = match serde_json::to_value(rules.spec()) {
            Ok(Value::Object(object)) => object,
            _ => serde_json::Map::new(),
        };
        if rules.has_boxes() {
            let shape = grid.shape();
            object.insert("box".into(), json!([shape.box_rows(), shape.box_cols()]));
        }
        object.insert("cells".into(), json!(rows));
        return Value::Object(object);
    }
    let shape = grid.shape();
    let rows: Vec<&[u8]> = grid.cells().chunks(grid.side()).collect();
    json!({ "box": [shape.box_rows(), shape.box_cols()], "cells": rows })
}

/// Parses a JSON document into records (one per puzzle, in order): the same as reading `text`
/// with a [`Reader`](super::Reader) in the JSON form.
pub fn parse_json(text: &str, shape: Option<Shape>) -> Vec<Result<Record, CorpusError>> {
    super::Reader::new(text.as_bytes(), super::Format::Json, shape).collect()
}

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
/// is parsed and held in memory at a time (issue 22, D14: a 263 MB document took 6.2 GB when
/// parsed whole). Positions are tracked so that every error names its line and column.
pub(super) struct JsonStream {
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
    pub(super) fn new(shape: Option<Shape>, line: usize, column: usize) -> JsonStream {
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
    pub(super) fn next_record(
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

/// serde_json's message without its " at line L column C": the place is said first, as in
/// every error of sudolab's.
fn strip_position(err: &serde_json::Error) -> String {
    let message = err.to_string();
    message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(head, _)| head)
        .to_string()
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

fn puzzle_from_json(value: &Value, shape: Option<Shape>) -> Result<(Grid, Option<Grid>), String> {
    match value {
        // `sudolab generate --json`'s puzzles: `{"puzzle": {...}, "solution": {...}, ...}`.
        Value::Object(object) if !object.contains_key("cells") && object.contains_key("puzzle") => {
            let (puzzle, _) = puzzle_from_json(&object["puzzle"], shape)
                .map_err(|err| format!("puzzle: {err}"))?;
            with_solution(puzzle, object)
        }
        Value::Object(object) => {
            // Other members are metadata (what `solve --output json` and other tools add), but a
            // near miss of a rule's name is a typo that would silently give plain Sudoku.
            if let Some((unknown, meant)) = object.keys().find_map(|key| {
                let meant = RULE_KEYS
                    .iter()
                    .find(|rule| **rule != key.as_str() && normalized(rule) == normalized(key))?;
                Some((key, meant))
            }) {
                return Err(format!(
                    "unknown member \"{unknown}\"; did you mean \"{meant}\"? (the variant \
                     rules are {})",
                    RULE_KEYS.join(", ")
                ));
            }
            if has_rules(object) {
                return variant_from_json(object, shape);
            }
            let shape = match (object.get("box"), shape) {
                (_, Some(shape)) => Some(shape),
                (Some(box_value), None) => Some(shape_from_json(box_value)?),
                (None, None) => None,
            };
            let cells = object.get("cells").ok_or(
                "expected a \"cells\" field holding the puzzle (or \"puzzle\", as sudolab \
                 generate --json writes)",
            )?;
            with_solution(grid_from_json(cells, shape, true)?, object)
        }
        Value::Array(_) => Ok((grid_from_json(value, shape, true)?, None)),
        other => Err(format!("expected a puzzle, found {}", kind_of(other))),
    }
}

/// The members of a puzzle object that describe a variant's rules ([`RulesSpec`]'s fields).
const RULE_KEYS: [&str; 9] = [
    "latin",
    "diagonals",
    "windows",
    "regions",
    "anti_king",
    "anti_knight",
    "nonconsecutive",
    "cages",
    "different",
];

/// A member name as typos leave it: lowercase, without `-`, `_`, spaces and a final `s`.
fn normalized(key: &str) -> String {
    let mut letters: String = key
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if letters.ends_with('s') {
        letters.pop();
    }
    letters
}

fn has_rules(object: &serde_json::Map<String, Value>) -> bool {
    RULE_KEYS.iter().any(|key| object.contains_key(*key))
}

/// A variant puzzle: `{"diagonals": true, "cells": ...}`, the rules beside the cells
/// (`docs/variants.md`). `cells` may also be one string in the line form.
fn variant_from_json(
    object: &serde_json::Map<String, Value>,
    shape: Option<Shape>,
) -> Result<(Grid, Option<Grid>), String> {
    let spec_members: serde_json::Map<String, Value> = object
        .iter()
        .filter(|(key, _)| RULE_KEYS.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let spec: RulesSpec = serde_json::from_value(Value::Object(spec_members))
        .map_err(|err| format!("rules: {}", strip_position(&err)))?;
    let cells = object
        .get("cells")
        .ok_or("expected a \"cells\" field holding the puzzle")?;
    let side = side_of_cells(cells)?;
    let shape = match (object.get("box"), shape) {
        (Some(box_value), _) => Some(shape_from_json(box_value)?),
        (None, shape) => shape.filter(|_| !spec.latin && spec.regions.is_none()),
    };
    let rules = Arc::new(Rules::new(side, shape, spec).map_err(|err| err.to_string())?);
    let puzzle = grid_from_json(cells, Some(rules.shape()), true)?;
    let (puzzle, solution) = with_solution(puzzle.with_rules(rules), object)?;
    Ok((puzzle, solution))
}

/// The side of a puzzle's cells: rows of numbers, a flat array of `n*n` numbers, or a string
/// of `n*n` symbols (whitespace ignored).
fn side_of_cells(cells: &Value) -> Result<usize, String> {
    let count = match cells {
        Value::Array(items) if items.first().is_some_and(Value::is_array) => {
            return Ok(items.len());
        }
        Value::Array(items) => items.len(),
        Value::String(text) => text.chars().filter(|c| !c.is_whitespace()).count(),
        other => {
            return Err(format!(
                "cells: expected rows of numbers or a string of symbols, found {}",
                kind_of(other)
            ));
        }
    };
    (1..=crate::model::MAX_SIDE)
        .find(|side| side * side == count)
        .ok_or_else(|| format!("cells: expected n*n cells, found {count}"))
}

/// The puzzles of a TOML document: one puzzle (its members at the top level) or an array of
/// tables `[[puzzles]]`, each with the members of the JSON form.
pub(super) fn records_from_toml(
    text: &str,
    shape: Option<Shape>,
) -> Vec<Result<Record, CorpusError>> {
    let document: toml::Table = match toml::from_str(text) {
        Ok(document) => document,
        Err(err) => {
            let (line, column) = err
                .span()
                .map_or((1, 1), |span| line_and_column(text, span.start));
            let message = err.message().trim().replace('\n', "; ");
            return vec![Err(ParseError::at(line, column, message).into())];
        }
    };
    let value = match serde_json::to_value(&document) {
        Ok(value) => value,
        Err(err) => return vec![Err(ParseError::at(1, 1, err.to_string()).into())],
    };
    let puzzles: Vec<Value> = match value.get("puzzles") {
        Some(Value::Array(puzzles)) => puzzles.clone(),
        _ => vec![value],
    };
    puzzles
        .iter()
        .enumerate()
        .map(|(idx, puzzle)| {
            let number = idx + 1;
            puzzle_from_json(puzzle, shape)
                .map(|(puzzle, solution)| Record {
                    number,
                    line: number,
                    puzzle,
                    solution,
                    count: None,
                })
                .map_err(|message| CorpusError::Json {
                    line: 1,
                    column: 1,
                    puzzle: number,
                    message,
                })
        })
        .collect()
}

/// The one-based line and column of byte `offset` in `text`.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |at| at + 1) + 1;
    (line, column)
}

/// `puzzle` with the object's `"solution"`, when it has one (rows, or an object with `cells`).
fn with_solution(
    puzzle: Grid,
    object: &serde_json::Map<String, Value>,
) -> Result<(Grid, Option<Grid>), String> {
    let solution = object
        .get("solution")
        .map(|solution| grid_from_json(cells_of(solution), Some(puzzle.shape()), false))
        .transpose()
        .map_err(|err| format!("solution: {err}"))?;
    Ok((puzzle, solution))
}

/// A grid's cells: the value itself, or the `"cells"` of a `{"box": ..., "cells": ...}` object.
fn cells_of(value: &Value) -> &Value {
    value.get("cells").unwrap_or(value)
}

fn shape_from_json(value: &Value) -> Result<Shape, String> {
    let dims: Option<Vec<usize>> = value.as_array().and_then(|items| {
        items
            .iter()
            .map(|item| item.as_u64().map(|dim| dim as usize))
            .collect()
    });
    match dims.as_deref() {
        Some(&[rows, cols]) => Shape::new(rows, cols).map_err(|err| format!("box: {err}")),
        _ => Err(format!("box: expected [rows, columns], found {value}")),
    }
}

/// Cells as rows of numbers or one flat array.
fn grid_from_json(
    value: &Value,
    shape: Option<Shape>,
    empty_allowed: bool,
) -> Result<Grid, String> {
    if let Value::String(text) = value {
        // The line form's symbols in one string, whitespace ignored.
        let compact: String = text.split_whitespace().collect();
        let grid = parse_line_record(compact.as_bytes(), shape, 1)
            .map_err(|err| err.message)?
            .puzzle;
        if !empty_allowed && !grid.is_complete() {
            return Err("expected a complete grid, found empty cells".to_string());
        }
        return Ok(grid);
    }
    let items = value.as_array().ok_or_else(|| {
        format!(
            "expected an array of rows or a string of symbols, found {}",
            kind_of(value)
        )
    })?;
    let (flat, side): (Vec<&Value>, usize) = if items.first().is_some_and(Value::is_array) {
        let side = items.len();
        let mut flat = Vec::with_capacity(side * side);
        for (row_idx, row) in items.iter().enumerate() {
            let row = row
                .as_array()
                .ok_or_else(|| format!("row {}: expected an array of numbers", row_idx + 1))?;
            if row.len() != side {
                return Err(format!(
                    "row {}: expected {side} numbers, found {}",
                    row_idx + 1,
                    row.len()
                ));
            }
            flat.extend(row);
        }
        (flat, side)
    } else {
        let side = (1..=crate::model::MAX_SIDE)
            .find(|side| side * side == items.len())
            .ok_or_else(|| {
                format!(
                    "expected n rows of n numbers or a flat array of n*n numbers, found {} numbers",
                    items.len()
                )
            })?;
        (items.iter().collect(), side)
    };
    let shape = match shape {
        Some(shape) if shape.side() != side => {
            return Err(format!(
                "expected {0} rows of {0} numbers for box {shape}, found {side}",
                shape.side()
            ));
        }
        Some(shape) => shape,
        None => Shape::for_side(side).map_err(|err| err.to_string())?,
    };
    let lowest = u64::from(!empty_allowed);
    let cells = flat
        .iter()
        .enumerate()
        .map(|(idx, item)| {
            item.as_u64()
                .filter(|value| (lowest..=side as u64).contains(value))
                .map(|value| value as u8)
                .ok_or_else(|| {
                    format!(
                        "row {}, column {}: expected a number {lowest}-{side}, found {item}",
                        idx / side + 1,
                        idx % side + 1
                    )
                })
        })
        .collect::<Result<Vec<u8>, String>>()?;
    Ok(Grid::from_cells(shape, cells).expect("every value was checked against the side"))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_json_shape() {
        let rows = "[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]]";
        let one = parse_json(rows, None);
        assert_eq!(one.len(), 1);
        let object = r#"{"box":[2,3],"cells":[[1,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,6]]}"#;
        let grid = parse_json(object, None).pop().unwrap().unwrap().puzzle;
        assert_eq!(grid.shape().to_string(), "2x3");
        assert_eq!(grid_to_json(&grid).to_string(), object);
        let many = format!("[{rows},{object}]");
        assert_eq!(parse_json(&many, None).len(), 2);
    }

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
        // D22: no column 0, no line past the end of the input.
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
    fn reads_what_generate_json_writes() {
        let text = r#"{"checker":"fast","options":{"box":"2x2"},"puzzles":[
{"checks":3,"index":0,"puzzle":{"box":[2,2],"cells":[[4,0,0,3],[0,0,0,0],[0,1,0,0],[0,0,2,0]]},"solution":{"box":[2,2],"cells":[[4,2,1,3],[1,3,4,2],[2,1,3,4],[3,4,2,1]]}},
{"index":1,"puzzle":{"box":[2,2],"cells":[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]]}}
],"seed":1}"#;
        let records = parse_json(text, None);
        assert_eq!(records.len(), 2);
        let first = records[0].as_ref().unwrap();
        assert_eq!(first.line, 1);
        assert_eq!(
            crate::model::to_line(&first.puzzle).unwrap(),
            "4..3.....1....2."
        );
        assert_eq!(
            crate::model::to_line(first.solution.as_ref().unwrap()).unwrap(),
            "4213134221343421"
        );
        assert_eq!(records[1].as_ref().unwrap().puzzle.clue_count(), 2);
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
            "one line over 1 MiB (D13)"
        );
    }
}
