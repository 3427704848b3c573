"""FIDE rating list files as text (pure): the bytes decoded, the lines split, a control character
found, and the :class:`Cell` each reader (``fide_list_header`` and ``fide_list_lines`` for TXT,
``fide_list_xml``) gives a value as, with the severities of their problems.

Sources: the rating list files FIDE publishes at ratings.fide.com/download_lists.phtml, as
described in tests/data/README.md ("FIDE rating list layouts"). The text is decoded as UTF-8 (a
byte-order mark is dropped), else CP1252 (or Latin-1, which never fails) with a warning. Lines end
in CR, LF or CRLF. A tab, or any other C0 control character or DEL, in a TXT line is an error: the
columns are blanks. Nothing here raises on bad data: every fault is a
:class:`~ledger.errors.Problem`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.errors import Problem

__all__ = ["ERROR", "WARNING", "Cell", "control_character", "decode", "ending_line", "split_lines"]

ERROR = "error"
WARNING = "warning"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: C0 control characters and DEL: a tab stands for blanks up to a tab stop and the others for
#: nothing printable, so a line holding one does not keep FIDE's fixed columns. (C1 is left to the
#: names: a byte CP1252 does not define is read as Latin-1, with the encoding's warning.)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(slots=True)
class Cell:
    """A raw field value: its text (stripped), its 1-based line and its label for problems (a
    TXT column, ``Name (column 16)``, or an XML element, ``name``)."""

    text: str
    line: int
    label: str


def ending_line(data: bytes) -> int:
    """The 1-based number of the line ``data`` ends on (lines ended by CR, LF or CRLF; the bytes
    read as Latin-1, which never fails): 1 for bytes without a line end."""
    return len(_LINE_BREAK.findall(data.decode("latin-1"))) + 1


def decode(data: bytes, file: str) -> tuple[str, list[Problem]]:
    """The text of the list's bytes and its problems: UTF-8 (without a byte-order mark), else
    CP1252, else Latin-1, with a warning naming the first byte that is not UTF-8 and its line."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = ending_line(data[:exc.start])
        try:
            text, encoding = data.decode("cp1252"), "CP1252"
        except UnicodeDecodeError:
            text, encoding = data.decode("latin-1"), "Latin-1"
        return text, [Problem(file, line, "encoding", f"not UTF-8 (byte 0x{data[exc.start]:02X}): "
                              f"the file is read as {encoding}", WARNING)]


def control_character(line: str) -> tuple[int, str] | None:
    """The 0-based offset of the first control character in a TXT list ``line`` (C0, such as a
    tab, or DEL) and the message saying so, or None: FIDE's lists are fixed columns of blanks.

    >>> control_character("ID Number\\tName")
    (9, "a tab at column 10: FIDE's lists are fixed columns of blanks")
    """
    found = _CONTROL.search(line)
    if found is None:
        return None
    at = found.start()
    if found.group() == "\t":
        return at, f"a tab at column {at + 1}: FIDE's lists are fixed columns of blanks"
    return at, (f"a control character (U+{ord(found.group()):04X}) at column {at + 1}: FIDE's "
                "lists are printable text in fixed columns of blanks")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, ended by CR, LF or CRLF (a last empty line dropped)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines

