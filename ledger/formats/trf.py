"""FIDE Tournament Report File (TRF): the event a file describes and its games (pure: a binary
stream in, values out).

Source: FIDE TRF-16 (Handbook C.04 Annex 2, "FIDE Data Exchange Format", 2016), as summarised in
tests/data/README.md. The lines and columns (layout, header records, encoding, line endings)
are read by ``ledger.formats.trf_lines``; this module checks them across lines (a start rank or
an id on two lines, round cells past ``XXR``, dates out of order) into a :class:`TrfEvent`, and
pairs the round cells of the player lines into games, the common records of
``ledger.formats.records``, each game checked from both players' lines.

Results: ``1 = 0`` played; ``+ -`` forfeit win/loss; ``W D L`` a game of less than one move.
Only ``1 = 0`` between two players are rated (FIDE B.02 §5.1); byes (``H F U Z``, blank) are
not games at all. A game is dated on its round date (record ``132``), else the event's end date
(``052``), else the end date the caller gives. Nothing here raises on bad data: each fault is a
:class:`~ledger.errors.Problem` with file, line, ``col N`` (or ``col A-B``) and a message; a game
with an error is left out. The file is read one line at a time; past ``MAX_PROBLEMS`` errors
(``ledger.formats.text_stream``) the reader stops, with one error saying on which line.

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

import datetime as dt
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

from ledger.domain import Result
from ledger.formats.records import EventDetails, FileGame, FilePlayer, Readout, Where
from ledger.formats.trf_lines import (
    BYES,
    FORFEITS,
    PLAYED,
    SHORT,
    WARNING,
    TrfPlayer,
    TrfProblems,
    TrfRound,
    col_label,
    parse_date,
    read_lines,
)
from ledger.formats.trf_text import Reread, TrfText, split_lines

__all__ = ["TrfEvent", "file_end_date", "read_trf", "read_trf_text"]

#: What the opponent's cell must say for each code (the same game seen from the other side).
_MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}
#: White's code -> (result, played).
_GAME = {
    "1": (Result.WHITE_WINS, True), "=": (Result.DRAW, True), "0": (Result.BLACK_WINS, True),
    "+": (Result.WHITE_FORFEIT_WIN, True), "W": (Result.WHITE_WINS, False),
    "D": (Result.DRAW, False), "L": (Result.BLACK_WINS, False),
}


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


def read_trf(source: bytes | BinaryIO, filename: str,
             end_date: dt.date | None = None) -> tuple[TrfEvent, Readout]:
    """Read a TRF file, its bytes or an open binary handle (read from where it stands, one line at
    a time; a seekable one: see below): the event as written, and its games as common records.

    Returns ``(event, readout)``; ``readout.games`` holds every game between two players (rated,
    forfeit or less than one move; byes are not games), ``readout.players_in_file`` the number of
    ``001`` lines and ``readout.problems`` every problem (see the module docstring), the encoding
    warning first. Past ``MAX_PROBLEMS`` errors the lines are no longer read: the problems end
    with one error naming the line the reader stopped at, ``event`` holds what the lines read say
    (no checks across lines) and there are no games.
    ``end_date`` is the event's end date for a file that gives none (no ``052`` and no ``132``
    record): its games are dated on it. A file that gives its own dates is read from them alone
    (``end_date`` is not used; :func:`file_end_date` tells the caller whether they agree).

    Never raises on bad data. A file whose encoding turns out to be CP1252 after non-ASCII
    UTF-8 lines (or a UTF-16 byte-order mark that is not UTF-16) is read a second time from the
    start (:class:`~ledger.formats.trf_text.TrfText`): ``handle.seek`` may raise ``OSError``
    for a handle that cannot seek.
    """
    handle = io.BytesIO(source) if isinstance(source, bytes) else source
    start = handle.tell()
    text = TrfText(handle, filename)
    try:
        event, readout = _read(text, filename, end_date)
    except Reread as again:
        handle.seek(start)
        text = TrfText(handle, filename, cp1252_from=again.line)
        event, readout = _read(text, filename, end_date)
    readout.problems[:0] = text.problems
    return event, readout


def read_trf_text(text: str, filename: str, end_date: dt.date | None = None) -> Readout:
    """Read TRF text (already decoded) into common records; see :func:`read_trf`."""
    return _read(split_lines(text), filename, end_date)[1]


def file_end_date(event: TrfEvent) -> dt.date | None:
    """The end date the file itself gives: record ``052``, else the last round date of record
    ``132``; None when it gives neither (TRF-16 header records 052 and 132)."""
    return event.end or max((d for d in event.round_dates if d is not None), default=None)


def _read(lines: Iterable[str], filename: str,
          end_date: dt.date | None) -> tuple[TrfEvent, Readout]:
    out = TrfProblems(filename)
    event = _read_event(lines, out)
    games = [] if out.stopped else _games(event, out, end_date)
    return event, Readout(games, out.finish(), games_in_file=len(games),
                          players_in_file=len(event.players))


# --------------------------------------------------------------------------------------------
# Lines -> TrfEvent


def _read_event(lines: Iterable[str], out: TrfProblems) -> TrfEvent:
    """The event the lines give, checked across lines: start ranks and ids on one line each,
    no round past ``XXR``, dates in order (``042`` <= round dates <= ``052``). When the reader
    stopped (``out.stopped``), only what the lines read say, unchecked and without dates."""
    read = read_lines(lines, out)
    header, players, round_dates = read.header, read.players, read.round_dates
    if out.stopped:  # the file is rejected: no checks across lines, no problems past the bound
        return TrfEvent(name=read.text("012"), players=players, rounds=read.rounds,
                        lines={code: number for code, (number, _) in header.items()})
    _check_ranks(players, out)
    if read.rounds is not None:
        _check_rounds(players, read.rounds, read.rounds_line, out)
    start = _header_date(header, "042", "start date", out)
    end = _header_date(header, "052", "end date", out)
    if start is not None and end is not None and end < start:
        out.add(header["052"][0], "col 5", f"record 052: the end date {end} is before the start "
                f"date {start}")
    _check_round_dates(round_dates, start, end, header, out)
    return TrfEvent(
        name=read.text("012"), players=players, city=read.text("022"),
        federation=read.text("032"), start=start, end=end, arbiter=read.text("102"),
        time_control=read.text("122"), rounds=read.rounds, round_dates=round_dates,
        lines={code: number for code, (number, _) in header.items()})


def _check_round_dates(round_dates: tuple[dt.date | None, ...], start: dt.date | None,
                       end: dt.date | None, header: Mapping[str, tuple[int, str]],
                       out: TrfProblems) -> None:
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
        out.add(header["132"][0], col_label(column, column + 7), f"round {n} date {day} is {what} "
                f"(record {code}, line {header[code][0]})")


def _header_date(header: Mapping[str, tuple[int, str]], code: str, what: str,
                 out: TrfProblems) -> dt.date | None:
    if code not in header or not header[code][1]:
        return None
    number, value = header[code]
    day = parse_date(value)
    if day is None:
        out.add(number, "col 5", f"record {code}: {value!r} is not a valid {what} (write "
                "YYYY/MM/DD)")
    return day


def _check_ranks(players: tuple[TrfPlayer, ...], out: TrfProblems) -> None:
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


def _check_rounds(players: tuple[TrfPlayer, ...], rounds: int, header_line: int,
                  out: TrfProblems) -> None:
    """A round cell after the last round that XXR (or 142) announces is an error: one of the
    two records is wrong, and the file cannot say which."""
    for p in players:
        if len(p.rounds) > rounds:
            column = 92 + 10 * rounds
            out.add(p.line, col_label(column, column + 7), f"round {rounds + 1}: the file has "
                    f"{rounds} rounds (line {header_line}); correct that record or this line")


# --------------------------------------------------------------------------------------------
# TrfEvent -> games


def _games(event: TrfEvent, out: TrfProblems, end_date: dt.date | None) -> list[FileGame]:
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
                at={"result": (white.line, col_label(column + 7, column + 7)),
                    "start": (event.lines.get("042") or event.lines.get("052"), "042 start date"),
                    "date": (event.lines.get("132"), "132 round dates") if day is not None
                    else (event.lines.get("052"), "052 end date") if given is not None
                    else (None, "--end-date"),
                    "time_control": (event.lines.get("122"), "122 time control")},
                time_control=event.time_control, time_control_unit="free"))
    return games


def _game(p: TrfPlayer, n: int, cell: TrfRound, by_rank: dict[int, TrfPlayer],
          out: TrfProblems) -> tuple[int, int] | None:
    """(White's rank, Black's rank) of round ``n`` of ``p``'s line, or None when it is a bye
    (or an error, reported). Checks the opponent's line says the same."""
    column = 92 + 10 * (n - 1)
    where = f"round {n}"
    code = cell.result
    if cell.opponent is None:
        if code in PLAYED | SHORT:
            if code == "=":
                out.add(p.line, col_label(column + 7, column + 7), f"{where}: '=' with no opponent is "
                        "an old-style half-point bye: read as H", WARNING)
            else:
                out.add(p.line, col_label(column, column + 3), f"{where}: result {code!r} needs an "
                        "opponent (0000 means none)")
        elif code in FORFEITS:
            out.add(p.line, col_label(column + 7, column + 7), f"{where}: {code!r} with no opponent "
                    f"is an old-style {'full' if code == '+' else 'zero'}-point bye: not a game",
                    WARNING)
        return None
    if code in BYES or code == "":
        what = f"bye code {code!r}" if code else "a blank result"
        out.add(p.line, col_label(column, column + 7), f"{where}: {what} with opponent {cell.opponent}: "
                "a bye needs opponent 0000 (TRF-16 round fields)")
        return None
    other = by_rank.get(cell.opponent)
    if other is None and cell.opponent in out.refused:
        return None  # that line has its own error
    if other is None:
        out.add(p.line, col_label(column, column + 3), f"{where}: opponent {cell.opponent} is not a "
                "start rank in the file")
        return None
    if other.rank == p.rank:
        out.add(p.line, col_label(column, column + 3), f"{where}: a player cannot meet themselves")
        return None
    if cell.colour == "-" and code in PLAYED | SHORT:
        out.add(p.line, col_label(column + 5, column + 5), f"{where}: result {code!r} is a game on "
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
            out.add(p.line, col_label(column, column + 7), f"{where}: this line says "
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
