#!/usr/bin/env python3
"""Makes unique puzzles of any box shape by clue removal (run from the project root after
`cargo build --release`), printing `puzzle solution` lines.

    python3 corpora/tools/make_unique.py --box 5x5 --count 4 --seed 1 --checker sat

A pattern solution (value(r, c) = (box_cols * (r % box_rows) + r // box_rows + c) % n + 1) is
shuffled by seeded symmetries (digit relabelling, rows within bands, bands, columns within
stacks, stacks); then every clue is tried for removal once, in a seeded random order, and the
removal is kept only while `sudolab count --strategy CHECKER` says unique. The result is a
minimal puzzle: no single clue can be removed. Until sudolab has its own generator, this is how
the large bundled puzzles were made.
"""
import argparse
import random
import subprocess

SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BINARY = "target/release/sudolab"


def shuffled_solution(br, bc, rng):
    n = br * bc
    grid = [[(bc * (r % br) + r // br + c) % n + 1 for c in range(n)] for r in range(n)]
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    grid = [[digits[v - 1] for v in row] for row in grid]
    rows = [b * br + r for b in rng.sample(range(n // br), n // br) for r in rng.sample(range(br), br)]
    cols = [s * bc + c for s in rng.sample(range(n // bc), n // bc) for c in rng.sample(range(bc), bc)]
    return [grid[r][c] for r in rows for c in cols]


def line(cells):
    return "".join(SYMBOLS[v] for v in cells)


def unique(cells, shape, checker):
    out = subprocess.run(
        [BINARY, "count", "--strategy", checker, "--box", shape, "--timeout", "60s"],
        input=line(cells) + "\n", capture_output=True, text=True,
    ).stdout
    return out.split("\t")[1] == "unique"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--box", required=True)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checker", default="sat")
    args = parser.parse_args()
    br, bc = (int(x) for x in args.box.split("x"))
    rng = random.Random(args.seed)
    for _ in range(args.count):
        solution = shuffled_solution(br, bc, rng)
        puzzle = list(solution)
        order = list(range(len(puzzle)))
        rng.shuffle(order)
        for cell in order:
            value, puzzle[cell] = puzzle[cell], 0
            if not unique(puzzle, args.box, args.checker):
                puzzle[cell] = value
        print(f"{line(puzzle)} {line(solution)}", flush=True)


if __name__ == "__main__":
    main()
