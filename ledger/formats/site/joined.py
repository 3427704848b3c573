"""A rendered page's pieces joined into its text, a few thousand at a time (issue 25): a list
page of 200,000 players is some seven million pieces, whose list alone, as ``str.join`` makes it
of an iterator, held several times the page's own size. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

#: The pieces joined at a time.
PIECES = 8192


def joined(pieces: Iterable[str]) -> str:
    """``"".join(pieces)``, holding at most ``PIECES`` pieces at once besides the text joined
    so far (``jinja2.Template.generate``'s pieces: the same text as ``render``)."""
    found = iter(pieces)
    parts = []
    while part := list(islice(found, PIECES)):
        parts.append("".join(part))
    return "".join(parts)
