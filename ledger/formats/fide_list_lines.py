"""FIDE rating list lines and columns: bytes decoded, the TXT header's columns, each line's cells,
the XML list's elements with their lines (pure).

Sources: the rating list files FIDE publishes at ratings.fide.com/download_lists.phtml, as
described in tests/data/README.md ("FIDE rating list layouts"):

- TXT, fixed columns. The first line names the columns, and each column starts where its name
  starts; the offsets are read from that header line, never assumed, so every era reads the same
  way: the single lists (one rating column named after the month, ``may13``, then ``Gms`` and
  ``K``), the combined lists (``SRtng SGm SK RRtng RGm Rk BRtng BGm BK``), with or without the
  ``FOA`` title column, and the older headers (``ID_NUMBER``, ``TITL``, ``GAMES``, ``BORN``).
  Columns are characters, not bytes. Lines end in CR, LF or CRLF.
- XML: ``<playerslist>`` of ``<player>`` elements (``fideid, name, country, sex, title, w_title,
  o_title, foa_title, rating, games, k, rapid_*, blitz_*, birthday, flag``), parsed with
  ``defusedxml`` (no entity expansion, no DTD tricks, no external references).

Either way a player comes out as :class:`Cell` values keyed by record field (``fide_id``,
``name``, ``rating`` ...), each with its line and its label for problems (``Name (column 16)``,
``name``); checking them into a player is ``ledger.formats.fide_list``'s. The text is decoded as
UTF-8 (a byte-order mark is dropped), else CP1252 (or Latin-1, which never fails) with a warning.
Nothing here raises on bad data: every fault is a :class:`~ledger.errors.Problem`.

A value longer than its column: FIDE's own full lists have them, in the other titles (``OTit``,
15 characters wide; ``IA,FA,IO,FST,DI,NA`` has 18). FIDE's writer pads each value to its column's
width and never cuts one, so the rest of such a line moves right by the excess. Only an ``OTit``
value may run on (every other value fits its column: a name has at most 60 characters in a
61-character column); a value of another column running across the start of the next is an
error (shifted columns). When the ``OTit`` value runs across the start of the next column (no
blank on either side of it), the run-on ends at the next blank, and the rest of the line is
found again moved right by a shift from 0 to the run-on's length, the first of these that lines
up:

1. the whole run-on: the value ends at that blank, the column after it is blank;
2. none: the value exactly fills its column and the next value touches it (a normal line: no
   warning);
3. each shift in between, from the smallest: the next value touches the run-on
   (``SLI,NA1946`` on the list without FOA: ``NA`` and the rating 1946).

The rest "lines up" at a shift when, every column moved by it, each value starts where its
column starts (FIDE's values are left-aligned) and none runs across the start of the next. Cases
1 and 3 are a warning naming the line and the ``OTit`` column; the cells after it are labelled
where they are on that line (``SRtng (column 117)``), so a bad value there (a rating with letters)
is an error naming its real column. No cell is guessed or left blank: a line is read whole, or,
lining up at no shift, is an error naming the ``OTit`` column.
"""

from __future__ import annotations

import re
import xml.sax
import xml.sax.handler
import xml.sax.xmlreader
from dataclasses import dataclass

import defusedxml
import defusedxml.sax

from ledger.errors import Problem

__all__ = ["ERROR", "WARNING", "Cell", "Column", "TxtHeader", "XmlRecords", "decode", "line_cells",
           "read_txt_header", "read_xml", "split_lines"]

ERROR = "error"
WARNING = "warning"

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
_XML_POOL_PREFIX: dict[str, str] = {"standard": "", "rapid": "rapid_", "blitz": "blitz_"}

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(slots=True)
class Cell:
    """A raw field value: its text (stripped), its 1-based line and its label for problems (a
    TXT column, ``Name (column 16)``, or an XML element, ``name``)."""

    text: str
    line: int
    label: str


def decode(data: bytes, file: str) -> tuple[str, list[Problem]]:
    """The text of the list's bytes and its problems: UTF-8 (without a byte-order mark), else
    CP1252, else Latin-1, with a warning naming the first byte that is not UTF-8 and its line."""
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


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, ended by CR, LF or CRLF (a last empty line dropped)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


@dataclass(frozen=True)
class TxtHeader:
    """What the header line of a TXT list says, for one pool.

    ``line``: its 1-based line; ``columns``: every column it names, in order; ``wanted``: record
    field (``fide_id``, ``name`` ... ``rating``, ``games``, ``k``) -> the column holding it for the
    pool read; ``reach``: the column every player line must reach (the one after the name);
    ``rating_column``: a single list's rating column as printed (``may13``), None for a combined
    list; ``list_month``: the (year, month) that name stands for; ``has_foa``: a ``FOA`` column;
    ``cuts``: (field, start, end, label) of each ``wanted`` column, and ``boundaries``: the start
    of every column but the first, both to read a line at the header's offsets.
    """

    line: int
    columns: list[Column]
    wanted: dict[str, Column]
    reach: Column
    rating_column: str | None
    list_month: tuple[int, int] | None
    has_foa: bool
    cuts: tuple[tuple[str, int, int | None, str], ...]
    boundaries: tuple[int, ...]


