//! The report's tables as data: columns (name, alignment) and cells (text, emphasis), built
//! once from the report and drawn by every renderer, so that no renderer knows a column by its
//! position.

use crate::strategy::Counter;

use super::columns::{ROW_COLUMNS, RowColumn, RowValue, Shown, counter_value};
use super::{Report, Row, Summary, UnknownReasons};

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Names and words.
    Left,
    /// Numbers.
    Right,
}

/// What a cell draws attention to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Emphasis {
    /// Nothing.
    #[default]
    Plain,
    /// Something to look at (searches that ended without a verdict).
    Warning,
}

/// A column: its machine name (`mean_us`) and alignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The name, as CSV and JSON would write it.
    pub name: String,
    /// Alignment of its cells.
    pub align: Align,
}

impl Column {
    fn new(name: &str, align: Align) -> Column {
        Column {
            name: name.to_string(),
            align,
        }
    }

    /// The name for people: `mean_us` becomes `mean µs`, `nodes_mean` `nodes mean`.
    pub fn heading(&self) -> String {
        self.name.replace("_us", " µs").replace('_', " ")
    }
}

/// A cell: text and emphasis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// What it shows.
    pub text: String,
    /// What it draws attention to.
    pub emphasis: Emphasis,
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell {
            text,
            emphasis: Emphasis::Plain,
        }
    }
}

/// A table: columns, then rows of one cell per column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows, each with one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

/// The per-strategy table: verdict tallies (unknown emphasised when not zero), decided
/// searches, their times, PAR-2, the work in its named unit, and the geometric-mean ratio to
/// the baseline with its interval and p-value. The `solved` column (searches stopped at a solution limit of one)
/// is there when a strategy has any, and so is the column of each reason for `unknown`
/// (`timed_out`, `node_budget`, `unsupported`, `not_started`, `engine_failed`, `cancelled`)
/// that any strategy has.
pub fn summary_table(summaries: &[Summary]) -> Table {
    type Draw = Box<dyn Fn(&Summary) -> Cell>;
    fn count(value: fn(&Summary) -> u64) -> Draw {
        Box::new(move |s| value(s).to_string().into())
    }
    fn warn_count(value: fn(&Summary) -> u64) -> Draw {
        Box::new(move |s| Cell {
            text: value(s).to_string(),
            emphasis: if value(s) > 0 {
                Emphasis::Warning
            } else {
                Emphasis::Plain
            },
        })
    }
    let any = |value: fn(&Summary) -> u64| summaries.iter().any(|s| value(s) > 0);
    let mut columns: Vec<(&str, Align, Draw)> = vec![
        (
            "strategy",
            Align::Left,
            Box::new(|s| s.strategy.clone().into()),
        ),
        ("puzzles", Align::Right, count(|s| s.runs)),
        ("unique", Align::Right, count(|s| s.unique)),
        ("multiple", Align::Right, count(|s| s.multiple)),
        ("none", Align::Right, count(|s| s.none)),
    ];
    if any(|s| s.solved) {
        columns.push(("solved", Align::Right, count(|s| s.solved)));
    }
    columns.push(("unknown", Align::Right, warn_count(|s| s.unknown)));
    let reasons: [fn(&Summary) -> u64; 7] = [
        |s| s.unknown_reasons.budget,
        |s| s.unknown_reasons.timed_out,
        |s| s.unknown_reasons.node_budget,
        |s| s.unknown_reasons.unsupported,
        |s| s.unknown_reasons.not_started,
        |s| s.unknown_reasons.engine_failed,
        |s| s.unknown_reasons.cancelled,
    ];
    for ((name, _), reason) in UnknownReasons::default().named().into_iter().zip(reasons) {
        if any(reason) {
            columns.push((name, Align::Right, warn_count(reason)));
        }
    }
    let optional = |value: fn(&Summary) -> Option<String>| -> Draw {
        Box::new(move |s| value(s).unwrap_or_else(|| "-".to_string()).into())
    };
    columns.extend([
        ("decided", Align::Right, count(|s| s.decided)),
        ("median_us", Align::Right, micros_of(|s| s.median_us)),
        ("mean_us", Align::Right, micros_of(|s| s.mean_us)),
        ("p90_us", Align::Right, micros_of(|s| s.p90_us)),
        ("par2_us", Align::Right, micros_of(|s| s.par2_us)),
        (
            "work_mean",
            Align::Right,
            optional(|s| s.work_mean.map(|work| format!("{work:.1}"))),
        ),
        ("work_unit", Align::Left, optional(|s| s.work_unit.clone())),
        (
            "ratio",
            Align::Right,
            optional(|s| s.ratio.map(|ratio| format!("{ratio:.3}"))),
        ),
        (
            "ratio_95",
            Align::Right,
            optional(|s| Some(format!("{:.3}-{:.3}", s.ratio_low?, s.ratio_high?))),
        ),
        (
            "wilcoxon_p",
            Align::Right,
            optional(|s| s.wilcoxon_p.map(p_value)),
        ),
    ]);
    Table {
        columns: columns
            .iter()
            .map(|(name, align, _)| Column::new(name, *align))
            .collect(),
        rows: summaries
            .iter()
            .map(|summary| columns.iter().map(|(_, _, draw)| draw(summary)).collect())
            .collect(),
    }
}

