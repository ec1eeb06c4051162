//! `sudolab generate`: puzzles with a proven unique solution.

use std::io;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;
use rayon::prelude::*;
use serde_json::json;

use std::sync::Arc;
use sudolab::experiment::{self, Item, Plan, Scratch, Shard};
use sudolab::generate::{self, Generated, Options, Rating, Symmetry};

use sudolab::generate::Balance;
use sudolab::model::{Features, Grid, Rules, RulesSpec, Shape, to_line, to_one_line};
use sudolab::strategy::{self, EngineChoice, Limits, Strategy};

use super::human_filter::HumanFilterArgs;
use super::output::Out;
use super::{Status, parse_duration, worker_pool};

mod unbiased;

/// Which puzzles --rating keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum RatingFilter {
    /// Every puzzle.
    #[default]
    Any,
    /// Only puzzles that `fast`'s propagation cannot solve (a guess is needed).
    Guess,
    /// Only puzzles that `fast`'s propagation solves alone (singles; on 9x9 also locked
    /// candidates).
    NoGuess,
    /// Only puzzles whose human rating (Sudoku Explainer's scale, in tenths) is in the range;
    /// a puzzle the step solver stops on is above every range.
    Human { min: u32, max: u32 },
}

impl RatingFilter {
    /// The filter as it is written on the command line.
    fn name(self) -> String {
        match self {
            RatingFilter::Any => "any".to_string(),
            RatingFilter::Guess => "guess".to_string(),
            RatingFilter::NoGuess => "no-guess".to_string(),
            RatingFilter::Human { min, max } => format!(
                "{}..{}",
                sudolab::human::format_tenths(min),
                sudolab::human::format_tenths(max)
            ),
        }
    }
}

/// Parses `--rating`: `any`, `guess`, `no-guess`, or `MIN..MAX` on Sudoku Explainer's scale.
fn parse_rating_filter(text: &str) -> Result<RatingFilter, String> {
    let tenths = |part: &str| {
        part.trim()
            .parse::<f64>()
            .ok()
            .filter(|value| (0.0..=20.0).contains(value))
            .map(|value| (value * 10.0).round() as u32)
    };
    match text.trim() {
        "any" => Ok(RatingFilter::Any),
        "guess" => Ok(RatingFilter::Guess),
        "no-guess" => Ok(RatingFilter::NoGuess),
        range => {
            let parsed = range
                .split_once("..")
                .and_then(|(min, max)| Some((tenths(min)?, tenths(max)?)));
            match parsed {
                Some((min, max)) if min <= max => Ok(RatingFilter::Human { min, max }),
                Some(_) => Err(format!(
                    "the range '{text}' is empty: MIN must not exceed MAX"
                )),
                None => Err(format!(
                    "expected guess, no-guess, any, or a range of ratings on Sudoku Explainer's \
                     scale such as 7.0..8.5 (0 to 20), found '{text}'"
                )),
            }
        }
    }
}

/// Candidates in a row that a rating filter may reject before the generator gives up: on 2x2
/// boxes no puzzle needs a guess, and the loop would never end.
const MAX_REJECTED: u64 = 10_000;

/// Nodes `mrv` may spend on rating one puzzle.
const MRV_RATING_BUDGET: u64 = 10_000_000;

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
    /// (docs/reproductions.md). Few attempts keep a puzzle (0.3% on 6x6), and a 9x9 run
    /// first counts every 9x9 grid (minutes), then draws one grid per attempt (about a second
    /// each): 9x9 runs take days.
    #[arg(long, conflicts_with_all = ["clues", "minimal", "symmetry", "rating", "variant",
          "rules", "model", "holes", "verify", "shard"])]
    unbiased: bool,
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

/// The variant every puzzle is generated under.
struct Variant {
    rules: Arc<Rules>,
    /// Draw random cages over each solution.
    killer: bool,
}

/// What the step solver made of a candidate.
#[derive(Clone, Copy, Debug)]
enum HumanRated {
    /// Its rating in tenths.
    Rated(u32),
    /// The step solver stopped on it (or it was not proper).
    Unrated,
}

/// One candidate, generated, rated and verified.
struct Candidate {
    generated: Generated,
    rating: Option<Rating>,
    /// The human rating, when `--rating MIN..MAX` asks for it.
    human: Option<HumanRated>,
    /// Whether `--technique`, `--propagation` and `--te-depth` keep it.
    kept_by_human_filter: bool,
    problems: Vec<String>,
}

