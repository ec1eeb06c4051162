//! Every claim checked and every problem reported: count claims in `verify` and `solve`, the
//! default engine by size, puzzles with several solutions in `solve`, side files that do not
//! match their corpus, problems in the streamed report forms, and shards merged by content.

use std::path::PathBuf;

use crate::cli::{BOARD_A, BOARD_A_SOLUTION, sudolab};

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudolab-claims-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn verify_and_solve_check_a_count_claim_as_count_does() {
    for claimed in ["2", "0"] {
        let line = format!("{BOARD_A}:{claimed}\n");
        let count = sudolab(&["count"], &line);
        assert_eq!(count.code, 1, "count flags the claim: {}", count.stderr);
        assert_eq!(
            count.stderr,
            format!("sudolab: <stdin>: line 1: found 1 solutions but the source says {claimed}\n")
        );

        let verify = sudolab(&["verify"], &line);
        assert_eq!(verify.code, count.code, "{}", verify.stdout);
        assert_eq!(
            verify.stdout,
            format!(
                "<stdin>:1\tFAILED\tfast says unique (1), but the corpus gives {claimed} \
                 solutions; dlx-knuth says unique (1), but the corpus gives {claimed} \
                 solutions; sat says unique (1), but the corpus gives {claimed} solutions\n"
            )
        );

        let solve = sudolab(&["solve"], &line);
        assert_eq!(solve.code, count.code);
        assert_eq!(solve.stdout, format!("{BOARD_A_SOLUTION}\n"));
        assert_eq!(solve.stderr, count.stderr);
    }
    // A true claim passes all three.
    let line = format!("{BOARD_A}:1\n");
    for command in ["count", "verify", "solve"] {
        let run = sudolab(&[command], &line);
        assert_eq!(run.code, 0, "{command}: {}", run.stderr);
    }
}

#[test]
fn the_default_engine_is_sat_on_a_25x25_puzzle_and_fast_on_a_9x9() {
    // The first minimal 25x25 puzzle of the corpus: fast does not decide it in minutes, sat in
    // seconds. The budget only keeps a regression from hanging the suite.
    let big = sudolab(
        &[
            "count",
            "--json",
            "--timeout",
            "120s",
            "corpora/minimal-25x25.txt",
        ],
        "",
    );
    let first: serde_json::Value =
        serde_json::from_str(big.stdout.lines().next().expect("a line")).expect("JSON");
    assert_eq!(first["strategy"], "sat", "{}", big.stdout);
    assert_eq!(first["verdict"], "unique");

    let small = sudolab(&["count", "--stats"], &format!("{BOARD_A}\n"));
    assert_eq!(small.code, 0);
    assert!(
        small.stdout.starts_with("<stdin>:1\tunique\t1\tstrategy=fast\ttime_us="),
        "{}",
        small.stdout
    );
    let solved = sudolab(&["solve", "--output", "json"], &format!("{BOARD_A}\n"));
    let answers: serde_json::Value = serde_json::from_str(&solved.stdout).expect("JSON");
    assert_eq!(answers[0]["strategy"], "fast");
    assert_eq!(answers[0]["verdict"], "unique");

    // A named engine is the user's; a node budget leaves auto only the engines that count
    // nodes; an unknown name lists the valid ones.
    let named = sudolab(&["count", "--json", "-s", "dlx-knuth"], &format!("{BOARD_A}\n"));
    assert!(named.stdout.contains("\"strategy\":\"dlx-knuth\""));
    let budget = sudolab(
        &["count", "--json", "--max-nodes", "1000", "corpora/minimal-25x25.txt"],
        "",
    );
    assert!(
        budget.stdout.contains("\"strategy\":\"fast\"") && !budget.stdout.contains("\"sat\""),
        "{}",
        budget.stdout
    );
}

#[test]
fn solve_says_when_a_puzzle_has_several_solutions_and_unique_refuses_it() {
    let open = "................\n";
    let plain = sudolab(&["solve"], open);
    assert_eq!(plain.code, 0);
    assert_eq!(plain.stdout, "1234341221434321\n");
    assert_eq!(
        plain.stderr,
        "sudolab: <stdin>: line 1: several solutions; this is one of them (--unique refuses \
         such puzzles)\n"
    );
    let json = sudolab(&["solve", "--output", "json"], open);
    let answers: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(answers[0]["verdict"], "multiple");

    let unique = sudolab(&["solve", "--unique"], open);
    assert_eq!(unique.code, 1);
    assert_eq!(unique.stdout, "multiple\n");
    assert_eq!(
        unique.stderr,
        "sudolab: <stdin>: line 1: several solutions, and --unique asks for one\n"
    );
    let unique_json = sudolab(&["solve", "--unique", "--output", "json"], open);
    assert_eq!(unique_json.code, 1);
    let answers: serde_json::Value = serde_json::from_str(&unique_json.stdout).expect("JSON");
    assert_eq!(answers[0]["verdict"], "multiple");
    assert_eq!(
        answers[0]["reason"],
        "several solutions, and --unique asks for one"
    );

    // A unique puzzle is solved as before, with or without the flag.
    let proper = sudolab(&["solve", "--unique"], &format!("{BOARD_A}\n"));
    assert_eq!((proper.code, proper.stderr.as_str()), (0, ""));
    assert_eq!(proper.stdout, format!("{BOARD_A_SOLUTION}\n"));
}
