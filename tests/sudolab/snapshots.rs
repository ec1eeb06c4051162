//! One snapshot per report form: a fixed report (three strategies, a problem, an input error,
//! an engine without a node counter, a search that gave up) rendered in every form and compared
//! byte for byte with `tests/snapshots/report.*`. After an intended change of a renderer, run
//! `SUDOLAB_BLESS=1 cargo test snapshot` and review the diff of the snapshots.

use std::path::Path;

use sudolab::check::{Problem, ProblemKind};
use sudolab::experiment::Order;
use sudolab::report::{Aggregator, Context, Format, PuzzleProblem, Report, Row, render};
use sudolab::strategy::{Counter, Stats, Stop, Verdict};

fn row(puzzle: u64, strategy: &str, time_ns: u64, counters: &[(Counter, u64)]) -> Row {
    let mut stats = Stats::new();
    for &(counter, value) in counters {
        stats.set(counter, value);
    }
    Row {
        puzzle,
        source: format!("corpus.txt:{}", puzzle + 2),
        side: 9,
        clues: 17 + puzzle as usize,
        strategy: strategy.to_string(),
        verdict: Verdict::Unique,
        solutions: 1,
        exhausted: true,
        stopped: None,
        time_ns,
        median_ns: time_ns + 100,
        cpu_ns: Some(time_ns / 10 * 9),
        counters: stats,
    }
}

fn report() -> Report {
    let strategies = vec!["fast".to_string(), "toggle".to_string(), "sat".to_string()];
    let mut aggregator = Aggregator::new(strategies, Some("fast".to_string()));
    for puzzle in 0..3 {
        aggregator.add(row(
            puzzle,
            "fast",
            1_500 + 250 * puzzle,
            &[
                (Counter::Nodes, 1 + puzzle),
                (Counter::Guesses, 2 * puzzle),
                (Counter::PropagationRounds, 9 + puzzle),
            ],
        ));
        let mut toggle = row(
            puzzle,
            "toggle",
            90_000 * (puzzle + 1),
            &[
                (Counter::Nodes, 1_000 * (puzzle + 1)),
                (Counter::Placements, 999 * (puzzle + 1)),
                (Counter::Backtracks, 950 * (puzzle + 1)),
            ],
        );
        if puzzle == 2 {
            toggle.verdict = Verdict::Unknown;
            toggle.solutions = 0;
            toggle.exhausted = false;
            toggle.stopped = Some(Stop::NodeLimit);
        }
        aggregator.add(toggle);
        aggregator.add(row(
            puzzle,
            "sat",
            250_000 + 1_000 * puzzle,
            &[
                (Counter::Variables, 300),
                (Counter::Clauses, 2_000 + puzzle),
                (Counter::SolverCalls, 2),
            ],
        ));
    }
    let context = Context {
        version: "0.1.0".into(),
        commit: Some("0123456789ab".into()),
        rustc: Some("rustc 1.95.0".into()),
        cpu: "Test CPU (2 threads available)".into(),
        os: "Test OS (linux x86_64)".into(),
        date: "2026-11-23T12:00:00Z".into(),
        command: "sudolab compare -s fast,toggle,sat --max-nodes 3000 corpus.txt".into(),
        inputs: vec!["corpus.txt".into()],
        input_hashes: vec![Some(
            "sha256:6b17b8fcc411a533c822a5117e33cf73fa6766739d7d36ac86dc4bea883af4fe".into(),
        )],
        limit: 2,
        max_nodes: Some(3_000),
        timeout_ms: Some(1_000),
        repeat: 3,
        warmup: 1,
        order: Some(Order::Engine),
        timer: "test clock".into(),
        jobs: 1,
        baseline: Some("fast".into()),
        ..Context::default()
    };
    let problems = vec![PuzzleProblem {
        puzzle: 1,
        source: "corpus.txt:3".into(),
        grid: "4..3.....1....2.".into(),
        problem: Problem {
            kind: ProblemKind::VerdictsDisagree,
            strategies: vec!["fast".into(), "sat".into()],
            detail: "fast says unique (1); sat says <none> (0)".into(),
        },
    }];
    let input_errors =
        vec!["corpus.txt: line 1, column 5: expected a digit 1-9 or '.', found 'x'".into()];
    aggregator.report(context, input_errors, problems, true)
}

#[test]
fn snapshot_of_every_report_form() {
    let report = report();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let bless = std::env::var_os("SUDOLAB_BLESS").is_some();
    let mut stale = Vec::new();
    for form in Format::ALL {
        let path = dir.join(format!("report.{}", form.extension()));
        let rendered = render(form, &report);
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &rendered).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("{}: {err}; bless with SUDOLAB_BLESS=1", path.display()));
        if rendered != expected {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "rendered reports differ from their snapshots: {stale:?}; review, then SUDOLAB_BLESS=1"
    );
}

#[test]
fn the_json_snapshot_reads_back_as_the_report() {
    let text = render(Format::Json, &report());
    assert_eq!(sudolab::report::json::read(&text), Ok(report()));
}
