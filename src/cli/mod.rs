//! Command-line definitions and the dispatch to one module per subcommand.

/// Writes a line to standard error, like `eprintln!`, but a closed standard error (the reader
/// of `2>&1 | head -1` has gone) is not a panic: the line is dropped, and the run goes on to its
/// exit status.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        // One write per line: standard error is unbuffered, and a line written piece by piece
        // can interleave with another thread's.
        let mut line = format!($($arg)*);
        line.push('\n');
        let _ = std::io::stderr().write_all(line.as_bytes());
    }};
}

mod certify;
mod check_cert;
mod compare;
mod count;
mod decode;
mod diff;
mod explain;
mod export;
mod generate;
mod grids;
mod human;
mod human_filter;
mod input;
mod output;
mod report;
mod run;
mod solve;
mod strategies;
mod trace;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use sudolab::corpus::{Format, Source};
use sudolab::experiment::Shard;
use sudolab::model::{Choice, Features, RulesSpec, Shape};
use sudolab::strategy::{self, Counter, Limits, Strategy, WorkUnit};

/// The value parser of a library [`Choice`]: its names, each with its help, as clap's possible
/// values.
fn choice<T: Choice>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser as _};
    PossibleValuesParser::new(
        T::ALL
            .iter()
            .map(|value| PossibleValue::new(value.name()).help(value.help())),
    )
    .map(|name| {
        sudolab::model::parse_choice::<T>(&name).expect("clap passes only the choice's own names")
    })
}

/// Run Sudoku puzzles of any size through several solving strategies and compare what each
/// found and what it cost.
///
/// Puzzles come from files or standard input in the line form (one puzzle of n*n symbols per
/// line, '.' or '0' for empty, optionally followed by a known solution or solution count), the
/// grid form (n lines of n numbers, puzzles separated by a blank line) or JSON. Sizes from 1x1
/// to 64x64 with any box shape up to 8x8: 4x4, 6x6 (2x3 boxes), 9x9, 12x12 (3x4), 16x16, 25x25...
///
/// Exit status: 0 success, 1 a negative result (a puzzle without a solution, a search that gave
/// up, an answer that contradicts the known one), 2 an error (unreadable input, bad arguments).
#[derive(Debug, Parser)]
#[command(name = "sudolab", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

