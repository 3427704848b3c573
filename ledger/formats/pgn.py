"""Read PGN files into game records plus problems (pure: text in, values out).

Sources: the PGN standard (Steven J. Edwards, 1994: tag pairs §8.1, the Seven Tag Roster §8.1.1,
dates ``YYYY.MM.DD`` with ``?`` for unknown parts §8.1.1.3, result tokens ``1-0``, ``0-1``,
``1/2-1/2`` and ``*`` §8.2.6, ``-`` for "no rating" in the Elo tags) and FIDE Rating Regulations
B.02 §5.1 (a game counts only when both players have made at least one move; forfeits are never
rated).

The moves are parsed with python-chess (``chess.pgn.read_game``) so that the half-moves of the
main line can be counted; the tag pairs are read from the same lines python-chess takes as the
game's header, so that each tag keeps its line number, several tags on one line are split, and the
escapes ``\\"`` and ``\\\\`` are undone.

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

import bisect
import datetime as dt
import io
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TextIO

import chess
import chess.pgn

from ledger.domain import Result
from ledger.errors import Problem
from ledger.formats.records import FileGame, FilePlayer, Readout, line_at

__all__ = ["PgnGame", "PgnReadout", "read_pgn", "read_pgn_file", "to_records"]

ERROR = "error"
WARNING = "warning"

# One tag pair, PGN §8.1: [Name "value"], with \" and \\ escaped inside the value.
_TAG = re.compile(r'\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
# python-chess's own reading of a tag line (chess.pgn.TAG_REGEX): one tag, the value runs to the
# last '"]'. Used as a fallback so a value with bare quotes inside reads as python-chess reads it.
_CHESS_TAG_LINE = re.compile(r"^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+\"([^\r]*)\"\]\s*$")
# A line among the moves that looks like a tag pair: python-chess silently skips it.
_TAG_START = re.compile(r'\[\s*[A-Za-z0-9][A-Za-z0-9_+#=:-]*\s+"')
_ESCAPE = re.compile(r'\\(["\\])')
_DATE = re.compile(r"([0-9?]{4})\.([0-9?]{2})\.([0-9?]{2})")
_RATING = re.compile(r"[0-9]{1,4}")
_FIDE_ID = re.compile(r"[0-9]{1,10}")

# The end of a complete PGN file: the last game's termination marker (PGN §8.2.6), then blanks.
_ENDS_WITH_TERMINATION = re.compile(r"(?:1-0|0-1|1/2-1/2|½-½|\*)\s*$")
_NO_VALUE = frozenset({"", "?", "-"})
_PGN_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2"})
# The tags this reader uses; the same tag twice with different values is an error for these only.
_READ_TAGS = frozenset(
    {
        "Event",
        "EventDate",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "WhiteElo",
        "BlackElo",
        "WhiteFideId",
        "BlackFideId",
        "WhiteTitle",
        "BlackTitle",
    }
)

NO_MOVES_FORFEIT = "no moves: recorded as a forfeit, not rated"
NO_MOVES_DRAW = "no moves: a draw without play, not rated (FIDE B.02 §5.1)"
ONE_SIDE_MOVED = "fewer than one move each: not rated (FIDE B.02 §5.1)"
UNFINISHED = "unfinished game (*): not a result"
DOUBLE_FORFEIT = "0-0 is a double forfeit or unplayed game; record it with `ledger game add ... -/-`"
NO_TERMINATION = ("the moves end without a game termination marker (1-0, 0-1, 1/2-1/2 or *), "
                  "as every PGN game must: is the file cut short?")
CUT_SHORT = ("the file ends inside this game, with no game termination marker (1-0, 0-1, "
             "1/2-1/2 or *) after its moves, as every PGN game must have: is the file cut short?")
NOT_A_RATING = "not a rating: ignored"
NOT_A_FIDE_ID = "not a FIDE id: ignored"


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
      or ``0``, and for text that is not a rating (with a warning). Only a cross-check: the ledger
      rates with its own list, never with these.
    - ``white_fide_id``, ``black_fide_id``: ``WhiteFideId`` / ``BlackFideId`` as ints, same rules.
    - ``white_title``, ``black_title``: ``WhiteTitle`` / ``BlackTitle`` (``"GM"``); ``None`` if
      missing, empty, ``-`` or ``?``.
    - ``result``: a :class:`~ledger.domain.Result`. ``1-0`` / ``0-1`` with no moves at all become
      ``WHITE_FORFEIT_WIN`` / ``BLACK_FORFEIT_WIN``.
    - ``played``: False when one side never moved (fewer than two half-moves in the main line,
      null moves not counted), so the game is not rated (FIDE B.02 §5.1).
    - ``tag_lines``: tag name -> 1-based line of that tag, so later problems can point at it.
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
    ``games``.
    """

    games: list[PgnGame]
    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        """The problems with severity ``"error"`` (each one kept a game out of ``games``)."""
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        """The problems with severity ``"warning"``."""
        return [p for p in self.problems if p.severity == WARNING]


