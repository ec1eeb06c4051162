//! Streaming readers for puzzle files: the line, grid and JSON forms, detected or forced.
//!
//! A reader yields one [`Record`] or one error per puzzle, so a broken line is reported and the
//! rest of the file still read. Line and grid files are read lazily with bounded memory per
//! line (a line over 1 MiB is reported, not stored); a JSON document is split into its puzzles as it
//! is read, so only one puzzle is held at a time.
//!
//! The pipelines of `count`, `solve` and `compare` cut a walk into [`Block`]s and run them on a
//! thread pool (`experiment::run_blocks`).

mod block;
mod json;
mod reader;
mod toml;
mod walk;

pub use block::{Block, Place};
pub use json::{MAX_JSON_VALUE_BYTES, grid_to_json, parse_json};
pub use reader::{Deferred, LineAt, MAX_LINE_BYTES, Reader, parse_line_into};
pub use walk::{Met, Source, Walk, Walked};

use crate::model::{Grid, ParseError};

crate::model::choice::choice! {
    /// The text form of a puzzle file.
    pub enum Format ("format", default Auto) {
        /// Decided from the first puzzle: JSON when it opens with `[` or `{`, the grid form when it
        /// is a row of small numbers, the rated corpora's `ID PUZZLE RATING` lines when it is
        /// one, the line form otherwise.
        Auto = "auto",
        /// One puzzle per line, `n*n` symbols.
        Line = "line",
        /// `n` lines of `n` numbers per puzzle, puzzles separated by a blank line.
        Grid = "grid",
        /// A JSON array of rows, an object `{"box": [r, c], "cells": [...]}`, or an array of those.
        Json = "json",
        /// A TOML document: one puzzle (the JSON object's members as keys) or `[[puzzles]]`;
        /// chosen by default for files whose name ends in `.toml`.
        Toml = "toml",
    }
}

/// One puzzle read from a source, with what the source claims about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// One-based position among the source's puzzles.
    pub number: usize,
    /// One-based line where the puzzle starts (for JSON, the puzzle's number: a JSON document
    /// may hold every puzzle on one line; its errors name the line and column).
    pub line: usize,
    /// The puzzle.
    pub puzzle: Grid,
    /// A known solution, when the source gives one.
    pub solution: Option<Grid>,
    /// A known number of solutions, when the source gives one.
    pub count: Option<u64>,
}

/// A puzzle that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// Malformed text, with its line and column.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A JSON value that parsed but does not describe a puzzle.
    #[error("line {line}, column {column}: puzzle {puzzle}: {message}")]
    Json {
        /// One-based line where the puzzle's value starts.
        line: usize,
        /// One-based column where it starts.
        column: usize,
        /// One-based puzzle number in the document.
        puzzle: usize,
        /// What is wrong.
        message: String,
    },
    /// The source could not be read.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
}

/// Where a puzzle came from, as a compact key: `FILE:LINE` (`puzzles.txt:17`). Built by
/// appending, without `format!`: the pipelines make one per puzzle.
pub fn key(source: &str, line: usize) -> String {
    let mut key = String::with_capacity(source.len() + 8);
    key.push_str(source);
    key.push(':');
    crate::model::push_decimal(&mut key, line as u64);
    key
}
