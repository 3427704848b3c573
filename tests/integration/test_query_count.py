"""Loading a period is set-based: the number of statements a close issues does not grow with the
number of players (docs/DESIGN.md, data flow step 2); nor does a history's with the number of
periods or players (one statement per kind of row: ``services.publishing.histories``)."""

from __future__ import annotations

import pytest
from ledgers import Factory
from sqlalchemy import Engine, event

from ledger.domain import Period
from ledger.services.admin.recompute import check_ledger
from ledger.services.close import pools
from ledger.services.close.life import pools_in_progress
from ledger.services.close.periods import close_period
from ledger.services.core.session import open_ledger, transaction
from ledger.services.publishing.histories import history, player_histories
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


def _statements_in_history(engine: Engine, ref: str) -> tuple[int, list[tuple[str, int, int]]]:
    seen: list[str] = []

    def count(*args: object) -> None:
        seen.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    try:
        found = history(engine, ref)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(seen), [(r.period, r.rating_before, r.rating_after) for r in found.periods]


def test_history_issues_the_same_statements_for_1_and_12_periods(new_ledger: Factory) -> None:
    # Player, 000 (1500) beats Player, 001 (1510) in each month of 2025, closed one by one;
    # Player, 002 (1520) beats Player, 003 (1530) in January only. All K 20 (100 prior games).
    engine: Engine = open_ledger(new_ledger("history"))
    try:
        names = [f"Player, {i:03d}" for i in range(4)]
        for i, name in enumerate(names):
            add_player(engine, NewPlayer(name, rating=1500 + 10 * i, prior_games=100))
        add_game(engine, names[2], names[3], "1-0", "2025-01-05")
        for month in range(1, 13):
            add_game(engine, names[0], names[1], "1-0", f"2025-{month:02d}-05")
            close_period(engine, f"2025-{month:02d}")
        twelve, rows = _statements_in_history(engine, "#1")
        one, single = _statements_in_history(engine, "#3")
        with transaction(engine, write=False) as session:
            seen: list[str] = []
            event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
            assert len(player_histories(session, [1, 2, 3, 4])) == 4
            everyone = len(seen)
    finally:
        engine.dispose()
    # January: 1500 v 1510, expected 0.49 (a 10-point difference, B.02 §8.1.2 table),
    # 20 x 0.51 = +10.2, +10: 1510; then 12 rows, one a month
    assert rows[0] == ("2025-01", 1500, 1510)
    assert [r[0] for r in rows] == [f"2025-{m:02d}" for m in range(1, 13)]
    # 1520 v 1530: the same +10
    assert single == [("2025-01", 1520, 1530)]
    # One statement whatever the number of periods or players: the player named (an #ID), the
    # pool's latest closed period, players, entries, period results, list adjustments, initial
    # ratings, floor drops and carried corrections in one UNION ALL (db.union). On SQLite after
    # the BEGIN the ledger sends itself; on PostgreSQL alone, on a connection in autocommit
    # (session.one_statement: one round trip a call where there were 12, psycopg's BEGIN and
    # ROLLBACK among them; issue 25)
    first = 1 if engine.dialect.name == "sqlite" else 0
    assert twelve == one == first + 1
    # for four players in a caller's transaction the same (on PostgreSQL psycopg's BEGIN, with
    # REPEATABLE READ READ ONLY in it, and its ROLLBACK are not seen here: 3 round trips)
    assert everyone == first + 1


def _two_unrated(engine: Engine) -> None:
    """Opp, 1600 .. Opp, 2000 (ids 1-5, rated); New, Nina (6): one game in the closed 2025-10;
    New, Ned (7): four in the open 2025-11 and 2025-12."""
    for r in (1600, 1700, 1800, 1900, 2000):
        add_player(engine, NewPlayer(f"Opp, {r}", rating=r, prior_games=100))
    add_player(engine, NewPlayer("New, Nina"))
    add_player(engine, NewPlayer("New, Ned"))
    add_game(engine, "New, Nina", "Opp, 1600", "1-0", "2025-10-04")
    close_period(engine, "2025-10")
    for opponent, result, date in (("Opp, 1700", "1-0", "2025-11-03"),
                                   ("Opp, 1800", "1/2-1/2", "2025-11-10"),
                                   ("Opp, 1900", "0-1", "2025-12-02"),
                                   ("Opp, 2000", "1/2-1/2", "2025-12-09")):
        add_game(engine, "New, Ned", opponent, result, date)


def test_an_unrated_players_history_issues_the_same_statements_for_1_and_4_opponents(
        new_ledger: Factory) -> None:
    engine: Engine = open_ledger(new_ledger("unrated"))
    try:
        _two_unrated(engine)
        seen: list[str] = []
        event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
        nina = history(engine, "#6").life.pool
        one = len(seen)
        seen.clear()
        ned = history(engine, "#7").life.pool
        four = len(seen)
    finally:
        engine.dispose()
    # Nina: her one game of the closed 2025-10, shown as of the first open period
    assert nina is not None and ned is not None
    assert (nina.as_of, nina.games, nina.average, nina.points, nina.needed,
            nina.first_period) == ("2025-11", 1, 1600, 1, 4, "2025-10")
    assert [(r.opponent, r.opponent_rating) for r in nina.rows] == [("Opp, 1600", 1600)]
    # Ned: four games of the open 2025-11 and 2025-12, as of the later: average (1700 + 1800 +
    # 1900 + 2000) / 4 = 1850, 1 + .5 + 0 + .5 = 2 points, one game more needed
    assert (ned.as_of, ned.games, ned.average, ned.points, ned.needed,
            ned.first_period) == ("2025-12", 4, 1850, 2, 1, "2025-11")
    assert [r.opponent for r in ned.rows] == ["Opp, 1700", "Opp, 1800", "Opp, 1900", "Opp, 2000"]
    # The history's one statement (on PostgreSQL first alone, in autocommit: the player is
    # unrated, so it is read again in a transaction), then the pool in progress in one more
    # (pools.open_pools: its games, the players in them and their histories; where the games,
    # their latest period, every history kind and the opponents' names took nine), whatever
    # the number of opponents. On SQLite the BEGIN the ledger sends itself is the first.
    assert one == four == 3


def test_pools_in_progress_read_in_chunks_are_the_same(new_ledger: Factory,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    engine: Engine = open_ledger(new_ledger("chunks"))
    try:
        _two_unrated(engine)
        with transaction(engine, write=False) as session:
            whole = pools_in_progress(session, [6, 7], Period(2025, 10))
            monkeypatch.setattr(pools, "OPEN_POOLS_CHUNK", 1)
            seen: list[str] = []
            event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
            one_by_one = pools_in_progress(session, [6, 7], Period(2025, 10))
    finally:
        engine.dispose()
    assert len(seen) == 2  # a statement a player
    assert one_by_one == whole
    # as the history shows them (the test above): Nina's as of 2025-11, Ned's as of 2025-12
    assert {pid: (v.as_of, v.games, v.average) for pid, v in whole.items()} == {
        6: ("2025-11", 1, 1600), 7: ("2025-12", 4, 1850)}
