//! `sudolab explain cover`: the exact-cover matrix of a small puzzle, as a table.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::bail;
use clap::Subcommand;

use sudolab::corpus::Format;
use sudolab::encode::{CoverMatrix, exact_cover_takes};
use sudolab::model::{Features, Grid, Shape};

use super::output::Out;
use super::trace::load_puzzle;
use super::{ReadArgs, Status};

// `defer`, as for the top-level commands (`cli::Command`): the arguments are defined only
// when this command is the one run.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub(crate) enum ExplainCommand {
    /// Print the exact-cover matrix of a small puzzle: items as columns, options as rows.
    ///
    /// Every option "cell holds digit" covers four items: its cell (p), its row and digit (r),
    /// its column and digit (c), its box and digit (b). A variant's other houses add theirs:
    /// jigsaw regions (j, instead of boxes), diagonals (d), windows (w); a Latin square has no
    /// boxes. Rows marked G are the givens; rows marked x clash with a given and leave the
    /// matrix when the givens are chosen; the last line marks the items the givens cover.
    /// A variant's pairs are secondary items, covered at most once: q (must-differ pair and
    /// digit), n (non-consecutive pair and digits D, D+1). Sides up to 6; killer cages have no
    /// matrix.
    ///
    /// Examples:
    ///   sudolab explain cover 4..3.....1....2.
    ///   sudolab explain cover --variant x 1...2...3...4...
    #[command(verbatim_doc_comment)]
    Cover {
        /// A puzzle in line form, or a file (its first puzzle); none, or '-', reads standard
        /// input.
        #[arg(value_name = "PUZZLE|FILE")]
        puzzle: Option<PathBuf>,
        /// Box shape, rows x columns.
        #[arg(long = "box", value_name = "RxC")]
        box_shape: Option<Shape>,
        /// Read the puzzle under a variant's rules: latin, x, windoku, anti-king, anti-knight,
        /// nonconsecutive, joined by ','.
        #[arg(long, value_name = "NAME,...")]
        variant: Option<Features>,
    },
}

pub(crate) fn run(command: &ExplainCommand) -> anyhow::Result<Status> {
    let ExplainCommand::Cover {
        puzzle,
        box_shape,
        variant,
    } = command;
    let read = ReadArgs {
        format: Format::Auto,
        box_shape: *box_shape,
        variant: *variant,
    };
    let puzzle = load_puzzle(puzzle.as_deref(), 1, read)?;
    if let Some(rules) = puzzle.rules()
        && let Err(why) = exact_cover_takes(rules)
    {
        bail!("{} puzzles have no exact-cover matrix: {why}", rules.name());
    }
    let mut out = Out::new();
    out.write_str(&cover_table(&puzzle)?)?;
    out.finish()?;
    Ok(Status::Success)
}

/// The exact-cover matrix of `puzzle` as a text table: the whole matrix of its blank board
/// (every cell and digit an option, every house and digit an item, in the order of
/// [`CoverMatrix`]), with the givens and the options they rule out marked.
fn cover_table(puzzle: &Grid) -> anyhow::Result<String> {
    let shape = puzzle.shape();
    let n = shape.side();
    let blank = match puzzle.rules() {
        Some(rules) => Grid::empty_with_rules(Arc::clone(rules)),
        None => Grid::empty(shape),
    };
    let matrix = CoverMatrix::build(&blank);
    if n > 6 {
        bail!(
            "explain cover prints the whole matrix, so sides up to 6 ({n}x{n} has {} options and \
             {} items); 'sudolab export cover' writes any size for an outside solver",
            matrix.options.len(),
            matrix.items.len()
        );
    }
    let names = column_names(&matrix);
    let group_starts = |index: usize| index == 0 || names[index][..1] != names[index - 1][..1];
    // The blank board's options are every cell and digit, cell-major: option (cell, digit) is
    // at cell * n + digit - 1. Its items: the primary ones, then its pairs' secondary ones.
    let covers = |cell: usize, digit: usize| -> Vec<u32> {
        let index = cell * n + digit - 1;
        let secondary = matrix.secondary_of(index);
        matrix.options[index]
            .items()
            .iter()
            .chain(secondary)
            .copied()
            .collect()
    };
    let mut given_items = vec![false; names.len()];
    for cell in 0..n * n {
        let value = puzzle.get(cell) as usize;
        if value != 0 {
            for item in covers(cell, value) {
                given_items[item as usize] = true;
            }
        }
    }
    let mut out = String::new();
    let label_width = 9;
    writeln!(
        out,
        "exact cover of {}{}: {} options (rows) x {} items (columns); {}",
        sudolab::model::to_line(puzzle).unwrap_or_default(),
        puzzle
            .rules()
            .map(|rules| format!(" ({})", rules.name()))
            .unwrap_or_default(),
        matrix.options.len(),
        names.len(),
        item_legend(&names)
    )
    .expect("String write");
    out.push_str(&header_lines(&names, label_width, group_starts));
    let mut live = 0;
    for cell in 0..n * n {
        for digit in 1..=n {
            let covered = covers(cell, digit);
            let value = puzzle.get(cell) as usize;
            let mark = if value == digit {
                'G'
            } else if value != 0 || covered.iter().any(|&item| given_items[item as usize]) {
                'x'
            } else {
                live += 1;
                ' '
            };
            let mut row = format!(
                "{mark} r{}c{}={digit}",
                shape.row_of(cell) + 1,
                shape.col_of(cell) + 1
            );
            while row.len() < label_width {
                row.push(' ');
            }
            for index in 0..names.len() {
                if group_starts(index) {
                    row.push(' ');
                }
                row.push(if covered.contains(&(index as u32)) {
                    '1'
                } else {
                    '.'
                });
            }
            writeln!(out, "{row}").expect("String write");
        }
    }
    out.push_str(&givens_footer(
        label_width,
        &given_items,
        matrix.primary,
        group_starts,
        live,
    ));
    Ok(out)
}

