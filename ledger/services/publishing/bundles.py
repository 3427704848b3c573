"""A list revision's manifest and bundle (issue 24; docs/VERIFY.md): the facts its close read,
taken as the check of a stored revision takes them (``services.admin.recompute``: the facts as
of the revision's change, the current revisions of the earlier periods), and its rows as stored.

``ledger list --manifest`` prints ``list_manifest``; ``ledger export bundle`` writes
``list_bundle``; ``ledger verify`` (``ledger.verify``) recounts the list from the bundle alone.
No schema of its own: everything is computed from what the ledger stores. The site shows each
revision's stored list digest (``stored_digests``) and links its bundle: ``site build`` writes
it (``encoded_bundle``), ``ledger serve`` makes it once and keeps it (``kept_bundle``).
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select
from sqlalchemy.orm import Session

import ledger
from ledger.db.engine import SQLITE_CLOSE_CACHE_KIB, sqlite_cache
from ledger.db.models import PeriodRevision
from ledger.domain import STANDARD, Period, RatingPool, parse_pool
from ledger.formats import bundle as bundles
from ledger.formats import bundle_json, signatures
from ledger.formats.canonical import canonical_json
from ledger.formats.site.model import ListPage
from ledger.rules.editions import Edition
from ledger.rules.pools import RAISE_2022_PERIOD
from ledger.rules.recount import ROW_FIELDS, ListFacts
from ledger.services.close.carried import carried_into
from ledger.services.close.pools import load_pools
from ledger.services.close.rated_games import seeded_states, streamed_game_values
from ledger.services.close.snapshots import ListRow, read_rows
from ledger.services.close.state import History, first_closed_period, load_histories
from ledger.services.core.facts import Facts
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.lists import list_revision
from ledger.services.publishing.site_files import Costly


@dataclass(frozen=True)
class ListFactsRead:
    """What one list revision's close read, as bundle records: ``games``, ``players``,
    ``carried`` (``formats.bundle`` records) and the ``manifest`` over them and the stored rows
    (None, and no records, when read for ``encoded_bundle``: its JSON alone)."""

    manifest: dict[str, Any] | None
    games: list[dict[str, Any]]
    players: list[dict[str, Any]]
    carried: list[dict[str, Any]]
    #: The manifest's values and each record as canonical JSON (``bundle_json.encoded``).
    manifest_json: dict[str, bytes]
    json: tuple[list[bytes], list[bytes], list[bytes]]


def list_manifest(engine: Ledger, period: str | None = None, revision: int | None = None,
                  pool: RatingPool = STANDARD) -> dict[str, Any]:
    """``ledger list --manifest``: the manifest of ``revision`` (default: the current one) of
    ``period``'s list (default: the latest closed) in ``pool`` (``formats.bundle.manifest``).
    Raises what ``lists.rating_list`` raises for a list that does not exist."""
    return list_bundle(engine, period, revision, pool)["manifest"]  # type: ignore[no-any-return]


def list_bundle(engine: Ledger, period: str | None = None, revision: int | None = None,
                pool: RatingPool = STANDARD,
                signature: Any = None) -> dict[str, Any]:
    """``ledger export bundle``: the bundle of that list (``formats.bundle.bundle``), its
    manifest signed by ``signature`` when given (a callable: manifest -> signature record,
    ``formats.signatures.sign`` with a key)."""
    read = _facts_of(engine, period, revision, pool)
    assert read.manifest is not None  # records=True
    signed = signature(read.manifest) if signature is not None else None
    return bundles.bundle(read.manifest, read.games, read.players, read.carried, signed)


def _facts_of(engine: Ledger, period: str | None, revision: int | None,
              pool: RatingPool, *, records: bool = True) -> ListFactsRead:
    """``facts_read`` of that list revision (``lists.list_revision`` finds it)."""
    with transaction(engine, write=False) as session:
        closed, shown = list_revision(session, period, revision, pool)
        return facts_read(session, closed, shown, pool, records=records)


def stored_digests(session: Session, pool: RatingPool) -> dict[tuple[str, int], str | None]:
    """(period, revision) -> the list digest stored for that revision of ``pool``'s list
    (``period_revisions.digest``, docs/VERIFY.md "A list's digest"; None: a revision the
    ledger has not taken one of), read in one query: the site shows it beside each list."""
    r = PeriodRevision
    return {(period, revision): found for period, revision, found in session.execute(
        select(r.period, r.revision, r.digest).where(r.pool == pool))}


def stored_digest(engine: Ledger, period: str, revision: int,
                  pool: RatingPool = STANDARD) -> str | None:
    """The list digest stored for revision ``revision`` of ``period``'s list in ``pool``
    (``period_revisions.digest``; None when there is no such revision or it has none): what
    ``ledger list --output`` names beside a TXT or CSV list, whose own formats have no place
    for it."""
    r = PeriodRevision
    with transaction(engine, write=False) as session:
        return session.execute(select(r.digest).where(
            r.pool == pool, r.period == period, r.revision == revision)).scalar_one_or_none()


def encoded_bundle(engine: Ledger, pool: RatingPool, period: str, revision: int,
                   key: Ed25519PrivateKey | None = None) -> bytes:
    """The bytes of revision ``revision`` of ``period``'s list in ``pool`` as ``ledger export
    bundle`` writes them uncompressed (``formats.bundle.encode``), signed by ``key`` when
    given: each record encoded once, for its digest and the bundle (``bundle_json.encoded``:
    the same bytes). Raises what ``list_bundle`` raises (``NotFound`` for a revision the list
    lacks). At size M (20,000 players, 100,000 games) about 1.3 CPU seconds: the facts are
    read as a check reads them."""
    return b"".join(bundle_pieces(engine, pool, period, revision, key))


def bundle_pieces(engine: Ledger, pool: RatingPool, period: str, revision: int,
                  key: Ed25519PrivateKey | None = None) -> Iterator[bytes]:
    """``encoded_bundle``'s bytes a piece at a time (``bundle_json.streamed``), for a writer
    that never holds them joined (``site_files.Costly.pieces``): the facts are read on the
    first piece, in one read transaction open until the last, each game's JSON given as it
    is encoded and let go (only its id and SHA-256 kept for the manifest, which follows the
    games in the file), the players' records and the manifest after the last game; SQLite's
    page cache is a close's (``SQLITE_CLOSE_CACHE_KIB``: one pass over the month). At L
    (1,000,000 games, a 358 MB bundle) the games' JSON was held whole until written."""
    with transaction(engine, write=False) as session, \
            sqlite_cache(session.connection(), SQLITE_CLOSE_CACHE_KIB):  # one pass, as a close
        closed, shown = list_revision(session, period, revision, pool)
        stored = session.get(PeriodRevision, (str(closed), pool, shown))
        assert stored is not None  # list_revision checked it
        carried, games, players = _records(session, closed, pool,
                                           Facts(as_of=stored.change_id), None)
        ids, digests = array("q"), bytearray()

        def written(game: tuple[int, bytes]) -> bytes:
            ids.append(game[0])
            digests.extend(hashlib.sha256(game[1]).digest())
            return game[1]

        def rest() -> bundle_json.Rest:
            manifest_json = _manifest_json(session, stored, closed, shown, pool,
                                           bundle_json.Digested(ids, digests), *players(),
                                           carried)
            signed = (None if key is None
                      else signatures.signed(bundle_json.joined(manifest_json), key))
            return manifest_json, players()[1], signed

        yield from bundle_json.streamed(carried[1], map(written, games), rest)


