"""Rendering games and events as listed: ``game list`` (and the tables of ``game add``) and
``event list``; ``game_dict`` is a recorded game's JSON for the corrections too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.cli.render.output import notes, print_json, stdout
from ledger.cli.render.tables import PlainTable

if TYPE_CHECKING:
    from ledger.services.register.events import EventView
    from ledger.services.register.game_views import GameView


def game_dict(g: GameView) -> dict[str, Any]:
    """A recorded game as JSON: ``late`` and ``dated_in`` (the closed period its dates belong
    to) for a late result, rated in the later ``period``."""
    return {"id": g.id, "date": g.date.isoformat(), "period": g.period, "white": g.white,
            "black": g.black, "result": g.result, "status": g.status,
            "rated": g.status == "rated", "event": g.event, "round": g.round,
            "late": g.late, "dated_in": g.dated_in, "pool": g.pool}


def game_status(g: GameView) -> str:
    """A game's status as the tables show it: a late result says so, and a rapid or blitz
    game its pool."""
    return (g.status + (f", late (dated {g.dated_in})" if g.late else "")
            + ("" if g.pool == "standard" else f", {g.pool}"))


def game_list(views: list[GameView], as_json: bool, *, title: str = "Games") -> None:
    """Games, by date, with their rating status (late results and void games say so); notes
    (what moved) on stderr."""
    for g in views:
        notes(g.notes)
    if as_json:
        print_json({"games": [game_dict(g) for g in views]})
        return
    table = PlainTable(title=f"{title} ({len(views)})")
    for col, priority in (("id", 1), ("date", 0), ("period", 5), ("event", 4), ("round", 3),
                          ("white", 0), ("black", 0), ("result", 0), ("status", 2)):
        table.add_column(col, priority=priority)
    for g in views:
        table.add_row(str(g.id), g.date.isoformat(), g.period, g.event or "", g.round or "",
                      g.white, g.black, g.result, game_status(g))
    stdout().print(table)


def event_list(views: list[EventView], as_json: bool) -> None:
    """Events, by start date, with their period, games and source."""
    if as_json:
        print_json({"events": [{"id": e.id, "name": e.name, "start_date": e.start_date.isoformat(),
                                "end_date": e.end_date.isoformat(), "period": e.period,
                                "games": e.games, "void": e.void, "rated_in": e.rated_in,
                                "late": e.late, "source": e.source} for e in views]})
        return
    table = PlainTable(title=f"Events ({len(views)})")
    for col, priority in (("id", 0), ("name", 0), ("start", 0), ("end", 2), ("period", 3),
                          ("games", 1), ("source", 4)):
        table.add_column(col, justify="right" if col in ("id", "games") else "left",
                         priority=priority)
    for e in views:
        period = e.period + (f" (late: rated in {', '.join(e.rated_in)})" if e.late else "")
        games = str(e.games) + (f" ({e.void} void)" if e.void else "")
        table.add_row(f"#{e.id}", e.name, e.start_date.isoformat(), e.end_date.isoformat(),
                      period, games, e.source or "")
    stdout().print(table)
