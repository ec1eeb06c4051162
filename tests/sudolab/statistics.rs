//! The statistics of the summaries (decided searches, median, mean, p90, PAR-2, the
//! geometric-mean ratio with its bootstrap interval, the Wilcoxon p-value), held to scipy's on
//! the same data; work named by its unit; the cactus and scatter plots.

use std::path::Path;

use sudolab::report::stats::{BOOTSTRAP_RESAMPLES, bootstrap_interval, log_ratios};
use sudolab::report::{Aggregator, Context, Format, Report, Row, Summary, merge, plots, render};
use sudolab::strategy::{Counter, Stats, Stop, Verdict};

use crate::cli::sudolab;
use crate::compare::{path, read_report, scratch};

/// A row of `strategy` on `puzzle`: decided (`unique`) or stopped at its deadline.
fn row(puzzle: u64, strategy: &str, time_ns: u64, decided: bool) -> Row {
    let mut counters = Stats::new();
    counters.set(Counter::Nodes, 1 + puzzle % 7);
    Row {
        puzzle,
        source: format!("f.txt:{}", puzzle + 1),
        side: 9,
        clues: 24 + (puzzle % 3) as usize,
        strategy: strategy.to_string(),
        verdict: if decided {
            Verdict::Unique
        } else {
            Verdict::Unknown
        },
        solutions: u64::from(decided),
        exhausted: decided,
        stopped: (!decided).then_some(Stop::Deadline),
        time_ns,
        median_ns: time_ns,
        cpu_ns: Some(time_ns),
        counters,
    }
}

/// One case of `tests/fixtures/statistics.json` (written by `scripts/stats_fixture.py`).
struct Case {
    name: String,
    timeout_ms: u64,
    strategies: Vec<String>,
    rows: Vec<Row>,
    expected: serde_json::Value,
}

fn fixture() -> Vec<Case> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/statistics.json"),
    )
    .expect("the fixture");
    let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    value["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| {
            let strategies: Vec<String> = case["strategies"]
                .as_array()
                .expect("strategies")
                .iter()
                .map(|s| s.as_str().expect("a name").to_string())
                .collect();
            let rows = case["rows"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| {
                    let strategy = &strategies[r[1].as_u64().expect("index") as usize];
                    row(
                        r[0].as_u64().expect("puzzle"),
                        strategy,
                        r[2].as_u64().expect("time"),
                        r[3].as_bool().expect("decided"),
                    )
                })
                .collect();
            Case {
                name: case["name"].as_str().expect("name").to_string(),
                timeout_ms: case["timeout_ms"].as_u64().expect("timeout"),
                strategies,
                rows,
                expected: case["expected"].clone(),
            }
        })
        .collect()
}

/// The report of a case's rows, as a run with its timeout gives it.
fn report_of(case: &Case, rows: &[Row]) -> Report {
    let mut aggregator = Aggregator::new(case.strategies.clone(), None);
    for row in rows {
        aggregator.add(row.clone());
    }
    let context = Context {
        timeout_ms: Some(case.timeout_ms),
        ..Context::default()
    };
    aggregator.report(context, vec![], vec![], true)
}

/// `actual` within 1e-9 of `expected`, relative to its size when that is above 1 (times of
/// thousands of microseconds carry 1e-12 of float rounding either way).
fn close(actual: f64, expected: f64, what: &str) {
    let tolerance = 1e-9 * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual} against scipy's {expected}"
    );
}

