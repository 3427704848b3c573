"""Read PGN files into game records plus problems (pure: text in, values out).

Sources: the PGN standard (Steven J. Edwards, 1994: tag pairs §8.1, the Seven Tag Roster §8.1.1,
dates ``YYYY.MM.DD`` with ``?`` for unknown parts §8.1.1.3, result tokens ``1-0``, ``0-1``,
``1/2-1/2`` and ``*`` §8.2.6, ``-`` for "no rating" in the Elo tags) and FIDE Rating Regulations
B.02 §5.1 (a game counts only when both players have made at least one move; forfeits are never
rated).

The games are read by python-chess, each tag pair and error keeping its line
(``ledger.formats.pgn_lines``), and the Result tag is checked against the moves
(``ledger.formats.pgn_results``); this module turns each game's tags into a :class:`PgnGame`,
and the games into the common records of ``ledger.formats.records`` (:func:`to_records`).

Nothing here raises on bad data and nothing touches a database: every fault in the file becomes a
:class:`~ledger.errors.Problem` (file, 1-based line, field = the tag name, message, severity). A
game with an ``error`` problem is left out of :attr:`PgnReadout.games`; warnings do not exclude it.
Whether the games are then rated (the ledger's own ratings, not the Elo tags) is the ledger's
business, not this reader's.

>>> import io
>>> text = '''[Event "Club Ch"]
... [Date "2025.11.05"]
... [White "Player, A"]
... [Black "Player, B"]
... [Result "1-0"]
... [WhiteElo "1800"]
... [BlackElo "-"]
...
... 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
... '''
>>> readout = read_pgn(io.StringIO(text), "club.pgn")
>>> game = readout.games[0]
>>> game.white, game.black, game.result.value, game.white_elo, game.black_elo, game.played
('Player, A', 'Player, B', '1-0', 1800, None, True)
>>> readout.problems
[]
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import BinaryIO, TextIO

from ledger.domain import Result
from ledger.errors import Problem, shown
from ledger.formats.pgn_lines import (
    ERROR,
    WARNING,
    Builder,
    Collector,
    LineSource,
    read_games,
    scan_header,
)
from ledger.formats.pgn_results import CUT_SHORT, check_result, results_file_note, without_moves
from ledger.formats.records import MAX_EVENT, MAX_ROUND, FileGame, FilePlayer, Readout, text_fault
from ledger.formats.text_stream import BadEncoding, Problems, chunks, lines_of, utf8_lines

__all__ = ["PgnGame", "PgnReadout", "read_pgn", "read_pgn_binary", "read_pgn_file", "to_records"]

_DATE = re.compile(r"([0-9?]{4})\.([0-9?]{2})\.([0-9?]{2})")
_RATING = re.compile(r"[0-9]{1,4}")
_FIDE_ID = re.compile(r"[0-9]{1,10}")
_NO_VALUE = frozenset({"", "?", "-"})
#: The tags read as text: one line of visible text each (``records.text_fault``), what a message
#: calls their values and the most characters the ledger keeps (None: a name, checked when its
#: player is registered).
_TEXT_TAGS = {"Event": ("an event name", MAX_EVENT), "Site": ("a site", MAX_EVENT),
              "Round": ("a round", MAX_ROUND), "White": ("a name", None),
              "Black": ("a name", None), "WhiteTitle": ("a title", None),
              "BlackTitle": ("a title", None)}

NOT_A_RATING = "not a rating (a whole number, at most 4 digits; empty, ?, - or 0: none)"
NOT_A_FIDE_ID = "not a FIDE id (digits only, at most 10; empty, ?, - or 0: none)"


@dataclass(frozen=True)
class PgnGame:
    """One game read from a PGN file, with the tags the ledger uses (PGN standard §8.1).

    - ``line``: 1-based line of the game's first header tag in the file.
    - ``event``, ``site``: the ``Event`` / ``Site`` tags, stripped; ``None`` if missing, empty
      or ``?``.
    - ``event_date``: the ``EventDate`` tag if it is a complete, valid ``YYYY.MM.DD`` date, else
      ``None`` (a partial or invalid one also gives a warning).
    - ``date``: the ``Date`` tag; always complete (a game without a full valid date is an error).
    - ``round``: the ``Round`` tag as text (``"1.1"``); ``None`` if missing, empty, ``?`` or ``-``.
    - ``white``, ``black``: player names as written, stripped; never empty, never equal.
    - ``white_elo``, ``black_elo``: the Elo tags as ints; ``None`` for missing, empty, ``?``, ``-``
      or ``0``; text that is not a rating (``abc``, ``-5``, ``99999``, ``2700.5``) is an error,
      as in a TRF. Only a cross-check: the ledger rates with its own list, never with these.
    - ``white_fide_id``, ``black_fide_id``: ``WhiteFideId`` / ``BlackFideId`` as ints, same rules.
    - ``white_title``, ``black_title``: ``WhiteTitle`` / ``BlackTitle`` (``"GM"``); ``None`` if
      missing, empty, ``-`` or ``?``.
    - ``result``: a :class:`~ledger.domain.Result`. ``1-0`` / ``0-1`` with no moves at all become
      ``WHITE_FORFEIT_WIN`` / ``BLACK_FORFEIT_WIN``, unless the file is a results file (no game
      of it has moves) or ``--no-moves played`` says so (``pgn_results.without_moves``).
    - ``played``: False when one side never moved (fewer than two half-moves in the main line,
      null moves not counted), so the game is not rated (FIDE B.02 §5.1); a game without moves
      taken as played (as above) is played.
    - ``moves``: whether the main line has a move at all.
    - ``tag_lines``: tag name -> 1-based line of that tag, so later problems can point at it.
    - ``time_control``: the ``TimeControl`` tag (seconds: ``"900+10"``); ``white_time_control``
      / ``black_time_control``: ``WhiteTimeControl`` / ``BlackTimeControl`` where a file gives
      the players different times; ``None`` if missing, empty, ``?`` or ``-``.
    """

    line: int
    event: str | None
    event_date: dt.date | None
    site: str | None
    date: dt.date
    round: str | None
    white: str
    black: str
    white_elo: int | None
    black_elo: int | None
    white_fide_id: int | None
    black_fide_id: int | None
    white_title: str | None
    black_title: str | None
    result: Result
    played: bool
    tag_lines: Mapping[str, int] = field(default_factory=dict, compare=False)
    time_control: str | None = None
    white_time_control: str | None = None
    black_time_control: str | None = None
    moves: bool = True

    def line_of(self, tag: str) -> int:
        """The line of ``tag`` in the file, or the game's first line when it has no such tag."""
        return self.tag_lines.get(tag, self.line)


