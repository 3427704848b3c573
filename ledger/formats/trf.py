"""FIDE Tournament Report File (TRF): reader and TRF-16 writer (pure: text in, values out).

Source: FIDE TRF-16 (Handbook C.04 Annex 2, "FIDE Data Exchange Format", 2016), as summarised in
tests/data/README.md, and the forms found in the wild: TRF-2006 (dates ``28. 07. 2005``, birth
dates ``1969.12.06``, one-letter titles ``g m f wg wm wf c wc``, forfeits with colour ``-``),
TRF-16, TRFx (JaVaFo's ``XXR``, ``XXC``, ``XXA`` ...), newer records, and Krause files as national
federations receive them (national ids in the FIDE-id column, blank ratings and federations).

Player line ``001``, 1-based columns: start rank 5-8, sex 10, title 11-13, name 15-47, rating
49-52, federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84, rank 86-89; round n at
``92 + 10(n-1)``: opponent 4 characters, colour at +5 (``w``, ``b``, ``-``), result at +7.
Titles are read in both forms (``wf`` or ``WFM``); the writer gives TRF-16's full form.
Results: ``1 = 0`` played; ``+ -`` forfeit win/loss; ``W D L`` a game of less than one move;
``H`` half-point, ``F`` full-point, ``U`` pairing-allocated, ``Z`` or blank zero-point bye.
Only ``1 = 0`` between two players are rated (FIDE B.02 §5.1); byes are not games at all.
Header records: ``012`` name, ``022`` city, ``032`` federation, ``042``/``052`` start and end
dates, ``102`` chief arbiter, ``122`` time control, ``132`` round dates (``YY/MM/DD`` from column
92), ``XXR`` (TRFx) or ``142`` (TRF-2026) number of rounds. Every other record carries nothing
for rating and is skipped: ``###`` comments, TRF-2026's ``152`` ... ``362``, ``240`` byes,
``250``-``330`` pairing and team records, ``801``/``802``, national rating records (``IRL ...``),
TRFx ``XXC``, ``XXA``, ``DAT``. (TRF-2026, FIDE Council 12 May 2025, keeps the ``001`` layout.)

Columns are characters, not bytes: the file is decoded as UTF-8 (a byte-order mark is dropped),
else as CP1252 with a warning. Lines end in CR, LF or CRLF (only those: a form feed or a Unicode
line separator inside a line is data); trailing blanks are fine. Nothing here raises on bad data:
each fault is a :class:`~ledger.errors.Problem` with file, line, ``col N`` (or ``col A-B``) and a
message; a line with an error gives no player, and a game with an error is left out.

>>> text = "\\n".join([
...     "012 Club Ch", "042 2025/11/01", "052 2025/11/02",
...     "001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  1.0    1"
...     "     2 w 1",
...     "001    2 m    Player, B                         1900 XXX    90000002 1988/01/01  0.0    2"
...     "     1 b 0"])
>>> readout = read_trf_text(text, "club.trf")
>>> [(g.white.name, g.black.name, g.result.value, str(g.date)) for g in readout.games]
[('Player, A', 'Player, B', '1-0', '2025-11-02')]
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from ledger.domain import Result
from ledger.errors import Problem
from ledger.formats.records import EventDetails, FileGame, FilePlayer, Readout, Where, line_at

__all__ = ["TrfEvent", "TrfPlayer", "TrfRound", "file_end_date", "read_trf", "read_trf_text",
           "split_lines", "write_trf"]

ERROR, WARNING = "error", "warning"
PLAYED = frozenset("1=0")
FORFEITS = frozenset("+-")
SHORT = frozenset("WDL")  # less than one move
BYES = frozenset("HFUZ")
RESULT_CODES = PLAYED | FORFEITS | SHORT | BYES
#: What the opponent's cell must say for each code (the same game seen from the other side).
_MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}
#: White's code -> (result, played).
_GAME = {
    "1": (Result.WHITE_WINS, True), "=": (Result.DRAW, True), "0": (Result.BLACK_WINS, True),
    "+": (Result.WHITE_FORFEIT_WIN, True), "W": (Result.WHITE_WINS, False),
    "D": (Result.DRAW, False), "L": (Result.BLACK_WINS, False),
}
_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM",
           "wc": "WCM", "gm": "GM", "im": "IM", "fm": "FM", "cm": "CM", "wgm": "WGM",
           "wim": "WIM", "wfm": "WFM", "wcm": "WCM"}
#: TRF-16 writes the title in full in columns 11-13 (``GM, IM, WGM, FM, WIM, CM, WFM, WCM``).
_WRITE_TITLES = frozenset(_TITLES.values())
#: Player-line columns (1-based) that must be blank: the separators between fields.
_SEPARATORS = (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91)
_DIGITS = re.compile(r"[0-9]+")
_POINTS = re.compile(r"[0-9]{1,2}(\.[05])?")
#: Control characters other than tab (reported on its own for player lines): never text.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
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


@dataclass(frozen=True)
class TrfEvent:
    """A tournament as a TRF file gives it: header values and the player lines.

    ``start``/``end`` dates; ``round_dates`` from record ``132`` (None where not given);
    ``rounds`` from ``XXR`` (None when absent). The event's games belong to the period of ``end``.
    ``lines``: record code (``012``, ``052``, ``132`` ...) -> its 1-based line in the file.
    """

    name: str | None
    players: tuple[TrfPlayer, ...]
    city: str | None = None
    federation: str | None = None
    start: dt.date | None = None
    end: dt.date | None = None
    arbiter: str | None = None
    time_control: str | None = None
    rounds: int | None = None
    round_dates: tuple[dt.date | None, ...] = ()
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)


def split_lines(text: str) -> list[str]:
    """Lines ended by CR, LF or CRLF (only these; ``str.splitlines`` would also split on form
    feeds, ``\\x1c``-``\\x1e``, NEL and Unicode separators, which are data in a fixed column)."""
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def decode(raw: bytes, filename: str) -> tuple[str, list[Problem]]:
    """Text of the file: UTF-8 (a leading byte-order mark dropped), else CP1252 with a warning
    saying so (bytes CP1252 leaves undefined become U+FFFD). A file starting with a UTF-16
    byte-order mark (Windows' "Unicode") is read as UTF-16, with a warning."""
    if raw[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        try:
            return raw.decode("utf-16"), [Problem(filename, 1, "encoding", "UTF-16 (byte-order "
                                                  "mark): read as such; save TRF files as UTF-8",
                                                  WARNING)]
        except UnicodeDecodeError:
            pass
    try:
        return raw.decode("utf-8").removeprefix("\ufeff"), []
    except UnicodeDecodeError as exc:
        line = line_at(raw, exc.start)
        message = ("not UTF-8 (first bad byte on this line): read as Windows-1252 (CP1252); "
                   "check the accented names, or save the file as UTF-8")
        return raw.decode("cp1252", errors="replace"), [Problem(filename, line, "encoding", message,
                                                                WARNING)]


class _Out:
    """Problems of one file, each on a line and column."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.problems: list[Problem] = []
        self.refused: set[int] = set()  # start ranks of player lines refused (already reported)

    def add(self, line: int, column: str, message: str, severity: str = ERROR) -> None:
        self.problems.append(Problem(self.filename, line, column, message, severity))


def _cols(first: int, last: int) -> str:
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


def read_trf(raw: bytes, filename: str,
             end_date: dt.date | None = None) -> tuple[TrfEvent, Readout]:
    """Read a TRF file's bytes: the event as written, and its games as common records.

    Returns ``(event, readout)``; ``readout.games`` holds every game between two players (rated,
    forfeit or less than one move; byes are not games), ``readout.players_in_file`` the number of
    ``001`` lines and ``readout.problems`` every problem (see the module docstring). Never raises.
    ``end_date`` is the event's end date for a file that gives none (no ``052`` and no ``132``
    record): its games are dated on it. A file that gives its own dates is read from them alone
    (``end_date`` is not used; :func:`file_end_date` tells the caller whether they agree).
    """
    text, problems = decode(raw, filename)
    event, readout = _read(text, filename, end_date)
    readout.problems[:0] = problems
    return event, readout


def read_trf_text(text: str, filename: str, end_date: dt.date | None = None) -> Readout:
    """Read TRF text (already decoded) into common records; see :func:`read_trf`."""
    return _read(text, filename, end_date)[1]


def file_end_date(event: TrfEvent) -> dt.date | None:
    """The end date the file itself gives: record ``052``, else the last round date of record
    ``132``; None when it gives neither (TRF-16 header records 052 and 132)."""
    return event.end or max((d for d in event.round_dates if d is not None), default=None)


def _read(text: str, filename: str, end_date: dt.date | None) -> tuple[TrfEvent, Readout]:
    out = _Out(filename)
    event = _read_event(split_lines(text), out)
    games = _games(event, out, end_date)
    return event, Readout(games, out.problems, games_in_file=len(games),
                          players_in_file=len(event.players))


# --------------------------------------------------------------------------------------------
# Lines -> TrfEvent


def _read_event(lines: list[str], out: _Out) -> TrfEvent:
    header: dict[str, tuple[int, str]] = {}
    players: list[TrfPlayer] = []
    round_dates: tuple[dt.date | None, ...] = ()
    rounds: int | None = None
    header_line = 0  # the line of XXR (or 142)
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(" ")
        if not line.strip():
            continue
        control = _CONTROL.search(line)
        if control is not None:
            out.add(number, f"col {control.start() + 1}", f"control character "
                    f"U+{ord(control.group()):04X}: a TRF line holds text only (is this a TRF file?)")
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
    _check_ranks(players, out)
    if rounds is not None:
        _check_rounds(players, rounds, header_line, out)
    start = _header_date(header, "042", "start date", out)
    end = _header_date(header, "052", "end date", out)
    if start is not None and end is not None and end < start:
        out.add(header["052"][0], "col 5", f"record 052: the end date {end} is before the start "
                f"date {start}")
    _check_round_dates(round_dates, start, end, header, out)
    text = {code: value or None for code, (_, value) in header.items()
            if len(value) <= _HEADER_LIMITS.get(code, 200)}
    return TrfEvent(
        name=text.get("012"), players=tuple(players), city=text.get("022"),
        federation=text.get("032"), start=start, end=end, arbiter=text.get("102"),
        time_control=text.get("122"), rounds=rounds, round_dates=round_dates,
        lines={code: number for code, (number, _) in header.items()})


def _check_round_dates(round_dates: tuple[dt.date | None, ...], start: dt.date | None,
                       end: dt.date | None, header: dict[str, tuple[int, str]], out: _Out) -> None:
    """A round date (record 132) before the start date (042) or after the end date (052) is an
    error: it would move the game, and with it the event, into another rating period."""
    for n, day in enumerate(round_dates, start=1):
        column = 92 + 10 * (n - 1)
        if day is None:
            continue
        if start is not None and day < start:
            what, code = "before the start date", "042"
        elif end is not None and day > end:
            what, code = "after the end date", "052"
        else:
            continue
        out.add(header["132"][0], _cols(column, column + 7), f"round {n} date {day} is {what} "
                f"(record {code}, line {header[code][0]})")


def _once(header: dict[str, tuple[int, str]], code: str, number: int, value: str,
          out: _Out) -> None:
    """A header record given again with another value is an error (two events in one file,
    or an edit left behind): the file cannot say which one holds."""
    if code in header and header[code][1] != value:
        out.add(number, "col 1-3", f"record {code} is also on line {header[code][0]} with "
                "another value: one event per file")


def _header_date(header: dict[str, tuple[int, str]], code: str, what: str,
                 out: _Out) -> dt.date | None:
    if code not in header or not header[code][1]:
        return None
    number, value = header[code]
    day = parse_date(value)
    if day is None:
        out.add(number, "col 5", f"record {code}: {value!r} is not a valid {what} (write "
                "YYYY/MM/DD)")
    return day


def _round_dates(line: str, number: int, out: _Out) -> tuple[dt.date | None, ...]:
    dates: list[dt.date | None] = []
    for n, start in enumerate(range(91, max(len(line), 91), 10), start=1):
        cell = line[start : start + 10].strip()
        day = parse_date(cell) if cell else None
        if cell and day is None:
            out.add(number, _cols(start + 1, start + 8), f"round {n} date {cell!r} is not a date "
                    "(write YY/MM/DD)")
        dates.append(day)
    return tuple(dates)


def _player(line: str, number: int, out: _Out) -> TrfPlayer | None:
    """One ``001`` line, or None (with errors) when a field cannot be read."""
    before = len(out.problems)

    def err(first: int, last: int, message: str) -> None:
        out.add(number, _cols(first, last), message)

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
    title = _TITLES.get(title_text.lower()) if title_text else None
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
    rounds = _trim(tuple(_rounds(line, number, out)))
    if len(out.problems) > before and any(p.severity == ERROR for p in out.problems[before:]):
        return None
    out.refused.discard(int(rank_text))
    return TrfPlayer(
        rank=int(rank_text), name=name, sex=sex, title=title, rating=rating or None,
        federation=federation.upper() if federation else None, fide_id=fide_id or None,
        birth=birth, points=points, place=int(place_text) if place_text else None,
        rounds=rounds, line=number)


def _number(text: str, number: int, first: int, last: int, what: str, out: _Out) -> int | None:
    if not text:
        return None
    if not _DIGITS.fullmatch(text):
        out.add(number, _cols(first, last), f"{what} {text!r} must be digits (or blank)")
        return None
    return int(text)


def _rounds(line: str, number: int, out: _Out) -> Iterator[TrfRound]:
    for n, start in enumerate(range(91, len(line), 10), start=1):
        chunk = line[start : start + 10].ljust(10)
        opponent_text, colour, result = chunk[:4].strip(), chunk[5], chunk[7]
        where = f"round {n}"
        junk = [i for i in (4, 6, 8, 9) if chunk[i] != " "]
        if junk:
            out.add(number, _cols(start + junk[0] + 1, start + junk[0] + 1),
                    f"{where}: column {start + junk[0] + 1} must be blank: the round cells are "
                    "shifted (each is 4-digit opponent, colour, result, ten columns apart)")
            continue
        if opponent_text and not _DIGITS.fullmatch(opponent_text):
            out.add(number, _cols(start + 1, start + 4),
                    f"{where}: opponent {opponent_text!r} must be a start rank or 0000")
            continue
        if colour not in "wb- ":
            out.add(number, _cols(start + 6, start + 6),
                    f"{where}: colour {colour!r} must be w, b or -")
            continue
        if result != " " and result not in RESULT_CODES and result not in "=":
            out.add(number, _cols(start + 8, start + 8),
                    f"{where}: result code {result!r} does not exist (1 = 0, + -, W D L, H F U Z)")
            continue
        opponent = int(opponent_text) if opponent_text else 0
        yield TrfRound(opponent or None, colour.strip(), result.strip())


def _trim(rounds: tuple[TrfRound, ...]) -> tuple[TrfRound, ...]:
    """Without the blank cells at the end (a line's trailing blanks say nothing)."""
    blank = TrfRound(None, "", "")
    while rounds and rounds[-1] == blank:
        rounds = rounds[:-1]
    return rounds


def _check_ranks(players: list[TrfPlayer], out: _Out) -> None:
    """A start rank, or an id in columns 58-68, on two player lines is an error (two players
    cannot share either)."""
    seen: dict[int, int] = {}
    ids: dict[int, int] = {}
    for p in players:
        if p.rank in seen:
            out.add(p.line, "col 5-8", f"start rank {p.rank} is also on line {seen[p.rank]}")
        seen.setdefault(p.rank, p.line)
        if p.fide_id is not None and p.fide_id in ids:
            out.add(p.line, "col 58-68", f"id {p.fide_id} is also on line {ids[p.fide_id]}: two "
                    "players cannot share one")
        if p.fide_id is not None:
            ids.setdefault(p.fide_id, p.line)


def _check_rounds(players: list[TrfPlayer], rounds: int, header_line: int, out: _Out) -> None:
    """A round cell after the last round that XXR (or 142) announces is an error: one of the
    two records is wrong, and the file cannot say which."""
    for p in players:
        if len(p.rounds) > rounds:
            column = 92 + 10 * rounds
            out.add(p.line, _cols(column, column + 7), f"round {rounds + 1}: the file has "
                    f"{rounds} rounds (line {header_line}); correct that record or this line")


# --------------------------------------------------------------------------------------------
# TrfEvent -> games


def _games(event: TrfEvent, out: _Out, end_date: dt.date | None) -> list[FileGame]:
    """One game per pairing of two players, checked from both lines; byes are not games.
    ``end_date`` dates the games of a file that gives no date (see :func:`read_trf`)."""
    by_rank = {p.rank: p for p in event.players}
    records = {p.rank: _file_player(p, out.filename) for p in event.players}
    first_line = min((p.line for p in event.players), default=1)
    given = file_end_date(event)
    end = given or end_date
    if event.players and event.name is None:
        out.add(first_line, "012", "no event name (record 012): the games need their event")
    if event.players and end is None:
        out.add(first_line, "052", "no end date (record 052) and no round dates (record 132): "
                "the games need a date; give the event's end date with --end-date YYYY-MM-DD")
    if given is None and end is not None and event.start is not None and end < event.start:
        out.add(event.lines["042"], "col 5", f"record 042: the start date {event.start} is after "
                f"the end date {end} given by --end-date")
        return []
    if event.name is None or end is None:
        return []
    details = EventDetails(name=event.name, start=event.start or end, end=end, city=event.city,
                           federation=event.federation, arbiter=event.arbiter,
                           time_control=event.time_control,
                           rounds=event.rounds or max((len(p.rounds) for p in event.players),
                                                      default=0) or None)
    games: list[FileGame] = []
    for p in event.players:
        for n, cell in enumerate(p.rounds, start=1):
            column = 92 + 10 * (n - 1)
            game = _game(p, n, cell, by_rank, out)
            if game is None:
                continue
            other = by_rank[cell.opponent or 0]
            if (p.rank, other.rank) != game:
                continue  # recorded from the line of the player who is White
            white, black = by_rank[game[0]], by_rank[game[1]]
            code = white.rounds[n - 1].result
            result, played = (Result.DOUBLE_FORFEIT, True) if code == "-" else _GAME[code]
            if code == "-" and black.rounds[n - 1].result == "+":
                result = Result.BLACK_FORFEIT_WIN
            day = event.round_dates[n - 1] if n <= len(event.round_dates) else None
            games.append(FileGame(
                line=white.line, white=records[white.rank], black=records[black.rank],
                date=day or end, result=result, played=played, event=event.name, round=str(n),
                site=event.city, event_start=details.start, event_end=end, details=details,
                at={"result": (white.line, _cols(column + 7, column + 7)),
                    "start": (event.lines.get("042") or event.lines.get("052"), "042 start date"),
                    "date": (event.lines.get("132"), "132 round dates") if day is not None
                    else (event.lines.get("052"), "052 end date") if given is not None
                    else (None, "--end-date")}))
    return games


def _game(p: TrfPlayer, n: int, cell: TrfRound, by_rank: dict[int, TrfPlayer],
          out: _Out) -> tuple[int, int] | None:
    """(White's rank, Black's rank) of round ``n`` of ``p``'s line, or None when it is a bye
    (or an error, reported). Checks the opponent's line says the same."""
    column = 92 + 10 * (n - 1)
    where = f"round {n}"
    code = cell.result
    if cell.opponent is None:
        if code in PLAYED | SHORT:
            if code == "=":
                out.add(p.line, _cols(column + 7, column + 7), f"{where}: '=' with no opponent is "
                        "an old-style half-point bye: read as H", WARNING)
            else:
                out.add(p.line, _cols(column, column + 3), f"{where}: result {code!r} needs an "
                        "opponent (0000 means none)")
        elif code in FORFEITS:
            out.add(p.line, _cols(column + 7, column + 7), f"{where}: {code!r} with no opponent "
                    f"is an old-style {'full' if code == '+' else 'zero'}-point bye: not a game",
                    WARNING)
        return None
    if code in BYES or code == "":
        what = f"bye code {code!r}" if code else "a blank result"
        out.add(p.line, _cols(column, column + 7), f"{where}: {what} with opponent {cell.opponent}: "
                "a bye needs opponent 0000 (TRF-16 round fields)")
        return None
    other = by_rank.get(cell.opponent)
    if other is None and cell.opponent in out.refused:
        return None  # that line has its own error
    if other is None:
        out.add(p.line, _cols(column, column + 3), f"{where}: opponent {cell.opponent} is not a "
                "start rank in the file")
        return None
    if other.rank == p.rank:
        out.add(p.line, _cols(column, column + 3), f"{where}: a player cannot meet themselves")
        return None
    if cell.colour == "-" and code in PLAYED | SHORT:
        out.add(p.line, _cols(column + 5, column + 5), f"{where}: result {code!r} is a game on "
                "the board: its colour must be w or b")
        return None
    theirs = other.rounds[n - 1] if n <= len(other.rounds) else TrfRound(None, "", "")
    colours_ok = ({cell.colour, theirs.colour} == {"w", "b"}
                  or (cell.colour == theirs.colour == "-" and code in FORFEITS))
    result_ok = _MIRROR.get(code) == theirs.result or (code == theirs.result == "-")
    if theirs.opponent != p.rank or not colours_ok or not result_ok:
        # Report once: on the first of two lines that point at each other, else on this one.
        if p.rank < other.rank or theirs.opponent != p.rank:
            said = (f"{theirs.opponent or 0:04d} {theirs.colour or ' '} {theirs.result or ' '}"
                    if theirs.opponent or theirs.result else "nothing")
            out.add(p.line, _cols(column, column + 7), f"{where}: this line says "
                    f"{cell.opponent} {cell.colour} {code}, but the line of {other.rank} "
                    f"(line {other.line}) says {said}: the two lines must agree")
        return None
    if cell.colour == "w" or (cell.colour == "-" and p.rank < other.rank):
        return p.rank, other.rank
    return other.rank, p.rank


def _file_player(p: TrfPlayer, filename: str) -> FilePlayer:
    at: dict[str, Where] = {"name": (p.line, "col 15-47 name"), "rating": (p.line, "col 49-52 rating"),
                            "fide_id": (p.line, "col 58-68 FIDE id"), "title": (p.line, "col 11-13"),
                            "sex": (p.line, "col 10 sex"), "federation": (p.line, "col 54-56 federation"),
                            "birth_year": (p.line, "col 70-79 birth date")}
    return FilePlayer(name=p.name, at=at, fide_id=p.fide_id, birth_year=p.birth_year,
                      rating=p.rating, title=p.title, sex=p.sex, federation=p.federation)


# --------------------------------------------------------------------------------------------
# Writing TRF-16


def _date_text(day: dt.date | None) -> str:
    return day.strftime("%Y/%m/%d") if day else ""


def write_trf(event: TrfEvent, comments: Sequence[str] = ()) -> str:
    """TRF-16 text of ``event`` (LF line ends): header records, ``XXR`` when ``rounds`` is
    given, ``132`` when round dates are, one ``### text`` line per entry of ``comments``, then
    one ``001`` line per player. (TRF-16 defines no comment record; TRF-2026, Remark 1, allows
    lines starting ``###``, and readers skip them, as this module's reader does.)

    Raises ``ValueError`` for a value that does not fit its columns (a name over 33 characters,
    a rating over 4 digits, a FIDE id over 11 digits, a start rank over 9999) or a comment with
    a line break in it.
    """
    out = [f"012 {event.name or ''}"]
    for code, value in (("022", event.city), ("032", event.federation),
                        ("042", _date_text(event.start)), ("052", _date_text(event.end)),
                        ("102", event.arbiter), ("122", event.time_control)):
        if value:
            out.append(f"{code} {value}")
    if event.rounds:
        out.append(f"XXR {event.rounds}")
    if any(event.round_dates):
        cells = "".join(f"{d.strftime('%y/%m/%d') if d else '':8}  " for d in event.round_dates)
        out.append(("132" + " " * 88 + cells).rstrip())  # round n's date from 92 + 10(n-1)
    for comment in comments:
        if "\n" in comment or "\r" in comment:
            raise ValueError(f"comment {comment!r}: a TRF comment is one line")
        out.append(f"### {comment}")
    for p in event.players:
        out.append(_player_line(p))
    return "\n".join(out) + "\n"


def _player_line(p: TrfPlayer) -> str:
    if len(p.name) > 33:
        raise ValueError(f"player {p.rank}, {p.name!r}: {len(p.name)} characters, and a TRF name "
                         "has at most 33 (columns 15-47)")
    if not 0 < p.rank <= 9999:
        raise ValueError(f"player {p.rank}: a TRF start rank is 1 to 9999")
    if (p.rating or 0) > 9999 or (p.fide_id or 0) >= 10**11 or len(p.birth or "") > 10:
        raise ValueError(f"player {p.rank}, {p.name!r}: a rating, FIDE id or birth date does not "
                         "fit its columns")
    sex = {"M": "m", "F": "w", None: " "}[p.sex]
    title = p.title if p.title in _WRITE_TITLES else ""
    points = f"{p.points:4.1f}" if p.points is not None else ""
    line = (f"001 {p.rank:4d} {sex}{title:>3} {p.name:33} {p.rating or '':>4} "
            f"{p.federation or '':3} {p.fide_id or '':>11} {p.birth or '':10} {points:>4} "
            f"{p.place if p.place is not None else '':>4}  ")
    for r in _trim(p.rounds):
        if r == TrfRound(None, "", ""):
            line += " " * 10
            continue
        opponent = f"{r.opponent:4d}" if r.opponent else "0000"
        line += f"{opponent} {r.colour or ' '} {r.result or ' '}  "
    return line.rstrip()
