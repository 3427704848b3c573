"""TRF lines and columns: a file's bytes decoded, split into lines, each line read (pure).

Source: FIDE TRF-16 (Handbook C.04 Annex 2, "FIDE Data Exchange Format", 2016), as summarised in
tests/data/README.md, and the forms found in the wild: TRF-2006 (dates ``28. 07. 2005``, birth
dates ``1969.12.06``, one-letter titles ``g m f wg wm wf c wc``, forfeits with colour ``-``),
TRF-16, TRFx (JaVaFo's ``XXR``, ``XXC``, ``XXA`` ...), newer records, and Krause files as national
federations receive them (national ids in the FIDE-id column, blank ratings and federations).

Player line ``001``, 1-based columns: start rank 5-8, sex 10, title 11-13, name 15-47, rating
49-52, federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84, rank 86-89; round n at
``92 + 10(n-1)``: opponent 4 characters, colour at +5 (``w``, ``b``, ``-``), result at +7.
Titles are read in both forms (``wf`` or ``WFM``). Result codes: ``1 = 0`` played; ``+ -``
forfeit win/loss; ``W D L`` a game of less than one move; ``H`` half-point, ``F`` full-point,
``U`` pairing-allocated, ``Z`` or blank zero-point bye.
Header records: ``012`` name, ``022`` city, ``032`` federation, ``042``/``052`` start and end
dates, ``102`` chief arbiter, ``122`` time control, ``132`` round dates (``YY/MM/DD`` from column
92), ``XXR`` (TRFx) or ``142`` (TRF-2026) number of rounds. Every other record carries nothing
for rating and is skipped: ``###`` comments, TRF-2026's ``152`` ... ``362``, ``240`` byes,
``250``-``330`` pairing and team records, ``801``/``802``, national rating records (``IRL ...``),
TRFx ``XXC``, ``XXA``, ``DAT``. (TRF-2026, FIDE Council 12 May 2025, keeps the ``001`` layout.)

Columns are characters, not bytes: the file's text is decoded line by line by
``ledger.formats.trf_text`` (UTF-8, else CP1252 with a warning; lines end in CR, LF or CRLF only);
trailing blanks are fine. The problems are kept up to a bound (``TrfProblems``): past it
the lines are no longer read. Nothing here raises on bad data:
each fault is a :class:`~ledger.errors.Problem` with file, line, ``col N`` (or ``col A-B``) and a
message; a line with an error gives no player. The checks across lines (start ranks, rounds,
dates) and the games are ``ledger.formats.trf``'s; writing TRF-16 is ``ledger.formats.trf_writer``'s.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from ledger.domain import described_character, find_control_character
from ledger.errors import Problem
from ledger.formats.text_stream import MAX_PROBLEMS, Problems

__all__ = ["BYES", "ERROR", "FORFEITS", "PLAYED", "RESULT_CODES", "SHORT", "TITLES", "WARNING",
           "TrfLines", "TrfPlayer", "TrfProblems", "TrfRound", "col_label",
           "numbered_until_full", "parse_date", "read_lines", "trim_rounds"]

ERROR, WARNING = "error", "warning"
PLAYED = frozenset("1=0")
FORFEITS = frozenset("+-")
SHORT = frozenset("WDL")  # less than one move
BYES = frozenset("HFUZ")
RESULT_CODES = PLAYED | FORFEITS | SHORT | BYES
#: A title as written, in either form (``wf`` or ``WFM``) -> the ledger's name for it.
TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM",
          "wc": "WCM", "gm": "GM", "im": "IM", "fm": "FM", "cm": "CM", "wgm": "WGM",
          "wim": "WIM", "wfm": "WFM", "wcm": "WCM"}
#: Player-line columns (1-based) that must be blank: the separators between fields.
_SEPARATORS = (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91)
_DIGITS = re.compile(r"[0-9]+")
_POINTS = re.compile(r"[0-9]{1,2}(\.[05])?")
_CODE = re.compile(r"(?:[0-9]{3}|[A-Z#][A-Za-z0-9#]{2})(?: |$)")

# Dates as written in the wild: 2011-11-25, 2010/09/24, 2005.07.28, 28. 07. 2005, 24/09/2010, 25/11/01.
_YMD = re.compile(r"([0-9]{4})\s*[-/.]\s*([0-9]{1,2})\s*[-/.]\s*([0-9]{1,2})")
_DMY = re.compile(r"([0-9]{1,2})\s*[-/.]\s*([0-9]{1,2})\s*[-/.]\s*([0-9]{4})")
_YY = re.compile(r"([0-9]{2})/([0-9]{2})/([0-9]{2})")
_YEAR = re.compile(r"[0-9]{4}")
#: Longest text the ledger keeps from each header record (its event columns).
_HEADER_LIMITS = {"012": 200, "022": 200, "032": 100, "102": 200, "122": 200}


@dataclass(frozen=True)
class TrfRound:
    """One round cell: ``opponent`` start rank (None for ``0000`` or blank), ``colour``
    (``w``, ``b``, ``-`` or empty) and ``result`` (a code, or empty for blank)."""

    opponent: int | None
    colour: str
    result: str


@dataclass(frozen=True)
class TrfPlayer:
    """One ``001`` line. ``rating`` None for blank or 0 (unrated); ``title`` as the ledger names
    titles (``GM``); ``sex`` ``M``/``F``; ``birth`` the birth date text as written (its year is
    ``birth_year``); ``points`` the standings points; ``rounds`` one cell per round, in order;
    ``fide_id`` the number in columns 58-68 (a national id in Krause files). ``line``: 1-based."""

    rank: int
    name: str
    sex: str | None = None
    title: str | None = None
    rating: int | None = None
    federation: str | None = None
    fide_id: int | None = None
    birth: str | None = None
    points: Decimal | None = None
    place: int | None = None
    rounds: tuple[TrfRound, ...] = ()
    line: int = field(default=0, compare=False)

    @property
    def birth_year(self) -> int | None:
        """The year of ``birth`` (its four-digit part), or None."""
        found = _YEAR.search(self.birth or "")
        return int(found.group()) if found else None


class TrfProblems(Problems):
    """The problems of one file (``problems``: kept up to the bound of
    ``ledger.formats.text_stream.Problems``), each on a line and column, and ``refused``: the
    start ranks of the player lines refused for an error (already reported)."""

    def __init__(self, filename: str, limit: int = MAX_PROBLEMS) -> None:
        super().__init__(filename, limit)
        self.refused: set[int] = set()  # start ranks of player lines refused (already reported)

    @property
    def problems(self) -> list[Problem]:
        """The problems kept so far."""
        return self.kept

    def add(self, line: int, column: str, message: str, severity: str = ERROR) -> None:
        self.append(Problem(self.filename, line, column, message, severity))


def col_label(first: int, last: int) -> str:
    """The field of a problem about 1-based columns ``first`` to ``last``: ``col 5-8``, ``col 10``."""
    return f"col {first}" if first == last else f"col {first}-{last}"


def parse_date(text: str) -> dt.date | None:
    """A TRF date in any form seen in the wild (``2011-11-25``, ``2010/09/24``, ``2005.07.28``,
    ``28. 07. 2005``, ``24/09/2010`` read day first, ``YY/MM/DD``); None if none fits or the
    date does not exist."""
    text = text.strip()
    for pattern, order in ((_YMD, (1, 2, 3)), (_DMY, (3, 2, 1)), (_YY, (1, 2, 3))):
        match = pattern.fullmatch(text)
        if match:
            year, month, day = (int(match.group(i)) for i in order)
            if pattern is _YY:
                year += 2000 if year < 70 else 1900
            try:
                return dt.date(year, month, day)
            except ValueError:
                return None
    return None


@dataclass(frozen=True)
class TrfLines:
    """What the lines of a TRF file say, each line read on its own (no check across lines).

    ``header``: record code (``012`` ... ``132``) -> (1-based line, value as written, stripped;
    the last one when given twice); ``players``: the ``001`` lines without errors, in file order;
    ``round_dates``: record ``132``'s dates (None where not given or not a date); ``rounds`` and
    ``rounds_line``: the number of rounds of ``XXR`` (or ``142``) and its line (None and 0 when
    absent or not 1 to 99).
    """

    header: Mapping[str, tuple[int, str]]
    players: tuple[TrfPlayer, ...]
    round_dates: tuple[dt.date | None, ...] = ()
    rounds: int | None = None
    rounds_line: int = 0

    def text(self, code: str) -> str | None:
        """The value of header record ``code``; None when absent, blank or longer than the ledger
        keeps (that one reported by :func:`read_lines`)."""
        value = self.header[code][1] if code in self.header else ""
        return (value or None) if len(value) <= _HEADER_LIMITS.get(code, 200) else None


def numbered_until_full(lines: Iterable[str], out: Problems) -> Iterator[tuple[int, str]]:
    """``(1-based number, line)`` of each line, until a line takes ``out`` past its bound
    (:attr:`Problems.full`): then ``out.stop`` on that line, and no more lines."""
    for number, line in enumerate(lines, start=1):
        yield number, line
        if out.full:
            out.stop(number)
            return


def read_lines(lines: Iterable[str], out: TrfProblems) -> TrfLines:
    """Read the lines (without their ends: ``trf_text.TrfText``, ``trf_text.split_lines``) by record
    code: ``001`` player lines, the header records, ``XXR``/``142``; skip the records that carry
    nothing for rating. Each fault goes to ``out``; a player line with an error is left out (its
    start rank in ``out.refused``). Stops after the line that takes ``out`` past its bound of
    errors (``out.stopped``): what the lines read so far say is returned."""
    header: dict[str, tuple[int, str]] = {}
    players: list[TrfPlayer] = []
    round_dates: tuple[dt.date | None, ...] = ()
    rounds: int | None = None
    header_line = 0  # the line of XXR (or 142)
    for number, raw in numbered_until_full(lines, out):
        line = raw.rstrip(" ")
        if not line.strip():
            continue
        # a tab is reported on its own: a TRF's columns are blanks
        control = find_control_character(line.replace("\t", " "))
        if control is not None:
            out.add(number, f"col {control.start() + 1}", f"{described_character(control.group())}"
                    ": a TRF line holds visible text only (is this a TRF file?)")
            if line[:3] == "001" and _DIGITS.fullmatch(line[4:8].strip()):
                out.refused.add(int(line[4:8]))
            continue
        code = line[:3]
        if code == "001":
            player = _player(line, number, out)
            if player is not None:
                players.append(player)
        elif code in ("012", "022", "032", "042", "052", "102", "122"):
            if line[3:4] not in ("", " "):
                out.add(number, "col 4", f"record {code}: column 4 must be blank")
            elif "\t" in line:
                out.add(number, f"col {line.index(chr(9)) + 1}", f"record {code}: a tab: a TRF "
                        "record holds blanks, not tabs")
            _once(header, code, number, line[4:].strip(), out)
            header[code] = (number, line[4:].strip())
            limit = _HEADER_LIMITS.get(code)
            if limit is not None and len(header[code][1]) > limit:
                out.add(number, "col 5", f"record {code}: {len(header[code][1])} characters; at "
                        f"most {limit}")
        elif code == "132":
            _once(header, code, number, line[4:].strip(), out)
            header[code] = (number, line[4:].strip())
            round_dates = _round_dates(line, number, out)
        elif code in ("XXR", "142"):  # number of rounds: TRFx, and TRF-2026's record 142
            value = line[4:].strip()
            if _DIGITS.fullmatch(value) and 0 < int(value) <= 99:
                rounds, header_line = int(value), number
            else:
                out.add(number, "col 5", f"{code} {value!r}: the number of rounds must be 1 to 99",
                        WARNING)
        elif not _CODE.match(line):
            out.add(number, "col 1-3", f"not a TRF record: {line[:20]!r} does not start with a "
                    "three-character record code (such as 012 or 001) and a blank")
    return TrfLines(header, tuple(players), round_dates, rounds, header_line)


def _once(header: dict[str, tuple[int, str]], code: str, number: int, value: str,
          out: TrfProblems) -> None:
    """A header record given again with another value is an error (two events in one file,
    or an edit left behind): the file cannot say which one holds."""
    if code in header and header[code][1] != value:
        out.add(number, "col 1-3", f"record {code} is also on line {header[code][0]} with "
                "another value: one event per file")


def _round_dates(line: str, number: int, out: TrfProblems) -> tuple[dt.date | None, ...]:
    dates: list[dt.date | None] = []
    for n, start in enumerate(range(91, max(len(line), 91), 10), start=1):
        cell = line[start : start + 10].strip()
        day = parse_date(cell) if cell else None
        if cell and day is None:
            out.add(number, col_label(start + 1, start + 8), f"round {n} date {cell!r} is not a date "
                    "(write YY/MM/DD)")
        dates.append(day)
    return tuple(dates)


def _player(line: str, number: int, out: TrfProblems) -> TrfPlayer | None:
    """One ``001`` line, or None (with errors) when a field cannot be read."""
    before = out.errors

    def err(first: int, last: int, message: str) -> None:
        out.add(number, col_label(first, last), message)

    def cell(first: int, last: int) -> str:
        return line[first - 1 : last].strip()

    if _DIGITS.fullmatch(line[4:8].strip()):
        out.refused.add(int(line[4:8]))  # until the line is read in full
    if "\t" in line:
        err(line.index("\t") + 1, line.index("\t") + 1, "a tab: TRF columns are blanks only")
        return None
    for col in _SEPARATORS:
        if len(line) >= col and line[col - 1] != " ":
            if col == 48 and line[13:47].strip():
                err(48, 48, "the name runs past column 47 (at most 33 characters): the rating "
                    "and every later field are out of their columns")
            else:
                err(col, col, f"column {col} must be blank (a separator): the fields are shifted")
            return None
    rank_text = cell(5, 8)
    if not _DIGITS.fullmatch(rank_text) or int(rank_text) == 0:
        err(5, 8, f"start rank {rank_text!r} must be a number from 1")
    name = cell(15, 47)
    if not name:
        err(15, 47, "no player name")
    sex = {"m": "M", "w": "F", "f": "F", "": None}.get(cell(10, 10).lower(), "?")
    if sex == "?":
        err(10, 10, f"sex {cell(10, 10)!r}: write m, w (or f), or blank")
    title_text = cell(11, 13)
    title = TITLES.get(title_text.lower()) if title_text else None
    if title_text and title is None:
        out.add(number, "col 11-13", f"title {title_text!r} is not a FIDE title: ignored", WARNING)
    rating = _number(cell(49, 52), number, 49, 52, "rating", out)
    fide_id = _number(cell(58, 68), number, 58, 68, "FIDE id", out)
    federation = cell(54, 56) or None
    if federation is not None and not re.fullmatch(r"[A-Za-z]{3}", federation):
        out.add(number, "col 54-56", f"federation {federation!r} is not a three-letter code: ignored",
                WARNING)
        federation = None
    birth = cell(70, 79) or None
    if birth is not None and not _YEAR.search(birth):
        out.add(number, "col 70-79", f"birth date {birth!r} has no year: ignored", WARNING)
        birth = None
    points_text = cell(81, 84)
    points = None
    if points_text:
        try:
            points = Decimal(points_text)
        except InvalidOperation:
            points = None
        if points is None or not _POINTS.fullmatch(points_text):
            err(81, 84, f"points {points_text!r} must be a number such as 4.5")
    place_text = cell(86, 89)
    if place_text and not _DIGITS.fullmatch(place_text):
        err(86, 89, f"rank {place_text!r} must be a number")
    rounds = trim_rounds(tuple(_rounds(line, number, out)))
    if out.errors > before:
        return None
    out.refused.discard(int(rank_text))
    return TrfPlayer(
        rank=int(rank_text), name=name, sex=sex, title=title, rating=rating or None,
        federation=federation.upper() if federation else None, fide_id=fide_id or None,
        birth=birth, points=points, place=int(place_text) if place_text else None,
        rounds=rounds, line=number)


def _number(text: str, number: int, first: int, last: int, what: str, out: TrfProblems) -> int | None:
    if not text:
        return None
    if not _DIGITS.fullmatch(text):
        out.add(number, col_label(first, last), f"{what} {text!r} must be digits (or blank)")
        return None
    return int(text)


def _rounds(line: str, number: int, out: TrfProblems) -> Iterator[TrfRound]:
    for n, start in enumerate(range(91, len(line), 10), start=1):
        chunk = line[start : start + 10].ljust(10)
        opponent_text, colour, result = chunk[:4].strip(), chunk[5], chunk[7]
        where = f"round {n}"
        junk = [i for i in (4, 6, 8, 9) if chunk[i] != " "]
        if junk:
            out.add(number, col_label(start + junk[0] + 1, start + junk[0] + 1),
                    f"{where}: column {start + junk[0] + 1} must be blank: the round cells are "
                    "shifted (each is 4-digit opponent, colour, result, ten columns apart)")
            continue
        if opponent_text and not _DIGITS.fullmatch(opponent_text):
            out.add(number, col_label(start + 1, start + 4),
                    f"{where}: opponent {opponent_text!r} must be a start rank or 0000")
            continue
        if colour not in "wb- ":
            out.add(number, col_label(start + 6, start + 6),
                    f"{where}: colour {colour!r} must be w, b or -")
            continue
        if result != " " and result not in RESULT_CODES and result not in "=":
            out.add(number, col_label(start + 8, start + 8),
                    f"{where}: result code {result!r} does not exist (1 = 0, + -, W D L, H F U Z)")
            continue
        opponent = int(opponent_text) if opponent_text else 0
        yield TrfRound(opponent or None, colour.strip(), result.strip())


def trim_rounds(rounds: tuple[TrfRound, ...]) -> tuple[TrfRound, ...]:
    """Without the blank cells at the end (a line's trailing blanks say nothing)."""
    blank = TrfRound(None, "", "")
    while rounds and rounds[-1] == blank:
        rounds = rounds[:-1]
    return rounds
