"""Inactivity on a rating list (docs/RULES.md §6; FIDE B.02 §7.1.3): the ``i`` flag.

A player with no rated game for 12 months is flagged inactive on the list; the rating itself does
not change, and one rated game makes the player active again. Pure arithmetic on rating periods.
"""

from __future__ import annotations

from ledger.domain import Period

#: Rating periods (months) without a rated game after which a listed player is inactive.
INACTIVE_AFTER_PERIODS = 12


def months_before(period: Period, months: int) -> Period:
    """The period ``months`` (>= 0) calendar months before ``period``.

    ``months_before(Period(2026, 1), 12) == Period(2025, 1)``. Raises ``ValueError`` for a
    negative count.
    """
    if months < 0:
        raise ValueError(f"months must be >= 0, got {months}")
    index = period.year * 12 + period.month - 1 - months
    return Period(index // 12, index % 12 + 1)


def is_inactive(list_period: Period, last_rated: Period | None, listed_since: Period) -> bool:
    """Whether a player is flagged inactive on the list published by closing ``list_period``.

    - ``last_rated``: the latest period up to ``list_period`` in which the player had a rated
      game (None: none in the ledger);
    - ``listed_since``: the first period the player held a published rating in the ledger (their
      entry with a rating, or the period after their first published initial rating).

    Inactive when the 12 periods ending with ``list_period`` hold no rated game of theirs, and the
    player held a published rating in the ledger for all 12 of them (the clock starts at entry).
    Example: a game in 2025-01 and none after: active on the 2025-12 list, inactive on 2026-01's.
    """
    window_start = months_before(list_period, INACTIVE_AFTER_PERIODS - 1)
    if listed_since > window_start:
        return False
    return last_rated is None or last_rated < window_start
