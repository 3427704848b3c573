"""Imports decide each game's rating pool (docs/RULES.md §9, issue 12): a PGN ``TimeControl``
(seconds), a CSV ``pool`` or ``time_control`` column (minutes + seconds), ``import --pool``
(the event's pool); a time control that disagrees with --pool is an error naming the line,
nothing written; players with different times: recorded, not rated. Values worked by hand."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cli_runs import data, ok, run
from ledgers import sqlite_ledger


def ledger(tmp_path: Path) -> Path:
    db = tmp_path / "pools.db"
    sqlite_ledger(db)
    for name in ("Ash, Ann", "Birch, Bob", "Cedar, Cy"):
        ok(db, "player", "add", name, "--rating", "1800", "--prior-games", "100",
           "--rapid-rating", "1800", "--rapid-games", "100",
           "--blitz-rating", "1800", "--blitz-games", "100")
    return db


def pools_of(db: Path) -> list[tuple[str, str, str]]:
    return [(g["white"], g["date"], g["pool"]) for g in data(db, "game", "list")["games"]]


PGN = """[Event "Club Night"]
[Site "Riverside"]
[Date "2026.10.14"]
[Round "1"]
[White "Ash, Ann"]
[Black "Birch, Bob"]
[Result "1-0"]
[TimeControl "{first}"]

1. e4 e5 2. Nf3 1-0

[Event "Club Night"]
[Site "Riverside"]
[Date "2026.10.14"]
[Round "2"]
[White "Birch, Bob"]
[Black "Cedar, Cy"]
[Result "1/2-1/2"]
[TimeControl "{second}"]

1. d4 d5 2. c4 1/2-1/2
"""


def test_a_pgn_time_control_gives_each_game_its_pool(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    path = tmp_path / "night.pgn"
    # 900+10: 15 min + 10 s x 60 / 60 = 25 -> rapid; 180+2: 3 + 2 = 5 -> blitz
    path.write_text(PGN.format(first="900+10", second="180+2"), encoding="utf-8")
    ok(db, "import", str(path))
    assert pools_of(db) == [("Ash, Ann", "2026-10-14", "rapid"),
                            ("Birch, Bob", "2026-10-14", "blitz")]
    report = data(db, "period", "close", "2026-10")
    assert [report["pool"], *(o["pool"] for o in report["other_pools"])] == ["rapid", "blitz"]
    # rapid: Ann 1800 beats Bob 1800: D 0 -> .50, K 20 x .50 = +10
    assert {r["name"]: r["change"] for r in report["results"]} == {"Ash, Ann": 10,
                                                                    "Birch, Bob": -10}
    # export trf --pool blitz: the event's blitz game only (round 2, Bob v Cy), blitz ratings
    # 1800 each before the close of 2026-10
    blitz = ok(db, "export", "trf", "--event", "Club Night", "--pool", "blitz").stdout
    players = [line for line in blitz.splitlines() if line.startswith("001")]
    assert [line[14:47].strip() for line in players] == ["Birch, Bob", "Cedar, Cy"]
    assert {line[48:52] for line in players} == {"1800"}


def test_a_time_control_that_disagrees_with_import_pool_names_its_line(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    path = tmp_path / "night.pgn"
    path.write_text(PGN.format(first="900+10", second="180+2"), encoding="utf-8")
    result = run(db, "import", str(path), "--pool", "blitz")
    assert result.exit_code == 3
    # line 8 holds the first game's TimeControl tag: 25 minutes is rapid, not blitz
    assert f"{path}:8: error: TimeControl: 900+10 is rapid (25 minutes for 60 moves), not " \
           "blitz (--pool)" in result.stderr
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (0,)
    con.close()


def test_import_pool_is_the_pool_of_games_without_a_time_control(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    path = tmp_path / "games.csv"
    path.write_text("date,white,black,result\n2026-10-14,\"Ash, Ann\",\"Birch, Bob\",1-0\n",
                    encoding="utf-8")
    ok(db, "import", str(path), "--pool", "blitz")
    assert pools_of(db) == [("Ash, Ann", "2026-10-14", "blitz")]


def test_csv_pool_and_time_control_columns_and_different_times(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    path = tmp_path / "games.csv"
    path.write_text(
        "date,white,black,result,pool,time_control,white_time_control,black_time_control\n"
        "2026-10-12,\"Ash, Ann\",\"Birch, Bob\",1-0,rapid,,,\n"      # the pool column: rapid
        "2026-10-13,\"Ash, Ann\",\"Cedar, Cy\",1-0,,3+2,,\n"          # 3 + 2 = 5: blitz
        "2026-10-14,\"Birch, Bob\",\"Cedar, Cy\",1-0,,5+0,5+0,3+0\n",  # 5 v 3 minutes
        encoding="utf-8")
    ok(db, "import", str(path))
    assert pools_of(db) == [("Ash, Ann", "2026-10-12", "rapid"),
                            ("Ash, Ann", "2026-10-13", "blitz"),
                            ("Birch, Bob", "2026-10-14", "blitz")]
    report = data(db, "period", "close", "2026-10")
    blitz = next(o for o in report["other_pools"] if o["pool"] == "blitz")
    # the game with different times is recorded, not rated: Bob and Cy have no blitz result
    # from it; Ann beat Cy (D 0 -> .50): +10, Cy -10
    assert blitz["not_rated"] == {"different times": 1}
    assert {r["name"]: r["change"] for r in blitz["results"]} == {"Ash, Ann": 10,
                                                                   "Cedar, Cy": -10}
    games = data(db, "game", "list")["games"]
    assert games[2]["status"] == "different times"


def test_a_bad_pool_or_time_control_in_a_csv_names_line_and_column(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    path = tmp_path / "games.csv"
    path.write_text("date,white,black,result,pool,time_control\n"
                    "2026-10-12,\"Ash, Ann\",\"Birch, Bob\",1-0,bullet,\n"
                    "2026-10-13,\"Ash, Ann\",\"Cedar, Cy\",1-0,rapid,3+2\n", encoding="utf-8")
    result = run(db, "import", str(path))
    assert result.exit_code == 3
    assert f"{path}:2: error: pool: 'bullet' is not a pool" in result.stderr
    # 3 + 2 = 5 minutes: blitz, while the pool column says rapid
    assert (f"{path}:3: error: time_control: 3+2 is blitz (5 minutes for 60 moves), not rapid "
            "(the pool column)") in result.stderr
