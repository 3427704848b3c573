"""The files imported: ``ledger imports`` lists them, and what each one wrote is found again
here (``recorded_games``, ``registered_players``) for ``ledger imports revert``
(``services.corrections.revert``).

An imported file of games (``imported_files``: ``ledger import FILE``, or a corrected file with
``--replace``) is tied to the change that recorded it (``imported_files.change_id``, revision
0012); every game and player that change wrote carries it (``change_id``) until a later change
rewrites the row, whose earlier values then keep it (``game_revisions.valid_from_change``,
``player_revisions.valid_from_change``). So the games an import recorded are those whose first
version it wrote, whatever was corrected since. A file imported before revision 0006 has no
change: its games carry none either, and cannot be told apart from others.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, select, union
from sqlalchemy.orm import Session

from ledger.db.models import Change, Game, GameRevision, ImportedFile, Player, PlayerRevision
from ledger.errors import InvalidInput, NotFound
from ledger.services.core.session import transaction
from ledger.services.register.player_refs import MAX_ID

#: The ``changes.action`` of ``ledger imports revert``.
REVERT = "import.revert"

_ID_RE = re.compile(r"#?[0-9]{1,30}")


@dataclass(frozen=True)
class ImportView:
    """One imported file as ``ledger imports`` shows it: ``id`` (``imported_files.id``, what
    ``imports revert`` takes), ``file`` (its name as given), ``sha256``, ``format``, ``at``
    (UTC), ``by`` (who imported it: None before the audit log), ``change_id`` (the change that
    recorded it), ``action`` (``import`` or ``import.replace``), ``games`` recorded and
    ``players`` registered (as the import counted them), ``periods`` (the rating periods its
    games are in now, oldest first), ``void`` (how many of its games are void now) and
    ``reverted_by`` (the ``import.revert`` change that took it back, None: not taken back)."""

    id: int
    file: str
    sha256: str
    format: str
    at: dt.datetime
    by: str | None
    change_id: int | None
    action: str | None
    games: int
    players: int
    periods: tuple[str, ...]
    void: int
    reverted_by: int | None


def _recorded_ids(change_id: int) -> Any:
    """The ids of the games change ``change_id`` recorded, as a subquery."""
    return union(select(Game.id).where(Game.change_id == change_id),
                 select(GameRevision.game_id)
                 .where(GameRevision.valid_from_change == change_id))


def recorded_games(session: Session, change_id: int) -> list[Game]:
    """The games change ``change_id`` recorded (their first version is its), by id, as they
    are now (voided or corrected since, too)."""
    return list(session.scalars(select(Game).where(Game.id.in_(_recorded_ids(change_id)))
                                .order_by(Game.id)))


def registered_players(session: Session, change_id: int) -> list[Player]:
    """The players change ``change_id`` registered (their first version is its; an import of
    games never rewrites a player it did not register), by id, as they are now."""
    ids = union(select(Player.id).where(Player.change_id == change_id),
                select(PlayerRevision.player_id)
                .where(PlayerRevision.valid_from_change == change_id))
    return list(session.scalars(select(Player).where(Player.id.in_(ids)).order_by(Player.id)))


def find_import(session: Session, ref: str) -> ImportedFile:
    """The imported file ``ref`` names: its id as ``ledger imports`` lists it (``3`` or
    ``#3``), or its SHA-256 (the 64 hex digits, or a prefix of 8 or more naming one file).
    Raises ``InvalidInput`` for anything else or a prefix naming several, ``NotFound`` when no
    file has it."""
    text = ref.strip()
    if _ID_RE.fullmatch(text):
        number = int(text.lstrip("#"))
        found = session.get(ImportedFile, number) if number <= MAX_ID else None
        if found is None:
            raise NotFound(f"import: no import with id {text.lstrip('#')} (ledger imports "
                           "lists them)")
        return found
    if re.fullmatch(r"[0-9a-fA-F]{8,64}", text):
        files = list(session.scalars(select(ImportedFile).where(
            ImportedFile.sha256.startswith(text.lower(), autoescape=True)).limit(2)))
        if len(files) == 1:
            return files[0]
        if files:
            raise InvalidInput(f"import: SHA-256 {text} begins several files' digests: give "
                               "more digits, or the import's id")
        raise NotFound(f"import: no imported file has the SHA-256 {text}")
    raise InvalidInput(f"import: {text!r} is not an import's id (ledger imports lists them) "
                       "or a SHA-256")


def import_views(session: Session, files: list[ImportedFile]) -> list[ImportView]:
    """``files`` as ``ledger imports`` shows them (a few queries per file)."""
    views = []
    for f in files:
        change = session.get(Change, f.change_id) if f.change_id is not None else None
        # (period, status) -> games: one query, the games themselves never loaded
        counts = [] if f.change_id is None else session.execute(
            select(Game.period, Game.status, func.count())
            .where(Game.id.in_(_recorded_ids(f.change_id)))
            .group_by(Game.period, Game.status)).all()
        reverted = session.scalar(select(Change.id).where(
            Change.action == REVERT, Change.entity == "file", Change.entity_id == f.sha256)
            .order_by(Change.id.desc()).limit(1))
        views.append(ImportView(
            f.id, f.file_name, f.sha256, f.format, f.imported_at,
            change.by if change else None, f.change_id, change.action if change else None,
            f.games, f.players, tuple(sorted({period for period, _, _ in counts})),
            sum(n for _, status, n in counts if status == "void"), reverted))
    return views


def list_imports(engine: Engine) -> list[ImportView]:
    """``ledger imports``: every imported file of games, oldest first (by id)."""
    with transaction(engine, write=False) as session:
        return import_views(session, list(session.scalars(
            select(ImportedFile).order_by(ImportedFile.id))))