def read_pgn(handle: TextIO, filename: str) -> PgnReadout:
    """Read every game from an open text handle; never raises on bad data.

    ``filename`` is only copied into each problem. Line endings ``\\n``, ``\\r\\n`` and ``\\r`` are
    all accepted and a leading byte-order mark is ignored. Games must be separated by a blank line
    and a game's tags from its moves by at most one blank line (PGN standard §8.2, as python-chess
    reads it); a tag line found among the moves is reported as an error. An empty file gives no
    games and no problems. Undecodable text (``UnicodeDecodeError`` from ``handle.read()``) gives
    one error on the field ``encoding`` and no games.
    """
    try:
        text = handle.read()
    except UnicodeDecodeError as exc:
        message = f"not UTF-8 text ({exc.reason}); save the file as UTF-8"
        return PgnReadout([], [Problem(filename, None, "encoding", message)])
    return _read_text(text, filename)


def read_pgn_file(path: str | os.PathLike[str]) -> PgnReadout:
    """Read a PGN file as UTF-8 (``encoding="utf-8-sig"``, so a byte-order mark is skipped).

    The file name in each problem is ``str(path)``. A file that is not valid UTF-8 gives one error
    (field ``encoding``, with the line of the first bad byte) and no games. Raises ``OSError`` only
    when the file cannot be opened or read at all (missing, a directory, no permission): that is
    not bad data in the file.
    """
    filename = os.fspath(path)
    with open(path, encoding="utf-8-sig") as handle:
        try:
            text = handle.read()
        except UnicodeDecodeError as exc:
            line = _bad_byte_line(path)
            message = f"not UTF-8 text ({exc.reason}); save the file as UTF-8"
            return PgnReadout([], [Problem(filename, line, "encoding", message)])
    return _read_text(text, filename)


def _bad_byte_line(path: str | os.PathLike[str]) -> int | None:
    """1-based line of the first byte that is not UTF-8, or None if it cannot be found."""
    with open(path, "rb") as raw_handle:
        raw = raw_handle.read()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return line_at(raw, exc.start)
    return None


# --------------------------------------------------------------------------------------------
# Reading games with python-chess, keeping track of lines


class _Lines:
    """Line numbers of ``\\n``-terminated text, by character offset (bisect on line starts)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.bounds = [*self.starts, len(text)]  # line n spans bounds[n - 1]:bounds[n]

    def line_before(self, offset: int) -> int:
        """1-based line of the character just before ``offset`` (the last line read), or 1."""
        return max(1, bisect.bisect_right(self.starts, offset - 1))

    def between(self, start: int, end: int) -> list[tuple[int, str]]:
        """The (line number, text) pairs of the lines read from offset ``start`` to ``end``."""
        if end <= start:
            return []
        first = bisect.bisect_right(self.starts, start)
        last = bisect.bisect_right(self.starts, end - 1)
        bounds = self.bounds
        return [(no, self.text[bounds[no - 1] : bounds[no]]) for no in range(first, last + 1)]


class _Builder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, also noting lines of errors and results, and the movers.

    ``handle_error`` does not log (python-chess's default logs each error with the game's repr);
    it keeps the error in ``game.errors`` as the default does, with the line being read.
    """

    def __init__(self, stream: io.StringIO, lines: _Lines) -> None:
        super().__init__()
        self.stream = stream
        self.lines = lines
        self.errors_at: list[tuple[int, Exception]] = []
        self.terminations: list[tuple[int, str]] = []
        self.mainline_movers: list[chess.Color] = []  # side of each non-null main-line move

    def _line(self) -> int:
        return self.lines.line_before(self.stream.tell())

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        if len(self.variation_stack) == 1 and move:
            self.mainline_movers.append(board.turn)
        super().visit_move(board, move)

    def visit_result(self, result: str) -> None:
        self.terminations.append((self._line(), result))
        super().visit_result(result)

    def handle_error(self, error: Exception) -> None:
        self.errors_at.append((self._line(), error))
        self.game.errors.append(error)


def _once(builder: _Builder) -> Callable[[], _Builder]:
    """A visitor factory for ``chess.pgn.read_game`` that hands out this one builder."""
    return lambda: builder


