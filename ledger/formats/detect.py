"""Which format a file is in, from its first lines (else its extension): pure.

- TRF: a line starting with a three-character record code and a blank (``012 ``, ``001 ``,
  ``XXR ``), FIDE TRF-16.
- PGN: a tag pair ``[Tag "value"]`` (PGN standard §8.1).
- CSV: a header row holding the columns ``date``, ``white``, ``black`` and ``result``.

A FIDE rating list is never guessed (``--format fide-list`` names it); ``starts_as_fide_list``
only tells whether a file looks like one, for the command line's usage errors.
"""

from __future__ import annotations

import re

__all__ = ["EXTENSIONS", "detect_format", "starts_as_fide_list"]

_TRF = re.compile(r"(?:[0-9]{3}|XX[A-Z]|###)(?: |$)")
_PGN = re.compile(r'\s*\[\s*[A-Za-z0-9][A-Za-z0-9_+#=:-]*\s+"')
EXTENSIONS = {".pgn": "pgn", ".trf": "trf", ".tab": "trf", ".csv": "csv"}


def detect_format(head: bytes, suffix: str) -> str | None:
    """``"trf"``, ``"pgn"`` or ``"csv"`` from the first bytes of a file (its first non-blank
    line decides), else from ``suffix`` (``.pgn``, ``.trf``, ``.tab``, ``.csv``); None if neither
    tells."""
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    for line in re.split(r"\r\n|\r|\n", text):
        if not line.strip():
            continue
        if _TRF.match(line):
            return "trf"
        if _PGN.match(line):
            return "pgn"
        columns = {c.strip().strip('"').lower() for c in line.split(",")}
        if {"date", "white", "black", "result"} <= columns:
            return "csv"
        break
    return EXTENSIONS.get(suffix.lower())


def starts_as_fide_list(head: bytes) -> bool:
    """Whether the first bytes of a file start as a FIDE rating list does: the TXT list's
    ``ID Number`` header, or an XML declaration with a ``playerslist`` (a UTF-8 BOM and leading
    blanks aside)."""
    head = head.lstrip(b"\xef\xbb\xbf").lstrip()
    return head.startswith(b"ID Number") or head.startswith(b"<?xml") and b"playerslist" in head
