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

    /// The count of the puzzle at `index` (0-based), if the file is that long.
    pub fn count(&self, index: u64) -> Result<Option<u64>, SideError> {
        let Some(line) = self.lines.get(index as usize) else {
            return Ok(None);
        };
        line.trim().parse().map(Some).map_err(|_| SideError::Count {
            path: self.path.display().to_string(),
            line: index as usize + 1,
            found: line.trim().to_string(),
        })
    }

    /// The solution of the puzzle at `index` (0-based), of the puzzle's `shape`.
    pub fn solution(&self, index: u64, shape: Shape) -> Result<Option<Grid>, SideError> {
        let Some(line) = self.lines.get(index as usize) else {
            return Ok(None);
        };
        parse_line_record(line.trim().as_bytes(), Some(shape), index as usize + 1)
            .map(|record| Some(record.puzzle))
            .map_err(|err| SideError::Solution {
                path: self.path.display().to_string(),
                message: err.to_string(),
            })
    }
}
