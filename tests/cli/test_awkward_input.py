"""Awkward and bad input a rating officer meets, through the CLI (QA pass on issues 3 and 5):
each bad file is refused with file, line and field or column, exit 3 for an import, and
nothing is written (row counts checked); each bad output path is a message, never a traceback.

The small event used throughout is a hand-made TRF-16 file of November 2025: four rated players,
three rounds, six games (round 1: 1-2 1-0, 4-3 0-1; round 2: 3-1 draw, 2-4 1-0; round 3: 1-4
1-0, 3-2 1-0).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from ledgers import Factory, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app

HEADER = ["012 Placeholder Autumn Cup", "022 Placeholder Town", "042 2025/11/08",
          "052 2025/11/09", "XXR 3"]
# 001, rank 5-8, sex 10, name 15-47, rating 49-52, fed 54-56, FIDE id 58-68, birth 70-79,
# points 81-84, rank 86-89, round n from 92 + 10(n-1): opponent, colour, result.
PLAYERS = [
    "001    1 m    Alpha, Ann                        2000 ENG    90000001 1990/01/01  2.5    1"
    "     2 w 1     3 b =     4 w 1",
    "001    2 m    Bravo, Ben                        1900 ENG    90000002 1985/01/01  1.0    3"
    "     1 b 0     4 w 1     3 b 0",
    "001    3 w    Charlie, Cat                      1800 ENG    90000003 2009/01/01  2.5    2"
    "     4 b 1     1 w =     2 w 1",
    "001    4 m    Delta, Dan                        1700 ENG    90000004 1970/01/01  0.0    4"
    "     3 w 0     2 b 0     1 b 0",
]
TABLES = ("players", "player_entries", "games", "events", "imported_files")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("qa")


def run(runner: CliRunner, *args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def counts(db: str) -> dict[str, int]:
    """Rows of each table, read with SQL (not through the ledger)."""
    return {t: int(str(sql(db, f"SELECT count(*) FROM {t}")[0][0])) for t in TABLES}


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def trf(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def assert_rejected(runner: CliRunner, db: str, path: Path, *expected: str,
                    args: tuple[str, ...] = ("--register-players",)) -> Result:
    """Import ``path``: exit 3, each of ``expected`` on stderr, no traceback, no row written."""
    before = counts(db)
    result = run(runner, "--db", db, "import", path, *args)
    assert result.exit_code == 3, result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output + result.stderr
    for text in expected:
        assert text in result.stderr, result.stderr
    assert counts(db) == before
    return result


# ------------------------------------------------------------------------------------------------
# ledger export trf --output: a place that cannot be written is a message, not a traceback


def test_export_into_a_missing_directory_is_a_message(runner: CliRunner, db: str,
                                                      tmp_path: Path) -> None:
    event = write(tmp_path, "nov.trf", trf(*HEADER, *PLAYERS))
    assert run(runner, "--db", db, "import", event, "--register-players").exit_code == 0
    target = tmp_path / "no-such-dir" / "out.trf"
    result = run(runner, "--db", db, "export", "trf", "--event", "#1", "--output", target)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"cannot write {target}" in result.stderr
    assert not target.parent.exists()


# ------------------------------------------------------------------------------------------------
# Files without a game: refused (exit 3), and their hash is not kept (an empty CSV later must
# not read as "imported before as empty.trf")


@pytest.mark.parametrize(("name", "data", "message"), [
    ("empty.trf", b"", "error: file: the file is empty"),
    ("empty.csv", b"", "error: file: the file is empty"),
    ("empty.pgn", b"\n\n", "error: file: the file is empty"),
    ("header.trf", trf(*HEADER), "error: file: no games in this TRF file"),
    ("header.csv", "date,white,black,result\n", "error: file: no games in this CSV file"),
])
def test_a_file_without_games_is_refused(runner: CliRunner, db: str, tmp_path: Path, name: str,
                                         data: str | bytes, message: str) -> None:
    assert_rejected(runner, db, write(tmp_path, name, data), f"{name}: {message}")


# ------------------------------------------------------------------------------------------------
# TRF lines that cannot be trusted


def test_a_control_character_in_a_trf_line_is_refused_with_its_column(
        runner: CliRunner, db: str, tmp_path: Path) -> None:
    # "Al\x00ha, Ann": the name starts in column 15, so the NUL is column 17
    line = PLAYERS[0].replace("Alpha", "Al\x00ha")
    path = write(tmp_path, "nul.trf", trf(*HEADER, line, *PLAYERS[1:]))
    assert_rejected(runner, db, path,
                    "nul.trf:6: error: col 17: a control character (U+0000): a TRF line")


def test_a_round_beyond_xxr_is_refused_on_each_line(runner: CliRunner, db: str,
                                                    tmp_path: Path) -> None:
    # XXR 2 (line 5), but every line has a third round: its cell is columns 112-119
    header = [*HEADER[:4], "XXR 2"]
    path = write(tmp_path, "xxr.trf", trf(*header, *PLAYERS))
    result = assert_rejected(runner, db, path)
    for line in (6, 7, 8, 9):
        assert (f"xxr.trf:{line}: error: col 112-119: round 3: the file has 2 rounds (line 5)"
                in result.stderr)


def test_an_impossible_end_date_is_named(runner: CliRunner, db: str, tmp_path: Path) -> None:
    header = [*HEADER[:3], "052 2025/02/30", HEADER[4]]
    path = write(tmp_path, "date.trf", trf(*header, *PLAYERS))
    assert_rejected(runner, db, path,
                    "date.trf:4: error: col 5: record 052: '2025/02/30' is not a valid end date")


# ------------------------------------------------------------------------------------------------
# CSV rows that cannot be trusted


def test_a_quoted_line_break_inside_a_name_is_refused(runner: CliRunner, db: str,
                                                      tmp_path: Path) -> None:
    # the row starting on line 2 spans lines 2-3; the next row is line 4 and is fine
    path = write(tmp_path, "qnl.csv", 'date,white,black,result\n'
                 '2025-11-05,"Alpha,\n Ann","Bravo, Ben",1-0\n'
                 '2025-11-06,"Bravo, Ben","Alpha, Ann",0-1\n')
    result = assert_rejected(runner, db, path, "qnl.csv:2: error: white: a line break or "
                             "control character (U+000A) inside the quotes")
    assert "qnl.csv:4" not in result.stderr


def test_a_column_given_twice_is_refused(runner: CliRunner, db: str, tmp_path: Path) -> None:
    path = write(tmp_path, "twice.csv", "date,date,white,black,result\n"
                 "2025-11-05,2025-11-06,A One,B Two,1-0\n")
    assert_rejected(runner, db, path, "twice.csv:1: error: header: column 'date' given twice")


@pytest.mark.parametrize(("row", "expected"), [
    ("2025-02-30,A One,B Two,1-0", "bad.csv:2: error: date: 2025-02-30: February 2025 has 28 "
     "days"),
    ("2026-12-32,A One,B Two,1-0", "bad.csv:2: error: date: 2026-12-32: December has 31 days"),
    ("5/11/2025,A One,B Two,1-0", "bad.csv:2: error: date: '5/11/2025' is not a date; write "
     "YYYY-MM-DD"),
    ("2025-11-05,A One,B Two,2-0", "bad.csv:2: error: result: '2-0' is not a result"),
    ("2025-11-05,A One,a one,1-0", "bad.csv:2: error: black: White and Black are the same"),
    ("2025-11-05,A One,B Two", "bad.csv:2: error: row: 3 fields where the header has 4"),
    ("2025-11-05,A One,B Two,1-0,x", "bad.csv:2: error: row: 5 fields where the header has 4"),
])
def test_bad_csv_rows_are_named_by_line_and_column(runner: CliRunner, db: str, tmp_path: Path,
                                                   row: str, expected: str) -> None:
    path = write(tmp_path, "bad.csv", f"date,white,black,result\n{row}\n")
    assert_rejected(runner, db, path, expected)


# ------------------------------------------------------------------------------------------------
# One game per player per round of an event (any format; checked by the import service)


def test_a_player_twice_in_one_round_is_refused(runner: CliRunner, db: str,
                                                tmp_path: Path) -> None:
    # the same game written from both sides (colours swapped) would be rated twice
    path = write(tmp_path, "both.csv", "date,white,black,result,event,round\n"
                 "2025-11-05,A One,B Two,1-0,Cup,1\n2025-11-05,B Two,A One,0-1,Cup,1\n")
    assert_rejected(runner, db, path, "both.csv:3: error: white: B Two plays twice in round 1: "
                    "also line 2")


def test_a_player_twice_in_one_round_across_files_is_refused(runner: CliRunner, db: str,
                                                             tmp_path: Path) -> None:
    first = write(tmp_path, "r1.csv", "date,white,black,result,event,round\n"
                  "2025-11-05,A One,B Two,1-0,Cup,1\n")
    assert run(runner, "--db", db, "import", first, "--register-players").exit_code == 0
    second = write(tmp_path, "r1b.csv", "date,white,black,result,event,round\n"
                   "2025-11-06,C Three,A One,1-0,Cup,1\n")
    # the same rule as `ledger game add` (game_keys.RoundSeats): the message names the recorded game
    assert_rejected(runner, db, second, "r1b.csv:2: error: black: A One plays twice in round 1: "
                    "also game 1 (A One v B Two, 1-0) in the ledger")


# ------------------------------------------------------------------------------------------------
# ledger list --output: the format from the extension; bad places are messages


@pytest.fixture
def closed(runner: CliRunner, db: str, tmp_path: Path) -> str:
    """The November 2025 event imported and its period closed."""
    event = write(tmp_path, "nov.trf", trf(*HEADER, *PLAYERS))
    assert run(runner, "--db", db, "import", event, "--register-players").exit_code == 0
    assert run(runner, "--db", db, "period", "close", "2025-11").exit_code == 0
    return db


def test_list_output_takes_its_format_from_the_extension(runner: CliRunner, closed: str,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "list.csv"
    result = run(runner, "--db", closed, "list", "--output", out)
    assert result.exit_code == 0, result.stderr
    assert "wrote the csv rating list" in result.stdout
    # Alpha, Ann: 2000, K 20, table 8.1.2: D 100 -> .64, D 300 -> .85, D 200 (v 1800) -> .76;
    # sum 2.25, score 2.5: 20 x 0.25 = +5 -> 2005
    assert out.read_text(encoding="utf-8").splitlines()[:2] == [
        "rank,fide_id,name,title,federation,sex,rating,games,k,birth_year,flag",
        '1,90000001,"Alpha, Ann",,ENG,M,2005,3,20,1990,']
    page = tmp_path / "list.HTML"
    assert run(runner, "--db", closed, "list", "--output", page).exit_code == 0
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("name", ["list.xlsx", "list"])
def test_list_output_with_an_unknown_extension_is_refused(runner: CliRunner, closed: str,
                                                          tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    result = run(runner, "--db", closed, "list", "--output", out)
    assert result.exit_code == 2
    assert not out.exists()
    message = " ".join(result.stderr.split())
    assert f"--output {out}: no format is known for the extension" in message
    assert ".csv .json .txt .html .htm" in message and "--format" in message
    # --format says what to write, whatever the name
    chosen = run(runner, "--db", closed, "list", "--format", "csv", "--output", out)
    assert chosen.exit_code == 0, chosen.stderr
    assert out.read_text(encoding="utf-8").startswith("rank,fide_id,name,")


@pytest.mark.parametrize("args", [("--output", "{tmp}/missing/list.csv"),
                                  ("--format", "txt", "--output", "{tmp}/missing/list.txt")])
def test_list_into_a_missing_directory_is_a_message(runner: CliRunner, closed: str,
                                                    tmp_path: Path, args: tuple[str, ...]) -> None:
    filled = [a.format(tmp=tmp_path) for a in args]
    result = run(runner, "--db", closed, "list", *filled)
    assert result.exit_code == 1
    assert f"error: output: cannot write {filled[-1]}" in result.stderr
    assert not (tmp_path / "missing").exists()


def test_unknown_list_format_is_a_usage_error(runner: CliRunner, closed: str) -> None:
    result = run(runner, "--db", closed, "list", "--format", "xml")
    assert result.exit_code == 2
    assert "'xml' is not one of" in result.stderr


def test_a_header_record_given_twice_is_refused(runner: CliRunner, db: str,
                                                tmp_path: Path) -> None:
    # a second 052 (line 5) after the first (line 4): which end date, so which period?
    header = [*HEADER[:4], "052 2025/11/20", HEADER[4]]
    path = write(tmp_path, "two.trf", trf(*header, *PLAYERS))
    assert_rejected(runner, db, path, "two.trf:5: error: col 1-3: record 052 is also on line 4 "
                    "with another value")
    # the same record repeated word for word says nothing new: imported
    same = write(tmp_path, "same.trf", trf(*HEADER[:4], HEADER[3], HEADER[4], *PLAYERS))
    assert run(runner, "--db", db, "import", same, "--register-players").exit_code == 0
    assert counts(db)["games"] == 6


# ------------------------------------------------------------------------------------------------
# Dates no rating officer means: before FIDE's first rating list (1971)


def test_a_date_before_1970_is_refused_with_its_line(runner: CliRunner, db: str,
                                                     tmp_path: Path) -> None:
    csv_file = write(tmp_path, "y1.csv", "date,white,black,result\n0001-01-01,A One,B Two,1-0\n")
    assert_rejected(runner, db, csv_file, "y1.csv:2: error: date: 0001-01-01 is before 1970-01-01")
    # a TRF whose start date (record 042, line 3) is year 1: the games' end date is fine
    header = [HEADER[0], HEADER[1], "042 0001/01/01", *HEADER[3:]]
    trf_file = write(tmp_path, "y1.trf", trf(*header, *PLAYERS))
    assert_rejected(runner, db, trf_file,
                    "y1.trf:3: error: 042 start date: 0001-01-01 is before 1970-01-01")


# ------------------------------------------------------------------------------------------------
# FIDE ids: two lines with one id; an id the ledger knows under another name


def test_one_id_on_two_trf_lines_is_refused(runner: CliRunner, db: str, tmp_path: Path) -> None:
    # Bravo's line (line 7) given Alpha's FIDE id 90000001 (line 6)
    lines = [PLAYERS[0], PLAYERS[1].replace("90000002", "90000001"), *PLAYERS[2:]]
    path = write(tmp_path, "dupid.trf", trf(*HEADER, *lines))
    assert_rejected(runner, db, path, "dupid.trf:7: error: col 58-68: id 90000001 is also on "
                    "line 6")


def test_a_known_fide_id_under_another_name_is_a_warning(runner: CliRunner, db: str,
                                                         tmp_path: Path) -> None:
    added = run(runner, "--db", db, "player", "add", "Zulu, Zed", "--fide-id", "90000002",
                "--rating", "1900", "--prior-games", "0")
    assert added.exit_code == 0
    path = write(tmp_path, "nov.trf", trf(*HEADER, *PLAYERS))
    result = run(runner, "--db", db, "import", path, "--register-players", "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert ("nov.trf:7: warning: col 58-68 FIDE id: FIDE id 90000002 is Zulu, Zed (#1) in the "
            "ledger; the file says 'Bravo, Ben'") in result.stderr
    # the same name with other blanks and case is the same name: no warning
    respelt = write(tmp_path, "respelt.trf", trf(*HEADER, *PLAYERS).replace(
        "Bravo, Ben ", "ZULU,ZED   "))
    quiet = run(runner, "--db", db, "import", respelt, "--register-players", "--dry-run")
    assert quiet.exit_code == 0, quiet.stderr
    assert "FIDE id 90000002" not in quiet.stderr


def test_export_of_a_name_too_long_for_trf_names_it(runner: CliRunner, db: str,
                                                    tmp_path: Path) -> None:
    # 26 letters + blank + 14 letters = 41 characters; TRF keeps 33 (columns 15-47)
    name = "Abcdefghijklmnopqrstuvwxyz Abcdefghijklmn"
    path = write(tmp_path, "long.csv", "date,white,black,result,event,round\n"
                 f"2025-11-05,{name},B Two,1-0,Cup,1\n")
    assert run(runner, "--db", db, "import", path, "--register-players").exit_code == 0
    result = run(runner, "--db", db, "export", "trf", "--event", "Cup")
    assert result.exit_code == 1
    assert f"{name!r}: 41 characters, and a TRF name has at most 33" in result.stderr


# ------------------------------------------------------------------------------------------------
# Encodings a TRF arrives in: UTF-8 with a byte-order mark, UTF-16 (Windows "Unicode"), Latin-1


@pytest.mark.parametrize(("encoded", "warning"), [
    (lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"), None),
    (lambda text: text.encode("utf-16"), "u.trf:1: warning: encoding: UTF-16"),
    (lambda text: text.encode("latin-1"), "u.trf:6: warning: encoding: not UTF-8"),
])
def test_trf_encodings_read_the_accented_name(runner: CliRunner, db: str, tmp_path: Path,
                                              encoded: object, warning: str | None) -> None:
    text = trf(*HEADER, PLAYERS[0].replace("Alpha", "Alphä"), *PLAYERS[1:])
    assert callable(encoded)
    path = write(tmp_path, "u.trf", encoded(text))
    result = run(runner, "--db", db, "import", path, "--register-players")
    assert result.exit_code == 0, result.stderr
    if warning is not None:
        assert warning in result.stderr
    assert counts(db)["games"] == 6
    shown = run(runner, "--db", db, "player", "show", "90000001")
    assert "Alphä, Ann" in shown.stdout


def test_a_rejected_import_with_json_prints_its_problems_as_json(runner: CliRunner, db: str,
                                                                 tmp_path: Path) -> None:
    path = write(tmp_path, "bad.csv", "date,white,black,result\n2025-11-05,A One,B Two,2-0\n")
    result = run(runner, "--db", db, "import", path, "--register-players", "--json")
    assert result.exit_code == 3
    assert json.loads(result.stdout) == {"file": str(path), "rejected": True, "problems": [{
        "file": str(path), "line": 2, "field": "result", "severity": "error",
        "message": "'2-0' is not a result; use one of 1-0, 1/2-1/2, 0-1, +/-, -/+, -/- (or ½-½)"}],
        "similar": []}
    assert "bad.csv:2: error: result" in result.stderr


# ------------------------------------------------------------------------------------------------
# --output onto what is not a plain file: a pipe or device (/dev/null) is written in place, a
# link keeps pointing at its file, and a new file is readable by others (a web server)


def test_output_into_a_pipe_keeps_the_pipe(runner: CliRunner, closed: str,
                                           tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # so the writer's open does not wait
    try:
        result = run(runner, "--db", closed, "list", "--format", "csv", "--output", fifo)
        assert result.exit_code == 0, result.stderr
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # not replaced by a file
        received = os.read(reader, 65536).decode("utf-8")
    finally:
        os.close(reader)
    assert received.startswith("rank,fide_id,name,")


def test_output_through_a_link_writes_its_file(runner: CliRunner, closed: str,
                                               tmp_path: Path) -> None:
    target = tmp_path / "site" / "list.csv"
    target.parent.mkdir()
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "list.csv"
    link.symlink_to(target)
    assert run(runner, "--db", closed, "list", "--output", link).exit_code == 0
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8").startswith("rank,fide_id,name,")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file's permissions


def test_a_new_output_file_gets_the_umask_permissions(runner: CliRunner, closed: str,
                                                      tmp_path: Path) -> None:
    page = tmp_path / "list.html"
    old = os.umask(0o022)
    try:
        assert run(runner, "--db", closed, "list", "--output", page).exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(page.stat().st_mode) == 0o644  # 0o666 less the umask 0o022


def test_round_dates_outside_the_event_are_refused(runner: CliRunner, db: str,
                                                   tmp_path: Path) -> None:
    # 132 (line 6): round 1 on the start date, round 2 after the end date 2025-11-09 (052,
    # line 4), round 3 before the start date 2025-11-08 (042, line 3); cells at 92, 102, 112
    dates = "132" + " " * 88 + "25/11/08  25/12/20  25/10/01"
    path = write(tmp_path, "rd.trf", trf(*HEADER, dates, *PLAYERS))
    result = assert_rejected(runner, db, path,
                             "rd.trf:6: error: col 102-109: round 2 date 2025-12-20 is after "
                             "the end date (record 052, line 4)",
                             "rd.trf:6: error: col 112-119: round 3 date 2025-10-01 is before "
                             "the start date (record 042, line 3)")
    assert "col 92-99" not in result.stderr


# ------------------------------------------------------------------------------------------------
# The wrong file picked: a wall of problems is cut at 100 lines on stderr; --json has them all


def test_a_file_with_hundreds_of_bad_lines_lists_the_first_hundred(runner: CliRunner, db: str,
                                                                   tmp_path: Path) -> None:
    # 250 lines that are no TRF record: 250 errors, lines 1-250
    path = write(tmp_path, "junk.trf", "".join(f"junk line {n}\n" for n in range(1, 251)))
    result = assert_rejected(runner, db, path, "junk.trf:100: error: col 1-3: not a TRF record",
                             "... and 150 more problems (150 errors, 0 warnings) not shown; "
                             "--json lists them all")
    assert "junk.trf:101:" not in result.stderr
    listed = run(runner, "--db", db, "import", path, "--json")
    assert listed.exit_code == 3
    assert [p["line"] for p in json.loads(listed.stdout)["problems"]] == list(range(1, 251))


def test_a_rejected_fide_list_with_json_prints_its_problems(runner: CliRunner, db: str,
                                                            tmp_path: Path) -> None:
    path = write(tmp_path, "list.txt", "garbage\n")
    result = run(runner, "--db", db, "import", path, "--format", "fide-list", "--list-date",
                 "2025-11-01", "--json")
    assert result.exit_code == 3
    problem = json.loads(result.stdout)["problems"][0]
    assert (problem["line"], problem["field"], problem["severity"]) == (1, "header", "error")


def test_reimport_lists_its_warnings_in_file_order(runner: CliRunner, db: str,
                                                   tmp_path: Path) -> None:
    # Bravo's line is line 6; its round 4 cell starts at column 92 + 30 = 122, so the '+' with
    # no opponent (an old-style bye, a warning) is column 129. The warning that 2021 is never
    # rated is on record 052, line 3: it comes first.
    header = [HEADER[0], "042 2021/11/08", "052 2021/11/09", "XXR 4"]
    lines = [PLAYERS[0], PLAYERS[1] + "  0000 - +", *PLAYERS[2:]]
    path = write(tmp_path, "old.trf", trf(*header, *lines))
    assert run(runner, "--db", db, "import", path, "--register-players").exit_code == 0
    again = run(runner, "--db", db, "import", path, "--json")
    assert again.exit_code == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["already_imported"] is True
    assert [(p["line"], p["field"]) for p in report["problems"]] == [(3, "052 end date"),
                                                                     (6, "col 129")]


@pytest.mark.parametrize(("date", "expected"), [
    ("2026-12-32", "error: date: 2026-12-32: December has 31 days\n"),
    ("2028-02-30", "error: date: 2028-02-30: February 2028 has 29 days\n"),
    ("2026-00-10", "error: date: 2026-00-10: there is no month 0; write YYYY-MM-DD\n"),
    ("10/12/2026", "error: date: '10/12/2026' is not a date; write YYYY-MM-DD\n"),
])
def test_game_add_says_which_part_of_a_date_is_out_of_range(runner: CliRunner, db: str,
                                                          date: str, expected: str) -> None:
    for name in ("One, A", "Two, B"):
        assert run(runner, "--db", db, "player", "add", name).exit_code == 0
    result = run(runner, "--db", db, "game", "add", "One, A", "Two, B", "1-0", "--date", date)
    assert (result.exit_code, result.stderr) == (1, expected)


def test_a_players_register_imported_as_games_is_told_format_players(runner: CliRunner, db: str,
                                                                    tmp_path: Path) -> None:
    path = write(tmp_path, "members.csv", "name,fide_id,birth_year\n\"Doyle, Liam\",,1990\n")
    result = run(runner, "--db", db, "import", path)
    assert result.exit_code == 3
    assert ("members.csv:1: error: header: missing date, white, black, result; unknown column "
            "'name'") in result.stderr
    assert "a register of players? add --format players" in result.stderr
    games = write(tmp_path, "games.csv", "date,white,black,result,name\n")
    assert "--format players" not in run(runner, "--db", db, "import", games).stderr
