//! The report rows as Arrow record batches: the one schema of the Python package's tables and
//! the command line's Parquet reports (`--report FILE.parquet`), so that both read alike.
//!
//! The columns are [`ROW_COLUMNS`] (the JSON report's row fields, in its order, durations in
//! nanoseconds), then one `UInt64` column per counter (null where the engine does not have the
//! counter, never zero), then `solution` when asked. Text is `Utf8`, a [`Kind::Small`] count
//! `UInt32`, any other count or duration `UInt64`, a flag `Boolean`; a column is nullable
//! exactly when [`RowColumn::nullable`] says so (counters and `solution` always are).

use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, StringBuilder, UInt32Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

use crate::strategy::Counter;

use super::Row;
use super::columns::{Kind, ROW_COLUMNS, RowColumn, RowValue, counter_value};

/// The name of the optional column of solutions (the Python package's `solve`).
pub const SOLUTION_COLUMN: &str = "solution";

/// The Arrow type of a column's kind.
pub fn data_type(kind: Kind) -> DataType {
    match kind {
        Kind::Text => DataType::Utf8,
        Kind::Small => DataType::UInt32,
        Kind::Int | Kind::Nanos => DataType::UInt64,
        Kind::Bool => DataType::Boolean,
    }
}

/// The schema of the rows with these counter columns (in the order given) and, when
/// `with_solutions`, the `solution` column.
pub fn row_schema(counters: &[Counter], with_solutions: bool) -> Schema {
    let fields = ROW_COLUMNS
        .iter()
        .map(|column| Field::new(column.name, data_type(column.kind), column.nullable))
        .chain(
            counters
                .iter()
                .map(|counter| Field::new(counter.name(), DataType::UInt64, true)),
        )
        .chain(with_solutions.then(|| Field::new(SOLUTION_COLUMN, DataType::Utf8, true)));
    Schema::new(fields.collect::<Vec<_>>())
}

/// One column's values as they come, in the Arrow type of its kind.
enum Builder {
    Text(StringBuilder),
    Small(UInt32Builder),
    Int(UInt64Builder),
    Bool(BooleanBuilder),
}

impl Builder {
    fn new(kind: Kind) -> Builder {
        match kind {
            Kind::Text => Builder::Text(StringBuilder::new()),
            Kind::Small => Builder::Small(UInt32Builder::new()),
            Kind::Int | Kind::Nanos => Builder::Int(UInt64Builder::new()),
            Kind::Bool => Builder::Bool(BooleanBuilder::new()),
        }
    }

    /// Appends a value, a duration as its nanoseconds. A value of another kind than the
    /// column's (which `columns`' tests rule out) is appended as null, so that the batch is
    /// refused by its schema rather than the process stopped.
    fn append(&mut self, value: RowValue<'_>) {
        match (self, value) {
            (Builder::Text(b), RowValue::Text(text)) => b.append_value(text),
            (Builder::Small(b), RowValue::Small(count)) => b.append_value(count),
            (Builder::Int(b), RowValue::Int(count) | RowValue::Nanos(count)) => {
                b.append_value(count);
            }
            (Builder::Bool(b), RowValue::Bool(yes)) => b.append_value(yes),
            (Builder::Text(b), _) => b.append_null(),
            (Builder::Small(b), _) => b.append_null(),
            (Builder::Int(b), _) => b.append_null(),
            (Builder::Bool(b), _) => b.append_null(),
        }
    }

    /// The values so far, the builder emptied for the next batch.
    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Text(b) => Arc::new(b.finish()),
            Builder::Small(b) => Arc::new(b.finish()),
            Builder::Int(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
        }
    }
}

