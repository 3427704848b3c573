"""Read a CSV file of games (a club's spreadsheet) into common records plus problems (pure).

The header row names the columns, in any order: ``date,white,black,result`` are required;
``event,round,white_fide_id,black_fide_id`` are optional, and so are ``pool`` (standard, rapid or
blitz) and ``time_control`` (base minutes + increment seconds, ``15+10``), which give the game's
rating pool (docs/RULES.md §9), and ``white_time_control``, ``black_time_control`` for players who
had different times (recorded, not rated). ``date`` is ``YYYY-MM-DD``; ``result``
takes the codes of ``ledger game add`` (``1-0``, ``0-1``, ``1/2-1/2`` or ``½-½``, forfeits
``+/-``, ``-/+``, ``-/-``: recorded, never rated). Fields are read as RFC 4180 text (Python's
``csv`` module): a name that starts with ``=``, ``+``, ``-`` or ``@`` is a name, never a formula.
The file is UTF-8 (a byte-order mark, as spreadsheets write, is dropped), read one line at a time
from a binary handle (``ledger.formats.text_stream``); past ``MAX_PROBLEMS`` errors the reader
stops, with one error saying on which line.

>>> readout = read_csv("games.csv", b"date,white,black,result\\n2025-11-05,=Player A,@Player B,1-0\\n")
>>> [(g.white.name, g.black.name, g.result.value) for g in readout.games]
[('=Player A', '@Player B', '1-0')]
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from types import MappingProxyType
from typing import Any, BinaryIO

from ledger.domain import Result, described_character, find_control_character, not_a_date
from ledger.errors import InvalidInput, Problem
from ledger.formats.records import FileGame, FilePlayer, Readout, Where
from ledger.formats.text_stream import BadEncoding, Problems, utf8_blocks

__all__ = ["COLUMNS", "REQUIRED", "CsvStream", "read_csv"]

REQUIRED = ("date", "white", "black", "result")
COLUMNS = (*REQUIRED, "event", "round", "white_fide_id", "black_fide_id", "pool",
           "time_control", "white_time_control", "black_time_control")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_ID = re.compile(r"[0-9]{1,11}")
#: The FIDE id column of each side.
_ID_COLUMN = {"white": "white_fide_id", "black": "black_fide_id"}
#: Each result code as ``Result.parse`` reads it unchanged (anything else goes to it).
_RESULTS = {member.value: member for member in Result}
#: The columns of one line of text each (no control or format character:
#: ``domain.find_control_character``), and what a message calls their values.
_ONE_LINE = {"white": "a name", "black": "a name", "event": "an event name", "round": "a round"}


def read_csv(path: str, source: bytes | BinaryIO) -> Readout:
    """Read a CSV file, its bytes or an open binary handle (read from where it stands, one line
    at a time); ``path`` is only copied into problems. Never raises on bad data: a row with a
    fault gives an error on its 1-based line and column name and no game. A file that is not
    UTF-8 gives one error (field ``encoding``, the line of the first bad byte) and nothing else.
    NUL characters are dropped (the ASCII text of a UTF-16 file then reads).
    Past ``MAX_PROBLEMS`` errors the rows are no longer read: the problems end with one error
    naming the line the reader stopped at, and there are no games. ``CsvStream`` reads the
    same rows in batches, never holding the whole file."""
    stream = CsvStream(path, source)
    games = [g for batch in stream.batches() for g in batch]
    return stream.readout(games)


class CsvStream:
    """A CSV file of games read in batches (``batches``), for an import that never holds the
    whole file: the same rows, games and problems as ``read_csv``, which is built on it.

    While reading, ``problems`` (a ``text_stream.Problems``) holds the problems found so far
    and ``rows`` counts the rows read (blank ones not counted). After the last batch,
    ``failed`` tells that the file gives no games at all (not UTF-8, or more than
    ``MAX_PROBLEMS`` errors: the games of the batches already given do not count) and
    ``final_problems()`` is the file's list of problems, as ``read_csv`` returns it."""

    def __init__(self, path: str, source: bytes | BinaryIO) -> None:
        self.path = path
        self._handle = io.BytesIO(source) if isinstance(source, bytes) else source
        self.problems = Problems(path)
        self.rows = 0
        self.failed = False
        self._encoding: Problem | None = None

    def batches(self, size: int = 10_000) -> Iterator[list[FileGame]]:
        """The file's games (those without errors), ``size`` (int > 0) at a time, in file order;
        nothing more once the file fails (see ``failed``)."""
        lines = chain.from_iterable(_without_nul(utf8_blocks(self._handle)))
        try:
            yield from _read(self.path, lines, self.problems, self, size)
        except BadEncoding as exc:
            self.failed = True
            self.rows = 0
            self._encoding = Problem(self.path, exc.line, "encoding", "not UTF-8 text; save the "
                                     "file as UTF-8 (CSV UTF-8 in a spreadsheet)")

    def final_problems(self) -> list[Problem]:
        """The problems of the whole file, once every batch is read (``read_csv``'s)."""
        if self._encoding is not None:
            return [self._encoding]
        return self.problems.finish()

    def readout(self, games: list[FileGame]) -> Readout:
        """The ``Readout`` of the file, all batches read, ``games`` being every game given."""
        if self._encoding is not None:
            return Readout([], [self._encoding])
        return Readout([] if self.failed else games, self.final_problems(),
                       games_in_file=self.rows)


