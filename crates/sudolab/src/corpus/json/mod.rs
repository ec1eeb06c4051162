//! The JSON form: `[[0,3,0,...],...]` (rows), a flat array of `n*n` numbers, or an object
//! `{"box": [r, c], "cells": ..., "solution": ...}`; a document holds one puzzle or an array of
//! them. `scan` cuts a document into its puzzles as it is read, `decode` turns each one's value
//! into a grid.

mod decode;
mod scan;

pub use decode::grid_to_json;
pub(super) use decode::puzzle_from_json;
pub(super) use scan::JsonStream;
pub use scan::MAX_JSON_VALUE_BYTES;

use crate::model::Shape;

use super::{CorpusError, Record};

/// Parses a JSON document into records (one per puzzle, in order): the same as reading `text`
/// with a [`Reader`](super::Reader) in the JSON form.
pub fn parse_json(text: &str, shape: Option<Shape>) -> Vec<Result<Record, CorpusError>> {
    super::Reader::new(text.as_bytes(), super::Format::Json, shape).collect()
}
