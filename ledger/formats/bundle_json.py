"""A list's manifest and a bundle's bytes as canonical JSON (issue 24; docs/VERIFY.md
"Manifests", "Bundles"), each record encoded once: its canonical JSON (``records_json``) is what
its digest in the manifest is taken over and what the bundle holds (``encoded``), so a bundle is
written without encoding its records again (``formats.bundle`` reads bundles and re-exports
``manifest``, ``list_digest`` and the formats' names).
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ledger.domain import Period, RatingPool
from ledger.formats.canonical import canonical_json, digest, sha256_hex
from ledger.rules.editions import Edition
from ledger.rules.recount import ROW_FIELDS

BUNDLE_FORMAT = "ledger-bundle/1"
MANIFEST_FORMAT = "ledger-manifest/1"
#: A list row's values as the list digest takes them, in this order (``services.core.chain``'s
#: ``LIST_COLUMNS``, which ``period_revisions.digest`` is taken over: a test holds them equal).
LIST_DIGEST_COLUMNS = ("rank", "player_id", "rating", "games", "k", "k_reason", "inactive", "name",
                       "fide_id", "federation", "title", "sex", "birth_year")


def list_digest(rows: Sequence[Mapping[str, Any]]) -> str:
    """The list digest of ``rows`` (dicts with ``ROW_FIELDS``): the SHA-256 of the canonical JSON
    list of the rows ordered by rank then player id, each the array of its
    ``LIST_DIGEST_COLUMNS``: what the ledger stores for a list revision
    (``period_revisions.digest``, docs/VERIFY.md "A list's digest") and the site shows."""
    ordered = sorted(rows, key=_LIST_ORDER)
    return digest(list(map(_LIST_VALUES, ordered)))  # tuples: the same JSON arrays as lists


#: A row's place in ``list_digest``'s order, and its values there (``operator.itemgetter``:
#: no Python call a row).
_LIST_ORDER = operator.itemgetter("rank", "player_id")
_LIST_VALUES = operator.itemgetter(*LIST_DIGEST_COLUMNS)


def records_json(records: Sequence[Mapping[str, Any]]) -> list[bytes]:
    """Each record's canonical JSON (``canonical.canonical_json``): what its digest in the
    manifest is taken over, and its bytes in the bundle (``encoded``), made once for both."""
    return [canonical_json(record) for record in records]


def manifest(period: Period, pool: RatingPool, revision: int, edition: Edition, version: str,
             rows: Sequence[Mapping[str, Any]], games: Sequence[Mapping[str, Any]],
             players: Sequence[Mapping[str, Any]], carried: Sequence[Mapping[str, Any]], *,
             change: int | None = None, reason: str | None = None) -> dict[str, Any]:
    """The manifest of a list revision: its ``rows`` as published (dicts with ``ROW_FIELDS``, in
    list order), the edition, the ledger's ``version``, each fact's digest (by id), what wrote
    it (``change``: the audit log's change that computed the revision; ``reason``: a re-rating's
    or a reopening's, None for a first close), the revision it ``supersedes`` (revision - 1,
    None for revision 1), ``list_digest`` (``list_digest`` of the rows: the digest the ledger
    stores and the site shows) and ``digest``, the SHA-256 of the canonical JSON of all of it
    but ``UNDIGESTED``."""
    whole, _ = manifest_parts(period, pool, revision, edition, version, rows,
                              ([g["id"] for g in games], records_json(games)),
                              ([p["id"] for p in players], records_json(players)),
                              ([c["player"] for c in carried], records_json(carried)),
                              change=change, reason=reason)
    assert whole is not None  # whole=True
    return whole


#: A kind of record as ``manifest_parts`` takes it: each one's id and its ``records_json``.
Encoded = tuple[Sequence[int], Sequence[bytes]]


def manifest_parts(period: Period, pool: RatingPool, revision: int, edition: Edition,
                   version: str, rows: Sequence[Mapping[str, Any]], games: Encoded,
                   players: Encoded, carried: Encoded, *, change: int | None = None,
                   reason: str | None = None, whole: bool = True,
                   ) -> tuple[dict[str, Any] | None, dict[str, bytes]]:
    """``manifest`` from the records' ids (a game's ``id``, a player's, a carried
    correction's ``player``: unique within each kind) and their ``records_json`` (each pair of
    ``games``, ``players``, ``carried``), and each of its values' canonical JSON by key:
    ``encoded`` writes the bundle from them without encoding anything again, and the records
    themselves need not be kept. A row that is a dict of ``ROW_FIELDS`` in that order is
    published as it is (not copied: a 50,000-line list's rows are some 50 MB). ``whole``
    False: no manifest as a dict (None; the parts alone, ``joined`` is its canonical JSON),
    and no dict of the facts' digests (a 50,000-player list's is some 30 MB)."""
    published = [row if type(row) is dict and tuple(row) == ROW_FIELDS
                 else {name: row[name] for name in ROW_FIELDS} for row in rows]
    kinds = {"games": games, "players": players, "carried": carried}
    body = {"format": MANIFEST_FORMAT, "period": str(period), "pool": pool,
            "revision": revision, "supersedes": revision - 1 if revision > 1 else None,
            "change": change, "reason": reason, "edition": edition.value, "rows": published}
    parts = {key: canonical_json(value) for key, value in body.items()}
    parts["facts"] = b"{" + b",".join(canonical_json(kind) + b":" + _digests_json(kinds[kind])
                                      for kind in sorted(kinds)) + b"}"
    more = {"ledger_version": version, "list_digest": list_digest(published),
            "digest": sha256_hex(joined(parts))}
    parts.update((key, canonical_json(value)) for key, value in more.items())
    if not whole:
        return None, parts
    body["facts"] = {kind: {str(key): sha256_hex(data) for key, data in zip(*pair, strict=True)}
                     for kind, pair in kinds.items()}
    return {**body, **more}, parts


def _digests_json(pair: Encoded) -> bytes:
    """The canonical JSON of the object id -> SHA-256 of each record's JSON (``pair``: the ids,
    unique, and the records' JSON), made as bytes without that object: each member is
    ``"ID":"HEX"``, and the members sorted as bytes are sorted by their keys as text (a key
    ends at its quote, which sorts before every digit), as ``json.dumps(sort_keys=True)``
    sorts them."""
    if len(set(pair[0])) < len(pair[0]):  # a key twice: the object holds its last digest
        return canonical_json({str(key): sha256_hex(data) for key, data in zip(*pair,
                                                                               strict=True)})
    members = sorted(b'"%d":"%s"' % (key, hashlib.sha256(data).hexdigest().encode("ascii"))
                     for key, data in zip(*pair, strict=True))
    return b"{" + b",".join(members) + b"}"


def joined(parts: Mapping[str, bytes]) -> bytes:
    """The canonical JSON of the object whose values' canonical JSON ``parts`` holds by key
    (keys sorted by code point, as ``json.dumps(sort_keys=True)`` sorts them)."""
    return b"".join(_members(parts))


def _members(parts: Mapping[str, bytes]) -> Iterator[bytes]:
    """``joined``'s bytes a piece at a time, each part as it is (not copied)."""
    yield b"{"
    for n, key in enumerate(sorted(parts)):
        yield from (b"," if n else b"", canonical_json(key), b":", parts[key])
    yield b"}"


