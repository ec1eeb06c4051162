//! Puzzles handed in from Python: a string, a list of strings, a numpy `(N, n*n)` uint8 array,
//! an Arrow string column (pyarrow, polars, anything with the Arrow PyCapsule interface) or a
//! table with a `puzzle` column (such as the one `sudolab.read` returns).
//!
//! Puzzle `i` of a sequence is read as line `i + 1` of a file named `puzzles`, so that a
//! malformed one is reported as the command line reports a file's (`puzzles: line 4, column 7:
//! expected ...`) and its rows' `source` is `puzzles:4`.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use pyo3_arrow::input::AnyArray;

use std::sync::Arc;

use sudolab::experiment::Item;
use sudolab::model::{Features, Grid, Rules, RulesSpec, Shape, parse_line_record};

use crate::errors;

/// The name a sequence of puzzles goes by in sources and messages.
pub const NAME: &str = "puzzles";

/// What a puzzle input holds, taken from Python (with the GIL) to be parsed without it.
pub enum Raw {
    /// Puzzles in line form, with their sources (`None`: `puzzles:LINE`) and claims.
    Lines {
        puzzles: Vec<Option<String>>,
        sources: Option<Vec<Option<String>>>,
        solutions: Option<Vec<Option<String>>>,
        counts: Option<Vec<Option<u64>>>,
    },
    /// Row-major cell values, `width` per puzzle.
    Cells { bytes: Vec<u8>, width: usize },
}

/// Takes the puzzles out of a Python object.
pub fn take(object: &Bound<'_, PyAny>) -> PyResult<Raw> {
    let lines = |puzzles| Raw::Lines {
        puzzles,
        sources: None,
        solutions: None,
        counts: None,
    };
    if let Ok(text) = object.cast::<PyString>() {
        return Ok(lines(vec![Some(text.to_cow()?.into_owned())]));
    }
    if object.is_instance_of::<PyList>() || object.is_instance_of::<PyTuple>() {
        let mut puzzles = Vec::with_capacity(object.len()?);
        for (index, element) in object.try_iter()?.enumerate() {
            let element = element?;
            match element.cast::<PyString>() {
                Ok(text) => puzzles.push(Some(text.to_cow()?.into_owned())),
                Err(_) => {
                    return Err(PyTypeError::new_err(format!(
                        "puzzles[{index}]: expected a str (a puzzle in line form), found {}",
                        element.get_type().name()?
                    )));
                }
            }
        }
        return Ok(lines(puzzles));
    }
    if object.hasattr("__array_interface__")? && object.hasattr("dtype")? {
        return take_numpy(object);
    }
    if object.hasattr("__arrow_c_stream__")? || object.hasattr("__arrow_c_array__")? {
        let array: AnyArray = object.extract()?;
        return take_arrow(array);
    }
    Err(PyTypeError::new_err(format!(
        "puzzles: expected a str, a list of str, a numpy (N, n*n) uint8 array, or an Arrow \
         string column or table with a 'puzzle' column; found {}",
        object.get_type().name()?
    )))
}

fn take_numpy(array: &Bound<'_, PyAny>) -> PyResult<Raw> {
    let dtype: String = array.getattr("dtype")?.str()?.extract()?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if dtype != "uint8" || shape.len() != 2 {
        return Err(PyTypeError::new_err(format!(
            "puzzles: expected a numpy array of dtype uint8 and shape (N, n*n), found dtype \
             {dtype} and shape {shape:?}"
        )));
    }
    let bytes: Vec<u8> = array.call_method0("tobytes")?.extract()?;
    Ok(Raw::Cells {
        bytes,
        width: shape[1],
    })
}

