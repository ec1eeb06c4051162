"""Every function, every input kind, every output route."""

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import sudolab

BOARD_A = "030260701680070090190004500820100040004602900050003028009300074040050036703018000"
SOLUTION_A = "435269781682571493197834562826195347374682915951743628519326874248957136763418259"
SMALL = "4..3.....1....2."
SMALL_SOLUTION = "4213134221343421"
SMALL_MULTIPLE = "4..3............"
ROW_COLUMNS = [
    "puzzle",
    "source",
    "side",
    "clues",
    "strategy",
    "verdict",
    "solutions",
    "exhausted",
    "stopped",
    "time_ns",
    "median_ns",
    "cpu_ns",
]


def test_strategies_lists_the_registry():
    table = pa.table(sudolab.strategies())
    assert table.column_names == ["name", "summary", "counters", "traceable"]
    names = table.column("name").to_pylist()
    assert names[:1] == ["fast"]
    assert {"scan", "toggle", "mrv", "dlx-knuth", "dlx", "sat"} <= set(names)
    traceable = dict(zip(names, table.column("traceable").to_pylist()))
    assert traceable["toggle"] and traceable["dlx-knuth"] and not traceable["fast"]
    counters = dict(zip(names, table.column("counters").to_pylist()))
    assert counters["toggle"] == "nodes,placements,backtracks"


def test_count_gives_the_rows_of_the_reports():
    table = pa.table(sudolab.count([SMALL, SMALL_MULTIPLE, "44.............."], strategy="toggle"))
    assert table.column_names == ROW_COLUMNS + ["nodes", "placements", "backtracks"]
    rows = table.to_pylist()
    assert [r["verdict"] for r in rows] == ["unique", "multiple", "none"]
    assert [r["solutions"] for r in rows] == [1, 2, 0]
    assert [r["source"] for r in rows] == ["puzzles:1", "puzzles:2", "puzzles:3"]
    assert [r["puzzle"] for r in rows] == [0, 1, 2]
    assert [r["stopped"] for r in rows] == [None, "solution_limit", None]
    assert rows[0]["exhausted"] and not rows[1]["exhausted"]
    assert rows[0]["side"] == 4 and rows[0]["clues"] == 4
    assert rows[0]["strategy"] == "toggle"
    # Conflicting givens: no search at all.
    assert rows[2]["nodes"] == 0


def test_counters_pinned_on_the_reference_board():
    # The used-table toggle backtracker fixes its tree: 53 calls to solve board A, its first solution only.
    row = sudolab.solve(BOARD_A, strategy="toggle").to_pylist()[0]
    assert (row["nodes"], row["placements"], row["verdict"]) == (53, 52, "solved")
    assert row["solution"] == SOLUTION_A


def test_limit_zero_counts_every_solution():
    for strategy in ("dlx-knuth", "mrv", "sat"):
        row = sudolab.count(SMALL_MULTIPLE, strategy=strategy, limit=0).to_pylist()[0]
        assert (row["verdict"], row["solutions"], row["exhausted"]) == ("multiple", 24, True)


def test_solve_gives_certified_solutions_or_null():
    table = sudolab.solve([SMALL, "44.............."])
    assert table["solution"].to_pylist() == [SMALL_SOLUTION, None]
    assert table["verdict"].to_pylist() == ["solved", "none"]


def test_every_input_kind_gives_the_same_rows():
    lines = [BOARD_A, SMALL_MULTIPLE.ljust(16, ".")]
    expected = pa.table(sudolab.count([BOARD_A], strategy="mrv")).select(
        ["verdict", "solutions", "nodes"]
    )
    cells = np.array([[int(c) for c in BOARD_A]], dtype=np.uint8)
    inputs = {
        "str": BOARD_A,
        "tuple": (BOARD_A,),
        "numpy": cells,
        "pyarrow array": pa.array([BOARD_A]),
        "pyarrow large_string": pa.array([BOARD_A], type=pa.large_string()),
        "pyarrow chunked": pa.chunked_array([[BOARD_A]]),
        "polars series": pl.Series("p", [BOARD_A]),
        "pyarrow table": pa.table({"puzzle": [BOARD_A]}),
        "polars frame": pl.DataFrame({"puzzle": [BOARD_A]}),
    }
    for kind, given in inputs.items():
        got = pa.table(sudolab.count(given, strategy="mrv")).select(
            ["verdict", "solutions", "nodes"]
        )
        assert got == expected, kind
    assert len(lines) == 2


def test_numpy_rows_of_other_sizes():
    cells = np.zeros((3, 16), dtype=np.uint8)
    cells[0, :4] = [4, 0, 0, 3]
    table = sudolab.count(cells, strategy="dlx-knuth")
    assert table["verdict"].to_pylist() == ["multiple"] * 3
    assert table["side"].to_pylist() == [4] * 3


def test_read_gives_sources_lines_and_claims(root):
    path = root / "corpora" / "reference.txt"
    table = pa.table(sudolab.read(path))
    assert table.column_names == ["source", "line", "puzzle", "solution", "count", "side", "clues"]
    assert table.column("line").to_pylist() == [3, 4]
    assert table.column("source").to_pylist() == [str(path)] * 2
    assert table.column("puzzle").to_pylist()[0] == BOARD_A.replace("0", ".")
    assert table.column("solution").to_pylist()[0] == SOLUTION_A
    assert table.column("count").to_pylist() == [None, None]
    # A table from read() runs with its sources and claims.
    rows = sudolab.count(sudolab.read(path)).to_pylist()
    assert [r["source"] for r in rows] == [f"{path}:3", f"{path}:4"]


