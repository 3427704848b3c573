"""The life of a rating through the services (issue 4; shared/RULES.md §2, §6, §8): inactivity,
games against unrated players, initial ratings, the rating floor. Every expected number is worked
by hand beside it from tables 8.1.1 and 8.1.2."""

from __future__ import annotations

from sqlalchemy import Engine

from ledger.services.games import add_game, list_games
from ledger.services.lists import rating_list
from ledger.services.periods import close_period
from ledger.services.players import NewPlayer, add_player, show_player


def player(engine: Engine, name: str, rating: int | None, prior_games: int | None = 100,
           **extra: object) -> None:
    add_player(engine, NewPlayer(name=name, rating=rating, prior_games=prior_games, **extra))


def flags(engine: Engine, period: str, **kwargs: bool) -> dict[str, bool]:
    return {r.name: r.inactive for r in rating_list(engine, period, **kwargs).rows}


# ------------------------------------------------------------------------------------------------
# Inactivity (RULES §6): no rated game in the 12 periods ending with the list's period


def test_inactivity_set_after_twelve_months_and_cleared_by_one_game(engine: Engine) -> None:
    for name in ("A", "B", "C", "D"):
        player(engine, f"Player, {name}", 1800)
    add_game(engine, "Player, A", "Player, B", "1/2-1/2", "2025-01-15")
    close_period(engine, "2025-01")
    # registered after 2025-01 closed: rating in force from 2025-02, never plays
    player(engine, "Player, E", 1800)
    add_game(engine, "Player, C", "Player, D", "1/2-1/2", "2025-12-10")
    close_period(engine, "2025-12")
    # 2025-12 list: window 2025-01 .. 2025-12 holds A's and B's game -> active;
    # E entered 2025-02, after the window's start -> active
    assert flags(engine, "2025-12") == {f"Player, {n}": False for n in "ABCDE"}

    add_game(engine, "Player, C", "Player, D", "1/2-1/2", "2026-01-10")
    close_period(engine, "2026-01")
    # 2026-01 list: window 2025-02 .. 2026-01: no game for A, B; E held a rating all 12 periods
    assert flags(engine, "2026-01") == {"Player, A": True, "Player, B": True, "Player, C": False,
                                        "Player, D": False, "Player, E": True}

    add_game(engine, "Player, A", "Player, C", "1/2-1/2", "2026-03-07")
    close_period(engine, "2026-03")
    # one rated game in 2026-03 makes A active again; D's 2026-01 game is in the window
    assert flags(engine, "2026-03") == {"Player, A": False, "Player, B": True, "Player, C": False,
                                        "Player, D": False, "Player, E": True}
    # the rating does not change: B still 1800 (drawn v 1800 in 2025-01: D = 0 -> .50, 0)
    rows = {r.name: r for r in rating_list(engine, "2026-03").rows}
    assert rows["Player, B"].rating == 1800
    # --active leaves out B and E; ranks count the players shown (all 1800: rank 1)
    active = rating_list(engine, "2026-03", active_only=True).rows
    assert [(r.rank, r.name) for r in active] == [(1, "Player, A"), (1, "Player, C"),
                                                  (1, "Player, D")]


# ------------------------------------------------------------------------------------------------
# RULES §2 / §8.3.1: a rated player's game v an unrated player is recorded, not rated for them


def test_rated_player_beats_unrated_and_draws_2000(engine: Engine) -> None:
    player(engine, "Rated, Player", 1900)  # 100 games, adult -> K 20
    player(engine, "Unrated, Player", None, prior_games=0)
    player(engine, "Strong, Player", 2000)
    add_game(engine, "Rated, Player", "Unrated, Player", "1-0", "2025-11-03")
    add_game(engine, "Rated, Player", "Strong, Player", "1/2-1/2", "2025-11-10")
    report = close_period(engine, "2025-11")
    rated = {p.name: p.result for p in report.players}["Rated, Player"]
    # only the draw: D = -100 -> 1 - .64 = .36; 0.5 - .36 = +0.14; 20 x 0.14 = +2.8 -> +3
    assert (rated.n, rated.change, rated.rating_after) == (1, 3, 1903)
    # rated games: 100 + 1 (the win v the unrated player is not a rated game for them)
    assert show_player(engine, "Rated, Player").rated_games == 101
    assert [(g.white, g.status) for g in list_games(engine, None, "Unrated, Player")] == [
        ("Rated, Player", "not rated")]
