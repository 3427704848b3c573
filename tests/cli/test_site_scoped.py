"""A rebuild after a close or a few games renders only the pages they touched (issue 25,
``site_scope``): the folder is then byte for byte what a full build into an empty folder
makes of the same ledger (every file compared, the build's record aside), the full gather is
never called, and the pages it did not render keep their inode (not written again)."""

from __future__ import annotations

from pathlib import Path

import pytest
from example_ledgers import copy_of
from file_trees import tree
from ledgers import Factory
from test_site_rebuild import RECORD, build, latest_change, ledger

from ledger.services.publishing import site_build as site_service


@pytest.fixture
def season_copy(season_db: str, new_database: Factory) -> str:
    return copy_of(season_db, new_database("riverside"))


def inodes(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_ino for p in folder.rglob("*")
            if p.is_file() and p.name not in (RECORD, ".ledger-site")}


def no_full_gather(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise AssertionError("the full gather was called")
    monkeypatch.setattr(site_service, "site_data", full)


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
    with monkeypatch.context() as patch:
        no_full_gather(patch)
        again = build(season_copy, site, "--base-url", "https://chess.example.org/")
    after = inodes(site)
    # written: Tanaka's page (players/6.html) and Silva's (7), the Club League's page (new:
    # its first game), the tournaments' index, the home page (the latest tournament) and the
    # sitemap (the new page); every other file kept as it was
    moved = sorted(name for name in after if after[name] != before.get(name))
    assert moved == ["events/5.html", "events/index.html", "index.html", "players/6.html",
                     "players/7.html", "sitemap.xml"]
    assert again["written"] == 6 and again["unchanged_since"] is None
    same_as_a_full_build(season_copy, site, fresh)


def test_a_close_renders_its_list_players_and_events(season_copy: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    ledger(season_copy, "game", "add", "Tanaka, Hiro", "Silva, Ana", "1-0", "--date",
           "2026-11-07", "--event", "Club League 2026-27", "--round", "5")
    build(season_copy, site, "--base-url", "https://chess.example.org/")
    before = inodes(site)
    # a rated game after the build: the rebuild sees a game added and the close
    ledger(season_copy, "game", "add", "Byrne, Seán", "Novak, Petra", "1-0", "--date",
           "2026-11-14", "--event", "Club League 2026-27", "--round", "6")
    ledger(season_copy, "period", "close", "2026-11")
    with monkeypatch.context() as patch:
        no_full_gather(patch)
        again = build(season_copy, site, "--base-url", "https://chess.example.org/")
    after = inodes(site)
    moved = sorted(name for name in after if after[name] != before.get(name))
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
