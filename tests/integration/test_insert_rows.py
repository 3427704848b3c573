"""``db.rows.insert_rows`` (issue 14: the import's games through the driver's executemany) stores
what a Core ``insert(table)`` of the same rows stores, on SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from typing import cast

import pytest
from sqlalchemy import Engine, Table, insert, select, text
from sqlalchemy.orm import Session

from ledger.db import rows
from ledger.db.models import Game, Player
from ledger.db.models.games import IMPORTED_GAME_COLUMNS
from ledger.domain import STANDARD

#: When both games were recorded (stored without a time zone, as ``models.base.utcnow`` gives it).
AT = dt.datetime(2026, 11, 5, 18, 30, 15, 123456)


def _game(white: int, black: int, line: int, *, played: bool = True,
          event_round: str | None = None) -> tuple[object, ...]:
    """One row of ``IMPORTED_GAME_COLUMNS``: a 1-0 on 5 November 2026 (period 2026-11)."""
    return (None, event_round, event_round, dt.date(2026, 11, 5), "2026-11", white, black, "1-0",
            played, f"file.csv:{line}", AT, "valid", None, STANDARD, False)


def _players(session: Session) -> tuple[int, int]:
    first, second = Player(name="Doyle, Liam"), Player(name="Walsh, Brendan")
    session.add_all([first, second])
    session.flush()
    return first.id, second.id


def test_the_rows_read_back_as_a_core_insert_writes_them(engine: Engine) -> None:
    table = cast(Table, Game.__table__)
    with Session(engine) as session, session.begin():
        white, black = _players(session)
        # the same game twice: once by Core, once by insert_rows (no unique key: no event)
        session.execute(insert(table), [dict(zip(IMPORTED_GAME_COLUMNS, _game(white, black, 2),
                                                  strict=True))])
        assert rows.insert_rows(session, table, IMPORTED_GAME_COLUMNS, [
            _game(white, black, 3), _game(black, white, 4, played=False, event_round="2")]) == 2
        stored = session.execute(select(*(table.c[c] for c in IMPORTED_GAME_COLUMNS))
                                 .order_by(table.c.id)).all()
        raw = session.execute(text("SELECT date, played, recorded_at FROM games ORDER BY id")).all()
    core, ours, other = stored
    assert core[:9] == ours[:9] and core[10:] == ours[10:]
    assert ours.date == dt.date(2026, 11, 5) and ours.recorded_at == AT and ours.played is True
    assert (other.white_id, other.black_id, other.played, other.round) == (black, white, False, "2")
    assert raw[0] == raw[1]  # stored alike, byte for byte, on either database


def test_more_rows_than_a_batch_go_in_several_batches(engine: Engine,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows, "BATCH", 2)
    table = cast(Table, Game.__table__)
    with Session(engine) as session, session.begin():
        white, black = _players(session)
        many = [_game(white, black, line) for line in range(2, 7)]  # 5 rows: batches 2 + 2 + 1
        assert rows.insert_rows(session, table, IMPORTED_GAME_COLUMNS, many) == 5
        sources = session.scalars(select(table.c.source).order_by(table.c.id)).all()
    assert sources == [f"file.csv:{line}" for line in range(2, 7)]


def test_no_rows_write_nothing(engine: Engine) -> None:
    with Session(engine) as session, session.begin():
        assert rows.insert_rows(session, cast(Table, Game.__table__), IMPORTED_GAME_COLUMNS, []) == 0
        assert session.scalar(text("SELECT count(*) FROM games")) == 0


def test_stream_rows_gives_the_drivers_values_in_batches_inside_the_transaction(
        engine: Engine) -> None:
    table = cast(Table, Game.__table__)
    with Session(engine) as session, session.begin():
        white, black = _players(session)
        many = [_game(white, black, line, played=line % 2 == 0) for line in range(2, 7)]
        rows.insert_rows(session, table, IMPORTED_GAME_COLUMNS, many)
        # not committed: the stream reads the session's own transaction; 5 rows, batches 2+2+1
        got = list(rows.stream_rows(session, select(table.c.source, table.c.date, table.c.played)
                                    .where(table.c.period == "2026-11").order_by(table.c.id),
                                    batch=2))
    assert [g[0] for g in got] == [f"file.csv:{line}" for line in range(2, 7)]
    if engine.dialect.name == "sqlite":  # stored text and 0/1, as the driver gives them
        assert [g[1:] for g in got[:2]] == [("2026-11-05", 1), ("2026-11-05", 0)]
    else:  # psycopg converts
        assert [g[1:] for g in got[:2]] == [(dt.date(2026, 11, 5), True),
                                            (dt.date(2026, 11, 5), False)]


def test_stream_rows_refuses_a_parameter_the_driver_would_not_take_as_it_is(
        engine: Engine) -> None:
    table = cast(Table, Game.__table__)
    with Session(engine) as session, session.begin(), pytest.raises(TypeError, match="date"):
        next(rows.stream_rows(session, select(table.c.id).where(
            table.c.date == dt.date(2026, 11, 5))))


def test_stream_chunks_gives_the_same_rows_a_fetchmany_at_a_time(engine: Engine) -> None:
    table = cast(Table, Game.__table__)
    with Session(engine) as session, session.begin():
        white, black = _players(session)
        rows.insert_rows(session, table, IMPORTED_GAME_COLUMNS,
                         [_game(white, black, line) for line in range(2, 7)])
        statement = select(table.c.source).order_by(table.c.id)
        # 5 rows, batch 2: chunks of 2, 2 and 1 (never an empty one)
        chunks = [list(c) for c in rows.stream_chunks(session, statement, batch=2)]
    assert chunks == [[(f"file.csv:{n}",) for n in pair] for pair in ([2, 3], [4, 5], [6])]


def test_typed_chunks_gives_the_values_sqlalchemy_reads_back(engine: Engine) -> None:
    """``typed_chunks``: the driver's rows with each column's result processing (a date, a
    bool: what ``session.execute`` gives), ``then`` after it, a fetchmany at a time."""
    table = cast(Table, Game.__table__)
    with Session(engine) as session, session.begin():
        white, black = _players(session)
        rows.insert_rows(session, table, IMPORTED_GAME_COLUMNS,
                         [_game(white, black, line, played=line != 3) for line in range(2, 5)])
        statement = (select(table.c.source, table.c.date, table.c.played, table.c.white_id)
                     .order_by(table.c.id))
        conn = session.connection()
        chunks = list(rows.typed_chunks(conn, statement, batch=2))
        written = list(rows.typed_chunks(conn, statement, batch=2, then=repr))
        executed = session.execute(statement).all()
    day = dt.date(2026, 11, 5)
    assert chunks == [[("file.csv:2", day, True, white), ("file.csv:3", day, False, white)],
                      [("file.csv:4", day, True, white)]]
    assert [tuple(r) for r in executed] == chunks[0] + chunks[1]
    if engine.dialect.name == "sqlite":  # processed columns only: the date and the flag
        assert written[0][0] == ("file.csv:2", "datetime.date(2026, 11, 5)", "True", white)


def test_bound_rows_are_stored_as_the_processed_ones(engine: Engine) -> None:
    """Rows of the driver's values (each made once by ``binders``) store what rows of Python
    values store: on SQLite the date as its text 2026-11-05 and played as 1, on PostgreSQL as
    they are."""
    table = cast(Table, Game.__table__)
    with Session(engine) as session, session.begin():
        white, black = _players(session)
        bind = rows.binders(session, table, IMPORTED_GAME_COLUMNS)
        plain = _game(white, black, 2)
        driver = tuple(v if p is None else p(v) for p, v in zip(bind, plain, strict=True))
        if engine.dialect.name == "sqlite":
            assert driver[3] == "2026-11-05" and driver[8] == 1 and driver[14] == 0
            assert driver[10] == "2026-11-05 18:30:15.123456"
        assert rows.insert_rows(session, table, IMPORTED_GAME_COLUMNS, [plain]) == 1
        assert rows.insert_rows(session, table, IMPORTED_GAME_COLUMNS, [driver], bound=True) == 1
        raw = session.execute(text("SELECT event_id, round, round_key, date, period, white_id, "
                                   "black_id, result, played, source, recorded_at, status, "
                                   "change_id, pool, unequal_times FROM games ORDER BY id")).all()
    assert raw[0] == raw[1]
    assert raw[1].source == "file.csv:2" and raw[1].white_id == white


def test_id_rows_selects_the_ids_given_as_one_parameter(engine: Engine) -> None:
    """``id_rows`` of the ids 2 and 3 selects players 2 and 3 of four (and nothing for none)."""
    with Session(engine) as session, session.begin():
        session.add_all([Player(name=f"Doyle, Liam {n}") for n in range(4)])
        session.flush()
        ids = sorted(session.scalars(select(Player.id)))
        wanted = [ids[2], ids[1]]
        picked = session.scalars(select(Player.id).where(
            Player.id.in_(rows.id_rows(session, wanted))).order_by(Player.id)).all()
        none = session.scalars(select(Player.id).where(
            Player.id.in_(rows.id_rows(session, [])))).all()
    assert picked == [ids[1], ids[2]]
    assert none == []
