//! An outside check: a SAT solver that is not sudolab's (Debian's `picosat` by default, or the
//! program named by `SUDOLAB_SAT_SOLVER`, which must accept picosat's `--all`) solves the CNF
//! that `sudolab export cnf` writes for every bundled case, in every encoding. Its verdict and
//! solution count must match the case file, and its model, decoded by `sudolab decode`, must be
//! the solution every sudolab engine finds.
//!
//! Built only with `--features outside-sat` (CI installs picosat and runs it); a missing solver
//! is a failure, never a skip.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde::Deserialize;

#[derive(Deserialize)]
struct CaseFile {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    #[serde(rename = "box")]
    box_shape: Option<String>,
    puzzle: String,
    verdict: String,
    solution: Option<String>,
    count: Option<u64>,
    /// Variant rules by name (`--variant`).
    variant: Option<String>,
    /// Variant rules in full, as the JSON form writes them.
    rules: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Case {
    /// The puzzle as sudolab reads it on standard input, and the reading arguments: the line
    /// form (with `--box` or `--variant`), or a JSON object carrying the rules.
    fn input(&self) -> (String, Vec<String>) {
        let puzzle: String = self.puzzle.split_whitespace().collect();
        if let Some(rules) = &self.rules {
            let mut object = rules.clone();
            if let Some(names) = &self.variant {
                // Named rules join the written ones: a JSON puzzle keeps its own rules.
                let named = names
                    .parse::<sudolab::model::Features>()
                    .expect("variant names")
                    .spec();
                if let Ok(serde_json::Value::Object(named)) = serde_json::to_value(named) {
                    object.extend(named);
                }
            }
            object.insert("cells".into(), serde_json::Value::String(puzzle));
            return (serde_json::Value::Object(object).to_string(), Vec::new());
        }
        let mut args = Vec::new();
        if let Some(shape) = &self.box_shape {
            args.extend(["--box".to_string(), shape.clone()]);
        }
        if let Some(names) = &self.variant {
            args.extend(["--variant".to_string(), names.clone()]);
        }
        (format!("{puzzle}\n"), args)
    }
}

fn solver() -> String {
    std::env::var("SUDOLAB_SAT_SOLVER").unwrap_or_else(|_| "picosat".to_string())
}

/// Runs a program with `stdin`, returning its exit code and standard output.
fn run(program: &str, args: &[&str], stdin: &str) -> (i32, String) {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| {
            panic!(
                "cannot run '{program}': {err}; install Debian's picosat (apt-get install picosat) or set SUDOLAB_SAT_SOLVER"
            )
        });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn sudolab(args: &[&str], stdin: &str) -> (i32, String) {
    run(env!("CARGO_BIN_EXE_sudolab"), args, stdin)
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|file| {
            let parsed: CaseFile = toml::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
            parsed.case
        })
        .collect()
}

/// The case's puzzle as sudolab's reader makes it, rules included.
fn read_case(input: &str, read_args: &[String]) -> sudolab::model::Grid {
    let shape = read_args
        .iter()
        .position(|arg| arg == "--box")
        .map(|at| read_args[at + 1].parse().expect("a box"));
    let spec = read_args
        .iter()
        .position(|arg| arg == "--variant")
        .map(|at| {
            read_args[at + 1]
                .parse::<sudolab::model::Features>()
                .expect("variant names")
                .spec()
        });
    let reader =
        sudolab::corpus::Reader::new(input.as_bytes(), sudolab::corpus::Format::Auto, shape)
            .with_variant(spec);
    reader
        .into_iter()
        .next()
        .expect("one puzzle")
        .expect("a valid case")
        .puzzle
}

