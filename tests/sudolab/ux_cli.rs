//! The newcomer findings (issue 23) as CLI behaviour: puzzle arguments, strategy lists, one
//! output line per puzzle, positions, refusals and the help examples.

use crate::cli::sudolab;

const PUZZLE_4X4: &str = "4..3.....1....2.";
const SOLUTION_4X4: &str = "4213134221343421";

#[test]
fn trace_and_explain_read_standard_input_with_a_dash_or_no_puzzle() {
    let stdin = format!("{PUZZLE_4X4}\n");
    for args in [
        &["trace", "-", "-s", "mrv"][..],
        &["trace", "-s", "mrv"][..],
        &["trace", "4..3 .... .1.. ..2.", "-s", "mrv"][..],
    ] {
        let run = sudolab(args, &stdin);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stdout.lines().next(),
            Some("# trace of mrv on 4..3.....1....2."),
            "{args:?}"
        );
        assert_eq!(run.stderr, "", "{args:?}");
    }
    for args in [&["explain", "cover", "-"][..], &["explain", "cover"][..]] {
        let run = sudolab(args, &stdin);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(
            run.stdout
                .starts_with("exact cover of 4..3.....1....2.: 64 options (rows) x 64 items"),
            "{args:?}: {}",
            run.stdout
        );
    }
    // The second puzzle of standard input, by position.
    let run = sudolab(
        &["trace", "-p", "2", "-s", "toggle"],
        &format!("{PUZZLE_4X4}\n12......3...4...\n"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().next(),
        Some("# trace of toggle on 12......3...4...")
    );
    let run = sudolab(&["trace", "-p", "3"], &stdin);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: <stdin>: holds 1 puzzle, so there is no puzzle 3\n"
    );
}

#[test]
fn a_directory_argument_says_it_is_one() {
    let expected =
        "sudolab: corpora: is a directory; name the puzzle files in it (corpora/*.txt)\n";
    for args in [&["trace", "corpora"][..], &["count", "corpora"][..]] {
        let run = sudolab(args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stderr, expected, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
    }
    let run = sudolab(&["trace", "missing.txt"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: missing.txt: cannot open: no such file or directory\n"
    );
    let run = sudolab(&["trace", "1"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("'1' is neither a file nor a puzzle in line form: a one-symbol (1x1) puzzle is taken for a mistake; '-' reads standard input"),
        "{}",
        run.stderr
    );
}

#[test]
fn solve_count_and_verify_take_puzzles_typed_as_arguments() {
    let run = sudolab(&["solve", PUZZLE_4X4], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, format!("{SOLUTION_4X4}\n"));
    let run = sudolab(
        &[
            "count",
            "corpora/reference.txt",
            PUZZLE_4X4,
            "4..3 .... .1.. ..2.",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "corpora/reference.txt:3\tunique\t1\ncorpora/reference.txt:4\tunique\t1\n\
         <arg 2>:1\tunique\t1\n<arg 3>:1\tunique\t1\n"
    );
    let run = sudolab(&["verify", PUZZLE_4X4], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "<arg 1>:1\tverified\tunique by fast, dlx-knuth, sat\n"
    );
    // A mistyped puzzle is reported at its column; a file name still cannot be opened.
    let run = sudolab(&["count", "4..3..9..1....2.", "missing.txt"], "");
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines[0],
        "sudolab: <arg 1>: line 1, column 7: expected a digit 1-4 or '.', found '9'"
    );
    assert!(
        lines[1].starts_with("sudolab: missing.txt: cannot open: "),
        "{}",
        lines[1]
    );
}
