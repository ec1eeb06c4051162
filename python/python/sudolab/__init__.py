"""sudolab from Python: every capability of the toolkit as a function call whose results are
Arrow tables.

The searches run in Rust, through the same experiment pipeline as the ``sudolab`` command
line (every answer certified, several strategies cross-checked), with the GIL released;
Ctrl-C stops a run between searches. Results are ``pyarrow.Table`` objects when pyarrow is
installed (else :class:`Table`, which needs no Arrow library); both implement the Arrow
PyCapsule interface, so ``polars.DataFrame(t)``, ``pandas.DataFrame.from_arrow(t)`` and DuckDB
take them without copying the data.

>>> import sudolab
>>> t = sudolab.count(["4..3.....1....2.", "4..3............"])
>>> t["verdict"].to_pylist()
['unique', 'multiple']

Puzzles can be given as a ``str``, a list of ``str`` (line form), a numpy ``(N, n*n)``
``uint8`` array (0 for an empty cell), an Arrow string column (pyarrow, polars) or a table with
a ``puzzle`` column (such as :func:`read` returns). Puzzle ``i`` is read as line ``i + 1`` of a
file named ``puzzles``: a malformed one raises :class:`ParseError` with the command line's
message, ``puzzles: line 2, column 5: ...``.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Optional, Sequence, Union

from . import _native
from ._errors import Error, ExperimentError, InputError, OptionError, ParseError

__all__ = [
    "Answer",
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
    "diff",
    "generate",
    "read",
    "run",
    "solve",
    "strategies",
    "trace",
    "verify",
]

__version__ = _native.__version__

#: The strategies ``verify`` uses by default, the library's and the command line's: ``auto``,
#: at least two different methods chosen per puzzle by its size.
VERIFIERS = tuple(_native.DEFAULT_VERIFIERS)


def _pyarrow() -> Any:
    """pyarrow when it is installed, else None (looked up once, on first use, so that
    ``import sudolab`` stays fast)."""
    global _PYARROW
    if _PYARROW is _UNSET:
        try:
            import pyarrow
        except ImportError:
            pyarrow = None
        _PYARROW = pyarrow
    return _PYARROW


_UNSET = object()
_PYARROW: Any = _UNSET


def _table(native: Any) -> Any:
    """A result table: a ``pyarrow.Table`` when pyarrow is installed (taken through the Arrow
    C stream, no copy), else a :class:`Table`."""
    pyarrow = _pyarrow()
    if pyarrow is not None:
        return pyarrow.table(native)
    return Table(native)


#: Rows an HTML table shows before it says how many more there are.
HTML_ROWS = 20


def _rows_phrase(count: int) -> str:
    return f"{count} row" if count == 1 else f"{count} rows"


def _html(table: Any, title: str = "") -> str:
    """An HTML ``<table>`` of the first :data:`HTML_ROWS` rows of ``table`` (a
    ``pyarrow.Table`` or a :class:`Table`), captioned with its size."""
    import html as escape

    names = list(table.column_names)
    total = table.num_rows
    head = table.slice(0, HTML_ROWS) if hasattr(table, "slice") else None
    rows = head.to_pylist() if head is not None else table.to_pylist()[:HTML_ROWS]
    cell = lambda value: "" if value is None else escape.escape(str(value))  # noqa: E731
    caption = f"{_rows_phrase(total)} &times; {len(names)} columns"
    if title:
        caption = f"{escape.escape(title)}: {caption}"
    if total > len(rows):
        caption += f" (the first {len(rows)} shown)"
    lines = [f"<table><caption>{caption}</caption>", "<thead><tr>"]
    lines += [f"<th>{escape.escape(name)}</th>" for name in names]
    lines.append("</tr></thead><tbody>")
    for row in rows:
        lines.append("<tr>" + "".join(f"<td>{cell(row[name])}</td>" for name in names) + "</tr>")
    lines.append("</tbody></table>")
    return "\n".join(lines)


class Column(list):
    """One column of a :class:`Table` as Python values; ``to_pylist()`` as pyarrow's columns
    have it."""

    def to_pylist(self) -> list[Any]:
        return list(self)


class Table:
    """A sudolab result when pyarrow is not installed (with pyarrow, results are
    ``pyarrow.Table`` objects).

    It implements the Arrow PyCapsule interface (``__arrow_c_stream__``), so any Arrow library
    takes it without a copy: ``polars.DataFrame(t)``, ``pandas.DataFrame.from_arrow(t)``
    (pandas 3), DuckDB. ``t["verdict"]``, ``shape``, ``schema``, ``to_pylist()`` and the HTML
    view in notebooks need no Arrow library.
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
    def num_columns(self) -> int:
        """Columns in the table."""
        return len(self.column_names)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)``."""
        return (self.num_rows, self.num_columns)

    @property
    def column_names(self) -> list[str]:
        """The columns, in order."""
        return list(self._table.column_names)

    @property
    def schema(self) -> list[tuple[str, str]]:
        """The columns and their Arrow types, ``[("puzzle", "UInt64"), ...]``."""
        return _native.schema(self._table)

    def column(self, name: str) -> Column:
        """One column as Python values (for small tables; use an Arrow library for big ones)."""
        return Column(_native.column(self._table, name))

    def __getitem__(self, name: str) -> Column:
        return self.column(name)

    def to_pyarrow(self) -> Any:
        """The table as a ``pyarrow.Table`` (no copy)."""
        import pyarrow

        return pyarrow.table(self)

    def to_polars(self) -> Any:
        """The table as a ``polars.DataFrame`` (no copy)."""
        import polars

        return polars.DataFrame(self)

    def to_pandas(self) -> Any:
        """The table as a ``pandas.DataFrame`` (through pyarrow)."""
        return self.to_pyarrow().to_pandas()

    def to_pylist(self) -> list[dict[str, Any]]:
        """The rows as dictionaries (for small tables)."""
        names = self.column_names
        columns = [self.column(name) for name in names]
        return [dict(zip(names, values)) for values in zip(*columns)]

    def _repr_html_(self) -> str:
        return _html(self)

    def __repr__(self) -> str:
        return (
            f"<sudolab.Table: {_rows_phrase(self.num_rows)}; "
            f"columns {', '.join(self.column_names)}>"
        )


class _Rows:
    """What :class:`Comparison` and :class:`Trace` share: a result table (``pyarrow.Table``
    with pyarrow, else :class:`Table`) that they stand for. Any attribute they do not have is
    the table's (``schema``, ``shape``, ``num_rows``, ``column``, ``to_pandas``, ``filter``,
    ...), ``x["col"]`` is its column, and Arrow libraries take them through the table's
    ``__arrow_c_stream__``."""

    __slots__ = ("_rows",)

    def __init__(self, native: Any) -> None:
        self._rows = _table(native)

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self._rows.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self) -> Any:
        return self._rows.__arrow_c_schema__()

    def __getattr__(self, name: str) -> Any:
        # Only for names the object has not; `_rows` itself unset (an object being copied or
        # unpickled) must not recurse.
        if name.startswith("__") or name == "_rows":
            raise AttributeError(name)
        return getattr(self._rows, name)

    def __getitem__(self, name: str) -> Any:
        return self._rows[name]

    def __len__(self) -> int:
        return self._rows.num_rows

    def to_pyarrow(self) -> Any:
        """The rows as a ``pyarrow.Table`` (no copy)."""
        import pyarrow

        return pyarrow.table(self._rows)

    def to_polars(self) -> Any:
        """The rows as a ``polars.DataFrame`` (no copy)."""
        import polars

        return polars.DataFrame(self._rows)


class Comparison(_Rows):
    """The result of :func:`compare` or :func:`run`: the rows (one per puzzle and strategy,
    the columns of the command line's JSON report, counters flattened into columns), the
    per-strategy summary, the provenance and the cross-check's problems.

    It stands for its rows: ``c.schema``, ``c.shape``, ``c["verdict"]``, ``c.to_pandas()``
    and ``pyarrow.table(c)`` are the rows'; ``rows`` is the table itself. ``summary`` is the
    JSON report's ``summary`` (one dictionary per strategy: verdict counts, ``total_ns``,
    ``mean_us`` and the other times by the clock the context names, nodes, the ratio to the
    baseline), ``context`` its ``context`` (sudolab's version and commit, the build, the
    machine and its load, the options, the start time); ``problems`` is the problems table
    (``puzzle, source, grid, kind, strategies, detail``), ``input_errors`` the messages of
    puzzles that could not be read (only :func:`run` skips them; the other functions raise),
    ``interrupted`` whether Ctrl-C cut the run short.
    """

    __slots__ = ("problems", "input_errors", "interrupted", "name", "summary", "context")

    def __init__(self, parts: Any, name: Optional[str] = None) -> None:
        import json

        rows, problems, input_errors, interrupted, summary, context = parts
        super().__init__(rows)
        self.problems = _table(problems)
        self.input_errors: list[str] = list(input_errors)
        self.interrupted: bool = bool(interrupted)
        self.name = name
        self.summary: list[dict[str, Any]] = json.loads(summary)
        self.context: dict[str, Any] = json.loads(context)

    @property
    def rows(self) -> Any:
        """The rows, as a ``pyarrow.Table`` (a :class:`Table` without pyarrow)."""
        return self._rows

    def _repr_html_(self) -> str:
        # The summary's scalar fields (the command line's table), then the first rows.
        import html as escape

        keys = [
            key
            for key in self.summary[0]
            if not isinstance(self.summary[0][key], (list, dict))
        ] if self.summary else []
        lines = [
            f"<table><caption>summary: {len(self.summary)} "
            f"strateg{'y' if len(self.summary) == 1 else 'ies'}</caption><thead><tr>"
        ]
        lines += [f"<th>{escape.escape(key)}</th>" for key in keys]
        lines.append("</tr></thead><tbody>")
        for entry in self.summary:
            cells = ["" if entry[k] is None else escape.escape(str(entry[k])) for k in keys]
            lines.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        lines.append("</tbody></table>")
        problems = self.problems.num_rows
        note = f"<p>{problems} problem{'' if problems == 1 else 's'}"
        note += ", INTERRUPTED</p>" if self.interrupted else "</p>"
        return "\n".join(lines) + "\n" + note + "\n" + _html(self._rows, "rows")

    def __repr__(self) -> str:
        return (
            f"<sudolab.Comparison: {_rows_phrase(self._rows.num_rows)}, "
            f"{self.problems.num_rows} problem{'' if self.problems.num_rows == 1 else 's'}"
            + (", INTERRUPTED" if self.interrupted else "")
            + ">"
        )


#: The iframe takes its page's height once the page has loaded (through ``srcdoc`` the page
#: is of the notebook's origin, so its document can be measured) and again whenever that
#: changes (a step can grow the chart), so the notebook shows all of the page and no empty
#: space; 640 px is the height until then, or where scripts do not run.
_RESIZE = (
    "(function(f){var d=f.contentDocument;if(!d||!d.documentElement)return;"
    "var fit=function(){f.style.height=(d.documentElement.offsetHeight+4)+'px';};fit();"
    "if(window.ResizeObserver){new ResizeObserver(fit).observe(d.documentElement);}})(this)"
)


class Trace(_Rows):
    """The events of a traced search (:func:`trace`), one row each: ``strategy, step, depth,
    nodes, event, cell, value, item, candidates, text``.

    In Jupyter it shows as the command line's step-through page (``_repr_html_``): the board,
    the buttons and arrow keys that step through the search, the nodes-per-depth chart, in an
    iframe as tall as the page. ``html`` is that page, ``summaries`` the text summary of each
    strategy's trace; like :class:`Comparison` it stands for its table (``events``).
    """

    __slots__ = ("html", "summaries")

    def __init__(self, parts: Any) -> None:
        html, events, summaries = parts
        super().__init__(events)
        self.html: str = html
        self.summaries: list[str] = list(summaries)

    @property
    def events(self) -> Any:
        """The events, as a ``pyarrow.Table`` (a :class:`Table` without pyarrow)."""
        return self._rows

    def _repr_html_(self) -> str:
        # The page is a whole document with its own script: an iframe keeps its CSS and
        # JavaScript apart from the notebook's.
        import html as escape

        return (
            '<iframe style="width:100%;height:640px;border:0" onload="'
            + escape.escape(_RESIZE, quote=True)
            + '" srcdoc="'
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


class Answer:
    """What a strategy function may return instead of a plain list of solutions: the
    ``solutions`` it found (each a ``str`` in the line form), whether they are all there are
    (``complete``: with fewer than the limit, ``True`` is a verdict, ``none``, ``unique`` or a
    count; ``False`` is ``unknown``, the function gave up), and its ``counters`` (``nodes``,
    ``placements``, ``backtracks``, ``guesses``, ``propagation_rounds``, ``time_ns``), which
    become its row's counter columns.

    >>> sudolab.Answer(["4213134221343421"], complete=True, counters={"nodes": 3})
    Answer(solutions=['4213134221343421'], complete=True, counters={'nodes': 3})
    """

    __slots__ = ("solutions", "complete", "counters")

    def __init__(
        self,
        solutions: Sequence[str] = (),
        complete: bool = True,
        counters: Optional[dict[str, int]] = None,
    ) -> None:
        self.solutions: list[str] = list(solutions)
        self.complete: bool = complete
        self.counters: dict[str, int] = dict(counters or {})

    def __repr__(self) -> str:
        return (
            f"Answer(solutions={self.solutions!r}, complete={self.complete!r}, "
            f"counters={self.counters!r})"
        )


def _strategy_specs(strategies: Any) -> list[Any]:
    """``compare``'s strategies for the extension: names as they are, each function as a
    ``(name, function)`` pair named by its ``__name__``."""
    if isinstance(strategies, str):
        return strategies.split(",")
    if callable(strategies) or (
        isinstance(strategies, tuple) and len(strategies) == 2 and callable(strategies[1])
    ):
        strategies = [strategies]
    if not isinstance(strategies, (list, tuple)):
        raise TypeError(
            f"strategies: expected a list of strategy names and functions, found {strategies!r}"
        )
    specs: list[Any] = []
    for entry in strategies:
        if isinstance(entry, str):
            specs.append(entry)
        elif (
            isinstance(entry, tuple)
            and len(entry) == 2
            and isinstance(entry[0], str)
            and callable(entry[1])
        ):
            specs.append(entry)
        elif callable(entry):
            specs.append((getattr(entry, "__name__", type(entry).__name__), entry))
        else:
            raise TypeError(
                "strategies: expected a strategy name, a function or a (name, function) pair, "
                f"found {entry!r}"
            )
    return specs


def _externals(external: Any) -> list[Any]:
    """``compare``'s outside programs for the extension: ``"NAME=COMMAND"`` strings as they
    are (run by ``sh -c``, as ``--external``), a dict's command strings as such strings, and its
    lists as ``(name, argv)`` pairs run as given."""
    if external is None:
        return []
    if isinstance(external, str):
        return [external]
    if isinstance(external, dict):
        specs: list[Any] = []
        for name, command in external.items():
            if isinstance(command, str):
                specs.append(f"{name}={command}")
            elif isinstance(command, (list, tuple)) and all(isinstance(a, str) for a in command):
                specs.append((str(name), list(command)))
            else:
                raise TypeError(
                    f"external: the command of {name!r} must be a str (run by sh -c) or a list "
                    f"of str (run as given), found {command!r}"
                )
        return specs
    if isinstance(external, (list, tuple)) and all(isinstance(e, str) for e in external):
        return list(external)
    raise TypeError(
        f"external: expected a dict of NAME: COMMAND or a list of 'NAME=COMMAND', found "
        f"{external!r}"
    )


def _size(size: Union[None, str, int]) -> Optional[str]:
    """A memory size as the command line reads it (``"512M"``); a bare number is passed on to
    be refused with the command line's words, its unit being a guess."""
    return None if size is None else str(size)


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