def kept_bundle(engine: Ledger, folder: Path, pool: RatingPool, period: str, revision: int,
                digest: str, key: Ed25519PrivateKey | None = None) -> Path:
    """The file in ``folder`` (a cache of the server's own, never a published folder; made
    when missing) holding that list revision's bundle (``encoded_bundle``), made on the first
    call (written a piece at a time, ``bundle_pieces``) and kept: named by pool, period,
    revision, the stored list ``digest`` (a ledger that publishes other rows under the same
    revision gets another file) and the signing key
    (``POOL-PERIOD-rN-DIGEST[-KEY].json``, KEY the public key's first 16 hex digits), so a
    file once written is never written again. Written beside its name and renamed into place:
    a reader never sees half of one. Raises ``OSError`` when ``folder`` cannot be written,
    and what ``encoded_bundle`` raises."""
    signer = "" if key is None else "-" + signatures.public_hex(key)[:16]
    path = folder / f"{pool}-{period}-r{revision}-{digest}{signer}.json"
    if path.is_file():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            for piece in bundle_pieces(engine, pool, period, revision, key):
                out.write(piece)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def site_bundles(engine: Ledger, pages: Iterable[ListPage],
                 key: Ed25519PrivateKey | None) -> list[Costly]:
    """The bundle of each list page that links one (``ListPage.bundle``), signed by ``key``
    when given, for ``site build``: made (``encoded_bundle``) unless the folder's copy holds
    the page's list digest and the same signer (``formats.bundle.stamp``: read in its bytes,
    not recounted)."""
    signer = None if key is None else signatures.public_hex(key)
    found = []
    for page in pages:
        if page.bundle is None or page.revision is None:
            continue
        found.append(Costly(
            page.bundle,
            functools.partial(encoded_bundle, engine, parse_pool(page.pool), page.period,
                              page.revision, key),
            functools.partial(_serves, (page.digest, signer)),
            functools.partial(bundle_pieces, engine, parse_pool(page.pool), page.period,
                              page.revision, key)))
    return found


