"""Withdrawing a player registered by mistake: ``ledger player withdraw PLAYER --reason``
(docs/correcting.md, docs/CORRECTIONS.md §12), also used by ``ledger imports revert`` for the
players a wrong import registered.

A withdrawn player is kept, with every change that wrote them (the audit log, ``ledger audit
--player #ID``), and is found no more: ``player_refs.resolve`` answers that they were withdrawn,
"did you mean" never offers them, ``player list``, the rating lists of later closes
(``snapshots.list_rows``) and the site leave them out, and an import does not match them. Their
FIDE id is released (a withdrawn registration must not hold it against the right one); their
identity as it was stays in ``player_revisions``, so ``db check`` sees who was on a list when.
A published list is a snapshot and keeps what it showed.

Only a player without a valid game can be withdrawn: a game they played is a fact (void it
first, ``ledger game void``, if it never happened). Void games stay, pointing at them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, or_, select
from sqlalchemy.orm import Session

from ledger.db.models import Change, Game, Player
from ledger.domain import Actor
from ledger.errors import InvalidInput
from ledger.services.close.rerate import check_reason
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.facts import revise_player
from ledger.services.core.session import transaction
from ledger.services.register.player_refs import resolve

#: The ``changes.action`` of a withdrawal.
WITHDRAW = "player.withdraw"


@dataclass(frozen=True)
class Withdrawal:
    """A player withdrawn (or, with ``dry_run``, who would be): ``player_id``, ``name``, the
    FIDE id released (None: they had none), the void games kept (``void_games``: ids), the
    ``reason``, and the change that recorded it (None on a dry run)."""

    player_id: int
    name: str
    fide_id: int | None
    void_games: tuple[int, ...]
    reason: str
    dry_run: bool
    change_id: int | None = None


def valid_game_of(session: Session, player_id: int) -> Game | None:
    """The first valid (not void) game ``player_id`` played, by date then id (None: none)."""
    return session.scalars(
        select(Game).where(or_(Game.white_id == player_id, Game.black_id == player_id),
                           Game.status == "valid").order_by(Game.date, Game.id).limit(1)).first()


def withdraw(session: Session, player: Player, change: Change) -> Withdrawal:
    """Withdraw ``player`` (ORM row) by ``change`` inside the caller's transaction: their
    identity as it was kept (``facts.revise_player``), ``withdrawn`` set, the FIDE id released.
    Raises ``InvalidInput`` naming their first valid game (``game: ...``) when they have one,
    or when they are withdrawn already."""
    if player.withdrawn:
        raise InvalidInput(f"player: {player.name} (#{player.id}) is withdrawn already")
    game = valid_game_of(session, player.id)
    if game is not None:
        raise InvalidInput(
            f"game: {player.name} (#{player.id}) has a valid game, game {game.id} of "
            f"{game.date} ({game.result}): a player who played is not withdrawn; if the game "
            f"never happened, void it first (ledger game void {game.id} --reason ...)")
    voided = tuple(session.scalars(
        select(Game.id).where(or_(Game.white_id == player.id, Game.black_id == player.id))
        .order_by(Game.id)))
    fide_id = player.fide_id
    revise_player(session, player, change.id)
    player.withdrawn = True
    player.fide_id = None
    session.flush()
    return Withdrawal(player.id, player.name, fide_id, voided, change.reason or "", False,
                      change.id)


def withdraw_player(engine: Engine, ref: str, *, reason: str | None, dry_run: bool = False,
                    actor: Actor | None = None) -> Withdrawal:
    """``ledger player withdraw PLAYER --reason``: ``ref`` (``#ID``, FIDE id or full name, as
    ``player_refs.resolve``) was registered by mistake. One ``player.withdraw`` change by
    ``actor`` giving ``reason`` (required) records it (the identity before, and after:
    ``withdrawn``, the FIDE id released).

    Raises ``InvalidInput`` (no reason; a valid game, naming it; withdrawn already),
    ``NotFound`` / ``Ambiguous`` (``resolve``: a merged or withdrawn player says so)."""
    why = check_reason(reason)
    who = actor or Actor.from_code("withdraw_player")
    with transaction(engine, dry_run=dry_run) as session:
        player = resolve(session, ref)
        change = record_change(session, who, WITHDRAW, "player", player.id,
                               before={"withdrawn": False, "fide_id": player.fide_id},
                               reason=why)
        done = withdraw(session, player, change)
        summarise(change, {"withdrawn": True, "fide_id": None, "void_games": list(done.void_games)})
        return Withdrawal(done.player_id, done.name, done.fide_id, done.void_games, why,
                          dry_run, None if dry_run else change.id)
