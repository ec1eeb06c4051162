//! `sudolab trace`: search events as text, JSON lines or a step-through page.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use clap::{Args, ValueEnum};

use sudolab::corpus::{Format, Met, Walk};
use sudolab::model::{Features, Grid, Shape, parse_line_record};
use sudolab::strategy::{Limits, Verdict};
use sudolab::trace::{self, NotTraceable};

use super::input::walk_arguments;
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

    /// An outside solver, NAME=COMMAND as in 'compare --external': refused, with the reason
    /// (sudolab cannot see an outside program's search), before anything is traced or started.
    #[arg(long, value_name = "NAME=COMMAND")]
    external: Vec<String>,

    /// Input form, as in every command: auto (decided from the first puzzle), line, grid or
    /// json.
    #[arg(long, short = 'f', default_value = "auto", value_parser = parse_input_form)]
    format: Format,

    /// Output form: text, jsonl or html; by default from the --report file's extension (.html,
    /// .jsonl), otherwise text.
    #[arg(long, short = 'o', value_name = "FORM", value_parser = parse_output_form)]
    output: Option<TraceFormat>,

    /// Stop the search after this many events (at most 1,500,000 over all the strategies
    /// traced, about 1 GB in memory for the page, less for text and jsonl); the summary says
    /// the trace was cut.
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

/// Refuses `--external` solvers with the reason: sudolab cannot see an outside program's
/// search (nothing is started: a solver's program runs only when it is asked a puzzle).
fn refuse_outside(specs: &[String]) -> anyhow::Result<()> {
    let outside = super::compare::externals(specs, &super::compare::ExternalLimitArgs::default())?;
    if let Some(outside) = outside.first() {
        bail!(
            "{}",
            NotTraceable {
                strategy: outside.name().to_string(),
                reason: outside.untraceable_reason(),
            }
        );
    }
    Ok(())
}

pub(crate) fn run(args: &TraceArgs) -> anyhow::Result<Status> {
    let read = ReadArgs {
        format: args.format,
        box_shape: args.box_shape,
        variant: args.variant,
    };
    if let (Some(report), Some(input)) = (&args.report, &args.puzzle) {
        super::output::refuse_outputs_over_inputs(
            std::slice::from_ref(report),
            std::slice::from_ref(input),
            "report",
        )?;
    }
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
    let engines = strategies_named(&args.strategy)?;
    refuse_outside(&args.external)?;
    // Each strategy keeps up to --max-events events: together they keep the memory bound.
    if args.max_events.saturating_mul(engines.len()) > MAX_EVENTS {
        bail!(
            "--max-events {} for {} strategies keeps up to {} events, over the {MAX_EVENTS} \
             that fit in about 1 GB; give at most {} events per strategy",
            args.max_events,
            engines.len(),
            args.max_events.saturating_mul(engines.len()),
            MAX_EVENTS / engines.len()
        );
    }
    let mut traces = Vec::new();
    for engine in engines {
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
    // The text and JSON lines forms are written event by event; only the page is built whole.
    let write = |out: &mut dyn std::io::Write| -> std::io::Result<()> {
        match form {
            TraceFormat::Text => {
                for (index, traced) in traces.iter().enumerate() {
                    if index > 0 {
                        out.write_all(b"\n")?;
                    }
                    trace::write_text(traced, out)?;
                }
            }
            TraceFormat::Jsonl => {
                for traced in &traces {
                    trace::write_json_lines(traced, out)?;
                }
            }
            TraceFormat::Html => {
                out.write_all(trace::html::render_with_path(&traces, path.as_ref()).as_bytes())?;
            }
        }
        out.flush()
    };
    if let Some(report) = &args.report {
        let cannot = || format!("{}: cannot write", report.display());
        let file = std::fs::File::create(report).with_context(cannot)?;
        write(&mut std::io::BufWriter::new(file)).with_context(cannot)?;
    } else {
        write(&mut std::io::BufWriter::new(std::io::stdout().lock()))?;
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

/// The most events one trace command keeps, over all its strategies. Every event is kept in
/// memory until the search ends (its record and, for the page, its place in the page's data):
/// measured, the page of 1,500,000 events of `dlx-knuth` or `toggle` peaks at about 940 MB, the
/// text and JSON lines forms (written event by event) at less. A test holds the maximum to
/// run under an address-space limit of 1.4 GB.
const MAX_EVENTS: usize = 1_500_000;

/// Parses `--max-events`, 0 to [`MAX_EVENTS`].
fn parse_max_events(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(events) if events <= MAX_EVENTS => Ok(events),
        _ => Err(format!("expected 0 to {MAX_EVENTS} events, found '{text}'")),
    }
}
