//! Provenance that identifies the build, the data and the machine: the git tree's state, the
//! SHA-256 of every input and side file, the build and the machine in a report's context, and
//! the warning when the machine's load left too few cores free.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use sudolab::experiment::provenance::{file_sha256, load_warning, tree_state};

use crate::cli::{BOARD_A, BOARD_A_SOLUTION, LOAD_WARNING};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("sudolab-provenance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs git in `dir` with a fixed identity; panics on failure.
fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

/// What `sha256sum` says of `path`, as `sha256:HEX`.
fn sha256sum(path: &Path) -> String {
    let output = Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    format!("sha256:{}", text.split_whitespace().next().unwrap())
}

fn is_sha256(hash: &str) -> bool {
    hash.strip_prefix("sha256:")
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[test]
fn a_modified_tracked_file_makes_the_tree_dirty_with_a_hash() {
    let repo = scratch("repo");
    git(&repo, &["init", "-q"]);
    std::fs::create_dir_all(repo.join("crate/src")).unwrap();
    std::fs::write(repo.join("crate/build.rs"), "fn main() {}\n").unwrap();
    std::fs::write(repo.join("crate/src/lib.rs"), "pub fn f() {}\n").unwrap();
    std::fs::write(repo.join(".gitignore"), "target/\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    let head = git(&repo, &["rev-parse", "--short=12", "HEAD"]);
    let krate = repo.join("crate");

    let clean = tree_state(&krate, "build.rs").expect("a repository");
    assert_eq!(clean.commit, head);
    assert!(!clean.dirty);
    assert_eq!(clean.diff_hash, None);

    // An ignored file changes nothing.
    std::fs::create_dir_all(repo.join("target")).unwrap();
    std::fs::write(repo.join("target/out"), "built").unwrap();
    assert_eq!(tree_state(&krate, "build.rs"), Some(clean.clone()));

    // A modified tracked file, not staged, anywhere in the repository.
    std::fs::write(repo.join("crate/src/lib.rs"), "pub fn f() { g() }\n").unwrap();
    let dirty = tree_state(&krate, "build.rs").unwrap();
    assert_eq!(dirty.commit, head);
    assert!(dirty.dirty);
    let first = dirty.diff_hash.expect("a dirty tree has a hash");
    assert!(is_sha256(&first), "{first}");
    // The hash follows the content: another edit, another hash; the same edit, the same.
    std::fs::write(repo.join("crate/src/lib.rs"), "pub fn f() { h() }\n").unwrap();
    let second = tree_state(&krate, "build.rs").unwrap().diff_hash.unwrap();
    assert_ne!(first, second);
    std::fs::write(repo.join("crate/src/lib.rs"), "pub fn f() { g() }\n").unwrap();
    assert_eq!(
        tree_state(&krate, "build.rs").unwrap().diff_hash.unwrap(),
        first
    );
    // Staged is still dirty, with the same hash (the content decides, not the index).
    git(&repo, &["add", "crate/src/lib.rs"]);
    assert_eq!(
        tree_state(&krate, "build.rs").unwrap().diff_hash.unwrap(),
        first
    );

    // Committed: clean again, at the new commit.
    git(&repo, &["commit", "-q", "-m", "second"]);
    let after = tree_state(&krate, "build.rs").unwrap();
    assert!(!after.dirty);
    assert_ne!(after.commit, head);

    // An untracked file that is not ignored counts, from any directory of the repository.
    std::fs::write(repo.join("notes.rs"), "mod x;").unwrap();
    let untracked = tree_state(&krate, "build.rs").unwrap();
    assert!(untracked.dirty);
    assert!(is_sha256(untracked.diff_hash.as_deref().unwrap()));
    std::fs::remove_file(repo.join("notes.rs")).unwrap();

    // A deleted tracked file.
    std::fs::remove_file(repo.join("crate/src/lib.rs")).unwrap();
    assert!(tree_state(&krate, "build.rs").unwrap().dirty);

    // A crate whose anchor file the repository does not track is not its build; outside any
    // repository there is no state (what a crates.io or tarball build records: null).
    assert_eq!(tree_state(&krate, "absent.rs"), None);
    let outside = scratch("no-repo");
    std::fs::write(outside.join("build.rs"), "").unwrap();
    // (Were the temporary directory inside some repository, the anchor check answers: the
    // file is not tracked there.)
    assert_eq!(tree_state(&outside, "build.rs"), None);
    let _ = std::fs::remove_dir_all(&repo);
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn the_sha256_of_a_file_is_what_sha256sum_says() {
    let dir = scratch("sha");
    let path = dir.join("small.txt");
    std::fs::write(&path, format!("{BOARD_A}\n")).unwrap();
    assert_eq!(file_sha256(&path), Some(sha256sum(&path)));
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    assert_eq!(file_sha256(&empty), Some(sha256sum(&empty)));
    // What is not a regular file has no hash.
    assert_eq!(file_sha256(&dir), None);
    assert_eq!(file_sha256(&dir.join("missing")), None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_load_warning_names_the_load_the_cores_and_the_jobs() {
    // Within the free cores, at both ends: no warning.
    assert_eq!(load_warning(Some(0.5), Some(1.5), 2, 1), None);
    assert_eq!(load_warning(Some(1.0), Some(2.0), 2, 1), None);
    assert_eq!(load_warning(None, None, 2, 1), None);
    // Up to half a core of other work passes: every core busy with this run's jobs, a shell.
    assert_eq!(load_warning(Some(0.3), Some(2.5), 2, 2), None);
    assert_eq!(load_warning(Some(1.5), Some(2.5), 2, 1), None);
    assert_eq!(
        load_warning(Some(1.75), None, 2, 1).as_deref(),
        Some(
            "the load average was 1.75 at the start, more than the 1 of 2 cores this run's 1 job \
             left free: the engines waited for a core, so times compare only as ratios within this \
             run"
        )
    );
    // The end's average counts the run's own jobs: 2.75 with 1 job is 1.75 of other work.
    assert_eq!(
        load_warning(Some(0.2), Some(2.75), 2, 1).as_deref(),
        Some(
            "the load average was 2.75 at the end, 1 of it this run's, more than the 1 of 2 cores \
             this run's 1 job left free: the engines waited for a core, so times compare only as \
             ratios within this run"
        )
    );
    assert_eq!(
        load_warning(Some(6.0), Some(8.25), 4, 2).as_deref(),
        Some(
            "the load average was 6.00 at the start and 8.25 at the end, 2 of it this run's, \
             more than the 2 of 4 cores this run's 2 jobs left free: the engines waited for a core, \
             so times compare only as ratios within this run"
        )
    );
    // Every core taken by the run's jobs: more than half a core of other work competes.
    assert_eq!(load_warning(Some(0.5), None, 1, 1), None);
    assert_eq!(
        load_warning(Some(0.51), None, 1, 1).as_deref(),
        Some(
            "the load average was 0.51 at the start, more than the 0 of 1 core this run's 1 job \
             left free: the engines waited for a core, so times compare only as ratios within this \
             run"
        )
    );
    assert_eq!(load_warning(Some(0.0), Some(1.0), 1, 1), None);
}

/// The JSON type of a value, as a word.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[test]
fn a_json_report_identifies_the_build_the_data_and_the_machine() {
    let dir = scratch("report");
    let input = dir.join("in.txt");
    std::fs::write(&input, format!("{BOARD_A}\n")).unwrap();
    let counts = dir.join("counts.txt");
    std::fs::write(&counts, "1\n").unwrap();
    let solutions = dir.join("solutions.txt");
    std::fs::write(&solutions, format!("{BOARD_A_SOLUTION}\n")).unwrap();
    let report = dir.join("report.json");
    // Run directly: the shared helper leaves the load warning out of standard error.
    let output = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args([
            "compare",
            "-s",
            "fast",
            "-j",
            "1",
            "--expect-counts",
            counts.to_str().unwrap(),
            "--expect-solutions",
            solutions.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
            input.to_str().unwrap(),
        ])
        .output()
        .expect("the binary runs");
    let run = crate::cli::Run {
        code: output.status.code().expect("exited normally"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    };
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let context = &json["context"];

    // The data: each input and side file by its SHA-256, as sha256sum computes it.
    assert_eq!(
        context["input_hashes"],
        serde_json::json!([sha256sum(&input)])
    );
    assert_eq!(
        context["side_files"],
        serde_json::json!([
            {"path": counts.display().to_string(), "kind": "counts", "sha256": sha256sum(&counts)},
            {"path": solutions.display().to_string(), "kind": "solutions",
             "sha256": sha256sum(&solutions)},
        ])
    );

    assert_build(context);
    assert_machine(context);
    // The warning is recorded exactly when it is printed.
    match &context["load_warning"] {
        Value::String(warning) => {
            assert!(
                run.stderr
                    .contains(&format!("sudolab: warning: {warning}\n")),
                "{}",
                run.stderr
            );
            assert!(format!("sudolab: warning: {warning}").starts_with(LOAD_WARNING));
        }
        other => {
            assert_eq!(other, &Value::Null);
            assert!(!run.stderr.contains("load average"), "{}", run.stderr);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The build's fields: this test runs in a git checkout, so the commit and the dirty flag are
/// known.
fn assert_build(context: &Value) {
    assert_eq!(kind(&context["commit"]), "string");
    assert_eq!(kind(&context["dirty"]), "bool");
    match context["dirty"].as_bool() {
        Some(true) => assert!(is_sha256(context["diff_hash"].as_str().unwrap())),
        _ => assert_eq!(context["diff_hash"], Value::Null),
    }
    let build = &context["build"];
    assert!(
        ["debug", "release"].contains(&build["profile"].as_str().unwrap()),
        "{build}"
    );
    assert_eq!(kind(&build["opt_level"]), "string");
    assert_eq!(kind(&build["features"]), "array");
    assert!(
        build["target"]
            .as_str()
            .unwrap()
            .contains(std::env::consts::ARCH)
    );
    assert!(["null", "string"].contains(&kind(&build["target_cpu"])));
    let enabled: Vec<&str> = build["target_features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    // The test binary and sudolab are compiled with one set of target features.
    assert_eq!(enabled.contains(&"avx2"), cfg!(target_feature = "avx2"));
    assert_eq!(enabled.contains(&"popcnt"), cfg!(target_feature = "popcnt"));
    assert_eq!(kind(&context["rustc"]), "string");
}

/// The machine's fields: on Linux every one is there; elsewhere each may be null.
fn assert_machine(context: &Value) {
    let machine = &context["machine"];
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    assert_eq!(machine["cores"].as_u64(), Some(cores as u64));
    for load in ["load_start", "load_end"] {
        let load = &machine[load];
        if cfg!(target_os = "linux") {
            for key in ["1m", "5m", "15m"] {
                assert_eq!(kind(&load[key]), "number", "{load}");
            }
        } else {
            assert!(["null", "object"].contains(&kind(load)));
        }
    }
    if cfg!(target_os = "linux") {
        assert!(machine["memory_bytes"].as_u64().unwrap() > 0);
        assert_eq!(kind(&machine["cpu_model"]), "string");
        assert!(
            machine["cpu_flags"]
                .as_array()
                .unwrap()
                .iter()
                .all(Value::is_string)
        );
    }
}
