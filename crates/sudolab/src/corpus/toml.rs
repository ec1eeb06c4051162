//! The TOML form: one puzzle (the JSON object's members as keys) or an array of tables
//! `[[puzzles]]`, each decoded as the JSON form decodes an object.

use serde_json::Value;

use crate::model::{ParseError, Shape};

use super::json::puzzle_from_json;
use super::{CorpusError, Record};

/// The puzzles of a TOML document: one puzzle (its members at the top level) or an array of
/// tables `[[puzzles]]`, each with the members of the JSON form.
pub(super) fn records_from_toml(
    text: &str,
    shape: Option<Shape>,
) -> Vec<Result<Record, CorpusError>> {
    let document: ::toml::Table = match ::toml::from_str(text) {
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
