#![no_main]
//! The JSON report reader (`report::json::read`, what `sudolab report FILE.json` reads) and what
//! `sudolab report` does with a report it accepts: render it in every form, fold its rows again,
//! and merge shards of it.
//!
//! Input: the report text (UTF-8). Most inputs are not reports; seeds from `seeds.sh` are real
//! reports written by `sudolab compare`, so mutations stay close to the format.
//!
//! Checks: no panic and no hang (libFuzzer's `-timeout`), and on an accepted report:
//! - every form renders (text, Markdown, CSV, JSON, JSON lines, HTML);
//! - no markup from the data reaches the HTML (`<script`) or the Markdown (any `<`);
//! - the JSON form reads back;
//! - merging the report with itself under the same name is refused (it would double counts);
//! - the report split into shards 1/2 and 2/2 (rows by puzzle parity) merges, when it merges,
//!   into the aggregates of one run over all its rows, with every row kept;
//! - merging with its sibling shard (same N, no rows, `--allow-partial`) does not panic.
use libfuzzer_sys::fuzz_target;
use sudolab::report::{self, Aggregator, Format, Report, json, merge, render, text};

/// A copy of `report` as shard `shard`, keeping the rows `keep` selects; its puzzle count is
/// set so that the copy is not a truncated report.
fn shard_copy(report: &Report, shard: String, keep: impl Fn(u64) -> bool) -> Report {
    let mut copy = report.clone();
    copy.context.shard = Some(shard);
    copy.rows.retain(|row| keep(row.puzzle));
    copy.puzzles = 0;
    copy
}

fuzz_target!(|data: &[u8]| {
    let Ok(text_in) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(report) = json::read(text_in) else {
        return;
    };

    // Every form `--report FILE.EXT` can write, and the table printed on stdout.
    for form in Format::ALL {
        let out = render(form, &report);
        match form {
            Format::Html => assert!(
                !out.to_ascii_lowercase().contains("<script"),
                "markup from the report's data reached the HTML page"
            ),
            Format::Markdown => assert!(
                !out.contains('<'),
                "a '<' from the report's data reached the Markdown"
            ),
            Format::Json => {
                if let Err(err) = json::read(&out) {
                    panic!("the JSON form of an accepted report does not read back: {err}");
                }
            }
            _ => {}
        }
    }
    let _ = text::render(&report, true);
    let _ = report.rows_truncated();

    // Fold the rows again, as a run (and a merge) does.
    let mut whole = Aggregator::new(report.strategies.clone(), report.context.baseline.clone());
    for row in &report.rows {
        whole.add(row.clone());
    }
    let refolded = whole.report(report.context.clone(), vec![], vec![], report.complete);
    let _ = text::render(&refolded, false);

    // The same file twice must never merge: every count would double.
    for allow_partial in [false, true] {
        let twice = vec![
            ("a.json".to_string(), report.clone()),
            ("a.json".to_string(), report.clone()),
        ];
        if let Ok(merged) = merge(twice, allow_partial) {
            panic!(
                "a report merged with itself: {} puzzles from {} (allow_partial {allow_partial})",
                merged.report.puzzles, report.puzzles
            );
        }
    }
    // One report alone, as given.
    let _ = merge(vec![("a.json".to_string(), report.clone())], true);

    // Two shards made from it: the merge must equal one run over the same rows.
    let shards = vec![
        (
            "s1.json".to_string(),
            shard_copy(&report, "1/2".into(), |p| p % 2 == 0),
        ),
        (
            "s2.json".to_string(),
            shard_copy(&report, "2/2".into(), |p| p % 2 == 1),
        ),
    ];
    if let Ok(merged) = merge(shards, false) {
        assert_eq!(
            merged.report.rows.len(),
            report.rows.len(),
            "the merge lost or added rows"
        );
        assert_eq!(
            merged.report.summary,
            whole.summary(),
            "merged shards do not give the aggregates of one run"
        );
        let _ = text::render(&merged.report, false);
        let _ = report::markdown::render(&merged.report);
    }

    // Its sibling shard of the same N (as `sudolab report a.json b.json --allow-partial` meets
    // it): the report's own shard field is input.
    if let Some((k, n)) = report
        .context
        .shard
        .as_deref()
        .and_then(|shard| shard.split_once('/'))
        .and_then(|(k, n)| Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        && k >= 1
        && n >= 2
        && k <= n
    {
        let sibling = shard_copy(&report, format!("{}/{n}", k % n + 1), |_| false);
        let pair = vec![
            ("a.json".to_string(), report.clone()),
            ("b.json".to_string(), sibling),
        ];
        if let Ok(merged) = merge(pair, true) {
            let _ = text::render(&merged.report, false);
        }
    }
});
