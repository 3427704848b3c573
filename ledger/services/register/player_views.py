"""Players as the ledger shows them: ``ledger player list`` and ``ledger player show``
(``PlayerView``: identity, the published rating, rated games and K in force for a pool's next
close; the life of the rating and the latest FIDE list ratings as printed, ``PrintedListRating``,
for ``show``), and ``player_views``, the one way every service builds them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Engine, Row, and_, func, select
from sqlalchemy.orm import Session

from ledger.db.models import Game, ListRating, Player
from ledger.db.order import PLAYER_ORDER
from ledger.domain import POOLS, STANDARD, KReason, Period, RatingPool
from ledger.rules.pools import k_in_pool
from ledger.services.close.carried import CarriedLine, carried_lines
from ledger.services.close.late import earliest_open
from ledger.services.close.life import RatingLife, rating_life
from ledger.services.close.state import History, last_closed_period, load_histories
from ledger.services.core.session import transaction
from ledger.services.register.player_refs import resolve


@dataclass(frozen=True)
class PrintedListRating:
    """A player's rating in one pool as printed on a FIDE rating list (table ``list_ratings``,
    ``ledger import --format fide-list``), kept for comparison only: the ledger's own rating and
    K never come from it (FIDE B.02 §8.3.3; a list's K can be 0 or out of date).

    ``pool`` (standard, rapid or blitz), ``list_date`` (the list's date), ``rating`` (None:
    unrated), ``games`` (in the list's period) and ``k`` as printed (None: blank), ``flag``
    (``i``, ``w``, ``wi`` ... or None), ``source`` (the list file's name)."""

    pool: str
    list_date: dt.date
    rating: int | None
    games: int | None
    k: int | None
    flag: str | None
    source: str


@dataclass(frozen=True)
class PlayerView:
    """A player as the CLI shows them: identity, current published rating, K now and why;
    ``life`` (``player show`` only): pool in progress, initial ratings, drops below the floor;
    ``list_ratings`` (``player show`` only): the latest FIDE list rating per pool, as printed;
    ``w_title``, ``o_title``, ``foa_title``: the woman's, other (arbiter, trainer ...) and FOA
    titles a FIDE rating list gave (None: not known)."""

    id: int
    name: str
    fide_id: int | None
    birth_year: int | None
    sex: str | None
    federation: str | None
    title: str | None
    rating: int | None
    rated_games: int | None
    reached_2400: bool
    reached_2300: bool
    k: int
    k_reason: KReason
    history_unknown: bool
    next_period: str
    notes: tuple[str, ...] = ()
    life: RatingLife | None = None
    list_ratings: tuple[PrintedListRating, ...] = ()
    w_title: str | None = None
    o_title: str | None = None
    foa_title: str | None = None
    #: The rating pool the rating, games and K are of (docs/RULES.md §9).
    pool: str = STANDARD
    #: ``player show`` only: the carried corrections of the pool that apply, each a line of its
    #: own (docs/CORRECTIONS.md §5), oldest first.
    carried: tuple[CarriedLine, ...] = ()


def player_views(session: Session, ids: list[int] | None,
                 pool: RatingPool = STANDARD) -> list[PlayerView]:
    """Players (``ids``, or all) with their state in ``pool`` on the list in force for the next
    close of that pool (docs/RULES.md §9)."""
    query = select(Player).order_by(*PLAYER_ORDER)
    if ids is not None:
        query = query.where(Player.id.in_(ids))
    else:  # every player: those merged into another or withdrawn are found no more
        query = query.where(Player.merged_into.is_(None), Player.withdrawn.is_(False))
    players = list(session.scalars(query))
    open_period = earliest_open(session, pool)
    last_closed = open_period.previous() if open_period else None
    next_period = open_period or earliest_game_period(session)
    histories = load_histories(session, ids, through=last_closed or Period(1, 1), pool=pool)
    return [player_view(p, histories[p.id], next_period, last_closed, pool) for p in players]


def player_view(p: Player | Row[Any], history: History, next_period: Period,
                last_closed: Period | None, pool: RatingPool = STANDARD) -> PlayerView:
    """The ``PlayerView`` of player ``p`` (an ORM ``Player`` or a row with its columns by name)
    in ``pool`` from their ``history`` there: their state on the list in force for
    ``next_period`` (the pool's earliest open period, or the first with games when it has
    closed none), with the results through ``last_closed`` (the pool's latest closed period,
    None: none)."""
    state = history.state(next_period) if last_closed is None else history.state(
        next_period, results_through=last_closed)
    k, reason = k_in_pool(state, next_period, pool)
    return PlayerView(pool=pool,
        id=p.id, name=p.name, fide_id=p.fide_id, birth_year=p.birth_year, sex=p.sex,
        federation=p.federation, title=p.title, rating=state.rating,
        rated_games=state.rated_games, reached_2400=state.reached_2400,
        reached_2300=state.reached_2300, k=k, k_reason=reason,
        history_unknown=state.rated_games is None, next_period=str(next_period),
        w_title=p.w_title, o_title=p.o_title, foa_title=p.foa_title)


def latest_list_ratings(session: Session,
                        ids: list[int]) -> dict[int, tuple[PrintedListRating, ...]]:
    """Player id -> their latest FIDE list rating in each pool (the row with the latest list
    date for that player and pool), in the order standard, rapid, blitz; players with none are
    left out. One query for all ``ids``."""
    latest = (select(ListRating.player_id, ListRating.pool,
                     func.max(ListRating.list_date).label("list_date"))
              .where(ListRating.player_id.in_(ids))
              .group_by(ListRating.player_id, ListRating.pool).subquery())
    rows = session.scalars(select(ListRating).join(latest, and_(
        ListRating.player_id == latest.c.player_id, ListRating.pool == latest.c.pool,
        ListRating.list_date == latest.c.list_date)))
    found: dict[int, list[PrintedListRating]] = {}
    for row in rows:
        found.setdefault(row.player_id, []).append(PrintedListRating(
            row.pool, row.list_date, row.rating, row.games, row.k, row.flag, row.source))
    return {pid: tuple(sorted(items, key=lambda r: POOLS.index(r.pool)))
            for pid, items in found.items()}


def earliest_game_period(session: Session) -> Period:
    """The first period with games, or this month when the ledger has none yet."""
    first = session.scalar(select(func.min(Game.period)))
    return Period.parse(first) if first else Period.of(dt.date.today())


def list_players(engine: Engine, pool: RatingPool = STANDARD) -> list[PlayerView]:
    """``ledger player list``: every player (in ``PLAYER_ORDER``: by name key, then id), with the
    rating, rated games and K in ``pool`` (docs/RULES.md §9) in force for that pool's next close;
    not those merged into another."""
    with transaction(engine, write=False) as session:
        return player_views(session, None, pool)


def show_player(engine: Engine, ref: str, pool: RatingPool = STANDARD) -> PlayerView:
    """``ledger player show``: one player (see ``player_refs.resolve`` for ``ref``) in ``pool`` (rating,
    rated games, K; docs/RULES.md §9), with the life of their rating there
    (``ledger.services.close.life``), their latest FIDE list rating per pool, as printed
    (``latest_list_ratings``), and the carried corrections of the pool that apply
    (``carried.carried_lines``: added by a close, or still to be added by the next one)."""
    with transaction(engine, write=False) as session:
        view = player_views(session, [resolve(session, ref, partial=True).id], pool)[0]
        carried = carried_lines(session, [view.id], pool, last_closed_period(session, pool))
        return replace(view, life=rating_life(session, view.id, view.rating is not None, pool),
                       list_ratings=latest_list_ratings(session, [view.id]).get(view.id, ()),
                       carried=tuple(carried.get(view.id, ())))
