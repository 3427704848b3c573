"""Checking the chained audit log and the digests of the published lists (``ledger db check``,
issue 24; docs/VERIFY.md).

``check_chain`` reads the entries in id order a page at a time and, for each, computes again
what its hash covers (``services.core.chain``: its content, the fact rows it wrote, the hash
of the entry before it); it stops at the first entry whose ``prev_hash`` or ``hash`` does not
follow and names it. Then it takes the digest of every stored list again and names each
(period, pool, revision) whose rows do not give the digest its revision stored.

The fact rows of an entry are read by the index on the change that wrote them; the entries
that wrote no row of a kind are known first from one query per kind (the distinct changes its
rows name), so most entries cost no query beyond their page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from ledger.services.core.chain import (
    ENTRY_COLUMNS,
    FACTS,
    GENESIS,
    PERIOD_REVISIONS,
    entries,
    entry_hash,
    facts_digests,
    list_digest,
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


def _writers(conn: Connection) -> dict[str, set[int]]:
    """Kind of fact -> the changes that wrote a row of it (current rows and earlier values)."""
    found: dict[str, set[int]] = {}
    for name, kind in FACTS.items():
        ids = set(conn.execute(sa.select(kind.table.c[kind.change]).distinct()).scalars())
        if kind.revisions is not None:
            ids |= set(conn.execute(
                sa.select(kind.revisions.c.valid_from_change).distinct()).scalars())
        found[name] = ids
    return found


def check_chain(session: Session) -> ChainReport:
    """Check every entry of the audit log and every stored list in ``session``'s transaction
    (it writes nothing)."""
    conn = session.connection()
    report = ChainReport()
    writers = _writers(conn)
    prev, prev_id = GENESIS, None
    for row in entries(conn):
        entry = row[0]
        stored, stored_prev = row[-2], row[-1]
        before = "the start of the log" if prev_id is None else f"entry {prev_id}"
        problem = None
        if stored is None:
            problem = "it has no hash: it was never chained"
        elif stored_prev != prev:
            problem = (f"its prev_hash is not the hash of {before} (an entry before it was "
                       "deleted, added or reordered, or its hash changed)")
        else:
            kinds = [name for name, ids in writers.items() if entry in ids]
            facts = facts_digests(conn, entry, kinds)
            if entry_hash(row[:len(ENTRY_COLUMNS)], facts, prev) != stored:
                problem = ("its hash is not that of its content and the facts it wrote: the "
                           "entry or a row it wrote (" + (", ".join(kinds) or "none") +
                           ") was changed")
        if problem is not None:
            report.broken = ChainBreak(entry, problem)
            break
        report.entries += 1
        prev, prev_id = stored, entry
    p = PERIOD_REVISIONS.c
    for period, pool, revision, digest in conn.execute(
            sa.select(p.period, p.pool, p.revision, p.digest)
            .order_by(p.period, p.pool, p.revision)).all():
        report.lists += 1
        computed = list_digest(conn, period, pool, revision)
        if computed != digest:
            report.lists_broken.append(ListBreak(period, pool, revision, digest, computed))
    return report
