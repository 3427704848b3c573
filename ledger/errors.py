"""Errors the ledger raises, each carrying the CLI exit code it maps to.

No layer below the CLI prints or exits: it raises one of these, and ``ledger.cli`` turns it into a
message on stderr and the exit code. Exit codes (shared/DESIGN.md, Conventions): 1 refused by the
ledger, 2 usage, 3 import rejected, 4 the database needs ``ledger init``.
"""

from __future__ import annotations

import datetime as dt
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


class NeedsInit(LedgerError):
    """The database is missing or behind the latest schema revision: run ``ledger init`` (exit 4)."""

    exit_code = 4


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
    or in the same event with a round against one without (``services.games.Lookalikes``):
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


def database_reason(exc: Exception) -> str:
    """The first line of what the database driver said (SQLAlchemy wraps it as ``exc.orig``)."""
    return str(getattr(exc, "orig", None) or exc).splitlines()[0]


#: SQLite primary result codes (https://www.sqlite.org/rescode.html) the ledger words itself.
_SQLITE_BUSY, _SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 5, 8, 14, 26
#: PostgreSQL SQLSTATEs: lock_not_available, read_only_sql_transaction, insufficient_privilege.
_PG_BUSY, _PG_READ_ONLY, _PG_DENIED = "55P03", "25006", "42501"


def database_error(exc: Exception, where: str | None) -> LedgerError:
    """The ledger's own words for the database error ``exc`` (SQLAlchemy's, or the driver's
    sqlite3 / psycopg error) met on the ledger ``where`` (its file or URL; None: unnamed). The
    one place a database error becomes a message: every service transaction, opening and
    ``ledger init`` raise what this returns.

    Returns ``LedgerBusy`` when another process held the write lock past the busy timeout
    (SQLite ``SQLITE_BUSY``, PostgreSQL ``55P03``); ``ReadOnlyLedger`` for a read-only file or
    database (``SQLITE_READONLY``, ``25006``) or a user without the right (``42501``); else a
    ``LedgerError`` with the driver's first line (a file that is not a database, one that
    cannot be opened). Each says nothing was written: a service runs in one transaction.
    """
    orig = getattr(exc, "orig", None) or exc
    reason = database_reason(exc)
    code = getattr(orig, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    state = getattr(orig, "sqlstate", None)
    ledger = "the ledger" if where is None else f"the ledger {where}"
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
