//! `sudolab generate`: puzzles with a proven unique solution.

use std::io;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;
use serde_json::json;

use sudolab::experiment::Shard;
use sudolab::experiment::generate::{
    self as request, Candidate, HumanRated, Prepared, RatingFilter, Request, Unique,
};
use sudolab::generate::{Balance, Symmetry};
use sudolab::model::{Features, Shape, to_line, to_one_line};
use sudolab::strategy::Strategy;

use super::human_filter::HumanFilterArgs;
use super::output::Out;
use super::{Status, parse_duration, worker_pool};

mod unbiased;

/// Parses `--rating`: `any`, `guess`, `no-guess`, or `MIN..MAX` on Sudoku Explainer's scale.
fn parse_rating_filter(text: &str) -> Result<RatingFilter, String> {
    text.parse()
}

// Command-line flags are booleans by nature.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// Board side: 4, 6, 9, 12, 16, 25, ... (boxes as square as the side allows; 6 is 2x3).
    #[arg(long, default_value_t = 9, conflicts_with = "box_shape")]
    size: usize,

    /// Box shape, rows x columns, instead of --size (3x4 for 12x12 with 3-row boxes).
    #[arg(long = "box", value_name = "RxC")]
    box_shape: Option<Shape>,

    /// Puzzles to write.
    #[arg(long, short = 'c', default_value_t = 1)]
    count: u64,

    /// Seed of the ChaCha stream: the same seed and options give the same puzzles everywhere,
    /// with any --jobs.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Stop removing clues at K; when no removal keeps the solution unique before that, the
    /// puzzle stops above K and the summary says so.
    #[arg(long, value_name = "K")]
    clues: Option<usize>,

    /// Remove clues until none can go (the default without --clues). With a symmetry: until
    /// no orbit can go.
    #[arg(long, conflicts_with = "clues")]
    minimal: bool,

    /// Keep the givens symmetric: clues are removed a whole orbit at a time.
    #[arg(long, value_parser = super::choice::<Symmetry>(), default_value_t = Symmetry::None)]
    symmetry: Symmetry,

    /// The strategy that proves uniqueness after each removal (see 'sudolab strategies').
    /// 'auto' takes fast up to 12x12 and sat above, where clause learning decides minimal
    /// puzzles that propagation and guessing take long on; when that one refuses the board
    /// (sat above 36x36), the other. The same choice as certify's and Python's.
    #[arg(long, default_value = "auto")]
    checker: String,

    /// Budget of one uniqueness check; an undecided removal is undone (the puzzle stays
    /// unique, but may not be minimal: the JSON output counts them as 'undecided').
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_duration)]
    check_timeout: Duration,

    /// Re-prove each puzzle unique with these strategies too, and compare their solution with
    /// the generator's; any disagreement is an error.
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    verify: Vec<String>,

    /// An outside solver as one more verifier, NAME=COMMAND (repeatable; the syntax of
    /// 'compare --external', protocol in docs/external.md): it re-proves every puzzle after the
    /// strategies of --verify (name it there to place it), on the checker's budget.
    #[arg(long, value_name = "NAME=COMMAND")]
    external: Vec<String>,

    #[command(flatten)]
    external_limits: super::compare::ExternalLimitArgs,

    /// Keep only puzzles that need guessing ('guess'), only those fast's propagation solves
    /// ('no-guess'), or those whose human rating (sudolab rate, Sudoku Explainer's scale) is
    /// in MIN..MAX, such as 4.0..6.0.
    #[arg(long, value_name = "guess|no-guess|MIN..MAX", default_value = "any", value_parser = parse_rating_filter)]
    rating: RatingFilter,

    #[command(flatten)]
    human_filter: HumanFilterArgs,

    /// Write each puzzle's solution after it, on the same line.
    #[arg(long)]
    with_solution: bool,

    /// Write one JSON document: seed, options and per-puzzle stats (clues, checks, rating).
    #[arg(long)]
    json: bool,

    /// Puzzles generated in parallel (default: one per core); the output is the same.
    #[arg(long, short = 'j', value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<usize>,

    /// Print a summary on standard error: puzzles per second, clue counts.
    #[arg(long)]
    stats: bool,

    /// Variant rules for every puzzle: latin, x, windoku, anti-king, anti-knight,
    /// nonconsecutive, killer (random cages over each solution; needs --json), joined by ','.
    /// The line form does not carry the rules: read the puzzles back with the same --variant.
    #[arg(long, value_name = "NAME,...")]
    variant: Option<Features>,

    /// Variant rules from a file (JSON or TOML, the keys of docs/variants.md: regions,
    /// diagonals, cages, ...), for jigsaw regions and fixed cages; needs --json.
    #[arg(long, value_name = "FILE")]
    rules: Option<std::path::PathBuf>,

    /// The instance family: 'sudoku' (puzzles with a unique solution, the default), 'latin'
    /// (Latin square completion with a unique solution, order --size), 'qwh' (quasigroup with
    /// holes: a uniformly random Latin square of order --size with --holes cells emptied) or
    /// 'gsp' (a random Sudoku solution with --holes cells emptied). qwh and gsp instances always
    /// have a solution, the one written with them, and are not checked for uniqueness.
    #[arg(long, value_enum, default_value_t = Model::Sudoku)]
    model: Model,

    /// Cells to empty, for --model qwh and gsp.
    #[arg(long, value_name = "H")]
    holes: Option<usize>,

    /// How qwh and gsp spread their holes: 'none' (uniformly), 'rows' (the same number per row)
    /// or 'full' (per row and per column: the balanced, hardest instances).
    #[arg(long, value_parser = super::choice::<Balance>(), default_value_t = Balance::None)]
    balance: Balance,

    /// Write only shard K of N of the --count puzzles: a contiguous range of their indices
    /// (the shards' outputs, concatenated in order, are the output of one run). 'auto' takes
    /// the task of a Slurm job array; 'auto/N' shard K of N, K the array task or GNU
    /// parallel's job number.
    #[arg(long, value_name = "K/N|auto[/N]")]
    shard: Option<Shard>,

    /// Berthier's controlled-bias generator: from an exactly uniform grid (as 'grids sample';
    /// boxes 2x2, 2x3, 3x2, 2x4, 4x2, 3x3), delete cells in a uniformly random order until
    /// the puzzle has a second solution, put the last one back, and keep the puzzle only if
    /// it is minimal; --count is the minimal puzzles kept, and every check runs to its end
    /// (--check-timeout does not apply). --stats adds the clue-count distribution, raw and
    /// weighted by C(cells, clues) to undo the bias, beside Berthier's published one on 9x9
    /// (docs/reproductions.md). Few attempts keep a puzzle: 0.3% on 6x6, and on 9x9 about
    /// one in 200,000, so 10,000 9x9 puzzles take hours of CPU even with
    /// --attempts-per-grid 1000, the fastest way (docs/benchmarks.md has the figures).
    #[arg(long, conflicts_with_all = ["clues", "minimal", "symmetry", "rating", "variant",
          "rules", "model", "holes", "verify", "external"])]
    unbiased: bool,

    /// With --unbiased, make every attempt on the first M grids and keep every minimal puzzle
    /// they give, instead of stopping at --count puzzles. With --shard K/N, only shard K's
    /// range of the M grids: the shards' lines, concatenated in order, are the whole run's,
    /// and --summarize puts the distributions of their --json documents together, so that a
    /// run of hours can be spread over machines or sessions.
    #[arg(
        long,
        value_name = "M",
        requires = "unbiased",
        conflicts_with = "count"
    )]
    grids: Option<u64>,

    /// With --unbiased, generate nothing: read the --json documents of shards of one
    /// '--unbiased --grids M' run (same seed, board, checker, attempts a grid and M; their
    /// grid ranges covering grids 0 to M with no gap, or see --allow-partial) and print the
    /// distribution of all their puzzles as --stats does, on stdout (--json: as one
    /// document).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "unbiased",
          conflicts_with_all = ["grids", "count", "shard", "stats"])]
    summarize: Vec<std::path::PathBuf>,

    /// With --summarize, join the shards given even when some are missing (a run still under
    /// way): the output names the missing grids, and the distribution is of the shards made.
    #[arg(long, requires = "summarize")]
    allow_partial: bool,

    /// With --unbiased, attempts on each drawn grid (default 1: a fresh grid per attempt).
    /// Every grid gets the same number of attempts whatever they keep, so the weighted
    /// distribution stays unbiased; its standard errors then count a grid's puzzles as one
    /// sample. The attempts on a grid share the unavoidable sets their checks find, and
    /// with them most attempts are decided in one or two checks instead of seven or eight;
    /// on 9x9, where a draw also costs more than an attempt, hundreds or thousands of
    /// attempts a grid make a long run several times faster (the sets change the checks
    /// made, never a puzzle).
    #[arg(long, value_name = "K", default_value_t = 1, requires = "unbiased",
          value_parser = clap::value_parser!(u64).range(1..))]
    attempts_per_grid: u64,
}

