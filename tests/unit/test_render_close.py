"""``cli.render.close_json``: each player's row of ``period close --json``, written from
precomputed strings, is the text ``json.dumps(indent=2, ensure_ascii=False)`` gives for
``rated_player_dict``, at any nesting, with late games, no games, a capped K, carried hundredths
and awkward names."""

from __future__ import annotations

import json
from array import array

import pytest

from ledger.cli.render.close_json import _rendered_players, _Writer, rated_player_dict
from ledger.cli.render.values import indented_json, write_json
from ledger.domain import KReason
from ledger.rules.row_results import RowResult
from ledger.services.close.close_report import CloseReport, RatedPlayer

NAMES = {1: "Alpha, Ann", 2: 'Ó"Brien, Bé\\', 3: "100% Gamma\t", 4: "Δέλτα, Δ"}


def _players() -> list[RatedPlayer]:
    # sides: game id, opponent, own rating, opponent's, D, D counted, PD hundredths, S halves
    alpha = RowResult(1, 2000, 20, 20, KReason.STANDARD, 3, 72, 1560, 16, 0, array("q", [
        7, 2, 2000, 1900, 100, 100, 64, 2,       # D 100 -> PD .64, won
        9, 3, 2000, 2650, -650, -400, 8, 1]))    # D -650 counted -400 -> PD .08, drawn
    # K 40 x 18 games > 700: K cut to 38 (k_capped); -0.5 x 38 = -19 plus 1.25 carried
    capped = RowResult(2, 1500, 38, 40, KReason.NEW_PLAYER, 0, 50, -1775, -18, 125,
                       array("q", [8, 1, 1500, 1500, 0, 0, 50, 0]))
    # no game side (a correction carried in only): per_game empty
    none = RowResult(3, 2650, 10, 10, KReason.REACHED_2400, 0, 0, -50, -1, -50, array("q"))
    return [RatedPlayer(1, NAMES[1], 1001, alpha, NAMES), RatedPlayer(2, NAMES[2], None, capped,
                                                                     NAMES),
            RatedPlayer(3, NAMES[3], 3, none, NAMES)]


@pytest.mark.parametrize("level", [0, 2, 4])
@pytest.mark.parametrize("late", [set(), {9}])
def test_row_text_is_the_dumps_of_its_dict(level: int, late: set[int]) -> None:
    report = CloseReport("2026-09", "2025-10", False, _players())
    for p, rendered in zip(report.players, _rendered_players(report, late, 1), strict=True):
        expected = json.dumps(rated_player_dict(p, "standard", late), indent=2, ensure_ascii=False)
        assert rendered.text(level) == expected.replace("\n", "\n" + "  " * level)


def test_values_by_hand() -> None:
    report = CloseReport("2026-09", "2025-10", False, _players())
    rows = [json.loads(r.text(2)) for r in _rendered_players(report, {9}, 1)]
    alpha, capped, none = rows
    # 1.5 points - .72 = +.78; 20 x .78 = +15.6 -> +16
    assert (alpha["score"], alpha["expected"], alpha["surplus"], alpha["change_exact"]) == (
        1.5, 0.72, 0.78, 15.6)
    assert [(g["game_id"], g["opponent"], g["expected"], g["score"], g["late"])
            for g in alpha["per_game"]] == [(7, 'Ó"Brien, Bé\\', 0.64, 1, False),
                                           (9, "100% Gamma\t", 0.08, 0.5, True)]
    assert (capped["fide_id"], capped["k"], capped["k_capped"], capped["carried"],
            capped["change_exact"]) == (None, 38, True, 1.25, -17.75)
    assert (none["per_game"], none["surplus"], none["carried"]) == ([], 0, -0.5)


@pytest.mark.parametrize("batch", [1, 2, 64])  # the three players one a batch, 2 + 1, all in one
def test_streamed_in_a_document(batch: int) -> None:
    report = CloseReport("2026-09", "2025-10", False, _players())
    pieces: list[str] = []
    write_json({"closed": [{"results": _rendered_players(report, set(), batch)}]}, pieces.append)
    text = "".join(pieces)
    plain = {"closed": [{"results": [rated_player_dict(p, "standard", set()) for p in report.players]}]}
    assert text == indented_json(plain) + "\n"


def _mixed_players() -> list[RatedPlayer]:
    """``_players`` and a fourth whose sides are 32-bit (the array path's ``"i"``)."""
    delta = RowResult(4, 1800, 20, 20, KReason.STANDARD, 2, 36, 1280, 13, 0, array("i", [
        11, 1, 1800, 2000, -200, -200, 24, 2]))  # D -200 -> PD .24, won: 20 x .76 = 15.2
    return [*_players(), RatedPlayer(4, NAMES[4], 4004, delta, NAMES)]


@pytest.mark.parametrize("late", [set(), {9}, {11}])
@pytest.mark.parametrize("batch", [1, 2, 3, 4])
def test_joined_batches_and_their_fallbacks(late: set[int], batch: int) -> None:
    # batches of players all with game sides of one width and no late game are one join; a
    # batch with a player without sides, of two widths or with a late game is written a
    # player at a time: the same text either way
    report = CloseReport("2026-09", "2025-10", False, _mixed_players())
    pieces: list[str] = []
    write_json({"results": _rendered_players(report, late, batch)}, pieces.append)
    plain = {"results": [rated_player_dict(p, "standard", late) for p in report.players]}
    assert "".join(pieces) == indented_json(plain) + "\n"


def test_one_join_for_a_batch_by_hand() -> None:
    report = CloseReport("2026-09", "2025-10", False, _mixed_players())
    players = [report.players[0], report.players[1]]
    writer = _Writer("standard", set())
    text = writer._joined(players, 1)
    assert text is not None  # the join, not a player at a time
    alpha, capped = json.loads("[" + text + "]")
    assert [(g["game_id"], g["opponent"], g["opponent_rating"], g["difference"],
             g["counted_difference"], g["expected"], g["score"], g["late"])
            for g in alpha["per_game"]] == [(7, 'Ó"Brien, Bé\\', 1900, 100, 100, 0.64, 1, False),
                                           (9, "100% Gamma\t", 2650, -650, -400, 0.08, 0.5, False)]
    assert [(g["game_id"], g["opponent"], g["score"]) for g in capped["per_game"]] == [
        (8, "Alpha, Ann", 0)]
    assert writer._joined([report.players[0], report.players[3]], 1) is None  # "q" and "i"
    assert writer._joined([report.players[2]], 1) is None  # no game side
    assert _Writer("standard", {7})._joined(players, 1) is None  # game 7 late
