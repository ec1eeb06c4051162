//! What the command line does around the searches: an input that fits in one batch runs on the
//! calling thread, a longer one on the pool, and both give the same lines, notes and exit
//! status for any number of jobs.

use std::fmt::Write as _;

use crate::cli::{BOARD_A, sudolab};

/// `count`'s output for `lines` puzzles of which every tenth (from the second) is malformed:
/// standard output, standard error, exit code.
fn expected(lines: usize) -> (String, String, i32) {
    let mut out = String::new();
    let mut err = String::new();
    for line in 1..=lines {
        if line % 10 == 2 {
            writeln!(
                err,
                "sudolab: <stdin>: line {line}, column 1: expected n*n symbols for a side n of 1 \
                 to 35 (16 for 4x4, 36 for 6x6, 81 for 9x9, 144 for 12x12, 256 for 16x16, 625 \
                 for 25x25), found 5"
            )
            .expect("writing to a String cannot fail");
        } else {
            writeln!(out, "<stdin>:{line}\tunique\t1").expect("writing to a String cannot fail");
        }
    }
    let code = if lines >= 2 { 2 } else { 0 };
    (out, err, code)
}

fn input(lines: usize) -> String {
    (1..=lines)
        .map(|line| {
            if line % 10 == 2 {
                "1234x\n".to_string()
            } else {
                format!("{BOARD_A}\n")
            }
        })
        .collect()
}

#[test]
fn one_batch_on_this_thread_and_many_on_the_pool_print_the_same() {
    // 1 and 25 lines: one batch (on the calling thread with one job); 1,100: more than a
    // one-job batch of 1,024, so the pool and the pipeline run it. Error notes are printed up
    // to 20 per source, so the long input is checked on standard output and the count of notes.
    for lines in [1, 25, 1_100] {
        let (out, err, code) = expected(lines);
        for jobs in ["-j1", "-j2"] {
            let run = sudolab(&["count", "-s", "fast", jobs], &input(lines));
            assert_eq!(run.stdout, out, "{lines} lines, {jobs}");
            assert_eq!(run.code, code, "{lines} lines, {jobs}: {}", run.stderr);
            if lines <= 25 {
                assert_eq!(run.stderr, err, "{lines} lines, {jobs}");
            } else {
                let shown: Vec<&str> = err.lines().take(20).collect();
                let printed: Vec<&str> = run.stderr.lines().take(20).collect();
                assert_eq!(printed, shown, "{lines} lines, {jobs}");
                assert_eq!(
                    run.stderr.lines().nth(20),
                    Some(
                        "sudolab: <stdin>: 90 more input errors not shown (the first 20 are \
                         above)"
                    ),
                    "{lines} lines, {jobs}"
                );
            }
        }
    }
}

#[test]
fn an_empty_input_is_an_error_with_any_number_of_jobs() {
    for jobs in ["-j1", "-j2"] {
        let run = sudolab(&["count", "-s", "fast", jobs], "");
        assert_eq!(
            (run.stdout.as_str(), run.stderr.as_str(), run.code),
            (
                "",
                "sudolab: <stdin>: no puzzles found (the input is empty or only comments)\n",
                2
            ),
            "{jobs}"
        );
    }
}
