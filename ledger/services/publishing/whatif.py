"""``ledger whatif``: what a win, a draw or a loss against an opponent would do to both players'
ratings in an open rating period, from the ledger's current state.

The period's recorded games of both players are loaded as the close loads them
(``ledger.services.close.rated_games``), the one game more is added with both players' published ratings
in force for the period, and ``ledger.rules.period.rate_period`` rates it all exactly as the close
would: K from each player's state (with the 700 cap over every game of the period), the 400-point
rule by edition, the corrections carried into the period (``close.carried``) and one rounding of
the period's change.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import Engine, or_, select, true

from ledger.db.models import Game
from ledger.domain import STANDARD, KReason, Period, RatedGame, RatingPool, Result
from ledger.errors import InvalidInput, PeriodError
from ledger.rules.editions import Edition, edition_for
from ledger.rules.period import PeriodResult, rate_period
from ledger.rules.pools import k_in_pool
from ledger.services.close.carried import CarriedLine, carried_lines
from ledger.services.close.rated_games import load_rated_games
from ledger.services.close.state import last_closed_period
from ledger.services.core.session import transaction
from ledger.services.register.player_refs import resolve

#: The three results, from the PLAYER's side, with the PLAYER as White.
OUTCOMES = (("win", Result.WHITE_WINS), ("draw", Result.DRAW), ("loss", Result.BLACK_WINS))
_HYPOTHETICAL_GAME_ID = -1


@dataclass(frozen=True)
class Standing:
    """One player's period as the rules rate it: games ``n``, K (``k_capped`` when the 700 rule
    cut it), the exact change and its rounding, the rating after. Zeros when no game counts."""

    games: int
    k: int
    k_capped: bool
    change_exact: Decimal
    change: int
    rating_after: int


@dataclass(frozen=True)
class WhatIfPlayer:
    """One of the two players: published ``rating`` for the period (None: unrated, so no change is
    computed here), K and why, ``now``: the period so far from recorded games and carried
    corrections (None when unrated), and ``carried``: the carried corrections still to be added
    by a close (docs/CORRECTIONS.md §5), those whose ``applies_in`` is the period in every
    standing here."""

    player_id: int
    name: str
    rating: int | None
    k: int | None
    k_reason: KReason | None
    now: Standing | None
    carried: tuple[CarriedLine, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """One result (``label`` win / draw / loss for the player) and both players' standing with it
    (None for an unrated player)."""

    label: str
    result: Result
    player: Standing | None
    opponent: Standing | None


@dataclass(frozen=True)
class WhatIf:
    """``ledger whatif``: the ``period`` and its ``edition``, both players, three outcomes;
    ``open_before``: earlier open periods (YYYY-MM) holding played games (no forfeits) of either
    player, whose closes come first and may change the ratings and K used here (those of the
    last published list)."""

    period: str
    edition: Edition
    player: WhatIfPlayer
    opponent: WhatIfPlayer
    outcomes: list[Outcome]
    open_before: tuple[str, ...] = ()
    #: The rating pool of the game supposed (docs/RULES.md §9).
    pool: RatingPool = STANDARD


def _standing(result: PeriodResult | None, rating: int | None) -> Standing | None:
    if rating is None:
        return None
    if result is None:
        return Standing(0, 0, False, Decimal(0), 0, rating)
    return Standing(result.n, result.k, result.k_capped, result.change_exact, result.change,
                    result.rating_after)


def what_if(engine: Engine, player: str, opponent: str, *, period: str | None = None,
            today: dt.date | None = None, pool: RatingPool = STANDARD) -> WhatIf:
    """Both players' period change after a win, a draw and a loss of ``player`` v ``opponent``
    in ``period`` (default: the month of ``today``), including the games they already have in it,
    in ``pool`` (its ratings, K and rules: docs/RULES.md §9). A correction carried into
    ``period`` (docs/CORRECTIONS.md §5) is added before the one rounding, as its close will add it.

    Raises ``NotFound``/``Ambiguous`` for a player, ``InvalidInput`` for the same player twice,
    ``PeriodError`` for a closed period or one before 2022-01.
    """
    target = Period.parse(period) if period is not None else Period.of(today or dt.date.today())
    edition = edition_for(target)
    with transaction(engine, write=False) as session:
        a = resolve(session, player, "player", partial=True)
        b = resolve(session, opponent, "opponent", partial=True)
        if a.id == b.id:
            raise InvalidInput(f"opponent: {b.name} cannot play themselves")
        last = last_closed_period(session, pool)
        if last is not None and target <= last:
            raise PeriodError(f"period: {target} is closed (periods up to {last} are closed); "
                              f"a what-if needs an open period, e.g. {last.next()}")
        both = (a.id, b.id)
        names = {a.id: a.name, b.id: b.name}
        theirs = or_(Game.white_id.in_(both), Game.black_id.in_(both)) & (Game.pool == pool)
        played = [r.value for r in Result if r.is_played]
        open_before = tuple(session.scalars(
            select(Game.period).distinct().where(
                theirs, Game.played, Game.result.in_(played), Game.status == "valid",
                Game.period < str(target),
                Game.period > str(last) if last is not None else true())
            .order_by(Game.period)))
        loaded, histories = load_rated_games(
            session, lambda _games: (Game.period == str(target)) & theirs,
            through=target.previous(), also=both, pool=pool)
        pending = {pid: tuple(c for c in lines if not c.added)
                   for pid, lines in carried_lines(session, both, pool, last).items()}
    games = [g.rated for g in loaded]
    states = {pid: h.state(target) for pid, h in histories.items()}
    ratings = {pid: states[pid].rating for pid in both}
    carried = {pid: sum((c.amount for c in lines if c.applies_in == str(target)), Decimal(0))
               for pid, lines in pending.items() if ratings[pid] is not None}
    carried = {pid: amount for pid, amount in carried.items() if amount}
    now = rate_period(states, games, target, edition, carried, pool=pool)
    outcomes = []
    for label, result in OUTCOMES:
        extra = RatedGame(_HYPOTHETICAL_GAME_ID, None, *both, ratings[both[0]], ratings[both[1]],
                          result)
        rated = rate_period(states, [*games, extra], target, edition, carried, pool=pool)
        outcomes.append(Outcome(label, result, *(_standing(rated.get(pid), ratings[pid])
                                                 for pid in both)))
    sides = []
    for pid in both:
        rating = ratings[pid]
        k, reason = k_in_pool(states[pid], target, pool)
        sides.append(WhatIfPlayer(pid, names[pid], rating, k if rating is not None else None,
                                  reason if rating is not None else None,
                                  _standing(now.get(pid), rating), pending.get(pid, ())))
    return WhatIf(str(target), edition, sides[0], sides[1], outcomes, open_before, pool)
