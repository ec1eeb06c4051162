//! `sudolab report`: re-render saved JSON reports, merging shards.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;

use sudolab::report::{self, Format, Report, render_bytes};

use super::Status;
use super::output::{colour_on_stdout, refuse_outputs_over_inputs, write_plots, write_whole};

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// JSON reports written by 'sudolab compare --report FILE.json'. Several are merged: they
    /// must be the shards 1..N of one run (same inputs, strategies, options and commit), each
    /// once, with no puzzle twice.
    #[arg(value_name = "REPORT.json", required = true)]
    inputs: Vec<PathBuf>,

    /// Write the report here; the extension picks the form (.md, .csv, .json, .jsonl, .html,
    /// .parquet: the rows in the Python tables' schema, .txt). Repeat for several. The text table is always printed on standard output.
    #[arg(long, short = 'r', value_name = "FILE")]
    report: Vec<PathBuf>,

    /// Write the plots as SVG files into this directory (made when missing): cactus.svg and
    /// scatter-NAME.svg per strategy but the baseline, as 'compare --plots'. Default: none.
    #[arg(long, value_name = "DIR")]
    plots: Option<PathBuf>,

    /// Merge the shards given even when some are missing; the merged report is marked
    /// incomplete and names the missing shards.
    #[arg(long)]
    allow_partial: bool,
}

pub(crate) fn run(args: &ReportArgs) -> anyhow::Result<Status> {
    let forms = args
        .report
        .iter()
        .map(|path| Format::of(path))
        .collect::<Result<Vec<_>, _>>()?;
    refuse_outputs_over_inputs(&args.report, &args.inputs, "report")?;
    let mut reports = Vec::new();
    for path in &args.inputs {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        let report = report::json::read(&text)
            .map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))?;
        reports.push((path.display().to_string(), report));
    }
    let report: Report = if reports.len() == 1 {
        reports.pop().expect("one report").1
    } else {
        let merged = report::merge(reports, args.allow_partial)?;
        for warning in &merged.warnings {
            note!("sudolab: warning: {warning}");
        }
        merged.report
    };
    if let Some(dir) = &args.plots {
        let plots = super::output::plot_paths(dir, &report.strategies);
        refuse_outputs_over_inputs(&plots, &args.inputs, "plot")?;
    }
    for (path, form) in args.report.iter().zip(forms) {
        render_bytes(form, &report)
            .and_then(|bytes| write_whole(path, &bytes))
            .with_context(|| format!("{}: cannot write the report", path.display()))?;
        if form == Format::Csv {
            report::csv::write_problems(path, &report).with_context(|| {
                let problems = report::csv::problems_path(path);
                format!("{}: cannot write the report", problems.display())
            })?;
        }
    }
    if let Some(dir) = &args.plots {
        write_plots(dir, &report)?;
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(report::text::render(&report, colour_on_stdout()).as_bytes())?;
    stdout.flush()?;
    Ok(if report.problems.is_empty() {
        Status::Success
    } else {
        Status::Negative
    })
}