#[test]
fn summaries_agree_with_scipy_to_1e_9() {
    let cases = fixture();
    assert_eq!(cases.len(), 3);
    for case in &cases {
        let report = report_of(case, &case.rows);
        assert_eq!(report.context.baseline.as_deref(), Some("fast"));
        for summary in &report.summary {
            let expected = &case.expected[&summary.strategy];
            let what = |field: &str| format!("{} {} {field}", case.name, summary.strategy);
            let number = |field: &str| expected[field].as_f64().expect(field);
            assert_eq!(
                summary.decided,
                expected["decided"].as_u64().unwrap(),
                "{}",
                what("decided")
            );
            assert_eq!(
                summary.ratio_pairs,
                expected["ratio_pairs"].as_u64().unwrap(),
                "{}",
                what("pairs")
            );
            close(summary.median_us, number("median_us"), &what("median"));
            close(summary.mean_us, number("mean_us"), &what("mean"));
            close(summary.p90_us, number("p90_us"), &what("p90"));
            close(summary.par2_us, number("par2_us"), &what("par2"));
            assert_eq!(summary.par2_limit_from, "timeout");
            close(
                summary.par2_limit_us,
                case.timeout_ms as f64 * 1e3,
                &what("limit"),
            );
            if summary.strategy == "fast" {
                assert_eq!(summary.ratio, Some(1.0));
                assert_eq!(summary.wilcoxon_p, None);
                assert_eq!(summary.ratio_low, None);
            } else {
                close(summary.ratio.unwrap(), number("ratio"), &what("ratio"));
                let p = summary.wilcoxon_p.unwrap();
                let scipy = number("wilcoxon_p");
                close(p, scipy, &what("wilcoxon p"));
                // Tiny p-values too, to nine digits.
                assert!(
                    ((p - scipy) / scipy).abs() < 1e-9,
                    "{}: {p} against {scipy}",
                    what("wilcoxon p, relative")
                );
                let (low, high) = (summary.ratio_low.unwrap(), summary.ratio_high.unwrap());
                assert!(low < summary.ratio.unwrap() && summary.ratio.unwrap() < high);
            }
        }
    }
}

#[test]
fn merged_shards_recompute_every_statistic_exactly() {
    let case = &fixture()[0];
    let whole = report_of(case, &case.rows);
    let shards: Vec<(String, Report)> = (1..=3u64)
        .map(|k| {
            let mine: Vec<Row> = case
                .rows
                .iter()
                .filter(|row| row.puzzle % 3 == k - 1)
                .cloned()
                .collect();
            let mut report = report_of(case, &mine);
            report.context.shard = Some(format!("{k}/3"));
            report.rows = mine;
            (format!("s{k}.json"), report)
        })
        .collect();
    // Through the JSON form, as `sudolab report` reads shards.
    let shards = shards
        .into_iter()
        .map(|(name, report)| {
            let text = render(Format::Json, &report);
            (
                name,
                sudolab::report::json::read(&text).expect("a shard reads back"),
            )
        })
        .collect();
    let merged = merge(shards, false).expect("the shards merge");
    assert_eq!(merged.report.summary, whole.summary);
    assert_eq!(merged.report.context.bootstrap_seed, Some(1));
}

#[test]
fn the_bootstrap_interval_is_seeded_and_covers_a_known_ratio() {
    let pairs: Vec<(u64, u64)> = (0..300u64)
        .map(|i| (2_000 + (i * 7_919) % 1_500, 1_000 + (i * 104_729) % 700))
        .collect();
    let logs = log_ratios(&pairs);
    let once = bootstrap_interval(&logs, 42, 3, BOOTSTRAP_RESAMPLES);
    assert_eq!(once, bootstrap_interval(&logs, 42, 3, BOOTSTRAP_RESAMPLES));
    assert_ne!(once, bootstrap_interval(&logs, 43, 3, BOOTSTRAP_RESAMPLES));
    // Equal ratios: every resample has the same mean, the interval is that ratio.
    let constant = log_ratios(&[(3_000, 1_000); 40]);
    let (low, high) = bootstrap_interval(&constant, 1, 0, 200).unwrap();
    assert!((low - 3.0).abs() < 1e-12 && (high - 3.0).abs() < 1e-12);
    // Coverage: 200 samples of 100 log-ratios drawn around a known geometric mean of 1.5
    // (log-ratios uniform on ln 1.5 +- 0.8, from a seeded splitmix64); a 95% interval holds it
    // in about 190 of them. The bound is the nominal 95% less a margin of four binomial
    // standard deviations (sqrt(200 * 0.05 * 0.95) = 3.1, so 12 samples), and the
    // percentile bootstrap of a mean of 100 values is known to run a little below nominal.
    let truth = 1.5f64.ln();
    let mut state = 7u64;
    let mut uniform = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as f64 / u64::MAX as f64
    };
    let mut covered = 0;
    for sample in 0..200u64 {
        let logs: Vec<f64> = (0..100).map(|_| truth + 1.6 * uniform() - 0.8).collect();
        let (low, high) = bootstrap_interval(&logs, 1, sample, 1000).unwrap();
        if low <= 1.5 && 1.5 <= high {
            covered += 1;
        }
    }
    assert!((178..=200).contains(&covered), "{covered} of 200 covered");
    assert!(covered < 200, "an interval that always covers is too wide");
}

