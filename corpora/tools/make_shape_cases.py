#!/usr/bin/env python3
"""Makes the hand-built shape cases in corpora/cases/shapes.toml (run from the project root).

For each box shape: the pattern grid value(r, c) = (box_cols * (r % box_rows) + r // box_rows + c) % n
(a valid solution for every box shape), shuffled by seeded symmetries (digit relabelling, rows
within bands, columns within stacks), then clues removed in a seeded random order, keeping a
removal only while `sudolab count --strategy toggle --max-nodes 200000` still says unique
(so that the row-major backtrackers decide every case quickly), down to a floor of clues.
"""
import random
import subprocess
import sys

SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BINARY = "target/release/sudolab"


def pattern(br, bc):
    n = br * bc
    return [[(bc * (r % br) + r // br + c) % n + 1 for c in range(n)] for r in range(n)]


def shuffle(grid, br, bc, rng):
    n = br * bc
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    grid = [[digits[v - 1] for v in row] for row in grid]
    rows = [b * br + r for b in rng.sample(range(n // br), n // br) for r in rng.sample(range(br), br)]
    cols = [s * bc + c for s in rng.sample(range(n // bc), n // bc) for c in rng.sample(range(bc), bc)]
    return [[grid[r][c] for c in cols] for r in rows]


def line(cells):
    return "".join(SYMBOLS[v] for v in cells)


def unique(cells, br, bc):
    out = subprocess.run(
        [BINARY, "count", "--strategy", "toggle", "--box", f"{br}x{bc}", "--max-nodes", "200000"],
        input=line(cells) + "\n", capture_output=True, text=True,
    ).stdout
    return out.split("\t")[1] == "unique"


def make(br, bc, seed, min_clue_fraction):
    rng = random.Random(seed)
    n = br * bc
    solution = [v for row in shuffle(pattern(br, bc), br, bc, rng) for v in row]
    puzzle = list(solution)
    order = list(range(n * n))
    rng.shuffle(order)
    floor = int(min_clue_fraction * n * n)
    for cell in order:
        if sum(1 for v in puzzle if v) <= floor:
            break
        value, puzzle[cell] = puzzle[cell], 0
        if not unique(puzzle, br, bc):
            puzzle[cell] = value
    return line(puzzle), line(solution)


def main():
    shapes = [(1, 1, 0.0), (2, 2, 0.0), (2, 3, 0.0), (3, 2, 0.0), (3, 3, 0.0), (3, 4, 0.0),
              (4, 4, 0.0), (5, 5, 0.0)]
    for br, bc, fraction in shapes:
        puzzle, solution = make(br, bc, seed=br * 10 + bc, min_clue_fraction=fraction)
        print(f'[[case]]\nname = "box-{br}x{bc}"\nbox = "{br}x{bc}"\nverdict = "unique"')
        print(f'puzzle = "{puzzle}"\nsolution = "{solution}"\ntags = ["shape"]\n')
        sys.stdout.flush()


if __name__ == "__main__":
    main()
