//! Opening the sources named on the command line and walking their puzzles.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::mpsc;

use rayon::prelude::*;
use sudolab::corpus::{Met, Record, Source, Walk};
use sudolab::experiment::{Item, Scratch};

use super::output::Out;
use super::{InputArgs, ReadArgs, Status};

/// Calls `handle` with each puzzle of each source, in order. Unreadable sources and malformed
/// puzzles are reported on standard error (`sudolab: FILE: line 3, column 7: ...`) and the walk
/// goes on; the returned status is the worst seen. An error from `handle` (such as a closed
/// output pipe) ends the walk.
pub(crate) fn for_each_record(
    input: &InputArgs,
    mut handle: impl FnMut(&str, &Record) -> anyhow::Result<Status>,
) -> anyhow::Result<Status> {
    let mut notes = ErrorNotes::default();
    let status = for_each_item(input, |name, item| match item {
        Ok(record) => handle(name, record),
        Err(problem) => {
            notes.note(name, &problem.message);
            Ok(Status::Error)
        }
    });
    notes.finish();
    status
}

/// The most input errors printed for one source; the others are counted, and the count is
/// printed at the end (a binary file of 400 broken lines printed 400 errors).
pub(crate) const MAX_ERRORS_SHOWN: usize = 20;

/// Prints input errors on standard error, at most [`MAX_ERRORS_SHOWN`] per source.
#[derive(Default)]
pub(crate) struct ErrorNotes {
    /// Errors met per source, in the order the sources came.
    per_source: Vec<(String, usize)>,
}

impl ErrorNotes {
    /// Prints `message` (which names its place) unless `source` already had its share.
    pub(crate) fn note(&mut self, source: &str, message: &str) {
        let count = if let Some((_, count)) = self.per_source.iter_mut().find(|(s, _)| s == source)
        {
            *count += 1;
            *count
        } else {
            self.per_source.push((source.to_string(), 1));
            1
        };
        if count <= MAX_ERRORS_SHOWN {
            note!("sudolab: {message}");
        }
    }

    /// Says how many errors of each source were not printed.
    pub(crate) fn finish(&self) {
        for (source, count) in &self.per_source {
            if *count > MAX_ERRORS_SHOWN {
                note!(
                    "sudolab: {source}: {} more input errors not shown (the first \
                     {MAX_ERRORS_SHOWN} are above)",
                    count - MAX_ERRORS_SHOWN
                );
            }
        }
    }
}

/// What could not be read, as [`for_each_item`] hands it on.
pub(crate) struct Unread {
    /// The message, naming the source: `FILE: line 3, column 7: ...`.
    pub(crate) message: String,
    /// True for one malformed puzzle (it has a place in the input's order), false for a source
    /// that gave no puzzle (cannot be opened, a directory, empty).
    pub(crate) in_place_of_puzzle: bool,
}

/// Like [`for_each_record`], but hands problems to `handle` too, as `Err`, so the caller can
/// both print and keep them, or keep a place for them. The walk itself is the library's
/// [`Walk`].
pub(crate) fn for_each_item(
    input: &InputArgs,
    mut handle: impl FnMut(&str, Result<&Record, Unread>) -> anyhow::Result<Status>,
) -> anyhow::Result<Status> {
    let walk = walk_arguments(&input.files, input.read);
    let names: Vec<String> = walk.sources().iter().map(Source::name).collect();
    let mut status = Status::Success;
    for met in walk {
        let step = match met {
            Met::Puzzle { source, record } => handle(&names[source], Ok(&record))?,
            Met::Problem {
                source,
                message,
                in_place_of_puzzle,
            } => handle(
                &names[source],
                Err(Unread {
                    message,
                    in_place_of_puzzle,
                }),
            )?,
        };
        status = status.max(step);
    }
    Ok(status)
}

/// What a parallel walk's worker made of one puzzle: its output line, its notes for standard
/// error, its status.
pub(crate) struct Done {
    pub(crate) line: Option<String>,
    pub(crate) notes: Vec<String>,
    pub(crate) status: Status,
}

/// A puzzle waiting for its batch, or an input error keeping its place in the output; `source`
/// is the index of the source in the walk.
enum Pending {
    Puzzle {
        ordinal: u64,
        source: usize,
        record: Record,
    },
    Unread {
        source: usize,
        message: String,
    },
}

