"""What the ledger refuses or reports when games are entered and periods closed: dates it could
never rate, periods not yet ended, events that move to a later period, the status of each game,
and the one-time 1 March 2024 raise shown in a player's history."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import Engine

from ledger.errors import InvalidInput, PeriodError
from ledger.services.close.periods import close_period
from ledger.services.publishing.histories import history
from ledger.services.register.game_views import list_games
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def _players(engine: Engine) -> None:
    add_player(engine, NewPlayer("Player, A", rating=1800, prior_games=100))
    add_player(engine, NewPlayer("Player, B", rating=1700, prior_games=100))
    add_player(engine, NewPlayer("Player, New"))  # unrated


def test_future_date_refused(engine: Engine) -> None:
    _players(engine)
    with pytest.raises(InvalidInput, match=r"date: 2026-12-01 is in the future"):
        add_game(engine, "Player, A", "Player, B", "1-0", "2026-12-01",
                 today=dt.date(2026, 11, 30))
    assert list_games(engine) == []


def test_period_not_ended_cannot_be_closed(engine: Engine) -> None:
    _players(engine)
    # a month in the future would lock every month before it: refused
    with pytest.raises(PeriodError, match="2027-03 has not ended yet"):
        close_period(engine, "2027-03", today=dt.date(2026, 11, 30))
    # a dry run of a month today is not in yet is no preview: refused, without the hint
    with pytest.raises(PeriodError, match=r"2027-03 has not ended yet .* from 2027-04-01$"):
        close_period(engine, "2027-03", dry_run=True, empty=True, today=dt.date(2027, 2, 28))
    add_game(engine, "Player, A", "Player, B", "1-0", "2026-11-02", today=dt.date(2026, 11, 30))
    # 30 November is still part of period 2026-11: it closes from 1 December on
    with pytest.raises(PeriodError, match="2026-11 has not ended yet .* from 2026-12-01"):
        close_period(engine, today=dt.date(2026, 11, 30))
    # a dry run of the month today is in is a preview
    assert close_period(engine, dry_run=True, today=dt.date(2026, 11, 30)).preview is True
    report = close_period(engine, today=dt.date(2026, 12, 1))
    assert report.preview is False
    # D = +100 -> PD .64; 20 x (1 - .64) = +7.2 -> +7
    assert {p.name: p.result.change for p in report.players} == {"Player, A": 7, "Player, B": -7}


def test_event_running_into_next_month_moves_with_a_note(engine: Engine) -> None:
    _players(engine)
    first = add_game(engine, "Player, A", "Player, B", "1-0", "2025-11-28", event="Winter Open",
                     round_="1")
    assert first.period == "2025-11" and first.notes == ()
    second = add_game(engine, "Player, B", "Player, A", "1/2-1/2", "2025-12-02",
                      event="winter open", round_="2")  # names match ignoring case
    assert second.period == "2025-12"
    assert second.notes == ("event 'Winter Open' now ends on 2025-12-02: its 1 earlier game(s) "
                            "move from period 2025-11 to 2025-12",)
    assert [g.period for g in list_games(engine)] == ["2025-12", "2025-12"]


def test_game_status_through_a_close(engine: Engine) -> None:
    _players(engine)
    add_game(engine, "Player, A", "Player, B", "1-0", "2025-11-03")
    add_game(engine, "Player, A", "Player, New", "1-0", "2025-11-04")
    add_game(engine, "Player, B", "Player, A", "+/-", "2025-11-05")
    assert [g.status for g in list_games(engine)] == ["open", "open", "forfeit"]
    close_period(engine, "2025-11")
    # the game against the unrated player is not rated for Player, A (B.02 §8.3.1)
    assert [g.status for g in list_games(engine)] == ["rated", "not rated", "forfeit"]


def test_march_2024_raise_is_a_row_of_its_own_in_history(engine: Engine) -> None:
    add_player(engine, NewPlayer("Player, Left", rating=1600, prior_games=100))
    add_player(engine, NewPlayer("Player, Right", rating=1990, prior_games=100))
    add_game(engine, "Player, Left", "Player, Right", "1-0", "2024-02-10")
    report = close_period(engine, "2024-02")
    # D = 1600 - 1990 = -390 -> band 375-391 -> .91 for Right, .09 for Left
    # Left: 20 x (1 - .09) = +18.2 -> +18 -> 1618; Right: 20 x (0 - .91) = -18.2 -> -18 -> 1972
    assert report.adjustments == 2
    rows = history(engine, "Player, Left").periods
    # 1 March 2024 list: 1618 + round(0.4 x (2000 - 1618)) = 1618 + round(152.8) = 1771
    assert [(r.period, r.games, r.change, r.rating_after, r.note is not None) for r in rows] == [
        ("2024-02", 1, 18, 1618, False), ("2024-02", 0, 153, 1771, True)]
    right = history(engine, "Player, Right").periods
    # 1972 + round(0.4 x 28) = 1972 + round(11.2) = 1983
    assert [r.rating_after for r in right] == [1972, 1983]


def test_import_refuses_future_dates_and_warns_before_2022(engine: Engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A future date is an error; a date before 2022 only a warning (README: games before 2022
    are recorded, their period never rated)."""
    from ledger.errors import ImportRejected
    from ledger.services.imports.games import import_pgn

    _players(engine)
    game = ('[Event "Club"]\n[Date "{date}"]\n[Round "{r}"]\n[White "Player, A"]\n'
            '[Black "Player, B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n')
    pgn = tmp_path / "dates.pgn"
    pgn.write_text(game.format(date="2021.12.30", r=1) + game.format(date="2026.12.01", r=2),
                   encoding="utf-8")
    with pytest.raises(ImportRejected) as rejected:
        import_pgn(engine, str(pgn), today=dt.date(2026, 11, 30))
    # each game is 9 lines; the Date tag is its 2nd line: lines 2 and 11
    assert [(p.line, p.field, p.severity) for p in rejected.value.problems] == [
        (2, "Date", "warning"), (11, "Date", "error")]
    assert "never rated" in rejected.value.problems[0].message
    assert "future" in rejected.value.problems[1].message
    assert list_games(engine) == []
