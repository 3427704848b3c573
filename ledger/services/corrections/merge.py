"""Merging a player registered twice: ``ledger player merge KEEP DUPLICATE``
(docs/CORRECTIONS.md §10).

Every game of the duplicate moves to the identity kept (each game's earlier values in
``game_revisions``), and the duplicate stays, marked ``merged_into`` the one it joined: it is
found no more (``player_refs.resolve`` points at the one it joined; an import's name of it matches
the one it joined, with a warning) and no later list shows it. What else happens:

- **identity**: KEEP's details stand; a detail KEEP lacks (FIDE id, birth year, sex,
  federation, title) is taken from the duplicate (the FIDE id moves: it is unique);
- **entries** (the ratings and prior games each brought), in every pool
  (``merge_pools``): KEEP's stand, the duplicate's stay recorded on the duplicate, unused; in a
  pool where KEEP has none, the duplicate's are carried to KEEP (copied by the merge's change),
  so a rapid or blitz rating, its games count and K history are never dropped;
- **FIDE list ratings** (``list_ratings``, for comparison only) move to KEEP, except those of a
  list and pool KEEP has one of already (equal, else refused), which stay on the duplicate;
- **closed periods** in which the duplicate played still hold the results rated with two
  identities: the report names them, and ``rerate`` re-rates each pool's closes from the first
  of them in that pool (one ``period.rerate`` change each; docs/RULES.md §9), so the merged
  history counts every game (K, the 700 cap, the rated-games count).

Refused, naming the field: the same player twice, the two having played each other, two
different FIDE ids or birth years, histories that contradict in any pool (two different ratings
brought in from outside the ledger in force for the same period) unless ``rerate`` (then KEEP's
history stands and each such pool is re-rated from the first list that shows the duplicate,
superseding the duplicate's published results), two FIDE list ratings of one list and pool,
and games that would become one game or put the player twice in a round.

One ``player.merge`` change records it (the duplicate's identity before and after, the games
moved, the list ratings moved); a merge is one change, as an import is, and every game moved
points at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, or_, select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game, ListRating, Player
from ledger.domain import POOLS, STANDARD, Actor, Period, RatingPool
from ledger.errors import InvalidInput
from ledger.services.close.rerate import PeriodRerate, check_reason, rerate_in
from ledger.services.close.state import is_closed, last_closed_period
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.facts import revise_game, revise_player
from ledger.services.core.session import transaction
from ledger.services.corrections.merge_pools import PoolPlan, carry_entries, plan_pool, refuse
from ledger.services.register.game_keys import RoundSeats, game_key
from ledger.services.register.player_refs import resolve
from ledger.services.register.player_views import PlayerView, player_views

#: The details a merge takes from the duplicate when the player kept has none.
FILLED = ("fide_id", "birth_year", "sex", "federation", "title")


@dataclass
class MergeReport:
    """What ``player merge`` did (or would do): the player kept (as now), the duplicate's id and
    name, the games moved (ids), the details taken from the duplicate, the list ratings moved,
    the closed periods that hold the duplicate's games (``to_rerate``, in any pool; by pool in
    ``pools``) and, with ``rerate``, each period re-rated (each pool's in turn); notes, the
    reason and the change (None on a dry run)."""

    kept: PlayerView
    duplicate_id: int
    duplicate: str
    games: list[int]
    filled: dict[str, Any]
    list_ratings: int
    to_rerate: list[str]
    rerated: list[PeriodRerate]
    reason: str
    dry_run: bool
    change_id: int | None = None
    notes: list[str] = field(default_factory=list)
    #: Pool -> its closed periods in ``to_rerate`` (``rerate`` re-rates each pool from its
    #: first; the other pools' closes stand).
    pools: dict[RatingPool, list[str]] = field(default_factory=dict)
    #: Pool -> how many of the duplicate's entries were carried to KEEP (KEEP had none there).
    entries_carried: dict[RatingPool, int] = field(default_factory=dict)
    #: The pools whose histories contradict (only with ``rerate``: KEEP's history stands).
    contradicting: list[RatingPool] = field(default_factory=list)
    #: The pool each period of ``rerated`` was re-rated in (same order).
    rerated_pools: list[RatingPool] = field(default_factory=list)


def merge_players(engine: Engine, keep_ref: str, duplicate_ref: str, *, reason: str | None,
                  rerate: bool = False, dry_run: bool = False,
                  actor: Actor | None = None) -> MergeReport:
    """``ledger player merge KEEP DUPLICATE``: one player, not two (see the module docstring).

    Raises ``InvalidInput`` naming the field for each refusal the module docstring lists and a
    missing reason; ``NotFound`` / ``Ambiguous`` for either player. With ``rerate`` every pool
    holding the duplicate's games in closed periods, or whose histories contradict, is re-rated
    in the same transaction (on a dry run too, rolled back: the report lists every list that
    changes).
    """
    why = check_reason(reason)
    who = actor or Actor.from_code("merge_players")
    with transaction(engine, dry_run=dry_run) as session:
        keep = resolve(session, keep_ref, "keep")
        dup = resolve(session, duplicate_ref, "duplicate")
        if keep.id == dup.id:
            raise InvalidInput(f"duplicate: {dup.name} (#{dup.id}) is the player kept")
        games = list(session.scalars(select(Game).where(
            or_(Game.white_id == dup.id, Game.black_id == dup.id)).order_by(Game.id)))
        _refuse_contradictions(session, keep, dup, games)
        plans = [plan_pool(session, keep, dup, pool) for pool in POOLS]
        refuse(plans, rerate)
        filled = {f: getattr(dup, f) for f in FILLED
                  if getattr(keep, f) is None and getattr(dup, f) is not None}
        moved_ratings = _list_ratings(session, keep, dup)
        by_pool = _closed_by_pool(session, games)
        to_rerate = sorted({p for periods in by_pool.values() for p in periods})
        change = record_change(session, who, "player.merge", "player", dup.id,
                               before={"merged_into": None, "games": [g.id for g in games]},
                               after={"merged_into": keep.id, "filled": filled,
                                      "list_ratings_moved": len(moved_ratings)},
                               reason=why)
        for game in games:
            revise_game(session, game, change.id)
            if game.white_id == dup.id:
                game.white_id = keep.id
            if game.black_id == dup.id:
                game.black_id = keep.id
        revise_player(session, dup, change.id)
        dup.merged_into = keep.id
        if "fide_id" in filled:
            dup.fide_id = None
            session.flush()  # the id is unique: off the duplicate before it is on KEEP
        if filled:
            revise_player(session, keep, change.id)
            for column, value in filled.items():
                setattr(keep, column, value)
        for row in moved_ratings:
            row.player_id = keep.id
        carried = carry_entries(session, plans, keep, dup, change.id)
        session.flush()
        rerated, rerated_pools = _rerate(session, plans, by_pool, why, who) if rerate else ([], [])
        contradicting = [p.pool for p in plans if p.contradiction is not None]
        summarise(change, {"merged_into": keep.id, "games_moved": [g.id for g in games],
                           "filled": filled, "list_ratings_moved": [r.id for r in moved_ratings],
                           "closed_periods": to_rerate, "entries_carried": carried,
                           "contradicting_pools": contradicting})
        report = MergeReport(player_views(session, [keep.id])[0], dup.id, dup.name,
                             [g.id for g in games], filled, len(moved_ratings), to_rerate,
                             rerated, why, dry_run, None if dry_run else change.id, pools=by_pool,
                             entries_carried={p.pool: len(p.carried) for p in plans if p.carried},
                             contradicting=contradicting, rerated_pools=rerated_pools)
        report.notes += [note for plan in plans for note in plan.notes]
        for pool, periods in by_pool.items() if not rerate else ():
            named = "" if pool == STANDARD else f" of the {pool} pool"
            flag = "" if pool == STANDARD else f" --pool {pool}"
            report.notes.append(
                f"closed period(s){named} {', '.join(periods)} hold games of {dup.name} rated "
                f"under #{dup.id}: until they are re-rated the merged history counts them as "
                f"they were (ledger period rerate --from {periods[0]}{flag} --reason ... --yes, "
                "or merge with --rerate)")
        return report


def _rerate(session: Session, plans: list[PoolPlan], by_pool: dict[RatingPool, list[str]],
            why: str, who: Actor) -> tuple[list[PeriodRerate], list[RatingPool]]:
    """Re-rate each pool from ``PoolPlan.rerate_from`` (its first closed period holding the
    duplicate's games, or, where the histories contradict, the first list showing the
    duplicate), in pool order; the periods re-rated and the pool of each."""
    done: list[PeriodRerate] = []
    pools: list[RatingPool] = []
    for plan in plans:
        start = plan.rerate_from(by_pool.get(plan.pool, []))
        if start is not None:
            found = rerate_in(session, Period.parse(start), why, who, plan.pool)
            done += found
            pools += [plan.pool] * len(found)
    return done, pools


def _closed_by_pool(session: Session, games: list[Game]) -> dict[RatingPool, list[str]]:
    """Pool -> the periods that pool has closed holding valid games of ``games`` (each pool
    closes its own periods, docs/RULES.md §9), in pool order; pools with none left out."""
    found: dict[RatingPool, list[str]] = {}
    for pool in POOLS:
        last = last_closed_period(session, pool)
        periods = sorted({g.period for g in games if g.status == "valid" and g.pool == pool
                          and is_closed(Period.parse(g.period), last)})
        if periods:
            found[pool] = periods
    return found


def _refuse_contradictions(session: Session, keep: Player, dup: Player,
                           games: list[Game]) -> None:
    """Raise ``InvalidInput`` when the two cannot be one player (see the module docstring)."""
    met = [g.id for g in games if g.status == "valid" and {g.white_id, g.black_id}
           == {keep.id, dup.id}]
    if met:
        raise InvalidInput(f"duplicate: {keep.name} (#{keep.id}) and {dup.name} (#{dup.id}) "
                           f"played each other (game {', '.join(map(str, met))}): one player "
                           "cannot; void or correct the game first")
    for column, label in (("fide_id", "fide-id"), ("birth_year", "birth-year")):
        a, b = getattr(keep, column), getattr(dup, column)
        if a is not None and b is not None and a != b:
            raise InvalidInput(f"{label}: {keep.name} (#{keep.id}) has {a} and {dup.name} "
                               f"(#{dup.id}) {b}: correct one with ledger player edit first")
    _refuse_two_games_as_one(session, keep, dup, games)


def _refuse_two_games_as_one(session: Session, keep: Player, dup: Player,
                             games: list[Game]) -> None:
    """After the move, a game already recorded for KEEP, or KEEP twice in a round."""
    theirs = list(session.scalars(select(Game).where(
        or_(Game.white_id == keep.id, Game.black_id == keep.id), Game.status == "valid")))
    keys = {game_key(g.event_id, g.round, g.white_id, g.black_id, g.date): g for g in theirs}
    seats = {event: RoundSeats(g for g in theirs if g.event_id == event)
             for event in {g.event_id for g in games}}
    for g in (g for g in games if g.status == "valid"):
        white = keep.id if g.white_id == dup.id else g.white_id
        black = keep.id if g.black_id == dup.id else g.black_id
        same = keys.get(game_key(g.event_id, g.round, white, black, g.date))
        clash = seats[g.event_id].clash(g.round, [keep]) if g.event_id is not None else None
        if same is not None or clash is not None:
            other = same.id if same is not None else (
                clash[1].id if clash is not None and isinstance(clash[1], Game) else "?")
            event = session.get(Event, g.event_id) if g.event_id is not None else None
            raise InvalidInput(f"duplicate: game {g.id} of {dup.name} and game {other} of "
                               f"{keep.name} would be one player twice in "
                               + (f"round {g.round} of {event.name!r}" if event and g.round
                                  else f"one game on {g.date}")
                               + ": void the game recorded twice first")


def _list_ratings(session: Session, keep: Player, dup: Player) -> list[ListRating]:
    """The duplicate's FIDE list ratings that move to KEEP; an equal one of a list and pool KEEP
    has stays, a different one is refused."""
    kept = {(r.list_date, r.pool): r for r in session.scalars(
        select(ListRating).where(ListRating.player_id == keep.id))}
    moving = []
    for row in session.scalars(select(ListRating).where(ListRating.player_id == dup.id)):
        mine = kept.get((row.list_date, row.pool))
        if mine is None:
            moving.append(row)
        elif mine.rating != row.rating:
            raise InvalidInput(f"duplicate: the histories contradict: FIDE's {row.pool} list of "
                               f"{row.list_date} gives {keep.name} {mine.rating} and {dup.name} "
                               f"{row.rating}")
    return moving
