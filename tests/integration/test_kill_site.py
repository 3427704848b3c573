"""A site build killed with SIGKILL (tests/processes.py: ``AtFile``, a hook in the killed
process only, at a named file operation) leaves the site's folder exactly as it was: a first
build leaves no folder, a rebuild the previous site byte for byte; killed once the new site is
in place, it leaves the new site whole. The next build finishes the site and leaves nothing of
the dead one, beside the folder or in it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from file_trees import tree
from processes import AtFile, Child, start
from typer.testing import CliRunner

from ledger.cli.app import app

#: The season's site (tests/cli/test_site_cli.py: 21 pages and files, 4 bundles, the manifest
#: and the record) built for one club name, then rebuilt for another: every page heads with the
#: club, so every page changes (the bundles do not: the rebuild keeps them).
FIRST, SECOND = "Riverside Chess Club", "Riverside Chess Club (new name)"


def _point(site: Path) -> dict[str, tuple[tuple[str, ...], Callable[[str], bool], int]]:
    """The named points of a build into ``site``: the audit events, which of their paths, and
    the how-manyth. ``page-1``, ``page-12``: the first and the twelfth page opened for writing;
    ``bundle-2``: the second bundle opened for writing;
    ``manifest``: the manifest opened for writing; ``swap``: just before the rename that puts the
    new site in place; ``old-removed``: the removal of what it replaced (a rebuild)."""
    beside = str(site.parent)

    def under(path: str) -> bool:
        return path.startswith(beside + os.sep)

    return {
        "page-1": (("open",), lambda p: under(p) and ".html" in os.path.basename(p), 1),
        "page-12": (("open",), lambda p: under(p) and ".html" in os.path.basename(p), 12),
        "manifest": (("open",), lambda p: under(p) and ".ledger-site" in os.path.basename(p), 1),
        # the second bundle opened for writing (a first build: a rebuild keeps them, linked)
        "bundle-2": (("open",), lambda p: under(p) and p.endswith(".json"), 2),
        # a first build renames the new site into place; a rebuild looks up renameat2 (Linux)
        # just before it exchanges the two folders
        "swap": (("os.rename", "ctypes.dlsym"), lambda p: p in (str(site), "renameat2"), 1),
        "old-removed": (("shutil.rmtree",), under, 1),
    }


def site_tree(folder: Path) -> dict[str, bytes | str]:
    """``tree(folder)`` but the build's record (``.ledger-site.json``), which holds the files'
    times: present in every whole site, never in one a killed first build left."""
    found = tree(folder)
    assert (".ledger-site.json" in found) == (".ledger-site" in found)
    return {name: data for name, data in found.items() if name != ".ledger-site.json"}


def build_args(db: str, site: Path, club: str) -> tuple[str, ...]:
    return ("--db", db, "site", "build", str(site), "--club", club, "--date", "2026-12-01")


@pytest.fixture(scope="module")
def expected(season_db: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The two sites as a build that nobody kills writes them."""
    root = tmp_path_factory.mktemp("expected")
    sites = {}
    for club in (FIRST, SECOND):
        folder = root / str(len(sites))
        done = CliRunner().invoke(app, list(build_args(season_db, folder, club)))
        assert done.exit_code == 0, done.output + done.stderr
        sites[club] = site_tree(folder)
    assert len(sites[FIRST]) == 26 and sites[FIRST].keys() == sites[SECOND].keys()
    assert all(sites[FIRST][p] != sites[SECOND][p] for p in sites[FIRST] if p.endswith(".html"))
    assert all(sites[FIRST][p] == sites[SECOND][p] for p in sites[FIRST] if p.endswith(".json"))
    return sites


def _killed_at(point: str, db: str, site: Path, club: str, tmp_path: Path) -> None:
    events, matches, at = _point(site)[point]
    killed = start(tmp_path / "killed", [build_args(db, site, club)],
                   pause=AtFile(tmp_path / "pause", events, matches, at))
    killed.wait_paused()
    killed.kill()


def _finished(db: str, site: Path, tmp_path: Path, expected: dict[str, bytes | str]) -> None:
    """The next build finishes the site, and nothing of the dead one is left."""
    again = start(tmp_path / "again", [build_args(db, site, SECOND)])
    assert again.wait() == 0, again.stderr
    assert site_tree(site) == expected
    assert sorted(os.listdir(site.parent)) == ["site"]


