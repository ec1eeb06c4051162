//! `sudolab certify` and `sudolab check-cert`: every bundled puzzle certified by both producers
//! and checked; certificates of non-uniqueness and of no solution; minimality witnesses; the
//! proof budget; and mutated certificates, each rejected with the step that failed.

use std::path::{Path, PathBuf};

use sudolab::certcheck::{self, rules};
use sudolab::certify::{self, Options, Producer};
use sudolab::encode::{Cnf, Encoding};
use sudolab::model::{Grid, Shape, parse_line_record};

use super::cli::{BOARD_A, sudolab};

/// A fresh directory under the system's temporary directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("sudolab-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
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

fn puzzle(line: &str, shape: Option<Shape>) -> Grid {
    parse_line_record(line.as_bytes(), shape, 1).unwrap().puzzle
}

/// Certifies `files` into a scratch directory with `extra` arguments, checks them all, and
/// returns the directory; both commands must succeed.
fn certify_and_check(name: &str, files: &[&str], extra: &[&str]) -> Scratch {
    let dir = Scratch::new(name);
    let mut args = vec!["certify", "--out", dir.path()];
    args.extend_from_slice(files);
    args.extend_from_slice(extra);
    let run = sudolab(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = sudolab(&["check-cert", dir.path()], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("FAILED"), "{}", run.stdout);
    dir
}

#[test]
fn the_producers_cnf_is_the_checkers_clause_for_clause() {
    let puzzles = [
        puzzle("4..3.....1....2.", None),
        puzzle(BOARD_A, None),
        puzzle(&".".repeat(36), Some(Shape::new(2, 3).unwrap())),
        puzzle("1", None),
        puzzle("11..............", None),
    ];
    for grid in &puzzles {
        let shape = grid.shape();
        let ours = Cnf::build(grid, Encoding::Extended);
        let theirs = rules::encode(shape.box_rows(), shape.box_cols(), grid.cells());
        assert_eq!(ours.var_count(), theirs.vars as usize);
        assert_eq!(ours.clause_count(), theirs.len());
        for (at, (a, b)) in ours.clauses().zip(theirs.clauses()).enumerate() {
            assert_eq!(a, b, "clause {} of {shape}", at + 1);
        }
    }
}

#[test]
fn every_bundled_puzzle_is_certified_by_the_tree_and_checked() {
    let dir = certify_and_check(
        "bundled-tree",
        &[
            "corpora/reference.txt",
            "corpora/sizes.txt",
            "corpora/generated/4x4.txt",
            "corpora/generated/6x6.txt",
            "corpora/generated/9x9-minimal.txt",
            "corpora/generated/9x9-rot180.txt",
            "corpora/generated/12x12.txt",
            "corpora/generated/16x16.txt",
            "corpora/generated/25x25.txt",
        ],
        &["--producer", "tree"],
    );
    let count = std::fs::read_dir(&dir.0).unwrap().count();
    assert_eq!(count, 2 + 7 + 20 + 20 + 100 + 20 + 10 + 3 + 2);
}

#[test]
fn every_bundled_puzzle_is_certified_by_sat_and_checked() {
    let dir = certify_and_check(
        "bundled-sat",
        &[
            "corpora/reference.txt",
            "corpora/sizes.txt",
            "corpora/generated/6x6.txt",
            "corpora/generated/9x9-minimal.txt",
            "corpora/generated/12x12.txt",
            "corpora/minimal-16x16.txt",
        ],
        &["--producer", "sat", "--drat"],
    );
    let drat = std::fs::read_dir(&dir.0)
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().path().extension().unwrap() == "drat")
        .count();
    assert_eq!(drat, 2 + 7 + 20 + 100 + 10 + 10);
}

#[test]
fn the_minimal_16x16_puzzles_are_certified_by_the_tree() {
    certify_and_check(
        "minimal-16-tree",
        &["corpora/minimal-16x16.txt"],
        &["--producer", "tree"],
    );
}

