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


def test_python_reports_merge_with_the_cli(root, cli, tmp_path, monkeypatch):
    # Shard 1 of 2 from Python, shard 2 of 2 from the command line, merged by `sudolab report`:
    # the merge equals the command line's report of the whole run. The report names its inputs
    # by the files of the puzzles' sources, so both read the same relative paths.
    monkeypatch.chdir(root)
    files = FILES[:5]
    puzzles = sudolab.read(files)
    python_shard = tmp_path / "shard1.json"
    sudolab.compare(puzzles, strategies=STRATEGIES, timeout=None, budget=0, shard=(1, 2),
                    report=[python_shard, tmp_path / "shard1.csv"])
    assert (tmp_path / "shard1.csv").read_text().startswith("puzzle,source,side,clues,")
    run = lambda *args: subprocess.run(  # noqa: E731
        [str(cli), *map(str, args)], cwd=root, check=True, capture_output=True, text=True
    )
    strategies = ",".join(STRATEGIES)
    # Every shard without a work budget or a timeout, as the Python shard: a merge refuses
    # shards of different options.
    run("compare", *files, "-s", strategies, "--timeout", "0", "--budget", "0", "--shard", "2/2",
        "--report", tmp_path / "shard2.json")
    run("compare", *files, "-s", strategies, "--timeout", "0", "--budget", "0",
        "--report", tmp_path / "whole.json")
    # A merge refuses shards built from different commits. In a working tree the wheel and the
    # binary can come from different commits (CI builds both from one), so the Python shard
    # takes the binary's commit; everything else in its context must match as it is.
    python_report = json.loads(python_shard.read_text())
    cli_report = json.loads((tmp_path / "shard2.json").read_text())
    python_report["context"]["commit"] = cli_report["context"]["commit"]
    python_shard.write_text(json.dumps(python_report))
    run("report", python_shard, tmp_path / "shard2.json", "--report", tmp_path / "merged.json")
    merged = json.loads((tmp_path / "merged.json").read_text())
    whole = json.loads((tmp_path / "whole.json").read_text())
    keep = ["puzzle", "strategy", "verdict", "solutions", "exhausted", "counters"]
    assert [{k: r[k] for k in keep} for r in merged["rows"]] == [
        {k: r[k] for k in keep} for r in whole["rows"]
    ]
    assert merged["complete"] is True
    assert [s["unique"] for s in merged["summary"]] == [s["unique"] for s in whole["summary"]]


def test_generate_auto_takes_the_same_checker_as_the_cli(root, cli):
    # 14x14: the sizes where the command line and Python once chose differently; 49x49: beyond
    # sat's largest board, where auto falls back to fast.
    for box, clues, expected in [("2x7", "150", "sat"), ("7x7", "2300", "fast")]:
        done = subprocess.run(
            [str(cli), "generate", "--box", box, "-c", "1", "--clues", clues, "--json", "--stats"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
        cli_checker = done.stderr.split("checker ")[1].split(")")[0]
        generated = sudolab.generate(1, box=box, clues=int(clues)).to_pylist()
        assert [row["checker"] for row in generated] == [cli_checker] == [expected], box


def test_diff_equals_the_cli_and_names_a_changed_verdict(root, cli, tmp_path):
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    subprocess.run(
        [str(cli), "compare", "corpora/generated/9x9-minimal.txt", "-s", "fast,sat",
         "--report", str(before)],
        cwd=root,
        check=True,
        capture_output=True,
    )
    report = json.loads(before.read_text())
    for row in report["rows"]:
        if row["strategy"] == "sat" and row["puzzle"] == 0:
            row["verdict"], row["solutions"] = "multiple", 2
    after.write_text(json.dumps(report))
    found = sudolab.diff(before, after, seed=3)
    done = subprocess.run(
        [str(cli), "diff", str(before), str(after), "--format", "json", "--seed", "3"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert found == json.loads(done.stdout)
    assert [(c["strategy"], c["before"], c["after"]) for c in found["changes"]] == [
        ("sat", "unique (1)", "multiple (2)")
    ]
    other = tmp_path / "other.json"
    subprocess.run(
        [str(cli), "compare", "corpora/generated/4x4.txt", "-s", "fast", "--report", str(other)],
        cwd=root,
        check=True,
        capture_output=True,
    )
    try:
        sudolab.diff(before, other)
    except sudolab.OptionError as err:
        assert "the reports read different inputs" in str(err)
    else:
        raise AssertionError("reports of other inputs are refused")
