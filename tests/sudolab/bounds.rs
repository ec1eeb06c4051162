//! Bounds on what options may ask for: no option value makes a command panic, and the
//! memory a command promises in its help is the memory it takes.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;

use crate::cli::sudolab;

/// How long one `generate` of the property test may run before it is stopped. Every option is
/// checked before the first puzzle is made, so a run still going by then has passed its
/// checks; what it generates (a minimal 49x49 takes hours) is not what is tested here.
const GENERATE_WALL: Duration = Duration::from_secs(4);

/// Runs `sudolab generate ARGS` with its output discarded, stopping it after
/// [`GENERATE_WALL`]; the exit code (`None` when it was stopped) and standard error.
fn generate_for_a_while(args: &[String]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .arg("generate")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Standard error is read on a thread, so that a long message cannot block the child.
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let until = Instant::now() + GENERATE_WALL;
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status.code().unwrap_or(-1));
        }
        if Instant::now() >= until {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (code, reader.join().unwrap())
}

#[test]
fn qwh_orders_outside_1_to_64_are_errors_that_name_the_range() {
    for size in ["0", "65", "1000"] {
        let run = sudolab(
            &[
                "generate", "--model", "qwh", "--size", size, "--holes", "0", "-c", "1",
            ],
            "",
        );
        assert_eq!(run.code, 2, "--size {size}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!(
                "sudolab: --size {size}: the order of a qwh square: the side must be between 1 \
                 and 64, found {size}\n"
            )
        );
        assert_eq!(run.stdout, "");
    }
    // The largest order is made (in JSON: the line form holds sides up to 35).
    let run = sudolab(
        &[
            "generate", "--model", "qwh", "--size", "64", "--holes", "10", "-c", "1", "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\"size\":64"), "{}", run.stdout);
}

/// A number for a numeric option: mostly small, sometimes at an edge (0, a board's limits),
/// sometimes far past any (the largest u64, one past it, negative).
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u64..=20).prop_map(|n| n.to_string()),
        2 => prop::sample::select(vec![25u64, 35, 36, 49, 63, 64, 65, 81, 100, 255, 256, 1000])
            .prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec!["18446744073709551616", "-1", "1e3", ""])
            .prop_map(str::to_owned),
    ]
}

/// The numeric options of `generate` (and the models, which decide which of them apply), each
/// present or not.
fn generate_args() -> impl Strategy<Value = Vec<String>> {
    let model = prop::sample::select(vec!["sudoku", "latin", "qwh", "gsp"]);
    let box_shape = (0u64..=10, 0u64..=10).prop_map(|(r, c)| format!("{r}x{c}"));
    let shard = (0u64..=6, 0u64..=6).prop_map(|(k, n)| format!("{k}/{n}"));
    let timeout = prop::sample::select(vec!["0", "1ms", "50ms", "18446744073709551615s"]);
    let rating = prop::sample::select(vec!["0..20", "7.5..2", "NaN..1", "-1..inf", "any"]);
    (
        (
            model,
            prop::option::of(number()),
            prop::option::weighted(0.2, box_shape),
            prop::option::of(number()),
            prop::option::of(number()),
            prop::option::of(number()),
        ),
        (
            prop::option::weighted(0.4, number()),
            prop::option::weighted(0.3, number()),
            prop::option::weighted(0.3, timeout),
            prop::option::weighted(0.2, shard),
            prop::option::weighted(
                0.15,
                prop_oneof![3 => (0u64..=2).prop_map(|n| n.to_string()), 1 => number()],
            ),
            prop::option::weighted(0.1, rating),
        ),
    )
        .prop_map(
            |(
                (model, size, box_shape, count, seed, clues),
                (holes, jobs, timeout, shard, te_depth, rating),
            )| {
                let mut args = vec![format!("--model={model}")];
                // `--flag=VALUE`, so that a negative value is the option's, not a flag.
                let mut add = |flag: &str, value: Option<String>| {
                    if let Some(value) = value {
                        args.push(format!("{flag}={value}"));
                    }
                };
                add("--size", size);
                add("--box", box_shape);
                add("--count", count);
                add("--seed", seed);
                add("--clues", clues);
                add("--holes", holes);
                add("--jobs", jobs);
                add("--check-timeout", timeout.map(str::to_owned));
                add("--shard", shard);
                add("--te-depth", te_depth);
                add("--rating", rating.map(str::to_owned));
                args.push("--json".to_owned());
                args
            },
        )
}

proptest! {
    // Each case is a process (most end at once with an error; a few generate until stopped).
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_numeric_option_of_generate_makes_it_panic(args in generate_args()) {
        let (code, stderr) = generate_for_a_while(&args);
        prop_assert!(
            code != Some(101) && !stderr.contains("panicked"),
            "generate {}: exit {code:?}: {stderr}",
            args.join(" ")
        );
        // An error is one located message: clap's usage error, or sudolab's one line.
        if code == Some(2) {
            prop_assert!(
                stderr.starts_with("error: ") || stderr.starts_with("sudolab: "),
                "generate {}: {stderr}",
                args.join(" ")
            );
        }
    }
}

/// The address space `trace` may take in [`the_largest_max_events_fits_in_the_memory_the_help_promises`]:
/// the help promises about 1 GB; the rest covers what a process maps besides its heap (code,
/// thread stacks, the allocator's reservations).
const TRACE_ADDRESS_SPACE_KB: u64 = 1_400_000;

#[test]
fn the_largest_max_events_fits_in_the_memory_the_help_promises() {
    // The largest value the option takes, as its own error names it.
    let over = sudolab(&["trace", "--max-events", "18446744073709551615", "x"], "");
    assert_eq!(over.code, 2);
    let most: String = over
        .stderr
        .split("expected 0 to ")
        .nth(1)
        .expect("the error names the range")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let help = sudolab(&["trace", "--help"], "");
    assert!(
        help.stdout.contains("about 1 GB in memory"),
        "{}",
        help.stdout
    );
    // The page is the largest form; the text form is written as the search goes. Counting every
    // solution of the empty 9x9 never ends, so the trace is cut at the maximum.
    for form in ["html", "text"] {
        let script = format!(
            "ulimit -v {TRACE_ADDRESS_SPACE_KB} && exec \"$0\" trace -s dlx-knuth -o {form} \
             --max-events {most} --limit 0 --report /dev/null corpora/hostile/empty-9x9.txt"
        );
        let output = Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_sudolab")])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("sh runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        // A cut trace is a negative result: exit 1, with the cut in the summary.
        assert_eq!(output.status.code(), Some(1), "{form}: {stderr}");
        assert!(
            stderr.contains(&format!("CUT after {most} events")),
            "{form}: {stderr}"
        );
    }
}

#[test]
fn max_events_counts_the_events_of_every_strategy_traced() {
    let run = sudolab(
        &[
            "trace",
            "-s",
            "toggle,mrv",
            "--max-events",
            "1000000",
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "sudolab: --max-events 1000000 for 2 strategies keeps up to 2000000 events, over the \
         1500000 that fit in about 1 GB; give at most 750000 events per strategy\n"
    );
}