def _path(path: Union[None, str, os.PathLike]) -> Optional[str]:
    return None if path is None else os.fspath(path)


def _shard(shard: Union[None, str, Sequence[int]]) -> Optional[str]:
    if shard is None or isinstance(shard, str):
        return shard
    index, count = shard
    return f"{index}/{count}"


#: Endings of the puzzle files sudolab reads: a string that ends so names a file.
_FILE_ENDINGS = (".txt", ".json", ".toml", ".csv", ".sdk", ".sdm")


def _looks_like_path(value: Any) -> bool:
    # A puzzle's line form (`4..3.....1....2.`, with `:count` or ` solution` after it) has no
    # path separator and no file ending; a file that exists under that name is one too.
    if isinstance(value, os.PathLike):
        return True
    if not isinstance(value, str):
        return False
    return (
        "/" in value
        or os.sep in value
        or value.lower().endswith(_FILE_ENDINGS)
        or os.path.isfile(value)
    )


def _puzzles(puzzles: Any, function: str) -> Any:
    """The puzzles as given, unless a path stands where a puzzle is expected: that is refused
    with the call that reads the file."""
    given = puzzles if isinstance(puzzles, (list, tuple)) else [puzzles]
    path = next((p for p in given if _looks_like_path(p)), None)
    if path is None:
        return puzzles
    path = os.fspath(path)
    if function == "trace":
        hint = f"sudolab.trace(sudolab.read({path!r})['puzzle'][0].as_py()) traces its first"
        what = "puzzle"
    else:
        hint = f"sudolab.{function}(sudolab.read({path!r}))"
        what = "puzzles"
    raise OptionError(
        f"{what}: {path!r} looks like a path, not a puzzle; read the file first: {hint}"
    )


