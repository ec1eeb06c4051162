//! `sudolab hint`, `sudolab steps` and `sudolab rate`: the human-style step solver on the
//! command line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context as _, bail};
use clap::Args;
use rayon::prelude::*;
use serde_json::{Value, json};

use sudolab::corpus::Record;
use sudolab::human::{self, Board, NotProper, Rating, Step, format_tenths};
use sudolab::model::{Grid, Shape, cell_name, parse_line_record, to_line, to_one_line};
use sudolab::strategy::Limits;

use super::input::{Done, for_each_record_in_parallel, key, place};
use super::output::Out;
use super::trace::load_puzzle;
use super::{BudgetArgs, InputArgs, ReadArgs, Status};

// One puzzle, as `trace` takes it.
#[derive(Debug, Args)]
pub(crate) struct OnePuzzle {
    /// A puzzle in line form, or a file of puzzles (see --puzzle); none, or '-', reads
    /// standard input.
    #[arg(value_name = "PUZZLE|FILE")]
    puzzle: Option<PathBuf>,

    /// Which puzzle of the file or standard input (1 = the first).
    #[arg(
        long = "puzzle",
        short = 'p',
        value_name = "N",
        default_value_t = 1,
        value_parser = super::parse_position
    )]
    puzzle_number: usize,

    #[command(flatten)]
    read: ReadArgs,

    #[command(flatten)]
    budget: BudgetArgs,
}

/// The budget of the uniqueness check when none is given: the step solver's commands must end
/// (on a minimal 25x25 puzzle `fast`'s check takes minutes), and 10 s covers every 9x9, 16x16
/// and bundled 25x25 puzzle that is not minimal with a wide margin.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The limits of the uniqueness check: `--timeout` and `--max-nodes` as given, and
/// [`DEFAULT_TIMEOUT`] when neither is.
fn check_limits(budget: &BudgetArgs) -> anyhow::Result<Limits> {
    budget.check(&sudolab::strategy::Fast)?;
    let limits = budget.limits();
    Ok(if budget.timeout.is_none() && budget.max_nodes.is_none() {
        limits.with_timeout(DEFAULT_TIMEOUT)
    } else {
        limits
    })
}

#[derive(Debug, Args)]
pub(crate) struct HintArgs {
    #[command(flatten)]
    one: OnePuzzle,

    /// Write the step as one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct StepsArgs {
    #[command(flatten)]
    one: OnePuzzle,

    /// Write the path as one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct RateArgs {
    #[command(flatten)]
    input: InputArgs,

    /// Write one JSON object per puzzle (JSON lines) instead of tab-separated text.
    #[arg(long)]
    json: bool,

    /// Puzzles rated in parallel (default: one per core); the output is the same, in input
    /// order.
    #[arg(long, short = 'j', value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<usize>,

    #[command(flatten)]
    budget: BudgetArgs,

    /// A file of rated puzzles to correlate with: whitespace-separated fields per line, the
    /// puzzle the first field that reads as one, the ground truth in field COLUMN (1 = the
    /// first; default the last). Its puzzles are rated (give no FILE), and Spearman's and
    /// Kendall's correlations end the output.
    #[arg(long, value_name = "FILE[:COLUMN]")]
    against: Option<String>,

    /// With --against: also write the calibration chart (our rating against the ground truth)
    /// as one self-contained HTML page.
    #[arg(long, value_name = "FILE.html", requires = "against")]
    chart: Option<PathBuf>,
}

/// The puzzle, refused unless proper (within `limits`), with its board.
fn proper_board(puzzle: &Grid, limits: &Limits) -> Result<Board, NotProper> {
    human::is_proper_within(puzzle, limits)?;
    Board::new(puzzle).ok_or(NotProper::NoSolution)
}

fn cells_json(shape: Shape, pairs: &[(usize, u8)]) -> Value {
    Value::Array(
        pairs
            .iter()
            .map(|&(cell, digit)| json!({"cell": cell_name(shape, cell), "digit": digit}))
            .collect(),
    )
}

fn step_json(shape: Shape, step: &Step) -> Value {
    json!({
        "technique": step.technique,
        "name": step.technique.name(),
        "difficulty": f64::from(step.difficulty) / 10.0,
        "cells": step.cells.iter().map(|&cell| cell_name(shape, cell)).collect::<Vec<_>>(),
        "placements": cells_json(shape, &step.placements),
        "eliminations": cells_json(shape, &step.eliminations),
        "reason": step.reason,
    })
}

fn step_line(shape: Shape, number: usize, step: &Step) -> String {
    format!(
        "{number:>3}. {} {}: {}  ({})",
        format_tenths(step.difficulty),
        step.technique,
        step.effect(shape),
        step.reason
    )
}

