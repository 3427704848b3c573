"""Exact values as the CLI shows them: JSON numbers and fixed decimals (display only; the rules
keep their own exact arithmetic)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from ledger.formats.json_values import json_number as json_number  # re-exported: one definition
from ledger.formats.json_values import two_decimals as two_decimals


def hundredths_number(hundredths: int) -> int | float:
    """A whole number of hundredths for JSON, as ``json_number`` gives its exact value: an int
    when whole (700 -> 7, -100 -> -1), else the float nearest to it (64 -> 0.64, -50 -> -0.5),
    which is the float of its decimal text: one correctly rounded division, no ``Decimal``."""
    whole, rest = divmod(hundredths, 100)
    return whole if rest == 0 else hundredths / 100


def halves_number(halves: int) -> int | float:
    """A whole number of halves (a score) for JSON: 2 -> 1, 1 -> 0.5, 0 -> 0, 7 -> 3.5."""
    whole, rest = divmod(halves, 2)
    return whole if rest == 0 else halves / 2


_encode_str = getattr(json.encoder, "c_encode_basestring", None) or json.encoder.py_encode_basestring


def encode_str(text: str) -> str:
    """``text`` as a JSON string, quoted, as ``json.dumps(text, ensure_ascii=False)`` writes it
    (non-ASCII kept, quotes, backslashes and control characters escaped)."""
    encoded: str = _encode_str(text)
    return encoded


class Rendered:
    """A value of a document that writes its own JSON text: ``text(level)`` must be exactly what
    ``json.dumps(indent=2, ensure_ascii=False)`` writes for the value it stands for at nesting
    ``level`` of the document (its first line not indented, its inner lines indented from
    ``level``). ``indented_json`` and ``write_json`` write that text as it is, one piece: a big
    report's row built from precomputed strings (``cli.render.close_json``) instead of one call
    per value."""

    __slots__ = ("text",)

    def __init__(self, text: Callable[[int], str]) -> None:
        self.text = text


class _Unsupported(Exception):
    """A value ``indented_json`` leaves to ``json.dumps``."""


#: Pieces of text a streamed document holds before it writes them (about 100 KB).
_FLUSH = 4096
#: Characters of ``Rendered`` texts (a close's players, about 3 KB each) a streamed document
#: holds before it writes them: 4,096 of them would be 13 MB held, and as much again joined.
_FLUSH_RENDERED = 1 << 20


class _Sink:
    """Where ``write_json`` sends the pieces: ``write`` each time ``_FLUSH`` are held (or
    ``_FLUSH_RENDERED`` characters of ``Rendered`` texts);
    ``flushes`` counts the writes (a dict already partly written cannot be done again)."""

    __slots__ = ("write", "flushes", "rendered")

    def __init__(self, write: Callable[[str], object]) -> None:
        self.write = write
        self.flushes = 0
        self.rendered = 0  # characters of Rendered texts held

    def flush(self, out: list[str]) -> None:
        self.write("".join(out))
        out.clear()
        self.rendered = 0
        self.flushes += 1


def _dumped(value: Any, level: int) -> str:
    """``value`` as ``json.dumps(indent=2)`` writes it at nesting ``level`` of a document."""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * level)


def _indented(value: Any, level: int, out: list[str], sink: _Sink | None = None) -> None:
    kind = type(value)
    if kind is str:
        out.append(_encode_str(value))
    elif kind is int:
        out.append(int.__repr__(value))
    elif value is None:
        out.append("null")
    elif kind is bool:
        out.append("true" if value else "false")
    elif kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            if sink is None:
                raise _Unsupported
            out.append(_dumped(value, level))
        else:
            out.append(float.__repr__(value))
    elif kind is Rendered:
        text = value.text(level)
        out.append(text)
        if sink is not None:
            sink.rendered += len(text)
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        pad = "\n" + "  " * (level + 1)
        sep = "{"
        begun, flushes = len(out), sink.flushes if sink is not None else 0
        for key, item in value.items():
            if type(key) is not str:
                if sink is None:
                    raise _Unsupported
                if sink.flushes != flushes:
                    raise TypeError("write_json: a dict with a key that is not a str, "
                                    "after part of it was written")
                del out[begun:]
                out.append(_dumped(value, level))
                return
            head = sep + pad + _encode_str(key) + ": "
            sep = ","
            of = type(item)
            if of is int:  # the common leaves inline: a call less per value
                out.append(head + int.__repr__(item))
            elif of is str:
                out.append(head + _encode_str(item))
            else:
                out.append(head)
                _indented(item, level + 1, out, sink)
        out.append("\n" + "  " * level + "}")
    elif kind is list or kind is tuple or isinstance(value, Iterator):
        pad = "\n" + "  " * (level + 1)
        first = True
        for item in value:
            out.append(("[" if first else ",") + pad)
            first = False
            _indented(item, level + 1, out, sink)
            if sink is not None and (len(out) >= _FLUSH or sink.rendered >= _FLUSH_RENDERED):
                sink.flush(out)
        out.append("[]" if first else "\n" + "  " * level + "]")
    elif sink is None:
        raise _Unsupported
    else:
        out.append(_dumped(value, level))


def indented_json(data: Any) -> str:
    """The text of ``json.dumps(data, indent=2, ensure_ascii=False)``, several times faster on
    big documents (``json`` runs its pure-Python encoder whenever ``indent`` is given; a close
    of 20,000 players has 200,000 per-game objects). Anything but dicts with ``str`` keys,
    lists, tuples, ``str``, ``int``, finite ``float``, ``bool`` and None goes to ``json.dumps``
    (which raises ``TypeError`` for what JSON cannot hold). An iterator is written as a list
    (``json.dumps`` would refuse it), a ``Rendered`` as its own text."""
    out: list[str] = []
    try:
        _indented(data, 0, out)
    except (_Unsupported, RecursionError):
        return json.dumps(data, indent=2, ensure_ascii=False)
    return "".join(out)


def write_json(data: Any, write: Callable[[str], object]) -> None:
    """Write the text of ``indented_json(data)`` and a newline by calls of ``write`` (about
    100 KB each), without holding the document: an iterator in ``data`` (a generator of the
    rows of a big report) is written as a list, one item at a time, so each item can be built
    when it is written and dropped after. A value ``indented_json`` leaves to ``json.dumps``
    is written by it where it stands (the same text). ``TypeError`` for what JSON cannot hold,
    possibly after part of the document was written."""
    out: list[str] = []
    sink = _Sink(write)
    _indented(data, 0, out, sink)
    out.append("\n")
    sink.flush(out)