def strategies() -> Any:
    """The registered strategies: ``name, summary, counters, traceable``.

    >>> sorted(sudolab.strategies()["name"].to_pylist())[:3]
    ['dlx', 'dlx-knuth', 'fast']
    """
    return _table(_native.strategies())


def read(
    paths: Union[None, str, os.PathLike, Iterable[Union[str, os.PathLike]]] = None,
    format: str = "auto",
    box: Union[None, str, Sequence[int]] = None,
    *,
    lines: Optional[Sequence[str]] = None,
) -> Any:
    """Reads puzzle files (line, grid or JSON form, as the command line) into a table:
    ``source, line, puzzle, solution, count, side, clues`` (``solution`` and ``count`` are what
    the file claims, or null). ``lines=[...]`` reads puzzles given in line form instead, each
    with an optional known count or solution (``puzzle:count`` or ``puzzle solution``), as
    lines of a file named ``puzzles``.

    >>> t = sudolab.read(lines=["4..3.....1....2.:1"])
    >>> t["count"].to_pylist(), t["source"].to_pylist(), t["line"].to_pylist()
    ([1], ['puzzles'], [1])

    The table can be given to :func:`count`, :func:`solve` or :func:`compare`: its rows then
    name ``FILE:LINE`` as their source, and the file's claims are checked. A malformed puzzle
    raises :class:`ParseError` (``FILE: line 3, column 7: ...``), a missing file
    :class:`InputError`.
    """
    if lines is not None:
        if paths is not None:
            raise TypeError("read: give paths or lines, not both")
        return _table(_native.read_lines(lines, _box(box)))
    if paths is None:
        raise TypeError("read: give a path, a list of paths, or lines=[...]")
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return _table(_native.read([os.fspath(p) for p in paths], format, _box(box)))