// `defer`: a subcommand's arguments are defined only when it is the one run (or its help is
// asked for). Defining all seventeen commands' options took about 400,000 instructions, a
// third of a one-puzzle `count`. A deferred subcommand takes the about of the last argument
// struct flattened into it that has a doc comment, so those structs have plain comments
// (`a_deferred_subcommand_keeps_its_own_about`).
#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Command {
    /// Solve each puzzle and print its solution.
    ///
    /// Prints one entry per input puzzle on standard output, in input order (in the form chosen
    /// by --output): its solution, or in its place 'none' (no solution), 'unknown' (the search
    /// hit a budget) or 'error' (unreadable, or refused), with the reason on standard error.
    /// A puzzle with several solutions gets one of them and a note (--unique refuses it).
    /// Exit status 1 when a puzzle has no solution, the search gave up, or a count or solution
    /// the input gives is contradicted; 2 on an error.
    ///
    /// Example: echo 4..3.....1....2. | sudolab solve --output grid
    Solve(solve::SolveArgs),
    /// Count the solutions of each puzzle, up to a limit, and give the uniqueness verdict.
    ///
    /// One tab-separated line per puzzle: where it came from, the verdict (none, unique,
    /// multiple, unknown) and the number of solutions found ("2+" when the limit cut the count).
    ///
    /// Example: echo ................ | sudolab count --all --stats   # the empty 4x4: 288
    Count(count::CountArgs),
    /// Compare strategies on a corpus: certify every answer, cross-check verdicts, report
    ///
    /// Runs each puzzle through every chosen strategy (default: all) with the same solution
    /// limit, certifies every returned grid, and checks that definite verdicts (none, unique,
    /// multiple) and unique solutions agree across strategies and with what the corpus claims.
    /// Prints a per-strategy table (puzzles, verdicts, time mean/median/p90/max, mean nodes);
    /// --report writes Markdown, CSV, JSON or HTML with charts. Disagreements are printed on
    /// standard error and make the exit status 1.
    ///
    /// Without FILE it compares the bundled corpus (the .txt files of corpora/ and
    /// corpora/generated/); 'sudolab compare' alone, every strategy on it, is the README's main
    /// job: about a minute.
    ///
    /// Examples:
    ///   sudolab compare -s fast,dlx-knuth --timeout 200ms
    ///   sudolab compare -s fast,dlx-knuth,sat --baseline fast --report out.html corpora/reference.txt
    ///   sudolab compare --sample 20 --seed 7 --jobs 2 -s fast,mrv --report sample.json \
    ///     corpora/generated/9x9-minimal.txt
    ///   sudolab compare --shard 1/2 -s fast,mrv -r a.json corpora/generated/9x9-minimal.txt && \
    ///     sudolab compare --shard 2/2 -s fast,mrv -r b.json corpora/generated/9x9-minimal.txt && \
    ///     sudolab report a.json b.json
    #[command(verbatim_doc_comment)]
    Compare(compare::CompareArgs),
    /// Run an experiment file: corpora, strategies and their limits, repeats, order, outputs
    ///
    /// Reads a TOML file (schema: docs/experiments/README.md), runs it like 'compare', and
    /// writes a results directory: every report form, the experiment file itself and
    /// provenance.json (sudolab version, commit and dirty flag, build, rustc, CPU, machine and
    /// load, OS, SHA-256 of inputs and side files, start time, command line).
    /// Re-running it gives the same verdicts, counts and node counters. Mistakes in the file
    /// (a missing corpus included) are reported with its line and column before anything runs.
    /// The directory is written under a temporary name and renamed into place when the run is
    /// done; one already there is replaced only with --force; a run in which no puzzle ran
    /// writes nothing. The file's own [output] dir must lie under the file's directory
    /// unless --allow-outside (--out may name any directory).
    ///
    /// docs/experiments/bundled.toml is the README's main job (every strategy on the bundled
    /// corpus, about a minute); docs/experiments/engines.toml takes a second or two.
    ///
    /// Example: sudolab run docs/experiments/engines.toml --out engines-results
    #[command(verbatim_doc_comment)]
    Run(run::RunArgs),
    /// Re-render a saved JSON report, or merge the JSON reports of several shards
    ///
    /// Merging re-folds every row, so the aggregates are those of one run over all puzzles.
    ///
    /// Examples:
    ///   sudolab compare -s fast,mrv -r r.json corpora/reference.txt && \
    ///     sudolab report r.json --report r.html
    ///   sudolab compare --shard 1/2 -s fast -r a.json corpora/generated/4x4.txt && \
    ///     sudolab compare --shard 2/2 -s fast -r b.json corpora/generated/4x4.txt && \
    ///     sudolab report a.json b.json --report all.md
    #[command(verbatim_doc_comment)]
    Report(report::ReportArgs),
    /// Compare two runs over the same puzzles: verdict and count changes, counters, time ratios
    ///
    /// Pairs the rows of two JSON reports by puzzle and strategy. Every verdict or count that
    /// differs is listed and makes the exit status 1; counters are compared per strategy; the
    /// time of each strategy is compared on the puzzles both runs decided, as the geometric
    /// mean of the per-puzzle ratios (second / first) with a seeded 95% bootstrap interval, and
    /// called slower or faster only when the interval excludes 1. Reports over different
    /// inputs are refused; other machines, loaded machines and other budgets are warned of.
    ///
    /// Examples:
    ///   sudolab compare -s fast,sat -r before.json corpora/reference.txt && \
    ///     sudolab compare -s fast,sat -r after.json corpora/reference.txt && \
    ///     sudolab diff before.json after.json --out diff.md
    #[command(verbatim_doc_comment)]
    Diff(diff::DiffArgs),
    /// Generate puzzles whose unique solution is proven by a checker engine (and re-proven)
    ///
    /// Fills a random full grid from a seeded ChaCha stream, then removes clues in random order
    /// (or by symmetric orbits), keeping each removal only while the checker still proves the
    /// solution unique; stops at --clues K or when no clue can go (minimal). Writes one puzzle
    /// per line (--with-solution adds its solution), or a JSON document with --json.
    ///
    /// Examples:
    ///   sudolab generate --count 1000 --minimal --verify dlx-knuth,sat --seed 1
    ///   sudolab generate --size 16 --count 2 --symmetry rot180 --json
    ///   sudolab generate --box 2x3 --clues 12 --rating guess
    ///   sudolab generate --count 3 --rating 4.0..9.0   # human rating (sudolab rate)
    ///   sudolab generate --unbiased --box 2x3 -c 50 --stats   # Berthier's controlled bias
    #[command(verbatim_doc_comment)]
    Generate(generate::GenerateArgs),
    /// Whole grids: 'grids count' counts every complete grid of a box shape exactly.
    #[command(subcommand)]
    Grids(grids::GridsCommand),
    /// Check a puzzle file's uniqueness claims with several engines.
    ///
    /// Every puzzle must be proven unique by each strategy (default fast, dlx-knuth, sat: three
    /// different methods), with the same certified solution, equal to the file's solution when
    /// it gives one. One line per puzzle: 'verified' or 'FAILED' with what each engine said.
    /// Exit status 1 when any puzzle fails.
    ///
    /// Example: sudolab verify corpora/generated/12x12.txt
    Verify(verify::VerifyArgs),
    /// Write a certificate per puzzle that anyone can check: uniqueness, no solution, or two
    /// solutions
    ///
    /// For a unique puzzle: its solution, the clause that excludes it, and an LRAT refutation of
    /// the CNF (the extended encoding, 'sudolab-extended 1') plus that clause; for a puzzle
    /// with several solutions: two of them; for one without: an LRAT refutation of the CNF.
    /// One file per puzzle in --out (format: docs/certificates.md); 'sudolab check-cert'
    /// checks them with its own encoder and LRAT checker. One line per puzzle on standard
    /// output: where it came from, the verdict, the file, the proof's lemmas and bytes.
    ///
    /// Examples:
    ///   sudolab certify corpora/reference.txt --out certs && sudolab check-cert certs
    ///   sudolab certify corpora/minimal-16x16.txt --out certs16 --producer sat --drat
    ///   sudolab certify corpora/generated/9x9-minimal.txt --out min --minimal
    #[command(verbatim_doc_comment)]
    Certify(certify::CertifyArgs),
    /// Check certificates written by 'sudolab certify', trusting none of the solvers
    ///
    /// Re-derives each puzzle's CNF with a small encoder of its own, checks the solutions
    /// against the rules and the givens, the blocking clause against the solution, the
    /// minimality witnesses, and the LRAT proof with a built-in checker; with --outside also
    /// runs rate, drat-trim and cake_lpr where found on PATH ('cargo install rate' installs
    /// rate; with none of them --outside is an error). One line per certificate:
    /// 'checked FILE VERDICT ...' or 'FAILED FILE STEP: REASON'. Exit status 0 only when every
    /// certificate checks, 1 when any fails.
    ///
    /// Examples:
    ///   sudolab check-cert certs
    ///   sudolab check-cert certs/reference-00001.cert
    #[command(verbatim_doc_comment)]
    CheckCert(check_cert::CheckCertArgs),
    /// Trace a search for teaching: every choice, try, undo and solution, with depth and nodes
    ///
    /// The output form (--output, or the --report file's extension): text indents by depth and
    /// names cells r3c7; jsonl writes one event per line ({"depth","nodes","event",...}, then a
    /// "summary" object); html writes one page that steps through the search on a drawn board
    /// (two or more strategies side by side, with nodes per depth charted underneath). Every
    /// trace ends with a summary: verdict, nodes, placements, backtracks and nodes per depth.
    ///
    /// Examples:
    ///   sudolab trace 4..3.....1....2. --strategy mrv
    ///   sudolab trace corpora/reference.txt -p 2 -s toggle,dlx-knuth -r b.html
    ///   echo 12......3...4... | sudolab trace -s mrv   # no solution: exit status 1
    #[command(verbatim_doc_comment)]
    Trace(trace::TraceArgs),
    /// The next step a person would take, and why: the easiest technique that makes progress
    ///
    /// Prints the technique, its difficulty on Sudoku Explainer's scale, what it places or
    /// removes, and the reason in words. A puzzle with no or several solutions is refused (exit
    /// status 1): the uniqueness techniques assume one solution. That check gives up at
    /// --timeout or --max-nodes (default: 10 s), said on standard error (exit status 1).
    ///
    /// Examples:
    ///   sudolab hint corpora/reference.txt            # board A: a hidden single
    ///   sudolab hint corpora/reference.txt -p 2 --json
    #[command(verbatim_doc_comment)]
    Hint(human::HintArgs),
    /// The whole path of easiest steps, each with its technique, effect and reason
    ///
    /// Ends with the rating: the hardest step's difficulty (Sudoku Explainer's scale). Exit
    /// status 1 when the solver stops (no technique it knows applies) or the puzzle is not
    /// proper, or when the uniqueness check gives up at --timeout or --max-nodes (default:
    /// 10 s).
    ///
    /// Examples:
    ///   sudolab steps corpora/reference.txt
    ///   sudolab steps corpora/reference.txt -p 2 --json
    #[command(verbatim_doc_comment)]
    Steps(human::StepsArgs),
    /// Rate puzzles as a person would find them: the hardest step on the path of easiest steps
    ///
    /// One line per puzzle: where it came from, the rating (Sudoku Explainer's scale), the
    /// hardest technique, the number of steps, and 'fast''s search nodes and guesses. A puzzle
    /// with no or several solutions is 'not a proper puzzle' (exit status 1); one whose
    /// uniqueness check passes --timeout or --max-nodes (default: 10 s) is 'gave up' (exit
    /// status 1). --against correlates the ratings with a ground-truth column (Spearman,
    /// Kendall tau-b).
    ///
    /// Examples:
    ///   sudolab rate corpora/generated/9x9-minimal.txt
    ///   sudolab rate --against corpora/rated/sample.txt:3
    ///   sudolab rate --against corpora/rated/sample.txt --chart calibration.html
    #[command(verbatim_doc_comment)]
    Rate(human::RateArgs),
    /// Explain an encoding: 'explain cover' prints the exact-cover matrix of a small puzzle.
    #[command(subcommand)]
    Explain(explain::ExplainCommand),
    /// List the registered strategies, one per line.
    Strategies,
    /// Write a puzzle for an outside solver: DIMACS CNF, an exact-cover matrix or a MiniZinc
    /// model.
    #[command(subcommand)]
    Export(export::ExportCommand),
    /// Turn a SAT solver's model of an exported CNF back into a grid.
    ///
    /// Example: sudolab decode corpora/examples/4x4.cnf corpora/examples/4x4.model --output grid
    Decode(decode::DecodeArgs),
}

