"""``ledger performance``: a player's performance rating over one event or one rating period, and
the norm arithmetic (FIDE B.01 Title Regulations §1.4.6-1.4.9; docs/RULES.md §7).

The games and the ratings used come from ``ledger.services.close.rated_games`` (the published ratings in
force at each event's start, as the period close uses them); the arithmetic is
``ledger.rules.performance``. Only games played over the board count (forfeits and games of less
than one move do not). Without a norm, games against unrated opponents are left out; with one,
they count as 1400 (§1.4.6d).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from fractions import Fraction

from sqlalchemy import Engine, func, or_, select

from ledger.db.models import Event, Game, Player
from ledger.domain import STANDARD, Period, RatingPool
from ledger.errors import LedgerError, UsageError
from ledger.rules.performance import (
    UNRATED_OPPONENT_RATING,
    Norm,
    NormCheck,
    Performance,
    norm_check,
    performance,
)
from ledger.services.close.rated_games import LoadedGame, load_rated_games
from ledger.services.core.session import transaction
from ledger.services.register.events import resolve_event
from ledger.services.register.player_refs import resolve


@dataclass(frozen=True)
class PerformanceGame:
    """One of the player's games in the scope, from the player's side.

    ``opponent_rating``: published rating at the event's start (None: unrated); ``counted``:
    the rating the performance uses (None when the game is left out); ``score``: the player's
    points (``Fraction``; a forfeit win is 1 but never counted); ``note``: why a game is left out
    or how its opponent's rating was counted for a norm.
    """

    game_id: int
    date: dt.date
    event: str | None
    round: str | None
    colour: str
    opponent: str
    opponent_rating: int | None
    result: str
    score: Fraction
    counted: int | None
    note: str | None


@dataclass(frozen=True)
class PerformanceReport:
    """A player's performance over ``scope`` (e.g. ``event 'Club Open' (2025-11-01 to
    2025-11-09)`` or ``period 2025-11``): every game, the ``performance`` over the counted
    ones, and with a norm the ``norm`` check (None without ``--norm``)."""

    player_id: int
    player: str
    scope: str
    games: list[PerformanceGame]
    performance: Performance
    norm: NormCheck | None
    #: The rating pool whose games and ratings count (docs/RULES.md §9).
    pool: RatingPool = STANDARD


def _game_view(g: LoadedGame, player_id: int, names: dict[int, str]) -> tuple[
        PerformanceGame, bool]:
    """The game from the player's side, and whether it was played (so it can count)."""
    rated, game = g.rated, g.game
    white = rated.white_id == player_id
    opponent_id = rated.black_id if white else rated.white_id
    opponent_rating = rated.black_rating if white else rated.white_rating
    score = Fraction(rated.result.white_score if white else rated.result.black_score)
    note = None
    if not rated.result.is_played:
        note = "forfeit: not counted"
    elif not rated.played:
        note = "less than one move: not counted"
    view = PerformanceGame(
        game_id=game.id, date=game.date, event=g.event_name, round=game.round,
        colour="white" if white else "black", opponent=names[opponent_id],
        opponent_rating=opponent_rating, result=rated.result.value, score=score, counted=None,
        note=note)
    return view, rated.is_rateable


def player_performance(engine: Engine, player: str, *, event: str | None = None,
                       period: str | None = None, norm: str | None = None,
                       pool: RatingPool = STANDARD) -> PerformanceReport:
    """``ledger performance``: Rp = Ra + dp of ``player`` over ``event`` or ``period`` (exactly
    one), and with ``norm`` (GM, IM, WGM, WIM) the norm check of that event; the games and
    ratings of ``pool`` (docs/RULES.md §9).

    Raises ``UsageError`` for both or neither scope, a norm over a period (a norm is earned in
    one tournament) or an unknown norm; ``InvalidInput`` for a malformed period;
    ``NotFound``/``Ambiguous`` for the player or event; ``LedgerError`` when no game counts.
    """
    if (event is None) == (period is None):
        raise UsageError("give either --event or --period")
    wanted_norm = None
    if norm is not None:
        if event is None:
            raise UsageError("--norm needs --event: a norm is earned in one tournament")
        try:
            wanted_norm = Norm.parse(norm)
        except ValueError as exc:
            raise UsageError(f"--norm: {exc}") from None
    wanted_period = Period.parse(period) if period is not None else None
    with transaction(engine, write=False) as session:
        who = resolve(session, player, partial=True)
        mine = or_(Game.white_id == who.id, Game.black_id == who.id) & (Game.pool == pool)
        if wanted_period is not None:
            condition = mine & (Game.period == str(wanted_period))
            scope = f"period {wanted_period}"
        else:
            played = select(Game.event_id).where(mine)
            ev = resolve_event(session, event or "", among=Event.id.in_(played),
                               nowhere="the player has no games in an event named")
            condition = mine & (Game.event_id == ev.id)
            scope = f"event {ev.name!r} ({ev.start_date} to {ev.end_date})"
        last = session.scalar(select(func.max(Game.period)).where(condition))
        through = Period.parse(last) if last else Period(1, 1)
        loaded, _ = load_rated_games(session, lambda _games: condition, through=through,
                                     pool=pool)
        opponent_ids = {g.rated.white_id for g in loaded} | {g.rated.black_id for g in loaded}
        names = dict(session.execute(select(Player.id, Player.name)
                                     .where(Player.id.in_(opponent_ids))).all())
        games = [_game_view(g, who.id, names) for g in loaded]
        who_id, who_name = who.id, who.name
    return replace(_report(who_id, who_name, scope, games, wanted_norm), pool=pool)


def _report(player_id: int, name: str, scope: str, games: list[tuple[PerformanceGame, bool]],
            norm: Norm | None) -> PerformanceReport:
    """Count the played games (rated opponents only; for a norm every opponent) and rate them."""
    views = [v for v, _ in games]
    played = [i for i, (_, ok) in enumerate(games) if ok]
    if norm is None:
        for i in played:
            rating = views[i].opponent_rating
            views[i] = replace(views[i], counted=rating,
                               note=None if rating is not None else "unrated opponent: not counted")
        used = [v for v in views if v.counted is not None]
        if not used:
            raise LedgerError(f"performance: {name} has no played game against a rated opponent "
                              f"in {scope}")
        perf = performance([v.counted for v in used if v.counted is not None],
                           [v.score for v in used])
        return PerformanceReport(player_id, name, scope, views, perf, None)
    if not played:
        raise LedgerError(f"performance: {name} has no played game in {scope}")
    check = norm_check([views[i].opponent_rating for i in played],
                       [views[i].score for i in played], norm)
    for i, o in zip(played, check.opponents, strict=True):
        note = (f"raised to the {norm.value} floor {norm.floor}" if o.raised
                else f"unrated: counted as {UNRATED_OPPONENT_RATING}" if o.unrated else None)
        views[i] = replace(views[i], counted=o.counted, note=note)
    return PerformanceReport(player_id, name, scope, views, check.performance, check)
