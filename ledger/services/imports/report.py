"""What an import of games did or would do (``ImportReport``), and the shapes the import's
modules share (``services.imports.games`` reads and orders, ``services.imports.checks`` checks,
``services.imports.writing`` writes and counts)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ledger.domain import STANDARD, RatingPool
from ledger.errors import Problem, SimilarGame
from ledger.formats.records import FileGame
from ledger.services.close.rerate import PeriodRerate
from ledger.services.register.game_keys import PlayerRef

#: ``(done, total)`` of the games being imported, for a progress bar.
Progress = Callable[[int, int], None]


#: The reason counted for a played game between rated players whose period is before 2022: the
#: ledger records it but no rule edition it implements can rate it.
NEVER_RATED = "period before 2022"


@dataclass
class ImportReport:
    """What an import did (or would do): counts, and every problem with file, line and field.

    ``to_rate``: recorded games that a close will rate (played, both players rated at the event's
    start, period from 2022-01); ``not_rated``: the others by reason (``NEVER_RATED`` for games
    between rated players in a period before 2022). ``already_imported``: the same bytes were
    imported before (``sha256``), so nothing was added. ``already_recorded``: the file's games
    already in the ledger (skipped); ``repeated_in_file``: the file's games that repeat an
    earlier line of it (the same event, round, players and result: recorded once).
    ``players_registered``: every player registered, split into ``registered_established``
    (with the file's rating; earlier games unknown, assumed established: 30 or more) and
    ``registered_unrated`` (no rating in the file: 0 rated games). ``similar``: the file's games
    that look like games recorded or earlier in the file (``lookalikes.Lookalikes``), likely
    duplicates: refused, unless ``allow_similar`` (then recorded, each with a warning), one
    entry for each game it resembles; ``likely_duplicates``: how many of the file's games.
    """

    file: str
    dry_run: bool
    format: str = "pgn"
    sha256: str = ""
    games_in_file: int = 0
    players_in_file: int | None = None
    recorded: int = 0
    to_rate: int = 0
    already_recorded: int = 0
    repeated_in_file: int = 0
    already_imported: bool = False
    players_matched: int = 0
    players_registered: list[str] = field(default_factory=list)
    registered_established: list[str] = field(default_factory=list)
    registered_unrated: list[str] = field(default_factory=list)
    not_rated: Counter[str] = field(default_factory=Counter)
    periods: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    allow_similar: bool = False
    similar: list[SimilarGame] = field(default_factory=list)
    likely_duplicates: int = 0
    late: list[LateRecord] = field(default_factory=list)
    rerated: list[PeriodRerate] = field(default_factory=list)


@dataclass(frozen=True)
class LateRecord:
    """A late result an import records (docs/RULES.md §1): the file's ``line``, the players, the
    game's ``date``, the closed period its dates belong to (``dated_in``) and the period it is
    recorded in (``period``: the earliest open one, or with ``--rerate`` its own), of ``pool``
    (whose closes decide both)."""

    line: int
    white: str
    black: str
    date: dt.date
    dated_in: str
    period: str
    pool: RatingPool = STANDARD


@dataclass(frozen=True, slots=True)
class Who:
    """A matched ledger player as an import's checks and writing read them: ``id`` (ledger id)
    and ``name``, read from the matched player once (``of``) instead of at every game."""

    id: int
    name: str

    @classmethod
    def of(cls, player: PlayerRef) -> Who:
        """The ``Who`` of a ledger player (a ``Player`` or a ``register.matching.PlayerRow``)."""
        return cls(player.id, player.name)


#: A file's game with its two ledger players.
Paired = tuple[FileGame, Who, Who]
#: A game of the file with its ledger players before the checks (None: not matched).
Matched = tuple[FileGame, Who | None, Who | None]
