//! Outside solvers everywhere a built-in strategy goes: as verifiers (`verify --external`,
//! `generate --external`), in merged shards, refused by `trace` with its reason, under resource
//! limits (`--external-memory`, `--external-cpu`), and the MiniZinc model (`export mzn`).

use std::path::Path;

use sudolab::check::ProblemKind;
use sudolab::strategy::{Counter, Verdict};

use crate::cli::sudolab;
use crate::compare::{path, read_report, scratch, verdicts_of};
use crate::external::{FAULTY, puzzles_with_solutions};

const PY_EXAMPLE: &str = "py=python3 examples/external/solver.py";

/// Five puzzles of the bundled 9x9 corpus without their solutions in `dir/puzzles.txt`, a table
/// of their solutions for [`FAULTY`] in `dir/table.txt` and the script; gives the corpus's
/// path and the `--external` spec of `FAULTY` doing `fault` on the third puzzle.
fn faulty_setup(dir: &Path, fault: &str) -> (String, String) {
    let mut puzzles = puzzles_with_solutions("corpora/generated/9x9-rot180.txt");
    puzzles.truncate(5);
    let corpus = path(dir, "puzzles.txt");
    let bare: Vec<&str> = puzzles.iter().map(|(puzzle, _)| puzzle.as_str()).collect();
    std::fs::write(&corpus, bare.join("\n") + "\n").unwrap();
    let table = path(dir, "table.txt");
    let lines: Vec<String> = puzzles.iter().map(|(p, s)| format!("{p} {s}")).collect();
    std::fs::write(&table, lines.join("\n") + "\n").unwrap();
    let script = path(dir, "faulty.py");
    std::fs::write(&script, FAULTY).unwrap();
    let spec = format!("bad=python3 {script} {table} {fault} {}", puzzles[2].0);
    (corpus, spec)
}

