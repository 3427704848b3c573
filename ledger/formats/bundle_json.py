"""A list's manifest and a bundle's bytes as canonical JSON (issue 24; docs/VERIFY.md
"Manifests", "Bundles"), each record encoded once: its canonical JSON (``records_json``) is what
its digest in the manifest is taken over and what the bundle holds (``encoded``), so a bundle is
written without encoding its records again (``formats.bundle`` reads bundles and re-exports
``manifest``, ``list_digest`` and the formats' names).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, cast

from ledger.domain import Period, RatingPool
from ledger.formats.canonical import canonical_json, sha256_hex
from ledger.rules.editions import Edition
from ledger.rules.recount import ROW_FIELDS

BUNDLE_FORMAT = "ledger-bundle/1"
MANIFEST_FORMAT = "ledger-manifest/1"
#: A list row's values as the list digest takes them, in this order (``services.core.chain``'s
#: ``LIST_COLUMNS``, which ``period_revisions.digest`` is taken over: a test holds them equal).
LIST_DIGEST_COLUMNS = ("rank", "player_id", "rating", "games", "k", "k_reason", "inactive", "name",
                       "fide_id", "federation", "title", "sex", "birth_year")


def list_digest(rows: Sequence[Any],
                as_row: Callable[[Any], Mapping[str, Any]] | None = None) -> str:
    """The list digest of ``rows`` (dicts with ``ROW_FIELDS``): the SHA-256 of the canonical JSON
    list of the rows ordered by rank then player id, each the array of its
    ``LIST_DIGEST_COLUMNS`` (encoded ``DIGEST_ROWS`` at a time): what the ledger stores for a
    list revision (``period_revisions.digest``, docs/VERIFY.md "A list's digest") and the
    site shows. ``as_row``: each row's dict, from what ``rows`` holds (made as it is
    encoded, then let go; None: ``rows`` are those dicts)."""
    shown = as_row or _same
    ordered = sorted(rows, key=lambda row: _ranked(shown(row)))

    def values(row: Any) -> list[Any]:  # the row's dict made once, not once a column
        found = shown(row)
        return [found[c] for c in LIST_DIGEST_COLUMNS]

    taken = hashlib.sha256()
    for piece in _array_pieces(ordered, values):
        taken.update(piece)
    return taken.hexdigest()


def _ranked(row: Mapping[str, Any]) -> tuple[Any, Any]:
    return row["rank"], row["player_id"]


def _rows_json(rows: Sequence[Any], as_row: Callable[[Any], Mapping[str, Any]]) -> bytes:
    """The canonical JSON of the list of ``as_row`` of each of ``rows``, encoded
    ``DIGEST_ROWS`` at a time (no list of every row's dict: at L some 80 MB), as a
    ``bytearray`` (bytes-like: never copied into ``bytes``)."""
    out = bytearray()
    for piece in _array_pieces(rows, as_row):
        out += piece
    return cast(bytes, out)


def _array_pieces(rows: Sequence[Any], element: Callable[[Any], Any]) -> Iterator[bytes]:
    """The canonical JSON of the array of ``element`` of each of ``rows``, a piece at a time:
    ``[``, then ``DIGEST_ROWS`` elements at a time (their array's JSON without its brackets,
    a comma before all but the first), then ``]``: a JSON array's text is its elements'
    joined by commas, so the pieces joined are the whole array's JSON."""
    yield b"["
    for start in range(0, len(rows), DIGEST_ROWS):
        if start:
            yield b","
        yield canonical_json([element(row) for row in rows[start:start + DIGEST_ROWS]])[1:-1]
    yield b"]"


#: The rows ``list_digest`` encodes at a time: a JSON array's text is its elements' joined by
#: commas, so the digest is taken over the same bytes without the whole array's JSON or its
#: lists (at L, 188,929 rows: some 60 MB at the bundle's peak).
DIGEST_ROWS = 1000


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


class Digested(NamedTuple):
    """A kind of record as ``manifest_parts`` takes it when its records' JSON is no longer
    held (a bundle's games, written as they were encoded: ``streamed``): each one's id
    (``ids``, unique) and the SHA-256 of its JSON, 32 bytes each in the ids' order
    (``digests``, their concatenation)."""

    ids: Sequence[int]
    digests: bytes | bytearray


def manifest_parts(period: Period, pool: RatingPool, revision: int, edition: Edition,
                   version: str, rows: Sequence[Any], games: Encoded | Digested,
                   players: Encoded, carried: Encoded, *, change: int | None = None,
                   reason: str | None = None, whole: bool = True,
                   as_row: Callable[[Any], Mapping[str, Any]] | None = None,
                   ) -> tuple[dict[str, Any] | None, dict[str, bytes]]:
    """``manifest`` from the records' ids (a game's ``id``, a player's, a carried
    correction's ``player``: unique within each kind) and their ``records_json`` (each pair of
    ``games``, ``players``, ``carried``), and each of its values' canonical JSON by key:
    ``encoded`` writes the bundle from them without encoding anything again, and the records
    themselves need not be kept. A row that is a dict of ``ROW_FIELDS`` in that order is
    published as it is (not copied: a 50,000-line list's rows are some 50 MB). ``whole``
    False: no manifest as a dict (None; the parts alone, ``joined`` is its canonical JSON),
    and no dict of the facts' digests (a 50,000-player list's is some 30 MB); then ``games``
    may be ``Digested`` (their JSON already written), and ``as_row`` gives each row's dict
    from what ``rows`` holds (a list's ``ListRow``), made as the rows are encoded (a thousand
    at a time) and never held together. The manifest's digest is taken over its parts as
    they are, never joined (at L they are some 130 MB)."""
    if as_row is None or whole:
        rows = [_published((as_row or _same)(row)) for row in rows]
    kinds = {"games": games, "players": players, "carried": carried}
    body = {"format": MANIFEST_FORMAT, "period": str(period), "pool": pool,
            "revision": revision, "supersedes": revision - 1 if revision > 1 else None,
            "change": change, "reason": reason, "edition": edition.value, "rows": rows}
    shown = _same if as_row is None or whole else as_row
    parts = {key: canonical_json(value) for key, value in body.items() if key != "rows"}
    parts["rows"] = _rows_json(rows, shown)
    facts = bytearray(b"{")
    for n, kind in enumerate(sorted(kinds)):
        facts += b"," + canonical_json(kind) + b":" if n else canonical_json(kind) + b":"
        _digests_into(facts, kinds[kind])
    facts += b"}"
    parts["facts"] = cast(bytes, facts)  # bytes-like, never copied (at L 80 MB)
    taken = hashlib.sha256()
    for piece in _members(parts):
        taken.update(piece)
    more = {"ledger_version": version, "list_digest": list_digest(rows, shown),
            "digest": taken.hexdigest()}
    parts.update((key, canonical_json(value)) for key, value in more.items())
    if not whole:
        return None, parts
    assert not isinstance(games, Digested)  # whole: the records' JSON is at hand
    body["facts"] = {kind: {str(key): sha256_hex(data) for key, data in zip(*pair, strict=True)}
                     for kind, pair in kinds.items()}
    return {**body, **more}, parts


def _same(row: Mapping[str, Any]) -> Mapping[str, Any]:
    return row


def _published(row: Mapping[str, Any]) -> Mapping[str, Any]:
    """A row as a manifest publishes it: a dict of ``ROW_FIELDS`` in that order as it is
    (not copied), else a copy of those fields."""
    return row if type(row) is dict and tuple(row) == ROW_FIELDS \
        else {name: row[name] for name in ROW_FIELDS}


def _digests_into(out: bytearray, pair: Encoded | Digested) -> None:
    """Onto ``out``, the canonical JSON of the object id -> SHA-256 of each record's JSON
    (``pair``: the ids and the records' JSON, or ``Digested``), made as bytes without that
    object or a piece a member: the members ``"ID":"HEX"`` in the order of their keys as text
    (``"10"`` before ``"2"``), as ``json.dumps(sort_keys=True)`` sorts them; an id twice keeps
    its last digest, as the object would (the sort keeps equal keys in their order). At L
    (1,000,000 games) the members as bytes were some 120 MB and the object's JSON was copied
    four times."""
    ids = pair[0]
    if isinstance(pair, Digested):
        raw = pair.digests

        def hex_of(n: int) -> str:
            return raw[32 * n:32 * n + 32].hex()
    else:
        records = pair[1]

        def hex_of(n: int) -> str:
            return hashlib.sha256(records[n]).hexdigest()
    # each key's text, a 0 byte (before every digit: "12" before "123") and its place (4
    # bytes, big-endian: an id twice stays in its order), sorted in place: no list of places
    keys = [b"%d\0%s" % (key, n.to_bytes(4, "big")) for n, key in enumerate(ids)]
    keys.sort()
    out += b"{"
    last = len(keys) - 1
    comma = b""
    for at, key in enumerate(keys):
        text = key[:-5]
        if at < last and keys[at + 1][:-5] == text:
            continue  # a key twice: its last digest only
        out += b'%s"%s":"%s"' % (comma, text, hex_of(int.from_bytes(key[-4:], "big"))
                                 .encode("ascii"))
        comma = b","
    out += b"}"


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
    return streamed(carried, games, lambda: (manifest_json, players, signature))


#: What ``streamed`` asks for once the games are written: the manifest's parts
#: (``manifest_parts``), the players' records' JSON and the signature (or None).
Rest = tuple[Mapping[str, bytes], Sequence[bytes], Mapping[str, str] | None]


def streamed(carried: Sequence[bytes], games: Iterable[bytes],
             rest: Callable[[], Rest]) -> Iterator[bytes]:
    """``pieces``' bytes, the games' JSON taken from ``games`` as it is written (a bundle's
    games are the bulk of it: at L 1,000,000 records, some 300 MB, that need not all be
    held), and the manifest, players and signature asked of ``rest`` only after the last
    game: the bundle's keys in their order (carried, format, games, manifest, players,
    signature), so a reader may digest the games as they go by."""
    yield b"{"
    yield from (canonical_json("carried"), b":", *_listed(carried))
    yield from (b",", canonical_json("format"), b":", canonical_json(BUNDLE_FORMAT))
    yield from (b",", canonical_json("games"), b":")
    yield from _listed(games)
    manifest_json, players, signature = rest()
    yield from (b",", canonical_json("manifest"), b":", *_members(manifest_json))
    yield from (b",", canonical_json("players"), b":", *_listed(players))
    if signature is not None:
        yield from (b",", canonical_json("signature"), b":", canonical_json(dict(signature)))
    yield b"}\n"


def _listed(items: Iterable[bytes]) -> Iterator[bytes]:
    """The pieces of the JSON array of ``items`` (each an element's JSON), as they come."""
    yield b"["
    for n, item in enumerate(items):
        if n:
            yield b","
        yield item
    yield b"]"
