"""Rendering a period close (``period close``): a table per pool of one row per rated player
(a close of more than ``LARGE_CLOSE`` players: the biggest changes only), a dry run's games as
well, then what else the close did; ``--json`` is ``close_json``'s document, streamed."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from ledger.cli.render.life import computation_lines
from ledger.cli.render.output import count, not_rated_text, say, signed, stdout, stream_json

if TYPE_CHECKING:
    from ledger.services.close.close_report import CloseReport, RatedPlayer, ThroughReport

#: A close of more players than this prints its summary and the ``BIGGEST`` largest gains and
#: losses, not a row per player (``period close --all``, ``period report`` show them all): a
#: federation's month of 200,000 players is no table for a terminal.
LARGE_CLOSE = 50
BIGGEST = 10
#: How a dry run of the period not ended yet is labelled (``CloseReport.preview``).
PREVIEW = "preview: the period has not ended"


def close_report(r: CloseReport, as_json: bool, *, every_row: bool = False) -> None:
    """A period close: one row per rated player (more than ``LARGE_CLOSE``: the biggest
    changes only, unless ``every_row``); with a dry run, their games as well. A close
    of several pools (docs/RULES.md §9) shows each pool's, each titled with its pool; JSON
    (every player, whatever the size) carries ``pool`` on every row and the other pools in
    ``other_pools``."""
    if as_json:
        from ledger.cli.render.close_json import close_dict  # the close's rules: on use
        stream_json(close_dict(r))
        return
    named = bool(r.others) or r.pool != "standard"
    for report in r.every_pool:
        _close_one(report, named, every_row)


def _biggest(r: CloseReport) -> list[RatedPlayer]:
    """The ``BIGGEST`` largest gains, then the ``BIGGEST`` largest losses, of ``r`` (by the
    rounded change, then name)."""
    gains = sorted((p for p in r.players if p.result.change > 0),
                   key=lambda p: (-p.result.change, p.name))[:BIGGEST]
    losses = sorted((p for p in r.players if p.result.change < 0),
                    key=lambda p: (p.result.change, p.name))[:BIGGEST]
    return gains + losses


def _close_one(r: CloseReport, named: bool, every_row: bool = True) -> None:
    from ledger.cli.render.tables import PlainTable  # Rich: for the tables only, not --json
    state = "dry run, nothing written" if r.dry_run else "closed"
    if r.preview:
        state = f"{PREVIEW}; {state}"
    pool = f" {r.pool}" if named else ""
    large = not every_row and len(r.players) > LARGE_CLOSE
    shown = _biggest(r) if large else r.players
    part = "; the biggest gains and losses" if large else ""
    table = PlainTable(title=f"Rating period {r.period}{pool} ({state}; rules of {r.edition}){part}")
    for col, priority in (("name", 0), ("FIDE id", 6), ("before", 1), ("games", 2), ("score", 3),
                          ("expected", 3), ("K", 2), ("K reason", 4), ("K x (S - PD)", 5),
                          ("change", 0), ("after", 0)):
        table.add_column(col, priority=priority,
                         justify="left" if col in ("name", "K reason") else "right")
    for p in shown:
        res = p.result
        reason = res.k_reason.value + (f", capped from {res.k_before_cap}" if res.k_capped else "")
        table.add_row(p.name, str(p.fide_id or ""), str(res.rating_before), str(res.n),
                      f"{res.score:.1f}", f"{res.expected:.2f}", str(res.k), reason,
                      signed(res.change_exact.quantize(Decimal("0.01"))), signed(res.change),
                      str(res.rating_after))
    console = stdout()
    console.print(table)
    if r.dry_run:
        for p in shown:
            games = PlainTable(title=f"{p.name}: K {p.result.k}", title_justify="left")
            for col, priority in (("opponent", 0), ("rating", 0), ("D", 0), ("D counted", 1),
                                  ("PD", 0), ("S", 0), ("S - PD", 0)):
                games.add_column(col, priority=priority,
                                 justify="left" if col == "opponent" else "right")
            late = {g.game_id for g in r.late}
            for a in p.result.games:
                games.add_row(p.opponents[a.opponent_id]
                              + (" (late result)" if a.game_id in late else ""),
                              str(a.opponent_rating),
                              str(a.difference), str(a.counted_difference), f"{a.expected:.2f}",
                              f"{a.score:.1f}", signed(a.surplus))
            games.add_row("sum", "", "", "", f"{p.result.expected:.2f}", f"{p.result.score:.1f}",
                          signed(p.result.surplus))
            console.print(games)
    not_rated = not_rated_text(r.not_rated)
    first = sum(1 for n in r.initial if n.rating.published)
    names = {p.player_id: p.name for p in r.players}
    for pid, rating in sorted(r.seeded.items()):
        if pid in names:
            say(f"{names[pid]}: unrated in {r.pool}, rated from their standard rating {rating} "
                "(and rated for their opponents)")
    if r.preview:
        say(f"{PREVIEW}: games still to come in {r.period} will change these figures")
    say(f"{count(r.games, 'game')} in {r.period}{pool}; "
        f"{count(len(r.players), 'player')} rated"
        + (f"; {count(first, 'initial rating')} published" if first else "")
        + (f"; games not rated: {not_rated}" if not_rated else ""))
    if large:
        say(f"{count(len(r.players) - len(shown), 'more player')} not shown: --all shows "
            f"every row, `ledger period report {r.period}` what the close changed")
    if r.adjustments and r.period == "2022-09":
        say(f"list adjustment: {count(r.adjustments, 'rating')} more than 100 below the "
            "standard rating raised to standard - 100 on the 1 October 2022 list")
    elif r.adjustments:
        say(f"list adjustment: {count(r.adjustments, 'rating')} below 2000 raised by "
            "0.4 x (2000 - R) on the 1 March 2024 list")
    for gap in r.gap_games:
        say(f"not rated: game {gap.game_id}, {gap.white} ({gap.white_rating}) v {gap.black} "
            f"({gap.black_rating}): {abs(gap.white_rating - gap.black_rating)} apart, one above "
            "2600 (rapid and blitz, from December 2024)")
    for g in r.late:
        say(f"late result: game {g.game_id} of {g.date} ({g.white} v {g.black}"
            + (f", {g.event}" if g.event else "") + f"), dated in closed period {g.dated_in}, "
            "rated here with the ratings in force at its event's start")
    for p in r.players:
        if p.result.carried:
            say(f"carried correction: {p.name} {signed(p.result.carried.quantize(Decimal('0.01')))}"
                " added to the exact change before its one rounding")
    for n in r.initial:
        say(f"{n.name}: " + "\n".join(computation_lines(r.period, n.rating)))
    for d in r.dropped:
        say(f"{d.name}: {d.rating} is below the floor {d.floor}: unrated from this list on")


def close_through_report(r: ThroughReport, as_json: bool) -> None:
    """``period close --through``: each period closed, in order (JSON: ``{"through", "closed":
    [close reports], "refused": {"period", "reason"} or null}``)."""
    if as_json:
        from ledger.cli.render.close_json import close_dict
        stream_json({"through": r.through, "closed": [close_dict(c) for c in r.closed],
                     "refused": None if r.refused is None else {"period": r.refused[0],
                                                                "reason": r.refused[1]}})
        return
    for close in r.closed:
        close_report(close, False)
