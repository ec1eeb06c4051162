//! Rows as CSV, streamed: one line per puzzle and strategy; the problems and input errors of
//! the run in a companion file, `NAME.problems.csv` beside `NAME.csv`.

use std::io::Write;
use std::path::{Path, PathBuf};

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
        RowValue::Text(text) => inert(text),
        RowValue::Small(count) => count.to_string(),
        RowValue::Int(count) => count.to_string(),
        RowValue::Bool(yes) => yes.to_string(),
        RowValue::Nanos(ns) => format!("{:.3}", ns as f64 / 1e3),
        RowValue::Empty => String::new(),
    }
}

/// A text cell that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a
/// tab or a carriage return: a source named `=cmd|calc.txt`) behind a single quote, which
/// spreadsheets read as "this is text" (OWASP's advice on CSV injection); other text as it
/// is. Only text cells pass here: numbers, negative ones included, are written as numbers.
pub fn inert(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// The columns of the problems file, in order.
pub const PROBLEM_COLUMNS: [&str; 7] = [
    "record",
    "puzzle",
    "source",
    "grid",
    "kind",
    "strategies",
    "detail",
];

/// Where the problems of the CSV report at `path` go: `NAME.problems.csv` beside `NAME.csv`.
pub fn problems_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().map_or_else(
        || "report".into(),
        |stem| stem.to_string_lossy().into_owned(),
    );
    path.with_file_name(format!("{stem}.problems.csv"))
}

/// The problems file of `report`: a header ([`PROBLEM_COLUMNS`]), then one record per problem
/// (`problem`, and the fields of the JSON report's `problems`, the strategies joined by `;`)
/// and one per input error (`input_error`, its message under `detail`), then the
/// incompleteness comment of [`incomplete_line`]. Only the header for a clean run.
pub fn problems(report: &Report) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut write = |record: [String; 7]| {
        writer
            .write_record(record.iter().map(|cell| inert(cell)))
            .expect("writing to memory cannot fail");
    };
    write(PROBLEM_COLUMNS.map(str::to_string));
    for found in &report.problems {
        write([
            "problem".to_string(),
            found.puzzle.to_string(),
            found.source.clone(),
            found.grid.clone(),
            found.problem.kind.as_str().to_string(),
            found.problem.strategies.join(";"),
            found.problem.detail.clone(),
        ]);
    }
    for message in &report.input_errors {
        let mut record: [String; 7] = Default::default();
        record[0] = "input_error".to_string();
        record[6].clone_from(message);
        write(record);
    }
    let mut bytes = writer.into_inner().expect("writing to memory cannot fail");
    bytes.extend(incomplete_line(report).unwrap_or_default().bytes());
    String::from_utf8(bytes).expect("the cells are UTF-8")
}

/// Writes the problems file of the CSV report at `path` ([`problems_path`], [`problems`]),
/// under a temporary name renamed into place, so that a reader never sees half of it.
pub fn write_problems(path: &Path, report: &Report) -> std::io::Result<PathBuf> {
    let target = problems_path(path);
    let name = target
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    let partial = target.with_file_name(format!(".{name}.partial"));
    std::fs::write(&partial, problems(report))
        .and_then(|()| std::fs::rename(&partial, &target))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&partial);
        })?;
    Ok(target)
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
    fn text_cells_a_spreadsheet_would_run_are_made_inert_and_numbers_are_not() {
        let mut writer = CsvWriter::new(Vec::new(), vec![Counter::Nodes]).expect("header");
        for (puzzle, source) in [
            "=cmd|calc.txt:1",
            "+1.txt:2",
            "-2.txt:3",
            "@a.txt:4",
            "a=b:5",
        ]
        .into_iter()
        .enumerate()
        {
            let mut row = row(puzzle as u64, "fast", 1500, 7);
            row.source = source.to_string();
            writer.write(&row).expect("row");
        }
        let text = String::from_utf8(writer.finish().expect("flush")).expect("utf-8");
        let sources: Vec<&str> = text
            .lines()
            .skip(1)
            .map(|line| line.split(',').nth(1).expect("a source cell"))
            .collect();
        assert_eq!(
            sources,
            [
                "'=cmd|calc.txt:1",
                "'+1.txt:2",
                "'-2.txt:3",
                "'@a.txt:4",
                "a=b:5"
            ]
        );
        assert_eq!(inert("\tx"), "'\tx");
        assert_eq!(inert("\rx"), "'\rx");
        // Numbers are not text cells: a time or a count is written as the number it is.
        assert!(
            text.lines()
                .nth(1)
                .expect("a row")
                .ends_with(",1.500,1.500,7")
        );
    }

    #[test]
    fn problems_and_input_errors_go_to_the_problems_file() {
        use crate::check::{Problem, ProblemKind};
        use crate::report::{Aggregator, Context, PuzzleProblem};
        let problem = PuzzleProblem {
            puzzle: 3,
            source: "=a.txt:4".to_string(),
            grid: "1...".to_string(),
            problem: Problem {
                kind: ProblemKind::ContradictsKnownCount,
                strategies: vec!["fast".to_string(), "sat".to_string()],
                detail: "fast says unique (1), but the corpus gives 2 solutions".to_string(),
            },
        };
        let report = Aggregator::new(vec!["fast".into()], None).report(
            Context::default(),
            vec!["b.txt: line 2, column 3: unexpected 'x'".to_string()],
            vec![problem],
            true,
        );
        assert_eq!(
            problems(&report),
            "record,puzzle,source,grid,kind,strategies,detail\n\
             problem,3,'=a.txt:4,1...,contradicts_known_count,fast;sat,\
             \"fast says unique (1), but the corpus gives 2 solutions\"\n\
             input_error,,,,,,\"b.txt: line 2, column 3: unexpected 'x'\"\n"
        );
        assert_eq!(
            problems_path(Path::new("out/r.csv")),
            Path::new("out/r.problems.csv")
        );
    }

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
             median_us,cpu_us,nodes,guesses\n\
             0,\"a, b.txt:1\",9,20,fast,unique,1,true,,1.500,1.500,1.500,7,\n"
        );
    }
}