// Where puzzles come from and how to read them.
#[derive(Debug, Args)]
struct InputArgs {
    /// Puzzle files; none, or '-', reads standard input. An argument that names no file and
    /// reads as a line-form puzzle (4..3.....1....2.) is that puzzle, named '<arg N>'.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,

    #[command(flatten)]
    read: ReadArgs,
}

// How to read puzzle files.
#[derive(Clone, Copy, Debug, Args)]
struct ReadArgs {
    /// Input form; 'auto' decides from the first puzzle of each file.
    #[arg(long, short = 'f', value_parser = choice::<Format>(), default_value_t = Format::Auto)]
    format: Format,

    /// Box shape, rows x columns (2x3 for 6x6, 3x4 for 12x12); by default the most square box
    /// that divides the side.
    #[arg(long = "box", value_name = "RxC")]
    box_shape: Option<Shape>,

    /// Read every plain puzzle under a variant's rules: latin, x, windoku, anti-king,
    /// anti-knight, nonconsecutive, joined by ',' (x,anti-king). Jigsaw and killer puzzles
    /// carry their regions and cages in the JSON or TOML form (docs/variants.md).
    #[arg(long, value_name = "NAME,...")]
    variant: Option<Features>,
}

impl ReadArgs {
    /// A source read with these options.
    fn source(self, path: PathBuf) -> Source {
        Source {
            path,
            format: self.format,
            shape: self.box_shape,
            variant: self.spec(),
        }
    }

