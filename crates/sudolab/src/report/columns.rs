//! The per-row columns, listed once in [`ROW_COLUMNS`]: the CSV report, the per-puzzle table
//! of the text, Markdown and HTML reports, and the Python bindings' Arrow table all go through
//! it (then one column per counter, [`counter_value`]), and each writes its typed values its
//! own way.

use std::borrow::Cow;

use crate::strategy::{Counter, Verdict};

use super::table::{Align, Cell, Emphasis};
use super::{Row, UnknownReasons};

/// A row's value in one column, typed; each export writes it its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowValue<'a> {
    /// Words: a name, a source, a verdict.
    Text(&'a str),
    /// A small count (the board's side, its clues): Arrow stores it in 32 bits.
    Small(u32),
    /// A count.
    Int(u64),
    /// Yes or no.
    Bool(bool),
    /// A duration in nanoseconds: the CSV and the tables write it in microseconds.
    Nanos(u64),
    /// Nothing: a search that did not stop early, a counter the engine does not have (an
    /// empty CSV cell, `-` in the tables, null in Arrow).
    Empty,
}

/// The type of a column's values (each value is of it, or [`RowValue::Empty`] where the
/// column is `nullable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// [`RowValue::Text`].
    Text,
    /// [`RowValue::Small`].
    Small,
    /// [`RowValue::Int`].
    Int,
    /// [`RowValue::Bool`].
    Bool,
    /// [`RowValue::Nanos`].
    Nanos,
}

/// How the per-puzzle table, written for people, shows a column.
#[derive(Clone, Copy, Debug)]
pub enum Shown {
    /// Not at all (the CSV and Arrow have it).
    Hidden,
    /// Its value as text (a duration in microseconds, with precision by size; nothing as `-`).
    Value,
    /// Its own text, from more than the value (`1+`, `unknown (timed out)`).
    As(fn(&Row) -> Cell),
}

/// One per-row column.
#[derive(Clone, Copy, Debug)]
pub struct RowColumn {
    /// The name as the JSON report and Arrow write it (`time_ns`); the CSV and the tables
    /// write a duration in microseconds, under [`RowColumn::micros_name`].
    pub name: &'static str,
    /// How the tables line up its cells.
    pub align: Align,
    /// The type of its values.
    pub kind: Kind,
    /// Whether a row may have no value ([`RowValue::Empty`]).
    pub nullable: bool,
    /// The row's value.
    pub value: fn(&Row) -> RowValue<'_>,
    /// How the per-puzzle table shows it.
    pub shown: Shown,
}

impl RowColumn {
    /// The name as the CSV and the tables write it: a duration's in microseconds (`time_us`),
    /// any other as [`RowColumn::name`].
    pub fn micros_name(&self) -> Cow<'static, str> {
        match (self.kind, self.name.strip_suffix("_ns")) {
            (Kind::Nanos, Some(stem)) => Cow::Owned(format!("{stem}_us")),
            _ => Cow::Borrowed(self.name),
        }
    }
}

/// The per-row columns, in the order every export writes them (the JSON report's row fields),
/// before one column per counter.
pub const ROW_COLUMNS: [RowColumn; 12] = [
    RowColumn {
        name: "puzzle",
        align: Align::Right,
        kind: Kind::Int,
        nullable: false,
        value: |row| RowValue::Int(row.puzzle),
        shown: Shown::Hidden,
    },
    RowColumn {
        name: "source",
        align: Align::Left,
        kind: Kind::Text,
        nullable: false,
        value: |row| RowValue::Text(&row.source),
        shown: Shown::Value,
    },
    RowColumn {
        name: "side",
        align: Align::Right,
        kind: Kind::Small,
        nullable: false,
        value: |row| RowValue::Small(row.side as u32),
        shown: Shown::Hidden,
    },
    RowColumn {
        name: "clues",
        align: Align::Right,
        kind: Kind::Small,
        nullable: false,
        value: |row| RowValue::Small(row.clues as u32),
        shown: Shown::Value,
    },
    RowColumn {
        name: "strategy",
        align: Align::Left,
        kind: Kind::Text,
        nullable: false,
        value: |row| RowValue::Text(&row.strategy),
        shown: Shown::Value,
    },
    RowColumn {
        name: "verdict",
        align: Align::Left,
        kind: Kind::Text,
        nullable: false,
        value: |row| RowValue::Text(row.verdict.as_str()),
        shown: Shown::As(verdict_for_people),
    },
    RowColumn {
        name: "solutions",
        align: Align::Right,
        kind: Kind::Int,
        nullable: false,
        value: |row| RowValue::Int(row.solutions),
        shown: Shown::As(solutions_for_people),
    },
    RowColumn {
        name: "exhausted",
        align: Align::Left,
        kind: Kind::Bool,
        nullable: false,
        value: |row| RowValue::Bool(row.exhausted),
        shown: Shown::Hidden,
    },
    RowColumn {
        name: "stopped",
        align: Align::Left,
        kind: Kind::Text,
        nullable: true,
        value: |row| {
            row.stopped
                .map_or(RowValue::Empty, |stop| RowValue::Text(stop.as_str()))
        },
        shown: Shown::Hidden,
    },
    RowColumn {
        name: "time_ns",
        align: Align::Right,
        kind: Kind::Nanos,
        nullable: false,
        value: |row| RowValue::Nanos(row.time_ns),
        shown: Shown::Value,
    },
    RowColumn {
        name: "median_ns",
        align: Align::Right,
        kind: Kind::Nanos,
        nullable: false,
        value: |row| RowValue::Nanos(row.median_ns),
        shown: Shown::Hidden,
    },
    RowColumn {
        name: "cpu_ns",
        align: Align::Right,
        kind: Kind::Nanos,
        nullable: true,
        value: |row| row.cpu_ns.map_or(RowValue::Empty, RowValue::Nanos),
        shown: Shown::Hidden,
    },
];