#[test]
fn an_outside_solver_agrees_on_every_bundled_case() {
    let solver = solver();
    let temp = std::env::temp_dir().join(format!("sudolab-outside-{}", std::process::id()));
    std::fs::create_dir_all(&temp).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases() {
        let (input, read_args) = case.input();
        let box_args: Vec<&str> = read_args.iter().map(String::as_str).collect();
        let expected_count = case.count.unwrap_or_else(|| match case.verdict.as_str() {
            "none" => 0,
            "unique" => 1,
            other => panic!("{}: give an exact count for verdict {other}", case.name),
        });
        for encoding in ["minimal", "extended", "reduced"] {
            let label = format!("{} ({encoding})", case.name);
            let mut args = vec!["export", "cnf", "--encoding", encoding];
            args.extend(&box_args);
            let (code, cnf) = sudolab(&args, &input);
            assert_eq!(code, 0, "{label}: export failed");
            let cnf_path = temp.join("puzzle.cnf");
            std::fs::write(&cnf_path, &cnf).unwrap();

            // Every model enumerated: the count must match.
            let (_, all) = run(&solver, &["--all", cnf_path.to_str().unwrap()], "");
            let counted = all
                .lines()
                .find_map(|line| line.strip_prefix("s SOLUTIONS "))
                .and_then(|count| count.trim().parse::<u64>().ok());
            if counted != Some(expected_count) {
                failures.push(format!(
                    "{label}: {solver} counts {counted:?}, expected {expected_count}"
                ));
            }

            // One model, decoded by sudolab, must be the known solution (or absent).
            let (code, model) = run(&solver, &[cnf_path.to_str().unwrap()], "");
            let model_path = temp.join("puzzle.model");
            std::fs::write(&model_path, &model).unwrap();
            let satisfiable = code == 10;
            if satisfiable != (expected_count > 0) {
                failures.push(format!("{label}: {solver} exit code {code}"));
                continue;
            }
            let (decode_code, decoded) = sudolab(
                &[
                    "decode",
                    cnf_path.to_str().unwrap(),
                    model_path.to_str().unwrap(),
                ],
                "",
            );
            if satisfiable {
                if decode_code != 0 {
                    failures.push(format!("{label}: decode failed"));
                }
                if let (Some(solution), 1) = (&case.solution, expected_count) {
                    let solution: String = solution.split_whitespace().collect();
                    let solution = solution.replace('0', ".");
                    if decoded.trim() != solution {
                        failures.push(format!("{label}: decoded {decoded:?}, expected {solution}"));
                    }
                }
                // Every sudolab engine that takes the shape finds the same grid first when unique.
                if expected_count == 1 {
                    let grid = read_case(&input, &read_args);
                    for engine in sudolab::strategy::registry() {
                        if engine.accepts(&grid).is_err() {
                            continue;
                        }
                        let strategy = engine.name();
                        let mut args = vec!["solve", "--strategy", strategy];
                        args.extend(&box_args);
                        let (_, ours) = sudolab(&args, &input);
                        if ours.trim() != decoded.trim() {
                            failures.push(format!(
                                "{label}: {strategy} solved {ours:?}, {solver} {decoded:?}"
                            ));
                        }
                    }
                }
            } else if decode_code != 1 {
                failures.push(format!(
                    "{label}: decode of an unsatisfiable model exited {decode_code}"
                ));
            }
            checked += 1;
        }
    }
    std::fs::remove_dir_all(&temp).unwrap();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 60, "only {checked} formulas checked");
    eprintln!("{solver} agreed with sudolab on {checked} formulas");
}

/// The second outside SAT solver, Debian's CaDiCaL (`cadical`, or `$SUDOLAB_SAT_SOLVER2`),
/// which writes the SAT competition's output to a file it is given, as picosat does.
fn second_solver() -> String {
    std::env::var("SUDOLAB_SAT_SOLVER2").unwrap_or_else(|_| "cadical".to_string())
}

/// `sudolab compare -s sat` with `solvers` (name, program) as `dimacs:` strategies on `files`,
/// each search within `timeout`; gives the JSON report (`tag` names its file) after checking
/// that the run succeeded.
fn compare_dimacs(
    tag: &str,
    solvers: &[(&str, String)],
    timeout: &str,
    files: &[&str],
) -> sudolab::report::Report {
    for (_, program) in solvers {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        assert!(
            found,
            "the SAT solver '{program}' is not installed; install Debian's picosat and cadical \
             (apt-get install picosat cadical) or set SUDOLAB_SAT_SOLVER / SUDOLAB_SAT_SOLVER2"
        );
    }
    let report = std::env::temp_dir().join(format!(
        "sudolab-outside-dimacs-{tag}-{}.json",
        std::process::id()
    ));
    let report_arg = report.display().to_string();
    let externals: Vec<String> = solvers
        .iter()
        .map(|(name, program)| format!("{name}=dimacs:{program}"))
        .collect();
    let mut args = vec![
        "compare",
        "-s",
        "sat",
        "--timeout",
        timeout,
        "-r",
        &report_arg,
    ];
    for external in &externals {
        args.extend(["--external", external.as_str()]);
    }
    args.extend_from_slice(files);
    let output = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&report).unwrap();
    let _ = std::fs::remove_file(&report);
    sudolab::report::json::read(&text).unwrap()
}

/// Every outside solver decides every puzzle, with `sat`'s verdict and solution count where
/// `sat` decided within its work budget, and with no problem: every solution given was
/// certified and cross-checked, against the corpus's known solutions too.
fn assert_agree_with_sat(report: &sudolab::report::Report, names: &[&str], puzzles: u64) {
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    assert_eq!(report.puzzles, puzzles);
    let sat: Vec<_> = report
        .rows
        .iter()
        .filter(|row| row.strategy == "sat")
        .collect();
    assert_eq!(sat.len() as u64, puzzles);
    for name in names {
        let rows: Vec<_> = report
            .rows
            .iter()
            .filter(|row| row.strategy == *name)
            .collect();
        assert_eq!(rows.len(), sat.len(), "{name}");
        for (row, sat) in rows.iter().zip(&sat) {
            assert_eq!(row.puzzle, sat.puzzle);
            assert_ne!(
                row.verdict,
                sudolab::strategy::Verdict::Unknown,
                "{name} at {}",
                row.source
            );
            if sat.verdict != sudolab::strategy::Verdict::Unknown {
                assert_eq!(
                    (row.verdict, row.solutions),
                    (sat.verdict, sat.solutions),
                    "{name} at {}",
                    row.source
                );
            }
        }
    }
}

