"""A rebuild after a close or a few games renders only the pages they touched (issue 25,
``site_scope``): the folder is then byte for byte what a full build into an empty folder
makes of the same ledger (every file compared, the build's record aside), the full gather is
never called, and the pages it did not render keep their inode (not written again)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from example_ledgers import copy_of
from file_trees import tree
from ledgers import Factory
from test_site_rebuild import RECORD, build, latest_change, ledger

from ledger.services.publishing import site_build as site_service
from ledger.services.publishing import site_scope, site_slices
from ledger.services.publishing.site_scope import Scope


@pytest.fixture
def season_copy(season_db: str, new_database: Factory) -> str:
    return copy_of(season_db, new_database("riverside"))


def inodes(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_ino for p in folder.rglob("*")
            if p.is_file() and p.name not in (RECORD, ".ledger-site")}


def no_full_gather(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise AssertionError("the full gather was called")
    monkeypatch.setattr(site_service, "sliced_site", full)


def rebuilt(db: str, site: Path, monkeypatch: pytest.MonkeyPatch,
            before: dict[str, int]) -> tuple[dict[str, object], list[str]]:
    """A rebuild of ``site`` from ``db`` without the full gather: its JSON report and the files
    it wrote (their inode differs from ``before``, or they are new), sorted."""
    with monkeypatch.context() as patch:
        no_full_gather(patch)
        again = build(db, site, "--base-url", "https://chess.example.org/")
    after = inodes(site)
    return again, sorted(name for name in after if after[name] != before.get(name))


def spy_scopes(monkeypatch: pytest.MonkeyPatch) -> list[Scope]:
    """The scopes the next builds gather (``site_scope.scoped_site`` spied on)."""
    scopes: list[Scope] = []
    gather = site_service.scoped_site

    def spied(engine: object, scope: Scope, **options: object) -> object:
        scopes.append(scope)
        return gather(engine, scope, **options)  # type: ignore[arg-type]
    monkeypatch.setattr(site_service, "scoped_site", spied)
    return scopes


def same_as_a_full_build(db: str, site: Path, fresh: Path) -> None:
    """``site`` holds what a full build of ``db`` into the empty ``fresh`` makes, and its record
    the ledger's latest change: the next build writes nothing."""
    again = build(db, site, "--base-url", "https://chess.example.org/")
    assert again["written"] == 0 and again["unchanged_since"] == latest_change(db)
    build(db, fresh, "--base-url", "https://chess.example.org/")
    made, kept = tree(site), tree(fresh)
    assert sorted(made) == sorted(kept)
    for name in kept:
        if name != RECORD:
            assert made[name] == kept[name], name


