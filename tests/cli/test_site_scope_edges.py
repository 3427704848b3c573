"""Edges of a close's scoped rebuild (issue 25, ``site_scope``): an unrated player's pool in
progress at the edge of the 26-month window (B.02 §8.2), the first close of a pool (standard,
rapid), and a rapid or blitz game whose player is seeded from the standard rating a standard
close publishes (docs/RULES.md §9). After each close the rebuilt folder is byte for byte a full
build of the same ledger."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_site_rebuild import build, ledger
from test_site_scoped import inodes, rebuilt, same_as_a_full_build, spy_scopes

from ledger.domain import Period

URL = ("--base-url", "https://chess.example.org/")


def _rated(db: str, *players: tuple[str, str], pool: str = "rapid") -> None:
    """Add ``players`` (name, rating), rated at ``rating`` in standard and in ``pool``."""
    for name, rating in players:
        ledger(db, "player", "add", name, "--rating", rating, "--prior-games", "100",
               f"--{pool}-rating", rating, f"--{pool}-games", "100", "--birth-year", "1980")


def _page(site: Path, player: int) -> str:
    return (site / "players" / f"{player}.html").read_text(encoding="utf-8")


def test_a_close_renders_the_unrated_whose_game_leaves_the_window(
        ledger_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ulla (3), Ana (4) and Uma (5), unrated, each drew once with Anders, in August,
    September and October 2024; every month through September 2026 is closed (those with no
    game with ``--empty``), the site built, then October 2026 closed. Before it the pool in
    progress is shown as of October 2026 and reaches back 26 months to September 2024 (Ana's
    game counts); after it, as of November, from October 2024: Ana's game leaves it (her page
    changes: rendered), Uma's stays (her page is kept, same inode), Ulla's left a month before
    (no change; rendered all the same: a game at least 25 months before the period)."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    _rated(ledger_db, ("Anders", "1800"), ("Bea", "1900"))
    for name, day in (("Ulla", "2024-08-03"), ("Ana", "2024-09-07"), ("Uma", "2024-10-05")):
        ledger(ledger_db, "player", "add", name, "--birth-year", "1990")
        ledger(ledger_db, "game", "add", name, "Anders", "1/2-1/2", "--date", day)
    month = Period(2024, 8)
    while month < Period(2026, 10):
        ledger(ledger_db, "period", "close", str(month),
               *(("--empty",) if month > Period(2024, 10) else ()))
        month = month.next()
    ledger(ledger_db, "game", "add", "Bea", "Anders", "1-0", "--date", "2026-10-03")
    build(ledger_db, site, *URL)
    assert "1 game against rated opponents counts" in _page(site, 4)
    assert "1 game against rated opponents counts" in _page(site, 5)
    before = inodes(site)
    ledger(ledger_db, "period", "close", "2026-10")
    scopes = spy_scopes(monkeypatch)
    _, moved = rebuilt(ledger_db, site, monkeypatch, before)
    assert [sorted(s.players) for s in scopes] == [[1, 2, 3, 4]]  # not Uma's (5)
    assert "players/4.html" in moved and "players/5.html" not in moved
    assert "no game against a rated opponent counts" in _page(site, 4)
    assert "1 game against rated opponents counts" in _page(site, 5)
    same_as_a_full_build(ledger_db, site, fresh)


def test_the_first_close_of_a_pool_renders_every_unrated_player(
        ledger_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the first close, an unrated player without a game has no pool in progress (no
    open period to come); the first close gives one to every unrated player (as of the next
    period: "5 more needed"), so Ria (3), with no game, is rendered."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    _rated(ledger_db, ("Anders", "1800"), ("Bea", "1900"))
    ledger(ledger_db, "player", "add", "Ria", "--birth-year", "1990")
    ledger(ledger_db, "game", "add", "Bea", "Anders", "1-0", "--date", "2026-09-05")
    build(ledger_db, site, *URL)
    assert "Unrated:" not in _page(site, 3)
    before = inodes(site)
    ledger(ledger_db, "period", "close", "2026-09")
    _, moved = rebuilt(ledger_db, site, monkeypatch, before)
    assert "players/3.html" in moved
    assert ("Unrated: no game against a rated opponent counts towards a first rating yet; 5 "
            "more needed.") in _page(site, 3)
    same_as_a_full_build(ledger_db, site, fresh)


@pytest.mark.parametrize("pool", ["rapid", "blitz"])
def test_a_standard_close_renders_a_later_game_seeded_from_it(
        ledger_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool: str) -> None:
    """In rapid, then in blitz (``pool``; Anders and Bea rated there too): Bob (3), 2000 in
    standard, unrated in ``pool``, beats Anders (1793 after August: lost to
    Bea 1900, 20 x (0 - 0.36) = -7.2) in standard in September 2026: 2000 + 20 x (1 - 0.77)
    (207 points) = 2004.6, 2005. The pool's September is closed first; Ria (4), unrated
    everywhere, with no standard game, loses to Bob in ``pool`` in October: her page shows Bob's
    rating at the event's start, his standard rating (RULES §9, seeded), 2000 before the
    standard close of September and 2005 after it: her page is rendered."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    _rated(ledger_db, ("Anders", "1800"), ("Bea", "1900"), pool=pool)
    ledger(ledger_db, "player", "add", "Bob", "--rating", "2000", "--prior-games", "100",
           "--birth-year", "1980")
    ledger(ledger_db, "player", "add", "Ria", "--birth-year", "1990")
    for of, day in (("standard", "2026-08-05"), (pool, "2026-08-05"), (pool, "2026-09-06")):
        ledger(ledger_db, "game", "add", "Bea", "Anders", "1-0", "--date", day, "--pool", of)
    ledger(ledger_db, "period", "close", "2026-08")
    ledger(ledger_db, "game", "add", "Bob", "Anders", "1-0", "--date", "2026-09-05")
    ledger(ledger_db, "game", "add", "Ria", "Bob", "0-1", "--date", "2026-10-03", "--pool",
           pool)
    ledger(ledger_db, "period", "close", "2026-09", "--pool", pool)
    build(ledger_db, site, *URL)
    bob = '<a href="3.html">Bob</a></th><td class="num">'
    assert bob + "2000<" in _page(site, 4)
    before = inodes(site)
    ledger(ledger_db, "period", "close", "2026-09", "--pool", "standard")
    scopes = spy_scopes(monkeypatch)
    _, moved = rebuilt(ledger_db, site, monkeypatch, before)
    assert [sorted(s.players) for s in scopes] == [[1, 3, 4]]
    assert "players/4.html" in moved
    assert bob + "2005<" in _page(site, 4)
    same_as_a_full_build(ledger_db, site, fresh)


