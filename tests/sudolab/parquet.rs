//! Parquet reports (`--report FILE.parquet`): written by `compare`, `report` and `run`, read
//! back with the parquet crate: the Python tables' schema, every row the JSON report of the
//! same run holds, and the rest of the report in the file's metadata.

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;

use crate::cli::sudolab;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudolab-parquet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// A Parquet file read whole: its rows as one batch and its key-value metadata.
fn read(path: &Path) -> (RecordBatch, Vec<(String, Option<String>)>) {
    let file = std::fs::File::open(path).expect("the Parquet report");
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).expect("a Parquet file");
    let metadata = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .map(|pairs| {
            pairs
                .iter()
                .filter(|pair| pair.key.starts_with("sudolab."))
                .map(|pair| (pair.key.clone(), pair.value.clone()))
                .collect()
        })
        .unwrap_or_default();
    let schema = builder.schema().clone();
    let batches: Vec<RecordBatch> = builder
        .build()
        .expect("a reader")
        .collect::<Result<_, _>>()
        .expect("the rows");
    let batch = arrow_select_concat(&schema, &batches);
    (batch, metadata)
}

/// The batches of one file as one (the reports here fit one row group).
fn arrow_select_concat(schema: &arrow_schema::SchemaRef, batches: &[RecordBatch]) -> RecordBatch {
    match batches {
        [] => RecordBatch::new_empty(schema.clone()),
        [one] => one.clone(),
        _ => panic!("{} row groups for a few rows", batches.len()),
    }
}

/// The value of `column` in `row` as the JSON report writes it (null where the Parquet cell is
/// null), from the Arrow type the schema gives it.
fn json_value(batch: &RecordBatch, column: &str, row: usize) -> Value {
    let array = batch.column_by_name(column).expect(column);
    if array.is_null(row) {
        return Value::Null;
    }
    match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().value(row).into(),
        DataType::UInt32 => array.as_primitive::<UInt32Type>().value(row).into(),
        DataType::UInt64 => array.as_primitive::<UInt64Type>().value(row).into(),
        DataType::Boolean => array.as_boolean().value(row).into(),
        other => panic!("{column}: unexpected type {other}"),
    }
}

/// The JSON report's rows with each counter as a column of its own, as Parquet has them.
fn flat_rows(report: &Value, counters: &[&str]) -> Vec<Value> {
    report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let mut flat = row.as_object().expect("a row").clone();
            let kept = flat.remove("counters").expect("counters");
            for counter in counters {
                flat.insert((*counter).to_string(), kept[*counter].clone());
            }
            Value::Object(flat)
        })
        .collect()
}

fn parquet_rows(batch: &RecordBatch) -> Vec<Value> {
    let schema = batch.schema();
    (0..batch.num_rows())
        .map(|row| {
            Value::Object(
                schema
                    .fields()
                    .iter()
                    .map(|field| (field.name().clone(), json_value(batch, field.name(), row)))
                    .collect(),
            )
        })
        .collect()
}

/// The schema of `fast` and `sat` rows: the Python table's (`python/tests/test_parquet.py`
/// holds the two equal), in the JSON report's field order, then the counters of the two
/// engines in counter order.
const COLUMNS: [(&str, DataType, bool); 18] = [
    ("puzzle", DataType::UInt64, false),
    ("source", DataType::Utf8, false),
    ("side", DataType::UInt32, false),
    ("clues", DataType::UInt32, false),
    ("strategy", DataType::Utf8, false),
    ("verdict", DataType::Utf8, false),
    ("solutions", DataType::UInt64, false),
    ("exhausted", DataType::Boolean, false),
    ("stopped", DataType::Utf8, true),
    ("time_ns", DataType::UInt64, false),
    ("median_ns", DataType::UInt64, false),
    ("cpu_ns", DataType::UInt64, true),
    ("nodes", DataType::UInt64, true),
    ("variables", DataType::UInt64, true),
    ("clauses", DataType::UInt64, true),
    ("solver_calls", DataType::UInt64, true),
    ("guesses", DataType::UInt64, true),
    ("propagation_rounds", DataType::UInt64, true),
];

const COUNTERS: [&str; 6] = [
    "nodes",
    "variables",
    "clauses",
    "solver_calls",
    "guesses",
    "propagation_rounds",
];

const CORPUS: &str = "corpora/generated/9x9-minimal.txt";

