"""``ledger import LIST --format fide-list`` through Typer's CliRunner: the 2013 blitz lists,
re-import, malformed lists refused with line and column (exit 3, nothing written), usage errors,
and the progress bar's quiet modes."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from data_files import data_file
from fide_list_samples import BAD_RATING, RUN_ON, combined_with
from ledgers import Factory, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.cli.progress import PROGRESS_LINES, import_progress


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("cli")


def run(runner: CliRunner, db: str, *args: str) -> Result:
    return runner.invoke(app, ["--db", db, "import", *args])


def blitz(month: str) -> str:
    return str(data_file(f"fide_blitz_list_{month}_subset.txt"))


def players(runner: CliRunner, db: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["--db", db, "player", "list", "--json"])
    assert result.exit_code == 0, result.output
    data: list[dict[str, object]] = json.loads(result.stdout)["players"]
    return data


def test_both_blitz_lists_import_with_1506_players(runner: CliRunner, db: str) -> None:
    for month, date in (("apr13", "2013-04-01"), ("may13", "2013-05-01")):
        result = run(runner, db, blitz(month), "--format", "fide-list",
                     "--list-date", date, "--pool", "blitz", "--json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert (report["players_in_file"], report["ratings_recorded"]) == (1506, 1506)
        assert report["layout"] == "TXT single list" and report["problems"] == []
    assert report["players_matched"] == 1506 and report["players_registered"] == 0
    assert len(players(runner, db)) == 1506
    printed = sql(
        db, "SELECT p.fide_id, l.list_date, l.rating, l.games, l.k, p.birth_year FROM list_ratings l "
        "JOIN players p ON p.id = l.player_id WHERE p.fide_id IN (5500222, 7600950, 400270) "
        "ORDER BY p.fide_id, l.list_date")
    assert printed == [
        # apr13 line 87: "400270   Arkell, Keith C ... ENG M   GM     2512  0   20 1961      "
        # may13 line 86: "400270   Arkell, Keith C ... ENG M   GM     2492  10  20 1961      "
        (400270, "2013-04-01", 2512, 0, 20, 1961), (400270, "2013-05-01", 2492, 10, 20, 1961),
        # apr13 line 2: "5500222  Abbes, Ali ... TUN M             FI   2128  0   20 1973      "
        # may13 line 2: "5500222  Abbes, Ali ... TUN M   CM        FI   2075  8   20 1973      "
        (5500222, "2013-04-01", 2128, 0, 20, 1973), (5500222, "2013-05-01", 2075, 8, 20, 1973),
        # apr13 line 47: "7600950  Algildah, Nibal ... SYR F   WIM  WIM   1876  6   20 1987  w   "
        # may13 line 46: "7600950  Algildah, Nibal ... SYR F   WIM  WIM   1872  5   20 1987  w   "
        (7600950, "2013-04-01", 1876, 6, 20, 1987), (7600950, "2013-05-01", 1872, 5, 20, 1987)]
    again = run(runner, db, blitz("may13"), "--format", "fide-list",
                "--list-date", "2013-05-01", "--pool", "blitz", "--json")
    assert again.exit_code == 0
    report = json.loads(again.stdout)
    assert (report["ratings_recorded"], report["ratings_already_recorded"],
            report["players_registered"], report["players_updated"]) == (0, 1506, 0, 0)


def test_report_for_people(runner: CliRunner, db: str) -> None:
    result = run(runner, db, str(data_file("fide_players_list_sample.xml")),
                 "--format", "fide-list", "--list-date", "2013-05-01", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "XML combined list, standard pool, list of 2013-05-01: 11 players" in result.stdout
    assert "players: 0 matched, 11 registered, 0 updated" in result.stdout
    assert "dry run: nothing was written" in result.stdout
    assert players(runner, db) == []


MAY13_HEADER = ("ID Number      Name                                                         Fed Sex "
                "Tit  WTit OTit           may13 Gms K  B-day Flag")
# fide_blitz_list_may13_subset.txt lines 2 and 3, unchanged
ABBES = ("5500222        Abbes, Ali                                                   TUN M   "
         "CM        FI             2075  8   20 1973      ")
ABDULAZIZ = ("9300260        Abdulaziz, Abdulla                                           UAE M   "
             "                         1642  8   20 1996      ")


def test_malformed_list_is_refused_with_line_and_column(runner: CliRunner, db: str,
                                                        tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join([MAY13_HEADER, ABBES, ABDULAZIZ.replace("1642", "16A2"),
                              ABDULAZIZ[:50]]) + "\n", encoding="utf-8")
    result = run(runner, db, str(bad), "--format", "fide-list", "--list-date", "2013-05-01",
                 "--pool", "blitz")
    assert result.exit_code == 3
    assert f"{bad}:3: error: may13 (column 110): '16A2' is not a rating" in result.stderr
    assert f"{bad}:4: error: Fed (column 77): short line" in result.stderr
    assert "import rejected, nothing was written" in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert players(runner, db) == []


def test_an_official_lists_long_value_is_a_warning_and_its_flag_goes_to_its_pool(
        runner: CliRunner, db: str, tmp_path: Path) -> None:
    """fide_list_samples.RUN_ON, line 3: OTit IA,FA,IO,FST,DI,NA runs 3 characters into FOA;
    RRtng 1790 RGm 0 Rk 20 (3 to the right), Flag wi (the standard list's)."""
    path = tmp_path / "players_list_foa.txt"
    path.write_text(combined_with(RUN_ON), encoding="utf-8")
    result = run(runner, db, str(path), "--format", "fide-list", "--list-date", "2025-12-01",
                 "--pool", "rapid")
    assert result.exit_code == 0, result.output
    assert (f"{path}:3: warning: OTit (column 95): 'IA,FA,IO,FST,DI,NA' (18 characters) is longer "
            "than the OTit column (15)") in result.stderr
    shown = runner.invoke(app, ["--db", db, "player", "show", "Referee, Rita"])
    assert shown.exit_code == 0, shown.output
    row = next(line for line in shown.stdout.splitlines() if " rapid " in line)
    assert [cell.strip() for cell in row.split("│")[1:-1]] == [
        "rapid", "2025-12-01", "1790", "0", "20", "w", "players_list_foa.txt"]


def test_a_line_unreadable_after_a_long_value_rejects_the_list(runner: CliRunner, db: str,
                                                                tmp_path: Path) -> None:
    """fide_list_samples.BAD_RATING, line 3: after the 3-character shift, SRtng (column 117)
    says 18x5."""
    path = tmp_path / "players_list_foa.txt"
    path.write_text(combined_with(BAD_RATING), encoding="utf-8")
    result = run(runner, db, str(path), "--format", "fide-list", "--list-date", "2025-12-01")
    assert result.exit_code == 3
    assert f"{path}:3: error: SRtng (column 117): '18x5' is not a rating" in result.stderr
    assert "import rejected, nothing was written" in result.stderr
    assert players(runner, db) == []


def test_list_without_header_is_refused(runner: CliRunner, db: str, tmp_path: Path) -> None:
    bad = tmp_path / "noheader.txt"
    bad.write_text(f"{ABBES}\n", encoding="utf-8")
    result = run(runner, db, str(bad), "--format", "fide-list", "--list-date", "2013-05-01")
    assert result.exit_code == 3
    assert f"{bad}:1: error: header: no header line" in result.stderr
    assert players(runner, db) == []


@pytest.mark.parametrize("args, code, message", [
    (["--format", "fide-list"], 2,
     "error: a FIDE rating list needs --list-date YYYY-MM-DD: the date of the list"),
    (["--format", "fide-list", "--list-date", "2013-05-01", "--pool", "bullet"], 2,
     "error: --pool 'bullet': use standard|rapid|blitz"),
    (["--list-date", "2013-05-01"], 2,
     "error: --list-date is for a FIDE rating list: add --format fide-list"),
    (["--pool", "blitz"], 2, "error: --pool is for a FIDE rating list: add --format fide-list"),
    (["--format", "fide-list", "--list-date", "1 May 2013", "--pool", "blitz"], 1,
     "error: list-date: '1 May 2013'"),
])
def test_usage_errors_name_what_is_missing(runner: CliRunner, db: str, args: list[str], code: int,
                                           message: str) -> None:
    result = run(runner, db, blitz("may13"), *args)
    assert result.exit_code == code, result.output
    assert result.stderr.startswith(message), result.stderr
    assert "--pool standard|rapid|blitz" not in result.stderr


def test_a_single_list_needs_its_pool(runner: CliRunner, db: str) -> None:
    """The 2013 blitz list's header does not say blitz: its rating column is the month.
    line 1: "ID Number      Name ... Fed Sex Tit  WTit OTit           may13 Gms K  B-day Flag"
    Without --pool it would have become the standard pool's published ratings: refused."""
    path = blitz("may13")
    for extra in ([], ["--dry-run"], ["--json"]):
        result = run(runner, db, path, "--format", "fide-list", "--list-date", "2013-05-01", *extra)
        assert result.exit_code == 2, result.output
        assert result.stderr == (f"error: {path}: a single list (one rating column, may13) does "
                                 "not say its pool: give --pool standard|rapid|blitz\n")
        assert "published ratings" not in result.stdout
    assert players(runner, db) == []
    given = run(runner, db, path, "--format", "fide-list", "--list-date", "2013-05-01",
                "--pool", "blitz", "--dry-run")
    assert given.exit_code == 0, given.output
    # 1507 lines: the header and 1,506 players
    assert "TXT single list, blitz pool, list of 2013-05-01: 1506 players" in given.stdout


def test_a_blitz_list_says_it_registers_its_players(runner: CliRunner, db: str) -> None:
    """A blitz list registers everyone on it (FIDE's own record), unrated in the standard pool:
    the 1,506 player lines of may13 (lines 2 to 1507) into an empty ledger."""
    args = [blitz("may13"), "--format", "fide-list", "--list-date", "2013-05-01",
            "--pool", "blitz"]
    dry = run(runner, db, *args, "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert ("note: 1506 players would be registered from the list (FIDE's own record of its "
            "players), unrated in the standard pool") in dry.stderr
    done = run(runner, db, *args, "--json")
    assert done.exit_code == 0, done.output
    assert ("1506 players registered from the list (FIDE's own record of its players), unrated "
            "in the standard pool") in json.loads(done.stdout)["notes"]
    listed = players(runner, db)
    assert len(listed) == 1506 and {p["rating"] for p in listed} == {None}
    again = run(runner, db, *args)
    assert again.exit_code == 0 and "registered from the list" not in again.stderr


def test_a_combined_list_defaults_to_the_standard_pool(runner: CliRunner, db: str) -> None:
    """The XML list is combined: <rating>, <rapid_rating>, <blitz_rating> per player."""
    result = run(runner, db, str(data_file("fide_players_list_sample.xml")),
                 "--format", "fide-list", "--list-date", "2013-05-01", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["pool"] == "standard"
    listed = {p["fide_id"]: p["rating"] for p in players(runner, db)}
    # lines 3 and 10: "<fideid>13401319</fideid>" ... "<rating>2729</rating>" (rapid 2760,
    # blitz 2701 on lines 13 and 16)
    assert listed[13401319] == 2729


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_names_the_phase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A FIDE list uses the same bar as every import; the phase it is in is shown."""
    big = tmp_path / "big.txt"
    big.write_text("x\n" * (PROGRESS_LINES + 1), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", _Terminal())
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with import_progress(big, quiet=False) as progress:
        assert progress is not None
        progress(3000, 5999, "matching and recording players")
    assert "matching and recording players" in err.getvalue()


@pytest.mark.parametrize("lines, needle", [
    # MAY13_HEADER with Fed (columns 77-79) blanked: the Name column would run on to Sex
    # (column 81) and read "Abbes, Ali TUN" as the name
    ([MAY13_HEADER.replace(" Fed ", "     "), ABBES],
     "1: error: header: no Fed column: the header of a single list has ID Number, Name, Fed, Sex, "
     "Tit, WTit, OTit, may13, Gms, K, B-day, Flag"),
    # Abdulaziz's line cut inside its rating (may13, columns 110-113) at column 111, "...   16",
    # before Gms (116), K (120) and B-day (123)
    ([MAY13_HEADER, ABBES, ABDULAZIZ[:111]],
     "3: error: Gms (column 116): short line: it ends at column 111, before the Gms column"),
    # Abbes's line with the 51 blanks after "Abbes, Ali" (columns 26-76) one tab, at column 26
    ([MAY13_HEADER, ABBES.replace("Ali" + " " * 51 + "TUN", "Ali\tTUN")],
     "2: error: Name (column 16): a tab at column 26: FIDE's lists are fixed columns of blanks"),
], ids=["no Fed", "cut short", "tab"])
def test_a_header_without_a_token_or_a_line_cut_short_is_refused(
        runner: CliRunner, db: str, tmp_path: Path, lines: list[str], needle: str) -> None:
    """(issue 9, items 7.2 and 7.5)"""
    assert ABDULAZIZ[:111].endswith("   16") and ABBES[23:79] == "li" + " " * 51 + "TUN"
    path = tmp_path / "list.txt"
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    result = run(runner, db, str(path), "--format", "fide-list", "--list-date", "2013-05-01",
                 "--pool", "blitz")
    assert result.exit_code == 3, result.output
    assert f"{path}:{needle}" in result.stderr
    assert players(runner, db) == []


def test_a_list_that_is_only_its_header_is_refused(runner: CliRunner, db: str,
                                                   tmp_path: Path) -> None:
    """(issue 9, item 7.3) It said "0 players" (exit 0) and wrote an audit entry."""
    path = tmp_path / "header_only.txt"
    path.write_text(f"{MAY13_HEADER}\n", encoding="utf-8")
    result = run(runner, db, str(path), "--format", "fide-list", "--list-date", "2013-05-01",
                 "--pool", "blitz")
    assert result.exit_code == 3, result.output
    assert (f"{path}: error: players: no players in this list: only its header, on line 1"
            in result.stderr)
    assert "0 players" not in result.stdout
    assert sql(db, "SELECT count(*) FROM changes") == [(0,)]


def test_the_2013_blitz_lists_become_the_blitz_pools_published_ratings(runner: CliRunner,
                                                                        db: str) -> None:
    """Issue 12: the April and May 2013 blitz lists (1,506 players) import into the blitz
    pool. apr13 line 87: "400270  Arkell, Keith C ... 2512  0   20 1961"; may13 line 86:
    "400270  Arkell, Keith C ... 2492  10  20 1961": the May list is in force from 2013-05, so
    the blitz pool's published rating is 2492, with 10 games and K 20 as printed; registered
    from a blitz list, he is unrated in standard."""
    for month, day in (("apr13", "2013-04-01"), ("may13", "2013-05-01")):
        done = run(runner, db, blitz(month), "--format", "fide-list", "--list-date", day,
                   "--pool", "blitz")
        assert done.exit_code == 0, done.output
    shown = runner.invoke(app, ["--db", db, "player", "show", "400270", "--pool", "blitz",
                                "--json"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert (data["rating_pool"], data["rating"], data["rated_games"]) == ("blitz", 2492, None)
    printed = [(r["pool"], r["list_date"], r["rating"], r["games"], r["k"])
               for r in data["fide_list_ratings"]]
    assert printed == [("blitz", "2013-05-01", 2492, 10, 20)]
    text = runner.invoke(app, ["--db", db, "player", "show", "400270", "--pool", "blitz"])
    assert "blitz" in text.stdout and "2492" in text.stdout
    standard = json.loads(runner.invoke(app, ["--db", db, "player", "show", "400270",
                                              "--json"]).stdout)
    assert (standard["rating_pool"], standard["rating"]) == ("standard", None)
