//! `sudolab grids`: whole grids, counted exactly by the band method, and drawn uniformly.

use std::io::BufRead;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use sudolab::grids::{
    DEFAULT_SET_DIGITS, GaveUp, GridSampler, MinCluesOptions, MinCluesStats, burnside, count_grids,
    essentially_different, min_clues, minimum_over_grids,
};
use sudolab::model::{Shape, parse_line_record, to_line};
use sudolab::strategy::rng::stream;

use super::output::Out;
use super::{Status, parse_duration};

// `defer`, as for the top-level commands (`cli::Command`): the arguments are defined only
// when this command is the one run.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
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
    ///   sudolab grids count --box 2x3 --essentially-different   # 49
    #[command(verbatim_doc_comment)]
    Count(CountArgs),
    /// Draw complete grids, every grid of the box shape exactly equally likely
    ///
    /// Each draw follows the exact counts of 'grids count' band by band, so a grid's chance is
    /// one over the number of grids (docs/reproductions.md). Grid I (from 0) of a run is drawn
    /// from the random stream I of --seed, so a seed and a count reproduce the same lines.
    /// One grid per line. The sampler first counts the shape's grids: a moment for 4x4 to
    /// 8x8, a few seconds for 9x9 (tables of bands per layout and of completions per class of
    /// first bands), after which a 9x9 draw takes tens of microseconds.
    ///
    /// Examples:
    ///   sudolab grids sample --box 2x3 --seed 1 -c 5
    ///   sudolab grids sample --box 2x2 --seed 7 -c 1000 | sort | uniq -c | wc -l   # 288
    #[command(verbatim_doc_comment)]
    Sample(SampleArgs),
    /// List every puzzle of K clues inside a complete grid whose only solution is that grid
    ///
    /// After McGuire, Tugemann and Civario (2012), who showed that no 9x9 puzzle has 16 clues:
    /// the grid's unavoidable sets (cells that another grid fills differently, so a unique
    /// puzzle needs a clue in each) are collected by blanking every cell of a few digits and
    /// enumerating the completions, then the K-cell sets that hit them all are enumerated,
    /// branching on the smallest set not yet hit, and each is checked by the fast engine (a
    /// second solution shows a new unavoidable set, kept for the rest of the search).
    ///
    /// Prints each puzzle on a line (line form), then a summary on stderr: the sets, the
    /// nodes, the time, and whether the search was complete. With none found, a complete
    /// search proves the grid has no unique puzzle of K clues (nor of fewer: adding clues to a
    /// unique puzzle keeps it unique). A complete listing decides K-1 clues too: the grid has
    /// a unique puzzle of K-1 clues exactly when a listed puzzle is not minimal (that puzzle
    /// less the clue it can lose), which the engine checks clue by clue; so --clues 17
    /// answers 16 as well. Exit status 0 when complete,
    /// 1 when it gave up at a budget (the puzzles printed are then only some of them).
    ///
    /// --all --box RxC runs over every grid of a board up to 6x6 instead and prints the fewest
    /// clues of a unique puzzle (published: 4 for 4x4, 8 for 6x6). It decides one grid of each
    /// class of essentially different grids (2 for 4x4, 49 for 6x6): relabelling digits,
    /// permuting rows inside bands, bands, columns inside stacks, stacks, and transposing
    /// (square boxes) keep a puzzle's clue count and uniqueness. 4x4 and 6x6 take seconds; a
    /// 9x9 grid's 16 clues take minutes of one core and its 17 clues a quarter of an hour or
    /// more, so give a long run a --timeout.
    ///
    /// Examples:
    ///   sudolab grids min-clues 1234341221434321 --clues 4
    ///   sudolab grids min-clues 123456456123231564564231312645645312 --clues 9 --json
    ///   echo 1234341221434321 | sudolab grids min-clues - --clues 3   # none: a proof
    ///   sudolab grids min-clues --all --box 2x2        # 4
    ///   sudolab grids min-clues --all --box 2x3        # 8
    #[command(verbatim_doc_comment)]
    MinClues(MinCluesArgs),
}

