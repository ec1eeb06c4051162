//! `sudolab compare` and `sudolab report`: cross-checks, reports, shards, samples, Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use sudolab::report::{Report, Row, json};
use sudolab::strategy::{self, Counter, Verdict};

use crate::cli::{BOARD_A, BOARD_A_SOLUTION, sudolab};

const BOARD_B: &str =
    "040060020000080000960040087390807041000090000800306002700000009005000300600105004";

/// A scratch directory for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudolab-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

pub(crate) fn path(dir: &Path, file: &str) -> String {
    dir.join(file).display().to_string()
}

pub(crate) fn read_report(file: &str) -> Report {
    json::read(&std::fs::read_to_string(file).expect("the report was written"))
        .expect("a readable report")
}

/// The verdicts of one strategy's rows, in the report's order.
pub(crate) fn verdicts_of(report: &Report, strategy: &str) -> Vec<Verdict> {
    report
        .rows
        .iter()
        .filter(|row| row.strategy == strategy)
        .map(|row| row.verdict)
        .collect()
}

/// Five puzzles (unique 9x9 with its solution, unique 9x9, unique 4x4, multiple 4x4, 4x4 with
/// clashing givens) and one malformed line.
fn mixed_corpus(dir: &Path) -> String {
    let text = format!(
        "# mixed\n{BOARD_A} {BOARD_A_SOLUTION}\n{BOARD_B}\n4..3.....1....2.\n4..3............\n\
         12345\n44..............\n"
    );
    let file = path(dir, "mixed.txt");
    std::fs::write(&file, text).expect("write the corpus");
    file
}

/// The cactus plot, a scatter plot per strategy but the baseline (`dlx-knuth` here), and for
/// each of the two board sizes (4x4, 9x9) the time chart and a work chart per unit.
fn html_has_every_chart(html: &str, strategies: usize) {
    for id in ["chart-cactus", "chart-scatter-fast"]
        .into_iter()
        .map(String::from)
        .chain(["4x4", "9x9"].iter().flat_map(|size| {
            ["time", "work-nodes", "work-updates"].map(|chart| format!("chart-{chart}-{size}"))
        }))
    {
        assert!(html.contains(&format!("<figure id=\"{id}\">")), "{id}");
    }
    assert_eq!(
        html.matches("<figure id=\"chart-scatter-").count(),
        strategies - 1
    );
}

/// Rows without their times, which differ between runs.
pub(crate) fn timeless(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|row| Row {
            time_ns: 0,
            median_ns: 0,
            cpu_ns: None,
            ..row.clone()
        })
        .collect()
}

