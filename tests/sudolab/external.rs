//! Outside solvers (`compare --external NAME=COMMAND`): the example programs beside the engines
//! in every report form, and deliberately wrong programs, each caught as one located problem
//! while the other strategies' results stay complete.

use std::path::{Path, PathBuf};
use std::process::Command;

use sudolab::check::ProblemKind;
use sudolab::report::Report;
use sudolab::strategy::{Counter, Verdict};

use crate::cli::sudolab;
use crate::compare::{path, read_report, scratch, verdicts_of};

/// The C example, compiled into `dir`. A missing C compiler fails the test: CI has one, and
/// the example must be shown to build and answer there.
pub(crate) fn compiled_c_solver(dir: &Path) -> PathBuf {
    let binary = dir.join("solver");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/external/solver.c");
    let status = Command::new("cc")
        .args(["-O2", "-Wall", "-Werror", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("a C compiler 'cc' must be installed to test the C example solver");
    assert!(status.success(), "the C example solver does not compile");
    binary
}

/// The puzzles of a line-form corpus file with their known solutions.
pub(crate) fn puzzles_with_solutions(file: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .expect("a bundled corpus file");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut fields = line.split_whitespace();
            let puzzle = fields.next().expect("a puzzle").to_string();
            let solution = fields.next().expect("a known solution").to_string();
            (puzzle, solution)
        })
        .collect()
}

