"""``services.close.game_rows.load_game_rows``: a close's games as integer rows, with the ratings in
force at each event's start (docs/RULES.md §1), late results, forfeits left out, and in rapid
a player unrated there rated with their standard rating (§9). Every rating is worked by hand."""

from __future__ import annotations

import datetime as dt
from functools import partial

import pytest
from sqlalchemy import Engine

from ledger.db.rows import stream_chunks
from ledger.domain import RAPID, STANDARD, Period, RatedGame, Result
from ledger.rules.pools import GAP_RULE_FROM
from ledger.services.close import game_rows
from ledger.services.close.game_rows import CODE_HALVES, GAME_CODES, load_game_rows
from ledger.services.close.periods import close_period
from ledger.services.close.state import load_histories
from ledger.services.core.session import transaction
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player

TODAY = dt.date(2026, 12, 1)


def _ids(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {name: pid for pid, name in conn.exec_driver_sql("SELECT id, name FROM players")}


def _rows(engine: Engine, period: Period, pool: str = STANDARD, *, ratings: bool = True):
    with transaction(engine, write=False) as session:
        everyone = load_histories(session, None, through=period.previous(), pool=pool)
        given = {pid: h.rating(period) for pid, h in everyone.items()} if ratings else None
        return load_game_rows(session, period, everyone, pool=pool, ratings=given)


def test_the_codes_give_the_halves_of_the_three_rated_results_only() -> None:
    # code = 4 x result index + 2 x played + unequal: 1-0 played equal = 0*4 + 2 + 0 = 2,
    # 1/2-1/2 = 4 + 2 = 6, 0-1 = 8 + 2 = 10; forfeits, unplayed, unequal times: None
    assert [i for i, h in enumerate(CODE_HALVES) if h is not None] == [2, 6, 10]
    assert (CODE_HALVES[2], CODE_HALVES[6], CODE_HALVES[10]) == (2, 1, 0)
    assert GAME_CODES[3] == (Result.WHITE_WINS, True, True)  # 0 + 2 + 1: unequal times
    assert GAME_CODES[12] == (Result.WHITE_FORFEIT_WIN, False, False)  # 3 x 4
    assert len(GAME_CODES) == 24 and CODE_HALVES[24:] == (None,) * 4
    assert GAP_RULE_FROM == Period(2024, 12)


def _october_and_the_open(engine: Engine) -> None:
    """Ann 1600, Bob 1800 and Cy 1700; Ann beats Cy on 5 October; the Open (30 October to
    2 November: its games are November's): Ann - Bob 1/2, Bob - Cy 1-0."""
    for name, rating in (("Ash, Ann", 1600), ("Birch, Bob", 1800), ("Cole, Cy", 1700)):
        add_player(engine, NewPlayer(name=name, rating=rating, prior_games=100))
    add_game(engine, "Ash, Ann", "Cole, Cy", "1-0", "2025-10-05", today=TODAY)
    add_game(engine, "Ash, Ann", "Birch, Bob", "1/2-1/2", "2025-10-30", event="Open",
             today=TODAY)
    add_game(engine, "Birch, Bob", "Cole, Cy", "1-0", "2025-11-02", event="Open", today=TODAY)


def test_an_event_started_in_the_period_before_and_a_late_result(engine: Engine) -> None:
    _october_and_the_open(engine)
    add_game(engine, "Cole, Cy", "Ash, Ann", "+/-", "2025-11-10", today=TODAY)
    add_game(engine, "Ash, Ann", "Cole, Cy", "0-1", "2025-11-12", today=TODAY)
    close_period(engine, "2025-10", today=TODAY)
    # October: Ann 1600 beats Cy 1700: D = -100 -> .36, 20 x .64 = 12.8 -> +13: 1613;
    # Cy: D = +100 -> .64, 20 x -.64 = -12.8 -> -13: 1687
    add_game(engine, "Ash, Ann", "Cole, Cy", "1/2-1/2", "2025-10-20", today=TODAY)  # late
    ids = _ids(engine)
    ann, bob, cy = ids["Ash, Ann"], ids["Birch, Bob"], ids["Cole, Cy"]
    for given in (True, False):
        got = _rows(engine, Period(2025, 11), ratings=given)
        listed = list(got.rows.rows())  # the columns read back as GameRow tuples
        assert got.count == 5
        rows = [(w, b, wr, br, h) for _, _, w, b, wr, br, h in listed]  # by date, then id
        assert rows == [
            (ann, cy, 1600, 1700, 1),   # 20 Oct, late: October's list (before its close)
            (ann, bob, 1600, 1800, 1),  # 30 Oct, the event started in October: October's list
            (bob, cy, 1800, 1700, 2),   # 2 Nov, same event: October's list, not Cy's 1687
            (cy, ann, 1687, 1613, None),  # 10 Nov, no event: November's list; a forfeit
            (ann, cy, 1613, 1687, 0),   # 12 Nov
        ]
        late_id = listed[0][0]
        assert got.late == {late_id: Period(2025, 10)}
        assert got.left_out == [RatedGame(listed[3][0], None, cy, ann, 1687, 1613,
                                          Result.WHITE_FORFEIT_WIN, True, False)]
        assert listed[1][1] is not None and listed[1][1] == listed[2][1]  # one event
        assert set(got.histories) == {ann, bob, cy}


def test_a_rapid_player_unrated_in_rapid_plays_with_the_standard_rating(engine: Engine) -> None:
    add_player(engine, NewPlayer(name="Dale, Dee", rating=1850, prior_games=100))
    add_player(engine, NewPlayer(name="Elm, Eve", pools=((RAPID, 1850, 100),)))
    add_player(engine, NewPlayer(name="Fir, Fay"))  # unrated everywhere
    add_game(engine, "Dale, Dee", "Elm, Eve", "1-0", "2025-06-10", pool=RAPID, today=TODAY)
    add_game(engine, "Fir, Fay", "Elm, Eve", "0-1", "2025-06-11", pool=RAPID, today=TODAY)
    ids = _ids(engine)
    dee, eve, fay = ids["Dale, Dee"], ids["Elm, Eve"], ids["Fir, Fay"]
    for given in (True, False):
        got = _rows(engine, Period(2025, 6), RAPID, ratings=given)
        listed = list(got.rows.rows())  # the columns read back as GameRow tuples
        # from 2024-03 Dee, unrated in rapid, plays with standard 1850; Fay has no rating
        assert [(w, b, wr, br, h) for _, _, w, b, wr, br, h in listed] == [
            (dee, eve, 1850, 1850, 2), (fay, eve, None, 1850, 0)]
        assert [g.white_id for g in got.left_out] == [fay]  # a player unrated: no rule rates
        assert got.late == {}
    assert _rows(engine, Period(2025, 6)).count == 0  # no standard game


def test_games_recorded_out_of_date_order_come_by_date_then_id(engine: Engine) -> None:
    for name in ("Gale, Gus", "Hale, Hal", "Ivey, Ivy"):
        add_player(engine, NewPlayer(name=name, rating=1700, prior_games=100))
    # recorded (ids rising) 20, 5, 20, 5 May: two forfeits, recorded first and third
    for white, black, result, day in (("Gale, Gus", "Hale, Hal", "+/-", "2025-05-20"),
                                      ("Gale, Gus", "Hale, Hal", "1-0", "2025-05-05"),
                                      ("Hale, Hal", "Ivey, Ivy", "-/+", "2025-05-20"),
                                      ("Hale, Hal", "Ivey, Ivy", "1/2-1/2", "2025-05-05")):
        add_game(engine, white, black, result, day, today=TODAY)
    with engine.connect() as conn:
        first, second, third, fourth = [gid for (gid,) in conn.exec_driver_sql(
            "SELECT id FROM games ORDER BY id")]
    ids = _ids(engine)
    gus, hal, ivy = ids["Gale, Gus"], ids["Hale, Hal"], ids["Ivey, Ivy"]
    got = _rows(engine, Period(2025, 5))
    # 5 May: the second and fourth recorded, then 20 May: the first and third
    assert list(got.rows.rows()) == [(second, None, gus, hal, 1700, 1700, 2),
                                     (fourth, None, hal, ivy, 1700, 1700, 1),
                                     (first, None, gus, hal, 1700, 1700, None),
                                     (third, None, hal, ivy, 1700, 1700, None)]
    assert [g.game_id for g in got.left_out] == [first, third]
    assert [g.result for g in got.left_out] == [Result.WHITE_FORFEIT_WIN,
                                                Result.BLACK_FORFEIT_WIN]


def test_histories_read_as_driver_rows_keep_the_flags_as_bools(engine: Engine) -> None:
    add_player(engine, NewPlayer(name="Jay, Jo", rating=2450, prior_games=300, reached_2400=True,
                                 reached_2300=True))
    add_player(engine, NewPlayer(name="Kay, Kim", rating=1500, prior_games=20))
    ids = _ids(engine)
    with transaction(engine, write=False) as session:
        everyone = load_histories(session, None, through=Period(2025, 4))
    jo, kim = everyone[ids["Jay, Jo"]].entries[0], everyone[ids["Kay, Kim"]].entries[0]
    # SQLite gives the BOOLEAN columns as 1 and 0: read back as True and False, as SQLAlchemy would
    assert (jo.reached_2400, jo.reached_2300, kim.reached_2400, kim.reached_2300) == (
        True, True, False, False)
    assert all(type(flag) is bool for flag in (jo.reached_2400, kim.reached_2300))
    assert (jo.rating, jo.prior_games, kim.rating, kim.prior_games) == (2450, 300, 1500, 20)


def test_events_read_as_the_chunks_of_games_bring_them(engine: Engine,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # one game a chunk: each event's dates read when its first game comes, by id
    monkeypatch.setattr(game_rows, "stream_chunks", partial(stream_chunks, batch=1))
    _october_and_the_open(engine)
    add_game(engine, "Ash, Ann", "Cole, Cy", "0-1", "2025-11-12", event="Cup", today=TODAY)
    add_game(engine, "Cole, Cy", "Birch, Bob", "0-1", "2025-11-13", event="Cup", today=TODAY)
    close_period(engine, "2025-10", today=TODAY)  # Ann 1613, Cy 1687 (the test above)
    ids = _ids(engine)
    ann, bob, cy = ids["Ash, Ann"], ids["Birch, Bob"], ids["Cole, Cy"]
    got = _rows(engine, Period(2025, 11))
    listed = list(got.rows.rows())
    assert [(w, b, wr, br, h) for _, _, w, b, wr, br, h in listed] == [
        (ann, bob, 1600, 1800, 1),  # Open, started 30 October: October's list
        (bob, cy, 1800, 1700, 2),
        (ann, cy, 1613, 1687, 0),   # Cup, started in November: November's list
        (cy, bob, 1687, 1800, 0),
    ]
    open_id, cup_id = listed[0][1], listed[2][1]
    assert None not in (open_id, cup_id) and open_id != cup_id
    assert [e for _, e, *_ in listed] == [open_id, open_id, cup_id, cup_id]
    assert got.late == {} and got.left_out == []
