"""A player's rating over time as an 800 x 400 PNG, drawn with matplotlib's Agg renderer (no
display, no pyplot state): one point per rating period, and the periods where K changed marked."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

#: Pixels: figsize (8, 4) inches at 100 dots per inch.
WIDTH, HEIGHT, DPI = 800, 400, 100


@dataclass(frozen=True)
class ChartPoint:
    """One rating period: its label (``YYYY-MM``), the rating on the list it published, and a
    note when K changed in it (e.g. ``"K 40 -> 20"``), else None."""

    period: str
    rating: int
    k_note: str | None = None


@dataclass(frozen=True)
class Chart:
    """The drawn chart: ``png`` bytes, and what was plotted, read back from the figure: ``x``
    (the periods, in order), ``y`` (the ratings) and ``marked`` (the periods marked for K)."""

    png: bytes
    x: list[str]
    y: list[int]
    marked: list[str]


def draw(points: Sequence[ChartPoint], title: str) -> Chart:
    """Draw ``points`` (oldest first, at least one) under ``title`` (also the PNG's ``Title``
    text chunk); returns the PNG and the plotted series. Raises ``ValueError`` for no points."""
    if not points:
        raise ValueError("no rating periods to draw")
    fig = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = list(range(len(points)))
    (line,) = ax.plot(xs, [p.rating for p in points], color="#1f4e79", marker="o", markersize=4,
                      linewidth=1.8, label="published rating")
    marked = [i for i, p in enumerate(points) if p.k_note]
    if marked:
        ax.scatter([xs[i] for i in marked], [points[i].rating for i in marked], s=70,
                   marker="D", color="#c0392b", zorder=3, label="K changed")
        for i in marked:
            ax.axvline(xs[i], color="#c0392b", linewidth=0.8, linestyle=":", zorder=1)
            ax.annotate(points[i].k_note or "", (xs[i], points[i].rating),
                        textcoords="offset points", xytext=(0, 11), ha="center", fontsize=8,
                        color="#c0392b", zorder=4,
                        bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "#c0392b",
                              "lw": 0.6})
        ax.legend(loc="best", fontsize=8, frameon=False)
    step = max(1, -(-len(points) // 12))  # at most about 12 period labels
    ax.set_xticks(xs[::step], [p.period for p in points][::step], rotation=30, ha="right",
                  fontsize=8)
    ax.margins(x=0.04, y=0.15)
    ax.grid(True, color="#dfe3ea", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_title(title, fontsize=11)
    ax.set_ylabel("rating")
    ax.set_xlabel("rating period")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Title": title})
    plotted_x = [int(v) for v in cast("Sequence[float]", line.get_xdata())]
    plotted_y = [int(v) for v in cast("Sequence[float]", line.get_ydata())]
    return Chart(buffer.getvalue(), [points[i].period for i in plotted_x], plotted_y,
                 [points[i].period for i in marked])
