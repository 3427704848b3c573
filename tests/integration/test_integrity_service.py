"""The integrity checks of a submission (``services.imports.integrity``) on real files, read by
the import's own readers, against a ledger built as docs/guide.md builds it.

The ledger: the guide's members (three typed in, six from examples/guide/members.csv), its
Club Championship games of 6 and 13 October 2026 and the October Weekender
(examples/guide/october-weekender.pgn, 17-18 October). The submission: the Harbour Autumn
Swiss (examples/guide/autumn-swiss.trf, 24-25 October 2026, 3 rounds, 90 min + 30 s), a normal
tournament: its players met others in October (Doherty met Brennan in the championship and the
weekender, Murphy met Keane and O'Neill), so no closed pool; 1 of 6 unrated (Quinn), not more
than half; 3 rounds, under the 5 games a performance needs; two rounds on 24 October of
2 x (90 + 30) = 240 minutes each, 8 hours, not more than 12; the two players it would register
(Gallagher, T. and Ryan, Eoin) each have a birth year and a sex in the file; submitted on
27 October, 2 days after its end.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from data_files import ROOT
from sqlalchemy import Engine
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.formats.records import FileGame
from ledger.services.imports.game_files import read_games_file
from ledger.services.imports.integrity import check_integrity, check_integrity_file

GUIDE = ROOT / "examples" / "guide"


def _run(db: str, *args: str) -> None:
    result = CliRunner().invoke(app, ["--db", db, *args])
    assert result.exit_code == 0, (args, result.output, result.stderr)


def _guide_october(db: str) -> None:
    """The guide's ledger up to its October Weekender (docs/guide.md, its own commands)."""
    for name, rating, games, year, sex in (("Keane, Orla", "1875", "64", "1988", "F"),
                                           ("Murphy, Sean", "1720", "35", "1983", "M")):
        _run(db, "player", "add", name, "--rating", rating, "--prior-games", games,
             "--birth-year", year, "--sex", sex, "--federation", "IRL")
    _run(db, "player", "add", "Quinn, Daniel", "--birth-year", "2012", "--sex", "M",
         "--federation", "IRL")
    _run(db, "import", str(GUIDE / "members.csv"), "--format", "players")
    for white, black, result, day, round_ in (
            ("Keane, Orla", "Murphy, Sean", "1-0", "2026-10-06", "1"),
            ("Brennan, Aoife", "Doherty, Conor", "1-0", "2026-10-06", "1"),
            ("O'Neill, Padraig", "Gallagher, Tom", "1/2-1/2", "2026-10-06", "1"),
            ("Fitzgerald, Ciara", "Quinn, Daniel", "1-0", "2026-10-06", "1"),
            ("Murphy, Sean", "O'Neill, Padraig", "0-1", "2026-10-13", "2"),
            ("Hayes, Niamh", "Brennan, Aoife", "0-1", "2026-10-13", "2")):
        _run(db, "game", "add", white, black, result, "--date", day, "--event",
             "Club Championship 2026", "--round", round_)
    _run(db, "import", str(GUIDE / "october-weekender.pgn"))


def _games(path: Path, fmt: str | None = None) -> list[FileGame]:
    """The games the import's reader gives for ``path`` (no problem in the file)."""
    _sha, _blank, _fmt, readout = read_games_file(str(path), fmt, "fide", None)
    assert [p for p in readout.problems if p.severity == "error"] == []
    return readout.games


def test_normal_tournament_no_flag(ledger_db: str, engine: Engine) -> None:
    _guide_october(ledger_db)
    games = _games(GUIDE / "autumn-swiss.trf")
    assert len(games) == 9  # 6 players, 3 rounds, 3 boards: checked in the file
    assert check_integrity(engine, games, submitted=dt.date(2026, 10, 27)) == []
    # the file as a submission keeps it: read by the import's reader (told by its first bytes)
    assert check_integrity_file(engine, str(GUIDE / "autumn-swiss.trf"),
                                submitted=dt.date(2026, 10, 27)) == []