/// The one puzzle of `hint` and `steps` with its candidate board; `None` for a puzzle with no
/// or several solutions (said on standard error), or whose uniqueness check gave up (said on
/// standard error, naming the puzzle, and with `json` as an object on standard output).
fn load_proper(one: &OnePuzzle, json: bool) -> anyhow::Result<Option<(Grid, Board)>> {
    let limits = check_limits(&one.budget)?;
    let puzzle = load_puzzle(one.puzzle.as_deref(), one.puzzle_number, one.read)?;
    match proper_board(&puzzle, &limits) {
        Ok(board) => Ok(Some((puzzle, board))),
        Err(not_proper @ NotProper::GaveUp(stop)) => {
            let line = to_one_line(&puzzle);
            note!("sudolab: {not_proper}; gave up on {line}");
            if json {
                let mut out = Out::new();
                let object = json!({
                    "puzzle": line,
                    "gave_up": true,
                    "stopped": stop.as_str(),
                    "reason": not_proper.to_string(),
                });
                out.write_str(&object.to_string())?;
                out.write_str("\n")?;
                out.finish()?;
            }
            Ok(None)
        }
        Err(not_proper) => {
            note!("sudolab: {not_proper}");
            Ok(None)
        }
    }
}

pub(crate) fn run_hint(args: &HintArgs) -> anyhow::Result<Status> {
    let Some((puzzle, board)) = load_proper(&args.one, args.json)? else {
        return Ok(Status::Negative);
    };
    let shape = puzzle.shape();
    let mut out = Out::new();
    if board.is_solved() {
        out.write_str(if args.json {
            "{\"solved\":true}\n"
        } else {
            "the puzzle is already solved\n"
        })?;
        out.finish()?;
        return Ok(Status::Success);
    }
    let Some(step) = human::next_step(&board) else {
        note!("sudolab: no technique the solver knows applies to this puzzle");
        return Ok(Status::Negative);
    };
    if args.json {
        out.write_str(&step_json(shape, &step).to_string())?;
        out.write_str("\n")?;
    } else {
        out.write_str(&format!(
            "{} ({}): {}\n{}\n",
            step.technique,
            format_tenths(step.difficulty),
            step.effect(shape),
            step.reason
        ))?;
    }
    out.finish()?;
    Ok(Status::Success)
}

pub(crate) fn run_steps(args: &StepsArgs) -> anyhow::Result<Status> {
    let Some((puzzle, board)) = load_proper(&args.one, args.json)? else {
        return Ok(Status::Negative);
    };
    let shape = puzzle.shape();
    let path = human::solve_board(board);
    let mut out = Out::new();
    let rating = format_tenths(path.difficulty());
    let hardest = path.hardest().map_or("none", human::Technique::name);
    if args.json {
        let object = json!({
            "puzzle": to_line(&puzzle).unwrap_or_default(),
            "solved": path.solved,
            "rating": f64::from(path.difficulty()) / 10.0,
            "hardest": path.hardest(),
            "steps": path.steps.iter().map(|step| step_json(shape, step)).collect::<Vec<_>>(),
            "end": to_line(&path.end).unwrap_or_default(),
        });
        out.write_str(&object.to_string())?;
        out.write_str("\n")?;
    } else {
        for (index, step) in path.steps.iter().enumerate() {
            out.write_str(&step_line(shape, index + 1, step))?;
            out.write_str("\n")?;
        }
        let count = path.steps.len();
        let summary = if path.solved {
            format!("solved in {count} steps; rating {rating} ({hardest})\n")
        } else {
            format!(
                "stopped after {count} steps: no technique the solver knows applies; hardest \
                 so far {rating} ({hardest})\n"
            )
        };
        out.write_str(&summary)?;
    }
    out.finish()?;
    Ok(if path.solved {
        Status::Success
    } else {
        Status::Negative
    })
}

/// `propagation=LEVEL\tte=N`: the propagation level (`none` when no level solves the puzzle)
/// and the T&E depth (`te>2` when T&E(2), the deepest tried, does not solve it).
fn depth_fields(rating: &Rating) -> String {
    let propagation = rating.propagation.map_or("none", human::Propagation::name);
    match rating.te_depth {
        Some(depth) => format!("propagation={propagation}\tte={depth}"),
        None => format!("propagation={propagation}\tte>{}", rating.te_tried),
    }
}