#[test]
fn the_baseline_is_fast_when_it_ran_else_the_first_and_the_ratio_never_empty() {
    let rows = |names: &[&str]| -> Vec<Row> {
        (0..30u64)
            .flat_map(|p| {
                names
                    .iter()
                    .enumerate()
                    .map(move |(i, name)| row(p, name, 1_000 * (i as u64 + 1) + p, true))
            })
            .collect()
    };
    let summaries = |names: &[&str], baseline: Option<&str>| -> (Option<String>, Vec<Summary>) {
        let mut aggregator = Aggregator::new(
            names.iter().map(ToString::to_string).collect(),
            baseline.map(str::to_string),
        );
        for row in rows(names) {
            aggregator.add(row);
        }
        let report = aggregator.report(Context::default(), vec![], vec![], true);
        (report.context.baseline, report.summary)
    };
    let (baseline, summary) = summaries(&["scan", "fast", "sat"], None);
    assert_eq!(baseline.as_deref(), Some("fast"));
    assert_eq!(summary[1].ratio, Some(1.0));
    // scan took 1000 + p ns, fast 2000 + p: the geometric mean of those 30 ratios.
    let expected = ((0..30u64)
        .map(|p| ((1_000 + p) as f64 / (2_000 + p) as f64).ln())
        .sum::<f64>()
        / 30.0)
        .exp();
    assert!((summary[0].ratio.unwrap() - expected).abs() < 1e-12);
    assert_eq!(summary[0].ratio_pairs, 30);
    // Every pair is faster than the baseline: the test says so beyond doubt.
    assert!(summary[0].wilcoxon_p.unwrap() < 1e-5);
    let (baseline, summary) = summaries(&["scan", "sat"], None);
    assert_eq!(baseline.as_deref(), Some("scan"));
    assert!(summary.iter().all(|s| s.ratio.is_some()));
    let (baseline, _) = summaries(&["scan", "fast", "sat"], Some("sat"));
    assert_eq!(baseline.as_deref(), Some("sat"));
    // With no timeout, PAR-2 doubles the slowest search of the run and says so.
    let (_, summary) = summaries(&["scan", "sat"], None);
    assert_eq!(summary[0].par2_limit_from, "slowest_search");
    // sat's slowest search, 2000 + 29 ns.
    assert!((summary[0].par2_limit_us - 2.029).abs() < 1e-12);
}