/// A counter's column after [`ROW_COLUMNS`] (named by [`Counter::name`], a count, right
/// aligned): its value in a row, [`RowValue::Empty`] when the engine does not have it (not
/// zero).
pub fn counter_value(row: &Row, counter: Counter) -> RowValue<'static> {
    row.counters
        .get(counter)
        .map_or(RowValue::Empty, RowValue::Int)
}

/// The verdict for people: `unknown (timed out)` gives the reason, in the words of the
/// summary's columns; an unknown verdict is a warning.
fn verdict_for_people(row: &Row) -> Cell {
    Cell {
        text: match UnknownReasons::reason(row.stopped) {
            Some(reason) if row.verdict == Verdict::Unknown => {
                format!("unknown ({})", reason.replace('_', " "))
            }
            _ => row.verdict.to_string(),
        },
        emphasis: if row.verdict == Verdict::Unknown {
            Emphasis::Warning
        } else {
            Emphasis::Plain
        },
    }
}

/// The count for people: `2+` when the search did not finish (a lower bound); `solved 1` is
/// the one solution asked for, not a lower bound.
fn solutions_for_people(row: &Row) -> Cell {
    let plus = if row.exhausted || row.verdict == Verdict::Solved {
        ""
    } else {
        "+"
    };
    format!("{}{plus}", row.solutions).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::row;
    use crate::strategy::Stop;

    /// The columns are the JSON report's row fields (the counters apart), and every value is
    /// of its column's kind.
    #[test]
    fn the_columns_are_the_json_row_fields_and_values_have_their_kind() {
        let mut stopped = row(1, "toggle", 2_000, 5);
        stopped.stopped = Some(Stop::Deadline);
        stopped.verdict = Verdict::Unknown;
        let rows = [row(0, "fast", 1_500, 7), stopped];
        let json = serde_json::to_value(&rows[0]).expect("a row serializes");
        let mut fields: Vec<&str> = json
            .as_object()
            .expect("a row is an object")
            .keys()
            .map(String::as_str)
            .filter(|name| *name != "counters")
            .collect();
        let mut names: Vec<&str> = ROW_COLUMNS.iter().map(|column| column.name).collect();
        fields.sort_unstable();
        names.sort_unstable();
        assert_eq!(names, fields);
        for column in &ROW_COLUMNS {
            for row in &rows {
                let kind = match (column.value)(row) {
                    RowValue::Text(_) => Kind::Text,
                    RowValue::Small(_) => Kind::Small,
                    RowValue::Int(_) => Kind::Int,
                    RowValue::Bool(_) => Kind::Bool,
                    RowValue::Nanos(_) => Kind::Nanos,
                    RowValue::Empty => {
                        assert!(column.nullable, "{}", column.name);
                        continue;
                    }
                };
                assert_eq!(kind, column.kind, "{}", column.name);
            }
        }
        let named = |name: &str| ROW_COLUMNS.iter().find(|c| c.name == name).expect(name);
        assert_eq!(named("time_ns").micros_name(), "time_us");
        assert_eq!(named("puzzle").micros_name(), "puzzle");
        assert_eq!(
            counter_value(&rows[0], Counter::Nodes),
            RowValue::Int(7),
            "a counter the engine has"
        );
        assert_eq!(counter_value(&rows[0], Counter::Guesses), RowValue::Empty);
    }
}