def _serves(wanted: tuple[str | None, str | None], data: bytes) -> bool:
    return bundles.stamp(data) == wanted


def facts_read(session: Session, period: Period, revision: int,
               pool: RatingPool = STANDARD, *, records: bool = True) -> ListFactsRead:
    """The facts ``revision`` of ``period``'s list in ``pool`` was rated from, and its manifest.
    As ``services.close.rating.rate`` reads them with ``reference=True``: the period's valid
    games of the pool (the ratings at each event's start), every player's state in force at
    the period's start, the hundredths carried into it, the seeded standard ratings (rapid,
    blitz), the pools of the unrated players, the standard ratings of the 2022-09 raise, and
    each player's activity (``History.activity``). ``records``: keep the records as dicts
    (``games``, ``players``, ``carried``) and the manifest as a dict; else their JSON only
    (empty records, manifest None), for ``encoded_bundle``.
    """
    stored = session.get(PeriodRevision, (str(period), pool, revision))
    assert stored is not None  # list_revision checked it
    kept: tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]] = ([], [], [])
    carried, games, players = _records(session, period, pool, Facts(as_of=stored.change_id),
                                       kept if records else None)
    game_ids: list[int] = []
    encoded: list[bytes] = []
    for game_id, data in games:
        game_ids.append(game_id)
        encoded.append(data)
    manifest, parts = _manifest_parts(session, stored, period, revision, pool,
                                      (game_ids, encoded), *players(), carried, whole=records)
    return ListFactsRead(manifest, kept[0], kept[1], kept[2], parts,
                         (encoded, players()[1], carried[1]))


def _manifest_json(session: Session, stored: PeriodRevision, period: Period, revision: int,
                   pool: RatingPool, games: bundle_json.Encoded | bundle_json.Digested,
                   player_ids: list[int], players: list[bytes],
                   carried: tuple[list[int], list[bytes]]) -> dict[str, bytes]:
    """The manifest's parts (``bundle_json.manifest_parts``, no manifest as a dict)."""
    return _manifest_parts(session, stored, period, revision, pool, games, player_ids,
                           players, carried, whole=False)[1]


def _manifest_parts(session: Session, stored: PeriodRevision, period: Period, revision: int,
                    pool: RatingPool, games: bundle_json.Encoded | bundle_json.Digested,
                    player_ids: list[int], players: list[bytes],
                    carried: tuple[list[int], list[bytes]], *, whole: bool,
                    ) -> tuple[dict[str, Any] | None, dict[str, bytes]]:
    """``bundle_json.manifest_parts`` of the list revision ``stored`` (its rows read here, as
    stored) over the records' ids and JSON (``_records``')."""
    return bundle_json.manifest_parts(
        period, pool, revision, Edition(stored.edition), ledger.__version__,
        read_rows(session, period, revision, pool), games, (player_ids, players), carried,
        change=stored.change_id, reason=stored.reason, whole=whole, as_row=_row)


