"""Reading the per-game audit a close stored (``period_audits``, one packed row per player and
revision: ``db.audit_pack``), for the current revision of a period in a pool
(docs/CORRECTIONS.md §3): the D and PD of each rated game side (event reports, the period
report) and whether a game was rated at all (``game list``, ``game show``).

A game is rated in the period it is recorded in (``games.period``: the close of that period
rates it, a late result included), so a game's sides are in its period's rows. Set-based: one
query whatever the number of games or players.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.db.audit_pack import AuditSide, game_ids, unpack
from ledger.db.models import PeriodAudit, RatingPeriod
from ledger.domain import STANDARD, Period, RatingPool
from ledger.services.close.revisions import current

#: Up to this many players are named in the query (an ``IN``); more: the period's every row.
_NAMED_PLAYERS = 500


def current_sides(session: Session, period: Period | str, pool: RatingPool = STANDARD,
                  players: Collection[int] | None = None) -> dict[tuple[int, int], AuditSide]:
    """The stored audit of ``period``'s current revision in ``pool``: (game id, player id) ->
    that player's ``AuditSide`` of the game; only ``players``' sides when given. Empty when the
    period is not closed in ``pool``. One query."""
    return {(side.game_id, pid): side
            for pid, packed in current_rows(session, period, pool, players)
            for side in unpack(packed)}


def current_rows(session: Session, period: Period | str, pool: RatingPool = STANDARD,
                 players: Collection[int] | None = None) -> Iterator[tuple[int, bytes]]:
    """The stored rows of ``period``'s current revision in ``pool`` as (player id, packed
    sides: ``audit_pack``), of ``players`` only when given (named in the query when at most
    ``_NAMED_PLAYERS``, else the period's every row read and theirs kept). One query."""
    query = select(PeriodAudit.player_id, PeriodAudit.sides).where(
        PeriodAudit.period == str(period), current(PeriodAudit, pool))
    if players is not None and len(players) <= _NAMED_PLAYERS:
        query = query.where(PeriodAudit.player_id.in_(sorted(players)))
    wanted = None if players is None else set(players)
    return ((pid, packed) for pid, packed in session.execute(query)
            if wanted is None or pid in wanted)


def rated_games(session: Session, games: Iterable[tuple[int, str, str, int, int]]) -> set[int]:
    """Of ``games`` (game id, period, pool, white id, black id), the ids of those the current
    revision of their period in their pool rated for at least one player (a stored side).
    One query: the rows of those periods (of the games' players when few), game ids only
    unpacked (``audit_pack.game_ids``)."""
    wanted = list(games)
    if not wanted:
        return set()
    periods = sorted({g[1] for g in wanted})
    players = {pid for g in wanted for pid in g[3:5]}
    query = (select(PeriodAudit.period, RatingPeriod.pool, PeriodAudit.sides)
             .join(RatingPeriod, (RatingPeriod.period == PeriodAudit.period)
                   & (RatingPeriod.pool == PeriodAudit.pool)
                   & (RatingPeriod.revision == PeriodAudit.revision))
             .where(PeriodAudit.period.in_(periods)))
    if len(players) <= _NAMED_PLAYERS:
        query = query.where(PeriodAudit.player_id.in_(sorted(players)))
    stored = {(period, pool, gid) for period, pool, packed in session.execute(query)
              for gid in game_ids(packed)}
    return {g[0] for g in wanted if (g[1], g[2], g[0]) in stored}
