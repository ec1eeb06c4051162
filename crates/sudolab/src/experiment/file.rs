//! Experiment files: a whole comparison written down in TOML (corpora, selection, strategies
//! with their own limits, repeats, order, jobs, outputs), so that it can be re-run, reviewed
//! and shared. The schema is documented in `docs/experiments/README.md`.
//!
//! Unknown keys, misspelt values and unknown strategies are errors that name the file, the
//! line and the column, found while the file is read, before any search.

use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::corpus::{Format, Source};
use crate::model::Shape;
use crate::report::Format as ReportFormat;
use crate::strategy::{self, Dimacs, External, ExternalError, Limits, Strategy};

use super::side::{SideError, SideFile, SideKind};
use super::{Entry, Order, Plan, Repeats, Selection, Shard, Sides, parse_duration};
use crate::report::Clock;

/// An experiment, read and checked: what to read, what to run, where to write.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// Its name (the file's stem unless it names itself).
    pub name: String,
    /// What it is for, in words.
    pub description: Option<String>,
    /// The corpora, in order, paths resolved against the file's directory.
    pub sources: Vec<Source>,
    /// The side files of each corpus.
    pub sides: Vec<Sides>,
    /// What runs.
    pub plan: Plan,
    /// The run's default limits (what reports show as the limit and budget).
    pub limits: Limits,
    /// The strategy the time ratios are relative to.
    pub baseline: Option<String>,
    /// The clock of the summaries' times and ratios (`[run] clock`; the CPU clock unless set).
    pub clock: Clock,
    /// The results directory: `[output] dir` resolved against the file's directory, or
    /// `results/NAME` under the working directory.
    pub output_dir: PathBuf,
    /// `[output] dir` as the file writes it, if it does.
    pub output_written: Option<PathBuf>,
    /// The directory of the file (what its relative paths are relative to).
    pub base_dir: PathBuf,
    /// The report forms written there.
    pub forms: Vec<ReportFormat>,
    /// The outside solvers' names and commands (`[[external]]`), also in the plan: a front
    /// end shows them and asks its user's leave before it runs programs a file names.
    pub externals: Vec<(String, Vec<String>)>,
}

/// An experiment file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// The file cannot be read.
    #[error("{file}: cannot read: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not valid TOML, an unknown key, or a bad value: located.
    #[error("{file}: line {line}, column {column}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// One-based line.
        line: usize,
        /// One-based column.
        column: usize,
        /// What is wrong (the key is named).
        message: String,
    },
    /// A rule between keys (no corpus, a baseline not among the strategies...).
    #[error("{file}: {message}")]
    Rule {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A side file that cannot be read.
    #[error(transparent)]
    Side(#[from] SideError),
}

// The file's shape. Every table denies unknown keys, so a misspelt key is an error with its line.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    name: Option<String>,
    description: Option<String>,
    #[serde(default)]
    corpus: Vec<CorpusSpec>,
    #[serde(default)]
    select: SelectSpec,
    #[serde(default)]
    run: RunSpec,
    #[serde(default)]
    strategies: Vec<StrategyName>,
    #[serde(default)]
    strategy: Vec<StrategySpec>,
    #[serde(default)]
    external: Vec<ExternalSpec>,
    #[serde(default)]
    output: OutputSpec,
}

