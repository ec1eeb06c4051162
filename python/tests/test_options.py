"""Python reaches what the command line reaches: the same options under the same names with the
same defaults, and the same refusals, as ValueErrors."""

import inspect
import json
import pathlib
import re
import subprocess

import pytest

import sudolab

SMALL = "4..3.....1....2."
SMALL_SOLUTION = "4213134221343421"
SMALL_MULTIPLE = "4..3............"

FUNCTIONS = {
    "compare": sudolab.compare,
    "count": sudolab.count,
    "solve": sudolab.solve,
    "verify": sudolab.verify,
    "generate": sudolab.generate,
    "trace": sudolab.trace,
    "run": sudolab.run,
}

#: The first parameter of each function is what the command reads from its arguments (the
#: puzzles, the puzzle, the experiment file), not an option.
INPUT = {"compare": "puzzles", "count": "puzzles", "solve": "puzzles", "verify": "puzzles",
         "trace": "puzzle", "run": "path"}

#: Options that have no meaning in a function call, and why.
NOT_IN_PYTHON = {
    # Puzzles are Python values; `read(paths, format=...)` reads files in any form.
    "format": {"compare", "count", "solve", "verify", "trace"},
    # `limit=0` says it.
    "all": {"compare", "count", "trace"},
    # The result is a table with every time and counter, not text to format.
    "stats": {"count", "solve", "generate"},
    "json": {"count", "generate"},
    "output": {"solve", "trace"},  # the table (and Trace.html, the page)
    "with-solution": {"generate"},  # the table always has the solution column
    # generate's `start` and `count` pick any range of the seed's stream.
    "shard": {"generate"},
    # --unbiased runs split into processes: every attempt on a range of grids, and the
    # distribution of the shards' JSON documents; in Python one call makes the run.
    "grids": {"generate"},
    "summarize": {"generate"},
    "allow-partial": {"generate"},
    # The puzzle is the first argument (`trace(sudolab.read(f)["puzzle"][n].as_py())`).
    "puzzle": {"trace"},
    "report": {"trace"},  # Trace.save(path) writes the page
    # run() returns the rows and writes nothing.
    "out": {"run"},
    "force": {"run"},
    "allow-outside": {"run"},
    # The command takes it only to refuse it: an outside program's search cannot be traced.
    "external": {"trace"},
}

#: Defaults that differ on purpose, and why: none.
OTHER_DEFAULT: dict = {}

#: Python's options that the command has not, and why.
PYTHON_ONLY = {
    "solve": {"jobs"},  # the command solves in order on one thread per process
    "generate": {"start"},  # the first index of the stream (the command's --shard takes ranges)
}

OPTION = re.compile(r"^  (?:-\w, |    )--([a-z][a-z-]*)")
DEFAULT = re.compile(r"\[default: ([^\]]*)\]")


def cli_options(cli, command):
    """The long options of `sudolab COMMAND --help`, each with its default (or None)."""
    text = subprocess.run(
        [str(cli), command, "--help"], capture_output=True, text=True, check=True
    ).stdout
    options, current = {}, None
    for line in text.splitlines():
        match = OPTION.match(line)
        if match:
            current = match.group(1)
            options[current] = None
        elif current and (default := DEFAULT.search(line)):
            options[current] = default.group(1)
    options.pop("help")
    return options


def python_options(command):
    parameters = inspect.signature(FUNCTIONS[command]).parameters
    return {
        name.replace("_", "-"): parameter.default
        for name, parameter in parameters.items()
        if name != INPUT.get(command)
    }


@pytest.mark.parametrize("command", sorted(FUNCTIONS))
def test_python_takes_the_options_of_the_command_line(cli, command):
    cli = cli_options(cli, command)
    python = python_options(command)
    left_out = {option for option, commands in NOT_IN_PYTHON.items() if command in commands}
    assert left_out <= set(cli), "an exclusion names an option the command does not have"
    assert set(python) == set(cli) - left_out | PYTHON_ONLY.get(command, set())


