//! Hostile input ends in an answer, a refusal or an error that names its place, never in a
//! panic, a hang or a write over the user's files. Each test is built from a reproducer found
//! by fuzzing and names the behaviour it holds (`docs/robustness.md` lists them).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use sudolab::model::{Grid, Shape, parse_line_record};
use sudolab::report::{Aggregator, Context, Format, Row, render};
use sudolab::strategy::{self, Counter, Limits, Stats, Verdict};

use crate::cli::sudolab;
use crate::compare::{path, read_report, scratch};

/// Puzzles whose givens do not clash but whose empty cells have no candidate.
const DEAD_CELLS: [&str; 2] = [
    ".123421.13422431",
    ".123456789341265..56789.1231234578694562137..7896..2142415389.63759614826987.2351",
];

#[test]
fn every_engine_says_none_on_dead_cells_and_compare_survives_them() {
    for line in DEAD_CELLS {
        let puzzle: Grid = line.parse().unwrap();
        for engine in strategy::registry() {
            let outcome = engine.count_up_to(&puzzle, 2, &Limits::default());
            assert_eq!(
                (outcome.verdict(), outcome.stopped),
                (Verdict::None, None),
                "{} on {line}",
                engine.name()
            );
        }
    }
    let two = parse_line_record(b"2..1", Some(Shape::new(1, 2).unwrap()), 1)
        .unwrap()
        .puzzle;
    let dlx = strategy::find("dlx").unwrap();
    assert_eq!(
        dlx.count_up_to(&two, 2, &Limits::default()).verdict(),
        Verdict::None
    );

    let dir = scratch("robust-dead");
    let corpus = path(&dir, "dead.txt");
    std::fs::write(&corpus, format!("4..3.....1....2.\n{}\n", DEAD_CELLS[0])).unwrap();
    let report = path(&dir, "r.json");
    let run = sudolab(&["compare", &corpus, "-r", &report], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = read_report(&report);
    assert_eq!(report.puzzles, 2);
    assert!(report.summary.iter().all(|s| (s.unique, s.none) == (1, 1)));
}

#[test]
fn a_closed_standard_error_is_not_a_panic() {
    let dir = scratch("robust-stderr");
    let bad = path(&dir, "bad.txt");
    std::fs::write(&bad, "x\n".repeat(200_000)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(["count", &bad])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is gone: the rest of the error lines meet a closed pipe.
    let status = child.wait().unwrap();
    assert!(first.contains("line 1, column 1"), "{first}");
    assert_eq!(status.code(), Some(2), "bad input, not a panic (101)");
}

#[test]
fn a_timeout_of_none_or_zero_is_no_time_limit_everywhere() {
    for timeout in ["none", "0"] {
        let run = sudolab(&["count", "--timeout", timeout], "4..3.....1....2.\n");
        assert_eq!(run.stdout, "<stdin>:1\tunique\t1\n", "--timeout {timeout}");
        let run = sudolab(&["solve", "--timeout", timeout], "4..3.....1....2.\n");
        assert_eq!(run.stdout, "4213134221343421\n", "--timeout {timeout}");
    }
}

#[test]
fn a_wrong_known_solution_is_reported_on_a_puzzle_with_several() {
    let input = "................ 1111111111111111\n";
    let count = sudolab(&["count"], input);
    assert_eq!(count.code, 1);
    assert_eq!(count.stdout, "<stdin>:1\tmultiple\t2+\n");
    assert_eq!(
        count.stderr,
        "sudolab: <stdin>: line 1: the known solution is wrong: digit 1 appears twice in row 1 \
         (r1c1 and r1c2)\n"
    );
    let compare = sudolab(&["compare", "-s", "fast,sat", "-"], input);
    assert_eq!(compare.code, 1);
    assert_eq!(
        compare.stderr,
        "sudolab: <stdin>:1: the known solution is wrong: digit 1 appears twice in row 1 (r1c1 \
         and r1c2)\n  puzzle: ................\n"
    );
}

#[test]
fn a_report_path_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = scratch("robust-overwrite");
    let corpus = path(&dir, "x.txt");
    std::fs::write(&corpus, "4..3.....1....2.\n").unwrap();
    let run = sudolab(&["compare", "-s", "fast", &corpus, "--report", &corpus], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {corpus}: this report would overwrite an input; choose another report path\n"
        )
    );
    assert_eq!(
        std::fs::read_to_string(&corpus).unwrap(),
        "4..3.....1....2.\n"
    );
}

