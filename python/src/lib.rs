//! `sudolab._native`: the Rust half of the `sudolab` Python package. Every search goes through
//! sudolab's experiment pipeline (`experiment::compare` and `experiment::check`), so the rows are
//! the ones the command line's reports hold; results go back as Arrow tables
//! (`pyo3_arrow::PyTable`, the Arrow PyCapsule interface). The Python half
//! (`python/sudolab/__init__.py`) wraps these functions with defaults, docstrings and the
//! `Table`, `Comparison` and `Trace` classes.
//!
//! The GIL is released while puzzles are parsed and searched: the work runs on a thread of its
//! own while the calling thread waits, looking at Python's signals every 50 ms; Ctrl-C sets the
//! run's cancel flag (searches under way stop within 1,024 nodes) and raises
//! `KeyboardInterrupt`. A panic on a worker thread becomes `sudolab.Error`.

mod errors;
mod outside;
mod puzzles;
mod tables;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3_arrow::PyTable;
use rayon::prelude::*;

use sudolab::corpus::{Format, Met, Source, Walk};
use sudolab::experiment::generate::{
    self as request, HumanFilter, HumanRated, Prepared, Request, Unique,
};
use sudolab::experiment::provenance;
use sudolab::experiment::{
    self, Experiment, Hooks, Input, Item, Order, Plan, Puzzles, Repeats, Scratch, Selection,
    Session, Shard, SideError, SideFile, SideKind, Sides,
};
use sudolab::generate::{self, Symmetry};
use sudolab::model::Features;
use sudolab::model::{Shape, to_one_line};
use sudolab::report::{Clock, Context, PuzzleProblem, Row, Sink, SinkError, Summary};
use sudolab::strategy::{self, Counter, EngineChoice, Limits, Strategy, Verdict, WorkUnit};
use sudolab::trace;

use tables::{Columns, RowsBuilder};

/// How often the waiting thread looks at Python's signals.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own with the GIL released, looking at Python's signals
/// every [`SIGNAL_POLL`]: on Ctrl-C (or any signal handler's exception) `cancel` is set, the
/// work is waited for (it stops at its next check of the flag) and the exception raised. A
/// panic in `work` becomes `sudolab.Error`.
fn detached<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (done, finished) = mpsc::channel::<()>();
    // A receiver is not `Sync`; behind a mutex it can be waited on without the GIL.
    let finished = std::sync::Mutex::new(finished);
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let result = work();
            drop(done);
            result
        });
        loop {
            let ended = py.detach(|| {
                finished.lock().map_or(true, |finished| {
                    matches!(
                        finished.recv_timeout(SIGNAL_POLL),
                        Err(mpsc::RecvTimeoutError::Disconnected) | Ok(())
                    )
                })
            });
            if ended {
                break;
            }
            if let Err(err) = py.check_signals() {
                cancel.store(true, Ordering::SeqCst);
                let _ = py.detach(|| worker.join());
                return Err(err);
            }
        }
        match py.detach(|| worker.join()) {
            Ok(result) => Ok(result),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                Err(errors::internal(&message))
            }
        }
    })
}

/// Resolves strategy names by the library's rules, as the command line does.
fn strategies_named(names: &[String]) -> PyResult<Vec<&'static dyn Strategy>> {
    let strategies = strategy::find_all(names).map_err(|err| errors::option(&err.to_string()))?;
    if strategies.is_empty() {
        return Err(errors::option("strategies: give at least one strategy"));
    }
    Ok(strategies)
}

/// A time budget: seconds as a number, or a duration as the command line writes it (`500ms`,
/// `10s`, `2m`; `0` or `none` for no limit).
fn duration(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    Ok(given_duration(name, value)?.filter(|duration| !duration.is_zero()))
}

/// A duration as given (zero kept), or `None`.
fn given_duration(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let duration = if let Ok(text) = value.cast::<PyString>() {
        experiment::parse_duration(&text.to_cow()?)
            .map_err(|message| errors::option(&format!("{name}: {message}")))?
    } else {
        let seconds: f64 = value.extract().map_err(|_| {
            errors::option(&format!(
                "{name}: expected seconds or a duration such as 500ms, 10s or 2m, found {}",
                value
                    .repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string())
            ))
        })?;
        Duration::try_from_secs_f64(seconds)
            .map_err(|err| errors::option(&format!("{name}: bad duration {seconds}: {err}")))?
    };
    Ok(Some(duration))
}

/// The outside solvers' resource limits, `external_memory` (a size such as `"512M"`) and
/// `external_cpu` (seconds or a duration above zero), as `--external-memory` and
/// `--external-cpu` read them.
fn process_limits(
    memory: Option<&str>,
    cpu: Option<&Bound<'_, PyAny>>,
) -> PyResult<strategy::ProcessLimits> {
    let memory = memory
        .map(strategy::parse_size)
        .transpose()
        .map_err(|err| errors::option(&format!("external_memory: {err}")))?;
    let cpu = given_duration("external_cpu", cpu)?
        .map(strategy::cpu_limit)
        .transpose()
        .map_err(|err| errors::option(&format!("external_cpu: {err}")))?;
    Ok(strategy::ProcessLimits { memory, cpu })
}

/// The box shape, `RxC`, when given.
fn shape(text: Option<&str>) -> PyResult<Option<Shape>> {
    text.map(|text| {
        text.parse::<Shape>()
            .map_err(|err| errors::option(&format!("box: {err}")))
    })
    .transpose()
}

/// Worker threads: as asked (1 to `MAX_JOBS`), or one per core.
fn jobs(jobs: Option<i64>) -> PyResult<usize> {
    let max = experiment::MAX_JOBS;
    match jobs {
        None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
        Some(jobs) if jobs >= 1 && jobs as usize <= max => Ok(jobs as usize),
        Some(jobs) => Err(errors::option(&format!(
            "jobs: expected 1 to {max} jobs, found {jobs}"
        ))),
    }
}

/// The budgets `auto` must be able to follow: a node budget, a work budget.
#[derive(Clone, Copy)]
struct Budgets {
    nodes: bool,
    work: bool,
}

/// Whether `auto` may choose `engine`: with a node budget, only an engine that counts nodes;
/// with a work budget, only one that has a unit to count it in.
fn usable(engine: &dyn Strategy, budgets: Budgets) -> bool {
    (!budgets.nodes || engine.counters().contains(&Counter::Nodes))
        && (!budgets.work || engine.budget_unit() != WorkUnit::None)
}

