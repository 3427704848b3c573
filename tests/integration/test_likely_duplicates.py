"""The same game recorded twice, as a tester attacked it (issue 9, item 3, second round), through
the services on real SQLite:

- a round label is read through NFKC and Unicode digits, in the common forms (``#1``, ``(1)``,
  ``1st``, ``Rd1 Bd1``): the same game written so in a second file is already recorded;
- a line that repeats an earlier line of the same file is not "already in the ledger": it is
  counted apart (``repeated_in_file``) with a warning naming both lines;
- a recorded game (same event, round and players) that the file dates otherwise is a warning
  naming both dates.

Data: examples/data/tata_steel_masters_2022.pgn (see test_tata_steel.py), 91 games of the event
"84th Tata Steel Masters", in file order: game 8 starts on line 180, R2.1 Carlsen v Giri 1-0,
its Date tag "2022.01.16" on line 182.

Values worked by hand in the comments.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from data_files import data_file
from sqlalchemy import Engine

from ledger.errors import ImportRejected
from ledger.services.games import add_game, list_games
from ledger.services.imports import import_file, import_pgn
from ledger.services.players import NewPlayer, add_player


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def pair(engine: Engine) -> Engine:
    """Two established players, 1800 and 1900."""
    for name, rating in (("Player, A", 1800), ("Player, B", 1900)):
        add_player(engine, NewPlayer(name=name, rating=rating, prior_games=100))
    return engine


@pytest.mark.parametrize("label", ["\u0661", "\uff11", "#1", "(1)", "1st", "Rd1 Bd1",
                                   "Round 1 Board 2"])
def test_round_1_however_written_is_already_recorded(pair: Engine, tmp_path: Path,
                                                     label: str) -> None:
    first = add_game(pair, "Player, A", "Player, B", "1-0", "2025-11-05", "Club", "1")
    # the same game with round 1 written as Arabic-Indic ١ (U+0661), full-width １ (U+FF11),
    # #1, (1), 1st, Rd1 Bd1 or Round 1 Board 2: round 1, already recorded
    csv = write(tmp_path, "club.csv", "date,white,black,result,event,round\n"
                f'2025-11-05,"Player, A","Player, B",1-0,Club,{label}\n')
    report = import_file(pair, csv, "csv")
    assert (report.recorded, report.already_recorded, report.similar) == (0, 1, [])
    assert [(g.id, g.round) for g in list_games(pair)] == [(first.id, "1")]


def test_a_line_repeated_in_the_file_is_counted_apart(pair: Engine, tmp_path: Path) -> None:
    # line 3 repeats line 2 (same event, round, players and result); line 4 is another game
    csv = write(tmp_path, "club.csv", "date,white,black,result,event,round\n"
                '2025-11-05,"Player, A","Player, B",1-0,Club,1\n'
                '2025-11-05,"Player, A","Player, B",1-0,Club,1\n'
                '2025-11-12,"Player, B","Player, A",1/2-1/2,Club,2\n')
    report = import_file(pair, csv, "csv")
    assert (report.games_in_file, report.recorded, report.already_recorded,
            report.repeated_in_file) == (3, 2, 0, 1)
    assert [(p.line, p.severity, p.message) for p in report.problems] == [
        (3, "warning", "line 3 repeats line 2 (Player, A v Player, B, round 1, 1-0): recorded "
         "once")]
    # imported again in other bytes (a fourth, new line): lines 2 and 3 are the game in the
    # ledger now (game 1), each counted so, line 4 is new
    again = write(tmp_path, "club2.csv", "date,white,black,result,event,round\n"
                  '2025-11-05,"Player, A","Player, B",1-0,Club,1\n'
                  '2025-11-05,"Player, A","Player, B",1-0,Club,1\n'
                  '2025-11-12,"Player, B","Player, A",1/2-1/2,Club,2\n'
                  '2025-11-19,"Player, A","Player, B",0-1,Club,3\n')
    report = import_file(pair, again, "csv")
    assert (report.recorded, report.already_recorded, report.repeated_in_file) == (1, 3, 0)
    assert report.problems == []
    assert len(list_games(pair)) == 3


def test_a_repeat_dated_otherwise_is_an_error(pair: Engine, tmp_path: Path) -> None:
    add_game(pair, "Player, A", "Player, B", "1-0", "2025-11-01", "Club", "5")
    # round 1 twice in a file for the recorded event Club, the second time dated a day later:
    # one game with two dates, the file contradicts itself
    csv = write(tmp_path, "club.csv", "date,white,black,result,event,round\n"
                '2025-11-05,"Player, A","Player, B",1-0,Club,1\n'
                '2025-11-06,"Player, A","Player, B",1-0,Club,1\n')
    with pytest.raises(ImportRejected) as caught:
        import_file(pair, csv, "csv")
    assert [(p.line, p.field, p.message) for p in caught.value.problems] == [
        (3, "date", "Player, A v Player, B (round 1) is on line 2 dated 2025-11-05; this line "
         "dates it 2025-11-06: one game with two dates; correct the file")]
    assert len(list_games(pair)) == 1


def test_a_recorded_game_dated_otherwise_is_a_warning(engine: Engine, tmp_path: Path) -> None:
    tata = data_file("tata_steel_masters_2022.pgn")
    import_pgn(engine, str(tata), register_players=True)
    text = tata.read_text(encoding="utf-8-sig")
    lines = text.splitlines(keepends=True)
    assert lines[181] == '[Date "2022.01.16"]\n' and lines[183] == '[White "Carlsen, Magnus"]\n'
    lines[181] = '[Date "2022.01.19"]\n'
    changed = write(tmp_path, "tata_changed.pgn", "".join(lines))
    report = import_pgn(engine, changed)
    assert (report.recorded, report.already_recorded, report.repeated_in_file) == (0, 91, 0)
    dated = [p for p in report.problems if "dates it" in p.message]
    assert [(p.line, p.field, p.severity, p.message) for p in dated] == [
        (182, "Date", "warning", "Carlsen, Magnus v Giri, Anish (round 2.1) is recorded as game 8 "
         "dated 2022-01-16; the file dates it 2022-01-19: the recorded date is kept (a recorded "
         "game cannot be changed or removed yet)")]
    assert [g.date.isoformat() for g in list_games(engine) if g.id == 8] == ["2022-01-16"]