#[test]
fn absurd_job_repeat_and_event_counts_are_refused() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["compare", "--jobs", "5000", "corpora/reference.txt"],
            "expected 1 to 1024 jobs, found '5000'",
        ),
        (
            &["generate", "--jobs", "18446744073709551615"],
            "expected 1 to 1024 jobs, found '18446744073709551615'",
        ),
        (
            &["compare", "--repeat", "4294967295", "corpora/reference.txt"],
            "4294967295 is not in 1..=10000",
        ),
        (
            &[
                "trace",
                "4..3.....1....2.",
                "--max-events",
                "18446744073709551615",
            ],
            "expected 0 to 1500000 events, found '18446744073709551615'",
        ),
    ];
    for (args, message) in cases {
        let run = sudolab(args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn absurd_report_values_neither_hang_nor_wrap() {
    let row = |puzzle: u64| {
        let mut counters = Stats::new();
        counters.set(Counter::Nodes, u64::MAX - 1);
        Row {
            puzzle,
            source: format!("<script>x</script>.txt:{puzzle}"),
            side: 9,
            clues: 17,
            strategy: "fast".into(),
            verdict: Verdict::Unique,
            solutions: 1,
            exhausted: true,
            stopped: None,
            time_ns: (1 << 63) + 5,
            median_ns: u64::MAX,
            cpu_ns: Some(u64::MAX),
            counters,
        }
    };
    let mut aggregator = Aggregator::new(vec!["fast".into()], None);
    aggregator.add(row(0));
    aggregator.add(row(1));
    let summary = &aggregator.summary()[0];
    assert_eq!(summary.total_ns, u64::MAX, "saturated, not wrapped");
    assert_eq!(summary.work_total, Some(u64::MAX));
    let mut report = aggregator.report(Context::default(), vec![], vec![], true);
    report.summary[0].work_mean = Some(1.7e308);
    report.summary[0].cactus = vec![(1, 1.1e308), (2, f64::INFINITY)];
    report.summary[0].scatter = vec![(f64::NAN, 1e308)];
    report.summary[0].time_cdf = vec![(0.5, 1.0), (1.0, 1.1e308), (1.0, f64::INFINITY)];
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let html = render(Format::Html, &report);
        let markdown = render(Format::Markdown, &report);
        sender.send((html, markdown)).unwrap();
    });
    let (html, markdown) = receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("the HTML report renders in bounded time");
    assert!(html.contains("&lt;script&gt;") && !html.contains("<script>"));
    assert!(
        markdown.contains("&lt;script&gt;") && !markdown.contains("<script>"),
        "Markdown escapes HTML"
    );
}

#[test]
fn the_sat_refusal_reads_as_one_sentence() {
    let sat = strategy::find("sat-minimal").unwrap();
    let refusal = sat.supports(Shape::new(5, 5).unwrap()).unwrap_err();
    assert_eq!(
        refusal.to_string(),
        "varisat would only run into its deadline, and on a 25x25 board this encoding can run for \
         minutes (sides up to 16; 'sat' takes up to 36)"
    );
}

