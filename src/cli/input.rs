//! Opening the sources named on the command line and walking their puzzles.

use std::fs::File;
use std::io::{self, BufReader, IsTerminal};
use std::path::Path;

use sudolab::corpus::{Reader, Record};
use sudolab::experiment::Item;

use super::{InputArgs, Status};

/// Calls `handle` with each puzzle of each source, in order. Unreadable sources and malformed
/// puzzles are reported on standard error (`sudolab: FILE: line 3, column 7: ...`) and the walk
/// goes on; the returned status is the worst seen. An error from `handle` (such as a closed
/// output pipe) ends the walk.
pub(crate) fn for_each_record(
    input: &InputArgs,
    mut handle: impl FnMut(&str, &Record) -> anyhow::Result<Status>,
) -> anyhow::Result<Status> {
    for_each_item(input, |name, item| match item {
        Ok(record) => handle(name, record),
        Err(message) => {
            note!("sudolab: {message}");
            Ok(Status::Error)
        }
    })
}

/// Like [`for_each_record`], but hands problems to `handle` too, as `Err(message)` (the message
/// names the source: `FILE: line 3, column 7: ...`), so the caller can both print and keep them.
pub(crate) fn for_each_item(
    input: &InputArgs,
    mut handle: impl FnMut(&str, Result<&Record, String>) -> anyhow::Result<Status>,
) -> anyhow::Result<Status> {
    let stdin_only = [Path::new("-").to_path_buf()];
    let files = if input.files.is_empty() {
        &stdin_only[..]
    } else {
        &input.files[..]
    };
    let mut status = Status::Success;
    for path in files {
        let source_status = if path == Path::new("-") {
            let stdin = io::stdin();
            if stdin.is_terminal() {
                note!("sudolab: reading puzzles from standard input (end with Ctrl-D)");
            }
            walk("<stdin>", stdin.lock(), input, &mut handle)?
        } else {
            let name = path.display().to_string();
            match File::open(path) {
                Ok(file) => walk(&name, BufReader::new(file), input, &mut handle)?,
                Err(err) => handle(&name, Err(format!("{name}: cannot open: {err}")))?,
            }
        };
        status = status.max(source_status);
    }
    Ok(status)
}

fn walk(
    name: &str,
    source: impl io::BufRead,
    input: &InputArgs,
    handle: &mut impl FnMut(&str, Result<&Record, String>) -> anyhow::Result<Status>,
) -> anyhow::Result<Status> {
    let mut status = Status::Success;
    let mut seen_any = false;
    for item in Reader::new(source, input.read.format, input.read.box_shape) {
        seen_any = true;
        match item {
            Ok(record) => status = status.max(handle(name, Ok(&record))?),
            Err(err) => status = status.max(handle(name, Err(format!("{name}: {err}")))?),
        }
    }
    if !seen_any {
        let message = format!("{name}: no puzzles found (the input is empty or only comments)");
        status = status.max(handle(name, Err(message))?);
    }
    Ok(status)
}

/// Where a record came from, for messages: `FILE: line N`.
pub(crate) fn place(source: &str, record: &Record) -> String {
    format!("{source}: line {}", record.line)
}

/// Where a record came from, as a compact key in tabular output: `FILE:N`.
pub(crate) fn key(source: &str, record: &Record) -> String {
    format!("{source}:{}", record.line)
}

/// A record as an experiment item at `ordinal`, with its claims.
pub(crate) fn item(ordinal: u64, source: &str, record: &Record) -> Item {
    Item {
        ordinal,
        source: key(source, record),
        puzzle: record.puzzle.clone(),
        solution: record.solution.clone(),
        count: record.count,
    }
}
