"""sudolab from Python: every capability of the toolkit as a function call whose results are
Arrow tables.

The searches run in Rust, through the same experiment pipeline as the ``sudolab`` command
line (every answer certified, several strategies cross-checked), with the GIL released;
Ctrl-C stops a run between searches. Tables implement the Arrow PyCapsule interface, so
``pyarrow.table(t)``, ``polars.DataFrame(t)`` and ``pandas.DataFrame.from_arrow(t)`` take
them without copying the data.

>>> import sudolab
>>> t = sudolab.count(["4..3.....1....2.", "4..3............"])
>>> t.column("verdict")
['unique', 'multiple']

Puzzles can be given as a ``str``, a list of ``str`` (line form), a numpy ``(N, n*n)``
``uint8`` array (0 for an empty cell), an Arrow string column (pyarrow, polars) or a table with
a ``puzzle`` column (such as :func:`read` returns). Puzzle ``i`` is read as line ``i + 1`` of a
file named ``puzzles``: a malformed one raises :class:`ParseError` with the command line's
message, ``puzzles: line 2, column 5: ...``.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Sequence, Union

from . import _native
from ._errors import Error, ExperimentError, InputError, OptionError, ParseError

__all__ = [
    "Comparison",
    "Error",
    "ExperimentError",
    "InputError",
    "OptionError",
    "ParseError",
    "Table",
    "Trace",
    "compare",
    "count",
    "generate",
    "read",
    "run",
    "solve",
    "strategies",
    "trace",
    "verify",
]

__version__ = _native.__version__

#: The strategies ``verify`` uses by default, the library's and the command line's:
#: propagation, exact cover and SAT, three different methods.
VERIFIERS = tuple(_native.DEFAULT_VERIFIERS)


class Table:
    """An Arrow table made by sudolab.

    It implements the Arrow PyCapsule interface (``__arrow_c_stream__``), so any Arrow library
    takes it without a copy: ``pyarrow.table(t)``, ``polars.DataFrame(t)``,
    ``pandas.DataFrame.from_arrow(t)`` (pandas 3), DuckDB. ``to_pyarrow``, ``to_polars`` and
    ``to_pandas`` are shortcuts for these.

    >>> t = sudolab.strategies()
    >>> "fast" in t.column("name")
    True
    """

    __slots__ = ("_table",)

    def __init__(self, table: Any) -> None:
        self._table = table

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self._table.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self) -> Any:
        return self._table.__arrow_c_schema__()

    def __len__(self) -> int:
        return len(self._table)

    @property
    def num_rows(self) -> int:
        """Rows in the table."""
        return len(self._table)

    @property
    def column_names(self) -> list[str]:
        """The columns, in order."""
        return list(self._table.column_names)

    def column(self, name: str) -> list[Any]:
        """One column as a Python list (for small tables; use pyarrow or polars for big ones).
        Needs no Arrow library."""
        return _native.column(self._table, name)

    def to_pyarrow(self) -> Any:
        """The table as a ``pyarrow.Table`` (no copy)."""
        import pyarrow

        return pyarrow.table(self)

    def to_polars(self) -> Any:
        """The table as a ``polars.DataFrame`` (no copy; ``polars.DataFrame(t)`` does the same,
        while ``polars.from_arrow(t)`` gives one struct Series, as for any Arrow stream that is
        not pyarrow's)."""
        import polars

        return polars.DataFrame(self)

    def to_pandas(self) -> Any:
        """The table as a ``pandas.DataFrame`` (through pyarrow)."""
        return self.to_pyarrow().to_pandas()

    def to_pylist(self) -> list[dict[str, Any]]:
        """The rows as dictionaries (for small tables). Needs no Arrow library."""
        names = self.column_names
        columns = [self.column(name) for name in names]
        return [dict(zip(names, values)) for values in zip(*columns)]

    def __repr__(self) -> str:
        return f"<sudolab.Table: {self.num_rows} rows; columns {', '.join(self.column_names)}>"


class Comparison(Table):
    """The result of :func:`compare` or :func:`run`: the rows (one per puzzle and strategy,
    the columns of the command line's JSON report, counters flattened into columns) and the
    cross-check's problems.

    It is itself the rows table (``pyarrow.table(c)`` gives the rows); ``problems`` is the
    problems table (``puzzle, source, grid, kind, strategies, detail``), ``input_errors`` the
    messages of puzzles that could not be read (only :func:`run` skips them; the other
    functions raise), ``interrupted`` whether Ctrl-C cut the run short.
    """

    __slots__ = ("problems", "input_errors", "interrupted", "name")

    def __init__(self, parts: Any, name: Optional[str] = None) -> None:
        rows, problems, input_errors, interrupted = parts
        super().__init__(rows)
        self.problems = Table(problems)
        self.input_errors: list[str] = list(input_errors)
        self.interrupted: bool = bool(interrupted)
        self.name = name

    @property
    def rows(self) -> Table:
        """The rows, as a plain :class:`Table`."""
        return Table(self._table)

    def __repr__(self) -> str:
        return (
            f"<sudolab.Comparison: {self.num_rows} rows, {self.problems.num_rows} problems"
            + (", INTERRUPTED" if self.interrupted else "")
            + ">"
        )


class Trace(Table):
    """The events of a traced search (:func:`trace`), one row each: ``strategy, step, depth,
    nodes, event, cell, value, item, candidates, text``.

    In Jupyter it shows as the command line's step-through page (``_repr_html_``): the board,
    the buttons and arrow keys that step through the search, the nodes-per-depth chart.
    ``html`` is that page, ``summaries`` the text summary of each strategy's trace.
    """

    __slots__ = ("html", "summaries")

    def __init__(self, parts: Any) -> None:
        html, events, summaries = parts
        super().__init__(events)
        self.html: str = html
        self.summaries: list[str] = list(summaries)

    def _repr_html_(self) -> str:
        # The page is a whole document with its own script: an iframe keeps its CSS and
        # JavaScript apart from the notebook's.
        import html as escape

        return (
            '<iframe style="width:100%;height:640px;border:0" srcdoc="'
            + escape.escape(self.html, quote=True)
            + '"></iframe>'
        )

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the step-through page to ``path`` (as ``sudolab trace -r FILE.html``)."""
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.html)

    def __repr__(self) -> str:
        return "\n".join(self.summaries)


def _names(strategies: Union[str, Sequence[str]], what: str) -> list[str]:
    if isinstance(strategies, str):
        return [name for name in strategies.split(",")]
    if not isinstance(strategies, (list, tuple)) or not all(
        isinstance(name, str) for name in strategies
    ):
        raise TypeError(f"{what}: expected a list of strategy names, found {strategies!r}")
    return list(strategies)


def _limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit: expected an int, found {type(limit).__name__}")
    if limit < 0:
        raise OptionError(f"limit: expected 0 (count every solution) or more, found {limit}")
    return limit


def _box(box: Union[None, str, Sequence[int]]) -> Optional[str]:
    if box is None or isinstance(box, str):
        return box
    rows, cols = box
    return f"{rows}x{cols}"


def _paths(paths: Any) -> list[str]:
    if paths is None:
        return []
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(path) for path in paths]


def _shard(shard: Union[None, str, Sequence[int]]) -> Optional[str]:
    if shard is None or isinstance(shard, str):
        return shard
    index, count = shard
    return f"{index}/{count}"


def strategies() -> Table:
    """The registered strategies: ``name, summary, counters, traceable``.

    >>> sorted(sudolab.strategies().column("name"))[:3]
    ['dlx', 'dlx-knuth', 'fast']
    """
    return Table(_native.strategies())


def read(
    paths: Union[None, str, os.PathLike, Iterable[Union[str, os.PathLike]]] = None,
    format: str = "auto",
    box: Union[None, str, Sequence[int]] = None,
    *,
    lines: Optional[Sequence[str]] = None,
) -> Table:
    """Reads puzzle files (line, grid or JSON form, as the command line) into a table:
    ``source, line, puzzle, solution, count, side, clues`` (``solution`` and ``count`` are what
    the file claims, or null). ``lines=[...]`` reads puzzles given in line form instead, each
    with an optional known count or solution (``puzzle:count`` or ``puzzle solution``), as
    lines of a file named ``puzzles``.

    >>> t = sudolab.read(lines=["4..3.....1....2.:1"])
    >>> t.column("count"), t.column("source"), t.column("line")
    ([1], ['puzzles'], [1])

    The table can be given to :func:`count`, :func:`solve` or :func:`compare`: its rows then
    name ``FILE:LINE`` as their source, and the file's claims are checked. A malformed puzzle
    raises :class:`ParseError` (``FILE: line 3, column 7: ...``), a missing file
    :class:`InputError`.
    """
    if lines is not None:
        if paths is not None:
            raise TypeError("read: give paths or lines, not both")
        return Table(_native.read_lines(lines, _box(box)))
    if paths is None:
        raise TypeError("read: give a path, a list of paths, or lines=[...]")
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return Table(_native.read([os.fspath(p) for p in paths], format, _box(box)))


def count(
    puzzles: Any,
    strategy: str = "fast",
    limit: int = 2,
    timeout: Union[None, float, str] = None,
    max_nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    box: Union[None, str, Sequence[int]] = None,
) -> Table:
    """Counts the solutions of each puzzle up to ``limit`` (2 decides uniqueness, 0 counts them
    all), as ``sudolab count``: one row per puzzle with the verdict, the count, the time and
    every counter of the strategy.

    >>> t = sudolab.count(["4..3.....1....2."], strategy="mrv", limit=0)
    >>> t.to_pylist()[0]["verdict"], t.to_pylist()[0]["solutions"]
    ('unique', 1)
    """
    return Table(
        _native.experiment(
            puzzles,
            _names([strategy], "strategy"),
            _limit(limit),
            timeout=timeout,
            max_nodes=max_nodes,
            jobs=jobs,
            box=_box(box),
        )[0]
    )


def solve(
    puzzles: Any,
    strategy: str = "fast",
    timeout: Union[None, float, str] = None,
    max_nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    box: Union[None, str, Sequence[int]] = None,
) -> Table:
    """Solves each puzzle (one solution, certified), as ``sudolab solve``: the rows of
    :func:`count` with a solution limit of one (verdict ``solved``, ``none`` or ``unknown``)
    and a ``solution`` column (line form, null when there is none).

    >>> sudolab.solve("4..3.....1....2.").column("solution")
    ['4213134221343421']
    """
    return Table(
        _native.experiment(
            puzzles,
            _names([strategy], "strategy"),
            1,
            timeout=timeout,
            max_nodes=max_nodes,
            jobs=jobs,
            box=_box(box),
            solutions=True,
        )[0]
    )


def compare(
    puzzles: Any,
    strategies: Union[str, Sequence[str], None] = None,
    limit: int = 2,
    timeout: Union[None, float, str] = "1s",
    max_nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    order: str = "engine",
    repeat: int = 1,
    warmup: int = 0,
    box: Union[None, str, Sequence[int]] = None,
    shard: Union[None, str, Sequence[int]] = None,
    report: Union[None, str, os.PathLike, Sequence[Union[str, os.PathLike]]] = None,
) -> Comparison:
    """Runs several strategies on every puzzle and cross-checks their answers, as ``sudolab
    compare``: one row per puzzle and strategy, with the columns of the command line's JSON
    report (``puzzle, source, side, clues, strategy, verdict, solutions, exhausted, stopped,
    time_ns, median_ns, cpu_ns``, then one column per counter), and the problems the cross-check found.

    ``strategies`` defaults to every registered one; ``timeout`` (seconds, or ``"500ms"``,
    ``"2m"``; ``None`` for none) defaults to 1 s as on the command line; ``jobs`` to one per
    core. ``shard=(k, n)`` (or ``"k/n"``) runs only the puzzles whose position modulo ``n`` is
    ``k - 1``, keeping their positions in the whole input, so that the shards' rows, run on
    several processes or machines (Dask, Ray), concatenate into the rows of one run.
    ``report`` writes report files as ``sudolab compare --report`` does (the extension picks
    the form: ``.json``, ``.csv``, ``.md``, ``.html``, ``.jsonl``, ``.txt``): a JSON report
    from Python is re-rendered and merged with the command line's shards by ``sudolab
    report``.

    >>> c = sudolab.compare(["4..3.....1....2."], strategies=["fast", "dlx-knuth"])
    >>> c.column("verdict"), c.problems.num_rows
    (['unique', 'unique'], 0)
    """
    if strategies is None:
        names = _native.strategy_names()
    else:
        names = _names(strategies, "strategies")
    return Comparison(
        _native.experiment(
            puzzles,
            names,
            _limit(limit),
            timeout=timeout,
            max_nodes=max_nodes,
            jobs=jobs,
            order=order,
            box=_box(box),
            repeat=repeat,
            warmup=warmup,
            shard=_shard(shard),
            report=_paths(report),
        )
    )


def verify(
    puzzles: Any,
    strategies: Union[str, Sequence[str]] = VERIFIERS,
    timeout: Union[None, float, str] = "60s",
    jobs: Optional[int] = None,
    box: Union[None, str, Sequence[int]] = None,
) -> Table:
    """Re-proves every puzzle unique with several strategies, as ``sudolab verify``: one row per
    puzzle, ``puzzle, source, grid, verified, strategies, problems`` (null when verified).

    >>> sudolab.verify(["4..3.....1....2.", "4..3............"]).column("verified")
    [True, False]
    """
    return Table(
        _native.verify(puzzles, _names(strategies, "strategies"), timeout, jobs, _box(box))
    )


def generate(
    count: int,
    seed: int = 1,
    box: Union[str, Sequence[int]] = "3x3",
    clues: Optional[int] = None,
    minimal: bool = False,
    symmetry: str = "none",
    checker: str = "auto",
    check_timeout: Union[None, float, str] = None,
    start: int = 0,
    jobs: Optional[int] = None,
) -> Table:
    """Seeded puzzles whose uniqueness a checker proves, as ``sudolab generate``: puzzles
    ``start .. start + count`` of the seed's stream (the same on every machine and with any
    ``jobs``): ``index, puzzle, solution, clues, target_met, checks, undecided, checker``;
    ``checker`` is the engine that proved uniqueness (``auto`` chooses as the command line
    does: fast up to 12x12, sat above, the other one where that one refuses the board).

    >>> t = sudolab.generate(2, seed=7, box="2x2")
    >>> sudolab.verify(t.column("puzzle")).column("verified")
    [True, True]
    """
    return Table(
        _native.generate(
            count,
            seed,
            _box(box),
            clues=clues,
            minimal=minimal,
            symmetry=symmetry,
            checker=checker,
            check_timeout=check_timeout,
            start=start,
            jobs=jobs,
        )
    )


def run(path: Union[str, os.PathLike]) -> Comparison:
    """Runs an experiment file (the TOML of ``sudolab run``, docs/experiments/README.md) and
    returns its rows and problems, as :func:`compare` does; nothing is written to disk.
    Puzzles that cannot be read are skipped and listed in ``input_errors``, as the command line
    reports them and goes on."""
    parts, name = _native.run(os.fspath(path))
    return Comparison(parts, name)


def trace(
    puzzle: Any,
    strategies: Union[str, Sequence[str]] = ("toggle",),
    limit: int = 2,
    max_events: int = 100_000,
    box: Union[None, str, Sequence[int]] = None,
) -> Trace:
    """Traces the search of one puzzle by one or more strategies, as ``sudolab trace``: a
    :class:`Trace`, the table of events, whose ``_repr_html_`` plays the step-through page
    inside Jupyter (two or more strategies side by side). Only engines that report events can
    be traced: ``scan``, ``toggle``, ``mrv``, ``dlx-knuth``.

    >>> t = sudolab.trace("4..3.....1....2.", ["toggle", "dlx-knuth"])
    >>> t.to_pyarrow().column("event").to_pylist()[:2]
    ['choose', 'try']
    """
    return Trace(
        _native.trace(
            puzzle, _names(strategies, "strategies"), _limit(limit), max_events, _box(box)
        )
    )
