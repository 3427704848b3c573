"""Rendering the seeds' calculators (``ledger calc``): Rich tables for people, JSON for programs.

Exact values (PD, S - PD, sums) are printed from their Decimal text; the logistic values are
floats, shown and labelled for comparison only.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ledger.cli.render.output import print_json, say, signed, stdout
from ledger.cli.render.tables import PlainTable
from ledger.cli.render.values import json_number

if TYPE_CHECKING:
    from ledger.services.publishing.calc import ChangeWorksheet, ExpectedView, SideExpectation, TableRow


def _pd(value: Decimal) -> str:
    return f"{value:.2f}"


def _side_dict(s: SideExpectation) -> dict[str, Any]:
    return {"rating": s.rating, "difference": s.difference, "pd": json_number(s.pd),
            "counted_difference": s.counted_difference, "pd_counted": json_number(s.pd_counted),
            "rule_400_applied": s.capped, "logistic": s.logistic,
            "expected_points": json_number(s.points), "logistic_expected_points": s.logistic_points}


def expected(v: ExpectedView, as_json: bool) -> None:
    """``ledger calc expected``: both players' PD side by side."""
    if as_json:
        print_json({"difference": v.difference, "games": v.games, "edition": v.edition.value,
                    "pd": [json_number(v.first.pd), json_number(v.second.pd)],
                    "logistic": [v.first.logistic, v.second.logistic],
                    "odds": v.odds, "players": [_side_dict(v.first), _side_dict(v.second)],
                    "note": "logistic: 1 / (1 + 10^(-D/400)), for comparison only; FIDE uses PD"})
        return
    table = PlainTable(title=f"Expected score: {v.first.rating} v {v.second.rating}, "
                       f"D = {signed(v.difference)}")
    for col, priority in (("player", 0), ("D", 0), ("PD (table 8.1.2)", 0),
                          ("logistic (comparison)", 2), ("D counted", 1), ("PD counted", 1),
                          (f"points in {v.games}", 3)):
        table.add_column(col, priority=priority, justify="right")
    for s in (v.first, v.second):
        table.add_row(str(s.rating), signed(s.difference), _pd(s.pd), f"{s.logistic:.3f}",
                      signed(s.counted_difference) + (" *" if s.capped else ""),
                      _pd(s.pd_counted), f"{s.points:.2f} (logistic {s.logistic_points:.2f})")
    stdout().print(table)
    say(f"odds for {v.first.rating}: {v.odds} (PD / (1 - PD) from the table)")
    capped = [s for s in (v.first, v.second) if s.capped]
    if capped:
        say("* 400-point rule (rules of " + v.edition.value + "): "
            + "; ".join(f"{s.rating} counts D {signed(s.difference)} as "
                        f"{signed(s.counted_difference)}" for s in capped))
    elif abs(v.difference) > 400:
        say(f"400-point rule: not applied; a player rated 2650 or more uses the real D "
            f"(rules of {v.edition.value})")


def change(w: ChangeWorksheet, as_json: bool) -> None:
    """``ledger calc change``: the period worksheet, one row per game, the total rounded once."""
    r = w.result
    if as_json:
        print_json({"rating": w.rating, "k_given": w.k_given, "k": r.k, "k_reduced": w.k_reduced,
                    "fide_rules": w.fide_rules,
                    "edition": w.edition.value if w.edition else None,
                    "games": [{"position": g.position, "opponent": a.opponent_rating,
                               "result": json_number(a.score), "difference": a.difference,
                               "counted_difference": a.counted_difference, "capped": a.capped,
                               "pd": json_number(a.expected), "surplus": json_number(a.surplus),
                               "k_surplus": json_number(r.k * a.surplus)}
                              for g, a in zip(w.games, r.games, strict=True)],
                    "score": json_number(r.score), "expected": json_number(r.expected),
                    "sum": json_number(r.surplus),
                    "change_exact": json_number(r.change_exact), "change": r.change,
                    "rating_after": r.rating_after})
        return
    rules = (f"FIDE rules of {w.edition.value}: 400-point rule and 700 cap" if w.edition
             else "plain: real D, K as given")
    table = PlainTable(title=f"Rating {w.rating}, K {r.k} ({rules})")
    for col in ("#", "opponent", "result", "D", "D counted", "PD", "S - PD", "K x (S - PD)"):
        table.add_column(col, justify="right")
    for g, a in zip(w.games, r.games, strict=True):
        table.add_row(str(g.position), str(a.opponent_rating), f"{a.score:.1f}",
                      signed(a.difference), signed(a.counted_difference) + (" *" if a.capped else ""),
                      _pd(a.expected), signed(a.surplus), signed(r.k * a.surplus))
    table.add_row("sum", "", f"{r.score:.1f}", "", "", _pd(r.expected), signed(r.surplus),
                  signed(r.change_exact))
    stdout().print(table)
    if w.fide_rules:
        say(f"K reduced? yes, {w.k_given} -> {r.k} (K x n <= 700, n = {r.n})" if w.k_reduced
            else f"K reduced? no ({w.k_given} x {r.n} <= 700)")
        if any(a.capped for a in r.games):
            say("* D above 400 counted as 400 (400-point rule)")
    say(f"change: {r.k} x {signed(r.surplus)} = {signed(r.change_exact)} -> {signed(r.change)} "
        f"(rounded once, half away from zero); {w.rating} -> {r.rating_after}")


def table(rows: list[TableRow], as_json: bool) -> None:
    """``ledger calc table``: the expected-score table with the 400-point marks."""
    if as_json:
        print_json({"rows": [{"gap": r.gap, "pd_higher": json_number(r.pd_higher),
                              "pd_lower": json_number(r.pd_lower),
                              "odds": r.odds, "logistic_higher": r.logistic_higher,
                              "logistic_lower": r.logistic_lower, "fide_higher": json_number(r.fide_higher),
                              "fide_lower": json_number(r.fide_lower), "capped": r.capped} for r in rows],
                    "note": "logistic: 1 / (1 + 10^(-D/400)), for comparison only; fide: table "
                            "8.1.2 with the 400-point rule (players rated below 2650)"})
        return
    out = PlainTable(title="Expected score by rating gap")
    for col in ("gap", "higher", "lower", "odds", "logistic higher", "logistic lower", "FIDE"):
        out.add_column(col, justify="right")
    out.caption = Text("higher / lower: PD from table 8.1.2; odds: PD / (1 - PD); logistic: "
                   "1 / (1 + 10^(-D/400)), for comparison; FIDE: * a gap above 400 counts as 400 "
                   "(players rated below 2650)")
    for r in rows:
        out.add_row(str(r.gap), _pd(r.pd_higher), _pd(r.pd_lower), r.odds,
                    f"{r.logistic_higher:.3f}", f"{r.logistic_lower:.3f}",
                    f"{_pd(r.fide_higher)} / {_pd(r.fide_lower)}" + (" *" if r.capped else ""))
    stdout().print(out)