@pytest.mark.parametrize("point", ["page-1", "page-12", "bundle-2", "manifest", "swap"])
def test_a_first_build_killed_leaves_no_site(season_db: str, tmp_path: Path, point: str,
                                             expected: dict[str, dict]) -> None:
    site = tmp_path / "www" / "site"
    site.parent.mkdir()
    _killed_at(point, season_db, site, SECOND, tmp_path)
    assert not os.path.lexists(site)
    _finished(season_db, site, tmp_path, expected[SECOND])


@pytest.mark.parametrize("point", ["page-1", "page-12", "manifest", "swap", "old-removed"])
def test_a_rebuild_killed_leaves_one_whole_site(season_db: str, tmp_path: Path, point: str,
                                                expected: dict[str, dict]) -> None:
    site = tmp_path / "www" / "site"
    first = start(tmp_path / "first", [build_args(season_db, site, FIRST)])
    assert first.wait() == 0, first.stderr
    assert site_tree(site) == expected[FIRST]
    _killed_at(point, season_db, site, SECOND, tmp_path)
    # before the swap: the site as it was, byte for byte; after it: the new site, whole
    assert site_tree(site) == expected[SECOND if point == "old-removed" else FIRST]
    _finished(season_db, site, tmp_path, expected[SECOND])


def _built_then_paused(db: str, site: Path, tmp_path: Path, point: str,
                       club: dict[str, str] | None = None) -> Child:
    """The first site built into ``site`` (then the ``club``'s files, path -> text, put in
    it), and a build of the second one started and stopped at ``point``."""
    first = start(tmp_path / "first", [build_args(db, site, FIRST)])
    assert first.wait() == 0, first.stderr
    for name, text in (club or {}).items():
        (site / name).write_text(text, encoding="utf-8")
    events, matches, at = _point(site)[point]
    running = start(tmp_path / "running", [build_args(db, site, SECOND)],
                    pause=AtFile(tmp_path / "pause", events, matches, at))
    running.wait_paused()
    return running


def test_a_second_build_while_one_runs_is_refused(season_db: str, tmp_path: Path,
                                                  expected: dict[str, dict]) -> None:
    site = tmp_path / "www" / "site"
    running = _built_then_paused(season_db, site, tmp_path, "page-12")
    other = start(tmp_path / "other", [build_args(season_db, site, SECOND)])
    assert other.wait() == 1
    assert f"site: another ledger site build is writing {site}" in other.stderr
    assert site_tree(site) == expected[FIRST]
    running.go_on()
    assert running.wait() == 0, running.stderr
    assert site_tree(site) == expected[SECOND]
    assert sorted(os.listdir(site.parent)) == ["site"]


def test_what_is_put_in_the_folder_during_a_build_is_kept(season_db: str, tmp_path: Path,
                                                          expected: dict[str, dict]) -> None:
    site = tmp_path / "www" / "site"
    # stopped when every page is made, before the swap
    running = _built_then_paused(season_db, site, tmp_path, "manifest",
                                 {"notes.txt": "first notes"})
    # meanwhile the club adds a file and a folder, and saves its notes as an editor does
    (site / "CNAME").write_text("ratings.club.example\n", encoding="utf-8")
    (site / "uploads").mkdir()
    (site / "uploads" / "rules.pdf").write_bytes(b"%PDF-1.4")
    (site / ".notes.txt.swp").write_text("second notes", encoding="utf-8")
    os.replace(site / ".notes.txt.swp", site / "notes.txt")
    running.go_on()
    assert running.wait() == 0, running.stderr
    assert site_tree(site) == expected[SECOND] | {
        "notes.txt": b"second notes", "CNAME": b"ratings.club.example\n",
        "uploads/rules.pdf": b"%PDF-1.4"}
    assert sorted(os.listdir(site.parent)) == ["site"]


def test_a_file_put_where_the_new_site_has_a_folder_is_kept_beside(
        season_db: str, tmp_path: Path, expected: dict[str, dict]) -> None:
    site = tmp_path / "www" / "site"
    running = _built_then_paused(season_db, site, tmp_path, "manifest")
    shutil.rmtree(site / "players")  # the players' folder replaced by a file of that name
    (site / "players").write_text("our players", encoding="utf-8")
    running.go_on()
    assert running.wait() == 1
    kept = site.parent / ".site.ledger-kept-1"
    assert (f"site: {site / 'players'} was put there during the build, where the new site has a "
            f"folder: it is kept with what the folder held before the build in {kept}"
            in " ".join(running.stderr.split()))
    assert site_tree(site) == expected[SECOND]  # the new site, whole
    assert (kept / "players").read_text(encoding="utf-8") == "our players"
    assert sorted(os.listdir(site.parent)) == [".site.ledger-kept-1", "site"]
