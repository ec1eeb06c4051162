//! `sudolab compare`: the command-line face of the experiment pipeline. The arguments become a
//! [`Plan`]; [`execute`] (shared with `sudolab run`) opens the report files, draws the progress
//! bar, handles Ctrl-C and prints; the session itself is the library's
//! ([`experiment::compare`]).

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use sudolab::corpus::{Source, Walk};
use sudolab::experiment::{
    self, Compared, Hooks, Input, Order, Plan, Puzzles, Repeats, Selection, Session, Shard,
    SideFile, SideKind, Sides, provenance,
};
use sudolab::report::{Clock, PuzzleProblem, Report, Sink, text};
use sudolab::strategy::{self, Counter, Limits, Strategy};

use super::input::ErrorNotes;
use super::output::{colour_on_stdout, refuse_outputs_over_inputs, remove_staged};
use super::{ReadArgs, Status, parse_duration, parse_jobs, strategies_named};

#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// Puzzle files; '-' reads standard input. Without any: standard input when it is a pipe
    /// or a file with something in it (as every command reads it), otherwise (a terminal,
    /// /dev/null, an empty pipe or file) the bundled corpus: every .txt file in ./corpora and
    /// ./corpora/generated, and the variant files.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,

    #[command(flatten)]
    read: ReadArgs,

    /// Strategies to compare, comma-separated (see 'sudolab strategies'); default all.
    #[arg(long, short = 's', value_name = "A,B,...", value_delimiter = ',')]
    strategies: Vec<String>,

    /// An outside solver as one more strategy, NAME=COMMAND (repeatable): COMMAND is run by
    /// 'sh -c', started once per job and kept, and answers one puzzle line per request
    /// (protocol in docs/external.md). NAME=dimacs:COMMAND runs a SAT solver instead, once per
    /// call with a CNF file's path as its last argument (reduced encoding; dimacs-minimal:,
    /// dimacs-extended: choose another), and asks again with a blocking clause for
    /// uniqueness. Answers are certified and cross-checked like the engines'; a crash, hang
    /// past --timeout, or malformed answer is a problem on that puzzle.
    #[arg(long, value_name = "NAME=COMMAND")]
    external: Vec<String>,

    #[command(flatten)]
    external_limits: ExternalLimitArgs,

    /// Stop each search at this many solutions: 2 gives a uniqueness verdict, 1 only solves,
    /// 0 counts every solution.
    #[arg(long, short = 'l', default_value_t = 2, conflicts_with = "all")]
    limit: u64,

    /// Count every solution (the same as --limit 0).
    #[arg(long)]
    all: bool,

    /// Node budget per search; a search that uses it up reports 'unknown'.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,

    /// Work budget per search, in each engine's own unit: nodes (fast, scan, toggle, mrv),
    /// updates (dlx-knuth), proof_bytes (the sat family); dlx has none ('sudolab strategies'
    /// lists each unit and default). A search that uses it up reports 'unknown', stopped
    /// 'budget': the same searches on any machine at any load. Default: each engine's
    /// calibrated budget, about a second of its work on one core; 0 for none (the timeout
    /// alone then stops searches, and verdicts move with the machine's load).
    #[arg(long, value_name = "N")]
    budget: Option<u64>,

    /// Time budget per search (500ms, 10s, 2m; 0 for none): the wall-clock safety net, well
    /// above the work budget, and the only limit of dlx. A search it stops reports 'unknown',
    /// stopped 'deadline'. Every engine stops within about 2x of it: dlx and the sat family
    /// inside their crates (above 9x9 and on variants; plain 9x9 and smaller between
    /// solutions, each in milliseconds).
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
    timeout: Duration,

    /// The strategy the ratios compare with (default: fast when it runs, else the first
    /// strategy): each strategy's ratio is the geometric mean of its time over the
    /// baseline's on the puzzles both decided (2.0 = twice as slow), with a 95% bootstrap
    /// interval and a Wilcoxon signed-rank p-value.
    #[arg(long, value_name = "STRATEGY")]
    baseline: Option<String>,

    /// The clock of the summary's times and ratios: 'cpu', the CPU time of the thread that ran
    /// each search (what the search cost, however busy the machine), or 'wall', wall-clock
    /// time (which counts the time a search waited for a core). Every row carries both.
    #[arg(long, value_parser = super::choice::<Clock>(), default_value_t = Clock::Cpu)]
    clock: Clock,

    /// Puzzles solved in parallel (default: one per core). Each search runs on one thread,
    /// and the output is in input order whatever the number of jobs.
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    jobs: Option<usize>,

    /// Order of the searches: 'engine' runs each strategy over a batch of 256 puzzles per job
    /// before the next strategy (warm caches: the time an engine takes in a loop); 'puzzle'
    /// runs every strategy on a puzzle before the next puzzle (each engine starts cold).
    #[arg(long, value_parser = super::choice::<Order>(), default_value_t = Order::Engine)]
    order: Order,

    /// Compare a random sample of N puzzles (reservoir sampling; drawn by --seed).
    #[arg(long, value_name = "N", conflicts_with = "shard")]
    sample: Option<u64>,

    /// Seed of the sample: the same seed and corpus give the same sample on every machine.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// Run only shard K of N (puzzles whose position modulo N is K-1); 'auto' takes the task
    /// of a Slurm job array, 'auto/N' shard K of N with K the Slurm array task or the GNU
    /// parallel job number. Merge the shards' JSON reports with 'sudolab report'.
    #[arg(long, value_name = "K/N|auto[/N]")]
    shard: Option<Shard>,

    /// Time each search R times and report the fastest and the median: for small solves, where
    /// one measurement is mostly noise.
    #[arg(long, value_name = "R", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    repeat: u32,

    /// Untimed searches before the timed ones, per puzzle and strategy.
    #[arg(long, value_name = "W", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    warmup: u32,

    /// Write a report; the extension picks the form: .md, .csv, .json, .jsonl (one row per
    /// line), .html (self-contained, with charts), .parquet (the rows, typed, in the Python
    /// tables' schema; the rest of the report in its metadata) or .txt. Repeat for several.
    #[arg(long, short = 'r', value_name = "FILE")]
    report: Vec<PathBuf>,

    /// Write the plots as SVG files into this directory (made when missing): cactus.svg
    /// (puzzles decided against time, one line per strategy) and scatter-NAME.svg (each
    /// strategy's time against the baseline's, per puzzle, log-log). The HTML report has them
    /// too. Default: no plot files.
    #[arg(long, value_name = "DIR")]
    plots: Option<PathBuf>,

    /// Known solution counts, one per line, line i for the i-th puzzle of the input (such as
    /// tdoku's *.solution_counts.txt); each count is checked.
    #[arg(long, value_name = "FILE")]
    expect_counts: Option<PathBuf>,

    /// Known solutions, one per line, line i for the i-th puzzle of the input; each is checked.
    #[arg(long, value_name = "FILE")]
    expect_solutions: Option<PathBuf>,
}

