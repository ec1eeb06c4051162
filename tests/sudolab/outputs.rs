//! What the commands write: never over an input (by identity, whatever the name), results
//! directories whole or not at all, nothing when nothing ran, an experiment file's outputs
//! kept under its own directory, its mistakes found before anything runs, and interrupts
//! (SIGINT, SIGTERM, SIGHUP) that keep every finished search.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::cli::sudolab;
use crate::compare::{path, read_report, scratch};

const PUZZLE: &str = "4..3.....1....2.\n";

/// Every file under `dir` with its bytes, sorted by name.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap_or_default(),
            )
        })
        .collect();
    files.sort();
    files
}

/// The names in `dir` that start with '.' (temporary files and directories left behind).
fn hidden(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect()
}

/// An experiment file at `file` running `fast` over `corpus`, with `extra` lines appended.
fn experiment(file: &Path, corpus: &Path, extra: &str) -> String {
    let text = format!(
        "strategies = [\"fast\"]\n\n[[corpus]]\npath = {:?}\nformat = \"line\"\n{extra}",
        corpus.display().to_string()
    );
    std::fs::write(file, &text).unwrap();
    file.display().to_string()
}

#[test]
fn an_input_inside_the_results_directory_is_refused_before_anything_is_written() {
    let dir = scratch("outputs-input-inside");
    for name in ["provenance.json", "experiment.toml", "report.txt"] {
        let results = dir.join(format!("results-{name}"));
        std::fs::create_dir_all(&results).unwrap();
        let corpus = results.join(name);
        std::fs::write(&corpus, PUZZLE).unwrap();
        let file = experiment(&dir.join(format!("e-{name}.toml")), &corpus, "");
        let out = results.display().to_string();
        for force in [false, true] {
            let mut args = vec!["run", file.as_str(), "--out", out.as_str()];
            if force {
                args.push("--force");
            }
            let run = sudolab(&args, "");
            assert_eq!(run.code, 2, "{name}: {}", run.stderr);
            assert_eq!(
                run.stderr,
                format!(
                    "sudolab: {}: this output would overwrite an input; choose another output \
                     path\n",
                    corpus.display()
                ),
                "{name}"
            );
            assert!(run.stdout.is_empty(), "{name}: nothing ran");
            assert_eq!(
                contents(&results),
                [(name.to_string(), PUZZLE.as_bytes().to_vec())],
                "{name}: the input is intact and nothing else is written"
            );
            assert!(hidden(&dir).is_empty(), "{:?}", hidden(&dir));
        }
    }
}

#[test]
fn an_output_that_is_an_input_under_another_name_is_refused() {
    let dir = scratch("outputs-identity");
    let corpus = dir.join("c.txt");
    std::fs::write(&corpus, PUZZLE).unwrap();
    let corpus_name = corpus.display().to_string();

    // A hard link: another path, the same file.
    let link = dir.join("link.txt");
    std::fs::hard_link(&corpus, &link).unwrap();
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            &corpus_name,
            "--report",
            &path(&dir, "link.txt"),
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {}: this report would overwrite an input ({corpus_name} is the same file); \
             choose another report path\n",
            link.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&corpus).unwrap(), PUZZLE);

    // `sudolab report` re-rendering a JSON report onto itself through a hard link.
    let json = path(&dir, "r.json");
    let made = sudolab(&["compare", "-s", "fast", &corpus_name, "-r", &json], "");
    assert_eq!(made.code, 0, "{}", made.stderr);
    let saved = std::fs::read(&json).unwrap();
    std::fs::hard_link(&json, dir.join("again.json")).unwrap();
    let again = path(&dir, "again.json");
    let run = sudolab(&["report", &json, "-r", &again], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {again}: this report would overwrite an input ({json} is the same file); \
             choose another report path\n"
        )
    );
    assert_eq!(std::fs::read(&json).unwrap(), saved);

    // A corpus that is a symlink to a file of the results directory.
    let results = dir.join("results");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("report.txt"), PUZZLE).unwrap();
    let symlink = dir.join("symlink.txt");
    std::os::unix::fs::symlink(results.join("report.txt"), &symlink).unwrap();
    let file = experiment(&dir.join("e.toml"), &symlink, "");
    let run = sudolab(&["run", &file, "--out", &results.display().to_string()], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {}: this output would overwrite an input ({} is the same file); choose \
             another output path\n",
            results.join("report.txt").display(),
            symlink.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&symlink).unwrap(), PUZZLE);
}