    /// The variant's rules, if `--variant` names one.
    fn spec(self) -> Option<RulesSpec> {
        self.variant.map(Features::spec)
    }
}

// Which part of the input a batch command takes.
#[derive(Clone, Copy, Debug, Args)]
struct ShardArgs {
    /// Take only shard K of N: the puzzles whose position modulo N is K-1 ('auto': the task of
    /// a Slurm job array, from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; 'auto/N': shard
    /// K of N, K from SLURM_ARRAY_TASK_ID or GNU parallel's PARALLEL_SEQ).
    #[arg(long, value_name = "K/N|auto[/N]")]
    shard: Option<Shard>,
}

impl ShardArgs {
    /// The shard asked for; `None` takes every puzzle.
    fn selected(self) -> Option<Shard> {
        self.shard
    }
}

// What each search may spend.
#[derive(Debug, Args)]
struct BudgetArgs {
    /// Give up on a puzzle after this many search nodes (verdict 'unknown').
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,

    /// Give up on a puzzle after this much work (verdict 'unknown'), counted in the engine's
    /// own unit: nodes (fast, scan, toggle, mrv), updates (dlx-knuth), proof_bytes (the sat
    /// family); dlx has none ('sudolab strategies' lists them). Unlike --timeout, it stops the
    /// same searches on any machine at any load. Default: none (0: none).
    #[arg(long, value_name = "N")]
    budget: Option<u64>,

