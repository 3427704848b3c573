"""Loading a period is set-based: the number of statements a close issues does not grow with the
number of players (docs/DESIGN.md, data flow step 2)."""

from __future__ import annotations

from ledgers import Factory
from sqlalchemy import Engine, event

from ledger.services.admin.recompute import check_ledger
from ledger.services.close.periods import close_period
from ledger.services.core.session import open_ledger
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def _players_and_games(engine: Engine, players: int) -> None:
    names = [f"Player, {i:03d}" for i in range(players)]
    for i, name in enumerate(names):
        add_player(engine, NewPlayer(name, rating=1500 + 10 * i, prior_games=100))
    for i in range(0, players, 2):  # one game per pair, all in 2025-11
        add_game(engine, names[i], names[i + 1], "1-0", "2025-11-05")


def _statements_in_close(new_ledger: Factory, players: int) -> int:
    db = new_ledger(f"n{players}")
    engine: Engine = open_ledger(db)
    try:
        _players_and_games(engine, players)
        seen: list[str] = []
        event.listen(engine, "before_cursor_execute",
                     lambda *args: seen.append(args[2]))
        report = close_period(engine, "2025-11")
        assert len(report.players) == players
        return len(seen)
    finally:
        engine.dispose()


def test_close_issues_the_same_statements_for_4_and_40_players(new_ledger: Factory) -> None:
    assert _statements_in_close(new_ledger, 4) == _statements_in_close(new_ledger, 40)


def _statements_in_check(new_ledger: Factory, players: int) -> int:
    db = new_ledger(f"check{players}")
    engine: Engine = open_ledger(db)
    try:
        _players_and_games(engine, players)
        close_period(engine, "2025-11")
        seen: list[str] = []
        event.listen(engine, "before_cursor_execute",
                     lambda *args: seen.append(args[2]))
        assert check_ledger(engine).ok
        return len(seen)
    finally:
        engine.dispose()


def test_db_check_issues_the_same_statements_for_4_and_40_players(new_ledger: Factory) -> None:
    # recomputing a period is the close's own loading: a fixed number of queries
    assert _statements_in_check(new_ledger, 4) == _statements_in_check(new_ledger, 40)