#[test]
fn every_form_names_the_work_unit_and_carries_the_statistics() {
    let dir = scratch("statistics-forms");
    let (json, md, html) = (
        path(&dir, "r.json"),
        path(&dir, "r.md"),
        path(&dir, "r.html"),
    );
    let run = sudolab(
        &[
            "compare",
            "-s",
            "scan,fast,dlx-knuth,sat",
            "-j1",
            "-r",
            &json,
            "-r",
            &md,
            "-r",
            &html,
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let header = run.stdout.lines().next().expect("a header");
    let columns: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(
        columns,
        [
            "strategy",
            "puzzles",
            "unique",
            "multiple",
            "none",
            "unknown",
            "decided",
            "median_us",
            "mean_us",
            "p90_us",
            "par2_us",
            "work_mean",
            "work_unit",
            "ratio",
            "ratio_95",
            "wilcoxon_p"
        ]
    );
    let unit_of = |strategy: &str| -> String {
        let line = run
            .stdout
            .lines()
            .find(|line| line.split_whitespace().next() == Some(strategy))
            .expect("the strategy's line");
        line.split_whitespace().nth(12).expect("a unit").to_string()
    };
    assert_eq!(unit_of("scan"), "nodes");
    assert_eq!(unit_of("fast"), "nodes");
    assert_eq!(unit_of("dlx-knuth"), "updates");
    assert_eq!(unit_of("sat"), "-");
    assert!(
        run.stdout
            .contains("ratio: geometric mean of time / fast's time over the puzzles both decided")
    );
    assert!(run.stdout.contains("(1000 resamples, seed 1)"));
    // compare's default wall-clock timeout, the safety net above the work budgets.
    assert!(run.stdout.contains("par2 time limit: timeout 30000 ms"));
    let report = read_report(&json);
    assert_eq!(report.format, "sudolab-report/2");
    let units: Vec<Option<&str>> = report
        .summary
        .iter()
        .map(|s| s.work_unit.as_deref())
        .collect();
    assert_eq!(units, [Some("nodes"), Some("nodes"), Some("updates"), None]);
    assert!(report.summary.iter().all(|s| s.decided == 2));
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(!text.contains("nodes_mean"));
    assert!(text.contains("\"par2_us\":") && text.contains("\"wilcoxon_p\":"));
    let markdown = std::fs::read_to_string(&md).unwrap();
    assert!(markdown.contains("| work mean | work unit | ratio | ratio 95 | wilcoxon p |"));
    assert!(markdown.contains("| bootstrap seed | 1 |"));
    let page = std::fs::read_to_string(&html).unwrap();
    for id in [
        "chart-cactus",
        "chart-scatter-scan",
        "chart-scatter-dlx-knuth",
        "chart-scatter-sat",
        "chart-work-nodes",
        "chart-work-updates",
    ] {
        assert!(page.contains(&format!("<figure id=\"{id}\">")), "{id}");
    }
    assert!(!page.contains("chart-scatter-fast"));
}

/// The strategies' colours as plotters writes them in an SVG (`stroke="#0072B2"`), in order.
const STROKES: [&str; 4] = ["#0072B2", "#E69F00", "#009E73", "#D55E00"];

/// The `<polyline>` elements of an SVG with this stroke colour.
fn polylines(svg: &str, colour: &str) -> usize {
    svg.split("<polyline")
        .skip(1)
        .filter(|element| {
            element
                .split('>')
                .next()
                .is_some_and(|attributes| attributes.contains(&format!("stroke=\"{colour}\"")))
        })
        .count()
}

#[test]
fn plots_go_to_files_with_a_line_per_strategy_and_named_axes() {
    let dir = scratch("statistics-plots");
    let plots = dir.join("plots");
    let plots_arg = plots.display().to_string();
    let json = path(&dir, "r.json");
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast,scan,dlx-knuth,mrv",
            "-j1",
            "--timeout",
            "2s",
            "--plots",
            &plots_arg,
            "-r",
            &json,
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut names: Vec<String> = std::fs::read_dir(&plots)
        .expect("the plots directory")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "cactus.svg",
            "scatter-dlx-knuth.svg",
            "scatter-mrv.svg",
            "scatter-scan.svg"
        ]
    );
    let cactus = std::fs::read_to_string(plots.join("cactus.svg")).unwrap();
    assert!(cactus.starts_with("<svg"));
    for colour in STROKES {
        assert_eq!(polylines(&cactus, colour), 1, "{colour}: {cactus}");
    }
    assert!(cactus.contains("\ntime per search (µs, log scale)\n</text>"));
    assert!(cactus.contains("\npuzzles decided\n</text>"));
    // The 2 s timeout, drawn as a grey limit line.
    assert_eq!(polylines(&cactus, "#787878"), 1);
    let scatter = std::fs::read_to_string(plots.join("scatter-scan.svg")).unwrap();
    assert!(scatter.contains("\nfast time (µs, log scale)\n</text>"));
    assert!(scatter.contains("\nscan time (µs, log scale)\n</text>"));
    // The diagonal and the two limit lines.
    assert_eq!(polylines(&scatter, "#787878"), 3);
    // One point per puzzle: the two of the corpus.
    assert_eq!(scatter.matches("<circle").count(), 2);
    // The same plots again from the JSON report.
    let again = dir.join("again");
    let run = sudolab(
        &["report", &json, "--plots", &again.display().to_string()],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(again.join("cactus.svg")).unwrap(),
        cactus
    );
}

#[test]
fn a_plot_never_overwrites_an_input() {
    let dir = scratch("statistics-plot-input");
    let corpus = dir.join("cactus.svg");
    std::fs::copy("corpora/reference.txt", &corpus).unwrap();
    let before = std::fs::read(&corpus).unwrap();
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast,scan",
            "--plots",
            &dir.display().to_string(),
            &corpus.display().to_string(),
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{}: this plot would overwrite an input; choose another plot path",
            corpus.display()
        )),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&corpus).unwrap(), before);
}

#[test]
fn plots_draw_what_the_summaries_hold() {
    let case = &fixture()[0];
    let report = report_of(case, &case.rows);
    let files = plots::files(&report);
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["cactus.svg", "scatter-s1.svg", "scatter-s2.svg"]);
    // Every puzzle both ran is a point (400, under the cap).
    assert_eq!(files[1].1.matches("<circle").count(), 400);
    assert_eq!(report.summary[1].scatter.len(), 400);
    // The cactus steps end at the decided count.
    assert_eq!(report.summary[1].cactus.last().unwrap().0, 371);
    assert!(report.summary[1].cactus.len() <= sudolab::report::PLOT_POINTS);
}
