"""Bad input raises a Python exception whose message is the command line's, with the place;
nothing panics across the boundary."""

import numpy as np
import pyarrow as pa
import pytest

import sudolab

BAD_SYMBOL = (
    "0302607016800700901900045008201000400046x2900050003028009300074040050036703018000"
)
BOX_MESSAGE = "expected a box shape such as 3x3 or 2x3 (rows x columns), found '2by2'"
CELL_MESSAGE = "cell 5: expected a value 0-4, found 7"
NAMES = ", ".join(sudolab.strategies()["name"].to_pylist())


def raises(kind, message, call, *args, **kwargs):
    with pytest.raises(kind) as caught:
        call(*args, **kwargs)
    assert str(caught.value) == message
    return caught.value


def test_a_malformed_puzzle_names_its_line_and_column():
    error = raises(
        sudolab.ParseError,
        "puzzles: line 2, column 41: expected a digit 1-9 or '.', found 'x'",
        sudolab.count,
        ["4..3.....1....2.", BAD_SYMBOL],
    )
    assert isinstance(error, ValueError) and isinstance(error, sudolab.Error)


def test_a_malformed_file_gives_the_cli_message(root):
    # The message corpora/malformed/expected.toml pins for `sudolab count`.
    path = root / "corpora" / "malformed" / "unknown-symbol.txt"
    raises(
        sudolab.ParseError,
        f"{path}: line 1, column 41: expected a digit 1-9 or '.', found 'x'",
        sudolab.read,
        path,
    )
    path = root / "corpora" / "malformed" / "wrong-length.txt"
    raises(
        sudolab.ParseError,
        f"{path}: line 3, column 1: expected n*n symbols for a side n of 1 to 35 (16 for 4x4, "
        "36 for 6x6, 81 for 9x9, 144 for 12x12, 256 for 16x16, 625 for 25x25), found 80",
        sudolab.read,
        path,
    )


def test_a_missing_file_is_an_input_error(tmp_path):
    error = raises(
        sudolab.InputError,
        f"{tmp_path / 'nope.txt'}: cannot open: No such file or directory (os error 2)",
        sudolab.read,
        tmp_path / "nope.txt",
    )
    assert isinstance(error, OSError)


def test_an_unknown_strategy_lists_the_valid_ones():
    raises(
        sudolab.OptionError,
        f"unknown strategy 'quick'; valid strategies: {NAMES}",
        sudolab.count,
        "4..3.....1....2.",
        strategy="quick",
    )
    raises(
        sudolab.OptionError,
        "strategy 'mrv' is listed twice; each strategy runs once",
        sudolab.compare,
        "4..3.....1....2.",
        strategies=["mrv", "fast", "mrv"],
    )


def test_bad_options():
    raises(
        sudolab.OptionError,
        "timeout: expected a duration such as 500ms, 10s or 2m, found 'soon'",
        sudolab.count,
        "4..3.....1....2.",
        timeout="soon",
    )
    raises(
        sudolab.OptionError,
        "timeout: unknown time unit 'd'; use ms, s, m or h",
        sudolab.count,
        "4..3.....1....2.",
        timeout="2d",
    )
    raises(
        sudolab.OptionError,
        "jobs: expected 1 to 1024 jobs, found 0",
        sudolab.count,
        "4..3.....1....2.",
        jobs=0,
    )
    raises(
        sudolab.OptionError,
        "limit: expected 0 (count every solution) or more, found -1",
        sudolab.count,
        "4..3.....1....2.",
        limit=-1,
    )
    raises(
        sudolab.OptionError,
        "max_nodes: dlx counts no nodes, so a node budget cannot stop it; give it a timeout "
        "instead",
        sudolab.count,
        "4..3.....1....2.",
        strategy="dlx",
        max_nodes=10,
    )
    raises(
        sudolab.OptionError,
        "order: expected 'engine' or 'puzzle', found 'random'",
        sudolab.compare,
        "4..3.....1....2.",
        order="random",
    )
    raises(
        sudolab.OptionError,
        "verify needs at least two different strategies, so that each answer is re-proven by "
        "another method (given: fast); the default is auto",
        sudolab.verify,
        "4..3.....1....2.",
        strategies=["fast"],
    )
    raises(
        sudolab.OptionError,
        "shard: expected K/N with 1 <= K <= N, such as 2/4; found '0/4'",
        sudolab.compare,
        "4..3.....1....2.",
        shard=(0, 4),
    )
    raises(
        sudolab.OptionError,
        "box: " + BOX_MESSAGE,
        sudolab.count,
        "4..3.....1....2.",
        box="2by2",
    )


def test_wrong_types():
    raises(
        TypeError,
        "puzzles[1]: expected a str (a puzzle in line form), found int",
        sudolab.count,
        ["4..3.....1....2.", 7],
    )
    raises(
        TypeError,
        "puzzles: expected a numpy array of dtype uint8 and shape (N, n*n), found dtype int64 "
        "and shape [2, 16]",
        sudolab.count,
        np.zeros((2, 16), dtype=np.int64),
    )
    raises(
        TypeError,
        "puzzles: expected a str, a list of str, a numpy (N, n*n) uint8 array, or an Arrow "
        "string column or table with a 'puzzle' column; found dict",
        sudolab.count,
        {"puzzle": "4..3.....1....2."},
    )
    raises(
        TypeError,
        "puzzles: expected an Arrow string column, found Int64",
        sudolab.count,
        pa.array([1, 2]),
    )
    raises(
        TypeError,
        "puzzles: a table of puzzles needs a 'puzzle' column; found grid",
        sudolab.count,
        pa.table({"grid": ["4..3.....1....2."]}),
    )


def test_bad_cells_and_nulls():
    cells = np.zeros((2, 16), dtype=np.uint8)
    cells[1, 5] = 7
    raises(
        sudolab.ParseError,
        "puzzles: line 2: " + CELL_MESSAGE,
        sudolab.count,
        cells,
    )
    raises(
        sudolab.ParseError,
        "puzzles: a row of 15 cells is not a square board (n*n cells)",
        sudolab.count,
        np.zeros((1, 15), dtype=np.uint8),
    )
    raises(
        sudolab.ParseError,
        "puzzles: line 2: expected a puzzle, found null",
        sudolab.count,
        pa.array(["4..3.....1....2.", None]),
    )


def test_trace_refuses_what_the_cli_refuses():
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.trace("4..3.....1....2.", ["fast"])
    assert str(caught.value).startswith("fast cannot be traced: ")
    assert str(caught.value).endswith("; the strategies that can: scan, toggle, mrv, dlx-knuth")
    raises(
        sudolab.OptionError,
        "puzzle: trace takes one puzzle, found 2",
        sudolab.trace,
        ["4..3.....1....2.", "4..3.....1....2."],
    )


def test_a_bad_experiment_file_names_its_line(tmp_path):
    path = tmp_path / "e.toml"
    path.write_text('strategies = ["fast"]\n[run]\nrepeats = 3\n')
    with pytest.raises(sudolab.ExperimentError) as caught:
        sudolab.run(path)
    assert str(caught.value) == (
        f"{path}: line 3, column 1: unknown field `repeats`, expected one of `limit`, "
        "`timeout`, `max_nodes`, `budget`, `repeat`, `warmup`, `order`, `jobs`, `baseline`, `clock`"
    )


def test_a_panic_becomes_an_exception():
    from sudolab import _native

    raises(sudolab.Error, "internal error: a panic asked for by a test", _native.panic_on_worker)
    # The interpreter and the package go on.
    assert sudolab.count("4..3.....1....2.")["verdict"].to_pylist() == ["unique"]
