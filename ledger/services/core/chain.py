"""The chained audit log and the digest of each published list (issue 24; docs/VERIFY.md).

Each ``changes`` row carries ``hash``, the SHA-256 of the canonical JSON
(``ledger.formats.canonical``) of::

    {"id", "at", "by", "command", "action", "entity", "entity_id", "before", "after",
     "reason", "facts": {TABLE: DIGEST, ...}, "prev_hash"}

``prev_hash`` is the ``hash`` of the entry before it by id (``GENESIS``, 64 zeros, for the
first); ``at`` is written ``YYYY-MM-DDTHH:MM:SS.ffffff`` (UTC, as stored). ``facts`` holds, for
each kind of fact row the change wrote (``FACTS``: games, players, player entries, carried
corrections, list revisions), the SHA-256 of the canonical JSON list of those rows as it wrote
them, each row a JSON array of ``FACTS[kind].columns`` in that order (dates as ``YYYY-MM-DD``);
a kind it wrote no row of is left out. A game or player row corrected later keeps the values
the change wrote in ``game_revisions`` / ``player_revisions`` (``valid_from_change``), so the
rows a change wrote are its current rows (``change_id``) and its revision rows, merged by the
row's id (revision rows first, by their own id): a later correction moves a row from one to
the other and leaves the digest as it was.

``period_revisions.digest`` is the SHA-256 of the canonical JSON list of the revision's
``list_entries`` rows (``LIST_COLUMNS``, rank then player id), the list as published.

Written in Core on ``sa.table`` stubs (no ORM model), so Alembic revision 0015, which chains an
existing ledger, runs this very code; a change to what a hash covers needs a revision that
chains again. The writers call ``pending`` (``audit.record_change``) and ``seal`` (the end of
``session.transaction``), under the ledger's write lock, so the entry before is final.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import heapq
import json
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, groupby
from operator import itemgetter
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Boolean, Connection, Date, DateTime, Integer, String, Text
from sqlalchemy.orm import Session

from ledger.db.rows import driver_chunks
from ledger.formats.canonical import digest

#: The ``prev_hash`` of the first entry.
GENESIS = "0" * 64
#: The digest of a list of no row (``[]``): a list revision that published none.
EMPTY = hashlib.sha256(b"[]").hexdigest()
#: Rows fetched and hashed at once.
BATCH = 5_000

_PENDING = "ledger.unchained"


def _table(name: str, *columns: tuple[str, Any]) -> sa.TableClause:
    return sa.table(name, *(sa.column(c, t) for c, t in columns))


_I, _S, _B, _D = Integer(), String(), Boolean(), Date()
CHANGES = _table("changes", ("id", _I), ("at", DateTime()), ("by", _S), ("command", Text()),
                 ("action", _S), ("entity", _S), ("entity_id", _S), ("before", Text()),
                 ("after", Text()), ("reason", Text()), ("hash", _S), ("prev_hash", _S))
#: The columns of an entry its hash covers, besides ``facts`` and ``prev_hash``.
ENTRY_COLUMNS = ("id", "at", "by", "command", "action", "entity", "entity_id", "before",
                 "after", "reason")

_GAME = (("event_id", _I), ("round", _S), ("date", _D), ("white_id", _I), ("black_id", _I),
         ("result", _S), ("played", _B), ("status", _S), ("source", _S), ("pool", _S),
         ("unequal_times", _B))
_PLAYER = (("name", _S), ("name_key", _S), ("fide_id", _I), ("birth_year", _I), ("sex", _S),
           ("federation", _S), ("title", _S), ("w_title", _S), ("o_title", _S),
           ("foa_title", _S), ("merged_into", _I), ("withdrawn", _B))
_LIST = (("rank", _I), ("player_id", _I), ("rating", _I), ("games", _I), ("k", _I),
         ("k_reason", _S), ("inactive", _B), ("name", _S), ("fide_id", _I),
         ("federation", _S), ("title", _S), ("sex", _S), ("birth_year", _I))
_KEY = (("period", _S), ("pool", _S), ("revision", _I))

LIST_ENTRIES = _table("list_entries", *_KEY, *_LIST)
#: The columns of a list row the list digest covers, in their order in each row's array.
LIST_COLUMNS = tuple(c for c, _ in _LIST)
PERIOD_REVISIONS = _table("period_revisions", *_KEY, ("edition", _S), ("reason", Text()),
                          ("digest", _S), ("change_id", _I))


@dataclass(frozen=True)
class FactKind:
    """One kind of fact row an entry's hash covers: ``table`` (its current rows, whose
    ``change`` column names the change that wrote them) and, for a fact corrected in place,
    ``revisions`` (its earlier values; ``of`` the row's id there, ``valid_from_change`` the
    change that wrote them). ``columns``: what each row's array holds, in order."""

    table: sa.TableClause
    columns: tuple[str, ...]
    order: tuple[str, ...]
    change: str = "change_id"
    revisions: sa.TableClause | None = None
    of: str = ""


