//! Rows as CSV, streamed: one line per puzzle and strategy.

use std::io::Write;

use crate::strategy::Counter;

use super::columns::{ROW_COLUMNS, RowValue, counter_value};
use super::{Report, Row};

/// Writes a header, then one record per [`Row`], as they come.
pub struct CsvWriter<W: Write> {
    inner: csv::Writer<W>,
    counters: Vec<Counter>,
}

impl<W: Write> CsvWriter<W> {
    /// Writes the header: the columns of [`ROW_COLUMNS`] (durations in microseconds), then one
    /// column per counter in `counters` (the union of the counters of the strategies compared;
    /// an engine's absent counter is an empty cell, not zero).
    pub fn new(out: W, counters: Vec<Counter>) -> csv::Result<CsvWriter<W>> {
        let mut inner = csv::Writer::from_writer(out);
        let mut header: Vec<String> = ROW_COLUMNS
            .iter()
            .map(|column| column.micros_name().into_owned())
            .collect();
        header.extend(counters.iter().map(|counter| counter.name().to_string()));
        inner.write_record(&header)?;
        Ok(CsvWriter { inner, counters })
    }

    /// Writes one row.
    pub fn write(&mut self, row: &Row) -> csv::Result<()> {
        let mut record: Vec<String> = ROW_COLUMNS
            .iter()
            .map(|column| text((column.value)(row)))
            .collect();
        record.extend(
            self.counters
                .iter()
                .map(|counter| text(counter_value(row, *counter))),
        );
        self.inner.write_record(&record)
    }

    /// Flushes and returns the output.
    pub fn finish(self) -> std::io::Result<W> {
        self.inner
            .into_inner()
            .map_err(|err| std::io::Error::other(err.to_string()))
    }
}

/// A value as the CSV writes it: a duration in microseconds with three decimals, nothing as
/// an empty cell.
fn text(value: RowValue<'_>) -> String {
    match value {
        RowValue::Text(text) => text.to_string(),
        RowValue::Small(count) => count.to_string(),
        RowValue::Int(count) => count.to_string(),
        RowValue::Bool(yes) => yes.to_string(),
        RowValue::Nanos(ns) => format!("{:.3}", ns as f64 / 1e3),
        RowValue::Empty => String::new(),
    }
}

/// The last line of the CSV of an incomplete report (interrupted, or merged without some
/// shards): a comment, `# INCOMPLETE: <reason>`, which `pandas.read_csv(comment="#")` skips;
/// `None` for a complete report. The rows are written as they come, before anyone knows that
/// the run will be interrupted, so the mark can only come last.
pub fn incomplete_line(report: &Report) -> Option<String> {
    report
        .incomplete_reason()
        .map(|reason| format!("# INCOMPLETE: {reason}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::row;

    #[test]
    fn rows_become_quoted_records_with_empty_absent_counters() {
        let mut writer =
            CsvWriter::new(Vec::new(), vec![Counter::Nodes, Counter::Guesses]).expect("header");
        let mut first = row(0, "fast", 1500, 7);
        first.source = "a, b.txt:1".to_string();
        writer.write(&first).expect("row");
        let text = String::from_utf8(writer.finish().expect("flush")).expect("utf-8");
        assert_eq!(
            text,
            "puzzle,source,side,clues,strategy,verdict,solutions,exhausted,stopped,time_us,\
             median_us,nodes,guesses\n\
             0,\"a, b.txt:1\",9,20,fast,unique,1,true,,1.500,1.500,7,\n"
        );
    }
}
