//! The command line, run as a user would: arguments, standard streams and exit codes.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde::Deserialize;

pub(crate) const BOARD_A: &str =
    "030260701680070090190004500820100040004602900050003028009300074040050036703018000";
pub(crate) const BOARD_A_SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";
const BOARD_B_SOLUTION: &str =
    "548761923217983456963542187392857641176294835854316792731428569425679318689135274";

/// What one run printed and how it ended.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `sudolab` from the project root with `stdin` as standard input.
pub(crate) fn sudolab(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().unwrap();
    // A command that exits early closes its end; that is fine here.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let output = child.wait_with_output().unwrap();
    Run {
        code: output
            .status
            .code()
            .expect("exited normally, not by a signal"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: without_load_warning(String::from_utf8(output.stderr).unwrap()),
    }
}

/// Standard error without the warning that the machine is busy: it depends on what else runs
/// (`provenance::a_json_report_identifies_the_build_the_data_and_the_machine` checks it).
fn without_load_warning(stderr: String) -> String {
    if !stderr.contains(LOAD_WARNING) {
        return stderr;
    }
    stderr
        .split_inclusive('\n')
        .filter(|line| !line.starts_with(LOAD_WARNING))
        .collect()
}

/// How the busy-machine warning begins.
pub(crate) const LOAD_WARNING: &str = "sudolab: warning: the load average was ";

#[test]
fn strategies_lists_the_registry() {
    let run = sudolab(&["strategies"], "");
    assert_eq!(run.code, 0);
    // Between the header line and the closing note on units.
    let names: Vec<&str> = run
        .stdout
        .lines()
        .skip(1)
        .filter(|line| !line.starts_with("unit: "))
        .map(|line| line.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names, sudolab::strategy::names());
}

#[test]
fn solve_prints_the_reference_solutions() {
    for strategy in sudolab::strategy::names() {
        let run = sudolab(&["solve", "-s", strategy, "corpora/reference.txt"], "");
        assert_eq!(run.code, 0, "{strategy}: {}", run.stderr);
        assert_eq!(
            run.stdout,
            format!("{BOARD_A_SOLUTION}\n{BOARD_B_SOLUTION}\n")
        );
        assert_eq!(run.stderr, "");
    }
}

#[test]
fn solve_reads_standard_input_and_reports_stats() {
    let run = sudolab(
        &["solve", "--stats", "-s", "toggle"],
        &format!("{BOARD_A}\n"),
    );
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, format!("{BOARD_A_SOLUTION}\n"));
    assert!(
        run.stderr
            .starts_with("<stdin>:1: strategy=toggle time_us="),
        "{}",
        run.stderr
    );
    // The counters of the search for a second solution too: solve proves uniqueness.
    assert!(
        run.stderr
            .ends_with(" nodes=66 placements=65 backtracks=65\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn grid_and_json_output_read_back_as_input() {
    let grid = sudolab(&["solve", "--output", "grid", "corpora/reference.txt"], "");
    assert_eq!(grid.code, 0);
    assert_eq!(grid.stdout.lines().next(), Some("4 3 5 2 6 9 7 8 1"));
    assert_eq!(grid.stdout.lines().count(), 9 + 1 + 9);
    let again = sudolab(&["solve"], &grid.stdout);
    assert_eq!(
        again.stdout,
        format!("{BOARD_A_SOLUTION}\n{BOARD_B_SOLUTION}\n")
    );

    let json = sudolab(
        &[
            "solve",
            "--strategy",
            "mrv",
            "--output",
            "json",
            "--stats",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(json.code, 0);
    let parsed: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(parsed[0]["box"], serde_json::json!([3, 3]));
    assert_eq!(parsed[1]["stats"]["nodes"], 219);
    assert_eq!(parsed[1]["line"], 4);
    let again = sudolab(&["count", "--format", "json"], &json.stdout);
    assert_eq!(again.stdout, "<stdin>:1\tunique\t1\n<stdin>:2\tunique\t1\n");
}

#[test]
fn count_gives_verdicts_and_exit_codes() {
    let run = sudolab(
        &["count", "--all"],
        "................\n12....3...4.....\n11..............\n",
    );
    assert_eq!(
        run.code, 1,
        "a puzzle without a solution is a negative result"
    );
    assert_eq!(
        run.stdout,
        "<stdin>:1\tmultiple\t288\n\
         <stdin>:2\tnone\t0\n\
         <stdin>:3\tnone\t0\t(givens conflict: digit 1 appears twice in row 1 (r1c1 and r1c2))\n"
    );
    let limited = sudolab(&["count", "--limit", "5"], "................\n");
    assert_eq!(limited.stdout, "<stdin>:1\tmultiple\t5+\n");
    assert_eq!(limited.code, 0);
}

#[test]
fn count_checks_known_counts() {
    let run = sudolab(
        &["count", "--all"],
        "................:288\n................:287\n",
    );
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "sudolab: <stdin>: line 2: found 288 solutions but the source says 287\n"
    );
}

#[test]
fn count_writes_json_lines() {
    let run = sudolab(
        &["count", "--json", "--stats", "-s", "scan"],
        &format!("{BOARD_A}\n"),
    );
    let object: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(object["verdict"], "unique");
    assert_eq!(object["solutions"], 1);
    assert_eq!(object["exhausted"], true);
    assert_eq!(object["stats"]["nodes"], 66);
}

#[test]
fn budgets_give_up_and_say_so() {
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
    assert_eq!(run.stdout, format!("{BOARD_A_SOLUTION}\nunknown\n"));
    assert_eq!(
        run.stderr,
        "sudolab: corpora/reference.txt: line 4: gave up: node budget used up (nodes=100 placements=100 backtracks=63)\n"
    );
    // r9c9 has no candidate (its row holds 1-8, its column a 9), which row-major search only
    // finds out after filling eight rows: a search that cannot finish in 50 ms.
    let trap = format!("{}9{}12345678.", ".".repeat(8), ".".repeat(63));
    let timed = sudolab(&["count", "-s", "scan", "--timeout", "50ms"], &trap);
    assert_eq!(timed.code, 1);
    assert_eq!(timed.stdout, "<stdin>:1\tunknown\t0+\t(timed out)\n");
    let decided = sudolab(&["count", "-s", "mrv"], &trap);
    assert_eq!(decided.stdout, "<stdin>:1\tnone\t0\n");
}

#[test]
fn every_size_and_form_is_handled() {
    // 6x6 with 2x3 boxes in the line form, 12x12 with 3x4 boxes in the grid form, and a 64x64
    // board (8x8 boxes) that only the grid form can carry.
    let six = sudolab(&["solve"], "..3..52......1.......56.5......62...\n");
    assert_eq!(six.stdout, "143625256314615432324561531246462153\n");

    let side = 64;
    let pattern = |row: usize, col: usize| (8 * (row % 8) + row / 8 + col) % side + 1;
    let mut grid_text = String::new();
    for row in 0..side {
        let values: Vec<String> = (0..side)
            .map(|col| {
                if (row + col) % 7 == 0 {
                    0
                } else {
                    pattern(row, col)
                }
                .to_string()
            })
            .collect();
        grid_text.push_str(&values.join(" "));
        grid_text.push('\n');
    }
    let run = sudolab(&["solve", "--output", "grid"], &grid_text);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let first_row: Vec<usize> = run
        .stdout
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(
        first_row,
        (0..side).map(|col| pattern(0, col)).collect::<Vec<_>>()
    );

    let refused = sudolab(&["solve"], &grid_text);
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr,
        "sudolab: <stdin>: line 1: the line form writes sides up to 35, this grid has side 64: use --output grid or --output json\n"
    );
}

#[test]
fn box_overrides_the_default_shape() {
    let run = sudolab(
        &["count", "--box", "3x2"],
        "1............1......................\n",
    );
    assert_eq!(
        run.stdout,
        "<stdin>:1\tnone\t0\t(givens conflict: digit 1 appears twice in box 1 (r1c1 and r3c2))\n"
    );
    let bad = sudolab(&["count", "--box", "9x9"], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("invalid value '9x9' for '--box <RxC>': box dimensions must be between 1 and 8, found 9x9"),
        "{}",
        bad.stderr
    );
}

#[test]
fn unknown_strategies_list_the_valid_ones() {
    let run = sudolab(&["solve", "-s", "magic"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: unknown strategy 'magic'; valid strategies: {}\n",
            sudolab::strategy::names().join(", ")
        )
    );
}

#[test]
fn missing_files_are_errors_and_the_others_still_run() {
    let run = sudolab(&["count", "no-such-file.txt", "corpora/reference.txt"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("sudolab: no-such-file.txt: cannot open: "),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout.lines().count(), 2);
}

#[test]
fn a_ten_megabyte_line_is_one_error() {
    let mut input = "1".repeat(10 << 20);
    input.push('\n');
    input.push_str(BOARD_A);
    input.push('\n');
    let run = sudolab(&["count"], &input);
    assert_eq!(run.code, 2);
    // Nothing after the limit is read: the rest of an over-long line cannot be told from an
    // endless one.
    assert_eq!(
        run.stderr,
        "sudolab: <stdin>: line 1, column 1048577: expected a puzzle, found a line longer than \
         1048576 bytes (the longest a puzzle line may be); the rest of the input is not read\n"
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut many = String::new();
    for _ in 0..20_000 {
        many.push_str(BOARD_A);
        many.push('\n');
    }
    let path = std::env::temp_dir().join(format!("sudolab-pipe-{}.txt", std::process::id()));
    std::fs::write(&path, many).unwrap();
    let status = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -o pipefail; '{}' solve -s toggle '{}' | head -n 1 > /dev/null",
            env!("CARGO_BIN_EXE_sudolab"),
            path.display()
        ))
        .status()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(
        status.success(),
        "sudolab failed when its reader went away: {status}"
    );
}

#[derive(Deserialize)]
struct Expected {
    input: Vec<MalformedInput>,
}

#[derive(Deserialize)]
struct MalformedInput {
    file: String,
    stderr: Vec<String>,
    stdout: Vec<String>,
    exit: i32,
}

/// Every file in `corpora/malformed/` gets exactly the diagnostics listed for it.
#[test]
fn malformed_inputs_get_exact_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/malformed");
    let expected: Expected =
        toml::from_str(&std::fs::read_to_string(dir.join("expected.toml")).unwrap()).unwrap();
    let mut listed: Vec<&str> = expected
        .input
        .iter()
        .map(|input| input.file.as_str())
        .collect();
    listed.sort_unstable();
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "expected.toml")
        .collect();
    present.sort_unstable();
    assert_eq!(listed, present, "every malformed file has its expectation");

    for input in &expected.input {
        let path = format!("corpora/malformed/{}", input.file);
        let run = sudolab(&["count", &path], "");
        let stderr: Vec<String> = input
            .stderr
            .iter()
            .map(|line| format!("sudolab: {path}: {line}\n"))
            .collect();
        assert_eq!(run.stderr, stderr.concat(), "{}", input.file);
        let stdout: Vec<String> = input
            .stdout
            .iter()
            .map(|line| format!("{path}:{line}\n"))
            .collect();
        assert_eq!(run.stdout, stdout.concat(), "{}", input.file);
        assert_eq!(run.code, input.exit, "{}", input.file);
    }
}

