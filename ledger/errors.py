"""Errors the ledger raises, each carrying the CLI exit code it maps to.

No layer below the CLI prints or exits: it raises one of these, and ``ledger.cli`` turns it into a
message on stderr and the exit code. Exit codes (docs/DESIGN.md, Conventions): 1 refused by the
ledger, 2 usage, 3 import rejected, 4 the database needs ``ledger init``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass


def shown(text: str, limit: int = 60) -> str:
    """``text`` as an error message quotes it (``repr``), cut to ``limit`` characters with its
    length when longer, so that a pasted page does not flood the terminal:
    ``shown("x" * 1000)`` -> ``'xxx...xxx'... (1000 characters)``."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class LedgerError(Exception):
    """Base class: the ledger refused the request (exit code 1)."""

    exit_code = 1


class NotFound(LedgerError):
    """A named player, event or period does not exist (exit code 1)."""


class Ambiguous(LedgerError):
    """A player reference matches more than one player (exit code 1)."""


class InvalidInput(LedgerError):
    """A value given on the command line is malformed; the message names the field (exit code 1)."""


class CloseEventName(InvalidInput):
    """An event name that names no recorded event but is a close spelling of one's (a likely
    typo), not said to be a new event (``--new-event``); the message names the field ``event``
    and the events it may mean (exit code 1; an import's problem, exit code 3)."""


class UsageError(LedgerError):
    """Command-line arguments that cannot be read; the message lists each one with its position
    and its text (exit code 2, like any other usage error)."""

    exit_code = 2


class PeriodError(LedgerError):
    """A period cannot be closed, or a date falls inside a closed period (exit code 1)."""


class ReadOnlyLedger(LedgerError):
    """The ledger cannot be written: a read-only file, folder or database (exit code 1)."""


class LedgerBusy(LedgerError):
    """Another process held the ledger's write lock for longer than the wait allows (exit 1)."""


class WriteConflict(LedgerError):
    """The database gave up a transaction because another one changed the same rows at the same
    time (PostgreSQL's serialization failure 40001 or deadlock 40P01): nothing was written, and
    running it again is safe (``services.core.session.retrying`` does, a bounded number of times)."""


class NeedsInit(LedgerError):
    """The database is missing or behind the latest schema revision: run ``ledger init`` (exit 4)."""

    exit_code = 4


#: A problem's severity: an error blocks the import, a warning does not.
ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Problem:
    """One problem found in an input file.

    Attributes: ``file`` (path as given), ``line`` (1-based, or None when the problem is not tied to
    a line), ``field`` (the tag, column or field name), ``message`` (what is wrong), ``severity``
    ("error" blocks the import, "warning" does not).
    """

    file: str
    line: int | None
    field: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.severity}: {self.field}: {self.message}"


@dataclass(frozen=True)
class SimilarGame:
    """A game of an input file that looks like a game the ledger has recorded, or another game
    of the same file: the same two players (either colours) and result, on the same date in
    another event (or one of them without an event), on a day within the other's event dates,
    or in the same event with a round against one without (``services.register.lookalikes.Lookalikes``):
    most likely the same game from a second source.

    The file's game: ``line`` (1-based), ``white``, ``black`` (names as the ledger has them),
    ``date``, ``result`` (``Result`` value, White's point of view), ``event`` and ``round`` (as
    the file writes them; None when it gives none). The game it resembles: a recorded one,
    ``game_id``, ``recorded_event_id`` and ``recorded_event`` (None: no event),
    ``recorded_round`` (as recorded); or a game of the file (``game_id`` and
    ``recorded_event_id`` None, ``earlier_line`` its first line, ``recorded_event`` and
    ``recorded_round`` as the file writes them). ``why``: the rule, as the message says it.
    """

    line: int
    white: str
    black: str
    date: dt.date
    result: str
    event: str | None
    round: str | None
    game_id: int | None
    recorded_event_id: int | None
    recorded_event: str | None
    recorded_round: str | None
    why: str = ""
    earlier_line: int | None = None


