//! `sudolab grids`: whole grids, counted exactly by the band method, and drawn uniformly.

use std::time::Instant;

use clap::{Args, Subcommand};

use sudolab::grids::{GridSampler, count_grids};
use sudolab::model::{Shape, to_line};
use sudolab::strategy::rng::stream;

use super::Status;
use super::output::Out;

#[derive(Debug, Subcommand)]
pub(crate) enum GridsCommand {
    /// Count every complete grid of a box shape, exactly, by the band method
    ///
    /// Splits the count by the column layout of the first band (which column of each stack
    /// holds each digit): the bands with one layout times the ways to complete the grid below
    /// it, summed over classes of layouts equal up to relabelling digits, permuting columns
    /// inside stacks and permuting stacks. Prints the number on one line; --json adds the
    /// classes and the time taken. Boxes of at least 2x2 on boards up to 9x9.
    ///
    /// Examples:
    ///   sudolab grids count --box 2x3     # 28200960
    ///   sudolab grids count --box 3x3     # 6670903752021072936960
    ///   sudolab grids count --box 2x4 --json
    #[command(verbatim_doc_comment)]
    Count(CountArgs),
    /// Draw complete grids, every grid of the box shape exactly equally likely
    ///
    /// Each draw follows the exact counts of 'grids count' band by band, so a grid's chance is
    /// one over the number of grids (docs/reproductions.md). Grid I (from 0) of a run is drawn
    /// from the random stream I of --seed, so a seed and a count reproduce the same lines.
    /// One grid per line. The sampler first counts the shape's grids: a moment for 4x4 to
    /// 8x8, as long as 'grids count --box 3x3' for 9x9 (then a draw takes about a second).
    ///
    /// Examples:
    ///   sudolab grids sample --box 2x3 --seed 1 -c 5
    ///   sudolab grids sample --box 2x2 --seed 7 -c 1000 | sort | uniq -c | wc -l   # 288
    #[command(verbatim_doc_comment)]
    Sample(SampleArgs),
}

#[derive(Debug, Args)]
pub(crate) struct SampleArgs {
    /// Box shape, rows x columns: 2x2 (4x4), 2x3 (6x6), 2x4 (8x8) or 3x3 (9x9); default 2x3.
    #[arg(long = "box", value_name = "RxC", default_value = "2x3")]
    box_shape: Shape,

    /// The random seed (the same seed and count give the same grids on every platform).
    #[arg(long, default_value_t = 0)]
    seed: u64,

    /// How many grids to draw.
    #[arg(long, short = 'c', default_value_t = 1)]
    count: u64,
}

#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    /// Box shape, rows x columns: 2x2 (4x4), 2x3 (6x6), 2x4 (8x8) or 3x3 (9x9); default 3x3.
    #[arg(long = "box", value_name = "RxC", default_value = "3x3")]
    box_shape: Shape,

    /// Print a JSON object: the count (as a string of digits and as a number), the
    /// orientation counted, the layout classes with their bands and completions, and the time
    /// in seconds.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(command: &GridsCommand) -> anyhow::Result<Status> {
    match command {
        GridsCommand::Count(args) => run_count(args),
        GridsCommand::Sample(args) => run_sample(args),
    }
}

fn run_count(args: &CountArgs) -> anyhow::Result<Status> {
    let started = Instant::now();
    let count = count_grids(args.box_shape)?;
    let seconds = started.elapsed().as_secs_f64();
    let mut out = Out::new();
    if args.json {
        // Counts pass 2^64: every count is a string of digits, exact in any JSON reader.
        let classes: Vec<serde_json::Value> = count
            .classes
            .iter()
            .map(|class| {
                serde_json::json!({
                    "layouts": class.layouts.to_string(),
                    "bands": class.bands.to_string(),
                    "completions": class.completions.to_string(),
                })
            })
            .collect();
        let value = serde_json::json!({
            "box": count.shape,
            "grids": count.grids.to_string(),
            "band_rows": count.band_rows,
            "bands": count.bands,
            "multiplier": count.multiplier.to_string(),
            "classes_count": count.classes.len(),
            "classes": classes,
            "seconds": seconds,
        });
        out.write_str(&serde_json::to_string_pretty(&value)?)?;
        out.write_str("\n")?;
    } else {
        out.write_str(&format!("{}\n", count.grids))?;
    }
    out.finish()?;
    Ok(Status::Success)
}

fn run_sample(args: &SampleArgs) -> anyhow::Result<Status> {
    let sampler = GridSampler::new(args.box_shape)?;
    let mut out = Out::new();
    for index in 0..args.count {
        let grid = sampler.sample(&mut stream(args.seed, index));
        let line = to_line(&grid).expect("sampled boards have sides up to 9");
        out.write_str(&line)?;
        out.write_str("\n")?;
    }
    out.finish()?;
    Ok(Status::Success)
}
