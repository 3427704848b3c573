"""What every rating-list writer reads: the list's heading and one record per listed player.

The writers (``rating_list_txt``, ``rating_list_csv``, ``rating_list_html``) are pure: records in,
text out, no database, clock or I/O. A service's list row satisfies ``ListedPlayer`` as it is.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Protocol

from ledger.domain import STANDARD, Period, RatingPool


class ListedPlayer(Protocol):
    """One line of a published rating list, as the writers read it.

    ``rank`` (1-based; equal ratings share one), ``fide_id`` (None: no FIDE id), ``name``
    ("Surname, Name"), ``federation`` (three letters or None), ``sex`` ("M", "F" or None),
    ``title`` (GM, IM, FM, CM, WGM, WIM, WFM, WCM or None), ``rating`` (the published rating),
    ``games`` (rated games in the period), ``k`` (the K-factor for the next period),
    ``birth_year`` (or None), ``inactive`` (flagged ``i``: no rated game in the last 12 rating
    periods, docs/RULES.md §6).
    """

    @property
    def rank(self) -> int: ...
    @property
    def fide_id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def federation(self) -> str | None: ...
    @property
    def sex(self) -> str | None: ...
    @property
    def title(self) -> str | None: ...
    @property
    def rating(self) -> int: ...
    @property
    def games(self) -> int: ...
    @property
    def k(self) -> int: ...
    @property
    def birth_year(self) -> int | None: ...
    @property
    def inactive(self) -> bool: ...


@dataclass(frozen=True)
class ListHeading:
    """The heading of a published list: the closed ``period`` and the date it is in force from
    (the 1st of the next month, FIDE B.02 §7.1); ``title`` is the club's name for pages;
    ``pool`` the rating pool of the list (docs/RULES.md §9); ``preview``: not published, the
    list a close would publish today (``ledger list --preview``: a page says so); ``digest``:
    the list's manifest digest (docs/VERIFY.md, 64 hex digits; None: not shown)."""

    period: Period
    in_force_from: dt.date
    title: str = "Rating list"
    pool: RatingPool = STANDARD
    preview: bool = False
    digest: str | None = None


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def month_column(heading: ListHeading) -> str:
    """The rating column's name on FIDE's single lists (the 2013 rapid and blitz files, e.g.
    ``blitz_may13frl.txt``): the list's month and two-digit year, ``may13``."""
    day = heading.in_force_from
    return f"{_MONTHS[day.month - 1]}{day.year % 100:02d}"


def women_title(title: str | None) -> str | None:
    """The title for FIDE's ``WTit`` column: a women's title (WGM, WIM, WFM, WCM), else None."""
    return title if title is not None and title.startswith("W") else None


def flag(player: ListedPlayer) -> str:
    """FIDE's list ``Flag``: ``w`` for a woman, ``i`` for an inactive player, ``wi`` for both
    (as FIDE's own lists write it), else empty."""
    return ("w" if player.sex == "F" else "") + ("i" if player.inactive else "")