    /// Give up on a puzzle after this long (verdict 'unknown'): 500ms, 10s, 2m, 1h; a bare
    /// number is seconds.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    timeout: Option<Duration>,
}

impl BudgetArgs {
    /// Refuses a node budget for an engine that counts no nodes: it could not stop it, and a
    /// search with only that budget might never end.
    fn check(&self, strategy: &dyn Strategy) -> anyhow::Result<()> {
        if self.max_nodes.is_some() && !strategy.counters().contains(&Counter::Nodes) {
            anyhow::bail!(
                "--max-nodes: {} counts no nodes, so a node budget cannot stop it; give it a \
                 --timeout instead",
                strategy.name()
            );
        }
        if self.budget.is_some_and(|budget| budget > 0) && strategy.budget_unit() == WorkUnit::None
        {
            anyhow::bail!(
                "--budget: {} has no work budget (nothing inside its crate's search can be \
                 counted), so it cannot stop it; give it a --timeout instead",
                strategy.name()
            );
        }
        Ok(())
    }

    /// The limits of every search: the timeout counts from the start of each search.
    fn limits(&self) -> Limits {
        let mut limits = Limits {
            max_nodes: self.max_nodes,
            budget: self.budget.filter(|&budget| budget > 0),
            ..Limits::default()
        };
        if let Some(timeout) = self.timeout {
            limits = limits.with_timeout(timeout);
        }
        limits
    }
}

// The search order of engines that can randomize it (`mrv`), for heavy-tail experiments.
#[derive(Debug, Args)]
struct OrderArgs {
    /// Break ties between the most constrained cells at random and try values in a random
    /// order, from this seed (mrv only; the same seed gives the same search). Without it, the
    /// textbook order: the first such cell in row-major order, values ascending.
    #[arg(long, value_name = "SEED")]
    randomize: Option<u64>,

    /// Restart the randomized search for one solution after a node cutoff that grows by a
    /// schedule: luby[:UNIT] (UNIT x 1, 1, 2, 1, 1, 2, 4, ...) or geometric[:UNIT[:FACTOR]]
    /// (UNIT, then FACTOR times the last); UNIT defaults to 100 nodes, FACTOR to 1.5. Needs
    /// --randomize and a search for one solution (solve, or count --limit 1).
    #[arg(long, value_name = "SCHEDULE", requires = "randomize")]
    restarts: Option<strategy::Restarts>,
}

