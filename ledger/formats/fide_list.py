"""Read FIDE rating lists, TXT of every era and XML, into player records plus problems (pure).

Sources: the rating list files FIDE publishes at ratings.fide.com/download_lists.phtml, as
described in tests/data/README.md ("FIDE rating list layouts"): TXT in fixed columns, whose
header line gives each column's offset, and XML (``<playerslist>`` of ``<player>`` elements).
The bytes are decoded and split into lines by ``ledger.formats.fide_list_text``, a TXT list's
header columns and their offsets read by ``fide_list_header``, each player line's cells by
``fide_list_lines``, an XML list's elements by ``fide_list_xml``; this module checks each player's
cells into a :class:`ListPlayer`, one pool's rating, games and K, and tells the list's layout.

A rating of 0 or blank is unrated (None); birth data is the year only (``0000`` is unknown).
A flag is one of FIDE's, exactly: blank, ``i``, ``w`` or ``wi`` (any other, ``iw`` or ``W``
included, is an error naming its line and column).
A combined list's Flag column (``w`` woman, ``i`` inactive) describes the standard list: read for
the rapid or blitz pool, a player's flag keeps the ``w`` and leaves the ``i`` out. A ``w`` with a
blank Sex gives sex ``F``; with Sex ``M`` it is a warning (``M`` kept).
Nothing here raises on bad data: every fault is a :class:`~ledger.errors.Problem` (file, 1-based
line, field with its 1-based column for TXT, message, severity). A player line with an error is
left out of :attr:`FideListReadout.players`. A list without a player line (a TXT list that is only
its header, a ``<playerslist>`` without ``<player>``) is an error, as an empty file is.

A blank ID is a player without a FIDE id (FIDE's own lists always print one; the ledger's TXT
list leaves it blank for a club player without one); a malformed ID stays an error, and so does
a second line without FIDE id whose name and birth year do not tell it from an earlier one.

>>> text = ("ID Number      Name            Fed Sex Tit  WTit OTit  may13 Gms K  B-day Flag\\n"
...         "5500222        Abbes, Ali      TUN M   CM   FI         2075  8   20 1973      \\n")
>>> readout = read_fide_list(text.encode(), "may13.txt", pool="blitz")
>>> p = readout.players[0]
>>> p.fide_id, p.name, p.federation, p.title, p.rating, p.games, p.k, p.birth_year, p.flag
(5500222, 'Abbes, Ali', 'TUN', 'CM', 2075, 8, 20, 1973, None)
>>> readout.layout, readout.rating_column
('TXT single list', 'may13')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar, cast

from ledger.domain import POOLS, RatingPool
from ledger.errors import Problem
from ledger.formats.fide_list_header import read_txt_header
from ledger.formats.fide_list_lines import line_cells
from ledger.formats.fide_list_text import ERROR, WARNING, Cell, decode, split_lines
from ledger.formats.fide_list_xml import read_xml
from ledger.formats.records import text_fault

__all__ = ["FLAGS", "POOLS", "SINGLE_LIST", "FideListReadout", "ListPlayer", "Pool", "read_fide_list",
           "read_fide_list_file"]

Pool = RatingPool
Progress = Callable[[int, int], None]
_T = TypeVar("_T")

#: The layout of a TXT list with one rating column named after the month (``may13``): the file
#: does not say which pool it is.
SINGLE_LIST = "TXT single list"
_PROGRESS_EVERY = 1000

#: Titles as the ``players.title`` column keeps them; the short forms old lists print map to them.
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
FOA_TITLES = ("AGM", "AIM", "AFM", "ACM")
_SHORT_TITLES = {"G": "GM", "M": "IM", "F": "FM", "C": "CM", "WG": "WGM", "WI": "WIM",
                 "WM": "WIM", "WF": "WFM", "WC": "WCM"}

_DIGITS = re.compile(r"[0-9]+")
_FED = re.compile(r"[A-Z]{3}")
_BIRTH = re.compile(r"([0-9]{4})(?:[-./][0-9]{2}[-./][0-9]{2})?")
#: The flags FIDE prints, exactly: ``i`` inactive, ``w`` woman, ``wi`` both (never ``iw``, never
#: in capitals); blank is none.
FLAGS = frozenset({"i", "w", "wi"})
_O_TITLE = re.compile(r"[A-Za-z, ]{1,30}")
_COMMA = re.compile(r"\s*,\s*")
MAX_FIDE_ID = 9_999_999_999
MAX_NAME = 200


@dataclass(frozen=True, slots=True)
class ListPlayer:
    """One player of a FIDE rating list, with the rating of one pool.

    - ``line``: 1-based line of the player's TXT line or ``<player>`` element.
    - ``fide_id`` (int > 0; None when the ID column is blank: a player without a FIDE id, as
      the ledger's own TXT list prints one).
    - ``name`` (blanks tidied: ``"Orr  ,  Mark"`` -> ``"Orr, Mark"``).
    - ``federation`` (three capitals), ``sex`` (``M``/``F``; ``F`` when blank and the flag has
      ``w``), ``title`` (one of :data:`TITLES`; short forms ``WC``, ``WF``, ``g`` ... expanded),
      ``w_title``, ``foa_title``, ``o_title`` (arbiter, trainer and organiser titles, as
      printed: ``IA,FT``; may be longer than FIDE's TXT column): None when blank.
    - ``rating``, ``games``, ``k``: the pool's published rating, games in the list's period and
      K as printed; ``rating`` None when 0 or blank (unrated).
    - ``birth_year``: None when blank or ``0000``; ``flag``: the pool's flag, ``i`` (inactive),
      ``w`` (woman), ``wi`` (both) or None (:data:`FLAGS`). A combined list has one Flag column, the standard
      list's: its ``w`` is the player's, kept for every pool, its ``i`` the standard rating's,
      left out for rapid and blitz (``wi`` -> ``w``). A single list's flag is its own pool's.
    - ``fields``: record field -> where it is, for problems (``"Name (column 16)"``, ``"name"``).
    """

    line: int
    fide_id: int | None
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    w_title: str | None
    o_title: str | None
    foa_title: str | None
    rating: int | None
    games: int | None
    k: int | None
    birth_year: int | None
    flag: str | None
    fields: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def where(self, name: str) -> str:
        """The field label for a problem about record field ``name`` (e.g. ``"rating"``)."""
        return self.fields.get(name, name)


@dataclass(frozen=True)
class FideListReadout:
    """What a list file gave: ``layout`` (``"TXT single list"``, ``"TXT combined list"``,
    ``"TXT combined list with FOA"``, ``"XML combined list"``, or ``"unreadable"``),
    ``players`` (the lines without errors, file order), ``problems`` (line order), ``lines``
    (lines in the file), ``rating_column`` (the single list's rating column name as printed,
    ``may13``) and ``list_month`` ((year, month) that name stands for) or None."""

    file: str
    layout: str
    players: list[ListPlayer]
    problems: list[Problem]
    lines: int
    rating_column: str | None = None
    list_month: tuple[int, int] | None = None

    @property
    def says_pool(self) -> bool:
        """False for a single list (:data:`SINGLE_LIST`): its one rating column is named after
        the month, so the file does not say whether it is the standard, rapid or blitz list.
        True for a combined list (TXT or XML: each pool has its own columns)."""
        return self.layout != SINGLE_LIST


def read_fide_list_file(path: str, pool: Pool = "standard",
                        progress: Progress | None = None) -> FideListReadout:
    """Read the list at ``path`` (see :func:`read_fide_list`). A file that cannot be opened is a
    problem, not an exception."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return FideListReadout(path, "unreadable", [], [Problem(path, None, "file",
                                                                exc.strerror or str(exc))], 0)
    return read_fide_list(data, path, pool=pool, progress=progress)


