"""OR-Tools CP-SAT as a sudolab strategy: constraint programming beside exact cover and SAT.

The model is the textbook one: an integer variable per cell with the digits as its domain, the
givens fixed, and AllDifferent over each row, column and box. CP-SAT finds a solution; to
decide uniqueness, the model is solved again with that solution excluded (at least one cell
differs), and so on up to the solution limit sudolab asks for.

    pip install ortools
    python examples/python/cpsat.py corpora/generated/9x9-rot180.txt

runs it in `sudolab.compare` beside fast and sat and prints the summary; `from cpsat import
cpsat` gives the function to pass in `strategies` (docs/python.md).
"""

import math
import sys

from ortools.sat.python import cp_model

import sudolab

#: The line form's symbols: `1`-`9`, then `A`-`Z` for 10 to 35.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def box_shape(side: int) -> tuple[int, int]:
    """The most square box of a side, as sudolab reads a line with no box given (6: 2x3)."""
    rows = max(r for r in range(1, math.isqrt(side) + 1) if side % r == 0)
    return rows, side // rows


def cpsat(puzzle: str, limit: int) -> sudolab.Answer:
    """Up to `limit` solutions of `puzzle` (all of them with 0) by CP-SAT, on one thread;
    `nodes` counts CP-SAT's branches over every solve."""
    side = math.isqrt(len(puzzle))
    rows, cols = box_shape(side)
    model = cp_model.CpModel()
    cells = [model.NewIntVar(1, side, f"c{i}") for i in range(side * side)]
    for i, symbol in enumerate(puzzle):
        if symbol not in ".0":
            model.Add(cells[i] == SYMBOLS.index(symbol) + 1)
    for k in range(side):
        model.AddAllDifferent([cells[k * side + c] for c in range(side)])
        model.AddAllDifferent([cells[r * side + k] for r in range(side)])
        top, left = k // (side // cols) * rows, k % (side // cols) * cols
        model.AddAllDifferent(
            [cells[(top + r) * side + left + c] for r in range(rows) for c in range(cols)]
        )
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one thread per search, as every engine has
    solutions: list[str] = []
    branches = 0
    while limit == 0 or len(solutions) < limit:
        status = solver.Solve(model)
        branches += solver.NumBranches()
        if status == cp_model.INFEASIBLE:
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return sudolab.Answer(solutions, complete=False, counters={"nodes": branches})
        values = [solver.Value(cell) for cell in cells]
        solutions.append("".join(SYMBOLS[v - 1] for v in values))
        # The next solve must differ from this solution in at least one cell.
        differs = []
        for cell, value in zip(cells, values):
            other = model.NewBoolVar("")
            model.Add(cell != value).OnlyEnforceIf(other)
            differs.append(other)
        model.AddBoolOr(differs)
    return sudolab.Answer(solutions, complete=True, counters={"nodes": branches})


if __name__ == "__main__":
    comparison = sudolab.compare(sudolab.read(sys.argv[1:]), strategies=["fast", "sat", cpsat])
    for entry in comparison.summary:
        print(entry["strategy"], {k: entry[k] for k in ("unique", "multiple", "none", "unknown")})
    print(f"{comparison.problems.num_rows} problems")
    sys.exit(1 if comparison.problems.num_rows else 0)
