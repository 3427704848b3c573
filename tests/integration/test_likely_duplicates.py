"""The same game recorded twice, as a tester attacked it (issue 9, item 3, second round), through
the services on real SQLite:

- a second source of an event without per-round dates (a TRF without record 132 dates every
  game on its end date) is refused as likely duplicates: the same players and result in another
  event on a day within the other's event dates; in the same event, one game with a round and
  the other without; ``allow_similar`` records them, each named in a warning;
- the games of one file are compared with each other as with the ledger's;
- a round label is read through NFKC and Unicode digits, in the common forms (``#1``, ``(1)``,
  ``1st``, ``Rd1 Bd1``): the same game written so in a second file is already recorded;
- a line that repeats an earlier line of the same file is not "already in the ledger": it is
  counted apart (``repeated_in_file``) with a warning naming both lines;
- a recorded game (same event, round and players) that the file dates otherwise is a warning
  naming both dates.

Data: examples/data/tata_steel_masters_2022.pgn (see test_tata_steel.py), 91 games of the event
"84th Tata Steel Masters" (2022-01-15 to 2022-01-30, 13 rounds of 7 games, round 13 on
2022-01-30), in file order: game 1 on line 1, R1.1 Esipenko v Carlsen 1/2-1/2, 2022-01-15;
game 8 starts on line 180, R2.1 Carlsen v Giri 1-0, its Date tag "2022.01.16" on line 182;
game 91 on line 2252, R13.7 Carlsen v Dubov, no moves (+/-), 2022-01-30. Carlsen: 12 rated
games, 8.5 points, +3 (2865 -> 2868, FIDE's figure, worked by hand in test_tata_steel.py).

Values worked by hand in the comments.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from data_files import data_file
from sqlalchemy import Engine

from ledger.errors import ImportRejected, InvalidInput, SimilarGame
from ledger.services.admin.setup import init_ledger
from ledger.services.close.periods import close_period
from ledger.services.core.session import open_ledger
from ledger.services.imports.games import import_file, import_pgn
from ledger.services.publishing.exports import export_trf
from ledger.services.register.game_views import list_games
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player

TATA = "84th Tata Steel Masters"
#: Why a game is a likely duplicate, as the messages say it: (a) the same date ...
SAME_DATE = "the same players, date and result in another event (or one without an event)"
#: ... (c) one event, one game with a round and the other without
ROUND_AND_NO_ROUND = ("the same players and result in this event, one of the two games with a "
                      "round and the other without")


def within_this(day: str, first: str, last: str) -> str:
    """(b) the recorded game's date lies within the file's event dates."""
    return (f"the same players and result in another event (or one without an event) on {day}, "
            f"within this event's dates ({first} to {last})")


def within_that(day: str, first: str, last: str) -> str:
    """(b) the new game's date lies within the recorded game's event dates."""
    return (f"the same players and result in another event, whose dates ({first} to {last}) "
            f"hold {day}")


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------------------------------------
# A second source of an event without per-round dates

#: Spring Open: R1 (2026-10-03) Adams-Brown 1-0, R2 (2026-10-04) Clark-Adams 0-1.
SPRING_PGN = ('[Event "Spring Open"]\n[Date "2026.10.03"]\n[Round "1"]\n[White "Adams, Ann"]\n'
              '[Black "Brown, Bob"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
              '[Event "Spring Open"]\n[Date "2026.10.04"]\n[Round "2"]\n[White "Clark, Cy"]\n'
              '[Black "Adams, Ann"]\n[Result "0-1"]\n\n1. e4 e5 0-1\n')


def trf_player(rank: int, name: str, points: str, cells: str) -> str:
    """A TRF-16 player line (rating 2000, no FIDE id); ``cells`` from column 92, ten wide."""
    return f"001 {rank:>4} m    {name:<33} 2000 XXX {'':>11} 1990/01/01 {points:>4} {rank:>4}{cells}"


#: The same two games as the arbiter's TRF-16, named "Spring Open 2026", 3 to 5 October, without
#: record 132: both games are dated on the end date, 2026-10-05. Adams is on line 4.
SPRING_TRF = "\n".join([
    "012 Spring Open 2026", "042 2026/10/03", "052 2026/10/05",
    trf_player(1, "Adams, Ann", "2.0", "     2 w 1     3 b 1"),
    trf_player(2, "Brown, Bob", "0.0", "     1 b 0          "),
    trf_player(3, "Clark, Cy", "0.0", "               1 w 0"),
]) + "\n"


@pytest.fixture
def spring(engine: Engine) -> Engine:
    """Adams, Brown and Clark, each rated 2000 with 50 earlier games (K 20)."""
    for name in ("Adams, Ann", "Brown, Bob", "Clark, Cy"):
        add_player(engine, NewPlayer(name=name, rating=2000, prior_games=50))
    return engine


def test_a_trf_without_round_dates_after_the_pgn_is_refused(spring: Engine,
                                                            tmp_path: Path) -> None:
    first = import_file(spring, write(tmp_path, "open.pgn", SPRING_PGN), "pgn")
    assert first.recorded == 2
    trf = write(tmp_path, "open.trf", SPRING_TRF)
    with pytest.raises(ImportRejected) as caught:
        import_file(spring, trf, "trf")
    # each TRF game (dated 2026-10-05) looks like the PGN's game of another event dated within
    # the TRF event's dates (3 to 5 October)
    assert caught.value.similar == [
        SimilarGame(4, "Adams, Ann", "Brown, Bob", dt.date(2026, 10, 5), "1-0",
                    "Spring Open 2026", "1", 1, 1, "Spring Open", "1",
                    within_this("2026-10-03", "2026-10-03", "2026-10-05")),
        SimilarGame(6, "Clark, Cy", "Adams, Ann", dt.date(2026, 10, 5), "0-1",
                    "Spring Open 2026", "2", 2, 1, "Spring Open", "2",
                    within_this("2026-10-04", "2026-10-03", "2026-10-05"))]
    assert [p.message for p in caught.value.problems if p.line == 4] == [
        "Adams, Ann v Brown, Bob 1-0 on 2026-10-05 (round 1) looks like game 1 (event 'Spring "
        "Open', round 1, 2026-10-03) in the ledger: the same players and result in another "
        "event (or one without an event) on 2026-10-03, within this event's dates (2026-10-03 "
        "to 2026-10-05); if they are different games, import the file with --allow-similar"]
    assert len(list_games(spring)) == 2
    # Adams: two wins against 2000 (PD 0.50 each), K 20: 20 x (2 - 1.00) = +20, not +40
    adams = {p.name: p.result for p in close_period(spring, "2026-10").players}["Adams, Ann"]
    assert (adams.n, adams.change, adams.rating_after) == (2, 20, 2020)


def test_the_pgn_after_a_trf_without_round_dates_is_refused(spring: Engine,
                                                            tmp_path: Path) -> None:
    import_file(spring, write(tmp_path, "open.trf", SPRING_TRF), "trf")
    # the PGN's games (3 and 4 October) fall within the recorded event's dates (3 to 5 October)
    with pytest.raises(ImportRejected) as caught:
        import_file(spring, write(tmp_path, "open.pgn", SPRING_PGN), "pgn")
    assert [(s.line, s.game_id, s.why) for s in caught.value.similar] == [
        (1, 1, within_that("2026-10-03", "2026-10-03", "2026-10-05")),
        (10, 2, within_that("2026-10-04", "2026-10-03", "2026-10-05"))]
    # with --allow-similar both are recorded, each named in a warning
    report = import_file(spring, write(tmp_path, "open.pgn", SPRING_PGN), "pgn",
                         allow_similar=True)
    assert (report.recorded, report.likely_duplicates) == (2, 2)
    assert [(p.line, p.severity) for p in report.problems] == [(1, "warning"), (10, "warning")]
    assert report.problems[1].message == (
        "Clark, Cy v Adams, Ann 0-1 on 2026-10-04 (round 2) looks like game 2 (event 'Spring "
        "Open 2026', round 2, 2026-10-05) in the ledger; recorded as a different game "
        "(--allow-similar)")


def test_game_add_within_a_recorded_event_dates(spring: Engine, tmp_path: Path) -> None:
    import_file(spring, write(tmp_path, "open.trf", SPRING_TRF), "trf")  # games 1 and 2
    # another event, on a day within Spring Open 2026 (3 to 5 October): refused
    with pytest.raises(InvalidInput) as caught:
        add_game(spring, "Adams, Ann", "Brown, Bob", "1-0", "2026-10-03", "Spring Open")
    assert str(caught.value) == (
        "game: Adams, Ann v Brown, Bob 1-0 on 2026-10-03 (no round) looks like game 1 (event "
        "'Spring Open 2026', round 1, 2026-10-05) in the ledger: "
        + within_that("2026-10-03", "2026-10-03", "2026-10-05")
        + "; if they are different games, add it with --allow-similar")
    # the same event without a round, on another day than the recorded round 1: refused
    with pytest.raises(InvalidInput) as caught:
        add_game(spring, "Brown, Bob", "Adams, Ann", "0-1", "2026-10-04", "Spring Open 2026")
    assert str(caught.value).endswith(
        f"looks like game 1 (event 'Spring Open 2026', round 1, 2026-10-05) in the ledger: "
        f"{ROUND_AND_NO_ROUND}; if they are different games, add it with --allow-similar")
    # outside the event's dates, or another result: other games
    add_game(spring, "Adams, Ann", "Brown, Bob", "1-0", "2026-10-06", "Club")
    add_game(spring, "Adams, Ann", "Brown, Bob", "0-1", "2026-10-04", "Spring Open")
    assert len(list_games(spring)) == 4


def tata_trf(engine: Engine, tmp_path: Path, name: str) -> str:
    """The ledger's own TRF export of the Tata Steel event, renamed ``name``, without its record
    132: every game dated on the end date 2022-01-30 (record 052)."""
    text = export_trf(engine, TATA).text
    assert text.startswith(f"012 {TATA}\n") and text.count("\n132 ") == 1
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith("132 ")]
    return write(tmp_path, "tata.trf", f"012 {name}\n" + "".join(lines[1:]))


def test_tata_steel_trf_without_round_dates_under_another_name(engine: Engine,
                                                               tmp_path: Path) -> None:
    import_pgn(engine, str(data_file("tata_steel_masters_2022.pgn")), register_players=True)
    trf = tata_trf(engine, tmp_path, "Tata Steel Chess 2022")
    with pytest.raises(ImportRejected) as caught:
        import_file(engine, trf, "trf")
    similar = caught.value.similar
    # the 7 of round 13, on the same date (2022-01-30): the file is refused all the same. The 84
    # others lie within the event's dates, but the event spans 16 days (15 to 30 January), more
    # than the 10 of rule (b) (lookalikes.WITHIN_EVENT_DAYS: a league's month is no second
    # source of a weekend's game), so they are not likely duplicates
    assert (len(similar), len({s.game_id for s in similar})) == (7, 7)
    assert {s.why for s in similar} == {SAME_DATE}
    assert {s.game_id for s in similar} == set(range(85, 92))
    carlsen = {p.name: p.result for p in close_period(engine, "2022-01", dry_run=True).players}[
        "Carlsen, Magnus"]
    assert (carlsen.n, carlsen.score, carlsen.change) == (12, Decimal("8.5"), 3)
    # --allow-similar records all 91 and names each of the 7 in a warning
    report = import_file(engine, trf, "trf", allow_similar=True)
    assert (report.recorded, report.likely_duplicates, len(report.similar)) == (91, 7, 7)
    assert sum("looks like game" in p.message and p.severity == "warning"
               for p in report.problems) == 7


def test_tata_steel_pgn_without_rounds_then_the_trf(engine: Engine, tmp_path: Path) -> None:
    tata = data_file("tata_steel_masters_2022.pgn")
    # the TRF, with rounds and without round dates, from another ledger holding the PGN
    other_db = tmp_path / "other.db"
    init_ledger(str(other_db))
    other = open_ledger(str(other_db))
    try:
        import_pgn(other, str(tata), register_players=True)
        trf = tata_trf(other, tmp_path, TATA)  # the same event name
    finally:
        other.dispose()
    text = tata.read_text(encoding="utf-8-sig")
    no_rounds = "".join('[Round "?"]\n' if line.startswith("[Round ") else line
                        for line in text.splitlines(keepends=True))
    assert no_rounds.count('[Round "?"]') == 91
    first = import_pgn(engine, write(tmp_path, "no_rounds.pgn", no_rounds),
                       register_players=True)
    assert first.recorded == 91
    with pytest.raises(ImportRejected) as caught:
        import_file(engine, trf, "trf")
    # one event: the 7 games of round 13 are on the PGN's date (one pair, one day: errors), the
    # 84 others are the PGN's round-less games of another day
    errors = [p for p in caught.value.problems if p.severity == "error"]
    assert len(errors) == 91
    assert sum("the pair already has a game that day" in p.message for p in errors) == 7
    assert len(caught.value.similar) == 84
    assert {s.why for s in caught.value.similar} == {ROUND_AND_NO_ROUND}
    assert {s.game_id: s.recorded_round for s in caught.value.similar}[1] is None
    assert len(list_games(engine)) == 91


# ------------------------------------------------------------------------------------------------
# The games of one file compared with each other


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
         "dated 2022-01-16; the file dates it 2022-01-19: the recorded date is kept (to change or "
         "remove a recorded game: ledger game correct ID or ledger game void ID)")]
    assert [g.date.isoformat() for g in list_games(engine) if g.id == 8] == ["2022-01-16"]


def test_the_same_game_twice_in_one_pgn_under_two_event_names(pair: Engine,
                                                             tmp_path: Path) -> None:
    game = ('[Event "{event}"]\n[Date "2026.11.03"]\n[White "Player, A"]\n'
            '[Black "Player, B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n')
    pgn = write(tmp_path, "two.pgn", game.format(event="Open") + game.format(event="Open 2026"))
    with pytest.raises(ImportRejected) as caught:
        import_pgn(pair, pgn)
    # the second game (line 9) looks like the first (line 1) of this file
    assert caught.value.similar == [SimilarGame(
        9, "Player, A", "Player, B", dt.date(2026, 11, 3), "1-0", "Open 2026", None, None,
        None, "Open", None, SAME_DATE, 1)]
    assert [(p.line, p.field, p.message) for p in caught.value.problems] == [
        (9, "Event", "Player, A v Player, B 1-0 on 2026-11-03 (no round) looks like line 1 "
         "(event 'Open', no round) of this file: the same players, date and result in another "
         "event (or one without an event); if they are different games, import the file with "
         "--allow-similar")]
    assert list_games(pair) == []
    report = import_pgn(pair, pgn, allow_similar=True)
    assert (report.recorded, report.likely_duplicates) == (2, 1)
    assert [p.message for p in report.problems] == [
        "Player, A v Player, B 1-0 on 2026-11-03 (no round) looks like line 1 (event 'Open', "
        "no round) of this file; recorded as a different game (--allow-similar)"]


def test_the_same_game_twice_in_one_csv_colours_swapped(pair: Engine, tmp_path: Path) -> None:
    # no round column; line 3 is line 2 seen from Black's side, in another event
    csv = write(tmp_path, "two.csv", "date,white,black,result,event\n"
                '2026-11-03,"Player, A","Player, B",1-0,X\n'
                '2026-11-03,"Player, B","Player, A",0-1,Y\n')
    with pytest.raises(ImportRejected) as caught:
        import_file(pair, csv, "csv")
    assert [(s.line, s.earlier_line, s.recorded_event, s.why)
            for s in caught.value.similar] == [(3, 2, "X", SAME_DATE)]
    assert list_games(pair) == []