def count(
    puzzles: Any,
    strategy: str = "auto",
    limit: int = 2,
    timeout: Union[None, float, str] = None,
    max_nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    box: Union[None, str, Sequence[int]] = None,
    shard: Union[None, str, Sequence[int]] = None,
    variant: Optional[str] = None,
    randomize: Optional[int] = None,
    restarts: Optional[str] = None,
    budget: Optional[int] = None,
) -> Any:
    """Counts the solutions of each puzzle up to ``limit`` (2 decides uniqueness, 0 counts them
    all), as ``sudolab count``: one row per puzzle with the verdict, the count, the times
    (``time_ns``, ``cpu_ns``) and every counter of the strategy.

    ``strategy`` is an engine's name or ``"auto"`` (the default, as on the command line): per
    puzzle, fast up to 12x12 and sat above (the other one when that one refuses the puzzle;
    with ``max_nodes``, fast, since sat counts no nodes); the ``strategy`` column names the
    engine that ran.
    ``timeout`` (seconds, or ``"500ms"``, ``"2m"``), ``max_nodes`` and ``budget`` (work, in
    the engine's own unit: nodes for fast, scan, toggle and mrv, updates for dlx-knuth,
    proof_bytes for the sat family; dlx has none and is refused; a search that uses it up is
    ``unknown``, stopped ``budget``, at the same point on any machine) are per puzzle; none is
    set by default (``0`` is none too), as on the command line; with ``max_nodes`` or
    ``budget``, ``auto`` takes only engines that can follow them. ``shard=(k, n)`` takes the puzzles whose
    position modulo ``n`` is ``k - 1``. ``variant`` reads every puzzle under a variant's
    rules, as ``--variant`` (``"x"``, ``"windoku"``, ``"x,anti-king"``: docs/variants.md).
    ``randomize=SEED`` breaks mrv's ties at random and tries values in a random order (the
    same seed gives the same search); ``restarts`` (``"luby"``, ``"luby:UNIT"``,
    ``"geometric:UNIT:FACTOR"``, with ``randomize`` and a search for one solution) restarts it
    after node cutoffs that grow by that schedule, as on the command line. A file's name is not a puzzle: read it with
    :func:`read` (``count(sudolab.read("corpora/reference.txt"))``).

    >>> t = sudolab.count(["4..3.....1....2."], strategy="mrv", limit=0)
    >>> t.to_pylist()[0]["verdict"], t.to_pylist()[0]["solutions"]
    ('unique', 1)
    """
    return _table(
        _native.experiment(
            _puzzles(puzzles, "count"),
            _names([strategy], "strategy"),
            _limit(limit),
            timeout=timeout,
            max_nodes=max_nodes,
            jobs=jobs,
            box=_box(box),
            shard=_shard(shard),
            one_engine=True,
            variant=variant,
            randomize=randomize,
            restarts=restarts,
            budget=budget,
        )[0]
    )


