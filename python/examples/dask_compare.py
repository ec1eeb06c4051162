"""Compare strategies over shards of a corpus with Dask, then merge the shards' tables.

Each task runs `sudolab.compare(..., shard=(k, n))` on one shard: the puzzles whose position
modulo n is k - 1, with their positions in the whole corpus kept, so the shards' rows
concatenate into the rows of one run. The task function takes and returns plain data (a path,
names, a pyarrow table), so it runs as it is in Ray tasks (`ray.remote(compare_shard)`) or any
other pool.

    python python/examples/dask_compare.py corpora/generated/9x9-minimal.txt --shards 4
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

import pyarrow as pa

import sudolab


def compare_shard(
    path: str, index: int, count: int, strategies: Sequence[str], timeout: str
) -> pa.Table:
    """One shard's rows, as a pyarrow table (which pickles, for the trip back)."""
    puzzles = sudolab.read(path)
    result = sudolab.compare(
        puzzles, strategies=list(strategies), timeout=timeout, shard=(index, count), jobs=1
    )
    return pa.table(result)


def merge(tables: Sequence[pa.Table], strategies: Sequence[str]) -> pa.Table:
    """The shards' rows in the order of one run: by puzzle, then strategy as asked."""
    merged = pa.concat_tables(tables)
    rank = {name: i for i, name in enumerate(strategies)}
    order = sorted(
        range(merged.num_rows),
        key=lambda i: (
            merged.column("puzzle")[i].as_py(),
            rank[merged.column("strategy")[i].as_py()],
        ),
    )
    return merged.take(order)


def main(argv: Sequence[str] | None = None) -> pa.Table:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="a puzzle file")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--strategies", default="fast,mrv,dlx-knuth")
    parser.add_argument("--timeout", default="10s")
    parser.add_argument("--out", help="write the merged rows to this Arrow IPC (Feather) file")
    args = parser.parse_args(argv)
    strategies = args.strategies.split(",")

    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True) as cluster:
        with Client(cluster) as client:
            futures = [
                client.submit(
                    compare_shard, args.path, k, args.shards, strategies, args.timeout, pure=False
                )
                for k in range(1, args.shards + 1)
            ]
            tables = client.gather(futures)
    merged = merge(tables, strategies)
    verdicts = merged.group_by(["strategy", "verdict"]).aggregate([("puzzle", "count")])
    if args.out:
        import pyarrow.feather

        pyarrow.feather.write_feather(merged, args.out)
    print(f"{merged.num_rows} rows from {args.shards} shards")
    for row in verdicts.sort_by([("strategy", "ascending"), ("verdict", "ascending")]).to_pylist():
        print(f"{row['strategy']}\t{row['verdict']}\t{row['puzzle_count']}")
    return merged


if __name__ == "__main__":
    main(sys.argv[1:])
