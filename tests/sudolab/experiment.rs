//! `sudolab run` (experiment files), the order of searches, and `--shard` on the commands that
//! walk a file one puzzle at a time (`count`, `verify`) or make puzzles by index (`generate`).

use std::path::Path;

use serde_json::Value;
use sudolab::report::Report;
use sudolab::strategy::Counter;

use crate::cli::sudolab;
use crate::compare::{scratch, timeless};

fn read_report(file: &Path) -> Report {
    crate::compare::read_report(&file.display().to_string())
}

#[test]
fn an_experiment_file_writes_every_form_and_reruns_identically() {
    let dir = scratch("experiment-engines");
    let out = |name: &str| dir.join(name).display().to_string();
    let file = "docs/experiments/engines.toml";
    let first = sudolab(&["run", file, "--out", &out("a")], "");
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first.stdout.contains("122 puzzles, limit 2\n"),
        "{}",
        first.stdout
    );
    assert!(
        first
            .stderr
            .ends_with(&format!("sudolab: results in {}\n", out("a")))
    );
    for name in [
        "experiment.toml",
        "provenance.json",
        "report.txt",
        "report.md",
        "report.csv",
        "report.json",
        "report.html",
    ] {
        assert!(dir.join("a").join(name).is_file(), "{name}");
    }
    assert!(
        !dir.join("a/report.jsonl").exists(),
        "not among the file's forms"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("a/experiment.toml")).unwrap(),
        std::fs::read_to_string(file).unwrap()
    );
    let provenance: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("a/provenance.json")).unwrap())
            .unwrap();
    assert_eq!(provenance["experiment"], "engines");
    let context = &provenance["context"];
    for key in ["version", "cpu", "os", "date", "command", "timer"] {
        assert!(
            context[key].as_str().is_some_and(|v| !v.is_empty()),
            "{key}: {context}"
        );
    }
    assert!(context["rustc"].as_str().unwrap().starts_with("rustc "));
    assert_eq!(context["order"], "engine");
    assert_eq!(
        (&context["repeat"], &context["warmup"]),
        (&5.into(), &1.into())
    );
    // Every strategy keeps its calibrated work budget; toggle has the file's own.
    let toggle = context["overrides"]
        .as_array()
        .unwrap()
        .iter()
        .find(|limits| limits["strategy"] == "toggle")
        .expect("toggle's limits");
    assert_eq!(toggle["budget"], 200_000);
    assert_eq!(context["budget_units"]["toggle"], "nodes");

    let again = sudolab(&["run", file, "--out", &out("b")], "");
    assert_eq!(again.code, 0, "{}", again.stderr);
    let (a, b) = (
        read_report(&dir.join("a/report.json")),
        read_report(&dir.join("b/report.json")),
    );
    assert_eq!(a.strategies, ["fast", "mrv", "dlx-knuth", "sat", "toggle"]);
    assert_eq!(a.rows.len(), 122 * 5);
    assert_eq!(timeless(&a.rows), timeless(&b.rows));
    // The node budget of toggle's own [[strategy]] table stops it on the hard ones, exactly.
    let toggle = a.summary.iter().find(|s| s.strategy == "toggle").unwrap();
    assert_eq!((toggle.unique, toggle.unknown), (98, 24));
    assert_eq!(toggle.work_max, Some(200_000));
    assert_eq!(toggle.work_unit.as_deref(), Some("nodes"));
    let board_b = a
        .rows
        .iter()
        .find(|row| row.source.ends_with("reference.txt:4") && row.strategy == "dlx-knuth")
        .unwrap();
    assert_eq!(board_b.counters.get(Counter::Nodes), Some(112));
}

#[test]
fn mistakes_in_an_experiment_file_are_located_before_anything_runs() {
    let dir = scratch("experiment-bad");
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "[[corpus]]\npath = \"p.txt\"\n[run]\nlimit = 2\nrepeats = 3\n",
    )
    .unwrap();
    let run = sudolab(&["run", &file.display().to_string()], "");
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {}: line 5, column 1: unknown field `repeats`, expected one of `limit`, \
             `timeout`, `max_nodes`, `budget`, `repeat`, `warmup`, `order`, `jobs`, `baseline`, `clock`\n",
            file.display()
        )
    );
    let missing = sudolab(&["run", "no-such-experiment.toml"], "");
    assert_eq!(missing.code, 2);
    assert!(
        missing
            .stderr
            .starts_with("sudolab: no-such-experiment.toml: cannot read: "),
        "{}",
        missing.stderr
    );
}

