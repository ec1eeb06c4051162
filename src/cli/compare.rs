//! `sudolab compare`: every puzzle through every chosen strategy, certified, cross-checked and
//! reported.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use anyhow::{Context as _, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use sudolab::check::{self, Claims};
use sudolab::corpus::Record;
use sudolab::model::{Grid, Shape, parse_line_record};
use sudolab::report::{self, Aggregator, Context, PuzzleProblem, Report, Row};
use sudolab::strategy::{self, Counter, Limits, Stop, Strategy};

use super::input::{for_each_item, key};
use super::output::{colour_on_stdout, puzzle_text};
use super::{InputArgs, ReadArgs, Status, parse_duration, strategies_named, worker_pool};

#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// Puzzle files; '-' reads standard input. Without any, the bundled corpus: every .txt
    /// file in ./corpora and ./corpora/generated.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,

    #[command(flatten)]
    read: ReadArgs,

    /// Strategies to compare, comma-separated (see 'sudolab strategies'); default all.
    #[arg(long, short = 's', value_name = "A,B,...", value_delimiter = ',')]
    strategies: Vec<String>,

    /// Stop each search at this many solutions: 2 gives a uniqueness verdict, 1 only solves,
    /// 0 counts every solution.
    #[arg(long, short = 'l', default_value_t = 2)]
    limit: u64,

    /// Node budget per search; a search that uses it up reports 'unknown'.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,

    /// Time budget per search (500ms, 10s, 2m; 0 for none). The default keeps the plain
    /// backtrackers from hanging on hard puzzles: they report 'unknown' and the run goes on.
    /// sat and dlx check it only between solver calls.
    #[arg(long, value_name = "DURATION", default_value = "1s", value_parser = parse_duration)]
    timeout: Duration,

    /// Report each strategy's total time relative to this one (ratio 2.0 = twice as slow).
    #[arg(long, value_name = "STRATEGY")]
    baseline: Option<String>,

    /// Puzzles solved in parallel (default: one per core). Each search runs on one thread,
    /// and the output is in input order whatever the number of jobs.
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,

    /// Compare a random sample of N puzzles (reservoir sampling; drawn by --seed).
    #[arg(long, value_name = "N", conflicts_with = "shard")]
    sample: Option<u64>,

    /// Seed of the sample: the same seed and corpus give the same sample on every machine.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// Run only shard K of N (puzzles whose position modulo N is K-1); merge the shards'
    /// JSON reports with 'sudolab report'.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,

    /// Time each search R times and report the fastest and the median: for small solves, where
    /// one measurement is mostly noise.
    #[arg(long, value_name = "R", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,

    /// Write a report; the extension picks the form: .md, .csv, .json, .jsonl (one row per
    /// line), .html (self-contained, with charts) or .txt. Repeat for several.
    #[arg(long, short = 'r', value_name = "FILE")]
    report: Vec<PathBuf>,

    /// Known solution counts, one per line, line i for the i-th puzzle of the input (such as
    /// tdoku's *.solution_counts.txt); each count is checked.
    #[arg(long, value_name = "FILE")]
    expect_counts: Option<PathBuf>,

    /// Known solutions, one per line, line i for the i-th puzzle of the input; each is checked.
    #[arg(long, value_name = "FILE")]
    expect_solutions: Option<PathBuf>,
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("expected K/N with 1 <= K <= N, such as 2/4; found '{text}'");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The report forms, by file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReportForm {
    Text,
    Markdown,
    Csv,
    Json,
    JsonLines,
    Html,
}

impl ReportForm {
    pub(crate) fn of(path: &Path) -> anyhow::Result<ReportForm> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        Ok(match extension.as_str() {
            "txt" | "text" => ReportForm::Text,
            "md" | "markdown" => ReportForm::Markdown,
            "csv" => ReportForm::Csv,
            "json" => ReportForm::Json,
            "jsonl" | "ndjson" => ReportForm::JsonLines,
            "html" | "htm" => ReportForm::Html,
            _ => bail!(
                "{}: cannot tell the report form from the extension '{extension}'; use .md, \
                 .csv, .json, .jsonl, .html or .txt",
                path.display()
            ),
        })
    }
}

/// A report file, opened before the run so that a path that cannot be written fails at once.
enum Sink {
    /// Rendered whole at the end.
    Whole(ReportForm, PathBuf, BufWriter<File>),
    Csv(PathBuf, Box<report::csv::CsvWriter<BufWriter<File>>>),
    Json(PathBuf, report::json::JsonWriter<BufWriter<File>>),
    JsonLines(PathBuf, BufWriter<File>),
}

