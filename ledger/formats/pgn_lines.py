"""PGN read with python-chess, keeping each line: games, tag pairs and problems by line (pure).

Sources: the PGN standard (Steven J. Edwards, 1994: tag pairs §8.1, the export format §8.2, game
termination markers §8.2.6). The moves are parsed with python-chess (``chess.pgn.read_game``) so
that the half-moves of the main line can be counted; the tag pairs are read from the same lines
python-chess takes as the game's header, so that each tag keeps its line number, several tags on
one line are split, and the escapes ``\\"`` and ``\\\\`` are undone. Line endings ``\\n``,
``\\r\\n`` and ``\\r`` are all read, and a leading byte-order mark is dropped. The lines are
taken one at a time (:class:`LineSource`): only the lines of the game being read are held.

Nothing here raises on bad data: a game python-chess cannot read, a line that is not a tag pair,
a tag given twice, a tag pair lost among the moves, each is a :class:`~ledger.errors.Problem`
(file, 1-based line, field, message, severity). A game's tags and moves become a record in
``ledger.formats.pgn``; its Result tag is checked against its moves in ``ledger.formats.pgn_results``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO, cast

import chess
import chess.pgn

from ledger.errors import Problem
from ledger.formats.text_stream import BadEncoding, strip_end

__all__ = ["ERROR", "WARNING", "Builder", "Collector", "LineSource", "ReadGame", "Scan", "Tag",
           "read_games", "scan_header"]

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

# The end of a complete PGN file: the last game's termination marker (PGN §8.2.6), then blanks.
_ENDS_WITH_TERMINATION = re.compile(r"(?:1-0|0-1|1/2-1/2|½-½|\*)\s*$")
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
        "TimeControl",
        "WhiteTimeControl",
        "BlackTimeControl",
    }
)
#: The name at the start of a header line that is not a tag pair (``[Event "Open]``).
_TAG_NAME = re.compile(r"\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)")


# --------------------------------------------------------------------------------------------
# Reading games with python-chess, keeping track of lines


#: The steps of ``chess.pgn.read_game`` through a game's lines: the blank and comment lines
#: before its first tag line, its header, its moves.
_BEFORE, _HEADER, _MOVES = "before", "header", "moves"


class LineSource:
    """The text handle ``chess.pgn.read_game`` reads from (it calls ``readline`` only), made of
    ``lines`` (with or without their ends, one at a time): each line is given with ``\\n`` for
    its CR, LF or CRLF end (the last one without, when the text has none), the byte-order mark
    of the first one dropped.

    ``number`` is the 1-based line last given (0 before any); :meth:`take` hands over the
    ``(line number, text)`` pairs of the lines given since the last call that
    :func:`scan_header` reads: the lines up to the one that ends the header as
    ``chess.pgn.read_game`` reads it (blank and comment lines before the first tag line, then
    tag lines, comments and at most one blank line in a row), then only the first line that
    looks like a tag pair, and the last line. A run of lines the header scan skips is held as
    one, its last: before the first tag line, every blank and comment line (a line that is
    skipped only once its byte-order mark is dropped stays skipped whichever line it is);
    inside the header, a run of comments (comments never end a header, nor count as blank
    lines). So a game of a million lines of moves, or of blank lines, holds a
    handful of them. ``at_end`` says no line is left; ``last_text`` is the last line given that
    is not blank.
    """

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self.number = 0
        self.last_text = ""
        self._taken: list[tuple[int, str]] = []
        self._header = _BEFORE  # where the game's header reading is (read_game's own steps)
        self._blank_in_header = False  # the header's last line that was not a comment was blank
        self._tag_in_moves = False  # the first tag-like line after it is taken
        self._last: tuple[int, str] | None = None
        self._next = self._pull()
        if self._next is not None:
            self._next = self._next.removeprefix("\ufeff")

    def _pull(self) -> str | None:
        line = next(self._lines, None)
        if line is None:
            return None
        bare = strip_end(line)
        return bare + "\n" if len(bare) < len(line) else bare

    def readline(self) -> str:
        """The next line, or ``""`` when there is none."""
        line = self._next
        if line is None:
            return ""
        self._next = self._pull()
        self.number += 1
        if self._header is not _MOVES:
            self._keep_header_line(line)
        elif not self._tag_in_moves and _TAG_START.match(line.lstrip()):
            self._taken.append((self.number, line))
            self._tag_in_moves = True
        self._last = (self.number, line)
        if line.strip():
            self.last_text = line
        return line

    def _keep_header_line(self, line: str) -> None:
        """Keep ``line``, read while the header may not have ended, and follow ``read_game``:
        skipped lines before the first tag line, then tag lines, comments and at most one
        blank line in a row; the first other line ends the header (it is kept: ``scan_header``
        stops there, and it may look like a tag pair)."""
        # the first line of a game is read without its byte-order marks (python-chess, scan_header)
        text = line if self._taken else line.lstrip("\ufeff")
        entry = (self.number, line)
        if self._header is _BEFORE:
            if _is_skipped(text):
                self._taken[:] = [entry]  # scan_header skips them all: the run's last one
                return
            self._header = _HEADER
        self._taken.append(entry)
        if text.startswith(("%", ";")):
            if len(self._taken) > 1 and self._taken[-2][1].startswith(("%", ";")):
                del self._taken[-2]  # a run of comments: its last one
        elif text.isspace() and not self._blank_in_header:
            self._blank_in_header = True
        elif text.startswith("["):
            self._blank_in_header = False
        else:
            self._header = _MOVES
            self._tag_in_moves = bool(_TAG_START.match(line.lstrip()))

    @property
    def at_end(self) -> bool:
        """Whether every line has been given."""
        return self._next is None

    def take(self) -> list[tuple[int, str]]:
        """The ``(1-based line, text)`` pairs kept (see above) of the lines given since the last
        call, in order, the last one given among them."""
        taken, self._taken = self._taken, []
        if self._last is not None and (not taken or taken[-1][0] != self._last[0]):
            taken.append(self._last)
        self._header, self._blank_in_header = _BEFORE, False
        self._tag_in_moves, self._last = False, None
        return taken


class Builder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, also noting lines of errors and results, and the movers.

    ``handle_error`` does not log (python-chess's default logs each error with the game's repr);
    it keeps the error in ``game.errors`` as the default does, with the line being read.
    """

    def __init__(self, source: LineSource) -> None:
        super().__init__()
        self.source = source
        self.errors_at: list[tuple[int, Exception]] = []
        self.terminations: list[tuple[int, str]] = []
        self.mainline_movers: list[chess.Color] = []  # side of each non-null main-line move

    def _line(self) -> int:
        return max(1, self.source.number)

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