def test_known_claims_are_checked():
    wrong = SMALL + ":3"
    c = sudolab.compare([wrong], strategies=["fast", "mrv"])
    problems = c.problems.to_pylist()
    assert [p["kind"] for p in problems] == ["contradicts_known_count"] * 2
    assert [p["strategies"] for p in problems] == ["fast", "mrv"]
    assert problems[0]["source"] == "puzzles:1"
    assert problems[0]["grid"] == SMALL


def test_compare_defaults_to_every_strategy():
    c = sudolab.compare([SMALL])
    assert c["strategy"].to_pylist() == sudolab.strategies()["name"].to_pylist()
    assert set(c["verdict"].to_pylist()) == {"unique"}
    assert not c.interrupted and c.input_errors == []
    assert repr(c) == f"<sudolab.Comparison: {c.num_rows} rows, 0 problems>"


def test_outputs_go_to_pyarrow_polars_and_pandas_alike():
    c = sudolab.compare([SMALL, SMALL_MULTIPLE], strategies=["fast", "mrv"], jobs=2)
    arrow = pa.table(c)
    frame = pl.DataFrame(c)
    pandas = c.to_pandas()
    assert isinstance(frame, pl.DataFrame) and isinstance(pandas, pd.DataFrame)
    assert frame.shape == (4, arrow.num_columns) == pandas.shape
    assert frame["verdict"].to_list() == ["unique", "unique", "multiple", "multiple"]
    assert pandas["strategy"].tolist() == ["fast", "mrv", "fast", "mrv"]
    assert c.to_polars().shape == frame.shape
    # polars.from_arrow takes any Arrow stream as one struct Series (polars' rule for
    # objects that are not pyarrow's); unnested, it is the same frame.
    assert pl.from_arrow(c).struct.unnest().equals(frame)
    assert pd.DataFrame.from_arrow(c).shape == pandas.shape
    # Counters an engine does not have are null, not zero.
    assert frame.filter(pl.col("strategy") == "fast")["placements"].null_count() == 2


def test_polars_takes_a_big_table_without_copying_it():
    # 1,000,000 rows built once in Rust; polars imports the buffers through the C stream.
    puzzles = pa.array(["44.............."] * 1_000_000)
    table = sudolab.count(puzzles, strategy="mrv", jobs=2)
    frame = pl.DataFrame(table)
    assert frame.height == 1_000_000
    source_before = pa.table(table).column("time_ns").chunk(0).buffers()[1].address
    source_again = pa.table(table).column("time_ns").chunk(0).buffers()[1].address
    assert source_before == source_again, "every export shares the same buffers"


def test_verify_reproves_with_several_engines():
    table = sudolab.verify([SMALL, SMALL_MULTIPLE])
    rows = table.to_pylist()
    assert rows[0]["verified"] and rows[0]["problems"] is None
    assert rows[0]["strategies"] == "fast,dlx-knuth,sat"
    assert not rows[1]["verified"]
    assert rows[1]["problems"].startswith("not unique: fast says ")


def test_generate_is_seeded_and_verifiable():
    first = sudolab.generate(3, seed=11, box="2x2", jobs=1).to_pylist()
    again = sudolab.generate(3, seed=11, box=(2, 2), jobs=2).to_pylist()
    assert first == again
    assert [g["index"] for g in first] == [0, 1, 2]
    assert all(sudolab.verify([g["puzzle"] for g in first])["verified"].to_pylist())
    shifted = sudolab.generate(1, seed=11, box="2x2", start=2).to_pylist()
    assert shifted == first[2:]


def test_trace_is_an_event_table_with_the_page(tmp_path):
    t = sudolab.trace(BOARD_A, ["toggle"], limit=1)
    events = pa.table(t)
    assert events.column_names == [
        "strategy", "step", "depth", "nodes", "event", "cell", "value", "item",
        "candidates", "text",
    ]
    tries = [e for e in events.to_pylist() if e["event"] == "try"]
    assert len(tries) == 52  # the placements pinned on board A
    assert events.column("nodes").to_pylist()[-1] == 53
    assert events.column("text").to_pylist()[0].startswith("choose r1c1")
    html = t._repr_html_()
    assert html.startswith("<iframe") and "srcdoc=" in html
    assert "<script" in t.html and "&lt;script" in html
    path = tmp_path / "trace.html"
    t.save(path)
    assert path.read_text() == t.html
    assert "verdict solved (1 solution found)" in repr(t)


def test_run_reads_an_experiment_file(root, tmp_path):
    experiment = tmp_path / "e.toml"
    experiment.write_text(
        f"""
name = "small"
strategies = ["fast", "mrv"]
[[corpus]]
path = "{root / 'corpora' / 'reference.txt'}"
"""
    )
    c = sudolab.run(experiment)
    assert c.name == "small"
    assert c["strategy"].to_pylist() == ["fast", "mrv", "fast", "mrv"]
    assert set(c["verdict"].to_pylist()) == {"unique"}
    assert c.problems.num_rows == 0


def test_read_lines_gives_the_same_table_as_a_file(root):
    path = root / "corpora" / "reference.txt"
    from_file = pa.table(sudolab.read(path))
    text = [l for l in path.read_text().splitlines() if l and not l.startswith("#")]
    from_lines = pa.table(sudolab.read(lines=text))
    keep = ["puzzle", "solution", "count", "side", "clues"]
    assert from_lines.select(keep) == from_file.select(keep)
    assert from_lines.column("source").to_pylist() == ["puzzles", "puzzles"]
    assert from_lines.column("line").to_pylist() == [1, 2]
    rows = sudolab.count(sudolab.read(lines=text)).to_pylist()
    assert [r["source"] for r in rows] == ["puzzles:1", "puzzles:2"]