def solve(
    puzzles: Any,
    strategy: str = "auto",
    timeout: Union[None, float, str] = None,
    max_nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    box: Union[None, str, Sequence[int]] = None,
    unique: bool = False,
    variant: Optional[str] = None,
    randomize: Optional[int] = None,
    restarts: Optional[str] = None,
    budget: Optional[int] = None,
) -> Any:
    """Solves each puzzle (one solution, certified), as ``sudolab solve``: the rows of
    :func:`count` with a solution limit of one (verdict ``solved``, ``none`` or ``unknown``)
    and a ``solution`` column (line form, null when there is none); ``strategy`` as in
    :func:`count`, ``"auto"`` by default. ``unique=True`` (as
    ``--unique``) decides uniqueness too: a puzzle with several solutions says ``multiple``
    and gets no solution. ``variant``, ``randomize``, ``restarts`` and ``budget`` as in
    :func:`count`.

    >>> sudolab.solve("4..3.....1....2.")["solution"].to_pylist()
    ['4213134221343421']
    """
    return _table(
        _native.experiment(
            _puzzles(puzzles, "solve"),
            _names([strategy], "strategy"),
            2 if unique else 1,
            timeout=timeout,
            max_nodes=max_nodes,
            jobs=jobs,
            box=_box(box),
            solutions=True,
            unique=unique,
            one_engine=True,
            variant=variant,
            randomize=randomize,
            restarts=restarts,
            budget=budget,
        )[0]
    )