def test_late_submission_of_the_same_file(ledger_db: str, engine: Engine) -> None:
    # 25 October + 31 days = 25 November: more than 30 days; 24 November (30 days) is not
    _guide_october(ledger_db)
    games = _games(GUIDE / "autumn-swiss.trf")
    assert check_integrity(engine, games, submitted=dt.date(2026, 11, 24)) == []
    flags = check_integrity(engine, games, submitted=dt.date(2026, 11, 25))
    assert [(f.code, f.subject, f.concerns, f.message) for f in flags] == [
        ("late-submission", "event", "Harbour Autumn Swiss 2026",
         "Harbour Autumn Swiss 2026 ended on 2026-10-25 and was submitted on 2026-11-25, "
         "31 days later (more than 30)")]


#: A made-up closed group: six players registered for it, who met only each other: an earlier
#: game (Cole v Dunne, 2026-06-10, recorded) and this round robin of 15 games on 1-5 November
#: 2026. Ames (1500) beats all five others (1900 each): 5/5, p 100 % -> dp 800 (table 8.1.1),
#: Ra 1900, Rp 2700, 1200 above 1500. The five others draw each other and lose to Ames:
#: 2/5 = 40 % -> dp -72, Ra (1500 + 4 x 1900) / 5 = 1820, Rp 1748, below 1900: no flag.
CIRCLE = [("Ames, Kit", 1500)] + [(f"{s}, Lee", 1900) for s in ("Bell", "Cole", "Dunne",
                                                                  "Eyre", "Fane")]


def _circle_pgn(tmp_path: Path) -> Path:
    names = [n for n, _ in CIRCLE]
    ratings = dict(CIRCLE)
    games, board = [], 0
    for i, white in enumerate(names):
        for black in names[i + 1:]:
            board += 1
            result = "1-0" if white == "Ames, Kit" else "1/2-1/2"
            day = f"2026.11.{1 + (board - 1) // 3:02d}"
            games.append(f'[Event "Closed Circle 2026"]\n[Site "Nowhere"]\n[Date "{day}"]\n'
                         f'[Round "{1 + (board - 1) // 3}.{1 + (board - 1) % 3}"]\n'
                         f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
                         f'[WhiteElo "{ratings[white]}"]\n[BlackElo "{ratings[black]}"]\n'
                         f'[TimeControl "5400+30"]\n\n1. e4 e5 {result}\n')
    path = tmp_path / "circle.pgn"
    path.write_text("\n".join(games), encoding="utf-8")
    return path


def test_closed_group_of_six_flagged(ledger_db: str, engine: Engine, tmp_path: Path) -> None:
    _guide_october(ledger_db)
    for name, rating in CIRCLE:
        _run(ledger_db, "player", "add", name, "--rating", str(rating), "--prior-games", "40",
             "--birth-year", "1990", "--sex", "M")
    _run(ledger_db, "game", "add", "Cole, Lee", "Dunne, Lee", "1/2-1/2", "--date",
         "2026-06-10")
    games = _games(_circle_pgn(tmp_path))
    assert len(games) == 15  # 6 x 5 / 2
    flags = check_integrity(engine, games, submitted=dt.date(2026, 11, 6))
    assert [(f.code, f.concerns, f.message) for f in flags] == [
        ("closed-pool", "Closed Circle 2026",
         # 15 games of the file + the one recorded in June, all among the six
         "Closed Circle 2026: its 6 players played nobody outside the group in the 12 months "
         "to 2026-11-06 (16 games, 1 earlier games recorded among them)"),
        ("performance", "Ames, Kit",
         "Ames, Kit scored 5/5, performance 2700, 1200 above his rating 1500")]
    assert flags[1].player_id is not None


