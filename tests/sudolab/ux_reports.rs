//! Reports as a first-time user reads them, each behaviour pinned by what the user sees:
//! capped per-puzzle tables, times without float noise, interrupted runs, the `solved`
//! verdict, empty comparisons, `unknown` split by reason, the progress bar and the charts.

use std::process::{Command, Stdio};
use std::time::Duration;

use sudolab::report::{Aggregator, Context, Format, KEPT_ROWS, Report, Row, render};
use sudolab::strategy::{Counter, Stats, Verdict};

use crate::cli::sudolab;
use crate::compare::{path, read_report, scratch};

/// A row of a unique 9x9 puzzle that took `time_ns`.
fn row(puzzle: u64, strategy: &str, time_ns: u64) -> Row {
    let mut counters = Stats::new();
    counters.set(Counter::Nodes, 1 + puzzle % 5);
    Row {
        puzzle,
        source: format!("big.txt:{}", puzzle + 1),
        side: 9,
        clues: 25,
        strategy: strategy.to_string(),
        verdict: Verdict::Unique,
        solutions: 1,
        exhausted: true,
        stopped: None,
        time_ns,
        median_ns: time_ns,
        cpu_ns: Some(time_ns),
        counters,
    }
}

/// A report of one strategy over `puzzles` puzzles that holds every row, as a JSON report read
/// back (or a merge) does.
fn report_with_every_row(puzzles: u64) -> Report {
    let mut aggregator = Aggregator::new(vec!["fast".into()], None);
    let rows: Vec<Row> = (0..puzzles).map(|p| row(p, "fast", 1_000 + p)).collect();
    for row in &rows {
        aggregator.add(row.clone());
    }
    let mut report = aggregator.report(Context::default(), Vec::new(), Vec::new(), true);
    report.rows = rows;
    report
}

/// The lines of the Markdown per-puzzle table that hold rows (its header and rule left out).
fn markdown_row_lines(markdown: &str) -> Vec<&str> {
    let table = &markdown[markdown
        .find("## Per puzzle")
        .expect("a per-puzzle section")..];
    table
        .lines()
        .filter(|line| line.starts_with("| big.txt:") || line.starts_with("| &lt;stdin&gt;:"))
        .collect()
}

/// The `<tr>` elements of the HTML table with this id, its heading row included.
fn html_table_rows(html: &str, id: &str) -> usize {
    let start = html
        .find(&format!("<table id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no table #{id}"));
    let end = start + html[start..].find("</table>").expect("the table ends");
    html[start..end].matches("<tr>").count()
}

#[test]
fn markdown_and_html_list_the_first_2000_rows_and_say_how_many_are_left_out() {
    let report = report_with_every_row(2_500);
    assert_eq!(KEPT_ROWS, 2_000);
    let note = "The first 2000 of 2500 rows; 500 rows are left out here. The CSV and JSON \
                reports list every row.";
    let markdown = render(Format::Markdown, &report);
    assert_eq!(markdown_row_lines(&markdown).len(), 2_000);
    assert!(markdown.contains(&format!("## Per puzzle\n\n{note}\n\n| source |")));
    assert!(markdown.contains("| big.txt:2000 |"));
    assert!(!markdown.contains("| big.txt:2001 |"));
    let html = render(Format::Html, &report);
    assert_eq!(html_table_rows(&html, "rows"), 2_001);
    assert!(html.contains(&format!("<p id=\"rows-note\">{note}</p>")));
    // The streamed forms keep every row.
    assert_eq!(render(Format::Csv, &report).lines().count(), 2_501);
    assert_eq!(render(Format::JsonLines, &report).lines().count(), 2_500);
    let json = sudolab::report::json::read(&render(Format::Json, &report)).unwrap();
    assert_eq!(json.rows.len(), 2_500);
    // At the cap or under it, every row is listed and nothing is said.
    let small = report_with_every_row(2_000);
    let markdown = render(Format::Markdown, &small);
    assert_eq!(markdown_row_lines(&markdown).len(), 2_000);
    assert!(!markdown.contains("left out"));
    assert!(!render(Format::Html, &small).contains("rows-note"));
}

