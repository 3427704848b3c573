"""The games: the events they are played in (``events``), the games (``games``), their earlier
values (``game_revisions``) and the files they were imported from (``imported_files``)."""

import datetime as dt

from sqlalchemy import (
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, validates

from ledger.db.models.base import KEY_LENGTH, POOL_CHECK, Base, KeyedName, pool_column, utcnow
from ledger.db.models.partial_index import PartialIndex
from ledger.domain import ROUND_KEY_LENGTH, round_key


class Event(KeyedName, Base):
    """A tournament or match. Its games belong to the period of its end date. One event per
    name key (``ledger.names.name_key``: case, accents and punctuation aside) and start date."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("name_key", "start_date"),
                      CheckConstraint(POOL_CHECK, name="pool"))

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    #: ``ledger.names.name_key(name)``, kept by ``KeyedName``; the unique constraint indexes it.
    name_key: Mapped[str] = mapped_column(String(KEY_LENGTH))
    site: Mapped[str | None] = mapped_column(String(200))
    start_date: Mapped[dt.date] = mapped_column(Date)
    end_date: Mapped[dt.date] = mapped_column(Date)
    source: Mapped[str | None] = mapped_column(String(500))
    # What a tournament file says of the event (TRF header records 022, 032, 102, 122, XXR).
    city: Mapped[str | None] = mapped_column(String(200))
    federation: Mapped[str | None] = mapped_column(String(100))
    arbiter: Mapped[str | None] = mapped_column(String(200))
    time_control: Mapped[str | None] = mapped_column(String(200))
    rounds: Mapped[int | None]
    #: The change that last wrote the row (None: before revision 0006, change 0).
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))
    #: The event's rating pool (``import --pool``; docs/RULES.md §9): its games' pool when
    #: they give no time control.
    pool: Mapped[str] = pool_column()


#: ``games.status``: a valid game, or a voided one (kept, never rated, never in a pool).
GAME_STATUSES = ("valid", "void")


class Game(Base):
    """One recorded game. ``result`` is a ``ledger.domain.Result`` value; ``played`` is False when
    the game lasted less than one move each. ``period`` is the rating period it belongs to;
    ``status`` ``valid`` or ``void`` (a voided game stays, never rated).

    Its natural key, (``event_id``, ``round_key``, ``white_id``, ``black_id``), is unique among
    valid games: one game of an event's round between two players is recorded once, whichever
    way its round is written (a voided one may be entered again). Games without an event or a
    round (NULL) are not constrained by it."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("white_id <> black_id", name="different_players"),
        CheckConstraint("status IN ('valid', 'void')", name="status"),
        CheckConstraint(POOL_CHECK, name="pool"),
        Index("ix_games_period", "period"),
        PartialIndex("uq_games_natural_key", "event_id", "round_key", "white_id", "black_id",
                     unique=True, where=text("status = 'valid'")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"))
    round: Mapped[str | None] = mapped_column(String(20))
    #: ``ledger.domain.round_key(round)``, kept by ``_keep_round_key`` (a Core INSERT gives it
    #: itself): the round as the game's natural key compares it (``1.1`` is ``1``).
    round_key: Mapped[str | None] = mapped_column(String(ROUND_KEY_LENGTH))
    date: Mapped[dt.date] = mapped_column(Date)
    period: Mapped[str] = mapped_column(String(7))
    white_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    black_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    result: Mapped[str] = mapped_column(String(8))
    played: Mapped[bool] = mapped_column(default=True)
    source: Mapped[str | None] = mapped_column(String(500))
    recorded_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(8), default="valid", server_default="valid")
    #: The change that last wrote the row (None: before revision 0006, change 0).
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"), index=True)
    #: The rating pool of the game (docs/RULES.md §9): standard, rapid or blitz.
    pool: Mapped[str] = pool_column()
    #: True when the two players had different times (docs/RULES.md §9): recorded, not rated.
    unequal_times: Mapped[bool] = mapped_column(default=False, server_default=text("false"))

    @validates("round")
    def _keep_round_key(self, _attribute: str, label: str | None) -> str | None:
        self.round_key = round_key(label)
        return label


#: The columns of ``games`` an import writes, in the order of its rows (``db.rows.insert_rows``).
IMPORTED_GAME_COLUMNS = ("event_id", "round", "round_key", "date", "period", "white_id",
                         "black_id", "result", "played", "source", "recorded_at", "status",
                         "change_id", "pool", "unequal_times")


class ImportedFile(Base):
    """A file imported into the ledger, by the SHA-256 of its bytes: importing the same file
    again adds nothing. ``games`` recorded and ``players`` registered by that import;
    ``change_id`` the ``import`` (or ``import.replace``) change that recorded it, which its
    games, players and entries carry (None: imported before revision 0006)."""

    __tablename__ = "imported_files"

    id: Mapped[int] = mapped_column(primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    file_name: Mapped[str] = mapped_column(String(500))
    format: Mapped[str] = mapped_column(String(20))
    imported_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    games: Mapped[int]
    players: Mapped[int]
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))


class GameRevision(Base):
    """A game's earlier values (docs/CORRECTIONS.md §2): what the row held from change
    ``valid_from_change`` (None: change 0) until ``valid_to_change`` replaced it."""

    __tablename__ = "game_revisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    valid_from_change: Mapped[int | None] = mapped_column(ForeignKey("changes.id"), index=True)
    valid_to_change: Mapped[int] = mapped_column(ForeignKey("changes.id"))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"))
    round: Mapped[str | None] = mapped_column(String(20))
    date: Mapped[dt.date] = mapped_column(Date)
    period: Mapped[str] = mapped_column(String(7))
    white_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    black_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    result: Mapped[str] = mapped_column(String(8))
    played: Mapped[bool]
    status: Mapped[str] = mapped_column(String(8))
    source: Mapped[str | None] = mapped_column(String(500))
    pool: Mapped[str] = pool_column()
    unequal_times: Mapped[bool] = mapped_column(default=False, server_default=text("false"))