/// An outside solver: `[[external]] name = "mine", command = ["./mine", "--fast"]`, with
/// `protocol = "dimacs"` (and an `encoding`) for a SAT solver given the CNF's path as its last
/// argument; `memory = "512M"` and `cpu = "10s"` limit its processes
/// ([`strategy::ProcessLimits`]).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExternalSpec {
    name: Spanned<String>,
    command: Spanned<Vec<String>>,
    protocol: Option<Spanned<String>>,
    encoding: Option<Spanned<String>>,
    memory: Option<Spanned<String>>,
    cpu: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CorpusSpec {
    path: Spanned<PathBuf>,
    #[serde(default)]
    format: FormatName,
    #[serde(rename = "box")]
    box_shape: Option<ShapeName>,
    counts: Option<PathBuf>,
    solutions: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SelectSpec {
    sample: Option<u64>,
    seed: Option<u64>,
    shard: Option<ShardName>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RunSpec {
    limit: Option<u64>,
    timeout: Option<DurationText>,
    max_nodes: Option<u64>,
    budget: Option<u64>,
    repeat: Option<Spanned<u64>>,
    warmup: Option<Spanned<u64>>,
    order: Option<Order>,
    jobs: Option<Spanned<u64>>,
    baseline: Option<StrategyName>,
    clock: Option<Clock>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StrategySpec {
    name: StrategyName,
    limit: Option<u64>,
    timeout: Option<DurationText>,
    max_nodes: Option<u64>,
    budget: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutputSpec {
    dir: Option<PathBuf>,
    #[serde(default)]
    forms: Vec<FormName>,
}

/// A registered strategy's name, checked as the file is read.
#[derive(Clone, Copy, Deserialize)]
#[serde(try_from = "String")]
struct StrategyName(&'static dyn Strategy);

impl TryFrom<String> for StrategyName {
    type Error = String;
    fn try_from(name: String) -> Result<StrategyName, String> {
        strategy::find(&name)
            .map(StrategyName)
            .map_err(|err| err.to_string())
    }
}

impl fmt::Debug for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

/// A duration such as `500ms`, `10s`, `2m`; `0` or `none` for no limit.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
struct DurationText(Duration);

impl TryFrom<String> for DurationText {
    type Error = String;
    fn try_from(text: String) -> Result<DurationText, String> {
        parse_duration(&text).map(DurationText)
    }
}

/// A value read from a TOML string through its `FromStr`, so that a bad value is a located
/// error of the TOML reader (line and column of the value).
macro_rules! parsed_from_string {
    ($(#[$derive:meta])* $name:ident($inner:ty)) => {
        $(#[$derive])*
        #[derive(Clone, Copy, Debug, Deserialize)]
        #[serde(try_from = "String")]
        struct $name($inner);

        impl TryFrom<String> for $name {
            type Error = String;
            fn try_from(text: String) -> Result<$name, String> {
                text.parse().map($name).map_err(|err| format!("{err}"))
            }
        }
    };
}

parsed_from_string!(
    #[derive(Default)]
    FormatName(Format)
);
parsed_from_string!(ShapeName(Shape));
parsed_from_string!(ShardName(Shard));

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
struct FormName(ReportFormat);

impl TryFrom<String> for FormName {
    type Error = String;
    fn try_from(text: String) -> Result<FormName, String> {
        ReportFormat::from_extension(text.trim_start_matches('.'))
            .map(FormName)
            .ok_or_else(|| {
                format!(
                    "unknown report form '{text}'; use txt, md, csv, json, jsonl, html or parquet"
                )
            })
    }
}

impl Experiment {
    /// Reads and checks the experiment file at `path`.
    pub fn load(path: &Path) -> Result<Experiment, ExperimentError> {
        let text = std::fs::read_to_string(path).map_err(|source| ExperimentError::Read {
            file: path.display().to_string(),
            source,
        })?;
        Experiment::parse(&text, path)
    }

    /// Checks the text of an experiment file; `path` locates it (corpus paths are relative to
    /// its directory) and names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Experiment, ExperimentError> {
        let file = path.display().to_string();
        let spec = read_spec(text, &file)?;
        let located = |span: std::ops::Range<usize>, message: String| {
            let (line, column) = line_and_column(text, span.start);
            ExperimentError::Invalid {
                file: file.clone(),
                line,
                column,
                message,
            }
        };
        let rule = |message: String| ExperimentError::Rule {
            file: file.clone(),
            message,
        };
        if spec.corpus.is_empty() {
            return Err(rule(
                "no [[corpus]]: name at least one puzzle file (path = \"...\")".to_string(),
            ));
        }
        let base_dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        bounds(&spec.run).map_err(|(span, message)| located(span, message))?;
        let (sources, sides) = corpora(&spec.corpus, &base_dir)?;

        let run = &spec.run;
        let mut limits = Limits::solutions(run.limit.unwrap_or(2))
            .with_timeout(run.timeout.map_or(Duration::from_secs(30), |t| t.0));
        limits.max_nodes = run.max_nodes;
        // The run's budget where one number serves every strategy (each in its unit), so that
        // the report's context records it; per-strategy budgets are each entry's.
        limits.budget = run.budget.filter(|&budget| budget > 0);
        let mut entries = entries(&spec, &limits).map_err(rule)?;
        let externals = externals(&spec.external, &limits, &located, &mut entries)?;
        let names: Vec<&str> = entries.iter().map(|e| e.strategy.name()).collect();
        let baseline = run.baseline.map(|b| b.0.name().to_string());
        if let Some(baseline) = &baseline
            && !names.contains(&baseline.as_str())
        {
            return Err(rule(format!(
                "the baseline '{baseline}' is not among the strategies ({})",
                names.join(", ")
            )));
        }
        let plan = Plan {
            entries,
            // In range: `bounds` checked them.
            repeats: Repeats {
                warmup: run.warmup.as_ref().map_or(0, |w| *w.get_ref() as u32),
                timed: run.repeat.as_ref().map_or(1, |r| *r.get_ref() as u32),
            },
            order: run.order.unwrap_or_default(),
            jobs: run.jobs.as_ref().map_or_else(
                || std::thread::available_parallelism().map_or(1, usize::from),
                |jobs| *jobs.get_ref() as usize,
            ),
            selection: selection(&spec.select).map_err(rule)?,
            cancel: None,
            untimed: false,
        };
        let name = spec.name.clone().unwrap_or_else(|| {
            path.file_stem()
                .map_or_else(|| "experiment".to_string(), |s| s.to_string_lossy().into())
        });
        if let Some(name) = &spec.name {
            check_name(name).map_err(rule)?;
        }
        let forms: Vec<ReportFormat> = if spec.output.forms.is_empty() {
            ReportFormat::ALL.to_vec()
        } else {
            spec.output.forms.iter().map(|form| form.0).collect()
        };
        if let Some(twice) = forms
            .iter()
            .enumerate()
            .find_map(|(at, form)| forms[..at].contains(form).then_some(form))
        {
            return Err(rule(format!(
                "[output] forms lists '{}' twice; each form is written once",
                twice.extension()
            )));
        }
        // Last, once the text is known to be right: the files it names.
        readable(&spec.corpus, &sources, &located)?;
        Ok(Experiment {
            output_dir: spec.output.dir.as_ref().map_or_else(
                || Path::new("results").join(&name),
                |dir| base_dir.join(dir),
            ),
            output_written: spec.output.dir.clone(),
            base_dir,
            name,
            description: spec.description,
            sources,
            sides,
            plan,
            limits,
            baseline,
            clock: run.clock.unwrap_or_default(),
            forms,
            externals,
        })
    }
}

impl Experiment {
    /// The files the run reads: the corpora (standard input aside) and the side files, for a
    /// front end to keep its outputs off them.
    pub fn inputs(&self) -> Vec<PathBuf> {
        let corpora = self
            .sources
            .iter()
            .filter(|source| !source.is_stdin())
            .map(|source| source.path.clone());
        let sides = self.sides.iter().flat_map(|sides| {
            [&sides.counts, &sides.solutions]
                .into_iter()
                .flatten()
                .map(|side| side.path().to_path_buf())
        });
        corpora.chain(sides).collect()
    }

    /// `[output] dir` as the file writes it, when it leaves the file's directory tree (an
    /// absolute path elsewhere, `..`, or a symlink out). An experiment file is something people
    /// download and run: by itself it writes only under its own directory, and a front end
    /// refuses anything else unless its user asks.
    pub fn output_outside(&self) -> Option<&Path> {
        let written = self.output_written.as_deref()?;
        (!within(&self.base_dir, &self.output_dir)).then_some(written)
    }
}

/// Whether `path` lies in `root`'s tree (or is `root`), symlinks resolved as far as the path
/// exists and the rest read as written.
fn within(root: &Path, path: &Path) -> bool {
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    let Ok(root) = root.canonicalize() else {
        return false;
    };
    let mut resolved = PathBuf::new();
    for component in root.join(path).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                resolved.pop();
            }
            other => {
                resolved.push(other);
                if let Ok(real) = resolved.canonicalize() {
                    resolved = real;
                }
            }
        }
    }
    resolved.starts_with(&root)
}

/// The file's shape read from its text: a located error, with a hint for a common slip.
fn read_spec(text: &str, file: &str) -> Result<FileSpec, ExperimentError> {
    toml::from_str(text).map_err(|err| {
        let (line, column) = err
            .span()
            .map_or((1, 1), |span| line_and_column(text, span.start));
        let mut message = err.message().replace('\n', " ");
        if let Some(hint) = slip(text) {
            message.push_str("; ");
            message.push_str(hint);
        }
        ExperimentError::Invalid {
            file: file.to_string(),
            line,
            column,
            message,
        }
    })
}

/// A hint for the two common slips that serde's words do not explain: `[corpus]` (one table)
/// for `[[corpus]]` (a list of tables), and `strategy = [...]` (names) for `strategies`.
fn slip(text: &str) -> Option<&'static str> {
    let table: toml::Table = text.parse().ok()?;
    if table.get("corpus").is_some_and(toml::Value::is_table) {
        return Some(
            "did you mean [[corpus]]? each corpus is a table of its own, in double brackets",
        );
    }
    let names = |value: &toml::Value| {
        value.is_str()
            || value
                .as_array()
                .is_some_and(|items| items.iter().any(toml::Value::is_str))
    };
    if table.get("strategy").is_some_and(names) {
        return Some(
            "did you mean strategies = [...]? a list of names is `strategies`; [[strategy]] is \
             a table per strategy with its own limits",
        );
    }
    None
}

/// An experiment's `name` names its results directory (`results/NAME`): one path component,
/// so that a downloaded experiment file cannot write outside `results/`.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
        return Err(format!(
            "name '{name}': expected one path component (letters, digits, '-', '_', '.'), as it \
             names the results directory results/NAME"
        ));
    }
    Ok(())
}