#[test]
fn report_re_renders_a_large_json_report_with_the_cap() {
    let dir = scratch("ux-report-cap");
    let (json_file, html, md, csv) = (
        path(&dir, "m.json"),
        path(&dir, "m.html"),
        path(&dir, "m.md"),
        path(&dir, "m.csv"),
    );
    let input = "4..3.....1....2.\n".repeat(2_100);
    let run = sudolab(&["compare", "-s", "fast", "-", "-r", &json_file], &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(read_report(&json_file).rows.len(), 2_100);
    let run = sudolab(
        &["report", &json_file, "-r", &html, "-r", &md, "-r", &csv],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let note = "The first 2000 of 2100 rows; 100 rows are left out here. The CSV and JSON \
                reports list every row.";
    let html = std::fs::read_to_string(&html).unwrap();
    assert_eq!(html_table_rows(&html, "rows"), 2_001);
    assert!(html.contains(note));
    let md = std::fs::read_to_string(&md).unwrap();
    assert_eq!(markdown_row_lines(&md).len(), 2_000);
    assert!(md.contains(note));
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap().lines().count(),
        2_101
    );
}

/// Every number in the text after `"key":` (pretty or compact JSON).
fn json_numbers<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let pattern = format!("\"{key}\":");
    text.match_indices(&pattern)
        .map(|(at, _)| {
            let rest = text[at + pattern.len()..].trim_start();
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// At most three decimals: whole nanoseconds in microseconds.
fn nanosecond_precise(number: &str) -> bool {
    number.parse::<f64>().is_ok()
        && number
            .split_once('.')
            .is_none_or(|(_, decimals)| decimals.len() <= 3)
}

#[test]
fn mean_times_are_whole_nanoseconds_without_float_noise() {
    // 3003 ns over 3 runs: dividing 3.003 µs by 3 in floats gives 1.0010000000000001.
    let mut aggregator = Aggregator::new(vec!["fast".into()], None);
    for puzzle in 0..3 {
        aggregator.add(row(puzzle, "fast", 1_001));
    }
    let summary = &aggregator.summary()[0];
    assert_eq!(summary.total_ns, 3_003);
    assert_eq!(summary.mean_us.to_string(), "1.001");
    let report = aggregator.report(Context::default(), Vec::new(), Vec::new(), true);
    let json = render(Format::Json, &report);
    assert_eq!(json_numbers(&json, "mean_us"), ["1.001"]);
    assert_eq!(json_numbers(&json, "total_ns"), ["3003"]);
    assert_eq!(json_numbers(&json, "time_ns"), ["1001", "1001", "1001"]);
    // A mean that is not a whole number of nanoseconds is the total over the count in
    // microseconds, one rounding: what scipy gives on the same times.
    let mut aggregator = Aggregator::new(vec!["fast".into()], None);
    for time_ns in [1_000, 1_000, 1_001] {
        aggregator.add(row(0, "fast", time_ns));
    }
    assert_eq!(
        aggregator.summary()[0].mean_us.to_string(),
        (3_001.0f64 / 3_000.0).to_string()
    );
}

#[test]
fn a_real_report_has_no_float_noise_in_its_times() {
    let dir = scratch("ux-float-noise");
    let json_file = path(&dir, "r.json");
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast,mrv,dlx-knuth",
            "corpora/reference.txt",
            "corpora/generated/4x4.txt",
            "-r",
            &json_file,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&json_file).unwrap();
    // The slowest search is a time, whole nanoseconds; means and quantiles over decided
    // searches are exact quotients and interpolations (as scipy computes them), not times.
    let mut checked = 0;
    for key in ["max_us", "par2_limit_us"] {
        for number in json_numbers(&text, key) {
            assert!(nanosecond_precise(number), "{key}: {number}");
            checked += 1;
        }
    }
    // Two keys for 3 strategies.
    assert_eq!(checked, 6);
    for number in json_numbers(&text, "time_ns") {
        assert!(number.parse::<u64>().is_ok(), "time_ns {number}");
    }
}

#[test]
fn an_interrupted_run_reports_its_searches_and_every_form_says_it_is_incomplete() {
    let dir = scratch("ux-interrupt");
    // Three quick 4x4 puzzles, then minimal 16x16 ones that scan works on until Ctrl-C.
    let corpus = path(&dir, "mixed.txt");
    let sixteen = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/minimal-16x16.txt"),
    )
    .unwrap();
    std::fs::write(
        &corpus,
        format!("4..3.....1....2.\n.2..1...3..1....\n4..3.....1....2.\n{sixteen}"),
    )
    .unwrap();
    let forms = ["r.json", "r.csv", "r.jsonl", "r.md", "r.html"];
    let mut args = vec![
        "compare".to_string(),
        "-s".into(),
        "scan".into(),
        "--timeout".into(),
        "20s".into(),
        "-j".into(),
        "1".into(),
        corpus.clone(),
    ];
    for form in forms {
        args.push("-r".into());
        args.push(path(&dir, form));
    }
    let child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(Duration::from_secs(1));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let reason =
        "the run was interrupted; this covers the 3 puzzles whose searches ended before it stopped";
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains(&format!("3 puzzles, limit 2 (INCOMPLETE: {reason})\n")),
        "{stdout}"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(
            "sudolab: interrupted; the report keeps every search that ended, on 3 puzzles, and \
             every form of it is marked incomplete\n"
        ),
        "{stderr}"
    );
    let report = read_report(&path(&dir, "r.json"));
    assert!(!report.complete);
    assert_eq!(report.puzzles, 3);
    let ordinals: Vec<u64> = report.rows.iter().map(|row| row.puzzle).collect();
    assert_eq!(ordinals, [0, 1, 2]);
    let csv = std::fs::read_to_string(path(&dir, "r.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 3 + 1, "{csv}");
    assert_eq!(lines[4], format!("# INCOMPLETE: {reason}"));
    let jsonl = std::fs::read_to_string(path(&dir, "r.jsonl")).unwrap();
    let lines: Vec<&str> = jsonl.lines().collect();
    assert_eq!(lines.len(), 3 + 1, "{jsonl}");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(lines[3]).unwrap(),
        serde_json::json!({"complete": false, "puzzles": 3, "reason": reason})
    );
    let md = std::fs::read_to_string(path(&dir, "r.md")).unwrap();
    assert!(md.contains(&format!("**Incomplete**: {reason}.\n")), "{md}");
    let html = std::fs::read_to_string(path(&dir, "r.html")).unwrap();
    assert!(html.contains(&format!(
        "<p class=\"bad\" id=\"incomplete\">Incomplete: {reason}.</p>"
    )));
    // Re-rendered from the JSON report, the CSV keeps its mark.
    let again = path(&dir, "again.csv");
    let run = sudolab(&["report", &path(&dir, "r.json"), "-r", &again], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), csv);
}