@pytest.mark.parametrize("command", sorted(FUNCTIONS))
def test_python_defaults_are_the_command_lines(cli, command):
    python = python_options(command)
    for option, default in cli_options(cli, command).items():
        if option not in python:
            continue
        mine = python[option]
        if (command, option) in OTHER_DEFAULT:
            assert (str(mine), default) == OTHER_DEFAULT[(command, option)]
            continue
        if default is None:
            # No default on the command line: nothing set (None, or False for a flag).
            assert mine is None or mine is False, (command, option, mine)
        else:
            if isinstance(mine, (tuple, list)):
                mine = " ".join(mine)
            assert str(mine) == default, (command, option, mine, default)


def test_count_and_solve_choose_the_engine_as_the_command_line(root, cli, monkeypatch):
    monkeypatch.chdir(root)
    files = ["corpora/sizes.txt", "corpora/generated/12x12.txt"]
    done = subprocess.run([str(cli), "count", "--json", *files], capture_output=True, text=True,
                          check=True)
    expected = [json.loads(line) for line in done.stdout.splitlines()]
    rows = sudolab.count(sudolab.read(files)).to_pylist()
    assert [(r["strategy"], r["verdict"]) for r in rows] == [
        (line["strategy"], line["verdict"]) for line in expected
    ]
    assert {r["strategy"] for r in rows} == {"fast", "sat"}
    solved = sudolab.solve(sudolab.read(files)).to_pylist()
    assert [r["strategy"] for r in solved] == [r["strategy"] for r in rows]


def test_a_variant_reads_as_on_the_command_line(cli):
    empty = "." * 16
    done = subprocess.run([str(cli), "count", "--variant", "x", "--all", "--json", empty],
                          capture_output=True, text=True, check=True)
    expected = json.loads(done.stdout)["solutions"]
    plain = sudolab.count(empty, strategy="dlx-knuth", limit=0)["solutions"].to_pylist()
    x = sudolab.count(empty, strategy="dlx-knuth", limit=0, variant="x")
    assert x["solutions"].to_pylist() == [expected] and plain == [288] and expected < 288
    c = sudolab.compare(empty, strategies=["fast", "dlx-knuth"], limit=0, variant="x")
    assert c["solutions"].to_pylist() == [expected, expected] and c.problems.num_rows == 0
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.count(SMALL, variant="zigzag")
    assert str(caught.value).startswith("variant: ")


def test_solve_unique_refuses_several_solutions():
    rows = sudolab.solve([SMALL, SMALL_MULTIPLE], unique=True).to_pylist()
    assert [(r["verdict"], r["solution"]) for r in rows] == [
        ("unique", SMALL_SOLUTION),
        ("multiple", None),
    ]
    assert sudolab.solve(SMALL_MULTIPLE)["verdict"].to_pylist() == ["solved"]


def test_randomize_and_restarts():
    runs = [
        sudolab.count(SMALL_MULTIPLE, strategy="mrv", limit=0, randomize=seed).to_pylist()[0]
        for seed in (1, 2, 1)
    ]
    assert [r["solutions"] for r in runs] == [24, 24, 24]
    assert runs[0]["nodes"] == runs[2]["nodes"]  # the same seed, the same search
    solved = sudolab.solve(SMALL, strategy="mrv", randomize=7, restarts="luby:4").to_pylist()
    assert solved[0]["solution"] == SMALL_SOLUTION
    for kwargs, message in [
        ({"strategy": "fast", "randomize": 1},
         "randomize: fast searches in its own fixed order; mrv randomizes its ties and value "
         "order"),
        ({"strategy": "mrv", "restarts": "luby"},
         "restarts: a restart schedule needs randomize=SEED (a restarted search in the same "
         "order would repeat itself)"),
        ({"strategy": "mrv", "randomize": 1, "restarts": "luby"},
         "restarts: finds one solution (a restarted run would find earlier solutions again): "
         "use solve, or count with limit=1"),
    ]:
        with pytest.raises(sudolab.OptionError) as caught:
            sudolab.count(SMALL, **kwargs)
        assert str(caught.value) == message


