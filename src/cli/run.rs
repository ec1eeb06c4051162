//! `sudolab run`: an experiment file, run through the same pipeline as `compare`, its results
//! written to a directory with the file itself and the provenance.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use serde_json::json;

use sudolab::experiment::Experiment;

use super::Status;
use super::compare::{Execution, execute};
use super::output::{Staged, refuse_outputs_over_inputs};

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The experiment file (TOML; schema in docs/experiments/README.md).
    #[arg(value_name = "EXPERIMENT.toml")]
    file: PathBuf,

    /// The results directory, anywhere, instead of the file's [output] dir (default
    /// results/NAME).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Replace a results directory that is already there (only one holding what a run writes).
    #[arg(long)]
    force: bool,

    /// Let the experiment file's [output] dir lie outside the file's own directory (a
    /// downloaded file is otherwise kept from writing elsewhere).
    #[arg(long)]
    allow_outside: bool,

    /// Run the outside solvers the file names ([[external]]): their commands are programs
    /// this machine runs, so a file that names any is refused without this flag.
    #[arg(long)]
    allow_external: bool,
}

pub(crate) fn run(args: &RunArgs) -> anyhow::Result<Status> {
    let experiment = Experiment::load(&args.file)?;
    // Read whole before anything is written: the results directory may be the one the file
    // was saved into, and re-running a saved experiment must leave it as it was.
    let original = std::fs::read(&args.file)
        .with_context(|| format!("{}: cannot read", args.file.display()))?;
    // The file's own directory confines the file's own [output] dir, not one given here.
    if args.out.is_none()
        && !args.allow_outside
        && let Some(written) = experiment.output_outside()
    {
        anyhow::bail!(
            "{}: [output] dir = {:?} leaves the experiment file's directory; an experiment file \
             writes only under its own directory unless --allow-outside is given (or --out DIR \
             names the results directory); nothing was written",
            args.file.display(),
            written.display().to_string()
        );
    }
    if !args.allow_external && !experiment.externals.is_empty() {
        let commands: Vec<String> = experiment
            .externals
            .iter()
            .map(|(name, command)| format!("{name} = {command:?}"))
            .collect();
        anyhow::bail!(
            "{}: the file runs outside programs ([[external]]: {}); give --allow-external to \
             run them; nothing was run",
            args.file.display(),
            commands.join(", ")
        );
    }
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| experiment.output_dir.clone());
    // Every file of the results directory is replaced, those already there too: none may be
    // an input. The experiment file itself is exempt, read whole above and copied as it was.
    let mut outputs: Vec<PathBuf> = ["experiment.toml", "provenance.json"]
        .iter()
        .map(|name| dir.join(name))
        .chain(
            experiment
                .forms
                .iter()
                .map(|form| dir.join(format!("report.{}", form.extension()))),
        )
        .collect();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        outputs.extend(entries.flatten().map(|entry| entry.path()));
    }
    refuse_outputs_over_inputs(&outputs, &experiment.inputs(), "output")?;
    let staged = Staged::new(&dir, args.force)?;
    let copy = staged.dir().join("experiment.toml");
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
        .map(|form| staged.dir().join(format!("report.{}", form.extension())))
        .collect();
    let execution = Execution {
        plan: experiment.plan.clone(),
        limits: experiment.limits.clone(),
        sources: experiment.sources.clone(),
        sides: experiment.sides.clone(),
        input_sides: sudolab::experiment::Sides::default(),
        baseline: experiment.baseline.clone(),
        clock: experiment.clock,
        reports,
        plots: None,
    };
    let (status, report) = execute(execution)?;
    if report.puzzles == 0 {
        // Dropping `staged` removes what was written: an empty run replaces no results.
        note!(
            "sudolab: no puzzle ran; nothing was written ({} is as it was)",
            dir.display()
        );
        return Ok(status.max(Status::Error));
    }
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
    let path = staged.dir().join("provenance.json");
    let mut text = serde_json::to_string_pretty(&provenance).expect("provenance serializes");
    text.push('\n');
    std::fs::write(&path, text).with_context(|| format!("{}: cannot write", path.display()))?;
    staged.commit()?;
    note!("sudolab: results in {}", dir.display());
    Ok(status)
}