def _without_nul(blocks: Iterable[list[str]]) -> Iterator[list[str]]:
    """The lines of ``blocks`` (lists of lines with their ends, ``utf8_blocks``) without NUL
    characters, as if the NULs were removed before the text was split into lines: a line ending
    in CR, then one of NULs and an LF, is one line ending in CRLF (UTF-16 text read as UTF-8);
    a last line of NULs alone is no line. A block without a NUL whose last line does not end in
    a CR (the usual one) is given as it is: no line of it changes."""
    held: str | None = None  # a line ending in CR: the next may be the LF of its CRLF
    for lines in blocks:
        if held is None and not lines[-1].endswith("\r") and "\x00" not in "".join(lines):
            yield lines
            continue
        kept: list[str] = []
        for line in lines:
            text = line.replace("\x00", "")
            if held is not None:
                if text == "\n":
                    kept.append(held + text)
                    held = None
                    continue
                kept.append(held)
                held = None
            if text.endswith("\r"):
                held = text
            elif text:
                kept.append(text)
        if kept:
            yield kept
    if held is not None:
        yield [held]


def _read(path: str, lines: Iterable[str], out: Problems, stream: CsvStream,
          size: int) -> Iterator[list[FileGame]]:
    """The games of ``lines`` (each with its line end, as ``csv.reader`` wants them), ``size``
    at a time; rows counted in ``stream.rows``, ``stream.failed`` set when the reader stops."""
    reader = csv.reader(lines, strict=False)
    games: list[FileGame] = []
    dates: dict[str, dt.date] = {}  # each date's text read once (a month's file has about 30)
    try:
        header = next(reader, None)
        if header is None:
            return
        names = [h.strip().lower() for h in header]
        missing = [c for c in REQUIRED if c not in names]
        unknown = [h for h in names if h not in COLUMNS]
        twice = sorted({h for h in names if names.count(h) > 1})
        if missing or unknown or twice:
            message = "; ".join(
                ([f"missing {', '.join(missing)}"] if missing else [])
                + ([f"unknown column {', '.join(map(repr, unknown))}"] if unknown else [])
                + ([f"column {', '.join(map(repr, twice))} given twice"] if twice else []))
            players = ("; a register of players? add --format players"
                       if "name" in names and "white" not in names and "black" not in names else "")
            out.append(Problem(path, 1, "header", f"{message}: the header is "
                               f"{','.join(REQUIRED)}[,event,round,white_fide_id,black_fide_id]"
                               f"{players}"))
            return
        line = reader.line_num
        game_of = _RowReader(path, names, out, dates).read  # a bound method: the fastest call
        width = len(names)
        for row in reader:
            start, line = line + 1, reader.line_num
            first = row[0] if row else ""
            # no cell with more than blanks (a first cell with more, the usual row, says no at
            # once: ``isspace`` is ``strip``'s own test of a blank)
            if (not first or first.isspace()) and not "".join(row).strip():
                continue
            stream.rows += 1
            if len(row) != width:
                out.append(Problem(path, start, "row", f"{len(row)} fields where the header "
                                   f"has {len(names)}: quote a value holding a comma"))
            else:
                game = game_of(start, row)
                if game is not None:  # a game comes with no error: ``out.full`` as it was
                    games.append(game)
                    if len(games) >= size:
                        yield games
                        games = []
                    continue
            if out.full:  # asked only after a row that may have added an error
                out.stop(line)
                stream.failed = True
                return
    except csv.Error as exc:
        out.append(Problem(path, reader.line_num, "csv", f"not CSV: {exc}"))
        if out.full:
            out.stop(reader.line_num)
            stream.failed = True
            return
    if games:
        yield games


class _Places(Mapping[str, Where]):
    """Where the values of one CSV row stand (a ``Where`` for each key of ``columns``, all on
    ``line``): a mapping made without building a dict of tuples per row."""

    __slots__ = ("_line", "_columns")

    def __init__(self, line: int, columns: dict[str, str]) -> None:
        self._line = line
        self._columns = columns

    def __getitem__(self, key: str) -> Where:
        return (self._line, self._columns[key])

    def get(self, key: str, default: object = None) -> Any:  # the fast path FileGame.where takes
        column = self._columns.get(key)
        return default if column is None else (self._line, column)

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)


#: The keys of a CSV game's and each side's places (``_Places``) and their columns.
_GAME_PLACES = {"result": "result", "date": "date", "time_control": "time_control",
                "pool": "pool"}
