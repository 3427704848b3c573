"""Rendering the life of a rating: a pool in progress, an initial rating's whole computation and
drops below the rating floor, as text lines and as JSON (used by ``players``, ``history`` and
``close``)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from ledger.cli.render.values import two_decimals
from ledger.rules.editions import InitialMethod

if TYPE_CHECKING:
    from ledger.rules.initial import InitialRating
    from ledger.services.close.life import PoolView, RatingLife

# ``rules.initial`` is imported where it is used: a command that loads this module (``player
# list`` and ``player add`` do) loads the rules only to show an initial rating or a pool in
# progress (start-up, issue 14).


def pool_line(pool: PoolView) -> str:
    """``pool for 2025-11: 4 games, opponents' average 1800.00, score 2.5, 1 more game needed``."""
    from ledger.rules.initial import MIN_POOL_GAMES
    if not pool.games:
        text = f"pool for {pool.as_of}: no games against rated opponents yet"
    else:
        assert pool.average is not None
        text = (f"pool for {pool.as_of}: {pool.games} game{'s' if pool.games != 1 else ''} "
                f"since {pool.first_period}, opponents' average {two_decimals(pool.average)}, "
                f"score {pool.points:.1f}")
    if pool.needed:
        text += f"; {pool.needed} more game{'s' if pool.needed != 1 else ''} needed " \
                f"(at least {MIN_POOL_GAMES} against rated opponents)"
    elif pool.computed_at is not None:
        text += f"; enough games: the close of {pool.computed_at} computes an initial rating"
    else:
        text += ("; enough games: the close of the next period in which they play a rated "
                 "opponent computes a new initial rating")
    if pool.disregarded:
        text += (f"; {pool.disregarded} game{'s' if pool.disregarded != 1 else ''} of a first "
                 "event with zero points disregarded")
    return text


def computation_lines(period: str, c: InitialRating) -> list[str]:
    """The whole computation of Ru, one step a line."""
    from ledger.rules.initial import HYPOTHETICAL_RATING
    n = c.games + c.hypothetical
    points = Fraction(c.points)
    if c.method is InitialMethod.TWO_1800_DRAWS:
        lines = [
            f"initial rating at the close of {period}: {c.games} games, {c.points:.1f} points, "
            f"plus {c.hypothetical} hypothetical opponents rated {HYPOTHETICAL_RATING}, both drawn",
            f"  Ra = ({c.opponents_sum} + {c.hypothetical * HYPOTHETICAL_RATING}) / {n} = "
            f"{two_decimals(c.ra)}",
            f"  p = ({c.points:.1f} + {Fraction(c.hypothetical, 2)}) / {n} = {two_decimals(c.p, 3)} "
            f"-> {Decimal(c.p_hundredths).scaleb(-2)}; dp = {c.dp:+d} (table 8.1.1)",
        ]
    else:
        lines = [
            f"initial rating at the close of {period}: {c.games} games, {c.points:.1f} points "
            "(rules of 2022-01: rated opponents only)",
            f"  Ra = {c.opponents_sum} / {c.games} = {two_decimals(c.ra)}",
        ]
        if points * 2 >= c.games:
            lines.append(f"  p = {c.points:.1f} / {c.games} = {two_decimals(c.p, 3)}: 20 per half point "
                         f"above 50 % -> {c.bonus:+d}")
        else:
            lines.append(f"  p = {c.points:.1f} / {c.games} = {two_decimals(c.p, 3)} -> "
                         f"{Decimal(c.p_hundredths).scaleb(-2)}; dp = {c.dp:+d} (table 8.1.1)")
    lines.append(f"  Ru = {two_decimals(c.ru_exact)} -> {c.ru}"
                 + (f"; capped at {c.cap} -> {c.rating}" if c.capped else
                    (f"; cap {c.cap}: not reached" if c.cap is not None else "; no cap")))
    lines.append(f"  floor {c.floor}: " + ("published" if c.published else
                                           "below it, not published; the pool goes on"))
    return lines


def life_lines(life: RatingLife) -> list[str]:
    """Text lines: floor drops, every initial rating's computation, and the pool in progress."""
    lines: list[str] = []
    for i in life.initial:
        lines += computation_lines(i.period, i.computation)
    for d in life.drops:
        lines.append(f"fell below the floor at the close of {d.period}: {d.rating} < {d.floor}, "
                     "unrated from that list on (rated games kept); a new pool starts")
    if life.pool is not None:
        lines.append(pool_line(life.pool))
    return lines
