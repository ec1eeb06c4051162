"""Type stubs of the Rust extension `sudolab._native` (the public API is in `sudolab`)."""

from os import PathLike
from typing import Any, Optional, Union

__version__: str
DEFAULT_VERIFIERS: list[str]

# The tables are arro3-style objects with __arrow_c_stream__; `sudolab.Table` wraps them.
_ArrowTable = Any
# rows, problems, input errors, interrupted, the summary and context as JSON text
_Comparison = tuple[_ArrowTable, _ArrowTable, list[str], bool, str, str]
_Duration = Union[None, float, int, str]

# A registered strategy's name, or a function (puzzle, limit) -> solutions with its name.
_Strategy = Union[str, tuple[str, Any]]
# "NAME=COMMAND" (run by sh -c), or a name and an argument vector run as given.
_External = Union[str, tuple[str, list[str]]]

def experiment(
    puzzles: Any,
    strategies: list[_Strategy],
    limit: int,
    timeout: _Duration = None,
    max_nodes: Optional[int] = None,
    jobs: Optional[int] = None,
    order: str = "engine",
    box: Optional[str] = None,
    repeat: int = 1,
    warmup: int = 0,
    solutions: bool = False,
    shard: Optional[str] = None,
    report: list[str] = ...,
    baseline: Optional[str] = None,
    clock: str = "cpu",
    sample: Optional[int] = None,
    seed: int = 1,
    expect_counts: Optional[str] = None,
    expect_solutions: Optional[str] = None,
    command: str = "",
    unique: bool = False,
    one_engine: bool = False,
    variant: Optional[str] = None,
    randomize: Optional[int] = None,
    restarts: Optional[str] = None,
    budget: Optional[int] = None,
    external: list[_External] = ...,
    plots: Optional[str] = None,
    external_memory: Optional[str] = None,
    external_cpu: _Duration = None,
) -> _Comparison: ...
def run(
    path: Union[str, PathLike[str]], allow_external: bool = False
) -> tuple[_Comparison, str]: ...
def read(
    paths: list[Union[str, PathLike[str]]], format: str = "auto", box: Optional[str] = None
) -> _ArrowTable: ...
def read_lines(lines: Any, box: Optional[str] = None) -> _ArrowTable: ...
def strategies() -> _ArrowTable: ...
def strategy_names() -> list[str]: ...
def verify(
    puzzles: Any,
    strategies: list[str],
    timeout: _Duration = None,
    jobs: Optional[int] = None,
    box: Optional[str] = None,
    shard: Optional[str] = None,
    variant: Optional[str] = None,
    certify: Optional[str] = None,
    external: list[_External] = ...,
    external_memory: Optional[str] = None,
    external_cpu: _Duration = None,
) -> _ArrowTable: ...
def generate(
    count: int,
    seed: int,
    box: Optional[str] = None,
    clues: Optional[int] = None,
    minimal: bool = False,
    symmetry: str = "none",
    checker: str = "auto",
    check_timeout: _Duration = None,
    start: int = 0,
    jobs: Optional[int] = None,
    size: int = 9,
    verify: Optional[list[str]] = None,
    rating: str = "any",
    technique: Optional[str] = None,
    propagation: Optional[str] = None,
    te_depth: Optional[int] = None,
    variant: Optional[str] = None,
    rules: Optional[str] = None,
    model: str = "sudoku",
    holes: Optional[int] = None,
    balance: str = "none",
    external: list[_External] = ...,
    external_memory: Optional[str] = None,
    external_cpu: _Duration = None,
    unbiased: bool = False,
    attempts_per_grid: int = 1,
) -> _ArrowTable: ...
def trace(
    puzzle: Any,
    strategies: list[str],
    limit: int = 2,
    max_events: int = 100000,
    box: Optional[str] = None,
    human: bool = False,
    variant: Optional[str] = None,
) -> tuple[str, _ArrowTable, list[str]]: ...
def column(table: _ArrowTable, name: str) -> list[Any]: ...
def schema(table: _ArrowTable) -> list[tuple[str, str]]: ...
def rust_baseline(puzzles: Any, strategy: str = "fast", jobs: Optional[int] = None) -> float: ...
def panic_on_worker() -> None: ...
