"""The date today, read in one place: the close asks it whether a period has ended
(``services.close.periods``), and ``list --preview`` which period the close would publish.

Tests fix the date by replacing ``today`` (``monkeypatch.setattr(clock, "today", ...)``); the
rules never read it (docs/DESIGN.md: no clock in ``rules``).
"""

from __future__ import annotations

import datetime as dt


def today() -> dt.date:
    """The local date today (``datetime.date.today``)."""
    return dt.date.today()