/// The strategies of the file (`strategies = [...]` with the run's limits, then each
/// The work budget of `strategy`: the one given (`0`: none), else its calibrated default
/// ([`crate::strategy::Strategy::default_budget`]), as `compare` gives it.
fn budget_of(strategy: &dyn Strategy, given: Option<u64>) -> Option<u64> {
    match given {
        Some(budget) => (budget > 0).then_some(budget),
        None => strategy.default_budget(),
    }
}

/// `[[strategy]]` with its own), or every registered one; none twice.
fn entries(spec: &FileSpec, limits: &Limits) -> Result<Vec<Entry>, String> {
    let mut entries: Vec<Entry> = spec
        .strategies
        .iter()
        .map(|name| Entry {
            strategy: name.0,
            limits: Limits {
                budget: budget_of(name.0, spec.run.budget),
                ..limits.clone()
            },
        })
        .collect();
    for strategy in &spec.strategy {
        let mut own = limits.clone();
        own.budget = budget_of(strategy.name.0, strategy.budget.or(spec.run.budget));
        if let Some(limit) = strategy.limit {
            own = own.with_max_solutions(limit);
        }
        if let Some(timeout) = strategy.timeout {
            own = own.with_timeout(timeout.0);
        }
        if strategy.max_nodes.is_some() {
            own.max_nodes = strategy.max_nodes;
        }
        entries.push(Entry {
            strategy: strategy.name.0,
            limits: own,
        });
    }
    if entries.is_empty() {
        entries = strategy::registry()
            .iter()
            .map(|&strategy| Entry {
                strategy,
                limits: Limits {
                    budget: budget_of(strategy, spec.run.budget),
                    ..limits.clone()
                },
            })
            .collect();
    }
    let mut names: Vec<&str> = entries.iter().map(|e| e.strategy.name()).collect();
    names.sort_unstable();
    if let Some([twice, ..]) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "strategy '{twice}' is listed twice; each strategy runs once"
        ));
    }
    Ok(entries)
}

