"""``services.imports.written``: the filter of the pair-days an import has written (issue 14:
an import's duplicate checks hold nothing per game). Values by hand."""

from __future__ import annotations

import datetime as dt

from ledger.services.imports.written import FEWEST_BITS, MOST_BITS, PairDays, pair_day, pair_days


def test_a_pair_day_is_the_same_for_either_colours() -> None:
    # ids 7 and 3 on 2025-11-05: (3, 7, ordinal). 0001-01-01 is day 1: years 1..2024 are
    # 2024 x 365 + 491 leap days (506 - 20 + 5) = 739,251; 2025 to 31 October 304, + 5 = 739,560
    assert pair_day(7, 3, dt.date(2025, 11, 5)) == pair_day(3, 7, dt.date(2025, 11, 5))
    assert pair_day(7, 3, dt.date(2025, 11, 5)) == (3, 7, 739560)


def test_the_filter_holds_every_day_added_and_none_when_empty() -> None:
    days = [pair_day(w, w + 1, dt.date(2025, 11, 1) + dt.timedelta(days=w % 30))
            for w in range(1, 2001)]
    empty = PairDays(2000)
    assert not any(empty.may_hold(day) for day in days)
    held = PairDays(2000)
    for day in days[:1000]:
        held.add(day)
    assert all(held.may_hold(day) for day in days[:1000])
    # 1,000 days in 65,536 bits (2,000 x 16 = 32,000: the fewest bits), 4 probes: a false hit
    # is (1 - e^(-4 x 1000 / 65536))^4 = 0.059^4, about 1 in 80,000: none of the other 1,000
    assert not any(held.may_hold(day) for day in days[1000:])


def test_the_filter_is_sized_by_the_file_within_its_bounds() -> None:
    # 16 bits a game, a power of 2: 10,000 games -> 160,000 -> 262,144 bits = 32,768 bytes
    assert len(PairDays(10_000)._bits) == 262_144 // 8
    assert len(PairDays(0)._bits) == FEWEST_BITS // 8 == 8192
    assert len(PairDays(10**9)._bits) == MOST_BITS // 8 == 16 * 1024 * 1024


def test_pair_days_of_a_batch_by_game() -> None:
    from types import SimpleNamespace as Ns
    a = Ns(date=dt.date(2025, 11, 5))
    b = Ns(date=dt.date(2025, 11, 6))
    games = [(a, Ns(id=7), Ns(id=3)), (b, Ns(id=3), Ns(id=7))]
    # 2025-11-05 is day 739,560 (above), the 6th the next
    assert pair_days(games) == {id(a): (3, 7, 739560), id(b): (3, 7, 739561)}


def test_holding_is_may_hold_of_each_in_order() -> None:
    days = [(w, w + 1, 739560 + w % 30) for w in range(1, 2001)]
    held = PairDays(2000)
    held.add_all(days[:1000:2])
    asked = days[:1000][::-1]
    assert held.holding(asked) == [day for day in asked if held.may_hold(day)] == days[998::-2]