def encoded(manifest_json: Mapping[str, bytes], games: Sequence[bytes],
            players: Sequence[bytes], carried: Sequence[bytes],
            signature: Mapping[str, str] | None = None) -> bytes:
    """The bytes ``encode(bundle(...))`` gives uncompressed, from the manifest's parts
    (``manifest_parts``) and the records' ``records_json``: the same JSON (keys sorted, no
    spaces, one final line end), each record encoded once for its digest and the bundle, and
    its bytes copied once, into the bundle's (at size M the bundle is some 13 MB)."""
    return b"".join(pieces(manifest_json, games, players, carried, signature))


def pieces(manifest_json: Mapping[str, bytes], games: Sequence[bytes],
           players: Sequence[bytes], carried: Sequence[bytes],
           signature: Mapping[str, str] | None = None) -> Iterator[bytes]:
    """``encoded``'s bytes a piece at a time (a record, a comma, a key ...), for a writer that
    never holds them joined."""
    values = {"format": [canonical_json(BUNDLE_FORMAT)], "manifest": list(_members(manifest_json)),
              "games": _listed(games), "players": _listed(players),
              "carried": _listed(carried)}
    if signature is not None:
        values["signature"] = [canonical_json(dict(signature))]
    yield b"{"
    for n, key in enumerate(sorted(values)):
        yield from (b"," if n else b"", canonical_json(key), b":", *values[key])
    yield b"}\n"


def _listed(items: Sequence[bytes]) -> list[bytes]:
    """The pieces of the JSON array of ``items`` (each an element's JSON), to be joined once."""
    pieces = [b"["]
    for n, item in enumerate(items):
        if n:
            pieces.append(b",")
        pieces.append(item)
    pieces.append(b"]")
    return pieces
