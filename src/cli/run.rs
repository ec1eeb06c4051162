//! `sudolab run`: an experiment file, run through the same pipeline as `compare`, its results
//! written to a directory with the file itself and the provenance.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::Args;
use serde_json::json;

use sudolab::experiment::Experiment;

use super::Status;
use super::compare::{Execution, execute};

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The experiment file (TOML; schema in docs/experiments/README.md).
    #[arg(value_name = "EXPERIMENT.toml")]
    file: PathBuf,

    /// The results directory, instead of the file's [output] dir (default results/NAME).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub(crate) fn run(args: &RunArgs) -> anyhow::Result<Status> {
    let experiment = Experiment::load(&args.file)?;
    // Read whole before anything is written: the results directory may be the one the file
    // was saved into, and re-running a saved experiment must leave it as it was.
    let original = std::fs::read(&args.file)
        .with_context(|| format!("{}: cannot read", args.file.display()))?;
    let dir = args.out.clone().unwrap_or(experiment.output_dir.clone());
    if dir.is_file() {
        bail!(
            "{}: is a file; the results go into a directory",
            dir.display()
        );
    }
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("{}: cannot create the results directory", dir.display()))?;
    let copy = dir.join("experiment.toml");
    std::fs::write(&copy, &original).with_context(|| {
        format!(
            "{}: cannot copy the experiment file to {}",
            args.file.display(),
            copy.display()
        )
    })?;
    let reports = experiment
        .forms
        .iter()
        .map(|form| dir.join(format!("report.{}", form.extension())))
        .collect();
    let execution = Execution {
        plan: experiment.plan.clone(),
        limits: experiment.limits.clone(),
        sources: experiment.sources.clone(),
        sides: experiment.sides.clone(),
        input_sides: sudolab::experiment::Sides::default(),
        baseline: experiment.baseline.clone(),
        reports,
    };
    let (status, report) = execute(execution)?;
    let provenance = json!({
        "experiment": experiment.name,
        "description": experiment.description,
        "file": args.file.display().to_string(),
        "results": dir.display().to_string(),
        "complete": report.complete,
        "puzzles": report.puzzles,
        "problems": report.problems.len(),
        "context": report.context,
    });
    let path = dir.join("provenance.json");
    let mut text = serde_json::to_string_pretty(&provenance).expect("provenance serializes");
    text.push('\n');
    std::fs::write(&path, text).with_context(|| format!("{}: cannot write", path.display()))?;
    note!("sudolab: results in {}", dir.display());
    Ok(status)
}
