//! DIMACS SAT solvers as outside strategies (`compare --external NAME=dimacs:COMMAND`), held to
//! the SAT competition's output by stand-in solvers written in `sh`: a correct one given the
//! CNF's path as its last argument, and faulty ones (garbage, no status line, a model that
//! breaks a given, a crash, a hang, an endless output), each one located problem while the
//! engines' results stay complete. Real solvers (picosat, CaDiCaL) run in the `outside_sat`
//! target, which needs them installed.

use std::fmt::Write as _;
use std::path::Path;

use sudolab::check::ProblemKind;
use sudolab::encode::{Cnf, Encoding};
use sudolab::model::Grid;
use sudolab::report::Report;
use sudolab::strategy::Verdict;

use crate::cli::sudolab;
use crate::compare::{path, read_report, scratch};

/// Board A of `corpora/reference.txt` and its unique solution.
const PUZZLE: &str =
    "030260701680070090190004500820100040004602900050003028009300074040050036703018000";
const SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

/// The SAT competition's answer for `solution` in `cnf`: every variable set, true where the
/// solution holds that digit, except the variables in `flipped`.
fn model(cnf: &Cnf, solution: &Grid, flipped: &[u32]) -> String {
    let mut text = "c a stand-in solver\ns SATISFIABLE\nv".to_string();
    for var in 1..=cnf.var_count() as u32 {
        let (cell, digit) = cnf.var_meaning(var).expect("no auxiliary variable in 9x9");
        let holds = (solution.get(cell) == digit) != flipped.contains(&var);
        let _ = write!(text, " {}{var}", if holds { "" } else { "-" });
    }
    text.push_str(" 0\n");
    text
}

/// Runs `compare -s fast,sat` and the stand-in solver `sh SCRIPT` (its text) as
/// `bad=dimacs-ENCODING:` on board A; gives the exit code, standard error and report.
fn compare_with(name: &str, encoding: &str, script: &str, extra: &[&str]) -> (i32, String, Report) {
    let dir = scratch(&format!("dimacs-{name}"));
    let corpus = path(&dir, "a.txt");
    std::fs::write(&corpus, format!("{PUZZLE} {SOLUTION}\n")).unwrap();
    let file = path(&dir, "solver.sh");
    std::fs::write(&file, script.replace("DIR", &dir.display().to_string())).unwrap();
    let report = path(&dir, "r.json");
    let external = format!("bad=dimacs-{encoding}:sh {file}");
    let mut args = vec![
        "compare",
        "-s",
        "fast,sat",
        "--external",
        &external,
        "-j",
        "1",
        "-r",
        &report,
    ];
    args.extend_from_slice(extra);
    args.push(&corpus);
    let run = sudolab(&args, "");
    let report = read_report(&report);
    // The engines' results are complete whatever the outside solver did.
    let verdicts: Vec<(&str, Verdict)> = report
        .rows
        .iter()
        .map(|row| (row.strategy.as_str(), row.verdict))
        .collect();
    assert_eq!(
        verdicts[..2],
        [("fast", Verdict::Unique), ("sat", Verdict::Unique)]
    );
    assert_eq!(verdicts.len(), 3);
    (run.code, run.stderr, report)
}

/// The one problem of a report, a `solver_failed` of `bad` on line 1 of `a.txt`: its detail.
fn one_failure(report: &Report) -> String {
    assert_eq!(report.problems.len(), 1, "{:#?}", report.problems);
    let problem = &report.problems[0];
    assert!(problem.source.ends_with("/a.txt:1"), "{}", problem.source);
    assert_eq!(problem.problem.kind, ProblemKind::SolverFailed);
    assert_eq!(problem.problem.strategies, ["bad"]);
    problem.problem.detail.clone()
}

fn verdict_of(report: &Report, name: &str) -> Verdict {
    report
        .rows
        .iter()
        .find(|row| row.strategy == name)
        .map(|row| row.verdict)
        .expect("a row")
}