#[test]
fn compare_writes_the_json_reports_rows_in_the_python_schema_with_the_report_in_metadata() {
    let dir = scratch("compare");
    let (parquet, json) = (dir.join("r.parquet"), dir.join("r.json"));
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast,sat",
            "--sample",
            "12",
            "--report",
            text(&parquet),
            "--report",
            text(&json),
            CORPUS,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("JSON")).expect("JSON");
    let (batch, metadata) = read(&parquet);

    let schema = batch.schema();
    let found: Vec<(&str, DataType, bool)> = schema
        .fields()
        .iter()
        .map(|f| (f.name().as_str(), f.data_type().clone(), f.is_nullable()))
        .collect();
    assert_eq!(found, COLUMNS);
    assert_eq!(batch.num_rows(), 24, "12 puzzles, 2 strategies");
    assert_eq!(parquet_rows(&batch), flat_rows(&report, &COUNTERS));
    // Absent counters are null, never zero: `fast` has no clauses, `sat` no guesses.
    let rows = parquet_rows(&batch);
    let fast = rows.iter().find(|r| r["strategy"] == "fast").expect("fast");
    let sat = rows.iter().find(|r| r["strategy"] == "sat").expect("sat");
    assert_eq!(
        (&fast["clauses"], &sat["guesses"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(sat["clauses"].as_u64().map(|n| n > 0), Some(true));

    let meta = |key: &str| {
        metadata
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {key} in {metadata:?}"))
    };
    assert_eq!(meta("sudolab.format"), "sudolab-report/2");
    let context: Value = serde_json::from_str(&meta("sudolab.context")).expect("JSON");
    assert_eq!(context, report["context"]);
    assert_eq!(meta("sudolab.problems"), "[]");
    assert_eq!(meta("sudolab.input_errors"), "[]");
    assert!(
        metadata.iter().all(|(key, _)| key != "sudolab.incomplete"),
        "a complete run: {metadata:?}"
    );
}

#[test]
fn report_and_run_write_parquet_and_a_partial_merge_is_marked_incomplete() {
    let dir = scratch("merge");
    let shard = |k: u32| {
        let path = dir.join(format!("shard{k}.json"));
        let run = sudolab(
            &[
                "compare",
                "-s",
                "fast,sat",
                "--shard",
                &format!("{k}/3"),
                "--report",
                text(&path),
                "corpora/reference.txt",
                "corpora/generated/4x4.txt",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        path
    };
    let shards: Vec<PathBuf> = (1..=3).map(shard).collect();

    // Re-rendered from the JSON reports: the same rows as the merged JSON report.
    let merged = (dir.join("merged.parquet"), dir.join("merged.json"));
    let mut args = vec!["report"];
    args.extend(shards.iter().map(|p| text(p)));
    args.extend(["--report", text(&merged.0), "--report", text(&merged.1)]);
    let run = sudolab(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&merged.1).expect("JSON")).expect("JSON");
    let (batch, metadata) = read(&merged.0);
    assert_eq!(parquet_rows(&batch), flat_rows(&report, &COUNTERS));
    let puzzles = report["puzzles"].as_u64().expect("puzzles") as usize;
    assert_eq!(batch.num_rows(), 2 * puzzles);
    assert!(metadata.iter().all(|(key, _)| key != "sudolab.incomplete"));

    // Two shards of three, merged anyway: the Parquet file says why it is incomplete.
    let partial = dir.join("partial.parquet");
    let run = sudolab(
        &[
            "report",
            text(&shards[0]),
            text(&shards[2]),
            "--allow-partial",
            "--report",
            text(&partial),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (_, metadata) = read(&partial);
    let reason = metadata
        .iter()
        .find(|(key, _)| key == "sudolab.incomplete")
        .and_then(|(_, value)| value.clone())
        .expect("an incomplete mark");
    assert!(reason.starts_with("shards 2 of 3 are missing"), "{reason}");

    // An experiment's results directory holds the forms it asks for, Parquet included.
    let experiment = dir.join("parquet.toml");
    std::fs::write(
        &experiment,
        format!(
            "name = \"parquet\"\nstrategies = [\"fast\", \"sat\"]\n\n[[corpus]]\npath = \
             \"{}\"\n\n[output]\ndir = \"out\"\nforms = [\"parquet\", \"json\"]\n",
            std::fs::canonicalize("corpora/reference.txt")
                .expect("the corpus")
                .display()
        ),
    )
    .expect("written");
    let run = sudolab(&["run", text(&experiment)], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let results = dir.join("out");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("report.json")).expect("JSON"))
            .expect("JSON");
    let (batch, _) = read(&results.join("report.parquet"));
    assert_eq!(parquet_rows(&batch), flat_rows(&report, &COUNTERS));
    assert_eq!(batch.num_rows(), 4, "two puzzles, two strategies");
}

#[test]
fn a_parquet_report_that_cannot_be_written_is_named_before_the_run() {
    let dir = scratch("unwritable");
    let path = dir.join("missing").join("r.parquet");
    let run = sudolab(
        &[
            "compare",
            "-s",
            "fast",
            "--report",
            text(&path),
            "corpora/reference.txt",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty(), "nothing ran");
    let expected = format!(
        "sudolab: {}: cannot write the report: No such file or directory (os error 2)\n",
        path.display()
    );
    assert_eq!(run.stderr, expected);
    let bad = sudolab(
        &["report", "--report", text(&dir.join("r.parq")), "x.json"],
        "",
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.ends_with(
            "r.parq: cannot tell the report form from the extension 'parq'; use .md, .csv, \
             .json, .jsonl, .html, .parquet or .txt\n"
        ),
        "{}",
        bad.stderr
    );
}
