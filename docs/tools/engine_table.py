#!/usr/bin/env python3
"""Prints the engine-by-size table of docs/benchmarks.md (run from the project root after
`cargo build --release`): every registered strategy on 9x9, 16x16 and 25x25 puzzles, counting
to two with a per-puzzle budget, through `sudolab count --json --stats`.

Until `sudolab compare` exists, this script is how the table is made. Engines that cannot be
interrupted inside their crate (dlx) are also bounded from outside with `timeout`.
"""
import json
import statistics
import subprocess
import sys

BINARY = "target/release/sudolab"
SETS = [
    ("9x9: top1465, first 100", "../shared/corpora/tdoku/puzzles3_magictour_top1465.txt", 100),
    ("16x16: minimal, 10", "corpora/minimal-16x16.txt", 10),
    ("25x25: minimal, 4", "corpora/minimal-25x25.txt", 4),
]
TIMEOUT = "10s"
MAX_NODES = "50000000"


def strategies():
    out = subprocess.run([BINARY, "strategies"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines()]


def run(strategy, path, take):
    with open(path) as handle:
        lines = [l for l in handle if l.strip() and not l.startswith("#")][:take]
    try:
        out = subprocess.run(
            [BINARY, "count", "--json", "--stats", "-s", strategy, "--timeout", TIMEOUT,
             "--max-nodes", MAX_NODES],
            input="".join(lines), capture_output=True, text=True, timeout=15 * take,
        ).stdout
    except subprocess.TimeoutExpired:
        return None
    return [json.loads(line) for line in out.splitlines()]


def main():
    names = strategies()
    print("| engine | " + " | ".join(label for label, _, _ in SETS) + " |")
    print("|---|" + "---|" * len(SETS))
    for name in names:
        cells = []
        for label, path, take in SETS:
            rows = run(name, path, take)
            if rows is None:
                cells.append("stopped from outside after 60 s (no interrupt inside a call)")
                continue
            decided = [r for r in rows if r["verdict"] != "unknown"]
            if not decided:
                cells.append(f"0/{len(rows)} decided")
                continue
            mean = statistics.mean(r["time_us"] for r in decided)
            nodes = [r["stats"].get("nodes") for r in decided]
            node_text = (
                f", {statistics.mean(nodes):,.0f} nodes" if all(n is not None for n in nodes) else ""
            )
            unit = f"{mean / 1000:,.1f} ms" if mean >= 1000 else f"{mean:,.0f} us"
            cells.append(f"{len(decided)}/{len(rows)} decided, {unit} mean{node_text}")
        print(f"| `{name}` | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
