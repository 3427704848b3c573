"""``ledger site build`` again on a folder it built (issue 25): with nothing changed in the
ledger it gathers nothing and writes nothing; with only another build date it gives the home
page its new date; after any write of the ledger, a file removed by hand, another version or
option, it builds the whole site, and the folder is always what a build into an empty folder
would make, byte for byte (the build's record ``.ledger-site.json`` aside: it holds the files'
times)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from example_ledgers import copy_of
from file_trees import tree
from ledgers import Factory
from sqlalchemy import create_engine, text
from typer.testing import CliRunner, Result

import ledger as ledger_package
from ledger.cli.app import app
from ledger.db.engine import database_url
from ledger.services.publishing import site_build as site_service

RECORD = ".ledger-site.json"
CLUB = "Riverside Chess Club"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def build(db: str, folder: Path, *more: str, date: str = "2026-12-01") -> dict[str, object]:
    done = run("--db", db, "site", "build", str(folder), "--club", CLUB, "--date", date,
               "--json", *more)
    assert done.exit_code == 0, done.output + done.stderr
    reported: dict[str, object] = json.loads(done.stdout)
    return reported


def pages(folder: Path) -> dict[str, bytes | str]:
    """The folder's files but the record."""
    return {name: data for name, data in tree(folder).items() if name != RECORD}


def latest_change(db: str) -> int:
    """The ledger's latest change, read straight from its ``changes`` table."""
    engine = create_engine(database_url(db))
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT max(id) FROM changes")).scalar_one())
    finally:
        engine.dispose()


def ledger(db: str, *args: str) -> None:
    done = run("--db", db, *args)
    assert done.exit_code == 0, done.output + done.stderr


@pytest.fixture
def season_copy(season_db: str, new_ledger: Factory) -> str:
    return copy_of(season_db, new_ledger("riverside"))