def _kind(name: str, cols: Sequence[tuple[str, Any]], key: Sequence[tuple[str, Any]],
          revisions: str | None = None, of: str = "") -> FactKind:
    table = _table(name, *key, *cols, ("change_id", _I))
    columns = tuple(c for c, _ in (*key, *cols))
    old = None if revisions is None else _table(revisions, ("id", _I), (of, _I), *cols,
                                                ("valid_from_change", _I))
    return FactKind(table, columns, tuple(c for c, _ in key), revisions=old, of=of)


#: The fact rows an entry's hash covers, by the name its ``facts`` gives them.
FACTS: dict[str, FactKind] = {
    "games": _kind("games", _GAME, (("id", _I),), "game_revisions", "game_id"),
    "players": _kind("players", _PLAYER, (("id", _I),), "player_revisions", "player_id"),
    "player_entries": _kind("player_entries", (
        ("player_id", _I), ("effective_from", _S), ("rating", _I), ("prior_games", _I),
        ("reached_2400", _B), ("reached_2300", _B), ("source", _S), ("kind", _S),
        ("pool", _S)), (("id", _I),)),
    "carried_corrections": _kind("carried_corrections", (
        ("player_id", _I), ("origin_period", _S), ("origin_pool", _S), ("origin_revision", _I),
        ("applies_in", _S), ("hundredths", _I)), (("id", _I),)),
    "period_revisions": _kind("period_revisions", (
        ("edition", _S), ("reason", Text()), ("digest", _S)), _KEY),
}


def plain(value: Any) -> Any:
    """A stored value as a digest writes it: a date ``YYYY-MM-DD``, a time
    ``YYYY-MM-DDTHH:MM:SS.ffffff``; None, booleans, integers and text as they are."""
    if isinstance(value, dt.datetime):
        return value.isoformat(timespec="microseconds")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def rows_digest(rows: Iterable[Sequence[Any]]) -> tuple[str, int]:
    """(SHA-256 of the canonical JSON list of ``rows``, each a JSON array of its values written
    as ``plain`` writes them; how many rows), fed a batch at a time: the same 64 hex digits as
    ``canonical.digest([[...], ...])`` without holding the list. The values are those of
    integer, text, boolean, date and time columns: never a float."""
    sha = hashlib.sha256(b"[")
    count, batch = 0, []
    for row in rows:
        batch.append(row if type(row) is tuple else tuple(row))
        if len(batch) == BATCH:
            _feed(sha, batch, count)
            count += len(batch)
            batch = []
    if batch:
        _feed(sha, batch, count)
        count += len(batch)
    sha.update(b"]")
    return sha.hexdigest(), count


def _written_as(value: Any) -> Any:
    """A value JSON has no form for, as ``plain`` writes it (``json.dumps``' ``default``: asked
    for dates and times only, so no other value pays a Python call); each date or time written
    once (``_WRITTEN``: an import's games share a few dates and one time)."""
    # a date and the datetime of its midnight are two entries, as are one instant in two zones
    key = (type(value), value, getattr(value, "tzinfo", None))
    text = _WRITTEN.get(key)
    if text is not None:
        return text
    if isinstance(value, dt.date):
        if len(_WRITTEN) >= 4096:  # values that seldom repeat: start again
            _WRITTEN.clear()
        text = _WRITTEN[key] = plain(value)
        return text
    raise TypeError(f"canonical JSON: {type(value).__name__} {value!r} in a digested row")


