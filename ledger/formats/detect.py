"""Which format a file is in, from its first lines (else its extension): pure.

- TRF: a line starting with a three-character record code and a blank (``012 ``, ``001 ``,
  ``XXR ``), FIDE TRF-16.
- PGN: a tag pair ``[Tag "value"]`` (PGN standard §8.1).
- CSV: a header row holding the columns ``date``, ``white``, ``black`` and ``result``.
"""

from __future__ import annotations

import re

__all__ = ["EXTENSIONS", "detect_format"]

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