/// The matrix's item names as the table's columns: Knuth's names without the dot (p11, r12,
/// ...), one character per line of the header; numbers padded to one width per kind (q01.1 ->
/// q011 beside q12.1 -> q121), so that the digits line up.
fn column_names(matrix: &CoverMatrix) -> Vec<String> {
    let split: Vec<(String, String)> = matrix
        .items
        .iter()
        .map(|item| {
            let name = item.to_string();
            let (number, digit) = name[1..].split_once('.').expect("items are named xN.D");
            (format!("{}{number}", &name[..1]), digit.to_string())
        })
        .collect();
    let mut widths = std::collections::BTreeMap::new();
    for (head, _) in &split {
        let width = widths.entry(&head[..1]).or_insert(0);
        *width = head.len().max(*width);
    }
    split
        .iter()
        .map(|(head, digit)| {
            let width = widths[&head[..1]];
            format!(
                "{}{:0>pad$}{digit}",
                &head[..1],
                &head[1..],
                pad = width - 1
            )
        })
        .collect()
}

/// The names of the columns written downwards, one character per line.
fn header_lines(
    names: &[String],
    label_width: usize,
    group_starts: impl Fn(usize) -> bool,
) -> String {
    let mut out = String::new();
    let name_length = names.iter().map(String::len).max().unwrap_or(0);
    for line in 0..name_length {
        let mut header = " ".repeat(label_width);
        for (index, name) in names.iter().enumerate() {
            if group_starts(index) {
                header.push(' ');
            }
            header.push(name.chars().nth(line).unwrap_or(' '));
        }
        writeln!(out, "{}", header.trim_end()).expect("String write");
    }
    out
}

/// What the letters of the items in `names` stand for, in their order: `p = cell, r =
/// row+digit, ...`.
fn item_legend(names: &[String]) -> String {
    let mut legends: Vec<&str> = Vec::new();
    for name in names {
        let legend = match &name[..1] {
            "p" => "p = cell",
            "r" => "r = row+digit",
            "c" => "c = column+digit",
            "b" => "b = box+digit",
            "j" => "j = jigsaw region+digit",
            "d" => "d = diagonal+digit",
            "w" => "w = window+digit",
            "q" => "q = must-differ pair+digit (secondary: at most once)",
            "n" => "n = non-consecutive pair+digits D and D+1 (secondary)",
            _ => continue,
        };
        if !legends.contains(&legend) {
            legends.push(legend);
        }
    }
    legends.join(", ")
}

/// The last lines of the table: the items the givens cover, and what is left to search.
fn givens_footer(
    label_width: usize,
    given_items: &[bool],
    primary: usize,
    group_starts: impl Fn(usize) -> bool,
    live: usize,
) -> String {
    let mut out = format!("{:<label_width$}", "givens");
    for (index, covered) in given_items.iter().enumerate() {
        if group_starts(index) {
            out.push(' ');
        }
        out.push(if *covered { '^' } else { ' ' });
    }
    let mut out = out.trim_end().to_string();
    let free = given_items[..primary].iter().filter(|c| !**c).count();
    let secondary = given_items[primary..].iter().filter(|c| !**c).count();
    let secondary = if secondary > 0 {
        format!(" (and {secondary} secondary, to cover at most once)")
    } else {
        String::new()
    };
    writeln!(
        out,
        "\nafter choosing the givens: {free} items to cover{secondary}, {live} options left \
         (what dlx-knuth searches)"
    )
    .expect("String write");
    out
}