#: Dates and times as ``_written_as`` wrote them, by (type, value, time zone).
_WRITTEN: dict[tuple[type, Any, Any], str] = {}


def _feed(sha: Any, batch: list[tuple[Any, ...]], before: int) -> None:
    """Add ``batch``'s rows to the list's bytes (after a comma when ``before`` rows came first)."""
    text = json.dumps(batch, ensure_ascii=False, separators=(",", ":"), allow_nan=False,
                      default=_written_as)
    sha.update((b"," if before else b"") + text[1:-1].encode("utf-8"))


def list_digest(conn: Connection, period: str, pool: str, revision: int) -> str:
    """The digest of the list ``revision`` of ``period`` in ``pool`` published (its
    ``list_entries``, by rank then player id)."""
    e = LIST_ENTRIES.c
    statement = (sa.select(*(e[c] for c in LIST_COLUMNS))
                 .where(e.period == period, e.pool == pool, e.revision == revision)
                 .order_by(e.rank, e.player_id))
    return rows_digest(_stream(conn, statement))[0]


def _stream(conn: Connection, statement: sa.Select[Any]) -> Iterator[Sequence[Any]]:
    """The rows of ``statement``, ``BATCH`` at a time (a server-side cursor on PostgreSQL),
    its cursor closed when the rows are read or the stream is closed."""
    result = conn.execute(statement, execution_options={"yield_per": BATCH})  # this one only
    try:
        for part in result.partitions():
            yield from part
    finally:
        result.close()


def _written(conn: Connection, kind: FactKind, change_id: int | None
             ) -> Iterator[Sequence[Any]]:
    """The rows of ``kind`` change ``change_id`` wrote (None: every change), as it wrote them,
    each ``(change, *kind.columns)``, ordered by change then row (its current row after its
    earlier values, those by their own id)."""
    t = kind.table.c
    now = sa.select(t[kind.change], *(t[c] for c in kind.columns)).where(
        t[kind.change].is_not(None) if change_id is None else t[kind.change] == change_id
    ).order_by(t[kind.change], *(t[c] for c in kind.order))
    if kind.revisions is None:
        yield from _stream(conn, now)
        return
    r = kind.revisions.c
    old = (sa.select(r.valid_from_change, r[kind.of], *(r[c] for c in kind.columns[1:]), r.id)
           .where(r.valid_from_change.is_not(None) if change_id is None
                  else r.valid_from_change == change_id)
           .order_by(r.valid_from_change, r[kind.of], r.id))
    earlier = _stream(conn, old)
    first = next(earlier, None)
    if first is None:  # no earlier values (an import's new rows): the current rows as they are
        yield from _stream(conn, now)
        return
    merged = heapq.merge(((row[0], row[1], 0, row[-1], tuple(row[:-1]))
                          for row in chain((first,), earlier)),
                         ((row[0], row[1], 1, 0, tuple(row)) for row in _stream(conn, now)))
    for *_, row in merged:
        yield row


def facts_digests(conn: Connection, change_id: int) -> dict[str, str]:
    """The ``facts`` of change ``change_id``'s hash: kind -> digest of the rows of that kind it
    wrote, for each kind it wrote a row of."""
    found = {}
    for name, kind in FACTS.items():
        value, count = _change_digest(conn, kind, change_id)
        if count:
            found[name] = value
    return found