def _read_text(text: str, filename: str) -> PgnReadout:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    stream = io.StringIO(text)
    lines = _Lines(text)
    games: list[PgnGame] = []
    problems: list[Problem] = []
    while True:
        builder = _Builder(stream, lines)
        start = stream.tell()
        try:
            game = chess.pgn.read_game(stream, Visitor=_once(builder))
        except Exception as exc:  # python-chess collects errors; this is a last safety net
            first = lines.between(start, stream.tell())
            line = first[0][0] if first else None
            problems.append(Problem(filename, line, "game", f"could not be read: {exc!r}"))
            if stream.tell() == start:
                break
            continue
        if game is None:
            break
        game_lines = lines.between(start, stream.tell())
        record, game_problems = _convert(builder, game_lines, filename)
        at_end = stream.tell() >= len(text)
        if record is not None and at_end and not _ENDS_WITH_TERMINATION.search(text):
            line = game_lines[-1][0] if game_lines else None
            game_problems.append(Problem(filename, line, "moves", CUT_SHORT))
            record = None
        problems.extend(sorted(game_problems, key=lambda p: p.line or 0))
        if record is not None:
            games.append(record)
    return PgnReadout(games, problems)


# --------------------------------------------------------------------------------------------
# The header block of one game, as python-chess delimits it


@dataclass(frozen=True)
class _Tag:
    value: str
    line: int


@dataclass
class _Scan:
    game_line: int
    tags: dict[str, _Tag]
    problems: list[Problem]


def _scan(lines: list[tuple[int, str]], filename: str) -> _Scan:
    """Find the game's first line, its tags (with lines) and tag lines lost among the moves.

    Mirrors ``chess.pgn.read_game``: skip blank and ``%``/``;`` comment lines, then the header is
    the run of lines starting with ``[`` (at most one blank line in a row inside it); the first
    other line starts the moves.
    """
    problems: list[Problem] = []
    tags: dict[str, _Tag] = {}
    texts = [(no, text) for no, text in lines]
    if texts:
        texts[0] = (texts[0][0], texts[0][1].lstrip("\ufeff"))
    i = 0
    while i < len(texts) and _is_skipped(texts[i][1]):
        i += 1
    game_line = texts[i][0] if i < len(texts) else (texts[-1][0] if texts else 1)
    empty_lines = 0
    while i < len(texts):
        no, text = texts[i]
        if text.startswith(("%", ";")):
            i += 1
            continue
        if empty_lines < 1 and text.isspace():
            empty_lines += 1
            i += 1
            continue
        if not text.startswith("["):
            break
        empty_lines = 0
        pairs = _tag_pairs(text)
        if pairs is None:
            message = 'not a tag pair [Name "value"]: line ignored'
            problems.append(Problem(filename, no, "tags", message, WARNING))
        for name, value in pairs or []:
            old = tags.get(name)
            if old is not None and old.value != value and name in _READ_TAGS:
                message = f"given twice with different values ({old.value!r} on line {old.line})"
                problems.append(Problem(filename, no, name, message))
            tags[name] = _Tag(value, no)
        i += 1
    for no, text in texts[i:]:
        if _TAG_START.match(text.lstrip()):
            message = (
                "a tag pair among the moves (python-chess skips it, so the game it starts is "
                "lost): put a blank line after each game's moves"
            )
            problems.append(Problem(filename, no, "tags", message))
            break
    return _Scan(game_line, tags, problems)


def _is_skipped(text: str) -> bool:
    return text.isspace() or text.startswith(("%", ";"))


def _tag_pairs(text: str) -> list[tuple[str, str]] | None:
    """The tag pairs on one header line, or None if the line is not made of tag pairs."""
    line = text.rstrip("\n")
    pairs: list[tuple[str, str]] = []
    position = 0
    for match in _TAG.finditer(line):
        if line[position : match.start()].strip():
            break
        pairs.append((match.group(1), _ESCAPE.sub(r"\1", match.group(2))))
        position = match.end()
    else:
        if pairs and not line[position:].strip():
            return pairs
    single = _CHESS_TAG_LINE.match(line)
    if single:
        return [(single.group(1), _ESCAPE.sub(r"\1", single.group(2)))]
    return None


# --------------------------------------------------------------------------------------------
# From tags and moves to a PgnGame


