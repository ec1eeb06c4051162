//! `sudolab verify`: the uniqueness claims of existing files, re-proven by several engines.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use clap::Args;

use sudolab::experiment::{self, Item, Verification};
use sudolab::strategy::Limits;

use super::input::{Done, for_each_record_in_parallel, key};
use super::output::Out;
use super::{InputArgs, ShardArgs, Status, parse_duration};

#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The strategies that must each prove every puzzle unique, at least two different ones, or
    /// 'auto' (the default): per puzzle, propagation, exact cover and SAT (fast, dlx-knuth,
    /// sat) below 13x13, SAT and propagation (sat, fast) from 13x13; each line names the
    /// engines that proved it.
    #[arg(
        long,
        short = 's',
        value_name = "A,B,...",
        value_delimiter = ',',
        default_values = sudolab::check::DEFAULT_VERIFIERS
    )]
    strategies: Vec<String>,

    /// An outside solver as one more verifier, NAME=COMMAND (repeatable; the syntax of
    /// 'compare --external', protocol in docs/external.md): it re-proves every puzzle beside
    /// --strategies (after auto's engines, or after the named ones; name it in --strategies to
    /// place it). Its answers are certified and must agree with the others'; a crash, hang or
    /// malformed answer fails the puzzle.
    #[arg(long, value_name = "NAME=COMMAND")]
    external: Vec<String>,

    #[command(flatten)]
    external_limits: super::compare::ExternalLimitArgs,

    /// Budget of each check (0 for none); an undecided check is a failure to verify.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration)]
    timeout: Duration,

    /// Puzzles verified in parallel (default: one per core); the output is the same, in input
    /// order.
    #[arg(long, short = 'j', value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<usize>,

    /// Also write a certificate of each verified puzzle into DIR (as 'sudolab certify' does),
    /// checked by the independent checker before the puzzle counts as verified; its path ends
    /// the line. 'sudolab check-cert DIR' checks them again, anywhere.
    #[arg(long, value_name = "DIR")]
    certify: Option<std::path::PathBuf>,

    #[command(flatten)]
    shard: ShardArgs,
}

pub(crate) fn run(args: &VerifyArgs) -> anyhow::Result<Status> {
    let outside = super::compare::externals(&args.external, &args.external_limits)?;
    let verifiers = sudolab::check::verifiers_among(&args.strategies, &outside)?;
    let limits = Limits::solutions(2).with_timeout(args.timeout);
    if let Some(dir) = &args.certify {
        std::fs::create_dir_all(dir)
            .map_err(|err| anyhow::anyhow!("cannot create {}: {err}", dir.display()))?;
    }
    let mut out = Out::new();
    let failed = AtomicU64::new(0);
    let verified = AtomicU64::new(0);
    let status = for_each_record_in_parallel(
        &args.input,
        args.jobs,
        args.shard.selected(),
        |source, record, scratch| {
            let item = Item {
                ordinal: 0,
                source: String::new(),
                puzzle: record.puzzle.clone(),
                solution: record.solution.clone(),
                // A count claim is held to the verifiers' counts by the same cross-check as
                // `count` and `compare` (`check::cross_check`).
                count: record.count,
            };
            let Verification { mut problems, by } =
                experiment::verify(item, &verifiers, &limits, scratch);
            let mut certificate = None;
            if let (Some(dir), true) = (&args.certify, problems.is_empty()) {
                match super::certify::certify_verified(dir, source, record) {
                    Ok(path) => certificate = Some(path),
                    Err(problem) => problems.push(problem),
                }
            }
            let (line, status) = if problems.is_empty() {
                verified.fetch_add(1, Ordering::Relaxed);
                let mut line = format!(
                    "{}\tverified\tunique by {}",
                    key(source, record),
                    by.join(", ")
                );
                if let Some(path) = certificate {
                    line.push_str("\tcertificate ");
                    line.push_str(&path.display().to_string());
                }
                (line, Status::Success)
            } else {
                failed.fetch_add(1, Ordering::Relaxed);
                let line = format!("{}\tFAILED\t{}", key(source, record), problems.join("; "));
                (line, Status::Negative)
            };
            Done {
                line: Some(line),
                notes: Vec::new(),
                status,
            }
        },
        &mut out,
    )?;
    let (verified, failed) = (verified.into_inner(), failed.into_inner());
    out.finish()?;
    note!("sudolab: {verified} verified, {failed} failed");
    Ok(status)
}