_SIDE_PLACES = {side: {"name": side, "fide_id": f"{side}_fide_id"} for side in ("white", "black")}
_WHITE_PLACES, _BLACK_PLACES = _SIDE_PLACES["white"], _SIDE_PLACES["black"]
#: The places of a usual row's game (``_RowReader``): none, since every key of
#: ``_GAME_PLACES`` names its own column, which is where ``FileGame.where`` falls back to.
_NO_PLACES: Mapping[str, Where] = MappingProxyType({})
assert all(key == column for key, column in _GAME_PLACES.items())


class _RowReader:
    """``_game`` for the rows of one file: the header's column positions found once; a row is
    read by position (a list of ``len(names)`` strings), with the same checks and messages."""

    def __init__(self, path: str, names: list[str], problems: Problems,
                 dates: dict[str, dt.date]) -> None:
        self.path, self.names, self.problems, self.dates = path, names, problems, dates
        at = {name: i for i, name in enumerate(names)}
        # the required columns' positions, and whether they are all the header has (the
        # usual file), found once, not per row
        self.date_at, self.result_at = at["date"], at["result"]
        self.white_at, self.black_at = at["white"], at["black"]
        self.usual = len(at) == len(REQUIRED)

    def read(self, line: int, row: list[str]) -> FileGame | None:
        date_text = row[self.date_at].strip()
        day = self.dates.get(date_text)
        result = _RESULTS.get(row[self.result_at])
        white, black = row[self.white_at], row[self.black_at]
        white_name, black_name = white.strip(), black.strip()
        if (day is None or result is None or not white_name or not black_name
                or not self.usual or not (white + black).isprintable()
                or white_name.casefold() == black_name.casefold()):
            return _game(self.path, line, dict(zip(self.names, row, strict=True)),
                         self.problems, self.dates)
        # the usual row: date, white, black and result only, each fine (checked above); the
        # records made with positional arguments (a keyword call of a dataclass's ``__init__``
        # with defaults costs about twice as much) and the game's places left to
        # ``FileGame.where``'s fallback, ``(line, key)``: each key of ``_GAME_PLACES`` is its
        # own column, so the same places without an object a row
        return FileGame(line, FilePlayer(white_name, _Places(line, _WHITE_PLACES)),
                        FilePlayer(black_name, _Places(line, _BLACK_PLACES)), day, result,
                        True, None, None, None, None, None, None, _NO_PLACES)


def _game(path: str, line: int, row: dict[str, str], problems: Problems,
          dates: dict[str, dt.date]) -> FileGame | None:
    """The game of one ``row`` (column -> text) on ``line``, or None with its errors appended to
    ``problems``; ``dates``: the dates read so far by their text (a cache this fills)."""
    before = problems.errors

    def err(column: str, message: str) -> None:
        problems.append(Problem(path, line, column, message))

    date_text = row["date"].strip()
    day = dates.get(date_text)
    if day is None and _DATE.fullmatch(date_text):
        try:
            day = dt.date.fromisoformat(date_text)
        except ValueError:
            day = None
        if day is not None:
            dates[date_text] = day
    if day is None:
        err("date", not_a_date(date_text))
    result = _RESULTS.get(row["result"])  # a result as written the usual way
    if result is None:
        try:
            result = Result.parse(row["result"])
        except InvalidInput as exc:
            err("result", str(exc).removeprefix("result: "))
    players = []
    for side in ("white", "black"):
        name = row[side].strip()
        if not name:
            err(side, "no player name")
        id_text = row.get(_ID_COLUMN[side], "").strip()
        fide_id = None
        if id_text:
            if _ID.fullmatch(id_text) and int(id_text) > 0:
                fide_id = int(id_text)
            else:
                err(f"{side}_fide_id", f"{id_text!r} is not a FIDE id")
        players.append(FilePlayer(name=name, at=_Places(line, _SIDE_PLACES[side]),
                                  fide_id=fide_id))
    for column, what in _ONE_LINE.items():
        control = find_control_character(row.get(column, ""))
        if control is None:
            continue
        char = control.group()
        found = (f"a line break or control character (U+{ord(char):04X}) inside the quotes"
                 if unicodedata.category(char) == "Cc" else described_character(char))
        err(column, f"{found}: {what} is one line of visible text")
    for column, limit in (("event", 200), ("round", 20)):
        if len(row.get(column, "").strip()) > limit:
            err(column, f"{len(row[column].strip())} characters; at most {limit}")
    if players[0].name and players[0].name.casefold() == players[1].name.casefold():
        err("black", f"White and Black are the same player ({players[0].name!r})")
    if problems.errors > before or day is None or result is None:
        return None
    return FileGame(line=line, white=players[0], black=players[1], date=day, result=result,
                    event=row.get("event", "").strip() or None,
                    round=row.get("round", "").strip() or None,
                    at=_Places(line, _GAME_PLACES),
                    time_control=row.get("time_control", "").strip() or None,
                    white_time_control=row.get("white_time_control", "").strip() or None,
                    black_time_control=row.get("black_time_control", "").strip() or None,
                    pool=row.get("pool", "").strip() or None)