#[test]
fn a_report_over_a_side_file_is_refused_and_reports_appear_whole() {
    let dir = scratch("robust-side");
    let corpus = path(&dir, "y.txt");
    std::fs::write(&corpus, "4..3.....1....2.\n").unwrap();
    let counts = path(&dir, "c.txt");
    std::fs::write(&counts, "1\n").unwrap();
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            &corpus,
            "--expect-counts",
            &counts,
            "--report",
            &counts,
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("this report would overwrite an input"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&counts).unwrap(), "1\n");

    // A report is written beside its path and renamed at the end: no temporary file is left,
    // and a run that fails keeps the report already there.
    let report = path(&dir, "r.csv");
    let ok = sudolab(&["compare", "-s", "fast", &corpus, "-r", &report], "");
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let written = std::fs::read_to_string(&report).unwrap();
    assert!(written.starts_with("puzzle,source,"));
    let bad_counts = path(&dir, "bad-counts.txt");
    std::fs::write(&bad_counts, "many\n").unwrap();
    let failed = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            &corpus,
            "--expect-counts",
            &bad_counts,
            "-r",
            &report,
        ],
        "",
    );
    assert_eq!(failed.code, 2);
    assert!(
        failed
            .stderr
            .contains("line 1: expected a solution count, found 'many'"),
        "{}",
        failed.stderr
    );
    assert_eq!(std::fs::read_to_string(&report).unwrap(), written);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_node_budget_is_refused_for_engines_without_nodes() {
    let run = sudolab(
        &[
            "count",
            "-s",
            "dlx",
            "--limit",
            "0",
            "--max-nodes",
            "100000",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --max-nodes: dlx counts no nodes, so a node budget cannot stop it; give it a \
         --timeout instead\n"
    );
    let compare = sudolab(
        &[
            "compare",
            "-s",
            "fast,sat",
            "--max-nodes",
            "1000",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(compare.code, 0, "{}", compare.stderr);
    assert!(
        compare.stderr.contains(
            "warning: the node budget does not apply to sat (they count no nodes); their \
             timeout bounds them"
        ),
        "{}",
        compare.stderr
    );
}

#[test]
fn the_generator_gives_up_or_keeps_its_budget() {
    let run = sudolab(
        &["generate", "--box", "2x2", "--rating", "guess", "-c", "1"],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--rating guess: 10000 candidates in a row on 2x2 boxes"),
        "{}",
        run.stderr
    );
    // toggle on a minimal 16x16 would take hours: with the check budget it gives up, says so,
    // and the generator ends (the failed puzzle counts, unwritten).
    let run = sudolab(
        &[
            "generate",
            "--size",
            "16",
            "--verify",
            "toggle",
            "-c",
            "1",
            "--check-timeout",
            "200ms",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .contains("toggle could not decide: unknown (0+, timed out)"),
        "{}",
        run.stderr
    );
}

#[test]
fn export_refuses_to_write_one_file_from_two_inputs() {
    let dir = scratch("robust-export");
    for sub in ["d1", "d2"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::write(dir.join(sub).join("p.txt"), "4..3.....1....2.\n").unwrap();
    }
    let out = path(&dir, "od");
    let run = sudolab(
        &[
            "export",
            "cnf",
            "--out-dir",
            &out,
            &path(&dir, "d1/p.txt"),
            &path(&dir, "d2/p.txt"),
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("share a file name, so export them to different --out-dir"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_generator_fills_large_boxes_and_warns_about_minimal_25x25() {
    // 8x8 boxes: the randomized fill never completed; now a shuffled pattern takes over.
    let run = sudolab(
        &[
            "generate",
            "--box",
            "8x8",
            "--json",
            "--checker",
            "fast",
            "--clues",
            "4000",
            "--check-timeout",
            "10ms",
            "-c",
            "1",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let puzzle = &document["puzzles"][0];
    assert_eq!(puzzle["clues"], 4000);
    // Read back, it is a 64x64 puzzle whose generator solution certifies.
    let records = sudolab::corpus::parse_json(&run.stdout, None);
    let record = records[0].as_ref().unwrap();
    assert_eq!(record.puzzle.side(), 64);
    assert_eq!(record.puzzle.clue_count(), 4000);
    let solution = record.solution.as_ref().unwrap();
    assert_eq!(sudolab::model::validate(&record.puzzle, solution), Ok(()));

    let run = sudolab(&["generate", "--size", "25", "-c", "0"], "");
    assert!(
        run.stderr
            .starts_with("sudolab: a minimal 25x25 puzzle takes minutes"),
        "{}",
        run.stderr
    );
}

#[test]
fn puzzle_numbers_count_the_malformed_puzzles_too() {
    let dir = scratch("robust-numbers");
    let file = path(&dir, "m.txt");
    std::fs::write(&file, "xx\n4..3.....1....2.\n1...............\n").unwrap();
    // `count` calls the second puzzle FILE:2; export and trace agree.
    let run = sudolab(&["export", "cnf", "--puzzle", "2", &file], "");
    assert!(
        run.stdout.contains("c sudolab given 1 4 3\n"),
        "{}",
        run.stdout
    );
    let run = sudolab(&["trace", "-p", "2", "-s", "mrv", &file], "");
    assert!(
        run.stdout
            .starts_with("# trace of mrv on 4..3.....1....2.\n"),
        "{}",
        run.stdout
    );
    let run = sudolab(&["export", "cnf", "--puzzle", "1", &file], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: --puzzle 1 cannot be read: {file}: line 1, column 1: expected n*n symbols \
             for a side n of 1 to 35 (16 for 4x4, 36 for 6x6, 81 for 9x9, 144 for 12x12, 256 for \
             16x16, 625 for 25x25), found 2\n"
        )
    );
}

#[test]
fn input_errors_are_capped_at_twenty_per_source_and_counted() {
    let dir = scratch("robust-junk");
    let junk = path(&dir, "junk.txt");
    std::fs::write(&junk, "x\n".repeat(50)).unwrap();
    for args in [
        vec!["count", &junk],
        vec!["solve", &junk],
        vec!["verify", &junk],
        vec!["compare", "-s", "fast", &junk],
    ] {
        let run = sudolab(&args, "");
        assert_eq!(run.code, 2);
        let lines: Vec<&str> = run.stderr.lines().collect();
        let errors = lines
            .iter()
            .filter(|line| line.contains("expected the digit 1"))
            .count();
        assert_eq!(errors, 20, "{args:?}: {}", run.stderr);
        assert_eq!(
            lines[20],
            format!("sudolab: {junk}: 30 more input errors not shown (the first 20 are above)")
        );
        // Only verify adds a line of its own: its tally.
        assert_eq!(
            lines.len(),
            21 + usize::from(args[0] == "verify"),
            "{}",
            run.stderr
        );
    }
    // The report keeps every one (with a puzzle that ran: a report of nothing is not written).
    std::fs::write(&junk, format!("{}4..3.....1....2.\n", "x\n".repeat(50))).unwrap();
    let report = path(&dir, "r.json");
    let run = sudolab(&["compare", "-s", "fast", &junk, "-r", &report], "");
    assert_eq!(run.code, 2);
    assert_eq!(read_report(&report).input_errors.len(), 50);
}
