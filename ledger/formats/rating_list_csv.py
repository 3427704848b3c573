"""A rating list as CSV: RFC 4180 (Python's ``csv`` module: comma, ``"`` quoting, CRLF line ends),
safe to open in a spreadsheet.

Spreadsheet safety (OWASP, "CSV Injection"): a cell whose text starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return would be read by Excel, LibreOffice or Google Sheets as a formula
(``=HYPERLINK(...)``, ``+1``, ``@SUM(...)``). Such a cell is neutralised by putting a single quote
``'`` in front of it, which spreadsheets show as text; the rest of the cell is kept as it is.
A program reading the file gets the quote too: strip one leading ``'`` before any of those six
characters to recover the original text. Numbers written by the ledger never start with one.

Columns: rank, fide_id, name, title, federation, sex, rating, games (rated games in the period),
k (K for the next period), birth_year, flag (FIDE's list flag: ``w`` woman, ``i`` inactive, ``wi``).
A rapid or blitz list (docs/RULES.md §9) names its rating column after the list's month, as
FIDE's rapid and blitz files do (``dec26``; ``formats.rating_list.month_column``), so the file
says which list it is; the standard list keeps ``rating``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from ledger.formats.rating_list import ListedPlayer, ListHeading, flag, month_column

HEADER = ("rank", "fide_id", "name", "title", "federation", "sex", "rating", "games", "k",
          "birth_year", "flag")
#: First characters that make a spreadsheet read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: str) -> str:
    """``cell`` with a ``'`` in front when it starts with one of ``FORMULA_STARTS``."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def _cell(value: str | int | None) -> str:
    return "" if value is None else neutralise(str(value))


def write(heading: ListHeading, players: Iterable[ListedPlayer]) -> str:
    """The list as CSV text: a header row, then one row per player in the order given.

    ``heading`` is not written (a CSV has no title row); the writers share one signature.
    Every cell passes through ``neutralise``.
    """
    out = io.StringIO(newline="")
    writer = csv.writer(out)  # RFC 4180: QUOTE_MINIMAL, "\r\n", quotes doubled
    writer.writerow(HEADER if heading.pool == "standard" else tuple(
        month_column(heading) if column == "rating" else column for column in HEADER))
    for p in players:
        writer.writerow([_cell(v) for v in (
            p.rank, p.fide_id, p.name, p.title, p.federation, p.sex, p.rating, p.games, p.k,
            p.birth_year, flag(p) or None)])
    return out.getvalue()
