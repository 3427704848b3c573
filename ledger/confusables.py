"""Look-alike letters: Unicode's confusables and the skeleton of a text (Unicode Technical
Standard #39, "Unicode Security Mechanisms", §4 Confusable Detection).

Two texts that print alike (Cyrillic ``а`` U+0430 and Latin ``a``; ``rn`` and ``m``; capital
``I`` and small ``l``) have the same skeleton: the text in NFD, each character replaced by its
prototype, in NFD again. The prototypes are Unicode's own data, ``ledger/data/confusables.txt``
(UTS #39 version 13.0.0, kept as Unicode published it; its source and licence:
``ledger/data/README.md``), read once, on first use. ``ledger.names`` builds the look-alike rule
of names on ``skeleton``.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib.resources import files

#: Where the data is, inside the package.
DATA = "data/confusables.txt"


@cache
def prototypes() -> dict[int, str]:
    """Each confusable character (its code point) -> its prototype (one or more characters),
    from ``DATA``: the lines ``source ; target ; type # comment`` of confusables.txt, code
    points in hex (``0430 ;	0061 ;	MA	# ( а → a ) ...``). Read once. Raises ``OSError`` when the
    file is missing and ``ValueError`` for a line that is not of that shape (a damaged copy)."""
    text = files("ledger").joinpath(DATA).read_text(encoding="utf-8-sig")
    table: dict[int, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].strip()
        if not fields:
            continue
        parts = [part.strip() for part in fields.split(";")]
        if len(parts) != 3:
            raise ValueError(f"{DATA}:{number}: not 'source ; target ; type'")
        table[int(parts[0], 16)] = "".join(chr(int(code, 16)) for code in parts[1].split())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text`` (str): NFD, every character replaced by its prototype
    (``prototypes``), NFD. Texts that print alike have the same skeleton; it is a key for
    comparing, never text to show.

    >>> skeleton("\u0410berg") == skeleton("Aberg")  # Cyrillic capital A
    True
    >>> skeleton("Kim")
    'Kirn'

    Raises only as ``prototypes`` does (the data file missing or damaged)."""
    if not text.isascii():
        text = unicodedata.normalize("NFD", text)
    mapped = text.translate(prototypes())
    return mapped if mapped.isascii() else unicodedata.normalize("NFD", mapped)