class _Collector:
    """Problems of one game, placed on the line of the tag they concern."""

    def __init__(self, filename: str, scan: _Scan) -> None:
        self.filename = filename
        self.scan = scan
        self.problems: list[Problem] = list(scan.problems)

    def line_of(self, name: str) -> int:
        tag = self.scan.tags.get(name)
        return tag.line if tag is not None else self.scan.game_line

    def error(self, name: str, message: str, line: int | None = None) -> None:
        where = line if line is not None else self.line_of(name)
        self.problems.append(Problem(self.filename, where, name, message, ERROR))

    def warning(self, name: str, message: str, line: int | None = None) -> None:
        where = line if line is not None else self.line_of(name)
        self.problems.append(Problem(self.filename, where, name, message, WARNING))

    def value(self, name: str) -> str | None:
        tag = self.scan.tags.get(name)
        return tag.value.strip() if tag is not None else None

    @property
    def has_error(self) -> bool:
        return any(p.severity == ERROR for p in self.problems)


def _convert(
    builder: _Builder, lines: list[tuple[int, str]], filename: str
) -> tuple[PgnGame | None, list[Problem]]:
    scan = _scan(lines, filename)
    out = _Collector(filename, scan)
    if not scan.tags:
        message = (
            "no tag pairs: not a PGN game (text that is not PGN, or moves separated from "
            "their tags by more than one blank line)"
        )
        out.error("tags", message, scan.game_line)
        return None, out.problems
    for line, exc in builder.errors_at:
        out.warning("moves", f"python-chess could not read the moves: {exc}", line)

    white = _name(out, "White")
    black = _name(out, "Black")
    if white is not None and black is not None and white.casefold() == black.casefold():
        out.error("Black", f"White and Black are the same player ({white!r})")
    date = _date(out, "Date", required=True)
    event_date = _date(out, "EventDate", required=False)
    result, played = _result(out, builder)
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
    )
    return record, out.problems


def _text(out: _Collector, name: str, empty: frozenset[str]) -> str | None:
    value = out.value(name)
    return None if value is None or value in empty else value


def _name(out: _Collector, name: str) -> str | None:
    value = out.value(name)
    if value is None:
        out.error(name, f"missing {name} tag: the player's name is needed")
        return None
    if value in ("", "?"):
        out.error(name, f"no player name ({value!r})")
        return None
    return value


def _number(out: _Collector, name: str, pattern: re.Pattern[str], message: str) -> int | None:
    value = out.value(name)
    if value is None or value in _NO_VALUE:
        return None
    if pattern.fullmatch(value):
        return int(value) or None
    out.warning(name, message)
    return None


def _date(out: _Collector, name: str, *, required: bool) -> dt.date | None:
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


def _result(out: _Collector, builder: _Builder) -> tuple[Result | None, bool]:
    """The Result tag, checked against the moves (PGN §8.2.6; FIDE B.02 §5.1)."""
    raw = out.value("Result")
    if raw is None:
        out.error("Result", "missing Result tag; use 1-0, 0-1 or 1/2-1/2")
        return None, False
    token = raw.replace("½", "1/2")
    if token == "*":
        out.error("Result", UNFINISHED)
        return None, False
    if token == "0-0":
        out.error("Result", DOUBLE_FORFEIT)
        return None, False
    if token not in _PGN_RESULTS:
        message = f"Result tag {raw!r} is not a PGN result; use 1-0, 0-1 or 1/2-1/2 (or ½-½)"
        out.error("Result", message)
        return None, False
    for line, ending in builder.terminations:
        if ending != token:
            message = f"the moves end with {ending} but the Result tag says {raw}"
            out.error("Result", message, line)

    movers = builder.mainline_movers
    both_moved = chess.WHITE in movers and chess.BLACK in movers
    if both_moved:
        return Result(token), True
    if builder.errors_at:
        message = "the moves could not all be read, so whether both players moved is unknown"
        out.error("moves", message, builder.errors_at[0][0])
        return None, False
    if movers:
        out.warning("Result", ONE_SIDE_MOVED)
        return Result(token), False
    if token == "1-0":
        out.warning("Result", NO_MOVES_FORFEIT)
        return Result.WHITE_FORFEIT_WIN, False
    if token == "0-1":
        out.warning("Result", NO_MOVES_FORFEIT)
        return Result.BLACK_FORFEIT_WIN, False
    out.warning("Result", NO_MOVES_DRAW)
    return Result.DRAW, False


def to_records(readout: PgnReadout) -> Readout:
    """The PGN games as the common :class:`~ledger.formats.records.FileGame` records.

    Each side's values keep the line and name of their tag (``White``, ``WhiteElo``,
    ``WhiteFideId``, ``WhiteTitle``); the game keeps those of ``Result`` and ``Date``.
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
            at={key: (g.line_of(tag), tag) for key, tag in (("result", "Result"), ("date", "Date"))}))
    return Readout(games, list(readout.problems), games_in_file=len(readout.games) + len(readout.errors))