#[test]
fn compare_certifies_every_strategy_and_writes_every_report_form() {
    let dir = scratch("compare-all");
    let corpus = mixed_corpus(&dir);
    let (json_file, csv, md, html) = (
        path(&dir, "r.json"),
        path(&dir, "r.csv"),
        path(&dir, "r.md"),
        path(&dir, "r.html"),
    );
    let run = sudolab(
        &[
            "compare",
            &corpus,
            "--jobs",
            "2",
            "--baseline",
            "dlx-knuth",
            "-r",
            &json_file,
            "-r",
            &csv,
            "-r",
            &md,
            "-r",
            &html,
        ],
        "",
    );
    // The malformed line is reported with its place, the others still run, and the exit code
    // says an input was bad.
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "sudolab: {corpus}: line 6, column 1: expected n*n symbols for a side n of 1 to 35 \
             (16 for 4x4, 36 for 6x6, 81 for 9x9, 144 for 12x12, 256 for 16x16, 625 for 25x25), found 5\n"
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("5 puzzles, limit 2\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("cross-check: every answer certified, every definite verdict agrees")
    );

    let report = read_report(&json_file);
    let names = strategy::names();
    assert_eq!(report.strategies, names);
    assert_eq!(report.puzzles, 5);
    assert!(report.complete);
    assert_eq!(report.input_errors.len(), 1);
    assert!(report.problems.is_empty());
    for summary in &report.summary {
        let tally = (
            summary.unique,
            summary.multiple,
            summary.none,
            summary.unknown,
        );
        assert_eq!(tally, (3, 1, 1, 0), "{}", summary.strategy);
    }
    let knuth = report
        .summary
        .iter()
        .find(|s| s.strategy == "dlx-knuth")
        .unwrap();
    assert_eq!(knuth.ratio, Some(1.0));
    // Rows come in input order, strategies in registry order, whatever the jobs.
    assert_eq!(report.rows.len(), 5 * names.len());
    let lines: Vec<&str> = report.rows.iter().map(|row| row.source.as_str()).collect();
    assert_eq!(lines[0], format!("{corpus}:2"));
    assert_eq!(lines[names.len()], format!("{corpus}:3"));
    assert_eq!(lines[4 * names.len()], format!("{corpus}:7"));
    // Counters are the engines' own: pinned for board B elsewhere, checked here through the
    // report (scan and toggle walk one tree; dlx-knuth's uniqueness check of board B).
    let row = |line: u64, name: &str| {
        report
            .rows
            .iter()
            .find(|row| row.source == format!("{corpus}:{line}") && row.strategy == name)
            .unwrap()
    };
    assert_eq!(row(3, "dlx-knuth").counters.get(Counter::Nodes), Some(112));
    assert_eq!(
        row(3, "scan").counters.get(Counter::Nodes),
        row(3, "toggle").counters.get(Counter::Nodes)
    );
    assert_eq!(row(7, "fast").verdict, Verdict::None);
    assert_eq!(row(5, "mrv").verdict, Verdict::Multiple);
    assert_eq!(row(5, "mrv").solutions, 2);
    assert!(!row(5, "mrv").exhausted);

    let csv = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv.lines().count(), 1 + 5 * names.len());
    assert!(csv.starts_with("puzzle,source,side,clues,strategy,verdict,solutions,exhausted,"));
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("| dlx-knuth | 5 | 3 | 1 | 1 | 0 |"), "{md}");
    let html = std::fs::read_to_string(&html).unwrap();
    html_has_every_chart(&html, names.len());
    assert!(
        !html.contains(" src=") && !html.contains("<link"),
        "nothing is fetched"
    );
    assert!(html.contains("<td>dlx-knuth</td>"));
}

#[test]
fn disagreements_with_known_counts_are_loud() {
    let dir = scratch("compare-counts");
    let corpus = path(&dir, "empty4.txt");
    std::fs::write(&corpus, "................\n4..3.....1....2.\n").unwrap();
    let counts = path(&dir, "counts.txt");
    std::fs::write(&counts, "288\n1\n").unwrap();
    let ok = sudolab(
        &[
            "compare",
            "-s",
            "fast,mrv,dlx-knuth,sat",
            "--limit",
            "0",
            "--expect-counts",
            &counts,
            &corpus,
        ],
        "",
    );
    assert_eq!(ok.code, 0, "{}", ok.stderr);

    std::fs::write(&counts, "287\n1\n").unwrap();
    let bad = sudolab(
        &[
            "compare",
            "-s",
            "fast,dlx-knuth",
            "--limit",
            "0",
            "--expect-counts",
            &counts,
            &corpus,
        ],
        "",
    );
    assert_eq!(bad.code, 1);
    assert_eq!(
        bad.stderr,
        format!(
            "sudolab: {corpus}:1: fast says multiple (288), but the corpus gives 287 solutions \
             (strategies: fast)\n  puzzle: ................\n\
             sudolab: {corpus}:1: dlx-knuth says multiple (288), but the corpus gives 287 \
             solutions (strategies: dlx-knuth)\n  puzzle: ................\n"
        )
    );
    assert!(
        bad.stdout.contains("cross-check: 2 PROBLEMS"),
        "{}",
        bad.stdout
    );
}

