"""``ledger db copy --to URL``: a whole ledger copied to another database (SQLite to PostgreSQL
and back), verified before the command says it is done.

The target must be empty: a database with no tables (or a SQLite file that does not exist yet),
or a ledger at the latest revision with no row in any table (``ledger init`` and nothing else).
The copy runs in one transaction on the target, under its write lock: the schema by the same
Alembic revisions ``ledger init`` runs, then every table's rows in the order their foreign keys
need, read from one snapshot of the source; PostgreSQL's sequences are set past the highest id
copied, so the next player or game gets a new id. Before the commit every table is compared
row by row with the source: anything different and nothing is kept. After it the target is read
through the services, as a user would: the player list, every published rating list and the
history of every player who has one must be those of the source, and recomputing every closed
period from the copied facts (``ledger db check``) must find what it finds on the source.

Until that verification has passed the copy is marked unverified, in the target, by one
``unverified_copies`` row written in the copy's transaction and deleted at the end: a copy
killed after its commit is refused by every command (``db.revision``), and not taken for an
empty or a foreign database by the next ``db copy`` into it, which finishes it: when every
row is still the source's it resumes the verification; when not (the source has changed since,
or it was copied from another ledger) it copies again over it, in one transaction (every row
deleted, then copied), and verifies. The report says which (``done``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from sqlalchemy import Connection, Engine, Table, delete, func, insert, inspect, select, text
from sqlalchemy.exc import SQLAlchemyError

from ledger.db import migrate
from ledger.db.engine import ledger_name, make_engine, sqlite_path, use_wal
from ledger.db.models import Base, InitialRating, PeriodResult, UnverifiedCopy
from ledger.db.sequences import reset_sequences
from ledger.errors import LedgerError, database_error
from ledger.services.admin.recompute import check_ledger
from ledger.services.close.periods import list_periods
from ledger.services.core.session import transaction
from ledger.services.core.statistics import analyze_written
from ledger.services.publishing.histories import history
from ledger.services.publishing.lists import rating_list
from ledger.services.register.player_views import list_players

#: Rows read and written at a time.
_BATCH = 5000


@dataclass
class CopyReport:
    """What ``copy_ledger`` copied: the source and target as messages name them (no password),
    the revision, the rows of each table, the sequences set past the highest id (PostgreSQL),
    and what the verification compared through the services: players listed, rating lists,
    closed periods recomputed from the facts (``ledger db check``) and player histories."""

    source: str
    target: str
    revision: str | None
    #: "copied" (into an empty database), "resumed" (the verification of an unverified copy
    #: whose rows were all the source's) or "copied again" (over an unverified copy that
    #: differed: ``differed`` says where)
    done: str = "copied"
    #: the unverified copy found in the target: "SOURCE, copied at YYYY-MM-DD HH:MM:SS UTC"
    earlier: str | None = None
    differed: str | None = None
    rows: dict[str, int] = field(default_factory=dict)
    sequences: list[str] = field(default_factory=list)
    players: int = 0
    rating_lists: int = 0
    histories: int = 0
    periods_recomputed: int = 0


def copy_ledger(source: Engine, to: str) -> CopyReport:
    """Copy the ledger of ``source`` into the empty database ``to`` (path or URL) and verify it;
    or finish an unverified copy in ``to``: resume its verification when its rows are all the
    source's, else copy again over it (``done``).

    Raises ``LedgerError`` (exit 1; ``to`` named without its password) for a target that is not
    empty (its tables, or the rows of a ledger, named) nor an unverified copy, the source
    itself, a source with tables the ledger does not know, a database error on either side
    (``errors.database_error``), and a copy that differs from the source: row by row before the
    commit (nothing kept), or through the services after it (what differs named; the copy
    stays marked unverified). On PostgreSQL the tables it filled are analyzed after the rows'
    commit (``core.statistics.analyze_written``), before the verification reads them.
    """
    target = make_engine(to)
    report = CopyReport(ledger_name(source.url), ledger_name(target.url),
                        migrate.current_revision(source))
    try:
        if report.source == report.target:
            raise LedgerError(f"db copy: {report.target} is the ledger being copied; give "
                              "another database")
        tables = _tables(source)
        report.earlier = _require_empty(target, report.target)
        try:
            if report.earlier is not None:
                report.differed = _first_difference(source, target, tables, report)
            if report.earlier is None or report.differed is not None:
                with source.connect() as reading, target.connect() as writing:
                    _copy(reading, writing, tables, report)
        except SQLAlchemyError as exc:
            raise database_error(exc, report.target) from None
        report.done = ("copied" if report.earlier is None else
                       "resumed" if report.differed is None else "copied again")
        use_wal(target)
        analyze_written(target, report.rows)  # PostgreSQL's statistics, for what reads it next
        _verify_through_services(source, target, report)
        with transaction(target) as session:  # verified: the mark goes
            session.execute(delete(UnverifiedCopy))
    finally:
        target.dispose()
    return report


def _tables(source: Engine) -> list[Table]:
    """The ledger's tables in the order their foreign keys need (``unverified_copies`` left
    out: the mark of a copy, never copied); refuses a source holding a table the ledger does
    not know (it would not be copied)."""
    known = [t for t in Base.metadata.sorted_tables if t.name != UnverifiedCopy.__tablename__]
    with source.connect() as conn:
        present = set(inspect(conn).get_table_names()) - {"alembic_version"}
    unknown = sorted(present - {t.name for t in known} - {UnverifiedCopy.__tablename__})
    if unknown:
        raise LedgerError(f"db copy: the ledger {ledger_name(source.url)} holds tables this "
                          f"version of ledger does not know ({', '.join(unknown)}); nothing "
                          "was copied")
    return known


def _require_empty(target: Engine, name: str) -> str | None:
    """Refuse a target with tables of its own, or a ledger with rows, unless it is an
    unverified copy: then "SOURCE, copied at ..." (``CopyReport.earlier``); None for an empty
    target."""
    path = sqlite_path(target.url)
    if path is not None and not path.exists():
        return None
    try:
        with target.connect() as conn:
            present = sorted(inspect(conn).get_table_names())
            if not present:
                return None
            ledger_tables = {t.name for t in Base.metadata.sorted_tables}
            at = migrate.revision_of(conn)
            if set(present) - {"alembic_version"} != ledger_tables or at != migrate.head_revision():
                listed = ", ".join(present[:5]) + (" ..." if len(present) > 5 else "")
                raise LedgerError(f"db copy: {name} is not empty (it holds tables: {listed}); "
                                  "copy into an empty database")
            copy = conn.execute(select(UnverifiedCopy.source, UnverifiedCopy.copied_at)).first()
            if copy is not None:
                return f"{copy.source}, copied at {str(copy.copied_at)[:19]} UTC"
            filled = [t for t in sorted(ledger_tables)
                      if conn.scalar(select(func.count()).select_from(text(f'"{t}"')))]
    except SQLAlchemyError as exc:
        raise database_error(exc, name) from None
    if filled:
        raise LedgerError(f"db copy: {name} is a ledger with rows already (in "
                          f"{', '.join(filled)}); copy into an empty database")
    return None


def _rows(conn: Connection, table: Table) -> Iterator[tuple[Any, ...]]:
    """Every row of ``table``, by primary key, read ``_BATCH`` at a time."""
    query = select(table).order_by(*table.primary_key.columns)
    # options of this statement only: ``Connection.execution_options`` would change ``conn``
    # for every later statement (a PostgreSQL INSERT run through a server-side cursor fails)
    result = conn.execute(query, execution_options={"stream_results": True, "yield_per": _BATCH})
    for row in result:
        yield tuple(row)


def _copy(reading: Connection, writing: Connection, tables: list[Table],
          report: CopyReport) -> None:
    """The copy itself: one snapshot of the source, one transaction on the target (over an
    unverified copy, ``report.earlier``: its rows deleted first), marked unverified."""
    snapshot = reading.execution_options(ledger_read=True)
    with snapshot.begin(), migrate.migration_transaction(writing):  # the target's write lock
        migrate.upgrade_in(writing)
        if report.earlier is not None:
            for table in reversed(tables):
                writing.execute(delete(table))
            writing.execute(delete(UnverifiedCopy))
        for table in tables:
            names = [c.name for c in table.columns]
            batch: list[dict[str, Any]] = []
            count = 0
            for row in _rows(snapshot, table):
                batch.append(dict(zip(names, row, strict=True)))
                if len(batch) == _BATCH:
                    writing.execute(insert(table), batch)
                    count, batch = count + len(batch), []
            if batch:
                writing.execute(insert(table), batch)
                count += len(batch)
            report.rows[table.name] = count
        report.sequences = reset_sequences(writing, tables)
        for table in tables:
            differs = _difference(snapshot, writing, table)
            if differs is not None:
                where, (theirs, mine) = differs
                raise LedgerError(f"db copy: {where} differs in {report.target} ({theirs!r}, not "
                                  f"{mine!r}); nothing was copied")
        writing.execute(insert(UnverifiedCopy).values(
            id=1, source=report.source, copied_at=dt.datetime.now(dt.UTC).replace(tzinfo=None)))


def _difference(source: Connection, target: Connection,
                table: Table) -> tuple[str, tuple[Any, Any]] | None:
    """Where ``table`` first differs between the two ("row N of TABLE", by primary key) with the
    target's row and the source's there (None for a row one of them has not), or None."""
    for position, (mine, theirs) in enumerate(
            zip_longest(_rows(source, table), _rows(target, table)), start=1):
        if mine != theirs:
            return f"row {position} of {table.name}", (theirs, mine)
    return None


def _first_difference(source: Engine, target: Engine, tables: list[Table],
                      report: CopyReport) -> str | None:
    """Compare the unverified copy in ``target`` with ``source``, table by table, each side
    read in one snapshot: where it first differs ("row N of TABLE"), or None when every row is
    the source's (then ``report.rows`` counts them)."""
    with source.connect() as mine, target.connect() as theirs:
        reading, copied = (c.execution_options(ledger_read=True) for c in (mine, theirs))
        with reading.begin(), copied.begin():
            for table in tables:
                differs = _difference(reading, copied, table)
                if differs is not None:
                    return differs[0]
                report.rows[table.name] = copied.scalar(
                    select(func.count()).select_from(table)) or 0
    return None


