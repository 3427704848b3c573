"""site_record.holds: the folder as a record's ``states`` say, checked without building them;
the same answer as ``states(survey(root)) == files`` for each way a folder can differ."""

from __future__ import annotations

import os
from pathlib import Path

from ledger.services.publishing.site_record import RECORD, holds, states
from ledger.services.publishing.site_swap import survey


def _folder(root: Path) -> dict[str, list[object]]:
    (root / "players").mkdir(parents=True)
    (root / "index.html").write_bytes(b"<p>home</p>\n")
    (root / "players" / "7.html").write_bytes(b"<p>seven</p>\n")
    (root / "CNAME").symlink_to("index.html")
    (root / RECORD).write_bytes(b"{}")  # the record itself is never compared
    return states(survey(root))


def test_a_folder_as_recorded_holds_its_record(tmp_path: Path) -> None:
    files = _folder(tmp_path / "site")
    page = os.lstat(tmp_path / "site" / "players" / "7.html")
    assert files["players/7.html"] == ["f", 13, page.st_mtime_ns, page.st_ino]
    assert files["CNAME"] == ["l", 10] and files["players"] == ["d"]
    assert holds(tmp_path / "site", files)
    assert holds(tmp_path / "missing", {}) and not holds(tmp_path / "missing", files)


def test_each_difference_is_seen(tmp_path: Path) -> None:
    root = tmp_path / "site"
    files = _folder(root)
    (root / "players" / "8.html").write_bytes(b"new")  # a file added
    assert not holds(root, files)
    (root / "players" / "8.html").unlink()
    os.utime(root / "index.html", ns=(1, 1))  # only the time moved
    assert not holds(root, files)
    files = states(survey(root))
    (root / "players" / "7.html").unlink()  # a file removed
    assert not holds(root, files)
    (root / "players" / "7.html").write_bytes(b"<p>seven</p>\n")  # put back: another time
    assert not holds(root, files)
    files = states(survey(root))
    (root / "CNAME").unlink()
    (root / "CNAME").symlink_to("players")  # a link to another target (its size)
    assert not holds(root, files)
    (root / "CNAME").unlink()
    (root / "CNAME").mkdir()  # a folder where a link was
    assert not holds(root, files)
    assert holds(root, states(survey(root)))


def test_a_survey_takes_a_known_files_lstat_only_while_it_is_that_inode(tmp_path: Path) -> None:
    """``survey(root, known)``: a regular file of ``known`` still at that inode is given the
    ``lstat`` taken before (a file a build linked into its new site); another inode, a link or
    a folder is asked again."""
    root = tmp_path / "site"
    _folder(root)
    before = survey(root)
    os.utime(root / "index.html", ns=(5, 5))  # the same inode, another time: not asked again
    os.link(root / "players" / "7.html", tmp_path / "held")  # as the new site holds it
    (root / "players" / "7.html").unlink()
    (root / "players" / "7.html").write_bytes(b"<p>another</p>\n")  # another inode: asked
    again = survey(root, before)
    assert again["index.html"] is before["index.html"]
    assert again["index.html"].st_mtime_ns != 5
    assert again["players/7.html"].st_size == 15
    assert again["players/7.html"].st_ino == os.lstat(root / "players" / "7.html").st_ino
    assert again["CNAME"] is not before["CNAME"] and again["players"] is not before["players"]
    assert states(survey(root))["index.html"][2] == 5