#[test]
fn a_merge_without_some_shards_names_them_in_every_form() {
    let mut report = report_with_every_row(4);
    report.complete = false;
    report.context.merged_from = vec!["a.json".into(), "c.json".into()];
    report.context.missing_shards = vec![2];
    let reason = "shards 2 of 3 are missing from this merge";
    assert_eq!(report.incomplete_reason().as_deref(), Some(reason));
    let csv = render(Format::Csv, &report);
    assert!(
        csv.ends_with(&format!("\n# INCOMPLETE: {reason}\n")),
        "{csv}"
    );
    let text = render(Format::Text, &report);
    assert!(text.contains(&format!(
        "4 puzzles, limit none (count all) (INCOMPLETE: {reason})"
    )));
    // A complete report has no mark.
    let complete = report_with_every_row(4);
    assert_eq!(complete.incomplete_reason(), None);
    assert!(!render(Format::Csv, &complete).contains('#'));
    assert_eq!(render(Format::JsonLines, &complete).lines().count(), 4);
}

#[test]
fn a_limit_of_one_gives_solved_not_unknown() {
    let dir = scratch("ux-solved");
    let (json_file, md) = (path(&dir, "r.json"), path(&dir, "r.md"));
    let run = sudolab(
        &[
            "compare",
            "-s",
            "mrv,dlx-knuth",
            "--limit",
            "1",
            "corpora/reference.txt",
            "-r",
            &json_file,
            "-r",
            &md,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .take(3)
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines[0],
        [
            "strategy",
            "puzzles",
            "unique",
            "multiple",
            "none",
            "solved",
            "unknown",
            "decided",
            "median_us",
            "mean_us",
            "p90_us",
            "par2_us",
            "work_mean",
            "work_unit",
            "ratio",
            "ratio_95",
            "wilcoxon_p"
        ]
    );
    for (line, name) in lines[1..].iter().zip(["mrv", "dlx-knuth"]) {
        assert_eq!(line[..7], [name, "2", "0", "0", "0", "2", "0"]);
    }
    assert!(run.stdout.contains(
        "2 puzzles, limit 1\ncross-check: every answer certified, every definite verdict agrees\n"
    ));
    let report = read_report(&json_file);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    for row in &report.rows {
        assert_eq!(row.verdict, Verdict::Solved, "{row:?}");
        assert_eq!(
            (row.solutions, row.exhausted, row.stopped),
            (1, false, Some(sudolab::strategy::Stop::SolutionLimit))
        );
    }
    for summary in &report.summary {
        assert_eq!(
            (summary.solved, summary.unknown, summary.found_any),
            (2, 0, Some(2))
        );
    }
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(
        md.contains("| corpora/reference.txt:3 | 37 | mrv | solved | 1 | "),
        "{md}"
    );
    // With the default limit the same puzzles are unique, and no solved column is drawn.
    let run = sudolab(&["compare", "-s", "mrv", "corpora/reference.txt"], "");
    assert_eq!(run.code, 0);
    assert!(!run.stdout.lines().next().unwrap().contains("solved"));
}

#[test]
fn count_with_a_limit_of_one_says_solved_and_succeeds() {
    let board_a = crate::cli::BOARD_A;
    let run = sudolab(&["count", "-l", "1"], &format!("{board_a}\n"));
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "<stdin>:1\tsolved\t1\n")
    );
    let run = sudolab(&["count", "-l", "1", "--json"], &format!("{board_a}\n"));
    assert_eq!(run.code, 0);
    let line: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(line["verdict"], "solved");
    assert_eq!(line["solutions"], 1);
    // A puzzle without a solution is still `none` (the search is exhausted), exit 1.
    let run = sudolab(&["count", "-l", "1"], "44..............\n");
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.starts_with("<stdin>:1\tnone\t0"),
        "{}",
        run.stdout
    );
}