def test_compare_samples_checks_side_files_and_keeps_a_baseline(tmp_path):
    puzzles = [SMALL, SMALL_MULTIPLE, "44.............."]
    sampled = sudolab.compare(puzzles, strategies=["fast"], sample=2, seed=3)
    again = sudolab.compare(puzzles, strategies=["fast"], sample=2, seed=3)
    assert sampled.num_rows == 2
    assert sampled["puzzle"].to_pylist() == again["puzzle"].to_pylist()
    counts = tmp_path / "counts.txt"
    counts.write_text("1\n3\n0\n")
    checked = sudolab.compare(puzzles, strategies=["fast", "mrv"], limit=0,
                              expect_counts=counts)
    assert checked.problems["kind"].to_pylist() == ["contradicts_known_count"] * 2
    assert checked.problems["puzzle"].to_pylist() == [1, 1]
    solutions = tmp_path / "solutions.txt"
    solutions.write_text(SMALL_SOLUTION + "\n")
    assert sudolab.compare(SMALL, strategies=["fast"],
                           expect_solutions=solutions).problems.num_rows == 0
    solutions.write_text(SMALL_SOLUTION[::-1] + "\n")
    wrong = sudolab.compare(SMALL, strategies=["fast"], expect_solutions=solutions)
    assert wrong.problems.num_rows == 1
    ratios = sudolab.compare(puzzles, strategies=["fast", "mrv"], baseline="mrv").summary
    assert ratios[1]["ratio"] == 1.0 and ratios[0]["ratio"] > 0
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.compare(SMALL, strategies=["fast"], baseline="mrv")
    assert str(caught.value) == "baseline: 'mrv' is not among the strategies compared (fast)"
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.compare(SMALL, clock="sundial")
    assert str(caught.value).startswith("clock: ")
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.compare(SMALL, sample=0)
    assert str(caught.value) == "sample: 0 would compare nothing; give a sample size of at least 1"