/// A run ready to execute: the plan and everything around it.
pub(crate) struct Execution {
    pub(crate) plan: Plan,
    /// The run's default limits, for the report's context.
    pub(crate) limits: Limits,
    pub(crate) sources: Vec<Source>,
    /// Side files of each source (line i for its i-th puzzle).
    pub(crate) sides: Vec<Sides>,
    /// Side files of the whole input (line i for the i-th puzzle of all sources).
    pub(crate) input_sides: Sides,
    pub(crate) baseline: Option<String>,
    /// The clock of the summaries.
    pub(crate) clock: Clock,
    pub(crate) reports: Vec<PathBuf>,
    /// Where to write the plots as SVG files, if anywhere.
    pub(crate) plots: Option<PathBuf>,
}

pub(crate) fn run(args: &CompareArgs) -> anyhow::Result<Status> {
    let strategies = chosen_strategies(args)?;
    let files = if args.files.is_empty() {
        if stdin_has_input() {
            vec![PathBuf::from("-")]
        } else {
            bundled_corpus()?
        }
    } else {
        args.files.clone()
    };
    let limit = if args.all { 0 } else { args.limit };
    let mut limits = Limits::solutions(limit).with_timeout(args.timeout);
    limits.max_nodes = args.max_nodes;
    let mut plan = Plan {
        repeats: Repeats {
            warmup: args.warmup,
            timed: args.repeat,
        },
        order: args.order,
        jobs: super::jobs(args.jobs),
        selection: match (args.sample, args.shard) {
            (Some(size), _) => Selection::Sample {
                size,
                seed: args.seed,
            },
            (None, Some(shard)) => Selection::Shard(shard),
            (None, None) => Selection::All,
        },
        ..Plan::new(&strategies, &limits)
    };
    for entry in &mut plan.entries {
        entry.limits.budget = match args.budget {
            Some(0) => None,
            Some(budget) => Some(budget),
            None => entry.strategy.default_budget(),
        };
    }
    if let Some(budget) = args.budget.filter(|&budget| budget > 0) {
        limits.budget = Some(budget);
    }
    let side = |path: &Option<PathBuf>, kind| {
        path.as_deref()
            .map(|path| SideFile::load(path, kind))
            .transpose()
    };
    let execution = Execution {
        plan,
        limits,
        sources: files
            .iter()
            .map(|path| args.read.source(path.clone()))
            .collect(),
        sides: Vec::new(),
        input_sides: Sides {
            counts: side(&args.expect_counts, SideKind::Counts)?,
            solutions: side(&args.expect_solutions, SideKind::Solutions)?,
        },
        baseline: args.baseline.clone(),
        clock: args.clock,
        reports: args.report.clone(),
        plots: args.plots.clone(),
    };
    let reports = !execution.reports.is_empty();
    let (status, report) = execute(execution)?;
    if report.puzzles == 0 && reports {
        note!("sudolab: no puzzle ran; no report was written (a report there is as it was)");
        return Ok(status.max(Status::Error));
    }
    Ok(status)
}