/// Like [`for_each_record`], with `work` run on `jobs` threads: the puzzles `keep` takes (by
/// ordinal over the readable ones, for `--shard`) are gathered in batches, worked on in
/// parallel, and written to `out` in input order, each with its notes and the input errors
/// where they were met, so the output is the same for any number of jobs. `work` gets the
/// source's name, the ordinal, the record and a scratch that one job reuses.
pub(crate) fn for_each_record_in_parallel(
    input: &InputArgs,
    jobs: Option<usize>,
    keep: impl Fn(u64) -> bool,
    work: impl Fn(&str, u64, &Record, &mut Scratch) -> Done + Sync,
    out: &mut Out,
) -> anyhow::Result<Status> {
    let (pool, jobs) = super::worker_pool(jobs)?;
    let mut walk = walk_arguments(&input.files, input.read);
    let names: Vec<String> = walk.sources().iter().map(Source::name).collect();
    let reads_stdin = walk.sources().iter().any(Source::is_stdin);
    let mut notes = ErrorNotes::default();
    // Runs on the pool: one scratch per job's chunk, reused by one search after another.
    let work_on = |batch: &[Pending]| -> Vec<Option<Done>> {
        let per_job = batch.len().div_ceil(jobs).max(1);
        batch
            .par_chunks(per_job)
            .flat_map_iter(|chunk| {
                let mut scratch = Scratch::default();
                chunk
                    .iter()
                    .map(|pending| match pending {
                        Pending::Puzzle {
                            ordinal,
                            source,
                            record,
                        } => Some(work(&names[*source], *ordinal, record, &mut scratch)),
                        Pending::Unread { .. } => None,
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    // Large batches: handing a batch to the pool and back costs about as much as 60 short
    // searches (`count -j1` on the 17-clue set ran at 1.4x the sequential time with 64 puzzles
    // a batch, 1.05x with 1,024). A person typing puzzles gets each answer at once.
    let typing = reads_stdin && io::stdin().is_terminal();
    let batch_size = if typing { 1 } else { 1024 * jobs };
    let mut ordinal = 0;
    let mut read_batch = || {
        let mut batch = Vec::with_capacity(batch_size);
        while batch.len() < batch_size {
            match walk.next() {
                None => break,
                Some(Met::Puzzle { source, record }) => {
                    let here = ordinal;
                    ordinal += 1;
                    if keep(here) {
                        batch.push(Pending::Puzzle {
                            ordinal: here,
                            source,
                            record,
                        });
                    }
                }
                Some(Met::Problem {
                    source, message, ..
                }) => batch.push(Pending::Unread { source, message }),
            }
        }
        batch
    };
    let mut write_batch = |batch: Vec<Pending>, done: Vec<Option<Done>>| {
        write_in_order(batch, done, &names, &mut notes, out)
    };
    // Two stages: a runner thread hands each batch to the pool (`install` blocks it, not this
    // thread) while this thread writes the batch before and reads the next one, so reading,
    // parsing and writing overlap the searches. (Spawning into the pool from this thread with
    // `in_place_scope` left a worker idle: `-j2` was no faster than `-j1`.) A person typing
    // gets each answer before the next puzzle is read.
    let work_on = &work_on;
    let status = std::thread::scope(|threads| {
        let (to_runner, batches_in) = mpsc::sync_channel::<Vec<Pending>>(1);
        let (results_out, from_runner) = mpsc::sync_channel(1);
        let pool = &pool;
        threads.spawn(move || {
            for batch in batches_in {
                let done = pool.install(|| work_on(&batch));
                if results_out.send((batch, done)).is_err() {
                    break;
                }
            }
        });
        let mut status = Status::Success;
        let first = read_batch();
        let mut in_flight = !first.is_empty();
        if in_flight {
            to_runner.send(first).expect("the runner waits for batches");
        }
        while in_flight {
            let next = if typing { Vec::new() } else { read_batch() };
            let (batch, done) = from_runner.recv().expect("the runner answers every batch");
            in_flight = !next.is_empty();
            if in_flight {
                to_runner.send(next).expect("the runner waits for batches");
            }
            status = status.max(write_batch(batch, done)?);
            if typing {
                let next = read_batch();
                in_flight = !next.is_empty();
                if in_flight {
                    to_runner.send(next).expect("the runner waits for batches");
                }
            }
        }
        anyhow::Ok(status)
    })?;
    notes.finish();
    Ok(status)
}

/// Writes a batch's lines and notes, and its input errors where they were met, in input order;
/// the worst status of the batch.
fn write_in_order(
    batch: Vec<Pending>,
    done: Vec<Option<Done>>,
    names: &[String],
    notes: &mut ErrorNotes,
    out: &mut Out,
) -> anyhow::Result<Status> {
    let mut worst = Status::Success;
    let mut done = done.into_iter().flatten();
    for pending in batch {
        match pending {
            Pending::Unread { source, message } => {
                notes.note(&names[source], &message);
                worst = worst.max(Status::Error);
            }
            Pending::Puzzle { .. } => {
                let Some(done) = done.next() else {
                    continue;
                };
                for note in &done.notes {
                    note!("{note}");
                }
                if let Some(line) = &done.line {
                    out.write_str(line)?;
                    out.write_str("\n")?;
                    out.end_record()?;
                }
                worst = worst.max(done.status);
            }
        }
    }
    Ok(worst)
}

/// The walk over puzzle arguments: files, `-` or none for standard input, and puzzles typed as
/// arguments (named `<arg N>`; see [`Walk::typed_puzzle`]). Says on standard error that it
/// waits for standard input when that is a terminal.
pub(crate) fn walk_arguments(files: &[PathBuf], read: ReadArgs) -> Walk {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let walk =
        Walk::from_arguments(files, read.format, read.box_shape).with_variant(read.spec().as_ref());
    if walk.sources().iter().any(Source::is_stdin) && io::stdin().is_terminal() {
        note!("sudolab: reading puzzles from standard input (end with Ctrl-D)");
    }
    walk
}

/// Where a record came from, for messages: `FILE: line N`.
pub(crate) fn place(source: &str, record: &Record) -> String {
    format!("{source}: line {}", record.line)
}

/// Where a record came from, as a compact key in tabular output: `FILE:N`.
pub(crate) fn key(source: &str, record: &Record) -> String {
    sudolab::corpus::key(source, record.line)
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
