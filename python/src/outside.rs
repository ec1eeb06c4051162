//! Strategies from outside sudolab's registry, as `compare` takes them from Python: a Python
//! function (the library's `strategy::Callback`, given a closure that calls the function with
//! the GIL held) and an outside program (`strategy::External`, as `--external`).
//!
//! The run calls a function from its worker threads while the calling thread waits with the
//! GIL released (`detached`), so each call takes the GIL for itself; calls of one function from
//! several jobs take turns on it. An exception the function raises is that solver's failure on
//! that puzzle (a `solver_failed` problem with the exception's text), never the run's.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use sudolab::model::{Grid, Shape, parse_line_record, to_one_line};
use sudolab::strategy::{
    self, Answer, CALLBACK_COUNTERS, Callback, External, Limits, ProcessLimits, SolveFn, Stats,
    Strategy,
};

use crate::errors;

/// One entry of `strategies`: a registered strategy's name, or a function with its name.
#[derive(FromPyObject)]
pub enum Spec {
    Name(String),
    Function(String, Py<PyAny>),
}

/// One outside program: `NAME=COMMAND` (run by `sh -c`, as `--external`), or a name and an
/// argument vector run as given.
#[derive(FromPyObject)]
pub enum ExternalSpec {
    Shell(String),
    Argv(String, Vec<String>),
}

/// The functions of one run, released (their Python objects dropped) when the run is over.
#[derive(Default)]
pub struct Functions(Vec<&'static Callback>);

impl Drop for Functions {
    fn drop(&mut self) {
        for function in &self.0 {
            function.release();
        }
    }
}

/// The strategies `specs` name, in order: names resolved by the library's rules, each function
/// made a strategy; then the outside programs. A name given twice, or a function or program
/// named as a built-in, is refused.
pub fn strategies(
    specs: Vec<Spec>,
    external: Vec<ExternalSpec>,
    limits: ProcessLimits,
    functions: &mut Functions,
) -> PyResult<Vec<&'static dyn Strategy>> {
    let names: Vec<&str> = specs
        .iter()
        .filter_map(|spec| match spec {
            Spec::Name(name) => Some(name.as_str()),
            Spec::Function(..) => None,
        })
        .collect();
    let mut named = strategy::find_all(&names)
        .map_err(|err| errors::option(&err.to_string()))?
        .into_iter();
    let mut chosen: Vec<&'static dyn Strategy> = Vec::with_capacity(specs.len());
    for spec in specs {
        match spec {
            Spec::Name(_) => chosen.extend(named.next()),
            Spec::Function(name, function) => {
                let summary = format!("Python function {name}");
                let callback = Callback::new(&name, &summary, solver(function))
                    .map_err(|err| errors::option(&format!("strategies: {err}")))?
                    .leak();
                functions.0.push(callback);
                chosen.push(callback);
            }
        }
    }
    for spec in external {
        chosen.push(outside_solver(spec, limits)?);
    }
    for (index, strategy) in chosen.iter().enumerate() {
        if chosen[..index]
            .iter()
            .any(|other| other.name() == strategy.name())
        {
            return Err(errors::option(&format!(
                "strategies: the name '{}' is given twice; each strategy needs its own",
                strategy.name()
            )));
        }
    }
    Ok(chosen)
}

/// One outside solver under `limits`, as `--external` makes it: `NAME=COMMAND` read by the
/// library's rules (`dimacs:` and `dimacs-ENCODING:` commands are DIMACS SAT solvers), or a
/// name and an argument vector speaking the line protocol.
pub fn outside_solver(
    spec: ExternalSpec,
    limits: ProcessLimits,
) -> PyResult<&'static dyn Strategy> {
    let made = match spec {
        ExternalSpec::Shell(spec) => strategy::outside_solver(&spec, limits),
        ExternalSpec::Argv(name, command) => External::new(&name, command)
            .map(|external| Box::new(external.with_process_limits(limits)) as Box<dyn Strategy>),
    };
    let made = made.map_err(|err| errors::option(&format!("external: {err}")))?;
    Ok(&*Box::leak(made))
}

/// The outside solvers of `verify` and `generate`, each once (as `--external`).
pub fn solvers(
    external: Vec<ExternalSpec>,
    limits: ProcessLimits,
) -> PyResult<Vec<&'static dyn Strategy>> {
    let made = external
        .into_iter()
        .map(|spec| outside_solver(spec, limits))
        .collect::<PyResult<Vec<_>>>()?;
    strategy::distinct_outside_names(&made)
        .map_err(|err| errors::option(&format!("external: {err}")))?;
    Ok(made)
}