/// Runs an execution: opens the report files (before the first puzzle, so that a bad path
/// fails at once), runs the plan with a progress bar and interrupts, prints problems as they
/// come and the table at the end. Gives the exit status and the report; a report of no puzzle
/// is written nowhere (the sinks leave their paths as they were).
pub(crate) fn execute(mut execution: Execution) -> anyhow::Result<(Status, Report)> {
    let inputs: Vec<String> = execution.sources.iter().map(Source::name).collect();
    refuse_reports_over_inputs(&execution)?;
    // Before the first file is opened: from here an interrupt leaves no temporary file.
    let cancel = interrupt_flag();
    let counters = execution.plan.counters();
    let sinks = execution
        .reports
        .iter()
        .map(|path| Sink::create(path, &counters))
        .collect::<Result<Vec<_>, _>>()?;
    warn_of_unbounded(&execution.plan);
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut context = provenance::context(&execution.plan, &execution.limits, &inputs, command);
    context.baseline.clone_from(&execution.baseline);
    context.clock = Some(execution.clock);

    execution.plan.cancel = Some(Arc::clone(&cancel));
    let progress = progress_bar(&execution.plan, &execution.sources);
    if execution.sources.iter().any(Source::is_stdin) && io::stdin().is_terminal() {
        note!("sudolab: reading puzzles from standard input (end with Ctrl-D)");
    }
    let mut notes = ErrorNotes::default();
    let input = Input {
        walk: Walk::new(execution.sources.clone()),
        sides: execution.sides.clone(),
        whole: execution.input_sides.clone(),
    };
    let execution_plots = execution.plots.clone();
    let session = Session {
        plan: execution.plan,
        context,
        baseline: execution.baseline,
        sinks,
    };
    let mut skipped = |message: &str| {
        // Messages start with their source's name; at most 20 are printed per source, and
        // the report keeps them all.
        let source = message.split(": ").next().unwrap_or_default().to_string();
        progress.suspend(|| notes.note(&source, message));
    };
    let mut found = |problem: &PuzzleProblem| progress.suspend(|| print_problem(problem));
    let hooks = Hooks {
        progress: &|searches| progress.inc(searches),
        skipped: &mut skipped,
        problem: &mut found,
        row: None,
    };
    let compared = experiment::compare(session, Puzzles::Walk(Box::new(input)), hooks);
    progress.finish_and_clear();
    notes.finish();
    let Compared { report, ended } = compared?;
    let interrupted = ended.interrupted;
    if let Some(dir) = &execution_plots
        && report.puzzles > 0
    {
        super::output::write_plots(dir, &report)?;
    }
    if let Some(warning) = &report.context.load_warning {
        eprintln!("sudolab: warning: {warning}");
    }

    let mut stdout = io::stdout().lock();
    // Each problem went to standard error as it was found; on one terminal, the table does
    // not list them again. Redirected, both streams keep the full list.
    let table = if io::stdout().is_terminal() && io::stderr().is_terminal() {
        text::render_after_live_problems(&report, colour_on_stdout())
    } else {
        text::render(&report, colour_on_stdout())
    };
    stdout.write_all(table.as_bytes())?;
    stdout.flush()?;
    let mut status = if report.input_errors.is_empty() {
        Status::Success
    } else {
        Status::Error
    };
    if !report.problems.is_empty() {
        status = status.max(Status::Negative);
    }
    if interrupted {
        note!(
            "sudolab: interrupted; the report keeps every search that ended, on {} puzzles, and \
             every form of it is marked incomplete",
            report.puzzles
        );
        status = Status::Interrupted;
    }
    Ok((status, report))
}

