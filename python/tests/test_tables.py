"""Results are tables that behave as tables: pyarrow's when it is installed, sudolab's own
without it; a comparison carries the JSON report's summary and context; every form names a
time by its unit."""

import csv
import json
import os
import re
import shutil
import subprocess

import pandas as pd
import pyarrow as pa
import sudolab
from sudolab import _native

SMALL = "4..3.....1....2."
SMALL_MULTIPLE = "4..3............"


def test_results_are_pyarrow_tables():
    generated = sudolab.generate(2, seed=5, box="2x2")
    results = {
        "count": sudolab.count([SMALL, SMALL_MULTIPLE]),
        "solve": sudolab.solve(SMALL),
        "verify": sudolab.verify(SMALL),
        "generate": generated,
        "read": sudolab.read(lines=[SMALL]),
        "strategies": sudolab.strategies(),
    }
    for name, table in results.items():
        assert isinstance(table, pa.Table), name
    counted = results["count"]
    assert counted.shape == (2, counted.num_columns) and counted.num_rows == 2
    assert counted["verdict"].to_pylist() == ["unique", "multiple"]
    assert counted.schema.field("time_ns").type == pa.uint64()
    assert counted.to_pandas()["solutions"].tolist() == [1, 2]


def test_a_comparison_stands_for_its_rows():
    c = sudolab.compare([SMALL, SMALL_MULTIPLE], strategies=["fast", "mrv"])
    assert isinstance(c.rows, pa.Table)
    assert isinstance(c.problems, pa.Table) and c.problems.num_rows == 0
    assert c.shape == (4, c.rows.num_columns) and c.num_rows == len(c) == 4
    assert c.schema == c.rows.schema
    assert c["strategy"].to_pylist() == ["fast", "mrv", "fast", "mrv"]
    assert c.column("verdict").to_pylist() == ["unique", "unique", "multiple", "multiple"]
    frame = c.to_pandas()
    assert isinstance(frame, pd.DataFrame) and frame.shape == c.shape
    assert pa.table(c).equals(c.rows)
    assert repr(c) == "<sudolab.Comparison: 4 rows, 0 problems>"
    one = sudolab.compare(SMALL, strategies=["fast"])
    assert repr(one) == "<sudolab.Comparison: 1 row, 0 problems>"


def test_the_html_view_is_a_table_with_its_size():
    c = sudolab.compare(SMALL, strategies=["fast", "mrv"])
    html = c._repr_html_()
    assert html.startswith("<table><caption>summary: 2 strategies</caption>")
    assert "<th>strategy</th>" in html and "<td>mrv</td>" in html
    assert "<caption>rows: 2 rows &times; " in html
    assert "<p>0 problems</p>" in html
    # One row: "1 row"; more than the rows shown: how many are shown.
    one = sudolab.Table(_native.experiment([SMALL], ["fast"], 2)[0])
    columns = len(one.column_names)
    assert f"<caption>1 row &times; {columns} columns</caption>" in one._repr_html_()
    assert one._repr_html_().count("<tr>") == 2  # the header and the row
    many = sudolab.Table(_native.experiment([SMALL] * 25, ["fast"], 2)[0])
    html = many._repr_html_()
    assert f"<caption>25 rows &times; {columns} columns (the first 20 shown)</caption>" in html
    assert html.count("<tr>") == 21


def test_without_pyarrow_results_are_sudolab_tables(monkeypatch):
    # What an installation without pyarrow gets: the same columns, through the capsule.
    monkeypatch.setattr(sudolab, "_PYARROW", None)
    t = sudolab.count([SMALL, SMALL_MULTIPLE], strategy="mrv")
    assert type(t) is sudolab.Table
    assert t.shape == (2, len(t.column_names)) and t.num_rows == 2
    assert t["verdict"] == ["unique", "multiple"]
    assert t["verdict"].to_pylist() == ["unique", "multiple"]
    assert t.schema[:2] == [("puzzle", "UInt64"), ("source", "Utf8")]
    assert ("time_ns", "UInt64") in t.schema
    assert repr(t).startswith("<sudolab.Table: 2 rows; columns puzzle, source, ")
    assert pa.table(t).equals(pa.table(sudolab.Table(t._table)))
    c = sudolab.compare(SMALL, strategies=["fast"])
    assert type(c.rows) is sudolab.Table and c["verdict"] == ["unique"]
    assert "<caption>rows: 1 row &times; " in c._repr_html_()