/// Refuses a work budget for an engine that has no unit to count it in (as `count` and `solve`
/// on the command line do): it could not stop it.
fn check_budget(strategies: &[&'static dyn Strategy], budget: Option<u64>) -> PyResult<()> {
    if budget.is_some_and(|budget| budget > 0)
        && let Some(strategy) = strategies
            .iter()
            .find(|s| s.budget_unit() == WorkUnit::None)
    {
        return Err(errors::option(&format!(
            "budget: {} has no work budget (nothing inside its crate's search can be counted), \
             so it cannot stop it; give it a timeout instead",
            strategy.name()
        )));
    }
    Ok(())
}

/// Limits of every search, refusing a node budget for an engine that counts no nodes (as the
/// command line does).
fn limits(
    strategies: &[&'static dyn Strategy],
    limit: u64,
    timeout: Option<Duration>,
    max_nodes: Option<u64>,
) -> PyResult<Limits> {
    if max_nodes.is_some()
        && let Some(strategy) = strategies
            .iter()
            .find(|s| !s.counters().contains(&Counter::Nodes))
    {
        return Err(errors::option(&format!(
            "max_nodes: {} counts no nodes, so a node budget cannot stop it; give it a timeout \
             instead",
            strategy.name()
        )));
    }
    let mut limits = Limits::solutions(limit);
    if let Some(timeout) = timeout {
        limits = limits.with_timeout(timeout);
    }
    limits.max_nodes = max_nodes;
    Ok(limits)
}

/// What a run of a plan gives back before it becomes tables.
struct Collected {
    rows: Gathered,
    /// The plots' files (name, SVG text), when asked for.
    plots: Vec<(String, String)>,
    problems: Vec<PuzzleProblem>,
    input_errors: Vec<String>,
    interrupted: bool,
    summary: Vec<Summary>,
    context: Context,
}

/// The rows of a run: built into the table as they come (one plan), or kept to be merged
/// with another plan's into input order (`auto`'s engines, each on the puzzles it takes).
enum Gathered {
    Streamed(RowsBuilder),
    Kept {
        /// Each row with the solution the table keeps.
        rows: Vec<(Row, Option<String>)>,
        /// The counter columns.
        counters: Vec<Counter>,
        /// Whether the table has a `solution` column.
        solutions: bool,
    },
}

impl Gathered {
    fn table(self) -> PyResult<PyTable> {
        match self {
            Gathered::Streamed(builder) => builder.finish(),
            Gathered::Kept {
                rows,
                counters,
                solutions,
            } => {
                let mut builder = RowsBuilder::new(&counters, solutions);
                for (row, solution) in &rows {
                    builder.add(row, solution.as_deref());
                }
                builder.finish()
            }
        }
    }
}

impl Collected {
    /// Another plan's run of other puzzles of the same input added, in input order (both
    /// with their rows kept).
    fn merge(mut self, other: Collected) -> Collected {
        if let (
            Gathered::Kept {
                rows,
                counters,
                solutions,
            },
            Gathered::Kept {
                rows: more,
                counters: more_counters,
                solutions: more_solutions,
            },
        ) = (&mut self.rows, other.rows)
        {
            rows.extend(more);
            rows.sort_by_key(|(row, _)| row.puzzle);
            counters.extend(more_counters);
            counters.sort_unstable();
            counters.dedup();
            *solutions |= more_solutions;
        }
        self.plots.extend(other.plots);
        self.problems.extend(other.problems);
        self.problems.sort_by_key(|problem| problem.puzzle);
        self.input_errors.extend(other.input_errors);
        self.interrupted |= other.interrupted;
        self.summary.extend(other.summary);
        self
    }
}

/// Report files written as the command line's `--report` writes them: opened before the run
/// (a bad path fails at once), then fed and finished by the session. An extension that names
/// no report form is a bad option (`OptionError`); a file that cannot be written an
/// `InputError`.
fn open_reports(plan: &Plan, paths: &[PathBuf]) -> PyResult<Vec<Sink>> {
    paths
        .iter()
        .map(|path| {
            Sink::create(path, &plan.counters()).map_err(|err| match err {
                SinkError::Format(_) => errors::option(&format!("report: {err}")),
                SinkError::Write { .. } => errors::input(&err.to_string()),
            })
        })
        .collect()
}

/// The inputs a report names: the files of the puzzles' sources (`FILE:LINE`) in order of
/// first appearance, as the command line lists its FILE arguments, so that the shards of one
/// run merge whether Python or the command line ran them.
fn inputs_of(items: &[Item]) -> Vec<String> {
    let mut inputs: Vec<String> = Vec::new();
    for item in items {
        let file = item
            .source
            .rsplit_once(':')
            .map_or(item.source.as_str(), |(file, _)| file);
        if !inputs.iter().any(|seen| seen == file) {
            inputs.push(file.to_string());
        }
    }
    inputs
}

/// Which solutions a table keeps in its `solution` column.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// None: no `solution` column (`count`, `compare`).
    None,
    /// The first one found (`solve`).
    First,
    /// The solution of a unique puzzle only: a puzzle with several has none
    /// (`solve(unique=True)`, as `sudolab solve --unique`).
    Unique,
}

/// Runs `plan` over `puzzles` (called on the worker thread) through the library's session:
/// every row and problem collected in input order (the rows kept for a merge when `hold`),
/// and written to the reports when there are any; with `plots`, the plots' SVG files drawn.
fn collect(
    plan: &Plan,
    puzzles: Puzzles<'_>,
    solutions: Keep,
    context: Context,
    sinks: Vec<Sink>,
    hold: bool,
    plots: bool,
) -> Result<Collected, String> {
    let mut builder = RowsBuilder::new(&plan.counters(), solutions != Keep::None);
    let mut kept = Vec::new();
    let session = Session {
        plan: plan.clone(),
        baseline: context.baseline.clone(),
        context,
        sinks,
    };
    let mut add_row = |row: &Row, solution: Option<&str>| {
        let refused = solutions == Keep::Unique && row.verdict == Verdict::Multiple;
        let solution = solution.filter(|_| !refused);
        if hold {
            kept.push((row.clone(), solution.map(str::to_string)));
        } else {
            builder.add(row, solution);
        }
    };
    let hooks = Hooks {
        progress: &|_| {},
        skipped: &mut |_| {},
        problem: &mut |_| {},
        row: Some(&mut add_row),
    };
    let compared = experiment::compare(session, puzzles, hooks).map_err(|err| err.to_string())?;
    let rows = if hold {
        Gathered::Kept {
            rows: kept,
            counters: plan.counters(),
            solutions: solutions != Keep::None,
        }
    } else {
        Gathered::Streamed(builder)
    };
    // A run of no puzzle draws no plot (as on the command line).
    let plots = if plots && compared.report.puzzles > 0 {
        sudolab::report::plots::files(&compared.report)
    } else {
        Vec::new()
    };
    Ok(Collected {
        rows,
        plots,
        summary: compared.report.summary,
        context: compared.report.context,
        problems: compared.report.problems,
        input_errors: compared.report.input_errors,
        interrupted: compared.ended.interrupted,
    })
}

/// Writes the plots' SVG files into `dir` (made when missing), as `--plots DIR`.
fn write_plots(dir: &std::path::Path, files: &[(String, String)]) -> PyResult<()> {
    if files.is_empty() {
        return Ok(());
    }
    std::fs::create_dir_all(dir).map_err(|err| {
        errors::input(&format!(
            "plots: {}: cannot make the plots directory: {err}",
            dir.display()
        ))
    })?;
    for (name, svg) in files {
        let path = dir.join(name);
        std::fs::write(&path, svg).map_err(|err| {
            errors::input(&format!(
                "plots: {}: cannot write the plot: {err}",
                path.display()
            ))
        })?;
    }
    Ok(())
}

/// A part of the report as the JSON report writes it.
fn to_json(value: &impl serde::Serialize) -> Result<String, String> {
    serde_json::to_string(value).map_err(|err| format!("cannot write JSON: {err}"))
}

/// `(rows, problems, input errors, interrupted, summary, context)`, as the Python side's
/// `Comparison` takes them (the summary and context as the JSON report's text).
type Comparison = (PyTable, PyTable, Vec<String>, bool, String, String);

fn comparison(collected: Collected) -> PyResult<Comparison> {
    let json = |text: Result<String, String>| text.map_err(|message| errors::internal(&message));
    Ok((
        collected.rows.table()?,
        tables::problems_table(&collected.problems)?,
        collected.input_errors,
        collected.interrupted,
        json(to_json(&collected.summary))?,
        json(to_json(&collected.context))?,
    ))
}

/// A side file of known counts or solutions (`expect_counts`, `expect_solutions`).
fn side_file(name: &str, path: Option<PathBuf>, kind: SideKind) -> PyResult<Option<SideFile>> {
    path.map(|path| {
        SideFile::load(&path, kind).map_err(|err| match err {
            SideError::Read { .. } => errors::input(&format!("{name}: {err}")),
            _ => errors::parse(&format!("{name}: {err}")),
        })
    })
    .transpose()
}

/// Runs strategies over puzzles through sudolab's experiment pipeline (`compare`, and `count`
/// and `solve` with one strategy).
#[pyfunction]
#[pyo3(name = "experiment", signature = (puzzles, strategies, limit, timeout=None, max_nodes=None, jobs=None, order="engine", r#box=None, repeat=1, warmup=0, solutions=false, shard=None, report=Vec::new(), baseline=None, clock="cpu", sample=None, seed=1, expect_counts=None, expect_solutions=None, command=String::new(), unique=false, one_engine=false, variant=None, randomize=None, restarts=None, budget=None, external=Vec::new(), plots=None, external_memory=None, external_cpu=None))]
#[allow(clippy::too_many_arguments)]
fn py_experiment(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    strategies: Vec<outside::Spec>,
    limit: u64,
    timeout: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<u64>,
    jobs: Option<i64>,
    order: &str,
    r#box: Option<&str>,
    repeat: u32,
    warmup: u32,
    solutions: bool,
    shard: Option<&str>,
    report: Vec<PathBuf>,
    baseline: Option<String>,
    clock: &str,
    sample: Option<u64>,
    seed: u64,
    expect_counts: Option<PathBuf>,
    expect_solutions: Option<PathBuf>,
    command: String,
    unique: bool,
    one_engine: bool,
    variant: Option<&str>,
    randomize: Option<u64>,
    restarts: Option<&str>,
    budget: Option<u64>,
    external: Vec<outside::ExternalSpec>,
    plots: Option<PathBuf>,
    external_memory: Option<&str>,
    external_cpu: Option<&Bound<'_, PyAny>>,
) -> PyResult<Comparison> {
    let variant = puzzles::variant(variant)?;
    let selection = self::selection(shard, sample, seed)?;
    let budgets = Budgets {
        nodes: max_nodes.is_some(),
        work: budget.is_some_and(|budget| budget > 0),
    };
    // Released (their Python objects dropped) when this call returns.
    let mut functions = outside::Functions::default();
    let outside = (external, process_limits(external_memory, external_cpu)?);
    let (auto, strategies) = chosen(strategies, outside, one_engine, budgets, &mut functions)?;
    if one_engine {
        check_budget(&strategies, budget)?;
    }
    check_baseline(&strategies, baseline.as_deref())?;
    let clock: Clock = clock
        .parse()
        .map_err(|err| errors::option(&format!("clock: {err}")))?;
    let sides = Sides {
        counts: side_file("expect_counts", expect_counts, SideKind::Counts)?,
        solutions: side_file("expect_solutions", expect_solutions, SideKind::Solutions)?,
    };
    let mut limits = limits(&strategies, limit, duration("timeout", timeout)?, max_nodes)?;
    limits.budget = budget.filter(|&budget| budget > 0);
    randomized(&strategies, limit, randomize, restarts, &mut limits)?;
    let (order, repeats) = order_and_repeats(order, repeat, warmup)?;
    let shape = shape(r#box)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let mut plan = Plan {
        repeats,
        order,
        jobs: self::jobs(jobs)?,
        selection,
        cancel: Some(Arc::clone(&cancel)),
        ..Plan::new(&strategies, &limits)
    };
    if !one_engine {
        compare_budgets(&mut plan, budget);
    }
    // One plan for every strategy, or with `auto` one per engine it may choose.
    let plans: Vec<Plan> = if auto {
        strategies
            .iter()
            .map(|engine| Plan {
                entries: Plan::new(&[*engine], &limits).entries,
                ..plan.clone()
            })
            .collect()
    } else {
        vec![plan.clone()]
    };
    let sinks = open_reports(&plan, &report)?;
    let mut context = provenance::context(&plan, &limits, &[puzzles::NAME.to_string()], command);
    context.baseline = baseline;
    context.clock = Some(clock);
    let raw = puzzles::take(puzzles)?;
    let draw = plots.is_some();
    let collected = detached(py, &cancel, move || {
        let mut items = puzzles::parse(raw, shape).map_err(Err)?;
        puzzles::apply_variant(&mut items, variant.as_ref()).map_err(Err)?;
        for side in [&sides.counts, &sides.solutions].into_iter().flatten() {
            side.check_length(items.len() as u64, puzzles::NAME)
                .map_err(|err| Err(err.to_string()))?;
        }
        for item in &mut items {
            experiment::attach(&sides, item.ordinal, item).map_err(|err| Err(err.to_string()))?;
        }
        context.inputs = inputs_of(&items);
        let keep = match (solutions, unique) {
            (false, _) => Keep::None,
            (true, false) => Keep::First,
            (true, true) => Keep::Unique,
        };
        run_plans(
            &plans,
            items,
            auto.then_some(budgets),
            keep,
            &context,
            sinks,
            draw,
        )
    })?;
    drop(functions);
    match collected {
        Ok(collected) => {
            if let Some(dir) = &plots {
                write_plots(dir, &collected.plots)?;
            }
            comparison(collected)
        }
        Err(Err(parse)) => Err(errors::parse(&parse)),
        Err(Ok(internal)) => Err(errors::internal(&internal)),
    }
}

/// The strategies of a run, and whether they are `auto`'s: `count` and `solve` take one engine
/// or `auto`, as their `--strategy` (per puzzle, fast up to 12x12 and sat above, the other
/// where that one refuses the puzzle; with a node or work budget, only engines that can follow
/// it; each engine then runs a plan of its own on the puzzles it takes); `compare` takes names,
/// functions and outside programs.
fn chosen(
    specs: Vec<outside::Spec>,
    (external, process_limits): (Vec<outside::ExternalSpec>, strategy::ProcessLimits),
    one_engine: bool,
    budgets: Budgets,
    functions: &mut outside::Functions,
) -> PyResult<(bool, Vec<&'static dyn Strategy>)> {
    let auto =
        one_engine && matches!(specs.as_slice(), [outside::Spec::Name(name)] if name == "auto");
    if auto {
        let mut engines = EngineChoice::Auto.engines();
        engines.retain(|engine| usable(*engine, budgets));
        return Ok((true, engines));
    }
    let chosen = outside::strategies(specs, external, process_limits, functions)?;
    if chosen.is_empty() {
        return Err(errors::option("strategies: give at least one strategy"));
    }
    Ok((false, chosen))
}

/// Refuses a baseline that is not among the strategies compared.
fn check_baseline(strategies: &[&'static dyn Strategy], baseline: Option<&str>) -> PyResult<()> {
    if let Some(baseline) = baseline
        && !strategies.iter().any(|s| s.name() == baseline)
    {
        let names: Vec<&str> = strategies.iter().map(|s| s.name()).collect();
        return Err(errors::option(&format!(
            "baseline: '{baseline}' is not among the strategies compared ({})",
            names.join(", ")
        )));
    }
    Ok(())
}

/// `compare`'s work budget, as its `--budget`: each engine's calibrated default unless one is
/// given, 0 for none.
fn compare_budgets(plan: &mut Plan, budget: Option<u64>) {
    for entry in &mut plan.entries {
        entry.limits.budget = match budget {
            Some(0) => None,
            Some(budget) => Some(budget),
            None => entry.strategy.default_budget(),
        };
    }
}

/// The puzzles a run takes: a shard, a seeded sample, or all.
fn selection(shard: Option<&str>, sample: Option<u64>, seed: u64) -> PyResult<Selection> {
    match (shard, sample) {
        (None, None) => Ok(Selection::All),
        (Some(text), None) => Ok(Selection::Shard(
            text.parse::<Shard>()
                .map_err(|err| errors::option(&format!("shard: {err}")))?,
        )),
        (None, Some(0)) => Err(errors::option(
            "sample: 0 would compare nothing; give a sample size of at least 1",
        )),
        (None, Some(size)) => Ok(Selection::Sample { size, seed }),
        (Some(_), Some(_)) => Err(errors::option(
            "sample: a sample is drawn from the whole input; give shard or sample, not both",
        )),
    }
}

/// A randomized search (`--randomize`) and its restarts (`--restarts`), under the command
/// line's rules: only engines that randomize, and restarts only with a seed and for one
/// solution.
fn randomized(
    strategies: &[&'static dyn Strategy],
    limit: u64,
    randomize: Option<u64>,
    restarts: Option<&str>,
    limits: &mut Limits,
) -> PyResult<()> {
    if randomize.is_some()
        && let Some(fixed) = strategies.iter().find(|s| !s.randomizes())
    {
        return Err(errors::option(&format!(
            "randomize: {} searches in its own fixed order; mrv randomizes its ties and value \
             order",
            fixed.name()
        )));
    }
    if let Some(schedule) = restarts {
        if randomize.is_none() {
            return Err(errors::option(
                "restarts: a restart schedule needs randomize=SEED (a restarted search in the \
                 same order would repeat itself)",
            ));
        }
        if limit != 1 {
            return Err(errors::option(
                "restarts: finds one solution (a restarted run would find earlier solutions \
                 again): use solve, or count with limit=1",
            ));
        }
        limits.restarts = Some(
            schedule
                .parse()
                .map_err(|err| errors::option(&format!("restarts: {err}")))?,
        );
    }
    limits.randomize = randomize;
    Ok(())
}

/// The order of the searches and how often each is timed.
fn order_and_repeats(order: &str, repeat: u32, warmup: u32) -> PyResult<(Order, Repeats)> {
    let order = match order {
        "engine" => Order::Engine,
        "puzzle" => Order::Puzzle,
        other => {
            return Err(errors::option(&format!(
                "order: expected 'engine' or 'puzzle', found '{other}'"
            )));
        }
    };
    if repeat == 0 || repeat > experiment::MAX_REPEATS || warmup > experiment::MAX_REPEATS {
        return Err(errors::option(&format!(
            "repeat: expected 1 to {0} timed searches and 0 to {0} warm-up searches, found \
             repeat={repeat}, warmup={warmup}",
            experiment::MAX_REPEATS
        )));
    }
    Ok((
        order,
        Repeats {
            warmup,
            timed: repeat,
        },
    ))
}

/// Runs the puzzles through the plans (on the worker thread): one plan, or with `auto`
/// (`Some(node_budget)`) each puzzle through the plan of the engine `auto` chooses for it,
/// the rows merged back into input order. `Err(Err(_))` is a puzzle no engine takes,
/// `Err(Ok(_))` a failure of the run.
#[allow(clippy::too_many_arguments)]
fn run_plans(
    plans: &[Plan],
    items: Vec<Item>,
    auto: Option<Budgets>,
    keep: Keep,
    context: &Context,
    sinks: Vec<Sink>,
    plots: bool,
) -> Result<Collected, Result<String, String>> {
    let mut groups: Vec<Vec<Item>> = vec![Vec::new(); plans.len()];
    for item in items {
        let index = match auto {
            None => 0,
            Some(budgets) => {
                let engine = EngineChoice::Auto
                    .resolve_among(&item.puzzle, |engine| usable(engine, budgets))
                    .map_err(|no| {
                        Err(format!(
                            "{}: {} (auto) cannot take this puzzle: {}",
                            item.source, no.engine, no.refusal
                        ))
                    })?;
                plans
                    .iter()
                    .position(|plan| plan.entries[0].strategy.name() == engine.name())
                    .unwrap_or(0)
            }
        };
        groups[index].push(item);
    }
    // Rows are kept for a merge only when more than one plan runs.
    let hold = groups.iter().filter(|group| !group.is_empty()).count() > 1;
    let mut sinks = Some(sinks);
    let mut merged: Option<Collected> = None;
    for (index, (plan, group)) in plans.iter().zip(groups).enumerate() {
        // Every plan with puzzles runs; with none at all, the first (an empty table).
        if group.is_empty() && (index > 0 || merged.is_some()) {
            continue;
        }
        let collected = collect(
            plan,
            Puzzles::Items(Box::new(group.into_iter())),
            keep,
            context.clone(),
            sinks.take().unwrap_or_default(),
            hold,
            plots,
        )
        .map_err(Ok)?;
        merged = Some(match merged {
            None => collected,
            Some(earlier) => earlier.merge(collected),
        });
    }
    merged.ok_or_else(|| Ok("no plan ran".to_string()))
}

/// Runs an experiment file (`sudolab run`'s TOML) and returns its rows and problems; nothing
/// is written. A file that names outside programs runs only with `allow_external`, as
/// `--allow-external`.
#[pyfunction]
#[pyo3(signature = (path, allow_external=false))]
fn run(py: Python<'_>, path: PathBuf, allow_external: bool) -> PyResult<(Comparison, String)> {
    let experiment = Experiment::load(&path).map_err(|err| errors::experiment(&err.to_string()))?;
    if !allow_external && !experiment.externals.is_empty() {
        let commands: Vec<String> = experiment
            .externals
            .iter()
            .map(|(name, command)| format!("{name} = {command:?}"))
            .collect();
        return Err(errors::option(&format!(
            "allow_external: {}: the file runs outside programs ([[external]]: {}); give \
             allow_external=True to run them; nothing was run",
            path.display(),
            commands.join(", ")
        )));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let mut plan = experiment.plan.clone();
    plan.cancel = Some(Arc::clone(&cancel));
    let sources = experiment.sources.clone();
    let sides = experiment.sides.clone();
    let inputs: Vec<String> = sources.iter().map(Source::name).collect();
    let command = format!("python: sudolab.run({:?})", path.display().to_string());
    let mut context = provenance::context(&plan, &experiment.limits, &inputs, command);
    context.baseline.clone_from(&experiment.baseline);
    context.clock = Some(experiment.clock);
    let collected = detached(py, &cancel, move || {
        let input = Input {
            walk: Walk::new(sources),
            sides,
            whole: Sides::default(),
        };
        collect(
            &plan,
            Puzzles::Walk(Box::new(input)),
            Keep::None,
            context,
            Vec::new(),
            false,
            false,
        )
    })?
    .map_err(|message| errors::input(&message))?;
    Ok((comparison(collected)?, experiment.name))
}

/// Reads puzzle files (or a list of puzzles) into a table: source, line, puzzle, known
/// solution and count, side, clues.
#[pyfunction]
#[pyo3(signature = (paths, format="auto", r#box=None))]
fn read(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    format: &str,
    r#box: Option<&str>,
) -> PyResult<PyTable> {
    let format: Format = format
        .parse()
        .map_err(|err| errors::option(&format!("format: {err}")))?;
    let shape = shape(r#box)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let sources: Vec<Source> = paths
        .into_iter()
        .map(|path| Source {
            path,
            format,
            shape,
            variant: None,
        })
        .collect();
    let read = detached(py, &cancel, move || {
        let mut records = Vec::new();
        let walk = Walk::new(sources.clone());
        for met in walk {
            match met {
                Met::Puzzle { source, record } => records.push((sources[source].name(), record)),
                Met::Problem {
                    message,
                    in_place_of_puzzle,
                    ..
                } => return Err((message, in_place_of_puzzle)),
            }
        }
        Ok(records)
    })?;
    let records = read.map_err(|(message, malformed)| {
        if malformed {
            errors::parse(&message)
        } else {
            errors::input(&message)
        }
    })?;
    let records: Vec<(String, u64, Item)> = records
        .into_iter()
        .map(|(name, record)| {
            let item = Item {
                ordinal: 0,
                source: String::new(),
                puzzle: record.puzzle,
                solution: record.solution,
                count: record.count,
            };
            (name, record.line as u64, item)
        })
        .collect();
    puzzles_table(&records)
}

/// Puzzles given in line form (`puzzle[:count][:solution]`, as a file's lines) read into the
/// table `read` gives: source `puzzles`, line `i + 1` for `lines[i]`.
#[pyfunction]
#[pyo3(signature = (lines, r#box=None))]
fn read_lines(lines: &Bound<'_, PyAny>, r#box: Option<&str>) -> PyResult<PyTable> {
    let items = puzzles::items(lines, shape(r#box)?)?;
    let records: Vec<(String, u64, Item)> = items
        .into_iter()
        .enumerate()
        .map(|(index, item)| (puzzles::NAME.to_string(), index as u64 + 1, item))
        .collect();
    puzzles_table(&records)
}

/// The table of puzzles: source, line, puzzle, solution, count, side, clues.
fn puzzles_table(records: &[(String, u64, Item)]) -> PyResult<PyTable> {
    let lines: Vec<String> = records
        .iter()
        .map(|(_, _, r)| to_one_line(&r.puzzle))
        .collect();
    let solutions: Vec<Option<String>> = records
        .iter()
        .map(|(_, _, r)| r.solution.as_ref().map(to_one_line))
        .collect();
    let mut columns = Columns::default();
    columns
        .strings(
            "source",
            records.iter().map(|(name, _, _)| Some(name.as_str())),
        )
        .u64s("line", records.iter().map(|(_, line, _)| Some(*line)))
        .strings("puzzle", lines.iter().map(|l| Some(l.as_str())))
        .strings("solution", solutions.iter().map(Option::as_deref))
        .u64s("count", records.iter().map(|(_, _, r)| r.count))
        .u32s(
            "side",
            records.iter().map(|(_, _, r)| Some(r.puzzle.side() as u32)),
        )
        .u32s(
            "clues",
            records
                .iter()
                .map(|(_, _, r)| Some(r.puzzle.clue_count() as u32)),
        );
    columns.finish()
}

/// The registry: name, summary, counters, whether it can be traced.
#[pyfunction]
fn strategies() -> PyResult<PyTable> {
    let registry = strategy::registry();
    let counters: Vec<String> = registry
        .iter()
        .map(|s| {
            s.counters()
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let mut columns = Columns::default();
    columns
        .strings("name", registry.iter().map(|s| Some(s.name())))
        .strings("summary", registry.iter().map(|s| Some(s.summary())))
        .strings("counters", counters.iter().map(|c| Some(c.as_str())))
        .bools("traceable", registry.iter().map(|s| s.traceable()));
    columns.finish()
}

/// The registered strategies' names, in registry order.
#[pyfunction]
fn strategy_names() -> Vec<&'static str> {
    strategy::names()
}

/// Two JSON reports of the same inputs compared (`sudolab diff`): the diff as JSON text.
#[pyfunction]
#[pyo3(signature = (before, after, seed=1))]
fn diff(before: &str, after: &str, seed: u64) -> PyResult<String> {
    let read = |path: &str| -> PyResult<sudolab::report::Report> {
        let text = std::fs::read_to_string(path)
            .map_err(|err| errors::input(&format!("{path}: cannot read: {err}")))?;
        sudolab::report::json::read(&text).map_err(|err| errors::parse(&format!("{path}: {err}")))
    };
    let (before, after) = (read(before)?, read(after)?);
    let found = sudolab::report::diff::diff(&before, &after, seed)
        .map_err(|err| errors::option(&err.to_string()))?;
    Ok(sudolab::report::diff::json(&found))
}

/// Re-proves each puzzle unique with several engines (`sudolab verify`).
#[pyfunction]
#[pyo3(signature = (puzzles, strategies, timeout=None, jobs=None, r#box=None, shard=None, variant=None, certify=None, external=Vec::new(), external_memory=None, external_cpu=None))]
#[allow(clippy::too_many_arguments)]
fn verify(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    strategies: Vec<String>,
    timeout: Option<&Bound<'_, PyAny>>,
    jobs: Option<i64>,
    r#box: Option<&str>,
    shard: Option<&str>,
    variant: Option<&str>,
    certify: Option<PathBuf>,
    external: Vec<outside::ExternalSpec>,
    external_memory: Option<&str>,
    external_cpu: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTable> {
    let variant = puzzles::variant(variant)?;
    if let Some(dir) = &certify {
        std::fs::create_dir_all(dir).map_err(|err| {
            errors::input(&format!("certify: cannot create {}: {err}", dir.display()))
        })?;
    }
    let selection = match shard {
        None => Selection::All,
        Some(text) => Selection::Shard(
            text.parse::<Shard>()
                .map_err(|err| errors::option(&format!("shard: {err}")))?,
        ),
    };
    if strategies.is_empty() {
        return Err(errors::option("strategies: give at least one strategy"));
    }
    let outside = outside::solvers(external, process_limits(external_memory, external_cpu)?)?;
    let verifiers = sudolab::check::verifiers_among(&strategies, &outside)
        .map_err(|err| errors::option(&err.to_string()))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let mut limits = Limits::solutions(2).with_cancel(Arc::clone(&cancel));
    if let Some(timeout) = duration("timeout", timeout)? {
        limits = limits.with_timeout(timeout);
    }
    let jobs = self::jobs(jobs)?;
    let shape = shape(r#box)?;
    let raw = puzzles::take(puzzles)?;
    let certifies = certify.is_some();
    let outcome = detached(py, &cancel, move || {
        let mut items = puzzles::parse(raw, shape).map_err(Err)?;
        puzzles::apply_variant(&mut items, variant.as_ref()).map_err(Err)?;
        items.retain(|item| selection.takes(item.ordinal));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|err| Ok(format!("cannot start {jobs} worker threads: {err}")))?;
        let results: Vec<_> = pool.install(|| {
            items
                .par_iter()
                .map_init(Scratch::default, |scratch, item| {
                    let mut done = experiment::verify(item.clone(), &verifiers, &limits, scratch);
                    let mut certificate = None;
                    if let (Some(dir), true) = (&certify, done.verified()) {
                        match certify_verified(dir, item) {
                            Ok(path) => certificate = Some(path),
                            Err(problem) => done.problems.push(problem),
                        }
                    }
                    (done, certificate)
                })
                .collect::<Vec<_>>()
        });
        Ok((items, results))
    })?;
    let (items, results) = match outcome {
        Ok(done) => done,
        Err(Err(parse)) => return Err(errors::parse(&parse)),
        Err(Ok(internal)) => return Err(errors::internal(&internal)),
    };
    let by: Vec<String> = results.iter().map(|(done, _)| done.by.join(",")).collect();
    let problems: Vec<Option<String>> = results
        .iter()
        .map(|(done, _)| (!done.verified()).then(|| done.problems.join("; ")))
        .collect();
    let certificates: Vec<Option<String>> = results
        .iter()
        .map(|(_, path)| path.as_ref().map(|path| path.display().to_string()))
        .collect();
    let lines: Vec<String> = items.iter().map(|i| to_one_line(&i.puzzle)).collect();
    let mut columns = Columns::default();
    columns
        .u64s("puzzle", items.iter().map(|i| Some(i.ordinal)))
        .strings("source", items.iter().map(|i| Some(i.source.as_str())))
        .strings("grid", lines.iter().map(|l| Some(l.as_str())))
        .bools("verified", problems.iter().map(Option::is_none))
        .strings("strategies", by.iter().map(|b| Some(b.as_str())))
        .strings("problems", problems.iter().map(Option::as_deref));
    if certifies {
        columns.strings("certificate", certificates.iter().map(Option::as_deref));
    }
    columns.finish()
}

/// A certificate of a verified puzzle written into `dir` (as `sudolab verify --certify`):
/// made, checked by the independent checker, and proving uniqueness, or the problem. Its name
/// is the source file's stem and the puzzle's position, `puzzles-00003.cert`.
fn certify_verified(dir: &std::path::Path, item: &Item) -> Result<PathBuf, String> {
    use sudolab::certify;
    let certificate = certify::certify(&item.puzzle, &item.source, &certify::Options::default())
        .map_err(|err| format!("no certificate: {err}"))?;
    if let Err(failure) = sudolab::certcheck::check_text(&certificate.text) {
        return Err(format!(
            "the certificate does not check ({}: {})",
            failure.step, failure.reason
        ));
    }
    if certificate.verdict != Verdict::Unique {
        return Err(format!(
            "the certificate proves {:?}, not uniqueness",
            certificate.verdict
        ));
    }
    let file = item
        .source
        .rsplit_once(':')
        .map_or(item.source.as_str(), |(file, _)| file);
    let stem = std::path::Path::new(file).file_stem().map_or_else(
        || puzzles::NAME.to_string(),
        |s| s.to_string_lossy().replace(' ', "-"),
    );
    let path = dir.join(format!("{stem}-{:05}.cert", item.ordinal + 1));
    std::fs::write(&path, &certificate.text)
        .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    Ok(path)
}

/// Seeded puzzles whose uniqueness a checker proves (`sudolab generate`): puzzles `start ..
/// start + count` of the seed's stream, through the library's generation request (the command
/// line's options, checks and messages).
#[pyfunction]
#[pyo3(name = "generate", signature = (count, seed, r#box=None, clues=None, minimal=false, symmetry="none", checker="auto", check_timeout=None, start=0, jobs=None, size=9, verify=None, rating="any", technique=None, propagation=None, te_depth=None, variant=None, rules=None, model="sudoku", holes=None, balance="none", external=Vec::new(), external_memory=None, external_cpu=None, unbiased=false, attempts_per_grid=1))]
#[allow(clippy::too_many_arguments)]
fn py_generate(
    py: Python<'_>,
    count: u64,
    seed: u64,
    r#box: Option<&str>,
    clues: Option<usize>,
    minimal: bool,
    symmetry: &str,
    checker: &str,
    check_timeout: Option<&Bound<'_, PyAny>>,
    start: u64,
    jobs: Option<i64>,
    size: usize,
    verify: Option<Vec<String>>,
    rating: &str,
    technique: Option<&str>,
    propagation: Option<&str>,
    te_depth: Option<i64>,
    variant: Option<&str>,
    rules: Option<PathBuf>,
    model: &str,
    holes: Option<usize>,
    balance: &str,
    external: Vec<outside::ExternalSpec>,
    external_memory: Option<&str>,
    external_cpu: Option<&Bound<'_, PyAny>>,
    unbiased: bool,
    attempts_per_grid: u64,
) -> PyResult<PyTable> {
    fn option(name: &'static str) -> impl Fn(String) -> PyErr {
        move |err| errors::option(&format!("{name}: {err}"))
    }
    let te_depth = te_depth
        .map(|depth| {
            u32::try_from(depth)
                .ok()
                .filter(|&depth| depth <= sudolab::human::MAX_TE_DEPTH)
                .ok_or_else(|| {
                    errors::option(&format!(
                        "te_depth: expected 0 to {}, found {depth}",
                        sudolab::human::MAX_TE_DEPTH
                    ))
                })
        })
        .transpose()?;
    if unbiased {
        // The command line refuses these beside --unbiased; `minimal` and `start` are seen
        // only here (the request always carries `minimal`, and `start` is Python's).
        if minimal {
            return Err(errors::option(
                &request::unbiased_conflict("--minimal").to_string(),
            ));
        }
        if start != 0 {
            return Err(errors::option(
                "start: --unbiased counts the minimal puzzles its attempts keep, so a run cannot \
                 start inside the stream; generate from start=0 and drop the first ones",
            ));
        }
    }
    let outside = outside::solvers(external, process_limits(external_memory, external_cpu)?)?;
    let request = Request {
        size,
        box_shape: self::shape(r#box)?,
        seed,
        clues,
        // As the command line: without a clue target, clues go until none can.
        minimal: minimal || clues.is_none(),
        symmetry: symmetry
            .parse::<Symmetry>()
            .map_err(|err| errors::option(&format!("symmetry: {err}")))?,
        checker: checker.to_string(),
        check_timeout: duration("check_timeout", check_timeout)?,
        verify: verify.unwrap_or_default(),
        outside: request::Outside(outside),
        rating: rating.parse().map_err(option("rating"))?,
        human_filter: HumanFilter {
            technique: technique
                .map(request::parse_technique)
                .transpose()
                .map_err(option("technique"))?,
            propagation: propagation
                .map(request::parse_propagation)
                .transpose()
                .map_err(option("propagation"))?,
            te_depth,
        },
        variant: variant
            .map(str::parse::<Features>)
            .transpose()
            .map_err(option("variant"))?,
        rules,
        model: model
            .parse::<request::Model>()
            .map_err(|err| errors::option(&format!("model: {err}")))?,
        holes,
        balance: balance
            .parse::<generate::Balance>()
            .map_err(|err| errors::option(&format!("balance: {err}")))?,
        // The table carries each puzzle's rules (`puzzle_json`).
        carries_rules: true,
        want_rating: false,
        unbiased,
        attempts_per_grid,
    };
    let prepared = request
        .prepare()
        .map_err(|err| errors::option(&err.to_string()))?;
    let jobs = self::jobs(jobs)?;
    match prepared {
        Prepared::Unique(run) => generate_unique(py, &run, start, count, jobs),
        Prepared::Holes(holes) => generate_holes(&holes, start, count),
        Prepared::Unbiased(run) => generate_unbiased(py, &run, count, jobs),
    }
}

/// `generate`'s table for `unbiased=True`: the minimal puzzles kept, in attempt order, with
/// the attempt's index (in the seed's stream of attempts), clues and uniqueness checks, as the
/// command line's JSON document has them.
fn generate_unbiased(
    py: Python<'_>,
    run: &request::Unbiased,
    count: u64,
    jobs: usize,
) -> PyResult<PyTable> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let kept = detached(py, &cancel, move || {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|err| format!("cannot start {jobs} worker threads: {err}"))?;
        let mut attempts = run.attempts(count);
        let mut kept = Vec::new();
        // Chunk by chunk, so that Ctrl-C is honoured between them.
        while attempts.left() > 0 && !flag.load(Ordering::SeqCst) {
            kept.extend(attempts.next_chunk(&pool));
        }
        Ok::<_, String>(kept)
    })?
    .map_err(|message| errors::internal(&message))?;
    let puzzles: Vec<String> = kept.iter().map(|a| to_one_line(&a.puzzle)).collect();
    let solutions: Vec<String> = kept.iter().map(|a| to_one_line(&a.solution)).collect();
    let checker = run.checker().name();
    let mut columns = Columns::default();
    columns
        .u64s("index", kept.iter().map(|a| Some(a.index)))
        .strings("puzzle", puzzles.iter().map(|p| Some(p.as_str())))
        .strings("solution", solutions.iter().map(|s| Some(s.as_str())))
        .u32s("clues", kept.iter().map(|a| Some(a.clues as u32)))
        .u64s("checks", kept.iter().map(|a| Some(a.checks)))
        .strings("checker", kept.iter().map(|_| Some(checker)));
    columns.finish()
}

/// `generate`'s table of unique puzzles: the generator's figures, then what the options add
/// (the human rating for a rating range, whether fast needs a guess for `guess`/`no-guess`,
/// the verification's problems, each puzzle's JSON form with its rules for a variant).
fn generate_unique(
    py: Python<'_>,
    run: &Unique,
    start: u64,
    count: u64,
    jobs: usize,
) -> PyResult<PyTable> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let candidates = detached(py, &cancel, move || {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|err| format!("cannot start {jobs} worker threads: {err}"))?;
        let mut candidates = Vec::new();
        let mut batches = run.batches(start, count);
        // Batch by batch, so that Ctrl-C is honoured between them.
        while !flag.load(Ordering::SeqCst) {
            let batch = batches.next_batch(&pool).map_err(|err| err.to_string())?;
            if batch.is_empty() {
                break;
            }
            candidates.extend(batch);
        }
        Ok::<_, String>(candidates)
    })?
    .map_err(|message| errors::option(&message))?;
    let generated: Vec<&generate::Generated> = candidates.iter().map(|c| &c.generated).collect();
    let puzzles: Vec<String> = generated.iter().map(|g| to_one_line(&g.puzzle)).collect();
    let solutions: Vec<String> = generated.iter().map(|g| to_one_line(&g.solution)).collect();
    let checker = run.checker().name();
    let mut columns = Columns::default();
    columns
        .u64s("index", generated.iter().map(|g| Some(g.index)))
        .strings("puzzle", puzzles.iter().map(|p| Some(p.as_str())))
        .strings("solution", solutions.iter().map(|s| Some(s.as_str())))
        .u32s("clues", generated.iter().map(|g| Some(g.clues as u32)))
        .bools("target_met", generated.iter().map(|g| g.target_met))
        .u64s("checks", generated.iter().map(|g| Some(g.checks)))
        .u64s("undecided", generated.iter().map(|g| Some(g.undecided)))
        .strings("checker", generated.iter().map(|_| Some(checker)));
    if candidates.iter().any(|c| c.human.is_some()) {
        columns.f64s(
            "human_rating",
            candidates.iter().map(|c| match c.human {
                Some(HumanRated::Rated(tenths)) => Some(f64::from(tenths) / 10.0),
                _ => None,
            }),
        );
    }
    if candidates.iter().any(|c| c.rating.is_some()) {
        columns.bools(
            "no_guess",
            candidates
                .iter()
                .map(|c| c.rating.is_some_and(|rating| rating.no_guess)),
        );
    }
    if !run.verifiers().is_empty() {
        let problems: Vec<Option<String>> = candidates
            .iter()
            .map(|c| (!c.problems.is_empty()).then(|| c.problems.join("; ")))
            .collect();
        columns.strings("problems", problems.iter().map(Option::as_deref));
    }
    if run.variant().is_some() {
        let forms: Vec<String> = generated
            .iter()
            .map(|g| sudolab::corpus::grid_to_json(&g.puzzle).to_string())
            .collect();
        columns.strings("puzzle_json", forms.iter().map(|f| Some(f.as_str())));
    }
    columns.finish()
}

/// `generate`'s table for `model="qwh"` or `"gsp"`: each instance and the solution it was
/// made from.
fn generate_holes(holes: &request::Holes, start: u64, count: u64) -> PyResult<PyTable> {
    let instances: Vec<request::Instance> = (start..start.saturating_add(count))
        .map(|index| holes.instance(index))
        .collect();
    let puzzles: Vec<String> = instances.iter().map(|i| to_one_line(&i.puzzle)).collect();
    let solutions: Vec<String> = instances.iter().map(|i| to_one_line(&i.solution)).collect();
    let mut columns = Columns::default();
    columns
        .u64s("index", instances.iter().map(|i| Some(i.index)))
        .strings("puzzle", puzzles.iter().map(|p| Some(p.as_str())))
        .strings("solution", solutions.iter().map(|s| Some(s.as_str())))
        .u32s(
            "holes",
            instances.iter().map(|_| Some(holes.holes() as u32)),
        );
    columns.finish()
}

/// Traces strategies on one puzzle (`sudolab trace`): the step-through page, the events as a
/// table, and each trace's text summary.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(name = "trace", signature = (puzzle, strategies, limit=2, max_events=100_000, r#box=None, human=false, variant=None))]
fn py_trace(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    strategies: Vec<String>,
    limit: u64,
    max_events: usize,
    r#box: Option<&str>,
    human: bool,
    variant: Option<&str>,
) -> PyResult<(String, PyTable, Vec<String>)> {
    // The command line's bound: the events of every strategy together fit in about 1 GB.
    const MAX_EVENTS: usize = 1_500_000;
    let engines = strategies_named(&strategies)?;
    if max_events == 0 || max_events.saturating_mul(engines.len()) > MAX_EVENTS {
        return Err(errors::option(&format!(
            "max_events: expected 1 to {} events per strategy for {} strategies (at most \
             {MAX_EVENTS} in all), found {max_events}",
            MAX_EVENTS / engines.len(),
            engines.len()
        )));
    }
    let variant = puzzles::variant(variant)?;
    let mut items = puzzles::items(puzzle, shape(r#box)?)?;
    puzzles::apply_variant(&mut items, variant.as_ref()).map_err(|err| errors::parse(&err))?;
    let [item] = items.as_slice() else {
        return Err(errors::option(&format!(
            "puzzle: trace takes one puzzle, found {}",
            items.len()
        )));
    };
    let grid = item.puzzle.clone();
    let cancel = Arc::new(AtomicBool::new(false));
    let traces = detached(py, &cancel, move || {
        let path = human
            .then(|| sudolab::human::solve_path(&grid))
            .transpose()
            .map_err(|not_proper| format!("human: {not_proper}"))?;
        let traces = engines
            .iter()
            .map(|engine| trace::record(*engine, &grid, limit, &Limits::default(), max_events))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|err| err.to_string())?;
        Ok::<_, String>((traces, path))
    })?
    .map_err(|message| errors::option(&message))?;
    let (traces, path) = traces;
    let html = trace::html::render_with_path(&traces, path.as_ref());
    let summaries = traces.iter().map(trace::summary).collect();
    Ok((html, events_table(&traces)?, summaries))
}

/// Every event of the traces, one row each.
fn events_table(traces: &[trace::Trace]) -> PyResult<PyTable> {
    use sudolab::strategy::Event;
    let mut strategy = Vec::new();
    let mut step = Vec::new();
    let mut depth = Vec::new();
    let mut nodes = Vec::new();
    let mut event = Vec::new();
    let mut cell = Vec::new();
    let mut value = Vec::new();
    let mut item_name: Vec<Option<String>> = Vec::new();
    let mut size = Vec::new();
    let mut text = Vec::new();
    for traced in traces {
        let shape = Shape::new(traced.box_shape.0, traced.box_shape.1)
            .map_err(|err| errors::internal(&err.to_string()))?;
        for (index, recorded) in traced.events.iter().enumerate() {
            strategy.push(traced.strategy.as_str());
            step.push(Some(index as u64));
            depth.push(Some(recorded.depth as u64));
            nodes.push(Some(recorded.nodes));
            let (name, at, val, item, count) = match &recorded.event {
                Event::Choose { cell, candidates } => {
                    ("choose", Some(*cell), None, None, Some(*candidates))
                }
                Event::ChooseItem { item, options } => (
                    "choose_item",
                    None,
                    None,
                    Some(item.clone()),
                    Some(*options),
                ),
                Event::Cover { item } => ("cover", None, None, Some(item.clone()), None),
                Event::Uncover { item } => ("uncover", None, None, Some(item.clone()), None),
                Event::Try { cell, value } => ("try", Some(*cell), Some(*value), None, None),
                Event::Undo { cell, value } => ("undo", Some(*cell), Some(*value), None, None),
                Event::DeadEnd => ("dead_end", None, None, None, None),
                Event::Solution => ("solution", None, None, None, None),
            };
            event.push(name);
            cell.push(at.map(|c| c as u32));
            value.push(val.map(u32::from));
            item_name.push(item);
            size.push(count.map(|c| c as u64));
            text.push(trace::describe(shape, &recorded.event));
        }
    }
    let mut columns = Columns::default();
    columns
        .strings("strategy", strategy.iter().map(|s| Some(*s)))
        .u64s("step", step)
        .u64s("depth", depth)
        .u64s("nodes", nodes)
        .strings("event", event.iter().map(|e| Some(*e)))
        .u32s("cell", cell)
        .u32s("value", value)
        .strings("item", item_name.iter().map(Option::as_deref))
        .u64s("candidates", size)
        .strings("text", text.iter().map(|t| Some(t.as_str())));
    columns.finish()
}

/// The same work as `count(puzzles, strategy, jobs=jobs)` from the moment the strings are in
/// Rust: parse, run through the pipeline, build the table; the seconds it took, with no
/// Python in the loop (for docs/benchmarks.md).
#[pyfunction]
#[pyo3(signature = (puzzles, strategy="fast", jobs=None))]
fn rust_baseline(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    strategy: &str,
    jobs: Option<i64>,
) -> PyResult<f64> {
    let strategies = strategies_named(&[strategy.to_string()])?;
    let cancel = Arc::new(AtomicBool::new(false));
    let plan = Plan {
        jobs: self::jobs(jobs)?,
        cancel: Some(Arc::clone(&cancel)),
        ..Plan::new(&strategies, &Limits::solutions(2))
    };
    let raw = puzzles::take(puzzles)?;
    let seconds = detached(py, &cancel, move || {
        let started = Instant::now();
        let items = puzzles::parse(raw, None)?;
        let collected = collect(
            &plan,
            Puzzles::Items(Box::new(items.into_iter())),
            Keep::None,
            Context::default(),
            Vec::new(),
            false,
            false,
        )?;
        let table = collected.rows.table().map_err(|err| err.to_string())?;
        let seconds = started.elapsed().as_secs_f64();
        drop(table);
        Ok::<f64, String>(seconds)
    })?
    .map_err(|message| errors::internal(&message))?;
    Ok(seconds)
}

/// One column of a table made here, as a list of Python values.
#[pyfunction]
fn column<'py>(
    py: Python<'py>,
    table: &Bound<'py, PyTable>,
    name: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    tables::column_values(py, table.get(), name)
}

/// The columns of a table made here with their Arrow types (`("time_ns", "UInt64")`), for
/// `Table.schema` without an Arrow library.
#[pyfunction]
fn schema(table: &Bound<'_, PyTable>) -> Vec<(String, String)> {
    // Every table made here is one record batch.
    table
        .get()
        .batches()
        .first()
        .map_or_else(Vec::new, |batch| {
            batch
                .schema()
                .fields()
                .iter()
                .map(|field| (field.name().clone(), field.data_type().to_string()))
                .collect()
        })
}

/// Panics on the worker thread: the test that a panic becomes `sudolab.Error` and never
/// crosses into Python as an abort.
#[pyfunction]
fn panic_on_worker(py: Python<'_>) -> PyResult<()> {
    let cancel = Arc::new(AtomicBool::new(false));
    detached(py, &cancel, || -> () {
        panic!("a panic asked for by a test")
    })
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add(
        "DEFAULT_VERIFIERS",
        sudolab::check::DEFAULT_VERIFIERS.to_vec(),
    )?;
    module.add_function(wrap_pyfunction!(py_experiment, module)?)?;
    module.add_function(wrap_pyfunction!(run, module)?)?;
    module.add_function(wrap_pyfunction!(read, module)?)?;
    module.add_function(wrap_pyfunction!(read_lines, module)?)?;
    module.add_function(wrap_pyfunction!(strategies, module)?)?;
    module.add_function(wrap_pyfunction!(strategy_names, module)?)?;
    module.add_function(wrap_pyfunction!(verify, module)?)?;
    module.add_function(wrap_pyfunction!(diff, module)?)?;
    module.add_function(wrap_pyfunction!(py_generate, module)?)?;
    module.add_function(wrap_pyfunction!(py_trace, module)?)?;
    module.add_function(wrap_pyfunction!(column, module)?)?;
    module.add_function(wrap_pyfunction!(schema, module)?)?;
    module.add_function(wrap_pyfunction!(rust_baseline, module)?)?;
    module.add_function(wrap_pyfunction!(panic_on_worker, module)?)?;
    Ok(())
}