/// The closure that runs `function(puzzle, limit)` for the library.
fn solver(function: Py<PyAny>) -> Box<SolveFn> {
    Box::new(move |grid: &Grid, limits: &Limits| {
        Python::attach(|py| {
            let limit = limits.max_solutions.unwrap_or(0);
            let returned = function
                .call1(py, (to_one_line(grid), limit))
                .map_err(|err| raised(py, &err))?;
            answer(returned.bind(py), grid.shape())
        })
    })
}

/// An exception in words: `raised ValueError: its message`.
fn raised(py: Python<'_>, err: &PyErr) -> String {
    let kind = err
        .get_type(py)
        .name()
        .map_or_else(|_| "an exception".to_string(), |name| name.to_string());
    let message = err.value(py).to_string();
    if message.is_empty() {
        format!("raised {kind}")
    } else {
        format!("raised {kind}: {message}")
    }
}

/// What the function returned: a list of solutions (all there are), or an object with
/// `solutions`, `complete` and `counters` (`sudolab.Answer`).
fn answer(returned: &Bound<'_, PyAny>, shape: Shape) -> Result<Answer, String> {
    if returned.is_instance_of::<PyList>() || returned.is_instance_of::<PyTuple>() {
        return Ok(Answer {
            solutions: solutions(returned, shape)?,
            complete: true,
            stats: Stats::new(),
        });
    }
    let field = |name: &str| returned.getattr(name).ok();
    let (Some(listed), Some(complete)) = (field("solutions"), field("complete")) else {
        return Err(format!(
            "returned {}; expected a list of solutions (str, the line form) or a \
             sudolab.Answer",
            describe(returned)
        ));
    };
    let complete = complete.extract::<bool>().map_err(|_| {
        format!(
            "returned complete={}; expected True or False",
            describe(&complete)
        )
    })?;
    let mut stats = Stats::new();
    if let Some(counters) = field("counters").filter(|c| !c.is_none()) {
        let counters: Vec<(String, u64)> = counters
            .call_method0("items")
            .and_then(|items| items.try_iter()?.map(|item| item?.extract()).collect())
            .map_err(|_| {
                format!(
                    "returned counters={}; expected a dict of counter names and whole numbers \
                     of 0 or more",
                    describe(&counters)
                )
            })?;
        for (key, value) in counters {
            let counter = CALLBACK_COUNTERS
                .iter()
                .find(|counter| counter.name() == key)
                .ok_or_else(|| {
                    let names: Vec<&str> = CALLBACK_COUNTERS.iter().map(|c| c.name()).collect();
                    format!(
                        "returned the unknown counter '{key}' (expected one of {})",
                        names.join(", ")
                    )
                })?;
            stats.set(*counter, value);
        }
    }
    Ok(Answer {
        solutions: solutions(&listed, shape)?,
        complete,
        stats,
    })
}

/// The solutions of an answer, each a string in the line form.
fn solutions(listed: &Bound<'_, PyAny>, shape: Shape) -> Result<Vec<Grid>, String> {
    let expected = || {
        format!(
            "returned {}; expected a list of solutions (str, the line form)",
            describe(listed)
        )
    };
    let items = listed.try_iter().map_err(|_| expected())?;
    let mut grids = Vec::new();
    for (index, item) in items.enumerate() {
        let item = item.map_err(|_| expected())?;
        let text = item.cast::<PyString>().map_err(|_| {
            format!(
                "returned solution {} as {}; expected a str in the line form",
                index + 1,
                describe(&item)
            )
        })?;
        let text = text.to_cow().map_err(|_| expected())?;
        let record = parse_line_record(text.as_bytes(), Some(shape), 1)
            .map_err(|err| format!("returned solution {} that cannot be read: {err}", index + 1))?;
        grids.push(record.puzzle);
    }
    Ok(grids)
}

/// A returned value in a few words: its type and a short repr.
fn describe(value: &Bound<'_, PyAny>) -> String {
    let repr = value
        .repr()
        .map_or_else(|_| "?".to_string(), |repr| repr.to_string());
    let shown: String = repr.chars().take(60).collect();
    if shown.len() < repr.len() {
        format!("{shown}...")
    } else {
        shown
    }
}
