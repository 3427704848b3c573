"""Closing rating periods through the services, on a real SQLite file per test.

Every expected number is worked by hand beside it from table 8.1.2 (docs/RULES.md §3), the K
rules (§4) and the one rounding, half away from zero (§5); the cases are docs/CASES.md's.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import Engine, text

import ledger.services.close.periods as periods_service
from ledger.errors import InvalidInput, PeriodError
from ledger.services.close.periods import close_period, list_periods
from ledger.services.publishing.histories import history
from ledger.services.publishing.lists import rating_list
from ledger.services.register.games import add_game
from ledger.services.register.player_views import show_player
from ledger.services.register.players import NewPlayer, add_player


def player(engine: Engine, name: str, rating: int | None, prior_games: int | None = 100,
           **extra: object) -> None:
    add_player(engine, NewPlayer(name=name, rating=rating, prior_games=prior_games, **extra))


def results(report) -> dict[str, object]:
    return {p.name: p.result for p in report.players}


def count(engine: Engine, table: str) -> int:
    with engine.connect() as conn:
        return conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()


def audit_sides(engine: Engine) -> int:
    """Game sides in the packed audit: 32 bytes each (eight int32, db.audit_pack)."""
    with engine.connect() as conn:
        return int(conn.execute(text(
            "SELECT coalesce(sum(length(sides)), 0) FROM period_audits")).scalar_one()) // 32


# ------------------------------------------------------------------------------------------------
# The seed example (RULES §5)


def test_seed_example(engine: Engine) -> None:
    # prior_games 100, adult -> K 20 for all three.
    player(engine, "Player, Sixteen", 1600)
    player(engine, "Player, Eighteen", 1800)
    player(engine, "Player, Fourteen", 1400)
    add_game(engine, "Player, Sixteen", "Player, Eighteen", "1/2-1/2", "2025-11-05")
    add_game(engine, "Player, Sixteen", "Player, Fourteen", "1-0", "2025-11-12")
    report = close_period(engine, "2025-11")
    assert report.period == "2025-11"
    assert report.edition == "2025-10"
    r = results(report)
    # 1600: draw v 1800: D = -200 -> .24, +0.26; win v 1400: D = 200 -> .76, +0.24;
    # sum 0.50; 20 x 0.50 = +10.0 -> +10 -> 1610
    s = r["Player, Sixteen"]
    assert (s.k, s.n, s.score, s.expected, s.change_exact, s.change, s.rating_after) == (
        20, 2, Decimal("1.5"), Decimal("1.00"), Decimal("10.00"), 10, 1610)
    # 1800: draw v 1600: D = 200 -> .76; 0.5 - .76 = -0.26; 20 x -0.26 = -5.2 -> -5 -> 1795
    assert (r["Player, Eighteen"].change, r["Player, Eighteen"].rating_after) == (-5, 1795)
    # 1400: loss v 1600: D = -200 -> .24; 0 - .24 = -0.24; 20 x -0.24 = -4.8 -> -5 -> 1395
    assert (r["Player, Fourteen"].change, r["Player, Fourteen"].rating_after) == (-5, 1395)

    rl = rating_list(engine, "2025-11")
    assert rl.period == "2025-11"
    assert rl.in_force_from == "2025-12-01"
    # (1395 is below the 1400 floor: see test_rating_below_1400_is_listed_as_unrated)
    rated = [(row.rank, row.name, row.rating, row.games, row.k) for row in rl.rows
             if row.name != "Player, Fourteen"]
    assert rated == [
        (1, "Player, Eighteen", 1795, 1, 20),  # K next period: 100 + 1 games, adult -> 20
        (2, "Player, Sixteen", 1610, 2, 20),
    ]
    h = history(engine, "Player, Sixteen")
    assert len(h.periods) == 1
    row = h.periods[0]
    assert (row.period, row.rating_before, row.games, row.score, row.k, row.k_reason, row.change,
            row.rating_after) == ("2025-11", 1600, 2, Decimal("1.5"), 20, "standard", 10, 1610)
    assert h.player.rating == 1610
    assert [(v.period, v.edition, v.players, v.games) for v in list_periods(engine)] == [
        ("2025-11", "2025-10", 3, 2)]


# ------------------------------------------------------------------------------------------------
# C07: K around 2400, sticky K 10, fixed for the whole period


def test_c07_sticky_k10_across_three_periods(engine: Engine) -> None:
    player(engine, "Player, S", 2395, prior_games=200)
    # A fresh opponent per game, each playing once, so each opponent's rating is as written.
    for i in (1, 2):
        player(engine, f"Jan, Opp {i}", 2395, prior_games=200)
        player(engine, f"Mar, Opp {i}", 2395, prior_games=200)
    for i in (1, 2, 3, 4):
        player(engine, f"Feb, Opp {i}", 2415, prior_games=200)
    for i in (1, 2):
        add_game(engine, "Player, S", f"Jan, Opp {i}", "1-0", f"2026-01-0{i}")
    for i in (1, 2, 3, 4):
        add_game(engine, "Player, S", f"Feb, Opp {i}", "0-1", f"2026-02-0{i}")
    for i in (1, 2):
        add_game(engine, "Player, S", f"Mar, Opp {i}", "1-0", f"2026-03-0{i}")

    # Jan: published 2395 < 2400, 200 games -> K 20 (standard). D = 0 -> .50; 2 x +0.5 = 1.0;
    # 20 x 1.0 = +20 -> 2415. K does not change inside January.
    jan = results(close_period(engine, "2026-01"))["Player, S"]
    assert (jan.rating_before, jan.k, jan.k_reason.value, jan.n, jan.change, jan.rating_after) == (
        2395, 20, "standard", 2, 20, 2415)
    # Feb: published 2415 >= 2400 -> K 10. 4 x (0 - .50) = -2.0; 10 x -2.0 = -20 -> 2395.
    feb = results(close_period(engine, "2026-02"))["Player, S"]
    assert (feb.rating_before, feb.k, feb.k_reason.value, feb.n, feb.change, feb.rating_after) == (
        2415, 10, "reached-2400", 4, -20, 2395)
    # Mar: published 2395, but 2400 was reached on the February list -> K stays 10.
    # 2 x +0.5 = 1.0; 10 x 1.0 = +10 -> 2405 (K by current rating would wrongly give 2415).
    mar = results(close_period(engine, "2026-03"))["Player, S"]
    assert (mar.rating_before, mar.k, mar.k_reason.value, mar.n, mar.change, mar.rating_after) == (
        2395, 10, "reached-2400", 2, 10, 2405)

    h = history(engine, "Player, S")
    assert [(r.period, r.rating_before, r.k, r.change, r.rating_after) for r in h.periods] == [
        ("2026-01", 2395, 20, 20, 2415),
        ("2026-02", 2415, 10, -20, 2395),
        ("2026-03", 2395, 10, 10, 2405),
    ]


# ------------------------------------------------------------------------------------------------
# C09: the 30-games rule; K stays 40 for the whole period in which game 30 is played


def test_c09_k40_whole_period_then_20(engine: Engine) -> None:
    player(engine, "Player, N", 1600, prior_games=26)
    results_in_order = "LLWWWWWL"  # games 27-34 of N's career
    for i, outcome in enumerate(results_in_order, start=1):
        player(engine, f"Opponent, {i}", 1600, prior_games=100)
        add_game(engine, "Player, N", f"Opponent, {i}", "1-0" if outcome == "W" else "0-1",
                 f"2025-12-0{i}", event="December Open", round_=str(i))
    # K: 26 < 30 rated games at the start of December -> 40 (new-player) for all 8 games;
    # 700 cap: 40 x 8 = 320, no effect. D = 0 -> .50; 5 x +0.5 + 3 x -0.5 = +1.0;
    # 40 x 1.0 = +40 -> 1640.
    n = results(close_period(engine, "2025-12"))["Player, N"]
    assert (n.rating_before, n.k, n.k_reason.value, n.k_capped, n.n, n.change, n.rating_after) == (
        1600, 40, "new-player", False, 8, 40, 1640)
    # Next list: 26 + 8 = 34 >= 30 games -> K 20 for January 2026.
    row = next(r for r in rating_list(engine, "2025-12").rows if r.name == "Player, N")
    assert (row.rating, row.games, row.k, row.k_reason.value) == (1640, 8, 20, "standard")


# ------------------------------------------------------------------------------------------------
# C10: the K x n <= 700 cap


def _c10_ledger(engine: Engine) -> None:
    # Junior J2 born 2010: Dec 2025 - 2010 = 15 <= 18, never 2300 -> K 40 (junior).
    player(engine, "Junior, J2", 2000, prior_games=100, birth_year=2010)
    for i in range(1, 20):
        player(engine, f"Master, {i:02d}", 2200, prior_games=100)


def test_c10_k_capped_to_36(engine: Engine) -> None:
    _c10_ledger(engine)
    for i in range(1, 20):
        add_game(engine, "Junior, J2", f"Master, {i:02d}", "1/2-1/2", f"2025-12-{i:02d}")
    # n = 19: 40 x 19 = 760 > 700 -> K = floor(700 / 19) = 36 (36 x 19 = 684; 37 x 19 = 703).
    # D = -200 -> band 198-206 -> .76, J2 gets .24; S - PD = .26; 19 x .26 = 4.94;
    # 36 x 4.94 = 177.84 -> +178 -> 2178.
    j = results(close_period(engine, "2025-12"))["Junior, J2"]
    assert (j.n, j.k_before_cap, j.k, j.k_capped, j.k_reason.value) == (19, 40, 36, True, "junior")
    assert j.surplus == Decimal("4.94")
    assert j.change_exact == Decimal("177.84")
    assert (j.change, j.rating_after) == (178, 2178)
    h = history(engine, "Junior, J2").periods[0]
    assert (h.k, h.k_capped, h.change) == (36, True, 178)


def test_c10_forfeits_do_not_count_in_n(engine: Engine) -> None:
    _c10_ledger(engine)
    for i in range(1, 18):
        add_game(engine, "Junior, J2", f"Master, {i:02d}", "1/2-1/2", f"2025-12-{i:02d}")
    add_game(engine, "Junior, J2", "Master, 18", "+/-", "2025-12-18")  # forfeit, not played
    add_game(engine, "Junior, J2", "Master, 19", "-/+", "2025-12-19")  # forfeit, not played
    # n = 17 rated games (the two forfeits are not games): 40 x 17 = 680 <= 700 -> K stays 40.
    # 17 x .26 = 4.42; 40 x 4.42 = 176.8 -> +177 -> 2177 (counting forfeits: K 36 -> +159).
    report = close_period(engine, "2025-12")
    j = results(report)["Junior, J2"]
    assert (j.n, j.k, j.k_capped) == (17, 40, False)
    assert j.change_exact == Decimal("176.80")
    assert (j.change, j.rating_after) == (177, 2177)
    assert dict(report.not_rated) == {"forfeit": 2}
    assert "Master, 18" not in results(report)  # its only game was a forfeit: not rated


# ------------------------------------------------------------------------------------------------
# K precedence (RULES §4 Decision)


def test_k_precedence_through_services(engine: Engine) -> None:
    # A 2400+ newcomer: rule 1 (reached 2400) before rule 3 (fewer than 30 games) -> K 10.
    player(engine, "Newcomer, Strong", 2450, prior_games=0)
    # A junior whose rating reached 2300, 50 prior games: not junior-40, not new -> K 20.
    this_year = dt.date.today().year
    player(engine, "Junior, Reached", 2250, prior_games=50, birth_year=this_year - 12,
           reached_2300=True)
    # The same junior without the 2300 fact: junior -> K 40.
    player(engine, "Junior, Plain", 2250, prior_games=50, birth_year=this_year - 12)
    # An adult with 29 prior games: new player -> K 40; with 30: standard -> K 20.
    player(engine, "Adult, Twentynine", 1700, prior_games=29)
    player(engine, "Adult, Thirty", 1700, prior_games=30)
    # Unknown history (prior_games None): treated as established -> K 20.
    player(engine, "Adult, Unknown", 1700, prior_games=None)

    def k(name: str) -> tuple[int, str]:
        view = show_player(engine, name)
        return view.k, view.k_reason.value

    assert k("Newcomer, Strong") == (10, "reached-2400")
    assert k("Junior, Reached") == (20, "standard")
    assert k("Junior, Plain") == (40, "junior")
    assert k("Adult, Twentynine") == (40, "new-player")
    assert k("Adult, Thirty") == (20, "standard")
    assert k("Adult, Unknown") == (20, "standard")
    assert show_player(engine, "Adult, Unknown").history_unknown is True


# ------------------------------------------------------------------------------------------------
# The 2650 exemption from the 400-point rule (§8.3.1 as amended 1 Oct 2025)


def test_2650_exemption(engine: Engine) -> None:
    player(engine, "Top, Player", 2700, prior_games=100)  # rating >= 2400 -> reached 2400, K 10
    player(engine, "Club, Player", 2200, prior_games=100)  # adult, 100 games -> K 20
    add_game(engine, "Top, Player", "Club, Player", "1-0", "2025-11-10")
    report = close_period(engine, "2025-11")
    assert report.edition == "2025-10"
    r = results(report)
    top, club = r["Top, Player"], r["Club, Player"]
    # 2700 (>= 2650): real D = 500 -> band 485-517 -> .96; 1 - .96 = +0.04; 10 x 0.04 = 0.4 -> 0
    assert (top.k, top.games[0].difference, top.games[0].counted_difference) == (10, 500, 500)
    assert top.expected == Decimal("0.96")
    assert top.change_exact == Decimal("0.40")
    assert (top.change, top.rating_after) == (0, 2700)
    # 2200 (< 2650): D = -500 capped at -400 -> band 392-411 -> .92, he gets .08;
    # 0 - .08 = -0.08; 20 x -0.08 = -1.6 -> -2 -> 2198
    assert (club.k, club.games[0].difference, club.games[0].counted_difference) == (20, -500, -400)
    assert club.expected == Decimal("0.08")
    assert (club.change, club.rating_after) == (-2, 2198)


# ------------------------------------------------------------------------------------------------
# Period rules


def _two_players(engine: Engine) -> None:
    player(engine, "Player, A", 1800)
    player(engine, "Player, B", 1900)


def test_close_before_2022_refused(engine: Engine) -> None:
    _two_players(engine)
    # a game the ledger could never rate is refused when it is entered, naming the field
    with pytest.raises(InvalidInput, match="date: 2021-12-15 .*2022"):
        add_game(engine, "Player, A", "Player, B", "1-0", "2021-12-15")
    with pytest.raises(PeriodError, match="2022"):
        close_period(engine, "2021-12")
    assert count(engine, "games") == 0
    assert count(engine, "periods") == 0
    assert count(engine, "period_results") == 0


def test_close_out_of_order_refused(engine: Engine) -> None:
    _two_players(engine)
    add_game(engine, "Player, A", "Player, B", "1-0", "2025-11-15")
    add_game(engine, "Player, B", "Player, A", "1-0", "2025-12-15")
    with pytest.raises(PeriodError, match="2025-11"):
        close_period(engine, "2025-12")
    assert count(engine, "periods") == 0


def test_close_without_argument_picks_earliest_open_period(engine: Engine) -> None:
    _two_players(engine)
    add_game(engine, "Player, B", "Player, A", "1-0", "2025-12-15")
    add_game(engine, "Player, A", "Player, B", "1-0", "2025-11-15")
    assert close_period(engine).period == "2025-11"
    assert close_period(engine).period == "2025-12"
    with pytest.raises(PeriodError):
        close_period(engine)  # nothing left to close
    assert [v.period for v in list_periods(engine)] == ["2025-11", "2025-12"]


def test_closed_period_cannot_be_closed_again(engine: Engine) -> None:
    _two_players(engine)
    add_game(engine, "Player, A", "Player, B", "1-0", "2025-11-15")
    close_period(engine, "2025-11")
    before = (count(engine, "periods"), count(engine, "period_results"))
    with pytest.raises(PeriodError, match="already closed"):
        close_period(engine, "2025-11")
    with pytest.raises(PeriodError, match="already closed"):
        close_period(engine, "2025-10")
    assert (count(engine, "periods"), count(engine, "period_results")) == before == (1, 2)


def test_a_game_dated_in_a_closed_period_goes_into_the_earliest_open_one(engine: Engine) -> None:
    # docs/RULES.md §1: a late result is never slipped into a closed period; it goes into the
    # earliest open period (the month after the last closed one), keeping its date.
    _two_players(engine)
    add_game(engine, "Player, A", "Player, B", "1-0", "2025-11-15", event="Autumn Cup", round_="1")
    close_period(engine, "2025-11")
    alone = add_game(engine, "Player, B", "Player, A", "1-0", "2025-11-20")
    assert (alone.period, alone.dated_in, alone.date.isoformat()) == (
        "2025-12", "2025-11", "2025-11-20")
    # a late game of the closed event (within its dates) joins it, rated in 2025-12 too
    of_event = add_game(engine, "Player, B", "Player, A", "1-0", "2025-11-15",
                        event="Autumn Cup", round_="2")
    assert (of_event.event, of_event.period, of_event.dated_in) == (
        "Autumn Cup", "2025-12", "2025-11")
    older = add_game(engine, "Player, A", "Player, B", "1/2-1/2", "2025-10-20")
    assert (older.period, older.dated_in) == ("2025-12", "2025-10")
    assert count(engine, "games") == 4
    # December is open: an ordinary game, not late.
    december = add_game(engine, "Player, B", "Player, A", "1-0", "2025-12-01")
    assert (december.period, december.dated_in) == ("2025-12", None)
    assert count(engine, "games") == 5


def test_dry_run_close_writes_nothing_and_matches_real_close(engine: Engine) -> None:
    player(engine, "Player, Sixteen", 1600)
    player(engine, "Player, Eighteen", 1800)
    player(engine, "Player, Fourteen", 1400)
    add_game(engine, "Player, Sixteen", "Player, Eighteen", "1/2-1/2", "2025-11-05")
    add_game(engine, "Player, Sixteen", "Player, Fourteen", "1-0", "2025-11-12")
    dry = close_period(engine, "2025-11", dry_run=True)
    assert dry.dry_run is True
    for table in ("periods", "period_results", "period_audits"):
        assert count(engine, table) == 0, table
    real = close_period(engine, "2025-11")
    assert real.dry_run is False

    def numbers(report) -> list[tuple]:
        return [(p.name, p.result.rating_before, p.result.n, p.result.score, p.result.expected,
                 p.result.k, p.result.change_exact, p.result.change, p.result.rating_after)
                for p in report.players]

    assert numbers(dry) == numbers(real)
    # the seed example: 1795 (-5), 1610 (+10), 1395 (-5), worked in test_seed_example
    assert [(name, after) for name, *_, after in numbers(real)] == [
        ("Player, Eighteen", 1795), ("Player, Sixteen", 1610), ("Player, Fourteen", 1395)]
    assert count(engine, "periods") == 1
    assert count(engine, "period_results") == 3
    assert count(engine, "period_audits") == 3  # one row per rated player
    assert audit_sides(engine) == 4  # 2 games x 2 players


def test_failure_in_the_middle_of_a_close_leaves_nothing(engine: Engine,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _two_players(engine)
    add_game(engine, "Player, A", "Player, B", "1-0", "2025-11-15")

    def boom(*args: object, **kwargs: object) -> list[dict[str, object]]:
        raise RuntimeError("disk on fire")

    # summarise runs after the revision, the pointer, every derived row and the change are
    # written.
    monkeypatch.setattr(periods_service, "summarise", boom)
    with pytest.raises(RuntimeError, match="disk on fire"):
        close_period(engine, "2025-11")
    for table in ("periods", "period_revisions", "period_results", "period_audits",
                  "list_entries"):
        assert count(engine, table) == 0, table
    monkeypatch.undo()
    report = close_period(engine, "2025-11")
    # A 1800 beats B 1900: D = -100 -> .36; +0.64 x 20 = 12.8 -> +13 -> 1813
    assert results(report)["Player, A"].rating_after == 1813
    assert count(engine, "periods") == 1
    assert count(engine, "period_results") == 2
    assert count(engine, "period_audits") == 2
    assert audit_sides(engine) == 2  # 1 game x 2 players


# ------------------------------------------------------------------------------------------------
# Rule history (RULES §8): the 400-point rule by edition, through the services


def test_2022_edition_caps_only_the_largest_difference_per_event(engine: Engine) -> None:
    player(engine, "Strong, Player", 2000)  # adult, 100 games -> K 20
    player(engine, "Weak, One", 1300)
    player(engine, "Weak, Two", 1350)
    add_game(engine, "Strong, Player", "Weak, One", "1-0", "2022-03-05", event="Spring Cup",
             round_="1")
    add_game(engine, "Strong, Player", "Weak, Two", "1-0", "2022-03-06", event="Spring Cup",
             round_="2")
    report = close_period(engine, "2022-03")
    assert report.edition == "2022-01"  # 1 Jan 2022 - 29 Feb 2024
    strong = results(report)["Strong, Player"]
    # One event: only the largest difference is capped.
    #  v 1300: D = 700 (largest) -> counted 400 -> band 392-411 -> .92; 1 - .92 = +0.08
    #  v 1350: D = 650, not capped -> band 620-735 -> .99; 1 - .99 = +0.01
    # sum 0.09; 20 x 0.09 = 1.8 -> +2 -> 2002 (capping both, as from 2024-03: 0.16 -> 3.2 -> +3)
    assert [(a.difference, a.counted_difference) for a in strong.games] == [(700, 400), (650, 650)]
    assert strong.surplus == Decimal("0.09")
    assert (strong.change, strong.rating_after) == (2, 2002)


def test_2024_edition_caps_every_game_even_for_2650_plus(engine: Engine) -> None:
    player(engine, "Top, Player", 2700)  # reached 2400 -> K 10
    player(engine, "Club, Player", 2200)
    add_game(engine, "Top, Player", "Club, Player", "1-0", "2024-06-10")
    report = close_period(engine, "2024-06")
    assert report.edition == "2024-03"  # 1 Mar 2024 - 30 Sep 2025: the rule applies to everyone
    top = results(report)["Top, Player"]
    # D = 500 counted as 400 -> .92; 1 - .92 = +0.08; 10 x 0.08 = 0.8 -> +1 -> 2701
    # (from 2025-10 the 2700 player uses the real D: .96 -> 0.4 -> 0, see test_2650_exemption)
    assert top.games[0].counted_difference == 400
    assert (top.change, top.rating_after) == (1, 2701)


# ------------------------------------------------------------------------------------------------
# RULES §1: an event ending in the next month belongs to that month; its games use the ratings in
# force on the event's start date, while the change is added to the previous list's rating.


def test_event_across_months_uses_ratings_at_event_start(engine: Engine) -> None:
    player(engine, "Player, P", 1800)  # adult, 100 games -> K 20
    player(engine, "Player, Q", 1800)
    player(engine, "Player, S", 1700)
    player(engine, "Player, T", 1900)
    add_game(engine, "Player, P", "Player, S", "1/2-1/2", "2025-12-28", event="Winter Open",
             round_="1")
    add_game(engine, "Player, P", "Player, T", "1-0", "2026-01-03", event="Winter Open",
             round_="2")
    add_game(engine, "Player, P", "Player, Q", "1-0", "2025-12-10")  # no event: December
    # December: only the game v Q (the Winter Open ended in January). D = 0 -> .50; +0.5 x 20
    # = +10 -> 1810 on the January list.
    dec = close_period(engine, "2025-12")
    assert dec.games == 1
    assert results(dec)["Player, P"].rating_after == 1810
    # January: the Winter Open started on 28 Dec, so its games use the December list: P 1800.
    #  v S 1700: D = +100 -> .64; 0.5 - .64 = -0.14
    #  v T 1900: D = -100 -> .36; 1 - .36 = +0.64
    # sum 0.50; 20 x 0.50 = +10; base = the January list rating 1810 -> 1820.
    # (Using 1810 in the games: D 110 -> .65 and D -90 -> .38: 0.47 -> 9.4 -> +9 -> 1819.)
    jan = results(close_period(engine, "2026-01"))["Player, P"]
    assert [a.own_rating for a in jan.games] == [1800, 1800]
    assert jan.surplus == Decimal("0.50")
    assert (jan.rating_before, jan.change, jan.rating_after) == (1810, 10, 1820)


# ------------------------------------------------------------------------------------------------
# Rating lists


def test_rating_list_ties_share_a_rank_and_idle_players_are_listed(engine: Engine) -> None:
    player(engine, "Player, One", 1800)
    player(engine, "Player, Two", 1800)
    player(engine, "Player, Idle", 1700)
    add_game(engine, "Player, One", "Player, Two", "1/2-1/2", "2025-11-05")
    close_period(engine, "2025-11")
    # D = 0 -> .50 each; 0.5 - .50 = 0 -> both stay 1800; Idle keeps 1700 with 0 games.
    rl = rating_list(engine)  # default: the latest closed period
    assert rl.period == "2025-11"
    assert [(r.rank, r.name, r.rating, r.games) for r in rl.rows] == [
        (1, "Player, One", 1800, 1), (1, "Player, Two", 1800, 1), (3, "Player, Idle", 1700, 0)]


def test_march_2024_list_raises_ratings_below_2000_once(engine: Engine) -> None:
    # RULES §8: "1 Mar 2024 list only: every rating below 2000 was raised once by
    # round(0.4 x (2000 - R))". Closing 2024-02 publishes the 1 March 2024 list.
    player(engine, "Player, Left", 1600)
    player(engine, "Player, Right", 1600)
    add_game(engine, "Player, Left", "Player, Right", "1/2-1/2", "2024-02-10")
    report = close_period(engine, "2024-02")
    # February: D = 0 -> .50; 0.5 - .50 = 0 -> change 0, R = 1600 whatever the order.
    assert results(report)["Player, Left"].change == 0
    # 1 March 2024 list: 1600 + 0.4 x (2000 - 1600) = 1600 + 160 = 1760
    rl = rating_list(engine, "2024-02")
    assert rl.in_force_from == "2024-03-01"
    assert {r.name: r.rating for r in rl.rows} == {"Player, Left": 1760, "Player, Right": 1760}
