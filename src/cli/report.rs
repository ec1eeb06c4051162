//! `sudolab report`: re-render saved JSON reports, merging shards.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::Args;

use sudolab::report::{self, Report};

use super::Status;
use super::compare::{ReportForm, render};
use super::output::colour_on_stdout;

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// JSON reports written by 'sudolab compare --report FILE.json'; several are merged (the
    /// shards of one corpus: same strategies, no puzzle twice).
    #[arg(value_name = "REPORT.json", required = true)]
    inputs: Vec<PathBuf>,

    /// Write the report here; the extension picks the form (.md, .csv, .json, .jsonl, .html,
    /// .txt). Repeat for several. The text table is always printed on standard output.
    #[arg(long, short = 'r', value_name = "FILE")]
    report: Vec<PathBuf>,
}

pub(crate) fn run(args: &ReportArgs) -> anyhow::Result<Status> {
    let forms = args
        .report
        .iter()
        .map(|path| ReportForm::of(path))
        .collect::<anyhow::Result<Vec<_>>>()?;
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
        match report::merge(reports) {
            Ok(report) => report,
            Err(message) => bail!(message),
        }
    };
    for (path, form) in args.report.iter().zip(forms) {
        std::fs::write(path, render(form, &report))
            .with_context(|| format!("{}: cannot write the report", path.display()))?;
    }
    let colour = colour_on_stdout();
    let mut stdout = io::stdout().lock();
    stdout.write_all(report::text::render(&report, colour).as_bytes())?;
    stdout.flush()?;
    Ok(if report.problems.is_empty() {
        Status::Success
    } else {
        Status::Negative
    })
}