/// The instance family of `generate --model`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Model {
    /// Sudoku (or a --variant of it) with a unique solution.
    #[default]
    Sudoku,
    /// Latin square completion with a unique solution.
    Latin,
    /// Quasigroup with holes: a random Latin square with holes.
    Qwh,
    /// Generalized Sudoku with holes: a random Sudoku solution with holes.
    Gsp,
}

/// The request the arguments make: every option as the library takes it, the outside
/// solvers started.
fn request_of(args: &GenerateArgs) -> anyhow::Result<Request> {
    Ok(Request {
        size: args.size,
        box_shape: args.box_shape,
        seed: args.seed,
        clues: args.clues,
        minimal: args.clues.is_none(),
        symmetry: args.symmetry,
        checker: args.checker.clone(),
        check_timeout: Some(args.check_timeout),
        verify: args.verify.clone(),
        outside: request::Outside(super::compare::externals(
            &args.external,
            &args.external_limits,
        )?),
        rating: args.rating,
        human_filter: args.human_filter.filter(),
        variant: args.variant,
        rules: args.rules.clone(),
        model: match args.model {
            Model::Sudoku => request::Model::Sudoku,
            Model::Latin => request::Model::Latin,
            Model::Qwh => request::Model::Qwh,
            Model::Gsp => request::Model::Gsp,
        },
        holes: args.holes,
        balance: args.balance,
        carries_rules: args.json,
        want_rating: args.json,
        unbiased: args.unbiased,
        attempts_per_grid: args.attempts_per_grid,
    })
}

