"""The ledger's words for database errors (``errors.database_error``), the same for the same
situation on SQLite and PostgreSQL; passwords never shown (``errors.hide_passwords``); a given-up
transaction run again a bounded number of times (``services.core.session.retrying``).

The drivers' errors are stood in for by objects carrying what the ledger reads of them:
sqlite3's ``sqlite_errorcode`` and message, psycopg's ``sqlstate`` and ``diag.table_name``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from ledger.db.engine import shown_db
from ledger.errors import LedgerBusy, WriteConflict, database_error, hide_passwords
from ledger.services.core.session import retrying

WHERE = "postgresql+psycopg://ann:***@db.example/ledger"


class SqliteError(Exception):
    """What sqlite3 raises: a message and ``sqlite_errorcode``."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.sqlite_errorcode = code


@dataclass
class Diag:
    table_name: str | None


class PsycopgError(Exception):
    """What psycopg raises: a message, ``sqlstate`` and ``diag``."""

    def __init__(self, message: str, sqlstate: str, table: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate
        self.diag = Diag(table)


def wrapped(orig: Exception, kind: type[Exception] = OperationalError) -> Exception:
    return kind("SELECT 1", {}, orig)  # type: ignore[call-arg]


@pytest.mark.parametrize("orig", [
    PsycopgError("could not serialize access due to concurrent update", "40001"),
    PsycopgError("deadlock detected\nDETAIL: Process 12 waits for ShareLock", "40P01"),
    SqliteError("database is locked", 517),  # SQLITE_BUSY_SNAPSHOT
], ids=["serialization-failure", "deadlock", "sqlite-busy-snapshot"])
def test_a_transaction_the_database_gave_up_is_a_write_conflict(orig: Exception) -> None:
    error = database_error(wrapped(orig), WHERE)
    assert isinstance(error, WriteConflict) and error.exit_code == 1
    assert str(error) == (f"another process changed the ledger {WHERE} at the same moment, so "
                          "the database gave this command up; nothing was written: run it again")


@pytest.mark.parametrize(("sqlite_message", "table", "what"), [
    ("UNIQUE constraint failed: periods.period", "periods", "this period is already closed"),
    ("UNIQUE constraint failed: players.name_key, players.namesake", "players",
     "a player with this name or FIDE id is already registered"),
    ("UNIQUE constraint failed: games.event_id, games.round_key, games.white_id, games.black_id",
     "games", "this game (event, round and players) is already recorded"),
    ("UNIQUE constraint failed: events.name_key, events.start_date", "events",
     "an event of this name and start date is already recorded"),
])
def test_a_natural_key_refusal_says_the_same_on_both_databases(
        sqlite_message: str, table: str, what: str) -> None:
    on_sqlite = database_error(wrapped(SqliteError(sqlite_message, 2067), IntegrityError),
                               "club.db")
    on_postgres = database_error(wrapped(PsycopgError(
        f'duplicate key value violates unique constraint "uq_{table}"', "23505", table),
        IntegrityError), "club.db")
    assert str(on_sqlite) == str(on_postgres) == (
        f"the ledger club.db: {what} (another process may have written it at the same moment); "
        "nothing was written")


def test_a_writer_past_the_busy_timeout_is_busy_on_both_databases() -> None:
    on_sqlite = database_error(wrapped(SqliteError("database is locked", 5)), "club.db")
    on_postgres = database_error(wrapped(PsycopgError(
        "canceling statement due to lock timeout", "55P03")), "club.db")
    assert isinstance(on_sqlite, LedgerBusy) and isinstance(on_postgres, LedgerBusy)
    assert str(on_sqlite) == str(on_postgres) == (
        "another process is writing to the ledger club.db; nothing was written: try again when "
        "it has finished")


@pytest.mark.parametrize(("text", "shown"), [
    ("postgresql+psycopg://ann:s3cret@db:5432/ledger",
     "postgresql+psycopg://ann:***@db:5432/ledger"),
    ("postgresql://ann:p@ss@word@db/ledger", "postgresql://ann:***@db/ledger"),
    ("--db=postgresql://ann:s3cret@db/ledger", "--db=postgresql://ann:***@db/ledger"),
    ("host=db user=ann password=s3cret dbname=ledger", "host=db user=ann password=*** dbname=ledger"),
    ("password = 'two words' port=5", "password = *** port=5"),
    ("postgresql://db/ledger and club.db", "postgresql://db/ledger and club.db"),
    ("sqlite:////srv/club.db", "sqlite:////srv/club.db"),
    # issue 22 §3: every form a URL takes
    ("postgresql://ann:two words@db/ledger", "postgresql://ann:***@db/ledger"),
    ("'postgresql://ann:two words@db/ledger'", "'postgresql://ann:***@db/ledger'"),
    ("postgresql://ann:two%20w%40rds@db/ledger", "postgresql://ann:***@db/ledger"),
    ("postgresql://ann:a/b?c#d@db/ledger", "postgresql://ann:***@db/ledger"),
    ("postgresql://a b:s3cret@db/ledger", "postgresql://a b:***@db/ledger"),
    ("postgresql://ann@db/ledger?password=s3cret", "postgresql://ann@db/ledger?password=***"),
    ("postgresql://ann@db/ledger?sslmode=require&password=s3cret&port=5",
     "postgresql://ann@db/ledger?sslmode=require&password=***&port=5"),
    ("postgresql://ann@db/ledger?password=two words#and@more",
     "postgresql://ann@db/ledger?password=***"),
    ("postgresql://ann@db/ledger?password=two+w%40rds&x=1",
     "postgresql://ann@db/ledger?password=***&x=1"),
    ("postgresql://ann@db/ledger?PASSWORD=s3cret", "postgresql://ann@db/ledger?PASSWORD=***"),
    ("postgresql://ann@db/ledger?sslpassword=s3cret", "postgresql://ann@db/ledger?sslpassword=***"),
    ("ledger '--db=postgresql://ann:two words@db/x' player list",
     "ledger '--db=postgresql://ann:***@db/x' player list"),
])
def test_passwords_are_hidden_wherever_a_message_quotes_them(text: str, shown: str) -> None:
    assert hide_passwords(text) == shown


def test_a_driver_message_quoting_a_url_loses_its_password() -> None:
    orig = PsycopgError('invalid connection option "x" in postgresql://ann:s3cret@db/x', "08000")
    error = database_error(wrapped(orig), shown_db("postgresql://ann:s3cret@db/x"))
    assert "s3cret" not in str(error)
    assert str(error) == ("database error on the ledger postgresql://ann:***@db/x: invalid "
                          'connection option "x" in postgresql://ann:***@db/x')


def test_retrying_runs_a_given_up_transaction_again_and_then_gives_up_saying_so() -> None:
    calls: list[int] = []

    def twice_then_fine() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise WriteConflict("another process changed the ledger at the same moment")
        return "done"

    assert retrying(twice_then_fine, pause=0) == "done"
    assert len(calls) == 3

    calls.clear()

    def never() -> str:
        calls.append(1)
        raise WriteConflict("another process changed the ledger at the same moment")

    with pytest.raises(WriteConflict) as gave_up:
        retrying(never, pause=0)
    assert len(calls) == 3
    assert str(gave_up.value) == ("another process changed the ledger at the same moment "
                                  "(tried 3 times)")

    calls.clear()

    def refused() -> str:
        calls.append(1)
        raise LedgerBusy("another process is writing")

    with pytest.raises(LedgerBusy):  # not a conflict: never run again
        retrying(refused, pause=0)
    assert len(calls) == 1