impl Sink {
    fn open(path: &Path, counters: &[Counter]) -> anyhow::Result<Sink> {
        let form = ReportForm::of(path)?;
        let file = File::create(path)
            .with_context(|| format!("{}: cannot write the report", path.display()))?;
        let out = BufWriter::new(file);
        let path = path.to_path_buf();
        Ok(match form {
            ReportForm::Csv => Sink::Csv(
                path.clone(),
                Box::new(
                    report::csv::CsvWriter::new(out, counters.to_vec())
                        .with_context(|| format!("{}: cannot write", path.display()))?,
                ),
            ),
            ReportForm::Json => Sink::Json(
                path.clone(),
                report::json::JsonWriter::new(out)
                    .with_context(|| format!("{}: cannot write", path.display()))?,
            ),
            ReportForm::JsonLines => Sink::JsonLines(path, out),
            form => Sink::Whole(form, path, out),
        })
    }

    fn row(&mut self, row: &Row) -> anyhow::Result<()> {
        match self {
            Sink::Whole(..) => Ok(()),
            Sink::Csv(path, writer) => writer
                .write(row)
                .with_context(|| format!("{}: cannot write", path.display())),
            Sink::Json(path, writer) => writer
                .write(row)
                .with_context(|| format!("{}: cannot write", path.display())),
            Sink::JsonLines(path, out) => report::json::write_line(out, row)
                .with_context(|| format!("{}: cannot write", path.display())),
        }
    }

    fn finish(self, report: &Report) -> anyhow::Result<()> {
        let (path, result) = match self {
            Sink::Whole(form, path, mut out) => {
                let result = out
                    .write_all(render(form, report).as_bytes())
                    .and_then(|()| out.flush());
                (path, result)
            }
            Sink::Csv(path, writer) => {
                let result = writer.finish().and_then(|mut out| out.flush());
                (path, result)
            }
            Sink::Json(path, writer) => (path, writer.finish(report).map(drop)),
            Sink::JsonLines(path, mut out) => (path, out.flush()),
        };
        result.with_context(|| format!("{}: cannot write the report", path.display()))
    }
}

/// Renders a whole report in one of the forms that need all of it.
pub(crate) fn render(form: ReportForm, report: &Report) -> String {
    match form {
        ReportForm::Text => report::text::render(report, false),
        ReportForm::Markdown => report::markdown::render(report),
        ReportForm::Html => report::html::render(report),
        ReportForm::Json => {
            let mut text = serde_json::to_string_pretty(report).expect("a report serializes");
            text.push('\n');
            text
        }
        ReportForm::Csv | ReportForm::JsonLines => {
            let counters = counter_union(&report.strategies);
            let mut out = Vec::new();
            if form == ReportForm::Csv {
                let mut writer = report::csv::CsvWriter::new(&mut out, counters)
                    .expect("writing to memory cannot fail");
                for row in &report.rows {
                    writer.write(row).expect("writing to memory cannot fail");
                }
                writer.finish().expect("writing to memory cannot fail");
            } else {
                for row in &report.rows {
                    report::json::write_line(&mut out, row).expect("writing to memory");
                }
            }
            String::from_utf8(out).expect("rows are UTF-8")
        }
    }
}

/// Every counter any of these strategies reports, in counter order.
pub(crate) fn counter_union(names: &[String]) -> Vec<Counter> {
    let mut counters: Vec<Counter> = names
        .iter()
        .filter_map(|name| strategy::find(name).ok())
        .flat_map(|strategy| strategy.counters().iter().copied())
        .collect();
    counters.sort_unstable();
    counters.dedup();
    counters
}

/// One puzzle to compare.
struct Job {
    ordinal: u64,
    source: String,
    record: Record,
    expected_count: Option<u64>,
    expected_solution: Option<Grid>,
}

/// What comparing one puzzle gave.
struct Done {
    rows: Vec<Row>,
    problems: Vec<PuzzleProblem>,
    cancelled: bool,
}

/// The Ctrl-C flag: the first Ctrl-C asks the run to stop and write its report, a second one
/// ends the process at once.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let handler_flag = Arc::clone(&flag);
    let installed = ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if let Err(err) = installed {
        eprintln!("sudolab: Ctrl-C will end the run without a report: {err}");
    }
    flag
}