/// What a run produced, for the messages at its end.
struct Reached {
    written: u64,
    missed: u64,
    clue_counts: Vec<usize>,
    seconds: f64,
}

impl Reached {
    fn report(&self, args: &GenerateArgs, shape: Shape, checker: &dyn Strategy, jobs: usize) {
        let Reached {
            written,
            missed,
            clue_counts,
            seconds,
        } = self;
        let (written, missed, seconds) = (*written, *missed, *seconds);
        if missed > 0 {
            note!(
                "sudolab: {missed} of {written} puzzles stopped above {} clues (no further removal \
                 kept the solution unique; fewest reached: {})",
                args.clues.unwrap_or(0),
                clue_counts.iter().min().copied().unwrap_or(0)
            );
        }
        if args.stats && written > 0 {
            let side = shape.side();
            let mean = clue_counts.iter().sum::<usize>() as f64 / clue_counts.len() as f64;
            let puzzles = if written == 1 { "puzzle" } else { "puzzles" };
            let job_word = if jobs == 1 { "job" } else { "jobs" };
            note!(
                "sudolab: {written} {side}x{side} {puzzles} in {seconds:.2} s ({:.1} per second, \
                 {jobs} {job_word}, checker {}); clues min {} mean {mean:.2} max {}",
                written as f64 / seconds,
                checker.name(),
                clue_counts.iter().min().copied().unwrap_or(0),
                clue_counts.iter().max().copied().unwrap_or(0)
            );
        }
    }
}

