#!/usr/bin/env python3
"""Random isomorphs of line-form puzzles with square boxes: K per puzzle, reproducible by seed.

An isomorph relabels the digits, permutes the bands and the rows inside each band, the stacks
and the columns inside each stack, and transposes half the time. It has the same solution
count and the same logical difficulty as its puzzle, but a search that breaks ties by cell or
digit order takes another path through it: K isomorphs of one puzzle sample how much an
engine's cost on that puzzle owes to luck.

    python3 corpora/tools/isomorphs.py corpora/minimal-25x25.txt 4 > iso.txt
    python3 corpora/tools/isomorphs.py --seed 7 puzzles.txt 8

Isomorph K of puzzle P (both counted from 0) comes from the seed SEED * 1_000_003 + P * 1_000
+ K. Lines starting with '#' and blank lines are skipped; a known solution after the puzzle is
dropped.
"""

import argparse
import math
import random
import signal
import sys

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EMPTY = ".0"


def isomorph(puzzle, box, rng):
    side = box * box
    rows = [puzzle[r * side:(r + 1) * side] for r in range(side)]

    def order():
        bands = list(range(box))
        rng.shuffle(bands)
        out = []
        for band in bands:
            inside = list(range(box))
            rng.shuffle(inside)
            out += [band * box + r for r in inside]
        return out

    row_order, column_order = order(), order()
    digits = list(SYMBOLS[:side])
    shuffled = digits[:]
    rng.shuffle(shuffled)
    relabel = dict(zip(digits, shuffled))
    transpose = rng.random() < 0.5
    out = []
    for r in row_order:
        for c in column_order:
            symbol = rows[c][r] if transpose else rows[r][c]
            out.append("." if symbol in EMPTY else relabel[symbol])
    return "".join(out)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when the reader stops early (head)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="line-form puzzles, one a line")
    parser.add_argument("count", type=int, help="isomorphs per puzzle")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    index = 0
    with open(args.file) as lines:
        for at, line in enumerate(lines, 1):
            if not line.strip() or line.startswith("#"):
                continue
            puzzle = line.split()[0].upper()
            box = math.isqrt(math.isqrt(len(puzzle)))
            side = box * box
            bad = [s for s in puzzle if s not in EMPTY and s not in SYMBOLS[:side]]
            if side * side != len(puzzle) or side > len(SYMBOLS) or bad:
                sys.exit(f"{args.file}:{at}: expected a puzzle of square boxes (16, 81, 256, "
                         f"625 ... symbols 1-9, A-Z or '.'), got {len(puzzle)} symbols")
            for k in range(args.count):
                rng = random.Random(args.seed * 1_000_003 + index * 1_000 + k)
                print(isomorph(puzzle, box, rng))
            index += 1


if __name__ == "__main__":
    main()