def _change_digest(conn: Connection, kind: FactKind, change_id: int) -> tuple[str, int]:
    """``rows_digest`` of the rows of ``kind`` change ``change_id`` wrote. On SQLite, when none
    of them was corrected since (no earlier values: an import's or a close's new rows, what
    ``seal`` digests), each stored row's JSON array is made by SQLite (``_json_rows``) and the
    arrays are joined and hashed a chunk at a time: the same rows in the same order as
    ``_written``, written as ``_feed`` writes them, so the same digest, without a Python value
    made per column or ``json.dumps`` (the M month's 100,000 games: 0.40 -> 0.20 CPU s under
    load, branch imp7). PostgreSQL keeps ``_written`` (its server-side cursor: a client cursor
    would hold every row of a large import at once)."""
    if conn.dialect.name != "sqlite" or _corrected(conn, kind, change_id):
        return rows_digest(row[1:] for row in _written(conn, kind, change_id))
    sha, count = hashlib.sha256(b"["), 0
    for chunk in driver_chunks(conn, _json_rows(kind, change_id), BATCH):
        sha.update((b"," if count else b"") + ",".join([row[0] for row in chunk]).encode())
        count += len(chunk)
    sha.update(b"]")
    return sha.hexdigest(), count


def _json_rows(kind: FactKind, change_id: int) -> sa.Select[Any]:
    """SQLite's SELECT of the rows of ``kind`` change ``change_id`` wrote, in ``kind.order``,
    each as the text of its JSON array (``json_array``: text escaped as ``json.dumps`` with
    ``ensure_ascii=False`` escapes it, ``\\"``, ``\\\\``, ``\\b\\f\\n\\r\\t`` and
    ``\\u00xx`` for the other control characters, nothing else; integers as digits; no space).
    The values as stored are what ``plain`` writes of SQLAlchemy's: a date column's
    ``YYYY-MM-DD`` text as the ledger stores it, a boolean's 0 or 1 written ``false`` or
    ``true`` (``json``'s, kept as JSON by ``json_array``), NULL ``null``; no column of a fact
    holds a float."""
    t = kind.table.c
    values = [sa.func.json(sa.case((t[c].is_(None), "null"), (t[c], "true"), else_="false"))
              if isinstance(t[c].type, Boolean) else t[c] for c in kind.columns]
    return (sa.select(sa.func.json_array(*values)).where(t[kind.change] == change_id)
            .order_by(*(t[c] for c in kind.order)))


def _corrected(conn: Connection, kind: FactKind, change_id: int) -> bool:
    """Whether a row of ``kind`` change ``change_id`` wrote has earlier values kept (a row
    corrected since: ``_written`` merges them with the current rows)."""
    if kind.revisions is None:
        return False
    r = kind.revisions.c
    return conn.execute(sa.select(r.id).where(r.valid_from_change == change_id)
                        .limit(1)).first() is not None


def every_facts(conn: Connection) -> dict[str, Generator[tuple[int, str], None, None]]:
    """For each kind of fact, ``(change, digest)`` for every change that wrote a row of it, by
    change: ``facts_digests`` of all the changes at once, one stream per table (``db
    check``: a fixed number of queries however many entries)."""
    def digests(kind: FactKind) -> Generator[tuple[int, str], None, None]:
        for change, rows in groupby(_written(conn, kind, None), key=itemgetter(0)):
            yield change, rows_digest(row[1:] for row in rows)[0]
    return {name: digests(kind) for name, kind in FACTS.items()}


def every_list_digest(conn: Connection) -> Iterator[tuple[tuple[str, str, int], str]]:
    """``((period, pool, revision), digest)`` of each list that has rows (``list_digest`` of
    them all, in one stream)."""
    e = LIST_ENTRIES.c
    statement = (sa.select(e.period, e.pool, e.revision, *(e[c] for c in LIST_COLUMNS))
                 .order_by(e.period, e.pool, e.revision, e.rank, e.player_id))
    for key, rows in groupby(_stream(conn, statement), key=itemgetter(0, 1, 2)):
        yield key, rows_digest(row[3:] for row in rows)[0]


def entry_hash(entry: Sequence[Any], facts: dict[str, str], prev_hash: str) -> str:
    """The hash of one entry: ``entry`` its ``ENTRY_COLUMNS`` values in order, ``facts`` as
    ``facts_digests`` gives them, ``prev_hash`` the hash of the entry before."""
    content = {name: plain(value) for name, value in zip(ENTRY_COLUMNS, entry, strict=True)}
    return digest(content | {"facts": facts, "prev_hash": prev_hash})


