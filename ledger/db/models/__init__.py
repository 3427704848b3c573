"""The ledger's tables as typed SQLAlchemy 2.x models, one module by what the tables hold:
``base`` (the declarative ``Base``, its naming convention, the columns tables share),
``partial_index`` (``PartialIndex``), ``players`` (players, their entries, earlier identities and
FIDE list ratings), ``games`` (events, games, their revisions, imported files), ``periods`` (period
revisions, closed periods and the rows each close derives, carried corrections), ``changes``
(the audit log, and the mark of a copy not yet verified), ``accounts`` (the web's users, their
sessions and login attempts) and ``submissions`` (results submitted on the web, awaiting review).

Facts (players, the history each brings on entering the ledger, events, games) are kept apart from
what a period close derives (``period_results``, ``period_audits``, ``rating_adjustments``,
``initial_ratings``, ``initial_rating_games``, ``rating_floor_drops``, ``list_entries``), which
is written once and never updated. Exact numbers are stored as integers: scores in half-points,
expected scores and exact changes in hundredths.

Revisions and the audit log (docs/CORRECTIONS.md): every write is a numbered ``changes`` row;
facts carry ``change_id``, the change that last wrote them (NULL: before revision 0006, read as
change 0), and keep their earlier values in ``game_revisions`` / ``player_revisions``. Every
derived row carries ``(period, revision)``, a row of ``period_revisions``; ``periods`` points at
each closed period's current revision.

This ``__init__`` gathers ``Base`` and every model class, so that code writes
``from ledger.db.models import Player, Game``. Why: a table's foreign keys and a query's joins
name other tables, whose mappers and ``Table`` objects must be registered before any is used,
and ``Base.metadata`` (what Alembic's ``env.py`` and ``alembic check`` compare with the latest
revision, what ``db copy`` copies) holds every table only once every module is imported: importing
this package does it, whichever model is asked for. Anything else (``utcnow``,
``IMPORTED_GAME_COLUMNS``, ``PartialIndex`` ...) is imported from its own module.
"""

from __future__ import annotations

from ledger.db.models.accounts import LoginAttempt, User, WebSession
from ledger.db.models.base import Base
from ledger.db.models.changes import Change, UnverifiedCopy
from ledger.db.models.games import Event, Game, GameRevision, ImportedFile
from ledger.db.models.periods import (
    CarriedCorrection,
    InitialRating,
    InitialRatingGame,
    ListEntry,
    PeriodAudit,
    PeriodResult,
    PeriodRevision,
    RatingAdjustment,
    RatingFloorDrop,
    RatingPeriod,
)
from ledger.db.models.players import ListRating, Player, PlayerEntry, PlayerRevision
from ledger.db.models.submissions import Submission

__all__ = [
    "Base",
    "CarriedCorrection",
    "Change",
    "Event",
    "Game",
    "GameRevision",
    "ImportedFile",
    "InitialRating",
    "InitialRatingGame",
    "ListEntry",
    "ListRating",
    "LoginAttempt",
    "PeriodAudit",
    "PeriodResult",
    "PeriodRevision",
    "Player",
    "PlayerEntry",
    "PlayerRevision",
    "RatingAdjustment",
    "RatingFloorDrop",
    "RatingPeriod",
    "Submission",
    "UnverifiedCopy",
    "User",
    "WebSession",
]
