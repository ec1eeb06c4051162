//! `sudolab check-cert`: certificates checked, trusting only `sudolab::certcheck`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use rayon::prelude::*;

use sudolab::certcheck::{self, outside};

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
}

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
    let (pool, _) = super::worker_pool(args.jobs)?;
    let mut out = Out::new();
    let (mut checked, mut failed) = (0_u64, 0_u64);
    for batch in files.chunks(4096) {
        let lines: Vec<(bool, String)> = pool.install(|| {
            batch
                .par_iter()
                .map(|file| check_one(file, &tools))
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

/// Checks one certificate file: `(true, "checked ...")` or `(false, "FAILED ...")`.
fn check_one(file: &Path, tools: &[(outside::Tool, PathBuf)]) -> (bool, String) {
    let name = file.display();
    let fail = |step: &str, reason: &str| (false, format!("FAILED {name} {step}: {reason}"));
    let text = match std::fs::read(file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => return fail("format", "the file is not UTF-8 text"),
        },
        Err(err) => return fail("read", &err.to_string()),
    };
    let bundle = match certcheck::parse(&text) {
        Ok(bundle) => bundle,
        Err(failure) => return fail(&failure.step, &failure.reason),
    };
    let verified = match certcheck::check(&bundle) {
        Ok(verified) => verified,
        Err(failure) => return fail(&failure.step, &failure.reason),
    };
    for (tool, program) in tools {
        if let Err(reason) = outside::check(*tool, program, &bundle) {
            return fail(tool.program(), &reason);
        }
    }
    let mut line = format!("checked {name} {}", verified.verdict.word());
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