def _once(builder: Builder) -> Callable[[], Builder]:
    """A visitor factory for ``chess.pgn.read_game`` that hands out this one builder."""
    return lambda: builder


@dataclass(frozen=True)
class ReadGame:
    """One game as python-chess read it: ``builder`` (its errors, game termination markers and
    movers, each with its line), ``lines`` (the (1-based line, text) pairs of the lines it was
    read from that :func:`scan_header` needs, the last one among them: :class:`LineSource`) and
    ``cut_short`` (the file ends inside this game, with no termination marker after its moves)."""

    builder: Builder
    lines: list[tuple[int, str]]
    cut_short: bool


def read_games(source: LineSource, filename: str) -> Iterator[ReadGame | Problem]:
    """Each game of ``source`` in file order, read by ``chess.pgn.read_game``; a game python-chess
    fails on gives a :class:`~ledger.errors.Problem` (field ``game``, the game's first line) in its
    place. ``source.number`` is the last line read so far. An exception from the lines themselves
    (``BadEncoding``) is not a game's: it goes through."""
    while True:
        builder = Builder(source)
        before = source.number
        try:
            game = chess.pgn.read_game(cast(TextIO, source), Visitor=_once(builder))
        except BadEncoding:
            raise
        except Exception as exc:  # python-chess collects errors; this is a last safety net
            first = source.take()
            line = first[0][0] if first else None
            yield Problem(filename, line, "game", f"could not be read: {exc!r}")
            if source.number == before:
                break
            continue
        lines = source.take()
        if game is None:
            break
        yield ReadGame(builder, lines,
                       source.at_end and not _ENDS_WITH_TERMINATION.search(source.last_text))