def test_verify_shards_and_certifies(cli, tmp_path):
    table = sudolab.verify([SMALL, SMALL, SMALL], shard=(2, 2))
    assert table["puzzle"].to_pylist() == [1]
    certified = sudolab.verify([SMALL, SMALL_MULTIPLE], certify=tmp_path / "certs").to_pylist()
    assert certified[0]["certificate"] == str(tmp_path / "certs" / "puzzles-00001.cert")
    assert certified[1]["certificate"] is None and not certified[1]["verified"]
    checked = subprocess.run([str(cli), "check-cert", str(tmp_path / "certs")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_generate_takes_a_size():
    puzzles = sudolab.generate(2, seed=4, size=4)["puzzle"].to_pylist()
    assert [len(p) for p in puzzles] == [16, 16]
    assert sudolab.generate(2, seed=4, box="2x2")["puzzle"].to_pylist() == puzzles
    assert sudolab.generate(1, size=6)["puzzle"].to_pylist() == sudolab.generate(
        1, box="2x3")["puzzle"].to_pylist()


def test_trace_shows_how_a_person_solves_it():
    plain = sudolab.trace(SMALL, "toggle")
    human = sudolab.trace(SMALL, "toggle", human=True)
    assert '"human":{' in human.html and '"human":{' not in plain.html
    assert human["event"].to_pylist() == plain["event"].to_pylist()


def test_a_path_where_a_puzzle_belongs_gets_a_hint(root, monkeypatch):
    monkeypatch.chdir(root)
    for function, given in [
        ("count", "corpora/reference.txt"),
        ("compare", pathlib.Path("corpora/reference.txt")),
        ("solve", ["corpora/reference.txt"]),
        ("verify", "reference.txt"),
    ]:
        with pytest.raises(ValueError) as caught:
            FUNCTIONS[function](given)
        assert isinstance(caught.value, sudolab.OptionError)
        path = str(given[0] if isinstance(given, list) else given)
        assert str(caught.value) == (
            f"puzzles: {path!r} looks like a path, not a puzzle; read the file first: "
            f"sudolab.{function}(sudolab.read({path!r}))"
        )
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.trace("corpora/reference.txt")
    assert str(caught.value) == (
        "puzzle: 'corpora/reference.txt' looks like a path, not a puzzle; read the file first: "
        "sudolab.trace(sudolab.read('corpora/reference.txt')['puzzle'][0].as_py()) traces its "
        "first"
    )


def test_a_report_of_an_unknown_form_is_an_option_error(tmp_path):
    with pytest.raises(ValueError) as caught:
        sudolab.compare(SMALL, strategies=["fast"], report=tmp_path / "x.pdf")
    assert isinstance(caught.value, sudolab.OptionError)
    assert str(caught.value) == (
        f"report: {tmp_path / 'x.pdf'}: cannot tell the report form from the extension 'pdf'; "
        "use .md, .csv, .json, .jsonl, .html, .parquet or .txt"
    )
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(sudolab.InputError):
        sudolab.compare(SMALL, strategies=["fast"], report=tmp_path / "missing" / "x.json")


#: A minimal 9x9 puzzle on which every engine searches (mrv needs many nodes).
HARD = ".6.3....2...5.94..7............1.5..184.........7..9........6.3.7.....9.59..84..."


def test_work_budgets_stop_at_the_same_point_and_are_each_engines_by_default():
    c = sudolab.compare(HARD, strategies=["mrv", "fast"], budget=3)
    rows = {r["strategy"]: r for r in c.to_pylist()}
    assert (rows["mrv"]["verdict"], rows["mrv"]["stopped"], rows["mrv"]["nodes"]) == (
        "unknown", "budget", 3)
    # By default each engine's calibrated budget, as on the command line; 0 is none.
    assert sudolab.compare(HARD, strategies=["mrv"])["verdict"].to_pylist() == ["unique"]
    assert sudolab.compare(HARD, strategies=["mrv"], budget=0)["verdict"].to_pylist() == [
        "unique"]
    assert c.context["budget"] == 3
    counted = sudolab.count(HARD, strategy="mrv", budget=3).to_pylist()[0]
    assert (counted["verdict"], counted["stopped"], counted["nodes"]) == ("unknown", "budget", 3)
    assert sudolab.count(HARD, budget=3)["strategy"].to_pylist() == ["fast"]
    assert sudolab.solve(HARD, strategy="mrv", budget=3)["solution"].to_pylist() == [None]
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.count(SMALL, strategy="dlx", budget=10)
    assert str(caught.value) == (
        "budget: dlx has no work budget (nothing inside its crate's search can be counted), so "
        "it cannot stop it; give it a timeout instead"
    )


def test_outside_programs_run_beside_the_engines(root):
    solver = str(root / "examples/external/solver.py")
    c = sudolab.compare([SMALL, SMALL_MULTIPLE], strategies=["fast"],
                        external={"py": ["python3", solver], "sh": f"python3 {solver}"})
    assert c["strategy"].to_pylist() == ["fast", "py", "sh"] * 2
    assert c["verdict"].to_pylist() == ["unique"] * 3 + ["multiple"] * 3
    assert c.problems.num_rows == 0
    listed = sudolab.compare(SMALL, strategies=["fast"], external=[f"py=python3 {solver}"])
    assert listed["strategy"].to_pylist() == ["fast", "py"]
    for external, message in [
        (["fast=true"], "external: external solver name 'fast' is a built-in strategy's; "),
        (["mine"], "external: expected NAME=COMMAND (such as mine=./solver), found 'mine'"),
        (["a=true", "a=false"],
         "strategies: the name 'a' is given twice; each strategy needs its own"),
    ]:
        with pytest.raises(sudolab.OptionError) as caught:
            sudolab.compare(SMALL, strategies=["fast"], external=external)
        assert str(caught.value).startswith(message)


def test_plots_are_written_as_svg_files(tmp_path):
    sudolab.compare([SMALL, HARD], strategies=["fast", "mrv"], plots=tmp_path / "plots")
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == [
        "cactus.svg", "scatter-mrv.svg"]
    assert (tmp_path / "plots" / "cactus.svg").read_text().startswith("<svg")


def test_an_experiment_file_runs_outside_programs_only_when_allowed(root, tmp_path):
    solver = root / "examples/external/solver.py"
    path = tmp_path / "mine.toml"
    path.write_text(
        f'strategies = ["fast"]\n\n[[corpus]]\npath = "{root / "corpora/reference.txt"}"\n\n'
        f'[[external]]\nname = "py"\ncommand = ["python3", "{solver}"]\n'
    )
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.run(path)
    assert str(caught.value) == (
        f"allow_external: {path}: the file runs outside programs ([[external]]: py = "
        f'["python3", "{solver}"]); give allow_external=True to run them; nothing was run'
    )
    ran = sudolab.run(path, allow_external=True)
    assert ran["strategy"].to_pylist() == ["fast", "py"] * 2
    assert ran.problems.num_rows == 0
