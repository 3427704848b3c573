"""A TRF file's text: its bytes decoded one line at a time (pure).

Columns are characters, not bytes: the file is decoded as UTF-8 (a byte-order mark is dropped),
else as CP1252 with a warning, read from a binary handle one line at a time (:class:`TrfText`);
a file with a UTF-16 byte-order mark is read as UTF-16, with a warning. Lines end in CR, LF or
CRLF only (``split_lines``: a form feed or a Unicode line separator inside a line is data). The
lines are read by ``ledger.formats.trf_lines``.
"""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Iterator
from typing import BinaryIO

from ledger.errors import WARNING, Problem
from ledger.formats.text_stream import byte_lines_of, chunks, lines_of


def split_lines(text: str) -> list[str]:
    """Lines ended by CR, LF or CRLF (only these; ``str.splitlines`` would also split on form
    feeds, ``\\x1c``-``\\x1e``, NEL and Unicode separators, which are data in a fixed column);
    ``ledger.formats.text_stream.lines_of`` over one piece."""
    return list(lines_of([text]))


class Reread(Exception):
    """Raised by :class:`TrfText` when the lines already given were decoded by the wrong rule:
    read the file again from the start with ``TrfText(handle, filename, cp1252_from=line)``."""

    def __init__(self, line: int) -> None:
        super().__init__(f"read again as CP1252 (line {line})")
        self.line = line


class TrfText:
    """The lines of a TRF file, decoded one at a time from a binary handle (without their CR, LF
    or CRLF ends; see ``ledger.formats.text_stream``), and ``problems``: the warning about the
    encoding, once known.

    The rule is the whole file's, as if it were decoded at once: UTF-8 (a leading byte-order mark
    dropped); else CP1252 (bytes CP1252 leaves undefined become U+FFFD), with a warning on the
    line of the first byte that is not UTF-8; a file starting with a UTF-16 byte-order mark
    (Windows' "Unicode") is read as UTF-16, with a warning, unless it is not UTF-16 after all.
    Lines are decoded as UTF-8 until a line is not; if every line before it was ASCII (the same
    in both), the rest is read as CP1252 without going back. Otherwise (non-ASCII UTF-8 earlier,
    or UTF-16 that fails) iterating raises :class:`Reread`: the caller seeks back and reads the
    whole file as CP1252 (``cp1252_from``: the line the warning names).
    """

    def __init__(self, handle: BinaryIO, filename: str, cp1252_from: int | None = None) -> None:
        self.handle = handle
        self.filename = filename
        self.cp1252_from = cp1252_from
        self.problems: list[Problem] = []

    def _warn_cp1252(self, line: int) -> None:
        self.problems.append(Problem(self.filename, line, "encoding", "not UTF-8 (first bad byte "
                                     "on this line): read as Windows-1252 (CP1252); check the "
                                     "accented names, or save the file as UTF-8", WARNING))

    def __iter__(self) -> Iterator[str]:
        if self.cp1252_from is not None:
            self._warn_cp1252(self.cp1252_from)
            for raw in byte_lines_of(chunks(self.handle)):
                yield raw.decode("cp1252", errors="replace")
            return
        head = self.handle.read(3)
        pieces = itertools.chain([head], chunks(self.handle))
        if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
            yield from self._utf16(pieces)
        elif head == codecs.BOM_UTF8:  # dropped; not ASCII, if the file is CP1252 after all
            yield from self._utf8(chunks(self.handle), ascii_so_far=False)
        else:
            yield from self._utf8(pieces)

    def _utf16(self, pieces: Iterator[bytes]) -> Iterator[str]:
        self.problems.append(Problem(self.filename, 1, "encoding", "UTF-16 (byte-order mark): "
                                     "read as such; save TRF files as UTF-8", WARNING))
        decoder = codecs.getincrementaldecoder("utf-16")()

        def text() -> Iterator[str]:
            try:
                for piece in pieces:
                    yield decoder.decode(piece)
                yield decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                raise Reread(1) from None  # not UTF-16: its first two bytes are not UTF-8 either

        yield from lines_of(text())

    def _utf8(self, pieces: Iterator[bytes], ascii_so_far: bool = True) -> Iterator[str]:
        utf8 = True
        for number, raw in enumerate(byte_lines_of(pieces), start=1):
            if utf8:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError:
                    if not ascii_so_far:
                        raise Reread(number) from None
                    utf8 = False
                    self._warn_cp1252(number)
                else:
                    ascii_so_far = ascii_so_far and raw.isascii()
                    yield line
                    continue
            yield raw.decode("cp1252", errors="replace")
