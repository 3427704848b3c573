"""Rendering ``ledger site build`` and ``ledger event show`` (Rich or JSON)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.cli.render.output import count, print_json, say, signed, stdout
from ledger.cli.render.tables import PlainTable
from ledger.services.publishing.json_shapes import event_dict

if TYPE_CHECKING:
    from ledger.services.publishing.event_reports import EventReport
    from ledger.services.publishing.site_build import SiteBuild


def site_build(r: SiteBuild, as_json: bool) -> None:
    """What a site build wrote: files written, unchanged and removed, and what the site holds;
    when the folder was already built from the ledger's latest change, that it found nothing
    changed since (``unchanged_since``: that change's id, else null)."""
    w = r.files
    if as_json:
        print_json({"directory": w.directory, "files": w.files, "written": w.written,
                    "unchanged": w.unchanged, "removed": w.removed, "lists": r.lists,
                    "players": r.players, "events": r.events, "bundles": r.bundles,
                    "bundles_made": w.made, "built_on": r.built_on.isoformat(),
                    "unchanged_since": r.unchanged_since})
        return
    since = "" if r.unchanged_since is None else (
        f" nothing changed since change {r.unchanged_since}"
        + (":" if w.written == 0 else " but the build date:"))
    bundles = (f"{count(r.bundles, 'bundle')} ({w.made} made, {r.bundles - w.made} kept), "
               if r.bundles else "")
    say(f"site {w.directory}:{since} {count(w.files, 'file')}, {w.written} written, {w.unchanged} "
        f"unchanged, {w.removed} removed ({count(r.lists, 'list')}, {bundles}"
        f"{count(r.players, 'player')}, {count(r.events, 'tournament')}; built on {r.built_on})")


def event_report(r: EventReport, as_json: bool) -> None:
    """``ledger event show``: the event and its rating report, one line per player."""
    if as_json:
        print_json(event_dict(r))
        return
    state = "rated" if r.closed else "open: not rated yet"
    place = ", ".join(dict.fromkeys(x for x in (r.site, r.city) if x))
    say(f"{r.name} (#{r.id}): {r.start_date} to {r.end_date}"
               + (f", {place}" if place else "")
               + f"; period {r.period} ({state}); {count(r.games, 'game')}"
               + (f" ({r.late_games} late: rated in a later period)" if r.late_games else "")
               + ", "
               + f"{count(len(r.players), 'player')}"
               + (f" in the {r.pool} pool" if r.pools and r.pools != (r.pool,) else ""))
    others = [p for p in r.pools if p != r.pool]
    if others:
        say(f"its {' and '.join(others)} games have their own report: "
            + "; ".join(f"ledger event show '#{r.id}' --pool {p}" for p in others))
    named = f" ({r.pool})" if r.pools and r.pools != (r.pool,) else ""
    table = PlainTable(title=f"Rating report: {r.name}{named}")
    for col, priority in (("name", 0), ("fed", 4), ("rating", 0), ("pts", 3), ("games", 0),
                          ("score", 0), ("expected", 0), ("K", 0), ("change", 0),
                          ("period", 1), ("Rp", 2)):
        table.add_column(col, justify="left" if col in ("name", "fed") else "right",
                         priority=priority)
    for p in r.players:
        table.add_row(p.name, p.federation or "", str(p.rating) if p.rating is not None else "-",
                      str(p.points), str(p.rated_games), str(p.score), str(p.expected),
                      str(p.k) if p.k is not None else "", signed(p.change) if p.change is not None else "",
                      signed(p.period_change) if p.period_change is not None else "",
                      str(p.performance.rp) if p.performance else "")
    table.caption = ("rating: at the event's start; games, score, expected (sum of PD): the "
                     "games rated for the player in the event's period (a late result is listed below "
                     "the table); change: K x (score - expected), this event's "
                     "part of the period's change before its one rounding; period: the period's "
                     "change, rounded once; Rp: performance over games against rated opponents")
    stdout().print(table)
    for p in r.players:
        if p.why is not None:
            say(f"{p.name}: {p.why}")
    for p in r.players:
        for late in p.late:
            say(f"{p.name}: {late.text}")
