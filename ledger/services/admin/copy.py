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
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from sqlalchemy import Connection, Engine, Table, func, insert, inspect, select, text
from sqlalchemy.exc import SQLAlchemyError

from ledger.db import migrate
from ledger.db.engine import ledger_name, make_engine, sqlite_path, use_wal
from ledger.db.models import Base, InitialRating, PeriodResult
from ledger.db.sequences import reset_sequences
from ledger.errors import LedgerError, database_error
from ledger.services.admin.recompute import check_ledger
from ledger.services.close.periods import list_periods
from ledger.services.core.session import transaction
from ledger.services.publishing.lists import history, rating_list
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
    rows: dict[str, int] = field(default_factory=dict)
    sequences: list[str] = field(default_factory=list)
    players: int = 0
    rating_lists: int = 0
    histories: int = 0
    periods_recomputed: int = 0


def copy_ledger(source: Engine, to: str) -> CopyReport:
    """Copy the ledger of ``source`` into the empty database ``to`` (path or URL) and verify it.

    Raises ``LedgerError`` (exit 1; ``to`` named without its password) for a target that is not
    empty (its tables, or the rows of a ledger, named), the source itself, a source with tables
    the ledger does not know, a database error on either side (``errors.database_error``), and a
    copy that differs from the source: row by row before the commit (nothing kept), or through
    the services after it (what differs named).
    """
    target = make_engine(to)
    report = CopyReport(ledger_name(source.url), ledger_name(target.url),
                        migrate.current_revision(source))
    try:
        if report.source == report.target:
            raise LedgerError(f"db copy: {report.target} is the ledger being copied; give "
                              "another database")
        tables = _tables(source)
        _require_empty(target, report.target)
        try:
            with source.connect() as reading, target.connect() as writing:
                _copy(reading, writing, tables, report)
        except SQLAlchemyError as exc:
            raise database_error(exc, report.target) from None
        use_wal(target)
        _verify_through_services(source, target, report)
    finally:
        target.dispose()
    return report


def _tables(source: Engine) -> list[Table]:
    """The ledger's tables in the order their foreign keys need; refuses a source holding a
    table the ledger does not know (it would not be copied)."""
    known = Base.metadata.sorted_tables
    with source.connect() as conn:
        present = set(inspect(conn).get_table_names()) - {"alembic_version"}
    unknown = sorted(present - {t.name for t in known})
    if unknown:
        raise LedgerError(f"db copy: the ledger {ledger_name(source.url)} holds tables this "
                          f"version of ledger does not know ({', '.join(unknown)}); nothing "
                          "was copied")
    return known


def _require_empty(target: Engine, name: str) -> None:
    """Refuse a target with tables of its own, or a ledger with rows."""
    path = sqlite_path(target.url)
    if path is not None and not path.exists():
        return
    try:
        with target.connect() as conn:
            present = sorted(inspect(conn).get_table_names())
            if not present:
                return
            ledger_tables = {t.name for t in Base.metadata.sorted_tables}
            at = migrate.revision_of(conn)
            if set(present) - {"alembic_version"} != ledger_tables or at != migrate.head_revision():
                listed = ", ".join(present[:5]) + (" ..." if len(present) > 5 else "")
                raise LedgerError(f"db copy: {name} is not empty (it holds tables: {listed}); "
                                  "copy into an empty database")
            filled = [t for t in sorted(ledger_tables)
                      if conn.scalar(select(func.count()).select_from(text(f'"{t}"')))]
    except SQLAlchemyError as exc:
        raise database_error(exc, name) from None
    if filled:
        raise LedgerError(f"db copy: {name} is a ledger with rows already (in "
                          f"{', '.join(filled)}); copy into an empty database")


def _rows(conn: Connection, table: Table) -> Iterator[tuple[Any, ...]]:
    """Every row of ``table``, by primary key, read ``_BATCH`` at a time."""
    query = select(table).order_by(*table.primary_key.columns)
    result = conn.execution_options(stream_results=True, yield_per=_BATCH).execute(query)
    for row in result:
        yield tuple(row)


def _copy(reading: Connection, writing: Connection, tables: list[Table],
          report: CopyReport) -> None:
    """The copy itself: one snapshot of the source, one transaction on the target."""
    snapshot = reading.execution_options(ledger_read=True)
    with snapshot.begin(), migrate.migration_transaction(writing):  # the target's write lock
        migrate.upgrade_in(writing)
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
            _compare_rows(snapshot, writing, table, report.target)


def _compare_rows(source: Connection, target: Connection, table: Table, name: str) -> None:
    """Raise ``LedgerError`` at the first row of ``table`` the target holds otherwise."""
    for position, (mine, theirs) in enumerate(
            zip_longest(_rows(source, table), _rows(target, table)), start=1):
        if mine != theirs:
            raise LedgerError(f"db copy: row {position} of {table.name} differs in {name} "
                              f"({theirs!r}, not {mine!r}); nothing was copied")


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
                          "is kept for inspection, but do not use it")
