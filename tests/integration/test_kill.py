"""No half-done work survives a killed process (docs/DESIGN.md, Invariants): an import and a
close killed with SIGKILL inside their transaction, at several points (tests/processes.py:
``Pause``, a hook installed in the killed process only), leave the ledger exactly as it was, on
the run's database; the same command run again afterwards does all of its work.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ledgers import contents
from processes import Pause, start
from sqlalchemy import Engine

from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player

#: Where a killed import stops (of its 15 writing statements: 6 players and their entries, the
#: event, the games, the file's record): its first, its 7th (players half registered), its 13th
#: (the event), its 14th (the games), and just before its commit (every write done).
IMPORT_POINTS = [1, 7, 13, 14, 0]
#: Where a killed close stops (of its 3: the period, its results, their games): each, and just
#: before its commit.
CLOSE_POINTS = [1, 2, 3, 0]


def _point(at: int) -> str:
    return f"write-{at}" if at else "before-commit"


def _pgn(tmp_path: Path) -> str:
    """Two rounds of a 6-player event in a PGN whose players are not registered yet."""
    names = [f"Killjoy, K{i}" for i in range(6)]
    games = []
    for rnd, pairs in ((1, ((0, 5), (1, 4), (2, 3))), (2, ((5, 3), (4, 2), (0, 1)))):
        for white, black in pairs:
            games.append(f'[Event "Night Owl Open"]\n[Site "Club"]\n[Date "2026.10.{10 + rnd}"]\n'
                         f'[Round "{rnd}"]\n[White "{names[white]}"]\n[Black "{names[black]}"]\n'
                         f'[Result "1/2-1/2"]\n[WhiteElo "{1700 + 50 * white}"]\n'
                         f'[BlackElo "{1700 + 50 * black}"]\n\n1. d4 d5 1/2-1/2\n\n')
    path = tmp_path / "night-owl.pgn"
    path.write_text("".join(games), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("at", IMPORT_POINTS, ids=_point)
def test_an_import_killed_inside_its_transaction_leaves_nothing(
        ledger_db: str, tmp_path: Path, at: int) -> None:
    pgn = _pgn(tmp_path)
    before = contents(ledger_db)
    command = ("--db", ledger_db, "import", pgn, "--register-players", "--json", "--quiet")
    killed = start(tmp_path / "killed", [command], pause=Pause(tmp_path / "pause", at))
    killed.wait_paused()
    killed.kill()
    assert contents(ledger_db) == before  # not a player, an event, a game or the file's record
    again = start(tmp_path / "again", [command])
    assert again.wait() == 0, again.stderr
    report = json.loads(again.stdout)
    assert (report["recorded"], len(report["players_registered"])) == (6, 6)


@pytest.mark.parametrize("at", CLOSE_POINTS, ids=_point)
def test_a_close_killed_inside_its_transaction_leaves_nothing(
        ledger_db: str, engine: Engine, tmp_path: Path, at: int) -> None:
    for i, name in enumerate(("Alpha, Ann", "Beta, Bob", "Gamma, Gil", "Delta, Dan")):
        add_player(engine, NewPlayer(name, rating=1800 + 50 * i, prior_games=100))
    add_game(engine, "Alpha, Ann", "Beta, Bob", "1-0", "2026-10-03", "Club Night", "1")
    add_game(engine, "Gamma, Gil", "Delta, Dan", "0-1", "2026-10-03", "Club Night", "1")
    before = contents(ledger_db)
    command = ("--db", ledger_db, "period", "close", "2026-10", "--json")
    killed = start(tmp_path / "killed", [command], pause=Pause(tmp_path / "pause", at))
    killed.wait_paused()
    killed.kill()
    assert contents(ledger_db) == before  # no closed period, no result, no audit row
    again = start(tmp_path / "again", [command])
    assert again.wait() == 0, again.stderr
    assert json.loads(again.stdout)["games"] == 2