#[test]
fn the_python_and_c_examples_run_beside_fast_and_sat_in_every_report_form() {
    let dir = scratch("external-examples");
    let solver = compiled_c_solver(&dir);
    let reports: Vec<String> = ["json", "jsonl", "csv", "md", "html", "txt"]
        .iter()
        .map(|form| path(&dir, &format!("r.{form}")))
        .collect();
    let mut args = vec![
        "compare".to_string(),
        "-s".to_string(),
        "fast,sat".to_string(),
        "--external".to_string(),
        "py-example=python3 examples/external/solver.py".to_string(),
        "--external".to_string(),
        format!("c-example={}", solver.display()),
        "--timeout".to_string(),
        "20s".to_string(),
        "corpora/reference.txt".to_string(),
        "corpora/generated/4x4.txt".to_string(),
        "corpora/generated/6x6.txt".to_string(),
        "corpora/generated/9x9-rot180.txt".to_string(),
    ];
    for report in &reports {
        args.extend(["-r".to_string(), report.clone()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = sudolab(&args, "");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);

    // 2 + 20 + 20 + 20 unique puzzles, each proved unique by all four with the known solution
    // (the corpora give it, and a contradiction would be a problem).
    let report = read_report(&reports[0]);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.puzzles, 62);
    for name in ["fast", "sat", "py-example", "c-example"] {
        let rows: Vec<_> = report
            .rows
            .iter()
            .filter(|row| row.strategy == name)
            .collect();
        assert_eq!(rows.len(), 62, "{name}");
        assert!(
            rows.iter().all(|row| row.verdict == Verdict::Unique),
            "{name}"
        );
    }
    for name in ["py-example", "c-example"] {
        for row in report.rows.iter().filter(|row| row.strategy == name) {
            let nodes = row.counters.get(Counter::Nodes).expect("nodes reported");
            assert!(nodes >= 1, "{name} visits at least its root");
            assert!(
                row.counters.get(Counter::TimeNs).is_some(),
                "{name} time_ns"
            );
            assert_eq!(row.counters.get(Counter::Clauses), None, "{name}");
        }
    }
    // Every form names both outside solvers and carries their counters: every counter in
    // the forms with a row per search (JSON, JSON lines, CSV), the mean nodes in the summaries.
    for (report, form) in reports
        .iter()
        .zip(["json", "jsonl", "csv", "md", "html", "txt"])
    {
        let text = std::fs::read_to_string(report).expect("the report was written");
        let per_search = ["json", "jsonl", "csv"].contains(&form);
        let needles: &[&str] = if per_search {
            &["py-example", "c-example", "nodes", "time_ns"]
        } else {
            &["py-example", "c-example", "nodes"]
        };
        for needle in needles {
            assert!(text.contains(needle), "{report} lacks '{needle}'");
        }
    }
    let csv = std::fs::read_to_string(&reports[2]).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert!(header.contains(&"time_ns") && header.contains(&"nodes"));
    assert_eq!(
        csv.lines()
            .filter(|line| line.contains(",py-example,"))
            .count(),
        62
    );
    assert_eq!(
        csv.lines()
            .filter(|line| line.contains(",c-example,"))
            .count(),
        62
    );
}

/// A solver that answers from a table of known solutions, `puzzle solution` per line, and
/// does one thing wrong on the puzzle given as its second argument.
pub(crate) const FAULTY: &str = r#"
import sys, time
table = dict(line.split() for line in open(sys.argv[1]))
fault, target = sys.argv[2], sys.argv[3]
for line in sys.stdin:
    puzzle = line.strip()
    if puzzle.startswith("sudolab-external"):
        continue
    solution = table[puzzle]
    if puzzle == target:
        if fault == "wrong-digit":
            at = puzzle.index(".")
            digit = "1" if solution[at] != "1" else "2"
            solution = solution[:at] + digit + solution[at + 1:]
        elif fault == "none":
            print("none nodes=1", flush=True)
            continue
        elif fault == "crash":
            sys.stderr.write("faulty: cannot cope with this one\n")
            sys.stderr.flush()
            sys.exit(3)
        elif fault == "hang":
            time.sleep(120)
    print("unique " + solution + " nodes=1", flush=True)
"#;

/// Board A's solution with r1c3, r1c4, r2c3, r2c4 emptied (5 2 / 2 5 can swap): two solutions.
const TWO_SOLUTIONS: &str =
    "43..6978168..71493197834562826195347374682915951743628519326874248957136763418259";
const TWO_SOLUTIONS_ONE: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

/// Runs `compare -s fast,sat` and the faulty solver on five puzzles without known solutions
/// (a multi-solution one at `multiple_at`), the fault on the third; gives the report.
fn compare_with_fault(
    name: &str,
    fault: &str,
    multiple_at: Option<usize>,
) -> (i32, String, Report) {
    let dir = scratch(&format!("external-{name}"));
    let mut puzzles = puzzles_with_solutions("corpora/generated/9x9-rot180.txt");
    puzzles.truncate(5);
    if let Some(at) = multiple_at {
        puzzles[at] = (TWO_SOLUTIONS.to_string(), TWO_SOLUTIONS_ONE.to_string());
    }
    let corpus = path(&dir, "puzzles.txt");
    let bare: Vec<&str> = puzzles.iter().map(|(puzzle, _)| puzzle.as_str()).collect();
    std::fs::write(&corpus, bare.join("\n") + "\n").unwrap();
    let table = path(&dir, "table.txt");
    let lines: Vec<String> = puzzles.iter().map(|(p, s)| format!("{p} {s}")).collect();
    std::fs::write(&table, lines.join("\n") + "\n").unwrap();
    let script = path(&dir, "faulty.py");
    std::fs::write(&script, FAULTY).unwrap();
    let report = path(&dir, "r.json");
    let external = format!("bad=python3 {script} {table} {fault} {}", puzzles[2].0);
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast,sat",
            "--external",
            &external,
            "--timeout",
            "1s",
            "-j",
            "1",
            "-r",
            &report,
            &corpus,
        ],
        "",
    );
    let report = read_report(&report);
    // The engines' results are complete whatever the outside solver did.
    assert_eq!(report.puzzles, 5);
    for engine in ["fast", "sat"] {
        let verdicts = verdicts_of(&report, engine);
        let expected: Vec<Verdict> = (0..5)
            .map(|at| {
                if Some(at) == multiple_at {
                    Verdict::Multiple
                } else {
                    Verdict::Unique
                }
            })
            .collect();
        assert_eq!(verdicts, expected, "{engine}");
    }
    assert_eq!(
        report.rows.iter().filter(|r| r.strategy == "bad").count(),
        5
    );
    (run.code, run.stderr, report)
}