/// A problem on standard error, as it is found: where, what, which strategies, the puzzle.
fn print_problem(problem: &PuzzleProblem) {
    let strategies = &problem.problem.strategies;
    let involved = if strategies.is_empty() {
        String::new()
    } else {
        format!(" (strategies: {})", strategies.join(", "))
    };
    note!(
        "sudolab: {}: {}{involved}\n  puzzle: {}",
        problem.source,
        problem.problem.detail,
        problem.grid
    );
}

/// Says which strategies a node budget cannot stop: they count no nodes.
fn warn_of_unbounded(plan: &Plan) {
    let unbounded: Vec<&str> = plan
        .entries
        .iter()
        .filter(|entry| {
            entry.limits.max_nodes.is_some() && !entry.strategy.counters().contains(&Counter::Nodes)
        })
        .map(|entry| entry.strategy.name())
        .collect();
    if !unbounded.is_empty() {
        note!(
            "sudolab: warning: the node budget does not apply to {} (they count no nodes); \
             their timeout bounds them",
            unbounded.join(", ")
        );
    }
}

/// A report path that is an input or a side file, under any name, would replace it.
fn refuse_reports_over_inputs(execution: &Execution) -> anyhow::Result<()> {
    let mut inputs: Vec<PathBuf> = execution
        .sources
        .iter()
        .filter(|source| !source.is_stdin())
        .map(|source| source.path.clone())
        .collect();
    for sides in execution.sides.iter().chain([&execution.input_sides]) {
        for side in [&sides.counts, &sides.solutions].into_iter().flatten() {
            inputs.push(side.path().to_path_buf());
        }
    }
    refuse_outputs_over_inputs(&execution.reports, &inputs, "report")?;
    if let Some(dir) = &execution.plots {
        let plots = super::output::plot_paths(dir, &execution.plan.names());
        refuse_outputs_over_inputs(&plots, &inputs, "plot")?;
    }
    Ok(())
}

/// The strategies named by --strategies (all by default), after checking the options that
/// depend on them.
fn chosen_strategies(args: &CompareArgs) -> anyhow::Result<Vec<&'static dyn Strategy>> {
    let mut strategies: Vec<&'static dyn Strategy> = if args.strategies.is_empty() {
        strategy::registry().to_vec()
    } else {
        strategies_named(&args.strategies)?
    };
    strategies.extend(externals(&args.external, &args.external_limits)?);
    let names: Vec<&str> = strategies.iter().map(|s| s.name()).collect();
    if let Some(baseline) = &args.baseline
        && !names.contains(&baseline.as_str())
    {
        bail!(
            "the baseline '{baseline}' is not among the strategies compared ({})",
            names.join(", ")
        );
    }
    if args.sample == Some(0) {
        bail!("--sample 0 would compare nothing; give a sample size of at least 1");
    }
    Ok(strategies)
}

