//! `sudolab check-cert`: certificates checked, trusting only `sudolab::certcheck`.

use std::fmt::Write as _;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use rayon::prelude::*;

use sudolab::certcheck::{self, outside};
use sudolab::corpus::{Format, Met, Walk};
use sudolab::model::{Grid, to_one_line};

use super::Status;
use super::output::Out;

#[derive(Debug, Args)]
pub(crate) struct CheckCertArgs {
    /// Certificate files, or directories whose .cert files are all checked.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,

    /// Also run the outside checkers found on PATH on every proof: rate and drat-trim (on the
    /// proof as DRAT), cake_lpr (LRAT). Without any of them on PATH this is an error.
    #[arg(long)]
    outside: bool,

    /// Print only the failures and the summary.
    #[arg(long, short = 'q')]
    quiet: bool,

    /// Certificates checked in parallel (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<usize>,

    /// Hold each certificate to its puzzle in FILE (any input form, '-' for standard input):
    /// a certificate named STEM-NNNNN.cert, as 'certify' and 'verify --certify' name them
    /// (STEM is FILE's name without its extension), to puzzle NNNNN; any other to the puzzle
    /// at its own position among the certificates given. A certificate of another puzzle fails.
    #[arg(long, value_name = "FILE", conflicts_with = "puzzle")]
    puzzles: Option<PathBuf>,

    /// Hold every certificate given to this puzzle (the line form): one that proves another
    /// puzzle fails.
    #[arg(long, value_name = "PUZZLE")]
    puzzle: Option<String>,
}

/// The puzzle a certificate must prove: a name for messages and the grid, or why there is
/// none to hold it to.
type Expected = Result<(String, Grid), String>;

pub(crate) fn run(args: &CheckCertArgs) -> anyhow::Result<Status> {
    let mut files = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read {}", path.display()))?
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|file| file.extension().is_some_and(|ext| ext == "cert"))
                .collect();
            if found.is_empty() {
                bail!("{}: no .cert files", path.display());
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    let tools = if args.outside {
        let tools = outside::available();
        if tools.is_empty() {
            bail!(
                "--outside: none of rate, drat-trim, cake_lpr is on PATH ('cargo install rate' \
                 installs rate)"
            );
        }
        tools
    } else {
        Vec::new()
    };
    let expected = expected_puzzles(args, &files)?;
    let (pool, _) = super::worker_pool(args.jobs)?;
    let mut out = Out::new();
    let (mut checked, mut failed) = (0_u64, 0_u64);
    for (batch_index, batch) in files.chunks(4096).enumerate() {
        let lines: Vec<(bool, String)> = pool.install(|| {
            batch
                .par_iter()
                .enumerate()
                .map(|(index, file)| {
                    let expected = expected
                        .as_ref()
                        .map(|expected| &expected[batch_index * 4096 + index]);
                    check_one(file, expected, &tools)
                })
                .collect()
        });
        for (ok, line) in lines {
            if ok {
                checked += 1;
                if args.quiet {
                    continue;
                }
            } else {
                failed += 1;
            }
            out.write_str(&line)?;
            out.write_str("\n")?;
        }
    }
    out.finish()?;
    let names: Vec<&str> = tools.iter().map(|(tool, _)| tool.program()).collect();
    note!(
        "sudolab: {} certificates: {checked} checked, {failed} FAILED (built-in checker{}{})",
        checked + failed,
        if names.is_empty() { "" } else { ", " },
        names.join(", ")
    );
    Ok(if failed > 0 {
        Status::Negative
    } else {
        Status::Success
    })
}