#[test]
fn reports_older_than_the_solved_verdict_read_their_solved_as_found_any() {
    let report = report_with_every_row(3);
    let mut value: serde_json::Value =
        serde_json::from_str(&render(Format::Json, &report)).unwrap();
    // The old form: `solved` counted puzzles with a solution found; no `found_any`.
    let summary = value["summary"][0].as_object_mut().unwrap();
    summary.remove("found_any");
    summary.insert("solved".into(), 3.into());
    let old = sudolab::report::json::read(&value.to_string()).unwrap();
    assert_eq!(old.summary[0].found_any, Some(3));
    assert_eq!(old.summary[0].solved, 0);
    assert_eq!(old, report);
}

#[test]
fn a_compare_over_no_puzzles_says_so_instead_of_certifying_nothing() {
    let dir = scratch("ux-no-puzzles");
    let (md, html) = (path(&dir, "r.md"), path(&dir, "r.html"));
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            "nonexist.txt",
            "-r",
            &md,
            "-r",
            &html,
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stdout.ends_with(
            "0 puzzles, limit 2\ncross-check: no puzzles were compared\ninput errors: 1\n"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("certified"));
    // A report of nothing would replace an earlier one: none is written.
    assert!(
        run.stderr.ends_with(
            "sudolab: no puzzle ran; no report was written (a report there is as it was)\n"
        ),
        "{}",
        run.stderr
    );
    assert!(!std::path::Path::new(&md).exists());
    assert!(!std::path::Path::new(&html).exists());
    // An empty file: no input error, still nothing compared.
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            "corpora/malformed/only-comments.txt",
        ],
        "",
    );
    assert!(
        run.stdout
            .contains("cross-check: no puzzles were compared\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn problems_are_printed_once_on_a_terminal_and_in_both_streams_when_redirected() {
    let detail = "the known solution is wrong: digit 9 appears twice in column 8 (r2c8 and r9c8)";
    // Redirected: standard error as they come, standard output in the table (scripts read
    // either), and the corpus's wrong solution is not blamed on the engines.
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast,mrv",
            "corpora/malformed/bad-solution.txt",
        ],
        "",
    );
    assert_eq!(run.code, 1);
    assert_eq!(run.stderr.matches(detail).count(), 1, "{}", run.stderr);
    assert!(run.stdout.contains(&format!(
        "cross-check: 1 PROBLEMS (strategies disagree or an answer is invalid)\n  \
         corpora/malformed/bad-solution.txt:1 invalid_known_solution: {detail}\n"
    )));
    assert!(!run.stdout.contains("differs from the known one"));
    // One terminal for both (a pseudo-terminal from `script`): printed once, as found.
    let command = format!(
        "{} compare -s fast,mrv corpora/malformed/bad-solution.txt",
        env!("CARGO_BIN_EXE_sudolab")
    );
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    let terminal = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{terminal}");
    assert_eq!(terminal.matches(detail).count(), 1, "{terminal}");
    assert!(
        terminal.contains("1 PROBLEMS (strategies disagree or an answer is invalid); each is printed above, as it was found"),
        "{terminal}"
    );
}