#[test]
fn an_experiment_files_own_output_dir_stays_under_it_unless_allowed() {
    let dir = scratch("outputs-confined");
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let corpus = sub.join("c.txt");
    std::fs::write(&corpus, PUZZLE).unwrap();
    for written in ["../x", "/"] {
        let file = experiment(
            &sub.join("e.toml"),
            &corpus,
            &format!("\n[output]\ndir = {written:?}\n"),
        );
        let run = sudolab(&["run", &file], "");
        assert_eq!(run.code, 2, "{written}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!(
                "sudolab: {file}: [output] dir = {written:?} leaves the experiment file's \
                 directory; an experiment file writes only under its own directory unless \
                 --allow-outside is given (or --out DIR names the results directory); nothing \
                 was written\n"
            ),
        );
        assert!(run.stdout.is_empty(), "{written}: nothing ran");
    }
    assert!(!dir.join("x").exists());
    // Asked for on the command line, outside is allowed; the path is the file's, not the
    // working directory's.
    let file = experiment(&sub.join("e.toml"), &corpus, "\n[output]\ndir = \"../x\"\n");
    let run = sudolab(&["run", &file, "--allow-outside"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.join("x/report.json").is_file());
    assert_eq!(read_report(&path(&dir, "x/report.json")).puzzles, 1);
    // Inside the file's directory, relative to it.
    let file = experiment(
        &sub.join("e.toml"),
        &corpus,
        "\n[output]\ndir = \"inside\"\n",
    );
    let run = sudolab(&["run", &file], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(sub.join("inside/provenance.json").is_file());
    // `--out` may be anywhere.
    let anywhere = dir.join("anywhere");
    let run = sudolab(
        &["run", &file, "--out", &anywhere.display().to_string()],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(anywhere.join("report.txt").is_file());
}

#[test]
fn results_are_replaced_only_with_force_and_never_by_a_run_of_nothing() {
    let dir = scratch("outputs-force");
    let one = dir.join("one.txt");
    std::fs::write(&one, PUZZLE).unwrap();
    let two = dir.join("two.txt");
    std::fs::write(&two, PUZZLE.repeat(2)).unwrap();
    let results = dir.join("results");
    let out = results.display().to_string();
    let first = experiment(&dir.join("first.toml"), &one, "");
    let run = sudolab(&["run", &first, "--out", &out], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let before = contents(&results);
    assert_eq!(
        before
            .iter()
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>(),
        [
            "experiment.toml",
            "provenance.json",
            "report.csv",
            "report.html",
            "report.json",
            "report.jsonl",
            "report.md",
            "report.problems.csv",
            "report.txt"
        ]
    );

    // Already there: refused without --force.
    let second = experiment(&dir.join("second.toml"), &two, "");
    let run = sudolab(&["run", &second, "--out", &out], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {out}: a results directory is already there; nothing was written (--force \
             replaces it, --out DIR writes elsewhere)\n"
        )
    );
    assert_eq!(contents(&results), before);

    // A run of nothing (its only corpus holds no puzzle) replaces nothing, even with --force.
    let nothing = dir.join("nothing.txt");
    std::fs::write(&nothing, "12x\n").unwrap();
    let empty = experiment(&dir.join("empty.toml"), &nothing, "");
    let run = sudolab(&["run", &empty, "--out", &out, "--force"], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.ends_with(&format!(
            "sudolab: no puzzle ran; nothing was written ({out} is as it was)\n"
        )),
        "{}",
        run.stderr
    );
    assert_eq!(contents(&results), before);

    // The same for `compare --report`: an earlier report stays byte for byte.
    let old = path(&dir, "old.json");
    let kept = std::fs::read(results.join("report.json")).unwrap();
    std::fs::write(&old, &kept).unwrap();
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            &path(&dir, "missing.txt"),
            "--report",
            &old,
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.ends_with(
            "sudolab: no puzzle ran; no report was written (a report there is as it was)\n"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&old).unwrap(), kept);

    // With --force, replaced whole.
    let run = sudolab(&["run", &second, "--out", &out, "--force"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(read_report(&path(&results, "report.json")).puzzles, 2);
    assert_eq!(contents(&results).len(), 9);
    assert!(hidden(&dir).is_empty(), "{:?}", hidden(&dir));

    // --force replaces a results directory, not any directory.
    std::fs::write(results.join("notes.txt"), "mine\n").unwrap();
    let run = sudolab(&["run", &first, "--out", &out, "--force"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {out}: --force replaces only a results directory, and this one holds \
             {out}/notes.txt, which a run does not write; nothing was written\n"
        )
    );
    assert_eq!(
        std::fs::read_to_string(results.join("notes.txt")).unwrap(),
        "mine\n"
    );
}

#[test]
fn experiment_file_mistakes_are_found_before_anything_runs() {
    let dir = scratch("outputs-experiment-mistakes");
    let corpus = dir.join("c.txt");
    std::fs::write(&corpus, PUZZLE).unwrap();
    let results = dir.join("results");
    let quoted = format!("{:?}", corpus.display().to_string());
    let cases = [
        (
            format!("[[corpus]]\npath = {quoted}\n[run]\nrepeat = 0\n"),
            "line 4, column 10: [run] repeat: expected 1 to 10000 repeats, found 0",
        ),
        (
            format!("[[corpus]]\npath = {quoted}\n[run]\njobs = 0\n"),
            "line 4, column 8: [run] jobs: expected 1 to 1024 jobs, found 0",
        ),
        (
            format!("[[corpus]]\npath = {quoted}\n\n[[corpus]]\npath = \"missing.txt\"\n"),
            // The second corpus, relative to the file: found before the first one runs.
            "line 5, column 8: corpus {dir}/missing.txt: cannot read: No such file or \
             directory (os error 2)",
        ),
        (
            format!("[corpus]\npath = {quoted}\n"),
            "line 1, column 1: invalid type: map, expected a sequence; did you mean [[corpus]]? \
             each corpus is a table of its own, in double brackets",
        ),
        (
            format!("strategy = [\"fast\"]\n[[corpus]]\npath = {quoted}\n"),
            "line 1, column 13: invalid type: string \"fast\", expected struct StrategySpec; \
             did you mean strategies = [...]? a list of names is `strategies`; [[strategy]] is a \
             table per strategy with its own limits",
        ),
    ];
    for (number, (text, expected)) in cases.iter().enumerate() {
        let file = dir.join(format!("case{number}.toml"));
        std::fs::write(&file, text).unwrap();
        let file = file.display().to_string();
        let run = sudolab(&["run", &file, "--out", &results.display().to_string()], "");
        assert_eq!(run.code, 2, "{text}: {}", run.stderr);
        let expected = expected.replace("{dir}", &dir.display().to_string());
        assert_eq!(
            run.stderr,
            format!("sudolab: {file}: {expected}\n"),
            "{text}"
        );
        assert!(run.stdout.is_empty(), "{text}: nothing ran");
        assert!(!results.exists(), "{text}: nothing is written");
    }
}

#[test]
fn results_are_ignored_by_git() {
    let ignored =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".gitignore")).unwrap();
    assert!(ignored.lines().any(|line| line == "/results/"), "{ignored}");
}

#[test]
fn the_bundled_experiment_reads_the_puzzles_of_compare_without_files() {
    // Both with `fast` alone and a short budget: the puzzles read do not depend on either.
    let dir = scratch("outputs-bundled");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/experiments/bundled.toml")).unwrap();
    let corpora = format!("{:?}", root.join("corpora").display().to_string());
    let copy = format!("strategies = [\"fast\"]\n{text}")
        .replace("\"../../corpora", corpora.trim_end_matches('"'))
        .replace("timeout = \"1s\"", "timeout = \"50ms\"");
    assert!(!copy.contains("../../"), "{copy}");
    let file = dir.join("bundled.toml");
    std::fs::write(&file, copy).unwrap();
    let results = dir.join("results");
    let run = sudolab(
        &[
            "run",
            &file.display().to_string(),
            "--out",
            &results.display().to_string(),
        ],
        "",
    );
    assert!(run.code <= 1, "{}", run.stderr);
    let from_file = read_report(&path(&results, "report.json"));
    let compared = path(&dir, "compare.json");
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            "--timeout",
            "50ms",
            "-r",
            &compared,
        ],
        "",
    );
    assert!(run.code <= 1, "{}", run.stderr);
    let from_compare = read_report(&compared);
    assert!(from_compare.puzzles > 200, "{}", from_compare.puzzles);
    assert_eq!(from_file.puzzles, from_compare.puzzles);
    let sources = |report: &sudolab::report::Report| {
        let mut files: Vec<String> = report
            .rows
            .iter()
            .map(|row| {
                let file = row.source.rsplit_once(':').map_or("", |(file, _)| file);
                Path::new(file)
                    .strip_prefix(root)
                    .unwrap_or(Path::new(file))
                    .display()
                    .to_string()
            })
            .collect();
        files.dedup();
        files
    };
    assert_eq!(sources(&from_file), sources(&from_compare));
}