pub(crate) fn run(args: &GenerateArgs) -> anyhow::Result<Status> {
    if !args.summarize.is_empty() {
        // Reads shards' documents: nothing to prepare (a 9x9 sampler's tables take seconds).
        return unbiased::summarize::run(args);
    }
    let request = request_of(args)?;
    let holes_model = matches!(args.model, Model::Qwh | Model::Gsp);
    if !holes_model && args.holes.is_none() && args.shard.is_some() && request.filters() {
        bail!(
            "--shard splits the puzzles by index, but --rating skips candidates, so a shard \
             cannot know where its part starts; generate without --shard, or without --rating"
        );
    }
    match request.prepare()? {
        Prepared::Unique(run) => run_unique(args, &run),
        Prepared::Holes(holes) => run_holes(args, &holes),
        Prepared::Unbiased(run) => unbiased::run(args, &run),
    }
}

/// Puzzles with a unique solution: carved from random solutions while the checker says unique.
fn run_unique(args: &GenerateArgs, run: &Unique) -> anyhow::Result<Status> {
    let (options, checker) = (run.options(), run.checker());
    let (first_index, count) = index_range(args);
    let shape = options.shape;
    if !args.json && shape.side() > 35 {
        bail!("the line form holds sides up to 35; use --json for {shape} boxes");
    }
    let (pool, jobs) = worker_pool(args.jobs)?;
    if options.minimal && options.clues.is_none() && shape.side() >= 25 {
        // Tens of minutes with no output would look like a hang.
        note!(
            "sudolab: a minimal {0}x{0} puzzle takes minutes (each of its {1} cells is tried for \
             removal with a uniqueness check of up to --check-timeout); --clues {2} is much \
             quicker",
            shape.side(),
            shape.cell_count(),
            shape.cell_count() * 18 / 25
        );
    }

    let mut out = Out::new();
    if args.json {
        write_header(&mut out, args, run)?;
    }
    let started = Instant::now();
    let mut written = 0u64;
    let mut status = Status::Success;
    let mut clue_counts: Vec<usize> = Vec::new();
    let mut missed = 0u64;
    // A puzzle that fails its verification is reported and takes its place in the count
    // unwritten (the batches count it).
    let mut batches = run.batches(first_index, count);
    loop {
        let batch = batches.next_batch(&pool)?;
        if batch.is_empty() {
            break;
        }
        for candidate in batch {
            let generated = &candidate.generated;
            if !candidate.problems.is_empty() {
                for problem in &candidate.problems {
                    note!(
                        "sudolab: puzzle {} of seed {}: {problem}\n  puzzle: {}",
                        generated.index,
                        args.seed,
                        to_one_line(&generated.puzzle)
                    );
                }
                status = Status::Negative;
                continue;
            }
            if !generated.target_met {
                missed += 1;
            }
            clue_counts.push(generated.clues);
            write_puzzle(&mut out, args, &candidate, written)?;
            written += 1;
            out.end_record()?;
        }
    }
    if args.json {
        out.write_str("\n]}\n")?;
    }
    out.finish()?;
    let reached = Reached {
        written,
        missed,
        clue_counts,
        seconds: started.elapsed().as_secs_f64(),
    };
    reached.report(args, shape, checker, jobs);
    Ok(status)
}

