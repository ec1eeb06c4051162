"""The command line's Parquet report read by polars and DuckDB: the schema of the Python
table of the same comparison, and the rows of the JSON report the same run wrote."""

import json
import subprocess

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

import sudolab

CORPUS = "corpora/generated/9x9-minimal.txt"
STRATEGIES = ["fast", "sat"]
SAME = ["puzzle", "side", "clues", "strategy", "verdict", "solutions", "exhausted", "stopped"]


def cli_reports(root, cli, tmp_path):
    parquet, report = tmp_path / "r.parquet", tmp_path / "r.json"
    subprocess.run(
        [str(cli), "compare", CORPUS, "-s", ",".join(STRATEGIES),
         "--report", str(parquet), "--report", str(report)],
        cwd=root,
        check=True,
        capture_output=True,
    )
    return parquet, json.loads(report.read_text())


def test_polars_and_duckdb_read_the_python_tables_schema_and_the_json_rows(root, cli, tmp_path):
    parquet, report = cli_reports(root, cli, tmp_path)
    table = pa.table(sudolab.compare(sudolab.read(root / CORPUS), strategies=STRATEGIES).rows)

    # The same Arrow schema, nullability included (the file's key-value metadata apart).
    assert pq.read_schema(parquet).remove_metadata() == table.schema.remove_metadata()
    assert table.schema.names[:12] == [
        "puzzle", "source", "side", "clues", "strategy", "verdict", "solutions", "exhausted",
        "stopped", "time_ns", "median_ns", "cpu_ns",
    ]

    # polars: the schema polars gives the Python table, and the JSON report's rows.
    frame = pl.read_parquet(parquet)
    assert frame.schema == pl.from_arrow(table).schema
    assert frame.height == len(report["rows"]) == 200
    assert frame.select(SAME).to_dicts() == [
        {key: row[key] for key in SAME} for row in report["rows"]
    ]
    assert frame["nodes"].to_list() == [row["counters"].get("nodes") for row in report["rows"]]
    # The comparison from Python found what the command line found.
    assert frame.select(SAME).to_dicts() == pl.from_arrow(table).select(SAME).to_dicts()

    # DuckDB: the same column names and types as for the Python table, and a query over them.
    con = duckdb.connect()
    on_file = con.sql(f"SELECT * FROM read_parquet('{parquet}')")
    on_table = con.from_arrow(table)
    assert on_file.columns == on_table.columns
    assert [str(t) for t in on_file.types] == [str(t) for t in on_table.types]
    assert dict(zip(on_file.columns, map(str, on_file.types)))["time_ns"] == "UBIGINT"
    counts = con.sql(
        f"SELECT strategy, count(*), count(*) FILTER (WHERE verdict = 'unique') "
        f"FROM read_parquet('{parquet}') GROUP BY strategy ORDER BY strategy"
    ).fetchall()
    expected = sorted(
        (name,
         sum(row["strategy"] == name for row in report["rows"]),
         sum(row["strategy"] == name and row["verdict"] == "unique" for row in report["rows"]))
        for name in STRATEGIES
    )
    assert counts == expected


def test_the_parquet_metadata_holds_the_rest_of_the_report(root, cli, tmp_path):
    parquet, report = cli_reports(root, cli, tmp_path)
    metadata = pq.read_metadata(parquet).metadata
    assert metadata[b"sudolab.format"] == b"sudolab-report/2"
    assert json.loads(metadata[b"sudolab.context"]) == report["context"]
    assert json.loads(metadata[b"sudolab.problems"]) == report["problems"] == []
    assert json.loads(metadata[b"sudolab.input_errors"]) == []
    assert b"sudolab.incomplete" not in metadata
