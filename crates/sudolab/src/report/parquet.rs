//! The Parquet report (`.parquet`): the rows in the schema of the Python package's tables
//! ([`super::arrow`]), streamed in row groups, Snappy-compressed. Parquet holds one table, so
//! the problems and input errors stay in the other forms; the file's key-value metadata keeps
//! the report's format version, its context (the JSON report's `context`, as JSON) and, for an
//! interrupted or partly merged run, why it is incomplete.

use std::io::Write;

use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use crate::strategy::Counter;

use super::arrow::RowsBuilder;
use super::{FORMAT, Report, Row};

/// Rows held before they are written as one batch: bounds the memory of a long run.
const BATCH_ROWS: usize = 65_536;

/// The metadata key of the report's format version ([`FORMAT`]).
pub const FORMAT_KEY: &str = "sudolab.format";
/// The metadata key of the report's context, as the JSON report writes it.
pub const CONTEXT_KEY: &str = "sudolab.context";
/// The metadata key of the cross-check's problems, the JSON report's `problems`.
pub const PROBLEMS_KEY: &str = "sudolab.problems";
/// The metadata key of the input errors, the JSON report's `input_errors`.
pub const INPUT_ERRORS_KEY: &str = "sudolab.input_errors";
/// The metadata key present only in an incomplete report: why it is incomplete.
pub const INCOMPLETE_KEY: &str = "sudolab.incomplete";

/// A Parquet report being written: rows as they come, the metadata at the end.
pub struct ParquetWriter<W: Write + Send> {
    rows: RowsBuilder,
    writer: ArrowWriter<W>,
}

impl<W: Write + Send> ParquetWriter<W> {
    /// Starts the file on `out`, with one column per counter of `counters`.
    pub fn new(out: W, counters: &[Counter]) -> Result<ParquetWriter<W>, ParquetError> {
        let rows = RowsBuilder::new(counters, false);
        let properties = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build();
        let writer = ArrowWriter::try_new(out, rows.schema(), Some(properties))?;
        Ok(ParquetWriter { rows, writer })
    }

    /// Takes one row (written with the next full batch).
    pub fn write(&mut self, row: &Row) -> Result<(), ParquetError> {
        self.rows.add(row, None);
        if self.rows.len() >= BATCH_ROWS {
            self.flush_rows()?;
        }
        Ok(())
    }

    fn flush_rows(&mut self) -> Result<(), ParquetError> {
        if !self.rows.is_empty() {
            let batch = self.rows.batch()?;
            self.writer.write(&batch)?;
        }
        Ok(())
    }

    /// Writes the rows still held and the metadata of `report`, ends the file and gives the
    /// output back.
    pub fn finish(mut self, report: &Report) -> Result<W, ParquetError> {
        self.flush_rows()?;
        let mut metadata = vec![
            KeyValue::new(FORMAT_KEY.to_string(), FORMAT.to_string()),
            KeyValue::new(CONTEXT_KEY.to_string(), json(&report.context)?),
            KeyValue::new(PROBLEMS_KEY.to_string(), json(&report.problems)?),
            KeyValue::new(INPUT_ERRORS_KEY.to_string(), json(&report.input_errors)?),
        ];
        if let Some(reason) = report.incomplete_reason() {
            metadata.push(KeyValue::new(INCOMPLETE_KEY.to_string(), reason));
        }
        for pair in metadata {
            self.writer.append_key_value_metadata(pair);
        }
        self.writer.into_inner()
    }
}

/// A part of the report as the JSON report writes it.
fn json(value: &impl serde::Serialize) -> Result<String, ParquetError> {
    serde_json::to_string(value)
        .map_err(|err| ParquetError::General(format!("cannot write JSON: {err}")))
}

/// A whole report as a Parquet file in memory: its rows (every row a JSON report holds).
pub fn render(report: &Report) -> Result<Vec<u8>, ParquetError> {
    let counters = super::counter_union(&report.strategies);
    let mut writer = ParquetWriter::new(Vec::new(), &counters)?;
    for row in &report.rows {
        writer.write(row)?;
    }
    writer.finish(report)
}