/// The `[[external]]` outside solvers, each made a strategy with the run's limits and added to
/// `entries`; their names and commands, for a front end to show. A bad name or command is
/// located at its value.
fn externals(
    specs: &[ExternalSpec],
    limits: &Limits,
    located: &dyn Fn(std::ops::Range<usize>, String) -> ExperimentError,
    entries: &mut Vec<Entry>,
) -> Result<Vec<(String, Vec<String>)>, ExperimentError> {
    let mut externals = Vec::new();
    for external in specs {
        let name = external.name.get_ref();
        let command = external.command.get_ref().clone();
        let memory = external
            .memory
            .as_ref()
            .map(|memory| {
                strategy::parse_size(memory.get_ref())
                    .map_err(|err| located(memory.span(), format!("memory: {err}")))
            })
            .transpose()?;
        let cpu = external
            .cpu
            .as_ref()
            .map(|cpu| match parse_duration(cpu.get_ref()) {
                Ok(duration) if !duration.is_zero() => Ok(duration),
                Ok(_) => Err(located(
                    cpu.span(),
                    "cpu: a CPU time limit of zero leaves nothing to run; give at least 1s"
                        .to_string(),
                )),
                Err(err) => Err(located(cpu.span(), format!("cpu: {err}"))),
            })
            .transpose()?;
        let process_limits = strategy::ProcessLimits { memory, cpu };
        let solver = outside_solver(external, name, &command, process_limits).map_err(|err| {
            let span = match err {
                ExternalError::EmptyCommand(_) => external.command.span(),
                ExternalError::BadProtocol { .. } => {
                    external.protocol.as_ref().map_or(0..0, Spanned::span)
                }
                ExternalError::BadEncoding { .. } | ExternalError::EncodingWithoutDimacs(_) => {
                    external.encoding.as_ref().map_or(0..0, Spanned::span)
                }
                _ => external.name.span(),
            };
            located(span, err.to_string())
        })?;
        if entries
            .iter()
            .any(|entry| entry.strategy.name() == name.as_str())
        {
            return Err(located(
                external.name.span(),
                format!("strategy '{name}' is listed twice; each strategy runs once"),
            ));
        }
        externals.push((name.clone(), command));
        entries.push(Entry {
            strategy: solver,
            limits: limits.clone(),
        });
    }
    Ok(externals)
}

