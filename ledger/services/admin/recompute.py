"""Recomputing stored results from the facts, and ``ledger db check`` (docs/CORRECTIONS.md §4).

``recompute(session, period, revision)`` rates ``period`` with the facts as of the change that
computed ``revision`` (``services.core.facts.Facts``), the current revisions of the earlier periods and
the revision's own rule edition, through the same code as the close (``services.close.rating``) but
with the per-player reference rules (``rules.period.rate_period``) where the close rates from
integer rows (``rules.period_rows``), and returns every derived row it gives: so ``db check``
also checks that both ways agree. ``check_ledger`` runs the database's integrity check, then
checks the audit log's chain and the lists' digests (``audit_chain``), and compares each closed
period's current revision with its recomputation, value by value.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ledger.db.audit_pack import unpack
from ledger.db.engine import sqlite_path
from ledger.db.models import PeriodRevision, RatingPeriod
from ledger.domain import STANDARD, Period, RatingPool, parse_pool
from ledger.errors import NotFound
from ledger.rules.editions import Edition
from ledger.services.admin.audit_chain import ChainReport, check_chain
from ledger.services.close.rating import (
    AUDIT_COLUMNS,
    COLUMNS,
    DERIVED,
    Rated,
    derived_rows,
    derived_tuples,
    rate,
    unpacked_audits,
)
from ledger.services.core.facts import Facts
from ledger.services.core.session import transaction

#: Rows of every derived table: table name -> rows as dicts of column values.
Rows = dict[str, list[dict[str, Any]]]


def recompute(session: Session, period: Period, revision: int,
              pool: RatingPool = STANDARD) -> Rows:
    """Every derived row ``revision`` of ``period`` in ``pool`` should hold, computed afresh
    from the facts as of its change with the reference rules (``rate(..., reference=True)``).
    Raises ``NotFound`` when the period has no such revision in that pool."""
    return derived_rows(_rated(session, period, revision, pool), revision)


def _rated(session: Session, period: Period, revision: int, pool: RatingPool) -> Rated:
    """``rate(..., reference=True)`` of ``period`` as ``revision`` was computed (``recompute``);
    raises ``NotFound`` as it does."""
    stored = session.get(PeriodRevision, (str(period), pool, revision))
    if stored is None:
        raise NotFound(f"period {period} has no revision {revision} in the {pool} pool")
    return rate(session, period, Edition(stored.edition), Facts(as_of=stored.change_id),
                parse_pool(stored.pool), reference=True)


def stored_rows(session: Session, period: Period, revision: int,
                pool: RatingPool = STANDARD) -> Rows:
    """Every derived row stored for ``revision`` of ``period`` in ``pool`` (one query per
    table), shaped as ``derived_rows`` gives them: the packed ``period_audits`` unpacked, one
    dict per game side (``rating.unpacked_audits``), so a test compares the audit value by
    value (``db check`` compares tuples a table at a time: ``table_differences``)."""
    rows: Rows = {table: [dict(zip(COLUMNS[table], r, strict=True)) for r in
                          _stored_tuples(session, period, revision, pool, table)]
                  for table in DERIVED}
    rows["period_audits"] = [side for row in rows["period_audits"] for side in _sides_of(row)]
    return rows


def _sides_of(row: dict[str, Any]) -> list[dict[str, Any]]:
    """One stored ``period_audits`` row as one dict per game side; bytes that are not whole
    sides as one dict without a game (``game_id`` None, ``sides`` saying so): ``db check``
    reports it as a row no recomputation gives, and the player's sides as missing, rather
    than stopping."""
    try:
        return unpacked_audits([row])
    except ValueError:
        return [{"period": row["period"], "pool": row["pool"], "revision": row["revision"],
                 "player_id": row["player_id"], "game_id": None,
                 "sides": f"{len(row['sides'])} bytes, not whole 32-byte sides"}]


@dataclass(frozen=True)
class Difference:
    """One stored value that is not what recomputing gives: the table, the row (``player_id``
    and, for a row per game, ``game_id``), the ``field`` (``row`` when the whole row is
    missing on one side: ``stored``/``recomputed`` then say "present" or "absent")."""

    period: str
    revision: int
    table: str
    player_id: int
    game_id: int | None
    field: str
    stored: Any
    recomputed: Any


def table_differences(period: Period, revision: int, table: str,
                      stored: Iterable[tuple[Any, ...]],
                      computed: Iterable[tuple[Any, ...]]) -> list[Difference]:
    """Each value where the ``stored`` and ``computed`` rows of one ``DERIVED`` table differ, by
    row key (``player_id``, ``game_id``) then field name. Rows are tuples in the order of
    ``COLUMNS[table]`` (``period_audits``: packed rows, compared a side at a time in the order
    of ``AUDIT_COLUMNS``); only one table's rows are held, as tuples, not dicts."""
    columns = AUDIT_COLUMNS if table == "period_audits" else COLUMNS[table]
    old, new = _keyed(table, columns, stored), _keyed(table, columns, computed)
    fields = sorted(range(len(columns)), key=lambda i: columns[i])
    found = []
    for key in sorted(old.keys() | new.keys(), key=lambda k: (k[0], k[1] or 0)):
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            found.append(Difference(str(period), revision, table, key[0], key[1], "row",
                                    "absent" if a is None else "present",
                                    "absent" if b is None else "present"))
            continue
        found.extend(Difference(str(period), revision, table, key[0], key[1], columns[i],
                                a[i], b[i]) for i in fields if a[i] != b[i])
    return found