#[test]
fn help_teaches_the_forms_and_exit_codes() {
    let run = sudolab(&["--help"], "");
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .contains("Exit status: 0 success, 1 a negative result")
    );
    let solve_help = sudolab(&["solve", "--help"], "");
    assert!(solve_help.stdout.contains("--max-nodes <N>"));
    assert!(
        solve_help
            .stdout
            .contains("Example: echo 4..3.....1....2. | sudolab solve --output grid")
    );
}

#[test]
fn export_cnf_round_trips_through_decode() {
    let run = sudolab(&["export", "cnf"], &format!("{BOARD_A}\n"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\nc sudolab box 3x3\n"));
    assert!(
        run.stdout.contains("\np cnf 84 383\n"),
        "board A has 84 candidates"
    );
    // A model made from the known solution, in MiniSat's result format.
    let solution: Vec<u8> = BOARD_A_SOLUTION.bytes().map(|b| b - b'0').collect();
    let mut literals = Vec::new();
    for line in run.stdout.lines() {
        if let Some(rest) = line.strip_prefix("c sudolab var ") {
            let numbers: Vec<usize> = rest.split(' ').map(|n| n.parse().unwrap()).collect();
            let (var, row, col, digit) = (numbers[0], numbers[1], numbers[2], numbers[3]);
            let holds = solution[(row - 1) * 9 + col - 1] as usize == digit;
            literals.push(if holds {
                format!("{var}")
            } else {
                format!("-{var}")
            });
        }
    }
    let dir = std::env::temp_dir().join(format!("sudolab-decode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cnf_path, model_path) = (dir.join("a.cnf"), dir.join("a.model"));
    std::fs::write(&cnf_path, &run.stdout).unwrap();
    std::fs::write(&model_path, format!("SAT\n{} 0\n", literals.join(" "))).unwrap();
    let decoded = sudolab(
        &[
            "decode",
            cnf_path.to_str().unwrap(),
            model_path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(decoded.stdout, format!("{BOARD_A_SOLUTION}\n"));
    std::fs::write(&model_path, "s UNSATISFIABLE\n").unwrap();
    let unsat = sudolab(
        &[
            "decode",
            cnf_path.to_str().unwrap(),
            model_path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(unsat.code, 1);
    std::fs::write(&model_path, "v 1 2 3 x 0\n").unwrap();
    let broken = sudolab(
        &[
            "decode",
            cnf_path.to_str().unwrap(),
            model_path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(broken.code, 2);
    assert!(
        broken
            .stderr
            .ends_with("model line 1: expected a literal (a signed variable number), found 'x'\n"),
        "{}",
        broken.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_cover_writes_the_dlx1_format_and_picks_puzzles() {
    let run = sudolab(
        &["export", "cover", "--puzzle", "1", "corpora/reference.txt"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|line| !line.starts_with('|'))
        .collect();
    assert_eq!(
        lines[0].split(' ').count(),
        176,
        "4 * 81 items less 4 per given"
    );
    assert_eq!(lines.len() - 1, 84, "one option per candidate");
    assert_eq!(lines[1], "p1.1 r1.4 c1.4 b1.4");

    let ambiguous = sudolab(&["export", "cover", "corpora/reference.txt"], "");
    assert_eq!(ambiguous.code, 2);
    assert_eq!(
        ambiguous.stderr,
        "sudolab: the input holds 2 puzzles: pick one with --puzzle N, or write them all with --out-dir DIR\n"
    );
    let beyond = sudolab(
        &["export", "cnf", "--puzzle", "5", "corpora/reference.txt"],
        "",
    );
    assert_eq!(
        beyond.stderr,
        "sudolab: --puzzle 5: the input holds only 2 puzzles\n"
    );
    let clash = sudolab(&["export", "cover"], "11..............\n");
    assert_eq!(clash.code, 1);
    assert_eq!(
        clash.stderr,
        "sudolab: <stdin>: line 1: the givens conflict, so no exact cover exists: digit 1 appears twice in row 1 (r1c1 and r1c2)\n"
    );
}
