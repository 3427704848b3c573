"""A list's bundle and its manifest (issue 24; docs/VERIFY.md "Manifests", "Bundles"): JSON
records <-> the values ``rules.recount`` rates, and the manifest's digest.

A bundle (``format`` ``ledger-bundle/1``; gzip-compressed or not) holds the facts one close read
(``games``, ``players``, ``carried``) and the ``manifest`` of the list it published (its rows, the
rule edition, the ledger's version, the SHA-256 of each fact, one digest over them), and may hold
a ``signature`` of the manifest (``formats.signatures``). Every digest is
``formats.canonical.digest``: SHA-256 of the canonical JSON.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ledger.domain import POOLS, Period, PlayerState, RatedGame, RatingPool, Result
from ledger.errors import InvalidInput
from ledger.formats.bundle_json import BUNDLE_FORMAT as BUNDLE_FORMAT
from ledger.formats.bundle_json import LIST_DIGEST_COLUMNS as LIST_DIGEST_COLUMNS
from ledger.formats.bundle_json import MANIFEST_FORMAT as MANIFEST_FORMAT
from ledger.formats.bundle_json import list_digest as list_digest
from ledger.formats.bundle_json import manifest as manifest
from ledger.formats.canonical import digest
from ledger.rules.editions import Edition
from ledger.rules.initial import Pool, PoolGame
from ledger.rules.recount import ROW_FIELDS, ListFacts

#: A bundle's keys, and a player's, a game's, a pool game's (each read and written as such).
GAME_KEYS = ("id", "event", "date", "white", "black", "white_rating", "black_rating", "result",
             "played", "unequal_times")
PLAYER_KEYS = ("id", "name", "fide_id", "federation", "title", "sex", "birth_year", "listed",
               "rating", "rated_games", "reached_2400", "reached_2300", "seeded", "standard",
               "listed_since", "last_rated", "pool")
POOL_GAME_KEYS = ("game", "event", "period", "opponent", "opponent_rating", "score")
#: The manifest's keys its digest does not cover: the digest itself, the version of the
#: ledger that wrote it (a list recounted by a later version keeps its digest), and the list
#: digest (``list_digest``: the digest of ``rows``, which the digest covers; ``ledger.verify``
#: checks it against them).
UNDIGESTED = ("digest", "ledger_version", "list_digest")


class BundleError(InvalidInput):
    """A bundle that cannot be read: the message names the file and the field."""


# --- writing -----------------------------------------------------------------------------------

def game_record(game_id: int, event: int | str | None, date: dt.date, white: int, black: int,
                white_rating: int | None, black_rating: int | None, result: str, played: bool,
                unequal_times: bool) -> dict[str, Any]:
    """A game of the bundle: ``GAME_KEYS`` (a ``RatedGame``'s values and the game's ``date``,
    written ISO; ``result`` as ``game add`` writes it, ``Result.value``)."""
    return {"id": game_id, "event": event, "date": date.isoformat(), "white": white,
            "black": black, "white_rating": white_rating, "black_rating": black_rating,
            "result": result, "played": played, "unequal_times": unequal_times}


def player_record(pid: int, facts: ListFacts) -> dict[str, Any]:
    """A player of the bundle: ``PLAYER_KEYS`` (periods as ``YYYY-MM``, scores as strings)."""
    s = facts.state
    return {"id": pid, "name": facts.name, "fide_id": facts.fide_id,
            "federation": facts.federation, "title": facts.title, "sex": facts.sex,
            "birth_year": s.birth_year, "listed": facts.listed, "rating": s.rating,
            "rated_games": s.rated_games, "reached_2400": s.reached_2400,
            "reached_2300": s.reached_2300, "seeded": facts.seeded, "standard": facts.standard,
            "listed_since": _period_text(facts.listed_since),
            "last_rated": _period_text(facts.last_rated),
            "pool": None if facts.pool is None else {
                "games": [_pool_game(g) for g in facts.pool.games],
                "disregarded": [_pool_game(g) for g in facts.pool.disregarded]}}


def carried_record(pid: int, hundredths: int) -> dict[str, Any]:
    """A carried correction of the bundle: the player and the hundredths carried into the period."""
    return {"player": pid, "hundredths": hundredths}


def manifest_digest(manifest: Mapping[str, Any]) -> str:
    """The digest ``manifest`` should carry: over every key but ``UNDIGESTED``."""
    return digest({k: v for k, v in manifest.items() if k not in UNDIGESTED})


def bundle(manifest: Mapping[str, Any], games: Sequence[Mapping[str, Any]],
           players: Sequence[Mapping[str, Any]], carried: Sequence[Mapping[str, Any]],
           signature: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The bundle's one JSON object (``signature``: ``formats.signatures.sign``'s, or none)."""
    whole = {"format": BUNDLE_FORMAT, "manifest": dict(manifest), "games": list(games),
             "players": list(players), "carried": list(carried)}
    if signature is not None:
        whole["signature"] = dict(signature)
    return whole