@dataclass(frozen=True)
class PgnReadout:
    """What a PGN file holds: the games without errors, and every problem found.

    ``problems`` lists errors and warnings game by game, each game's sorted by line; each is a
    :class:`~ledger.errors.Problem` with the file name as given, the 1-based line (of the offending
    tag, or of the game's first line when the tag is missing), the field (the tag name; ``moves``
    for the movetext; ``tags`` for tag lines that cannot be read or are misplaced; ``encoding``;
    ``game`` if python-chess itself failed) and a message. A game with any error is not in
    ``games``. ``notes``: what the reader decided for the whole file (a results file).
    """

    games: list[PgnGame]
    problems: list[Problem]
    notes: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        """The problems with severity ``"error"`` (each one kept a game out of ``games``)."""
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        """The problems with severity ``"warning"``."""
        return [p for p in self.problems if p.severity == WARNING]


def read_pgn(handle: TextIO, filename: str, no_moves: str | None = None) -> PgnReadout:
    """Read every game from an open text handle, one line at a time; never raises on bad data.

    ``filename`` is only copied into each problem. Line endings ``\\n``, ``\\r\\n`` and ``\\r`` are
    all accepted and a leading byte-order mark is ignored. Games must be separated by a blank line
    and a game's tags from its moves by at most one blank line (PGN standard §8.2, as python-chess
    reads it); a tag line found among the moves is reported as an error. An empty file gives no
    games and no problems. Undecodable text (``UnicodeDecodeError`` from ``handle.read``) gives
    one error on the field ``encoding`` and no games. Past ``MAX_PROBLEMS`` errors
    (``ledger.formats.text_stream``) the reader stops after the game it is in, with one error
    naming that game's last line, and gives no games.

    Games without moves (``pgn_results.without_moves``): when no game of the file has moves it is
    a results file (a club's or a pairing program's), its games are played games, rated, and
    ``notes`` says so; in a file where other games have moves they are forfeits (FIDE B.02
    §5.1), each with a warning. ``no_moves`` (``records.NO_MOVES``: ``played`` or
    ``forfeit``; None: the file decides) overrides either way.
    """

    def text() -> Iterator[str]:
        try:
            yield from chunks(handle)
        except UnicodeDecodeError as exc:
            raise BadEncoding(None, exc.reason) from None

    try:
        return _read_lines(lines_of(text(), keepends=True), filename, no_moves)
    except BadEncoding as exc:
        message = f"not UTF-8 text ({exc.reason}); save the file as UTF-8"
        return PgnReadout([], [Problem(filename, None, "encoding", message)])


