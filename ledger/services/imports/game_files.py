"""Reading a file of games (PGN, TRF, CSV) for an import: the readers by format, the file read
once as a stream and hashed as it is read, and the dates no import accepts. Shared by
``services.imports.games`` (``ledger import``) and ``services.corrections.replace`` (``ledger
import --replace``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from ledger.domain import Period
from ledger.errors import Problem, UsageError
from ledger.formats import games_csv, trf
from ledger.formats.detect import detect_format
from ledger.formats.records import NO_MOVES, FileGame, Readout
from ledger.services.close.state import FIRST_RATED_PERIOD
from ledger.services.imports.input_files import InputFile, check_input_file, file_head

#: Dates before this are typing errors (FIDE's first rating list is of 1971): refused.
FIRST_LIST = dt.date(1970, 1, 1)


def _read_pgn(path: str, raw: BinaryIO, no_moves: str | None = None) -> Readout:
    from ledger.formats import pgn  # python-chess: only for a PGN file
    return pgn.to_records(pgn.read_pgn_binary(raw, path, no_moves))


def _read_trf(path: str, raw: BinaryIO, end_date: dt.date | None = None,
              _no_moves: str | None = None) -> Readout:
    event, readout = trf.read_trf(raw, path, end_date)
    given = trf.file_end_date(event)
    if end_date is not None and given is not None and given != end_date:
        code = "052" if event.end is not None else "132"
        raise UsageError(f"{path}:{event.lines[code]}: --end-date {end_date} differs from the end "
                         f"date {given} the file gives (record {code}): the file's dates are "
                         "used when it has them; drop --end-date or correct the file")
    return readout


#: Format name -> reader of a file's (path, binary stream at its start). One line per format.
#: Called as ``reader(path, raw, end_date, no_moves)``; only a TRF can use ``end_date`` and only
#: a PGN ``no_moves`` (``formats.pgn.read_pgn``; the check in ``import_file`` refuses them for
#: the others).
READERS: dict[str, Callable[[str, BinaryIO, dt.date | None, str | None], Readout]] = {
    "pgn": lambda path, raw, _end_date, no_moves: _read_pgn(path, raw, no_moves),
    "trf": _read_trf,
    "csv": lambda path, raw, _end_date, _no_moves: games_csv.read_csv(path, raw),
}

#: How the id column of a file is read: ``fide`` (FIDE ids, matched and registered) or
#: ``national`` (a federation's own ids, as Krause files carry: ignored).
ID_KINDS = ("fide", "national")


def sha256_of(raw: bytes) -> str:
    """The SHA-256 of a file's bytes, in hex: how the ledger knows a file imported before."""
    return hashlib.sha256(raw).hexdigest()


def _checked_format(path: str, fmt: str | None, ids: str, end_date: dt.date | None,
                    no_moves: str | None = None) -> str:
    """The format to read ``path`` in (``fmt``, else told by its first bytes or its extension),
    or ``ImportRejected``/``UsageError`` as ``read_games_file`` says."""
    check_input_file(path)  # a regular file of at most 2 GB, or ImportRejected (exit 3)
    fmt = fmt or detect_format(file_head(path), Path(path).suffix)
    if fmt not in READERS:
        what = f"format {fmt!r} is not known" if fmt else "cannot tell the format"
        raise UsageError(f"{path}: {what}; give --format {'|'.join([*READERS, 'fide-list'])}")
    if ids not in ID_KINDS:
        raise UsageError(f"--ids {ids!r}: use {' or '.join(ID_KINDS)}")
    if end_date is not None and fmt != "trf":
        raise UsageError(f"{path}: --end-date is for a TRF without dates; a {fmt.upper()} file "
                         "dates each game itself")
    if no_moves is not None and no_moves not in NO_MOVES:
        raise UsageError(f"--no-moves {no_moves!r}: use {' or '.join(NO_MOVES)}")
    if no_moves is not None and fmt != "pgn":
        raise UsageError(f"{path}: --no-moves is for a PGN file; a {fmt.upper()} file gives "
                         "each game's result as played or forfeited itself")
    return fmt


def read_games_file(path: str, fmt: str | None, ids: str, end_date: dt.date | None,
                    no_moves: str | None = None) -> tuple[str, bool, str, Readout]:
    """A file of games read once, as a stream: its SHA-256 (hashed as it is read), whether it
    is blank, its format (``fmt``, else told by its first bytes or its extension) and the
    readout of its reader (``no_moves``: a PGN's games without moves, ``formats.pgn.read_pgn``).
    Raises ``ImportRejected`` for a file that is not a regular file of at most 2 GB,
    ``UsageError`` as ``import_file`` says (and for ``no_moves`` not in ``NO_MOVES`` or given
    for another format)."""
    fmt = _checked_format(path, fmt, ids, end_date, no_moves)
    with InputFile(path) as raw:  # read as a stream, and hashed while it is read
        readout = READERS[fmt](str(path), raw.stream, end_date, no_moves)
        sha256 = raw.sha256()
    return sha256, raw.blank, fmt, readout


#: Games a CSV file is read and imported in at a time (``GameBatches``).
BATCH_GAMES = 10_000