/// The puzzle each of `files` must prove, in order, when `--puzzles` or `--puzzle` is given.
fn expected_puzzles(
    args: &CheckCertArgs,
    files: &[PathBuf],
) -> anyhow::Result<Option<Vec<Expected>>> {
    if let Some(line) = &args.puzzle {
        let grid: Grid = line
            .trim()
            .parse()
            .with_context(|| format!("--puzzle '{line}'"))?;
        let name = format!("the puzzle given ({})", to_one_line(&grid));
        return Ok(Some(vec![Ok((name, grid)); files.len()]));
    }
    let Some(path) = &args.puzzles else {
        return Ok(None);
    };
    let mut puzzles: Vec<Result<Grid, String>> = Vec::new();
    for met in Walk::from_arguments(std::slice::from_ref(path), Format::Auto, None) {
        match met {
            Met::Puzzle { record, .. } => puzzles.push(Ok(record.puzzle)),
            Met::Problem {
                message,
                in_place_of_puzzle: true,
                ..
            } => puzzles.push(Err(message)),
            Met::Problem { message, .. } => bail!("--puzzles: {message}"),
        }
    }
    let stem = if path.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        path.file_stem()
            .map_or_else(String::new, |stem| stem.to_string_lossy().into_owned())
    };
    let source = path.display();
    Ok(Some(
        files
            .iter()
            .enumerate()
            .map(|(position, file)| {
                let number = numbered_for(file, &stem).unwrap_or(position + 1);
                match puzzles.get(number - 1) {
                    Some(Ok(grid)) => Ok((
                        format!("puzzle {number} of {source} ({})", to_one_line(grid)),
                        grid.clone(),
                    )),
                    Some(Err(message)) => Err(format!("puzzle {number} of {message}")),
                    None => Err(format!(
                        "{source} has {} puzzles, so no puzzle {number} to hold this certificate to",
                        puzzles.len()
                    )),
                }
            })
            .collect(),
    ))
}

/// The puzzle number of a certificate named `STEM-NNNNN.cert` for `stem`, as certify names
/// them; `None` for any other name.
fn numbered_for(file: &Path, stem: &str) -> Option<usize> {
    let name = file.file_stem()?.to_str()?;
    let number = name.strip_prefix(stem)?.strip_prefix('-')?;
    if number.is_empty() || !number.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    number.parse().ok().filter(|&number| number > 0)
}

/// Checks one certificate file, against its puzzle when one is expected:
/// `(true, "checked FILE VERDICT PUZZLE ...")` or `(false, "FAILED FILE STEP: REASON")`.
fn check_one(
    file: &Path,
    expected: Option<&Expected>,
    tools: &[(outside::Tool, PathBuf)],
) -> (bool, String) {
    let name = file.display();
    let fail = |step: &str, reason: &str| (false, format!("FAILED {name} {step}: {reason}"));
    // Read as a stream: the reader bounds every line, so a huge or endless file costs
    // memory in proportion to the largest certificate the checker takes, not to the file.
    let bundle = match std::fs::File::open(file) {
        Ok(opened) => match certcheck::read(BufReader::new(opened)) {
            Ok(bundle) => bundle,
            Err(failure) => return fail(&failure.step, &failure.reason),
        },
        Err(err) => return fail("read", &err.to_string()),
    };
    match expected {
        Some(Err(reason)) => return fail("puzzle", reason),
        Some(Ok((puzzle_name, grid))) => {
            let shape = grid.shape();
            let same = bundle.box_shape == (shape.box_rows(), shape.box_cols())
                && bundle.puzzle == grid.cells();
            if !same {
                let (rows, cols) = bundle.box_shape;
                return fail(
                    "puzzle",
                    &format!(
                        "this certificate is for another puzzle: it proves {} (box {rows}x{cols}), \
                         not {puzzle_name}",
                        bundle.puzzle_text()
                    ),
                );
            }
        }
        None => {}
    }
    let verified = match certcheck::check(&bundle) {
        Ok(verified) => verified,
        Err(failure) => return fail(&failure.step, &failure.reason),
    };
    for (tool, program) in tools {
        if let Err(reason) = outside::check(*tool, program, &bundle) {
            return fail(tool.program(), &reason);
        }
    }
    let mut line = format!(
        "checked {name} {} {}",
        verified.verdict.word(),
        bundle.puzzle_text()
    );
    if verified.proof_bytes > 0 {
        let _ = write!(
            line,
            " ({}: {} lemmas, {} bytes)",
            if verified.producer.is_empty() {
                "?"
            } else {
                &verified.producer
            },
            verified.lemmas,
            verified.proof_bytes
        );
    }
    if verified.witnesses > 0 {
        let _ = write!(line, ", minimal ({} witnesses)", verified.witnesses);
    }
    (true, line)
}
