"""An event on the site and in ``event show`` (issue 21 §2): an event without a valid game is
never "the latest" on the home page and has no tournament page; an event with games in several
pools (rapid rounds and a blitz play-off) has a report for each pool, in ``event show --pool``
and on its page."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from cli_runs import data, ok, run
from ledgers import sqlite_ledger

from ledger.formats.site.pages import event_page, home_page
from ledger.services.core.session import open_ledger
from ledger.services.publishing.site import site_data


def rapid_with_a_blitz_play_off(db: Path) -> None:
    """Alpha 1800, Beta 1700, Gamma 1750 (standard; unrated in rapid and blitz, where from
    2024-03 they play with their standard rating, docs/RULES.md §9). Event #1 Autumn Rapid, 5
    September 2026: round 1 Alpha beats Beta, round 2 Beta draws Gamma (rapid); round 3, the
    play-off, Beta beats Alpha (blitz). Event #2 Late Blitz, 20 September: its one game (Alpha
    beats Gamma) voided."""
    sqlite_ledger(db)
    for name, rating in (("Alpha, A", "1800"), ("Beta, B", "1700"), ("Gamma, C", "1750")):
        ok(db, "player", "add", name, "--rating", rating, "--prior-games", "100")
    for white, black, result, rnd, pool in (("Alpha, A", "Beta, B", "1-0", "1", "rapid"),
                                            ("Beta, B", "Gamma, C", "1/2-1/2", "2", "rapid"),
                                            ("Beta, B", "Alpha, A", "1-0", "3", "blitz")):
        ok(db, "game", "add", white, black, result, "--date", "2026-09-05", "--event",
           "Autumn Rapid", "--round", rnd, "--pool", pool)
    ok(db, "game", "add", "Alpha, A", "Gamma, C", "1-0", "--date", "2026-09-20", "--event",
       "Late Blitz", "--pool", "blitz")
    ok(db, "game", "void", "4", "--reason", "not played")


def test_event_show_pool_gives_each_pools_report(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    rapid_with_a_blitz_play_off(db)
    rapid = data(db, "event", "show", "Autumn Rapid")
    assert (rapid["pool"], rapid["pools"], rapid["games"]) == ("rapid", ["rapid", "blitz"], 2)
    # rapid: Alpha 1 point (beat Beta), Beta 0 + 0.5, Gamma 0.5
    assert [(p["name"], p["rating"], p["points"]) for p in rapid["players"]] == [
        ("Alpha, A", 1800, 1), ("Gamma, C", 1750, 0.5), ("Beta, B", 1700, 0.5)]
    blitz = data(db, "event", "show", "#1", "--pool", "blitz")
    assert (blitz["pool"], blitz["games"]) == ("blitz", 1)
    assert [(p["name"], p["rating"], p["points"]) for p in blitz["players"]] == [
        ("Beta, B", 1700, 1), ("Alpha, A", 1800, 0)]
    shown = ok(db, "event", "show", "#1")
    assert "ledger event show '#1' --pool blitz" in " ".join(shown.stdout.split())
    assert run(db, "event", "show", "#1", "--pool", "bullet").exit_code == 1


def test_the_site_shows_each_pools_report_and_no_event_without_a_valid_game(
        tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    rapid_with_a_blitz_play_off(db)
    engine = open_ledger(str(db))
    try:
        site = site_data(engine, club="Club", built_on=dt.date(2026, 12, 1))
    finally:
        engine.dispose()
    # Late Blitz (#2, the later one) has only a void game: no page, not the latest
    assert [e.name for e in site.events] == ["Autumn Rapid"]
    page = site.events[0]
    assert (page.pool, page.games, [m.pool for m in page.more]) == ("rapid", 2, ["blitz"])
    assert [(line.name, line.rating, line.points) for line in page.lines] == [
        ("Alpha, A", 1800, Decimal(1)), ("Gamma, C", 1750, Decimal("0.5")),
        ("Beta, B", 1700, Decimal("0.5"))]
    blitz = page.more[0]
    assert (blitz.games, [(line.name, line.points) for line in blitz.lines]) == (
        1, [("Beta, B", Decimal(1)), ("Alpha, A", Decimal(0))])
    home = home_page(site)
    assert "the latest: <a" in home and ">Autumn Rapid</a>" in home
    assert "Late Blitz" not in home
    html = event_page(site, page)
    assert 'id="report-rapid">Rating report (Rapid)' in html
    assert 'id="report-blitz">Rating report (Blitz)' in html
    assert 'id="crosstable-blitz">Crosstable (Blitz)' in html