/// The options, checker and verifiers the arguments ask for, checked against each other.
struct Setup {
    options: Options,
    checker: &'static dyn Strategy,
    verifiers: Vec<&'static dyn Strategy>,
    variant: Option<Variant>,
}

fn setup(args: &GenerateArgs) -> anyhow::Result<Setup> {
    if args.shard.is_some() && (args.rating != RatingFilter::Any || args.human_filter.any()) {
        bail!(
            "--shard splits the puzzles by index, but --rating skips candidates, so a shard \
             cannot know where its part starts; generate without --shard, or without --rating"
        );
    }
    let variant = variant_of(args)?;
    let shape = match (&variant, args.box_shape) {
        (Some(variant), _) => variant.rules.shape(),
        (None, Some(shape)) => shape,
        (None, None) => Shape::for_side(args.size)
            .map_err(|err| anyhow::anyhow!("--size {}: {err}", args.size))?,
    };
    let options = Options {
        shape,
        clues: args.clues,
        minimal: args.clues.is_none(),
        symmetry: args.symmetry,
        check_timeout: (!args.check_timeout.is_zero()).then_some(args.check_timeout),
    };
    // Cages and non-consecutive pairs break the symmetry of digits that the lower bound rests
    // on (a killer puzzle may have no given at all).
    if variant
        .as_ref()
        .is_none_or(|variant| variant.rules.is_house_based() && !variant.killer)
    {
        options.check()?;
    }
    let sample = match &variant {
        // Killer cages come with each solution: the checker must take a cage.
        Some(variant) if variant.killer => {
            let mut spec = variant.rules.spec().clone();
            spec.cages.push(sudolab::model::CageSpec {
                sum: None,
                cells: vec!["r1c1".into()],
            });
            let boxes = variant.rules.has_boxes().then(|| variant.rules.shape());
            let rules = Rules::new(variant.rules.side(), boxes, spec)
                .map_err(|err| anyhow::anyhow!("{err}"))?;
            Grid::empty_with_rules(Arc::new(rules))
        }
        Some(variant) => Grid::empty_with_rules(Arc::clone(&variant.rules)),
        None => Grid::empty(shape),
    };
    let checker = choose_checker(&args.checker, &sample)?;
    let outside = super::compare::externals(&args.external, &args.external_limits)?;
    let verifiers = strategy::find_all_among(&args.verify, &outside)?;
    for verifier in &verifiers {
        if let Err(reason) = verifier.accepts(&sample) {
            bail!("{} cannot verify these puzzles: {reason}", verifier.name());
        }
    }
    Ok(Setup {
        options,
        checker,
        verifiers,
        variant,
    })
}

/// The variant `--model latin`, `--variant` and `--rules` ask for, checked.
fn variant_of(args: &GenerateArgs) -> anyhow::Result<Option<Variant>> {
    let mut spec = match &args.rules {
        Some(path) => read_rules_file(path)?,
        None => RulesSpec::default(),
    };
    let mut killer = false;
    if let Some(features) = args.variant {
        features.add_to(&mut spec);
        killer = features.killer;
    }
    if args.model == Model::Latin {
        spec.latin = true;
    }
    if killer && !spec.cages.is_empty() {
        bail!("--variant killer draws its own cages, but --rules gives some; drop one of them");
    }
    if spec.is_plain() && !killer {
        return Ok(None);
    }
    if args.rating != RatingFilter::Any || args.human_filter.any() {
        bail!(
            "--rating, --technique, --propagation and --te-depth rate plain Sudoku only; \
             generate variants without them"
        );
    }
    if (killer || !spec.cages.is_empty() || spec.regions.is_some() || !spec.different.is_empty())
        && !args.json
    {
        bail!(
            "the line form cannot carry cages, regions or pairs: add --json (its puzzles carry \
             their rules, and every sudolab command reads them back)"
        );
    }
    let boxes = if spec.latin || spec.regions.is_some() {
        None
    } else {
        args.box_shape
    };
    let side = args.box_shape.map_or(args.size, Shape::side);
    let rules = Rules::new(side, boxes, spec).map_err(|err| anyhow::anyhow!("{err}"))?;
    Ok(Some(Variant {
        rules: Arc::new(rules),
        killer,
    }))
}