/// One `[[external]]` solver as a strategy: the line protocol by default, a DIMACS SAT solver
/// with `protocol = "dimacs"` (the reduced encoding unless `encoding` names another).
fn outside_solver(
    external: &ExternalSpec,
    name: &str,
    command: &[String],
    limits: strategy::ProcessLimits,
) -> Result<&'static dyn Strategy, ExternalError> {
    let protocol = external
        .protocol
        .as_ref()
        .map_or("line", |protocol| protocol.get_ref().as_str());
    let encoding = external.encoding.as_ref().map(|e| e.get_ref().as_str());
    match protocol {
        "line" if encoding.is_none() => Ok(External::new(name, command.to_vec())?
            .with_process_limits(limits)
            .leak()),
        "line" => Err(ExternalError::EncodingWithoutDimacs(name.to_string())),
        "dimacs" => {
            let encoding = match encoding {
                None => crate::encode::Encoding::Reduced,
                Some(word) => word.parse().map_err(|_| ExternalError::BadEncoding {
                    name: name.to_string(),
                    found: word.to_string(),
                })?,
            };
            Ok(Dimacs::new(name, command.to_vec(), encoding)?
                .with_process_limits(limits)
                .leak())
        }
        other => Err(ExternalError::BadProtocol {
            name: name.to_string(),
            found: other.to_string(),
        }),
    }
}

