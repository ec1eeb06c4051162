"""The Dask example: shards compared on a LocalCluster and merged equal one run."""

import pathlib
import subprocess
import sys

import pyarrow as pa
import pyarrow.feather

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


def test_merged_shards_equal_one_run(root, tmp_path):
    # The cluster runs in a process of its own: a LocalCluster started inside pytest's process
    # waits for its workers forever.
    path = str(root / "corpora" / "generated" / "9x9-rot180.txt")
    out = tmp_path / "merged.arrow"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), path, "--shards", "3", "--workers", "2", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    merged = pyarrow.feather.read_table(out)
    whole = pa.table(
        sudolab.compare(sudolab.read(path), strategies=["fast", "mrv", "dlx-knuth"], timeout="10s")
    )
    assert merged.num_rows == 60
    assert merged.select(KEPT) == whole.select(KEPT)