impl OrderArgs {
    /// Refuses an order the engine cannot follow, and restarts on a search for more than one
    /// solution (a restarted run would find its solutions again).
    fn check(&self, strategy: &dyn Strategy, solution_limit: u64) -> anyhow::Result<()> {
        if self.randomize.is_some() && !strategy.randomizes() {
            anyhow::bail!(
                "--randomize: {} searches in its own fixed order; mrv randomizes its ties and \
                 value order",
                strategy.name()
            );
        }
        if self.restarts.is_some() && solution_limit != 1 {
            anyhow::bail!(
                "--restarts finds one solution (a restarted run would find earlier solutions \
                 again): use solve, or count --limit 1"
            );
        }
        Ok(())
    }

    /// `limits` with this order.
    fn apply(&self, mut limits: Limits) -> Limits {
        limits.randomize = self.randomize;
        limits.restarts = self.restarts;
        limits
    }
}

/// Parses `500ms`, `10s`, `2m`, `1h` or a bare number of seconds; `none` is zero.
fn parse_duration(text: &str) -> Result<Duration, String> {
    sudolab::experiment::parse_duration(text)
}

/// Resolves several strategy names (as given to `--strategies a,b`): the library's rules
/// (unknown and repeated names refused).
fn strategies_named(names: &[String]) -> anyhow::Result<Vec<&'static dyn Strategy>> {
    Ok(strategy::find_all(names)?)
}

/// Parses a puzzle's position in the input (`trace -p`, `export -n`): 1 is the first.
fn parse_position(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("puzzle numbers count from 1 (1 is the first puzzle)".to_string()),
        Ok(position) => Ok(position),
        Err(_) => Err(format!(
            "expected a puzzle number (1 is the first), found '{text}'"
        )),
    }
}

/// Parses `--jobs`: 1 to `sudolab::experiment::MAX_JOBS` threads (a thread per job; thousands of
/// them only exhaust the machine).
fn parse_jobs(text: &str) -> Result<usize, String> {
    let max = sudolab::experiment::MAX_JOBS;
    match text.trim().parse::<usize>() {
        Ok(jobs) if (1..=max).contains(&jobs) => Ok(jobs),
        _ => Err(format!("expected 1 to {max} jobs, found '{text}'")),
    }
}

/// The number of jobs asked for, or one per core.
fn jobs(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1)
}

/// A pool of `jobs` worker threads (default: one per core), and its size.
fn worker_pool(jobs: Option<usize>) -> anyhow::Result<(rayon::ThreadPool, usize)> {
    let jobs = self::jobs(jobs);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|err| anyhow::anyhow!("cannot start {jobs} worker threads: {err}"))?;
    Ok((pool, jobs))
}

/// How a run ended, from best to worst; the worst over all puzzles is the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Status {
    Success,
    Negative,
    Error,
    /// Stopped by Ctrl-C (after writing what was done).
    Interrupted,
}

impl Status {
    fn exit_code(self) -> ExitCode {
        match self {
            Status::Success => ExitCode::SUCCESS,
            Status::Negative => ExitCode::from(1),
            Status::Error => ExitCode::from(2),
            Status::Interrupted => ExitCode::from(130),
        }
    }
}

