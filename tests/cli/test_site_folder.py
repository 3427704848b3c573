"""What ``ledger site build`` may do to its folder: it writes nowhere else (a symbolic link in
it is refused, not followed), never replaces a file it did not write, and removes only files
whose content it wrote (the manifest's SHA-256); an empty manifest is no manifest. Each refusal
names the file, exits 1 and changes nothing."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from file_trees import tree
from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def build(db: str, folder: Path, *more: str) -> Result:
    return run("--db", db, "site", "build", str(folder), "--club", "Riverside Chess Club",
               "--date", "2026-12-01", *more)


def said(result: Result) -> str:
    return " ".join(result.stderr.split())


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def site(season_db: str, tmp_path: Path) -> Path:
    """The season's site, built once into ``tmp_path / "www" / "site"``."""
    folder = tmp_path / "www" / "site"
    done = build(season_db, folder)
    assert done.exit_code == 0, done.stderr
    return folder


@pytest.mark.parametrize("linked", ["events", "players/3.html", "site.css"])
def test_a_symbolic_link_where_the_site_writes_is_refused_not_followed(
        season_db: str, site: Path, tmp_path: Path, linked: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "mine.txt").write_text("the club's own", encoding="utf-8")
    if linked == "events":
        (elsewhere / "1.html").write_text("not the ledger's", encoding="utf-8")
        for page in (site / "events").iterdir():
            page.unlink()
        (site / "events").rmdir()
        (site / "events").symlink_to(elsewhere)
    else:
        (site / linked).unlink()
        (site / linked).symlink_to(elsewhere / "mine.txt")
    before, theirs = tree(site), tree(elsewhere)
    result = build(season_db, site, "--club", "Another Club")
    assert result.exit_code == 1, result.stdout
    assert (f"site: {site / linked} is a symbolic link; a build writes only inside {site} and "
            "follows no link in it: remove the link") in said(result)
    assert tree(site) == before and tree(elsewhere) == theirs
    assert sorted(os.listdir(site.parent)) == ["site"]


def test_a_file_the_build_did_not_write_is_never_replaced(new_ledger: Factory,
                                                           tmp_path: Path) -> None:
    db = new_ledger("club")
    assert run("--db", db, "player", "add", "Alpha, Ann", "--rating", "1800",
               "--prior-games", "0").exit_code == 0
    site = tmp_path / "site"
    assert build(db, site).exit_code == 0
    # the club's own page where player 2's will be, before player 2 exists
    (site / "players" / "2.html").write_text("<p>our next member</p>", encoding="utf-8")
    assert run("--db", db, "player", "add", "Beta, Bob", "--rating", "1700",
               "--prior-games", "0").exit_code == 0
    before = tree(site)
    result = build(db, site)
    assert result.exit_code == 1, result.stdout
    assert (f"site: {site / 'players' / '2.html'} was not written by ledger site build (or "
            "was changed since): a build replaces only its own files; move it away") in said(result)
    assert tree(site) == before
    # a page the build wrote and someone changed since is not the build's any more
    (site / "players" / "2.html").unlink()
    (site / "index.html").write_text("<p>edited by hand</p>", encoding="utf-8")
    before = tree(site)
    result = build(db, site)
    assert result.exit_code == 1
    assert f"site: {site / 'index.html'} was not written by ledger site build" in said(result)
    assert tree(site) == before
    (site / "index.html").unlink()
    assert build(db, site).exit_code == 0
    assert (site / "players" / "2.html").read_text(encoding="utf-8").count("Beta, Bob") > 0


