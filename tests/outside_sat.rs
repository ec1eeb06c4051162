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
