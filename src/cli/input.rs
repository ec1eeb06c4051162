//! Opening the sources named on the command line and walking their puzzles.

use std::io::{self, IsTerminal};
use std::ops::ControlFlow;
use std::path::PathBuf;

use rayon::prelude::*;
use sudolab::corpus::{
    Block, CorpusError, LineAt, Met, Place, Record, Source, Walk, parse_line_into,
};
use sudolab::experiment::{ReadNext, Scratch, Selection, Shard, run_blocks};
use sudolab::model::{Grid, Shape};

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

/// What a worker of [`walk_in_parallel`] says of one puzzle besides the text it wrote: its
/// notes for standard error and its status.
pub(crate) struct Said {
    pub(crate) notes: Vec<String>,
    pub(crate) status: Status,
}

/// What [`walk_in_parallel`] hands its writer, place by place in input order.
pub(crate) enum Placed<'a> {
    /// The text a worker wrote for one puzzle (its notes are already printed).
    Puzzle(&'a str),
    /// A problem met in the input (already printed): `message` names the source, and the
    /// line and column of a puzzle that could not be read (`in_place_of_puzzle`), or says why
    /// a source gave no puzzle.
    Unread {
        source: &'a str,
        message: &'a str,
        in_place_of_puzzle: bool,
    },
}

/// Like [`for_each_record`], with `work` run on `jobs` threads: the puzzles the shard takes
/// (all without one) are gathered in batches, worked on in parallel, and written to `out` in
/// input order, each with its notes and the input errors where they were met, so the output is
/// the same for any number of jobs. `work` gets the source's name, the record and a scratch
/// that one job reuses, and says what to write.
pub(crate) fn for_each_record_in_parallel(
    input: &InputArgs,
    jobs: Option<usize>,
    shard: Option<Shard>,
    work: impl Fn(&str, &Record, &mut Scratch) -> Done + Sync,
    out: &mut Out,
) -> anyhow::Result<Status> {
    walk_in_parallel(
        input,
        jobs,
        shard,
        |source, record, scratch, text| {
            let done = work(source, record, scratch);
            if let Some(line) = &done.line {
                text.push_str(line);
                text.push('\n');
            }
            Said {
                notes: done.notes,
                status: done.status,
            }
        },
        |out, placed| match placed {
            Placed::Puzzle(text) => out.write_str(text),
            Placed::Unread { .. } => Ok(()),
        },
        out,
    )
}

/// What one job made of its share of a batch: the text of its puzzles, one after the other,
/// and per place where its text ends and what it said (`Err`: the line did not parse).
struct Worked {
    text: String,
    places: Vec<(usize, Result<Said, String>)>,
}

