//! Input that round-trips and help that reads cleanly: what one command writes another reads,
//! files saved on Windows or as grids are read, and parallel runs write what one job writes.

use crate::cli::{BOARD_A, BOARD_A_SOLUTION, sudolab};

#[test]
fn verify_reads_what_generate_json_writes() {
    let generated = sudolab(&["generate", "-c", "3", "--json", "--size", "4"], "");
    assert_eq!(generated.code, 0, "{}", generated.stderr);
    let run = sudolab(&["verify", "-"], &generated.stdout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
    assert!(
        run.stdout.lines().all(|line| line.contains("verified")),
        "{}",
        run.stdout
    );
}

#[test]
fn windows_files_and_outside_grid_forms_are_read() {
    // A byte-order mark and CRLF line endings.
    let run = sudolab(
        &["count"],
        "\u{feff}# saved by Notepad\r\n4..3.....1....2.\r\n",
    );
    assert_eq!(run.stdout, "<stdin>:2\tunique\t1\n", "{}", run.stderr);
    // Board A as nine comma-separated rows, and as nine rows of nine symbols.
    let rows: Vec<&str> = (0..9).map(|r| &BOARD_A[r * 9..r * 9 + 9]).collect();
    let csv: String = rows
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            cells.join(",") + "\n"
        })
        .collect();
    let sdk: String = rows
        .iter()
        .map(|row| row.replace('0', ".") + "\n")
        .collect();
    for text in [csv, sdk] {
        let run = sudolab(&["solve"], &text);
        assert_eq!(run.code, 0, "{}\n{}", run.stderr, text);
        assert_eq!(run.stdout, format!("{BOARD_A_SOLUTION}\n"));
    }
    // The popular CSV with a header line.
    let run = sudolab(
        &["count"],
        &format!("quizzes,solutions\n{BOARD_A},{BOARD_A_SOLUTION}\n"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "<stdin>:2\tunique\t1\n");
}

#[test]
fn a_hexadecimal_16x16_is_refused_with_a_hint() {
    let line = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/generated/16x16.txt"),
    )
    .unwrap()
    .lines()
    .find(|line| !line.starts_with('#'))
    .unwrap()
    .split_whitespace()
    .next()
    .unwrap()
    .to_string();
    // What `tr 1-9A-G 0-9A-F` makes of it.
    let hex: String = line
        .chars()
        .map(|symbol| match symbol {
            'A' => '9',
            '1'..='9' | 'B'..='G' => char::from(symbol as u8 - 1),
            other => other,
        })
        .collect();
    let run = sudolab(&["count"], &format!("{hex}\n"));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("written with 0-F (hexadecimal) converts with tr 0-9A-F 1-9A-G"),
        "{}",
        run.stderr
    );
}

#[test]
fn command_summaries_end_without_a_period() {
    let run = sudolab(&["--help"], "");
    let commands: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| !line.is_empty())
        .collect();
    assert!(commands.len() >= 10, "{}", run.stdout);
    for line in commands {
        assert!(!line.trim_end().ends_with('.'), "{line}");
    }
}

#[test]
fn a_json_lines_trace_on_standard_output_keeps_standard_error_quiet() {
    let run = sudolab(
        &["trace", "-s", "mrv", "-o", "jsonl", "4..3.....1....2."],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let last = run.stdout.lines().last().unwrap();
    assert!(last.contains("\"summary\""), "{last}");
}

#[test]
fn all_means_every_solution_in_count_compare_and_trace() {
    let empty = "................";
    let run = sudolab(&["count", "--all", "-"], &format!("{empty}\n"));
    assert_eq!(run.stdout, "<stdin>:1\tmultiple\t288\n");
    let run = sudolab(
        &["compare", "--all", "-s", "dlx-knuth", "-"],
        &format!("{empty}\n"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("1 puzzle, limit none"),
        "{}",
        run.stdout
    );
    let run = sudolab(
        &["trace", "--all", "-s", "dlx-knuth", "-o", "jsonl", empty],
        "",
    );
    let summary = run.stdout.lines().last().unwrap();
    assert!(summary.contains("\"solutions\":288"), "{summary}");
    let run = sudolab(&["compare", "--all", "--limit", "3", "-"], "");
    assert_eq!(run.code, 2);
}

#[test]
fn json_times_are_whole_nanoseconds_in_microseconds() {
    // `secs_f64() * 1e6` printed 34.471000000000004; nanoseconds / 1e3 print as they are.
    let run = sudolab(&["count", "--json", "--stats", "-"], "4..3.....1....2.\n");
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let time = value["time_us"].to_string();
    let decimals = time.split('.').nth(1).map_or(0, str::len);
    assert!(decimals <= 3, "{time}");
}

#[test]
fn count_in_parallel_writes_what_one_job_writes() {
    // Puzzles, a wrong known solution and malformed lines, across three files: the output and
    // the diagnostics come in input order whatever the number of jobs.
    let files = [
        "corpora/generated/9x9-minimal.txt",
        "corpora/malformed/bad-solution.txt",
        "corpora/malformed/unknown-symbol.txt",
        "corpora/reference.txt",
    ];
    let run = |jobs: &str| {
        let mut args = vec!["count", "-j", jobs];
        args.extend(files);
        sudolab(&args, "")
    };
    let one = run("1");
    assert_eq!(one.code, 2, "{}", one.stderr);
    assert_eq!(one.stdout.lines().count(), 104);
    for jobs in ["2", "4"] {
        let many = run(jobs);
        assert_eq!(
            (many.code, &many.stdout, &many.stderr),
            (one.code, &one.stdout, &one.stderr),
            "-j {jobs}"
        );
    }
}

#[test]
fn verify_in_parallel_writes_what_one_job_writes() {
    let run = |jobs: &str| {
        sudolab(
            &[
                "verify",
                "-j",
                jobs,
                "corpora/generated/9x9-minimal.txt",
                "corpora/malformed/unknown-symbol.txt",
                "corpora/generated/4x4.txt",
            ],
            "",
        )
    };
    let one = run("1");
    assert_eq!(one.code, 2, "{}", one.stderr);
    assert_eq!(one.stdout.lines().count(), 100 + 1 + 20);
    assert!(
        one.stderr.ends_with("sudolab: 121 verified, 0 failed\n"),
        "{}",
        one.stderr
    );
    let two = run("2");
    assert_eq!(
        (two.code, &two.stdout, &two.stderr),
        (one.code, &one.stdout, &one.stderr)
    );
}