/// One rated puzzle's line, text or JSON.
fn rating_line(
    json: bool,
    key: &str,
    rated: &Result<Rating, NotProper>,
    truth: Option<f64>,
) -> String {
    if json {
        let mut object = match rated {
            Ok(rating) => {
                let mut object = json!({
                    "source": key,
                    "proper": true,
                    "solved": rating.solved,
                    "rating": rating.solved.then(|| f64::from(rating.difficulty) / 10.0),
                    "hardest": rating.hardest,
                    "steps": rating.steps,
                    "fast": {"nodes": rating.fast_nodes, "guesses": rating.fast_guesses},
                    "propagation": rating.propagation,
                    "te_depth": rating.te_depth,
                });
                if rating.te_depth.is_none() {
                    object["te_depth_above"] = json!(rating.te_tried);
                }
                if !rating.solved {
                    object["stopped_after"] = json!(rating.stopped_after);
                }
                object
            }
            Err(not_proper @ NotProper::GaveUp(stop)) => json!({
                "source": key,
                "proper": null,
                "gave_up": true,
                "stopped": stop.as_str(),
                "reason": not_proper.to_string(),
            }),
            Err(not_proper) => {
                json!({"source": key, "proper": false, "reason": not_proper.to_string()})
            }
        };
        if let Some(truth) = truth {
            object["truth"] = json!(truth);
        }
        return object.to_string();
    }
    let mut line = match rated {
        Ok(rating) if rating.solved => format!(
            "{key}\t{}\t{}\tsteps={}\tfast_nodes={}\tfast_guesses={}\t{}",
            format_tenths(rating.difficulty),
            rating.hardest.map_or("none", |t| t.name()),
            rating.steps,
            rating.fast_nodes,
            rating.fast_guesses,
            depth_fields(rating)
        ),
        Ok(rating) => format!(
            "{key}\tstopped\tafter {}\tsteps={}\tfast_nodes={}\tfast_guesses={}\t{}",
            rating.stopped_after.map_or("no step", |t| t.name()),
            rating.steps,
            rating.fast_nodes,
            rating.fast_guesses,
            depth_fields(rating)
        ),
        Err(not_proper) => format!("{key}\t{not_proper}"),
    };
    if let Some(truth) = truth {
        write!(line, "\ttruth={truth}").expect("writing to a String cannot fail");
    }
    line
}

pub(crate) fn run_rate(args: &RateArgs) -> anyhow::Result<Status> {
    if let Some(against) = &args.against {
        if !args.input.files.is_empty() {
            bail!("--against reads its puzzles from its own file; give no FILE with it");
        }
        return run_against(args, against);
    }
    let limits = check_limits(&args.budget)?;
    let gave_up = AtomicU64::new(0);
    let mut out = Out::new();
    let status = for_each_record_in_parallel(
        &args.input,
        args.jobs,
        None,
        |source, record: &Record, _| {
            let rated = human::rate_within(&record.puzzle, &limits).map(|(rating, _)| rating);
            let status = if rated.is_ok() {
                Status::Success
            } else {
                Status::Negative
            };
            let key = key(source, record);
            let mut notes = Vec::new();
            if let Err(not_proper @ NotProper::GaveUp(_)) = &rated {
                gave_up.fetch_add(1, Ordering::Relaxed);
                notes.push(format!("sudolab: {key}: {not_proper}"));
            }
            let _ = place(source, record);
            Done {
                line: Some(rating_line(args.json, &key, &rated, None)),
                notes,
                status,
            }
        },
        &mut out,
    )?;
    out.finish()?;
    let gave_up = gave_up.into_inner();
    if gave_up > 0 {
        note!(
            "sudolab: gave up on {gave_up} puzzles (their lines say 'gave up'); a larger \
             --timeout or --max-nodes may decide them"
        );
    }
    Ok(status)
}

/// `FILE[:COLUMN]`: the file and the 1-based column (`None`: the last field).
fn split_against(text: &str) -> anyhow::Result<(PathBuf, Option<usize>)> {
    if let Some((path, column)) = text.rsplit_once(':')
        && !column.is_empty()
        && column.chars().all(|c| c.is_ascii_digit())
    {
        let column: usize = column
            .parse()
            .with_context(|| format!("--against: column '{column}' is too large"))?;
        if column == 0 {
            bail!("--against: columns count from 1 (1 is the first field)");
        }
        return Ok((PathBuf::from(path), Some(column)));
    }
    Ok((PathBuf::from(text), None))
}

/// One line of a rated file: where it is, its puzzle and its ground truth.
struct RatedLine {
    line: usize,
    puzzle: Grid,
    truth: f64,
}