#[test]
fn dimacs_solvers_agree_with_sat_on_the_bundled_9x9_and_16x16_corpora() {
    let solvers = [("picosat", solver()), ("cadical", second_solver())];
    let files = [
        "corpora/reference.txt",
        "corpora/generated/9x9-minimal.txt",
        "corpora/generated/9x9-rot180.txt",
        "corpora/minimal-16x16.txt",
    ];
    let report = compare_dimacs("bundled", &solvers, "5m", &files);
    assert_agree_with_sat(&report, &["picosat", "cadical"], 132);
}

/// The bundled 25x25 puzzles with CaDiCaL: picosat takes minutes on some of them (its
/// figures are in docs/benchmarks.md), so it runs on the 9x9 and 16x16 sets only.
#[test]
fn cadical_agrees_with_sat_on_the_bundled_25x25_corpus() {
    let report = compare_dimacs(
        "25x25",
        &[("cadical", second_solver())],
        "10m",
        &["corpora/minimal-25x25.txt"],
    );
    assert_agree_with_sat(&report, &["cadical"], 4);
}

/// The public corpora (`../shared/corpora` or `$SUDOLAB_PUBLIC_CORPORA`); missing ones fail.
fn public_corpus(file: &str) -> String {
    let dir = std::env::var_os("SUDOLAB_PUBLIC_CORPORA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
        std::path::PathBuf::from,
    );
    let path = dir.join(file);
    assert!(
        path.is_file(),
        "the public corpora are missing: expected {}; set SUDOLAB_PUBLIC_CORPORA",
        path.display()
    );
    path.display().to_string()
}

#[test]
fn dimacs_solvers_agree_with_sat_on_1000_public_9x9_puzzles() {
    let corpus = public_corpus("tdoku/puzzles1_unbiased_first1000.txt");
    let solvers = [("picosat", solver()), ("cadical", second_solver())];
    let report = compare_dimacs("public", &solvers, "5m", &[&corpus]);
    assert_agree_with_sat(&report, &["picosat", "cadical"], 1000);
}

/// MiniZinc (Debian's `minizinc`, with Gecode) solves the model `sudolab export mzn` writes of
/// every puzzle of the bundled 9x9 corpora, for all solutions: exactly one, `fast`'s.
#[test]
fn minizinc_solves_the_exported_models_of_the_bundled_9x9_corpus_as_fast_does() {
    use sudolab::strategy::{Limits, Strategy};
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("sudolab-mzn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("puzzle.mzn");
    let model = model.to_str().unwrap();
    let mut solved = 0;
    for file in ["corpora/reference.txt", "corpora/generated/9x9-minimal.txt"] {
        let text = std::fs::read_to_string(project.join(file)).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let puzzle = line.split_whitespace().next().unwrap();
            let (code, exported) = sudolab(&["export", "mzn"], &format!("{puzzle}\n"));
            assert_eq!(code, 0, "{puzzle}");
            std::fs::write(model, &exported).unwrap();
            let output = Command::new("minizinc")
                .args(["--solver", "gecode", "--all-solutions", model])
                .output()
                .unwrap_or_else(|err| {
                    panic!("cannot run 'minizinc': {err}; install Debian's minizinc")
                });
            assert!(output.status.success(), "{puzzle}: {output:?}");
            let stdout = String::from_utf8(output.stdout).unwrap();
            // Each solution, then '----------'; '==========' once the search is complete.
            assert!(
                stdout.trim_end().ends_with("=========="),
                "{puzzle}: {stdout}"
            );
            let solutions: Vec<String> = stdout
                .split("----------")
                .filter(|block| !block.trim().is_empty() && !block.contains("=========="))
                .map(|block| {
                    block
                        .split_whitespace()
                        .map(|value| {
                            let value: u32 = value.parse().expect("a cell value");
                            char::from_digit(value, 10).expect("a digit of a 9x9 board")
                        })
                        .collect()
                })
                .collect();
            let grid: sudolab::model::Grid = puzzle.parse().expect("a line-form puzzle");
            let mut fast = Vec::new();
            sudolab::strategy::Fast.search(&grid, &Limits::solutions(2), &mut |solution| {
                fast.push(sudolab::model::to_line(solution).expect("a 9x9 line"));
            });
            assert_eq!(fast.len(), 1, "{puzzle}");
            assert_eq!(solutions, fast, "{puzzle}");
            solved += 1;
        }
    }
    assert_eq!(solved, 102);
    let _ = std::fs::remove_dir_all(&dir);
}
