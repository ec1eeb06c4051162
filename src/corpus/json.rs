//! The JSON form: `[[0,3,0,...],...]` (rows), a flat array of `n*n` numbers, or an object
//! `{"box": [r, c], "cells": ..., "solution": ...}`; a document holds one puzzle or an array of
//! them.

use serde_json::{Value, json};

use crate::model::{Grid, ParseError, Shape};

use super::{CorpusError, Record};

/// The JSON object for a grid: `{"box": [r, c], "cells": [[...], ...]}`.
pub fn grid_to_json(grid: &Grid) -> Value {
    let shape = grid.shape();
    let rows: Vec<&[u8]> = grid.cells().chunks(grid.side()).collect();
    json!({ "box": [shape.box_rows(), shape.box_cols()], "cells": rows })
}

/// Parses a JSON document into records (one per puzzle, in order). A syntax error ends the
/// document; a puzzle that does not make sense is reported and the others are kept.
pub fn parse_json(text: &str, shape: Option<Shape>) -> Vec<Result<Record, CorpusError>> {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(err) => {
            let message = err.to_string();
            // serde_json appends " at line L column C"; we say the place first, as everywhere.
            let message = message
                .rsplit_once(" at line ")
                .map_or(message.as_str(), |(head, _)| head)
                .to_string();
            return vec![Err(ParseError::at(err.line(), err.column(), message).into())];
        }
    };
    let puzzles: Vec<&Value> = if is_single_puzzle(&value) {
        vec![&value]
    } else if let Value::Array(items) = &value {
        items.iter().collect()
    } else {
        return vec![Err(CorpusError::Json {
            puzzle: 1,
            message: "expected an array of rows, an object with \"cells\", or an array of puzzles"
                .to_string(),
        })];
    };
    puzzles
        .into_iter()
        .enumerate()
        .map(|(idx, value)| {
            let number = idx + 1;
            puzzle_from_json(value, shape)
                .map(|(puzzle, solution)| Record {
                    number,
                    line: number,
                    puzzle,
                    solution,
                    count: None,
                })
                .map_err(|message| CorpusError::Json {
                    puzzle: number,
                    message,
                })
        })
        .collect()
}

/// Whether a value is one puzzle rather than an array of puzzles.
fn is_single_puzzle(value: &Value) -> bool {
    match value {
        Value::Object(_) => true,
        Value::Array(items) => match items.first() {
            Some(Value::Number(_)) => true,
            Some(Value::Array(row)) => row.first().is_none_or(Value::is_number),
            _ => false,
        },
        _ => false,
    }
}

fn puzzle_from_json(value: &Value, shape: Option<Shape>) -> Result<(Grid, Option<Grid>), String> {
    match value {
        Value::Object(object) => {
            let shape = match (object.get("box"), shape) {
                (_, Some(shape)) => Some(shape),
                (Some(box_value), None) => Some(shape_from_json(box_value)?),
                (None, None) => None,
            };
            let cells = object
                .get("cells")
                .ok_or("expected a \"cells\" field holding the puzzle")?;
            let puzzle = grid_from_json(cells, shape, true)?;
            let solution = object
                .get("solution")
                .map(|solution| grid_from_json(solution, Some(puzzle.shape()), false))
                .transpose()
                .map_err(|err| format!("solution: {err}"))?;
            Ok((puzzle, solution))
        }
        Value::Array(_) => Ok((grid_from_json(value, shape, true)?, None)),
        other => Err(format!("expected a puzzle, found {}", kind_of(other))),
    }
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
    let items = value
        .as_array()
        .ok_or_else(|| format!("expected an array of rows, found {}", kind_of(value)))?;
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
            "line 1, column 9: EOF while parsing a list"
        );
        let err = parse_json("[[1,0,0,0],[0,0,0],[0,0,0,0],[0,0,0,0]]", None)
            .pop()
            .unwrap()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "puzzle 1: row 2: expected 4 numbers, found 3"
        );
        let err = parse_json("[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,7]]", None)
            .pop()
            .unwrap()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "puzzle 1: row 4, column 4: expected a number 0-4, found 7"
        );
    }
}
