"""Shared fixtures: the repository root and the command-line binary built from it."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    """The release binary of this worktree (`cargo build --release` at the root), or
    $SUDOLAB_BIN. Missing, it is built: the parity tests compare against it, never skip."""
    path = pathlib.Path(os.environ.get("SUDOLAB_BIN", ROOT / "target" / "release" / "sudolab"))
    if not path.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    assert path.exists(), f"{path}: no sudolab binary (cargo build --release)"
    return path