/// A p-value: three decimals, or two significant digits below 0.001.
pub fn p_value(p: f64) -> String {
    if p < 1e-3 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// The sentences under a summary table that say what its statistics are, in the report's
/// terms: which searches count as decided, PAR-2's limit, the baseline and the bootstrap's
/// seed.
pub fn summary_notes(report: &Report) -> Vec<String> {
    let c = &report.context;
    let mut notes = vec![
        "decided: unique, multiple, none (or solved at a solution limit of one) within the \
         budget; median, mean and p90 are over decided searches only; par2: the mean with an \
         undecided search counted as twice the time limit"
            .to_string(),
    ];
    let mut limits: Vec<String> = Vec::new();
    for s in &report.summary {
        let limit = match s.par2_limit_from.as_str() {
            "timeout" => format!("timeout {} ms", micros(s.par2_limit_us / 1e3)),
            _ => format!(
                "no timeout: the slowest search of the run, {} µs",
                micros(s.par2_limit_us)
            ),
        };
        if !limits.contains(&limit) {
            limits.push(limit);
        }
    }
    if !limits.is_empty() {
        notes.push(format!("par2 time limit: {}", limits.join("; ")));
    }
    if let Some(baseline) = &c.baseline {
        notes.push(format!(
            "ratio: geometric mean of time / {baseline}'s time over the puzzles both decided; \
             ratio_95: its 95% percentile bootstrap interval ({} resamples, seed {}); \
             wilcoxon_p: two-sided Wilcoxon signed-rank test of the paired times (normal \
             approximation)",
            c.bootstrap_resamples
                .unwrap_or(super::stats::BOOTSTRAP_RESAMPLES),
            c.bootstrap_seed.unwrap_or(super::stats::DEFAULT_SEED),
        ));
    }
    notes
}

/// A microseconds cell.
fn micros_of(value: fn(&Summary) -> f64) -> Box<dyn Fn(&Summary) -> Cell> {
    Box::new(move |s| micros(value(s)).into())
}

/// The per-puzzle table: the columns of [`ROW_COLUMNS`] that it shows (where the puzzle came
/// from, its clues, the strategy, the verdict, the count, `2+` when the search did not finish,
/// the time), then one column per counter that any row reports (a `-` where a strategy does
/// not observe it).
pub fn rows_table(rows: &[Row]) -> Table {
    let mut counters: Vec<Counter> = rows
        .iter()
        .flat_map(|row| row.counters.iter().map(|(counter, _)| counter))
        .collect();
    counters.sort_unstable();
    counters.dedup();
    let shown: Vec<&RowColumn> = ROW_COLUMNS
        .iter()
        .filter(|column| !matches!(column.shown, Shown::Hidden))
        .collect();
    let mut columns: Vec<Column> = shown
        .iter()
        .map(|column| Column::new(&column.micros_name(), column.align))
        .collect();
    columns.extend(
        counters
            .iter()
            .map(|counter| Column::new(counter.name(), Align::Right)),
    );
    let rows = rows
        .iter()
        .map(|row| {
            let mut cells: Vec<Cell> = shown
                .iter()
                .map(|column| match column.shown {
                    Shown::As(cell) => cell(row),
                    Shown::Value | Shown::Hidden => text((column.value)(row)).into(),
                })
                .collect();
            cells.extend(
                counters
                    .iter()
                    .map(|counter| text(counter_value(row, *counter)).into()),
            );
            cells
        })
        .collect();
    Table { columns, rows }
}

/// A value as the tables write it: a duration in microseconds, with precision by size;
/// nothing as `-`.
fn text(value: RowValue<'_>) -> String {
    match value {
        RowValue::Text(text) => text.to_string(),
        RowValue::Small(count) => count.to_string(),
        RowValue::Int(count) => count.to_string(),
        RowValue::Bool(yes) => yes.to_string(),
        RowValue::Nanos(ns) => micros(ns as f64 / 1e3),
        RowValue::Empty => "-".to_string(),
    }
}

/// Microseconds with precision that suits their size.
pub fn micros(us: f64) -> String {
    if us >= 100.0 {
        format!("{us:.0}")
    } else {
        format!("{us:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::row;

    #[test]
    fn counter_columns_come_from_the_rows() {
        let mut sat = row(1, "sat", 2_500, 0);
        sat.counters = crate::strategy::Stats::new();
        sat.counters.set(Counter::SolverCalls, 2);
        sat.exhausted = false;
        let table = rows_table(&[row(0, "fast", 1_500, 7), sat]);
        let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "source",
                "clues",
                "strategy",
                "verdict",
                "solutions",
                "time_us",
                "nodes",
                "solver_calls"
            ]
        );
        let texts = |row: &Vec<Cell>| row.iter().map(|c| c.text.clone()).collect::<Vec<_>>();
        assert_eq!(
            texts(&table.rows[1]),
            ["t.txt:2", "21", "sat", "unique", "1+", "2.5", "-", "2"]
        );
        assert_eq!(table.columns[5].heading(), "time µs");
    }
}
