"""What a FIDE rating list import did or would do (``ListImportReport``, with each known
player's ``IdentityChange``) and the progress call it makes (``Progress``): the shapes
``imports.fide_lists`` (the command) and ``imports.fide_list_players`` (the work on the ledger's
players) share."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ledger.errors import Problem

#: ``progress(done, total, phase)``, the call every import makes (``cli.progress``): phase
#: "reading the list" (lines) or "matching and recording players" (players).
Progress = Callable[[int, int, str], None]
#: The identity fields a list brings, in the order changes are reported.
IDENTITY_FIELDS = ("name", "fide_id", "federation", "sex", "title", "w_title", "o_title",
                   "foa_title", "birth_year")


@dataclass(frozen=True)
class IdentityChange:
    """What a list changed in one known player's identity: field -> (before, after)."""

    player_id: int
    name: str
    line: int
    changes: dict[str, tuple[Any, Any]]


@dataclass
class ListImportReport:
    """What a list import did (or would do, with ``dry_run``).

    Counts: players on the list, matched (known to the ledger), registered, updated (identity
    changes, listed in ``updated``), list ratings recorded and already recorded, players unrated
    on the list, and ``published``: ratings that became the ledger's published rating (standard
    lists only). ``problems``: every error and warning with file, line and field.
    """

    file: str
    list_date: dt.date
    pool: str
    layout: str
    dry_run: bool
    players_in_file: int = 0
    players_matched: int = 0
    players_registered: int = 0
    updated: list[IdentityChange] = field(default_factory=list)
    ratings_recorded: int = 0
    ratings_already_recorded: int = 0
    unrated: int = 0
    published: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
