//! Decoding a JSON value into a puzzle: rows of numbers, a flat array of `n*n` numbers, a string
//! of line-form symbols, or an object `{"box": [r, c], "cells": ..., "solution": ...}` with a
//! variant's rules beside the cells; and [`grid_to_json`], the object for a grid.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::model::{Grid, Rules, RulesSpec, Shape, parse_line_record};

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

/// serde_json's message without its " at line L column C": the place is said first, as in
/// every error of sudolab's.
pub(super) fn strip_position(err: &serde_json::Error) -> String {
    let message = err.to_string();
    message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(head, _)| head)
        .to_string()
}

/// A puzzle and its solution, when it has one, from a JSON value: rows, a flat array, or an
/// object (plain, a variant, or one of `sudolab generate --json`'s puzzles). The error is the
/// message alone; the caller knows where the value started.
pub(in crate::corpus) fn puzzle_from_json(
    value: &Value,
    shape: Option<Shape>,
) -> Result<(Grid, Option<Grid>), String> {
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
                let meant = RulesSpec::FIELDS
                    .iter()
                    .find(|rule| **rule != key.as_str() && normalized(rule) == normalized(key))?;
                Some((key, meant))
            }) {
                return Err(format!(
                    "unknown member \"{unknown}\"; did you mean \"{meant}\"? (the variant \
                     rules are {})",
                    RulesSpec::FIELDS.join(", ")
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

/// Whether the object names any variant rule ([`RulesSpec::FIELDS`]).
fn has_rules(object: &serde_json::Map<String, Value>) -> bool {
    RulesSpec::FIELDS
        .iter()
        .any(|key| object.contains_key(*key))
}

/// A variant puzzle: `{"diagonals": true, "cells": ...}`, the rules beside the cells
/// (`docs/variants.md`). `cells` may also be one string in the line form.
fn variant_from_json(
    object: &serde_json::Map<String, Value>,
    shape: Option<Shape>,
) -> Result<(Grid, Option<Grid>), String> {
    let spec_members: serde_json::Map<String, Value> = object
        .iter()
        .filter(|(key, _)| RulesSpec::FIELDS.contains(&key.as_str()))
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
    use crate::corpus::parse_json;

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
    fn a_near_miss_of_a_rule_name_is_refused() {
        let (puzzle, _) = puzzle_from_json(
            &json!({"diagonals": true, "cells": "4..3.....1....2."}),
            None,
        )
        .unwrap();
        assert_eq!(puzzle.rules().unwrap().spec().features(), ["x"]);
        let err =
            puzzle_from_json(&json!({"Anti-King": true, "cells": [1, 0, 0, 0]}), None).unwrap_err();
        assert!(
            err.starts_with("unknown member \"Anti-King\"; did you mean \"anti_king\"?"),
            "{err}"
        );
        // Metadata that is no near miss is left alone.
        let (puzzle, _) =
            puzzle_from_json(&json!({"source": "x", "cells": "4..3.....1....2."}), None).unwrap();
        assert!(puzzle.rules().is_none());
    }
}
