"""Rendering ``ledger performance`` and ``ledger whatif``: Rich tables for people, JSON for programs.

Exact fractions (the opponents' average before rounding, p, the algorithm of 400) are given in JSON
as text (``"21298/9"``) and on screen to two decimals, rounded .5 up for display only.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ledger.cli.render.output import print_json, say, signed, stdout
from ledger.cli.render.tables import PlainTable
from ledger.cli.render.values import json_number
from ledger.rules.performance import NORM_MIN_GAMES, NORM_MIN_SCORE, NormCheck, Performance, round_half_up
from ledger.services.publishing.json_shapes import carried_dicts

if TYPE_CHECKING:
    from ledger.services.publishing.performance import PerformanceReport
    from ledger.services.publishing.whatif import Standing, WhatIf, WhatIfPlayer


def _two_places(value: Fraction) -> str:
    """An exact value to two decimals (.5 up), for display."""
    return f"{Decimal(round_half_up(value * 100)).scaleb(-2):.2f}"


def _exact(value: Fraction) -> Decimal:
    """A fraction whose decimal expansion ends (points, 35 %) as an exact Decimal."""
    return Decimal(value.numerator) / Decimal(value.denominator)


def _points(value: Fraction) -> str:
    return str(json_number(_exact(value)))


def _perf_dict(p: Performance) -> dict[str, Any]:
    return {"games": p.n, "points": json_number(_exact(p.points)),
            "wins": p.wins, "draws": p.draws, "losses": p.losses,
            "opponents_sum": p.opponents_sum, "ra_exact": str(p.ra_exact), "ra": p.ra,
            "p_exact": str(p.p_exact), "p": json_number(Decimal(p.p).scaleb(-2)), "p_percent": p.p,
            "dp": p.dp, "rp": p.rp, "algorithm_of_400_exact": str(p.algorithm_of_400_exact),
            "algorithm_of_400": p.algorithm_of_400}


def _norm_dict(c: NormCheck) -> dict[str, Any]:
    return {"norm": c.norm.value, "floor": c.norm.floor, "min_rp": c.norm.min_rp,
            "min_ra": c.norm.min_ra, "min_score": json_number(_exact(NORM_MIN_SCORE)),
            "rp_reached": c.rp_reached, "ra_reached": c.ra_reached,
            "score_reached": c.score_reached, "min_games": NORM_MIN_GAMES,
            "games_reached": c.games_reached, "reached": c.reached}


def performance(r: PerformanceReport, as_json: bool) -> None:
    """``ledger performance``: the games, Ra, p, dp, Rp, the algorithm of 400, the norm check."""
    p = r.performance
    if as_json:
        print_json({"player": {"id": r.player_id, "name": r.player}, "scope": r.scope,
                    "pool": r.pool, **_perf_dict(p),
                    "norm": _norm_dict(r.norm) if r.norm else None,
                    "per_game": [{"pool": r.pool, "game_id": g.game_id, "date": g.date.isoformat(),
                                  "event": g.event,
                                  "round": g.round, "colour": g.colour, "opponent": g.opponent,
                                  "opponent_rating": g.opponent_rating, "result": g.result,
                                  "score": json_number(_exact(g.score)),
                                  "counted_rating": g.counted, "counted": g.counted is not None,
                                  "note": g.note} for g in r.games]})
        return
    table = PlainTable(title=f"Performance of {r.player}: {r.scope}, {r.pool}")
    for col, priority in (("date", 0), ("round", 2), ("colour", 0), ("opponent", 0),
                          ("rating", 0), ("counted", 1), ("result", 0), ("score", 0),
                          ("note", 4)):
        table.add_column(col, priority=priority,
                         justify="right" if col in ("rating", "counted", "score") else "left")
    for g in r.games:
        table.add_row(g.date.isoformat(), g.round or "", g.colour, g.opponent,
                      "unrated" if g.opponent_rating is None else str(g.opponent_rating),
                      "-" if g.counted is None else str(g.counted), g.result, _points(g.score),
                      g.note or "")
    stdout().print(table)
    say(f"Ra = {p.opponents_sum} / {p.n} = {_two_places(p.ra_exact)} -> {p.ra} (rounded, .5 up)")
    say(f"p = {_points(p.points)} / {p.n} = {_two_places(p.p_exact * 100)} % -> {p.p} % "
        f"-> dp {signed(p.dp)} (table 8.1.1)")
    say(f"Rp = Ra + dp = {p.ra} {'+' if p.dp >= 0 else '-'} {abs(p.dp)} = {p.rp}")
    say(f"algorithm of 400 (for comparison): ({p.opponents_sum} + 400 x ({p.wins} - {p.losses}))"
        f" / {p.n} = {_two_places(p.algorithm_of_400_exact)} -> {p.algorithm_of_400}")
    if r.norm:
        c = r.norm
        needed = NORM_MIN_SCORE * p.n
        yes = {True: "yes", False: "no"}
        say(f"{c.norm.value} norm: Rp {p.rp} >= {c.norm.min_rp}? {yes[c.rp_reached]}; "
            f"Ra {p.ra} >= {c.norm.min_ra}? {yes[c.ra_reached]}; score {_points(p.points)} of "
            f"{p.n} >= 35 % ({_two_places(needed)})? {yes[c.score_reached]}; games {p.n} >= "
            f"{NORM_MIN_GAMES}? {yes[c.games_reached]} -> "
            + ("norm reached" if c.reached else "no norm"))
        say("not checked: titled and foreign opponents, the kind of event (Title Regulations "
            "1.4.2-1.4.5)")


def _standing_dict(s: Standing | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {"games": s.games, "k": s.k, "k_capped": s.k_capped,
            "change_exact": json_number(s.change_exact), "change": s.change,
            "rating_after": s.rating_after}


def _player_dict(p: WhatIfPlayer) -> dict[str, Any]:
    return {"id": p.player_id, "name": p.name, "rating": p.rating, "k": p.k,
            "k_reason": p.k_reason.value if p.k_reason else None, "now": _standing_dict(p.now),
            "carried_corrections": carried_dicts(p.carried)}


def _cells(s: Standing | None) -> list[str]:
    if s is None:
        return ["", "", "unrated: not rated", ""]
    k = f"{s.k} (capped)" if s.k_capped else str(s.k)
    return [str(s.games), k if s.games else "", signed(s.change_exact.quantize(Decimal("0.01")))
            + f" -> {signed(s.change)}", str(s.rating_after)]


def whatif(w: WhatIf, as_json: bool) -> None:
    """``ledger whatif``: both players' period so far and after a win, a draw or a loss."""
    a, b = w.player, w.opponent
    if as_json:
        print_json({"period": w.period, "pool": w.pool, "edition": w.edition.value,
                    "player": _player_dict(a), "opponent": _player_dict(b),
                    "outcomes": [{"pool": w.pool, "result": o.label, "game": o.result.value,
                                  "player": _standing_dict(o.player),
                                  "opponent": _standing_dict(o.opponent)} for o in w.outcomes],
                    "open_before": list(w.open_before)})
        return

    def who(p: WhatIfPlayer) -> str:
        return (f"{p.name} ({p.rating}, K {p.k}: {p.k_reason.value})" if p.k_reason
                else f"{p.name} (unrated)")

    table = PlainTable(title=f"What if {who(a)} plays {who(b)} in {w.period} {w.pool} "
                       f"(rules of {w.edition.value})")
    for col in ("if", "player", "games", "K", "change", "rating"):
        table.add_column(col, justify="left" if col in ("if", "player") else "right")
    labels = {"win": f"{a.name} wins", "draw": "draw", "loss": f"{b.name} wins"}
    rows = [("so far", a.now, b.now)] + [(labels[o.label], o.player, o.opponent)
                                         for o in w.outcomes]
    for label, mine, theirs in rows:
        table.add_row(label, a.name, *_cells(mine))
        table.add_row("", b.name, *_cells(theirs), end_section=True)
    stdout().print(table)
    say("so far: the games already recorded in the period; change: K x sum(S - PD) over the "
        "whole period, rounded once")
    if a.rating is None or b.rating is None:
        say("a game against an unrated player is not rated for the rated player (B.02 §8.3.1)")
    for c in (*a.carried, *b.carried):
        name = a.name if c.player_id == a.player_id else b.name
        where = ("in every change above" if c.applies_in == w.period else
                 f"not in the changes above: the close of {c.applies_in} comes first"
                 if c.applies_in < w.period else
                 f"not in the changes above: the close of {c.applies_in} adds it")
        say(f"{name}: {c.label} ({where}; the {c.origin_period} list stands as published)")
    if w.open_before:
        say(f"note: {', '.join(w.open_before)} still open with games of these players: "
            f"{'its' if len(w.open_before) == 1 else 'their'} close comes first and may change "
            "the ratings and K used here (from the last published list)")