def test_an_edited_manifest_gets_nothing_of_the_clubs_deleted(season_db: str, site: Path) -> None:
    (site / "CNAME").write_text("ratings.club.example\n", encoding="utf-8")
    with sqlite3.connect(site / "members.db") as conn:  # another database, not the ledger
        conn.execute("CREATE TABLE members (name TEXT)")
    conn.close()
    database = (site / "members.db").read_bytes()
    manifest = site / ".ledger-site"
    lines = manifest.read_text(encoding="utf-8")
    # named with a made-up SHA-256, with none, and with the SHA-256 of other content
    manifest.write_text(lines + f"{'0' * 64}  CNAME\nmembers.db\n{sha(b'x')}  members.db\n"
                        f"{sha(b'old')}  ../outside.txt\n", encoding="utf-8")
    (site.parent / "outside.txt").write_text("old", encoding="utf-8")
    result = build(season_db, site)
    assert result.exit_code == 0, result.stderr
    assert "25 files, 0 written, 25 unchanged, 0 removed" in " ".join(result.stdout.split())
    assert (site / "CNAME").read_text(encoding="utf-8") == "ratings.club.example\n"
    assert (site / "members.db").read_bytes() == database
    assert (site.parent / "outside.txt").read_text(encoding="utf-8") == "old"
    # and the new manifest names only the build's own files
    assert "CNAME" not in manifest.read_text(encoding="utf-8")


@pytest.mark.parametrize("manifest", ["", "\n", "# files written by ledger site build\n"])
def test_an_empty_manifest_is_no_manifest(season_db: str, tmp_path: Path, manifest: str) -> None:
    folder = tmp_path / "public"
    folder.mkdir()
    (folder / ".ledger-site").write_text(manifest, encoding="utf-8")
    (folder / "index.html").write_text("the club's own page", encoding="utf-8")
    before = tree(folder)
    result = build(season_db, folder)
    assert result.exit_code == 1
    assert (f"site: {folder} already holds files that ledger site build did not write (no "
            ".ledger-site lists them)") in said(result)
    assert tree(folder) == before


def test_a_folder_of_an_earlier_version_is_taken_over(season_db: str, site: Path) -> None:
    # the manifest an earlier ledger wrote (paths only, no SHA-256), a page it no longer makes,
    # one of its temporary files a killed build left, and the club's own file; that ledger
    # wrote no bundles (this one makes them again: 4 written)
    shutil.rmtree(site / "bundles")
    pages = sorted(p for p in tree(site) if p != ".ledger-site")
    (site / ".ledger-site").write_text("# files written by ledger site build\n"
                                       + "".join(f"{p}\n" for p in [*pages, "players/99.html"]),
                                       encoding="utf-8")
    (site / "players" / "99.html").write_text("<p>merged away</p>", encoding="utf-8")
    (site / "players" / ".5.html.k2m9x_q1").write_text("<p>half a pa", encoding="utf-8")
    (site / "CNAME").write_text("ratings.club.example\n", encoding="utf-8")
    result = build(season_db, site)
    assert result.exit_code == 0, result.stderr
    assert "25 files, 4 written, 21 unchanged, 2 removed" in " ".join(result.stdout.split())
    assert sorted(tree(site)) == sorted([*pages, ".ledger-site", "CNAME",
                                         *(f"bundles/{pool}-r1.json" for pool in (
                                             "blitz-2026-10", "rapid-2026-10", "standard-2026-09",
                                             "standard-2026-10"))])


def test_a_folder_given_as_a_link_is_built_where_it_leads(season_db: str, tmp_path: Path) -> None:
    real = tmp_path / "srv" / "site"
    real.mkdir(parents=True)
    link = tmp_path / "public"
    link.symlink_to(real)
    assert build(season_db, link).exit_code == 0
    assert build(season_db, link, "--club", "Another Club").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "Another Club" in (real / "index.html").read_text(encoding="utf-8")
    assert sorted(os.listdir(real.parent)) == ["site"]


def test_the_new_site_keeps_the_folders_permissions(season_db: str, site: Path) -> None:
    # a folder shared with the web server's group: set-group-id, so that every file in it is
    # the group's; the club's own folder with a mode of its own
    os.chown(site, -1, 4242)
    os.chmod(site, 0o2750)
    (site / "downloads").mkdir(mode=0o700)
    os.chmod(site / "downloads", 0o700)
    (site / "downloads" / "rules.pdf").write_bytes(b"%PDF-1.4")
    result = build(season_db, site, "--club", "Another Club")
    assert result.exit_code == 0, result.stderr
    assert (os.stat(site).st_mode & 0o7777, os.stat(site).st_gid) == (0o2750, 4242)
    assert os.stat(site / "index.html").st_gid == 4242
    assert os.stat(site / "downloads").st_mode & 0o7777 == 0o700
    assert (site / "downloads" / "rules.pdf").read_bytes() == b"%PDF-1.4"
