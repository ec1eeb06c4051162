//! The JSON report, streamed, and JSON lines.
//!
//! The document is one object: `format`, `rows` (every row, written as it comes), then the
//! context, summary, problems and the rest, written at the end. `sudolab report` reads it back
//! with [`read`].

use std::io::{self, Write};

use super::{Aggregator, Clock, FORMAT, FORMAT_1, Report, Row, UnknownReasons};
use crate::strategy::Verdict;

/// Streams a JSON report: rows first, the rest when the run ends.
pub struct JsonWriter<W: Write> {
    out: W,
    rows: u64,
}

impl<W: Write> JsonWriter<W> {
    /// Starts the document.
    pub fn new(mut out: W) -> io::Result<JsonWriter<W>> {
        write!(out, "{{\"format\":\"{FORMAT}\",\"rows\":[")?;
        Ok(JsonWriter { out, rows: 0 })
    }

    /// Writes one row.
    pub fn write(&mut self, row: &Row) -> io::Result<()> {
        if self.rows > 0 {
            self.out.write_all(b",")?;
        }
        self.out.write_all(b"\n")?;
        serde_json::to_writer(&mut self.out, row)?;
        self.rows += 1;
        Ok(())
    }

    /// Ends the document with everything but the rows of `report`.
    pub fn finish(mut self, report: &Report) -> io::Result<W> {
        self.out.write_all(b"\n]")?;
        let value = serde_json::to_value(report)?;
        let object = value.as_object().expect("a report serializes to an object");
        for (key, value) in object {
            if key == "rows" || key == "format" {
                continue;
            }
            write!(self.out, ",\n{}:", serde_json::to_string(key)?)?;
            serde_json::to_writer(&mut self.out, value)?;
        }
        self.out.write_all(b"}\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A JSON report that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Not JSON, or not a report.
    #[error("line {line}, column {column}: not a sudolab JSON report: {message}")]
    NotAReport {
        /// One-based line of the error.
        line: usize,
        /// One-based column of the error.
        column: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// A report of another format version.
    #[error("report format '{found}' is not one this sudolab reads ('{FORMAT}' or '{FORMAT_1}')")]
    Version {
        /// The version the file gives.
        found: String,
    },
}

/// Reads a JSON report written by [`JsonWriter`].
pub fn read(text: &str) -> Result<Report, ReadError> {
    let report: Report = serde_json::from_str(text).map_err(|err| ReadError::NotAReport {
        line: err.line(),
        column: err.column(),
        message: err.to_string(),
    })?;
    if report.format != FORMAT && report.format != FORMAT_1 {
        return Err(ReadError::Version {
            found: report.format,
        });
    }
    let mut report = report;
    if report.format == FORMAT_1 && !report.rows_truncated() {
        // Version 1 summaries averaged over timeouts and had no paired statistics: folded
        // again from the rows, they are this version's.
        let mut aggregator =
            Aggregator::new(report.strategies.clone(), report.context.baseline.clone())
                .with_clock(Clock::of(report.context.clock));
        for row in &report.rows {
            aggregator.tally(row);
        }
        let rows = std::mem::take(&mut report.rows);
        let complete = report.complete;
        report = aggregator.report(
            report.context,
            report.input_errors,
            report.problems,
            complete,
        );
        report.rows = rows;
        return Ok(report);
    }
    let every_row = !report.rows_truncated();
    for summary in &mut report.summary {
        // Before the `solved` verdict, `solved` counted the puzzles with a solution found
        // (now `found_any`), and no search was ever `solved`.
        if summary.found_any.is_none() {
            summary.found_any = Some(summary.solved);
            summary.solved = 0;
        }
        // Before `unknown_reasons`, the reasons were only in the rows.
        if summary.unknown_reasons.total() < summary.unknown && every_row {
            let mut reasons = UnknownReasons::default();
            for row in &report.rows {
                if row.strategy == summary.strategy && row.verdict == Verdict::Unknown {
                    reasons.add(row.stopped);
                }
            }
            summary.unknown_reasons = reasons;
        }
    }
    Ok(report)
}

/// What the JSON lines form writes after its rows, each a line of its own that is not a row:
/// one record per problem, `{"record":"problem",...}` with the fields of the JSON report's
/// `problems` (`puzzle`, `source`, `grid`, `kind`, `strategies`, `detail`), one per input
/// error, `{"record":"input_error","message":"..."}`, then for an incomplete report the mark
/// `{"complete":false,"puzzles":K,"reason":"..."}`. Empty for a clean, complete run.
pub fn trailer(report: &Report) -> String {
    let mut text = String::new();
    for problem in &report.problems {
        let mut record = serde_json::to_value(problem).expect("a problem serializes");
        if let Some(fields) = record.as_object_mut() {
            fields.insert("record".into(), "problem".into());
        }
        text.push_str(&record.to_string());
        text.push('\n');
    }
    for message in &report.input_errors {
        let record = serde_json::json!({"record": "input_error", "message": message});
        text.push_str(&record.to_string());
        text.push('\n');
    }
    if let Some(reason) = report.incomplete_reason() {
        let mark = serde_json::json!({
            "complete": false,
            "puzzles": report.puzzles,
            "reason": reason,
        });
        text.push_str(&mark.to_string());
        text.push('\n');
    }
    text
}

/// [`trailer`], or `None` when it is empty: what the report files append to the JSON lines
/// form after its rows.
pub fn incomplete_line(report: &Report) -> Option<String> {
    Some(trailer(report)).filter(|text| !text.is_empty())
}

/// Writes one row as a line of JSON (JSON lines).
pub fn write_line(out: &mut impl Write, row: &Row) -> io::Result<()> {
    serde_json::to_writer(&mut *out, row)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::row;
    use crate::report::{Aggregator, Context};

    #[test]
    fn a_streamed_report_reads_back_whole() {
        let rows = [row(0, "a", 10, 1), row(1, "a", 20, 2)];
        let mut aggregator = Aggregator::new(vec!["a".into()], None);
        let mut writer = JsonWriter::new(Vec::new()).expect("start");
        for row in &rows {
            writer.write(row).expect("row");
            aggregator.add(row.clone());
        }
        let report = aggregator.report(Context::default(), vec!["bad line".into()], vec![], true);
        let text = String::from_utf8(writer.finish(&report).expect("end")).expect("utf-8");
        assert_eq!(read(&text), Ok(report));
        assert_eq!(
            read("{\"format\": 3}")
                .expect_err("not a report")
                .to_string(),
            "line 1, column 12: not a sudolab JSON report: invalid type: integer `3`, expected \
             a string at line 1 column 12"
        );
    }
}
