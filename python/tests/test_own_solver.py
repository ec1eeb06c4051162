"""A Python function as a strategy: it runs beside the engines, its answers certified and
cross-checked like theirs, and every fault it has is one located problem on its puzzle while
the other strategies' results stay complete."""

import pytest

import sudolab

CORPUS = "corpora/generated/9x9-rot180.txt"
STRATEGIES = ["fast", "sat"]


def backtrack(puzzle: str, limit: int) -> list[str]:
    """A plain backtracker over 9x9 puzzles in the line form: up to `limit` solutions (all
    with 0), each as a line."""
    cells = [0 if c in ".0" else int(c) for c in puzzle]
    peers = [
        {
            j
            for j in range(81)
            if j != i
            and (j // 9 == i // 9 or j % 9 == i % 9
                 or (j // 27 == i // 27 and j % 9 // 3 == i % 9 // 3))
        }
        for i in range(81)
    ]
    found: list[str] = []

    def search() -> bool:
        empty = [i for i in range(81) if cells[i] == 0]
        if not empty:
            found.append("".join(map(str, cells)))
            return limit != 0 and len(found) >= limit
        # The cell with the fewest candidates.
        best, options = None, None
        for i in empty:
            fits = [d for d in range(1, 10) if all(cells[p] != d for p in peers[i])]
            if best is None or len(fits) < len(options):
                best, options = i, fits
                if len(fits) <= 1:
                    break
        for digit in options:
            cells[best] = digit
            if search():
                return True
        cells[best] = 0
        return False

    search()
    return found


def with_counters(puzzle: str, limit: int) -> sudolab.Answer:
    solutions = backtrack(puzzle, limit)
    return sudolab.Answer(solutions, complete=True, counters={"nodes": len(solutions) + 1})


@pytest.fixture
def puzzles(root, monkeypatch):
    monkeypatch.chdir(root)
    return sudolab.read(CORPUS)


def verdicts(c, strategy):
    return [r["verdict"] for r in c.to_pylist() if r["strategy"] == strategy]


def test_a_correct_function_agrees_with_fast_and_sat(puzzles):
    c = sudolab.compare(puzzles, strategies=["fast", backtrack, "sat"], jobs=2)
    assert c.problems.num_rows == 0
    assert [s["strategy"] for s in c.summary] == ["fast", "backtrack", "sat"]
    count = puzzles.num_rows
    assert verdicts(c, "backtrack") == verdicts(c, "fast") == ["unique"] * count
    mine = [s for s in c.summary if s["strategy"] == "backtrack"][0]
    assert mine["unique"] == count
    # Its answers are counted and timed like an engine's (its thread's CPU clock ran it).
    assert all(r["cpu_ns"] > 0 for r in c.to_pylist() if r["strategy"] == "backtrack")


def test_counters_of_an_answer_fill_the_row_and_a_pair_names_it(puzzles):
    c = sudolab.compare(puzzles, strategies=["fast", ("mine", with_counters)], limit=0)
    assert c.problems.num_rows == 0
    rows = [r for r in c.to_pylist() if r["strategy"] == "mine"]
    assert [r["nodes"] for r in rows] == [2] * puzzles.num_rows
    assert [r["solutions"] for r in rows] == [1] * puzzles.num_rows


@pytest.fixture
def lines(puzzles):
    """The corpus's puzzles alone, without the solutions the file gives with them: a fault is
    then seen by the cross-check alone, once (with the known solutions a false none would
    contradict them too)."""
    return puzzles["puzzle"].to_pylist()


def located(c):
    return [(p["puzzle"], p["kind"], p["strategies"]) for p in c.problems.to_pylist()]


def complete_for_the_others(c, count):
    for strategy in STRATEGIES:
        assert verdicts(c, strategy) == ["unique"] * count


def test_one_wrong_digit_is_one_located_problem(lines):
    def wrong_digit(puzzle, limit):
        solutions = backtrack(puzzle, limit)
        if puzzle == first:
            solution = solutions[0]
            at = puzzle.index(".")
            digit = "1" if solution[at] != "1" else "2"
            solutions = [solution[:at] + digit + solution[at + 1:]]
        return solutions

    first = lines[0]
    c = sudolab.compare(lines, strategies=[*STRATEGIES, wrong_digit], jobs=1)
    assert len(located(c)) == 1
    puzzle, kind, strategies = located(c)[0]
    assert (puzzle, kind) == (0, "invalid_answer")
    assert strategies == "wrong_digit"
    complete_for_the_others(c, len(lines))


def test_a_false_none_is_one_located_problem(lines):
    second = lines[1]

    def false_none(puzzle, limit):
        return [] if puzzle == second else backtrack(puzzle, limit)

    c = sudolab.compare(lines, strategies=[*STRATEGIES, false_none])
    [(puzzle, kind, strategies)] = located(c)
    assert (puzzle, kind) == (1, "verdicts_disagree")
    assert strategies == "fast,sat,false_none"
    assert verdicts(c, "false_none") == ["unique", "none"] + ["unique"] * (len(lines) - 2)
    complete_for_the_others(c, len(lines))


def test_an_exception_on_the_third_puzzle_is_its_problem_not_a_crash(lines):
    third = lines[2]

    def raises(puzzle, limit):
        if puzzle == third:
            raise ValueError("no digit fits r3c4")
        return backtrack(puzzle, limit)

    c = sudolab.compare(lines, strategies=[*STRATEGIES, raises])
    [problem] = c.problems.to_pylist()
    assert (problem["puzzle"], problem["kind"]) == (2, "solver_failed")
    assert problem["detail"] == "raises raised ValueError: no digit fits r3c4"
    rows = [r for r in c.to_pylist() if r["strategy"] == "raises"]
    assert [r["verdict"] for r in rows] == ["unique", "unique", "unknown"] + ["unique"] * (
        len(lines) - 3
    )
    assert rows[2]["stopped"] == "engine_failure"
    complete_for_the_others(c, len(lines))


def test_a_malformed_answer_is_a_located_problem(lines):
    c = sudolab.compare(lines[:2], strategies=["fast", ("odd", lambda puzzle, limit: 42)])
    details = [(p["puzzle"], p["detail"]) for p in c.problems.to_pylist()]
    assert [puzzle for puzzle, _ in details] == [0, 1]
    assert details[0][1] == (
        "odd returned 42; expected a list of solutions (str, the line form) or a sudolab.Answer"
    )


def test_names_are_refused_as_option_errors():
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.compare("4..3.....1....2.", strategies=[("fast", backtrack)])
    assert str(caught.value).startswith(
        "strategies: strategy function name 'fast' is a built-in strategy's; choose another"
    )
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.compare("4..3.....1....2.", strategies=["fast", lambda p, l: []])
    assert str(caught.value) == (
        "strategies: strategy function name '<lambda>': expected 1 to 40 letters, digits, '-' "
        "or '_' (give a (name, function) pair to name it)"
    )
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.compare("4..3.....1....2.", strategies=[backtrack, ("backtrack", backtrack)])
    assert str(caught.value) == (
        "strategies: the name 'backtrack' is given twice; each strategy needs its own"
    )


def test_cp_sat_agrees_with_fast_on_a_bundled_corpus(root, puzzles):
    # OR-Tools is a dependency of the suite (.ci/run installs it): missing, this fails.
    import importlib.util

    spec = importlib.util.spec_from_file_location("cpsat", root / "examples/python/cpsat.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    c = sudolab.compare(puzzles, strategies=["fast", "dlx-knuth", "sat", example.cpsat])
    assert c.problems.num_rows == 0
    assert verdicts(c, "cpsat") == verdicts(c, "fast") == ["unique"] * puzzles.num_rows
    rows = [r for r in c.to_pylist() if r["strategy"] == "cpsat"]
    # The second solve, with the first solution excluded, is what decides uniqueness.
    assert all(r["exhausted"] and r["solutions"] == 1 for r in rows)
    # A puzzle with two solutions, and one with none: CP-SAT's verdicts are the engines'.
    c = sudolab.compare(["4..3............", "44.............."], strategies=["fast",
                                                                           example.cpsat])
    assert verdicts(c, "cpsat") == ["multiple", "none"] and c.problems.num_rows == 0


INTERRUPTED = r"""
import sys, time
import pyarrow
import sudolab

def slow(puzzle, limit):
    time.sleep(0.02)
    return ["4213134221343421"]

print("started", flush=True)
try:
    sudolab.compare(["4..3.....1....2."] * 100_000, strategies=["fast", slow], jobs=2)
except KeyboardInterrupt:
    # Python and the package go on.
    print(sudolab.count("4..3.....1....2.")["verdict"].to_pylist(), flush=True)
    sys.exit(0)
sys.exit(1)
"""


def test_ctrl_c_stops_a_run_of_a_function_and_raises_keyboard_interrupt():
    import signal
    import subprocess
    import sys
    import time

    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "started\n"
    time.sleep(1.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    assert out.splitlines() == ["['unique']"]
    # Budget bound, not a measurement: a call under way ends within 20 ms; 5 s is the margin
    # of a loaded machine, as the engines' interrupt test allows.
    assert time.monotonic() - sent < 5