fn strings(array: &ArrayRef, column: &str) -> PyResult<Vec<Option<String>>> {
    let collect = |values: &mut dyn Iterator<Item = Option<&str>>| {
        values.map(|value| value.map(str::to_string)).collect()
    };
    Ok(match array.data_type() {
        DataType::Utf8 => collect(&mut array.as_string::<i32>().iter()),
        DataType::LargeUtf8 => collect(&mut array.as_string::<i64>().iter()),
        DataType::Utf8View => collect(&mut array.as_string_view().iter()),
        other => {
            return Err(PyTypeError::new_err(format!(
                "{column}: expected an Arrow string column, found {other}"
            )));
        }
    })
}

fn integers(array: &ArrayRef, column: &str) -> PyResult<Vec<Option<u64>>> {
    use arrow_array::types::{Int32Type, Int64Type, UInt32Type, UInt64Type};
    let widen = |value: Option<i64>| value.and_then(|v| u64::try_from(v).ok());
    Ok(match array.data_type() {
        DataType::UInt64 => array.as_primitive::<UInt64Type>().iter().collect(),
        DataType::UInt32 => array
            .as_primitive::<UInt32Type>()
            .iter()
            .map(|v| v.map(u64::from))
            .collect(),
        DataType::Int64 => array
            .as_primitive::<Int64Type>()
            .iter()
            .map(widen)
            .collect(),
        DataType::Int32 => array
            .as_primitive::<Int32Type>()
            .iter()
            .map(|v| widen(v.map(i64::from)))
            .collect(),
        other => {
            return Err(PyTypeError::new_err(format!(
                "{column}: expected an integer column, found {other}"
            )));
        }
    })
}

fn take_arrow(array: AnyArray) -> PyResult<Raw> {
    let chunked = array.into_chunked_array()?;
    let (chunks, _field) = chunked.into_inner();
    let mut puzzles = Vec::new();
    let (mut sources, mut lines, mut solutions, mut counts) = (None, None, None, None);
    for chunk in &chunks {
        if let DataType::Struct(_) = chunk.data_type() {
            let table = chunk.as_struct();
            let column = |name: &str| table.column_by_name(name);
            let Some(puzzle) = column("puzzle") else {
                return Err(PyTypeError::new_err(format!(
                    "puzzles: a table of puzzles needs a 'puzzle' column; found {}",
                    table.column_names().join(", ")
                )));
            };
            puzzles.extend(strings(puzzle, "puzzle")?);
            if let Some(source) = column("source") {
                sources
                    .get_or_insert_with(Vec::new)
                    .extend(strings(source, "source")?);
            }
            if let Some(line) = column("line") {
                let line = integers(line, "line")?;
                lines.get_or_insert_with(Vec::new).extend(line);
            }
            if let Some(solution) = column("solution") {
                solutions
                    .get_or_insert_with(Vec::new)
                    .extend(strings(solution, "solution")?);
            }
            if let Some(count) = column("count") {
                let count = integers(count, "count")?;
                counts.get_or_insert_with(Vec::new).extend(count);
            }
        } else {
            puzzles.extend(strings(chunk, "puzzles")?);
        }
    }
    // A table from `sudolab.read` names each puzzle's file and line apart: join them as
    // the reports do (`FILE:LINE`).
    let sources = match (sources, lines) {
        (Some(sources), Some(lines)) => Some(
            sources
                .into_iter()
                .zip(lines)
                .map(|(source, line)| match (source, line) {
                    (Some(source), Some(line)) => Some(format!("{source}:{line}")),
                    (source, _) => source,
                })
                .collect(),
        ),
        (sources, _) => sources,
    };
    Ok(Raw::Lines {
        puzzles,
        sources,
        solutions,
        counts,
    })
}

