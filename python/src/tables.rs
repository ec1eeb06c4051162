//! Arrow tables built from sudolab's results: one column builder per field, then one record
//! batch handed to Python as a `pyo3_arrow::PyTable` (the Arrow PyCapsule interface).

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, StringBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use pyo3::prelude::*;
use pyo3_arrow::PyTable;

use sudolab::report::{PuzzleProblem, Row};
use sudolab::strategy::Counter;

/// Columns of one table, in order.
#[derive(Default)]
pub struct Columns {
    fields: Vec<Field>,
    arrays: Vec<ArrayRef>,
}

impl Columns {
    pub fn strings<'a>(
        &mut self,
        name: &str,
        values: impl IntoIterator<Item = Option<&'a str>>,
    ) -> &mut Self {
        let mut builder = StringBuilder::new();
        let mut nulls = false;
        for value in values {
            nulls |= value.is_none();
            builder.append_option(value);
        }
        self.push(name, DataType::Utf8, nulls, Arc::new(builder.finish()))
    }

    pub fn u64s(&mut self, name: &str, values: impl IntoIterator<Item = Option<u64>>) -> &mut Self {
        let mut builder = UInt64Builder::new();
        let mut nulls = false;
        for value in values {
            nulls |= value.is_none();
            builder.append_option(value);
        }
        self.push(name, DataType::UInt64, nulls, Arc::new(builder.finish()))
    }

    pub fn u32s(&mut self, name: &str, values: impl IntoIterator<Item = Option<u32>>) -> &mut Self {
        let mut builder = UInt32Builder::new();
        let mut nulls = false;
        for value in values {
            nulls |= value.is_none();
            builder.append_option(value);
        }
        self.push(name, DataType::UInt32, nulls, Arc::new(builder.finish()))
    }

    pub fn f64s(&mut self, name: &str, values: impl IntoIterator<Item = Option<f64>>) -> &mut Self {
        let mut builder = Float64Builder::new();
        let mut nulls = false;
        for value in values {
            nulls |= value.is_none();
            builder.append_option(value);
        }
        self.push(name, DataType::Float64, nulls, Arc::new(builder.finish()))
    }

    pub fn bools(&mut self, name: &str, values: impl IntoIterator<Item = bool>) -> &mut Self {
        let mut builder = BooleanBuilder::new();
        for value in values {
            builder.append_value(value);
        }
        self.push(name, DataType::Boolean, false, Arc::new(builder.finish()))
    }

    fn push(&mut self, name: &str, data_type: DataType, nulls: bool, array: ArrayRef) -> &mut Self {
        self.fields.push(Field::new(name, data_type, nulls));
        self.arrays.push(array);
        self
    }

    /// The table, as Python sees it.
    pub fn finish(self) -> PyResult<PyTable> {
        let schema = Arc::new(Schema::new(self.fields));
        let batch = RecordBatch::try_new(Arc::clone(&schema), self.arrays)
            .map_err(|err| crate::errors::internal(&format!("cannot build a table: {err}")))?;
        PyTable::try_new(vec![batch], schema)
    }
}

/// The report rows, built as they come in the library's one row schema
/// (`sudolab::report::arrow`, which the command line's Parquet reports share): the columns of
/// `ROW_COLUMNS`, then one column per counter (absent counters are null, not zero), then
/// `solution` when asked.
pub struct RowsBuilder(sudolab::report::arrow::RowsBuilder);

impl RowsBuilder {
    pub fn new(counters: &[Counter], with_solutions: bool) -> RowsBuilder {
        RowsBuilder(sudolab::report::arrow::RowsBuilder::new(
            counters,
            with_solutions,
        ))
    }

    pub fn add(&mut self, row: &Row, solution: Option<&str>) {
        self.0.add(row, solution);
    }

    pub fn finish(mut self) -> PyResult<PyTable> {
        let batch = self
            .0
            .batch()
            .map_err(|err| crate::errors::internal(&format!("cannot build a table: {err}")))?;
        PyTable::try_new(vec![batch], self.0.schema())
    }
}

/// The cross-check's problems as a table: the JSON report's problem fields.
pub fn problems_table(problems: &[PuzzleProblem]) -> PyResult<PyTable> {
    let strategies: Vec<String> = problems
        .iter()
        .map(|p| p.problem.strategies.join(","))
        .collect();
    let mut columns = Columns::default();
    columns
        .u64s("puzzle", problems.iter().map(|p| Some(p.puzzle)))
        .strings("source", problems.iter().map(|p| Some(p.source.as_str())))
        .strings("grid", problems.iter().map(|p| Some(p.grid.as_str())))
        .strings(
            "kind",
            problems.iter().map(|p| Some(p.problem.kind.as_str())),
        )
        .strings("strategies", strategies.iter().map(|s| Some(s.as_str())))
        .strings(
            "detail",
            problems.iter().map(|p| Some(p.problem.detail.as_str())),
        );
    columns.finish()
}

/// One column of a table made here, as Python values (`None` for null), so that small
/// results can be looked at without an Arrow library.
pub fn column_values<'py>(
    py: Python<'py>,
    table: &PyTable,
    name: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{UInt32Type, UInt64Type};
    use pyo3::IntoPyObjectExt;
    let mut values = Vec::new();
    for batch in table.batches() {
        let Some(array) = batch.column_by_name(name) else {
            let names: Vec<String> = batch
                .schema()
                .fields()
                .iter()
                .map(|f| f.name().clone())
                .collect();
            return Err(pyo3::exceptions::PyKeyError::new_err(format!(
                "no column '{name}'; the columns: {}",
                names.join(", ")
            )));
        };
        match array.data_type() {
            DataType::Utf8 => {
                for value in array.as_string::<i32>() {
                    values.push(value.into_bound_py_any(py)?);
                }
            }
            DataType::UInt64 => {
                for value in array.as_primitive::<UInt64Type>() {
                    values.push(value.into_bound_py_any(py)?);
                }
            }
            DataType::UInt32 => {
                for value in array.as_primitive::<UInt32Type>() {
                    values.push(value.into_bound_py_any(py)?);
                }
            }
            DataType::Boolean => {
                for value in array.as_boolean() {
                    values.push(value.into_bound_py_any(py)?);
                }
            }
            other => {
                return Err(crate::errors::internal(&format!(
                    "column '{name}' has the unexpected type {other}"
                )));
            }
        }
    }
    Ok(values)
}
