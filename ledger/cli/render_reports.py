"""Rendering ``ledger period report`` and the extras of ``ledger history`` (peak, sparkline)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.cli import render
from ledger.cli.publish import write_output
from ledger.cli.render import _count, _json, _out, _signed, say
from ledger.cli.tables import PlainTable
from ledger.cli.values import json_number
from ledger.errors import LedgerError
from ledger.formats.sparkline import sparkline
from ledger.services.publishing.history_summary import peak, period_points, rating_brought

if TYPE_CHECKING:
    from ledger.services.publishing.lists import PlayerHistory
    from ledger.services.publishing.reports import PeriodReport, RatingChange


def _change_dict(c: RatingChange) -> dict[str, Any]:
    return {"player_id": c.player_id, "name": c.name, "rating_before": c.rating_before,
            "games": c.games, "score": json_number(c.score), "expected": json_number(c.expected), "k": c.k,
            "change": c.change, "rating_after": c.rating_after}


def period_report_dict(r: PeriodReport) -> dict[str, Any]:
    """The report as JSON data (``pool`` on the report and on every game and change)."""
    return {
        "period": r.period, "pool": r.pool, "edition": r.edition,
        "in_force_from": r.in_force_from,
        "players_rated": r.players_rated, "games_rated": len(r.games),
        "not_rated": dict(r.not_rated),
        "gains": [{"pool": r.pool} | _change_dict(c) for c in r.gains],
        "losses": [{"pool": r.pool} | _change_dict(c) for c in r.losses],
        "new_ratings": [{"player_id": n.player_id, "name": n.name, "rating": n.rating,
                         "games": n.games, "score": json_number(n.score)} for n in r.new_ratings],
        "floor_drops": [{"player_id": d.player_id, "name": d.name, "rating": d.rating,
                         "floor": d.floor} for d in r.floor_drops],
        "k_changes": [{"player_id": k.player_id, "name": k.name, "k_before": k.k_before,
                       "reason_before": k.reason_before.value, "k_after": k.k_after,
                       "reason_after": k.reason_after.value, "why": k.why} for k in r.k_changes],
        "games": [{"pool": r.pool, "id": g.game.id, "date": g.game.date.isoformat(),
                   "event": g.game.event,
                   "round": g.game.round, "white": g.game.white, "black": g.game.black,
                   "result": g.game.result, "white_rating": g.white_rating,
                   "black_rating": g.black_rating,
                   "white_expected": None if g.white_expected is None else json_number(g.white_expected),
                   "black_expected": None if g.black_expected is None else json_number(g.black_expected)}
                  for g in r.games],
    }


def _changes_table(title: str, changes: list[RatingChange]) -> PlainTable:
    table = PlainTable(title=title, title_justify="left")
    for col, priority in (("name", 0), ("before", 1), ("games", 1), ("score", 2),
                          ("expected", 2), ("K", 1), ("change", 0), ("after", 0)):
        table.add_column(col, priority=priority, justify="left" if col == "name" else "right")
    for c in changes:
        table.add_row(c.name, str(c.rating_before), str(c.games), f"{c.score:.1f}",
                      f"{c.expected:.2f}", str(c.k), _signed(c.change), str(c.rating_after))
    return table


def period_report(r: PeriodReport, as_json: bool) -> None:
    """A closed period: gains, losses, K changes and the games rated."""
    if as_json:
        _json(period_report_dict(r))
        return
    console = _out()
    not_rated = ", ".join(f"{why} {n}" for why, n in sorted(r.not_rated.items()))
    say(f"Rating period {r.period} {r.pool} (rules of {r.edition}); its list is in force from "
        f"{r.in_force_from}: {_count(r.players_rated, 'player')} rated, "
        f"{_count(len(r.games), 'game')} rated" + (f"; not rated: {not_rated}" if not_rated else ""))
    console.print(_changes_table("Biggest gains", r.gains) if r.gains else "no rating went up")
    console.print(_changes_table("Biggest losses", r.losses) if r.losses else "no rating went down")
    if r.new_ratings:
        table = PlainTable(title="New ratings", title_justify="left")
        for col in ("name", "rating", "games", "score"):
            table.add_column(col, justify="left" if col == "name" else "right")
        for n in r.new_ratings:
            table.add_row(n.name, str(n.rating), str(n.games), f"{n.score:.1f}")
        console.print(table)
    for d in r.floor_drops:
        say(f"{d.name}: {d.rating} is below the floor {d.floor}, unrated from this list")
    if r.k_changes:
        table = PlainTable(title=f"K-factor changes from {r.period} to the next period",
                           title_justify="left")
        for col in ("name", "K was", "K now", "why"):
            table.add_column(col, justify="right" if col.startswith("K") else "left")
        for k in r.k_changes:
            table.add_row(k.name, f"{k.k_before} ({k.reason_before.value})",
                          f"{k.k_after} ({k.reason_after.value})", k.why)
        console.print(table)
    else:
        say("no K-factor changes for the next period")
    games = PlainTable(title="Games rated", title_justify="left")
    for col, priority in (("date", 0), ("event", 4), ("round", 3), ("white", 0), ("rating", 1),
                          ("black", 0), ("rating", 1), ("result", 0), ("PD white", 2),
                          ("PD black", 2)):
        games.add_column(col, priority=priority,
                         justify="right" if col in ("rating", "PD white", "PD black") else "left")
    for g in r.games:
        games.add_row(g.game.date.isoformat(), g.game.event or "", g.game.round or "", g.game.white,
                      str(g.white_rating or ""), g.game.black, str(g.black_rating or ""),
                      g.game.result,
                      "" if g.white_expected is None else f"{g.white_expected:.2f}",
                      "" if g.black_expected is None else f"{g.black_expected:.2f}")
    console.print(games)


def _trend(h: PlayerHistory) -> list[int]:
    brought = rating_brought(h)
    return ([] if brought is None else [brought]) + [p.rating for p in period_points(h)]


def history_sparkline(h: PlayerHistory) -> str:
    """The sparkline of the rating the player brought into the first period (if any), then the
    rating published after each period (one block each)."""
    return sparkline(_trend(h))


def draw_chart(h: PlayerHistory, path: Path, ledger: str | None) -> None:
    """Write the history chart (``formats.rating_chart``) to ``path``; ``LedgerError`` when
    there is nothing to draw or the file cannot be written (``path`` is the open ``ledger``
    or another database: ``publish.write_output``)."""
    points = period_points(h)
    if not points:
        raise LedgerError(f"chart: {h.player.name} has no rated periods to draw")
    from ledger.formats import rating_chart  # matplotlib loads only when a chart is asked for

    chart = rating_chart.draw([rating_chart.ChartPoint(p.period, p.rating, p.k_note)
                               for p in points], f"{h.player.name}: published rating")
    write_output(chart.png, path, ledger=ledger)


def history(h: PlayerHistory, as_json: bool, chart: Path | None = None,
            ledger: str | None = None) -> None:
    """A player's history (``render.history``), the peak and the sparkline; with ``chart``,
    the chart written to that file first (nothing printed if it cannot be; never over the open
    ``ledger``)."""
    if chart is not None:
        draw_chart(h, chart, ledger)
    top = peak(h)
    if as_json:
        _json({**render.history_dict(h),
               "peak": None if top is None else {"rating": top.rating, "period": top.period,
                                                  "in_force_from": top.in_force_from},
               "sparkline": history_sparkline(h),
               "chart": None if chart is None else str(chart)})
        return
    render.history(h, False)
    if top is not None:
        where = (f"published by closing {top.period}" if top.period is not None
                 else "the rating brought into the ledger")
        say(f"peak: {top.rating}, in force from {top.in_force_from} ({where})")
        trend = _trend(h)
        say(f"trend: {trend[0]} {history_sparkline(h)} {trend[-1]}")
    if chart is not None:
        say(f"chart written to {chart}")
