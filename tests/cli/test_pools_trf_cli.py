"""TRF-16 record 122 (allotted time per moves/game, free text) gives a TRF file's games their
rating pool (docs/RULES.md §9, issue 12): read as minutes for 60 moves, like any time control;
a 122 the ledger cannot read is a warning naming its line (the pool is then --pool's, default
standard); a 122 that disagrees with --pool is an error naming its line, and nothing is
written."""

from __future__ import annotations

from pathlib import Path

from cli_runs import data, ok, run
from ledgers import sqlite_ledger

# Player, A (1800) beats Player, B (1900) in round 1 of a one-round event in November 2025.
A = ("001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
     "     2 w 1")
B = ("001    2 m    Player, B                         1900 XXX    90000002 1988/01/01  0.0    2"
     "     1 b 0")


def ledger(tmp_path: Path) -> Path:
    db = tmp_path / "trf.db"
    sqlite_ledger(db)
    for name, rating, fide_id in (("Player, A", "1800", "90000001"),
                                  ("Player, B", "1900", "90000002")):
        ok(db, "player", "add", name, "--fide-id", fide_id, "--rating", rating,
           "--prior-games", "100", "--rapid-rating", rating, "--rapid-games", "100",
           "--blitz-rating", rating, "--blitz-games", "100")
    return db


def trf(tmp_path: Path, time_control: str) -> Path:
    """The event, its 122 record on line 4."""
    path = tmp_path / "event.trf"
    path.write_text("\n".join(["012 Club Quickplay", "042 2025/11/08", "052 2025/11/08",
                               f"122 {time_control}", A, B]) + "\n", encoding="utf-8")
    return path


def pools(db: Path) -> list[str]:
    return [g["pool"] for g in data(db, "game", "list")["games"]]


def test_a_122_of_15_min_plus_10_sec_makes_the_games_rapid(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    ok(db, "import", str(trf(tmp_path, "15 min + 10 sec")))
    # 15 + 10 s x 60 moves / 60 = 25 minutes: rapid
    assert pools(db) == ["rapid"]
    closed = data(db, "period", "close", "2025-11")
    assert (closed["pool"], closed["other_pools"]) == ("rapid", [])
    # rapid, K 20 (100 rapid games, 2025: the standard K rules): A 1800 v B 1900: D -100 ->
    # PD .36; 20 x (1 - .36) = +12.8 -> +13: 1813; B 20 x (0 - .64) = -12.8 -> -13: 1887
    assert {r["name"]: r["rating_after"] for r in closed["results"]} == {
        "Player, A": 1813, "Player, B": 1887}


def test_a_122_in_periods_and_an_increment_is_read(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    # 90 + 30 + 30 s x 60 / 60 = 150 minutes for 60 moves: standard, as --pool says
    result = ok(db, "import", str(trf(tmp_path, "90 min/40 moves + 30 min + 30 sec increment")),
                "--pool", "standard")
    assert "warning" not in result.output
    assert pools(db) == ["standard"]


def test_a_122_that_disagrees_with_pool_is_an_error_naming_its_line(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    path = trf(tmp_path, "90 min/40 moves + 30 min + 30 sec increment")
    result = run(db, "import", str(path), "--pool", "blitz")
    assert result.exit_code == 3
    # line 4 is the 122 record; said once, though it is the time control of every game
    message = (f"{path}:4: error: 122 time control: 90 min/40 moves + 30 min + 30 sec "
               "increment is standard (150 minutes for 60 moves), not blitz (--pool)")
    assert result.stderr.count(message) == 1, result.stderr
    assert data(db, "game", "list")["games"] == []  # nothing written


def test_a_122_the_ledger_cannot_read_is_a_warning_and_pool_decides(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    path = trf(tmp_path, "G/60 SD")
    result = ok(db, "import", str(path), "--pool", "blitz")
    warning = (f"{path}:4: warning: 122 time control: 'G/60 SD' is not a time control the "
               "ledger reads")
    assert " ".join(result.output.split()).count(warning) == 1, result.output
    assert "the games are blitz (--pool, default standard)" in " ".join(result.output.split())
    assert pools(db) == ["blitz"]


def test_an_unreadable_122_without_pool_gives_standard_games(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    result = ok(db, "import", str(trf(tmp_path, "Rapid")))
    assert "the games are standard" in " ".join(result.output.split())
    assert pools(db) == ["standard"]


def test_a_122_of_3_minutes_or_less_is_an_error(tmp_path: Path) -> None:
    db = ledger(tmp_path)
    path = trf(tmp_path, "1 min + 1 sec")
    result = run(db, "import", str(path))
    # 1 + 1 s x 60 / 60 = 2 minutes for 60 moves: FIDE rates no such game
    assert result.exit_code == 3
    assert (f"{path}:4: error: 122 time control: 2 minutes for 60 moves is 3 or less; FIDE "
            "rates no such game") in " ".join(result.stderr.split())