def _row(r: ListRow) -> dict[str, Any]:
    """A stored list line as its manifest publishes it (``ROW_FIELDS``, K's reason as text)."""
    return {name: (getattr(r, name).value if name == "k_reason" else getattr(r, name))
            for name in ROW_FIELDS}


#: A kind of record as ``_records`` gives it: the records' ids and their canonical JSON.
Records = tuple[list[int], list[bytes]]


def _records(session: Session, period: Period, pool: RatingPool, facts: Facts,
             kept: tuple[list[dict[str, Any]], ...] | None
             ) -> tuple[Records, Iterator[tuple[int, bytes]], Callable[[], Records]]:
    """``facts_read``'s records, each as its id and canonical JSON: the carried corrections'
    (by player), the games' (id, JSON) as they are read, a few thousand rows at a time, each
    let go once encoded (``streamed_game_values``; use them up first), and a function that
    gives the players' (read on its first call, after the games; the same answer after). Each
    record also onto ``kept`` (games, players, carried) when given. The histories and the
    players' identities are let go once the players are encoded, before the caller reads the
    list's rows and takes the digests. The games' players' histories are everyone's
    (``known``), not read a second time."""
    carried = carried_into(session, period, facts, pool)
    everyone = load_histories(session, None, through=period.previous(), facts=facts, pool=pool)
    histories, loaded = streamed_game_values(session, lambda g: g.c.period == str(period),
                                             through=period.previous(), also=carried,
                                             facts=facts, pool=pool, known=everyone)
    ids = sorted(carried)
    encoded = [_add(kept, 2, bundles.carried_record(pid, carried[pid])) for pid in ids]
    found: list[Records] = []

    def games() -> Iterator[tuple[int, bytes]]:
        for game in loaded:
            yield game[0], _add(kept, 0, bundles.game_record(*game))

    def players() -> Records:
        if not found:
            found.append(_players(session, period, pool, facts, kept, everyone, histories))
        return found[0]

    return (ids, encoded), games(), players


def _players(session: Session, period: Period, pool: RatingPool, facts: Facts,
             kept: tuple[list[dict[str, Any]], ...] | None, everyone: dict[int, History],
             histories: dict[int, History]) -> Records:
    """The players' records of ``_records`` (``everyone``'s histories and those of the games'
    players, ``histories``), by id."""
    everyone |= {pid: h for pid, h in histories.items() if pid not in everyone}
    seeded = seeded_states(session, histories, period, pool, facts)
    unrated = [pid for pid, h in histories.items()
               if h.state(period).rating is None and pid not in seeded]
    pools = {pid: p for pid, p in load_pools(session, unrated, period,
                                             ratings_through=period.previous(), facts=facts,
                                             pool=pool).items()
             if any(g.period == period for g in p.games)}
    histories.clear()
    standard = (load_histories(session, None, through=period, facts=facts)
                if pool != STANDARD and period == RAISE_2022_PERIOD else {})
    first_closed = min(first_closed_period(session, pool) or period, period)
    known = facts.players()
    identity = {row.id: row for row in session.execute(
        select(known.c.id, known.c.name, known.c.fide_id, known.c.federation, known.c.title,
               known.c.sex, (known.c.merged_into.is_not(None) | known.c.withdrawn)
               .label("gone")))}
    ids = sorted(everyone)
    encoded = []
    before = period.previous()  # a Period made once, not once a player
    for pid in ids:
        history, who = everyone.pop(pid), identity.pop(pid)
        since, last = history.activity(before, first_closed)
        in_standard = (standard[pid].rating(period.next(), results_through=period)
                       if pid in standard else None)
        encoded.append(_add(kept, 1, bundles.player_record(pid, ListFacts(
            history.state(period), who.name, who.fide_id, who.federation, who.title, who.sex,
            not who.gone, seeded.get(pid), in_standard, since, last, pools.get(pid)))))
    return ids, encoded


def _add(kept: tuple[list[dict[str, Any]], ...] | None, kind: int,
         record: dict[str, Any]) -> bytes:
    """``record``'s canonical JSON, and ``record`` onto ``kept[kind]`` when ``kept`` is given
    (a bundle written from the JSON alone holds no record twice: at size M the players'
    records are some 24 MB as dicts)."""
    if kept is not None:
        kept[kind].append(record)
    return canonical_json(record)
