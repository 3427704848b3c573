"""Exact values as the CLI shows them: JSON numbers and fixed decimals (display only; the rules
keep their own exact arithmetic)."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any


def json_number(value: Decimal) -> int | float:
    """A Decimal for JSON: an int when whole, else its exact decimal text as a JSON number."""
    if value == value.to_integral_value():
        return int(value)
    return float(str(value))


def two_decimals(value: Fraction, places: int = 2) -> Decimal:
    """An exact value shown to ``places`` decimals, half up: 12600/7 -> 1800.00, 13600/7 ->
    1942.86; with ``places`` 3, 9/14 -> 0.643."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


_encode_str = getattr(json.encoder, "c_encode_basestring", None) or json.encoder.py_encode_basestring


class _Unsupported(Exception):
    """A value ``indented_json`` leaves to ``json.dumps``."""


def _indented(value: Any, level: int, out: list[str]) -> None:
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
            raise _Unsupported
        out.append(float.__repr__(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        pad = "\n" + "  " * (level + 1)
        sep = "{"
        for key, item in value.items():
            if type(key) is not str:
                raise _Unsupported
            head = sep + pad + _encode_str(key) + ": "
            sep = ","
            of = type(item)
            if of is int:  # the common leaves inline: a call less per value
                out.append(head + int.__repr__(item))
            elif of is str:
                out.append(head + _encode_str(item))
            else:
                out.append(head)
                _indented(item, level + 1, out)
        out.append("\n" + "  " * level + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        pad = "\n" + "  " * (level + 1)
        for i, item in enumerate(value):
            out.append(("[" if i == 0 else ",") + pad)
            _indented(item, level + 1, out)
        out.append("\n" + "  " * level + "]")
    else:
        raise _Unsupported


def indented_json(data: Any) -> str:
    """The text of ``json.dumps(data, indent=2, ensure_ascii=False)``, several times faster on
    big documents (``json`` runs its pure-Python encoder whenever ``indent`` is given; a close
    of 20,000 players has 200,000 per-game objects). Anything but dicts with ``str`` keys,
    lists, tuples, ``str``, ``int``, finite ``float``, ``bool`` and None goes to ``json.dumps``
    (which raises ``TypeError`` for what JSON cannot hold)."""
    out: list[str] = []
    try:
        _indented(data, 0, out)
    except (_Unsupported, RecursionError):
        return json.dumps(data, indent=2, ensure_ascii=False)
    return "".join(out)
