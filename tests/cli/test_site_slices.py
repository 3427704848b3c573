"""The full site build a slice of players at a time (issue 25, ``site_slices``): every file
byte for byte what the whole gather renders (``render_site(site_data(...))``), whatever the
size of the slices and of the groups of events, on the README's season, the Tata Steel ledger,
a season after corrections of every kind, and an event with games in two pools."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from example_ledgers import copy_of
from ledgers import Factory
from test_event_pools_site import rapid_with_a_blitz_play_off
from test_site_rebuild import ledger

from ledger.formats.site.pages import render_site
from ledger.services.core.session import open_ledger
from ledger.services.publishing import site_slices
from ledger.services.publishing.site import site_data

OPTIONS = {"club": "Riverside Chess Club", "built_on": dt.date(2026, 12, 1),
           "base_url": "https://chess.example.org/"}


def both(db: str, size: int) -> tuple[dict[str, str], dict[str, str], int]:
    """The files of the whole gather and of the sliced one (``size`` players a slice), and how
    many players the sliced site's summaries hold."""
    engine = open_ledger(db)
    try:
        whole = dict(render_site(site_data(engine, **OPTIONS)))
        with site_slices.sliced_site(engine, size=size, **OPTIONS) as handed:
            site, files = handed.take()
            # the long pages (lists, players' index) come a group of pieces at a time
            sliced = {name: text if isinstance(text, str) else "".join(text.parts)
                      for name, text in files}
            # summaries only: no player's history is held for the whole build
            assert all(not record.history and not record.periods
                       for page in site.players for record in page.pools)
            return whole, sliced, len(site.players)
    finally:
        engine.dispose()


def same_files(db: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Compare the whole gather with slices of 1, 2 and 1,000 players, events alone and all
    together; the number of files and players."""
    for size, games in ((1, 1), (2, 3), (1000, 10**9)):
        monkeypatch.setattr(site_slices, "EVENT_GAMES", games)
        whole, sliced, players = both(db, size)
        assert sorted(sliced) == sorted(whole)
        for name, text in whole.items():
            assert sliced[name] == text, (size, name)
    return len(whole), players


def test_the_season_sliced_is_the_whole_site(season_db: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # 21 files (tests/cli/test_site_rebuild.py) and the sitemap; 7 players
    assert same_files(season_db, monkeypatch) == (22, 7)


def test_tata_steel_sliced_is_the_whole_site(tata_db: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    files, players = same_files(tata_db, monkeypatch)
    # 14 player pages, 1 list, 1 tournament, the stylesheet, script, home page, 3 indexes and
    # the sitemap
    assert (players, files) == (14, 14 + 1 + 1 + 7)


def test_a_season_after_corrections_sliced_is_the_whole_site(
        season_db: str, new_database: Factory, monkeypatch: pytest.MonkeyPatch) -> None:
    db = copy_of(season_db, new_database("riverside"))
    for args in (
            ("player", "add", "Quinn, Aoife", "--federation", "IRL"),
            ("game", "add", "Quinn, Aoife", "Silva, Ana", "1-0", "--date", "2026-11-07"),
            ("game", "correct", "27", "--result", "0-1", "--reason", "result misread",
             "--in-next-period"),
            ("period", "close", "2026-11"),
            ("game", "void", "5", "--reason", "not played", "--rerate"),
            ("player", "add", "Ward, Tom"),
            ("game", "add", "Ward, Tom", "Silva, Ana", "0-1", "--date", "2026-12-01"),
            ("game", "void", "34", "--reason", "never played"),
            ("player", "withdraw", "Ward, Tom", "--reason", "registered by mistake")):
        ledger(db, *args)
    files, players = same_files(db, monkeypatch)
    assert players == 8  # Ward withdrawn: on no page


def test_an_event_in_two_pools_sliced_is_the_whole_site(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "ledger.db"
    rapid_with_a_blitz_play_off(db)
    assert same_files(str(db), monkeypatch)[1] == 3
