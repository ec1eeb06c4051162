//! `sudolab diff`: two runs of the bundled corpus compared, with the second run's report
//! edited as a regression would change it (a slowed engine, a wrong verdict).

use std::path::PathBuf;

use serde_json::Value;

use crate::cli::sudolab;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudolab-diff-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

const CORPUS: &str = "corpora/generated/9x9-minimal.txt";

/// A JSON report of `fast` and `sat` on the bundled minimal 9x9 puzzles.
/// The diff's entry for one strategy in its JSON form.
fn strategy_of(found: &Value, name: &str) -> Value {
    found["strategies"]
        .as_array()
        .expect("strategies")
        .iter()
        .find(|s| s["strategy"] == name)
        .cloned()
        .expect("the strategy")
}

fn run(dir: &std::path::Path, name: &str) -> (PathBuf, Value) {
    let path = dir.join(name);
    let made = sudolab(
        &[
            "compare",
            "-s",
            "fast,sat",
            "--report",
            path.to_str().expect("a UTF-8 path"),
            CORPUS,
        ],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let report = std::fs::read_to_string(&path).expect("the report");
    (path, serde_json::from_str(&report).expect("JSON"))
}

#[test]
fn a_slowed_engine_and_a_changed_verdict_are_named_and_the_rest_is_unchanged() {
    let dir = scratch("regression");
    let (before, mut report) = run(&dir, "before.json");
    let after = dir.join("after.json");
    // The same run as a regression of `sat` would have made it: every search three times
    // slower, and the third puzzle found to have no solution.
    for row in report["rows"].as_array_mut().expect("rows") {
        if row["strategy"] != "sat" {
            continue;
        }
        for field in ["time_ns", "median_ns", "cpu_ns"] {
            if let Some(ns) = row[field].as_u64() {
                row[field] = (ns * 3).into();
            }
        }
        if row["puzzle"] == 2 {
            row["verdict"] = "none".into();
            row["solutions"] = 0.into();
        }
    }
    std::fs::write(&after, report.to_string()).expect("written");

    let out = dir.join("diff.json");
    let diff = sudolab(
        &[
            "diff",
            before.to_str().expect("UTF-8"),
            after.to_str().expect("UTF-8"),
            "--out",
            out.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(diff.code, 1, "a changed verdict is a negative result");
    assert_eq!(
        diff.stderr,
        "sudolab: 1 verdict or count change(s) between the runs\n"
    );
    assert!(
        diff.stdout.contains(&format!(
            "verdicts and counts: 1 CHANGED\n  {CORPUS}:4\tsat\tunique (1) -> none (0)\n"
        )),
        "{}",
        diff.stdout
    );
    let found: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("--out")).expect("JSON");
    let strategy = |name: &str| strategy_of(&found, name);
    let (fast, sat) = (strategy("fast"), strategy("sat"));
    assert_eq!(sat["changes"], 1);
    assert_eq!(sat["paired"], 100);
    // Every ratio is 3: the geometric mean and both ends of its interval are 3.
    let ratio = &sat["ratio"];
    assert_eq!(ratio["change"], "slower");
    assert_eq!(
        ratio["puzzles"], 100,
        "'none' is decided too: every puzzle is timed"
    );
    for end in ["geomean", "low", "high"] {
        let value = ratio[end].as_f64().expect("a number");
        assert!((value - 3.0).abs() < 1e-9, "{end}: {value}");
    }
    // `fast` is as it was: the same verdicts, counters and times.
    assert_eq!(fast["ratio"]["change"], "unchanged");
    assert_eq!(fast["ratio"]["geomean"], 1.0);
    assert_eq!(fast["changes"], 0);
    assert_eq!(fast["counters"], Value::Array(Vec::new()));
    assert_eq!(fast["decided_before"], 100);
    assert_eq!(fast["decided_after"], 100);

    // The same reports and seed give the same diff; the Markdown form carries the change.
    let again = sudolab(
        &[
            "diff",
            before.to_str().expect("UTF-8"),
            after.to_str().expect("UTF-8"),
            "--format",
            "json",
        ],
        "",
    );
    let again: Value = serde_json::from_str(&again.stdout).expect("JSON");
    assert_eq!(again["strategies"], found["strategies"]);
    let markdown = sudolab(
        &[
            "diff",
            before.to_str().expect("UTF-8"),
            after.to_str().expect("UTF-8"),
            "--format",
            "markdown",
        ],
        "",
    );
    assert!(
        markdown
            .stdout
            .contains(&format!("| {CORPUS}:4 | sat | unique (1) | none (0) |\n")),
        "{}",
        markdown.stdout
    );
}

#[test]
fn reports_of_other_inputs_are_refused_and_a_bad_out_extension_named() {
    let dir = scratch("inputs");
    let (before, _) = run(&dir, "before.json");
    let other = dir.join("other.json");
    let made = sudolab(
        &[
            "compare",
            "-s",
            "fast,sat",
            "--report",
            other.to_str().expect("UTF-8"),
            "corpora/generated/9x9-rot180.txt",
        ],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let diff = sudolab(
        &[
            "diff",
            before.to_str().expect("UTF-8"),
            other.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(diff.code, 2);
    assert_eq!(
        diff.stderr,
        format!(
            "sudolab: the reports read different inputs (input 1 is {CORPUS} in the first and \
             corpora/generated/9x9-rot180.txt in the second, with other contents): a diff pairs \
             puzzles by their position, so both runs must read the same files in the same \
             order\n"
        )
    );
    let bad = sudolab(
        &[
            "diff",
            before.to_str().expect("UTF-8"),
            before.to_str().expect("UTF-8"),
            "--out",
            dir.join("diff.pdf").to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.ends_with(
            "diff.pdf: the extension names the form of the diff: .txt, .md, .json or .html\n"
        ),
        "{}",
        bad.stderr
    );
    let itself = sudolab(
        &[
            "diff",
            before.to_str().expect("UTF-8"),
            before.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(itself.code, 0, "{}", itself.stderr);
    assert!(itself.stdout.contains("verdicts and counts: no change\n"));
}

/// A proxy in front of the example outside solver: every answer held back by the number of
/// milliseconds of its first argument, and `none` (a false verdict) for the puzzle of its
/// second; the same correct solver otherwise.
const SLOWED: &str = r#"
import subprocess, sys, time
delay, wrong = int(sys.argv[1]) / 1000, sys.argv[2]
solver = subprocess.Popen(
    [sys.executable, "examples/external/solver.py"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
)
for line in sys.stdin:
    solver.stdin.write(line)
    solver.stdin.flush()
    if line.startswith("sudolab-external"):
        continue
    answer = solver.stdout.readline()
    time.sleep(delay)
    if line.strip() == wrong:
        answer = "none nodes=1\n"
    sys.stdout.write(answer)
    sys.stdout.flush()
"#;

/// Two real runs of an outside solver on a sample of the bundled corpus: the example solver,
/// then the same solver slowed by 100 ms a puzzle (several times its own time, so that a loaded
/// machine cannot hide it) and wrong on one puzzle. The diff names the changed verdict and calls
/// the solver slower with an interval above 1; `fast`, run the same way both times, keeps its
/// verdicts.
#[test]
fn a_really_slowed_and_wrong_outside_solver_is_named_by_the_diff() {
    let dir = scratch("outside");
    let compare = |name: &str, command: &str, code: i32| {
        let path = dir.join(name);
        let made = sudolab(
            &[
                "compare",
                "-s",
                "fast",
                "--external",
                command,
                "--sample",
                "12",
                "-j",
                "1",
                "--report",
                path.to_str().expect("a UTF-8 path"),
                CORPUS,
            ],
            "",
        );
        assert_eq!(made.code, code, "{}", made.stderr);
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("the report"))
                .expect("JSON");
        (path, report)
    };
    let (before, report) = compare("before.json", "py=python3 examples/external/solver.py", 0);
    // The third puzzle of the sample, as the corpus file has it.
    let rows = report["rows"].as_array().expect("rows");
    let third = rows
        .iter()
        .filter(|row| row["strategy"] == "py")
        .nth(2)
        .expect("twelve puzzles");
    assert_eq!(third["verdict"], "unique");
    let source = third["source"].as_str().expect("a source");
    let line: usize = source
        .rsplit_once(':')
        .and_then(|(_, line)| line.parse().ok())
        .expect("FILE:LINE");
    let corpus = std::fs::read_to_string(CORPUS).expect("the corpus");
    let puzzle = corpus
        .lines()
        .nth(line - 1)
        .expect("the line")
        .split_whitespace()
        .next()
        .expect("a puzzle");

    let script = dir.join("slowed.py");
    std::fs::write(&script, SLOWED).expect("written");
    let slowed = format!("py=python3 {} 100 {puzzle}", script.display());
    // The false `none` contradicts `fast` and the corpus's solution: a problem, exit 1.
    let (after, _) = compare("after.json", &slowed, 1);

    let out = dir.join("diff.json");
    let diff = sudolab(
        &[
            "diff",
            before.to_str().expect("UTF-8"),
            after.to_str().expect("UTF-8"),
            "--out",
            out.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(diff.code, 1, "a changed verdict is a negative result");
    assert!(
        diff.stdout.contains(&format!(
            "verdicts and counts: 1 CHANGED\n  {source}\tpy\tunique (1) -> none (0)\n"
        )),
        "{}",
        diff.stdout
    );
    let found: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("--out")).expect("JSON");
    let strategy = |name: &str| strategy_of(&found, name);
    let (fast, py) = (strategy("fast"), strategy("py"));
    assert_eq!(py["changes"], 1);
    assert_eq!(fast["changes"], 0);
    let ratio = &py["ratio"];
    assert_eq!(ratio["puzzles"], 12, "'none' is decided too");
    assert_eq!(ratio["clock"], "wall", "outside solvers carry no CPU time");
    assert_eq!(ratio["change"], "slower", "{ratio}");
    let low = ratio["low"].as_f64().expect("a number");
    assert!(low > 1.0, "the interval excludes 1: {ratio}");
}