def read_fide_list(data: bytes, file: str, pool: Pool = "standard",
                   progress: Progress | None = None) -> FideListReadout:
    """Read a FIDE rating list from ``data`` (the file's bytes; ``file`` names it in problems).

    ``pool`` picks the rating, games and K columns of a combined list (standard, rapid or
    blitz); a single list has one rating column, which is read whatever ``pool`` says.
    ``progress(done, total)`` is called every 1000 lines. An XML file is recognised by its first
    non-blank character ``<``. Never raises on bad data (see the module docstring).
    """
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return _read_xml(data, file, pool, progress)
    text, problems = decode(data, file)
    return _read_txt(text, file, pool, problems, progress)


def _read_txt(text: str, file: str, pool: Pool, problems: list[Problem],
              progress: Progress | None) -> FideListReadout:
    lines = split_lines(text)
    total = len(lines)
    header = read_txt_header(lines, file, pool, problems)
    if header is None:
        return FideListReadout(file, "unreadable", [], problems, total)
    layout = (SINGLE_LIST if header.rating_column is not None else
              "TXT combined list with FOA" if header.has_foa else "TXT combined list")
    standard_flag = layout != SINGLE_LIST and pool != "standard"
    players: list[ListPlayer] = []
    seen = _Seen()
    player_lines = 0
    for i in range(header.line, total):
        if progress is not None and (i + 1) % _PROGRESS_EVERY == 0:
            progress(i + 1, total)
        line = lines[i]
        if not line.strip():
            continue
        player_lines += 1
        cells = line_cells(line, i + 1, header, file, problems)
        if cells is not None:
            _add_player(file, i + 1, cells, players, seen, problems, standard_flag)
    if progress is not None:
        progress(total, total)
    if not player_lines:
        problems.append(_no_players(file, f"only its header, on line {header.line}"))
    return FideListReadout(file, layout, players, _in_line_order(problems), total,
                           header.rating_column, header.list_month)


