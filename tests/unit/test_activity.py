"""The inactivity flag (docs/RULES.md §6): boundary months worked by hand."""

from __future__ import annotations

import pytest

from ledger.domain import Period
from ledger.rules.activity import is_inactive, months_before


def test_months_before_crosses_years() -> None:
    assert months_before(Period(2026, 1), 12) == Period(2025, 1)
    assert months_before(Period(2026, 1), 11) == Period(2025, 2)
    assert months_before(Period(2026, 3), 26) == Period(2024, 1)
    assert months_before(Period(2026, 3), 0) == Period(2026, 3)
    with pytest.raises(ValueError):
        months_before(Period(2026, 3), -1)


def test_last_game_twelve_periods_back_is_still_active() -> None:
    # a game in 2025-01; the 12 periods ending with 2025-12 are 2025-01 .. 2025-12: active
    assert not is_inactive(Period(2025, 12), Period(2025, 1), Period(2024, 6))
    # the 12 periods ending with 2026-01 are 2025-02 .. 2026-01: no game -> inactive
    assert is_inactive(Period(2026, 1), Period(2025, 1), Period(2024, 6))


def test_one_game_clears_the_flag() -> None:
    assert not is_inactive(Period(2026, 3), Period(2026, 3), Period(2024, 6))


def test_clock_starts_at_entry() -> None:
    # entered with a rating in force from 2025-02, never played: 2025-12's window starts 2025-01,
    # before the entry -> active; 2026-01's window 2025-02 .. 2026-01 all after entry -> inactive
    assert not is_inactive(Period(2025, 12), None, Period(2025, 2))
    assert is_inactive(Period(2026, 1), None, Period(2025, 2))
