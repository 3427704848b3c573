"""What the site shows, gathered by services.publishing.site from the README's example season and the Tata
Steel ledger (tests/example_ledgers.py); every value worked by hand from FIDE's tables (table
8.1.2: tests/data/fide_table_8_1_2_expected_score.csv; table 8.1.1 for Rp) in the comments.

The season: every adult rated player has K 20, Okafor K 10 (reached 2400), Moreau K 40 (under
30 games), Tanaka K 40 (junior, born 2011); 2026-09 and 2026-10 are rated by the 2025-10
edition: the 400-point rule on every game of a player under 2650.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import Engine

from ledger.errors import InvalidInput
from ledger.formats.site.model import ChartPoint, Site
from ledger.services.core.session import open_ledger
from ledger.services.publishing.event_reports import event_report
from ledger.services.publishing.site import site_data
from ledger.services.publishing.site_build import base_url

D = Decimal


@pytest.fixture(scope="module")
def season(season_db: str) -> Site:
    engine = open_ledger(season_db)
    try:
        return site_data(engine, club="Riverside Chess Club", built_on=dt.date(2026, 12, 1))
    finally:
        engine.dispose()


@pytest.fixture
def tata_engine(tata_db: str):
    engine = open_ledger(tata_db)
    yield engine
    engine.dispose()


def test_the_october_list(season: Site) -> None:
    # the standard lists, then the rapid one (the rapid evening of 28 October), then the blitz
    # one (the blitz evening of 21 October)
    assert [(p.pool, p.period, p.in_force_from) for p in season.lists] == [
        ("standard", "2026-09", dt.date(2026, 10, 1)), ("standard", "2026-10", dt.date(2026, 11, 1)),
        ("rapid", "2026-10", dt.date(2026, 11, 1)), ("blitz", "2026-10", dt.date(2026, 11, 1))]
    october = season.lists[1]
    # closed once: revision 1, never re-rated
    assert october.revision == 1 and october.revisions == () and not october.superseded
    lines = {line.name: line for line in october.lines}
    # Silva is unrated: not on the list
    assert [line.name for line in october.lines] == [
        "Okafor, Grace", "Novak, Petra", "Lindqvist, Erik", "Byrne, Seán", "Moreau, Claire",
        "Tanaka, Hiro"]
    # Tanaka (junior, K 40), 1628 on the October list: beat Moreau (1799): D -171 -> band
    # 171-179 -> PD .27; beat Lindqvist (1990): D -362 -> band 358-374 -> .10.
    # 40 x (2 - .37) = 65.2 -> +65 -> 1693. Born 2011: 15 in 2026, a junior.
    tanaka = lines["Tanaka, Hiro"]
    assert (tanaka.rank, tanaka.rating, tanaka.previous, tanaka.change, tanaka.games, tanaka.k,
            tanaka.junior, tanaka.flag) == (6, 1693, 1628, 65, 2, 40, True, "")
    # Byrne, 1883: drew Novak (2118): D -235 -> band 226-235 -> .21: 20 x .29 = 5.8 -> +6 -> 1889;
    # his win against Silva (unrated) is rated for nobody. The key drops the accent: the search
    # finds him by "sean".
    byrne = lines["Byrne, Seán"]
    assert (byrne.rating, byrne.previous, byrne.change, byrne.games, byrne.name_key) == (
        1889, 1883, 6, 1, "byrne, sean")
    assert (lines["Okafor, Grace"].flag, lines["Okafor, Grace"].k) == ("w", 10)


def test_the_september_list_starts_from_the_ratings_brought(season: Site) -> None:
    lines = {line.name: line for line in season.lists[0].lines}
    # Byrne brought 1850. September: beat Lindqvist (1985): D -135 -> band 130-137 -> .32;
    # beat Tanaka (1620): D +230 -> band 226-235 -> .79; beat Okafor (2412): D -562, counted
    # -400 -> .08; lost to Novak (2150): D -300 -> band 291-302 -> .15; his forfeit win against
    # Moreau is not rated. 3 - 1.34 = 1.66 x 20 = 33.2 -> +33 -> 1883.
    assert (lines["Byrne, Seán"].previous, lines["Byrne, Seán"].rating,
            lines["Byrne, Seán"].change) == (1850, 1883, 33)


def test_one_players_history_chart_and_games(season: Site) -> None:
    tanaka = next(p for p in season.players if p.name == "Tanaka, Hiro")
    assert (tanaka.fide_id, tanaka.federation, tanaka.birth_year) == (90001006, "IRL", 2011)
    (record,) = tanaka.pools
    # 45 games before the season, 5 in September, 2 in October
    assert (record.pool, record.rating, record.k, record.k_reason, record.rated_games) == (
        "standard", 1693, 40, "junior", 52)
    # September, at 1620: lost to Okafor (2412: D -792, counted -400 -> .08), to Byrne (1850:
    # D -230 -> .21), to Moreau (1740: D -120 -> band 114-121 -> .34) and to Lindqvist (1985:
    # D -365 -> .10); beat Novak (2150: D -530, counted -400 -> .08). Expected .81, score 1:
    # 40 x .19 = 7.6 -> +8 -> 1628.
    assert [(h.period, h.rating_before, h.games, h.score, h.expected, h.k, h.change_exact,
             h.change, h.rating_after) for h in record.history] == [
        ("2026-09", 1620, 5, D(1), D("0.81"), 40, D("7.60"), 8, 1628),
        ("2026-10", 1628, 2, D(2), D("0.37"), 40, D("65.20"), 65, 1693)]
    # the start rating, then one point per list, by the month each is in force
    assert record.chart == (ChartPoint(dt.date(2026, 9, 1), 1620, None),
                            ChartPoint(dt.date(2026, 10, 1), 1628, "2026-09"),
                            ChartPoint(dt.date(2026, 11, 1), 1693, "2026-10"))
    september = record.periods[0]
    assert september.period == "2026-09" and september.history == record.history[0]
    games = [(g.opponent, g.colour, g.symbol, g.own_rating, g.opponent_rating, g.difference,
              g.counted_difference, g.expected) for g in september.games]
    assert games == [
        ("Okafor, Grace", "black", "0", 1620, 2412, -792, -400, D("0.08")),
        ("Byrne, Seán", "black", "0", 1620, 1850, -230, -230, D("0.21")),
        ("Novak, Petra", "white", "1", 1620, 2150, -530, -400, D("0.08")),
        ("Moreau, Claire", "white", "0", 1620, 1740, -120, -120, D("0.34")),
        ("Lindqvist, Erik", "black", "0", 1620, 1985, -365, -365, D("0.10"))]
    assert [name for _, name, _ in tanaka.events] == ["Riverside Autumn Open 2026",
                                                      "Club League 2026-27"]


def test_an_unrated_players_page(season: Site) -> None:
    silva = next(p for p in season.players if p.name == "Silva, Ana")
    (record,) = silva.pools
    assert record.rating is None and record.history == () and record.chart == ()
    # her only game over the board (a loss to Byrne) is in her first event, which she scored
    # nothing in: disregarded (B.02 §7.1.4); the forfeit against Novak is no game for a pool
    assert record.progress == ("Unrated: no game against a rated opponent counts towards a "
                               "first rating yet; 1 disregarded (a first event without a "
                               "point); 5 more needed.")
    assert [(g.opponent, g.symbol, g.forfeit) for g in record.periods[0].games] == [
        ("Byrne, Seán", "0", False), ("Novak, Petra", "-", True)]


def test_one_events_rating_report(season: Site) -> None:
    league = next(e for e in season.events if e.name == "Club League 2026-27")
    assert (league.start_date, league.end_date, league.period, league.closed, league.games,
            league.source) == (dt.date(2026, 10, 3), dt.date(2026, 10, 24), "2026-10", True, 7,
                               "ledger game add")
    # standings: points, then rating at the start (the October list), unrated last
    assert [(line.number, line.name, line.points) for line in league.lines] == [
        (1, "Tanaka, Hiro", D(2)), (2, "Okafor, Grace", D("1.5")), (3, "Novak, Petra", D("1.5")),
        (4, "Byrne, Seán", D("1.5")), (5, "Moreau, Claire", D("0.5")),
        (6, "Lindqvist, Erik", D(0)), (7, "Silva, Ana", D(0))]
    by = {line.name: line for line in league.lines}
    # Tanaka: 40 x (2 - .37) = +65.20, the whole period (+65). Rp: opponents 1799 and 1990,
    # Ra = 3789 / 2 = 1894.5 -> 1895; p = 100 % -> dp +800 (table 8.1.1): 2695
    t = by["Tanaka, Hiro"]
    assert (t.rating, t.rated_games, t.score, t.expected, t.k, t.change, t.period_change,
            t.rp, t.rp_games) == (1628, 2, D(2), D("0.37"), 40, D("65.20"), 65, 2695, 2)
    # Novak: drew Byrne (1883): D +235 -> .79: 20 x (.5 - .79) = -5.80 -> -6; the forfeit win
    # against Silva counts in the standings only. Rp over the one game: 1883 + dp(50 %) 0
    n = by["Novak, Petra"]
    assert (n.points, n.rated_games, n.score, n.expected, n.change, n.period_change, n.rp) == (
        D("1.5"), 1, D("0.5"), D("0.79"), D("-5.80"), -6, 1883)
    # Silva, unrated: nothing rated for her; Rp over her one game played (a loss to Byrne,
    # 1883): p 0 % -> dp -800 -> 1083
    s = by["Silva, Ana"]
    assert (s.rating, s.rated_games, s.k, s.change, s.period_change, s.rp) == (
        None, 0, None, None, None, 1083)


def test_event_show_on_the_tata_steel_ledger(tata_engine: Engine) -> None:
    report = event_report(tata_engine, "Tata Steel")
    assert (report.name, report.period, report.closed, report.games, len(report.players)) == (
        "84th Tata Steel Masters", "2022-01", True, 91, 14)
    by = {p.name: p for p in report.players}
    # FIDE's published figures: Carlsen +3, Caruana -11, Van Foreest +12 (K 10 for all: every
    # player has reached 2400). Carlsen: 12 rated games (Dubov's forfeit in round 13 is not),
    # 8.5 points of them, 9.5 in the standings.
    carlsen = by["Carlsen, Magnus"]
    assert (carlsen.rating, carlsen.games, carlsen.points, carlsen.rated_games, carlsen.score,
            carlsen.k, carlsen.period_change) == (2865, 13, D("9.5"), 12, D("8.5"), 10, 3)
    # K x (score - expected) is the period's exact change, rounded once: 3.10 -> +3
    assert carlsen.change == 10 * (carlsen.score - carlsen.expected) == D("3.10")
    assert (by["Caruana, Fabiano"].change, by["Caruana, Fabiano"].period_change) == (D("-10.50"), -11)
    assert (by["Van Foreest, Jorden"].change, by["Van Foreest, Jorden"].period_change) == (
        D("11.80"), 12)
    # Rp, as `ledger performance Carlsen --event`: 12 games, opponents' sum 32732:
    # Ra 2727.67 -> 2728; p = 8.5 / 12 = 70.83 % -> 71 % -> dp +158 -> 2886
    assert carlsen.performance is not None
    assert (carlsen.performance.n, carlsen.performance.opponents_sum, carlsen.performance.rp) == (
        12, 32732, 2886)
    assert report.players[0].name == "Carlsen, Magnus"


def test_base_url_must_be_a_web_address() -> None:
    assert base_url("https://club.example/ratings") == "https://club.example/ratings/"
    assert base_url("http://localhost:8000/") == "http://localhost:8000/"
    assert base_url(None) is None
    for bad in ("club.example/ratings", "ftp://club.example/", "https://", "javascript:alert(1)",
                "https://club.example/?page=1", "https://club example/"):
        with pytest.raises(InvalidInput, match="base-url: .* is not a web address"):
            base_url(bad)