/// The one problem of a report: its kind, place (the file's name and line) and detail.
fn one_problem(report: &Report) -> (ProblemKind, String, String, Vec<String>) {
    assert_eq!(report.problems.len(), 1, "{:#?}", report.problems);
    let problem = &report.problems[0];
    let place = Path::new(&problem.source)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    (
        problem.problem.kind,
        place,
        problem.problem.detail.clone(),
        problem.problem.strategies.clone(),
    )
}

#[test]
fn a_wrong_digit_is_an_invalid_answer_on_its_puzzle() {
    let (code, stderr, report) = compare_with_fault("wrong-digit", "wrong-digit", None);
    assert_eq!(code, 1, "{stderr}");
    let (kind, place, detail, strategies) = one_problem(&report);
    assert_eq!(
        (kind, place.as_str()),
        (ProblemKind::InvalidAnswer, "puzzles.txt:3")
    );
    assert!(
        detail.starts_with("bad returned an invalid grid: "),
        "{detail}"
    );
    assert_eq!(strategies, ["bad"]);
    assert!(
        stderr.contains("puzzles.txt:3: bad returned an invalid grid"),
        "{stderr}"
    );
}

#[test]
fn a_false_none_disagrees_with_the_engines() {
    let (code, _, report) = compare_with_fault("none", "none", None);
    assert_eq!(code, 1);
    let (kind, place, detail, _) = one_problem(&report);
    assert_eq!(
        (kind, place.as_str()),
        (ProblemKind::VerdictsDisagree, "puzzles.txt:3")
    );
    assert_eq!(
        detail,
        "fast says unique (1); sat says unique (1); bad says none (0)"
    );
}

#[test]
fn unique_for_a_puzzle_with_two_solutions_disagrees_with_the_engines() {
    let (code, _, report) = compare_with_fault("unique-multi", "honest", Some(1));
    assert_eq!(code, 1);
    let (kind, place, detail, _) = one_problem(&report);
    assert_eq!(
        (kind, place.as_str()),
        (ProblemKind::VerdictsDisagree, "puzzles.txt:2")
    );
    assert_eq!(
        detail,
        "fast says multiple (2+); sat says multiple (2+); bad says unique (1)"
    );
}

#[test]
fn a_crash_on_the_third_puzzle_is_a_located_failure_and_the_program_restarts() {
    let (code, stderr, report) = compare_with_fault("crash", "crash", None);
    assert_eq!(code, 1, "{stderr}");
    let (kind, place, detail, strategies) = one_problem(&report);
    assert_eq!(
        (kind, place.as_str()),
        (ProblemKind::SolverFailed, "puzzles.txt:3")
    );
    assert_eq!(strategies, ["bad"]);
    assert_eq!(
        detail,
        "bad exited (exit status: 3) without an answer; its standard error ends: faulty: \
         cannot cope with this one"
    );
    let verdicts = verdicts_of(&report, "bad");
    // Restarted after the crash: puzzles 4 and 5 are answered.
    assert_eq!(
        verdicts,
        [
            Verdict::Unique,
            Verdict::Unique,
            Verdict::Unknown,
            Verdict::Unique,
            Verdict::Unique
        ]
    );
}

#[test]
fn a_hang_is_killed_at_the_deadline_and_reported() {
    let (code, _, report) = compare_with_fault("hang", "hang", None);
    assert_eq!(code, 1);
    let (kind, place, detail, _) = one_problem(&report);
    assert_eq!(
        (kind, place.as_str()),
        (ProblemKind::SolverFailed, "puzzles.txt:3")
    );
    assert_eq!(
        detail,
        "bad did not answer within its budget of 1s and a grace of 600ms (killed; the next \
         puzzle starts it again); its standard error was empty"
    );
    let row = report
        .rows
        .iter()
        .find(|row| row.strategy == "bad" && row.puzzle == 2)
        .unwrap();
    assert_eq!(row.verdict, Verdict::Unknown);
    assert_eq!(row.stopped, Some(sudolab::strategy::Stop::Deadline));
    let answered = report
        .rows
        .iter()
        .filter(|row| row.strategy == "bad" && row.verdict == Verdict::Unique)
        .count();
    assert_eq!(answered, 4);
}