#[test]
fn auto_takes_the_tree_where_its_proof_is_small_and_sat_elsewhere() {
    let dir = Scratch::new("auto");
    let run = sudolab(
        &[
            "certify",
            "--out",
            dir.path(),
            "corpora/reference.txt",
            "corpora/minimal-16x16.txt",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let producers: Vec<&str> = run
        .stdout
        .lines()
        .map(|line| line.rsplit('\t').next().unwrap())
        .collect();
    assert_eq!(producers[..2], ["tree", "tree"]);
    assert!(producers[2..].iter().all(|producer| *producer == "sat"));
    assert!(
        run.stderr.contains("proofs (sat 10, tree 2)"),
        "{}",
        run.stderr
    );
    let run = sudolab(&["check-cert", "-q", dir.path()], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn several_solutions_and_none_have_certificates_of_their_own() {
    let dir = Scratch::new("verdicts");
    let run = sudolab(
        &[
            "certify",
            "--out",
            dir.path(),
            "................",
            "12....3...4.....",
            "11..............",
            "030860701680070090190004500820100040004602900050003028009300074040050036703018000",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let verdicts: Vec<&str> = run
        .stdout
        .lines()
        .map(|line| line.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(verdicts, ["multiple", "none", "none", "none"]);
    let run = sudolab(&["check-cert", dir.path()], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout.matches(" multiple").count(), 1, "{}", run.stdout);
    assert_eq!(run.stdout.matches(" none ").count(), 3, "{}", run.stdout);
    let sat = Scratch::new("verdicts-sat");
    let again = sudolab(
        &[
            "certify",
            "--out",
            sat.path(),
            "--producer",
            "sat",
            "12....3...4.....",
            "11..............",
        ],
        "",
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    let run = sudolab(&["check-cert", sat.path()], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // `checked FILE none PUZZLE (sat: ...)`.
    assert_eq!(
        run.stdout
            .lines()
            .filter(|line| line.contains(" none ") && line.contains(" (sat: "))
            .count(),
        2,
        "{}",
        run.stdout
    );
}

#[test]
fn minimality_has_a_witness_per_clue_and_a_redundant_clue_is_reported() {
    let dir = Scratch::new("minimal");
    let text = std::fs::read_to_string("corpora/generated/9x9-minimal.txt").unwrap();
    let first: Vec<&str> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .take(3)
        .map(|line| line.split_whitespace().next().unwrap())
        .collect();
    let mut args = vec!["certify", "--minimal", "--out", dir.path()];
    args.extend(first.iter().copied());
    let run = sudolab(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = sudolab(&["check-cert", dir.path()], "");
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.stdout.matches("minimal (").count(), 3, "{}", run.stdout);

    // Board A with its solution's first cell added as a clue is not minimal.
    let mut extra = BOARD_A.to_string();
    extra.replace_range(0..1, "4");
    let dir = Scratch::new("not-minimal");
    let run = sudolab(&["certify", "--minimal", "--out", dir.path(), &extra], "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("not minimal: clue"), "{}", run.stderr);
    let run = sudolab(&["check-cert", dir.path()], "");
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn a_proof_over_its_budget_stops_with_a_clear_message() {
    let dir = Scratch::new("budget");
    for producer in ["tree", "sat"] {
        let run = sudolab(
            &[
                "certify",
                "--out",
                dir.path(),
                "--producer",
                producer,
                "--max-proof-bytes",
                "100",
                "corpora/generated/16x16.txt",
            ],
            "",
        );
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("passed the budget of 100 bytes"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0);
}

/// A certificate of board A (unique) from `producer`, as text.
fn board_a_certificate(producer: Producer) -> String {
    let options = Options {
        producer,
        ..Options::default()
    };
    certify::certify(&puzzle(BOARD_A, None), "board A", &options)
        .unwrap()
        .text
}

/// Replaces the line starting with `key ` by `key VALUE`.
fn with_line(text: &str, key: &str, value: &str) -> String {
    text.lines()
        .map(|line| {
            if line.starts_with(&format!("{key} ")) {
                format!("{key} {value}\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect()
}

fn line_value<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{key} ")))
        .unwrap()
}

#[test]
fn mutated_certificates_are_rejected_each_with_its_step() {
    for producer in [Producer::Tree, Producer::Sat] {
        let good = board_a_certificate(producer);
        assert!(certcheck::check_text(&good).is_ok());
        let mut mutations: Vec<(&str, String, &str, &str)> = Vec::new();

        // A changed proof line: the last line (the empty clause) loses its last hint, the
        // clause that the others make false. The header is kept honest.
        let (head, body) = good.split_at(good.find("proof lrat ").unwrap());
        let body = body
            .split_once('\n')
            .unwrap()
            .1
            .strip_suffix("end\n")
            .unwrap();
        let mut lines: Vec<String> = body.lines().map(String::from).collect();
        let last = lines.last_mut().unwrap();
        let mut words: Vec<&str> = last.split(' ').collect();
        words.remove(words.len() - 2);
        *last = words.join(" ");
        let proof: String = lines.iter().map(|line| line.clone() + "\n").collect();
        let changed = format!(
            "{head}proof lrat {} {}\n{proof}end\n",
            lines.len(),
            proof.len()
        );
        mutations.push(("changed proof line", changed, "proof", "without a conflict"));

        // A wrong solution: two digits of a row swapped.
        let solution = line_value(&good, "solution");
        let mut cells: Vec<&str> = solution.split(' ').collect();
        cells.swap(0, 2);
        mutations.push((
            "wrong solution",
            with_line(&good, "solution", &cells.join(" ")),
            "solution",
            "",
        ));

        // A changed given: r1c2 (a 3) becomes a 4.
        let givens = line_value(&good, "puzzle");
        let mut cells: Vec<&str> = givens.split(' ').collect();
        assert_eq!(cells[1], "3");
        cells[1] = "4";
        mutations.push((
            "changed given",
            with_line(&good, "puzzle", &cells.join(" ")),
            "solution",
            "the puzzle gives 4",
        ));

        // A removed given: the blocking clause no longer covers every empty cell.
        let mut cells: Vec<&str> = givens.split(' ').collect();
        cells[1] = "0";
        mutations.push((
            "removed given",
            with_line(&good, "puzzle", &cells.join(" ")),
            "blocking",
            "is missing",
        ));

        // A truncated file.
        mutations.push((
            "truncated",
            good[..good.len() / 2].to_string(),
            "format",
            "truncated",
        ));

        // A swapped blocking clause: board B's.
        let board_b = std::fs::read_to_string("corpora/reference.txt").unwrap();
        let board_b = board_b
            .lines()
            .filter(|line| !line.starts_with('#'))
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string();
        let other = certify::certify(&puzzle(&board_b, None), "board B", &Options::default())
            .unwrap()
            .text;
        mutations.push((
            "swapped blocking clause",
            with_line(&good, "blocking", line_value(&other, "blocking")),
            "blocking",
            "not the negation",
        ));

        for (what, text, step, reason) in mutations {
            let failure = certcheck::check_text(&text).unwrap_err();
            assert_eq!(failure.step, step, "{producer}, {what}: {failure:?}");
            assert!(
                failure.reason.contains(reason),
                "{producer}, {what}: {failure:?}"
            );
        }
    }
}

#[test]
fn check_cert_prints_a_failed_line_per_bad_certificate_and_exits_1() {
    let dir = Scratch::new("cli-mutations");
    let good = board_a_certificate(Producer::Tree);
    let write = |name: &str, text: &str| {
        let path = Path::new(&dir.0).join(name);
        std::fs::write(&path, text).unwrap();
    };
    write("good.cert", &good);
    write("truncated.cert", &good[..good.len() - 10]);
    write("binary.cert", "\u{0}\u{1}");
    std::fs::write(dir.0.join("not-utf8.cert"), [0xff, 0xfe]).unwrap();
    let solution = line_value(&good, "solution").replacen('4', "9", 1);
    write("wrong.cert", &with_line(&good, "solution", &solution));
    let run = sudolab(&["check-cert", dir.path()], "");
    assert_eq!(run.code, 1);
    let failed: Vec<&str> = run
        .stdout
        .lines()
        .filter(|line| line.starts_with("FAILED"))
        .collect();
    assert_eq!(failed.len(), 4, "{}", run.stdout);
    assert!(
        failed
            .iter()
            .any(|line| line.contains("truncated.cert format: "))
    );
    assert!(
        failed
            .iter()
            .any(|line| line.contains("not-utf8.cert format: "))
    );
    assert!(
        failed
            .iter()
            .any(|line| line.contains("wrong.cert solution: "))
    );
    assert!(run.stdout.contains("checked "));
    assert!(
        run.stderr.contains("5 certificates: 1 checked, 4 FAILED"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"));
    let missing = sudolab(&["check-cert", &format!("{}/nothing.cert", dir.path())], "");
    assert_eq!(missing.code, 1);
    assert!(missing.stdout.contains("read: "));
}

/// Every one-byte change of small certificates (each byte replaced by a digit, a minus, a space,
/// a newline or deleted): the checker never panics, and what it accepts is true of the puzzle
/// (the `fast` engine agrees with the verdict and the solution).
#[test]
fn one_byte_changes_never_make_a_false_certificate_check() {
    let fast = sudolab::strategy::find("fast").unwrap();
    let puzzles = [
        "4..3.....1....2.",
        "12....3...4.....",
        "................",
        BOARD_A,
    ];
    for producer in [Producer::Tree, Producer::Sat] {
        for line in puzzles {
            if producer == Producer::Sat && line.len() > 16 {
                // Board A's varisat proof is 10 KB: 60,000 checks of a 9x9 formula.
                continue;
            }
            let options = Options {
                producer,
                ..Options::default()
            };
            let good = certify::certify(&puzzle(line, None), "mutations", &options)
                .unwrap()
                .text;
            let bytes = good.as_bytes();
            for at in 0..bytes.len() {
                for replacement in [
                    Some(b'1'),
                    Some(b'7'),
                    Some(b'-'),
                    Some(b' '),
                    Some(b'\n'),
                    None,
                ] {
                    let mut changed = bytes[..at].to_vec();
                    changed.extend(replacement);
                    changed.extend_from_slice(&bytes[at + 1..]);
                    let Ok(text) = String::from_utf8(changed) else {
                        continue;
                    };
                    let Ok(bundle) = certcheck::parse(&text) else {
                        continue;
                    };
                    let Ok(verified) = certcheck::check(&bundle) else {
                        continue;
                    };
                    let (rows, cols) = bundle.box_shape;
                    let shape = Shape::new(rows, cols).unwrap();
                    let grid = Grid::from_cells(shape, bundle.puzzle.clone()).unwrap();
                    let mut found: Vec<Grid> = Vec::new();
                    fast.search(&grid, &sudolab::strategy::Limits::solutions(2), &mut |g| {
                        found.push(g.clone());
                    });
                    let wanted = match verified.verdict {
                        certcheck::Verdict::Unique => 1,
                        certcheck::Verdict::Multiple => 2,
                        certcheck::Verdict::None => 0,
                    };
                    assert_eq!(found.len(), wanted, "{producer}, byte {at}: {text}");
                    if wanted == 1 {
                        assert_eq!(found[0].cells(), &bundle.solutions[0][..]);
                    }
                }
            }
        }
    }
}

#[test]
fn verify_certify_writes_a_checked_certificate_per_verified_puzzle() {
    let dir = Scratch::new("verify-certify");
    let run = sudolab(
        &[
            "verify",
            "--certify",
            dir.path(),
            "corpora/reference.txt",
            "................",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    let wanted = format!("certificate {}/reference-00001.cert", dir.path());
    assert!(lines[0].ends_with(&wanted), "{}", lines[0]);
    assert!(lines[2].contains("FAILED"));
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 2);
    let run = sudolab(&["check-cert", dir.path()], "");
    assert_eq!(run.code, 0, "{}", run.stdout);
}