/// The workload of the interrupt tests: three quick 4x4 puzzles, then minimal 16x16 ones that
/// `scan` works on until it is interrupted (no work budget and a 20 s timeout each), on one
/// job.
fn interrupted_compare(dir: &Path, strategies: &str, signal: &str) -> (i32, String, PathBuf) {
    let corpus = dir.join("mixed.txt");
    let sixteen = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/minimal-16x16.txt"),
    )
    .unwrap();
    std::fs::write(
        &corpus,
        format!("4..3.....1....2.\n.2..1...3..1....\n4..3.....1....2.\n{sixteen}"),
    )
    .unwrap();
    let report = dir.join("r.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args([
            "compare",
            "-s",
            strategies,
            "--budget",
            "0",
            "--timeout",
            "20s",
            "-j",
            "1",
        ])
        .arg(&corpus)
        .arg("-r")
        .arg(&report)
        .arg("-r")
        .arg(dir.join("r.csv"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The report's temporary file is opened after the handler is installed: from then on the
    // signal is the run's to handle. Then time for the quick searches to end.
    let partial = dir.join(".r.json.partial");
    for _ in 0..600 {
        if partial.exists() || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_secs(2));
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let code = output
        .status
        .code()
        .unwrap_or_else(|| panic!("{signal}: ended by the signal, not by the handler"));
    (code, String::from_utf8(output.stderr).unwrap(), report)
}

#[test]
fn sigterm_and_sighup_write_the_finished_work_like_ctrl_c() {
    for signal in ["INT", "TERM", "HUP"] {
        let dir = scratch(&format!("outputs-signal-{signal}"));
        let (code, stderr, report) = interrupted_compare(&dir, "scan", signal);
        assert_eq!(code, 130, "{signal}: {stderr}");
        assert!(
            stderr.starts_with("sudolab: interrupted; stopping after the searches under way"),
            "{signal}: {stderr}"
        );
        let report = read_report(&report.display().to_string());
        assert!(!report.complete, "{signal}");
        assert_eq!(report.puzzles, 3, "{signal}: the quick puzzles");
        let csv = std::fs::read_to_string(dir.join("r.csv")).unwrap();
        assert!(
            csv.lines()
                .last()
                .is_some_and(|line| line.starts_with("# INCOMPLETE: the run was interrupted")),
            "{signal}: {csv}"
        );
        assert!(hidden(&dir).is_empty(), "{signal}: {:?}", hidden(&dir));
    }
}

#[test]
fn an_interrupted_run_keeps_every_search_that_ended() {
    // In engine order the whole file is one batch: `fast` searches every puzzle, then `scan`
    // the three 4x4 ones and works on the first 16x16 one until the interrupt. Every search
    // that ended is kept, though no 16x16 puzzle had all its searches end.
    let dir = scratch("outputs-interrupt-rows");
    let (code, stderr, report) = interrupted_compare(&dir, "fast,scan", "INT");
    assert_eq!(code, 130, "{stderr}");
    let report = read_report(&report.display().to_string());
    assert!(!report.complete);
    let searched = |strategy: &str| -> Vec<u64> {
        report
            .rows
            .iter()
            .filter(|row| row.strategy == strategy)
            .map(|row| row.puzzle)
            .collect()
    };
    let (fast, scan) = (searched("fast"), searched("scan"));
    assert_eq!(report.rows.len(), fast.len() + scan.len());
    assert!(scan.iter().all(|puzzle| *puzzle < 3), "{scan:?}");
    assert!(
        fast.len() > scan.len() && fast.len() > 3,
        "{fast:?} {scan:?}"
    );
    assert!(fast.windows(2).all(|pair| pair[0] < pair[1]), "{fast:?}");
    assert_eq!(report.puzzles, fast.len() as u64);
    let runs: Vec<(&str, u64)> = report
        .summary
        .iter()
        .map(|summary| (summary.strategy.as_str(), summary.runs))
        .collect();
    assert_eq!(
        runs,
        [("fast", fast.len() as u64), ("scan", scan.len() as u64)]
    );
    let reason = format!(
        "the run was interrupted; this covers the searches that ended before it stopped, on {} \
         puzzles (puzzles searched: fast {}, scan {}; the rows say which)",
        fast.len(),
        fast.len(),
        scan.len()
    );
    assert_eq!(report.incomplete_reason(), Some(reason.clone()));
    assert!(
        stderr.ends_with(&format!(
            "sudolab: interrupted; the report keeps every search that ended, on {} puzzles, and \
             every form of it is marked incomplete\n",
            fast.len()
        )),
        "{stderr}"
    );
    // The CSV holds the same rows, and says it is incomplete.
    let csv = std::fs::read_to_string(dir.join("r.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + report.rows.len() + 1, "{csv}");
    assert_eq!(
        lines.last(),
        Some(&format!("# INCOMPLETE: {reason}").as_str())
    );
    assert!(hidden(&dir).is_empty(), "{:?}", hidden(&dir));
}

#[test]
fn trace_and_rate_refuse_to_write_over_their_input() {
    let dir = scratch("outputs-trace-rate");
    let puzzles = path(&dir, "p.txt");
    std::fs::write(&puzzles, PUZZLE).unwrap();
    let run = sudolab(&["trace", &puzzles, "-s", "mrv", "--report", &puzzles], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {puzzles}: this report would overwrite an input; choose another report \
             path\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&puzzles).unwrap(), PUZZLE);

    // The rated file is read whole before the chart is written: it would be lost.
    let sample = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/rated/sample.txt"),
    )
    .unwrap();
    let rated = sample.lines().find(|line| !line.starts_with('#')).unwrap();
    let rated = format!("{rated}\n");
    let file = path(&dir, "rated.html");
    std::fs::write(&file, &rated).unwrap();
    let run = sudolab(&["rate", "--against", &file, "--chart", &file], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {file}: this chart would overwrite an input; choose another chart path\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), rated);
}

#[test]
fn a_csv_reports_problems_file_is_an_output_too() {
    let dir = scratch("outputs-problems-file");
    let input = path(&dir, "r.problems.csv");
    std::fs::write(&input, PUZZLE).unwrap();
    let report = path(&dir, "r.csv");
    let run = sudolab(&["compare", "-s", "fast", &input, "--report", &report], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sudolab: {input}: this report would overwrite an input; choose another report path\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&input).unwrap(), PUZZLE);
    assert!(!Path::new(&report).exists());
}
