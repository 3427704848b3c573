"""Rendering ``ledger history``: a player's rated periods (or an unrated player's pool in
progress), the life of their rating, the peak, the sparkline and, with ``--chart``, the chart."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from ledger.cli.publish import write_output
from ledger.cli.render.life import life_lines
from ledger.cli.render.output import print_json, say, signed, stdout
from ledger.cli.render.tables import PlainTable
from ledger.errors import LedgerError
from ledger.services.publishing.history_summary import peak, period_points
from ledger.services.publishing.json_shapes import history_json, history_sparkline, history_trend

if TYPE_CHECKING:
    from ledger.services.close.life import PoolView
    from ledger.services.publishing.histories import PlayerHistory


def _history_table(title: str, h: PlayerHistory) -> PlainTable:
    """One row per rated period."""
    table = PlainTable(title=title)
    for col, priority in (("period", 0), ("before", 1), ("games", 1), ("score", 2),
                          ("expected", 2), ("K", 1), ("K reason", 3), ("change", 0), ("after", 0)):
        table.add_column(col, priority=priority,
                         justify="left" if col in ("period", "K reason") else "right")
    for r in h.periods:
        table.add_row(r.period, str(r.rating_before), str(r.games), f"{r.score:.1f}",
                      f"{r.expected:.2f}",
                      str(r.k) if r.note is None else "",
                      r.k_reason + (" (capped)" if r.k_capped else "")
                      + (f", carried {signed(r.carried.quantize(Decimal('0.01')))}"
                         if r.carried else "") if r.note is None else r.note,
                      signed(r.change), str(r.rating_after))
    return table


def _pool_table(pool: PoolView) -> PlainTable:
    """An unrated player's pool in progress, one row per game against a rated opponent."""
    table = PlainTable(title=f"Pool in progress for {pool.as_of} (games against rated opponents)")
    for col, priority in (("period", 0), ("game", 1), ("opponent", 0), ("rating", 0),
                          ("score", 0), ("counted", 0)):
        table.add_column(col, priority=priority,
                         justify="right" if col in ("rating", "score") else "left")
    for r in pool.rows:
        table.add_row(r.period, f"#{r.game_id}", r.opponent, str(r.opponent_rating),
                      f"{r.score:.1f}", "yes" if r.counted else "no: first event scored zero")
    return table


def draw_chart(h: PlayerHistory, path: Path, ledger: str | None) -> None:
    """Write the history chart (``formats.rating_chart``) to ``path``; ``LedgerError`` when
    there is nothing to draw or the file cannot be written (``path`` is the open ``ledger``
    or another database: ``publish.write_output``)."""
    points = period_points(h)
    if not points:
        raise LedgerError(f"chart: {h.player.name} has no rated periods to draw")
    from ledger.formats import rating_chart  # matplotlib loads only when a chart is asked for

    chart = rating_chart.draw([rating_chart.ChartPoint(p.period, p.rating, p.k_note)
                               for p in points], f"{h.player.name}: published {h.player.pool} rating")
    write_output(chart.png, path, ledger=ledger)


def history(h: PlayerHistory, as_json: bool, chart: Path | None = None,
            ledger: str | None = None) -> None:
    """A player's history (``_history_text``; JSON: ``json_shapes.history_json``), the peak and the
    sparkline; with ``chart``, the chart written to that file first (nothing printed if it
    cannot be; never over the open ``ledger``)."""
    if chart is not None:
        draw_chart(h, chart, ledger)
    top = peak(h)
    if as_json:
        print_json(history_json(h, None if chart is None else str(chart)))
        return
    _history_text(h)
    if top is not None:
        where = (f"published by closing {top.period}" if top.period is not None
                 else "the rating brought into the ledger")
        say(f"peak: {top.rating}, in force from {top.in_force_from} ({where})")
        trend = history_trend(h)
        say(f"trend: {trend[0]} {history_sparkline(h)} {trend[-1]}")
    if chart is not None:
        say(f"chart written to {chart}")


def _history_text(h: PlayerHistory) -> None:
    """A player's history as text: a title (rating, K and its reason for the next period), one
    row per rated period (none: an unrated player's pool in progress), then the life of the
    rating (``life.life_lines``) and each carried correction, a line of its own."""
    v = h.player
    status = (f"{v.pool} rating {v.rating}, K {v.k} ({v.k_reason.value})"
              if v.rating is not None else f"unrated in {v.pool}, no K") + f" for {v.next_period}"
    title = f"{v.name} (#{v.id}{', FIDE ' + str(v.fide_id) if v.fide_id else ''}): {status}"
    if h.periods:
        stdout().print(_history_table(title, h))
    else:
        say(title)
        if h.life.pool is not None and h.life.pool.rows:
            stdout().print(_pool_table(h.life.pool))
    if not h.periods and not h.life.initial:
        say("no rated periods yet")
    for line in life_lines(h.life):
        say(line)
    for carried in h.carried:
        say(carried.detail)
