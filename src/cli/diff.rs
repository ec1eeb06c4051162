//! `sudolab diff`: two JSON reports of the same puzzles compared, run against run.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, ValueEnum};

use sudolab::report::{self, diff};

use super::Status;
use super::output::{refuse_outputs_over_inputs, write_whole};

/// How `diff` writes what it found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiffFormat {
    /// Aligned columns for a terminal.
    Text,
    /// A Markdown section (for a pull request or a lab notebook).
    Markdown,
    /// The whole diff as JSON, for scripts.
    Json,
    /// A standalone HTML page.
    Html,
}

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The report of the first run (before the change), written by 'compare --report
    /// FILE.json' or 'report'.
    #[arg(value_name = "BEFORE.json")]
    before: PathBuf,

    /// The report of the second run (after the change), over the same inputs.
    #[arg(value_name = "AFTER.json")]
    after: PathBuf,

    /// The form written on standard output (and into --out).
    #[arg(long, value_enum, default_value = "text")]
    format: DiffFormat,

    /// Also write the diff into FILE, in the form its extension names (.txt, .md, .json,
    /// .html).
    #[arg(long, value_name = "FILE")]
    out: Vec<PathBuf>,

    /// Seed of the bootstrap intervals of the time ratios: the same reports and seed give
    /// the same intervals.
    #[arg(long, value_name = "S", default_value_t = sudolab::report::stats::DEFAULT_SEED)]
    seed: u64,
}

pub(crate) fn run(args: &DiffArgs) -> anyhow::Result<Status> {
    let forms = args
        .out
        .iter()
        .map(|path| form_of(path))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let inputs = [args.before.clone(), args.after.clone()];
    refuse_outputs_over_inputs(&args.out, &inputs, "diff")?;
    let read = |path: &PathBuf| -> anyhow::Result<report::Report> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        report::json::read(&text).map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))
    };
    let (before, after) = (read(&args.before)?, read(&args.after)?);
    // Warnings are part of the diff, in every form, and are not repeated on standard error.
    let found = diff::diff(&before, &after, args.seed)?;
    for (path, form) in args.out.iter().zip(forms) {
        write_whole(path, render(form, &found).as_bytes())
            .with_context(|| format!("{}: cannot write the diff", path.display()))?;
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(render(args.format, &found).as_bytes())?;
    stdout.flush()?;
    if found.changed() {
        note!(
            "sudolab: {} verdict or count change(s) between the runs",
            found.changes.len()
        );
        return Ok(Status::Negative);
    }
    Ok(Status::Success)
}

fn render(form: DiffFormat, found: &diff::Diff) -> String {
    match form {
        DiffFormat::Text => diff::text(found),
        DiffFormat::Markdown => diff::markdown(found),
        DiffFormat::Json => diff::json(found),
        DiffFormat::Html => diff::html(found),
    }
}

fn form_of(path: &std::path::Path) -> anyhow::Result<DiffFormat> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("txt") => Ok(DiffFormat::Text),
        Some("md") => Ok(DiffFormat::Markdown),
        Some("json") => Ok(DiffFormat::Json),
        Some("html" | "htm") => Ok(DiffFormat::Html),
        _ => anyhow::bail!(
            "{}: the extension names the form of the diff: .txt, .md, .json or .html",
            path.display()
        ),
    }
}