/// A rules file: the JSON or TOML keys of docs/variants.md (JSON when it starts with `{`).
fn read_rules_file(path: &std::path::Path) -> anyhow::Result<RulesSpec> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| anyhow::anyhow!("--rules {}: cannot read: {err}", path.display()))?;
    let parsed = if text.trim_start().starts_with('{') {
        serde_json::from_str(&text).map_err(|err| err.to_string())
    } else {
        toml::from_str(&text).map_err(|err| err.to_string())
    };
    parsed.map_err(|err| anyhow::anyhow!("--rules {}: {err}", path.display()))
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
    if args.unbiased {
        return unbiased::run(args);
    }
    if matches!(args.model, Model::Qwh | Model::Gsp) {
        return run_holes(args);
    }
    if args.holes.is_some() {
        bail!(
            "--holes is for --model qwh or gsp; the other models remove clues while the \
             solution stays unique"
        );
    }
    run_unique(args)
}

/// Puzzles with a unique solution: carved from random solutions while the checker says unique.
fn run_unique(args: &GenerateArgs) -> anyhow::Result<Status> {
    let setup = setup(args)?;
    let (options, checker, verifiers) = (setup.options, setup.checker, setup.verifiers);
    let variant = setup.variant;
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
        write_header(
            &mut out,
            args,
            &options,
            checker,
            &verifiers,
            variant.as_ref(),
        )?;
    }
    let started = Instant::now();
    let mut written = 0u64;
    let mut next_index = first_index;
    let mut status = Status::Success;
    let mut clue_counts: Vec<usize> = Vec::new();
    let mut missed = 0u64;
    // The verifiers get the checker's budget: a slow verifier must not hang the generator;
    // an undecided verification is a problem like any other.
    let plan = Plan::new(
        &verifiers,
        &Limits::solutions(2).with_timeout(args.check_timeout),
    );
    let mut rejected_in_a_row = 0u64;
    // A puzzle that fails its verification is reported and takes its place in the count
    // unwritten: with a verifier that always fails, the loop must still end.
    let mut failed = 0u64;
    while written + failed < count {
        // Enough candidates to keep every job busy, no more than the output still needs (a
        // rating filter may discard some, and the loop comes back).
        let chunk = (count - written - failed).clamp(jobs as u64, jobs as u64 * 64);
        let indices: Vec<u64> = (next_index..next_index + chunk).collect();
        next_index += chunk;
        let candidates: Vec<Candidate> = pool.install(|| {
            indices
                .par_iter()
                .map(|index| {
                    make_candidate(&options, variant.as_ref(), checker, &plan, args, *index)
                })
                .collect()
        });
        for candidate in candidates {
            if written + failed >= count {
                break;
            }
            if !passes_rating(args, &candidate, &mut rejected_in_a_row, shape)? {
                continue;
            }
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
                failed += 1;
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
fn run_holes(args: &GenerateArgs) -> anyhow::Result<Status> {
    let Some(holes) = args.holes else {
        bail!(
            "--model {} needs --holes H: the number of cells to empty",
            model_name(args.model)
        );
    };
    if args.variant.is_some()
        || args.rules.is_some()
        || !args.verify.is_empty()
        || !args.external.is_empty()
    {
        bail!(
            "--model {} makes instances with holes, not unique puzzles: --variant, --rules, \
             --verify and --external do not apply",
            model_name(args.model)
        );
    }
    let (rules, shape) = if args.model == Model::Qwh {
        let order = args.box_shape.map_or(args.size, Shape::side);
        let rules = generate::latin_rules(order).map_err(|err| match args.box_shape {
            Some(shape) => anyhow::anyhow!("--box {shape}: the order of a qwh square: {err}"),
            None => anyhow::anyhow!("--size {order}: the order of a qwh square: {err}"),
        })?;
        let shape = rules.shape();
        (Some(rules), shape)
    } else {
        let shape = match args.box_shape {
            Some(shape) => shape,
            None => Shape::for_side(args.size)
                .map_err(|err| anyhow::anyhow!("--size {}: {err}", args.size))?,
        };
        (None, shape)
    };
    let cells = shape.cell_count();
    if holes > cells {
        bail!(
            "--holes {holes} is more than the {cells} cells of a {0}x{0} board",
            shape.side()
        );
    }
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
            "holes": holes,
            "balance": args.balance,
        })
        .to_string();
        out.write_str(&header[..header.len() - 1])?;
        out.write_str(",\"puzzles\":[")?;
    }
    for (written, index) in (first_index..first_index + count).enumerate() {
        let mut rng = generate::stream(args.seed, index);
        let mut solution = match &rules {
            Some(rules) => Grid::from_cells(shape, generate::latin_square(shape.side(), &mut rng))
                .expect("symbols 1..=n")
                .with_rules(Arc::clone(rules)),
            None => generate::full_grid(shape, &mut rng),
        };
        let mut puzzle = solution.clone();
        for cell in generate::hole_cells(shape.side(), holes, args.balance, &mut rng) {
            puzzle.set(cell, 0);
        }
        solution = solution.without_rules();
        if args.json {
            let object = json!({
                "index": index,
                "holes": holes,
                "puzzle": sudolab::corpus::grid_to_json(&puzzle),
                "solution": sudolab::corpus::grid_to_json(&solution),
            });
            out.write_str(if written == 0 { "\n" } else { ",\n" })?;
            out.write_str(&object.to_string())?;
        } else {
            let mut line = to_line(&puzzle).expect("sides up to 35");
            if args.with_solution {
                line.push(' ');
                line.push_str(&to_line(&solution).expect("same side"));
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

fn model_name(model: Model) -> &'static str {
    match model {
        Model::Sudoku => "sudoku",
        Model::Latin => "latin",
        Model::Qwh => "qwh",
        Model::Gsp => "gsp",
    }
}

/// Whether a candidate passes the rating filter; an error once `MAX_REJECTED` candidates in a
/// row have not, so that a filter no candidate can pass ends the run.
fn passes_rating(
    args: &GenerateArgs,
    candidate: &Candidate,
    rejected_in_a_row: &mut u64,
    shape: Shape,
) -> anyhow::Result<bool> {
    let filter = args.rating;
    let keep_rating = match (filter, candidate.rating) {
        (RatingFilter::Guess, Some(rating)) => !rating.no_guess,
        (RatingFilter::NoGuess, Some(rating)) => rating.no_guess,
        (RatingFilter::Human { min, max }, _) => {
            matches!(candidate.human, Some(HumanRated::Rated(tenths)) if (min..=max).contains(&tenths))
        }
        _ => true,
    };
    if keep_rating && candidate.kept_by_human_filter {
        *rejected_in_a_row = 0;
        return Ok(true);
    }
    *rejected_in_a_row += 1;
    if *rejected_in_a_row >= MAX_REJECTED && args.human_filter.any() {
        bail!(
            "{}: {MAX_REJECTED} candidates in a row on {shape} boxes were rejected (such puzzles \
             are rare or absent among this generator's); generate without it, or with another \
             filter",
            args.human_filter.describe()
        );
    }
    if *rejected_in_a_row >= MAX_REJECTED {
        let name = filter.name();
        bail!(
            "--rating {name}: {MAX_REJECTED} candidates in a row on {shape} boxes were rejected \
             (on boxes this small, singles may solve every puzzle); generate without --rating, \
             or with another one"
        );
    }
    Ok(false)
}

/// The checker `--checker NAME` names for puzzles like `sample`, or `auto`'s choice
/// ([`EngineChoice`]); refused with the reason when it cannot check them.
fn choose_checker(name: &str, sample: &Grid) -> anyhow::Result<&'static dyn Strategy> {
    let choice: EngineChoice = name.parse()?;
    choice.resolve(sample).map_err(|err| {
        let chosen_by = if err.auto {
            " (chosen by --checker auto)"
        } else {
            ""
        };
        anyhow::anyhow!(
            "the checker {}{chosen_by} cannot check {}: {}",
            err.engine,
            err.what,
            err.refusal
        )
    })
}

fn make_candidate(
    options: &Options,
    variant: Option<&Variant>,
    checker: &dyn Strategy,
    verifiers: &Plan,
    args: &GenerateArgs,
    index: u64,
) -> Candidate {
    let need_rating = args.json || args.rating != RatingFilter::Any;
    let generated = match variant {
        Some(variant) => {
            let made = generate::generate_variant(
                options,
                &variant.rules,
                variant.killer,
                checker,
                args.seed,
                index,
            );
            let Some(generated) = made else {
                let empty = Grid::empty_with_rules(Arc::clone(&variant.rules));
                return Candidate {
                    generated: Generated {
                        index,
                        puzzle: empty.clone(),
                        solution: empty,
                        clues: 0,
                        target_met: false,
                        checks: 0,
                        undecided: 0,
                    },
                    rating: None,
                    human: None,
                    kept_by_human_filter: true,
                    problems: vec![format!(
                        "no solution of the {} rules found within the fill's budget",
                        variant.rules.name()
                    )],
                };
            };
            generated
        }
        None => generate::generate(options, checker, args.seed, index),
    };
    let need_rating = need_rating && variant.is_none();
    let rating = need_rating
        .then(|| generate::rate(&generated.puzzle, MRV_RATING_BUDGET, options.check_timeout));
    // The generator's puzzles are proper, so `rate` only fails on a checker's mistake, which
    // the verifiers report; such a puzzle counts as unrated.
    let human =
        (variant.is_none() && matches!(args.rating, RatingFilter::Human { .. })).then(|| {
            match sudolab::human::rate(&generated.puzzle) {
                Ok((rating, _)) if rating.solved => HumanRated::Rated(rating.difficulty),
                _ => HumanRated::Unrated,
            }
        });
    let kept_by_human_filter = args.human_filter.keeps(&generated.puzzle);
    let problems = verify_unique(
        &generated.puzzle,
        Some(&generated.solution),
        verifiers,
        &mut Scratch::default(),
    );
    Candidate {
        generated,
        rating,
        human,
        kept_by_human_filter,
        problems,
    }
}

/// Re-proves `puzzle` unique with every strategy of `verifiers`: each must say "unique" with a
/// certified grid equal to `solution` (when given) and to each other's. Returns what failed.
fn verify_unique(
    puzzle: &Grid,
    solution: Option<&Grid>,
    verifiers: &Plan,
    scratch: &mut Scratch,
) -> Vec<String> {
    let item = Item {
        ordinal: 0,
        source: String::new(),
        puzzle: puzzle.clone(),
        solution: solution.cloned(),
        count: None,
    };
    // `solved` only comes from a solution limit of one, which verifiers never have.
    experiment::check(verifiers, item, scratch).uniqueness_problems()
}

/// The JSON document's opening: seed, options, checker, verifiers, rating; the puzzles follow.
fn write_header(
    out: &mut Out,
    args: &GenerateArgs,
    options: &Options,
    checker: &dyn Strategy,
    verifiers: &[&'static dyn Strategy],
    variant: Option<&Variant>,
) -> io::Result<()> {
    let mut header = json!({
        "seed": args.seed,
        "options": options,
        "checker": checker.name(),
        "verify": verifiers.iter().map(|v| v.name()).collect::<Vec<_>>(),
        "rating": args.rating.name(),
    });
    if let Some(variant) = variant {
        header["model"] = json!(args.model);
        header["variant"] = json!(variant.rules.name());
        if variant.killer {
            header["variant"] = json!(format!("{}+killer", variant.rules.name()));
        }
    }
    if args.human_filter.any() {
        header["filters"] = json!(args.human_filter.describe());
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

#[cfg(test)]
mod tests {
    use super::*;
    use sudolab::strategy;

    #[test]
    fn auto_picks_a_checker_that_supports_the_shape() {
        let side = |n: usize| Shape::for_side(n).unwrap();
        let auto = |n: usize| {
            choose_checker("auto", &Grid::empty(side(n)))
                .unwrap()
                .name()
        };
        assert_eq!(
            [auto(9), auto(12), auto(14), auto(16), auto(25), auto(36)],
            ["fast", "fast", "sat", "sat", "sat", "sat"]
        );
        assert_eq!(auto(64), "fast");
        let err = choose_checker("sat", &Grid::empty(side(64)))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("the checker sat cannot check 8x8 boxes: "),
            "{err}"
        );
    }

    #[test]
    fn a_generated_puzzle_verifies_and_a_wrong_solution_does_not() {
        let fast = strategy::find("fast").unwrap();
        let shape = Shape::new(2, 2).unwrap();
        let options = Options {
            shape,
            clues: None,
            minimal: true,
            symmetry: Symmetry::None,
            check_timeout: None,
        };
        let generated = generate::generate(&options, fast, 3, 0);
        let verifiers = strategy::find_all(&["dlx-knuth", "sat"]).unwrap();
        let plan = Plan::new(&verifiers, &Limits::solutions(2));
        let scratch = &mut Scratch::default();
        assert!(
            verify_unique(&generated.puzzle, Some(&generated.solution), &plan, scratch).is_empty()
        );
        let empty = Grid::empty(shape);
        let problems = verify_unique(&empty, None, &plan, scratch);
        assert_eq!(
            problems,
            [
                "not unique: dlx-knuth says multiple (2+)",
                "not unique: sat says multiple (2+)"
            ]
        );
    }
}