/// Parses the arguments, runs the command and maps the result to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { 2 } else { 0 };
            // Printing help into a closed pipe is not worth a panic.
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Count(args) => count::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Grids(command) => grids::run(&command),
        Command::Trace(args) => trace::run(&args),
        Command::Certify(args) => certify::run(&args),
        Command::CheckCert(args) => check_cert::run(&args),
        Command::Hint(args) => human::run_hint(&args),
        Command::Steps(args) => human::run_steps(&args),
        Command::Rate(args) => human::run_rate(&args),
        Command::Explain(command) => explain::run(&command),
        Command::Verify(args) => verify::run(&args),
        Command::Strategies => strategies::run(),
        Command::Export(command) => export::run(&command),
        Command::Decode(args) => decode::run(&args),
    };
    let abandoned = strategy::abandoned_running();
    if abandoned > 0 {
        let (searches, were, they) = if abandoned == 1 {
            ("search", "was", "it ends")
        } else {
            ("searches", "were", "they end")
        };
        note!(
            "sudolab: {abandoned} {searches} stopped at the deadline inside a crate that cannot be \
             interrupted (dlx-rs) {were} left running; {they} with this process"
        );
    }
    match result {
        Ok(status) => status.exit_code(),
        Err(err) if output::is_broken_pipe(&err) => Status::Success.exit_code(),
        Err(err) => {
            note!("sudolab: {err:#}");
            Status::Error.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_common_units() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(
            parse_duration("3 days"),
            Err("unknown time unit 'days'; use ms, s, m or h".to_string())
        );
    }

    #[test]
    fn the_cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn a_deferred_subcommand_keeps_its_own_about() {
        use clap::CommandFactory;
        // Unbuilt, a deferred subcommand has only what the enum's variant gives it. The nested
        // commands (`grids count`, `export cnf`, ...) are deferred too, and checked the same way.
        fn same_abouts(
            unbuilt: &clap::Command,
            built: &clap::Command,
            path: &str,
            seen: &mut usize,
        ) {
            for sub in built.get_subcommands() {
                let name = format!("{path} {}", sub.get_name());
                // Building adds clap's own `help` subcommand, and nothing else.
                let Some(before) = unbuilt.find_subcommand(sub.get_name()) else {
                    assert_eq!(sub.get_name(), "help", "{name}");
                    continue;
                };
                *seen += 1;
                assert!(!text(before.get_about()).is_empty(), "{name}");
                assert_eq!(text(sub.get_about()), text(before.get_about()), "{name}");
                assert_eq!(
                    text(sub.get_long_about()),
                    text(before.get_long_about()),
                    "{name}"
                );
                same_abouts(before, sub, &name, seen);
            }
        }
        fn text(about: Option<&clap::builder::StyledStr>) -> String {
            about.map(ToString::to_string).unwrap_or_default()
        }
        let unbuilt = Cli::command();
        let mut built = Cli::command();
        built.build();
        let mut seen = 0;
        same_abouts(&unbuilt, &built, "sudolab", &mut seen);
        // The 19 commands, 3 of `grids`, 3 of `export` and 1 of `explain`.
        assert_eq!(seen, 26);
        let help = Cli::try_parse_from(["sudolab", "count", "--help"])
            .expect_err("help is an early exit")
            .to_string();
        assert!(
            help.starts_with("Count the solutions of each puzzle, up to a limit"),
            "{help}"
        );
    }

    /// One meaning per short flag: `-o` is an output form wherever it exists,
    /// `-p` a puzzle's position, `-f` the input form, `-s` the strategies, and so on.
    #[test]
    fn a_short_flag_means_the_same_long_option_in_every_subcommand() {
        use clap::CommandFactory;
        fn walk(command: &clap::Command, seen: &mut Vec<(char, String, String)>) {
            for arg in command.get_arguments() {
                if let (Some(short), Some(long)) = (arg.get_short(), arg.get_long()) {
                    seen.push((short, long.to_string(), command.get_name().to_string()));
                }
            }
            for sub in command.get_subcommands() {
                walk(sub, seen);
            }
        }
        let mut seen = Vec::new();
        // Built, so that the deferred subcommands have their arguments.
        let mut cli = Cli::command();
        cli.build();
        walk(&cli, &mut seen);
        // `--strategy` (one engine: solve, count) and `--strategies` (several) share `-s`.
        let same =
            |a: &str, b: &str| a == b || a.trim_end_matches("ies") == b.trim_end_matches('y');
        for (short, long, command) in &seen {
            for (other_short, other_long, other_command) in &seen {
                assert!(
                    short != other_short || same(long, other_long) || same(other_long, long),
                    "-{short} is --{long} in {command} but --{other_long} in {other_command}"
                );
            }
        }
        let shorts: Vec<char> = seen.iter().map(|(short, ..)| *short).collect();
        assert!(shorts.contains(&'p') && shorts.contains(&'o') && !shorts.contains(&'n'));
    }
}
