"""Recorded games as they are listed (``ledger game list``, the period report, ``game add``'s
echo): names, result, event, period, and whether and how each is rated, late or void."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import Engine, or_, select
from sqlalchemy.orm import Session, aliased

from ledger.db.models import (
    Event,
    Game,
    InitialRating,
    InitialRatingGame,
    Player,
    RatingPeriod,
)
from ledger.db.order import GAME_ORDER
from ledger.domain import Period, Result
from ledger.services.close.late import natural_period
from ledger.services.close.revisions import current
from ledger.services.close.state import FIRST_RATED_PERIOD
from ledger.services.core.session import transaction
from ledger.services.register.player_refs import resolve


@dataclass(frozen=True)
class GameView:
    """A recorded game as listed: names, result, date, event, round, period and its ``status``:
    ``void`` (voided: kept, never rated), ``forfeit``, ``no moves`` (never rated), ``never
    rated`` (a period before 2022-01), ``open``
    (its period is not closed yet), ``rated``, ``initial rating`` (counted only in an unrated
    player's published initial rating) or ``not rated`` (closed; not rated when a player had no
    published rating). ``dated_in``: for a late result (docs/RULES.md §1), the closed period
    its dates belong to (its ``period`` is the later one it is rated in); None otherwise.
    ``rerated``: the periods a ``game add --rerate`` re-rated (``services.close.rerate``)."""

    id: int
    date: dt.date
    period: str
    white: str
    black: str
    result: str
    status: str
    event: str | None
    round: str | None
    notes: tuple[str, ...] = ()
    dated_in: str | None = None
    rerated: tuple[object, ...] = ()
    #: The game's rating pool (docs/RULES.md §9).
    pool: str = "standard"

    @property
    def late(self) -> bool:
        """True for a late result: rated in a period after the one its dates belong to."""
        return self.dated_in is not None


@lru_cache(maxsize=4096)
def game_status(result: str, played: bool, closed: bool, rated: bool, initial: bool,
                period: str, status: str = "valid", unequal_times: bool = False) -> str:
    """A game's ``GameView.status`` from its ``result`` (White's view), whether it was
    ``played`` (a move each), whether its ``period`` (YYYY-MM) is ``closed`` in its pool,
    ``rated`` (a stored side in its period's audit) and counted in a published ``initial``
    rating, its ``status`` (``valid`` or ``void``) and ``unequal_times``. Cached (a pure
    function of a few values: some 200 distinct calls a period, not one a game)."""
    if status == "void":
        return "void"
    if not Result(result).is_played:
        return "forfeit"
    if not played:
        return "no moves"
    if unequal_times:
        return "different times"
    if Period.parse(period) < FIRST_RATED_PERIOD:
        return "never rated"
    if not closed:
        return "open"
    if rated:
        return "rated"
    return "initial rating" if initial else "not rated"


def game_views(session: Session, ids: list[int] | None, period: Period | None,
               player_id: int | None) -> list[GameView]:
    """The games (``ids``, or all), of ``period`` and/or ``player_id`` when given, by date then
    id, each with its status and lateness: two queries (the games, then the stored audit of
    their periods for the rated flag: ``services.close.period_audits.rated_games``)."""
    white, black = aliased(Player), aliased(Player)
    initial = (select(InitialRatingGame.game_id)
               .join(InitialRating, (InitialRating.period == InitialRatingGame.period)
                     & (InitialRating.pool == InitialRatingGame.pool)
                     & (InitialRating.revision == InitialRatingGame.revision)
                     & (InitialRating.player_id == InitialRatingGame.player_id))
               .where(InitialRatingGame.game_id == Game.id, InitialRating.published.is_(True),
                      current(InitialRatingGame, Game.pool))
               .exists())
    closed = select(RatingPeriod.period).where(RatingPeriod.period >= Game.period,
                                               RatingPeriod.pool == Game.pool).exists()
    query = (select(Game, white.name, black.name, Event.name, Event.end_date, closed, initial)
             .join(white, Game.white_id == white.id).join(black, Game.black_id == black.id)
             .outerjoin(Event, Game.event_id == Event.id)
             .order_by(*GAME_ORDER))
    if ids is not None:
        query = query.where(Game.id.in_(ids))
    if period is not None:
        query = query.where(Game.period == str(period))
    if player_id is not None:
        query = query.where(or_(Game.white_id == player_id, Game.black_id == player_id))
    found = session.execute(query).all()
    closed_games = [(g.id, g.period, g.pool, g.white_id, g.black_id)
                    for g, *_, is_closed, _ in found if is_closed]
    rated: set[int] = set()
    if closed_games:  # the stored audits (and their unpacking): only for a closed period's games
        from ledger.services.close.period_audits import rated_games
        rated = rated_games(session, closed_games)
    views = []
    for g, w, b, e, end, is_closed, in_initial in found:
        is_rated = g.id in rated
        natural = natural_period(end, g.date)
        views.append(GameView(
            g.id, g.date, g.period, w, b, g.result,
            game_status(g.result, g.played, is_closed, is_rated, in_initial, g.period, g.status,
                    g.unequal_times),
            e, g.round, dated_in=str(natural) if natural < Period.parse(g.period) else None,
            pool=g.pool))
    return views


def list_games(engine: Engine, period: str | None = None,
               player: str | None = None) -> list[GameView]:
    """``ledger game list``: games by date, optionally of one period and/or one player."""
    wanted = Period.parse(period) if period is not None else None
    with transaction(engine, write=False) as session:
        player_id = resolve(session, player, partial=True).id if player is not None else None
        return game_views(session, None, wanted, player_id)


def period_game_views(session: Session, period: Period) -> list[GameView]:
    """Every game recorded in ``period``, by date, with its status, inside the caller's session."""
    return game_views(session, None, period, None)
