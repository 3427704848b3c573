"""Read FIDE rating lists, TXT of every era and XML, into player records plus problems (pure).

Sources: the rating list files FIDE publishes at ratings.fide.com/download_lists.phtml, as
described in tests/data/README.md ("FIDE rating list layouts"):

- TXT, fixed columns. The first line names the columns, and each column starts where its name
  starts; the offsets are read from that header line, never assumed, so every era reads the same
  way: the single lists (one rating column named after the month, ``may13``, then ``Gms`` and
  ``K``), the combined lists (``SRtng SGm SK RRtng RGm Rk BRtng BGm BK``), with or without the
  ``FOA`` title column, and the older headers (``ID_NUMBER``, ``TITL``, ``GAMES``, ``BORN``).
  Columns are characters, not bytes.
- XML: ``<playerslist>`` of ``<player>`` elements (``fideid, name, country, sex, title, w_title,
  o_title, foa_title, rating, games, k, rapid_*, blitz_*, birthday, flag``), parsed with
  ``defusedxml`` (no entity expansion, no DTD tricks, no external references).

A rating of 0 or blank is unrated (None); birth data is the year only (``0000`` is unknown).
The text is decoded as UTF-8 (a byte-order mark is dropped); a file that is not UTF-8 is read as
CP1252 (or Latin-1, which never fails) with a warning. Nothing here raises on bad data: every fault
is a :class:`~ledger.errors.Problem` (file, 1-based line, field with its 1-based column for TXT,
message, severity). A player line with an error is left out of :attr:`FideListReadout.players`.

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
import xml.sax
import xml.sax.handler
import xml.sax.xmlreader
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import defusedxml
import defusedxml.sax

from ledger.errors import Problem

__all__ = ["POOLS", "SINGLE_LIST", "FideListReadout", "ListPlayer", "Pool", "read_fide_list",
           "read_fide_list_file"]

Pool = Literal["standard", "rapid", "blitz"]
POOLS: tuple[Pool, ...] = ("standard", "rapid", "blitz")
Progress = Callable[[int, int], None]

ERROR = "error"
WARNING = "warning"
#: The layout of a TXT list with one rating column named after the month (``may13``): the file
#: does not say which pool it is.
SINGLE_LIST = "TXT single list"
_PROGRESS_EVERY = 1000

#: Titles as the ``players.title`` column keeps them; the short forms old lists print map to them.
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
FOA_TITLES = ("AGM", "AIM", "AFM", "ACM")
_SHORT_TITLES = {"G": "GM", "M": "IM", "F": "FM", "C": "CM", "WG": "WGM", "WI": "WIM",
                 "WM": "WIM", "WF": "WFM", "WC": "WCM"}

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
_MONTH_TOKEN = re.compile(r"(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)([0-9]{2})", re.I)
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
# The XML list's elements -> record fields; pool fields by prefix.
_XML_IDENTITY = {"fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
                 "title": "title", "w_title": "w_title", "o_title": "o_title",
                 "foa_title": "foa_title", "birthday": "birth_year", "flag": "flag"}
_XML_POOL_PREFIX: dict[Pool, str] = {"standard": "", "rapid": "rapid_", "blitz": "blitz_"}

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_DIGITS = re.compile(r"[0-9]+")
_FED = re.compile(r"[A-Z]{3}")
_BIRTH = re.compile(r"([0-9]{4})(?:[-./][0-9]{2}[-./][0-9]{2})?")
_FLAG = re.compile(r"[A-Za-z]{1,4}")
_O_TITLE = re.compile(r"[A-Za-z, ]{1,30}")
_COMMA = re.compile(r"\s*,\s*")
MAX_FIDE_ID = 9_999_999_999
MAX_NAME = 200


@dataclass(frozen=True)
class ListPlayer:
    """One player of a FIDE rating list, with the rating of one pool.

    - ``line``: 1-based line of the player's TXT line or ``<player>`` element.
    - ``fide_id`` (int > 0; None when the ID column is blank: a player without a FIDE id, as
      the ledger's own TXT list prints one).
    - ``name`` (blanks tidied: ``"Orr  ,  Mark"`` -> ``"Orr, Mark"``).
    - ``federation`` (three capitals), ``sex`` (``M``/``F``), ``title`` (one of :data:`TITLES`;
      short forms ``WC``, ``WF``, ``g`` ... expanded), ``w_title``, ``foa_title``, ``o_title``
      (arbiter, trainer and organiser titles, as printed: ``IA,FT``): None when blank.
    - ``rating``, ``games``, ``k``: the pool's published rating, games in the list's period and
      K as printed; ``rating`` None when 0 or blank (unrated).
    - ``birth_year``: None when blank or ``0000``; ``flag``: ``i``, ``w``, ``wi`` ... or None.
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


@dataclass
class _Cell:
    """A raw field value: its text, its line and its label for problems."""

    text: str
    line: int
    label: str


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
    text, problems = _decode(data, file)
    return _read_txt(text, file, pool, problems, progress)


def _decode(data: bytes, file: str) -> tuple[str, list[Problem]]:
    """UTF-8 (without a byte-order mark), else CP1252, else Latin-1, with a warning."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = len(_LINE_BREAK.findall(data[:exc.start].decode("latin-1"))) + 1
        try:
            text, encoding = data.decode("cp1252"), "CP1252"
        except UnicodeDecodeError:
            text, encoding = data.decode("latin-1"), "Latin-1"
        return text, [Problem(file, line, "encoding", f"not UTF-8 (byte 0x{data[exc.start]:02X}): "
                              f"the file is read as {encoding}", WARNING)]


@dataclass(frozen=True)
class _Column:
    """One TXT column: record field (or (pool, what)), header token, 0-based start and end."""

    key: str | tuple[str, str]
    token: str
    start: int
    end: int | None

    def label(self) -> str:
        return f"{self.token} (column {self.start + 1})"


def _header_columns(header: str) -> tuple[list[_Column], list[str]]:
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
    columns = [_Column(key, token, start, found[i + 1][2] if i + 1 < len(found) else None)
               for i, (key, token, start) in enumerate(found)]
    return columns, unknown


def _read_txt(text: str, file: str, pool: Pool, problems: list[Problem],
              progress: Progress | None) -> FideListReadout:
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    total = len(lines)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        problems.append(Problem(file, None, "header", "the file is empty: no header, no players"))
        return FideListReadout(file, "unreadable", [], problems, total)
    columns, unknown = _header_columns(lines[first])
    by_key = {c.key: c for c in columns}
    header_line = first + 1
    missing = [name for key, name in (("fide_id", "ID Number"), ("name", "Name"))
               if key not in by_key]
    if missing:
        problems.append(Problem(file, header_line, "header", "no header line: a FIDE TXT list "
                                "starts with the column names (ID Number, Name, Fed, ... B-day, "
                                f"Flag); this line has no {' and no '.join(missing)} column"))
        return FideListReadout(file, "unreadable", [], problems, total)
    single = ("single", "rating") in by_key
    which = "single" if single else pool
    if (which, "rating") not in by_key:
        problems.append(Problem(file, header_line, "header", f"no rating column for the {pool} "
                                "pool (SRtng, RRtng or BRtng, or a month such as may13)"))
        return FideListReadout(file, "unreadable", [], problems, total)
    for token in unknown:
        problems.append(Problem(file, header_line, "header",
                                f"unknown column {token!r}: ignored", WARNING))
    rating_column = by_key[(which, "rating")].token if single else None
    month = _MONTH_TOKEN.fullmatch(rating_column) if rating_column else None
    list_month = (_century(int(month.group(2))), _MONTHS.index(month.group(1).upper()) + 1) \
        if month else None
    layout = (SINGLE_LIST if single else
              "TXT combined list with FOA" if "foa_title" in by_key else "TXT combined list")
    wanted: dict[str, _Column] = {}
    for c in columns:
        if isinstance(c.key, str):
            wanted[c.key] = c
        elif c.key[0] == which:
            wanted[c.key[1]] = c
    # The column a line must reach: the one after the name (the federation, on every list).
    after_name = [c for c in columns if c.start > by_key["name"].start]
    reach = min(after_name, key=lambda c: c.start) if after_name else by_key["name"]
    players: list[ListPlayer] = []
    seen = _Seen()
    for i in range(first + 1, total):
        if progress is not None and (i + 1) % _PROGRESS_EVERY == 0:
            progress(i + 1, total)
        line = lines[i].rstrip()
        if not line.strip():
            continue
        number = i + 1
        if len(line) <= reach.start:
            problems.append(Problem(file, number, reach.label(), f"short line: it ends at column "
                                    f"{len(line)}, before the {reach.token} column: a line cut "
                                    "short or shifted columns"))
            continue
        crossing = [c for c in columns[1:] if c.start < len(line) and c.token.upper() != "NUMBER"
                    and not line[c.start - 1].isspace() and not line[c.start].isspace()]
        if crossing:
            c = crossing[0]
            problems.append(Problem(file, number, c.label(), "a value runs across the start of "
                                    f"the {c.token} column: are the columns shifted?"))
            continue
        cells = {key: _Cell(line[c.start:c.end].strip(), number, c.label())
                 for key, c in wanted.items()}
        _add_player(file, number, cells, players, seen, problems)
    if progress is not None:
        progress(total, total)
    return FideListReadout(file, layout, players, _in_line_order(problems), total,
                           rating_column, list_month)


def _century(yy: int) -> int:
    """The year of a two-digit list month (``jul09`` -> 2009; FIDE's lists began in 1971)."""
    return 1900 + yy if yy >= 70 else 2000 + yy


def _in_line_order(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line or 0, p.severity != ERROR))


@dataclass
class _Seen:
    """The players read so far: FIDE id -> line, and those without a FIDE id by name."""

    lines: dict[int, int] = field(default_factory=dict)
    without_id: dict[str, list[ListPlayer]] = field(default_factory=dict)

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


def _add_player(file: str, line: int, cells: Mapping[str, _Cell], players: list[ListPlayer],
                seen: _Seen, problems: list[Problem]) -> None:
    """Check one record's cells; append the player, or its problems."""
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
    if not any(ch.isalpha() for ch in name):
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
    if flag is not None and not _FLAG.fullmatch(flag):
        fail("flag", f"{flag!r} is not a list flag (i, w, wi ...)")
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
    player = ListPlayer(
        line=line, fide_id=fide_id, name=name, federation=federation, sex=sex, title=title,
        w_title=w_title, o_title=o_title, foa_title=foa_title, rating=rating or None,
        games=games, k=k, birth_year=birth_year, flag=flag,
        fields={key: cell.label for key, cell in cells.items()})
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


class _PlayersHandler(xml.sax.handler.ContentHandler):
    """Collects each ``<player>``'s child elements as (text, line)."""

    def __init__(self) -> None:
        super().__init__()
        self.locator: xml.sax.xmlreader.Locator | None = None
        self.root: str | None = None
        self.records: list[tuple[int, dict[str, tuple[str, int]]]] = []
        self._player: dict[str, tuple[str, int]] | None = None
        self._player_line = 0
        self._element: str | None = None
        self._element_line = 0
        self._text: list[str] = []

    def setDocumentLocator(self, locator: xml.sax.xmlreader.Locator) -> None:  # noqa: N802
        self.locator = locator

    def _line(self) -> int:
        return (self.locator.getLineNumber() or 0) if self.locator is not None else 0

    def startElement(self, name: str, attrs: xml.sax.xmlreader.AttributesImpl) -> None:  # noqa: N802
        if self.root is None:
            self.root = name
        elif name == "player" and self._player is None:
            self._player, self._player_line = {}, self._line()
        elif self._player is not None and self._element is None:
            self._element, self._element_line, self._text = name, self._line(), []

    def characters(self, content: str) -> None:
        if self._element is not None:
            self._text.append(content)

    def endElement(self, name: str) -> None:  # noqa: N802
        if self._player is not None and name == self._element:
            self._player[name] = ("".join(self._text), self._element_line)
            self._element = None
        elif self._player is not None and name == "player" and self._element is None:
            self.records.append((self._player_line, self._player))
            self._player = None


def _read_xml(data: bytes, file: str, pool: Pool, progress: Progress | None) -> FideListReadout:
    handler = _PlayersHandler()
    problems: list[Problem] = []
    lines = len(_LINE_BREAK.findall(data.decode("latin-1"))) + 1
    try:
        defusedxml.sax.parseString(data, handler)
    except xml.sax.SAXParseException as exc:
        problems.append(Problem(file, exc.getLineNumber(), f"XML (column {(exc.getColumnNumber() or 0) + 1})",
                                f"not well-formed XML: {exc.getMessage()}"))
    except (xml.sax.SAXException, defusedxml.DefusedXmlException, ValueError, LookupError) as exc:
        problems.append(Problem(file, handler._line() or None, "XML", f"refused: {exc}"))
    if problems:
        return FideListReadout(file, "unreadable", [], problems, lines)
    if handler.root != "playerslist":
        problems.append(Problem(file, 1, "XML", f"the root element is <{handler.root}>, not "
                                "<playerslist>: not a FIDE XML rating list"))
        return FideListReadout(file, "unreadable", [], problems, lines)
    players: list[ListPlayer] = []
    seen = _Seen()
    prefix = _XML_POOL_PREFIX[pool]
    wanted = dict(_XML_IDENTITY) | {f"{prefix}{what}": what for what in ("rating", "games", "k")}
    has_foa = False
    for line, elements in handler.records:
        has_foa = has_foa or "foa_title" in elements
        cells = {key: _Cell(elements[tag][0].strip(), elements[tag][1], tag)
                 for tag, key in wanted.items() if tag in elements}
        _add_player(file, line, cells, players, seen, problems)
    if progress is not None:
        progress(lines, lines)
    layout = "XML combined list with FOA" if has_foa else "XML combined list"
    return FideListReadout(file, layout, players, _in_line_order(problems), lines)
