"""The editions of FIDE's rating rules, by the date they took effect (shared/RULES.md §8).

A period is rated under the edition in force on its first day. Periods before 1 January 2022 are
not supported yet and are refused.
"""

from __future__ import annotations

import datetime as dt
import enum

from ledger.domain import Period
from ledger.errors import PeriodError


class Edition(enum.Enum):
    """A rule edition, named by the month it took effect.

    - ``E2022_01``: 1 Jan 2022 - 29 Feb 2024: in each event only the game with the largest rating
      difference (from the player's own point of view) is counted at 400 if above 400.
    - ``E2024_03``: 1 Mar 2024 - 30 Sep 2025: every difference above 400 counts as 400.
    - ``E2025_10``: from 1 Oct 2025 (§8.3.1 amended): as 2024-03, but a player rated 2650 or more
      uses the real difference.
    """

    E2022_01 = "2022-01"
    E2024_03 = "2024-03"
    E2025_10 = "2025-10"

    @property
    def effective(self) -> dt.date:
        """First day the edition applies."""
        year, month = self.value.split("-")
        return dt.date(int(year), int(month), 1)

    @classmethod
    def parse(cls, text: str) -> Edition:
        """Edition from its stored name (``"2024-03"``); raises ``ValueError`` for an unknown one."""
        return cls(text)


def edition_for(period: Period) -> Edition:
    """The edition in force on the first day of ``period``.

    Raises ``PeriodError`` for a period before 2022-01 (older editions are not implemented).
    """
    start = period.start
    for edition in sorted(Edition, key=lambda e: e.effective, reverse=True):
        if start >= edition.effective:
            return edition
    raise PeriodError(
        f"period {period}: rule editions before 1 January 2022 are not supported yet; "
        "the ledger can close periods from 2022-01 on"
    )


#: The period whose close publishes the 1 March 2024 list, the one list on which FIDE raised every
#: rating below 2000 (shared/RULES.md §8).
RAISE_2024_PERIOD = Period(2024, 2)
RAISE_2024_CEILING = 2000


def list_adjustment(closed: Period, rating: int) -> int:
    """Points added to ``rating`` on the list published by closing ``closed``.

    Only the 1 March 2024 list (closing 2024-02): a rating R below 2000 was raised once by
    round(0.4 x (2000 - R)); 0.4 x an integer never ends in .5, so the rounding has no tie.
    Every other list: 0. ``list_adjustment(Period(2024, 2), 1600) == 160``.
    """
    if closed != RAISE_2024_PERIOD or rating >= RAISE_2024_CEILING:
        return 0
    return (4 * (RAISE_2024_CEILING - rating) + 5) // 10
