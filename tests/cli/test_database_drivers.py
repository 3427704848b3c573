"""A database URL whose driver is not installed names that driver and how to install it, without
assuming PostgreSQL (issue 9, item 6: ``--db mysql://x`` said "for PostgreSQL: pip install
..."). Exit 1, nothing made."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli.app import app


def missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


@pytest.mark.parametrize(("url", "module", "install"), [
    ("mysql://user@host/club", "MySQLdb", "pip install mysqlclient"),
    ("mysql+pymysql://user@host/club", "pymysql", "pip install PyMySQL"),
    ("oracle://user@host/club", "oracledb", "pip install oracledb"),
])
def test_another_databases_missing_driver_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    url: str, module: str, install: str) -> None:
    if not missing(module):
        pytest.skip(f"{module} is installed here")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["--db", url, "player", "list"])
    assert result.exit_code == 1, (result.exit_code, result.output)
    message = " ".join(result.stderr.split())
    assert f"the Python module {module} is not installed" in message, message
    assert install in message, message
    assert "for PostgreSQL" not in message and "psycopg" not in message, message
    assert "tested on SQLite and PostgreSQL" in message, message
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_postgresqls_missing_driver_names_the_ledgers_extra(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # The test extras install psycopg: hide it, as on a machine without it (None in
    # sys.modules makes ``import psycopg`` fail as a missing module does).
    monkeypatch.setitem(sys.modules, "psycopg", None)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["--db", "postgresql+psycopg://u@h/club", "init"])
    assert result.exit_code == 1, (result.exit_code, result.output)
    message = " ".join(result.stderr.split())
    assert "the Python module psycopg is not installed" in message, message
    assert "pip install 'psycopg[binary]'" in message, message
    assert "tested on" not in message