class ImportRejected(LedgerError):
    """An import file has errors; nothing was written (exit code 3).

    ``problems`` holds every problem found (errors and warnings), each with file, line and field;
    ``similar`` the file's games refused as likely duplicates of recorded ones (each also one of
    the ``problems``).
    """

    exit_code = 3

    def __init__(self, message: str, problems: list[Problem],
                 similar: Sequence[SimilarGame] = ()) -> None:
        super().__init__(message)
        self.problems = problems
        self.similar = list(similar)


#: The password of a URL's user information: from ``scheme://user:`` to the last ``@`` of the
#: line, so that a password holding ``@``, blanks or ``/`` (written as typed, not ``%40``) is
#: hidden whole; a line naming an address after a URL loses the text between (never less than
#: the password).
_URL_PASSWORD = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^:/?#@\n]*:)[^\n]*(@)")
#: A ``password=`` (or ``sslpassword=``) parameter of a URL's query: to the next ``&`` or the
#: end of the line (blanks and ``#`` are part of a value SQLAlchemy reads).
_QUERY_PASSWORD = re.compile(r"([?&](?:ssl)?password=)[^&\n]*", re.IGNORECASE)
#: A ``password`` keyword of a libpq connection string (not a URL's query parameter), its value
#: quoted or not.
_CONNINFO_PASSWORD = re.compile(r"((?<![?&])\b(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)",
                                re.IGNORECASE)


def hide_passwords(text: str) -> str:
    """``text`` with every password a database URL or connection string in it carries replaced
    by ``***``, in every form a URL takes: the user information (``postgresql://ann:s3cret@db/x``
    -> ``postgresql://ann:***@db/x``; a password written with ``@``, blanks or ``/`` as typed, or
    URL-quoted: ``%40``, ``%20``), a query parameter (``?password=s3cret&sslmode=require`` ->
    ``?password=***&sslmode=require``; ``sslpassword`` too; quoted or not, blanks included) and a
    libpq keyword (``password='two words'`` -> ``password=***``). The one function that masks a
    password: every message, JSON value, log line and audit command line that may hold a URL
    (``db.engine.shown_db``, ``db.engine.ledger_name``, the command line an ``Actor`` records,
    ``database_error``) passes through it. Never raises."""
    text = _URL_PASSWORD.sub(r"\1***\2", text)
    text = _QUERY_PASSWORD.sub(r"\1***", text)
    return _CONNINFO_PASSWORD.sub(r"\1***", text)


def database_reason(exc: Exception) -> str:
    """The first line of what the database driver said (SQLAlchemy wraps it as ``exc.orig``),
    without any password in it (``hide_passwords``)."""
    lines = str(getattr(exc, "orig", None) or exc).splitlines()
    return hide_passwords(lines[0] if lines else type(exc).__name__)


#: SQLite primary result codes (https://www.sqlite.org/rescode.html) the ledger words itself.
_SQLITE_BUSY, _SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 5, 8, 14, 26
#: SQLite extended codes: a read transaction of a WAL database that may no longer write because
#: another connection wrote since its snapshot (the counterpart of a serialization failure);
#: a UNIQUE or PRIMARY KEY constraint.
_SQLITE_BUSY_SNAPSHOT, _SQLITE_UNIQUE, _SQLITE_PRIMARYKEY = 517, 2067, 1555
#: PostgreSQL SQLSTATEs: lock_not_available, read_only_sql_transaction, insufficient_privilege,
#: serialization_failure, deadlock_detected, unique_violation.
_PG_BUSY, _PG_READ_ONLY, _PG_DENIED = "55P03", "25006", "42501"
_PG_CONFLICTS, _PG_UNIQUE = ("40001", "40P01"), "23505"

