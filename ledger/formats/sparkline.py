"""A terminal sparkline: one Unicode block character per value, from the lowest to the highest."""

from __future__ import annotations

from collections.abc import Sequence

#: The eight block heights, lowest first (U+2581 .. U+2588).
BLOCKS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"


def sparkline(values: Sequence[int]) -> str:
    """One character per value: the lowest value gets ``BLOCKS[0]``, the highest ``BLOCKS[7]``,
    the others the level (value - low) / (high - low) x 7, rounded half up, in whole numbers.
    All values equal: the middle block ``BLOCKS[3]`` each. No values: the empty string.

    Example: ``sparkline([1500, 1600, 1700, 1800]) == "▁▃▆█"`` (levels 0, 2.33 -> 2, 4.67 -> 5, 7).
    """
    if not values:
        return ""
    low, high = min(values), max(values)
    if low == high:
        return BLOCKS[3] * len(values)
    span = high - low
    # round half up of 7 (v - low) / span, in integers: floor((14 (v - low) + span) / (2 span))
    return "".join(BLOCKS[(14 * (v - low) + span) // (2 * span)] for v in values)
