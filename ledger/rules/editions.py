"""The editions of FIDE's rating rules, by the date they took effect (docs/RULES.md §8).

A period is rated under the edition in force on its first day. Periods before 1 January 2022 are
not supported yet and are refused.
"""

from __future__ import annotations

import datetime as dt
import enum

from ledger.domain import Period
from ledger.errors import PeriodError


class InitialMethod(enum.Enum):
    """The edition's formula for an initial rating Ru (docs/RULES.md §6, §8).

    - ``TWO_1800_DRAWS`` (since 1 March 2024): two hypothetical opponents rated 1800, both drawn;
      Ru = Ra + dp(p) over n + 2 games.
    - ``RA_PLUS_20`` (1 Jan 2022 - 29 Feb 2024): Ra of the rated opponents only; at 50 % or more,
      Ru = Ra + 20 per half point above 50 %; below 50 %, Ru = Ra + dp(p).
    """

    TWO_1800_DRAWS = "two-1800-draws"
    RA_PLUS_20 = "ra-plus-20"


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

    @property
    def rating_floor(self) -> int:
        """The lowest published rating (§7.1.4, §8.2.3; docs/RULES.md §6, §8): 1000 before
        1 March 2024, 1400 since. A rating below it makes the player unrated from the next list,
        and an initial rating below it is not published."""
        return 1000 if self is Edition.E2022_01 else 1400

    @property
    def initial_method(self) -> InitialMethod:
        """How an unrated player's initial rating Ru is computed (§8.2; docs/RULES.md §6, §8)."""
        if self is Edition.E2022_01:
            return InitialMethod.RA_PLUS_20
        return InitialMethod.TWO_1800_DRAWS

    @property
    def initial_cap(self) -> int | None:
        """The most an initial rating may be (2200 since 1 March 2024; None: no cap)."""
        return None if self is Edition.E2022_01 else 2200

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
#: rating below 2000 (docs/RULES.md §8).
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
