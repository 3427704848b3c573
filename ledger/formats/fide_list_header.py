"""The header line of a FIDE TXT rating list (pure): the columns it names, where each starts, and
which of them the layout of its era needs.

Sources: the rating list files FIDE publishes at ratings.fide.com/download_lists.phtml, as
described in tests/data/README.md ("FIDE rating list layouts"): fixed columns. The first line
names the columns, and each column starts where its name starts; the offsets are read from that
header line, never assumed, so every era reads the same way: the single lists (one rating column
named after the month, ``may13``, then ``Gms`` and ``K``), the combined lists (``SRtng SGm SK
RRtng RGm Rk BRtng BGm BK``), with or without the ``FOA`` title column, and the older headers
(``ID_NUMBER``, ``TITL``, ``GAMES``, ``BORN``). Columns are characters, not bytes. The header must
name every column of its layout (:func:`read_txt_header`): a token missing would make the values
under it part of the column before it. A tab, or any other C0 control character or DEL, in the
header is an error. The player lines are read at these offsets by ``ledger.formats.fide_list_lines``.
Nothing here raises on bad data: every fault is a :class:`~ledger.errors.Problem`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.errors import Problem
from ledger.formats.fide_list_text import WARNING, control_character

__all__ = ["Column", "TxtHeader", "read_txt_header"]

# Header tokens (compared in upper case) -> the record field they hold. Pool fields are
# (pool, what); "single" is the one rating column of a single list, whatever pool it is.
_IDENTITY_COLUMNS = {
    "ID": "fide_id", "ID_NUMBER": "fide_id", "IDNUMBER": "fide_id", "NAME": "name",
    "FED": "federation", "SEX": "sex", "TIT": "title", "TITL": "title", "TITLE": "title",
    "WTIT": "w_title", "OTIT": "o_title", "FOA": "foa_title", "B-DAY": "birth_year",
    "BDAY": "birth_year", "BORN": "birth_year", "FLAG": "flag",
}
_POOL_COLUMNS: dict[str, tuple[str, str]] = {
    "SRTNG": ("standard", "rating"), "SGM": ("standard", "games"), "SK": ("standard", "k"),
    "RRTNG": ("rapid", "rating"), "RGM": ("rapid", "games"), "RK": ("rapid", "k"),
    "BRTNG": ("blitz", "rating"), "BGM": ("blitz", "games"), "BK": ("blitz", "k"),
    "GMS": ("single", "games"), "GAMES": ("single", "games"), "GAME": ("single", "games"),
    "K": ("single", "k"),
}
#: The columns each TXT layout needs, as (record field, header token as FIDE prints it); None:
#: the single list's rating column, named after the month (``may13``). Without one of them the
#: values under it would be read as part of the column before it (a name "Carlsen, Magnus NOR").
_Needs = tuple[tuple[str | tuple[str, str], str | None], ...]
_TITLES_NEEDED: _Needs = (("fide_id", "ID Number"), ("name", "Name"), ("federation", "Fed"),
                          ("sex", "Sex"), ("title", "Tit"), ("w_title", "WTit"),
                          ("o_title", "OTit"))
_POOLS_NEEDED: _Needs = tuple(
    ((pool, what), token) for pool, tokens in (("standard", ("SRtng", "SGm", "SK")),
                                               ("rapid", ("RRtng", "RGm", "Rk")),
                                               ("blitz", ("BRtng", "BGm", "BK")))
    for what, token in zip(("rating", "games", "k"), tokens, strict=True))
_END_NEEDED: _Needs = (("birth_year", "B-day"), ("flag", "Flag"))
_LAYOUTS_NEEDED: dict[str, _Needs] = {
    "a combined list with FOA": _TITLES_NEEDED + (("foa_title", "FOA"),) + _POOLS_NEEDED
    + _END_NEEDED,
    "a combined list": _TITLES_NEEDED + _POOLS_NEEDED + _END_NEEDED,
    "a single list": _TITLES_NEEDED + ((("single", "rating"), None), (("single", "games"), "Gms"),
                                       (("single", "k"), "K")) + _END_NEEDED,
    # the lists before the single list above: no Sex, WTit, OTit or K column
    "an older single list": (("fide_id", "ID_NUMBER"), ("name", "NAME"), ("title", "TITL"),
                             ("federation", "FED"), (("single", "rating"), None),
                             (("single", "games"), "GAMES"), ("birth_year", "BORN"),
                             ("flag", "FLAG")),
}
#: Fields only the single list of today's era has, not the older one.
_NEWER_SINGLE = ("sex", "w_title", "o_title", ("single", "k"))
_MONTH_TOKEN = re.compile(r"(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)([0-9]{2})", re.I)
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


@dataclass(frozen=True)
class Column:
    """One TXT column: record field (or (pool, what)), header token, 0-based start and end."""

    key: str | tuple[str, str]
    token: str
    start: int
    end: int | None

    def label(self, at: int | None = None) -> str:
        """The field of a problem in this column: ``Name (column 16)``; ``at``: the 0-based
        offset where the column is on a line whose values moved (default: the header's)."""
        return f"{self.token} (column {(self.start if at is None else at) + 1})"


def _header_columns(header: str) -> tuple[list[Column], list[str]]:
    """The columns a header line names, and the tokens it has that no column here knows."""
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
    found: list[tuple[str | tuple[str, str], str, int]] = []
    unknown: list[str] = []
    for i, (start, token) in enumerate(tokens):
        upper = token.upper()
        if upper == "NUMBER" and i > 0 and tokens[i - 1][1].upper() == "ID":
            continue  # "ID Number" is one column
        key: str | tuple[str, str] | None = _IDENTITY_COLUMNS.get(upper) or _POOL_COLUMNS.get(upper)
        if key is None and _MONTH_TOKEN.fullmatch(token):
            key = ("single", "rating")
        if key is None:
            unknown.append(token)
            key = ("unknown", token)
        found.append((key, token, start))
    columns = [Column(key, token, start, found[i + 1][2] if i + 1 < len(found) else None)
               for i, (key, token, start) in enumerate(found)]
    return columns, unknown


def _missing_columns(by_key: dict[str | tuple[str, str], Column],
                     rating_column: str | None) -> str | None:
    """The error for a header that lacks a column its layout needs (see
    :func:`read_txt_header`), or None. ``rating_column``: a single list's (``may13``)."""
    if rating_column is None:
        layout = "a combined list with FOA" if "foa_title" in by_key else "a combined list"
    elif any(key in by_key for key in _NEWER_SINGLE):
        layout = "a single list"
    else:
        layout = "an older single list"
    needs = _LAYOUTS_NEEDED[layout]
    absent = [token for key, token in needs if key not in by_key and token is not None]
    if not absent:
        return None
    tokens = ", ".join(token or rating_column or "" for _, token in needs)
    return (f"no {' and no '.join(absent)} column: the header of {layout} has {tokens}; the "
            "values under a missing token would be read as part of the column before it")


@dataclass(frozen=True)
class TxtHeader:
    """What the header line of a TXT list says, for one pool.

    ``line``: its 1-based line; ``columns``: every column it names, in order; ``wanted``: record
    field (``fide_id``, ``name`` ... ``rating``, ``games``, ``k``) -> the column holding it for the
    pool read; ``needed``: the ``wanted`` columns a player line must reach (all but ``Flag``), in
    order; ``flag``: the Flag column (a line that ends before it is a warning);
    ``rating_column``: a single list's rating column as printed (``may13``), None for a combined
    list; ``list_month``: the (year, month) that name stands for; ``has_foa``: a ``FOA`` column;
    ``cuts``: (field, start, end, label) of each ``wanted`` column, and ``boundaries``: the start
    of every column but the first, both to read a line at the header's offsets.
    """

    line: int
    columns: list[Column]
    wanted: dict[str, Column]
    needed: tuple[Column, ...]
    flag: Column | None
    rating_column: str | None
    list_month: tuple[int, int] | None
    has_foa: bool
    cuts: tuple[tuple[str, int, int | None, str], ...]
    boundaries: tuple[int, ...]


def read_txt_header(lines: list[str], file: str, pool: str,
                    problems: list[Problem]) -> TxtHeader | None:
    """The header of a TXT list (its first non-blank line) for ``pool`` (``standard``, ``rapid``
    or ``blitz``; a single list's one rating column whatever ``pool`` says). None, with an error
    in ``problems``, when the file is empty or the line has no ``ID Number`` or ``Name`` column, no
    rating column for ``pool``, or lacks a column its layout needs (one error naming every token
    missing): a combined list (with or without ``FOA``: its presence tells the two apart) needs
    ``ID Number, Name, Fed, Sex, Tit, WTit, OTit, [FOA,] SRtng, SGm, SK, RRtng, RGm, Rk, BRtng,
    BGm, BK, B-day, Flag``, a single list ``ID Number, Name, Fed, Sex, Tit, WTit, OTit``, the
    month, ``Gms, K, B-day, Flag``, and an older single list (none of ``Sex, WTit, OTit, K``)
    ``ID_NUMBER, NAME, TITL, FED``, the month, ``GAMES, BORN, FLAG`` (any spelling this reader
    knows for each). A column this reader does not know is a warning."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        problems.append(Problem(file, None, "header", "the file is empty: no header, no players"))
        return None
    header_line = first + 1
    control = control_character(lines[first])
    if control is not None:
        problems.append(Problem(file, header_line, "header", control[1]))
        return None
    columns, unknown = _header_columns(lines[first])
    by_key = {c.key: c for c in columns}
    missing = [name for key, name in (("fide_id", "ID Number"), ("name", "Name"))
               if key not in by_key]
    if missing:
        problems.append(Problem(file, header_line, "header", "no header line: a FIDE TXT list "
                                "starts with the column names (ID Number, Name, Fed, ... B-day, "
                                f"Flag); this line has no {' and no '.join(missing)} column"))
        return None
    single = ("single", "rating") in by_key
    which = "single" if single else pool
    if (which, "rating") not in by_key:
        problems.append(Problem(file, header_line, "header", f"no rating column for the {pool} "
                                "pool (SRtng, RRtng or BRtng, or a month such as may13)"))
        return None
    rating_column = by_key[(which, "rating")].token if single else None
    lacking = _missing_columns(by_key, rating_column)
    if lacking is not None:
        problems.append(Problem(file, header_line, "header", lacking))
        return None
    for token in unknown:
        problems.append(Problem(file, header_line, "header",
                                f"unknown column {token!r}: ignored", WARNING))
    month = _MONTH_TOKEN.fullmatch(rating_column) if rating_column else None
    list_month = (_century(int(month.group(2))), _MONTHS.index(month.group(1).upper()) + 1) \
        if month else None
    wanted: dict[str, Column] = {}
    for c in columns:
        if isinstance(c.key, str):
            wanted[c.key] = c
        elif c.key[0] == which:
            wanted[c.key[1]] = c
    # Every column a line must reach: all it reads but the Flag, the last column.
    needed = tuple(sorted((c for key, c in wanted.items() if key != "flag"),
                          key=lambda c: c.start))
    return TxtHeader(header_line, columns, wanted, needed, wanted.get("flag"), rating_column,
                     list_month,
                     "foa_title" in by_key,
                     tuple((key, c.start, c.end, c.label()) for key, c in wanted.items()),
                     tuple(c.start for c in columns[1:]))


def _century(yy: int) -> int:
    """The year of a two-digit list month (``jul09`` -> 2009; FIDE's lists began in 1971)."""
    return 1900 + yy if yy >= 70 else 2000 + yy


