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
        small
            .stdout
            .starts_with("<stdin>:1\tunique\t1\tstrategy=fast\ttime_us="),
        "{}",
        small.stdout
    );
    let solved = sudolab(&["solve", "--output", "json"], &format!("{BOARD_A}\n"));
    let answers: serde_json::Value = serde_json::from_str(&solved.stdout).expect("JSON");
    assert_eq!(answers[0]["strategy"], "fast");
    assert_eq!(answers[0]["verdict"], "unique");

    // A named engine is the user's; a node budget leaves auto only the engines that count
    // nodes; an unknown name lists the valid ones.
    let named = sudolab(
        &["count", "--json", "-s", "dlx-knuth"],
        &format!("{BOARD_A}\n"),
    );
    assert!(named.stdout.contains("\"strategy\":\"dlx-knuth\""));
    let budget = sudolab(
        &[
            "count",
            "--json",
            "--max-nodes",
            "1000",
            "corpora/minimal-25x25.txt",
        ],
        "",
    );
    assert!(
        budget.stdout.contains("\"strategy\":\"fast\"") && !budget.stdout.contains("\"sat\""),
        "{}",
        budget.stdout
    );
}

#[test]
fn verify_by_default_asks_the_engines_the_policy_picks_for_each_size() {
    let sixteen = std::fs::read_to_string("corpora/generated/16x16.txt").expect("bundled");
    let sixteen = sixteen
        .lines()
        .find(|line| !line.starts_with('#'))
        .expect("a 16x16 puzzle");
    let input = format!("{BOARD_A}\n{sixteen}\n");
    let run = sudolab(&["verify"], &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Exact cover decides almost no large minimal puzzle, so from 13x13 the policy asks SAT
    // and propagation, SAT first; a 9x9 puzzle gets all three methods.
    assert_eq!(
        run.stdout,
        "<stdin>:1\tverified\tunique by fast, dlx-knuth, sat\n\
         <stdin>:2\tverified\tunique by sat, fast\n"
    );
    let named = sudolab(&["verify", "-s", "fast,dlx-knuth"], &input);
    assert_eq!(named.code, 0, "{}", named.stderr);
    assert!(
        named
            .stdout
            .ends_with("<stdin>:2\tverified\tunique by fast, dlx-knuth\n"),
        "a named list is the user's, at every size: {}",
        named.stdout
    );
    let mixed = sudolab(&["verify", "-s", "auto,sat"], &input);
    assert_eq!(mixed.code, 2);
    assert_eq!(
        mixed.stderr,
        "sudolab: 'auto' picks every verifier of each puzzle by itself and cannot be listed \
         beside other strategies (given: auto, sat)\n"
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

#[test]
fn side_files_of_another_length_and_a_sample_larger_than_the_input_are_refused_at_once() {
    let dir = scratch("side");
    let reference = "corpora/reference.txt"; // two puzzles
    for (name, text, lines) in [
        ("short", "1\n", "1 line"),
        ("long", "1\n1\n1\n", "3 lines"),
        ("empty", "", "0 lines"),
    ] {
        let side = dir.join(format!("{name}.txt"));
        std::fs::write(&side, text).expect("a side file");
        for option in ["--expect-counts", "--expect-solutions"] {
            let report = dir.join(format!("{name}.json"));
            let run = sudolab(
                &[
                    "compare",
                    "-s",
                    "fast",
                    option,
                    side.to_str().expect("UTF-8"),
                    "-r",
                    report.to_str().expect("UTF-8"),
                    reference,
                ],
                "",
            );
            assert_eq!(run.code, 2, "{name} {option}: {}", run.stderr);
            assert_eq!(
                run.stderr,
                format!(
                    "sudolab: {}: {lines}, but {reference} holds 2 puzzles; line i answers \
                     puzzle i, so a side file has one line per puzzle\n",
                    side.display()
                ),
                "{name} {option}"
            );
            // Refused before anything ran: no table, no report.
            assert_eq!(run.stdout, "");
            assert!(!report.exists(), "{name} {option}");
        }
    }
    // One line per puzzle (a trailing blank line is no puzzle's) runs.
    let right = dir.join("right.txt");
    std::fs::write(&right, "1\n1\n\n").expect("a side file");
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            "--expect-counts",
            right.to_str().expect("UTF-8"),
            reference,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);

    let sample = sudolab(&["compare", "-s", "fast", "--sample", "3", reference], "");
    assert_eq!(sample.code, 2);
    assert_eq!(
        sample.stderr,
        "sudolab: a sample of 3 puzzles was asked for, but the input holds 2; ask for at most 2, \
         or leave out the sample to take every puzzle\n"
    );
    assert_eq!(sample.stdout, "");
    let whole = sudolab(&["compare", "-s", "fast", "--sample", "2", reference], "");
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn csv_and_json_lines_carry_the_problems_and_input_errors() {
    let dir = scratch("forms");
    // A count claim the engines contradict, then a line that is not a puzzle; the file's name
    // is a spreadsheet formula.
    let name = "=cmd|calc.txt";
    std::fs::write(dir.join(name), format!("{BOARD_A}:2\nxyz\n")).expect("an input");
    let (csv, jsonl) = (dir.join("r.csv"), dir.join("r.jsonl"));
    // Run in the directory, so that the source's name starts with the formula.
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args([
            "compare", "-s", "fast", "-r", "r.csv", "-r", "r.jsonl", name,
        ])
        .current_dir(&dir)
        .output()
        .expect("the binary runs");
    assert_eq!(run.status.code(), Some(2), "an input error");
    let error = format!(
        "{name}: line 2, column 1: expected n*n symbols for a side n of 1 to 35 (16 for 4x4, 36 \
         for 6x6, 81 for 9x9, 144 for 12x12, 256 for 16x16, 625 for 25x25), found 3"
    );

    // JSON lines: the row, then a record per problem and per input error.
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&jsonl)
        .expect("the JSON lines")
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["strategy"], "fast");
    assert_eq!(
        lines[1],
        serde_json::json!({
            "record": "problem",
            "puzzle": 0,
            "source": format!("{name}:1"),
            "grid": ".3.26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...",
            "kind": "contradicts_known_count",
            "strategies": ["fast"],
            "detail": "fast says unique (1), but the corpus gives 2 solutions",
        })
    );
    assert_eq!(
        lines[2],
        serde_json::json!({"record": "input_error", "message": error})
    );

    // CSV: the rows' file, its source cell made inert, and the problems file beside it.
    let rows = std::fs::read_to_string(&csv).expect("the CSV");
    let row = rows.lines().nth(1).expect("a row");
    assert!(
        row.starts_with(&format!("0,'{name}:1,9,37,fast,unique,1,true,")),
        "{row}"
    );
    assert_eq!(rows.lines().count(), 2);
    let problems = std::fs::read_to_string(dir.join("r.problems.csv")).expect("the problems");
    let records: Vec<Vec<String>> = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(problems.as_bytes())
        .records()
        .map(|record| record.expect("a record").iter().map(String::from).collect())
        .collect();
    let grid = lines[1]["grid"].as_str().expect("a grid");
    let detail = "fast says unique (1), but the corpus gives 2 solutions";
    let expected: [Vec<String>; 3] = [
        "record,puzzle,source,grid,kind,strategies,detail"
            .split(',')
            .map(String::from)
            .collect(),
        [
            "problem",
            "0",
            &format!("'{name}:1"),
            grid,
            "contradicts_known_count",
            "fast",
            detail,
        ]
        .map(String::from)
        .to_vec(),
        ["input_error", "", "", "", "", "", &format!("'{error}")]
            .map(String::from)
            .to_vec(),
    ];
    assert_eq!(records, expected);

    // A clean run's problems file is its header alone.
    let clean = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            "-r",
            csv.to_str().expect("UTF-8"),
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(clean.code, 0);
    assert_eq!(
        std::fs::read_to_string(dir.join("r.problems.csv")).expect("the problems"),
        "record,puzzle,source,grid,kind,strategies,detail\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shards_merge_by_the_content_of_their_inputs_not_the_path_that_named_them() {
    let dir = scratch("merge");
    let corpus = dir.join("c.txt");
    std::fs::copy("corpora/generated/4x4.txt", &corpus).expect("a copy");
    let shard = |index: &str, input: &str, report: &str| {
        let report = dir.join(report);
        let run = sudolab(
            &[
                "compare",
                "-s",
                "fast",
                "--shard",
                index,
                "-r",
                report.to_str().expect("UTF-8"),
                input,
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        report.to_str().expect("UTF-8").to_string()
    };
    // The same file by an absolute path and by a relative one: up from the project root
    // (where the commands run) to `/`, then down (`..` at `/` stays there).
    let absolute = corpus.to_str().expect("UTF-8").to_string();
    let ups = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .components()
        .count();
    let relative = format!("{}{}", "../".repeat(ups), absolute.trim_start_matches('/'));
    let (a, b) = (
        shard("1/2", &absolute, "a.json"),
        shard("2/2", &relative, "b.json"),
    );
    let merged = sudolab(&["report", &a, &b], "");
    assert_eq!(merged.code, 0, "{}", merged.stderr);

    // The file edited before the second shard: another input.
    let mut text = std::fs::read_to_string(&corpus).expect("the corpus");
    text.push_str("1234341221434321\n");
    std::fs::write(&corpus, text).expect("an edit");
    let edited = shard("2/2", &absolute, "b2.json");
    let refused = sudolab(&["report", &a, &edited], "");
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.starts_with(&format!(
            "sudolab: {edited} and {a} are shards of different runs: input contents {absolute} \
             (sha256:"
        )),
        "{}",
        refused.stderr
    );
    std::fs::remove_dir_all(&dir).ok();
}
