"""What a close did or would do (``CloseReport``, and ``ThroughReport`` for ``period close
--through``): each rated player's line with the rules' ``RowResult``, the initial ratings, the
drops below the floor, the late results and the games left unrated with why
(``not_rated_reason``, which an import's and a period's reports count too), built from what the
one rating code computed (``report_of``, from ``services.close.rating.Rated``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from sqlalchemy import Select, select
from sqlalchemy.orm import Session, aliased

from ledger.db.models import Event, Game, Player
from ledger.db.order import player_sort_key
from ledger.db.rows import stream_rows
from ledger.domain import POOLS, STANDARD, Period, RatedGame, RatingPool
from ledger.rules.initial import InitialRating, Pool
from ledger.rules.pools import GAP_REASON, gap_rule_excludes
from ledger.rules.row_results import RowResult
from ledger.services.close.rating import Rated


class RatedPlayer(NamedTuple):
    """One line of a close: who, and the rules' ``RowResult`` (with its per-game audit). A
    named tuple, read by name (one a rated player: 0.21 us each, where a frozen dataclass's
    ``__init__`` took 0.54 us)."""

    player_id: int
    name: str
    fide_id: int | None
    result: RowResult
    #: player id -> name, for at least this player's opponents (one mapping shared by every
    #: line of the close)
    opponents: Mapping[int, str]


#: Up to this many players, the close's report reads their names by id; more (a federation's
#: month), it reads every player's (and keeps them all: no set of the opponents' ids).
NAMES_BY_ID = 5_000


@dataclass(frozen=True)
class NewlyRated:
    """An unrated player whose pool reached 5 games at this close: the pool and the whole
    computation of Ru (``rating.published`` False: below the floor, the pool goes on)."""

    player_id: int
    name: str
    pool: Pool
    rating: InitialRating


@dataclass(frozen=True)
class FloorDrop:
    """A rating that fell below the floor at this close: unrated from the list it publishes."""

    player_id: int
    name: str
    rating: int
    floor: int


@dataclass(frozen=True)
class LateGame:
    """A late result a close rates (docs/RULES.md §1): a game dated in ``dated_in``, a closed
    period, rated in this one with the ratings in force at its event's start."""

    game_id: int
    date: dt.date
    dated_in: str
    white: str
    black: str
    event: str | None


@dataclass(frozen=True)
class GapGame:
    """A rapid or blitz game not rated because its players are 600 or more apart and one is
    above 2600 (docs/RULES.md §9, from 2024-12): ``white``/``black`` names and ratings."""

    game_id: int
    white: str
    black: str
    white_rating: int
    black_rating: int


@dataclass
class CloseReport:
    """What closing a period did (or, with ``dry_run``, would do). ``late``: the late results
    it rates; each player's ``result.carried``: the corrections carried into the period."""

    period: str
    edition: str
    dry_run: bool
    players: list[RatedPlayer]
    games: int = 0
    not_rated: Counter[str] = field(default_factory=Counter)
    adjustments: int = 0
    initial: list[NewlyRated] = field(default_factory=list)
    dropped: list[FloorDrop] = field(default_factory=list)
    #: The revision the close writes (1, or the next one after a reopen).
    revision: int = 1
    late: list[LateGame] = field(default_factory=list)
    #: The rating pool this report is of (docs/RULES.md §9).
    pool: RatingPool = STANDARD
    #: The reports of the other pools the same close closed (``period close`` without
    #: ``--pool`` closes every pool with games in the period, in one transaction).
    others: list[CloseReport] = field(default_factory=list)
    #: Player id -> the standard rating a rapid or blitz player unrated in the pool was rated
    #: with (docs/RULES.md §9, from 2024-03).
    seeded: dict[int, int] = field(default_factory=dict)
    #: Each game the 600-point rule of rapid and blitz left unrated (from 2024-12): game id,
    #: White, Black and their ratings, so the report says why each is not rated.
    gap_games: list[GapGame] = field(default_factory=list)
    #: A dry run of the period not ended yet (today is in it): a preview, games may still come.
    preview: bool = False

    @property
    def every_pool(self) -> list[CloseReport]:
        """This report and the other pools' ones, in pool order (standard, rapid, blitz)."""
        return sorted([self, *self.others], key=lambda r: POOLS.index(r.pool))


@dataclass
class ThroughReport:
    """What ``close_through`` did: the ``closed`` periods' reports in order, and ``refused``:
    (period, reason) of the first period it could not close, or None."""

    through: str
    closed: list[CloseReport] = field(default_factory=list)
    refused: tuple[str, str] | None = None