/// The bundled corpus: the .txt files of ./corpora and ./corpora/generated (or, when sudolab
/// runs elsewhere, of the source tree it was built from).
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
    for dir in [root.clone(), root.join("generated")] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "txt") && path.is_file() {
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

/// Lines of a side file of known counts or solutions.
fn side_lines(path: &Path) -> anyhow::Result<Vec<String>> {
    let file = File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    BufReader::new(file)
        .lines()
        .map(|line| line.with_context(|| format!("{}: cannot read", path.display())))
        .collect()
}

fn expected_count(lines: &[String], ordinal: u64, path: &Path) -> anyhow::Result<Option<u64>> {
    let Some(line) = lines.get(ordinal as usize) else {
        return Ok(None);
    };
    let count = line.trim().parse().with_context(|| {
        format!(
            "{}: line {}: expected a solution count, found '{}'",
            path.display(),
            ordinal + 1,
            line.trim()
        )
    })?;
    Ok(Some(count))
}

fn expected_solution(
    lines: &[String],
    ordinal: u64,
    shape: Shape,
    path: &Path,
) -> anyhow::Result<Option<Grid>> {
    let Some(line) = lines.get(ordinal as usize) else {
        return Ok(None);
    };
    let line_number = ordinal as usize + 1;
    let record = parse_line_record(line.trim().as_bytes(), Some(shape), line_number)
        .map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))?;
    Ok(Some(record.puzzle))
}

/// How this run is made, for the report.
fn context(args: &CompareArgs, files: &[PathBuf], jobs: usize) -> Context {
    Context {
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: option_env!("SUDOLAB_GIT_COMMIT").map(str::to_string),
        cpu: cpu_name(),
        date: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        inputs: files.iter().map(|f| f.display().to_string()).collect(),
        limit: args.limit,
        max_nodes: args.max_nodes,
        timeout_ms: (!args.timeout.is_zero()).then_some(args.timeout.as_millis() as u64),
        repeat: args.repeat,
        jobs,
        sample: args.sample.map(|size| (size, args.seed)),
        shard: args.shard.map(|(k, n)| format!("{k}/{n}")),
        baseline: args.baseline.clone(),
        merged_from: Vec::new(),
    }
}

/// Fresh limits for each search: the timeout counts from the start of that search.
fn limits_for(args: &CompareArgs, cancel: &Arc<AtomicBool>) -> impl Fn() -> Limits + Sync {
    let cancel = Arc::clone(cancel);
    let (limit, max_nodes, timeout) = (args.limit, args.max_nodes, args.timeout);
    move || {
        let mut limits = Limits {
            max_nodes,
            cancel: Some(Arc::clone(&cancel)),
            ..Limits::default()
        }
        .with_max_solutions(limit);
        if !timeout.is_zero() {
            limits = limits.with_timeout(timeout);
        }
        limits
    }
}

/// Known counts and solutions from side files, line i for the i-th puzzle.
struct Known {
    counts: Option<Vec<String>>,
    solutions: Option<Vec<String>>,
}

fn make_job(
    args: &CompareArgs,
    ordinal: u64,
    source: String,
    record: &Record,
    known: &Known,
) -> anyhow::Result<Job> {
    let expected_count = match (&known.counts, &args.expect_counts) {
        (Some(lines), Some(path)) => expected_count(lines, ordinal, path)?,
        _ => None,
    };
    let expected_solution = match (&known.solutions, &args.expect_solutions) {
        (Some(lines), Some(path)) => {
            expected_solution(lines, ordinal, record.puzzle.shape(), path)?
        }
        _ => None,
    };
    Ok(Job {
        ordinal,
        source,
        record: record.clone(),
        expected_count,
        expected_solution,
    })
}

/// The strategies named by --strategies (all by default), after checking the options that
/// depend on them.
fn chosen_strategies(args: &CompareArgs) -> anyhow::Result<Vec<&'static dyn Strategy>> {
    let strategies: Vec<&'static dyn Strategy> = if args.strategies.is_empty() {
        strategy::registry().to_vec()
    } else {
        strategies_named(&args.strategies)?
    };
    let names: Vec<String> = strategies.iter().map(|s| s.name().to_string()).collect();
    if let Some(baseline) = &args.baseline
        && !names.contains(baseline)
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