def compare(
    puzzles: Any,
    strategies: Union[str, Sequence[Any], None] = None,
    limit: int = 2,
    timeout: Union[None, float, str] = "30s",
    max_nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    order: str = "engine",
    repeat: int = 1,
    warmup: int = 0,
    box: Union[None, str, Sequence[int]] = None,
    shard: Union[None, str, Sequence[int]] = None,
    report: Union[None, str, os.PathLike, Sequence[Union[str, os.PathLike]]] = None,
    baseline: Optional[str] = None,
    clock: str = "cpu",
    sample: Optional[int] = None,
    seed: int = 1,
    expect_counts: Union[None, str, os.PathLike] = None,
    expect_solutions: Union[None, str, os.PathLike] = None,
    variant: Optional[str] = None,
    budget: Optional[int] = None,
    external: Union[None, str, Sequence[str], dict[str, Union[str, Sequence[str]]]] = None,
    external_memory: Optional[str] = None,
    external_cpu: Union[None, float, str] = None,
    plots: Union[None, str, os.PathLike] = None,
) -> Comparison:
    """Runs several strategies on every puzzle and cross-checks their answers, as ``sudolab
    compare``: one row per puzzle and strategy, with the columns of the command line's JSON
    report (``puzzle, source, side, clues, strategy, verdict, solutions, exhausted, stopped,
    time_ns, median_ns, cpu_ns``, then one column per counter), the per-strategy summary, the
    provenance, and the problems the cross-check found.

    ``strategies`` defaults to every registered one; an entry may also be a Python function
    ``f(puzzle: str, limit: int)`` that returns its solutions (a list of ``str`` in the line
    form, all there are; ``[]`` is none) or an :class:`Answer`: it runs beside the engines,
    named by its ``__name__`` (or give a ``(name, function)`` pair; a built-in's name is
    refused), its solutions certified and cross-checked like theirs, and an exception it raises
    is its problem on that puzzle (docs/python.md). ``external`` adds outside programs that
    speak the line protocol of docs/external.md, as ``--external``: ``{"mine": "./solver"}``
    (a str is run by ``sh -c``, a list of str as given) or ``["mine=./solver"]``; a str
    command starting ``dimacs:`` (or ``dimacs-ENCODING:``) is a DIMACS SAT solver, as on the
    command line. ``external_memory`` (a size with its binary unit: ``"512M"``, ``"2G"``) and
    ``external_cpu`` (seconds, or ``"10s"``, ``"2m"``; above zero) limit each outside solver's
    process (``ulimit -v`` and ``-t``, as ``--external-memory`` and ``--external-cpu``; no limit
    by default): a program that dies of one is its problem on that puzzle, started again for
    the next.
    ``budget`` is each search's work budget in the engine's own unit (nodes, updates,
    proof_bytes; ``sudolab.strategies()``): by default each engine's calibrated budget, about
    a second of its work, as on the command line; ``0`` for none. ``timeout`` (seconds, or
    ``"500ms"``, ``"2m"``; ``None`` for none) is the safety net above it, 30 s as on the command
    line; ``jobs`` defaults to one per core. ``baseline`` names the strategy the summary's ``ratio`` is relative to;
    ``clock`` (``"cpu"``, the default, or ``"wall"``) is the clock of the summary's times.
    ``sample=N`` compares a random sample of N puzzles drawn by ``seed`` (1 by default);
    ``expect_counts`` and ``expect_solutions`` are files of known counts or solutions, line
    ``i`` for puzzle ``i``, each checked. ``variant`` reads every puzzle under a variant's
    rules (``"x,anti-king"``, as ``--variant``). ``shard=(k, n)`` (or ``"k/n"``) runs only the
    puzzles whose position modulo ``n`` is ``k - 1``, keeping their positions in the whole
    input, so that the shards' rows, run on several processes or machines (Dask, Ray),
    concatenate into the rows of one run. ``report`` writes report files as ``sudolab compare
    --report`` does (the extension picks the form: ``.json``, ``.csv``, ``.md``, ``.html``,
    ``.jsonl``, ``.txt``; another one is an :class:`OptionError`): a JSON report from Python
    is re-rendered and merged with the command line's shards by ``sudolab report``.
    ``plots=DIR`` writes the plots as SVG files into DIR (made when missing), as ``--plots``:
    ``cactus.svg`` and a ``scatter-NAME.svg`` per strategy but the baseline.

    >>> c = sudolab.compare(["4..3.....1....2."], strategies=["fast", "dlx-knuth"])
    >>> c["verdict"].to_pylist(), c.problems.num_rows, [s["unique"] for s in c.summary]
    (['unique', 'unique'], 0, [1, 1])
    """
    if strategies is None:
        specs: list[Any] = list(_native.strategy_names())
    else:
        specs = _strategy_specs(strategies)
    names = [spec if isinstance(spec, str) else spec[0] for spec in specs]
    return Comparison(
        _native.experiment(
            _puzzles(puzzles, "compare"),
            specs,
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
            baseline=baseline,
            clock=clock,
            sample=sample,
            seed=seed,
            expect_counts=_path(expect_counts),
            expect_solutions=_path(expect_solutions),
            variant=variant,
            command=f"python: sudolab.compare(strategies={names!r}, limit={limit})",
            budget=budget,
            external=_externals(external),
            external_memory=_size(external_memory),
            external_cpu=external_cpu,
            plots=_path(plots),
        )
    )


