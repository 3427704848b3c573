"""The real data files the tests read, all inside the repository: ``tests/data`` (files only the
tests use) and ``examples/data`` (the files of the README's examples, read by tests too). Each
folder's README.md gives every file's source and licence; a file is in one folder only."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_DATA = ROOT / "tests" / "data"
EXAMPLE_DATA = ROOT / "examples" / "data"
FOLDERS = (TEST_DATA, EXAMPLE_DATA)


def data_file(name: str) -> Path:
    """The path of the data file ``name``, in whichever folder holds it; fails the test loudly
    (never skips it) when no folder does."""
    for folder in FOLDERS:
        path = folder / name
        if path.is_file():
            return path
    pytest.fail(f"data file missing: {name} (neither in {TEST_DATA} nor in {EXAMPLE_DATA}; "
                "see the README.md of each)", pytrace=False)