def _read_xml(data: bytes, file: str, pool: Pool, progress: Progress | None) -> FideListReadout:
    read = read_xml(data, file, pool)
    if read.problems:
        return FideListReadout(file, "unreadable", [], read.problems, read.lines)
    players: list[ListPlayer] = []
    seen = _Seen()
    problems: list[Problem] = []
    if not read.players:
        problems.append(_no_players(file, "<playerslist> has no <player> element"))
    for line, cells in read.players:
        _add_player(file, line, cells, players, seen, problems, pool != "standard")
    if progress is not None:
        progress(read.lines, read.lines)
    layout = "XML combined list with FOA" if read.has_foa else "XML combined list"
    return FideListReadout(file, layout, players, _in_line_order(problems), read.lines)


def _no_players(file: str, why: str) -> Problem:
    """The error of a list without a player line (refused, as an empty file is)."""
    return Problem(file, None, "players", f"no players in this list: {why}")


def _in_line_order(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line or 0, p.severity != ERROR))


@dataclass
class _Seen:
    """The players read so far: FIDE id -> line, and those without a FIDE id by name; the
    players' ``fields`` maps, one per set of labels, and their values, one per value (a million
    players share a few)."""

    lines: dict[int, int] = field(default_factory=dict)
    without_id: dict[str, list[ListPlayer]] = field(default_factory=dict)
    labels: dict[tuple[str, ...], dict[str, str]] = field(default_factory=dict)
    values: dict[object, object] = field(default_factory=dict)

    def one(self, value: _T) -> _T:
        """The one copy of ``value`` kept for every player (federations, titles, ratings ... each
        repeat a million times in a full list)."""
        return cast(_T, self.values.setdefault(value, value))

    def fields(self, cells: Mapping[str, Cell]) -> dict[str, str]:
        """Record field -> label of ``cells``, the same map for every player with those labels."""
        labels = tuple(cell.label for cell in cells.values())
        found = self.labels.get(labels)
        if found is None:
            found = self.labels[labels] = {key: cell.label for key, cell in cells.items()}
        return found

    def add(self, player: ListPlayer) -> None:
        if player.fide_id is not None:
            self.lines[player.fide_id] = player.line
        else:
            self.without_id.setdefault(player.name.casefold(), []).append(player)

    def twin(self, name: str, birth_year: int | None) -> ListPlayer | None:
        """A player without FIDE id read before with the same name (ignoring case) and a birth
        year that does not tell them apart (the same, or either unknown), or None."""
        return next((p for p in self.without_id.get(name.casefold(), [])
                     if birth_year is None or p.birth_year in (None, birth_year)), None)