def verify(
    puzzles: Any,
    strategies: Union[str, Sequence[str]] = VERIFIERS,
    timeout: Union[None, float, str] = "60s",
    jobs: Optional[int] = None,
    box: Union[None, str, Sequence[int]] = None,
    shard: Union[None, str, Sequence[int]] = None,
    variant: Optional[str] = None,
    certify: Union[None, str, os.PathLike] = None,
    external: Union[None, str, Sequence[str], dict[str, Union[str, Sequence[str]]]] = None,
    external_memory: Optional[str] = None,
    external_cpu: Union[None, float, str] = None,
) -> Any:
    """Re-proves every puzzle unique with several strategies, as ``sudolab verify``: one row per
    puzzle, ``puzzle, source, grid, verified, strategies, problems`` (null when verified).
    ``strategies`` is ``auto`` by default, as on the command line: per puzzle, fast, dlx-knuth
    and sat below 13x13, sat and fast from 13x13; the ``strategies`` column names the engines
    that proved it. ``timeout`` bounds each check (60 s by default, as on the command line); ``shard`` and
    ``variant`` as in :func:`compare`. ``certify=DIR`` also writes a certificate of each
    verified puzzle into DIR (as ``--certify``), checked by the independent checker before the
    puzzle counts as verified; the ``certificate`` column gives its path
    (``DIR/puzzles-00001.cert``, the source file's stem and the puzzle's position).
    ``external`` (as in :func:`compare`) adds outside solvers as verifiers, as ``--external``:
    each re-proves every puzzle beside ``strategies`` (after auto's engines, or after the named
    ones; name one in ``strategies`` to place it there), its answers certified and held to the
    others'; a crash, hang or wrong answer fails the puzzle. ``external_memory`` and
    ``external_cpu`` limit their processes as in :func:`compare`.

    >>> sudolab.verify(["4..3.....1....2.", "4..3............"])["verified"].to_pylist()
    [True, False]
    """
    return _table(
        _native.verify(
            _puzzles(puzzles, "verify"),
            _names(strategies, "strategies"),
            timeout,
            jobs,
            _box(box),
            _shard(shard),
            variant,
            _path(certify),
            external=_externals(external),
            external_memory=_size(external_memory),
            external_cpu=external_cpu,
        )
    )


def generate(
    count: int = 1,
    seed: int = 1,
    box: Union[None, str, Sequence[int]] = None,
    clues: Optional[int] = None,
    minimal: bool = False,
    symmetry: str = "none",
    checker: str = "auto",
    check_timeout: Union[None, float, str] = "10s",
    start: int = 0,
    jobs: Optional[int] = None,
    size: int = 9,
    verify: Union[None, str, Sequence[str]] = None,
    rating: str = "any",
    technique: Optional[str] = None,
    propagation: Optional[str] = None,
    te_depth: Optional[int] = None,
    variant: Optional[str] = None,
    rules: Union[None, str, os.PathLike] = None,
    model: str = "sudoku",
    holes: Optional[int] = None,
    balance: str = "none",
    external: Union[None, str, Sequence[str], dict[str, Union[str, Sequence[str]]]] = None,
    external_memory: Optional[str] = None,
    external_cpu: Union[None, float, str] = None,
    unbiased: bool = False,
    attempts_per_grid: int = 1,
) -> Any:
    """Seeded puzzles whose uniqueness a checker proves, as ``sudolab generate``: puzzles
    ``start .. start + count`` of the seed's stream (the same on every machine and with any
    ``jobs``): ``index, puzzle, solution, clues, target_met, checks, undecided, checker``;
    ``checker`` is the engine that proved uniqueness (``auto`` chooses as the command line
    does: fast up to 12x12, sat above, the other one where that one refuses the board).
    ``size`` is the board's side (9 by default; boxes as square as it allows), ``box`` a box
    shape instead; ``check_timeout`` bounds each uniqueness check (10 s by default, as on
    the command line; an undecided removal is undone and counted in ``undecided``).

    The other options are the command line's, under the same names and defaults, checked by
    the same library code with the same messages (raised as :class:`OptionError`):

    - ``verify``: strategies (a list, or ``"a,b"``) that re-prove each puzzle unique within
      ``check_timeout``; adds a ``problems`` column, null where they agree with the generator.
    - ``rating``: ``"any"`` (default), ``"guess"``, ``"no-guess"`` (adds ``no_guess``) or a
      range on Sudoku Explainer's scale such as ``"4.0..6.0"`` (adds ``human_rating``);
      ``technique``, ``propagation`` and ``te_depth`` filter on the step solver's measures.
      With a filter, ``start`` counts candidates, not kept puzzles.
    - ``variant`` (``"x,windoku"``, ``"killer"``, ...) and ``rules`` (a JSON or TOML rules
      file): every puzzle under those rules; adds ``puzzle_json``, each puzzle with its rules.
    - ``model``: ``"sudoku"`` (default), ``"latin"``, or ``"qwh"``/``"gsp"``: a random Latin
      square or Sudoku solution with ``holes`` cells emptied, spread as ``balance`` says
      (``"none"``, ``"rows"``, ``"full"``); their table is ``index, puzzle, solution, holes``.
    - ``external`` (as in :func:`compare`): outside solvers that re-prove every puzzle after
      the strategies of ``verify`` (name one there to place it), on ``check_timeout``, under
      ``external_memory`` and ``external_cpu``; a puzzle one of them fails is in the table
      with its ``problems``.
    - ``unbiased=True``: Berthier's controlled-bias generator, as ``--unbiased``: from exactly
      uniform grids (boxes 2x2, 2x3, 3x2, 2x4, 4x2, 3x3), cells deleted in a uniformly random
      order until a second solution appears, the last one put back, the puzzle kept only if
      minimal; ``count`` is the minimal puzzles kept, every check runs to its end
      (``check_timeout`` does not apply), and ``attempts_per_grid`` (1 by default: a fresh grid
      per attempt) sets the attempts on each drawn grid. Its table is ``index, puzzle,
      solution, clues, checks, checker``, ``index`` the attempt's; the same seed gives the
      command line's puzzles. It refuses the options that would bias it (``clues``,
      ``minimal``, ``symmetry``, ``rating``, the step solver's filters, ``variant``, ``rules``,
      ``model``, ``holes``, ``verify``, ``external``) and ``start``. A 9x9 run first counts
      every grid (minutes), then draws one per grid (about a second each).

    >>> t = sudolab.generate(2, seed=7, box="2x2")
    >>> sudolab.verify(t["puzzle"].to_pylist())["verified"].to_pylist()
    [True, True]
    """
    if isinstance(verify, str):
        verify = verify.split(",")
    return _table(
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
            size=size,
            verify=None if verify is None else list(verify),
            rating=rating,
            technique=technique,
            propagation=propagation,
            te_depth=te_depth,
            variant=variant,
            rules=None if rules is None else os.fspath(rules),
            model=model,
            holes=holes,
            balance=balance,
            external=_externals(external),
            external_memory=_size(external_memory),
            external_cpu=external_cpu,
            unbiased=unbiased,
            attempts_per_grid=attempts_per_grid,
        )
    )