def _keyed(table: str, columns: tuple[str, ...], rows: Iterable[tuple[Any, ...]],
           ) -> dict[tuple[int, int | None], tuple[Any, ...]]:
    """One table's rows by (``player_id``, ``game_id`` or None); ``period_audits`` rows
    unpacked into one tuple per game side, bytes that are not whole sides as one row without
    a game (reported as a row no recomputation gives, the player's sides as missing)."""
    player = columns.index("player_id")
    game = columns.index("game_id") if "game_id" in columns else None
    if table != "period_audits":
        return {(r[player], None if game is None else r[game]): r for r in rows}
    keyed: dict[tuple[int, int | None], tuple[Any, ...]] = {}
    for *head, sides in rows:
        try:
            keyed.update(((head[player], side.game_id), (*head, *side))
                         for side in unpack(sides))
        except ValueError:
            keyed[(head[player], None)] = (*head, f"{len(sides)} bytes, not whole 32-byte sides")
    return keyed


def _stored_tuples(session: Session, period: Period, revision: int, pool: RatingPool,
                   table: str) -> list[tuple[Any, ...]]:
    """The rows of one ``DERIVED`` table stored for ``revision`` of ``period`` in ``pool``, as
    tuples in the order of ``COLUMNS[table]`` (``period_audits`` packed): one query."""
    model = DERIVED[table]
    return [tuple(r) for r in session.execute(
        select(*(getattr(model, c) for c in COLUMNS[table]))
        .where(model.period == str(period), model.pool == pool, model.revision == revision))]


@dataclass
class CheckReport:
    """What ``ledger db check`` found: the database's own check (``integrity``: its messages,
    ``["ok"]`` when sound; empty when the database has none to run), the chained audit log and
    the lists' digests (``chain``), the closed periods recomputed (period, current revision)
    and every ``Difference``."""

    integrity: list[str] = field(default_factory=list)
    chain: ChainReport = field(default_factory=ChainReport)
    checked: list[tuple[str, int]] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the integrity check found nothing, the audit log's chain follows, every
        list gives its digest and every stored value recomputes."""
        return (not self.differences and all(m == "ok" for m in self.integrity)
                and self.chain.ok)


def check_ledger(engine: Engine) -> CheckReport:
    """``ledger db check``: ``PRAGMA integrity_check`` and ``PRAGMA foreign_key_check`` on SQLite
    (PostgreSQL keeps its own checks: ``integrity`` stays empty), then the audit log's chain
    and every list's digest (``audit_chain.check_chain``), then ``recompute`` of every closed
    period's current revision, oldest first, compared with what is stored. Read-only: one
    transaction, rolled back."""
    report = CheckReport()
    with transaction(engine, write=False) as session:
        if sqlite_path(engine.url) is not None:
            conn = session.connection()
            report.integrity = [str(m) for m in conn.exec_driver_sql(
                "PRAGMA integrity_check").scalars()] or ["ok"]
            broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                report.integrity += [f"{t} row {rowid} points at a missing {parent} row"
                                     for t, rowid, parent, _ in broken]
        report.chain = check_chain(session)
        for period, pool, revision in session.execute(
                select(RatingPeriod.period, RatingPeriod.pool, RatingPeriod.revision)
                .order_by(RatingPeriod.period)).all():
            closed, in_pool = Period.parse(period), parse_pool(pool)
            report.checked.append((period, revision))
            # recomputed first, then one table at a time, rows as tuples, each table's rows
            # let go once compared: never every stored row beside every recomputed one
            # (issue 25)
            computed = derived_tuples(_rated(session, closed, revision, in_pool), revision)
            for table in DERIVED:
                report.differences += table_differences(
                    closed, revision, table,
                    _stored_tuples(session, closed, revision, in_pool, table),
                    computed.pop(table, []))
    return report