/// Report rows built into record batches of [`row_schema`] as they come.
pub struct RowsBuilder {
    schema: SchemaRef,
    columns: Vec<(&'static RowColumn, Builder)>,
    counters: Vec<(Counter, Builder)>,
    solution: Option<StringBuilder>,
    rows: usize,
}

impl RowsBuilder {
    /// A builder of rows with these counter columns and, when `with_solutions`, a `solution`
    /// column.
    pub fn new(counters: &[Counter], with_solutions: bool) -> RowsBuilder {
        RowsBuilder {
            schema: Arc::new(row_schema(counters, with_solutions)),
            columns: ROW_COLUMNS
                .iter()
                .map(|column| (column, Builder::new(column.kind)))
                .collect(),
            counters: counters
                .iter()
                .map(|&counter| (counter, Builder::new(Kind::Int)))
                .collect(),
            solution: with_solutions.then(StringBuilder::new),
            rows: 0,
        }
    }

    /// The schema of every batch.
    pub fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// Adds a row; `solution` goes to the `solution` column when there is one.
    pub fn add(&mut self, row: &Row, solution: Option<&str>) {
        for (column, builder) in &mut self.columns {
            builder.append((column.value)(row));
        }
        for (counter, builder) in &mut self.counters {
            builder.append(counter_value(row, *counter));
        }
        if let Some(builder) = &mut self.solution {
            builder.append_option(solution);
        }
        self.rows += 1;
    }

    /// Rows added since the last batch.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was added since the last batch.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The rows added since the last batch, as one batch; the builder starts the next.
    pub fn batch(&mut self) -> Result<RecordBatch, ArrowError> {
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.schema.fields().len());
        arrays.extend(self.columns.iter_mut().map(|(_, builder)| builder.finish()));
        arrays.extend(
            self.counters
                .iter_mut()
                .map(|(_, builder)| builder.finish()),
        );
        if let Some(builder) = &mut self.solution {
            arrays.push(Arc::new(builder.finish()));
        }
        self.rows = 0;
        RecordBatch::try_new(self.schema(), arrays)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::row;
    use crate::strategy::{Stop, Verdict};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{UInt32Type, UInt64Type};

    #[test]
    fn rows_become_typed_columns_with_nulls_for_absent_values() {
        let mut builder = RowsBuilder::new(&[Counter::Nodes, Counter::Guesses], true);
        let mut stopped = row(1, "toggle", 2_000, 5);
        stopped.stopped = Some(Stop::Deadline);
        stopped.verdict = Verdict::Unknown;
        builder.add(&row(0, "fast", 1_500, 7), Some("123"));
        builder.add(&stopped, None);
        assert_eq!(builder.len(), 2);
        let batch = builder.batch().expect("the rows fit their schema");
        assert!(builder.is_empty(), "a batch starts the next");
        let names: Vec<&str> = batch
            .schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        assert_eq!(
            names,
            [
                "puzzle",
                "source",
                "side",
                "clues",
                "strategy",
                "verdict",
                "solutions",
                "exhausted",
                "stopped",
                "time_ns",
                "median_ns",
                "cpu_ns",
                "nodes",
                "guesses",
                "solution"
            ]
        );
        let column = |name: &str| batch.column_by_name(name).expect(name);
        assert_eq!(column("side").as_primitive::<UInt32Type>().value(0), 9);
        let strategies: Vec<_> = column("strategy").as_string::<i32>().iter().collect();
        assert_eq!(strategies, [Some("fast"), Some("toggle")]);
        let stops: Vec<_> = column("stopped").as_string::<i32>().iter().collect();
        assert_eq!(stops, [None, Some("deadline")]);
        let nodes: Vec<_> = column("nodes")
            .as_primitive::<UInt64Type>()
            .iter()
            .collect();
        assert_eq!(nodes, [Some(7), Some(5)]);
        assert_eq!(
            column("guesses").null_count(),
            2,
            "absent counters are null"
        );
        let solutions: Vec<_> = column("solution").as_string::<i32>().iter().collect();
        assert_eq!(solutions, [Some("123"), None]);
        assert!(!batch.schema_ref().field(0).is_nullable());
        assert!(batch.schema_ref().field(11).is_nullable(), "cpu_ns");
        assert_eq!(builder.batch().expect("an empty batch").num_rows(), 0);
    }
}