/// Reads a rated file; every line that cannot be used is an error naming its line and field.
fn read_rated(
    path: &Path,
    column: Option<usize>,
    read: ReadArgs,
) -> anyhow::Result<Vec<RatedLine>> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read"))?;
    let mut rated = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split_whitespace().collect();
        let truth_index = column.map_or(fields.len() - 1, |c| c - 1);
        let Some(truth_text) = fields.get(truth_index) else {
            bail!(
                "{name}: line {number}: has {} fields, so there is no column {}",
                fields.len(),
                truth_index + 1
            );
        };
        // A solution is a long run of digits, a number too: a column holding puzzles is a
        // mistake in COLUMN, not a rating.
        if truth_text.len() >= 16
            && parse_line_record(truth_text.as_bytes(), read.box_shape, number).is_ok()
        {
            bail!(
                "{name}: line {number}, field {}: expected a number, found a puzzle",
                truth_index + 1
            );
        }
        let truth: f64 = truth_text.parse().map_err(|_| {
            anyhow::anyhow!(
                "{name}: line {number}, field {}: expected a number, found '{truth_text}'",
                truth_index + 1
            )
        })?;
        let puzzle = fields
            .iter()
            .enumerate()
            .filter(|&(i, field)| i != truth_index && field.len() >= 16)
            .find_map(|(_, field)| {
                parse_line_record(field.as_bytes(), read.box_shape, number)
                    .ok()
                    .map(|record| record.puzzle)
            });
        let Some(puzzle) = puzzle else {
            bail!("{name}: line {number}: no field reads as a puzzle in line form");
        };
        rated.push(RatedLine {
            line: number,
            puzzle,
            truth,
        });
    }
    Ok(rated)
}

fn run_against(args: &RateArgs, against: &str) -> anyhow::Result<Status> {
    let (path, column) = split_against(against)?;
    if let Some(chart) = &args.chart {
        super::output::refuse_outputs_over_inputs(
            std::slice::from_ref(chart),
            std::slice::from_ref(&path),
            "chart",
        )?;
    }
    let limits = check_limits(&args.budget)?;
    let rated = read_rated(&path, column, args.input.read)?;
    let name = path.display().to_string();
    let (pool, _) = super::worker_pool(args.jobs)?;
    let results: Vec<Result<Rating, NotProper>> = pool.install(|| {
        rated
            .par_iter()
            .map(|line| human::rate_within(&line.puzzle, &limits).map(|(rating, _)| rating))
            .collect()
    });
    let mut out = Out::new();
    // The chart's file is created before the run, so a path that cannot be written fails
    // before minutes of rating.
    let chart_file = args
        .chart
        .as_ref()
        .map(|path| {
            std::fs::File::create(path)
                .with_context(|| format!("{}: cannot create the chart", path.display()))
        })
        .transpose()?;
    let (mut ours, mut truths) = (Vec::new(), Vec::new());
    let mut status = Status::Success;
    for (line, result) in rated.iter().zip(&results) {
        let key = format!("{name}:{}", line.line);
        out.write_str(&rating_line(args.json, &key, result, Some(line.truth)))?;
        out.write_str("\n")?;
        out.end_record()?;
        match result {
            Ok(rating) => {
                ours.push(rating.value());
                truths.push(line.truth);
            }
            Err(_) => status = Status::Negative,
        }
    }
    let shown = |value: Option<f64>| value.map_or("undefined".to_string(), |v| format!("{v:.4}"));
    let spearman = human::spearman(&ours, &truths);
    let kendall = human::kendall_tau_b(&ours, &truths);
    if let (Some(mut file), Some(path)) = (chart_file, &args.chart) {
        use std::io::Write as _;
        let pairs: Vec<(f64, f64)> = truths.iter().copied().zip(ours.iter().copied()).collect();
        let page = human::calibration_html(against, &pairs, spearman, kendall);
        file.write_all(page.as_bytes())
            .with_context(|| format!("{}: cannot write the chart", path.display()))?;
    }
    let stopped = results
        .iter()
        .filter(|r| r.as_ref().is_ok_and(|rating| !rating.solved))
        .count();
    let summary = if args.json {
        json!({
            "summary": {
                "against": against,
                "puzzles": ours.len(),
                "not_proper": results.len() - ours.len(),
                "stopped": stopped,
                "spearman": spearman,
                "kendall_tau_b": kendall,
            }
        })
        .to_string()
    } else {
        format!(
            "# {} puzzles rated against {against} ({} not proper, {stopped} stopped, counted as \
             10.0): Spearman {}, Kendall tau-b {}",
            ours.len(),
            results.len() - ours.len(),
            shown(spearman),
            shown(kendall)
        )
    };
    out.write_str(&summary)?;
    out.write_str("\n")?;
    out.finish()?;
    Ok(status)
}
