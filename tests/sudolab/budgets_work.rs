//! Deterministic work budgets: each engine stops on a budget in its own unit (nodes, updates,
//! proof bytes), at the same point of its search on any machine at any load, and reports the
//! stop as `budget`, apart from the wall-clock `deadline`.

use std::process::{Child, Command, Stdio};

use serde_json::Value;
use sudolab::model::Grid;
use sudolab::strategy::{self, Counter, Limits, Stop, Verdict, WorkUnit};

use crate::cli::sudolab;
use crate::compare::scratch;

/// A minimal 9x9 puzzle (line 16 of `corpora/generated/9x9-minimal.txt`): unique, and every
/// engine needs a search tree of many nodes on it (`fast` guesses 18 times, `scan` takes over
/// 100,000 nodes).
const HARD: &str =
    "41.5...9.....6..5..5643...8....83......7..9..3.8...27...7..4....31...5.4...35....";

fn hard() -> Grid {
    HARD.parse().expect("a valid puzzle")
}

/// A uniqueness search (solution limit 2) of `name` on the hard puzzle within `limits`.
fn uniqueness(name: &str, limits: &Limits) -> strategy::Outcome {
    strategy::find(name)
        .unwrap()
        .count_up_to(&hard(), 2, limits)
}

#[test]
fn every_engine_declares_its_unit() {
    let units: Vec<(&str, WorkUnit)> = strategy::registry()
        .iter()
        .map(|engine| (engine.name(), engine.budget_unit()))
        .collect();
    assert_eq!(
        units,
        [
            ("fast", WorkUnit::Nodes),
            ("scan", WorkUnit::Nodes),
            ("toggle", WorkUnit::Nodes),
            ("mrv", WorkUnit::Nodes),
            ("dlx-knuth", WorkUnit::Updates),
            ("dlx", WorkUnit::None),
            ("sat", WorkUnit::ProofBytes),
            ("sat-extended", WorkUnit::ProofBytes),
            ("sat-minimal", WorkUnit::ProofBytes),
        ]
    );
    // A unit an engine counts is one of the counters it reports.
    for engine in strategy::registry() {
        if let Some(counter) = engine.budget_unit().counter() {
            assert!(engine.counters().contains(&counter), "{}", engine.name());
        }
        // An engine with a unit has a calibrated default for `compare`; one without has none.
        assert_eq!(
            engine.default_budget().is_some(),
            engine.budget_unit() != WorkUnit::None,
            "{}",
            engine.name()
        );
    }
    assert_eq!(Limits::unlimited().with_budget(0).budget, None);
}

/// The backtrackers and `fast` count nodes and look at the budget as each node is entered: a
/// budget one short of the complete tree stops the search with exactly the budget in `nodes`,
/// and the complete tree's own size lets it finish, with the unlimited search's counters.
#[test]
fn node_engines_stop_at_exactly_their_budget() {
    for name in ["fast", "scan", "toggle", "mrv"] {
        let full = uniqueness(name, &Limits::unlimited());
        assert_eq!(full.verdict(), Verdict::Unique, "{name}");
        let nodes = full.stats.get(Counter::Nodes).unwrap();
        assert!(nodes >= 3, "{name}: a tree of {nodes} nodes tests nothing");
        for budget in [1, nodes / 2, nodes - 1] {
            let stopped = uniqueness(name, &Limits::unlimited().with_budget(budget));
            assert_eq!(stopped.stopped, Some(Stop::Budget), "{name} at {budget}");
            assert_eq!(stopped.verdict(), Verdict::Unknown, "{name} at {budget}");
            assert_eq!(
                stopped.stats.get(Counter::Nodes),
                Some(budget),
                "{name} at {budget}"
            );
        }
        let exact = uniqueness(name, &Limits::unlimited().with_budget(nodes));
        assert_eq!(exact, full, "{name}: a budget of the whole tree");
    }
}