/// Writes the reports and the table, and gives the exit status.
fn finish(
    report: &Report,
    sinks: Vec<Sink>,
    mut status: Status,
    interrupted: bool,
) -> anyhow::Result<Status> {
    for sink in sinks {
        sink.finish(report)?;
    }
    let colour = colour_on_stdout();
    let mut stdout = io::stdout().lock();
    stdout.write_all(report::text::render(report, colour).as_bytes())?;
    stdout.flush()?;
    if !report.problems.is_empty() {
        status = status.max(Status::Negative);
    }
    if interrupted {
        eprintln!(
            "sudolab: interrupted; the report covers the {} puzzles done and is marked \
             incomplete",
            report.puzzles
        );
        return Ok(Status::Interrupted);
    }
    Ok(status)
}

// One pipeline (read, shard or sample, batch, run in parallel, absorb in order); split further
// it would pass the same half-dozen borrowed pieces between functions.
#[allow(clippy::too_many_lines)]
pub(crate) fn run(args: &CompareArgs) -> anyhow::Result<Status> {
    let strategies = chosen_strategies(args)?;
    let names: Vec<String> = strategies.iter().map(|s| s.name().to_string()).collect();
    let files = if args.files.is_empty() {
        bundled_corpus()?
    } else {
        args.files.clone()
    };
    let (pool, jobs) = worker_pool(args.jobs)?;
    let known = Known {
        counts: args.expect_counts.as_deref().map(side_lines).transpose()?,
        solutions: args
            .expect_solutions
            .as_deref()
            .map(side_lines)
            .transpose()?,
    };

    // Open every report before the first puzzle: a bad path fails now, not after an hour.
    let counters = counter_union(&names);
    let mut sinks = args
        .report
        .iter()
        .map(|path| Sink::open(path, &counters))
        .collect::<anyhow::Result<Vec<_>>>()?;

    let context = context(args, &files, jobs);

    let cancel = interrupt_flag();
    let limits = limits_for(args, &cancel);
    let progress = progress_bar(args.sample);
    let mut state = RunState {
        aggregator: Aggregator::new(names.clone(), args.baseline.clone()),
        problems: Vec::new(),
        input_errors: Vec::new(),
        sinks: &mut sinks,
        progress: &progress,
        interrupted: false,
    };
    let batch_size = jobs * 256;
    let mut batch: Vec<Job> = Vec::with_capacity(batch_size);
    let mut reservoir: Vec<Job> = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut ordinal: u64 = 0;
    let input = InputArgs {
        files,
        read: args.read,
    };
    let process = |batch: &mut Vec<Job>, state: &mut RunState<'_>| -> anyhow::Result<()> {
        let done: Vec<Done> = pool.install(|| {
            batch
                .par_iter()
                .map(|job| {
                    let done = compare_one(job, &strategies, &limits, args.repeat);
                    progress.inc(1);
                    done
                })
                .collect()
        });
        batch.clear();
        state.absorb(done)
    };
    let walk = for_each_item(&input, |name, item| {
        let record = match item {
            Ok(record) => record,
            Err(message) => {
                progress.suspend(|| eprintln!("sudolab: {message}"));
                state.input_errors.push(message);
                return Ok(Status::Error);
            }
        };
        if cancel.load(Ordering::SeqCst) {
            return Err(Interrupted.into());
        }
        let here = ordinal;
        ordinal += 1;
        if let Some((k, n)) = args.shard
            && here % n != k - 1
        {
            return Ok(Status::Success);
        }
        let job = make_job(args, here, key(name, record), record, &known)?;
        if let Some(size) = args.sample {
            // Reservoir sampling (Algorithm R): every puzzle ends up in the sample with the
            // same probability, in one pass and with `size` puzzles in memory.
            if (reservoir.len() as u64) < size {
                reservoir.push(job);
            } else {
                let slot = rng.random_range(0..=here);
                if slot < size {
                    reservoir[slot as usize] = job;
                }
            }
            return Ok(Status::Success);
        }
        batch.push(job);
        if batch.len() >= batch_size {
            process(&mut batch, &mut state)?;
            if state.interrupted {
                return Err(Interrupted.into());
            }
        }
        Ok(Status::Success)
    });
    let status = match walk {
        Ok(status) => status,
        Err(err) if err.is::<Interrupted>() => {
            state.interrupted = true;
            Status::Success
        }
        Err(err) => return Err(err),
    };
    if !state.interrupted {
        if args.sample.is_some() {
            reservoir.sort_by_key(|job| job.ordinal);
            let mut rest = reservoir;
            while !rest.is_empty() && !state.interrupted {
                let tail = rest.split_off(batch_size.min(rest.len()));
                let mut chunk = std::mem::replace(&mut rest, tail);
                process(&mut chunk, &mut state)?;
            }
        } else if !batch.is_empty() {
            process(&mut batch, &mut state)?;
        }
    }
    progress.finish_and_clear();

    let interrupted = state.interrupted || cancel.load(Ordering::SeqCst);
    let problems = std::mem::take(&mut state.problems);
    let input_errors = std::mem::take(&mut state.input_errors);
    let report = state
        .aggregator
        .report(context, input_errors, problems, !interrupted);
    finish(&report, sinks, status, interrupted)
}