def test_nothing_changed_writes_nothing(season_db: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    build(season_db, site)
    before = tree(site)
    mtimes = {p: (site / p).stat().st_mtime_ns for p in before}
    record = json.loads(before[RECORD])
    assert (record["change"], record["club"], record["base_url"], record["built_on"]) == (
        latest_change(season_db), CLUB, None, "2026-12-01")
    home = (site / "index.html").stat()
    assert record["files"]["index.html"] == ["f", home.st_size, home.st_mtime_ns, home.st_ino]
    # nothing is gathered: a build that gathered would fail
    def no_gathering(*args: object, **kwargs: object) -> None:
        raise AssertionError("gathered")
    monkeypatch.setattr(site_service, "sliced_site", no_gathering)
    again = build(season_db, site)
    # 21 pages and files and the 4 lists' bundles (tests/cli/test_site_cli.py)
    assert again == {"directory": str(site), "files": 25, "written": 0, "unchanged": 25,
                     "removed": 0, "lists": 4, "players": 7, "events": 4, "bundles": 4,
                     "bundles_made": 0, "built_on": "2026-12-01",
                     "unchanged_since": latest_change(season_db)}
    assert tree(site) == before
    assert {p: (site / p).stat().st_mtime_ns for p in before} == mtimes
    # in words
    said = run("--db", season_db, "site", "build", str(site), "--club", CLUB, "--date",
               "2026-12-01")
    assert (f"nothing changed since change {latest_change(season_db)}: 25 files, 0 written, "
            "25 unchanged, 0 removed") in " ".join(said.stdout.split())


def test_another_build_date_rewrites_the_home_page_only(season_db: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    build(season_db, site)
    before = tree(site)
    real_sliced_site = site_service.sliced_site
    monkeypatch.setattr(site_service, "sliced_site", None)
    later = build(season_db, site, date="2026-12-24")
    assert (later["written"], later["unchanged"], later["unchanged_since"]) == (
        1, 24, latest_change(season_db))
    after = tree(site)
    assert sorted(name for name in after if after[name] != before[name]) == [
        ".ledger-site", RECORD, "index.html"]
    assert "built on 24 December 2026" in (site / "index.html").read_text(encoding="utf-8")
    # exactly what a full build on that date makes
    monkeypatch.setattr(site_service, "sliced_site", real_sliced_site)
    assert build(season_db, fresh, date="2026-12-24")["unchanged_since"] is None
    assert pages(site) == pages(fresh)
    # and recorded: the same date again writes nothing
    assert build(season_db, site, date="2026-12-24")["written"] == 0


def test_a_game_added_is_on_its_players_pages_as_a_full_build_makes_them(
        season_copy: str, tmp_path: Path) -> None:
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    build(season_copy, site)
    tanaka = (site / "players/6.html").read_text(encoding="utf-8")
    assert "<h1>Tanaka, Hiro</h1>" in tanaka and "2026-11-07" not in tanaka
    ledger(season_copy, "game", "add", "Tanaka, Hiro", "Silva, Ana", "1-0", "--date",
           "2026-11-07", "--event", "Club League 2026-27", "--round", "5")
    again = build(season_copy, site)
    assert again["unchanged_since"] is None and again["written"] != 0
    for page, name, opponent in (("players/6.html", "Tanaka, Hiro", "Silva, Ana"),
                                 ("players/7.html", "Silva, Ana", "Tanaka, Hiro")):
        shown = (site / page).read_text(encoding="utf-8")
        assert f"<h1>{name}</h1>" in shown
        row = shown[shown.index("<td>2026-11-07</td>"):]
        assert opponent in row[:row.index("</tr>")]
    build(season_copy, fresh)
    assert pages(site) == pages(fresh)
    assert build(season_copy, site)["written"] == 0


def test_a_close_publishes_its_list(season_copy: str, tmp_path: Path) -> None:
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    build(season_copy, site)
    ledger(season_copy, "game", "add", "Tanaka, Hiro", "Silva, Ana", "1-0", "--date",
           "2026-11-07", "--event", "Club League 2026-27", "--round", "5")
    build(season_copy, site)
    assert not (site / "lists/standard/2026-11.html").exists()
    ledger(season_copy, "period", "close", "2026-11")
    closed = build(season_copy, site)
    assert closed["unchanged_since"] is None and closed["lists"] == 5
    new_list = (site / "lists/standard/2026-11.html").read_text(encoding="utf-8")
    assert ">Tanaka, Hiro</a>" in new_list
    assert 'href="lists/standard/2026-11.html"' in (site / "index.html").read_text(
        encoding="utf-8")
    build(season_copy, fresh)
    assert pages(site) == pages(fresh)


def test_a_close_leaves_the_pages_of_players_it_did_not_rate(season_copy: str,
                                                            tmp_path: Path) -> None:
    """November 2026 closed with one game, Tanaka (rated, 1693) beating Silva (unrated): every
    other player is on the new list with the rating and K of the October list, so their pages
    are byte for byte (and inode for inode) what they were; Tanaka's gains the November point."""
    site = tmp_path / "site"
    ledger(season_copy, "game", "add", "Tanaka, Hiro", "Silva, Ana", "1-0", "--date",
           "2026-11-07", "--event", "Club League 2026-27", "--round", "5")
    build(season_copy, site)
    players = sorted(p.name for p in (site / "players").iterdir())
    before = {name: ((site / "players" / name).read_bytes(),
                     (site / "players" / name).stat().st_ino) for name in players}
    ledger(season_copy, "period", "close", "2026-11")
    build(season_copy, site)
    changed = [name for name in players if ((site / "players" / name).read_bytes(),
                                            (site / "players" / name).stat().st_ino)
               != before[name]]
    # 6.html: Tanaka (rated: 1693 -> a new point, a history row); 7.html: Silva (her game's
    # period is closed: its status and her way to a first rating); the players' index shows
    # ratings, which did not change
    assert changed == ["6.html", "7.html"]
    byrne = (site / "players/4.html").read_text(encoding="utf-8")
    # Byrne: 1883 on the list of October 2026 (period 2026-09), 1889 on November's (2026-10),
    # 1889 again on December's (2026-11): not plotted
    assert "1889 stands since the list of Nov 2026 (period 2026-10)" in byrne


def test_a_file_removed_by_hand_is_put_back(season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build(season_db, site)
    before = pages(site)
    (site / "players/3.html").unlink()
    again = build(season_db, site)
    assert (again["written"], again["unchanged_since"]) == (1, None)
    assert pages(site) == before


def test_a_file_edited_by_hand_is_not_taken_for_nothing_changed(season_db: str,
                                                                tmp_path: Path) -> None:
    site = tmp_path / "site"
    build(season_db, site)
    (site / "events/2.html").write_text("edited", encoding="utf-8")
    done = run("--db", season_db, "site", "build", str(site), "--club", CLUB, "--date",
               "2026-12-01")
    # the full build, which refuses to replace a file it did not write (as before the record)
    assert done.exit_code == 1
    assert "events/2.html was not written by ledger site build" in " ".join(done.stderr.split())


def test_a_file_replaced_with_its_size_and_time_is_seen(season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build(season_db, site)
    page = site / "events/2.html"
    was = page.stat()
    edited = tmp_path / "edited.html"
    edited.write_bytes(b"x" * was.st_size)
    os.utime(edited, ns=(was.st_atime_ns, was.st_mtime_ns))
    os.replace(edited, page)  # as an editor saves: a new file renamed over the page
    assert (page.stat().st_size, page.stat().st_mtime_ns) == (was.st_size, was.st_mtime_ns)
    done = run("--db", season_db, "site", "build", str(site), "--club", CLUB, "--date",
               "2026-12-01")
    assert done.exit_code == 1
    assert "events/2.html was not written by ledger site build" in " ".join(done.stderr.split())


def test_other_options_or_version_build_everything(season_db: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    build(season_db, site)
    other = build(season_db, site, "--base-url", "https://club.example/")
    # the 19 pages get their canonical address, and the sitemap is new (site.css, site.js kept)
    assert (other["written"], other["files"], other["unchanged_since"]) == (20, 26, None)
    assert '<link rel="canonical" href="https://club.example/players/1.html">' in (
        site / "players/1.html").read_text(encoding="utf-8")
    renamed = run("--db", season_db, "site", "build", str(site), "--club", "Riverside CC",
                  "--date", "2026-12-01", "--base-url", "https://club.example/", "--json")
    assert json.loads(renamed.stdout)["written"] == 19  # the pages, not the sitemap, css, js
    assert "<title>Players - Riverside CC</title>" in (site / "players/index.html").read_text(
        encoding="utf-8")
    monkeypatch.setattr(ledger_package, "__version__", "0.0.1")
    again = run("--db", season_db, "site", "build", str(site), "--club", "Riverside CC",
                "--date", "2026-12-01", "--base-url", "https://club.example/", "--json")
    assert (json.loads(again.stdout)["written"], json.loads(again.stdout)["unchanged_since"]) \
        == (0, None)
    assert json.loads((site / RECORD).read_text(encoding="utf-8"))["version"] == "0.0.1"


def test_other_bundles_build_everything(season_db: str, tmp_path: Path) -> None:
    site, private, public = tmp_path / "site", tmp_path / "club.key", tmp_path / "club.pub"
    ledger(season_db, "keys", "init", "--private", str(private), "--public", str(public))
    build(season_db, site)
    # signed: the 4 bundles made again with their signature, the public key published
    signed = build(season_db, site, "--key", str(private))
    assert (signed["unchanged_since"], signed["bundles_made"]) == (None, 4)
    assert (site / "public-key.pem").read_bytes() == public.read_bytes()
    assert build(season_db, site, "--key", str(private))["unchanged_since"] == latest_change(
        season_db)
    # without bundles: none left, none linked
    bare = build(season_db, site, "--no-bundles")
    assert (bare["unchanged_since"], bare["bundles"]) == (None, 0)
    assert not (site / "bundles").exists() and not (site / "public-key.pem").exists()
    # and back to unsigned bundles: all 4 made again
    again = build(season_db, site)
    assert (again["unchanged_since"], again["bundles_made"]) == (None, 4)


def test_a_record_of_another_shape_is_no_record(season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build(season_db, site)
    (site / RECORD).write_text('{"format": 1}', encoding="utf-8")
    assert build(season_db, site)["unchanged_since"] is None
    assert json.loads((site / RECORD).read_text(encoding="utf-8"))["change"] == latest_change(
        season_db)
    assert build(season_db, site)["unchanged_since"] == latest_change(season_db)


def test_every_kind_of_write_is_seen(season_copy: str, tmp_path: Path) -> None:
    """Each write of the ledger records a change with a larger id, so the next build gathers
    again; logins and accounts (``marks.UNSHOWN_ACTIONS``) show on no page and do not."""
    site = tmp_path / "site"
    build(season_copy, site)
    writes = [
        ("player", "add", "Quinn, Aoife", "--federation", "IRL"),
        ("player", "edit", "Quinn, Aoife", "--title", "WFM", "--reason", "title awarded"),
        ("game", "add", "Quinn, Aoife", "Silva, Ana", "1-0", "--date", "2026-11-07"),
        ("game", "correct", "27", "--result", "0-1", "--reason", "result misread",
         "--in-next-period"),
        ("event", "rename", "Riverside Rapid", "Riverside Rapid 2026", "--reason", "typo"),
        ("period", "close", "2026-11"),
        ("period", "reopen", "2026-11", "--reason", "a late result"),
        ("game", "void", "27", "--reason", "not played", "--in-next-period"),
        ("player", "add", "Ward, Tom"),
        ("player", "withdraw", "Ward, Tom", "--reason", "registered by mistake"),
    ]
    seen = latest_change(season_copy)
    for args in writes:
        ledger(season_copy, *args)
        assert latest_change(season_copy) > seen, args
        seen = latest_change(season_copy)
        assert build(season_copy, site)["unchanged_since"] is None, args
        assert build(season_copy, site)["unchanged_since"] == seen, args
    ledger(season_copy, "user", "add", "clerk", "--role", "reporter", "--one-time")
    assert latest_change(season_copy) > seen  # recorded, as user.add
    assert build(season_copy, site)["unchanged_since"] == seen