class GameBatches:
    """A file of games for an import, its games given in batches (``batches``): a CSV file in
    batches of ``BATCH_GAMES`` read as they are imported (never the whole file at once:
    ``formats.games_csv.CsvStream``), a PGN or TRF file (an event's games belong together) in
    one batch, read whole first. ``sha256`` and ``blank`` are known before the first batch
    (a CSV file is hashed in a first pass; ``changed`` tells, after the last batch, whether its
    bytes were others when read again). ``new_problems`` gives the reader's problems found
    since it was last called; after the last batch ``failed`` says the file gives no games at
    all (not UTF-8, more than ``MAX_PROBLEMS`` errors) and ``problems`` is then the whole
    list; ``games_in_file``, ``players_in_file`` and ``notes`` are the ``Readout``'s; ``expected_games``,
    known before the first batch, what the progress bar counts to (a CSV's lines below its
    header). ``batch``: games a batch (None: ``BATCH_GAMES``). Raises as
    ``read_games_file``. Use with ``with``."""

    def __init__(self, path: str, fmt: str | None, ids: str, end_date: dt.date | None,
                 batch: int | None = None, no_moves: str | None = None) -> None:
        self.path = str(path)
        self.format = _checked_format(path, fmt, ids, end_date, no_moves)
        self.failed = False
        self.changed = False
        self.games_in_file = 0
        self.players_in_file: int | None = None
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self._batch = batch or BATCH_GAMES  # (read when called: a test may set it smaller)
        self._given = 0
        self._input: InputFile | None = None
        self._stream: games_csv.CsvStream | None = None
        self._readout: Readout | None = None
        if self.format == "csv":
            with InputFile(path) as raw:
                self.sha256 = raw.sha256()
            self.blank = raw.blank
            # rows below the header, for the progress bar before the file is read (at most the
            # games: blank lines and quoted line breaks are lines too)
            self.expected_games = max(raw.lines - 1, 0)
            self._input = InputFile(path)
            self._stream = games_csv.CsvStream(self.path, self._input.stream)
        else:
            self.sha256, self.blank, _, self._readout = read_games_file(path, self.format, ids,
                                                                        end_date, no_moves)
            self.expected_games = len(self._readout.games)

    def batches(self) -> Iterator[list[FileGame]]:
        """The file's games (those its reader found no error in), in file order, in batches."""
        if self._stream is None:
            assert self._readout is not None
            yield self._readout.games
            self._finish(self._readout)
            return
        yield from self._stream.batches(self._batch)
        assert self._input is not None
        self.changed = self._input.sha256() != self.sha256
        self._finish(self._stream.readout([]))
        self.failed = self._stream.failed

    def _finish(self, readout: Readout) -> None:
        self.problems = readout.problems
        self.notes = readout.notes
        self.games_in_file = readout.games_in_file
        self.players_in_file = readout.players_in_file

    def new_problems(self) -> list[Problem]:
        """The reader's problems found since the last call (kept ones: ``Problems``)."""
        found = (self._stream.problems.kept if self._stream is not None
                 else self._readout.problems if self._readout is not None else [])
        fresh = found[self._given:]
        self._given = len(found)
        return fresh

    def __enter__(self) -> GameBatches:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._input is not None:
            self._input.stream.close()


def check_dates(name: str, games: list[FileGame], today: dt.date,
                problems: list[Problem], warned: set[Period] | None = None) -> set[int]:
    """Refuse dates in the future or before 1970 (errors; returns those games' ids); warn once
    per period before 2022 that its games are recorded and never rated; the problems go into
    ``problems``. ``warned``: the periods warned of already (a file read in batches passes the
    same set with each batch; this adds to it)."""
    undatable: set[int] = set()
    warned = set() if warned is None else warned
    # each date's period found once, and whether it is before 2022 (a Period's ``<`` is a
    # Python call: asked once a date, not once a game)
    periods: dict[dt.date, tuple[Period, bool]] = {}
    for g in games:
        date = g.date
        if date > today:
            undatable.add(id(g))
            line, where = g.where("date")
            problems.append(Problem(name, line, where, f"{g.date} is in the future "
                                           f"(today is {today})"))
            continue
        start = g.event_start
        if date < FIRST_LIST or (start is not None and start < FIRST_LIST):
            undatable.add(id(g))
            day = min(date, start or date)
            line, where = g.where("date" if day == date else "start")
            problems.append(Problem(name, line, where, f"{day} is before {FIRST_LIST}: "
                                           "FIDE published its first rating list in 1971; check "
                                           "the year"))
            continue
        known = periods.get(date)
        if known is None:
            period = Period.of(date)
            known = periods[date] = (period, period < FIRST_RATED_PERIOD)
        period, early = known
        if early and period not in warned:
            line, where = g.where("date")
            warned.add(period)
            problems.append(Problem(
                name, line, where, f"{g.date}: games before {FIRST_RATED_PERIOD} are recorded in "
                "their period, which is never rated (the ledger implements FIDE's rule editions "
                "from 1 January 2022 on)", severity="warning"))
    return undatable
