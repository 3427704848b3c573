"""``close.in_force.latest_ratings``: the rating in force picked from the rows that set it, as
``History.rating`` picks it (issue 25: the import's rating checks without histories)."""

from __future__ import annotations

from ledger.domain import Period
from ledger.services.close.in_force import ADJUSTMENT, DROP, ENTRY, RESULT, latest_ratings

JAN, FEB, DEC, NEXT_JAN = Period(2026, 1), Period(2026, 2), Period(2026, 12), Period(2027, 1)

ROWS = [
    # 1: an entry from the start, then January's result (in force from February)
    (1, RESULT, "2026-01", 0, 1850), (1, ENTRY, None, 5, 1800),
    # 2: an entry in force from February and January's result: the entry wins the month
    (2, ENTRY, "2026-02", 7, 2000), (2, RESULT, "2026-01", 0, 1900),
    # 3: January's result and initial rating (tie-break -1): the result
    (3, RESULT, "2026-01", -1, 1600), (3, RESULT, "2026-01", 0, 1500),
    # 4: January's adjustment and drop below the floor: the drop (unrated)
    (4, ADJUSTMENT, "2026-01", 0, 1450), (4, DROP, "2026-01", 0, None),
    # 5: two entries from January: the later one (higher id)
    (5, ENTRY, "2026-01", 9, 2150), (5, ENTRY, "2026-01", 8, 2100),
    # 7: December's result, in force from the next January
    (7, RESULT, "2026-12", 0, 1700),
]


def test_the_row_in_force_latest_wins_as_a_history_picks_it() -> None:
    found = latest_ratings(ROWS, [JAN, FEB, DEC, NEXT_JAN], [1, 2, 3, 4, 5, 6, 7])
    assert found[JAN] == {1: 1800, 2: None, 3: None, 4: None, 5: 2150, 6: None, 7: None}
    assert found[FEB] == {1: 1850, 2: 2000, 3: 1500, 4: None, 5: 2150, 6: None, 7: None}
    assert found[DEC] == found[FEB]
    assert found[NEXT_JAN] == {1: 1850, 2: 2000, 3: 1500, 4: None, 5: 2150, 6: None, 7: 1700}


def test_no_period_asked_gives_nothing_and_no_row_gives_unrated() -> None:
    assert latest_ratings(ROWS, [], [1]) == {}
    assert latest_ratings([], [FEB], [1, 2]) == {FEB: {1: None, 2: None}}
