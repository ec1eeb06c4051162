//! `sudolab export cnf|cover|mzn`: the puzzle for outside solvers.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

use sudolab::corpus::Record;
use sudolab::encode::{Cnf, CoverMatrix, Encoding, exact_cover_takes, to_minizinc};
use sudolab::model::find_conflict;
use sudolab::strategy::MAX_SAT_SIDE;

use super::input::{ErrorNotes, for_each_item, for_each_record, place};
use super::output::Out;
use super::{InputArgs, Status};

// `defer`, as for the top-level commands (`cli::Command`): the arguments are defined only
// when this command is the one run.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub(crate) enum ExportCommand {
    /// Write a puzzle as DIMACS CNF for any SAT solver.
    ///
    /// Comment lines record the box shape, the givens and the meaning of every variable
    /// ('c sudolab var V ROW COL DIGIT': V true means that cell holds that digit), so that
    /// 'sudolab decode' turns the solver's model back into a grid.
    ///
    /// Any SAT solver reads the file, and 'sudolab decode' reads its model back:
    /// 'picosat b.cnf > b.model; sudolab decode b.cnf b.model'. corpora/examples/4x4.model is
    /// such a model, of corpora/examples/4x4.cnf (the first puzzle of corpora/generated/4x4.txt).
    ///
    /// Examples:
    ///   sudolab export cnf corpora/reference.txt --puzzle 2 > b.cnf
    ///   sudolab decode corpora/examples/4x4.cnf corpora/examples/4x4.model
    #[command(verbatim_doc_comment)]
    Cnf {
        #[command(flatten)]
        target: ExportTarget,
        /// The CNF encoding: minimal and extended (Lynce and Ouaknine 2006) or reduced (givens
        /// propagated away first, after Kwon and Jain 2006).
        #[arg(long, short = 'e', value_parser = super::choice::<Encoding>(), default_value_t = Encoding::Reduced)]
        encoding: Encoding,
    },
    /// Write a puzzle's exact-cover matrix in the text format of Knuth's DLX1.
    ///
    /// Lines starting with '|' are comments; the first other line names the items (pR.C: cell
    /// rRcC holds a digit; rR.D: row R holds D; cC.D: column C holds D; bB.D: box B holds D; all
    /// one-based); each following line is one option, the four items of writing D at rRcC.
    /// Givens are pruned: their items and the options they rule out are left out.
    ///
    /// Example: sudolab export cover corpora/generated/4x4.txt --puzzle 1 > 4x4.dlx
    Cover {
        #[command(flatten)]
        target: ExportTarget,
    },
    /// Write a puzzle as a MiniZinc model for constraint-programming solvers.
    ///
    /// One variable per cell (1..n), the givens fixed, 'alldifferent' over every row, column
    /// and box, for any box shape and size; the output is the cell values in row-major order,
    /// separated by spaces. Variants are refused (export cnf encodes every rule). Givens that
    /// conflict give a model without a solution. MiniZinc solves it: 'minizinc --solver gecode
    /// --all-solutions b.mzn' prints each solution, then '==========' once the search is
    /// complete.
    ///
    /// Example: sudolab export mzn corpora/reference.txt --puzzle 2 > b.mzn
    Mzn {
        #[command(flatten)]
        target: ExportTarget,
    },
}

// Which puzzles to export and where. A plain comment: a doc comment here would become the
// about of the deferred `export` commands that flatten it.
#[derive(Debug, Args)]
pub(crate) struct ExportTarget {
    #[command(flatten)]
    input: InputArgs,

    /// Export the N-th puzzle of the input (counting from 1); by default the input must hold
    /// exactly one puzzle, unless --out-dir is given.
    #[arg(long, short = 'p', value_name = "N", value_parser = super::parse_position)]
    puzzle: Option<usize>,

    /// Write every puzzle to its own file in DIR (FILE-00001.cnf, .dlx or .mzn) instead of
    /// standard output.
    #[arg(long, value_name = "DIR", conflicts_with = "puzzle")]
    out_dir: Option<PathBuf>,
}

pub(crate) fn run(command: &ExportCommand) -> anyhow::Result<Status> {
    let (target, extension) = match command {
        ExportCommand::Cnf { target, .. } => (target, "cnf"),
        ExportCommand::Cover { target } => (target, "dlx"),
        ExportCommand::Mzn { target } => (target, "mzn"),
    };
    if let Some(dir) = &target.out_dir {
        return export_to_dir(command, target, dir, extension);
    }
    let (chosen, seen, status) = pick_puzzle(target)?;
    let Some((source, record)) = chosen else {
        if seen == 0 {
            return Ok(status);
        }
        bail!(
            "--puzzle {}: the input holds only {seen} puzzles",
            target.puzzle.unwrap_or(1)
        );
    };
    match render(command, &record) {
        Ok(text) => {
            let mut out = Out::new();
            out.write_str(&text)?;
            out.finish()?;
            Ok(status)
        }
        Err((refused, message)) => {
            note!("sudolab: {}: {message}", place(&source, &record));
            Ok(status.max(refused))
        }
    }
}