def entries(conn: Connection, first: int = 0) -> Iterator[Sequence[Any]]:
    """The entries from id ``first`` on, in id order: ``ENTRY_COLUMNS`` then ``hash`` and
    ``prev_hash``, read a page at a time by id (so the caller may write between pages)."""
    c = CHANGES.c
    last = first - 1
    while True:
        page = conn.execute(sa.select(*(c[n] for n in ENTRY_COLUMNS), c.hash, c.prev_hash)
                            .where(c.id > last).order_by(c.id).limit(BATCH)).all()
        if not page:
            return
        yield from page
        last = page[-1][0]


def hash_before(conn: Connection, change_id: int) -> str:
    """The stored hash of the entry before ``change_id`` (``GENESIS`` when it is the first, or
    the one before was never chained)."""
    c = CHANGES.c
    found = conn.execute(sa.select(c.hash).where(c.id < change_id).order_by(c.id.desc())
                         .limit(1)).scalar()
    return found or GENESIS


def chain_from(conn: Connection, first: int) -> int:
    """Chain every entry from id ``first`` on, in id order, on ``conn`` (inside the writer's
    transaction, under the write lock): first the digest of each list revision those entries
    wrote that has none yet, then each entry's ``prev_hash`` and ``hash``, a page of entries
    at a time. From the first entry (``first`` 0 or 1: revision 0015) the facts of every entry
    are read in one stream per kind (``FactHeads``), else by change. Returns how many entries."""
    c, p = CHANGES.c, PERIOD_REVISIONS.c
    for key in conn.execute(sa.select(p.period, p.pool, p.revision).where(
            p.change_id >= first, p.digest.is_(None))).all():
        conn.execute(sa.update(PERIOD_REVISIONS).where(
            p.period == key[0], p.pool == key[1], p.revision == key[2]).values(
            digest=list_digest(conn, *key)))
    heads = FactHeads(conn) if first <= 1 else None
    prev, done = hash_before(conn, first), 0
    try:
        for row in entries(conn, first):
            change_id = row[0]
            facts = heads.take(change_id) if heads else facts_digests(conn, change_id)
            value = entry_hash(row[:len(ENTRY_COLUMNS)], facts, prev)
            conn.execute(sa.update(CHANGES).where(c.id == change_id).values(hash=value,
                                                                            prev_hash=prev))
            prev, done = value, done + 1
    finally:
        if heads:
            heads.close()
    return done


class FactHeads:
    """The digests of every change's facts (``every_facts``), read beside the entries in id
    order: ``take(entry)`` gives the entry's ``facts``. ``close`` closes the streams (their
    cursors) when the walk stops before their end."""

    def __init__(self, conn: Connection) -> None:
        self.streams = every_facts(conn)
        self.heads = {name: next(stream, None) for name, stream in self.streams.items()}

    def take(self, change: int) -> dict[str, str]:
        """The ``facts`` of entry ``change`` (ids asked in increasing order); the digests of
        changes before it that have no entry are passed over (a deleted entry: the
        ``prev_hash`` of the one after it tells)."""
        found = {}
        for name, stream in self.streams.items():
            head = self.heads[name]
            while head is not None and head[0] < change:
                head = next(stream, None)
            if head is not None and head[0] == change:
                found[name] = head[1]
                head = next(stream, None)
            self.heads[name] = head
        return found

    def close(self) -> None:
        """Close every stream."""
        for stream in self.streams.values():
            stream.close()


def pending(session: Session, change_id: int) -> None:
    """Note that change ``change_id`` was recorded in ``session``'s transaction: ``seal``
    chains it before the commit."""
    session.info.setdefault(_PENDING, []).append(change_id)


def seal(session: Session, *, since: int | None = None) -> None:
    """Chain the changes recorded in ``session``'s transaction (``pending``), with the facts
    they wrote, just before it commits (``session.transaction``); nothing when it recorded none.
    ``since``: chain again from that entry on too (an upgrade that completes, in its own
    transaction, the lists of an entry revision 0015 chained in it)."""
    ids = [*session.info.pop(_PENDING, ()), *(() if since is None else (since,))]
    if not ids:
        return
    session.flush()
    chain_from(session.connection(), min(ids))
