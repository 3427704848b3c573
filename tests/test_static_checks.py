"""Lint and types as part of the suite (docs/DESIGN.md: ruff everywhere, mypy with strict
rules for ledger/rules, ledger/domain.py and ledger/formats as configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          check=False)


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "ledger", "tests", "migrations", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing() -> None:
    result = _run("mypy", "ledger")
    assert result.returncode == 0, result.stdout + result.stderr
