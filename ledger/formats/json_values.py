"""Exact values as JSON numbers and fixed decimals (display only; the rules keep their own exact
arithmetic): the one definition the CLI's ``--json`` and the web's API both write with."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction


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
