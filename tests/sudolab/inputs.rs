//! Inputs, certificates and the human-style commands at their limits: endless and over-long
//! inputs end with an error naming their place, certificates are read in bounded memory and
//! held to their puzzles.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::sudolab;

/// A command that must end: killed, and the test failed, if it runs past this. Every command
/// here ends in well under a second on an idle machine; the margin is for a loaded one.
const MUST_END_WITHIN: Duration = Duration::from_secs(60);

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("sudolab-inputs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How a bounded run ended, and how many bytes of the fed stream the child took before it
/// closed its input.
struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    fed: u64,
}

/// Runs `program args` from the project root, feeding its standard input from `feed` (up to
/// `feed_limit` bytes, stopping when the child closes its end), and kills it and fails the
/// test if it has not ended within [`MUST_END_WITHIN`].
fn run_bounded(
    program: &str,
    args: &[&str],
    mut feed: impl Read + Send + 'static,
    feed_limit: u64,
) -> Ended {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command runs");
    let mut input = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let mut chunk = vec![0_u8; 1 << 16];
        let mut fed = 0_u64;
        while fed < feed_limit {
            let want = usize::try_from((feed_limit - fed).min(chunk.len() as u64)).unwrap();
            let got = feed.read(&mut chunk[..want]).unwrap();
            if got == 0 || input.write_all(&chunk[..got]).is_err() {
                break;
            }
            fed += got as u64;
        }
        fed
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > MUST_END_WITHIN {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{program} {args:?} still ran after {MUST_END_WITHIN:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ended {
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        fed: feeder.join().unwrap(),
    }
}

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_sudolab")
}

#[test]
fn count_of_dev_zero_ends_with_an_error() {
    let ended = run_bounded(binary(), &["count", "/dev/zero"], std::io::empty(), 0);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert_eq!(ended.stdout, "");
    assert!(
        ended.stderr.contains(
            "/dev/zero: line 1, column 1: expected puzzle text, found byte 0x00: this looks like \
             a binary file"
        ),
        "{}",
        ended.stderr
    );
}

#[test]
fn an_endless_line_on_standard_input_is_refused_at_the_limit() {
    // A stream of one symbol and no line end: the reader stops at the limit and says where,
    // without reading the rest (the feeder meets a closed pipe long before its 64 MiB).
    let endless = std::io::repeat(b'1');
    let ended = run_bounded(binary(), &["count"], endless, 64 << 20);
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert!(
        ended.stderr.contains(
            "<stdin>: line 1, column 1048577: expected a puzzle, found a line longer than \
             1048576 bytes (the longest a puzzle line may be); the rest of the input is not read"
        ),
        "{}",
        ended.stderr
    );
    assert!(ended.fed < 16 << 20, "fed {} bytes", ended.fed);
}

#[test]
fn an_over_long_line_in_a_file_is_an_error_with_its_place() {
    let dir = Scratch::new("long-line");
    let file = dir.join("long.txt");
    let mut text = String::from("4..3.....1....2.\n# a comment\n");
    text.push_str(&"2".repeat(2 << 20));
    text.push_str("\n4..3.....1....2.\n");
    std::fs::write(&file, text).unwrap();
    let run = sudolab(&["count", file.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stdout, format!("{}:1\tunique\t1\n", file.display()));
    assert!(
        run.stderr.contains(&format!(
            "{}: line 3, column 1048577: expected a puzzle, found a line longer than 1048576 \
             bytes (the longest a puzzle line may be); the rest of the input is not read",
            file.display()
        )),
        "{}",
        run.stderr
    );
}

/// Runs `sudolab ARGS` under an address-space limit of `megabytes`, set by the shell before
/// it runs the binary, with `feed` on standard input.
fn run_with_memory_limit(
    megabytes: u64,
    args: &[&str],
    feed: impl Read + Send + 'static,
    feed_limit: u64,
) -> Ended {
    let script = format!("ulimit -v {} && exec \"$0\" \"$@\"", megabytes * 1024);
    let mut all = vec!["-c", script.as_str(), binary()];
    all.extend_from_slice(args);
    run_bounded("sh", &all, feed, feed_limit)
}

/// The address space `check-cert` is given below: a legitimate certificate checks well inside
/// it, and a reader that held a 200 MB line (the old one took about nine times a file's size)
/// cannot.
const CHECK_CERT_MEGABYTES: u64 = 1024;

#[test]
fn check_cert_reads_a_huge_puzzle_line_in_bounded_memory() {
    // A legitimate certificate checks under the limit.
    let dir = Scratch::new("cert-memory");
    let certified = sudolab(
        &["certify", "corpora/reference.txt", "--out", dir.path()],
        "",
    );
    assert_eq!(certified.code, 0, "{}", certified.stderr);
    let ended = run_with_memory_limit(
        CHECK_CERT_MEGABYTES,
        &["check-cert", dir.path()],
        std::io::empty(),
        0,
    );
    assert_eq!(ended.code, Some(0), "{}{}", ended.stdout, ended.stderr);
    // A 200 MB puzzle line, streamed: refused at its 64 KiB line bound.
    let head = "sudolab-certificate 1\nsource huge\nbox 3 3\npuzzle ";
    let huge = head.as_bytes().chain(ZeroSpace);
    let ended = run_with_memory_limit(
        CHECK_CERT_MEGABYTES,
        &["check-cert", "/dev/stdin"],
        huge,
        200 << 20,
    );
    assert_eq!(ended.code, Some(1), "{}{}", ended.stdout, ended.stderr);
    assert_eq!(
        ended.stdout,
        "FAILED /dev/stdin format: line 4: longer than 65536 bytes (the longest a line before \
         the proof may be)\n"
    );
    assert!(ended.fed < 16 << 20, "fed {} bytes", ended.fed);
}

/// An endless `0 0 0 ...`.
struct ZeroSpace;

impl Read for ZeroSpace {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        for (index, byte) in buf.iter_mut().enumerate() {
            *byte = if index % 2 == 0 { b'0' } else { b' ' };
        }
        Ok(buf.len() & !1)
    }
}

#[test]
fn check_cert_refuses_a_certificate_linked_to_dev_zero() {
    let dir = Scratch::new("cert-zero");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.cert")).unwrap();
    let ended = run_with_memory_limit(
        CHECK_CERT_MEGABYTES,
        &["check-cert", dir.path()],
        std::io::empty(),
        0,
    );
    assert_eq!(ended.code, Some(1), "{}{}", ended.stdout, ended.stderr);
    assert_eq!(
        ended.stdout,
        format!(
            "FAILED {} format: line 1: longer than 65536 bytes (the longest a line before the \
             proof may be)\n",
            dir.join("zero.cert").display()
        )
    );
}

/// Certificates of `corpora/reference.txt` (boards A and B) in a scratch directory.
fn reference_certificates(name: &str) -> Scratch {
    let dir = Scratch::new(name);
    let run = sudolab(
        &["certify", "corpora/reference.txt", "--out", dir.path()],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    dir
}

const BOARD_A_LINE: &str =
    ".3.26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";
const BOARD_B_LINE: &str =
    ".4..6..2.....8....96..4..8739.8.7.41....9....8..3.6..27.......9..5...3..6..1.5..4";

#[test]
fn checked_lines_name_the_puzzle_and_puzzles_are_held_to_their_certificates() {
    let dir = reference_certificates("cert-tie");
    let a = dir.join("reference-00001.cert");
    let b = dir.join("reference-00002.cert");
    let run = sudolab(
        &[
            "check-cert",
            dir.path(),
            "--puzzles",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(
        lines[0].starts_with(&format!("checked {} unique {BOARD_A_LINE} (", a.display())),
        "{}",
        run.stdout
    );
    assert!(
        lines[1].starts_with(&format!("checked {} unique {BOARD_B_LINE} (", b.display())),
        "{}",
        run.stdout
    );

    // Board A's certificate saved under board B's name is refused, naming both puzzles.
    std::fs::copy(&a, &b).unwrap();
    let run = sudolab(
        &[
            "check-cert",
            dir.path(),
            "--puzzles",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(&format!(
            "FAILED {} puzzle: this certificate is for another puzzle: it proves {BOARD_A_LINE} \
             (box 3x3), not puzzle 2 of corpora/reference.txt ({BOARD_B_LINE})\n",
            b.display()
        )),
        "{}",
        run.stdout
    );

    // One certificate held to a puzzle typed on the command line.
    let run = sudolab(
        &["check-cert", a.to_str().unwrap(), "--puzzle", BOARD_A_LINE],
        "",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = sudolab(
        &["check-cert", a.to_str().unwrap(), "--puzzle", BOARD_B_LINE],
        "",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "FAILED {} puzzle: this certificate is for another puzzle: it proves {BOARD_A_LINE} \
             (box 3x3), not the puzzle given ({BOARD_B_LINE})\n",
            a.display()
        )
    );
}

#[test]
fn certificates_by_position_and_a_missing_puzzle() {
    let dir = reference_certificates("cert-position");
    let renamed = dir.join("first.cert");
    std::fs::rename(dir.join("reference-00002.cert"), &renamed).unwrap();
    // `first.cert` is not named for the puzzle file, so it is held to the puzzle at its own
    // position among the certificates given: the first, board A, which it does not prove.
    let run = sudolab(
        &[
            "check-cert",
            renamed.to_str().unwrap(),
            "--puzzles",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(&format!(
            "it proves {BOARD_B_LINE} (box 3x3), not puzzle 1 of corpora/reference.txt"
        )),
        "{}",
        run.stdout
    );
    let three = dir.join("reference-00003.cert");
    std::fs::copy(&renamed, &three).unwrap();
    let run = sudolab(
        &[
            "check-cert",
            three.to_str().unwrap(),
            "--puzzles",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "FAILED {} puzzle: corpora/reference.txt has 2 puzzles, so no puzzle 3 to hold this \
             certificate to\n",
            three.display()
        )
    );
}

#[test]
fn a_certificate_with_a_repeated_line_is_refused_with_its_line() {
    let dir = reference_certificates("cert-repeat");
    let a = dir.join("reference-00001.cert");
    let text = std::fs::read_to_string(&a).unwrap();
    let puzzle_line = text
        .lines()
        .find(|line| line.starts_with("puzzle "))
        .unwrap();
    let at = text
        .lines()
        .position(|line| line.starts_with("puzzle "))
        .unwrap()
        + 1;
    // A second puzzle line, the other board's givens: the old reader kept the last one.
    let other = format!(
        "puzzle {}",
        BOARD_B_LINE
            .replace('.', "0")
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let doubled = text.replace(puzzle_line, &format!("{puzzle_line}\n{other}"));
    std::fs::write(&a, doubled).unwrap();
    let run = sudolab(&["check-cert", a.to_str().unwrap()], "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "FAILED {} format: line {}: a second 'puzzle' line (the first is line {at})\n",
            a.display(),
            at + 1
        )
    );
}

/// The first puzzle of `corpora/minimal-25x25.txt`, whose uniqueness takes `fast` seconds of
/// search: far past the budgets of the tests that use it.
fn minimal_25x25() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/minimal-25x25.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let line = text
        .lines()
        .find(|line| !line.starts_with('#') && !line.trim().is_empty())
        .unwrap();
    line.split_whitespace().next().unwrap().to_string()
}

#[test]
fn rate_hint_and_steps_give_up_at_their_budget() {
    let puzzle = minimal_25x25();
    let feed = |text: &str| std::io::Cursor::new(format!("{text}\n").into_bytes());
    let gave_up = "gave up: the uniqueness check stopped at its budget (deadline)";
    let ended = run_bounded(
        binary(),
        &["rate", "--timeout", "200ms"],
        feed(&puzzle),
        u64::MAX,
    );
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    assert_eq!(ended.stdout, format!("<stdin>:1\t{gave_up}\n"));
    assert!(
        ended
            .stderr
            .contains(&format!("sudolab: <stdin>:1: {gave_up}\n"))
            && ended.stderr.contains("sudolab: gave up on 1 puzzles"),
        "{}",
        ended.stderr
    );
    let ended = run_bounded(
        binary(),
        &["rate", "--json", "--max-nodes", "1000"],
        feed(&puzzle),
        u64::MAX,
    );
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    let object: serde_json::Value = serde_json::from_str(&ended.stdout).unwrap();
    assert_eq!(object["gave_up"], true, "{}", ended.stdout);
    assert_eq!(object["proper"], serde_json::Value::Null);
    assert_eq!(object["stopped"], "node_limit");
    for command in ["hint", "steps"] {
        let ended = run_bounded(
            binary(),
            &[command, "--timeout", "200ms"],
            feed(&puzzle),
            u64::MAX,
        );
        assert_eq!(ended.code, Some(1), "{command}: {}", ended.stderr);
        assert_eq!(ended.stdout, "", "{command}");
        assert_eq!(
            ended.stderr,
            format!("sudolab: {gave_up}; gave up on {puzzle}\n"),
            "{command}"
        );
        let ended = run_bounded(
            binary(),
            &[command, "--json", "--timeout", "200ms"],
            feed(&puzzle),
            u64::MAX,
        );
        assert_eq!(ended.code, Some(1), "{command}: {}", ended.stderr);
        let object: serde_json::Value = serde_json::from_str(&ended.stdout).unwrap();
        assert_eq!(object["puzzle"], puzzle.as_str(), "{command}");
        assert_eq!(object["gave_up"], true, "{command}");
        assert_eq!(object["stopped"], "deadline", "{command}");
    }
}

#[test]
fn hint_gives_up_by_default() {
    // No budget given: the default (10 s) ends the run.
    let ended = run_bounded(
        binary(),
        &["hint"],
        std::io::Cursor::new(format!("{}\n", minimal_25x25()).into_bytes()),
        u64::MAX,
    );
    assert_eq!(ended.code, Some(1), "{}", ended.stderr);
    assert!(
        ended
            .stderr
            .starts_with("sudolab: gave up: the uniqueness check stopped at its budget (deadline)"),
        "{}",
        ended.stderr
    );
}

#[test]
fn decode_refuses_a_model_that_breaks_a_clause_of_the_cnf() {
    let dir = Scratch::new("decode");
    let puzzle = "4..3.....1....2.";
    let solution = "4213134221343421";
    let export = sudolab(&["export", "cnf", "--encoding", "minimal", puzzle], "");
    assert_eq!(export.code, 0, "{}", export.stderr);
    let cnf = dir.join("p.cnf");
    std::fs::write(&cnf, &export.stdout).unwrap();
    // The model of the solution, with the given r1c1 = 4 set false: every other cell decodes
    // to the solution, so only the formula tells that this is not a model.
    let mut literals = Vec::new();
    for rest in export
        .stdout
        .lines()
        .filter_map(|line| line.strip_prefix("c sudolab var "))
    {
        let fields: Vec<usize> = rest
            .split_whitespace()
            .map(|f| f.parse().unwrap())
            .collect();
        let (var, row, col, digit) = (fields[0], fields[1], fields[2], fields[3]);
        let cell = (row - 1) * 4 + col - 1;
        let holds = solution.as_bytes()[cell] - b'0' == u8::try_from(digit).unwrap();
        let holds = holds && (row, col) != (1, 1);
        literals.push(if holds {
            var.to_string()
        } else {
            format!("-{var}")
        });
    }
    let model = dir.join("p.model");
    std::fs::write(
        &model,
        format!("s SATISFIABLE\nv {} 0\n", literals.join(" ")),
    )
    .unwrap();
    let run = sudolab(
        &["decode", cnf.to_str().unwrap(), model.to_str().unwrap()],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert_eq!(run.stdout, "");
    // Clause 1 is r1c1's "some digit": with none of its digits true it is the first false one.
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {}: the model is not a model of the CNF: it makes clause 1 (CNF line {}: \
             '1 2 3 4 0') false\n",
            model.display(),
            export
                .stdout
                .lines()
                .position(|line| line.starts_with("p cnf"))
                .unwrap()
                + 2
        )
    );
}

#[test]
fn compare_reads_a_pipe_and_otherwise_the_bundled_corpus() {
    let dir = Scratch::new("compare-stdin");
    let report = dir.join("r.json");
    let report_arg = report.to_str().unwrap();
    let sources = |report: &std::path::Path| -> Vec<String> {
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
        let mut sources: Vec<String> = doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["source"].as_str().unwrap().to_string())
            .collect();
        sources.dedup();
        sources
    };
    // Something piped in: that is what is compared.
    let run = sudolab(
        &["compare", "-s", "fast", "--report", report_arg],
        "4..3.....1....2.\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(sources(&report), ["<stdin>:1"]);
    // An empty pipe: the bundled corpus, as from a terminal (what CI jobs run).
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            "--timeout",
            "100ms",
            "--report",
            report_arg,
        ],
        "",
    );
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    let bundled = sources(&report);
    assert!(
        bundled
            .iter()
            .any(|source| source.starts_with("corpora/reference.txt:")),
        "{bundled:?}"
    );
    // /dev/null: the bundled corpus too.
    let ended = Command::new(binary())
        .args([
            "compare",
            "-s",
            "fast",
            "--timeout",
            "100ms",
            "--report",
            report_arg,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(ended.status.code().is_some(), "{ended:?}");
    assert_eq!(sources(&report), bundled);
}

#[test]
fn the_rated_form_is_read_by_every_command() {
    let dir = Scratch::new("rated");
    let file = dir.join("rated.txt");
    let board_a = crate::cli::BOARD_A;
    let board_a_solution = crate::cli::BOARD_A_SOLUTION;
    // The rated corpora's shape: an identifier, the puzzle, a rating.
    std::fs::write(
        &file,
        format!(
            "# id, puzzle, rating\n0a1b2c3d4e5f {board_a}  1.2\n9f8e7d6c5b4a 4..3.....1....2. 1\n"
        ),
    )
    .unwrap();
    let name = file.to_str().unwrap();
    let run = sudolab(&["count", name], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!("{name}:2\tunique\t1\n{name}:3\tunique\t1\n")
    );
    let run = sudolab(&["solve", name], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!("{board_a_solution}\n4213134221343421\n")
    );
    let run = sudolab(&["verify", name], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout
            .lines()
            .filter(|line| line.contains("verified"))
            .count(),
        2,
        "{}",
        run.stdout
    );
    let run = sudolab(&["rate", name], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(
        lines[0].starts_with(&format!("{name}:2\t")),
        "{}",
        run.stdout
    );
    assert!(
        lines[1].starts_with(&format!("{name}:3\t")),
        "{}",
        run.stdout
    );
    // A broken puzzle is named with its column in the line.
    std::fs::write(&file, "0a1b 4..3.....1....x.  7.5\n").unwrap();
    let run = sudolab(&["count", name], "");
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains(&format!(
            "{name}: line 1, column 20: expected a digit 1-4 or '.', found 'x'"
        )),
        "{}",
        run.stderr
    );
}
