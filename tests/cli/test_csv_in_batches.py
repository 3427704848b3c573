"""``ledger import`` of a CSV reads and writes it in batches (issue 14): ``game_files.GameBatches``
gives ``BATCH_GAMES`` games at a time, each batch checked and written inside the one transaction.
All or nothing stays: a bad row after the first batch leaves the ledger as it was, and the
messages are those of one read of the whole file. Every expected value is counted from how the
test builds its file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from ledgers import Factory, contents, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.formats import games_csv
from ledger.services.imports import game_files

HEADER = "date,white,black,result,round\n"
PLAYERS = "date,white,black,result\n2025-11-04,Alpha Ann,Bravo Ben,1-0\n2025-11-04,Carol Cee,Dan Dee,0-1\n"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def db(new_ledger: Factory, tmp_path: Path) -> str:
    """A ledger with four players (registered by importing two games of 2025-11-04)."""
    path = new_ledger("ledger")
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS)
    result = run("--db", path, "import", players, "--register-players", "--quiet")
    assert result.exit_code == 0, result.output
    return path


def test_a_bad_last_row_past_the_first_batch_writes_nothing(db: str, tmp_path: Path) -> None:
    # 10,004 good games (rounds 1..10004 of Alpha v Bravo on 2025-11-05: the first batch of
    # 10,000 is written before the last row is read), then line 10,006 with result 2-0
    rows = [f"2025-11-05,Alpha Ann,Bravo Ben,1-0,{n}\n" for n in range(1, 10005)]
    path = tmp_path / "month.csv"
    path.write_text(HEADER + "".join(rows) + "2025-11-05,Alpha Ann,Bravo Ben,2-0,10005\n")
    assert game_files.BATCH_GAMES == 10_000
    before = contents(db)
    result = run("--db", db, "import", path, "--json")
    assert result.exit_code == 3
    problems = json.loads(result.stdout)["problems"]
    # header line 1, rounds 1..10004 on lines 2..10005: the bad row is line 10006
    assert [(p["line"], p["field"]) for p in problems] == [(10006, "result")]
    assert contents(db) == before  # no game, no change, no imported file: nothing written
    assert sql(db, "SELECT COUNT(*) FROM games") == [(2,)]
    assert sql(db, "SELECT sha256 FROM imported_files WHERE sha256 = '"
               + hashlib.sha256(path.read_bytes()).hexdigest() + "'") == []
    # the same file without its bad row: 10,004 games, 2 before, 10,006 in all
    path.write_text(HEADER + "".join(rows))
    report = json.loads(run("--db", db, "import", path, "--json").stdout)
    assert (report["recorded"], report["games_in_file"]) == (10004, 10004)
    assert sql(db, "SELECT COUNT(*) FROM games") == [(10006,)]


#: Alpha v Bravo without a round on three days, then line 5 repeating line 2 and line 6 giving
#: line 3's game (the same pair and day, no round) another result.
REPEATS = ("date,white,black,result\n"
           "2025-11-05,Alpha Ann,Bravo Ben,1-0\n"      # line 2
           "2025-11-06,Alpha Ann,Bravo Ben,0-1\n"      # line 3
           "2025-11-07,Carol Cee,Dan Dee,1/2-1/2\n"    # line 4
           "2025-11-05,Alpha Ann,Bravo Ben,1-0\n")     # line 5: repeats line 2
CONFLICT = "2025-11-06,Alpha Ann,Bravo Ben,1-0\n"      # line 6: line 3 said 0-1


@pytest.mark.parametrize("batch", [1, 2, 10_000])
def test_batches_give_the_messages_of_one_read(db: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    # batches of 1 and 2 put lines 5 and 6 in other batches than lines 2 and 3
    monkeypatch.setattr(game_files, "BATCH_GAMES", batch)
    path = tmp_path / "repeats.csv"
    path.write_text(REPEATS + CONFLICT)
    before = contents(db)
    result = run("--db", db, "import", path, "--json")
    assert result.exit_code == 3
    problems = [(p["line"], p["severity"], p["message"]) for p in json.loads(result.stdout)["problems"]]
    assert problems == [
        (5, "warning", "line 5 repeats line 2 (Alpha Ann v Bravo Ben, no round, 1-0): recorded once"),
        (6, "error", "Alpha Ann v Bravo Ben round - is recorded as 0-1 (line 3); the file says 1-0")]
    assert contents(db) == before
    path.write_text(REPEATS)
    report = json.loads(run("--db", db, "import", path, "--json").stdout)
    # lines 2, 3, 4 recorded, line 5 once more: 3 new games, 2 before
    assert (report["recorded"], report["repeated_in_file"], report["games_in_file"]) == (3, 1, 4)
    assert sql(db, "SELECT COUNT(*) FROM games") == [(5,)]


def test_games_in_the_ledger_stay_the_ledgers_past_the_first_batch(
        db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a batch of 1: line 3 repeats the game line 2 wrote in the batch before; it is "repeated
    # in the file", not "already recorded" (the batch's own writing is not the ledger's)
    monkeypatch.setattr(game_files, "BATCH_GAMES", 1)
    path = tmp_path / "twice.csv"
    path.write_text("date,white,black,result\n2025-11-04,Alpha Ann,Bravo Ben,1-0\n"
                    "2025-11-05,Carol Cee,Dan Dee,1-0\n2025-11-05,Carol Cee,Dan Dee,1-0\n")
    report = json.loads(run("--db", db, "import", path, "--json").stdout)
    # line 2 is the game the fixture recorded; line 4 repeats line 3
    assert (report["recorded"], report["already_recorded"], report["repeated_in_file"]) == (1, 1, 1)


def test_a_file_that_changes_while_read_writes_nothing(db: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # the file is hashed, then a line is added to it before its rows are read: rejected
    path = tmp_path / "growing.csv"
    path.write_text("date,white,black,result\n2025-11-05,Alpha Ann,Bravo Ben,1-0\n")
    read = games_csv.CsvStream.batches

    def grow_first(self: games_csv.CsvStream, size: int = 10_000):  # type: ignore[no-untyped-def]
        with path.open("a") as handle:
            handle.write("2025-11-06,Alpha Ann,Bravo Ben,0-1\n")
        yield from read(self, size)

    monkeypatch.setattr(games_csv.CsvStream, "batches", grow_first)
    before = contents(db)
    result = run("--db", db, "import", path, "--json")
    assert result.exit_code == 3
    [problem] = json.loads(result.stdout)["problems"]
    assert (problem["line"], problem["field"]) == (None, "file")
    assert problem["message"].startswith("the file changed while it was being imported")
    assert contents(db) == before


def test_a_stream_gives_the_games_of_read_csv_in_batches() -> None:
    data = b"date,white,black,result\n" + b"".join(
        f"2025-11-0{n},P{n} A,P{n} B,1-0\n".encode() for n in range(1, 6))
    stream = games_csv.CsvStream("g.csv", data)
    lines = [[g.line for g in batch] for batch in stream.batches(2)]
    assert lines == [[2, 3], [4, 5], [6]]  # five games on lines 2..6, two a batch
    assert not stream.failed and stream.rows == 5
    assert [g.line for g in games_csv.read_csv("g.csv", data).games] == [2, 3, 4, 5, 6]


def test_a_stream_that_stops_being_utf8_gives_no_games() -> None:
    # two good rows (a batch of 2 given), then a byte that is not UTF-8 on line 4
    data = (b"date,white,black,result\n2025-11-01,A a,B b,1-0\n2025-11-02,A a,B b,1-0\n"
            b"2025-11-03,\xff,B b,1-0\n")
    stream = games_csv.CsvStream("g.csv", data)
    assert [len(batch) for batch in stream.batches(2)] == [2]
    assert stream.failed
    assert [(p.line, p.field) for p in stream.final_problems()] == [(4, "encoding")]
    readout = stream.readout([])
    assert (readout.games, readout.games_in_file) == ([], 0)


#: Alpha v Bravo without a round (line 2), then the pair again that day with colours swapped
#: and a round (line 3), then line 3's game once more with another result (line 4).
SAME_DAY = ("date,white,black,result,round\n"
            "2025-11-05,Alpha Ann,Bravo Ben,1-0,\n"      # line 2: written
            "2025-11-05,Bravo Ben,Alpha Ann,1-0,1\n"     # line 3: the pair's second game that day
            "2025-11-05,Bravo Ben,Alpha Ann,0-1,1\n")    # line 4: line 3's game, another result


@pytest.mark.parametrize("batch", [1, 10_000])
def test_a_pair_twice_on_a_day_across_batches_names_both_lines(
        db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    # a batch of 1: line 2 is written (and read back from the ledger when line 3 comes, colours
    # swapped); line 3 is refused but line 4 is still compared with it (a refused line is kept)
    monkeypatch.setattr(game_files, "BATCH_GAMES", batch)
    path = tmp_path / "same_day.csv"
    path.write_text(SAME_DAY)
    before = contents(db)
    result = run("--db", db, "import", path, "--json")
    assert result.exit_code == 3
    problems = [(p["line"], p["field"], p["message"])
                for p in json.loads(result.stdout)["problems"]]
    assert problems == [
        (3, "round", "Bravo Ben v Alpha Ann on 2025-11-05 (round 1): the pair already has a game "
         "that day without an event, line 2 (no round); the same pair on one day in one event is "
         "one game unless their rounds differ: give each game its round"),
        (4, "result", "Bravo Ben v Alpha Ann round 1 is recorded as 1-0 (line 3); the file says "
         "0-1")]
    assert contents(db) == before



def _problems(db: str, path: Path, text: str) -> list[tuple[int, str, str]]:
    path.write_text("date,white,black,result,event\n" + text)
    result = run("--db", db, "import", path, "--json")
    assert result.exit_code == 3, result.output
    return [(p["line"], p["field"], p["message"]) for p in json.loads(result.stdout)["problems"]]


def test_one_batch_asked_at_once_still_finds_each_problem(db: str, tmp_path: Path) -> None:
    # ``Placing._all_new`` asks a batch of games without an event at once; each of its
    # conditions is what finds one problem here (each file one batch)
    before = contents(db)
    path = tmp_path / "batch.csv"
    # two pair-days alike in the batch (colours swapped, no rounds): line 3 refused
    assert _problems(db, path, "2025-12-20,Carol Cee,Dan Dee,1-0,\n"
                     "2025-12-20,Dan Dee,Carol Cee,0-1,\n") == [
        (3, "round", "Dan Dee v Carol Cee on 2025-12-20 (no round): the pair already has a game "
         "that day without an event, line 2 (no round); the same pair on one day in one event "
         "is one game unless their rounds differ: give each game its round")]
    assert contents(db) == before
    # a natural key held, not a seat: the game the fixture recorded, voided (a void game takes
    # no seat), again with another result: it stays void, nothing recorded
    (game,), = sql(db, "SELECT id FROM games WHERE date = '2025-11-04' AND result = '1-0'")
    assert run("--db", db, "game", "void", str(game), "--reason", "test").exit_code == 0
    path.write_text("date,white,black,result\n2025-11-04,Alpha Ann,Bravo Ben,0-1\n")
    report = json.loads(run("--db", db, "import", path, "--json").stdout)
    assert (report["recorded"], report["already_recorded"], report["notes"]) == (0, 1, [
        f"line 2: Alpha Ann v Bravo Ben is game {game}, void in the ledger: it stays void "
        "(ledger import --replace applies a corrected file)"])
    # a pair held by the likely-duplicate check only: their game of an event that day
    path.write_text("date,white,black,result,event\n2025-11-07,Carol Cee,Dan Dee,1-0,Club\n")
    assert run("--db", db, "import", path, "--quiet").exit_code == 0
    (club,), = sql(db, "SELECT id FROM games WHERE date = '2025-11-07'")  # PostgreSQL's
    before = contents(db)  # sequence may have given it another id than SQLite's 3
    found = _problems(db, path, "2025-11-07,Carol Cee,Dan Dee,1-0,\n")
    assert [(line, field) for line, field, _ in found] == [(2, "event")]
    assert found[0][2].startswith("Carol Cee v Dan Dee 1-0 on 2025-11-07 (no round) looks like "
                                  f"game {club} (event 'Club', no round) in the ledger")
    assert contents(db) == before