/// `--model qwh|gsp`: random solutions with `--holes` cells emptied, each written with its
/// solution (line form: the puzzle, then the solution; read a qwh file back with
/// `--variant latin`). Nothing is searched, so every instance comes at once.
fn run_holes(args: &GenerateArgs, holes: &request::Holes) -> anyhow::Result<Status> {
    let shape = holes.shape();
    if !args.json && shape.side() > 35 {
        bail!(
            "the line form holds sides up to 35; use --json for order {}",
            shape.side()
        );
    }
    let (first_index, count) = index_range(args);
    let mut out = Out::new();
    if args.json {
        let header = json!({
            "seed": args.seed,
            "model": args.model,
            "size": shape.side(),
            "holes": holes.holes(),
            "balance": args.balance,
        })
        .to_string();
        out.write_str(&header[..header.len() - 1])?;
        out.write_str(",\"puzzles\":[")?;
    }
    for (written, index) in (first_index..first_index + count).enumerate() {
        let instance = holes.instance(index);
        if args.json {
            let object = json!({
                "index": index,
                "holes": holes.holes(),
                "puzzle": sudolab::corpus::grid_to_json(&instance.puzzle),
                "solution": sudolab::corpus::grid_to_json(&instance.solution),
            });
            out.write_str(if written == 0 { "\n" } else { ",\n" })?;
            out.write_str(&object.to_string())?;
        } else {
            let mut line = to_line(&instance.puzzle).expect("sides up to 35");
            if args.with_solution {
                line.push(' ');
                line.push_str(&to_line(&instance.solution).expect("same side"));
            }
            line.push('\n');
            out.write_str(&line)?;
        }
        out.end_record()?;
    }
    if args.json {
        out.write_str("\n]}\n")?;
    }
    out.finish()?;
    Ok(Status::Success)
}

/// The first puzzle index and how many puzzles to write: all of --count, or --shard's part.
fn index_range(args: &GenerateArgs) -> (u64, u64) {
    match args.shard {
        Some(shard) => {
            let range = shard.range(args.count);
            (range.start, range.end - range.start)
        }
        None => (0, args.count),
    }
}

/// The JSON document's opening: seed, options, checker, verifiers, rating; the puzzles follow.
fn write_header(out: &mut Out, args: &GenerateArgs, run: &Unique) -> io::Result<()> {
    let mut header = json!({
        "seed": args.seed,
        "options": run.options(),
        "checker": run.checker().name(),
        "verify": run.verifiers().iter().map(|v| v.name()).collect::<Vec<_>>(),
        "rating": args.rating.name(),
    });
    if let Some(variant) = run.variant() {
        header["model"] = json!(args.model);
        header["variant"] = json!(variant.name());
    }
    if args.human_filter.filter().any() {
        header["filters"] = json!(args.human_filter.filter().describe());
    }
    let header = header.to_string();
    out.write_str(&header[..header.len() - 1])?;
    out.write_str(",\"puzzles\":[")?;
    Ok(())
}

fn write_puzzle(
    out: &mut Out,
    args: &GenerateArgs,
    candidate: &Candidate,
    written: u64,
) -> io::Result<()> {
    let generated = &candidate.generated;
    if args.json {
        let mut object = serde_json::to_value(generated).expect("a puzzle serializes");
        object["puzzle"] = json!(sudolab::corpus::grid_to_json(&generated.puzzle));
        object["solution"] = json!(sudolab::corpus::grid_to_json(&generated.solution));
        if let Some(line) = to_line(&generated.puzzle) {
            object["line"] = json!(line);
        }
        object["rating"] = json!(candidate.rating);
        match candidate.human {
            Some(HumanRated::Rated(tenths)) => {
                object["human_rating"] = json!(f64::from(tenths) / 10.0);
            }
            Some(HumanRated::Unrated) => object["human_rating"] = json!(null),
            None => {}
        }
        let separator = if written == 0 { "\n" } else { ",\n" };
        out.write_str(separator)?;
        out.write_str(&object.to_string())
    } else {
        let mut line = to_line(&generated.puzzle).expect("sides above 35 need --json");
        if args.with_solution {
            line.push(' ');
            line.push_str(&to_line(&generated.solution).expect("same side as the puzzle"));
        }
        line.push('\n');
        out.write_str(&line)
    }
}
