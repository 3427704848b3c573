"""Correcting a player: ``ledger player edit`` and ``ledger player correct-rating``
(docs/CORRECTIONS.md §8-§9).

An edit is effective from now. The identity (name, FIDE id, birth year, sex, federation, title)
is changed in place, its earlier values kept in ``player_revisions`` (``facts.revise_player``):
published lists are snapshots and keep what they showed, and ``db check`` recomputes each closed
period with the identity as it was. The K history (``--prior-games``, ``--reached-2400``) is a
new ``player_entries`` row of kind ``history`` in force from the earliest open period, which
leaves the rating in force as it is: closed periods keep the history they were rated with, even
when re-rated. The birth year has no period of its own: K counts it from the earliest open
period; the closed periods keep the K they were computed with (a re-rating of one, which rates
with today's facts, uses it).

An official correction of a published rating (``correct-rating``) is an entry of kind
``correction``: the corrected rating is in force from the period after the list it corrects (the
earliest open one), the list as published stands, and the rated-games count goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ledger.db.models import Player, PlayerEntry
from ledger.domain import MAX_RATING, MIN_RATING, STANDARD, Actor, Period, RatingPool
from ledger.errors import InvalidInput, PeriodError
from ledger.names import name_key
from ledger.services.close.late import earliest_open
from ledger.services.close.rerate import check_reason
from ledger.services.close.state import History, last_closed_period, load_histories
from ledger.services.core.audit import record_change
from ledger.services.core.facts import revise_player
from ledger.services.core.session import transaction
from ledger.services.register.player_refs import joined_identity, resolve
from ledger.services.register.player_views import PlayerView, player_views
from ledger.services.register.players import NewPlayer, next_namesake, same_name, validate_new_player

#: The identity fields ``player edit`` changes in place (column names).
IDENTITY = ("name", "fide_id", "birth_year", "sex", "federation", "title")


@dataclass(frozen=True)
class PlayerEdit:
    """What ``player edit`` changes: each None keeps the recorded value; ``reached_2400`` True
    records that a published rating has reached 2400 (it cannot be undone: K 10 for ever).
    ``pool``: the rating pool whose K history ``prior_games`` and ``reached_2400`` change
    (docs/RULES.md §9: each pool keeps its own); the identity is the player's in every pool."""

    name: str | None = None
    fide_id: int | None = None
    birth_year: int | None = None
    sex: str | None = None
    federation: str | None = None
    title: str | None = None
    prior_games: int | None = None
    reached_2400: bool = False
    pool: RatingPool = STANDARD


@dataclass
class EditReport:
    """What ``player edit`` did (or would do): ``changed`` field -> (before, after), the period
    the K history counts from (``k_from``; None when no K fact changed), the player as now,
    ``notes``, the reason and the change (None on a dry run); ``pool`` the rating pool whose K
    history was edited."""

    player: PlayerView
    changed: dict[str, tuple[Any, Any]]
    k_from: str | None
    reason: str
    dry_run: bool
    change_id: int | None = None
    notes: list[str] = field(default_factory=list)
    pool: RatingPool = STANDARD