def diff(
    before: Union[str, os.PathLike], after: Union[str, os.PathLike], seed: int = 1
) -> dict:
    """Compares two JSON reports of the same inputs, as ``sudolab diff``, and returns the diff
    as a dict: ``changes`` (every verdict or count that differs, by puzzle and strategy),
    ``strategies`` (per strategy: paired searches, decided before and after, counter changes,
    and ``ratio``: the geometric mean of the per-puzzle time ratios ``after / before`` on the
    puzzles both runs decided, with its seeded 95% bootstrap interval ``low``/``high`` and
    ``change``: ``slower``, ``faster``, ``unchanged`` or ``too few``), ``warnings`` and the
    two runs' commits. Reports of other inputs raise :class:`OptionError`."""
    return json.loads(_native.diff(os.fspath(before), os.fspath(after), seed))


def run(path: Union[str, os.PathLike], allow_external: bool = False) -> Comparison:
    """Runs an experiment file (the TOML of ``sudolab run``, docs/experiments/README.md) and
    returns its rows, summary, context and problems, as :func:`compare` does; nothing is
    written to disk. Puzzles that cannot be read are skipped and listed in ``input_errors``,
    as the command line reports them and goes on. A file that names outside programs
    (``[[external]]``) is refused unless ``allow_external=True``, as ``--allow-external``:
    their commands are programs this machine runs."""
    parts, name = _native.run(os.fspath(path), allow_external)
    return Comparison(parts, name)


def trace(
    puzzle: Any,
    strategy: Union[str, Sequence[str]] = ("toggle",),
    limit: int = 2,
    max_events: int = 100_000,
    box: Union[None, str, Sequence[int]] = None,
    human: bool = False,
    variant: Optional[str] = None,
) -> Trace:
    """Traces the search of one puzzle by one or more strategies (a list, or names joined by
    ``,``), as ``sudolab trace``: a :class:`Trace`, the table of events, whose ``_repr_html_``
    plays the step-through page inside Jupyter (two or more strategies side by side). Only
    engines that report events can be traced: ``scan``, ``toggle``, ``mrv``, ``dlx-knuth``.
    ``max_events`` bounds each strategy's events (at most 1,500,000 in all, as on the command
    line); ``human=True`` puts beside the searches how a person solves the puzzle (the path
    of easiest steps of ``sudolab steps``); ``variant`` reads the puzzle under a variant's
    rules, and the page draws its extra houses.

    >>> t = sudolab.trace("4..3.....1....2.", ["toggle", "dlx-knuth"])
    >>> t["event"].to_pylist()[:2]
    ['choose', 'try']
    """
    return Trace(
        _native.trace(
            _puzzles(puzzle, "trace"),
            _names(strategy, "strategy"),
            _limit(limit),
            max_events,
            _box(box),
            human,
            variant,
        )
    )
