"""``ledger period report`` on a small ledger whose changes are worked by hand (table 8.1.2,
docs/RULES.md §4-§5)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.domain import KReason
from ledger.errors import InvalidInput, NotFound
from ledger.services.close.periods import close_period
from ledger.services.publishing.reports import period_report
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def player(engine: Engine, name: str, rating: int | None, prior_games: int = 100,
           **extra: object) -> None:
    add_player(engine, NewPlayer(name=name, rating=rating, prior_games=prior_games, **extra))


@pytest.fixture
def december(engine: Engine) -> Engine:
    """December 2025, closed: the list of 1 January 2026."""
    player(engine, "Alpha, A", 2395)                       # adult, 100 games: K 20
    player(engine, "Beta, B", 2395)                        # K 20
    player(engine, "New, N", 1600, prior_games=26)         # fewer than 30 games: K 40
    player(engine, "Mid, M", 1600)                         # K 20
    player(engine, "Junior, J", 1500, birth_year=2007)     # 2025 - 2007 = 18: junior, K 40
    player(engine, "Unrated, U", None)
    add_game(engine, "Alpha, A", "Beta, B", "1-0", "2025-12-02")
    for day in ("2025-12-03", "2025-12-10", "2025-12-17", "2025-12-24"):
        add_game(engine, "New, N", "Mid, M", "1-0", day)
    add_game(engine, "Beta, B", "Mid, M", "+/-", "2025-12-05")         # forfeit: never rated
    add_game(engine, "Unrated, U", "Mid, M", "1/2-1/2", "2025-12-06")  # unrated player
    close_period(engine, "2025-12")
    return engine


def test_gains_losses_and_k_changes(december: Engine) -> None:
    r = period_report(december, "2025-12")
    assert (r.period, r.edition, r.in_force_from, r.players_rated) == (
        "2025-12", "2025-10", "2026-01-01", 4)
    # New: 4 wins v 1600 at 1600: D = 0 -> .50 each; sum 4 x (1 - .50) = 2.00; K 40 -> +80 -> 1680
    # Alpha: win v 2395 at 2395: D = 0 -> .50; 1 - .50 = 0.50; K 20 -> +10 -> 2405
    assert [(c.name, c.rating_before, c.change, c.rating_after, c.games, c.score, c.expected, c.k)
            for c in r.gains] == [
        ("New, N", 1600, 80, 1680, 4, Decimal(4), Decimal("2.00"), 40),
        ("Alpha, A", 2395, 10, 2405, 1, Decimal(1), Decimal("0.50"), 20)]
    # Mid: 4 losses at .50: -2.00 x K 20 = -40 -> 1560; Beta: 0 - .50 = -0.50 x 20 = -10 -> 2385
    assert [(c.name, c.change, c.rating_after) for c in r.losses] == [
        ("Mid, M", -40, 1560), ("Beta, B", -10, 2385)]
    # K for December -> K for January 2026 (RULES §4):
    # Alpha: 2405 on the January list reached 2400 -> 10 for ever;
    # Junior: 2026 - 2007 = 19 -> no longer a junior; 100 games -> 20 (played no game: still listed);
    # New: 26 + 4 = 30 rated games -> 20.
    assert [(k.name, k.k_before, k.reason_before, k.k_after, k.reason_after) for k in r.k_changes] == [
        ("Alpha, A", 20, KReason.STANDARD, 10, KReason.REACHED_2400),
        ("Junior, J", 40, KReason.JUNIOR, 20, KReason.STANDARD),
        ("New, N", 40, KReason.NEW_PLAYER, 20, KReason.STANDARD)]
    assert [k.why for k in r.k_changes] == [
        "published rating reached 2400 (2405 on this list): K 10 for ever",
        "no longer a junior in 2026 (born 2007)",
        "30 rated games completed (30 needed for K 20)"]
    # 5 games rated; the forfeit and the game of the unrated player are not
    assert len(r.games) == 5
    assert dict(r.not_rated) == {"forfeit": 1, "unrated player": 1}
    first = r.games[0]
    assert (first.game.white, first.game.black, first.game.result) == ("Alpha, A", "Beta, B", "1-0")
    assert (first.white_rating, first.black_rating) == (2395, 2395)
    assert (first.white_expected, first.black_expected) == (Decimal("0.50"), Decimal("0.50"))


def test_top_limits_gains_and_losses(december: Engine) -> None:
    r = period_report(december, top=1)  # default period: the latest closed
    assert [c.name for c in r.gains] == ["New, N"]
    assert [c.name for c in r.losses] == ["Mid, M"]
    with pytest.raises(InvalidInput, match="top"):
        period_report(december, top=0)


def test_a_period_not_closed_is_refused(december: Engine) -> None:
    with pytest.raises(NotFound, match="2026-01"):
        period_report(december, "2026-01")


def test_period_report_json(december: Engine, ledger_db: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["--db", ledger_db, "period", "report", "2025-12", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["games_rated"], data["not_rated"]) == (5, {"forfeit": 1, "unrated player": 1})
    assert [(g["name"], g["change"]) for g in data["gains"]] == [("New, N", 80), ("Alpha, A", 10)]
    assert [(k["name"], k["k_before"], k["k_after"]) for k in data["k_changes"]] == [
        ("Alpha, A", 20, 10), ("Junior, J", 40, 20), ("New, N", 40, 20)]
    assert data["games"][0]["white_expected"] == 0.5
    table = CliRunner().invoke(app, ["--db", ledger_db, "period", "report", "2025-12"])
    assert table.exit_code == 0
    assert "no longer a junior in 2026 (born 2007)" in " ".join(table.stdout.split())


def test_new_ratings_and_floor_drops(engine: Engine) -> None:
    for rating in (1600, 1700, 1800, 1900, 2000):
        player(engine, f"Rated, {rating}", rating)
    player(engine, "New, Una", None)
    player(engine, "Low, Lou", 1402)
    for day, opponent, result in (("2025-11-03", 1600, "1-0"), ("2025-11-04", 1700, "1-0"),
                                  ("2025-11-05", 1800, "1-0"), ("2025-11-06", 1900, "1/2-1/2"),
                                  ("2025-11-07", 2000, "0-1")):
        add_game(engine, "New, Una", f"Rated, {opponent}", result, day)
    add_game(engine, "Rated, 1600", "Low, Lou", "1-0", "2025-11-10")
    close_period(engine, "2025-11")
    r = period_report(engine, "2025-11")
    # RULES §6: opponents 1600..2000 and 3.5 points, with two hypothetical 1800 draws:
    # Ra = (9000 + 3600) / 7 = 1800; p = 4.5 / 7 = .643 -> .64 -> dp 102; Ru = 1902 (>= 1400)
    assert [(n.name, n.rating, n.games, n.score) for n in r.new_ratings] == [
        ("New, Una", 1902, 5, Decimal("3.5"))]
    # Lou 1402 lost to 1600: D = -198 -> band 198-206 -> .76, Lou .24; 0 - .24 = -0.24;
    # K 20 -> -4.8 -> -5 -> 1397, below the 1400 floor
    assert [(d.name, d.rating, d.floor) for d in r.floor_drops] == [("Low, Lou", 1397, 1400)]
    # the five games of Una's pool count only for her initial rating, not for her rated
    # opponents (§8.3.1)
    assert dict(r.not_rated) == {"initial rating": 5}
    assert len(r.games) == 1