def edit_player(engine: Engine, ref: str, edit: PlayerEdit, *, reason: str | None,
                dry_run: bool = False, actor: Actor | None = None) -> EditReport:
    """``ledger player edit PLAYER``: change a player's identity and K history from now on, by
    one ``player.edit`` change by ``actor`` giving ``reason`` (required).

    Raises ``InvalidInput`` naming the field: nothing to change, a value ``player add`` would
    refuse, a name another player has (merge them if they are one person), a FIDE id another
    player has, prior games when the history is unknown and stays so, a rapid or blitz
    ``pool`` without a K fact to change in it; ``NotFound`` / ``Ambiguous`` for the player.
    ``edit.pool``: the K history edited is that pool's, counted from that pool's earliest open
    period (docs/RULES.md §9).
    """
    why = check_reason(reason)
    pool = edit.pool
    if replace(edit, pool=STANDARD) == PlayerEdit():
        raise InvalidInput("player: nothing to change: give --name, --fide-id, --birth-year, "
                           "--sex, --federation, --title, --prior-games or --reached-2400")
    if pool != STANDARD and edit.prior_games is None and not edit.reached_2400:
        raise InvalidInput(f"pool: --pool {pool} names the pool whose K history --prior-games "
                           "or --reached-2400 change; the other details are the player's in "
                           "every pool: drop --pool")
    with transaction(engine, dry_run=dry_run) as session:
        player = resolve(session, ref)
        identity = _identity(session, player, edit)
        k_from = earliest_open(session, pool)
        history = load_histories(session, [player.id],
                                 through=last_closed_period(session, pool) or Period(1, 1),
                                 pool=pool)[player.id]
        entry = _history_entry(player, history, edit, k_from)
        changed = {f: (getattr(player, f), v) for f, v in identity.items()}
        if entry is not None:
            latest = history.latest_entry(k_from or Period(9999, 12))
            if edit.prior_games is not None:
                changed["prior_games"] = (latest.prior_games if latest else 0, edit.prior_games)
            if edit.reached_2400:
                changed["reached_2400"] = (False, True)
        if not changed:
            raise InvalidInput(f"player: {player.name} already has these values: nothing to "
                               "change")
        change = record_change(
            session, actor or Actor.from_code("edit_player"), "player.edit", "player",
            player.id, before={f: b for f, (b, _) in changed.items()},
            after={f: a for f, (_, a) in changed.items()}
            | ({"k_from": str(k_from) if k_from else None, "pool": pool}
               if entry is not None else {}),
            reason=why)
        if identity:
            revise_player(session, player, change.id)
            if "name" in identity and name_key(identity["name"]) != player.name_key:
                # another key: its next namesake number (a duplicate merged into this player
                # may hold the key's number 0)
                player.namesake = next_namesake(session, name_key(identity["name"]))
            for column, value in identity.items():
                setattr(player, column, value)
        if entry is not None:
            session.add(PlayerEntry(**entry, change_id=change.id, pool=pool))
        session.flush()
        report = EditReport(player_views(session, [player.id])[0], changed,
                            str(k_from) if k_from and (entry or "birth_year" in identity)
                            else None, why, dry_run, None if dry_run else change.id,
                            pool=pool)
        report.notes.extend(_notes(changed, k_from, pool))
        return report


def _identity(session: Session, player: Player, edit: PlayerEdit) -> dict[str, Any]:
    """The identity columns the edit changes (only those that differ), validated."""
    wanted = {f: getattr(edit, f) for f in IDENTITY if getattr(edit, f) is not None}
    if "name" in wanted:
        wanted["name"] = wanted["name"].strip()
    merged = {f: wanted.get(f, getattr(player, f)) for f in IDENTITY}
    validate_new_player(NewPlayer(**merged))
    changed = {f: v for f, v in wanted.items() if getattr(player, f) != v}
    if "name" in changed:
        # A duplicate merged into this player is this player: its name may be taken back.
        others = [(p, joined_identity(session, p)) for p in same_name(session, changed["name"])]
        others = [(p, j) for p, j in others if j.id != player.id]
        if others:
            other, joined = others[0]
            via = (f", merged into {joined.name} (#{joined.id})" if joined.id != other.id
                   else "")
            raise InvalidInput(f"name: {changed['name']!r} is already the name of "
                               f"{other.name} (#{other.id}){via}; if they are one person, "
                               f"ledger player merge #{joined.id} #{player.id}")
    if "fide_id" in changed:
        clash = session.scalar(select(Player).where(Player.fide_id == changed["fide_id"]))
        if clash is not None:
            raise InvalidInput(f"fide-id: {changed['fide_id']} already belongs to {clash.name} "
                               f"(#{clash.id})")
    return changed


def _history_entry(player: Player, history: History, edit: PlayerEdit,
                   k_from: Period | None) -> dict[str, Any] | None:
    """The ``history`` entry for ``--prior-games`` / ``--reached-2400``, in force from
    ``k_from`` (None: from the start, nothing being closed), or None when nothing changes."""
    if edit.prior_games is None and not edit.reached_2400:
        return None
    at = k_from or Period(9999, 12)
    latest = history.latest_entry(at)
    state = history.state(at)
    prior = latest.prior_games if latest is not None else 0
    new_prior = edit.prior_games if edit.prior_games is not None else prior
    if new_prior == prior and (not edit.reached_2400 or state.reached_2400):
        return None
    if edit.prior_games is not None:
        validate_new_player(NewPlayer(name=player.name, prior_games=edit.prior_games))
    return {"player_id": player.id, "effective_from": str(k_from) if k_from else None,
            "rating": history.rating(at), "prior_games": new_prior,
            "reached_2400": edit.reached_2400 or (latest.reached_2400 if latest else False),
            "reached_2300": latest.reached_2300 if latest else False,
            "source": "ledger player edit", "kind": "history"}


