"""Counting a corpus from Python against the same work in Rust, in one run.

    python python/benchmarks/count_from_python.py ../shared/corpora/tdoku/puzzles2_17_clue.txt

Python: `pyarrow.table(sudolab.count(lines, "fast", jobs=J))`, from a list of str to a pyarrow
table. Rust: `sudolab._native.rust_baseline(lines, "fast", jobs=J)`, the same parse, pipeline
run and Arrow table, timed inside Rust once the strings are there (no Python in the loop).
Alternated, `--rounds` of each; the best and the median are reported.
"""

import argparse
import statistics
import time

import pyarrow as pa

import sudolab
from sudolab import _native


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--strategy", default="fast")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with open(args.path) as lines_file:
        lines = [
            line.split()[0]
            for line in lines_file
            if line.strip() and not line.startswith("#")
        ]
    python_times, rust_times = [], []
    for _ in range(args.rounds):
        began = time.perf_counter()
        table = pa.table(sudolab.count(lines, strategy=args.strategy, jobs=args.jobs))
        python_times.append(time.perf_counter() - began)
        assert table.num_rows == len(lines)
        rust_times.append(_native.rust_baseline(lines, args.strategy, args.jobs))
    verdicts = table.group_by("verdict").aggregate([("puzzle", "count")]).to_pylist()
    python_best, rust_best = min(python_times), min(rust_times)
    python_median = statistics.median(python_times)
    rust_median = statistics.median(rust_times)
    print(f"puzzles: {len(lines)}; strategy {args.strategy}; jobs {args.jobs}; verdicts {verdicts}")
    print(f"python: best {python_best:.3f} s, median {python_median:.3f} s")
    print(f"rust:   best {rust_best:.3f} s, median {rust_median:.3f} s")
    print(
        f"ratio python / rust: best {python_best / rust_best:.3f}, "
        f"median {python_median / rust_median:.3f}"
    )


if __name__ == "__main__":
    main()
