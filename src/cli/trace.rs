//! `sudolab trace` (search events as text, JSON lines or a step-through page) and
//! `sudolab explain cover` (the exact-cover matrix of a small puzzle, as a table).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context as _, bail};
use clap::{Args, Subcommand, ValueEnum};

use sudolab::corpus::{Format, Met, Walk};
use sudolab::encode::{CoverMatrix, exact_cover_takes};
use sudolab::model::{Features, Grid, Shape, parse_line_record};
use sudolab::strategy::{Limits, Verdict};
use sudolab::trace::{self, NotTraceable};

use super::input::walk_arguments;
use super::output::Out;
use super::{ReadArgs, Status, strategies_named};

/// Trace forms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum TraceFormat {
    /// One event per line, indented by depth, cells named r3c7; then a summary.
    #[default]
    Text,
    /// One JSON object per event: {"depth","nodes","event",...}; a last "summary" object.
    Jsonl,
    /// One self-contained page that steps through the search on a drawn board.
    Html,
}

#[derive(Debug, Args)]
pub(crate) struct TraceArgs {
    /// A puzzle in line form (`4..3.....1....2.`), or a file of puzzles (see --puzzle); none,
    /// or '-', reads standard input.
    #[arg(value_name = "PUZZLE|FILE")]
    puzzle: Option<PathBuf>,

    /// Which puzzle of the file or standard input (1 = the first).
    #[arg(
        long = "puzzle",
        short = 'p',
        visible_alias = "puzzle-number",
        value_name = "N",
        default_value_t = 1,
        value_parser = super::parse_position
    )]
    puzzle_number: usize,

    /// Strategies to trace, comma-separated; two or more go side by side on the page. Only
    /// engines that report events can be traced; naming another one lists those that can.
    #[arg(long, short = 's', value_delimiter = ',', default_value = "toggle")]
    strategy: Vec<String>,

    /// Input form, as in every command: auto (decided from the first puzzle), line, grid or
    /// json.
    #[arg(long, short = 'f', default_value = "auto", value_parser = parse_input_form)]
    format: Format,

    /// Output form: text, jsonl or html; by default from the --report file's extension (.html,
    /// .jsonl), otherwise text.
    #[arg(long, short = 'o', value_name = "FORM", value_parser = parse_output_form)]
    output: Option<TraceFormat>,

    /// Stop the search after this many events (at most 10,000,000, about 1 GB in memory);
    /// the summary says the trace was cut.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = parse_max_events)]
    max_events: usize,

    /// Stop at this many solutions: 2 (the default) traces the uniqueness check that
    /// 'sudolab compare' times, 1 only the way to the first solution, 0 every solution.
    #[arg(long, short = 'l', default_value_t = 2, conflicts_with = "all")]
    limit: u64,

    /// Trace the search for every solution (the same as --limit 0).
    #[arg(long)]
    all: bool,

    /// Box shape, rows x columns, for sides with several (6x6 defaults to 2x3).
    #[arg(long = "box", value_name = "RxC")]
    box_shape: Option<Shape>,

    /// Read the puzzle under a variant's rules: latin, x, windoku, anti-king, anti-knight,
    /// nonconsecutive, joined by ','; the page draws its extra houses and cages.
    #[arg(long, value_name = "NAME,...")]
    variant: Option<Features>,

    /// Write to this file instead of standard output.
    #[arg(long, short = 'r', value_name = "FILE")]
    report: Option<PathBuf>,

    /// On the html page, beside the searches: how a person solves the puzzle (the path of
    /// easiest steps of 'sudolab steps'), each step clickable to show its board.
    #[arg(long)]
    human: bool,
}

impl TraceArgs {
    /// The output form: --output, or the --report file's extension, or text.
    fn form(&self) -> TraceFormat {
        self.output.unwrap_or_else(|| {
            let extension = self
                .report
                .as_deref()
                .and_then(Path::extension)
                .and_then(|ext| ext.to_str())
                .map(str::to_ascii_lowercase);
            match extension.as_deref() {
                Some("html" | "htm") => TraceFormat::Html,
                Some("jsonl") => TraceFormat::Jsonl,
                _ => TraceFormat::Text,
            }
        })
    }
}

/// Parses trace's `-f/--format`, the input form as in every command; an output form there (the
/// flag's meaning before) is refused with the flag that takes it now.
fn parse_input_form(text: &str) -> Result<Format, String> {
    if let Ok(format) = text.parse::<Format>() {
        return Ok(format);
    }
    if TraceFormat::from_str(text, false).is_ok() {
        return Err(format!(
            "'{text}' is an output form: trace writes it with -o/--output {text} (and to a file \
             with -r/--report FILE); -f/--format is the input form (auto, line, grid, json), as \
             in every command"
        ));
    }
    Err(format!("expected auto, line, grid or json, found '{text}'"))
}

/// Parses trace's `-o/--output`, the output form as in `solve` and `decode`; a file name there
/// (the flag's meaning before) is refused with the flag that takes it now.
fn parse_output_form(text: &str) -> Result<TraceFormat, String> {
    if let Ok(form) = TraceFormat::from_str(text, false) {
        return Ok(form);
    }
    let mut message = format!("expected text, jsonl or html, found '{text}'");
    if text.contains(['.', '/']) {
        write!(
            message,
            "; -o/--output is the output form, as in solve and decode: write to a file with \
             -r/--report {text} (the form then follows its extension)"
        )
        .expect("String write");
    }
    Err(message)
}