def not_rated_reason(g: RatedGame, pool: RatingPool = STANDARD,
                     period: Period | None = None) -> str | None:
    """Why a recorded game is not rated (``forfeit``, ``less than one move``, ``different
    times``, ``unrated player``: FIDE B.02 §5.1, §8.3.1, docs/RULES.md §9; in a rapid or blitz
    ``pool`` from 2024-12, ``rules.pools.GAP_REASON``), or None when it is rated."""
    if not g.result.is_played:
        return "forfeit"
    if not g.played:
        return "less than one move"
    if g.unequal_times:
        return "different times"
    if g.white_rating is None or g.black_rating is None:
        return "unrated player"
    if period is not None and gap_rule_excludes(g.white_rating, g.black_rating, pool, period):
        return GAP_REASON
    return None


def report_of(session: Session, rated: Rated, dry_run: bool) -> CloseReport:
    """The report of a close that rated ``rated`` (``dry_run``: one that writes nothing): the
    players by new rating (highest first), then name key and id; the names read in one query
    (``_names``), the late results
    and the games the 600-point rule left unrated in one more each when there are any.
    ``revision`` is left at 1 for the caller to set."""
    results, initial, drops, used = rated.results, rated.initial, rated.drops, rated.edition
    names = _names(session, rated)
    name_of = {pid: n[0] for pid, n in names.items()}  # one mapping for every line's opponents
    players = [RatedPlayer(pid, names[pid][0], names[pid][1], r, name_of)
               for pid, r in results.items()]
    players.sort(key=lambda p: (-p.result.rating_after, names[p.player_id][2], p.player_id))
    not_rated = Counter(reason for g in rated.left_out
                        if (reason := not_rated_reason(g, rated.pool, rated.period)) is not None)
    report = CloseReport(str(rated.period), used.value, dry_run, players, rated.game_count,
                         not_rated, adjustments=len(rated.adjustments), pool=rated.pool,
                         seeded=dict(rated.seeded))
    report.initial = sorted((NewlyRated(pid, names[pid][0], pool, ir)
                             for pid, (pool, ir) in initial.items()),
                            key=lambda n: (-n.rating.rating, *player_sort_key(n.name, n.player_id)))
    report.dropped = sorted((FloorDrop(pid, names[pid][0], rating, used.rating_floor)
                             for pid, rating in drops.items()),
                           key=lambda d: player_sort_key(d.name, d.player_id))
    report.late = _late_games(session, rated)
    report.gap_games = _gap_games(session, rated)
    return report


def _names(session: Session, rated: Rated) -> dict[int, tuple[str, int | None, str]]:
    """Player id -> (name, FIDE id, name key) of the players ``rated`` names: read by id up to
    ``NAMES_BY_ID`` players and opponents, else every player's (as the driver gives them:
    ``db.rows.stream_rows``, 20,000 at M 0.025 -> 0.017 s), all kept (a federation's month: no
    set of its 2,000,000 opponent ids)."""
    results, initial = rated.results, rated.initial
    asked = select(Player.id, Player.name, Player.fide_id, Player.name_key)
    if len(results) + len(initial) <= NAMES_BY_ID:  # else every player: no IN list of ids
        wanted = set(results) | set(initial) | {o for r in results.values()
                                                for o in r.opponent_ids}
        if len(wanted) <= NAMES_BY_ID:
            return {pid: (name, fide, key) for pid, name, fide, key
                    in session.execute(asked.where(Player.id.in_(wanted)))}
    return {pid: (name, fide, key) for pid, name, fide, key in stream_rows(
        session, cast("Select[Any]", asked))}


def _gap_games(session: Session, rated: Rated) -> list[GapGame]:
    """The games of ``rated`` the 600-point rule leaves unrated, by game id (one query)."""
    gaps = [g for g in rated.left_out if not_rated_reason(g, rated.pool, rated.period) == GAP_REASON]
    if not gaps:
        return []
    ids = {pid for g in gaps for pid in (g.white_id, g.black_id)}
    names = dict(session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())
    return [GapGame(g.game_id, names[g.white_id], names[g.black_id], g.white_rating or 0,
                    g.black_rating or 0) for g in sorted(gaps, key=lambda g: g.game_id)]


def _late_games(session: Session, rated: Rated) -> list[LateGame]:
    """The late results among ``rated``'s games, by date then id (one query)."""
    if not rated.late:
        return []
    white, black = aliased(Player), aliased(Player)
    rows = session.execute(
        select(Game.id, Game.date, white.name, black.name, Event.name)
        .join(white, white.id == Game.white_id).join(black, black.id == Game.black_id)
        .outerjoin(Event, Event.id == Game.event_id)
        .where(Game.id.in_(rated.late)).order_by(Game.date, Game.id))
    return [LateGame(gid, day, str(rated.late[gid]), w, b, e) for gid, day, w, b, e in rows]