#[test]
fn both_orders_give_the_same_rows() {
    let dir = scratch("experiment-order");
    let report = |order: &str| {
        let file = dir.join(format!("{order}.json"));
        let run = sudolab(
            &[
                "compare",
                "-s",
                "fast,mrv,dlx-knuth",
                "--order",
                order,
                "-j",
                "2",
                "corpora/reference.txt",
                "corpora/generated/6x6.txt",
                "-r",
                &file.display().to_string(),
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        read_report(&file)
    };
    let (by_engine, by_puzzle) = (report("engine"), report("puzzle"));
    assert_eq!(
        by_engine.context.order,
        Some(sudolab::experiment::Order::Engine)
    );
    assert_eq!(
        by_puzzle.context.order,
        Some(sudolab::experiment::Order::Puzzle)
    );
    assert!(!by_engine.rows.is_empty());
    assert_eq!(timeless(&by_engine.rows), timeless(&by_puzzle.rows));
}

#[test]
fn count_and_verify_take_their_shard() {
    let whole = sudolab(&["count", "corpora/generated/4x4.txt"], "");
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let mut lines: Vec<String> = Vec::new();
    for k in 1..=3 {
        let part = sudolab(
            &[
                "count",
                "--shard",
                &format!("{k}/3"),
                "corpora/generated/4x4.txt",
            ],
            "",
        );
        assert_eq!(part.code, 0, "{}", part.stderr);
        lines.extend(part.stdout.lines().map(str::to_string));
    }
    let key = |line: &String| {
        line.split('\t')
            .next()
            .unwrap()
            .rsplit(':')
            .next()
            .unwrap()
            .parse::<u32>()
            .unwrap()
    };
    lines.sort_by_key(key);
    assert_eq!(lines, whole.stdout.lines().collect::<Vec<_>>());

    let verify = sudolab(
        &["verify", "--shard", "2/4", "corpora/generated/4x4.txt"],
        "",
    );
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    let total = whole.stdout.lines().count();
    assert_eq!(verify.stdout.lines().count(), (total + 2) / 4);
    assert!(verify.stdout.lines().all(|l| l.contains("\tverified\t")));

    let bad = sudolab(&["count", "--shard", "5/4", "corpora/reference.txt"], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr
            .contains("expected K/N with 1 <= K <= N, such as 2/4; found '5/4'"),
        "{}",
        bad.stderr
    );
    let no_array = sudolab(&["count", "--shard", "auto", "corpora/reference.txt"], "");
    assert_eq!(no_array.code, 2);
    assert!(no_array.stderr.contains("--shard auto found no job array"));
}

#[test]
fn generated_shards_concatenate_into_one_run() {
    let args = ["generate", "--size", "4", "--count", "7", "--seed", "5"];
    let whole = sudolab(&args, "");
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let mut joined = String::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let mut with_shard = args.to_vec();
        with_shard.extend(["--shard", &shard]);
        let part = sudolab(&with_shard, "");
        assert_eq!(part.code, 0, "{}", part.stderr);
        joined.push_str(&part.stdout);
    }
    assert_eq!(whole.stdout.lines().count(), 7);
    assert_eq!(joined, whole.stdout);

    let mut rated = args.to_vec();
    rated.extend(["--shard", "1/2", "--rating", "guess"]);
    let refused = sudolab(&rated, "");
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("--shard splits the puzzles by index, but --rating skips"),
        "{}",
        refused.stderr
    );
}

#[test]
fn a_saved_experiment_reruns_from_its_results_directory_and_stays_as_it_was() {
    let dir = scratch("experiment-rerun");
    let corpus = std::fs::canonicalize("corpora/generated/4x4.txt").unwrap();
    let file = dir.join("small.toml");
    let text = format!(
        "name = \"small\"\nstrategies = [\"fast\", \"mrv\"]\n\n[[corpus]]\npath = {:?}\n",
        corpus.display().to_string()
    );
    std::fs::write(&file, &text).unwrap();
    let results = dir.join("results").display().to_string();
    let first = sudolab(&["run", &file.display().to_string(), "--out", &results], "");
    assert_eq!(first.code, 0, "{}", first.stderr);
    let saved = dir.join("results/experiment.toml");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), text);
    // The saved copy, run again into its own directory (replaced: --force): the copy is its
    // own input.
    let again = sudolab(
        &[
            "run",
            &saved.display().to_string(),
            "--out",
            &results,
            "--force",
        ],
        "",
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), text);
}

#[test]
fn an_experiment_file_names_one_results_directory_and_each_form_once() {
    let dir = scratch("experiment-confined");
    let corpus = std::fs::canonicalize("corpora/generated/4x4.txt").unwrap();
    let corpus = format!("\n[[corpus]]\npath = {:?}\n", corpus.display().to_string());
    let results = dir.join("results");
    let cases = [
        (
            "name = \"../../escaped\"\n",
            "name '../../escaped': expected one path component",
        ),
        ("name = \"\"\n", "name '': expected one path component"),
        ("name = \"..\"\n", "name '..': expected one path component"),
        (
            "name = \"twice\"\n[output]\nforms = [\"txt\", \"txt\"]\n",
            "[output] forms lists 'txt' twice; each form is written once",
        ),
    ];
    for (number, (head, expected)) in cases.iter().enumerate() {
        let file = dir.join(format!("case{number}.toml"));
        std::fs::write(&file, format!("{head}{corpus}")).unwrap();
        let run = sudolab(
            &[
                "run",
                &file.display().to_string(),
                "--out",
                &results.display().to_string(),
            ],
            "",
        );
        assert_eq!(run.code, 2, "{head}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with(&format!("sudolab: {}: {expected}", file.display())),
            "{head}: {}",
            run.stderr
        );
        assert!(!results.exists(), "{head}: nothing is written");
    }
}
