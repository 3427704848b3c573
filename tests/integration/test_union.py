"""``db.union.Union``: SELECTs of different shapes in one statement, their rows given back per
SELECT by name, with their types, on both databases; the connection a history's one
statement is read on (``session.one_statement``) given back to the pool as it was; and a read
keeping the statements psycopg prepared."""

from __future__ import annotations

import pytest
from ledgers import Factory
from sqlalchemy import Engine, bindparam, event, func, select

from ledger.db.engine import autocommit_connection
from ledger.db.models import Player, PlayerEntry
from ledger.db.union import Union
from ledger.services.close.periods import close_period
from ledger.services.core.session import one_statement, open_ledger, transaction
from ledger.services.publishing.histories import history
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def test_each_select_gets_its_own_rows_back_by_name_in_one_statement(
        new_ledger: Factory) -> None:
    engine: Engine = open_ledger(new_ledger("union"))
    try:
        add_player(engine, NewPlayer("Doyle, Liam", rating=1850, prior_games=30))
        add_player(engine, NewPlayer("Walsh, Brendan", rating=1790, prior_games=0,
                                     birth_year=1990))
        p, e = Player.__table__.c, PlayerEntry.__table__.c
        union = Union({
            "players": select(p.name, p.id, p.withdrawn, p.birth_year, p.fide_id)
            .where(p.id.in_(bindparam("ids", expanding=True))).order_by(p.name),
            "entries": select(e.player_id, e.rating, e.reached_2400, e.kind),
            "count": select(func.count(p.id).label("n")),
        })
        seen: list[str] = []
        event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
        with transaction(engine, write=False) as session:
            rows = union.split(session.connection().execute(union.statement, {"ids": [1, 2]}))
        statements = [s for s in seen if s != "BEGIN"]
    finally:
        engine.dispose()
    assert len(statements) == 1
    # the registered players, each with the entry of their registration (kind "rating": a
    # rating the player brings, models.players.ENTRY_KINDS)
    players = sorted(rows["players"])
    assert players == [("Doyle, Liam", 1, False, None, None),
                       ("Walsh, Brendan", 2, False, 1990, None)]
    assert players[1].birth_year == 1990 and players[0].withdrawn is False
    assert sorted(rows["entries"]) == [(1, 1850, False, "rating"), (2, 1790, False, "rating")]
    assert rows["entries"][0].kind == "rating"
    assert [r.n for r in rows["count"]] == [2]


def test_a_column_of_another_type_is_refused() -> None:
    with pytest.raises(TypeError, match="players.registered_at"):
        Union({"players": select(Player.__table__.c.registered_at)})


def test_the_one_statement_connection_is_given_back_as_it_was(new_ledger: Factory) -> None:
    engine: Engine = open_ledger(new_ledger("autocommit"))
    try:
        with one_statement(engine) as conn:
            if conn is None:  # SQLite: read in a transaction, which costs no round trip
                assert engine.dialect.name == "sqlite"
                return
            assert conn.scalar(select(func.count(Player.id))) == 0
        # the next connection from the pool: in a transaction again, at the server's level
        with engine.connect() as again:
            raw = again.connection.dbapi_connection
            assert raw is not None
            assert (raw.autocommit, raw.isolation_level, raw.read_only) == (False, None, None)
        with transaction(engine, write=False) as session:
            level = session.connection().exec_driver_sql(
                "SHOW transaction_isolation").scalar()
            read_only = session.connection().exec_driver_sql("SHOW transaction_read_only").scalar()
        assert (level, read_only) == ("repeatable read", "on")
        with engine.connect() as after:
            raw = after.connection.dbapi_connection
            assert raw is not None
            assert (raw.autocommit, raw.isolation_level, raw.read_only) == (False, None, None)
    finally:
        engine.dispose()


def test_a_read_keeps_the_statements_psycopg_prepared(new_ledger: Factory) -> None:
    engine: Engine = open_ledger(new_ledger("prepared"))
    try:
        if engine.dialect.name == "sqlite":  # nothing is prepared: nothing to keep
            return
        add_player(engine, NewPlayer("Doyle, Liam", rating=1850, prior_games=30))
        add_player(engine, NewPlayer("Walsh, Brendan"))  # unrated
        add_game(engine, "Doyle, Liam", "Walsh, Brendan", "1-0", "2025-10-04")
        close_period(engine, "2025-10")
        for _ in range(6):  # psycopg prepares a statement at its fifth run on a connection
            history(engine, "#1")  # rated: the one statement, in autocommit
        before = _prepared(engine)
        history(engine, "#2")  # unrated: read again, with the pool, in a READ ONLY transaction
        after = _prepared(engine)
    finally:
        engine.dispose()
    # the read transaction ended with a COMMIT (session.transaction): a ROLLBACK would have
    # made psycopg deallocate every statement it had prepared on the connection (0 after)
    assert before >= 1 and after >= before


def _prepared(engine: Engine) -> int:
    """How many statements are prepared on the pool's one connection (asked in autocommit:
    a transaction's ROLLBACK would deallocate them)."""
    with autocommit_connection(engine) as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM pg_prepared_statements").scalar_one())