def test_the_first_close_of_rapid_renders_its_unrated_players(
        ledger_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No rapid period closed before; September 2026 closed in rapid only (no standard close).
    Ria (3), unrated, has no rapid game: her page has no rapid section before the close nor
    after it (a rapid record is shown to a player rated in rapid or with a rapid game only), so
    no page of an unrated player without a rapid game has one to change. Rex (4), unrated,
    draws with Anders in rapid in October (after the period: ``_unrated_touched``; at a
    pool's first close every rapid game is in the period or after it, since an earlier
    period with one must be closed first), Uma (5) loses to Bea in September (a game of the
    period). Rex's page shows Anders's rapid rating at the event's start: his entry's 1800
    before the close, 1793 after it (lost to Bea 1900: 20 x (0 - 0.36) = -7.2); his pool in
    progress is the same draw both times ("1 game ... 4 more needed"): rendered."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    _rated(ledger_db, ("Anders", "1800"), ("Bea", "1900"))
    for name in ("Ria", "Rex", "Uma"):
        ledger(ledger_db, "player", "add", name, "--birth-year", "1990")
    for white, black, result, day in (("Bea", "Anders", "1-0", "2026-09-05"),
                                      ("Uma", "Bea", "0-1", "2026-09-06"),
                                      ("Rex", "Anders", "1/2-1/2", "2026-10-03")):
        ledger(ledger_db, "game", "add", white, black, result, "--date", day, "--pool", "rapid")
    build(ledger_db, site, *URL)
    assert 'id="pool-rapid"' not in _page(site, 3)
    anders = '<a href="1.html">Anders</a></th><td class="num">'
    progress = "Unrated: 1 game against rated opponents counts towards a first rating (0.5 points)"
    assert anders + "1800<" in _page(site, 4) and progress in _page(site, 4)
    before = inodes(site)
    ledger(ledger_db, "period", "close", "2026-09", "--pool", "rapid")
    scopes = spy_scopes(monkeypatch)
    _, moved = rebuilt(ledger_db, site, monkeypatch, before)
    assert [sorted(s.players) for s in scopes] == [[1, 2, 4, 5]]  # not Ria's (3)
    assert "players/4.html" in moved and "players/3.html" not in moved
    assert 'id="pool-rapid"' not in _page(site, 3)
    assert anders + "1793<" in _page(site, 4) and progress in _page(site, 4)
    same_as_a_full_build(ledger_db, site, fresh)
