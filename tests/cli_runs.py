"""Running the CLI in a test, as the correction tests do: ``run`` a command on the ledger ``db``
(a SQLite path or a URL), ``ok`` when it must succeed (exit 0), ``data`` for its ``--json``
output, ``ratings`` for a published list's ratings by name, ``actions`` for the audit log's
actions in order."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(db: Path | str, *args: str) -> Result:
    """``ledger --db DB ARGS...`` through Typer's runner; the result, whatever its exit code."""
    return CliRunner().invoke(app, ["--db", str(db), *args])


def ok(db: Path | str, *args: str) -> Result:
    """``run``, asserting exit 0 (the output is in the assertion's message)."""
    result = run(db, *args)
    assert result.exit_code == 0, result.output
    return result


def data(db: Path | str, *args: str) -> dict:  # type: ignore[type-arg]
    """The ``--json`` output of a command that must succeed."""
    return json.loads(ok(db, *args, "--json").stdout)


def ratings(db: Path | str, period: str, *extra: str) -> dict[str, int]:
    """The ratings by name on the list ``ledger list --period PERIOD EXTRA...`` publishes."""
    return {p["name"]: p["rating"] for p in data(db, "list", "--period", period, *extra)["players"]}


def actions(db: Path | str) -> list[str]:
    """The action of every change of the ledger ``db`` (``ledger audit``), oldest first."""
    return [c["action"] for c in data(db, "audit")["changes"]]


def last_changes(db: Path | str, n: int = 1) -> list[tuple[int, str]]:
    """The last ``n`` changes of the ledger ``db`` (``ledger audit``): (number, action), oldest
    first. A change's number is the database's next id: on PostgreSQL a rolled-back write (a
    dry run, a refusal) uses one up, so tests compare with these, not with counted numbers."""
    return [(c["id"], c["action"]) for c in data(db, "audit")["changes"][-n:]]
