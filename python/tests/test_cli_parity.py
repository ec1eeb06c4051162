"""Results from Python equal the command line's on the bundled corpus."""

import json
import subprocess

import pyarrow as pa

import sudolab

FILES = [
    "corpora/reference.txt",
    "corpora/sizes.txt",
    "corpora/generated/4x4.txt",
    "corpora/generated/6x6.txt",
    "corpora/generated/9x9-minimal.txt",
    "corpora/generated/9x9-rot180.txt",
    "corpora/generated/12x12.txt",
]
STRATEGIES = ["fast", "dlx-knuth", "sat"]
SAME = ["puzzle", "source", "side", "clues", "strategy", "verdict", "solutions", "exhausted"]


def test_compare_rows_equal_the_cli_json_report(root, cli, tmp_path):
    report = tmp_path / "c.json"
    subprocess.run(
        [str(cli), "compare", *FILES, "-s", ",".join(STRATEGIES), "--timeout", "0",
         "--report", str(report)],
        cwd=root,
        check=True,
        capture_output=True,
    )
    cli_rows = json.loads(report.read_text())["rows"]
    c = sudolab.compare(
        sudolab.read([root / f for f in FILES]), strategies=STRATEGIES, timeout=None
    )
    rows = pa.table(c).to_pylist()
    assert len(rows) == len(cli_rows) > 100
    for mine, theirs in zip(rows, cli_rows):
        theirs["source"] = str(root / theirs["source"])
        assert {k: mine[k] for k in SAME} == {k: theirs[k] for k in SAME}
        assert mine["stopped"] == theirs["stopped"]
        # Every counter the CLI reports, with the same value; no other counter.
        counters = {k: mine[k] for k in theirs["counters"]}
        assert counters == theirs["counters"], mine["source"]
    assert c.problems.num_rows == 0


def test_count_verdicts_equal_the_cli_count(root, cli):
    done = subprocess.run(
        [str(cli), "count", "--json", "-s", "mrv", *FILES[:6]],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    cli_lines = [json.loads(line) for line in done.stdout.splitlines()]
    rows = sudolab.count(sudolab.read([root / f for f in FILES[:6]]), strategy="mrv").to_pylist()
    assert [(r["verdict"], r["solutions"]) for r in rows] == [
        (line["verdict"], line["solutions"]) for line in cli_lines
    ]
    assert [r["source"] for r in rows] == [
        f"{root / line['source']}:{line['line']}" for line in cli_lines
    ]
