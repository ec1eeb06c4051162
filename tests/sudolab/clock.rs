//! The clocks: every search timed by the wall clock and by its thread's CPU clock, both in
//! every row form; the summaries by the clock asked for.

use serde_json::Value;

use crate::cli::sudolab;
use crate::compare::{path, scratch};

/// The slack of `cpu <= wall`: one thread cannot use more CPU time than the wall clock sees
/// pass, but the two clocks are read a few hundred nanoseconds apart (the CPU clock outside
/// the wall clock) and each has its own overhead subtracted; 1 ms is over a thousand times
/// that skew.
const SLACK_NS: u64 = 1_000_000;

/// Two plain 9x9 puzzles and one 16x16, on which `dlx` runs on a thread of its own.
fn corpus(dir: &std::path::Path) -> String {
    let reference = std::fs::read_to_string("corpora/reference.txt").unwrap();
    let big = std::fs::read_to_string("corpora/generated/16x16.txt").unwrap();
    let big = big.lines().find(|line| !line.starts_with('#')).unwrap();
    let file = path(dir, "puzzles.txt");
    std::fs::write(&file, format!("{reference}{big}\n")).unwrap();
    file
}

/// `(strategy, side, time_ns, cpu_ns)` of JSON rows.
fn times(rows: &[Value]) -> Vec<(String, u64, u64, Option<u64>)> {
    rows.iter()
        .map(|row| {
            (
                row["strategy"].as_str().unwrap().to_string(),
                row["side"].as_u64().unwrap(),
                row["time_ns"].as_u64().unwrap(),
                match &row["cpu_ns"] {
                    Value::Null => None,
                    number => Some(number.as_u64().expect("cpu_ns is a count or null")),
                },
            )
        })
        .collect()
}

/// Every search has both times, `dlx` on the 16x16 (detached) its wall time alone, and no
/// CPU time exceeds its wall time.
fn check_times(form: &str, times: &[(String, u64, u64, Option<u64>)]) {
    assert_eq!(times.len(), 6, "{form}: {times:?}");
    for (strategy, side, wall, cpu) in times {
        if strategy == "dlx" && *side == 16 {
            assert_eq!(*cpu, None, "{form}: a detached search has no CPU time");
        } else {
            let cpu = cpu.unwrap_or_else(|| panic!("{form}: {strategy} on {side}: no CPU time"));
            assert!(
                cpu <= wall + SLACK_NS,
                "{form}: {strategy}: cpu {cpu} > wall {wall}"
            );
            assert!(*wall > 0, "{form}: {strategy}: wall time {wall}");
        }
    }
}

