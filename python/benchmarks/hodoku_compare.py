"""sudolab's rating against HoDoKu's score, HoDoKu run as an outside oracle: the rating should rank puzzles as HoDoKu does.

    python3 -m venv /tmp/hodoku-venv && /tmp/hodoku-venv/bin/pip install hodoku-py
    /tmp/hodoku-venv/bin/python python/benchmarks/hodoku_compare.py \\
        ../shared/corpora/tdoku/puzzles1_unbiased_first1000.txt --count 300 \\
        --sudolab target/release/sudolab --scores /tmp/hodoku-scores.txt

`hodoku-py` (PyPI, a Python port of HoDoKu's solver) is GPL: it is imported only here, in this
process, and never linked into or shipped with sudolab. The script scores the first COUNT
puzzles with HoDoKu (`Solver().rate(puzzle).score`, and its level), writes them as a rated file
(`index puzzle level score` per line), and hands that file to the sudolab binary, in a process
of its own, as `sudolab rate --against FILE:4`, which rates every puzzle and ends with
Spearman's and Kendall's correlations of sudolab's rating with HoDoKu's score (the same code
as the Sudoku Explainer comparison in docs/rating.md). Its last line is printed, with the time
each side took.
"""

import argparse
import subprocess
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", help="a file of 81-character puzzles, one per line")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--sudolab", default="sudolab", help="the sudolab binary")
    parser.add_argument(
        "--scores", default="hodoku-scores.txt", help="where the rated file is written"
    )
    args = parser.parse_args()

    try:
        import hodoku
    except ImportError:
        sys.exit("hodoku_compare: hodoku-py is not installed (pip install hodoku-py)")

    with open(args.path) as lines_file:
        puzzles = [
            line.split()[0]
            for line in lines_file
            if line.strip() and not line.startswith("#")
        ][: args.count]
    solver = hodoku.Solver()
    began = time.perf_counter()
    rows = []
    for index, puzzle in enumerate(puzzles, start=1):
        result = solver.rate(puzzle)
        rows.append(f"{index} {puzzle} {result.level.name.lower()} {result.score}\n")
    hodoku_seconds = time.perf_counter() - began
    with open(args.scores, "w") as scores:
        scores.write(
            f"# HoDoKu (hodoku-py) scores of the first {len(puzzles)} puzzles of "
            f"{args.path}: index, puzzle, level, score\n"
        )
        scores.writelines(rows)

    began = time.perf_counter()
    rated = subprocess.run(
        [args.sudolab, "rate", "--against", f"{args.scores}:4"],
        capture_output=True,
        text=True,
        check=False,
    )
    sudolab_seconds = time.perf_counter() - began
    if rated.returncode not in (0, 1) or not rated.stdout:
        sys.exit(f"hodoku_compare: sudolab rate failed: {rated.stderr.strip()}")
    print(rated.stdout.splitlines()[-1])
    print(
        f"HoDoKu {hodoku_seconds:.1f} s, sudolab {sudolab_seconds:.1f} s "
        f"for {len(puzzles)} puzzles"
    )


if __name__ == "__main__":
    main()