def read_pgn_binary(handle: BinaryIO, filename: str, no_moves: str | None = None) -> PgnReadout:
    """Read every game from an open binary handle (from where it stands), decoded as UTF-8 one
    line at a time, a leading byte-order mark skipped; otherwise as :func:`read_pgn`.

    A file that is not valid UTF-8 gives one error (field ``encoding``, with the line of the first
    bad byte and the reason, such as ``invalid start byte``) and no games.
    """
    try:
        return _read_lines(utf8_lines(handle, keepends=True), filename, no_moves)
    except BadEncoding as exc:
        message = f"not UTF-8 text ({exc.reason}); save the file as UTF-8"
        return PgnReadout([], [Problem(filename, exc.line, "encoding", message)])


def read_pgn_file(path: str | os.PathLike[str], no_moves: str | None = None) -> PgnReadout:
    """Read a PGN file as UTF-8 (a byte-order mark is skipped): :func:`read_pgn_binary`.

    The file name in each problem is ``str(path)``. Raises ``OSError`` only when the file cannot
    be opened or read at all (missing, a directory, no permission): that is not bad data in the
    file.
    """
    with open(path, "rb") as handle:
        return read_pgn_binary(handle, os.fspath(path), no_moves)


def _read_lines(lines: Iterable[str], filename: str, no_moves: str | None) -> PgnReadout:
    """Every game of ``lines`` as a :class:`PgnGame`, or its problems; a game cut short by the
    end of the file is an error. Stops after the game that takes the errors past the bound.
    Games without moves as ``read_pgn`` says (``no_moves``)."""
    games: list[PgnGame] = []
    out = Problems(filename)
    source = LineSource(lines)
    moved = False  # whether any game of the file, with an error or not, has a move
    for read in read_games(source, filename):
        if isinstance(read, Problem):
            out.append(read)
        else:
            moved = moved or bool(read.builder.mainline_movers)
            record, game_problems = _convert(read.builder, read.lines, filename)
            if record is not None and read.cut_short:
                line = read.lines[-1][0] if read.lines else None
                game_problems.append(Problem(filename, line, "moves", CUT_SHORT))
                record = None
            out.extend(sorted(game_problems, key=lambda p: p.line or 0))
            if record is not None:
                games.append(record)
        if out.full:
            out.stop(max(1, source.number))
            games = []
            break
    return _without_moves(games, out, no_moves == "played" or (no_moves is None and not moved),
                          no_moves)


def _without_moves(games: list[PgnGame], out: Problems, as_played: bool,
                   no_moves: str | None) -> PgnReadout:
    """The readout of ``games``, those without moves recorded as ``read_pgn`` says: played
    (``as_played``: a results file, or ``no_moves`` ``played``), with a note; else forfeits,
    each with a warning on its ``Result`` line."""
    taken: list[PgnGame] = []
    bare = 0
    for g in games:
        if not g.moves:
            bare += 1
            result, warning = without_moves(g.result, played=as_played)
            g = replace(g, result=result, played=as_played)
            if warning is not None:
                out.append(Problem(out.filename, g.line_of("Result"), "Result", warning, WARNING))
        taken.append(g)
    if bare and not as_played:
        out.kept.sort(key=lambda p: p.line or 0)  # each game's warnings among its problems
    notes = [results_file_note(bare, no_moves)] if as_played and bare else []
    return PgnReadout(taken, out.finish(), notes)


# --------------------------------------------------------------------------------------------
# From tags and moves to a PgnGame


