//! The command line as a first-time user meets it: puzzle arguments, strategy lists, one
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
    assert_eq!(run.code, 1, "no solution: {}", run.stderr);
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

#[test]
fn a_strategy_listed_twice_is_refused_everywhere() {
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "compare",
                "-s",
                "fast,dlx-knuth,fast",
                "corpora/reference.txt",
            ],
            "fast",
        ),
        (
            &["verify", "-s", "fast,fast", "corpora/reference.txt"],
            "fast",
        ),
        (&["trace", PUZZLE_4X4, "-s", "mrv,toggle,mrv"], "mrv"),
        (&["generate", "--size", "4", "--verify", "sat, sat"], "sat"),
        (
            &[
                "compare",
                "--strategies",
                "dlx-knuth",
                "-s",
                "dlx-knuth",
                "-",
            ],
            "dlx-knuth",
        ),
    ];
    for (args, twice) in cases {
        let run = sudolab(args, &format!("{PUZZLE_4X4}\n"));
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("sudolab: strategy '{twice}' is listed twice; each strategy runs once\n"),
            "{args:?}"
        );
        assert_eq!(run.stdout, "", "{args:?}");
    }
}

#[test]
fn verify_needs_two_different_strategies_before_it_reads() {
    // Refused before the input is opened: the missing file is never mentioned.
    for args in [
        &["verify", "-s", "fast", "missing.txt"][..],
        &["verify", "--strategies", "sat"][..],
    ] {
        let run = sudolab(args, &format!("{PUZZLE_4X4}\n"));
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        let strategy = args[2];
        assert_eq!(
            run.stderr,
            format!(
                "sudolab: verify needs at least two different strategies, so that each answer \
                 is re-proven by another method (given: {strategy}); the default is auto\n"
            ),
            "{args:?}"
        );
    }
}

