"""A game of another pool is never a likely duplicate (docs/RULES.md §9, issue 12): the same
pair with the same result on the same day in a standard event and in a blitz evening without
rounds are two games, through `import` (from two files, or one) and `game add`; the same game
in two events of one pool still is a likely duplicate."""

from __future__ import annotations

from pathlib import Path

from cli_runs import data, ok, run
from ledgers import sqlite_ledger

GAME = """[Event "{event}"]
[Site "Riverside"]
[Date "2026.10.14"]
[White "Ash, Ann"]
[Black "Birch, Bob"]
[Result "1-0"]
[TimeControl "{control}"]

1. e4 e5 2. Nf3 1-0
"""
# 5400+30: 90 min + 30 s -> 120 minutes for 60 moves, standard; 180+2: 3 + 2 = 5, blitz
STANDARD_GAME = GAME.format(event="Club League", control="5400+30")
BLITZ_GAME = GAME.format(event="Blitz Night", control="180+2")


def ledger(tmp_path: Path) -> Path:
    db = tmp_path / "pools.db"
    sqlite_ledger(db)
    for name in ("Ash, Ann", "Birch, Bob"):
        ok(db, "player", "add", name, "--rating", "1800", "--prior-games", "100",
           "--blitz-rating", "1800", "--blitz-games", "100")
    return db


def pgn(tmp_path: Path, name: str, *games: str) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(games), encoding="utf-8")
    return path


def games(db: Path) -> list[tuple[str, str, str, str | None]]:
    return [(g["date"], g["result"], g["pool"], g["event"])
            for g in data(db, "game", "list")["games"]]


def test_a_blitz_game_like_a_standard_one_is_another_game(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "import", str(pgn(tmp_path, "league.pgn", STANDARD_GAME)))
    blitz = ok(db, "import", str(pgn(tmp_path, "blitz.pgn", BLITZ_GAME)))
    assert "looks like" not in blitz.output
    assert games(db) == [("2026-10-14", "1-0", "standard", "Club League"),
                         ("2026-10-14", "1-0", "blitz", "Blitz Night")]
    # each pool rates its game: Ann 1800 beats Bob 1800, D 0 -> .50, K 20: +10 / -10
    closed = data(db, "period", "close", "2026-10")
    assert [(r["pool"], {x["name"]: x["change"] for x in r["results"]})
            for r in (closed, *closed["other_pools"])] == [
        ("standard", {"Ash, Ann": 10, "Birch, Bob": -10}),
        ("blitz", {"Ash, Ann": 10, "Birch, Bob": -10})]


def test_one_file_with_the_same_game_in_two_pools_records_both(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "import", str(pgn(tmp_path, "night.pgn", STANDARD_GAME, BLITZ_GAME)))
    assert [g[2] for g in games(db)] == ["standard", "blitz"]


def test_the_same_game_in_two_events_of_one_pool_is_still_a_likely_duplicate(
        tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "import", str(pgn(tmp_path, "blitz.pgn", BLITZ_GAME)))
    again = GAME.format(event="Thursday Blitz", control="300+0")  # 5 minutes: blitz too
    result = run(db, "import", str(pgn(tmp_path, "again.pgn", again)))
    assert result.exit_code != 0
    assert "looks like game 1 (event 'Blitz Night', no round) in the ledger" in " ".join(
        result.output.split())
    assert len(games(db)) == 1  # nothing written


def test_game_add_of_a_blitz_game_like_a_standard_one_records_it(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "import", str(pgn(tmp_path, "league.pgn", STANDARD_GAME)))
    ok(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14",
       "--event", "Blitz Night", "--pool", "blitz")
    assert [g[2] for g in games(db)] == ["standard", "blitz"]
    # a standard game of the same pair, result and day in another event: a likely duplicate
    refused = run(db, "game", "add", "Ash, Ann", "Birch, Bob", "1-0", "--date", "2026-10-14",
                  "--event", "Rapid Play", "--pool", "standard")
    assert refused.exit_code != 0 and "looks like game 1" in " ".join(refused.output.split())
