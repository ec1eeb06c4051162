//! `generate --unbiased`: the library's controlled-bias run (`experiment::generate::Unbiased`)
//! written as it comes, and with `--stats` its clue-count distribution, raw and weighted,
//! beside the published one.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::bail;

use serde_json::json;

use sudolab::experiment::generate::Unbiased;
use sudolab::generate::unbiased::{
    Attempt, CluesSummary, PUBLISHED_9X9_MEAN, PUBLISHED_9X9_PERCENT, PUBLISHED_9X9_SD,
};
use sudolab::model::{Shape, to_line};

use super::super::output::Out;
use super::super::{Status, worker_pool};

use super::{GenerateArgs, Reached};

pub(super) mod summarize;

pub(super) fn run(args: &GenerateArgs, run: &Unbiased) -> anyhow::Result<Status> {
    let (shape, checker) = (run.shape(), run.checker());
    let grids = match (args.grids, args.shard) {
        (Some(grids), shard) => Some(shard.map_or(0..grids, |shard| shard.range(grids))),
        (None, Some(_)) => bail!(
            "--shard with --unbiased splits the grids of --grids M: a run of --count puzzles \
             cannot know where a shard's part starts; give --grids M (every minimal puzzle of \
             the first M grids) and --shard K/N"
        ),
        (None, None) => None,
    };
    let (pool, jobs) = worker_pool(args.jobs)?;
    let mut out = Out::new();
    if args.json {
        let mut header = json!({
            "seed": args.seed,
            "box": shape.to_string(),
            "unbiased": true,
            "attempts_per_grid": run.attempts_per_grid(),
            "checker": checker.name(),
        });
        if let (Some(grids), Some(run_grids)) = (&grids, args.grids) {
            header["grids"] = json!([grids.start, grids.end]);
            header["run_grids"] = json!(run_grids);
        }
        let header = header.to_string();
        out.write_str(&header[..header.len() - 1])?;
        out.write_str(",\"puzzles\":[")?;
    }
    let started = Instant::now();
    let mut written = 0u64;
    let mut clue_counts = Vec::new();
    let mut attempts = match grids {
        Some(grids) => run.grid_range(grids),
        None => run.attempts(args.count),
    };
    while attempts.left() > 0 {
        for attempt in attempts.next_chunk(&pool) {
            write(&mut out, args, &attempt, written)?;
            out.end_record()?;
            clue_counts.push(attempt.clues);
            written += 1;
        }
    }
    let summary = attempts.summary();
    if args.json {
        let tail = json!({ "attempts": attempts.made(), "distribution": summary }).to_string();
        out.write_str("\n],")?;
        out.write_str(&tail[1..])?;
        out.write_str("\n")?;
    }
    out.finish()?;
    let seconds = started.elapsed().as_secs_f64();
    Reached {
        written,
        missed: 0,
        clue_counts,
        seconds,
    }
    .report(args, shape, checker, jobs);
    if args.stats
        && let Some(summary) = summary
    {
        note!(
            "{}",
            stats_text(&summary, attempts.made(), run.attempts_per_grid(), shape)
        );
    }
    Ok(Status::Success)
}

fn write(
    out: &mut Out,
    args: &GenerateArgs,
    attempt: &Attempt,
    written: u64,
) -> anyhow::Result<()> {
    let line = to_line(&attempt.puzzle).expect("the sampler's boards have sides up to 9");
    let solution = to_line(&attempt.solution).expect("same side as the puzzle");
    if args.json {
        let object = json!({
            "index": attempt.index,
            "clues": attempt.clues,
            "checks": attempt.checks,
            "line": line,
            "puzzle": sudolab::corpus::grid_to_json(&attempt.puzzle),
            "solution": sudolab::corpus::grid_to_json(&attempt.solution),
        });
        out.write_str(if written == 0 { "\n" } else { ",\n" })?;
        out.write_str(&object.to_string())?;
    } else if args.with_solution {
        out.write_str(&format!("{line} {solution}\n"))?;
    } else {
        out.write_str(&format!("{line}\n"))?;
    }
    Ok(())
}

/// The distribution as `--stats` prints it: one line per clue count (kept puzzles, their raw
/// share, the weighted share with its standard error, and on 9x9 Berthier's), then the raw
/// and weighted moments and, on 9x9, the published ones.
pub(super) fn stats_text(
    summary: &CluesSummary,
    attempts: u64,
    per_grid: u64,
    shape: Shape,
) -> String {
    let nine = shape.side() == 9;
    let published = |clues: usize| {
        PUBLISHED_9X9_PERCENT
            .iter()
            .find(|(n, _)| *n == clues)
            .map_or_else(|| "-".to_string(), |(_, p)| format!("{p}"))
    };
    let grids = if per_grid == 1 {
        String::new()
    } else {
        format!(" on {} grids", attempts.div_ceil(per_grid))
    };
    let share = summary.puzzles as f64 / attempts as f64;
    // On 9x9 a share in percent rounds to 0.00.
    let share = if share >= 1e-4 {
        format!("{:.2}%", 100.0 * share)
    } else {
        format!("one in {:.0}", 1.0 / share)
    };
    let mut text = format!(
        "sudolab: --unbiased: {} minimal puzzles kept of {attempts} attempts{grids} ({share})\n",
        summary.puzzles
    );
    text.push_str(if nine {
        "  clues   kept   raw %   weighted % (± se)   published %\n"
    } else {
        "  clues   kept   raw %   weighted % (± se)\n"
    });
    for row in &summary.rows {
        let mut line = format!(
            "  {:>5} {:>6} {:>7.3} {:>9.3} ± {:<7.3}",
            row.clues,
            row.kept,
            100.0 * row.raw,
            100.0 * row.weighted,
            100.0 * row.weighted_se
        );
        if nine {
            let _ = write!(line, "   {}", published(row.clues));
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    let (raw, weighted) = (summary.raw, summary.weighted);
    let _ = writeln!(
        text,
        "  raw:      mean {:.3} ± {:.3}, sd {:.3} ± {:.3} (the kept puzzles, biased towards \
         fewer clues)",
        raw.mean, raw.mean_se, raw.sd, raw.sd_se
    );
    let _ = write!(
        text,
        "  weighted: mean {:.3} ± {:.3}, sd {:.3} ± {:.3} (each puzzle weighted by C({}, \
         clues): all minimal puzzles; standard errors by the delta method{})",
        weighted.mean,
        weighted.mean_se,
        weighted.sd,
        weighted.sd_se,
        summary.cells,
        if per_grid == 1 {
            ""
        } else {
            ", a grid's puzzles one sample"
        }
    );
    if nine {
        let _ = write!(
            text,
            "\n  published (Berthier 2009): mean {PUBLISHED_9X9_MEAN}, sd {PUBLISHED_9X9_SD}"
        );
    }
    text
}
