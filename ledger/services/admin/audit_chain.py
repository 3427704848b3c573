"""Checking the chained audit log and the digests of the published lists (``ledger db check``,
issue 24; docs/VERIFY.md).

``check_chain`` reads the entries in id order a page at a time and, for each, computes again
what its hash covers (``services.core.chain``: its content, the fact rows it wrote, the hash
of the entry before it); it stops at the first entry whose ``prev_hash`` or ``hash`` does not
follow and names it. Then it takes the digest of every stored list again and names each
(period, pool, revision) whose rows do not give the digest its revision stored.

A fixed number of queries however big the ledger: the entries a page at a time, and each
kind of fact and the lists' rows in one stream each, ordered by the change that wrote them
(by list), their digests taken as they stream past, beside the entries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from ledger.services.core.chain import (
    EMPTY,
    ENTRY_COLUMNS,
    GENESIS,
    PERIOD_REVISIONS,
    FactHeads,
    entries,
    entry_hash,
    every_list_digest,
)


@dataclass(frozen=True)
class ChainBreak:
    """The first entry whose hash does not follow: its id and what is wrong (``problem``)."""

    entry: int
    problem: str


@dataclass(frozen=True)
class ListBreak:
    """A stored list whose rows do not give the digest its revision stored (None: none)."""

    period: str
    pool: str
    revision: int
    stored: str | None
    computed: str


@dataclass
class ChainReport:
    """What the chain check found: the ``entries`` checked (up to the break), the first
    ``broken`` entry (None: the chain follows), the ``lists`` checked and those that differ."""

    entries: int = 0
    broken: ChainBreak | None = None
    lists: int = 0
    lists_broken: list[ListBreak] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every entry follows and every list gives its digest."""
        return self.broken is None and not self.lists_broken


def check_chain(session: Session) -> ChainReport:
    """Check every entry of the audit log and every stored list in ``session``'s transaction
    (it writes nothing)."""
    conn = session.connection()
    report = ChainReport()
    report.broken = _first_break(conn, report)
    p = PERIOD_REVISIONS.c
    stored = {(period, pool, revision): digest for period, pool, revision, digest in
              conn.execute(sa.select(p.period, p.pool, p.revision, p.digest)).all()}
    computed = dict(every_list_digest(conn))
    for key in sorted(stored):
        report.lists += 1
        value = computed.get(key, EMPTY)
        if value != stored[key]:
            report.lists_broken.append(ListBreak(*key, stored[key], value))
    return report


def _first_break(conn: Connection, report: ChainReport) -> ChainBreak | None:
    """Walk the entries in id order beside each kind of fact's digests by change
    (``FactHeads``), counting in ``report.entries`` those that follow; the first that does
    not."""
    heads = FactHeads(conn)
    try:
        return _walk(conn, report, heads)
    finally:
        heads.close()  # a break leaves the streams half read: their cursors closed


def _walk(conn: Connection, report: ChainReport, heads: FactHeads) -> ChainBreak | None:
    prev, prev_id = GENESIS, None
    for row in entries(conn):
        entry = row[0]
        stored, stored_prev = row[-2], row[-1]
        facts = heads.take(entry)
        before = "the start of the log" if prev_id is None else f"entry {prev_id}"
        if stored is None:
            return ChainBreak(entry, "it has no hash: it was never chained")
        if stored_prev != prev:
            return ChainBreak(entry, f"its prev_hash is not the hash of {before} (an entry "
                                     "before it was deleted, added or reordered, or its hash "
                                     "changed)")
        if entry_hash(row[:len(ENTRY_COLUMNS)], facts, prev) != stored:
            return ChainBreak(entry, "its hash is not that of its content and the facts it "
                                     "wrote: the entry or a row it wrote ("
                                     + (", ".join(facts) or "it wrote none") + ") was changed")
        report.entries += 1
        prev, prev_id = stored, entry
    return None
