"""Rendering ``ledger period report``: a closed period's biggest gains and losses, its new
ratings, floor drops and K-factor changes, and the games rated with their PD."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.cli.render.output import count, not_rated_text, print_json, say, signed, stdout
from ledger.cli.render.tables import PlainTable
from ledger.cli.render.values import json_number

if TYPE_CHECKING:
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
                      f"{c.expected:.2f}", str(c.k), signed(c.change), str(c.rating_after))
    return table


def period_report(r: PeriodReport, as_json: bool) -> None:
    """A closed period: gains, losses, K changes and the games rated."""
    if as_json:
        print_json(period_report_dict(r))
        return
    console = stdout()
    not_rated = not_rated_text(r.not_rated)
    say(f"Rating period {r.period} {r.pool} (rules of {r.edition}); its list is in force from "
        f"{r.in_force_from}: {count(r.players_rated, 'player')} rated, "
        f"{count(len(r.games), 'game')} rated" + (f"; not rated: {not_rated}" if not_rated else ""))
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
