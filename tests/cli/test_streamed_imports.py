"""``ledger import`` reads a file as a stream (issue 9, item 5): the SHA-256 it records is the
file's, computed while reading; line ends and encodings are read the same when a line end or a
character falls across two reads; a garbage file stops at 1,000 errors, saying where.

Reads are of 1 MiB after the first 3 bytes (``text_stream.CHUNK``, the readers' byte-order mark
check), so ``SEAM = 3 + 2**20`` is where the second read starts: the files below put a CRLF
across it. Every expected value is counted from how the test builds its file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from ledgers import Factory, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.services.imports.input_files import InputFile

SEAM = 3 + 2 ** 20
HEADER = ["012 Placeholder Autumn Cup", "022 Placeholder Town", "042 2025/11/08",
          "052 2025/11/09", "XXR 1"]
PLAYERS = [
    "001    1 m    Alpha, Ann                        2000 ENG    90000001 1990/01/01  1.0    1"
    "     2 w 1",
    "001    2 m    Bravo, Ben                        1900 ENG    90000002 1985/01/01  0.0    2"
    "     1 b 0",
]


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("ledger")


def imported(db: str, path: Path, *args: str) -> dict[str, object]:
    result = run("--db", db, "import", path, "--register-players", "--json", *args)
    assert result.exit_code == 0, result.stdout + result.stderr
    report: dict[str, object] = json.loads(result.stdout)
    return report


def recorded_sha256(db: str) -> list[str]:
    return [str(row[0]) for row in sql(db, "SELECT sha256 FROM imported_files ORDER BY id")]


def csv_across_the_seam(end: str) -> tuple[bytes, int]:
    """A CSV of games: the header, lines of blanks (rows of nothing, skipped) up to the seam,
    the last of them ending with its CR before the seam and its LF after it (``end`` = CRLF),
    then 10 games, the last with result ``2-0``. Returns the bytes, line ends written as
    ``end``, and the line of the bad row."""
    text, lines = "date,white,black,result,event,round\r\n", 1
    while len(text) + 2000 < SEAM:
        text, lines = text + " " * 1000 + "\r\n", lines + 1
    text += " " * (SEAM - 1 - len(text)) + "\r\n"  # its CR at byte SEAM - 1, its LF at SEAM
    lines += 1
    assert len(text) == SEAM + 1
    for n in range(1, 11):
        text += f"2025-11-05,Alpha Ann,Bravo Ben,{'2-0' if n == 10 else '1-0'},Cup,{n}\r\n"
    return text.replace("\r\n", end).encode(), lines + 10


@pytest.mark.parametrize("end", ["\r\n", "\n", "\r"], ids=["crlf", "lf", "cr"])
def test_a_line_end_across_two_reads_is_one(db: str, tmp_path: Path, end: str) -> None:
    data, bad_line = csv_across_the_seam(end)
    path = tmp_path / "seam.csv"
    path.write_bytes(data)
    result = run("--db", db, "import", path, "--register-players", "--dry-run", "--json")
    assert result.exit_code == 3
    [problem] = json.loads(result.stdout)["problems"]
    assert (problem["line"], problem["field"]) == (bad_line, "result")


def test_the_sha256_recorded_is_the_files(db: str, tmp_path: Path) -> None:
    # a CSV of just over 1 MB (two reads): the hash is the file's, and a second import knows it
    data, _ = csv_across_the_seam("\r\n")
    good = data.replace(b"2-0", b"0-1")
    path = tmp_path / "games.csv"
    path.write_bytes(good)
    expected = hashlib.sha256(good).hexdigest()
    report = imported(db, path)
    assert report["sha256"] == expected and recorded_sha256(db) == [expected]
    again = imported(db, path)
    assert (again["already_imported"], again["sha256"]) == (True, expected)


def test_a_trf_read_twice_for_its_encoding_is_hashed_once(db: str, tmp_path: Path) -> None:
    # line 1 is UTF-8 with an accent, line 2 holds a CP1252 byte: the reader goes back and reads
    # the whole file as CP1252 (U+00C3 U+00A9 for the UTF-8 e acute), with a warning on line 2
    data = ("012 Placeholder Café\n".encode() + b"022 M\xfcnchen\n"
            + "\n".join([*HEADER[2:], *PLAYERS, ""]).encode())
    path = tmp_path / "mixed.trf"
    path.write_bytes(data)
    result = run("--db", db, "import", path, "--register-players", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["sha256"] == hashlib.sha256(data).hexdigest()
    assert [(p["line"], p["field"]) for p in report["problems"]] == [(2, "encoding")]
    assert sql(db, "SELECT name, city FROM events") == [("Placeholder CafÃ©", "München")]


def test_an_input_file_hashes_what_a_reader_never_read(tmp_path: Path) -> None:
    data = bytes(range(256)) * 10000  # 2.56 MB
    path = tmp_path / "bytes.bin"
    path.write_bytes(data)
    with InputFile(str(path)) as source:
        assert source.stream.read(5) == data[:5]
        source.stream.seek(0)
        assert source.stream.read(SEAM)[-1] == data[SEAM - 1]
        assert source.sha256() == hashlib.sha256(data).hexdigest()
        assert not source.blank
    blank = tmp_path / "blank.csv"
    blank.write_bytes(b" \r\n\t\n" * 400000)
    with InputFile(str(blank)) as source:
        assert source.sha256() == hashlib.sha256(blank.read_bytes()).hexdigest()
        assert source.blank


def test_encodings_past_the_first_read(db: str, tmp_path: Path) -> None:
    # 30,000 comment lines of 40 characters (1.2 MB, 2.4 MB in UTF-16): the players come after
    comments = ["### " + "c" * 36] * 30000
    lines = [*HEADER, *comments, PLAYERS[0].replace("Alpha, Ann ", "Alphä, Ånn "), PLAYERS[1]]
    text = "\r\n".join(lines) + "\r\n"
    utf16 = tmp_path / "u16.trf"
    utf16.write_bytes(text.encode("utf-16"))
    report = imported(db, utf16, "--dry-run")
    assert [(p["line"], p["field"], p["message"][:6]) for p in report["problems"]] == [
        (1, "encoding", "UTF-16")]
    assert report["recorded"] == 1 and report["players_registered"] == ["Alphä, Ånn", "Bravo, Ben"]
    # CP1252: the first byte that is not UTF-8 is on line 30,006 (5 header lines, 30,000 comments)
    latin = tmp_path / "latin.trf"
    latin.write_bytes(text.encode("cp1252"))
    report = imported(db, latin, "--dry-run")
    assert [(p["line"], p["field"]) for p in report["problems"]] == [(30006, "encoding")]
    assert report["players_registered"] == ["Alphä, Ånn", "Bravo, Ben"]


def test_a_garbage_trf_lists_1000_errors_and_where_it_stopped(db: str, tmp_path: Path) -> None:
    # 5,000 lines, one error each ("not a TRF record"): lines 1-1000 listed, stopped at line 1001
    path = tmp_path / "garbage.trf"
    path.write_bytes(b"".join(b"garbage line %d\n" % n for n in range(1, 5001)))
    result = run("--db", db, "import", path, "--dry-run", "--json")
    assert result.exit_code == 3
    problems = json.loads(result.stdout)["problems"]
    assert len(problems) == 1001
    assert [p["line"] for p in problems] == list(range(1, 1002))
    assert problems[-1]["field"] == "file" and problems[-1]["severity"] == "error"
    assert "1 more found up to line 1001, where reading stopped" in problems[-1]["message"]
    # on stderr: the first 100, the count of the 900 others, and where the reader stopped
    shown = run("--db", db, "import", path, "--dry-run")
    assert "... and 900 more problems (900 errors, 0 warnings) not shown" in shown.stderr
    assert f"{path}:1001: error: file: more than 1000 errors" in shown.stderr
    assert f"{path}:101:" not in shown.stderr


def test_a_garbage_csv_lists_1000_errors_and_where_it_stopped(db: str, tmp_path: Path) -> None:
    # header, then 5,000 rows of one field (one error each, lines 2-5001): 2-1001 listed
    path = tmp_path / "garbage.csv"
    path.write_bytes(b"date,white,black,result\n" + b"junk\n" * 5000)
    result = run("--db", db, "import", path, "--dry-run", "--json")
    assert result.exit_code == 3
    problems = json.loads(result.stdout)["problems"]
    assert [p["line"] for p in problems] == [*range(2, 1002), 1002]
    assert {p["field"] for p in problems[:1000]} == {"row"}
    assert "1 more found up to line 1002, where reading stopped" in problems[-1]["message"]