// The resource limits of the outside solvers' processes (every command with `--external`). A
// plain comment: clap would take a doc comment as the about text of every command that
// flattens these.
#[derive(Debug, Default, Args)]
pub(crate) struct ExternalLimitArgs {
    /// Limit each outside solver's process to this much memory (address space, 'ulimit -v';
    /// a whole number and K, M or G, binary units: 512M, 2G); an allocation past it fails, and
    /// a program that dies of it is its problem on that puzzle, started again for the next.
    /// Default: no limit.
    #[arg(long, value_name = "SIZE", value_parser = strategy::parse_size)]
    external_memory: Option<u64>,

    /// Limit each outside solver's process to this much CPU time ('ulimit -t', whole seconds
    /// rounded up: 500ms, 10s, 2m); at the limit it is killed (SIGXCPU), which is its problem on
    /// that puzzle, and started again for the next. A line-protocol program is kept across
    /// puzzles, so this bounds its whole life (a safety net; --timeout is the per-puzzle
    /// budget); a DIMACS solver is started per call, so it bounds each call. Default: no limit.
    #[arg(long, value_name = "DURATION", value_parser = parse_cpu_limit)]
    external_cpu: Option<Duration>,
}

/// Parses `--external-cpu`: a duration above zero.
fn parse_cpu_limit(text: &str) -> Result<Duration, String> {
    strategy::cpu_limit(parse_duration(text)?)
}

/// The outside solvers of `--external NAME=COMMAND`, each once, under the limits given.
pub(crate) fn externals(
    specs: &[String],
    limits: &ExternalLimitArgs,
) -> anyhow::Result<Vec<&'static dyn Strategy>> {
    let limits = strategy::ProcessLimits {
        memory: limits.external_memory,
        cpu: limits.external_cpu,
    };
    let externals = specs
        .iter()
        .map(|spec| Ok(&*Box::leak(strategy::outside_solver(spec, limits)?)))
        .collect::<anyhow::Result<Vec<&'static dyn Strategy>>>()?;
    strategy::distinct_outside_names(&externals).map_err(|err| anyhow!("--external: {err}"))?;
    Ok(externals)
}

/// Whether standard input, with no FILE given, is what to compare: not a terminal (someone
/// at the keyboard means the bundled corpus), not a character device such as /dev/null (what
/// CI jobs and services often get), and not empty. A pipe is waited on until its first bytes
/// or its end, as every command that reads standard input waits; the bytes looked at stay in
/// standard input's buffer for the reader.
fn stdin_has_input() -> bool {
    use std::io::BufRead as _;
    let stdin = io::stdin();
    if stdin.is_terminal() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if std::fs::metadata("/dev/stdin").is_ok_and(|meta| meta.file_type().is_char_device()) {
            return false;
        }
    }
    stdin.lock().fill_buf().is_ok_and(|bytes| !bytes.is_empty())
}

/// The bundled corpus: the .txt files of ./corpora and ./corpora/generated, and the variant
/// puzzles of ./corpora/variants (.json and .toml: they carry their rules), or, when sudolab
/// runs elsewhere, those of the source tree it was built from.
fn bundled_corpus() -> anyhow::Result<Vec<PathBuf>> {
    let candidates = [
        PathBuf::from("corpora"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora"),
    ];
    let Some(root) = candidates.iter().find(|dir| dir.is_dir()) else {
        bail!(
            "no FILE given and no bundled corpus here (looked for ./corpora); name the puzzle \
             files to compare, or '-' for standard input"
        );
    };
    let mut files = Vec::new();
    for (dir, forms) in [
        (root.clone(), &["txt"][..]),
        (root.join("generated"), &["txt"][..]),
        (root.join("variants"), &["json", "toml"][..]),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path
                .extension()
                .is_some_and(|e| forms.iter().any(|form| e == *form))
                && path.is_file()
            {
                files.push(path);
            }
        }
    }
    files.sort();
    if files.is_empty() {
        bail!(
            "{}: no .txt puzzle files in the bundled corpus",
            root.display()
        );
    }
    Ok(files)
}