#[test]
fn bad_arguments_fail_before_the_run() {
    let run = sudolab(
        &["compare", "-s", "fast,quick", "corpora/reference.txt"],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: unknown strategy 'quick'; valid strategies: {}\n",
            strategy::names().join(", ")
        )
    );
    let run = sudolab(
        &[
            "compare",
            "-r",
            "/nonexistent-dir/r.json",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty(), "nothing ran");
    // The cause is named once (not again as the error's source).
    assert_eq!(
        run.stderr,
        "sudolab: /nonexistent-dir/r.json: cannot write the report: \
         No such file or directory (os error 2)\n"
    );
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            "--baseline",
            "sat",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: the baseline 'sat' is not among the strategies compared (fast)\n"
    );
}

#[test]
fn shards_merge_into_the_aggregates_of_one_run() {
    let dir = scratch("compare-shards");
    let corpus = mixed_corpus(&dir);
    let args = [
        "compare",
        "-s",
        "fast,mrv,dlx-knuth,sat",
        "--baseline",
        "fast",
        &corpus,
    ];
    let whole_file = path(&dir, "whole.json");
    let shard_files = [path(&dir, "s1.json"), path(&dir, "s2.json")];
    let run = |extra: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(extra);
        sudolab(&all, "")
    };
    run(&["-r", &whole_file]);
    run(&["--shard", "1/2", "-r", &shard_files[0]]);
    run(&["--shard", "2/2", "-r", &shard_files[1]]);
    let merged_file = path(&dir, "merged.json");
    let merged_run = sudolab(
        &[
            "report",
            &shard_files[0],
            &shard_files[1],
            "-r",
            &merged_file,
        ],
        "",
    );
    assert_eq!(merged_run.code, 0, "{}", merged_run.stderr);

    let whole = read_report(&whole_file);
    let shard = read_report(&shard_files[0]);
    let merged = read_report(&merged_file);
    assert_eq!(shard.puzzles, 3, "positions 0, 2, 4");
    assert_eq!(merged.puzzles, whole.puzzles);
    assert_eq!(timeless(&merged.rows), timeless(&whole.rows));
    assert_eq!(merged.context.merged_from, shard_files);
    for (merged, whole) in merged.summary.iter().zip(&whole.summary) {
        let fields = |s: &sudolab::report::Summary| {
            (
                s.runs,
                s.unique,
                s.multiple,
                s.none,
                s.unknown,
                s.decided,
                s.work_total,
                s.work_max,
            )
        };
        assert_eq!(fields(merged), fields(whole));
        assert_eq!(merged.work_by_clues, whole.work_by_clues);
    }
    // Re-merging the merge with a shard is refused: puzzles would count twice.
    let again = sudolab(&["report", &merged_file, &shard_files[0]], "");
    assert_eq!(again.code, 2);
    assert_eq!(
        again.stderr,
        format!(
            "sudolab: {merged_file} is not a shard (its run had no --shard K/N); only the shards \
             of one run merge\n"
        )
    );
}