def test_the_group_opened_by_one_outside_game(ledger_db: str, engine: Engine,
                                              tmp_path: Path) -> None:
    # one game of Fane against a club member (Keane, 2026-09-01) opens the group
    _guide_october(ledger_db)
    for name, rating in CIRCLE:
        _run(ledger_db, "player", "add", name, "--rating", str(rating), "--prior-games", "40",
             "--birth-year", "1990", "--sex", "M")
    _run(ledger_db, "game", "add", "Fane, Lee", "Keane, Orla", "0-1", "--date", "2026-09-01")
    flags = check_integrity(engine, _games(_circle_pgn(tmp_path)),
                            submitted=dt.date(2026, 11, 6))
    assert [f.code for f in flags] == ["performance"]


def test_another_clubs_evening_of_two_unknown_players(ledger_db: str, engine: Engine) -> None:
    # examples/guide/riverside-club-night.pgn: Walsh, Declan and Byrne, Sinead, unknown to the
    # guide's ledger, play each other twice on 5 November 2026 (2 x 240 minutes: 8 hours). A
    # PGN gives no birth year or sex; the two met nobody else (no game recorded): a closed pool
    _guide_october(ledger_db)
    flags = check_integrity(engine, _games(GUIDE / "riverside-club-night.pgn"),
                            submitted=dt.date(2026, 11, 6))
    assert [(f.code, f.subject, f.concerns, f.message, f.player_id) for f in flags] == [
        ("closed-pool", "event", "Riverside Club Night November 2026",
         "Riverside Club Night November 2026: its 2 players played nobody outside the group in "
         "the 12 months to 2026-11-06 (2 games, none of them has an earlier game recorded)",
         None),
        ("new-player-details", "player", "Byrne, Sinead",
         "Byrne, Sinead is new to the ledger and the file gives no birth year and no sex", None),
        ("new-player-details", "player", "Walsh, Declan",
         "Walsh, Declan is new to the ledger and the file gives no birth year and no sex",
         None)]


def test_a_rapid_marathon(ledger_db: str, engine: Engine, tmp_path: Path) -> None:
    # A CSV of 9 rapid games (25 min + 20 s: 25 + 20 = 45 minutes for 60 moves, 90 a game) on
    # 7 November 2026: Keane, Orla plays all nine, 3 each against Hayes, Niamh and Quinn,
    # Daniel (members, unrated) and Nolan, Roisin (new, no rating, birth year or sex).
    # Keane: 9 x 90 = 810 minutes = 13 hours 30 minutes > 720; 720 // 90 = 8 fit in a day.
    # Rated in rapid at the start: Keane only (no rapid rating: her standard 1875, docs/RULES.md
    # §9, from 2024-03); 3 of 4 unrated = 75 % > half. Her opponents are unrated: no
    # performance. Keane and Hayes met Murphy and Brennan in October: no closed pool.
    _guide_october(ledger_db)
    rows = ["date,white,black,result,event,round,time_control"]
    for i, other in enumerate(["Hayes, Niamh", "Quinn, Daniel", "Nolan, Roisin"] * 3):
        rows.append(f'2026-11-07,"Keane, Orla","{other}",1-0,Harbour Rapid Marathon,{i + 1},25+20')
    path = tmp_path / "marathon.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    flags = check_integrity(engine, _games(path), submitted=dt.date(2026, 11, 8))
    assert [(f.code, f.concerns, f.message) for f in flags] == [
        ("unrated-share", "Harbour Rapid Marathon",
         "Harbour Rapid Marathon: 3 of its 4 players are unrated (75 %), more than half"),
        ("new-player-details", "Nolan, Roisin",
         "Nolan, Roisin is new to the ledger and the file gives no birth year and no sex"),
        ("long-day", "Keane, Orla",
         "Keane, Orla played 9 games on 2026-11-07: 13 hours 30 minutes of play counted for 60 "
         "moves a game (9 x 90 minutes), more than 12 hours; games of 90 minutes fit 8 in a "
         "day")]
    assert flags[2].player_id is not None
