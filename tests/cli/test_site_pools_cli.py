"""The website's rating pools (docs/RULES.md §9, issue 12) through ``ledger site build`` on the
README's example season: each pool with a published list has its list pages and a place on
the index of the lists; a player page gives the player's rating in each pool they are rated
in. The blitz values of the season's blitz evening (21 October 2026, K 20 for all four: blitz
from 2022-10 follows the standard K rules, and none has reached 2400 in blitz) are worked by
hand here:

- Okafor 2350 1-0 Novak 2100: D 250 -> PD .81 / .19
- Lindqvist 1950 1/2 Byrne 1800: D 150 -> .70 / .30
- Novak 2100 1-0 Lindqvist 1950: D 150 -> .70 / .30
- Byrne 1800 0-1 Okafor 2350: D -550, counted -400 -> .08 / .92
- Okafor 2350 1/2 Lindqvist 1950: D 400 -> .92 / .08
- Novak 2100 1-0 Byrne 1800: D 300 -> .85 / .15

Okafor 2.5 - (.81 + .92 + .92 = 2.65) = -.15 x 20 = -3 -> 2347; Novak 2 - (.19 + .70 + .85 =
1.74) = +.26 x 20 = +5.2 -> 2105; Lindqvist 1 - (.70 + .30 + .08 = 1.08) = -.08 x 20 = -1.6 ->
-2 -> 1948; Byrne .5 - (.30 + .08 + .15 = .53) = -.03 x 20 = -.6 -> -1 -> 1799.
"""

from __future__ import annotations

import re
from pathlib import Path

from cli_runs import ok
from ledgers import sqlite_ledger
from typer.testing import CliRunner

from ledger.cli.app import app


def site_of(season_db: str, tmp_path: Path) -> Path:
    site = tmp_path / "site"
    result = CliRunner().invoke(app, ["--db", season_db, "site", "build", str(site), "--club",
                                      "Riverside Chess Club", "--date", "2026-12-01"])
    assert result.exit_code == 0, result.output
    return site


def rows(page: str) -> list[tuple[str, ...]]:
    """A list page's rows: rank, name, rating, change, previous rating, games, K."""
    found = re.findall(
        r'<td class="num">(\d+)</td><th scope="row" class="name"[^>]*><a [^>]*>([^<]+)</a></th>'
        r'.*?<td class="num rating">(\d+)</td><td class="num" data-sort="([^"]*)">.*?</td>'
        r'<td class="num">(\d*)</td><td class="num">(\d+)</td><td class="num">(\d+)</td>', page)
    return [tuple(row) for row in found]


def test_the_blitz_list_has_a_page_of_its_own(season_db: str, tmp_path: Path) -> None:
    site = site_of(season_db, tmp_path)
    # a folder per pool with a list (the season has games in all three)
    assert sorted(p.name for p in (site / "lists").iterdir()) == ["blitz", "index.html", "rapid",
                                                                  "standard"]
    blitz = (site / "lists/blitz/2026-10.html").read_text(encoding="utf-8")
    assert "<title>Riverside Chess Club - blitz rating list 2026-10</title>" in blitz
    assert ("<p>Blitz rating list after rating period 2026-10, in force from 1 November 2026"
            "</p>") in blitz
    # rank, name, rating, change, previous, games in 2026-10, K (module docstring)
    assert rows(blitz) == [
        ("1", "Okafor, Grace", "2347", "-3", "2350", "3", "20"),
        ("2", "Novak, Petra", "2105", "5", "2100", "3", "20"),
        ("3", "Lindqvist, Erik", "1948", "-2", "1950", "3", "20"),
        ("4", "Byrne, Seán", "1799", "-1", "1800", "3", "20")]
    # the standard list of the same period keeps its own ranks and ratings: Tanaka (junior,
    # K 40), 1628, beat Moreau 1799 (D -171 -> .27) and Lindqvist 1990 (D -362 -> .10):
    # 40 x (2 - .37) = 65.2 -> +65 -> 1693, 6th of 6
    standard = (site / "lists/standard/2026-10.html").read_text(encoding="utf-8")
    assert rows(standard)[-1] == ("6", "Tanaka, Hiro", "1693", "65", "1628", "2", "40")
    assert len(rows(standard)) == 6


