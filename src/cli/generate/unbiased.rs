//! `generate --unbiased`: Berthier's controlled-bias generator (`generate::unbiased`) over
//! exactly uniform grids (`grids::GridSampler`), and with `--stats` its clue-count
//! distribution, raw and weighted, beside the published one.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::bail;
use rayon::prelude::*;
use serde_json::json;

use sudolab::generate::unbiased::{
    self, Attempt, CluesSummary, PUBLISHED_9X9_MEAN, PUBLISHED_9X9_PERCENT, PUBLISHED_9X9_SD,
};
use sudolab::grids::GridSampler;
use sudolab::model::{Grid, Shape, to_line};
use sudolab::strategy::rng::{Stream, stream};

use super::super::output::Out;
use super::super::{Status, worker_pool};
use sudolab::experiment::generate::choose_checker;

use super::{GenerateArgs, Reached};

/// Attempts per job handed to the pool at a time: enough to keep every job busy between the
/// writes, few enough that a small --count does not run many attempts past its last puzzle.
const ATTEMPTS_PER_JOB: u64 = 16;

pub(super) fn run(args: &GenerateArgs) -> anyhow::Result<Status> {
    if args.human_filter.filter().any() {
        bail!(
            "--unbiased keeps every minimal puzzle of its attempts: --technique, --propagation \
             and --te-depth would bias it again; generate without them"
        );
    }
    let shape = match args.box_shape {
        Some(shape) => shape,
        None => Shape::for_side(args.size)
            .map_err(|err| anyhow::anyhow!("--size {}: {err}", args.size))?,
    };
    let sampler = GridSampler::new(shape)
        .map_err(|err| anyhow::anyhow!("--unbiased draws uniform grids: {err}"))?;
    let checker = choose_checker(&args.checker, &Grid::empty(shape))?;
    let (pool, jobs) = worker_pool(args.jobs)?;
    let mut out = Out::new();
    if args.json {
        let header = json!({
            "seed": args.seed,
            "box": shape.to_string(),
            "unbiased": true,
            "attempts_per_grid": args.attempts_per_grid,
            "checker": checker.name(),
        })
        .to_string();
        out.write_str(&header[..header.len() - 1])?;
        out.write_str(",\"puzzles\":[")?;
    }
    let started = Instant::now();
    let per_grid = args.attempts_per_grid;
    let (mut attempts, mut written) = (0u64, 0u64);
    // Each kept puzzle's clues and grid, in attempt order.
    let mut kept = Vec::new();
    // The grids the current attempts are cut from, each with its stream after the draw.
    let mut grids: Vec<(u64, Grid, Stream)> = Vec::new();
    let mut next = 0u64;
    'attempts: while written < args.count {
        let chunk = jobs as u64 * ATTEMPTS_PER_JOB;
        let indices: Vec<u64> = (next..next + chunk).collect();
        next += chunk;
        let made = attempts_on_grids(
            &pool, &sampler, checker, args.seed, per_grid, &indices, &mut grids,
        );
        // In index order, up to the puzzle that completes the count: the same output at any
        // --jobs.
        for attempt in made {
            attempts += 1;
            if !attempt.minimal {
                continue;
            }
            write(&mut out, args, &attempt, written)?;
            out.end_record()?;
            kept.push((attempt.clues, attempt.index / per_grid));
            written += 1;
            if written == args.count {
                break 'attempts;
            }
        }
    }
    let summary = unbiased::summarize(shape.cell_count(), &kept);
    if args.json {
        let tail = json!({ "attempts": attempts, "distribution": summary }).to_string();
        out.write_str("\n],")?;
        out.write_str(&tail[1..])?;
        out.write_str("\n")?;
    }
    out.finish()?;
    let seconds = started.elapsed().as_secs_f64();
    Reached {
        written,
        missed: 0,
        clue_counts: kept.iter().map(|&(clues, _)| clues).collect(),
        seconds,
    }
    .report(args, shape, checker, jobs);
    if args.stats
        && let Some(summary) = summary
    {
        note!("{}", stats_text(&summary, attempts, per_grid, shape));
    }
    Ok(Status::Success)
}

/// The attempts of `indices`, attempt `i` on grid `i / per_grid`: the grids not yet in
/// `grids` are drawn (each with its stream after the draw) and those before the chunk's
/// first dropped.
fn attempts_on_grids(
    pool: &rayon::ThreadPool,
    sampler: &GridSampler,
    checker: &'static dyn sudolab::strategy::Strategy,
    seed: u64,
    per_grid: u64,
    indices: &[u64],
    grids: &mut Vec<(u64, Grid, Stream)>,
) -> Vec<Attempt> {
    let (first, last) = (indices[0] / per_grid, indices[indices.len() - 1] / per_grid);
    grids.retain(|(grid, ..)| *grid >= first);
    let missing: Vec<u64> = (first..=last)
        .filter(|index| !grids.iter().any(|(grid, ..)| grid == index))
        .collect();
    let drawn: Vec<_> = pool.install(|| {
        missing
            .par_iter()
            .map(|&index| {
                let mut rng = stream(seed, index);
                (index, sampler.sample(&mut rng), rng)
            })
            .collect()
    });
    grids.extend(drawn);
    let grids = &*grids;
    pool.install(|| {
        indices
            .par_iter()
            .map(|&index| {
                let (grid_index, nth) = (index / per_grid, index % per_grid);
                let (_, grid, after_draw) = grids
                    .iter()
                    .find(|(grid, ..)| *grid == grid_index)
                    .expect("every grid of the chunk is drawn");
                // The first attempt on a grid goes on with the grid's own stream (one attempt a
                // grid is then the plain method); the others take streams of seeds after the
                // run's, which no grid of this run uses.
                let mut rng = if nth == 0 {
                    after_draw.clone()
                } else {
                    stream(seed.wrapping_add(nth), grid_index)
                };
                unbiased::attempt(grid.clone(), checker, &mut rng, index)
            })
            .collect()
    })
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
    let mut text = format!(
        "sudolab: --unbiased: {} minimal puzzles kept of {attempts} attempts{grids} ({:.2}%)\n",
        summary.puzzles,
        100.0 * summary.puzzles as f64 / attempts as f64
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
