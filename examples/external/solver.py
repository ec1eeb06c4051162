#!/usr/bin/env python3
"""An outside solver for `sudolab compare --external` (Python 3, standard library only).

The line protocol (docs/external.md): a header line starting with `sudolab-external`
gives the box and the limits; every other line is one puzzle in the line form, answered
by one line: `none`, `unique SOLUTION`, `solved SOLUTION`, `multiple SOLUTION SOLUTION`
or `unknown REASON`, then `key=value` counters. A backtracker over the most constrained
cell, with candidate sets as bit masks.

    sudolab compare -s fast --external 'py=python3 examples/external/solver.py' corpora/reference.txt
"""

import sys
import time

SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class OutOfTime(Exception):
    """The budget the header gave ran out."""


def solve(cells, box_rows, box_cols, want, deadline):
    """Up to `want` solutions of the grid `cells` (0 = empty), and the nodes visited;
    raises OutOfTime past `deadline` (a perf_counter_ns reading, or None)."""
    side = box_rows * box_cols
    full = (1 << side) - 1
    rows, cols, boxes = [0] * side, [0] * side, [0] * side

    def box_of(index):
        row, col = divmod(index, side)
        return (row // box_rows) * box_rows + col // box_cols

    for index, value in enumerate(cells):
        if value:
            bit = 1 << (value - 1)
            row, col, box = index // side, index % side, box_of(index)
            if (rows[row] | cols[col] | boxes[box]) & bit:
                return [], 0  # conflicting givens: no solution
            rows[row] |= bit
            cols[col] |= bit
            boxes[box] |= bit
    empty = [i for i, value in enumerate(cells) if not value]
    solutions = []
    nodes = 0

    def search():
        nodes_here = 1
        if deadline is not None and time.perf_counter_ns() > deadline:
            raise OutOfTime()
        best, best_free, best_count = -1, 0, side + 1
        for index in empty:
            if cells[index]:
                continue
            row, col = divmod(index, side)
            free = full & ~(rows[row] | cols[col] | boxes[box_of(index)])
            count = bin(free).count("1")
            if count < best_count:
                best, best_free, best_count = index, free, count
                if count <= 1:
                    break
        if best < 0:
            solutions.append(list(cells))
            return nodes_here
        row, col, box = best // side, best % side, box_of(best)
        free = best_free
        while free and len(solutions) < want:
            bit = free & -free
            free ^= bit
            cells[best] = bit.bit_length()
            rows[row] |= bit
            cols[col] |= bit
            boxes[box] |= bit
            nodes_here += search()
            rows[row] ^= bit
            cols[col] ^= bit
            boxes[box] ^= bit
            cells[best] = 0
        return nodes_here

    nodes = search()
    return solutions, nodes


def line_of(cells):
    return "".join(SYMBOLS[value] for value in cells)


def main():
    box_rows, box_cols, limit, timeout_ms = 3, 3, 2, 0
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("sudolab-external"):
            for word in line.split()[2:]:
                key, _, value = word.partition("=")
                if key == "box":
                    box_rows, box_cols = (int(part) for part in value.split("x"))
                elif key == "limit":
                    limit = int(value)
                elif key == "timeout_ms":
                    timeout_ms = int(value)
            continue
        started = time.perf_counter_ns()
        cells = [SYMBOLS.index(symbol) if symbol in SYMBOLS else 0 for symbol in line]
        # Two solutions decide uniqueness; a limit of 1 asks for one solution only.
        want = 1 if limit == 1 else 2
        deadline = started + timeout_ms * 1_000_000 if timeout_ms else None
        try:
            solutions, nodes = solve(cells, box_rows, box_cols, want, deadline)
        except OutOfTime:
            print("unknown out of time", flush=True)
            continue
        spent = time.perf_counter_ns() - started
        if not solutions:
            answer = "none"
        elif want == 1:
            answer = "solved " + line_of(solutions[0])
        elif len(solutions) == 1:
            answer = "unique " + line_of(solutions[0])
        else:
            answer = "multiple " + " ".join(line_of(s) for s in solutions)
        print(f"{answer} nodes={nodes} time_ns={spent}", flush=True)


if __name__ == "__main__":
    main()
