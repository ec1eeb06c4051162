"""What Python reaches of the command line's outside solvers and controlled-bias generator:
outside solvers as verifiers in verify() and generate(), their processes' memory and CPU limits,
and generate(unbiased=True), each held to the command line's output for the same options."""

import json
import subprocess

import pytest

import sudolab

SMALL = "4..3.....1....2."

#: A verifier that answers every puzzle 'none'.
LIAR = "liar=while read l; do case $l in sudolab*) ;; *) echo none;; esac; done"

#: A solver answering from its table (puzzle, solution a line) that exceeds a resource limit on
#: one puzzle: it allocates 1 GiB, or spins.
HUNGRY = r'''
import sys
table = dict(line.split() for line in open(sys.argv[1]))
fault, target = sys.argv[2], sys.argv[3]
for line in sys.stdin:
    puzzle = line.strip()
    if puzzle.startswith("sudolab-external"):
        continue
    if puzzle == target:
        if fault == "memory":
            hoard = bytearray(1 << 30)
        else:
            while True:
                pass
    print("unique " + table[puzzle] + " nodes=1", flush=True)
'''


def run_cli(cli, *args, cwd=None):
    return subprocess.run([str(cli), *args], capture_output=True, text=True, cwd=cwd)


def cli_error(cli, *args):
    """The command line's refusal of `args`, without its `sudolab: ` prefix."""
    done = run_cli(cli, *args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("sudolab: "), done.stderr
    return done.stderr[len("sudolab: "):].rstrip("\n")


def example(root):
    return f"py=python3 {root / 'examples/external/solver.py'}"


@pytest.mark.parametrize("box, count, per_grid", [("2x2", 6, 1), ("2x3", 2, 1), ("2x2", 30, 20)])
def test_unbiased_gives_the_command_lines_puzzles(cli, box, count, per_grid):
    args = ["generate", "--unbiased", "--box", box, "--seed", "5", "-c", str(count),
            "--attempts-per-grid", str(per_grid)]
    lines = run_cli(cli, *args, "--with-solution").stdout.splitlines()
    document = json.loads(run_cli(cli, *args, "--json").stdout)
    assert len(lines) == count
    for jobs in (1, 2):
        rows = sudolab.generate(count, seed=5, box=box, unbiased=True,
                                attempts_per_grid=per_grid, jobs=jobs).to_pylist()
        assert [f"{r['puzzle']} {r['solution']}" for r in rows] == lines
        assert [(r["index"], r["clues"], r["checks"]) for r in rows] == [
            (p["index"], p["clues"], p["checks"]) for p in document["puzzles"]]
        assert {r["checker"] for r in rows} == {document["checker"]}


def test_unbiased_refuses_what_the_command_line_refuses():
    refusals = [
        ({"clues": 20}, "--clues"),
        ({"minimal": True}, "--minimal"),
        ({"symmetry": "rot180"}, "--symmetry"),
        ({"rating": "guess"}, "--rating"),
        ({"variant": "x"}, "--variant"),
        ({"model": "latin"}, "--model"),
        ({"verify": ["sat", "fast"]}, "--verify"),
        ({"external": [LIAR]}, "--external"),
    ]
    for options, option in refusals:
        with pytest.raises(sudolab.OptionError) as caught:
            sudolab.generate(1, box="2x2", unbiased=True, **options)
        assert str(caught.value) == (
            f"--unbiased cannot be used with {option}: Berthier's method keeps every minimal "
            f"puzzle of uniform grids as its checker proves it, and {option} would change which "
            "puzzles are made, kept or proven; generate without it"
        ), options
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.generate(1, box="2x2", unbiased=True, start=3)
    assert str(caught.value) == (
        "start: --unbiased counts the minimal puzzles its attempts keep, so a run cannot start "
        "inside the stream; generate from start=0 and drop the first ones"
    )
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.generate(1, box="2x2", attempts_per_grid=3)
    assert str(caught.value) == (
        "--attempts-per-grid is for --unbiased: the other generators draw a fresh solution for "
        "every puzzle"
    )
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.generate(1, box="2x2", unbiased=True, attempts_per_grid=0)
    assert str(caught.value) == (
        "--attempts-per-grid: expected 1 or more attempts on each grid, found 0"
    )


def test_unbiased_refusals_are_the_command_lines_words(cli):
    for args, options in [
        (["--box", "3x4"], {"box": "3x4"}),
        (["--box", "2x2", "--te-depth", "1"], {"box": "2x2", "te_depth": 1}),
    ]:
        with pytest.raises(sudolab.OptionError) as caught:
            sudolab.generate(1, unbiased=True, **options)
        assert str(caught.value) == cli_error(cli, "generate", "--unbiased", *args)


def test_an_outside_solver_verifies_beside_auto_and_in_the_named_order(root, cli, monkeypatch):
    monkeypatch.chdir(root)
    files = ["corpora/reference.txt", "corpora/generated/4x4.txt"]
    table = sudolab.verify(sudolab.read(files), external=[example(root)], jobs=2)
    done = run_cli(cli, "verify", "--external", example(root), *files)
    assert done.returncode == 0, done.stderr
    expected = [line.split("\t") for line in done.stdout.splitlines()]
    assert table.num_rows == len(expected) > 2
    assert table["verified"].to_pylist() == [True] * len(expected)
    assert [f"unique by {s.replace(',', ', ')}" for s in table["strategies"].to_pylist()] == [
        line[2] for line in expected]
    assert set(table["strategies"].to_pylist()) == {"fast,dlx-knuth,sat,py"}
    named = sudolab.verify(SMALL, strategies=["py", "sat"], external={
        "py": ["python3", str(root / "examples/external/solver.py")]})
    assert named["strategies"].to_pylist() == ["py,sat"]
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.verify(SMALL, strategies="py", external=[example(root)])
    assert str(caught.value) == cli_error(cli, "verify", "-s", "py", "--external",
                                          example(root), "corpora/reference.txt")
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.verify(SMALL, external=[example(root), example(root)])
    assert str(caught.value) == (
        "external: the name 'py' is given twice; each outside solver needs its own")


def test_a_wrong_outside_verifier_fails_the_puzzle(cli):
    table = sudolab.verify([SMALL, SMALL], strategies="fast,sat", external=[LIAR]).to_pylist()
    assert [r["verified"] for r in table] == [False, False]
    assert table[0]["problems"] == (
        "fast says unique (1); sat says unique (1); liar says none (0); no solution: liar says "
        "none"
    )
    done = run_cli(cli, "verify", "-s", "fast,sat", "--external", LIAR, SMALL)
    assert done.returncode == 1
    assert done.stdout.rstrip("\n").split("\t")[1:] == ["FAILED", table[0]["problems"]]
    # In generate, as on the command line: the puzzle fails with the same problem.
    rows = sudolab.generate(1, seed=7, box="2x2", verify="sat", external=LIAR).to_pylist()
    done = run_cli(cli, "generate", "--box", "2x2", "-c", "1", "--seed", "7", "--verify", "sat",
                   "--external", LIAR)
    assert done.returncode == 1 and done.stdout == ""
    # The command line notes each problem with the puzzle; the table joins them by "; ".
    prefix = "sudolab: puzzle 0 of seed 7: "
    noted = [line[len(prefix):] for line in done.stderr.splitlines() if line.startswith(prefix)]
    assert noted[0] == "sat says unique (1); liar says none (0)"
    assert rows[0]["problems"] == "; ".join(noted)
    assert f"  puzzle: {rows[0]['puzzle']}" in done.stderr.splitlines()


def test_generate_verifies_with_an_outside_solver_as_the_command_line(root, cli, monkeypatch):
    monkeypatch.chdir(root)
    rows = sudolab.generate(3, seed=7, box="2x2", verify=["sat"],
                            external={"py": f"python3 {root / 'examples/external/solver.py'}"})
    done = run_cli(cli, "generate", "--box", "2x2", "-c", "3", "--seed", "7", "--verify", "sat",
                   "--external", example(root), "--json")
    document = json.loads(done.stdout)
    assert document["verify"] == ["sat", "py"]
    assert rows["puzzle"].to_pylist() == [p["line"] for p in document["puzzles"]]
    assert rows["problems"].to_pylist() == [None] * 3


def hungry_compare(root, tmp_path, fault, **limits):
    """`compare(strategies=fast,sat)` with HUNGRY failing on the third of five puzzles."""
    lines = (root / "corpora/generated/9x9-rot180.txt").read_text().splitlines()
    pairs = [line.split() for line in lines if line and not line.startswith("#")][:5]
    table = tmp_path / "table.txt"
    table.write_text("".join(f"{p} {s}\n" for p, s in pairs))
    script = tmp_path / "hungry.py"
    script.write_text(HUNGRY)
    spec = f"hungry=python3 {script} {table} {fault} {pairs[2][0]}"
    return sudolab.compare([p for p, _ in pairs], strategies=["fast", "sat"], external=[spec],
                           timeout="60s", jobs=1, **limits)


def test_a_solver_past_its_memory_limit_fails_that_puzzle_and_restarts(root, tmp_path):
    c = hungry_compare(root, tmp_path, "memory", external_memory="256M")
    verdicts = {s: [r["verdict"] for r in c.to_pylist() if r["strategy"] == s]
                for s in ("fast", "sat", "hungry")}
    assert verdicts == {"fast": ["unique"] * 5, "sat": ["unique"] * 5,
                        "hungry": ["unique", "unique", "unknown", "unique", "unique"]}
    problems = c.problems.to_pylist()
    assert [(p["puzzle"], p["kind"]) for p in problems] == [(2, "solver_failed")]
    detail = problems[0]["detail"]
    assert detail.startswith(
        "hungry exited (exit status: 1) without an answer, under its memory limit of 256 MiB "
        "(an allocation past it fails); its standard error ends: "), detail
    assert detail.endswith("MemoryError"), detail


def test_a_solver_past_its_cpu_limit_fails_that_puzzle_and_restarts(root, tmp_path):
    c = hungry_compare(root, tmp_path, "cpu", external_cpu=1)
    hungry = [r["verdict"] for r in c.to_pylist() if r["strategy"] == "hungry"]
    assert hungry == ["unique", "unique", "unknown", "unique", "unique"]
    problems = c.problems.to_pylist()
    assert [(p["puzzle"], p["kind"]) for p in problems] == [(2, "solver_failed")]
    detail = problems[0]["detail"]
    # The shell that runs the command reports the signal as its exit status, 128 + 24.
    assert detail.startswith(
        "hungry exited (exit status: 152) without an answer: it reached its CPU time limit of "
        "1s; its standard error ends: "), detail
    assert detail.endswith("CPU time limit exceeded"), detail


def test_limits_are_read_with_their_units_and_bad_ones_refused_in_the_command_lines_words(
        root, cli):
    for option, python, value in [
        ("--external-memory", "external_memory", "512"),
        ("--external-memory", "external_memory", "0M"),
        ("--external-cpu", "external_cpu", "0s"),
    ]:
        done = run_cli(cli, "compare", "-s", "fast", option, value, SMALL)
        assert done.returncode == 2
        words = done.stderr.split(f"'{option} <", 1)[1].split(">': ", 1)[1].splitlines()[0]
        for function, kwargs in [
            (sudolab.compare, {"strategies": ["fast"]}),
            (sudolab.verify, {}),
        ]:
            with pytest.raises(sudolab.OptionError) as caught:
                function(SMALL, **kwargs, **{python: value})
            assert str(caught.value) == f"{python}: {words}"
        with pytest.raises(sudolab.OptionError) as caught:
            sudolab.generate(1, box="2x2", **{python: value})
        assert str(caught.value) == f"{python}: {words}"
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.compare(SMALL, strategies=["fast"], external_cpu=0)
    assert str(caught.value) == (
        "external_cpu: a CPU time limit of zero leaves nothing to run; give at least 1s")
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.compare(SMALL, strategies=["fast"], external_memory=512)
    assert str(caught.value).endswith("found '512'")
    # Limits a solver stays within change nothing.
    solver = ["python3", str(root / "examples/external/solver.py")]
    kept = sudolab.verify(SMALL, strategies="fast,sat", external={"py": solver},
                          external_memory="1G", external_cpu="30s")
    assert kept["strategies"].to_pylist() == ["fast,sat,py"]
