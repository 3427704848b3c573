"""A player's state from their history (``services.close.state``): ``History.state`` and ``rating``
walk the entries and results once each, and ``closed_state`` gives the state on the list a close
publishes from the state before it and the close's outcome, without walking the history again
(the close asks it of every player). Values worked by hand in the comments."""

from __future__ import annotations

import dataclasses

import pytest

from ledger.domain import Period, PlayerState
from ledger.errors import InvalidInput
from ledger.rules.closing import ClosedResult, closed_state, new_result, new_state
from ledger.services.close.state import Entry, History

P = Period.parse


def _history() -> History:
    # an entry from the start (2150, 12 prior games, never 2300), a correction in force from
    # 2026-05 (2310), a history-only entry from 2026-07 (prior games 20, its rating never in
    # force); results: 2026-05 (4 games -> 2322), 2026-06 (3 games -> 2291)
    return History(2008, [
        Entry(1, None, 2150, 12, False, False),
        Entry(2, P("2026-05"), 2310, 12, False, False, kind="correction"),
        Entry(3, P("2026-07"), 2999, 20, False, False, kind="history"),
    ], [ClosedResult(P("2026-05"), 4, 2322), ClosedResult(P("2026-06"), 3, 2291)])


def test_rating_and_state_from_entries_and_results() -> None:
    h = _history()
    # for 2026-05: the 2026-05 correction (2310) is in force; no result before 2026-05
    assert h.rating(P("2026-05")) == 2310
    # for 2026-06: the 2026-05 result (in force from 2026-06: 2322) beats the correction
    assert h.rating(P("2026-06")) == 2322
    # for 2026-08: the latest entry is the history one (prior 20); games 20 + 4 + 3 = 27;
    # rating: the 2026-06 result, 2291 (the history entry brings none); 2310 and 2322 >= 2300
    assert h.state(P("2026-08")) == PlayerState(2291, 2008, 27, False, True)
    # the list closing 2026-05 (results through 2026-05): 2322; games 12 + 4 = 16
    assert h.state(P("2026-05"), results_through=P("2026-05")) == PlayerState(
        2322, 2008, 16, False, True)
    # for 2026-01: only the first entry: 2150, 12 games, nothing reached
    assert h.state(P("2026-01")) == PlayerState(2150, 2008, 12, False, False)


def test_an_entry_in_force_the_month_a_result_is_beats_it() -> None:
    # a result of 2026-04 (in force from 2026-05) and an entry from 2026-05: the entry wins
    h = History(None, [Entry(1, P("2026-05"), 2405, None, False, False)],
                [ClosedResult(P("2026-04"), 5, 2380)])
    # prior games unknown (None) -> rated games unknown; 2405 >= 2400
    assert h.state(P("2026-05")) == PlayerState(2405, None, None, True, True)


def test_closed_state_is_the_state_through_the_closed_period() -> None:
    h = _history()
    before = h.state(P("2026-08"))  # 2291, 27 games (see above)
    # closing 2026-08: a result (6 games -> 2412), then a list adjustment (-> 2420, order 1)
    outcome = [ClosedResult(P("2026-08"), 6, 2412), ClosedResult(P("2026-08"), 0, 2420, order=1)]
    # rating: the adjustment (latest by order), 2420; games 27 + 6 + 0 = 33; 2412 >= 2400
    expected = PlayerState(2420, 2008, 33, True, True)
    assert closed_state(before, outcome) == expected
    h.results.extend(outcome)
    assert h.state(P("2026-08"), results_through=P("2026-08")) == expected


def test_closed_state_of_a_drop_and_of_no_outcome() -> None:
    before = PlayerState(1010, 1990, 40, False, False)
    # a result (2 games -> 990) then a drop below the floor (order 2): unrated; 42 games
    assert closed_state(before, [ClosedResult(P("2026-08"), 2, 990),
                                 ClosedResult(P("2026-08"), 0, None, order=2)]) == PlayerState(
        None, 1990, 42, False, False)
    # nothing closed for the player: the state before
    assert closed_state(before, []) is before


def test_closed_state_of_a_result_alone() -> None:
    before = PlayerState(2380, 2001, 30, False, True)
    # closing 2026-08 with one result: 9 games -> 2404: rating 2404, 30 + 9 = 39 games, 2400
    assert closed_state(before, [ClosedResult(P("2026-08"), 9, 2404)]) == PlayerState(
        2404, 2001, 39, True, True)
    # unknown games stay unknown; 2299 reaches neither 2300 nor 2400
    assert closed_state(PlayerState(2250, None, None, False, False),
                        [ClosedResult(P("2026-08"), 4, 2299)]) == PlayerState(
        2299, None, None, False, False)
    # 2300 exactly reaches 2300, not 2400; a result kept below 2300 keeps a 2300 reached
    assert closed_state(PlayerState(2290, 2008, 12, False, False),
                        [ClosedResult(P("2026-08"), 3, 2300)]) == PlayerState(
        2300, 2008, 15, False, True)
    assert closed_state(PlayerState(2310, 2008, 12, True, True),
                        [ClosedResult(P("2026-08"), 3, 2290)]) == PlayerState(
        2290, 2008, 15, True, True)


def test_closed_state_of_a_drop_or_an_adjustment_alone() -> None:
    before = PlayerState(1010, 1990, 40, False, True)
    # a drop below the floor alone (no game): unrated, the games and the flags kept
    assert closed_state(before, [ClosedResult(P("2026-08"), 0, None, order=2)]) == PlayerState(
        None, 1990, 40, False, True)
    # a list adjustment alone (0 games) to 1014
    assert closed_state(before, [ClosedResult(P("2026-08"), 0, 1014, order=1)]) == PlayerState(
        1014, 1990, 40, False, True)


def test_new_state_is_the_dataclass_value_and_checks_as_it_does() -> None:
    made = new_state(2310, None, None, True, False)
    assert made == PlayerState(rating=2310, birth_year=None, rated_games=None,
                               reached_2400=True, reached_2300=False)
    assert (made.rating, made.birth_year, made.rated_games) == (2310, None, None)
    assert (made.reached_2400, made.reached_2300) == (True, False)
    assert hash(made) == hash(PlayerState(2310, None, None, True, False))
    with pytest.raises(InvalidInput, match="rating: -5 is negative"):
        new_state(-5, 2008, 0, False, False)
    with pytest.raises(InvalidInput, match="rated games: -1 is negative"):
        new_state(None, 2008, -1, False, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rating = 2000  # type: ignore[misc]


def test_new_result_is_the_dataclass_value() -> None:
    made = new_result(P("2026-05"), 4, 2322)
    assert made == ClosedResult(P("2026-05"), 4, 2322, order=0)
    assert (made.period, made.games, made.rating_after, made.order) == (P("2026-05"), 4, 2322, 0)
    assert new_result(P("2026-06"), 0, None, 2) == ClosedResult(P("2026-06"), 0, None, order=2)
    assert hash(made) == hash(ClosedResult(P("2026-05"), 4, 2322))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.games = 5  # type: ignore[misc]