/// Parses the puzzles (without the GIL): the first malformed one is the error, with its place.
pub fn parse(raw: Raw, shape: Option<Shape>) -> Result<Vec<Item>, String> {
    match raw {
        Raw::Lines {
            puzzles,
            sources,
            solutions,
            counts,
        } => {
            let mut items = Vec::with_capacity(puzzles.len());
            for (index, puzzle) in puzzles.into_iter().enumerate() {
                let line = index + 1;
                let source = sources
                    .as_ref()
                    .and_then(|sources| sources.get(index).cloned().flatten())
                    .unwrap_or_else(|| format!("{NAME}:{line}"));
                let Some(puzzle) = puzzle else {
                    return Err(format!(
                        "{NAME}: line {line}: expected a puzzle, found null"
                    ));
                };
                let record = parse_line_record(puzzle.trim().as_bytes(), shape, line)
                    .map_err(|err| format!("{NAME}: {err}"))?;
                let mut item = Item {
                    ordinal: index as u64,
                    source,
                    puzzle: record.puzzle,
                    solution: record.solution,
                    count: record.count,
                };
                if let Some(Some(solution)) = solutions.as_ref().and_then(|s| s.get(index)) {
                    let solution = parse_line_record(solution.trim().as_bytes(), shape, line)
                        .map_err(|err| format!("{NAME}: solution of {err}"))?;
                    item.solution = Some(solution.puzzle);
                }
                if let Some(Some(count)) = counts.as_ref().and_then(|c| c.get(index)) {
                    item.count = Some(*count);
                }
                items.push(item);
            }
            Ok(items)
        }
        Raw::Cells { bytes, width } => {
            let side = (width as f64).sqrt().round() as usize;
            if side * side != width || width == 0 {
                return Err(format!(
                    "{NAME}: a row of {width} cells is not a square board (n*n cells)"
                ));
            }
            let shape = match shape {
                Some(shape) if shape.side() == side => shape,
                Some(shape) => {
                    return Err(format!(
                        "{NAME}: box {shape} makes a {0}x{0} board, but a row has {width} cells",
                        shape.side()
                    ));
                }
                None => Shape::for_side(side).map_err(|err| format!("{NAME}: {err}"))?,
            };
            bytes
                .chunks(width)
                .enumerate()
                .map(|(index, cells)| {
                    let line = index + 1;
                    let puzzle = Grid::from_cells(shape, cells.to_vec())
                        .map_err(|err| format!("{NAME}: line {line}: {err}"))?;
                    Ok(Item {
                        ordinal: index as u64,
                        source: format!("{NAME}:{line}"),
                        puzzle,
                        solution: None,
                        count: None,
                    })
                })
                .collect()
        }
    }
}

/// Takes and parses in one go (for one-puzzle calls), raising `ParseError`.
pub fn items(object: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Vec<Item>> {
    let raw = take(object)?;
    parse(raw, shape).map_err(|message| errors::parse(&message))
}

/// The variant's rules (`variant="x,anti-king"`, the names of the command line's
/// `--variant`), when given.
pub fn variant(text: Option<&str>) -> PyResult<Option<RulesSpec>> {
    text.map(|text| {
        text.parse::<Features>()
            .map(Features::spec)
            .map_err(|err| errors::option(&format!("variant: {err}")))
    })
    .transpose()
}

/// Puts every plain puzzle under the variant's rules, as the command line's reader does with
/// `--variant` (rules built once per shape; a latin or jigsaw variant has no boxes).
pub fn apply_variant(items: &mut [Item], spec: Option<&RulesSpec>) -> Result<(), String> {
    let Some(spec) = spec.filter(|spec| !spec.is_plain()) else {
        return Ok(());
    };
    let boxless = spec.latin || spec.regions.is_some();
    let mut built: Option<(Shape, Arc<Rules>)> = None;
    for item in items {
        if item.puzzle.rules().is_some() {
            continue;
        }
        let shape = item.puzzle.shape();
        let rules = match &built {
            Some((built_for, rules)) if *built_for == shape => Arc::clone(rules),
            _ => {
                let boxes = (!boxless).then_some(shape);
                let rules = Rules::new(shape.side(), boxes, spec.clone())
                    .map(Arc::new)
                    .map_err(|err| format!("{}: variant: {err}", item.source))?;
                built = Some((shape, Arc::clone(&rules)));
                rules
            }
        };
        let plain = std::mem::replace(&mut item.puzzle, Grid::empty(shape));
        item.puzzle = plain.with_rules(rules);
    }
    Ok(())
}