def test_the_summary_and_context_are_the_json_reports(root, tmp_path, monkeypatch):
    monkeypatch.chdir(root)
    report = tmp_path / "c.json"
    c = sudolab.compare(
        sudolab.read("corpora/reference.txt"),
        strategies=["fast", "mrv", "dlx-knuth"],
        baseline="fast",
        clock="wall",
        report=report,
    )
    written = json.loads(report.read_text())
    assert c.summary == written["summary"]
    assert c.context == written["context"]
    assert [s["strategy"] for s in c.summary] == ["fast", "mrv", "dlx-knuth"]
    assert [s["unique"] for s in c.summary] == [2, 2, 2]
    assert c.summary[0]["ratio"] == 1.0
    assert c.context["baseline"] == "fast" and c.context["clock"] == "wall"
    assert c.context["inputs"] == ["corpora/reference.txt"]
    # Without a report, the same summary and provenance.
    again = sudolab.compare(sudolab.read("corpora/reference.txt"), strategies=["fast"])
    assert [s["unique"] for s in again.summary] == [2]
    # With no baseline asked for, the ratios are to `fast` when it ran.
    assert again.context["clock"] == "cpu" and again.context["baseline"] == "fast"
    assert again.context["version"] == sudolab.__version__


def test_run_gives_the_experiments_summary_and_context(root, monkeypatch):
    monkeypatch.chdir(root)
    experiment = sudolab.run("docs/experiments/engines.toml")
    assert [s["strategy"] for s in experiment.summary] == sorted(
        set(experiment["strategy"].to_pylist()),
        key=experiment["strategy"].to_pylist().index,
    )
    assert sum(s["runs"] for s in experiment.summary) == experiment.num_rows
    assert experiment.context["command"] == 'python: sudolab.run("docs/experiments/engines.toml")'


def test_times_are_named_by_their_unit_in_every_form(tmp_path):
    # Arrow and JSON hold nanoseconds (`time_ns`), the CSV microseconds (`time_us`) with three
    # decimals: the same times, each named by its unit.
    paths = [tmp_path / "c.json", tmp_path / "c.csv"]
    c = sudolab.compare([SMALL, SMALL_MULTIPLE], strategies=["fast", "mrv"], report=paths)
    json_rows = json.loads(paths[0].read_text())["rows"]
    with open(paths[1], newline="") as f:
        csv_rows = list(csv.DictReader(f))
    for mine, from_json, from_csv in zip(c.to_pylist(), json_rows, csv_rows):
        for stem in ("time", "median", "cpu"):
            assert mine[f"{stem}_ns"] == from_json[f"{stem}_ns"]
            nanos = mine[f"{stem}_ns"]
            assert from_csv[f"{stem}_us"] == ("" if nanos is None else f"{nanos / 1e3:.3f}")
    assert not any(name.endswith("_us") for name in c.column_names)
    assert not any(name.endswith("_ns") for name in csv_rows[0])


def test_the_notebook_trace_is_as_tall_as_its_page(tmp_path):
    # The iframe in a real (headless) browser: once loaded it is as tall as the page inside
    # it, which is taller than the 640 px it starts with (the chart under the boards).
    t = sudolab.trace(SMALL, ["toggle", "dlx-knuth"])
    html = t._repr_html_()
    assert html.startswith('<iframe style="width:100%;height:640px;border:0" onload="')
    host = tmp_path / "notebook.html"
    host.write_text(
        "<!doctype html><html><body>" + html + "<script>window.addEventListener('load', () => "
        "{ const page = document.querySelector('iframe').contentDocument.documentElement; "
        "document.body.dataset.page = page.offsetHeight; });</script></body></html>"
    )
    browser = os.environ.get("SUDOLAB_CHROMIUM", "chromium")
    assert shutil.which(browser), f"no browser '{browser}': install chromium or set SUDOLAB_CHROMIUM"
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,900",
         "--virtual-time-budget=5000", "--dump-dom", host.as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    page = int(re.search(r'data-page="(\d+)"', dom).group(1))
    height = int(re.search(r'<iframe style="[^"]*height: (\d+)px', dom).group(1))
    assert height == page + 4 and page > 640
    assert isinstance(t.events, pa.Table) and t.num_rows == t.events.num_rows
    assert t["strategy"].to_pylist()[0] == "toggle"


def test_the_installed_extension_is_under_25_mb():
    # The release profile of python/Cargo.toml keeps no debug info and strips symbols: what
    # `pip install ./python` installs stays under the 25 MB target (with debug info it was
    # about 100 MB).
    size = os.path.getsize(_native.__file__)
    assert size < 25_000_000, f"{_native.__file__}: {size} bytes; is it a debug build?"