#[derive(Debug, Args)]
pub(crate) struct MinCluesArgs {
    /// Complete grids in the line form, or '-' to read them from standard input, one per line
    /// (a line with a solution after its puzzle stands for the solution).
    #[arg(
        value_name = "GRID",
        required_unless_present = "all",
        conflicts_with = "all"
    )]
    grids: Vec<String>,

    /// The number of clues of the puzzles to list (required with GRID).
    #[arg(long, short = 'k', value_name = "K", required_unless_present = "all")]
    clues: Option<usize>,

    /// Run over one grid of each class of essentially different grids of the board given by
    /// --box (up to 6x6) and print the fewest clues of a puzzle with a unique solution.
    #[arg(long)]
    all: bool,

    /// Box shape, rows x columns, for the grids read (default: the usual box of the side) and
    /// for --all (default 2x2).
    #[arg(long = "box", value_name = "RxC")]
    box_shape: Option<Shape>,

    /// Digits blanked together when the unavoidable sets are collected: every set made of at
    /// most this many digits is found before the search (more are found during it); default 4.
    #[arg(long, value_name = "D", default_value_t = DEFAULT_SET_DIGITS as u8,
          value_parser = clap::value_parser!(u8).range(2..=9))]
    set_digits: u8,

    /// Give up after this many hitting-set nodes per grid (a node is one partial clue set;
    /// deterministic at any load); default: no bound.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,

    /// Give up after this much time per grid (e.g. 30s, 5m; a plain number is seconds);
    /// default: none.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    timeout: Option<Duration>,

    /// Print a JSON object per grid on standard output instead (the puzzles and the summary:
    /// sets, nodes, checks, seconds, complete).
    #[arg(long)]
    json: bool,
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

    /// Count the essentially different grids instead: classes under relabelling digits,
    /// permuting rows in a band, bands, columns in a stack and stacks, and transposing square
    /// boxes (2x2: 2, 2x3 and 3x2: 49), counted twice, as orbits and by Burnside's lemma, and
    /// refused if the two disagree (`--json` adds the group's order and its conjugacy classes).
    /// 3x3 (9x9) by Burnside's lemma alone: 5472730538 (Russell and Jarvis), about a quarter
    /// of an hour on one core (no output until done). Other boxes (2x4, 4x2) are refused.
    #[arg(long)]
    essentially_different: bool,
}

pub(crate) fn run(command: &GridsCommand) -> anyhow::Result<Status> {
    match command {
        GridsCommand::Count(args) => run_count(args),
        GridsCommand::Sample(args) => run_sample(args),
        GridsCommand::MinClues(args) => run_min_clues(args),
    }
}

fn min_clues_options(args: &MinCluesArgs) -> MinCluesOptions {
    MinCluesOptions {
        set_digits: usize::from(args.set_digits),
        max_nodes: args.max_nodes,
        timeout: args.timeout.filter(|timeout| !timeout.is_zero()),
        ..MinCluesOptions::default()
    }
}

/// The gave-up sentence of a search stopped at a budget.
fn gave_up_message(reason: GaveUp, args: &MinCluesArgs) -> String {
    match reason {
        GaveUp::Nodes => format!(
            "gave up after {} nodes (--max-nodes): the search is not complete",
            args.max_nodes.unwrap_or_default()
        ),
        GaveUp::Timeout => format!(
            "gave up after {:.1} s (--timeout): the search is not complete",
            args.timeout.unwrap_or_default().as_secs_f64()
        ),
        GaveUp::Cancelled => "interrupted: the search is not complete".to_string(),
    }
}

fn run_min_clues(args: &MinCluesArgs) -> anyhow::Result<Status> {
    if args.all {
        return run_min_clues_all(args);
    }
    let clues = args.clues.expect("clap requires --clues with GRID");
    let mut texts = Vec::new();
    for grid in &args.grids {
        if grid == "-" {
            for line in std::io::stdin().lock().lines() {
                let line = line?;
                if !line.trim().is_empty() && !line.trim_start().starts_with('#') {
                    texts.push(line);
                }
            }
        } else {
            texts.push(grid.clone());
        }
    }
    let options = min_clues_options(args);
    let mut out = Out::new();
    let mut status = Status::Success;
    for (index, text) in texts.iter().enumerate() {
        let record = parse_line_record(text.trim().as_bytes(), args.box_shape, index + 1)
            .map_err(|err| anyhow::anyhow!("grid {}: {err}", index + 1))?;
        let grid = record.solution.unwrap_or(record.puzzle);
        let mut puzzles = Vec::new();
        let stats = min_clues(&grid, clues, &options, &mut |puzzle| {
            puzzles.push(to_line(puzzle).expect("boards of at most 128 cells"));
        })
        .map_err(|err| anyhow::anyhow!("grid {}: {err}", index + 1))?;
        let seconds = stats.seconds;
        let grid_line = to_line(&grid).expect("boards of at most 128 cells");
        if args.json {
            let value = serde_json::json!({
                "grid": grid_line,
                "clues": clues,
                "puzzles": puzzles,
                "complete": stats.complete(),
                "gave_up": stats.gave_up.map(GaveUp::as_str),
                "initial_sets": stats.initial_sets,
                "sets_added": stats.sets_added,
                "digit_subsets": stats.digit_subsets,
                "completions": stats.completions,
                "nodes": stats.nodes,
                "checks": stats.checks,
                "unique_with_one_fewer": stats.fewer,
                "seconds": seconds,
                "cpu_seconds": stats.cpu_seconds,
            });
            out.write_str(&serde_json::to_string(&value)?)?;
            out.write_str("\n")?;
        } else {
            for puzzle in &puzzles {
                out.write_str(puzzle)?;
                out.write_str("\n")?;
            }
        }
        let verdict = match stats.gave_up {
            Some(reason) => {
                status = Status::Negative;
                gave_up_message(reason, args)
            }
            None => complete_verdict(&stats, clues, puzzles.len()),
        };
        eprintln!(
            "grid {} {grid_line}: {verdict}; {} unavoidable sets ({} digit subsets, {} \
             completions) + {} found in the search, {} nodes, {} checks, {seconds:.3} s{}",
            index + 1,
            stats.initial_sets,
            stats.digit_subsets,
            stats.completions,
            stats.sets_added,
            stats.nodes,
            stats.checks,
            stats
                .cpu_seconds
                .map(|cpu| format!(" ({cpu:.3} s CPU)"))
                .unwrap_or_default(),
        );
    }
    out.finish()?;
    Ok(status)
}

/// What a complete search found, and what that says of one clue fewer.
fn complete_verdict(stats: &MinCluesStats, clues: usize, puzzles: usize) -> String {
    if puzzles == 0 {
        return format!("complete: no unique puzzle of {clues} clues or fewer in this grid");
    }
    let listed = format!(
        "complete: {puzzles} unique puzzle{} of {clues} clues",
        if puzzles == 1 { "" } else { "s" }
    );
    let fewer = clues - 1;
    match stats.fewer {
        Some(false) if puzzles == 1 => format!("{listed}, minimal, so none of {fewer}"),
        Some(false) => format!("{listed}, all minimal, so none of {fewer}"),
        Some(true) => {
            format!("{listed}, not all minimal, so the grid has unique puzzles of {fewer}")
        }
        None => listed,
    }
}

fn run_min_clues_all(args: &MinCluesArgs) -> anyhow::Result<Status> {
    let shape = args.box_shape.unwrap_or(Shape::new(2, 2)?);
    let started = Instant::now();
    let minimum = minimum_over_grids(shape, &min_clues_options(args))?;
    let seconds = started.elapsed().as_secs_f64();
    let mut out = Out::new();
    let witness = minimum
        .witness
        .as_ref()
        .and_then(to_line)
        .unwrap_or_default();
    if args.json {
        let value = serde_json::json!({
            "box": shape.to_string(),
            "min_clues": minimum.clues,
            "witness": witness,
            "grids": minimum.grids,
            "grids_at_minimum": minimum.grids_at_minimum,
            "nodes": minimum.nodes,
            "complete": minimum.gave_up.is_none(),
            "gave_up": minimum.gave_up.map(GaveUp::as_str),
            "seconds": seconds,
        });
        out.write_str(&serde_json::to_string_pretty(&value)?)?;
        out.write_str("\n")?;
    }
    let status = match (minimum.gave_up, minimum.clues) {
        (Some(_), _) | (None, None) => {
            eprintln!(
                "{}",
                gave_up_message(reason_or_cancel(minimum.gave_up), args)
            );
            Status::Negative
        }
        (None, Some(clues)) => {
            if !args.json {
                out.write_str(&format!("{clues}\n"))?;
            }
            eprintln!(
                "{shape}: fewest clues {clues} ({} of {} essentially different grids reach it, \
                 e.g. {witness}); {} nodes, {seconds:.1} s",
                minimum.grids_at_minimum, minimum.grids, minimum.nodes,
            );
            Status::Success
        }
    };
    out.finish()?;
    Ok(status)
}

fn reason_or_cancel(reason: Option<GaveUp>) -> GaveUp {
    reason.unwrap_or(GaveUp::Cancelled)
}

fn run_count(args: &CountArgs) -> anyhow::Result<Status> {
    let started = Instant::now();
    if args.essentially_different {
        // 9x9 by Burnside's lemma alone (its grids are far too many for orbits); smaller boards
        // counted twice, as orbits and by the lemma, a disagreement being a bug in one method,
        // reported instead of either figure. `essentially_different` refuses the other shapes.
        let nine = args.box_shape.box_rows() == 3 && args.box_shape.box_cols() == 3;
        let orbits = if nine {
            None
        } else {
            Some(essentially_different(args.box_shape)?)
        };
        let lemma = burnside(args.box_shape)?;
        if let Some(orbits) = orbits.filter(|&o| lemma.essentially_different != u128::from(o)) {
            anyhow::bail!(
                "--box {} --essentially-different: the orbit count gives {orbits} but Burnside's \
                 lemma gives {}; one of the two methods is wrong",
                args.box_shape,
                lemma.essentially_different
            );
        }
        let classes = u64::try_from(lemma.essentially_different)
            .expect("essentially different grids of boards up to 9x9 fit in 64 bits");
        let mut out = Out::new();
        if args.json {
            let value = serde_json::json!({
                "box": args.box_shape.to_string(),
                "essentially_different": classes,
                "group_order": lemma.group_order,
                "conjugacy_classes": lemma.classes.len(),
                "classes_fixing_grids": lemma.classes.iter().filter(|class| class.fixed > 0).count(),
                "seconds": started.elapsed().as_secs_f64(),
            });
            out.write_str(&serde_json::to_string_pretty(&value)?)?;
            out.write_str("\n")?;
        } else {
            out.write_str(&format!("{classes}\n"))?;
        }
        out.finish()?;
        return Ok(Status::Success);
    }
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
