//! Standard output that suits pipes: buffered, flushed per record on a terminal, and a closed
//! pipe ends the run quietly instead of being an error. Files written whole or not at all, and
//! never over an input.

use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context as _;

use sudolab::corpus::grid_to_json;
use sudolab::model::{Grid, MAX_LINE_SIDE, to_grid_text, to_line};
use sudolab::report::Format;

/// How solutions are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum GridOutput {
    /// One line of n*n symbols per grid (sides up to 35).
    #[default]
    Line,
    /// n lines of n numbers per grid, grids separated by a blank line.
    Grid,
    /// A JSON array of {"box": [r, c], "cells": [[...]]} objects.
    Json,
}

/// Whether to colour standard output: only for a terminal, and never under `NO_COLOR`.
pub(crate) fn colour_on_stdout() -> bool {
    io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// Standard output, buffered.
pub(crate) struct Out {
    writer: BufWriter<StdoutLock<'static>>,
    interactive: bool,
}

impl Out {
    pub(crate) fn new() -> Out {
        let stdout = io::stdout();
        Out {
            interactive: stdout.is_terminal(),
            writer: BufWriter::new(stdout.lock()),
        }
    }

    pub(crate) fn write_str(&mut self, text: &str) -> io::Result<()> {
        self.writer.write_all(text.as_bytes())
    }

    /// Ends a record: flushed at once when a person is watching.
    pub(crate) fn end_record(&mut self) -> io::Result<()> {
        if self.interactive {
            self.writer.flush()?;
        }
        Ok(())
    }

    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

/// Writes grids in one form, keeping the JSON array well formed across calls.
pub(crate) struct GridWriter {
    form: GridOutput,
    written: usize,
}

impl GridWriter {
    pub(crate) fn new(form: GridOutput) -> GridWriter {
        GridWriter { form, written: 0 }
    }

    /// Checks up front that the form can write grids of this side.
    pub(crate) fn can_write(&self, grid: &Grid) -> Result<(), String> {
        // What `to_line` refuses, without writing the line: this runs once per puzzle.
        if self.form == GridOutput::Line && grid.side() > MAX_LINE_SIDE {
            return Err(format!(
                "the line form writes sides up to 35, this grid has side {}: use --output grid or --output json",
                grid.side()
            ));
        }
        Ok(())
    }

    /// Writes one grid; `extra` adds fields to the JSON object.
    pub(crate) fn write(
        &mut self,
        out: &mut Out,
        grid: &Grid,
        extra: Option<serde_json::Map<String, serde_json::Value>>,
    ) -> io::Result<()> {
        match self.form {
            GridOutput::Line => {
                let line = to_line(grid).expect("checked by can_write");
                out.write_str(&line)?;
                out.write_str("\n")?;
            }
            GridOutput::Grid => {
                if self.written > 0 {
                    out.write_str("\n")?;
                }
                out.write_str(&to_grid_text(grid))?;
            }
            GridOutput::Json => {
                out.write_str(if self.written == 0 { "[\n" } else { ",\n" })?;
                let mut object = grid_to_json(grid);
                if let (Some(fields), Some(extra)) = (object.as_object_mut(), extra) {
                    fields.extend(extra);
                }
                out.write_str(&object.to_string())?;
            }
        }
        self.written += 1;
        out.end_record()
    }

    /// Closes the JSON array (an empty one when nothing was written).
    pub(crate) fn finish(&mut self, out: &mut Out) -> io::Result<()> {
        if self.form == GridOutput::Json {
            out.write_str(if self.written == 0 { "[]\n" } else { "\n]\n" })?;
        }
        Ok(())
    }
}

/// Whether an error is a write into a closed pipe (`sudolab solve | head`).
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io_err| io_err.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// What makes two paths one file: its device and inode, shared by every name of it (hard
/// links, symlinks, `a/../b`), so that an output is compared with the inputs by what it is,
/// not by how it is spelt. `None` when nothing is there yet.
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(path)
        .ok()
        .map(|meta| (meta.dev(), meta.ino()))
}

/// Without inode numbers, the canonical path (which misses hard links).
#[cfg(not(unix))]
fn identity(path: &Path) -> Option<PathBuf> {
    path.canonicalize().ok()
}

/// Refuses, before anything is written, an output that is one of the inputs under any name:
/// writing it would destroy the input. `what` names the outputs in the message ("report",
/// "output"). Outputs that do not exist yet are no input.
pub(crate) fn refuse_outputs_over_inputs(
    outputs: &[PathBuf],
    inputs: &[PathBuf],
    what: &str,
) -> anyhow::Result<()> {
    let inputs: Vec<_> = inputs
        .iter()
        .filter_map(|input| identity(input).map(|id| (id, input)))
        .collect();
    // A CSV report brings its problems file (`report::csv::problems_path`) beside it.
    let companions = outputs
        .iter()
        .filter(|output| Format::of(output).ok() == Some(Format::Csv))
        .map(|output| sudolab::report::csv::problems_path(output));
    for output in outputs.iter().cloned().chain(companions) {
        let output = &output;
        let Some(id) = identity(output) else {
            continue;
        };
        if let Some((_, input)) = inputs.iter().find(|(input, _)| *input == id) {
            let also = if input.as_path() == output.as_path() {
                String::new()
            } else {
                format!(" ({} is the same file)", input.display())
            };
            anyhow::bail!(
                "{}: this {what} would overwrite an input{also}; choose another {what} path",
                output.display()
            );
        }
    }
    Ok(())
}

/// Writes `text` to `path` whole or not at all: into `.NAME.partial` beside it, renamed into
/// place once written, so that a failure half-way leaves what was at `path` untouched.
pub(crate) fn write_whole(path: &Path, text: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |name| name.to_string_lossy());
    let partial = path.with_file_name(format!(".{name}.partial"));
    let written = std::fs::write(&partial, text).and_then(|()| std::fs::rename(&partial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// The files `--plots DIR` may write for these strategies (a scatter plot for each, as any
/// of them may be the baseline's partner), for the check against the inputs before a run.
pub(crate) fn plot_paths(dir: &Path, strategies: &[String]) -> Vec<PathBuf> {
    std::iter::once(sudolab::report::plots::CACTUS_FILE.to_string())
        .chain(
            strategies
                .iter()
                .map(|name| sudolab::report::plots::scatter_file(name)),
        )
        .map(|name| dir.join(name))
        .collect()
}

/// Writes the report's plots into `dir` (made when missing), each file whole or not at all.
pub(crate) fn write_plots(dir: &Path, report: &sudolab::report::Report) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{}: cannot make the plots directory", dir.display()))?;
    for (name, svg) in sudolab::report::plots::files(report) {
        let path = dir.join(name);
        write_whole(&path, svg.as_bytes())
            .with_context(|| format!("{}: cannot write the plot", path.display()))?;
    }
    Ok(())
}

/// The names a results directory holds: what `sudolab run` writes there.
fn is_result_name(name: &str) -> bool {
    name == "experiment.toml"
        || name == "provenance.json"
        || name == "report.problems.csv"
        || name
            .strip_prefix("report.")
            .is_some_and(|form| Format::from_extension(form).is_some())
}

/// The temporary directories of results not yet in place, for [`remove_staged`].
static STAGED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary directories of every results directory not yet in place: for a
/// process about to exit without finishing them (a second interrupt).
pub(crate) fn remove_staged() {
    if let Ok(staged) = STAGED.lock() {
        for dir in staged.iter() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A results directory written whole or not at all: filled under a temporary name beside it
/// (`.NAME.partial-PID`) and renamed into place by [`Staged::commit`], so that a run that
/// fails, is killed or reads nothing leaves an earlier directory at the path as it was. A
/// directory already there is replaced only with `force`, and only when it holds nothing but
/// what a run writes (a mistyped `--out .` must not delete a working directory).
pub(crate) struct Staged {
    target: PathBuf,
    temp: PathBuf,
    committed: bool,
}

impl Staged {
    /// Checks `target` and creates the temporary directory beside it.
    pub(crate) fn new(target: &Path, force: bool) -> anyhow::Result<Staged> {
        if target.exists() {
            if !target.is_dir() {
                anyhow::bail!(
                    "{}: is a file; the results go into a directory",
                    target.display()
                );
            }
            if !force {
                anyhow::bail!(
                    "{}: a results directory is already there; nothing was written (--force \
                     replaces it, --out DIR writes elsewhere)",
                    target.display()
                );
            }
            let entries = std::fs::read_dir(target)
                .with_context(|| format!("{}: cannot read", target.display()))?;
            for entry in entries {
                let entry = entry.with_context(|| format!("{}: cannot read", target.display()))?;
                let name = entry.file_name();
                let is_file = entry.file_type().is_ok_and(|kind| kind.is_file());
                if !is_file || !name.to_str().is_some_and(is_result_name) {
                    anyhow::bail!(
                        "{}: --force replaces only a results directory, and this one holds {}, \
                         which a run does not write; nothing was written",
                        target.display(),
                        entry.path().display()
                    );
                }
            }
        }
        let name = target
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .filter(|name| name != "..")
            .with_context(|| {
                format!(
                    "{}: name the results directory itself (such as results/NAME)",
                    target.display()
                )
            })?;
        let parent = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent)
            .with_context(|| format!("{}: cannot create the directory", parent.display()))?;
        let temp = parent.join(format!(".{name}.partial-{}", std::process::id()));
        if temp.exists() {
            // Left by a process of this number that was killed: a run's own temporary files.
            let _ = std::fs::remove_dir_all(&temp);
        }
        std::fs::create_dir(&temp)
            .with_context(|| format!("{}: cannot create the results directory", temp.display()))?;
        if let Ok(mut staged) = STAGED.lock() {
            staged.push(temp.clone());
        }
        Ok(Staged {
            target: target.to_path_buf(),
            temp,
            committed: false,
        })
    }

    /// Where the results are written until [`Staged::commit`].
    pub(crate) fn dir(&self) -> &Path {
        &self.temp
    }

    /// Puts the results in place, replacing the directory there (checked by [`Staged::new`]).
    pub(crate) fn commit(mut self) -> anyhow::Result<()> {
        let fail = |err: io::Error| {
            anyhow::anyhow!(
                "{}: cannot put the results in place: {err}",
                self.target.display()
            )
        };
        if self.target.exists() {
            // A directory cannot be renamed over a full one: the old one steps aside first.
            let old = self.temp.with_file_name(format!(
                ".{}.old-{}",
                self.target
                    .file_name()
                    .map_or_else(Default::default, |name| name.to_string_lossy()),
                std::process::id()
            ));
            std::fs::rename(&self.target, &old).map_err(fail)?;
            if let Err(err) = std::fs::rename(&self.temp, &self.target) {
                let _ = std::fs::rename(&old, &self.target);
                return Err(fail(err));
            }
            let _ = std::fs::remove_dir_all(&old);
        } else {
            std::fs::rename(&self.temp, &self.target).map_err(fail)?;
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for Staged {
    /// Results never put in place are removed.
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.temp);
        }
        if let Ok(mut staged) = STAGED.lock() {
            staged.retain(|dir| dir != &self.temp);
        }
    }
}