/// One puzzle in the form `command` asks for, or why not: a refusal (an error, exit status 2)
/// or givens that conflict (a negative answer about the puzzle, exit status 1).
fn render(command: &ExportCommand, record: &Record) -> Result<String, (Status, String)> {
    match command {
        ExportCommand::Cnf { encoding, .. } => {
            let side = record.puzzle.side();
            if side > MAX_SAT_SIDE {
                return Err((
                    Status::Error,
                    format!(
                        "the CNF of a {side}x{side} board is too large to export (sides up to {MAX_SAT_SIDE})"
                    ),
                ));
            }
            Ok(Cnf::build(&record.puzzle, *encoding).to_dimacs())
        }
        ExportCommand::Cover { .. } => match find_conflict(&record.puzzle) {
            _ if let Some(Err(why)) =
                record.puzzle.rules().map(|rules| exact_cover_takes(rules)) =>
            {
                Err((
                    Status::Error,
                    format!(
                        "no exact-cover matrix for {} puzzles: {why}",
                        record
                            .puzzle
                            .rules()
                            .map(|rules| rules.name())
                            .unwrap_or_default()
                    ),
                ))
            }
            Some(conflict) => Err((
                Status::Negative,
                format!("the givens conflict, so no exact cover exists: {conflict}"),
            )),
            None => Ok(CoverMatrix::build(&record.puzzle).to_dlx_text(&record.puzzle)),
        },
        ExportCommand::Mzn { .. } => {
            to_minizinc(&record.puzzle).map_err(|refused| (Status::Error, refused.to_string()))
        }
    }
}

/// Writes every puzzle of the input to its own file in `dir` (`--out-dir`).
fn export_to_dir(
    command: &ExportCommand,
    target: &ExportTarget,
    dir: &Path,
    extension: &str,
) -> anyhow::Result<Status> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Two inputs of one file name (d1/p.txt, d2/p.txt) would write the same outputs: the
    // second input's are refused rather than written over the first's.
    let mut written: std::collections::HashMap<PathBuf, String> = std::collections::HashMap::new();
    for_each_record(&target.input, |source, record| {
        let stem = Path::new(source)
            .file_stem()
            .map_or("stdin".into(), |stem| {
                // `<stdin>` and `<arg 2>` become `stdin` and `arg-2`.
                stem.to_string_lossy()
                    .replace(['<', '>'], "")
                    .replace(' ', "-")
            });
        let path = dir.join(format!("{stem}-{:05}.{extension}", record.number));
        if let Some(other) = written.get(&path).filter(|other| *other != source) {
            bail!(
                "{}: already written from {other}; inputs {other} and {source} share a file \
                 name, so export them to different --out-dir directories",
                path.display()
            );
        }
        written.insert(path.clone(), source.to_string());
        match render(command, record) {
            Ok(text) => {
                std::fs::write(&path, text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                Ok(Status::Success)
            }
            Err((status, message)) => {
                note!("sudolab: {}: {message}", place(source, record));
                Ok(status)
            }
        }
    })
}

/// What [`pick_puzzle`] found: the puzzle with its source, the puzzles seen, the reading's status.
type Picked = (Option<(String, Record)>, usize, Status);

/// The puzzle `--puzzle N` names (the only one without it), with the number of puzzles seen and
/// the status of the reading. A puzzle's number counts the malformed ones too, as `count`'s
/// lines do: with a broken first line, --puzzle 2 is the second puzzle of the file, not the
/// second readable one.
fn pick_puzzle(target: &ExportTarget) -> anyhow::Result<Picked> {
    let wanted = target.puzzle.unwrap_or(1);
    let mut seen = 0;
    let mut chosen: Option<(String, Record)> = None;
    let mut broken: Option<String> = None;
    let mut notes = ErrorNotes::default();
    let status = for_each_item(&target.input, |source, item| {
        match item {
            Ok(record) => {
                seen += 1;
                if seen == wanted {
                    chosen = Some((source.to_string(), record.clone()));
                }
            }
            Err(unread) => {
                if unread.in_place_of_puzzle {
                    seen += 1;
                    if seen == wanted {
                        broken = Some(unread.message);
                        return Ok(Status::Error);
                    }
                }
                notes.note(source, &unread.message);
                return Ok(Status::Error);
            }
        }
        Ok(Status::Success)
    })?;
    notes.finish();
    if let Some(message) = broken {
        bail!("--puzzle {wanted} cannot be read: {message}");
    }
    if target.puzzle.is_none() && seen > 1 {
        bail!(
            "the input holds {seen} puzzles: pick one with --puzzle N, or write them all with --out-dir DIR"
        );
    }
    Ok((chosen, seen, status))
}

/// A text file, or an error that names it and, for bytes that are not UTF-8, their place.
pub(crate) fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    String::from_utf8(bytes).map_err(|err| {
        let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
        let line = valid.split(|&byte| byte == b'\n').count();
        let column = valid
            .split(|&byte| byte == b'\n')
            .next_back()
            .map_or(0, <[u8]>::len)
            + 1;
        anyhow::anyhow!(
            "{}: line {line}, column {column}: expected UTF-8 text, found byte 0x{:02x}",
            path.display(),
            err.as_bytes()[valid.len()]
        )
    })
}
