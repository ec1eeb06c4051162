//! Standard output that suits pipes: buffered, flushed per record on a terminal, and a closed
//! pipe ends the run quietly instead of being an error.

use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};

use sudolab::corpus::grid_to_json;
use sudolab::model::{Grid, MAX_LINE_SIDE, to_grid_text, to_line};

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