/// Opens each corpus file once, so that a missing one is found before anything runs, located
/// at its `path`.
fn readable(
    corpora: &[CorpusSpec],
    sources: &[Source],
    located: &dyn Fn(std::ops::Range<usize>, String) -> ExperimentError,
) -> Result<(), ExperimentError> {
    for (corpus, source) in corpora.iter().zip(sources) {
        if !source.is_stdin()
            && let Err(err) = std::fs::File::open(&source.path)
        {
            return Err(located(
                corpus.path.span(),
                format!("corpus {}: cannot read: {err}", source.path.display()),
            ));
        }
    }
    Ok(())
}

/// The sources and side files of the `[[corpus]]` tables, paths relative to `base_dir`.
fn corpora(
    corpora: &[CorpusSpec],
    base_dir: &Path,
) -> Result<(Vec<Source>, Vec<Sides>), ExperimentError> {
    let resolve = |p: &Path| {
        if p.is_absolute() || p.as_os_str() == "-" {
            p.to_path_buf()
        } else {
            base_dir.join(p)
        }
    };
    let mut sources = Vec::new();
    let mut sides = Vec::new();
    for corpus in corpora {
        sources.push(Source {
            path: resolve(corpus.path.get_ref()),
            format: corpus.format.0,
            shape: corpus.box_shape.map(|shape| shape.0),
            variant: None,
        });
        let side = |p: &Option<PathBuf>, kind| {
            p.as_ref()
                .map(|p| SideFile::load(&resolve(p), kind))
                .transpose()
        };
        sides.push(Sides {
            counts: side(&corpus.counts, SideKind::Counts)?,
            solutions: side(&corpus.solutions, SideKind::Solutions)?,
        });
    }
    Ok((sources, sides))
}

/// The `[run]` numbers, in the command line's bounds (`--repeat`, `--warmup`, `--jobs`), with
/// the place of a value out of them.
fn bounds(run: &RunSpec) -> Result<(), (std::ops::Range<usize>, String)> {
    let repeats = u64::from(super::MAX_REPEATS);
    for (key, value, min, max, unit) in [
        ("repeat", &run.repeat, 1, repeats, " repeats"),
        ("warmup", &run.warmup, 0, repeats, " warmup searches"),
        ("jobs", &run.jobs, 1, super::MAX_JOBS as u64, " jobs"),
    ] {
        if let Some(value) = value
            && !(min..=max).contains(value.get_ref())
        {
            return Err((
                value.span(),
                format!(
                    "[run] {key}: expected {min} to {max}{unit}, found {}",
                    value.get_ref()
                ),
            ));
        }
    }
    Ok(())
}

/// The `[select]` table as a selection.
fn selection(select: &SelectSpec) -> Result<Selection, String> {
    Ok(match (select.sample, select.shard) {
        (Some(_), Some(_)) => return Err("[select] takes a sample or a shard, not both".into()),
        (Some(0), None) => {
            return Err("[select] sample = 0 would run nothing; give at least 1".into());
        }
        (Some(size), None) => Selection::Sample {
            size,
            seed: select.seed.unwrap_or(1),
        },
        (None, Some(shard)) => Selection::Shard(shard.0),
        (None, None) => Selection::All,
    })
}