# --------------------------------------------------------------------------------------------
# The header block of one game, as python-chess delimits it


@dataclass(frozen=True)
class Tag:
    """A tag's value as written (escapes undone) and its 1-based line."""

    value: str
    line: int


@dataclass
class Scan:
    """One game's header block: ``game_line`` (the game's first line), ``tags`` by name (the
    last one of a name given twice) and the ``problems`` of its tag lines."""

    game_line: int
    tags: dict[str, Tag]
    problems: list[Problem]


def scan_header(lines: list[tuple[int, str]], filename: str) -> Scan:
    """Find the game's first line, its tags (with lines) and tag lines lost among the moves.

    Mirrors ``chess.pgn.read_game``: skip blank and ``%``/``;`` comment lines, then the header is
    the run of lines starting with ``[`` (at most one blank line in a row inside it); the first
    other line starts the moves.
    """
    problems: list[Problem] = []
    tags: dict[str, Tag] = {}
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
        named = _TAG_NAME.match(text) if pairs is None else None
        if named is not None and named.group(1) in _READ_TAGS:
            # a tag the ledger reads, lost: the game would be stored without its event or round
            tag = named.group(1)
            message = (f'not a tag pair [{tag} "value"] (an unterminated or unquoted value): '
                       f"the {tag} tag cannot be read")
            problems.append(Problem(filename, no, tag, message))
        elif pairs is None:
            message = 'not a tag pair [Name "value"]: line ignored'
            problems.append(Problem(filename, no, "tags", message, WARNING))
        for name, value in pairs or []:
            old = tags.get(name)
            if old is not None and old.value != value and name in _READ_TAGS:
                message = f"given twice with different values ({old.value!r} on line {old.line})"
                problems.append(Problem(filename, no, name, message))
            tags[name] = Tag(value, no)
        i += 1
    for no, text in texts[i:]:
        if _TAG_START.match(text.lstrip()):
            message = (
                "a tag pair among the moves (python-chess skips it, so the game it starts is "
                "lost): put a blank line after each game's moves"
            )
            problems.append(Problem(filename, no, "tags", message))
            break
    return Scan(game_line, tags, problems)


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
# The problems of one game, on the lines of its tags


class Collector:
    """Problems of one game (``problems``, starting with those of its header ``scan``), placed on
    the line of the tag they concern."""

    def __init__(self, filename: str, scan: Scan) -> None:
        self.filename = filename
        self.scan = scan
        self.problems: list[Problem] = list(scan.problems)

    def line_of(self, name: str) -> int:
        """The line of tag ``name``, or the game's first line when it has no such tag."""
        tag = self.scan.tags.get(name)
        return tag.line if tag is not None else self.scan.game_line

    def error(self, name: str, message: str, line: int | None = None) -> None:
        """An error on field ``name``, on ``line`` (default: the line of tag ``name``)."""
        where = line if line is not None else self.line_of(name)
        self.problems.append(Problem(self.filename, where, name, message, ERROR))

    def warning(self, name: str, message: str, line: int | None = None) -> None:
        """A warning on field ``name``, on ``line`` (default: the line of tag ``name``)."""
        where = line if line is not None else self.line_of(name)
        self.problems.append(Problem(self.filename, where, name, message, WARNING))

    def value(self, name: str) -> str | None:
        """The value of tag ``name``, stripped; None when the game has no such tag."""
        tag = self.scan.tags.get(name)
        return tag.value.strip() if tag is not None else None

    @property
    def has_error(self) -> bool:
        """Whether any problem so far is an error (the game is then left out)."""
        return any(p.severity == ERROR for p in self.problems)