def encode(whole: Mapping[str, Any], *, compress: bool = False) -> bytes:
    """The bundle's bytes: its JSON (UTF-8, keys sorted, no spaces, one final line end),
    gzip-compressed when ``compress`` (with no file name or time in the header: the same bytes
    each time)."""
    data = (json.dumps(whole, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            + "\n").encode("utf-8")
    return gzip.compress(data, mtime=0) if compress else data


#: What ``stamp`` looks for in a bundle's bytes (``encode``: keys sorted, no spaces; a string
#: value cannot hold an unescaped quote, so these bytes are the keys themselves).
_LIST_DIGEST_KEY = re.compile(rb'"list_digest":"([0-9a-f]{64})"')
_SIGNER_KEY = re.compile(rb'"signature":\{"algorithm":"[^"]*","public_key":"([0-9a-f]*)"')


def stamp(data: bytes) -> tuple[str | None, str | None]:
    """(the manifest's ``list_digest``, the signature's public key in hex or None: unsigned) of
    a bundle ``encode`` wrote uncompressed, found in its bytes without reading it as JSON (a
    bundle at size M is some 30 MB): what a site build checks before it keeps a bundle it
    wrote before. (None, None) for bytes that hold no list digest."""
    found = _LIST_DIGEST_KEY.search(data)
    signer = _SIGNER_KEY.search(data)
    return (None if found is None else found[1].decode("ascii"),
            None if signer is None else signer[1].decode("ascii"))


# --- reading -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bundle:
    """A bundle read back: the list's key, edition, the facts as ``rules.recount`` takes them,
    and the records as written (``raw``: the whole JSON object, for the digests)."""

    period: Period
    pool: RatingPool
    revision: int
    edition: Edition
    games: list[RatedGame]
    players: dict[int, ListFacts]
    carried: dict[int, int]
    raw: dict[str, Any]

    @property
    def manifest(self) -> dict[str, Any]:
        """The manifest as the bundle holds it."""
        return self.raw["manifest"]  # type: ignore[no-any-return]


def read(data: bytes, name: str) -> Bundle:
    """The bundle in ``data`` (JSON, gzip-compressed or not), from the file ``name`` (for the
    messages). Raises ``BundleError`` naming the file and the field for anything else."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise BundleError(f"{name}: not a readable gzip file: {exc}") from None
    try:
        whole = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise BundleError(f"{name}: not UTF-8 text (byte {exc.start + 1})") from None
    except json.JSONDecodeError as exc:
        raise BundleError(f"{name}: not JSON: line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg}") from None
    at = _Reader(name)
    top = at.obj(whole, "the bundle")
    if top.get("format") != BUNDLE_FORMAT:
        raise BundleError(f"{name}: format: {top.get('format')!r} is not {BUNDLE_FORMAT!r}")
    man = at.obj(top.get("manifest"), "manifest")
    if man.get("format") != MANIFEST_FORMAT:
        raise BundleError(f"{name}: manifest.format: {man.get('format')!r} is not "
                          f"{MANIFEST_FORMAT!r}")
    period = at.period(man.get("period"), "manifest.period", required=True)
    assert period is not None  # required: a BundleError otherwise
    pool = man.get("pool")
    if pool not in POOLS:
        raise BundleError(f"{name}: manifest.pool: {pool!r} is not one of {', '.join(POOLS)}")
    revision = at.integer(man.get("revision"), "manifest.revision")
    try:
        edition = Edition(man.get("edition"))
    except ValueError:
        raise BundleError(f"{name}: manifest.edition: {man.get('edition')!r} is not a rule "
                          f"edition ({', '.join(e.value for e in Edition)})") from None
    for key in ("rows",):
        rows = at.array(man.get(key), f"manifest.{key}")
        for i, row in enumerate(rows):
            missing = [f for f in ROW_FIELDS if f not in at.obj(row, f"manifest.rows[{i}]")]
            if missing:
                raise BundleError(f"{name}: manifest.rows[{i}]: no {', '.join(missing)}")
    at.obj(man.get("facts"), "manifest.facts")
    games = [at.game(g, f"games[{i}]") for i, g in enumerate(at.array(top.get("games"), "games"))]
    players: dict[int, ListFacts] = {}
    for i, p in enumerate(at.array(top.get("players"), "players")):
        pid, facts = at.player(p, f"players[{i}]")
        if pid in players:
            raise BundleError(f"{name}: players[{i}].id: player {pid} is listed twice")
        players[pid] = facts
    carried: dict[int, int] = {}
    for i, c in enumerate(at.array(top.get("carried"), "carried")):
        record = at.obj(c, f"carried[{i}]")
        carried[at.integer(record.get("player"), f"carried[{i}].player")] = at.integer(
            record.get("hundredths"), f"carried[{i}].hundredths", signed=True)
    for i, g in enumerate(games):
        for side in (g.white_id, g.black_id):
            if side not in players:
                raise BundleError(f"{name}: games[{i}]: player {side} is not in players")
    return Bundle(period, pool, revision, edition, games, players, carried, top)


class _Reader:
    """Checks one value at a time, naming the file and the field of the first one wrong."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, what: str) -> BundleError:
        return BundleError(f"{self.name}: {where}: {what}")

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"{_kind(value)} where an object is needed")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"{_kind(value)} where a list is needed")
        return value

    def integer(self, value: Any, where: str, *, optional: bool = False,
                signed: bool = False) -> Any:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or (value < 0 and not signed):
            raise self.fail(where, f"{value!r} is not a{'n' if signed else ' whole'} "
                                   f"{'integer' if signed else 'number'}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"{value!r} is not true or false")
        return value

    def text(self, value: Any, where: str, *, optional: bool = True) -> Any:
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise self.fail(where, f"{value!r} is not a string")
        return value

    def period(self, value: Any, where: str, *, required: bool = False) -> Period | None:
        if value is None and not required:
            return None
        try:
            return Period.parse(value) if isinstance(value, str) else Period.parse("")
        except (InvalidInput, ValueError):
            raise self.fail(where, f"{value!r} is not a period YYYY-MM") from None

    def event(self, value: Any, where: str) -> int | str | None:
        if value is None or isinstance(value, str):
            return value
        return self.integer(value, where)  # type: ignore[no-any-return]

    def game(self, value: Any, where: str) -> RatedGame:
        g = self.obj(value, where)
        self.keys(g, GAME_KEYS, where)
        try:
            result = Result(g["result"])
        except ValueError:
            raise self.fail(f"{where}.result", f"{g['result']!r} is not a result "
                            f"({', '.join(r.value for r in Result)})") from None
        self.text(g["date"], f"{where}.date")
        try:
            return RatedGame(self.integer(g["id"], f"{where}.id"), self.event(g["event"],
                             f"{where}.event"), self.integer(g["white"], f"{where}.white"),
                             self.integer(g["black"], f"{where}.black"),
                             self.integer(g["white_rating"], f"{where}.white_rating",
                                          optional=True),
                             self.integer(g["black_rating"], f"{where}.black_rating",
                                          optional=True),
                             result, self.boolean(g["played"], f"{where}.played"),
                             self.boolean(g["unequal_times"], f"{where}.unequal_times"))
        except InvalidInput as exc:
            if isinstance(exc, BundleError):
                raise
            raise self.fail(where, str(exc)) from None

    def player(self, value: Any, where: str) -> tuple[int, ListFacts]:
        p = self.obj(value, where)
        self.keys(p, PLAYER_KEYS, where)
        pid = self.integer(p["id"], f"{where}.id")
        name = self.text(p["name"], f"{where}.name", optional=False)
        pool = None
        if p["pool"] is not None:
            record = self.obj(p["pool"], f"{where}.pool")
            counted, disregarded = (
                tuple(self.pool_game(g, f"{where}.pool.{key}[{i}]")
                      for i, g in enumerate(self.array(record.get(key), f"{where}.pool.{key}")))
                for key in ("games", "disregarded"))
            pool = Pool(counted, disregarded)
        try:
            state = PlayerState(
                self.integer(p["rating"], f"{where}.rating", optional=True),
                self.integer(p["birth_year"], f"{where}.birth_year", optional=True),
                self.integer(p["rated_games"], f"{where}.rated_games", optional=True),
                self.boolean(p["reached_2400"], f"{where}.reached_2400"),
                self.boolean(p["reached_2300"], f"{where}.reached_2300"))
        except InvalidInput as exc:
            if isinstance(exc, BundleError):
                raise
            raise self.fail(where, str(exc)) from None
        return pid, ListFacts(
            state, name, self.integer(p["fide_id"], f"{where}.fide_id", optional=True),
            self.text(p["federation"], f"{where}.federation"),
            self.text(p["title"], f"{where}.title"), self.text(p["sex"], f"{where}.sex"),
            self.boolean(p["listed"], f"{where}.listed"),
            self.integer(p["seeded"], f"{where}.seeded", optional=True),
            self.integer(p["standard"], f"{where}.standard", optional=True),
            self.period(p["listed_since"], f"{where}.listed_since"),
            self.period(p["last_rated"], f"{where}.last_rated"), pool)

    def pool_game(self, value: Any, where: str) -> PoolGame:
        g = self.obj(value, where)
        self.keys(g, POOL_GAME_KEYS, where)
        if g["score"] not in ("1", "0.5", "0"):
            raise self.fail(f"{where}.score", f"{g['score']!r} is not \"1\", \"0.5\" or \"0\"")
        period = self.period(g["period"], f"{where}.period", required=True)
        assert period is not None
        return PoolGame(self.integer(g["game"], f"{where}.game"),
                        self.event(g["event"], f"{where}.event"), period,
                        self.integer(g["opponent"], f"{where}.opponent"),
                        self.integer(g["opponent_rating"], f"{where}.opponent_rating"),
                        Decimal(g["score"]))

    def keys(self, record: dict[str, Any], keys: Sequence[str], where: str) -> None:
        missing = [k for k in keys if k not in record]
        if missing:
            raise self.fail(where, f"no {', '.join(missing)}")


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def _period_text(period: Period | None) -> str | None:
    return None if period is None else str(period)


def _pool_game(g: PoolGame) -> dict[str, Any]:
    return {"game": g.game_id, "event": g.event_key, "period": str(g.period),
            "opponent": g.opponent_id, "opponent_rating": g.opponent_rating,
            "score": _score_text(g.score)}


def _score_text(score: Decimal) -> str:
    return {Decimal(1): "1", Decimal("0.5"): "0.5", Decimal(0): "0"}[score]