#[test]
fn a_solver_given_the_cnf_path_is_asked_again_with_the_blocking_clause() {
    // The stand-in keeps each CNF it is given and answers the first call with the solution's
    // model, the second (one clause more: the blocking clause) unsatisfiable.
    let puzzle: Grid = PUZZLE.parse().unwrap();
    let solution: Grid = SOLUTION.parse().unwrap();
    let cnf = Cnf::build(&puzzle, Encoding::Reduced);
    let dir = scratch("dimacs-good-model");
    let model_file = path(&dir, "model.txt");
    std::fs::write(&model_file, model(&cnf, &solution, &[])).unwrap();
    let _ = std::fs::remove_file(path(&scratch("dimacs-good"), "call1.cnf"));
    let script = format!(
        "if [ -e DIR/call1.cnf ]; then cp \"$1\" DIR/call2.cnf; echo 's UNSATISFIABLE'; exit 20; \
         fi\ncp \"$1\" DIR/call1.cnf\ncat {model_file}\nexit 10\n"
    );
    let (code, stderr, report) = compare_with("good", "reduced", &script, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    assert_eq!(verdict_of(&report, "bad"), Verdict::Unique);

    // The files it was given: the reduced CNF, then the same with the blocking clause.
    let dir = scratch("dimacs-good");
    let first = std::fs::read_to_string(path(&dir, "call1.cnf")).unwrap();
    let second = std::fs::read_to_string(path(&dir, "call2.cnf")).unwrap();
    let clauses: Vec<String> = cnf
        .clauses()
        .map(|clause| {
            let literals: Vec<String> = clause.iter().map(i32::to_string).collect();
            format!("{} 0", literals.join(" "))
        })
        .collect();
    let header = |count: usize| format!("p cnf {} {count}", cnf.var_count());
    let expected_first = format!("{}\n{}\n", header(clauses.len()), clauses.join("\n"));
    assert_eq!(first, expected_first);
    let blocking: Vec<String> = cnf
        .blocking_clause(&solution)
        .iter()
        .map(i32::to_string)
        .collect();
    let blocking = blocking.join(" ") + " ";
    let expected_second = format!(
        "{}\n{}\n{blocking}0\n",
        header(clauses.len() + 1),
        clauses.join("\n")
    );
    assert_eq!(second, expected_second);
}

#[test]
fn garbage_output_is_the_solvers_failure_on_its_puzzle() {
    let (code, stderr, report) = compare_with(
        "garbage",
        "reduced",
        "echo 'all done, no idea'\necho 'the end' >&2\nexit 10\n",
        &[],
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        one_failure(&report),
        "bad output line 1: expected a comment ('c'), status ('s') or values ('v') line, found \
         'all done, no idea'; its standard error ends: the end"
    );
    assert_eq!(verdict_of(&report, "bad"), Verdict::Unknown);
}

#[test]
fn an_exit_without_a_status_line_is_the_solvers_failure() {
    let (code, stderr, report) =
        compare_with("silent", "reduced", "echo 'c thinking'\nexit 0\n", &[]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        one_failure(&report),
        "bad exited (exit status: 0) without an 's' line; its standard error was empty"
    );
}

#[test]
fn a_crash_is_the_solvers_failure_with_its_standard_error() {
    let (code, stderr, report) = compare_with(
        "crash",
        "reduced",
        "echo 'c parsing'\necho 'out of luck' >&2\nexit 3\n",
        &[],
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        one_failure(&report),
        "bad exited (exit status: 3) without an 's' line; its standard error ends: out of luck"
    );
}

#[test]
fn a_claimed_model_that_breaks_a_given_is_the_solvers_failure() {
    // In the minimal encoding the givens are unit clauses; the model is the solution's with
    // the given r1c2 = 3 made false. Decoded alone it would still be the solution (a grid
    // keeps its givens), so only holding the model to the clauses catches it.
    let puzzle: Grid = PUZZLE.parse().unwrap();
    let solution: Grid = SOLUTION.parse().unwrap();
    let cnf = Cnf::build(&puzzle, Encoding::Minimal);
    let given = cnf
        .var_of(1, 3)
        .expect("the minimal encoding has every variable");
    let dir = scratch("dimacs-given-model");
    let model_file = path(&dir, "model.txt");
    std::fs::write(&model_file, model(&cnf, &solution, &[given])).unwrap();
    let unit = cnf
        .clauses()
        .position(|clause| clause == [i32::try_from(given).unwrap()])
        .expect("the given's unit clause")
        + 1;
    let (code, stderr, report) = compare_with(
        "given",
        "minimal",
        &format!("cat {model_file}\nexit 10\n"),
        &[],
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        one_failure(&report),
        format!(
            "bad claimed SATISFIABLE with a model that makes clause {unit} false ('{given} 0', \
             the given r1c2 = 3); its standard error was empty"
        )
    );
}

#[test]
fn the_same_model_twice_breaks_the_blocking_clause() {
    let puzzle: Grid = PUZZLE.parse().unwrap();
    let solution: Grid = SOLUTION.parse().unwrap();
    let cnf = Cnf::build(&puzzle, Encoding::Extended);
    let dir = scratch("dimacs-twice-model");
    let model_file = path(&dir, "model.txt");
    std::fs::write(&model_file, model(&cnf, &solution, &[])).unwrap();
    let (code, stderr, report) = compare_with(
        "twice",
        "extended",
        &format!("cat {model_file}\nexit 10\n"),
        &[],
    );
    assert_eq!(code, 1, "{stderr}");
    let blocking = cnf.clause_count() + 1;
    let detail = one_failure(&report);
    assert!(
        detail.starts_with(&format!(
            "bad claimed SATISFIABLE with a model that makes clause {blocking} false ('"
        )) && detail.ends_with(
            "', the clause that blocks a solution it gave before); its standard error was empty"
        ),
        "{detail}"
    );
    // The first call's solution was certified and given; the search then failed.
    assert_eq!(verdict_of(&report, "bad"), Verdict::Unknown);
}

#[test]
fn a_hang_is_killed_at_the_deadline_and_reported() {
    let dir = scratch("dimacs-hang-pid");
    let pids = path(&dir, "pids");
    // The solver's child sleeps too: the kill must reach the whole process group.
    let script = format!("sleep 60 &\necho $! > {pids}\nwait\n");
    let (code, stderr, report) = compare_with("hang", "reduced", &script, &["--timeout", "1s"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        one_failure(&report),
        "bad did not answer within the search's budget of 1s (killed); its standard error was \
         empty"
    );
    let pid = std::fs::read_to_string(&pids).unwrap();
    let alive = Path::new("/proc").join(pid.trim()).join("stat");
    // A killed child not yet reaped by init is a zombie ('Z'), no longer running.
    let state = std::fs::read_to_string(&alive).unwrap_or_default();
    assert!(
        state.is_empty() || state.split_whitespace().nth(2) == Some("Z"),
        "the solver's child is still running: {state}"
    );
}

#[test]
fn an_endless_output_is_cut_off() {
    let (code, stderr, report) = compare_with(
        "endless",
        "reduced",
        "while :; do echo 'c and on and on and on and on and on and on and on'; done\n",
        &["--timeout", "60s"],
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        one_failure(&report),
        format!(
            "bad wrote more than {} bytes on its standard output (cut off); its standard error \
             was empty",
            sudolab::strategy::MAX_DIMACS_OUTPUT_BYTES
        )
    );
}

#[test]
fn unknown_is_no_verdict_and_no_problem() {
    let (code, stderr, report) =
        compare_with("unknown", "reduced", "echo 's UNKNOWN'\nexit 0\n", &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    assert_eq!(verdict_of(&report, "bad"), Verdict::Unknown);
}

#[test]
fn bad_dimacs_specifications_are_refused_before_anything_runs() {
    let refused = sudolab(
        &[
            "compare",
            "--external",
            "mine=dimacs-tiny:picosat",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains(
            "external solver 'mine': unknown encoding 'tiny' (expected minimal, extended or \
             reduced)"
        ),
        "{}",
        refused.stderr
    );
    let empty = sudolab(
        &[
            "compare",
            "--external",
            "mine=dimacs: ",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(empty.code, 2);
    assert!(
        empty
            .stderr
            .contains("external solver 'mine': the command is empty"),
        "{}",
        empty.stderr
    );
}

#[test]
fn an_experiment_file_runs_a_dimacs_solver_and_locates_a_bad_protocol() {
    let dir = scratch("dimacs-experiment");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/reference.txt");
    let file = path(&dir, "sat.toml");
    // A stand-in that says unknown: the file's solver runs, given a CNF path that exists.
    let script = path(&dir, "unknown.sh");
    std::fs::write(&script, "test -f \"$1\" || exit 5\necho 's UNKNOWN'\n").unwrap();
    let text = format!(
        "strategies = [\"fast\"]\n\n[[corpus]]\npath = {:?}\n\n[[external]]\nname = \"stand-in\"\n\
         command = [\"sh\", {script:?}]\nprotocol = \"dimacs\"\nencoding = \"minimal\"\n",
        corpus.display().to_string(),
    );
    std::fs::write(&file, &text).unwrap();
    let out = path(&dir, "results");
    let run = sudolab(&["run", &file, "--out", &out, "--allow-external"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = read_report(&path(Path::new(&out), "report.json"));
    let rows: Vec<(&str, Verdict)> = report
        .rows
        .iter()
        .map(|row| (row.strategy.as_str(), row.verdict))
        .collect();
    assert_eq!(
        rows,
        [
            ("fast", Verdict::Unique),
            ("stand-in", Verdict::Unknown),
            ("fast", Verdict::Unique),
            ("stand-in", Verdict::Unknown)
        ]
    );
    assert!(report.problems.is_empty(), "{:#?}", report.problems);

    std::fs::write(&file, text.replace("\"dimacs\"", "\"ipasir\"")).unwrap();
    let bad = sudolab(&["run", &file, "--out", &out], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains(
            "sat.toml: line 9, column 12: external solver 'stand-in': unknown protocol 'ipasir' \
             (expected line or dimacs)"
        ),
        "{}",
        bad.stderr
    );
    std::fs::write(
        &file,
        text.replace("protocol = \"dimacs\"\n", "protocol = \"line\"\n"),
    )
    .unwrap();
    let bad = sudolab(&["run", &file, "--out", &out], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains(
            "sat.toml: line 10, column 12: external solver 'stand-in': an encoding is for \
             protocol = \"dimacs\""
        ),
        "{}",
        bad.stderr
    );
}
