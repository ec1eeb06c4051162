//! Side files of known answers: line `i` holds the solution count, or the solution, of the
//! `i`-th puzzle of the input (tdoku's `*.solution_counts.txt`, its solution files).

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::model::{Grid, Shape, parse_line_record};

/// A side file that cannot be read, or a line of it that is not what it should be.
#[derive(Debug, thiserror::Error)]
pub enum SideError {
    /// The file cannot be opened or read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A line that is not a count.
    #[error("{path}: line {line}: expected a solution count, found '{found}'")]
    Count {
        /// The file.
        path: String,
        /// One-based line.
        line: usize,
        /// What the line holds.
        found: String,
    },
    /// A line that is not a solution.
    #[error("{path}: {message}")]
    Solution {
        /// The file.
        path: String,
        /// The parse error, with line and column.
        message: String,
    },
    /// A side file whose length is not the number of puzzles it answers.
    #[error(
        "{path}: {lines} {}, but {input} holds {puzzles} {}; line i answers puzzle i, so a \
         side file has one line per puzzle",
        plural(*.lines, "line"),
        plural(*.puzzles, "puzzle")
    )]
    Length {
        /// The file.
        path: String,
        /// Its lines (trailing blank lines left out).
        lines: u64,
        /// What it answers: a file's name, or `the input`.
        input: String,
        /// The puzzles there.
        puzzles: u64,
    },
    /// A side file that ends before the puzzles do (met during a run, where the input could
    /// not be counted first: standard input).
    #[error(
        "{path}: no line {line} for puzzle {line} of the input; the file has {lines} {}",
        plural(*.lines, "line")
    )]
    Short {
        /// The file.
        path: String,
        /// The one-based line wanted.
        line: u64,
        /// Its lines.
        lines: u64,
    },
}

/// `noun`, or its plural for a count other than one.
fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    }
}

/// What a side file gives per puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideKind {
    /// Exact solution counts.
    Counts,
    /// Solutions.
    Solutions,
}

/// A side file, held in memory (one short line per puzzle).
#[derive(Clone, Debug)]
pub struct SideFile {
    path: PathBuf,
    kind: SideKind,
    lines: Vec<String>,
}

impl SideFile {
    /// Reads the whole file.
    pub fn load(path: &Path, kind: SideKind) -> Result<SideFile, SideError> {
        let fail = |source| SideError::Read {
            path: path.display().to_string(),
            source,
        };
        let file = File::open(path).map_err(fail)?;
        let lines = BufReader::new(file)
            .lines()
            .collect::<Result<Vec<String>, _>>()
            .map_err(fail)?;
        Ok(SideFile {
            path: path.to_path_buf(),
            kind,
            lines,
        })
    }

    /// Where it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What it gives.
    pub fn kind(&self) -> SideKind {
        self.kind
    }

    /// Its lines, trailing blank lines left out: the number of puzzles it answers.
    pub fn len(&self) -> u64 {
        let blank_tail = self
            .lines
            .iter()
            .rev()
            .take_while(|line| line.trim().is_empty())
            .count();
        (self.lines.len() - blank_tail) as u64
    }

    /// Whether it answers no puzzle.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The line of the puzzle at `index` (0-based); a file that ends before it is an error.
    fn line(&self, index: u64) -> Result<&str, SideError> {
        match self.lines.get(index as usize) {
            Some(line) if index < self.len() => Ok(line.trim()),
            _ => Err(SideError::Short {
                path: self.path.display().to_string(),
                line: index + 1,
                lines: self.len(),
            }),
        }
    }

    /// Refuses a file whose length is not `puzzles`, the number of puzzles of `input`.
    pub fn check_length(&self, puzzles: u64, input: &str) -> Result<(), SideError> {
        if self.len() == puzzles {
            return Ok(());
        }
        Err(SideError::Length {
            path: self.path.display().to_string(),
            lines: self.len(),
            input: input.to_string(),
            puzzles,
        })
    }

    /// The count of the puzzle at `index` (0-based).
    pub fn count(&self, index: u64) -> Result<Option<u64>, SideError> {
        let line = self.line(index)?;
        line.parse().map(Some).map_err(|_| SideError::Count {
            path: self.path.display().to_string(),
            line: index as usize + 1,
            found: line.to_string(),
        })
    }

    /// The solution of the puzzle at `index` (0-based), of the puzzle's `shape`.
    pub fn solution(&self, index: u64, shape: Shape) -> Result<Option<Grid>, SideError> {
        let line = self.line(index)?;
        parse_line_record(line.as_bytes(), Some(shape), index as usize + 1)
            .map(|record| Some(record.puzzle))
            .map_err(|err| SideError::Solution {
                path: self.path.display().to_string(),
                message: err.to_string(),
            })
    }
}
