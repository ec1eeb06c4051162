//! Merging the JSON reports of the shards of one run, refusing anything that would make the
//! merged numbers lie: a missing or repeated shard, shards of different runs, a puzzle twice.

use std::collections::BTreeMap;

use super::{Aggregator, Clock, Context, Report};

/// Why reports do not merge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No report was given.
    #[error("nothing to merge")]
    Nothing,
    /// A report that lists fewer rows than it ran (Markdown-sized, not a JSON report).
    #[error("{file} lists {rows} rows for {puzzles} puzzles; only complete JSON reports merge")]
    Truncated {
        /// The report.
        file: String,
        /// Rows listed.
        rows: usize,
        /// Puzzles run.
        puzzles: u64,
    },
    /// A report of a run that was not split into shards.
    #[error("{file} is not a shard (its run had no --shard K/N); only the shards of one run merge")]
    NotAShard {
        /// The report.
        file: String,
    },
    /// A report whose shard is not `K/N`.
    #[error("{file}: shard '{shard}' is not K/N with 1 <= K <= N <= {max}", max = crate::plan::MAX_SHARDS)]
    BadShard {
        /// The report.
        file: String,
        /// Its shard field.
        shard: String,
    },
    /// Shards of different runs: a different setting.
    #[error(
        "{file} and {first} are shards of different runs: {what} {this} against {that}; only the \
         shards of one run merge"
    )]
    Differ {
        /// The report that differs.
        file: String,
        /// The first report.
        first: String,
        /// What differs.
        what: &'static str,
        /// Its value in `file`.
        this: String,
        /// Its value in `first`.
        that: String,
    },
    /// The same shard twice (or the same file twice).
    #[error("shard {shard} is given twice: {first} and {second}")]
    Repeated {
        /// The shard, `K/N`.
        shard: String,
        /// The first report that holds it.
        first: String,
        /// The second.
        second: String,
    },
    /// One puzzle in two reports.
    #[error("puzzle {puzzle} ({place}) is in both {first} and {second}; shards must not overlap")]
    Overlap {
        /// The puzzle's position in the input.
        puzzle: u64,
        /// Where it came from: `FILE:LINE`.
        place: String,
        /// The first report that holds it.
        first: String,
        /// The second.
        second: String,
    },
    /// Shards absent from the merge.
    #[error(
        "shards missing: {} of {count}; give every shard, or --allow-partial to merge these and \
         mark the report incomplete",
        shard_list(.missing, *.count)
    )]
    Missing {
        /// The missing shards' indices.
        missing: Vec<u64>,
        /// How many shards the run had.
        count: u64,
    },
}

