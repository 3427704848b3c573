"""``ledger calc``: the seeds' calculators (expected score, a period's change, the table). They need
no database; each parses its arguments, calls one function of ``ledger.services.publishing.calc`` and renders
it (``ledger.cli.render.calc``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ledger.cli.common import JsonOpt, reports_errors
from ledger.cli.lazy import lazy
from ledger.cli.render import calc as render_calc
from ledger.domain import MAX_RATING, MIN_RATING

if TYPE_CHECKING:
    from ledger.services.publishing import calc
else:
    calc = lazy("ledger.services.publishing.calc")

calc_app = typer.Typer(help="Rating calculators: expected score (PD), a period's rating change, "
                       "the expected-score table (no database needed).", no_args_is_help=True)


def _rating_arg(name: str) -> Any:
    return typer.Argument(min=MIN_RATING, max=MAX_RATING, show_default=False, metavar=name,
                          help=f"A rating, {MIN_RATING}..{MAX_RATING}.")


@calc_app.command("expected")
@reports_errors
def calc_expected(
    first: Annotated[int, _rating_arg("R1")],
    second: Annotated[int, _rating_arg("R2")],
    games: Annotated[int, typer.Option(
        "--games", min=1, max=1000, help="Expected points over this many games.")] = 1,
    json_out: JsonOpt = False,
) -> None:
    """Expected score of R1 against R2: rating difference D, PD (table 8.1.2), logistic, odds.

    The 400-point rule is applied for each player as the edition in force today says.
    """
    render_calc.expected(calc.expected(first, second, games=games), json_out)


@calc_app.command("change")
@reports_errors
def calc_change(
    games: Annotated[list[str], typer.Argument(
        help="OPPONENT:RESULT, e.g. 1800:= 1400:1 2000:0 (a draw: =, 1/2, ½ or 0.5).",
        show_default=False, metavar="GAME")],
    rating: Annotated[int, typer.Option(
        "--rating", min=MIN_RATING, max=MAX_RATING, help="The player's rating.",
        show_default=False)],
    k: Annotated[int, typer.Option("--k", min=1, max=100, help="The K-factor.",
                                   show_default=False)],
    fide_rules: Annotated[bool, typer.Option(
        "--fide-rules", metavar="",
        help="Apply the 400-point rule (by the player's rating, today's edition) and the 700 cap.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """A period's rating change as a worksheet: per game D, PD, S - PD, K x (S - PD).

    The total is rounded once, half away from zero; --fide-rules adds the 400-point rule and \
the 700 cap.
    """
    render_calc.change(calc.change_worksheet(rating, k, games, fide_rules=fide_rules), json_out)


@calc_app.command("table")
@reports_errors
def calc_table(
    step: Annotated[int, typer.Option("--step", min=1, max=1000, help="Gap between rows.")] = 10,
    maximum: Annotated[int, typer.Option("--max", min=0, max=3000, help="Largest gap.")] = 800,
    json_out: JsonOpt = False,
) -> None:
    """The expected-score table: gap, higher and lower PD, odds, logistic, FIDE column.

    The FIDE column marks the gaps above 400 that the 400-point rule counts as 400.
    """
    render_calc.table(calc.expected_table(step, maximum), json_out)