/// Reads the puzzle argument as `solve` and `count` read theirs (a file, `-` or nothing for
/// standard input, or a puzzle typed as the argument) and returns its puzzle `number`.
pub(crate) fn load_puzzle(
    argument: Option<&Path>,
    number: usize,
    read: ReadArgs,
) -> anyhow::Result<Grid> {
    let box_shape = read.box_shape;
    if let Some(path) = argument.filter(|p| p.as_os_str() != "-" && p.symlink_metadata().is_err())
        && Walk::typed_puzzle(path, box_shape).is_none()
    {
        let text = path.to_string_lossy();
        let has_extension = path
            .extension()
            .and_then(|ext| ext.to_str())
            .is_some_and(|ext| !ext.is_empty() && ext.chars().all(char::is_alphanumeric));
        if text.contains(['/', '\\']) || has_extension {
            bail!("{text}: cannot open: no such file or directory");
        }
        let why = match parse_line_record(text.trim().as_bytes(), box_shape, 1) {
            Err(err) => err.to_string(),
            Ok(_) => "a one-symbol (1x1) puzzle is taken for a mistake; '-' reads standard input"
                .to_string(),
        };
        bail!("'{text}' is neither a file nor a puzzle in line form: {why}");
    }
    let files: Vec<PathBuf> = argument.into_iter().map(Path::to_path_buf).collect();
    let walk = walk_arguments(&files, read);
    let name = walk.sources()[0].name();
    let mut seen = 0;
    for met in walk {
        match met {
            Met::Puzzle { record, .. } => {
                seen += 1;
                if seen == number {
                    return Ok(record.puzzle);
                }
            }
            // A malformed puzzle keeps its place in the numbering, as in `count`'s lines.
            Met::Problem {
                message,
                in_place_of_puzzle: true,
                ..
            } => {
                seen += 1;
                if seen == number {
                    bail!("puzzle {number} cannot be read: {message}");
                }
                note!("sudolab: {message}");
            }
            Met::Problem { message, .. } => bail!("{message}"),
        }
    }
    let plural = if seen == 1 { "" } else { "s" };
    bail!("{name}: holds {seen} puzzle{plural}, so there is no puzzle {number}");
}

pub(crate) fn run(args: &TraceArgs) -> anyhow::Result<Status> {
    let read = ReadArgs {
        format: args.format,
        box_shape: args.box_shape,
        variant: args.variant,
    };
    let puzzle = load_puzzle(args.puzzle.as_deref(), args.puzzle_number, read)?;
    let form = args.form();
    if args.human && form != TraceFormat::Html {
        bail!("--human draws a person's path on the html page: add -o html or --report FILE.html");
    }
    let path = args
        .human
        .then(|| sudolab::human::solve_path(&puzzle))
        .transpose()
        .map_err(|not_proper| anyhow::anyhow!("--human: {not_proper}"))?;
    let mut traces = Vec::new();
    for engine in strategies_named(&args.strategy)? {
        if let Err(refusal) = engine.accepts(&puzzle) {
            bail!("cannot trace this puzzle: {refusal}");
        }
        let traced = trace::record(
            engine,
            &puzzle,
            if args.all { 0 } else { args.limit },
            &Limits::default(),
            args.max_events,
        )
        .map_err(|err: NotTraceable| anyhow::anyhow!("{err}"))?;
        traces.push(traced);
    }
    let text = match form {
        TraceFormat::Text => traces
            .iter()
            .map(trace::to_text)
            .collect::<Vec<_>>()
            .join("\n"),
        TraceFormat::Jsonl => traces.iter().map(trace::to_json_lines).collect(),
        TraceFormat::Html => trace::html::render_with_path(&traces, path.as_ref()),
    };
    if let Some(path) = &args.report {
        std::fs::write(path, text).with_context(|| format!("{}: cannot write", path.display()))?;
    } else {
        let mut out = Out::new();
        out.write_str(&text)?;
        out.finish()?;
    }
    // The summary goes to standard error too when the events go to a file or to a page on
    // standard output; JSON lines on standard output end with their own summary object, so
    // standard error stays quiet. Like every diagnostic, it is dropped when standard error is
    // closed.
    if args.report.is_some() || form == TraceFormat::Html {
        for traced in &traces {
            use std::io::Write as _;
            let _ = std::io::stderr().write_all(trace::summary(traced).as_bytes());
        }
    }
    // Like `count`: a puzzle without a solution, or a search cut or given up, is a negative
    // result.
    let negative = traces
        .iter()
        .any(|traced| matches!(traced.verdict, Verdict::None | Verdict::Unknown));
    Ok(if negative {
        Status::Negative
    } else {
        Status::Success
    })
}

#[derive(Debug, Subcommand)]
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

pub(crate) fn run_explain(command: &ExplainCommand) -> anyhow::Result<Status> {
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

/// Parses `--max-events`: every event is kept in memory (about 110 bytes each), so the cap
/// keeps a trace under about a gigabyte.
fn parse_max_events(text: &str) -> Result<usize, String> {
    const MAX: usize = 10_000_000;
    match text.trim().parse::<usize>() {
        Ok(events) if events <= MAX => Ok(events),
        _ => Err(format!("expected 0 to {MAX} events, found '{text}'")),
    }
}