def test_a_game_added_renders_its_players_and_event(season_copy: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    build(season_copy, site, "--base-url", "https://chess.example.org/")
    before = inodes(site)
    ledger(season_copy, "game", "add", "Tanaka, Hiro", "Silva, Ana", "1-0", "--date",
           "2026-11-07", "--event", "Club League 2026-27", "--round", "5")
    again, moved = rebuilt(season_copy, site, monkeypatch, before)
    # written: Tanaka's page (players/6.html) and Silva's (7), the Club League's page (new:
    # its first game), the tournaments' index, the home page (the latest tournament) and the
    # sitemap (the new page); every other file kept as it was
    assert moved == ["events/5.html", "events/index.html", "index.html", "players/6.html",
                     "players/7.html", "sitemap.xml"]
    assert again["written"] == 6 and again["unchanged_since"] is None
    same_as_a_full_build(season_copy, site, fresh)


@pytest.mark.parametrize("one_at_a_time", [False, True])
def test_a_close_renders_its_list_players_and_events(season_copy: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      one_at_a_time: bool) -> None:
    """The same files whether the rebuild gathers its players 1,000 at a time (the default:
    all four at once) or one at a time, and its events alone, and whether the list it
    relinks is read whole or from its last 1,500 bytes."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    if one_at_a_time:
        monkeypatch.setattr(site_scope, "sliced_site",
                            functools.partial(site_slices.sliced_site, size=1))
        monkeypatch.setattr(site_slices, "EVENT_GAMES", 1)
        # October's list relinked from its last bytes only, not rendered again
        monkeypatch.setattr(site_service, "TAIL", 1500)

        def not_rendered(*args: object, **kwargs: object) -> None:
            raise AssertionError("a relinked list was rendered whole")
        monkeypatch.setattr(site_service, "list_parts", not_rendered)
    ledger(season_copy, "game", "add", "Tanaka, Hiro", "Silva, Ana", "1-0", "--date",
           "2026-11-07", "--event", "Club League 2026-27", "--round", "5")
    build(season_copy, site, "--base-url", "https://chess.example.org/")
    before = inodes(site)
    # a rated game after the build: the rebuild sees a game added and the close
    ledger(season_copy, "game", "add", "Byrne, Seán", "Novak, Petra", "1-0", "--date",
           "2026-11-14", "--event", "Club League 2026-27", "--round", "6")
    ledger(season_copy, "period", "close", "2026-11")
    again, moved = rebuilt(season_copy, site, monkeypatch, before)
    # the new list and its bundle, October's list (its "next" link), the lists' index and the
    # home page (the latest list), the Club League's page (its period closed), the pages of
    # its four players (2: Novak, 4: Byrne, 6: Tanaka, 7: Silva; Byrne 1889 beat Novak: their
    # new ratings are on the players' index; the tournaments' index counts the new game), the
    # sitemap (the new list)
    assert moved == ["bundles/standard-2026-11-r1.json", "events/5.html", "events/index.html",
                     "index.html", "lists/index.html", "lists/standard/2026-10.html",
                     "lists/standard/2026-11.html", "players/2.html", "players/4.html",
                     "players/6.html", "players/7.html", "players/index.html", "sitemap.xml"]
    assert again["unchanged_since"] is None and again["lists"] == 5
    same_as_a_full_build(season_copy, site, fresh)


def test_a_first_rating_renders_the_pages_of_earlier_opponents(
        ledger_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana, unrated, plays three rated players in September and two others in October: the
    close of October publishes her first rating from all five games (B.02 §8.2: at least 5
    against rated opponents, 2 points: 1/2 + 0 + 0 + 1 + 1/2), so her September games now
    read "initial rating" on the pages of Anders, Bea and Carl, who played no game in
    October: their list lines are unchanged, only the games an initial rating counted put
    them in the rebuild's scope."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    for name, rating in (("Anders", "1800"), ("Bea", "1900"), ("Carl", "2000"),
                         ("Dora", "1700"), ("Emil", "1600")):
        ledger(ledger_db, "player", "add", name, "--rating", rating, "--prior-games", "100",
               "--birth-year", "1980")
    ledger(ledger_db, "player", "add", "Ana", "--birth-year", "1990")
    def games(*played: tuple[str, str, str, str, str]) -> None:
        for opponent, result, day, event, round_ in played:
            ledger(ledger_db, "game", "add", "Ana", opponent, result, "--date", day, "--event",
                   event, "--round", round_)

    games(("Anders", "1/2-1/2", "2026-09-05", "Autumn Cup", "1"),
          ("Bea", "0-1", "2026-09-12", "Autumn Cup", "2"),
          ("Carl", "0-1", "2026-09-19", "Autumn Cup", "3"))
    ledger(ledger_db, "period", "close", "2026-09")
    build(ledger_db, site, "--base-url", "https://chess.example.org/")
    games(("Dora", "1-0", "2026-10-03", "October Cup", "1"),
          ("Emil", "1/2-1/2", "2026-10-10", "October Cup", "2"))
    before = inodes(site)
    ledger(ledger_db, "period", "close", "2026-10")
    scopes = spy_scopes(monkeypatch)
    again, moved = rebuilt(ledger_db, site, monkeypatch, before)
    # the Autumn Cup (1) is not gathered: its page shows no game's status
    assert [sorted(s.events) for s in scopes] == [[2]]
    # the October list and its bundle, September's list (its "next" link), the indexes, the
    # home page and the sitemap; the pages of Ana (6, first rated), Dora (4) and Emil (5)
    # (rated in October) and the October Cup (2); and those of Anders (1), Bea (2) and Carl
    # (3), where Ana's September games now read "initial rating" (the Autumn Cup's page, its
    # report as September's close rated it, is the same)
    assert moved == ["bundles/standard-2026-10-r1.json", "events/2.html",
                     "events/index.html", "index.html", "lists/index.html",
                     "lists/standard/2026-09.html", "lists/standard/2026-10.html",
                     "players/1.html", "players/2.html", "players/3.html", "players/4.html",
                     "players/5.html", "players/6.html", "players/index.html", "sitemap.xml"]
    assert "initial rating" in (site / "players" / "1.html").read_text(encoding="utf-8")
    assert again["unchanged_since"] is None
    same_as_a_full_build(ledger_db, site, fresh)


def _players(db: str, rated: tuple[tuple[str, str], ...], unrated: tuple[tuple[str, str], ...]
             ) -> None:
    for name, rating in rated:
        ledger(db, "player", "add", name, "--rating", rating, "--prior-games", "100",
               "--birth-year", "1980")
    for name, born in unrated:
        ledger(db, "player", "add", name, "--birth-year", born)


def test_a_close_leaves_the_unrated_without_a_later_or_old_game(
        ledger_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana (3), unrated, played Anders in September only: October's close changes nothing on
    her page (her pool in progress, now shown as of November, still holds that game), which
    is not rendered again. Olga (4), unrated, has a November game against Bea, who played in
    October: her page shows Bea's rating at the November event's start, the October list's
    now, and is rendered."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    _players(ledger_db, (("Anders", "1800"), ("Bea", "1900")), (("Ana", "1990"),
                                                                ("Olga", "1990")))
    ledger(ledger_db, "game", "add", "Ana", "Anders", "1/2-1/2", "--date", "2026-09-05")
    ledger(ledger_db, "period", "close", "2026-09")
    ledger(ledger_db, "game", "add", "Bea", "Anders", "1-0", "--date", "2026-10-03")
    ledger(ledger_db, "game", "add", "Olga", "Bea", "0-1", "--date", "2026-11-07")
    build(ledger_db, site, "--base-url", "https://chess.example.org/")
    olga = (site / "players" / "4.html").read_text(encoding="utf-8")
    before = inodes(site)
    ledger(ledger_db, "period", "close", "2026-10")
    scopes = spy_scopes(monkeypatch)
    _, moved = rebuilt(ledger_db, site, monkeypatch, before)
    assert [sorted(s.players) for s in scopes] == [[1, 2, 4]]  # not Ana's (3)
    assert [m for m in moved if m.startswith("players/")] == [
        "players/1.html", "players/2.html", "players/4.html", "players/index.html"]
    assert (site / "players" / "4.html").read_text(encoding="utf-8") != olga
    same_as_a_full_build(ledger_db, site, fresh)


def test_a_december_close_renders_every_unrated_players_k(
        ledger_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Jun (3), unrated, born 2007, has no game: K for the next period is 40 as a junior
    through December 2025 (18 that year), 40 as a new player ("new-player") from January 2026 (19): the
    close of December renders his page."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    _players(ledger_db, (("Anders", "1800"), ("Bea", "1900")), (("Jun", "2007"),))
    ledger(ledger_db, "game", "add", "Bea", "Anders", "1-0", "--date", "2025-11-07")
    ledger(ledger_db, "period", "close", "2025-11")
    build(ledger_db, site, "--base-url", "https://chess.example.org/")
    assert "40 (junior)" in (site / "players" / "3.html").read_text(encoding="utf-8")
    ledger(ledger_db, "game", "add", "Anders", "Bea", "1-0", "--date", "2025-12-05")
    before = inodes(site)
    ledger(ledger_db, "period", "close", "2025-12")
    _, moved = rebuilt(ledger_db, site, monkeypatch, before)
    assert "players/3.html" in moved
    assert "40 (new-player)" in (site / "players" / "3.html").read_text(encoding="utf-8")
    same_as_a_full_build(ledger_db, site, fresh)


def test_a_december_close_in_rapid_renders_the_unrated_with_a_rapid_section(
        ledger_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the close of December in rapid, Ria (4), unrated in rapid with a rapid game in
    November, is in the scope (her rapid K's reason follows the year); Jun (3), with no rapid
    game, has no rapid section on his page and is not (his standard K is for standard's next
    period, which the rapid close does not move)."""
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    for name, rating in (("Anders", "1800"), ("Bea", "1900")):
        ledger(ledger_db, "player", "add", name, "--rating", rating, "--prior-games", "100",
               "--rapid-rating", rating, "--rapid-games", "100", "--birth-year", "1980")
    _players(ledger_db, (), (("Jun", "2007"), ("Ria", "2007")))
    for white, black, day in (("Ria", "Anders", "2025-11-07"), ("Bea", "Anders", "2025-11-08")):
        ledger(ledger_db, "game", "add", white, black, "1/2-1/2", "--date", day, "--pool",
               "rapid")
    ledger(ledger_db, "period", "close", "2025-11", "--pool", "rapid")
    build(ledger_db, site, "--base-url", "https://chess.example.org/")
    ledger(ledger_db, "game", "add", "Anders", "Bea", "1-0", "--date", "2025-12-05", "--pool",
           "rapid")
    ledger(ledger_db, "period", "close", "2025-12", "--pool", "rapid")
    scopes = spy_scopes(monkeypatch)
    rebuilt(ledger_db, site, monkeypatch, inodes(site))
    assert [sorted(s.players) for s in scopes] == [[1, 2, 4]]  # not Jun's (3)
    same_as_a_full_build(ledger_db, site, fresh)