#[test]
fn bad_external_specifications_are_refused_before_anything_runs() {
    let cases: [(&str, &str); 4] = [
        (
            "fast=./x",
            "external solver name 'fast' is a built-in strategy's; choose another",
        ),
        (
            "my solver=./x",
            "external solver name 'my solver': expected 1 to 40 letters",
        ),
        (
            "mine",
            "expected NAME=COMMAND (such as mine=./solver), found 'mine'",
        ),
        ("mine=", "external solver 'mine': the command is empty"),
    ];
    for (spec, message) in cases {
        let run = sudolab(
            &["compare", "--external", spec, "corpora/reference.txt"],
            "",
        );
        assert_eq!(run.code, 2, "{spec}");
        assert!(run.stderr.contains(message), "{spec}: {}", run.stderr);
    }
    let run = sudolab(
        &[
            "compare",
            "--external",
            "a=true",
            "--external",
            "a=false",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--external: the name 'a' is given twice; each outside solver needs its own"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_malformed_or_over_long_answer_is_the_programs_failure() {
    let dir = scratch("external-malformed");
    let corpus = path(&dir, "one.txt");
    std::fs::write(&corpus, format!("{}\n", crate::cli::BOARD_A)).unwrap();
    let cases = [
        (
            "echo-maybe=while read l; do echo maybe; done",
            "echo-maybe gave a malformed answer 'maybe': expected none, unique, solved, multiple \
             or unknown, found 'maybe'",
        ),
        (
            "flood=head -c 100000 /dev/zero | tr '\\0' x; echo",
            "flood wrote an answer line longer than 16384 bytes (cut off)",
        ),
    ];
    for (spec, expected) in cases {
        let report = path(&dir, "r.json");
        let run = sudolab(
            &[
                "compare",
                "-s",
                "fast",
                "--external",
                spec,
                "-r",
                &report,
                &corpus,
            ],
            "",
        );
        assert_eq!(run.code, 1, "{spec}: {}", run.stderr);
        let report = read_report(&report);
        let (kind, place, detail, _) = one_problem(&report);
        assert_eq!(
            (kind, place.as_str()),
            (ProblemKind::SolverFailed, "one.txt:1")
        );
        assert!(detail.starts_with(expected), "{detail}");
    }
}

#[test]
fn an_experiment_file_names_outside_solvers_and_runs_them_only_when_allowed() {
    let dir = scratch("external-experiment");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/reference.txt");
    let file = path(&dir, "mine.toml");
    let text = format!(
        "strategies = [\"fast\"]\n\n[[corpus]]\npath = {:?}\n\n[[external]]\nname = \"py\"\n\
         command = [\"python3\", {:?}]\n",
        corpus.display().to_string(),
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/external/solver.py")
            .display()
            .to_string()
    );
    std::fs::write(&file, &text).unwrap();
    let out = path(&dir, "results");
    let refused = sudolab(&["run", &file, "--out", &out], "");
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("the file runs outside programs ([[external]]: py = [\"python3\", "),
        "{}",
        refused.stderr
    );
    assert!(!Path::new(&out).exists());
    let run = sudolab(&["run", &file, "--out", &out, "--allow-external"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = read_report(&path(Path::new(&out), "report.json"));
    let names: Vec<&str> = report
        .rows
        .iter()
        .map(|row| row.strategy.as_str())
        .collect();
    assert_eq!(names, ["fast", "py", "fast", "py"]);
    assert!(report.rows.iter().all(|row| row.verdict == Verdict::Unique));

    // A built-in name is refused where it is written.
    std::fs::write(&file, text.replace("name = \"py\"", "name = \"sat\"")).unwrap();
    let bad = sudolab(&["run", &file, "--out", &out], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr
            .contains("mine.toml: line 7, column 8: external solver name 'sat' is a built-in"),
        "{}",
        bad.stderr
    );
}