def read_txt_header(lines: list[str], file: str, pool: str,
                    problems: list[Problem]) -> TxtHeader | None:
    """The header of a TXT list (its first non-blank line) for ``pool`` (``standard``, ``rapid``
    or ``blitz``; a single list's one rating column whatever ``pool`` says). None, with an error
    in ``problems``, when the file is empty or the line has no ``ID Number`` or ``Name`` column or
    no rating column for ``pool``; a column this reader does not know is a warning."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        problems.append(Problem(file, None, "header", "the file is empty: no header, no players"))
        return None
    columns, unknown = _header_columns(lines[first])
    by_key = {c.key: c for c in columns}
    header_line = first + 1
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
    for token in unknown:
        problems.append(Problem(file, header_line, "header",
                                f"unknown column {token!r}: ignored", WARNING))
    rating_column = by_key[(which, "rating")].token if single else None
    month = _MONTH_TOKEN.fullmatch(rating_column) if rating_column else None
    list_month = (_century(int(month.group(2))), _MONTHS.index(month.group(1).upper()) + 1) \
        if month else None
    wanted: dict[str, Column] = {}
    for c in columns:
        if isinstance(c.key, str):
            wanted[c.key] = c
        elif c.key[0] == which:
            wanted[c.key[1]] = c
    # The column a line must reach: the one after the name (the federation, on every list).
    after_name = [c for c in columns if c.start > by_key["name"].start]
    reach = min(after_name, key=lambda c: c.start) if after_name else by_key["name"]
    return TxtHeader(header_line, columns, wanted, reach, rating_column, list_month,
                     "foa_title" in by_key,
                     tuple((key, c.start, c.end, c.label()) for key, c in wanted.items()),
                     tuple(c.start for c in columns[1:]))


def line_cells(line: str, number: int, header: TxtHeader, file: str,
               problems: list[Problem]) -> dict[str, Cell] | None:
    """The cells of a player line (1-based ``number``, trailing blanks stripped), keyed by record
    field, or None with the error in ``problems``: the line ends before ``header.reach``, or a
    value runs across the start of the next column and the line cannot be read again around it
    (see the module docstring: only an ``OTit`` value may run on). A value that ran on and was
    read around is a warning in ``problems``."""
    if len(line) <= header.reach.start:
        reach = header.reach
        problems.append(Problem(file, number, reach.label(), f"short line: it ends at column "
                                f"{len(line)}, before the {reach.token} column: a line cut "
                                "short or shifted columns"))
        return None
    length = len(line)
    index = next((i for i, start in enumerate(header.boundaries, start=1) if start < length
                  and not line[start - 1].isspace() and not line[start].isspace()), None)
    if index is None:
        return {key: Cell(line[start:end].strip(), number, label)
                for key, start, end, label in header.cuts}
    crossing, before = header.columns[index], header.columns[index - 1]
    if before.key not in _RUNS_ON:
        problems.append(Problem(file, number, crossing.label(), "a value runs across the start of "
                                f"the {crossing.token} column: are the columns shifted?"))
        return None
    spans = _spans(line, header.columns, 0, 0, aligned=False)
    if spans is None:
        end = _run_on_end(line, crossing.start)
        problems.append(Problem(file, number, before.label(), f"{line[before.start:end].strip()!r} "
                                f"runs {_characters(end - crossing.start)} into {crossing.token}, "
                                f"at column {crossing.start + 1}, and the rest of the line lines "
                                f"up at no shift of 0 to {end - crossing.start} to the right: the "
                                "line cannot be read"))
        return None
    problems.extend(Problem(file, number, span.column.label(span.start), span.warning, WARNING)
                    for span in spans if span.warning is not None)
    at = {span.column: span for span in spans}
    return {key: Cell(at[c].text(line), number, c.label(at[c].start))
            for key, c in header.wanted.items()}


#: The columns whose value may be longer than the column in FIDE's own lists: the other titles
#: (arbiter, trainer, organiser: ``IA,FA,IO,FST,DI,NA``) in a 15-character column. Every other
#: value fits its column (a name has at most 60 characters in 61).
_RUNS_ON = frozenset({"o_title"})
_BLANK = re.compile(r"\s")


@dataclass(frozen=True)
class _Span:
    """Where one column's cell is on a line: 0-based ``start`` and ``end`` (None: to the line's
    end), ``warning`` when its value ran on into the next column."""

    column: Column
    start: int
    end: int | None
    warning: str | None = None

    def text(self, line: str) -> str:
        return line[self.start:self.end].strip()


def _spans(line: str, columns: list[Column], first: int, shift: int,
           aligned: bool) -> list[_Span] | None:
    """The cells of ``columns[first:]`` on ``line``, each column ``shift`` characters right of
    where the header puts it, a value of a :data:`_RUNS_ON` column that runs on read around
    (:func:`_run_on`); None when a value of another column runs across the start of the next,
    or, ``aligned``, when a value does not start where its column does."""
    spans: list[_Span] = []
    for j in range(first, len(columns)):
        column = columns[j]
        start = column.start + shift
        end = columns[j + 1].start + shift if j + 1 < len(columns) else None
        if aligned and line[start:start + 1].isspace() and line[start:end].strip():
            return None
        if end is not None and end < len(line) and not line[end - 1].isspace() \
                and not line[end].isspace():
            if column.key not in _RUNS_ON:
                return None
            rest = _run_on(line, columns, j, start, end, shift)
            return None if rest is None else spans + rest
        spans.append(_Span(column, start, end))
    return spans


def _run_on(line: str, columns: list[Column], j: int, start: int, boundary: int,
            shift: int) -> list[_Span] | None:
    """The cells from ``columns[j]`` on when its value (from ``start``) runs across
    ``boundary``, the start of the next column: the run-on ends at the next blank, and the rest
    of the line is read moved right by the first shift, from 0 to the run-on's length, that lines
    up, in the order of the module docstring (the whole run-on, none, then from the smallest)."""
    column, after = columns[j], columns[j + 1]
    run_on = _run_on_end(line, boundary) - boundary
    for moved in (run_on, 0, *range(1, run_on)):
        rest = _spans(line, columns, j + 1, shift + moved, aligned=True)
        if rest is None:
            continue
        if moved == 0:  # the value fills its column exactly, the next one touches it
            return [_Span(column, start, boundary)] + rest
        end = boundary + moved
        value = line[start:end].strip()
        touching = f", touching the {after.token} value" if moved < run_on else ""
        return [_Span(column, start, end, f"{value!r} ({_characters(len(value))}) is longer than "
                      f"the {column.token} column ({after.start - column.start}): it runs "
                      f"{_characters(moved)} into {after.token}, at column {boundary + 1}"
                      f"{touching}; the rest of the line is read {_characters(moved)} to the "
                      "right")] + rest
    return None


def _run_on_end(line: str, boundary: int) -> int:
    """Where a value running across ``boundary`` ends: the next blank, else the line's end."""
    blank = _BLANK.search(line, boundary)
    return blank.start() if blank is not None else len(line)