fn shard_list(indices: &[u64], count: u64) -> String {
    indices
        .iter()
        .map(|k| format!("{k}/{count}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A merged report, and what the merge warns about.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The merged report.
    pub report: Report,
    /// Things that are allowed but worth a look: shards run on different processors, shards
    /// left out by `allow_partial`.
    pub warnings: Vec<String>,
}

/// Merges the JSON reports of the shards `1..=N` of one run into the report of the whole run:
/// rows are put back in corpus order and folded again, so the aggregates are those of a single
/// run over all the puzzles.
///
/// Every shard must be there exactly once, all of one `N`, run with the same inputs,
/// strategies, options and sudolab commit, with no puzzle twice. With `allow_partial`, missing
/// shards are allowed: the merged report is marked incomplete and lists them.
pub fn merge(reports: Vec<(String, Report)>, allow_partial: bool) -> Result<Merged, MergeError> {
    let (count, missing) = check_shards(&reports)?;
    if !missing.is_empty() && !allow_partial {
        return Err(MergeError::Missing { missing, count });
    }
    let first = &reports[0].1;
    let strategies = first.strategies.clone();
    let mut context = first.context.clone();
    context.shard = None;
    context.merged_from = Vec::new();
    context.merged_cpus = Vec::new();
    context.missing_shards.clone_from(&missing);
    // A busy machine under any shard makes the merged times compare only as ratios: each
    // shard's warning is kept, named by its file.
    let busy: Vec<String> = reports
        .iter()
        .filter_map(|(file, report)| {
            let warning = report.context.load_warning.as_ref()?;
            Some(format!("{file}: {warning}"))
        })
        .collect();
    context.load_warning = (!busy.is_empty()).then(|| busy.join("; "));
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    let mut input_errors = Vec::new();
    let mut complete = missing.is_empty();
    let mut owner: BTreeMap<u64, String> = BTreeMap::new();
    for (file, report) in reports {
        for row in &report.rows {
            if let Some(other) = owner.get(&row.puzzle).filter(|other| **other != file) {
                return Err(MergeError::Overlap {
                    puzzle: row.puzzle,
                    place: row.source.clone(),
                    first: other.clone(),
                    second: file,
                });
            }
            owner.insert(row.puzzle, file.clone());
        }
        context.merged_from.push(file);
        context.merged_cpus.push(report.context.cpu.clone());
        complete &= report.complete;
        rows.extend(report.rows);
        problems.extend(report.problems);
        input_errors.extend(report.input_errors);
    }
    let mut warnings = Vec::new();
    if !missing.is_empty() {
        warnings.push(format!(
            "merged without shards {}: the report is marked incomplete",
            shard_list(&missing, count)
        ));
    }
    let mut cpus = context.merged_cpus.clone();
    cpus.sort();
    cpus.dedup();
    if cpus.len() > 1 {
        warnings.push(format!(
            "the shards ran on {} different processors ({}): times compare only within a shard",
            cpus.len(),
            cpus.join("; ")
        ));
    }
    let order = |name: &String| strategies.iter().position(|s| s == name);
    rows.sort_by_key(|row| (row.puzzle, order(&row.strategy)));
    problems.sort_by_key(|problem| problem.puzzle);
    let mut aggregator =
        Aggregator::new(strategies, context.baseline.clone()).with_clock(Clock::of(context.clock));
    let all_rows = rows.clone();
    for row in rows {
        aggregator.add(row);
    }
    let mut report = aggregator.report(context, input_errors, problems, complete);
    report.rows = all_rows;
    Ok(Merged { report, warnings })
}

/// Checks that the reports are complete shards of one run, each once: gives the number of
/// shards and the missing ones.
fn check_shards(reports: &[(String, Report)]) -> Result<(u64, Vec<u64>), MergeError> {
    let Some((first_file, first)) = reports.first() else {
        return Err(MergeError::Nothing);
    };
    let first_file = first_file.clone();
    let mut shards: BTreeMap<u64, String> = BTreeMap::new();
    let mut count = None;
    for (file, report) in reports {
        if report.rows_truncated() {
            return Err(MergeError::Truncated {
                file: file.clone(),
                rows: report.rows.len(),
                puzzles: report.puzzles,
            });
        }
        let (index, n) = shard_of(file, &report.context)?;
        if let Some((what, this, that)) = difference(report, first) {
            return Err(MergeError::Differ {
                file: file.clone(),
                first: first_file.clone(),
                what,
                this,
                that,
            });
        }
        // A different N shows as a difference of the shard field's N.
        if *count.get_or_insert(n) != n {
            return Err(MergeError::Differ {
                file: file.clone(),
                first: first_file.clone(),
                what: "shard count",
                this: n.to_string(),
                that: count.unwrap_or(n).to_string(),
            });
        }
        if let Some(other) = shards.insert(index, file.clone()) {
            return Err(MergeError::Repeated {
                shard: format!("{index}/{n}"),
                first: other,
                second: file.clone(),
            });
        }
    }
    let count = count.expect("at least one report");
    let missing: Vec<u64> = (1..=count).filter(|k| !shards.contains_key(k)).collect();
    Ok((count, missing))
}

/// A report's shard, `(K, N)`.
fn shard_of(file: &str, context: &Context) -> Result<(u64, u64), MergeError> {
    let Some(shard) = &context.shard else {
        return Err(MergeError::NotAShard {
            file: file.to_string(),
        });
    };
    let bad = || MergeError::BadShard {
        file: file.to_string(),
        shard: shard.clone(),
    };
    let (k, n) = shard.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    // A hostile N would make the missing-shard list exhaust memory (found by the report_read
    // fuzz target): no run has more than MAX_SHARDS shards.
    if k == 0 || k > n || n > crate::plan::MAX_SHARDS {
        return Err(bad());
    }
    Ok((k, n))
}

/// The inputs of two shards, as `difference` compares them: by content when both reports hash
/// every input with one algorithm (so `corpus.txt` and `/data/corpus.txt` are one input, and a
/// file edited between the shards is another), by the paths that named them otherwise (reports
/// older than the hashes or hashed otherwise, such as `fnv1a64:`, and standard input): what,
/// `a`'s value and `b`'s.
fn inputs(a: &Context, b: &Context) -> (&'static str, String, String) {
    let comparable = a.inputs.len() == b.inputs.len()
        && a.input_hashes.len() == a.inputs.len()
        && b.input_hashes.len() == b.inputs.len()
        && a.input_hashes
            .iter()
            .chain(&b.input_hashes)
            .all(|hash| hash.as_deref().and_then(algorithm) == Some(CONTENT_HASH));
    if !comparable {
        return ("inputs", a.inputs.join(" "), b.inputs.join(" "));
    }
    // The first input whose content differs, named by each report's own path.
    let differing = (0..a.inputs.len()).find(|&i| a.input_hashes[i] != b.input_hashes[i]);
    let named = |context: &Context, i: usize| {
        format!(
            "{} ({})",
            context.inputs[i],
            context.input_hashes[i].as_deref().unwrap_or_default()
        )
    };
    match differing {
        Some(i) => ("input contents", named(a, i), named(b, i)),
        None => ("input contents", String::new(), String::new()),
    }
}

/// The one content hash of reports; a hash named otherwise is compared as unknown.
const CONTENT_HASH: &str = "sha256";

/// The algorithm a hash names, the text before its `:`.
fn algorithm(hash: &str) -> Option<&str> {
    hash.split_once(':').map(|(algorithm, _)| algorithm)
}

/// The side files of known answers as two shards are compared: each by its kind and content
/// hash, or by its path where it has no SHA-256.
fn side_files(context: &Context) -> String {
    context
        .side_files
        .iter()
        .map(|side| match side.sha256.as_deref() {
            Some(hash) if algorithm(hash) == Some(CONTENT_HASH) => {
                format!("{} ({hash})", side.kind)
            }
            _ => format!("{} {}", side.kind, side.path),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The first setting in which two shards' runs differ: what, and the two values.
fn difference(report: &Report, first: &Report) -> Option<(&'static str, String, String)> {
    let (a, b) = (&report.context, &first.context);
    let text = |value: &dyn std::fmt::Debug| format!("{value:?}");
    let checks: [(&'static str, String, String); 15] = [
        (
            "strategies",
            report.strategies.join(","),
            first.strategies.join(","),
        ),
        inputs(a, b),
        ("side files", side_files(a), side_files(b)),
        ("sudolab version", a.version.clone(), b.version.clone()),
        ("commit", text(&a.commit), text(&b.commit)),
        ("solution limit", a.limit.to_string(), b.limit.to_string()),
        ("node budget", text(&a.max_nodes), text(&b.max_nodes)),
        ("work budget", text(&a.budget), text(&b.budget)),
        ("timeout (ms)", text(&a.timeout_ms), text(&b.timeout_ms)),
        (
            "per-strategy limits",
            text(&a.overrides),
            text(&b.overrides),
        ),
        ("repeats", a.repeat.to_string(), b.repeat.to_string()),
        ("warm-up", a.warmup.to_string(), b.warmup.to_string()),
        ("order", text(&a.order), text(&b.order)),
        ("baseline", text(&a.baseline), text(&b.baseline)),
        (
            "clock",
            Clock::of(a.clock).to_string(),
            Clock::of(b.clock).to_string(),
        ),
    ];
    checks.into_iter().find(|(_, this, that)| this != that)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{row, rows};

    fn shard_reports(count: u64) -> Vec<(String, Report)> {
        (1..=count)
            .map(|index| {
                let mut aggregator =
                    Aggregator::new(vec!["a".into(), "b".into()], Some("a".into()));
                let mine: Vec<_> = rows()
                    .into_iter()
                    .filter(|r| r.puzzle % count == index - 1)
                    .collect();
                for row in &mine {
                    aggregator.add(row.clone());
                }
                let context = Context {
                    baseline: Some("a".into()),
                    shard: Some(format!("{index}/{count}")),
                    cpu: format!("cpu{}", index.min(2)),
                    ..Context::default()
                };
                let mut report = aggregator.report(context, vec![], vec![], true);
                report.rows = mine;
                (format!("s{index}.json"), report)
            })
            .collect()
    }

    #[test]
    fn merged_shards_equal_one_run() {
        let mut whole = Aggregator::new(vec!["a".into(), "b".into()], Some("a".into()));
        for row in rows() {
            whole.add(row);
        }
        let merged = merge(shard_reports(2), false).expect("shards merge");
        assert_eq!(merged.report.summary, whole.summary());
        assert_eq!(merged.report.puzzles, 10);
        assert_eq!(merged.report.rows, rows());
        assert!(merged.report.complete);
        assert_eq!(merged.report.context.merged_from, ["s1.json", "s2.json"]);
        assert_eq!(merged.report.context.merged_cpus, ["cpu1", "cpu2"]);
        assert_eq!(
            merged.warnings,
            [
                "the shards ran on 2 different processors (cpu1; cpu2): times compare only within \
              a shard"
            ]
        );
    }

    #[test]
    fn every_shards_load_warning_is_kept() {
        let mut shards = shard_reports(2);
        shards[1].1.context.load_warning = Some("busy".into());
        let merged = merge(shards, false).expect("shards merge");
        assert_eq!(
            merged.report.context.load_warning.as_deref(),
            Some("s2.json: busy")
        );
        let merged = merge(shard_reports(2), false).expect("shards merge");
        assert_eq!(merged.report.context.load_warning, None);
    }

    #[test]
    fn gaps_repeats_and_strangers_are_refused() {
        let mut three = shard_reports(3);
        let second = three.remove(1);
        assert_eq!(
            merge(three.clone(), false).unwrap_err().to_string(),
            "shards missing: 2/3 of 3; give every shard, or --allow-partial to merge these and \
             mark the report incomplete"
        );
        let partial = merge(three.clone(), true).expect("allowed");
        assert!(!partial.report.complete);
        assert_eq!(partial.report.context.missing_shards, [2]);
        assert_eq!(partial.report.puzzles, 7);

        let mut twice = three.clone();
        twice.push(three[0].clone());
        assert_eq!(
            merge(twice, false).unwrap_err(),
            MergeError::Repeated {
                shard: "1/3".into(),
                first: "s1.json".into(),
                second: "s1.json".into()
            }
        );

        let mut other = second.clone();
        other.1.context.timeout_ms = Some(5);
        three.push(other);
        assert_eq!(
            merge(three, false).unwrap_err().to_string(),
            "s2.json and s1.json are shards of different runs: timeout (ms) Some(5) against None; \
             only the shards of one run merge"
        );

        let mut mixed = shard_reports(2);
        mixed.push(shard_reports(3).remove(2));
        assert_eq!(
            merge(mixed, false).unwrap_err().to_string(),
            "s3.json and s1.json are shards of different runs: shard count 3 against 2; only the \
             shards of one run merge"
        );
    }

    #[test]
    fn inputs_are_one_when_their_contents_are_whatever_the_path() {
        let hashed = |reports: &mut Vec<(String, Report)>, paths: [&str; 2], hashes: [&str; 2]| {
            for ((_, report), (path, hash)) in reports.iter_mut().zip(paths.into_iter().zip(hashes))
            {
                report.context.inputs = vec![path.to_string()];
                report.context.input_hashes = vec![Some(hash.to_string())];
            }
        };
        let mut shards = shard_reports(2);
        hashed(
            &mut shards,
            ["c.txt", "/data/c.txt"],
            ["sha256:1", "sha256:1"],
        );
        assert!(merge(shards, false).is_ok());

        let mut shards = shard_reports(2);
        hashed(&mut shards, ["c.txt", "c.txt"], ["sha256:1", "sha256:2"]);
        assert_eq!(
            merge(shards, false).unwrap_err().to_string(),
            "s2.json and s1.json are shards of different runs: input contents c.txt \
             (sha256:2) against c.txt (sha256:1); only the shards of one run merge"
        );

        // Hashes of another algorithm (older reports' FNV-1a) are unknown: the paths decide.
        let mut shards = shard_reports(2);
        hashed(
            &mut shards,
            ["c.txt", "/data/c.txt"],
            ["fnv1a64:1", "fnv1a64:1"],
        );
        assert_eq!(
            merge(shards, false).unwrap_err().to_string(),
            "s2.json and s1.json are shards of different runs: inputs /data/c.txt against c.txt; \
             only the shards of one run merge"
        );
        let mut shards = shard_reports(2);
        hashed(&mut shards, ["c.txt", "c.txt"], ["fnv1a64:1", "sha256:1"]);
        assert!(merge(shards, false).is_ok());

        // Without hashes (older reports), the paths decide.
        let mut shards = shard_reports(2);
        shards[1].1.context.inputs = vec!["/data/c.txt".to_string()];
        assert!(merge(shards, false).is_err());
    }

    #[test]
    fn overlapping_or_unsharded_reports_do_not_merge() {
        let mut aggregator = Aggregator::new(vec!["a".into()], None);
        aggregator.add(row(0, "a", 5, 5));
        let report = aggregator.report(Context::default(), vec![], vec![], true);
        assert_eq!(
            merge(vec![("x.json".into(), report.clone())], false)
                .unwrap_err()
                .to_string(),
            "x.json is not a shard (its run had no --shard K/N); only the shards of one run merge"
        );
        let shard = |k: u64| {
            let mut report = report.clone();
            report.context.shard = Some(format!("{k}/2"));
            report
        };
        assert_eq!(
            merge(
                vec![("x.json".into(), shard(1)), ("y.json".into(), shard(2))],
                false
            )
            .unwrap_err()
            .to_string(),
            "puzzle 0 (t.txt:1) is in both x.json and y.json; shards must not overlap"
        );
    }
}