def _notes(changed: dict[str, tuple[Any, Any]], k_from: Period | None,
           pool: RatingPool = STANDARD) -> list[str]:
    notes = []
    if changed.keys() & {"name", "fide_id", "sex", "federation", "title", "birth_year"}:
        notes.append("the lists already published keep the details they were published with")
    k_facts = sorted(changed.keys() & {"birth_year", "prior_games", "reached_2400"})
    if k_facts:
        where = "" if pool == STANDARD else f" in the {pool} pool"
        notes.append(f"K counts {', '.join(k_facts)}{where} from {k_from or 'the first close'} "
                     "(the earliest open period); the closed periods keep the K they were "
                     "rated with")
    return notes


@dataclass
class RatingCorrection:
    """``player correct-rating``: the player, the list corrected (``period``), the rating it
    published (``published``) and the corrected one (``rating``), in force from ``in_force_from``;
    the reason and the change (None on a dry run); ``pool`` the rating pool of the list."""

    player: PlayerView
    period: str
    published: int
    rating: int
    in_force_from: str
    reason: str
    dry_run: bool
    change_id: int | None = None
    pool: RatingPool = STANDARD


def correct_rating(engine: Engine, ref: str, *, rating: int, period: str, reason: str | None,
                   dry_run: bool = False, actor: Actor | None = None,
                   pool: RatingPool = STANDARD) -> RatingCorrection:
    """``ledger player correct-rating PLAYER --rating R --period YYYY-MM``: FIDE corrected the
    rating the list of ``period`` published for the player; the correction is in force from the
    next period on (the rating the next close starts from), shown in ``history`` as a row of its
    own, and the rated-games count goes on. One ``player.correct-rating`` change giving
    ``reason`` (required).

    ``period`` must be the latest closed period (the list in force): the lists after an earlier
    one were rated from it. Raises ``InvalidInput`` (rating out of range or unchanged, reason),
    ``PeriodError`` (a period not closed, or not the latest), ``NotFound`` / ``Ambiguous``.

    ``pool``: the rating pool of the list corrected (docs/RULES.md §9, ``--pool``; default
    standard): the period must be that pool's latest closed one, and the corrected rating is in
    force in that pool only.
    """
    why = check_reason(reason)
    corrected = Period.parse(period)
    if not MIN_RATING <= rating <= MAX_RATING:
        raise InvalidInput(f"rating: {rating} is outside {MIN_RATING}..{MAX_RATING}")
    with transaction(engine, dry_run=dry_run) as session:
        player = resolve(session, ref)
        last = last_closed_period(session, pool)
        named = "" if pool == STANDARD else f" in the {pool} pool"
        listed = "" if pool == STANDARD else f" {pool}"
        if last is None or corrected > last:
            raise PeriodError(f"period: {corrected} is not closed{named}, so it has published "
                              "no rating to correct")
        if corrected != last:
            raise PeriodError(f"period: only the list in force can be corrected{named}, that of "
                              f"{last}: the lists after {corrected} were rated from its ratings "
                              f"(correct {last}'s, or re-rate)")
        effective = corrected.next()
        history = load_histories(session, [player.id], through=corrected, pool=pool)[player.id]
        published = history.rating(effective)
        if published is None:
            raise InvalidInput(f"player: {player.name} has no published rating on the "
                               f"{corrected}{listed} list")
        if published == rating:
            raise InvalidInput(f"rating: {player.name}'s rating on the {corrected}{listed} list "
                               f"is {rating} already: nothing to correct")
        change = record_change(session, actor or Actor.from_code("correct_rating"),
                               "player.correct-rating", "player", player.id,
                               before={"period": str(corrected), "rating": published,
                                       "pool": pool},
                               after={"rating": rating, "in_force_from": str(effective)},
                               reason=why)
        latest = history.latest_entry(effective)  # its prior games: the count goes on
        session.add(PlayerEntry(
            player_id=player.id, effective_from=str(effective), rating=rating,
            prior_games=latest.prior_games if latest is not None else 0,
            reached_2400=rating >= 2400,
            reached_2300=rating >= 2300, source="ledger player correct-rating",
            kind="correction", change_id=change.id, pool=pool))
        session.flush()
        return RatingCorrection(player_views(session, [player.id])[0], str(corrected),
                                published, rating, str(effective), why, dry_run,
                                None if dry_run else change.id, pool)
