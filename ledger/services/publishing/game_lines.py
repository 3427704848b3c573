"""Every recorded game from each player's side with its D and PD (the site's player pages, the
tournament rating reports of ``event_reports``).

The games and the ratings used come from ``services.close.rated_games``; the D and PD of each rated
game are the ones its period's close stored (``period_audits``, packed per player:
``services.close.period_audits``). Set-based: a fixed number of queries per period, whatever the
number of players; the histories of the players read once for all the periods asked
(``periods_game_lines``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, FromClause, Row, select
from sqlalchemy.orm import Session, aliased

from ledger.db.audit_pack import AuditSide, game_ids, unpack
from ledger.db.models import Game, InitialRating, InitialRatingGame, Player, RatingPeriod
from ledger.domain import STANDARD, Period, RatingPool, Result
from ledger.services.close.period_audits import current_rows
from ledger.services.close.rated_games import GameRatings, rated_rows
from ledger.services.close.state import History, last_closed_period
from ledger.services.register.game_views import game_status, period_game_views

#: ``game_lines`` of some players reads the views of their games by id, this many a statement
#: (a statement's parameters are limited: SQLite's to 32,766).
FEW_GAMES = 5000
#: ``_sides_of`` asks the stored audit of this many players a statement (as
#: ``period_audits.current_sides`` does by id), for at most ``FEW_SIDES`` players.
NAMED_SIDES, FEW_SIDES = 500, 40_000


@dataclass(frozen=True)
class GameLine:
    """One recorded game from one player's side.

    ``colour`` "white" or "black"; ``result`` the game's result as recorded (White's view,
    ``1-0``, ``+/-`` ...); ``score`` the player's points (Decimal 1, 0.5 or 0; a forfeit win is
    1, as standings count it); ``status`` as ``ledger game list`` gives it (``rated``,
    ``forfeit``, ``open`` ...); ``own_rating``/``opponent_rating`` the published ratings in
    force at the event's start (None: unrated then). ``difference`` (D, own - opponent),
    ``counted_difference`` (D after the 400-point rule) and ``expected`` (PD) are the stored
    audit of a game rated for this player, None otherwise."""

    game_id: int
    date: dt.date
    period: str
    event_id: int | None
    event: str | None
    round: str | None
    colour: str
    player_id: int
    opponent_id: int
    opponent: str
    result: str
    score: Decimal
    status: str
    own_rating: int | None
    opponent_rating: int | None
    difference: int | None = None
    counted_difference: int | None = None
    expected: Decimal | None = None

    @property
    def rated(self) -> bool:
        """True when the game was rated for this player (it has a stored D and PD)."""
        return self.expected is not None

    @property
    def over_the_board(self) -> bool:
        """True for a game played over the board (not a forfeit, a move each)."""
        return self.status not in ("forfeit", "no moves")


def game_periods(session: Session) -> list[Period]:
    """Every period with a recorded game, oldest first."""
    return [Period.parse(p) for p in session.scalars(
        select(Game.period).distinct().order_by(Game.period))]


def game_lines(session: Session, period: Period, event_id: int | None = None,
               pool: RatingPool = STANDARD, *,
               of_players: Collection[int] | None = None) -> list[GameLine]:
    """Every game of ``period`` in ``pool`` (or only those of the event ``event_id``; or only
    those ``of_players`` played, either colour), two lines each (White's, then Black's), by
    date then game id, inside the caller's session, with the ratings and audit of that pool
    (docs/RULES.md §9). Five queries and the histories of the players in them."""
    return periods_game_lines(session, [period], event_id, pool, of_players=of_players)


def periods_game_lines(session: Session, periods: Sequence[Period],
                       event_id: int | None = None, pool: RatingPool = STANDARD, *,
                       of_players: Collection[int] | None = None,
                       of_events: Collection[int] | None = None,
                       states: tuple[Period, Mapping[int, History]] | None = None,
                       own: bool = False) -> list[GameLine]:
    """``game_lines`` of each of ``periods`` in turn (their lines one period after the other,
    in the order given), the games read and the histories of the players in them read once
    for all the periods (a scoped site rebuild asks every period for a few players: one
    reading of their histories, not one a period). Four queries, then per period the views
    of its games and its stored audit. ``of_events``: only the games of those events (a full
    site build's tournament pages, a few events at a time; ``event_id``: of that one).
    ``states``: (period, the histories of ``pool`` through it, as ``state.load_histories``
    reads them: a site build's, of every player), taken for the players of the games instead
    of reading theirs again when that period is the latest closed in ``pool``. ``own``: with
    ``of_players``, only those players' own lines (a game between two of them gives both; a
    site build's player pages: their opponents' lines were half the lines and went unused)."""
    if not periods:
        return []
    months = [str(p) for p in periods]
    events = [event_id] if event_id is not None else of_events

    def condition(g: FromClause) -> ColumnElement[bool]:
        here: ColumnElement[bool] = g.c.period.in_(months)
        if of_players is not None:  # by the players' indexes, not every game of the periods
            here = here & g.c.id.in_(select(Game.id).where(Game.white_id.in_(of_players))
                                     .union(select(Game.id).where(Game.black_id.in_(of_players))))
        return here & g.c.event_id.in_(events) if events is not None else here

    last = last_closed_period(session, pool)
    through = last or Period(1, 1)
    loaded, ratings, _ = rated_rows(session, condition, through=through, pool=pool,
                                    known=states[1] if states is not None
                                    and states[0] == through else None)
    by_period: dict[str, list[Row[Any]]] = defaultdict(list)
    for g in loaded:  # by date then id within each period
        by_period[g.period].append(g)
    lines = []
    for period in periods:
        lines += _period_lines(session, period, by_period.get(str(period), []), ratings, pool,
                               events is not None or of_players is not None,
                               of_players is not None or of_events is not None,
                               last is not None and period <= last,
                               set(of_players) if own and of_players is not None else None)
    return lines


def _period_lines(session: Session, period: Period, loaded: list[Row[Any]],
                  ratings: GameRatings, pool: RatingPool, some: bool, by_id: bool, closed: bool,
                  own: set[int] | None = None) -> list[GameLine]:
    """The lines of ``loaded`` (the rows of the games of ``period``, by date then id, and
    ``ratings`` their players' ratings: ``rated_games.rated_rows``; ``closed``: whether
    ``period`` is closed in ``pool``): the names and status of their games (all of the
    period's views, or ``by_id`` only theirs: ``_line_views``) and the stored audit
    (``some``: of their players only, ``_sides_of``); ``own``: only the lines of those
    players' sides, and of the others' stored rows only those of the players of a game none
    of ``own`` has a side of (whether another player's side rated it)."""
    if not loaded:
        return []
    players = {pid for g in loaded for pid in (g.white_id, g.black_id)} if some else None
    if own is None or players is None:
        audits, rated_ids = _sides_of(session, period, pool, players)
    else:  # their own sides; then, for a game none of them has a side of, its other player's
        audits, rated_ids = _sides_of(session, period, pool, players & own, own)
        others = {pid for g in loaded if g.id not in rated_ids
                  for pid in (g.white_id, g.black_id) if pid not in own}
        if others:
            rated_ids |= _sides_of(session, period, pool, others, set())[1]
    views = ({v.id: (v.white, v.black, v.status) for v in period_game_views(session, period)}
             if not by_id else _line_views(session, loaded, pool, closed, rated_ids))
    # a game's result (its text) -> the ``Result``'s value and White's and Black's scores,
    # found once (an enum's ``value`` is a property: a Python call a line)
    outcomes: dict[str, tuple[str, Decimal, Decimal]] = {}
    lines = []
    for game in loaded:
        white_rating, black_rating = ratings(game.event_start, game.date, game.white_id,
                                             game.black_id)
        white, black, status = views[game.id]
        outcome = outcomes.get(game.result)
        if outcome is None:
            result = Result(game.result)
            outcome = outcomes[game.result] = (result.value, result.white_score,
                                               result.black_score)
        value, white_score, black_score = outcome
        sides = (("white", game.white_id, game.black_id, black, white_score, white_rating,
                  black_rating),
                 ("black", game.black_id, game.white_id, white, black_score, black_rating,
                  white_rating))
        for colour, pid, opponent_id, opponent, score, rating, theirs in sides:
            if own is not None and pid not in own:
                continue
            audit = audits.get((game.id, pid))
            lines.append(GameLine(
                game.id, game.date, game.period, game.event_id, game.event_name,
                game.round, colour, pid, opponent_id, opponent, value, score,
                status, rating, theirs,
                audit.difference if audit else None,
                audit.counted_difference if audit else None,
                Decimal(audit.expected_hundredths).scaleb(-2) if audit else None))
    return lines


def _sides_of(session: Session, period: Period, pool: RatingPool, players: set[int] | None,
              own: set[int] | None = None) -> tuple[dict[tuple[int, int], AuditSide], set[int]]:
    """``period_audits.current_sides`` of ``players`` (None: every one), asked by id
    ``NAMED_SIDES`` players a statement when they are at most ``FEW_SIDES`` (a full site
    build's slice of players and their opponents: reading the whole period's audit for each
    slice would grow as the square of the players), else in one statement; and the ids of the
    games with a side among them (rated for one of its players, what
    ``period_audits.rated_games`` gives). ``own``: only those players' sides unpacked, the
    others' game ids only (``audit_pack.game_ids``)."""
    if players is None or len(players) <= NAMED_SIDES or len(players) > FEW_SIDES:
        asked: list[Collection[int] | None] = [players]
    else:
        ids = sorted(players)
        asked = [ids[start:start + NAMED_SIDES] for start in range(0, len(ids), NAMED_SIDES)]
    found: dict[tuple[int, int], AuditSide] = {}
    rated: set[int] = set()
    for some in asked:
        for pid, packed in current_rows(session, period, pool, some):
            if own is None or pid in own:
                for side in unpack(packed):
                    found[side.game_id, pid] = side
            else:
                rated.update(game_ids(packed))
    rated.update(game_id for game_id, _ in found)
    return found, rated


def _line_views(session: Session, loaded: list[Row[Any]], pool: RatingPool,
                closed: bool, rated: set[int]) -> dict[int, tuple[str, str, str]]:
    """Game id -> (White's name, Black's name, ``GameView.status``) of each of ``loaded`` (valid
    games of one period and pool, ``closed`` or not there), what ``game_views`` gives them,
    from Core rows: per FEW_GAMES games, their names (a join), and of those rated for neither
    player (the only ones it tells apart) those counted in a published initial rating;
    ``rated``: the ids of the games the period's stored audit has a side of (of both players
    of each of ``loaded``: ``_sides_of``), rated for at least one of them (what
    ``period_audits.rated_games`` gives)."""
    ids = [g.id for g in loaded]
    white, black = aliased(Player), aliased(Player)
    names: dict[int, tuple[str, str]] = {}
    for start in range(0, len(ids), FEW_GAMES):
        names.update((gid, (w, b)) for gid, w, b in session.execute(
            select(Game.id, white.name, black.name)
            .join(white, Game.white_id == white.id).join(black, Game.black_id == black.id)
            .where(Game.id.in_(ids[start:start + FEW_GAMES]))))
    unrated = [gid for gid in ids if gid not in rated] if closed else []
    initial: set[int] = set()
    for start in range(0, len(unrated), FEW_GAMES):
        chunk = unrated[start:start + FEW_GAMES]
        initial.update(session.scalars(
            select(InitialRatingGame.game_id)
            .join(InitialRating, (InitialRating.period == InitialRatingGame.period)
                  & (InitialRating.pool == InitialRatingGame.pool)
                  & (InitialRating.revision == InitialRatingGame.revision)
                  & (InitialRating.player_id == InitialRatingGame.player_id))
            .join(RatingPeriod, (RatingPeriod.period == InitialRatingGame.period)
                  & (RatingPeriod.pool == InitialRatingGame.pool)
                  & (RatingPeriod.revision == InitialRatingGame.revision))
            .where(InitialRatingGame.game_id.in_(chunk), InitialRatingGame.pool == pool,
                   InitialRating.published.is_(True))))
    return {g.id: (*names[g.id], game_status(
        g.result, g.played, closed, g.id in rated, g.id in initial, g.period, g.status,
        g.unequal_times)) for g in loaded}
