"""``rules.recount`` and ``formats.bundle`` without any database: a list recounted from facts
written by hand, and a bundle of them verified (``ledger.verify``) from a file. Values worked by
hand in the comments (table 8.1.2; docs/RULES.md)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest

from ledger.domain import Period, PlayerState, RatedGame, Result
from ledger.formats import bundle as bundles
from ledger.formats import bundle_json
from ledger.formats.bundle import BundleError
from ledger.formats.canonical import canonical_json
from ledger.rules.editions import Edition
from ledger.rules.recount import ListFacts, recount
from ledger.verify import verify

NOVEMBER = Period(2025, 11)
ADULT = dict(birth_year=1980, rated_games=100)


def facts() -> dict[int, ListFacts]:
    return {
        1: ListFacts(PlayerState(2000, **ADULT), "Ash, Ann", listed_since=Period(2024, 1),
                     last_rated=Period(2025, 10)),
        2: ListFacts(PlayerState(1800, **ADULT), "Birch, Bo", listed_since=Period(2024, 1),
                     last_rated=Period(2025, 10)),
        # no rated game since 2024-06: none in the 12 periods 2024-12 .. 2025-11: inactive
        3: ListFacts(PlayerState(1500, **ADULT), "Cedar, Cy", listed_since=Period(2024, 1),
                     last_rated=Period(2024, 6)),
    }


GAMES = [RatedGame(7, None, 1, 2, 2000, 1800, Result.WHITE_WINS)]


def test_a_list_recounted_from_facts_written_by_hand() -> None:
    rows = recount(NOVEMBER, "standard", Edition.E2025_10, GAMES, facts(), {})
    # D 200 -> PD .76 for Ash, .24 for Birch (table 8.1.2, band 198-206); K 20 each (adults,
    # 100 games, below 2400): Ash +.24 x 20 = 4.8 -> +5: 2005; Birch -4.8 -> -5: 1795
    assert [(r["rank"], r["name"], r["rating"], r["games"], r["k"], r["inactive"])
            for r in rows] == [(1, "Ash, Ann", 2005, 1, 20, False),
                               (2, "Birch, Bo", 1795, 1, 20, False),
                               (3, "Cedar, Cy", 1500, 0, 20, True)]
    # 100 hundredths carried into Birch's period: -4.8 + 1.00 = -3.8 -> -4: 1796
    carried = recount(NOVEMBER, "standard", Edition.E2025_10, GAMES, facts(), {2: 100})
    assert [r["rating"] for r in carried] == [2005, 1796, 1500]


def _bundle_file(tmp_path: Path) -> Path:
    players = [bundles.player_record(pid, f) for pid, f in facts().items()]
    g = GAMES[0]
    games = [bundles.game_record(g.game_id, g.event_key, dt.date(2025, 11, 8), g.white_id,
                                 g.black_id, g.white_rating, g.black_rating, g.result.value,
                                 g.played, g.unequal_times)]
    assert games[0]["date"] == "2025-11-08"
    rows = recount(NOVEMBER, "standard", Edition.E2025_10, GAMES, facts(), {})
    manifest = bundles.manifest(NOVEMBER, "standard", 1, Edition.E2025_10, "test", rows, games,
                                players, [])
    path = tmp_path / "hand.json.gz"
    path.write_bytes(bundles.encode(bundles.bundle(manifest, games, players, []),
                                    compress=True))
    return path


def test_a_bundle_written_by_hand_verifies_and_a_changed_birth_year_fails(
        tmp_path: Path) -> None:
    path = _bundle_file(tmp_path)
    assert verify(path).ok
    whole = bundles.read(path.read_bytes(), str(path)).raw
    # Birch born 2010: a junior (15 in 2025) under 2300, K 40: -.24 x 40 = -9.6 -> -10: 1790
    next(p for p in whole["players"] if p["id"] == 2)["birth_year"] = 2010
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(whole), encoding="utf-8")
    verdict = verify(changed)
    assert [str(d) for d in verdict.differences] == [
        "player 2 (Birch, Bo): rating: bundle 1795, recounted 1790",
        "player 2 (Birch, Bo): k: bundle 20, recounted 40",
        "player 2 (Birch, Bo): k_reason: bundle 'standard', recounted 'junior'",
        "player 2 (Birch, Bo): birth_year: bundle 1980, recounted 2010"]
    assert verdict.problems[0].startswith("player 2: its digest")


@pytest.mark.parametrize(("change", "message"), [
    (lambda w: w["players"][0].pop("rating"), "players[0]: no rating"),
    (lambda w: w["players"][1].update(rated_games=-3), "players[1].rated_games: -3 is not a "
                                                       "whole number"),
    (lambda w: w["games"][0].update(white=9), "games[0]: player 9 is not in players"),
    (lambda w: w["manifest"].update(edition="2019-01"), "manifest.edition: '2019-01' is not a "
                                                        "rule edition"),
    (lambda w: w.update(format="zip"), "format: 'zip' is not 'ledger-bundle/1'"),
])
def test_a_bad_bundle_names_its_field(tmp_path: Path, change: object, message: str) -> None:
    path = _bundle_file(tmp_path)
    whole = bundles.read(path.read_bytes(), str(path)).raw
    change(whole)  # type: ignore[operator]
    with pytest.raises(BundleError) as raised:
        bundles.read(json.dumps(whole).encode(), "bad.json")
    assert str(raised.value).startswith(f"bad.json: {message}")


def test_a_bundle_from_its_records_json_is_encode_s_bytes() -> None:
    """``formats.bundle_json.encoded`` (each record encoded once, for its digest and the bundle)
    writes the bytes ``encode(bundle(...))`` writes, and ``manifest_parts`` the manifest."""
    players = [bundles.player_record(pid, f) for pid, f in facts().items()]
    g = GAMES[0]
    games = [bundles.game_record(g.game_id, g.event_key, dt.date(2025, 11, 8), g.white_id,
                                 g.black_id, g.white_rating, g.black_rating, g.result.value,
                                 g.played, g.unequal_times)]
    assert games[0]["date"] == "2025-11-08"
    carried = [bundles.carried_record(3, -5)]
    rows = recount(NOVEMBER, "standard", Edition.E2025_10, GAMES, facts(), {3: -5})
    manifest = bundles.manifest(NOVEMBER, "standard", 1, Edition.E2025_10, "test", rows, games,
                                players, carried)
    json_of = [bundle_json.records_json(r) for r in (games, players, carried)]
    assert json_of[2] == [b'{"hundredths":-5,"player":3}']
    again, parts = bundle_json.manifest_parts(
        NOVEMBER, "standard", 1, Edition.E2025_10, "test", rows, ([7], json_of[0]),
        ([1, 2, 3], json_of[1]), ([3], json_of[2]))
    assert again == manifest
    signature = {"algorithm": "ed25519", "public_key": "ab", "value": "cd"}
    for signed in (None, signature):
        data = bundle_json.encoded(parts, json_of[0], json_of[1], json_of[2], signed)
        assert data == bundles.encode(bundles.bundle(manifest, games, players, carried, signed))
        assert data.startswith(b'{"carried":[{"hundredths":-5,"player":3}],'
                               b'"format":"ledger-bundle/1","games":[{"black":2,')
        assert data.endswith(b',"signature":{"algorithm":"ed25519","public_key":"ab",'
                             b'"value":"cd"}}\n' if signed else b'"title":null}]}\n')


def test_the_facts_digests_are_sorted_as_text_and_made_without_their_object() -> None:
    """``manifest_parts``' facts: the ids in the order of their text (``"10"`` before ``"2"``,
    ``"12"`` before ``"123"``), each record's SHA-256; ``whole=False`` gives the same parts and
    no manifest; an id twice keeps its last digest, as the object would."""
    records = [b"{}", b"[]", b"1", b"2"]
    hexes = {r: hashlib.sha256(r).hexdigest() for r in records}
    rows: list[dict[str, object]] = []
    whole, parts = bundle_json.manifest_parts(
        NOVEMBER, "standard", 1, Edition.E2025_10, "test", rows, ([123, 2, 12, 10], records),
        ([], []), ([5, 5], [b"1", b"2"]))
    assert parts["facts"] == (
        b'{"carried":{"5":"' + hexes[b"2"].encode() + b'"},"games":{"10":"'
        + hexes[b"2"].encode() + b'","12":"' + hexes[b"1"].encode() + b'","123":"'
        + hexes[b"{}"].encode() + b'","2":"' + hexes[b"[]"].encode() + b'"},"players":{}}')
    assert whole is not None and list(whole["facts"]["games"]) == ["123", "2", "12", "10"]
    none, alone = bundle_json.manifest_parts(
        NOVEMBER, "standard", 1, Edition.E2025_10, "test", rows, ([123, 2, 12, 10], records),
        ([], []), ([5, 5], [b"1", b"2"]), whole=False)
    assert none is None and alone == parts
    assert bundle_json.joined(parts) == canonical_json(whole)