def test_the_index_of_the_lists_links_each_pool_that_has_one(season_db: str,
                                                              tmp_path: Path) -> None:
    site = site_of(season_db, tmp_path)
    index = (site / "lists/index.html").read_text(encoding="utf-8")
    assert re.findall(r'<h2 id="lists-(\w+)">([^<]+)</h2>', index) == [
        ("standard", "Standard rating lists"), ("rapid", "Rapid rating lists"),
        ("blitz", "Blitz rating lists")]
    # the rapid evening: Okafor 2383, Novak 2119, Lindqvist 1963, Byrne 1815 (worked by hand in
    # tests/cli/test_example_season.py)
    assert ('The latest: <a href="rapid/2026-10.html">the rapid list of 1 November 2026</a> '
            "(4 players), after rating period 2026-10.") in index
    assert ('The latest: <a href="blitz/2026-10.html">the blitz list of 1 November 2026</a> '
            "(4 players), after rating period 2026-10.") in index
    assert ('The latest: <a href="standard/2026-10.html">the standard list of 1 November 2026'
            "</a> (6 players)") in index
    # every page's navigation links it
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="lists/index.html">Rating lists</a>' in home
    assert '<a href="lists/blitz/2026-10.html">4 players</a>' in home


def test_a_player_page_gives_each_pool_the_player_is_rated_in(season_db: str,
                                                               tmp_path: Path) -> None:
    site = site_of(season_db, tmp_path)
    okafor = (site / "players/1.html").read_text(encoding="utf-8")
    # standard 2389 (the list), rapid 2383 (2380 + 3, the rapid evening), blitz 2347: 100 blitz
    # games before + 3
    assert "<p>Standard: 2389; Rapid: 2383; Blitz: 2347</p>" in okafor
    assert re.findall(r'<h2 id="pool-(\w+)">', okafor) == ["standard", "rapid", "blitz"]
    blitz = okafor[okafor.index('<h2 id="pool-blitz">'):]
    assert "<dt>Rating now</dt><dd>2347</dd>" in blitz
    assert "<dt>Rated games</dt><dd>103</dd>" in blitz
    assert ('<tr><th scope="row" class="wrap">2026-10</th><td class="num">2350</td>'
            '<td class="num">3</td><td class="num">2.5</td><td class="num">2.65</td>'
            '<td>20 standard</td><td class="num">-3.00</td>') in blitz
    assert "<summary>2026-10: 3 games (3 rated): score 2.5, expected 2.65, change -3" in blitz
    assert '<title id="chart-blitz-title">Blitz rating history of Okafor, Grace</title>' in blitz
    # Tanaka never played rapid or blitz and has no rating there: the standard record only
    tanaka = (site / "players/6.html").read_text(encoding="utf-8")
    assert re.findall(r'<h2 id="pool-(\w+)">', tanaka) == ["standard"]
    assert "<p>Standard: 1693</p>" in tanaka


def test_a_rating_brought_in_a_pool_without_a_list_shows_on_the_player_page(
        tmp_path: Path) -> None:
    db = tmp_path / "rapid.db"
    sqlite_ledger(db)
    ok(db, "player", "add", "Ash, Ann", "--rating", "1800", "--prior-games", "100",
       "--rapid-rating", "1700", "--rapid-games", "50")
    ok(db, "player", "add", "Birch, Bob", "--rating", "1800", "--prior-games", "100")
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14")
    ok(db, "period", "close", "2026-10")
    site = site_of(str(db), tmp_path)
    # standard: D 0 -> .50, K 20 x .50 = +10 -> 1810; rapid: 1700 as brought, no rapid game
    ann = (site / "players/1.html").read_text(encoding="utf-8")
    assert "<p>Standard: 1810; Rapid: 1700</p>" in ann
    assert re.findall(r'<h2 id="pool-(\w+)">', ann) == ["standard", "rapid"]
    # Bob has no rapid rating and no rapid game: the standard record only
    bob = (site / "players/2.html").read_text(encoding="utf-8")
    assert "<p>Standard: 1790</p>" in bob
    # no rapid list was ever published: the index of the lists has the standard pool only
    index = (site / "lists/index.html").read_text(encoding="utf-8")
    assert re.findall(r'<h2 id="lists-(\w+)">', index) == ["standard"]
    assert sorted(p.name for p in (site / "lists").iterdir()) == ["index.html", "standard"]