/// The interrupt flag, raised by SIGINT (Ctrl-C), SIGTERM (a batch system's time limit, such
/// as Slurm's) or SIGHUP (a closed terminal) alike: the first asks the run to stop and write
/// its reports of the work done, a second ends the process at once, its temporary files
/// removed.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let handler_flag = Arc::clone(&flag);
    let installed = ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::SeqCst) {
            sudolab::report::remove_partial_files();
            remove_staged();
            note!("sudolab: quit at the second interrupt; no report written");
            std::process::exit(130);
        }
        note!(
            "sudolab: interrupted; stopping after the searches under way, the reports will \
             cover the searches done (interrupt again to quit at once, without reports)"
        );
    });
    if let Err(err) = installed {
        note!("sudolab: an interrupt will end the run without a report: {err}");
    }
    flag
}

/// How long compare may spend counting the input's puzzles for the progress bar's total
/// before it starts without one (a spinner).
const COUNTING_BUDGET: Duration = Duration::from_secs(2);

/// A progress bar of searches on standard error, for people: hidden when standard error is
/// not a terminal. When every source can be read twice (files and typed puzzles, not standard
/// input), the puzzles are counted first, before any search (so the count costs no measured
/// time), and the bar shows the total and an estimate of the time left;
/// counting gives up after [`COUNTING_BUDGET`].
fn progress_bar(plan: &Plan, sources: &[Source]) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let strategies = plan.entries.len() as u64;
    let puzzles = if sources.iter().any(Source::is_stdin) {
        None
    } else {
        let counting = ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} counting puzzles, {elapsed}")
                .expect("a valid template"),
        );
        counting.enable_steady_tick(Duration::from_millis(200));
        let started = Instant::now();
        let counted =
            experiment::count_selected(Walk::new(sources.to_vec()), plan.selection, || {
                started.elapsed() > COUNTING_BUDGET
            });
        counting.finish_and_clear();
        counted
    };
    let total = match (puzzles, plan.selection) {
        (Some(puzzles), _) => Some(puzzles),
        (None, Selection::Sample { size, .. }) => Some(size),
        (None, _) => None,
    };
    let bar = match total {
        Some(puzzles) => {
            ProgressBar::new(puzzles.saturating_mul(strategies)).with_style(progress_style(true))
        }
        None => ProgressBar::new_spinner().with_style(progress_style(false)),
    };
    // The first frame now, not at the ticker thread's first tick: a short run shows its total.
    bar.tick();
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The progress bar's look: with a known total, a bar, the searches done of the total, the
/// rate and an estimate of the time left; without one, a spinner, the searches done, the rate
/// and the time so far.
fn progress_style(total_known: bool) -> ProgressStyle {
    let template = if total_known {
        "{bar:40} {pos}/{len} searches, {rate}, eta {eta}"
    } else {
        "{spinner} {pos} searches, {rate}, {elapsed}"
    };
    ProgressStyle::with_template(template)
        .expect("a valid template")
        .with_key(
            "rate",
            |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = out.write_str(&rate_text(state.per_sec()));
            },
        )
}

/// Searches per second for people: whole numbers from 10/s up, one decimal below (indicatif's
/// own `{per_sec}` prints `51.6386/s`).
fn rate_text(per_second: f64) -> String {
    if !per_second.is_finite() || per_second <= 0.0 {
        "0/s".to_string()
    } else if per_second >= 10.0 {
        format!("{per_second:.0}/s")
    } else {
        format!("{per_second:.1}/s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_rounded_for_people() {
        assert_eq!(rate_text(51.6386), "52/s");
        assert_eq!(rate_text(3.31), "3.3/s");
        assert_eq!(rate_text(0.0), "0/s");
        assert_eq!(rate_text(f64::NAN), "0/s");
    }
}