#[test]
fn an_outside_solver_verifies_the_bundled_corpus_beside_auto_and_in_the_named_order() {
    let files = [
        "corpora/reference.txt",
        "corpora/generated/4x4.txt",
        "corpora/generated/6x6.txt",
        "corpora/generated/9x9-rot180.txt",
    ];
    let mut args = vec!["verify", "--external", PY_EXAMPLE, "-j", "2"];
    args.extend(files);
    let run = sudolab(&args, "");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 62, "{}", run.stdout);
    for line in &lines {
        assert!(
            line.ends_with("\tverified\tunique by fast, dlx-knuth, sat, py"),
            "{line}"
        );
    }
    assert!(
        run.stderr.ends_with("sudolab: 62 verified, 0 failed\n"),
        "{}",
        run.stderr
    );

    // Named in --strategies, it takes its place there; with one built-in it makes the two.
    let run = sudolab(
        &[
            "verify",
            "-s",
            "py,sat",
            "--external",
            PY_EXAMPLE,
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "corpora/reference.txt:3\tverified\tunique by py, sat\n\
         corpora/reference.txt:4\tverified\tunique by py, sat\n"
    );
    // Alone it is one method, not two.
    let run = sudolab(
        &[
            "verify",
            "-s",
            "py",
            "--external",
            PY_EXAMPLE,
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: verify needs at least two different strategies, so that each answer is \
         re-proven by another method (given: py); the default is auto\n"
    );
}

#[test]
fn a_wrong_outside_verifier_fails_the_puzzle_on_its_line() {
    let dir = scratch("outside-verify-wrong");
    for (fault, problem) in [
        (
            "none",
            "fast says unique (1); sat says unique (1); bad says none (0); no solution: bad \
             says none",
        ),
        ("wrong-digit", "bad returned an invalid grid: "),
    ] {
        let (corpus, spec) = faulty_setup(&dir, fault);
        let run = sudolab(
            &[
                "verify",
                "-s",
                "fast,sat",
                "--external",
                &spec,
                "-j",
                "1",
                &corpus,
            ],
            "",
        );
        assert_eq!(run.code, 1, "{fault}: {}", run.stderr);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert_eq!(lines.len(), 5, "{}", run.stdout);
        for (at, line) in lines.iter().enumerate() {
            let key = format!("{corpus}:{}", at + 1);
            if at == 2 {
                let failed = format!("{key}\tFAILED\t{problem}");
                assert!(line.starts_with(&failed), "{fault}: {line}");
            } else {
                assert_eq!(
                    *line,
                    format!("{key}\tverified\tunique by fast, sat, bad"),
                    "{fault}"
                );
            }
        }
        assert!(
            run.stderr.ends_with("sudolab: 4 verified, 1 failed\n"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn generate_verifies_with_an_outside_solver_too() {
    let run = sudolab(
        &[
            "generate",
            "--box",
            "2x2",
            "-c",
            "3",
            "--seed",
            "7",
            "--verify",
            "sat",
            "--external",
            PY_EXAMPLE,
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(document["verify"], serde_json::json!(["sat", "py"]));
    // A verifier that answers every puzzle 'none' fails every one: reported, left unwritten,
    // exit 1.
    let liar = "liar=while read l; do case $l in sudolab*) ;; *) echo none;; esac; done";
    let run = sudolab(
        &[
            "generate",
            "--box",
            "2x2",
            "-c",
            "1",
            "--seed",
            "7",
            "--verify",
            "sat",
            "--external",
            liar,
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains(
            "sudolab: puzzle 0 of seed 7: sat says unique (1); liar says none (0)\n  puzzle: "
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn merged_shards_keep_an_outside_solvers_rows_and_counters() {
    let dir = scratch("outside-shards");
    let corpus = "corpora/generated/6x6.txt";
    let common = ["compare", "-s", "fast", "--external", PY_EXAMPLE, corpus];
    let run = |extra: &[&str]| {
        let mut all = common.to_vec();
        all.extend_from_slice(extra);
        let run = sudolab(&all, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
    };
    let whole = path(&dir, "whole.json");
    let shards = [path(&dir, "s1.json"), path(&dir, "s2.json")];
    run(&["-r", &whole]);
    run(&["--shard", "1/2", "-r", &shards[0]]);
    run(&["--shard", "2/2", "-r", &shards[1]]);
    let merged = path(&dir, "merged.json");
    let merge = sudolab(&["report", &shards[0], &shards[1], "-r", &merged], "");
    assert_eq!(merge.code, 0, "{}", merge.stderr);
    let (whole, merged) = (read_report(&whole), read_report(&merged));
    assert_eq!(read_report(&shards[0]).puzzles, 10);
    assert_eq!(merged.puzzles, 20);
    // The outside solver's rows, with their counters (time_ns aside, a clock), as in one run.
    let rows = |report: &sudolab::report::Report| -> Vec<(u64, String, Verdict, Option<u64>)> {
        report
            .rows
            .iter()
            .map(|row| {
                (
                    row.puzzle,
                    row.strategy.clone(),
                    row.verdict,
                    row.counters.get(Counter::Nodes),
                )
            })
            .collect()
    };
    assert_eq!(rows(&merged), rows(&whole));
    let py: Vec<_> = merged
        .rows
        .iter()
        .filter(|row| row.strategy == "py")
        .collect();
    assert_eq!(py.len(), 20);
    assert!(py.iter().all(|row| {
        row.verdict == Verdict::Unique
            && row
                .counters
                .get(Counter::Nodes)
                .is_some_and(|nodes| nodes >= 1)
            && row.counters.get(Counter::TimeNs).is_some()
    }));
    let summary = |report: &sudolab::report::Report| {
        let py = report
            .summary
            .iter()
            .find(|summary| summary.strategy == "py")
            .expect("py's summary");
        (py.runs, py.unique, py.unknown, py.decided)
    };
    assert_eq!(summary(&merged), (20, 20, 0, 20));
    assert_eq!(summary(&merged), summary(&whole));
}

#[test]
fn trace_refuses_an_outside_solver_with_its_reason() {
    let run = sudolab(&["trace", "4..3.....1....2.", "--external", PY_EXAMPLE], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: py cannot be traced: it is an outside program, whose search sudolab \
             cannot see; the strategies that can: {}\n",
            sudolab::trace::traceable_names().join(", ")
        )
    );
    assert_eq!(run.stdout, "");
}

/// A solver answering from its table that exceeds a resource limit on the third puzzle.
const HUNGRY: &str = r#"
import sys
table = dict(line.split() for line in open(sys.argv[1]))
fault, target = sys.argv[2], sys.argv[3]
for line in sys.stdin:
    puzzle = line.strip()
    if puzzle.startswith("sudolab-external"):
        continue
    if puzzle == target:
        if fault == "memory":
            hoard = bytearray(1 << 30)
        else:
            while True:
                pass
    print("unique " + table[puzzle] + " nodes=1", flush=True)
"#;

/// `compare -s fast,sat` with [`HUNGRY`] under `limit` (the extra options) on five puzzles:
/// the exit code and the report.
fn compare_over_limit(fault: &str, limit: &[&str]) -> (i32, sudolab::report::Report) {
    let dir = scratch(&format!("outside-limit-{fault}"));
    let (corpus, _) = faulty_setup(&dir, fault);
    let script = path(&dir, "hungry.py");
    std::fs::write(&script, HUNGRY).unwrap();
    let table = path(&dir, "table.txt");
    let third = std::fs::read_to_string(&corpus)
        .unwrap()
        .lines()
        .nth(2)
        .unwrap()
        .to_string();
    let spec = format!("hungry=python3 {script} {table} {fault} {third}");
    let report = path(&dir, "r.json");
    let mut args = vec![
        "compare",
        "-s",
        "fast,sat",
        "--external",
        &spec,
        "--timeout",
        "60s",
        "-j",
        "1",
        "-r",
        &report,
    ];
    args.extend_from_slice(limit);
    args.push(&corpus);
    let run = sudolab(&args, "");
    let report = read_report(&report);
    assert_eq!(report.puzzles, 5, "{}", run.stderr);
    for engine in ["fast", "sat"] {
        let verdicts = verdicts_of(&report, engine);
        assert_eq!(verdicts, [Verdict::Unique; 5], "{engine}");
    }
    // Restarted after its death: the fourth and fifth puzzles are answered.
    let verdicts = verdicts_of(&report, "hungry");
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
    assert_eq!(report.problems.len(), 1, "{:#?}", report.problems);
    let problem = &report.problems[0];
    assert_eq!(problem.problem.kind, ProblemKind::SolverFailed);
    assert!(
        problem.source.ends_with("puzzles.txt:3"),
        "{}",
        problem.source
    );
    (run.code, report)
}

#[test]
fn a_solver_past_its_memory_limit_is_that_puzzles_failure_and_restarts() {
    let (code, report) = compare_over_limit("memory", &["--external-memory", "256M"]);
    assert_eq!(code, 1);
    let detail = &report.problems[0].problem.detail;
    assert!(
        detail.starts_with(
            "hungry exited (exit status: 1) without an answer, under its memory limit of \
             256 MiB (an allocation past it fails); its standard error ends: "
        ),
        "{detail}"
    );
    assert!(detail.ends_with("MemoryError"), "{detail}");
}

#[test]
fn a_solver_past_its_cpu_limit_is_that_puzzles_failure_and_restarts() {
    let (code, report) = compare_over_limit("cpu", &["--external-cpu", "1s"]);
    assert_eq!(code, 1);
    let detail = &report.problems[0].problem.detail;
    // The shell that runs the command reports the signal as its exit status, 128 + 24.
    assert!(
        detail.starts_with(
            "hungry exited (exit status: 152) without an answer: it reached its CPU time limit \
             of 1s; its standard error ends: "
        ),
        "{detail}"
    );
    assert!(detail.ends_with("CPU time limit exceeded"), "{detail}");
}

#[test]
fn limits_are_read_with_their_units_and_bad_ones_refused() {
    let cases = [
        (
            ["--external-memory", "512"],
            "expected a size such as 512M or 2G (a whole number and K, M or G: KiB, MiB, GiB), \
             found '512'",
        ),
        (
            ["--external-memory", "0M"],
            "a memory limit of 0M leaves nothing to run in; give at least 1M",
        ),
        (
            ["--external-cpu", "0s"],
            "a CPU time limit of zero leaves nothing to run; give at least 1s",
        ),
    ];
    for (option, message) in cases {
        let run = sudolab(
            &[
                "compare",
                "-s",
                "fast",
                option[0],
                option[1],
                "corpora/reference.txt",
            ],
            "",
        );
        assert_eq!(run.code, 2, "{option:?}");
        assert!(run.stderr.contains(message), "{option:?}: {}", run.stderr);
    }
    // In an experiment file, `memory` and `cpu` are read the same way, located at the value.
    let dir = scratch("outside-limit-file");
    let file = path(&dir, "mine.toml");
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = project.join("corpora/reference.txt").display().to_string();
    let solver = project
        .join("examples/external/solver.py")
        .display()
        .to_string();
    std::fs::write(
        &file,
        format!(
            "strategies = [\"fast\"]\n\n[[corpus]]\npath = {corpus:?}\n\n[[external]]\n\
             name = \"py\"\ncommand = [\"python3\", {solver:?}]\nmemory = \"lots\"\n"
        ),
    )
    .unwrap();
    let run = sudolab(
        &[
            "run",
            &file,
            "--out",
            &path(&dir, "out"),
            "--allow-external",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("mine.toml: line 9, column 10: memory: expected a size such as 512M or 2G"),
        "{}",
        run.stderr
    );
    std::fs::write(
        &file,
        format!(
            "strategies = [\"fast\"]\n\n[[corpus]]\npath = {corpus:?}\n\n[[external]]\n\
             name = \"py\"\ncommand = [\"python3\", {solver:?}]\nmemory = \"256M\"\n\
             cpu = \"20s\"\n"
        ),
    )
    .unwrap();
    let out = path(&dir, "out");
    let run = sudolab(&["run", &file, "--out", &out, "--allow-external"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = read_report(&path(Path::new(&out), "report.json"));
    let py = verdicts_of(&report, "py");
    assert_eq!(py, [Verdict::Unique, Verdict::Unique]);
}

#[test]
fn export_mzn_writes_the_model_and_refuses_variants() {
    let run = sudolab(&["export", "mzn", "4..3.....1....2."], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("% sudolab: a 4x4 puzzle (2x2 boxes), 4 givens, as a MiniZinc model\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(
        "array[1..n, 1..n] of 0..n: givens = [|\n  4, 0, 0, 3\n | 0, 0, 0, 0\n | 0, 1, 0, 0\n \
         | 0, 0, 2, 0\n|];\n"
    ));
    assert_eq!(run.stdout.matches("alldifferent(").count(), 3);
    let dir = scratch("outside-mzn");
    let out = path(&dir, "models");
    let run = sudolab(
        &[
            "export",
            "mzn",
            "corpora/generated/6x6.txt",
            "--out-dir",
            &out,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(written, 20);
    let first = std::fs::read_to_string(path(Path::new(&out), "6x6-00001.mzn")).unwrap();
    assert!(first.contains("int: n = 6;\nint: box_rows = 2;\nint: box_cols = 3;\n"));
    let run = sudolab(
        &[
            "export",
            "mzn",
            "--variant",
            "x",
            "corpora/reference.txt",
            "-p",
            "1",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "sudolab: corpora/reference.txt: line 3: no MiniZinc model for x puzzles: the model \
         expresses rows, columns and boxes only; export cnf encodes every rule\n"
    );
}