/// The run was interrupted by Ctrl-C.
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
struct Interrupted;

/// What the run has gathered so far.
struct RunState<'a> {
    aggregator: Aggregator,
    problems: Vec<PuzzleProblem>,
    input_errors: Vec<String>,
    sinks: &'a mut Vec<Sink>,
    progress: &'a ProgressBar,
    interrupted: bool,
}

impl RunState<'_> {
    /// Takes a batch's results in input order. A puzzle whose searches were cancelled is left
    /// out: the report covers only puzzles done.
    fn absorb(&mut self, done: Vec<Done>) -> anyhow::Result<()> {
        for done in done {
            if done.cancelled {
                self.interrupted = true;
                continue;
            }
            for problem in &done.problems {
                self.progress.suspend(|| {
                    eprintln!(
                        "sudolab: {}: {} (strategies: {})\n  puzzle: {}",
                        problem.source,
                        problem.problem.detail,
                        problem.problem.strategies.join(", "),
                        problem.grid
                    );
                });
            }
            self.problems.extend(done.problems);
            for row in done.rows {
                for sink in self.sinks.iter_mut() {
                    sink.row(&row)?;
                }
                self.aggregator.add(row);
            }
        }
        Ok(())
    }
}

fn compare_one(
    job: &Job,
    strategies: &[&'static dyn Strategy],
    limits: &(dyn Fn() -> Limits + Sync),
    repeat: u32,
) -> Done {
    let puzzle = &job.record.puzzle;
    let runs: Vec<check::Run> = strategies
        .iter()
        .map(|strategy| check::run(*strategy, puzzle, limits, repeat))
        .collect();
    let cancelled = runs.iter().any(|run| run.stopped == Some(Stop::Cancelled));
    let claims = Claims {
        solution: job
            .expected_solution
            .as_ref()
            .or(job.record.solution.as_ref()),
        count: job.expected_count.or(job.record.count),
    };
    let grid = puzzle_text(puzzle);
    let problems = check::cross_check(&runs, claims)
        .into_iter()
        .map(|problem| PuzzleProblem {
            puzzle: job.ordinal,
            source: job.source.clone(),
            grid: grid.clone(),
            problem,
        })
        .collect();
    let rows = runs
        .into_iter()
        .map(|run| Row {
            puzzle: job.ordinal,
            source: job.source.clone(),
            side: puzzle.side(),
            clues: puzzle.clue_count(),
            strategy: run.strategy.to_string(),
            verdict: run.verdict(),
            solutions: run.count.found,
            exhausted: run.count.exhausted,
            stopped: run.stopped,
            time_ns: run.best.as_nanos() as u64,
            median_ns: run.median.as_nanos() as u64,
            counters: run.stats,
        })
        .collect();
    Done {
        rows,
        problems,
        cancelled,
    }
}

/// A progress bar on standard error, for people: hidden when standard error is not a terminal.
fn progress_bar(sample: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match sample {
        Some(size) => ProgressBar::new(size).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, eta {eta}")
                .expect("a valid template"),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {pos} puzzles, {per_sec}, {elapsed}")
                .expect("a valid template"),
        ),
    };
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The processor's name, from /proc/cpuinfo where there is one.
fn cpu_name() -> String {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{model} ({cores} threads available)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_and_report_forms_are_parsed_with_clear_errors() {
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert_eq!(
            parse_shard("0/4"),
            Err("expected K/N with 1 <= K <= N, such as 2/4; found '0/4'".to_string())
        );
        assert_eq!(
            ReportForm::of(Path::new("r.HTML")).ok(),
            Some(ReportForm::Html)
        );
        assert_eq!(
            ReportForm::of(Path::new("r.pdf"))
                .expect_err("pdf")
                .to_string(),
            "r.pdf: cannot tell the report form from the extension 'pdf'; use .md, .csv, \
             .json, .jsonl, .html or .txt"
        );
    }
}