#[test]
fn unknown_is_split_by_reason_so_a_refusal_is_not_a_timeout() {
    let dir = scratch("ux-unknown-reasons");
    let big = path(&dir, "big.txt");
    let minimal = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/minimal-25x25.txt"),
    )
    .unwrap();
    let first = minimal.lines().find(|line| !line.starts_with('#')).unwrap();
    std::fs::write(&big, format!("{}\n", first.split(' ').next().unwrap())).unwrap();
    let (json_file, md) = (path(&dir, "r.json"), path(&dir, "r.md"));
    // toggle runs out of its 50 nodes on both; sat-minimal solves board B and refuses 25x25.
    let run = sudolab(
        &[
            "compare",
            "-s",
            "toggle,sat-minimal",
            "--max-nodes",
            "50",
            "corpora/reference.txt",
            &big,
            "-r",
            &json_file,
            "-r",
            &md,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let table: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .take(3)
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(
        table[0][..8],
        [
            "strategy",
            "puzzles",
            "unique",
            "multiple",
            "none",
            "unknown",
            "node_budget",
            "unsupported"
        ]
    );
    assert_eq!(table[1][..8], ["toggle", "3", "0", "0", "0", "3", "3", "0"]);
    assert_eq!(
        table[2][..8],
        ["sat-minimal", "3", "2", "0", "0", "1", "0", "1"]
    );
    let report = read_report(&json_file);
    let reasons: Vec<_> = report.summary.iter().map(|s| s.unknown_reasons).collect();
    assert_eq!(
        (reasons[0].node_budget, reasons[0].total()),
        (3, 3),
        "{reasons:?}"
    );
    assert_eq!(
        (reasons[1].unsupported, reasons[1].total()),
        (1, 1),
        "{reasons:?}"
    );
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains(&format!("| {big}:1 | ")), "{md}");
    assert!(
        md.contains(" | sat-minimal | unknown (unsupported) | 0+ | "),
        "{md}"
    );
    assert!(
        md.contains(" | toggle | unknown (node budget) | 0+ | "),
        "{md}"
    );

    // A timeout is its own column.
    let run = sudolab(
        &[
            "compare",
            "-s",
            "scan",
            "--timeout",
            "50ms",
            "corpora/minimal-16x16.txt",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let table: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .take(2)
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(table[0][5..7], ["unknown", "timed_out"]);
    assert_eq!(table[1][..7], ["scan", "10", "0", "0", "0", "10", "10"]);
}

#[test]
fn reports_older_than_the_reasons_count_them_from_their_rows() {
    let mut aggregator = Aggregator::new(vec!["fast".into()], None);
    for (puzzle, stopped) in [
        sudolab::strategy::Stop::Deadline,
        sudolab::strategy::Stop::Unsupported,
        sudolab::strategy::Stop::Deadline,
    ]
    .into_iter()
    .enumerate()
    {
        let mut unknown = row(puzzle as u64, "fast", 10);
        unknown.verdict = Verdict::Unknown;
        unknown.exhausted = false;
        unknown.solutions = 0;
        unknown.stopped = Some(stopped);
        aggregator.add(unknown);
    }
    let report = aggregator.report(Context::default(), Vec::new(), Vec::new(), true);
    assert_eq!(report.summary[0].unknown_reasons.timed_out, 2);
    assert_eq!(report.summary[0].unknown_reasons.unsupported, 1);
    let mut value: serde_json::Value =
        serde_json::from_str(&render(Format::Json, &report)).unwrap();
    value["summary"][0]
        .as_object_mut()
        .unwrap()
        .remove("unknown_reasons");
    let old = sudolab::report::json::read(&value.to_string()).unwrap();
    assert_eq!(old, report);
}

/// What `command` writes to a terminal (a pseudo-terminal from util-linux's `script`, for
/// standard output and standard error together), carriage returns as line ends.
fn on_a_terminal(command: &str) -> String {
    let out = Command::new("script")
        .args(["-q", "-e", "-c", command, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).replace('\r', "\n")
}

#[test]
fn the_progress_bar_has_a_total_and_an_eta_on_a_terminal_only() {
    let binary = env!("CARGO_BIN_EXE_sudolab");
    // 2 + 20 puzzles, three strategies: 66 searches, counted before the first.
    let files = "corpora/reference.txt corpora/generated/4x4.txt";
    let terminal = on_a_terminal(&format!("{binary} compare -s fast,mrv,toggle {files}"));
    assert!(
        terminal.contains(" 0/66 searches, 0/s, eta 0s"),
        "{terminal}"
    );
    // Standard input cannot be read twice: a spinner without a total.
    let terminal = on_a_terminal(&format!(
        "{binary} compare -s fast,mrv,toggle - < corpora/reference.txt"
    ));
    assert!(terminal.contains(" 0 searches, 0/s, 0s"), "{terminal}");
    assert!(!terminal.contains("/6 searches"), "{terminal}");
    // In a pipe: no bar at all.
    let run = sudolab(
        &["compare", "-s", "fast,mrv,toggle", "corpora/reference.txt"],
        "",
    );
    assert_eq!(run.code, 0);
    assert!(!run.stderr.contains("searches"), "{}", run.stderr);
}

/// The `<figure>` with this id.
fn figure<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<figure id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no figure #{id}"));
    &html[start..start + html[start..].find("</figure>").unwrap()]
}

#[test]
fn a_report_mixing_board_sizes_has_charts_per_size_with_labelled_axes_and_legends() {
    let mut aggregator = Aggregator::new(vec!["fast".into(), "mrv".into()], None);
    for puzzle in 0..6 {
        let side = if puzzle < 3 { 4 } else { 9 };
        for (strategy, time_ns, nodes) in [("fast", 800, 1), ("mrv", 5_000, 40 * side as u64)] {
            let mut one = row(puzzle, strategy, time_ns * side as u64);
            one.side = side;
            one.clues = 4 + puzzle as usize;
            one.counters.set(Counter::Nodes, nodes);
            aggregator.add(one);
        }
    }
    let report = aggregator.report(Context::default(), Vec::new(), Vec::new(), true);
    let by_side: Vec<(usize, u64, Option<f64>)> = report.summary[1]
        .by_side
        .iter()
        .map(|part| (part.side, part.runs, part.work_mean))
        .collect();
    assert_eq!(by_side, [(4, 3, Some(160.0)), (9, 3, Some(360.0))]);
    let html = render(Format::Html, &report);
    assert!(html.contains(
        "<p id=\"sizes\">The puzzles are of 2 board sizes (4x4, 9x9): each size has its own \
         charts, since times and node counts of different sizes do not compare."
    ));
    assert!(!html.contains("<figure id=\"chart-time\">"));
    for size in ["4x4", "9x9"] {
        assert!(html.contains(&format!("<h3 id=\"size-{size}\">{size} puzzles (3)</h3>")));
        let time = figure(&html, &format!("chart-time-{size}"));
        assert!(
            time.contains("\ntime per puzzle (µs, log scale)\n</text>"),
            "{time}"
        );
        assert!(time.contains("\nfraction of puzzles finished\n</text>"));
        // The legend is a list under the chart, not a box on the data.
        assert!(time.contains(
            "<ul class=\"legend\"><li><span class=\"swatch\" style=\"background:#0072b2\"></span>\
             fast</li><li><span class=\"swatch\" style=\"background:#e69f00\"></span>mrv</li></ul>"
        ));
        let nodes = figure(&html, &format!("chart-work-nodes-{size}"));
        assert!(nodes.contains("\nmean nodes per puzzle (log scale)\n</text>"));
        let clues = figure(&html, &format!("chart-clues-nodes-{size}"));
        assert!(clues.contains("\nclues (givens)\n</text>"));
    }
    // mrv's mean nodes are printed beside its dot, per size.
    assert!(figure(&html, "chart-work-nodes-4x4").contains("\n160\n</text>"));
    assert!(figure(&html, "chart-work-nodes-9x9").contains("\n360\n</text>"));
    // One size: one set of charts, as before.
    let one_size = report_with_every_row(3);
    let html = render(Format::Html, &one_size);
    assert!(!html.contains("id=\"sizes\""));
    for id in ["chart-time", "chart-work-nodes"] {
        assert!(html.contains(&format!("<figure id=\"{id}\">")), "{id}");
    }
}
