"""Where the system cannot exchange two folders in one step (macOS, NFS, SMB shares), a site
build swaps by two renames (``site_swap.Build.swap_by_renames``: DIR aside as ``old``, the new
site into DIR). Killed between the two, it leaves no DIR and the previous site in its work
folder: the next build puts that site back first, then builds over it as over any site.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from file_trees import tree
from processes import AtFile, start_call
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.services.publishing import site_swap


def build(db: str, site: Path) -> str:
    done = CliRunner().invoke(app, ["--db", db, "site", "build", str(site), "--club",
                                    "Riverside Chess Club", "--date", "2026-12-01"])
    assert done.exit_code == 0, done.output + done.stderr
    return " ".join(done.stdout.split())


def _half_swapped(site: Path) -> None:
    """In the killed process: a build that swaps by renames (a page of its own in the new
    site)."""
    with site_swap.building(site) as started:
        started.write("index.html", b"<p>the new site</p>")
        started.swap_by_renames()


def test_a_build_killed_between_the_two_renames_is_put_back_by_the_next(
        season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "www" / "site"
    build(season_db, site)
    before = tree(site)
    # stopped before its second rename: the new site into DIR
    killed = start_call(tmp_path / "killed", lambda: _half_swapped(site),
                        pause=AtFile(tmp_path / "pause", ("os.rename",),
                                     lambda p: p == str(site), 2))
    killed.wait_paused()
    killed.kill()
    work = site.parent / ".site.ledger-build"
    assert not os.path.lexists(site)
    assert tree(work / "old") == before and tree(work / "site") == {"index.html": b"<p>the new site</p>"}
    # the previous site put back, then built over: every file unchanged
    said = build(season_db, site)
    # 21 pages and files and the 4 lists' bundles (tests/cli/test_site_cli.py)
    assert re.search(r": 25 files, 0 written, 25 unchanged, 0 removed ", said), said
    assert tree(site) == before
    assert sorted(os.listdir(site.parent)) == ["site"]


def test_the_two_renames_swap_the_sites(season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "www" / "site"
    build(season_db, site)
    (site / "CNAME").write_text("ratings.club.example\n", encoding="utf-8")
    with site_swap.building(site) as started:
        started.write("index.html", b"<p>the new site</p>")
        started.carry(["CNAME"])
        started.swap_by_renames()
    assert tree(site) == {"index.html": b"<p>the new site</p>",
                          "CNAME": b"ratings.club.example\n"}
    assert sorted(os.listdir(site.parent)) == ["site"]