def _add_player(file: str, line: int, cells: Mapping[str, Cell], players: list[ListPlayer],
                seen: _Seen, problems: list[Problem], standard_flag: bool) -> None:
    """Check one record's cells; append the player, or its problems. ``standard_flag``: the
    Flag is the standard list's (a combined list read for rapid or blitz: its ``i`` is left
    out)."""
    errors: list[Problem] = []

    def fail(key: str, message: str, severity: str = ERROR) -> None:
        cell = cells.get(key)
        (errors if severity == ERROR else problems).append(Problem(
            file, cell.line if cell else line, cell.label if cell else key, message, severity))

    def text(key: str) -> str:
        cell = cells.get(key)
        return cell.text if cell is not None else ""

    def number(key: str, digits: int, what: str) -> int | None:
        value = text(key)
        if not value:
            return None
        if not _DIGITS.fullmatch(value) or len(value) > digits:
            fail(key, f"{value!r} is not {what}")
            return None
        return int(value)

    fide_id = number("fide_id", 10, "a FIDE id")  # blank: a player without a FIDE id
    if fide_id is not None and not 0 < fide_id <= MAX_FIDE_ID:
        fail("fide_id", f"{fide_id} is not a FIDE id")
    name = _COMMA.sub(", ", " ".join(text("name").split()))
    fault = text_fault(name, "a name")  # blanks of any kind (XML's line breaks) are tidied
    if fault is not None:
        fail("name", fault)
    elif not any(ch.isalpha() for ch in name):
        fail("name", f"{text('name')!r} is not a name" if name else "no name")
    elif len(name) > MAX_NAME:
        fail("name", f"{len(name)} characters; at most {MAX_NAME}")
    federation = text("federation").upper() or None
    if federation is not None and not _FED.fullmatch(federation):
        fail("federation", f"{text('federation')!r} is not a three-letter federation code")
    sex = text("sex").upper() or None
    if sex is not None and sex not in ("M", "F"):
        fail("sex", f"{text('sex')!r} must be M or F")
    title = _title(text("title"), TITLES, "title", fail)
    w_title = _title(text("w_title"), TITLES[4:], "w_title", fail)
    foa_title = _title(text("foa_title"), FOA_TITLES, "foa_title", fail)
    o_title = text("o_title") or None
    if o_title is not None and not _O_TITLE.fullmatch(o_title):
        fail("o_title", f"{o_title!r} is not a list of titles")
    rating = number("rating", 4, "a rating")
    games = number("games", 4, "a number of games")
    k = number("k", 3, "a K-factor")
    birth_year: int | None = None
    born = text("birth_year")
    if born:
        m = _BIRTH.fullmatch(born)
        if m is None:
            fail("birth_year", f"{born!r} is not a year of birth")
        elif int(m.group(1)) != 0:
            birth_year = int(m.group(1))
            if not 1880 <= birth_year <= 2100:
                fail("birth_year", f"{birth_year} is not a plausible year of birth")
    flag = text("flag") or None
    if flag is not None and flag not in FLAGS:
        fail("flag", f"{flag!r} is not a FIDE list flag: blank, i (inactive), w (woman) or wi "
             f"(both){': FIDE writes wi' if flag == 'iw' else ''}")
    elif flag is not None and "w" in flag:
        if sex is None:
            sex = "F"  # the flag w: a woman
        elif sex == "M":
            fail("flag", f"flag {flag!r} says a woman, Sex says M: sex M kept", WARNING)
    if flag is not None and standard_flag:
        flag = "".join(ch for ch in flag if ch != "i") or None
    if fide_id is not None and fide_id in seen.lines and not errors:
        fail("fide_id", f"FIDE id {fide_id} is on line {seen.lines[fide_id]} already")
    if fide_id is None and not errors:
        twin = seen.twin(name, birth_year)
        if twin is not None:
            fail("fide_id", f"no FIDE id, and {name} (born {_year(birth_year)}) on line {twin.line} "
                 f"(born {_year(twin.birth_year)}) has none either: the two cannot be told apart")
    if errors:
        problems.extend(errors)
        return
    one = seen.one
    player = ListPlayer(
        line=line, fide_id=fide_id, name=name, federation=one(federation), sex=one(sex),
        title=one(title), w_title=one(w_title), o_title=one(o_title), foa_title=one(foa_title),
        rating=one(rating or None), games=one(games), k=one(k), birth_year=one(birth_year),
        flag=one(flag), fields=seen.fields(cells))
    seen.add(player)
    players.append(player)


def _year(year: int | None) -> str:
    return "?" if year is None else str(year)


def _title(value: str, allowed: tuple[str, ...], key: str,
           fail: Callable[[str, str, str], None]) -> str | None:
    """A title as :data:`TITLES` spells it; an unknown one is a warning and is left out."""
    if not value:
        return None
    upper = value.upper()
    upper = _SHORT_TITLES.get(upper, upper)
    if upper in allowed:
        return upper
    fail(key, f"unknown title {value!r}: left out", WARNING)
    return None