#: What the row a unique constraint of each table refused stands for (the natural keys).
_UNIQUE_ROWS = {
    "players": "a player with this name or FIDE id is already registered",
    "events": "an event of this name and start date is already recorded",
    "games": "this game (event, round and players) is already recorded",
    "periods": "this period is already closed",
    "imported_files": "this file has already been imported",
}
_SQLITE_UNIQUE_TABLE = re.compile(r"UNIQUE constraint failed: (\w+)\.")


def _unique_table(orig: object, code: int | None, state: str | None) -> str | None:
    """The table whose unique constraint (a natural key) refused a row, or None when ``orig``
    is not such a refusal: PostgreSQL names it (``diag.table_name``), SQLite in its message."""
    if state == _PG_UNIQUE:
        diag = getattr(orig, "diag", None)
        return getattr(diag, "table_name", None) or ""
    if code in (_SQLITE_UNIQUE, _SQLITE_PRIMARYKEY):
        found = _SQLITE_UNIQUE_TABLE.search(str(orig))
        return found.group(1) if found else ""
    return None


def database_error(exc: Exception, where: str | None) -> LedgerError:
    """The ledger's own words for the database error ``exc`` (SQLAlchemy's, or the driver's
    sqlite3 / psycopg error) met on the ledger ``where`` (its file or URL; None: unnamed). The
    one place a database error becomes a message: every service transaction, opening and
    ``ledger init`` raise what this returns.

    Returns ``WriteConflict`` for a transaction the database gave up because of another one
    (PostgreSQL ``40001``, ``40P01``; SQLite ``SQLITE_BUSY_SNAPSHOT``), which may be run again;
    a refusal by a natural key's unique constraint in words naming what exists already (the
    same on both databases: the loser of two closes hears "this period is already closed");
    ``LedgerBusy`` when another process held the write lock past the busy timeout
    (SQLite ``SQLITE_BUSY``, PostgreSQL ``55P03``); ``ReadOnlyLedger`` for a read-only file or
    database (``SQLITE_READONLY``, ``25006``) or a user without the right (``42501``); else a
    ``LedgerError`` with the driver's first line (a file that is not a database, one that
    cannot be opened). Each says nothing was written: a service runs in one transaction.
    No message shows a password (``hide_passwords``).
    """
    orig = getattr(exc, "orig", None) or exc
    reason = database_reason(exc)
    code = getattr(orig, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    state = getattr(orig, "sqlstate", None)
    where = hide_passwords(where) if where is not None else None
    ledger = "the ledger" if where is None else f"the ledger {where}"
    if code == _SQLITE_BUSY_SNAPSHOT or state in _PG_CONFLICTS:
        return WriteConflict(f"another process changed {ledger} at the same moment, so the "
                             "database gave this command up; nothing was written: run it again")
    unique = _unique_table(orig, code, state)
    if unique is not None:
        what = _UNIQUE_ROWS.get(unique, f"a row of {unique or 'the ledger'} must be unique")
        return LedgerError(f"{ledger}: {what} (another process may have written it at the same "
                           "moment); nothing was written")
    if primary == _SQLITE_BUSY or state == _PG_BUSY:
        return LedgerBusy(f"another process is writing to {ledger}; nothing was written: try "
                          "again when it has finished")
    if primary == _SQLITE_READONLY or state == _PG_READ_ONLY:
        return ReadOnlyLedger(f"{ledger} is read-only ({reason}): nothing was written")
    if state == _PG_DENIED:
        return ReadOnlyLedger(f"{ledger}: the database user may not do this ({reason}): "
                              "nothing was written")
    if primary == _SQLITE_NOTADB:
        return LedgerError(f"{where or 'the ledger'} is not a SQLite database, or it is "
                           f"damaged ({reason})")
    if primary == _SQLITE_CANTOPEN:
        return LedgerError(f"cannot open {ledger}: {reason}")
    return LedgerError(f"database error on {ledger}: {reason}")