#[test]
fn solve_writes_one_entry_per_input_puzzle() {
    let input = format!("12....3...4.....\n{PUZZLE_4X4}\n4..x.....1....2.\n{PUZZLE_4X4}\n");
    let run = sudolab(&["solve"], &input);
    assert_eq!(run.code, 2, "an unreadable puzzle is an error");
    assert_eq!(
        run.stdout,
        format!("none\n{SOLUTION_4X4}\nerror\n{SOLUTION_4X4}\n")
    );
    assert_eq!(
        run.stderr,
        "sudolab: <stdin>: line 1: no solution\n\
         sudolab: <stdin>: line 3, column 4: expected a digit 1-4 or '.', found 'x'\n"
    );
    let input = format!("12....3...4.....\n{PUZZLE_4X4}\n");
    let run = sudolab(&["solve"], &input);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, format!("none\n{SOLUTION_4X4}\n"));
    let run = sudolab(&["solve", "--output", "grid"], &input);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "none\n\n4 2 1 3\n1 3 4 2\n2 1 3 4\n3 4 2 1\n");
    let run = sudolab(&["solve", "--output", "json"], &input);
    assert_eq!(run.code, 1);
    let entries: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        entries[0],
        serde_json::json!({"verdict": "none", "source": "<stdin>", "line": 1, "reason": "no solution"})
    );
    assert_eq!(entries[1]["line"], 2);
    assert_eq!(entries[1]["cells"][0], serde_json::json!([4, 2, 1, 3]));
    // A search that gives up, and a shape the strategy refuses.
    let run = sudolab(
        &[
            "solve",
            "-s",
            "scan",
            "--max-nodes",
            "100",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout.lines().nth(1), Some("unknown"));
    let run = sudolab(
        &[
            "solve",
            "-s",
            "dlx",
            PUZZLE_4X4,
            "corpora/minimal-25x25.txt",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stdout,
        format!("{SOLUTION_4X4}\nerror\nerror\nerror\nerror\n")
    );
}

#[test]
fn puzzle_positions_count_from_one_and_refusals_are_errors() {
    for args in [
        &["trace", "corpora/reference.txt", "-p", "0"][..],
        &["trace", "corpora/reference.txt", "--puzzle-number", "0"][..],
        &["export", "cnf", "-p", "0", "corpora/reference.txt"][..],
        &["export", "cover", "--puzzle", "0", "corpora/reference.txt"][..],
    ] {
        let run = sudolab(args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert!(
            run.stderr
                .contains(": puzzle numbers count from 1 (1 is the first puzzle)"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // A 64x64 board is refused by `export cnf`: an error (2), not a negative answer (1).
    let side = 64;
    let mut grid_text = String::new();
    for row in 0..side {
        let values: Vec<String> = (0..side)
            .map(|col| ((8 * (row % 8) + row / 8 + col) % side + 1).to_string())
            .collect();
        grid_text.push_str(&values.join(" "));
        grid_text.push('\n');
    }
    let run = sudolab(&["export", "cnf"], &grid_text);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "sudolab: <stdin>: line 1: the CNF of a 64x64 board is too large to export (sides up to \
         36)\n"
    );
    // Conflicting givens are an answer: no exact cover exists (1).
    let run = sudolab(&["export", "cover", "11.............."], "");
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "sudolab: <arg 1>: line 1: the givens conflict, so no exact cover exists: digit 1 \
         appears twice in row 1 (r1c1 and r1c2)\n"
    );
}

#[test]
fn generate_auto_checker_fits_the_shape_and_messages_read_cleanly() {
    // `auto` takes sat from 16x16 on, but sat refuses 64x64 boards: fast checks them.
    let run = sudolab(&["generate", "--size", "64", "--count", "0", "--json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let header: serde_json::Value =
        serde_json::from_str(&run.stdout).expect("an empty document is still JSON");
    assert_eq!(header["checker"], "fast");
    let run = sudolab(&["generate", "--size", "16", "--count", "0", "--json"], "");
    let header: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(header["checker"], "sat");
    // Asked for by name, sat is refused for 64x64 with its reason.
    let run = sudolab(
        &["generate", "--size", "64", "--checker", "sat", "--json"],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("sudolab: the checker sat cannot check 8x8 boxes: "),
        "{}",
        run.stderr
    );
    let run = sudolab(&["generate", "--shard", "1/2", "--rating", "guess"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --shard splits the puzzles by index, but --rating skips candidates, so a shard \
         cannot know where its part starts; generate without --shard, or without --rating\n"
    );
}

#[test]
fn a_cut_trace_counts_up_to_the_cut_and_exits_1() {
    let run = sudolab(
        &[
            "trace",
            "corpora/reference.txt",
            "-p",
            "2",
            "-s",
            "scan",
            "--max-events",
            "50",
            "-o",
            "jsonl",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 50 + 1);
    let (summary, events) = lines.split_last().unwrap();
    assert_eq!(summary["cut"], true);
    assert_eq!(summary["verdict"], "unknown");
    assert_eq!(summary["counters"]["nodes"], events[49]["nodes"]);
    let count = |kind: &str| events.iter().filter(|e| e["event"] == kind).count() as u64;
    assert_eq!(
        summary["counters"]["placements"].as_u64(),
        Some(count("try"))
    );
    assert_eq!(
        summary["counters"]["backtracks"].as_u64(),
        Some(count("undo"))
    );
    // The text form says so in its summary.
    let run = sudolab(
        &[
            "trace",
            "corpora/reference.txt",
            "-p",
            "2",
            "-s",
            "scan",
            "--max-events",
            "50",
        ],
        "",
    );
    assert!(
        run.stdout
            .contains("\nnodes 17  placements 16  backtracks 11  (counted up to the cut)\n"),
        "{}",
        run.stdout
    );
    // A whole trace of a unique puzzle is a success.
    let run = sudolab(&["trace", PUZZLE_4X4, "-s", "dlx-knuth"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn untraceable_engines_say_their_own_reason() {
    let cases = [
        (
            "fast",
            "fast cannot be traced: its bit-parallel propagation, which fills many cells at once, \
             is not instrumented for events; trace mrv (the same fewest-candidates choice, one \
             cell at a time) or dlx-knuth to see forced moves",
        ),
        (
            "dlx",
            "dlx cannot be traced: its search runs inside the dlx-rs crate, which reports no \
             events; dlx-knuth is the same algorithm (Knuth's dancing links) with events",
        ),
        (
            "sat-minimal",
            "sat-minimal cannot be traced: its search runs inside the varisat crate, which \
             reports no events",
        ),
    ];
    for (engine, reason) in cases {
        let run = sudolab(&["trace", PUZZLE_4X4, "-s", engine], "");
        assert_eq!(run.code, 2, "{engine}");
        assert_eq!(run.stdout, "", "{engine}");
        assert_eq!(
            run.stderr,
            format!(
                "sudolab: {reason}; the strategies that can: {}\n",
                sudolab::trace::traceable_names().join(", ")
            ),
            "{engine}"
        );
    }
}

/// The subcommands of `sudolab` (and of its subcommands), as `--help` lists them.
fn subcommands(path: &[String]) -> Vec<Vec<String>> {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let help = sudolab(&args, "").stdout;
    let mut found = Vec::new();
    let listed = help
        .split("\nCommands:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_default();
    for line in listed.lines() {
        let name = line.split_whitespace().next().unwrap_or_default();
        // Command names are indented by two spaces; wrapped descriptions by more.
        if name.is_empty() || name == "help" || !line.starts_with("  ") || line.starts_with("   ") {
            continue;
        }
        let mut sub = path.to_vec();
        sub.push(name.to_string());
        found.push(sub.clone());
        found.extend(subcommands(&sub));
    }
    found
}

/// The example commands of a help text: the rest of an `Example: ` line, or each line of an
/// `Examples:` block; a line ending in `\` goes on on the next.
fn examples(help: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut in_block = false;
    for line in help.lines() {
        if let Some(command) = line.strip_prefix("Example: ") {
            lines.push(command.to_string());
            in_block = false;
        } else if line == "Examples:" {
            in_block = true;
        } else if in_block && line.starts_with("  ") {
            lines.push(line.to_string());
        } else {
            in_block = false;
        }
    }
    let mut commands: Vec<String> = Vec::new();
    let mut continues = false;
    for line in lines {
        if continues {
            let last = commands.last_mut().expect("a continued command");
            last.push('\n');
            last.push_str(&line);
        } else {
            commands.push(line.trim().to_string());
        }
        continues = line.ends_with('\\');
    }
    commands
}

/// Every `Example:` of every subcommand's help runs as written, from a directory that has the
/// project's corpora/ and docs/ (as a fresh clone does), with the binary on PATH: exit status 0,
/// or 1 where the example says "exit status 1".
#[test]
fn every_help_example_runs_on_a_fresh_clone() {
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_sudolab"));
    let scratch = std::env::temp_dir().join(format!("sudolab-examples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    for dir in ["corpora", "docs"] {
        std::os::unix::fs::symlink(project.join(dir), scratch.join(dir)).unwrap();
    }
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = Vec::new();
    let mut failures = Vec::new();
    let mut without_examples = Vec::new();
    for command in subcommands(&[]) {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.push("--help");
        let help = sudolab(&args, "");
        assert_eq!(help.code, 0, "{args:?}");
        let examples = examples(&help.stdout);
        if examples.is_empty() {
            without_examples.push(command.join(" "));
        }
        for example in examples {
            assert!(
                example.contains("sudolab "),
                "{command:?}: an example that does not run sudolab: {example}"
            );
            let started = std::time::Instant::now();
            let run = std::process::Command::new("sh")
                .arg("-c")
                .arg(&example)
                .current_dir(&scratch)
                .env("PATH", &path)
                .stdin(std::process::Stdio::null())
                .output()
                .expect("sh runs");
            let expected = i32::from(example.contains("exit status 1"));
            let stderr = String::from_utf8_lossy(&run.stderr);
            if run.status.code() != Some(expected) || stderr.contains("cannot open") {
                failures.push(format!(
                    "{}: `{example}` exited {:?} (expected {expected}): {stderr}",
                    command.join(" "),
                    run.status.code()
                ));
            }
            ran.push(format!("{:.1?} {example}", started.elapsed()));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every subcommand that does something shows how; the three groups' members do, and the
    // registry listing needs no example.
    assert_eq!(
        without_examples,
        ["grids", "explain", "strategies", "export"]
    );
    assert!(ran.len() >= 20, "{ran:#?}");
    eprintln!("{}", ran.join("\n"));
}

#[test]
fn trace_options_mean_what_they_mean_elsewhere() {
    // -f is the input form, -o the output form, -r the file, as in the other commands.
    let run = sudolab(
        &["trace", "-f", "grid", "-s", "mrv", "-o", "jsonl"],
        "4 0 0 3\n0 0 0 0\n0 1 0 0\n0 0 2 0\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("{\"depth\":0,\"nodes\":1,\"event\":\"choose\""),
        "{}",
        run.stdout
    );
    let scratch = std::env::temp_dir().join(format!("sudolab-trace-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let page = scratch.join("b.html");
    let run = sudolab(&["trace", PUZZLE_4X4, "-r", page.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>"),
        "the form follows the extension"
    );
    let _ = std::fs::remove_dir_all(&scratch);
    // The old spellings are refused with the new ones.
    let run = sudolab(&["trace", PUZZLE_4X4, "-f", "html"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "'html' is an output form: trace writes it with -o/--output html (and to a file with \
             -r/--report FILE); -f/--format is the input form (auto, line, grid, json), as in \
             every command"
        ),
        "{}",
        run.stderr
    );
    let run = sudolab(&["trace", PUZZLE_4X4, "-o", "b.html"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "expected text, jsonl or html, found 'b.html'; -o/--output is the output form, as in \
             solve and decode: write to a file with -r/--report b.html"
        ),
        "{}",
        run.stderr
    );
}
