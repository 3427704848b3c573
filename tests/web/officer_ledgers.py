"""The ledger the officer's web tests serve: the Tata Steel Masters 2022
(``examples/data/tata_steel_masters_2022.pgn``, imported with ``--register-players``; 2022-01
left open), built once per run (``tata_open``) and copied for each test (``copy_for_test``);
and the CLI calls the tests make beside the web (``cli``), the list as ``ledger list --json``
gives it (``listed``, ``ratings``)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from typing import Any

import pytest
from data_files import data_file
from example_ledgers import copy_of
from ledgers import Server
from typer.testing import CliRunner

from ledger.cli.app import app

_BUILT: dict[str, str] = {}


def cli(db: str, *args: str) -> str:
    """``ledger --db DB ARGS...`` in this process, asserted to succeed; its standard output."""
    result = CliRunner().invoke(app, ["--db", db, *args])
    assert result.exit_code == 0, (args, result.output, result.stderr)
    return result.stdout


def tata_open(server: Server | None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Tata Steel ledger with 2022-01 open, built on first use in this run."""
    if "tata" not in _BUILT:
        db = (str(tmp_path_factory.mktemp("tata-open") / "tata.db") if server is None
              else server.ledger())
        cli(db, "init")
        cli(db, "import", str(data_file("tata_steel_masters_2022.pgn")), "--register-players",
            "--quiet")
        _BUILT["tata"] = db
    return _BUILT["tata"]


def copy_for_test(db: str, new_ledger: Callable[[str], str], name: str) -> str:
    """A copy of the ledger ``db`` for one test: the SQLite file copied over a new one, else
    ``db copy`` into a new empty ledger (``new_ledger``: its schema made already, the copy
    does not migrate it)."""
    to = new_ledger(name)
    if "://" in db:
        return copy_of(db, to)
    shutil.copyfile(db, to)
    return to


def listed(db: str) -> dict[str, Any]:
    """``ledger list --json`` of ``db``: the current standard list."""
    shown: dict[str, Any] = json.loads(cli(db, "list", "--json"))
    return shown


def ratings(db: str) -> dict[str, int]:
    """Name -> rating on the current standard list of ``db``."""
    return {p["name"]: p["rating"] for p in listed(db)["players"]}
