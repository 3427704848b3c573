"""Taking a wrong import back in one command: ``ledger imports revert ID --reason
[--in-next-period | --rerate] [--dry-run]`` (docs/correcting.md, docs/CORRECTIONS.md §12).

Every game the import recorded (``imports.imported.recorded_games``: those whose first
version its change wrote) that is still valid is voided, as ``game void`` voids a game: kept,
marked void, its earlier values in ``game_revisions``; a game in a closed period takes effect
as ``--in-next-period`` or ``--rerate`` says (``corrections.effects``; refused without one).
Then each player the import registered (``imports.imported.registered_players``) who has no
other valid game is withdrawn (``register.withdrawal``: kept with the audit, on no later list,
in no search or page); one who has (a game recorded since by another command or file) is kept,
and the report names that game.

One ``import.revert`` change (entity ``file``, the file's SHA-256) records it all, as an import
is one change: every game voided and every player withdrawn points at it, and its summary
lists them; with ``--rerate`` one ``period.rerate`` change per period re-rated besides. All or
nothing in one transaction; ``dry_run`` does everything and writes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from ledger.db.models import Change, Game, ImportedFile, Player
from ledger.domain import Actor, Period
from ledger.errors import InvalidInput
from ledger.services.close.rerate import check_reason
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.facts import revise_game
from ledger.services.core.session import transaction
from ledger.services.corrections.effects import Effect, Effects, mode_of
from ledger.services.imports.imported import (
    REVERT,
    ImportView,
    find_import,
    import_views,
    recorded_games,
    registered_players,
)
from ledger.services.register.game_views import GameView, game_views
from ledger.services.register.withdrawal import Withdrawal, valid_game_of, withdraw


@dataclass(frozen=True)
class KeptPlayer:
    """A player the import registered who is kept: ``game_id``, a valid game they have that
    the import did not record (None: merged into another player, who is not touched)."""

    player_id: int
    name: str
    game_id: int | None


@dataclass
class RevertReport:
    """What ``imports revert`` did (or, with ``dry_run``, would do): the import as it was
    (``imported``), the games voided (``voided``: as they are after), those void already
    (``already_void``: ids), the players withdrawn and kept, how it took effect (``effect``),
    the ``reason``, the ``import.revert`` change (None on a dry run) and ``notes``."""

    imported: ImportView
    reason: str
    dry_run: bool
    voided: list[GameView] = field(default_factory=list)
    already_void: list[int] = field(default_factory=list)
    withdrawn: list[Withdrawal] = field(default_factory=list)
    kept: list[KeptPlayer] = field(default_factory=list)
    effect: Effect = field(default_factory=lambda: Effect("open"))
    change_id: int | None = None
    notes: list[str] = field(default_factory=list)


def revert_import(engine: Engine, ref: str, *, reason: str | None,
                  in_next_period: bool = False, rerate: bool = False, dry_run: bool = False,
                  actor: Actor | None = None) -> RevertReport:
    """``ledger imports revert ID``: take the import ``ref`` names (its id as ``ledger
    imports`` lists it, or its SHA-256: ``imported.find_import``) back, by one
    ``import.revert`` change by ``actor`` giving ``reason`` (required); see the module
    docstring.

    Raises ``InvalidInput`` (no reason; an import taken back already, one from before the
    audit log, a corrected file applied with ``--replace``, or one with nothing left to take
    back), ``NotFound`` (no such import),
    ``PeriodError`` (a game in a closed period without a mode, closed periods of two pools,
    what a carried correction cannot express), ``UsageError`` (both modes).
    """
    why = check_reason(reason)
    mode = mode_of(in_next_period, rerate)
    who = actor or Actor.from_code("revert_import")
    with transaction(engine, dry_run=dry_run) as session:
        imported = find_import(session, ref)
        view = import_views(session, [imported])[0]
        change_id = _revertible(imported, view)
        games = recorded_games(session, change_id)
        valid = [g for g in games if g.status == "valid"]
        players = registered_players(session, change_id)
        report = RevertReport(view, why, dry_run,
                              already_void=[g.id for g in games if g.status == "void"])
        if not valid and not any(_may_withdraw(p) for p in players):
            raise InvalidInput(f"import: import {imported.id} ({imported.file_name}) has "
                               "nothing left to take back: every game it recorded is void and "
                               "every player it registered withdrawn or merged")
        change = record_change(session, who, REVERT, "file", imported.sha256, reason=why,
                               before={"import": imported.id, "file": imported.file_name,
                                       "change": change_id})
        effects = Effects(session, mode, f"import {imported.id} ({imported.file_name})")
        _void(session, valid, change, effects)
        for player in players:
            _withdraw_or_keep(session, player, change, report)
        # nothing is carried to a registration that was a mistake
        effects.leave_out = {w.player_id for w in report.withdrawn}
        if valid:
            effects.carry(change.id)
        report.effect = effects.finish(why, who)
        report.voided = game_views(session, [g.id for g in valid], None, None) if valid else []
        summarise(change, {"games_voided": [g.id for g in valid],
                           "players_withdrawn": [w.player_id for w in report.withdrawn],
                           "players_kept": [k.player_id for k in report.kept]})
        report.change_id = None if dry_run else change.id
        if mode is not None and not report.effect.closed:
            report.notes.append(f"every period the import's games are in is open: they are "
                                f"voided there, --{mode.value} is not needed")
        if report.already_void:
            report.notes.append(f"{len(report.already_void)} of its games were void already "
                                "(left as they are)")
        return report


def _revertible(imported: ImportedFile, view: ImportView) -> int:
    """The change that recorded ``imported``; ``InvalidInput`` when it was taken back already,
    applied a corrected file (``--replace``: its corrections are changes of their own) or was
    imported before the audit log (its games carry no change)."""
    if view.reverted_by is not None:
        raise InvalidInput(f"import: import {imported.id} ({imported.file_name}) was taken "
                           f"back already, by change {view.reverted_by}")
    if view.action == "import.replace":
        raise InvalidInput(f"import: import {imported.id} ({imported.file_name}) applied a "
                           "corrected file (--replace): taking it back would void the games it "
                           "added and leave its corrections (each a game.void or game.correct "
                           "change); correct those games with ledger game correct / game void")
    if imported.change_id is None:
        raise InvalidInput(f"import: import {imported.id} ({imported.file_name}) was recorded "
                           "before the audit log (ledger revision 0006): its games are not "
                           "tied to it; void them with ledger game void ID... and withdraw its "
                           "players with ledger player withdraw")
    return imported.change_id


def _void(session: Session, games: list[Game], change: Change, effects: Effects) -> None:
    """Void ``games`` by ``change``: every (pool, period) they are in touched first (refused
    in a closed one without a mode), then each game kept in ``game_revisions`` and voided
    (the caller carries the whole change at once: one comparison per closed period)."""
    touched: dict[tuple[str, str], set[int]] = defaultdict(set)
    for g in games:
        touched[g.pool, g.period] |= {g.white_id, g.black_id}
    for (pool, period), players in sorted(touched.items()):
        effects.touch([Period.parse(period)], players, pool)
    for g in games:
        revise_game(session, g, change.id)
        g.status = "void"
    session.flush()


def _may_withdraw(player: Player) -> bool:
    return not player.withdrawn and player.merged_into is None


def _withdraw_or_keep(session: Session, player: Player, change: Change,
                      report: RevertReport) -> None:
    """Withdraw ``player`` (registered by the import) by ``change`` when they have no valid
    game left; else keep them, naming the game (``report.kept``)."""
    if player.withdrawn:
        return
    if player.merged_into is not None:
        report.kept.append(KeptPlayer(player.id, player.name, None))
        return
    other = valid_game_of(session, player.id)
    if other is not None:
        report.kept.append(KeptPlayer(player.id, player.name, other.id))
        return
    report.withdrawn.append(withdraw(session, player, change))