/// `dlx-knuth` counts updates and looks at the budget as each node is entered: it stops at the
/// first node that finds the budget spent, past it by less than one node's covering, at the
/// same node every time; a budget above the whole search's updates changes nothing.
#[test]
fn dlx_knuth_stops_on_its_updates() {
    let full = uniqueness("dlx-knuth", &Limits::unlimited());
    assert_eq!(full.verdict(), Verdict::Unique);
    let updates = full.stats.get(Counter::Updates).unwrap();
    let nodes = full.stats.get(Counter::Nodes).unwrap();
    // One node covers at most its item and the three other items of its option, each with at
    // most 9 options of 4 nodes (a 9x9 board).
    let one_node = 4 * 9 * 4;
    for budget in [1, updates / 3, updates / 2, updates - one_node] {
        let stopped = uniqueness("dlx-knuth", &Limits::unlimited().with_budget(budget));
        assert_eq!(stopped.stopped, Some(Stop::Budget), "at {budget}");
        assert_eq!(stopped.verdict(), Verdict::Unknown, "at {budget}");
        let spent = stopped.stats.get(Counter::Updates).unwrap();
        assert!(
            (budget..budget + one_node).contains(&spent),
            "{spent} updates at a budget of {budget}"
        );
        assert!(stopped.stats.get(Counter::Nodes).unwrap() < nodes);
        let again = uniqueness("dlx-knuth", &Limits::unlimited().with_budget(budget));
        assert_eq!(again, stopped, "the same stop at {budget}");
    }
    let enough = uniqueness("dlx-knuth", &Limits::unlimited().with_budget(updates + 1));
    assert_eq!(enough, full);
}

/// The sat family counts the bytes of varisat's proof, seen at each flush of its buffer: a
/// budget smaller than the first flush stops the first call; a budget above the whole proof
/// changes nothing.
#[test]
fn sat_engines_stop_on_their_proof_bytes() {
    for name in ["sat", "sat-extended", "sat-minimal"] {
        let full = uniqueness(name, &Limits::unlimited());
        assert_eq!(full.verdict(), Verdict::Unique, "{name}");
        let stopped = uniqueness(name, &Limits::unlimited().with_budget(1));
        assert_eq!(stopped.stopped, Some(Stop::Budget), "{name}");
        assert_eq!(stopped.verdict(), Verdict::Unknown, "{name}");
        assert_eq!(stopped.found, 0, "{name}");
        assert_eq!(stopped.stats.get(Counter::SolverCalls), Some(1), "{name}");
        let enough = uniqueness(name, &Limits::unlimited().with_budget(1 << 40));
        assert_eq!(enough, full, "{name}");
    }
}

/// `dlx` has no unit: a work budget does not stop it (only its timeout can).
#[test]
fn dlx_ignores_a_work_budget() {
    let full = uniqueness("dlx", &Limits::unlimited());
    let budgeted = uniqueness("dlx", &Limits::unlimited().with_budget(1));
    assert_eq!(budgeted, full);
    assert_eq!(budgeted.verdict(), Verdict::Unique);
}

#[test]
fn the_command_line_takes_a_budget_and_names_the_stop() {
    let run = sudolab(&["count", "-s", "scan", "--budget", "100"], HARD);
    assert_eq!(
        run.stdout, "<stdin>:1\tunknown\t0+\t(work budget used up)\n",
        "{}",
        run.stderr
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let run = sudolab(&["count", "-s", "dlx", "--budget", "100"], HARD);
    assert_eq!(
        run.stderr,
        "sudolab: --budget: dlx has no work budget (nothing inside its crate's search can be \
         counted), so it cannot stop it; give it a --timeout instead\n"
    );
    assert_eq!(run.code, 2);
    let run = sudolab(&["strategies"], "");
    assert_eq!(run.code, 0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "strategy      unit           default  summary");
    assert!(
        lines[5].starts_with("dlx-knuth     updates       30000000  "),
        "{}",
        lines[5]
    );
    assert!(
        lines[6].starts_with("dlx           none                 -  "),
        "{}",
        lines[6]
    );
    assert!(
        lines[7].starts_with("sat           proof_bytes "),
        "{}",
        lines[7]
    );
}

/// Every report form spells the stop `budget` and records the budget with each unit.
#[test]
fn reports_spell_the_budget_stop_and_record_the_budget() {
    let dir = scratch("budget-reports");
    let json = dir.join("r.json");
    let csv = dir.join("r.csv");
    let md = dir.join("r.md");
    let (json_s, csv_s, md_s) = (
        json.to_str().unwrap(),
        csv.to_str().unwrap(),
        md.to_str().unwrap(),
    );
    let run = sudolab(
        &[
            "compare", "-s", "scan,dlx", "--budget", "100", "--report", json_s, "--report", csv_s,
            "--report", md_s, "-",
        ],
        HARD,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("1 puzzle, limit 2, work 100 (dlx: none, scan: nodes)"),
        "{}",
        run.stdout
    );
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["context"]["budget"], 100);
    assert_eq!(
        report["context"]["budget_units"],
        serde_json::json!({"dlx": "none", "scan": "nodes"})
    );
    assert_eq!(report["context"]["timeout_ms"], 30_000);
    let scan = &report["rows"][0];
    assert_eq!(
        (&scan["strategy"], &scan["verdict"], &scan["stopped"]),
        (&"scan".into(), &"unknown".into(), &"budget".into())
    );
    assert_eq!(scan["counters"]["nodes"], 100);
    let dlx = &report["rows"][1];
    assert_eq!(
        (&dlx["strategy"], &dlx["verdict"], &dlx["stopped"]),
        (&"dlx".into(), &"unique".into(), &Value::Null)
    );
    assert_eq!(report["summary"][0]["unknown_reasons"]["budget"], 1);
    assert_eq!(report["summary"][0]["unknown_reasons"]["timed_out"], 0);
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .contains(",unknown,0,false,budget,"),
        "{csv}"
    );
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(
        md.contains("work 100 (dlx: none, scan: nodes), no limit on nodes, 30000 ms per search"),
        "{md}"
    );
}

