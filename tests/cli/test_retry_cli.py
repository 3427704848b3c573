"""A command the database gives up for another one's sake (a serialization failure or a
deadlock: ``errors.WriteConflict``) is run again by the CLI, at most 3 times in all, then
refused in the ledger's words (exit 1), on either database. The real deadlock on PostgreSQL is
in tests/integration/test_concurrency.py; here the service is made to give up every time."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.errors import database_error
from ledger.services.core import session
from ledger.services.register import player_views


class Deadlock(Exception):
    """What psycopg raises for a deadlock PostgreSQL broke."""

    sqlstate = "40P01"


def test_a_command_given_up_three_times_is_refused_in_the_ledgers_words(
        ledger_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Engine] = []

    def gives_up(engine: Engine, *pool: object) -> list[player_views.PlayerView]:
        calls.append(engine)
        raise database_error(OperationalError("INSERT ...", {}, Deadlock("deadlock detected")),
                             "the-ledger")

    monkeypatch.setattr(player_views, "list_players", gives_up)
    monkeypatch.setattr(session, "RETRY_PAUSE_SECONDS", 0.01)
    result = CliRunner().invoke(app, ["--db", ledger_db, "player", "list"])
    assert result.exit_code == 1
    assert len(calls) == 3
    assert result.stderr.strip() == (
        "error: another process changed the ledger the-ledger at the same moment, so the "
        "database gave this command up; nothing was written: run it again (tried 3 times)")