def _convert(
    builder: Builder, lines: list[tuple[int, str]], filename: str
) -> tuple[PgnGame | None, list[Problem]]:
    scan = scan_header(lines, filename)
    out = Collector(filename, scan)
    if not scan.tags:
        message = (
            "no tag pairs: not a PGN game (text that is not PGN, or moves separated from "
            "their tags by more than one blank line)"
        )
        out.error("tags", message, scan.game_line)
        return None, out.problems
    for line, exc in builder.errors_at:
        out.warning("moves", f"python-chess could not read the moves: {exc}", line)

    for tag, (what, limit) in _TEXT_TAGS.items():
        value = out.value(tag)
        fault = text_fault(value, what, limit) if value is not None else None
        if fault is not None:
            out.error(tag, fault)
    white = _name(out, "White")
    black = _name(out, "Black")
    if white is not None and black is not None and white.casefold() == black.casefold():
        out.error("Black", f"White and Black are the same player ({white!r})")
    date = _date(out, "Date", required=True)
    event_date = _date(out, "EventDate", required=False)
    result, played = check_result(out, builder)
    white_elo = _number(out, "WhiteElo", _RATING, NOT_A_RATING)
    black_elo = _number(out, "BlackElo", _RATING, NOT_A_RATING)
    white_fide_id = _number(out, "WhiteFideId", _FIDE_ID, NOT_A_FIDE_ID)
    black_fide_id = _number(out, "BlackFideId", _FIDE_ID, NOT_A_FIDE_ID)
    if out.has_error or white is None or black is None or date is None or result is None:
        return None, out.problems
    record = PgnGame(
        line=scan.game_line,
        event=_text(out, "Event", frozenset({"", "?"})),
        event_date=event_date,
        site=_text(out, "Site", frozenset({"", "?"})),
        date=date,
        round=_text(out, "Round", _NO_VALUE),
        white=white,
        black=black,
        white_elo=white_elo,
        black_elo=black_elo,
        white_fide_id=white_fide_id,
        black_fide_id=black_fide_id,
        white_title=_text(out, "WhiteTitle", _NO_VALUE),
        black_title=_text(out, "BlackTitle", _NO_VALUE),
        result=result,
        played=played,
        tag_lines={name: tag.line for name, tag in scan.tags.items()},
        time_control=_text(out, "TimeControl", _NO_VALUE),
        white_time_control=_text(out, "WhiteTimeControl", _NO_VALUE),
        black_time_control=_text(out, "BlackTimeControl", _NO_VALUE),
        moves=bool(builder.mainline_movers),
    )
    return record, out.problems


def _text(out: Collector, name: str, empty: frozenset[str]) -> str | None:
    value = out.value(name)
    return None if value is None or value in empty else value


def _name(out: Collector, name: str) -> str | None:
    value = out.value(name)
    if value is None:
        out.error(name, f"missing {name} tag: the player's name is needed")
        return None
    if value in ("", "?"):
        out.error(name, f"no player name ({value!r})")
        return None
    return value


def _number(out: Collector, name: str, pattern: re.Pattern[str], message: str) -> int | None:
    value = out.value(name)
    if value is None or value in _NO_VALUE:
        return None
    if pattern.fullmatch(value):
        return int(value) or None
    out.error(name, f"{shown(value)} is {message}")
    return None


def _date(out: Collector, name: str, *, required: bool) -> dt.date | None:
    """A complete ``YYYY.MM.DD`` date; a problem (error if required, else warning) otherwise."""
    value = out.value(name)
    report = out.error if required else out.warning
    if value is None:
        if required:
            out.error(name, f"missing {name} tag: a rated game needs its date (YYYY.MM.DD)")
        return None
    if not required and value in ("", "?", "-", "????.??.??"):
        return None
    match = _DATE.fullmatch(value)
    if match is None:
        report(name, f"{value!r} is not a PGN date; write YYYY.MM.DD")
        return None
    if "?" in value:
        what = "needed" if required else "ignored"
        report(name, f"incomplete date {value!r}: a full date YYYY.MM.DD is {what}")
        return None
    try:
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        report(name, f"{value!r} is not a calendar date")
        return None


def to_records(readout: PgnReadout) -> Readout:
    """The PGN games as the common :class:`~ledger.formats.records.FileGame` records.

    Each side's values keep the line and name of their tag (``White``, ``WhiteElo``,
    ``WhiteFideId``, ``WhiteTitle``); the game keeps those of ``Result``, ``Date``, ``Event``
    and ``Round``.
    """
    games = []
    for g in readout.games:
        def side(tag: str, name: str, elo: int | None, fide_id: int | None,
                 title: str | None, g: PgnGame = g) -> FilePlayer:
            at = {key: (g.line_of(f"{tag}{suffix}"), f"{tag}{suffix}")
                  for key, suffix in (("name", ""), ("rating", "Elo"), ("fide_id", "FideId"),
                                      ("title", "Title"))}
            return FilePlayer(name=name, at=at, fide_id=fide_id, rating=elo, title=title)

        games.append(FileGame(
            line=g.line, event=g.event, round=g.round, site=g.site, date=g.date,
            event_start=g.event_date, result=g.result, played=g.played,
            white=side("White", g.white, g.white_elo, g.white_fide_id, g.white_title),
            black=side("Black", g.black, g.black_elo, g.black_fide_id, g.black_title),
            at={key: (g.line_of(tag), tag) for key, tag in (
                ("result", "Result"), ("date", "Date"), ("event", "Event"), ("round", "Round"),
                ("time_control", "TimeControl"))},
            time_control=g.time_control, time_control_unit="seconds",
            white_time_control=g.white_time_control, black_time_control=g.black_time_control))
    return Readout(games, list(readout.problems),
                   games_in_file=len(readout.games) + len(readout.errors), notes=list(readout.notes))