/// An experiment file sets a budget for the run and another for one strategy.
#[test]
fn an_experiment_file_sets_budgets_per_run_and_per_strategy() {
    let dir = scratch("budget-experiment");
    let puzzles = dir.join("p.txt");
    std::fs::write(&puzzles, format!("{HARD}\n")).unwrap();
    let file = dir.join("e.toml");
    std::fs::write(
        &file,
        "name = \"b\"\n[[corpus]]\npath = \"p.txt\"\n[run]\nbudget = 50\n\
         [[strategy]]\nname = \"scan\"\n[[strategy]]\nname = \"mrv\"\nbudget = 70\n\
         [output]\nforms = [\"json\"]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let run = sudolab(
        &[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["context"]["budget"], 50);
    assert_eq!(report["context"]["overrides"][0]["strategy"], "mrv");
    assert_eq!(report["context"]["overrides"][0]["budget"], 70);
    let nodes: Vec<(&str, u64)> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            assert_eq!(row["stopped"], "budget");
            (
                row["strategy"].as_str().unwrap(),
                row["counters"]["nodes"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(nodes, [("scan", 50), ("mrv", 70)]);
}

/// A busy loop that holds a core until it is killed.
struct Loader(Child);

impl Loader {
    fn start() -> Loader {
        Loader(
            Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("sh runs"),
        )
    }
}

impl Drop for Loader {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What a report says that does not depend on time: every row without its times, and each
/// summary's tallies and counters.
fn deterministic_part(report: &Value) -> Value {
    let rows: Vec<Value> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let mut row = row.as_object().unwrap().clone();
            row.retain(|key, _| !key.ends_with("_ns"));
            Value::Object(row)
        })
        .collect();
    let tallies = [
        "strategy",
        "runs",
        "found_any",
        "unique",
        "multiple",
        "none",
        "solved",
        "unknown",
        "unknown_reasons",
        "nodes_total",
        "nodes_median",
        "nodes_max",
    ];
    let summary: Vec<Value> = report["summary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|summary| tallies.iter().map(|key| summary[key].clone()).collect())
        .collect();
    serde_json::json!({
        "puzzles": report["puzzles"],
        "problems": report["problems"],
        "budget": report["context"]["budget"],
        "budget_units": report["context"]["budget_units"],
        "rows": rows,
        "summary": summary,
    })
}

/// The test at small scale: the same compare run alone and beside two busy loops gives
/// the same verdicts, counts and counters. The budgets stop `scan`, `toggle` and `dlx-knuth` on
/// part of these puzzles and let them decide the rest, as a wall-clock budget did on the
/// bundled corpus; a stop at a deadline would leave counters that differ from run to run.
#[test]
fn verdicts_and_counters_do_not_move_with_the_load() {
    let dir = scratch("budget-load");
    let run = |name: &str| {
        let path = dir.join(name);
        let run = sudolab(
            &[
                "compare",
                "-s",
                "fast,scan,toggle,mrv,dlx-knuth,sat",
                "--budget",
                "3000",
                "-j2",
                "--report",
                path.to_str().unwrap(),
                "corpora/generated/9x9-minimal.txt",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        deterministic_part(&report)
    };
    let alone = run("alone.json");
    let loaded = {
        let _loaders = [Loader::start(), Loader::start()];
        run("loaded.json")
    };
    assert_eq!(alone, loaded);
    // The budget bites: some searches stopped at it, others decided.
    let stops = |reason: &str| {
        alone["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|row| row["stopped"] == reason)
            .count()
    };
    assert!(stops("budget") > 0, "no search reached the budget");
    assert_eq!(stops("deadline"), 0);
    let decided = alone["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["verdict"] == "unique")
        .count();
    assert!(decided > stops("budget"), "too few decided to compare");
}
