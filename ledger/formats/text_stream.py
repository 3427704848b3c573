"""A file read as a stream of lines, and the bound on the problems a reader keeps (pure).

The readers (``ledger.formats.trf``, ``pgn``, ``games_csv``) take an open binary handle (a
file opened ``"rb"``, or ``io.BytesIO``) and read it in chunks of ``CHUNK`` bytes, one line at
a time: a file is never held whole, in bytes or decoded. Lines end in CR, LF or CRLF, and only
those (a CRLF split between two chunks is one line end); ``str.splitlines`` would also split on
form feeds, ``\\x1c``-``\\x1e``, NEL and the Unicode separators, which are data in a file.

A garbage file gives an error on nearly every line. :class:`Problems` keeps the first
``MAX_PROBLEMS`` errors and the first ``MAX_PROBLEMS`` warnings; once an error past the bound
is found, the reader stops at the end of that line (or CSV row, or PGN game) and one more error
says how many it found past the bound and on which line it stopped. Warnings past the bound are
counted, not kept, and never stop a reader (a valid file may warn on every line).

>>> list(lines_of(["012 Cup\\r", "\\n001 x\\r042"]))
['012 Cup', '001 x', '042']
>>> list(lines_of(["a\\r\\n", "b\\n"], keepends=True))
['a\\r\\n', 'b\\n']
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Iterable, Iterator
from typing import IO, AnyStr, BinaryIO

from ledger.domain import count
from ledger.errors import Problem

__all__ = ["CHUNK", "MAX_PROBLEMS", "BadEncoding", "Problems", "byte_lines_of", "chunks",
           "lines_of", "strip_end", "utf8_blocks", "utf8_lines"]

#: Bytes (or characters) read at a time.
CHUNK = 1 << 20
#: Errors, and warnings, a reader keeps for one file (the CLI prints 100; ``--json`` lists all kept).
MAX_PROBLEMS = 1000

_ENDS = re.compile(r"(\r\n|\r|\n)")
_BYTE_ENDS = re.compile(rb"(\r\n|\r|\n)")


def chunks(handle: IO[AnyStr], size: int = CHUNK) -> Iterator[AnyStr]:
    """``handle.read(size)`` until it gives nothing: the chunks of a binary or text handle."""
    while True:
        chunk = handle.read(size)
        if not chunk:
            return
        yield chunk


def _split(pieces: Iterable[AnyStr], ends: re.Pattern[AnyStr], cr: AnyStr,
           keepends: bool) -> Iterator[AnyStr]:
    """The lines of ``pieces`` joined: see :func:`lines_of`."""
    pending: list[AnyStr] = []  # the start of a line whose end is not read yet
    for piece in pieces:
        if not piece:
            continue
        if not ends.search(piece):
            pending.append(piece)  # a long line is joined once, when its end comes
            continue
        pending.append(piece)
        data = piece[:0].join(pending)
        held = data.endswith(cr)  # a CR may be the first half of a CRLF
        parts = ends.split(data[:-1] if held else data)
        tail = parts.pop()
        for i in range(0, len(parts), 2):
            yield parts[i] + parts[i + 1] if keepends else parts[i]
        pending = [tail + cr] if held else [tail]
    rest = cr[:0].join(pending)
    parts = ends.split(rest)
    tail = parts.pop()
    for i in range(0, len(parts), 2):
        yield parts[i] + parts[i + 1] if keepends else parts[i]
    if tail:
        yield tail


def lines_of(pieces: Iterable[str], keepends: bool = False) -> Iterator[str]:
    """The lines of the text made of ``pieces`` (chunks of any size), in order: each ended by CR,
    LF or CRLF, the end dropped unless ``keepends``; the last line may have no end. Text ending in
    a line end gives no empty line after it; ``""`` gives no line. Never holds more than one line
    and one chunk."""
    return _split(pieces, _ENDS, "\r", keepends)


def byte_lines_of(pieces: Iterable[bytes], keepends: bool = False) -> Iterator[bytes]:
    """:func:`lines_of` for bytes (CR and LF bytes: right for UTF-8 and single-byte encodings,
    where a line end is never part of a character)."""
    return _split(pieces, _BYTE_ENDS, b"\r", keepends)


def strip_end(line: str) -> str:
    """``line`` without its CR, LF or CRLF end."""
    if line.endswith("\n"):
        line = line[:-1]
    return line.removesuffix("\r")


class BadEncoding(Exception):
    """The text stops being UTF-8 on 1-based ``line`` (None when not known); ``reason`` as
    ``UnicodeDecodeError`` gives it (``invalid start byte``)."""

    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def utf8_lines(handle: BinaryIO, keepends: bool = False) -> Iterator[str]:
    """The lines of a binary handle decoded as UTF-8 (a byte-order mark at the start dropped), one
    at a time (see :func:`lines_of`). Raises :class:`BadEncoding` with the line of the first byte
    that is not UTF-8 when it comes to it (lines before it have been given already)."""
    for lines in utf8_blocks(handle):
        yield from (lines if keepends else map(strip_end, lines))


def utf8_blocks(handle: BinaryIO) -> Iterator[list[str]]:
    """``utf8_lines(handle, keepends=True)`` a chunk's whole lines at a time (lists, never
    empty), for a reader that should not pay a generator step and a decode per line: each run
    of whole lines is decoded at once (a line end is never part of a character, so a run is
    UTF-8 exactly when each of its lines is), and one that is not is decoded again line by
    line, its lines before the first that is not UTF-8 given, then the same
    :class:`BadEncoding` (line and reason) as ``utf8_lines``."""
    head = handle.read(len(codecs.BOM_UTF8))
    pieces: Iterable[bytes] = chunks(handle)
    if head != codecs.BOM_UTF8:
        pieces = itertools.chain([head], pieces)
    number = 0  # the lines given so far
    for run in _runs(pieces):
        try:
            lines = _LINE.findall(run.decode("utf-8"))
        except UnicodeDecodeError:
            lines = []
            for raw in _BYTE_LINE.findall(run):
                try:
                    lines.append(raw.decode("utf-8"))  # with its end, as utf8_lines reads it
                except UnicodeDecodeError as exc:
                    if lines:
                        yield lines
                    raise BadEncoding(number + len(lines) + 1, exc.reason) from None
        number += len(lines)
        yield lines


#: One line with its end (CR, LF or CRLF), or the last one without an end: ``_split``'s lines.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_BYTE_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _runs(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """The bytes of ``pieces`` joined, cut after the last line end each piece brings (a CR at
    the end held back: it may be the first half of a CRLF), the rest at the end: runs of whole
    lines (never empty), the lines ``byte_lines_of`` gives, in order."""
    pending: list[bytes] = []  # the start of a line whose end is not read yet
    for piece in pieces:
        if not piece:
            continue
        pending.append(piece)
        if not _BYTE_ENDS.search(piece):
            continue  # a long line is joined once, when its end comes
        data = b"".join(pending)
        held = data.endswith(b"\r")
        body = data[:-1] if held else data
        cut = max(body.rfind(b"\n"), body.rfind(b"\r")) + 1
        if cut:
            yield body[:cut]
        pending = [body[cut:] + b"\r"] if held else [body[cut:]]
    rest = b"".join(pending)
    if rest:
        yield rest


class Problems:
    """The problems one reader finds in ``filename``, kept up to a bound: ``kept`` holds the
    first ``limit`` errors and the first ``limit`` warnings, in the order found; ``errors`` and
    ``warnings`` count every one found, kept or not.

    The reader asks :attr:`full` at the end of each line (or row, or game) and, when it is true,
    calls :meth:`stop` and reads no further; :meth:`finish` gives the list to return.
    """

    def __init__(self, filename: str, limit: int = MAX_PROBLEMS) -> None:
        self.filename = filename
        self.limit = limit
        self.kept: list[Problem] = []
        self.errors = 0
        self.warnings = 0
        self.stopped_at: int | None = None  # the line the reader stopped at
        self._unkept_warning_line: int | None = None

    def append(self, problem: Problem) -> None:
        """Count ``problem``; keep it while there are ``limit`` or fewer of its severity."""
        if problem.severity == "error":
            self.errors += 1
            if self.errors <= self.limit:
                self.kept.append(problem)
            return
        self.warnings += 1
        if self.warnings <= self.limit:
            self.kept.append(problem)
        elif self.warnings == self.limit + 1:
            self._unkept_warning_line = problem.line

    def extend(self, problems: Iterable[Problem]) -> None:
        """:meth:`append` each of ``problems``."""
        for problem in problems:
            self.append(problem)

    @property
    def full(self) -> bool:
        """More errors than are kept: the reader stops at the end of this line."""
        return self.errors > self.limit

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self.stopped_at is not None

    def stop(self, line: int) -> None:
        """The reader stops after 1-based ``line``: keep one error that says so (the file is
        rejected: its errors past the bound are not listed and the rest of it is not read)."""
        self.stopped_at = line
        more = self.errors - self.limit
        self.kept.append(Problem(
            self.filename, line, "file", f"more than {self.limit} errors: the first {self.limit} "
            f"are listed; {more} more found up to line {line}, where reading stopped (the rest of "
            "the file is not read): correct these and import the file again"))

    def finish(self) -> list[Problem]:
        """The kept problems, with one warning more when warnings were found past the bound."""
        if self._unkept_warning_line is not None:
            more = self.warnings - self.limit
            self.kept.append(Problem(
                self.filename, self._unkept_warning_line, "file", f"{count(more, 'more warning')} from this "
                f"line on are not listed (the first {self.limit} are)", "warning"))
            self._unkept_warning_line = None
        return self.kept