def _characters(n: int) -> str:
    return f"{n} character{'' if n == 1 else 's'}"


def _century(yy: int) -> int:
    """The year of a two-digit list month (``jul09`` -> 2009; FIDE's lists began in 1971)."""
    return 1900 + yy if yy >= 70 else 2000 + yy


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


@dataclass(frozen=True)
class XmlRecords:
    """The ``<player>`` elements of an XML list: ``players`` as (1-based line of the element,
    cells by record field) for the pool read; ``has_foa``: any ``foa_title`` element; ``lines``:
    lines in the file; ``problems``: why the file cannot be read (then ``players`` is empty)."""

    players: list[tuple[int, dict[str, Cell]]]
    has_foa: bool
    lines: int
    problems: list[Problem]


def read_xml(data: bytes, file: str, pool: str) -> XmlRecords:
    """The player elements of an XML list (``<playerslist>``), with the rating, games and K of
    ``pool`` (``standard``, ``rapid`` or ``blitz``). XML that is not well-formed, that
    ``defusedxml`` refuses (entities, DTDs, external references) or whose root is another element
    gives a problem and no players."""
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
        return XmlRecords([], False, lines, problems)
    if handler.root != "playerslist":
        problems.append(Problem(file, 1, "XML", f"the root element is <{handler.root}>, not "
                                "<playerslist>: not a FIDE XML rating list"))
        return XmlRecords([], False, lines, problems)
    prefix = _XML_POOL_PREFIX[pool]
    wanted = dict(_XML_IDENTITY) | {f"{prefix}{what}": what for what in ("rating", "games", "k")}
    has_foa = False
    players: list[tuple[int, dict[str, Cell]]] = []
    for line, elements in handler.records:
        has_foa = has_foa or "foa_title" in elements
        players.append((line, {key: Cell(elements[tag][0].strip(), elements[tag][1], tag)
                               for tag, key in wanted.items() if tag in elements}))
    return XmlRecords(players, has_foa, lines, problems)
