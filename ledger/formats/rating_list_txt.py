"""A rating list as FIDE's fixed-column TXT list (the single-list layout of FIDE's 2013 files).

Layout (tests/data/README.md, "FIDE rating list layouts"; checked against the official
``blitz_may13frl.txt``): every line is 132 characters, ``\\n``-terminated; each column starts where
its header token starts (0-based): ``ID Number`` 0, ``Name`` 15, ``Fed`` 76, ``Sex`` 80, ``Tit`` 84,
``WTit`` 89, ``OTit`` 94, the rating 109 (headed by the list's month, e.g. ``dec26`` for the list of
1 December 2026), ``Gms`` 115, ``K`` 119, ``B-day`` 122, ``Flag`` 128. Values are left-aligned and
padded with spaces, so a tool that reads FIDE lists by their header reads this one.

Departures a reader may notice: ``ID Number`` is blank for a player without a FIDE id (the
ledger's FIDE-list import, ``formats.fide_list``, reads a blank ID as exactly that); ``OTit``
(arbiter and trainer titles) is always blank, as the ledger does not record them; a name longer than
60 characters is cut to 60 and control characters in it become spaces, so every line keeps its
columns. ``Flag`` is ``w`` for a woman and ``i`` for an inactive player (``wi`` both), as FIDE
writes it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from ledger.formats.rating_list import ListedPlayer, ListHeading, flag, month_column, women_title

#: (header token, start column); the rating column's token is the list's month.
_RATING = "rating"
COLUMNS: tuple[tuple[str, int], ...] = (
    ("ID Number", 0), ("Name", 15), ("Fed", 76), ("Sex", 80), ("Tit", 84), ("WTit", 89),
    ("OTit", 94), (_RATING, 109), ("Gms", 115), ("K", 119), ("B-day", 122), ("Flag", 128),
)
#: Length of every line, without its ``\n``.
LINE_WIDTH = 132


def rating_column_name(heading: ListHeading) -> str:
    """The rating column's header: the list's month and two-digit year, e.g. ``may13``, in
    every pool, as FIDE's single standard, rapid and blitz lists name it (``month_column``)."""
    return month_column(heading)


def _widths() -> list[int]:
    starts = [start for _, start in COLUMNS] + [LINE_WIDTH]
    return [b - a for a, b in zip(starts, starts[1:], strict=False)]


def _line(cells: list[str]) -> str:
    return "".join(cell.ljust(width) for cell, width in zip(cells, _widths(), strict=True))


def _text(value: str | None, width: int) -> str:
    """A text value fitted into a column: control characters become spaces; cut to leave one
    blank before the next column."""
    if value is None:
        return ""
    clean = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in value)
    return clean[: width - 1].rstrip()


def _number(value: int | None, column: str, width: int) -> str:
    if value is None:
        return ""
    text = str(value)
    if len(text) > width - 1:
        raise ValueError(f"{column}: {value} does not fit FIDE's {width - 1}-character column")
    return text


def header(heading: ListHeading) -> str:
    """The header line (no ``\\n``): the tokens of ``COLUMNS`` at their start columns."""
    return _line([rating_column_name(heading) if name == _RATING else name for name, _ in COLUMNS])


def row(player: ListedPlayer) -> str:
    """One player's line (no ``\\n``), 132 characters.

    Raises ``ValueError`` naming the column when a number does not fit it (e.g. 1,000 games).
    """
    w = dict(zip((name for name, _ in COLUMNS), _widths(), strict=True))
    return _line([
        _number(player.fide_id, "ID Number", w["ID Number"]),
        _text(player.name, w["Name"]),
        _text(player.federation, w["Fed"]),
        _text(player.sex, w["Sex"]),
        _text(player.title, w["Tit"]),
        _text(women_title(player.title), w["WTit"]),
        "",
        _number(player.rating, "rating", w[_RATING]),
        _number(player.games, "Gms", w["Gms"]),
        _number(player.k, "K", w["K"]),
        _number(player.birth_year, "B-day", w["B-day"]),
        flag(player),
    ])


def write(heading: ListHeading, players: Iterable[ListedPlayer]) -> str:
    """The whole list: header, then one line per player in the order given; ``\\n`` line ends,
    a final ``\\n``, as FIDE's files. Raises ``ValueError`` as ``row`` does."""
    lines = [header(heading)] + [row(p) for p in players]
    return "".join(line + "\n" for line in lines)
