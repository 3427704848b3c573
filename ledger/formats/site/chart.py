"""The geometry of a player's rating chart, drawn as an inline SVG by the ``chart.html`` template.

Pure arithmetic: from the chart's points (the start rating, then one point per list the player is
on) to coordinates in a fixed 720 x 300 view box (the SVG scales to any width and stays crisp),
the rating gridlines at a round step, and the x axis labelled by list month (at most
``MAX_MONTH_LABELS`` labels, the first and the last always). Every coordinate is written with one
decimal (exact arithmetic, rounded half up), so the same points give the same bytes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ledger.formats.site.model import ChartPoint, month_label

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 72, 24, 48, 64
#: Rating steps the gridlines may use, smallest first; the first giving at most 6 intervals wins.
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MAX_MONTH_LABELS = 8


def _n(value: Fraction | int) -> str:
    """A coordinate as written: the exact value to one decimal, half up (``Fraction(6445,
    100)`` -> ``64.5``), in integers (what ``Decimal.quantize`` with ``ROUND_HALF_UP`` wrote of
    the value's 28-digit quotient, the same for every coordinate: a chart's denominators are
    far below 10**20; a rebuild's 3,000 charts took 0.1 CPU s in ``Decimal``)."""
    return _ratio(value.numerator, value.denominator)


def _ratio(numerator: int, denominator: int) -> str:
    """``_n(Fraction(numerator, denominator))`` without making the fraction (``denominator`` >
    0; the two need no common factor taken out: the rounding depends on the value alone)."""
    tenths, rest = divmod(abs(numerator) * 10, denominator)
    if 2 * rest >= denominator:
        tenths += 1
    return f"{'-' if numerator < 0 else ''}{tenths // 10}.{tenths % 10}"


@dataclass(frozen=True)
class Mark:
    """A drawn point: coordinates (as written), the rating, the list month's label, the
    ``kind`` ("start" or "list"), its ``tip`` (the words a pointer or a screen reader gets)
    and the K note drawn beside it (or None)."""

    x: str
    y: str
    rating: int
    label: str
    kind: str
    tip: str
    k_note: str | None


@dataclass(frozen=True)
class Tick:
    """An axis label: its position (``x`` or ``y``, as written) and text; ``minor``: one of the
    labels a narrow screen leaves out (every other month label but the first and last);
    ``anchor``: where the text stands (the first month label starts at its tick, the last
    ends there, so neither leaves the chart)."""

    at: str
    text: str
    minor: bool = False
    anchor: str = "middle"


@dataclass(frozen=True)
class ChartLayout:
    """What the template draws: the view box size, the plot's edges, the line through every
    mark (``path``), the marks, the rating gridlines (``y_ticks``) and month labels
    (``x_ticks``), and a sentence describing the chart (``summary``)."""

    width: int
    height: int
    left: str
    right: str
    top: str
    bottom: str
    path: str
    marks: tuple[Mark, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    summary: str

    @property
    def lists(self) -> int:
        """How many list points the chart has (the start rating is not one)."""
        return sum(1 for m in self.marks if m.kind == "list")


def _months(day: dt.date) -> int:
    return day.year * 12 + day.month - 1


def rating_step(low: int, high: int) -> int:
    """The gridline step for ratings ``low``..``high``: the first of ``STEPS`` that spans them
    in at most 6 intervals (``rating_step(1620, 1693) == 20``: 1620 to 1700 in 4)."""
    for step in STEPS:
        if -(-high // step) - low // step <= 6:
            return step
    return STEPS[-1]


def _tip(p: ChartPoint) -> str:
    when = month_label(p.month)
    if p.period is None:
        return f"start rating {p.rating}, in force {when}"
    return f"{p.rating} on the list of {when} (period {p.period})" + (
        f"; {p.k_note}" if p.k_note else "")


def layout(points: Sequence[ChartPoint]) -> ChartLayout:
    """The chart of ``points`` (oldest first, at least one). Raises ``ValueError`` for none."""
    if not points:
        raise ValueError("a chart needs at least one point")
    ratings = [p.rating for p in points]
    step = rating_step(min(ratings), max(ratings))
    low, high = min(ratings) // step * step, -(-max(ratings) // step) * step
    if low == high:
        low, high = low - step, high + step
    first, last = _months(points[0].month), _months(points[-1].month)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(day: dt.date) -> str:
        if first == last:  # LEFT + plot_w / 2
            return _ratio(2 * LEFT + plot_w, 2)
        # LEFT + (months - first) / (last - first) * plot_w, over one denominator
        return _ratio(LEFT * (last - first) + (_months(day) - first) * plot_w, last - first)

    def y_of(rating: int) -> str:  # TOP + (high - rating) / (high - low) * plot_h
        return _ratio(TOP * (high - low) + (high - rating) * plot_h, high - low)

    marks = tuple(Mark(x_of(p.month), y_of(p.rating), p.rating, month_label(p.month),
                       "start" if p.period is None else "list", _tip(p), p.k_note)
                  for p in points)
    path = " ".join(f"{'M' if i == 0 else 'L'}{m.x},{m.y}" for i, m in enumerate(marks))
    y_ticks = tuple(Tick(y_of(r), str(r)) for r in range(low, high + 1, step))
    months = sorted({p.month for p in points})
    every = -(-len(months) // MAX_MONTH_LABELS)
    shown = months[::every]
    if shown[-1] != months[-1]:
        shown = [*shown[:-1], months[-1]] if len(shown) > 1 else [*shown, months[-1]]
    edges = {0: "start", len(shown) - 1: "end"} if len(shown) > 1 else {}
    x_ticks = tuple(Tick(x_of(m), month_label(m), 0 < i < len(shown) - 1 and i % 2 == 1,
                         edges.get(i, "middle"))
                    for i, m in enumerate(shown))
    lists = [p for p in points if p.period is not None]
    start = next((p for p in points if p.period is None), None)
    words = [f"{len(lists)} list{'s' if len(lists) != 1 else ''}"]
    if lists:
        words[0] += f" from {month_label(lists[0].month)} to {month_label(lists[-1].month)}"
    if start is not None:
        words.append(f"start rating {start.rating} ({month_label(start.month)})")
    words.append(f"lowest {min(ratings)}, highest {max(ratings)}, latest {ratings[-1]}")
    notes = [f"{p.k_note} on the list of {month_label(p.month)}" for p in points if p.k_note]
    words += notes
    return ChartLayout(WIDTH, HEIGHT, _n(LEFT), _n(WIDTH - RIGHT), _n(TOP), _n(HEIGHT - BOTTOM),
                       path, marks, y_ticks, x_ticks, "; ".join(words) + ".")
