"""The Dask example: shards compared on a LocalCluster and merged equal one run."""

import pathlib
import subprocess
import sys

import pyarrow as pa

import sudolab

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "dask_compare.py"
KEPT = ["puzzle", "source", "strategy", "verdict", "solutions", "exhausted", "nodes"]


def test_the_example_runs_as_documented(root):
    path = root / "corpora" / "generated" / "9x9-minimal.txt"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), str(path), "--shards", "3", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "300 rows from 3 shards"
    assert "fast\tunique\t100" in lines


def test_merged_shards_equal_one_run(root):
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import dask_compare
    finally:
        sys.path.pop(0)
    path = str(root / "corpora" / "generated" / "9x9-rot180.txt")
    merged = dask_compare.main([path, "--shards", "3", "--workers", "2"])
    whole = pa.table(
        sudolab.compare(sudolab.read(path), strategies=["fast", "mrv", "dlx-knuth"], timeout="10s")
    )
    assert merged.select(KEPT) == whole.select(KEPT)
