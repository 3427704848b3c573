"""A rendered page's pieces joined into its text, a few thousand at a time (issue 25): a list
page of 200,000 players is some seven million pieces, whose list alone, as ``str.join`` makes it
of an iterator, held several times the page's own size. A page too long to hold as one text
(a list page, the players' index) is handed on as its groups of pieces (``Pieces``), which a
writer encodes and writes as they come. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

#: The pieces joined at a time.
PIECES = 8192
#: The pieces of a long page (``Pieces``) joined at a time: a list page's rows come 500 in
#: a piece (``list.html``), so ``PIECES`` of them were the whole page (80 MB) in one.
LONG = 16


def grouped(pieces: Iterable[str], at_a_time: int = PIECES) -> Iterator[str]:
    """``pieces`` (``jinja2.Template.generate``'s) joined ``at_a_time`` at a time, in order:
    the same text."""
    found = iter(pieces)
    while part := list(islice(found, at_a_time)):
        yield "".join(part)


def joined(pieces: Iterable[str]) -> str:
    """``"".join(pieces)``, holding at most ``PIECES`` pieces at once besides the text joined
    so far (``jinja2.Template.generate``'s pieces: the same text as ``render``)."""
    return "".join(list(grouped(pieces)))


@dataclass(frozen=True)
class Pieces:
    """A page's text as ``parts``, its pieces in order (``grouped``), made as they are asked
    for and only once: ``"".join(parts)`` is the page's text, never held whole."""

    parts: Iterator[str]
