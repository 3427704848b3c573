"""A CSV row read the usual way (``games_csv._RowReader``'s short path: date, white, black and
result only) gives the same game, values and places, as the full path (``_game``)."""

from __future__ import annotations

import datetime as dt

from ledger.domain import Result
from ledger.formats.games_csv import read_csv


def test_usual_row_values_and_places() -> None:
    readout = read_csv("g.csv", b"date,white,black,result\n2026-09-04,Ann A,Bob B,1/2-1/2\n")
    (g,) = readout.games
    assert (g.line, g.date, g.result, g.played) == (2, dt.date(2026, 9, 4), Result.DRAW, True)
    assert (g.event, g.round, g.site, g.event_start, g.event_end, g.details) == (None,) * 6
    assert (g.time_control, g.time_control_unit, g.white_time_control, g.black_time_control,
            g.pool) == (None, "minutes", None, None, None)
    assert [g.where(k) for k in ("result", "date", "time_control", "pool", "event", "round")] == [
        (2, "result"), (2, "date"), (2, "time_control"), (2, "pool"), (2, "event"), (2, "round")]
    assert (g.white.name, g.black.name, g.white.fide_id, g.white.rating) == (
        "Ann A", "Bob B", None, None)
    assert [g.white.where(k) for k in ("name", "fide_id", "rating")] == [
        (2, "white"), (2, "white_fide_id"), (2, "white")]
    assert [g.black.where(k) for k in ("name", "fide_id", "title")] == [
        (2, "black"), (2, "black_fide_id"), (2, "black")]


def test_full_path_row_has_the_same_places() -> None:
    readout = read_csv("g.csv", b"date,white,black,result,event\n"
                       b"2026-09-04,Ann A,Bob B,1-0,Club\n")
    (g,) = readout.games
    assert g.event == "Club"
    assert [g.where(k) for k in ("result", "date", "time_control", "pool", "round")] == [
        (2, "result"), (2, "date"), (2, "time_control"), (2, "pool"), (2, "round")]
    assert [g.white.where(k) for k in ("name", "fide_id")] == [(2, "white"), (2, "white_fide_id")]