#[test]
fn every_row_form_carries_the_wall_and_the_cpu_time() {
    let dir = scratch("clock-rows");
    let corpus = corpus(&dir);
    let (csv, json, jsonl) = (
        path(&dir, "r.csv"),
        path(&dir, "r.json"),
        path(&dir, "r.jsonl"),
    );
    let run = sudolab(
        &[
            "compare", "-s", "fast,dlx", "-j", "1", &corpus, "-r", &csv, "-r", &json, "-r", &jsonl,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);

    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let from_json = times(report["rows"].as_array().unwrap());
    check_times("json", &from_json);

    let lines: Vec<Value> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .filter(|value: &Value| value.get("time_ns").is_some())
        .collect();
    let from_jsonl = times(&lines);
    check_times("jsonl", &from_jsonl);

    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| {
        header
            .iter()
            .position(|column| column == name)
            .unwrap_or_else(|| panic!("no {name} column in {header:?}"))
    };
    let (strategy, side, wall, cpu) = (at("strategy"), at("side"), at("time_us"), at("cpu_us"));
    assert_eq!(cpu, at("median_us") + 1, "cpu_us follows the wall times");
    // Microseconds with three decimals: the nanoseconds of the JSON rows.
    let nanos = |text: &str| (text.parse::<f64>().unwrap() * 1e3).round() as u64;
    let from_csv: Vec<(String, u64, u64, Option<u64>)> = reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            (
                record[strategy].to_string(),
                record[side].parse().unwrap(),
                nanos(&record[wall]),
                Some(&record[cpu])
                    .filter(|text| !text.is_empty())
                    .map(nanos),
            )
        })
        .collect();
    check_times("csv", &from_csv);
    assert_eq!(
        from_csv, from_json,
        "the CSV and JSON rows hold the same times"
    );
    assert_eq!(
        from_jsonl, from_json,
        "the JSON lines and JSON rows hold the same times"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Per strategy, the sum of its rows' times by `clock` (`cpu`: the CPU time, or the wall time
/// of a row without one).
fn totals(rows: &[Value], strategies: &[&str], clock: &str) -> Vec<u64> {
    let chosen = |row: &Value| match (clock, row["cpu_ns"].as_u64()) {
        ("cpu", Some(cpu)) => cpu,
        _ => row["time_ns"].as_u64().unwrap(),
    };
    strategies
        .iter()
        .map(|strategy| {
            rows.iter()
                .filter(|row| row["strategy"] == *strategy)
                .map(chosen)
                .sum()
        })
        .collect()
}

#[test]
fn the_summary_uses_the_clock_asked_for_and_says_which() {
    let dir = scratch("clock-summary");
    let corpus = corpus(&dir);
    for (option, clock, note) in [
        (
            None,
            "cpu",
            "times: thread CPU time of each search (--clock cpu; wall time where a search has \
             none)\n",
        ),
        (
            Some("wall"),
            "wall",
            "times: wall-clock time of each search (--clock wall)\n",
        ),
        (
            Some("cpu"),
            "cpu",
            "times: thread CPU time of each search (--clock cpu; wall time where a search has \
             none)\n",
        ),
    ] {
        let (json, md) = (path(&dir, "r.json"), path(&dir, "r.md"));
        let mut args = vec!["compare", "-s", "fast,dlx", &corpus, "-r", &json, "-r", &md];
        if let Some(option) = option {
            args.extend(["--clock", option]);
        }
        let run = sudolab(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.contains(note), "{clock}: {}", run.stdout);
        assert!(
            std::fs::read_to_string(&md)
                .unwrap()
                .contains(note.trim_end()),
            "{clock}: the Markdown report names its clock"
        );
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(report["context"]["clock"], clock);
        let summary_totals: Vec<u64> = report["summary"]
            .as_array()
            .unwrap()
            .iter()
            .map(|summary| summary["total_ns"].as_u64().unwrap())
            .collect();
        let rows = report["rows"].as_array().unwrap();
        assert_eq!(
            summary_totals,
            totals(rows, &["fast", "dlx"], clock),
            "{clock}: the summary's totals are the rows' times by the {clock} clock"
        );
    }
    let run = sudolab(&["compare", "-s", "fast", &corpus, "--clock", "tsc"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("invalid value 'tsc' for '--clock <CLOCK>'"),
        "{}",
        run.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_experiment_file_sets_the_clock() {
    let dir = scratch("clock-experiment");
    corpus(&dir);
    let file = path(&dir, "e.toml");
    std::fs::write(
        &file,
        "strategies = [\"fast\"]\n[[corpus]]\npath = \"puzzles.txt\"\n[run]\nclock = \"wall\"\n\
         [output]\ndir = \"out\"\nforms = [\"json\"]\n",
    )
    .unwrap();
    let run = sudolab(&["run", &file], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("out").join("report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["context"]["clock"], "wall");
    let total = report["summary"][0]["total_ns"].as_u64().unwrap();
    assert_eq!(
        total,
        totals(report["rows"].as_array().unwrap(), &["fast"], "wall")[0]
    );

    std::fs::write(
        &file,
        "strategies = [\"fast\"]\n[[corpus]]\npath = \"puzzles.txt\"\n[run]\nclock = \"tsc\"\n",
    )
    .unwrap();
    let run = sudolab(&["run", &file], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("line 5, column 9: unknown variant `tsc`, expected `cpu` or `wall`"),
        "{}",
        run.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