#[test]
fn shard_sets_with_repeats_gaps_or_strangers_are_refused() {
    let dir = scratch("compare-shard-sets");
    let corpus = mixed_corpus(&dir);
    let run = |extra: &[&str]| {
        let mut all = vec!["compare", "-s", "fast,dlx-knuth", &corpus];
        all.extend_from_slice(extra);
        sudolab(&all, "")
    };
    let shard_files = [path(&dir, "s1.json"), path(&dir, "s2.json")];
    run(&["--shard", "1/2", "-r", &shard_files[0]]);
    run(&["--shard", "2/2", "-r", &shard_files[1]]);
    // The same shard twice would double every count; a missing shard would hide puzzles...
    let twice = sudolab(&["report", &shard_files[0], &shard_files[0]], "");
    assert_eq!(twice.code, 2);
    assert_eq!(
        twice.stderr,
        format!(
            "sudolab: shard 1/2 is given twice: {} and {}\n",
            shard_files[0], shard_files[0]
        )
    );
    let gap = sudolab(&["report", &shard_files[1]], "");
    assert_eq!(gap.code, 0, "one report is re-rendered, not merged");
    let third = path(&dir, "t3.json");
    run(&["--shard", "3/3", "-r", &third]);
    let gap = sudolab(&["report", &shard_files[1], &third], "");
    assert_eq!(gap.code, 2);
    assert_eq!(
        gap.stderr,
        format!(
            "sudolab: {third} and {} are shards of different runs: shard count 3 against 2; \
             only the shards of one run merge\n",
            shard_files[1]
        )
    );
    // ...unless the merge is asked to be partial: then the report says what it lacks.
    let thirds = [path(&dir, "t1.json"), third];
    run(&["--shard", "1/3", "-r", &thirds[0]]);
    let partial_file = path(&dir, "partial.json");
    let refused = sudolab(&["report", &thirds[0], &thirds[1]], "");
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr,
        "sudolab: shards missing: 2/3 of 3; give every shard, or --allow-partial to merge these \
         and mark the report incomplete\n"
    );
    let partial = sudolab(
        &[
            "report",
            &thirds[0],
            &thirds[1],
            "--allow-partial",
            "-r",
            &partial_file,
        ],
        "",
    );
    assert_eq!(partial.code, 0, "{}", partial.stderr);
    assert!(partial.stderr.contains("merged without shards 2/3"));
    let partial = read_report(&partial_file);
    assert!(!partial.complete);
    assert_eq!(partial.context.missing_shards, [2]);
    assert_eq!(partial.puzzles, 3, "positions 0, 3 and 2 of five");
}

#[test]
fn samples_are_reproducible_and_jobs_do_not_change_the_rows() {
    let dir = scratch("compare-sample");
    let corpus = path(&dir, "many.txt");
    let text = "4..3.....1....2.
"
    .repeat(9);
    std::fs::write(&corpus, text).unwrap();
    let report_for = |extra: &[&str], file: &str| {
        let file = path(&dir, file);
        let mut args = vec!["compare", "-s", "fast,toggle", &corpus, "-r", &file];
        args.extend_from_slice(extra);
        let run = sudolab(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        read_report(&file)
    };
    let first = report_for(&["--sample", "4", "--seed", "9", "-j", "1"], "a.json");
    let again = report_for(&["--sample", "4", "--seed", "9", "-j", "2"], "b.json");
    assert_eq!(first.puzzles, 4);
    assert_eq!(timeless(&first.rows), timeless(&again.rows));
    assert_eq!(first.context.sample, Some((4, 9)));
    let sources: Vec<&str> = first.rows.iter().map(|r| r.source.as_str()).collect();
    let mut sorted = sources.clone();
    sorted.sort_by_key(|s| s.rsplit(':').next().unwrap().parse::<u32>().unwrap());
    assert_eq!(sources, sorted, "a sample keeps corpus order");
}

#[test]
fn ctrl_c_writes_an_incomplete_report() {
    let dir = scratch("compare-interrupt");
    let report = path(&dir, "r.json");
    // scan on minimal 16x16 puzzles runs to its (long) budget on every puzzle.
    let child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args([
            "compare",
            "-s",
            "scan",
            "--timeout",
            "20s",
            "-j",
            "1",
            "-r",
            &report,
        ])
        .arg("corpora/minimal-16x16.txt")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(Duration::from_millis(700));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(
            "sudolab: interrupted; stopping after the searches under way, the reports will \
             cover the searches done (interrupt again to quit at once, without reports)\n"
        ),
        "{stderr}"
    );
    // Stopped during the first search: nothing finished, and a report of nothing is not
    // written.
    assert!(
        stderr.ends_with(
            "sudolab: no puzzle ran; no report was written (a report there is as it was)\n"
        ),
        "{stderr}"
    );
    assert!(!Path::new(&report).exists());
}