def _verify_through_services(source: Engine, target: Engine, report: CopyReport) -> None:
    """Read the copy as a user would and compare it with the source: the player list, every
    published rating list, every player's history."""
    copied = target
    mine, theirs = list_players(source), list_players(copied)
    _same("the player list", mine, theirs, report.target)
    report.players = len(mine)
    for period in list_periods(source):  # each pool's lists (docs/RULES.md §9)
        _same(f"the {period.pool} rating list of {period.period}",
              rating_list(source, period.period, pool=period.pool),
              rating_list(copied, period.period, pool=period.pool), report.target)
        report.rating_lists += 1
    # every closed period recomputed from the copied facts (`ledger db check`): the copy must
    # find what the source finds (nothing, for a sound ledger)
    mine_checked, theirs_checked = check_ledger(source), check_ledger(copied)
    _same("what `ledger db check` recomputes", (mine_checked.checked, mine_checked.differences),
          (theirs_checked.checked, theirs_checked.differences), report.target)
    report.periods_recomputed = len(theirs_checked.checked)
    with transaction(source, write=False) as session:
        rated = sorted(set(session.scalars(select(PeriodResult.player_id)))
                       | set(session.scalars(select(InitialRating.player_id))))
    for player_id in rated:
        _same(f"the history of player #{player_id}", history(source, f"#{player_id}"),
              history(copied, f"#{player_id}"), report.target)
        report.histories += 1


def _same(what: str, mine: object, theirs: object, name: str) -> None:
    if mine != theirs:
        raise LedgerError(f"db copy: {what} read from {name} differs from the source's; the copy "
                          "is kept for inspection, marked unverified: do not use it")