/// The one-based line and column of a byte offset.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Experiment, String> {
        Experiment::parse(text, Path::new("dir/e.toml")).map_err(|err| err.to_string())
    }

    #[test]
    fn a_full_file_becomes_a_plan() {
        // Beside the bundled corpus, so that the corpus it names is there.
        let experiment = Experiment::parse(
            r#"
name = "demo"
[[corpus]]
path = "reference.txt"
box = "2x3"
[select]
shard = "2/3"
[run]
limit = 0
timeout = "250ms"
repeat = 3
warmup = 1
order = "puzzle"
jobs = 2
baseline = "fast"
[[strategy]]
name = "fast"
[[strategy]]
name = "scan"
timeout = "none"
max_nodes = 1000
budget = 700
[output]
forms = ["md", ".json"]
"#,
            Path::new("../../corpora/e.toml"),
        )
        .expect("a valid file");
        assert_eq!(experiment.name, "demo");
        assert_eq!(
            experiment.sources[0].path,
            Path::new("../../corpora/reference.txt")
        );
        assert_eq!(experiment.sources[0].shape, Some(Shape::new(2, 3).unwrap()));
        assert_eq!(
            experiment.plan.selection,
            Selection::Shard(Shard { index: 2, count: 3 })
        );
        assert_eq!(experiment.plan.order, Order::Puzzle);
        assert_eq!(experiment.plan.jobs, 2);
        assert_eq!(
            experiment.plan.repeats,
            Repeats {
                warmup: 1,
                timed: 3
            }
        );
        assert_eq!(experiment.plan.names(), ["fast", "scan"]);
        let fast = &experiment.plan.entries[0].limits;
        assert_eq!(fast.timeout, Some(Duration::from_millis(250)));
        assert_eq!(fast.max_solutions, None);
        let scan = &experiment.plan.entries[1].limits;
        assert_eq!(
            (scan.timeout, scan.max_nodes, scan.budget),
            (None, Some(1000), Some(700))
        );
        // No budget given: the engine's calibrated default.
        assert_eq!(
            fast.budget,
            strategy::find("fast").unwrap().default_budget()
        );
        assert_eq!(
            experiment.forms,
            [ReportFormat::Markdown, ReportFormat::Json]
        );
        assert_eq!(experiment.output_dir, Path::new("results/demo"));
    }

    #[test]
    fn mistakes_are_located() {
        let base = "[[corpus]]\npath = \"p.txt\"\n";
        assert_eq!(
            parse(&format!("{base}[run]\ntimout = \"1s\"\n")).unwrap_err(),
            "dir/e.toml: line 4, column 1: unknown field `timout`, expected one of `limit`, \
             `timeout`, `max_nodes`, `budget`, `repeat`, `warmup`, `order`, `jobs`, `baseline`, `clock`"
        );
        assert_eq!(
            parse(&format!("strategies = [\"fast\", \"quick\"]\n{base}")).unwrap_err(),
            format!(
                "dir/e.toml: line 1, column 14: unknown strategy 'quick'; valid strategies: {}",
                strategy::names().join(", ")
            )
        );
        assert_eq!(
            parse(&format!("{base}[run]\ntimeout = \"3 days\"\n")).unwrap_err(),
            "dir/e.toml: line 4, column 11: unknown time unit 'days'; use ms, s, m or h"
        );
        assert_eq!(
            parse(&format!("{base}[run]\norder = \"random\"\n")).unwrap_err(),
            "dir/e.toml: line 4, column 9: unknown variant `random`, expected `engine` or \
             `puzzle`"
        );
        assert_eq!(
            parse("[run]\nlimit = 2\n").unwrap_err(),
            "dir/e.toml: no [[corpus]]: name at least one puzzle file (path = \"...\")"
        );
        assert_eq!(
            parse(&format!(
                "strategies = [\"fast\"]\n{base}[[strategy]]\nname = \"fast\"\n"
            ))
            .unwrap_err(),
            "dir/e.toml: strategy 'fast' is listed twice; each strategy runs once"
        );
        assert_eq!(
            parse(&format!("{base}[select]\nsample = 3\nshard = \"1/2\"\n")).unwrap_err(),
            "dir/e.toml: [select] takes a sample or a shard, not both"
        );
    }
}