/// The parallel walk under [`for_each_record_in_parallel`], for commands that write their
/// own text: `work` appends a puzzle's output to the job's text buffer (no allocation per
/// puzzle), and `emit` writes each place, in input order, on the calling thread, which only
/// cuts the input into raw lines and writes preformatted text: parsing, searching and
/// formatting are the workers'.
pub(crate) fn walk_in_parallel(
    input: &InputArgs,
    jobs: Option<usize>,
    shard: Option<Shard>,
    work: impl Fn(&str, &Record, &mut Scratch, &mut String) -> Said + Sync,
    mut emit: impl FnMut(&mut Out, Placed<'_>) -> io::Result<()>,
    out: &mut Out,
) -> anyhow::Result<Status> {
    let jobs = super::jobs(jobs);
    let mut walk = walk_arguments(&input.files, input.read);
    let names: Vec<String> = walk.sources().iter().map(Source::name).collect();
    let reads_stdin = walk.sources().iter().any(Source::is_stdin);
    let mut notes = ErrorNotes::default();
    // Large batches: handing a batch to the pool and back costs about as much as 60 short
    // searches (`count -j1` on the 17-clue set ran at 1.4x the sequential time with 64 puzzles
    // a batch, 1.05x with 1,024). A person typing puzzles gets each answer at once.
    let typing = reads_stdin && io::stdin().is_terminal();
    let batch_size = if typing { 1 } else { 1024 * jobs };
    let mut ordinal = 0;
    let mut read_batch = |mut block: Block| {
        block.clear();
        // Under a shard the walk parses: a puzzle's position among the readable ones decides
        // whether it is taken, and a line that does not parse has none.
        let defer = shard.is_none();
        while block.len() < batch_size {
            if defer && block.push_plain_lines(&mut walk, batch_size - block.len()) > 0 {
                continue;
            }
            let Some(place) = block.push_next(&mut walk, defer) else {
                break;
            };
            if let (Place::Puzzle { .. }, Some(shard)) = (place, shard) {
                let here = ordinal;
                ordinal += 1;
                if !Selection::Shard(shard).takes(here) {
                    block.pop();
                }
            }
        }
        block
    };
    // A person typing gets each answer before the next puzzle is read: one batch with the
    // runner, handed on before the next is read. Otherwise two batches are with the runner, and
    // this thread reads the next one before it writes the one that came back.
    let (ahead, read_next) = if typing {
        (1, ReadNext::AfterHandingOn)
    } else {
        (2, ReadNext::BeforeHandingOn)
    };
    let mut status = Status::Success;
    // An input that fits in one batch (one puzzle typed as an argument, a short file) is run
    // on this thread when one job would run it anyway: no pool and no runner thread to start,
    // each a thread's stack, its allocator heap and a hand-over, for nothing to overlap.
    let mut first = Some(read_batch(Block::default()));
    if let Some(batch) =
        first.take_if(|batch| batch.len() < batch_size && (jobs == 1 || batch.len() <= 1))
    {
        let worked = work_on_block(&batch, jobs, &names, &work, false);
        let worst = write_in_order(&batch, &worked, &names, &mut notes, &mut emit, out)?;
        notes.finish();
        return Ok(worst);
    }
    let (pool, jobs) = super::worker_pool(Some(jobs))?;
    run_blocks(
        &pool,
        ahead,
        read_next,
        |spare| {
            let batch = first.take().unwrap_or_else(|| read_batch(spare));
            Some(batch).filter(|batch| !batch.is_empty())
        },
        |batch| ControlFlow::Continue(work_on_block(batch, jobs, &names, &work, true)),
        |batch, worked| {
            let worst = write_in_order(batch, &worked, &names, &mut notes, &mut emit, out)?;
            status = status.max(worst);
            anyhow::Ok(ControlFlow::Continue(()))
        },
    )?;
    notes.finish();
    Ok(status)
}

/// Works on a block, on the current pool (`parallel`) or on this thread: one share of its
/// places per job, with one scratch and one record that the share's searches and parses
/// reuse, and one text buffer.
fn work_on_block(
    block: &Block,
    jobs: usize,
    names: &[String],
    work: &(impl Fn(&str, &Record, &mut Scratch, &mut String) -> Said + Sync),
    parallel: bool,
) -> Vec<Worked> {
    let per_job = block.len().div_ceil(jobs).max(1);
    let work_on_share = |share: &[Place]| {
        let mut scratch = Scratch::default();
        let mut parsed: Option<Record> = None;
        let mut text = String::with_capacity(share.len() * 96);
        let mut places = Vec::with_capacity(share.len());
        for place in share {
            let said = match place {
                Place::Line { source, at, bytes } => {
                    match read_line(block.line(bytes), *at, &mut parsed) {
                        Ok(record) => Ok(work(&names[*source], record, &mut scratch, &mut text)),
                        Err(err) => Err(format!("{}: {err}", names[*source])),
                    }
                }
                Place::Puzzle { source, record } => {
                    Ok(work(&names[*source], record, &mut scratch, &mut text))
                }
                Place::Problem { .. } => Ok(Said {
                    notes: Vec::new(),
                    status: Status::Error,
                }),
            };
            places.push((text.len(), said));
        }
        Worked { text, places }
    };
    if parallel {
        block
            .places()
            .par_chunks(per_job)
            .map(work_on_share)
            .collect()
    } else {
        block.places().chunks(per_job).map(work_on_share).collect()
    }
}

/// Parses a raw line into the job's record, made on its first line and reused after.
fn read_line<'a>(
    line: &[u8],
    at: LineAt,
    parsed: &'a mut Option<Record>,
) -> Result<&'a Record, CorpusError> {
    let record = parsed.get_or_insert_with(|| Record {
        number: at.number,
        line: at.line,
        puzzle: Grid::empty(Shape::CLASSIC),
        solution: None,
        count: None,
    });
    parse_line_into(line, at, record)?;
    Ok(record)
}

/// Writes a batch's texts and notes, and its input errors where they were met, in input order;
/// the worst status of the batch.
fn write_in_order(
    block: &Block,
    worked: &[Worked],
    names: &[String],
    notes: &mut ErrorNotes,
    emit: &mut impl FnMut(&mut Out, Placed<'_>) -> io::Result<()>,
    out: &mut Out,
) -> anyhow::Result<Status> {
    let mut worst = Status::Success;
    let mut places = block.places().iter();
    for share in worked {
        let mut start = 0;
        for ((end, said), place) in share.places.iter().zip(&mut places) {
            let text = &share.text[start..*end];
            start = *end;
            let (message, in_place_of_puzzle) = match (place, said) {
                (
                    Place::Problem {
                        message,
                        in_place_of_puzzle,
                        ..
                    },
                    _,
                ) => (message, *in_place_of_puzzle),
                (_, Err(message)) => (message, true),
                (_, Ok(said)) => {
                    for note in &said.notes {
                        note!("{note}");
                    }
                    emit(out, Placed::Puzzle(text))?;
                    out.end_record()?;
                    worst = worst.max(said.status);
                    continue;
                }
            };
            let source = &names[place.source()];
            notes.note(source, message);
            emit(
                out,
                Placed::Unread {
                    source,
                    message,
                    in_place_of_puzzle,
                },
            )?;
            out.end_record()?;
            worst = worst.max(Status::Error);
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
