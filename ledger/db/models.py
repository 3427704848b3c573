"""The ledger's tables as typed SQLAlchemy 2.x models.

Facts (players, the history each brings on entering the ledger, events, games) are kept apart from
what a period close derives (``periods``, ``period_results``, ``period_games``,
``rating_adjustments``, ``initial_ratings``, ``initial_rating_games``, ``rating_floor_drops``),
which is written once and never updated. Exact numbers are stored as integers: scores in
half-points, expected scores and exact changes in hundredths.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, validates

from ledger.domain import ROUND_KEY_LENGTH, round_key
from ledger.names import name_key

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with a naming convention, so constraints have names on SQLite too."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


#: Room for a name's key: twice a name's 200 characters (``ß`` -> ``ss``, ``æ`` -> ``ae`` ...).
KEY_LENGTH = 400


class KeyedName:
    """A table with a ``name`` and its ``name_key``: setting the name sets the key, so the two
    never differ (a Core INSERT gives ``name_key`` itself)."""

    name_key: Mapped[str]

    @validates("name")
    def _keep_key(self, _attribute: str, name: str) -> str:
        self.name_key = name_key(name)
        return name


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Player(KeyedName, Base):
    """A player: identity and the fixed facts FIDE's K rules need (birth year).

    ``title`` is the highest title (GM ... WCM); ``w_title`` the woman's title, ``o_title`` the
    arbiter, trainer and organiser titles as FIDE's list prints them (``IA,FT``), ``foa_title``
    the FIDE Online Arena title (AGM ... ACM).

    One identity per name: (``name_key``, ``namesake``) is unique. The first player of a name is
    namesake 0; another person of the same name, registered as such (``player add --new``, an
    import or a FIDE list telling them apart by birth year or FIDE id), gets the next number
    (``services.players.next_namesake``). Two registrations of one name that each believed it
    was the first are refused by the database.
    """

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("name_key", "namesake"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    #: ``ledger.names.name_key(name)``, kept by ``KeyedName``: how names are matched and sorted;
    #: the unique constraint with ``namesake`` indexes it.
    name_key: Mapped[str] = mapped_column(String(KEY_LENGTH))
    #: 0 for the first player of a name key, 1, 2 ... for the namesakes registered after them.
    namesake: Mapped[int] = mapped_column(default=0, server_default="0")
    fide_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    birth_year: Mapped[int | None]
    sex: Mapped[str | None] = mapped_column(String(1))
    federation: Mapped[str | None] = mapped_column(String(3))
    title: Mapped[str | None] = mapped_column(String(4))
    w_title: Mapped[str | None] = mapped_column(String(4))
    o_title: Mapped[str | None] = mapped_column(String(30))
    foa_title: Mapped[str | None] = mapped_column(String(4))
    registered_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_utcnow)


class PlayerEntry(Base):
    """The rating history a player brings into the ledger, in force from a rating period on.

    ``effective_from`` is the period (``YYYY-MM``) whose list first carries ``rating``; NULL means
    in force from the start. ``prior_games`` NULL means unknown (treated as established).
    """

    __tablename__ = "player_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    effective_from: Mapped[str | None] = mapped_column(String(7))
    rating: Mapped[int | None]
    prior_games: Mapped[int | None]
    reached_2400: Mapped[bool] = mapped_column(default=False)
    reached_2300: Mapped[bool] = mapped_column(default=False)
    source: Mapped[str] = mapped_column(String(200))
    recorded_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_utcnow)


class Event(KeyedName, Base):
    """A tournament or match. Its games belong to the period of its end date. One event per
    name key (``ledger.names.name_key``: case, accents and punctuation aside) and start date."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("name_key", "start_date"),)

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


class Game(Base):
    """One recorded game. ``result`` is a ``ledger.domain.Result`` value; ``played`` is False when
    the game lasted less than one move each. ``period`` is the rating period it belongs to.

    Its natural key, (``event_id``, ``round_key``, ``white_id``, ``black_id``), is unique: one
    game of an event's round between two players is recorded once, whichever way its round is
    written. Games without an event or a round (NULL) are not constrained by it."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("white_id <> black_id", name="different_players"),
        Index("ix_games_period", "period"),
        UniqueConstraint("event_id", "round_key", "white_id", "black_id"),
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
    recorded_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_utcnow)

    @validates("round")
    def _keep_round_key(self, _attribute: str, label: str | None) -> str | None:
        self.round_key = round_key(label)
        return label


class ImportedFile(Base):
    """A file imported into the ledger, by the SHA-256 of its bytes: importing the same file
    again adds nothing. ``games`` recorded and ``players`` registered by that import."""

    __tablename__ = "imported_files"

    id: Mapped[int] = mapped_column(primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    file_name: Mapped[str] = mapped_column(String(500))
    format: Mapped[str] = mapped_column(String(20))
    imported_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_utcnow)
    games: Mapped[int]
    players: Mapped[int]


class RatingPeriod(Base):
    """A closed rating period and the rule edition it was rated under."""

    __tablename__ = "periods"

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    edition: Mapped[str] = mapped_column(String(7))
    closed_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_utcnow)


class PeriodResult(Base):
    """One player's result for one closed period (written once, never updated)."""

    __tablename__ = "period_results"

    period: Mapped[str] = mapped_column(ForeignKey("periods.period"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    rating_before: Mapped[int]
    games: Mapped[int]
    score_halves: Mapped[int]
    expected_hundredths: Mapped[int]
    k: Mapped[int]
    k_before_cap: Mapped[int]
    k_reason: Mapped[str] = mapped_column(String(20))
    change_hundredths: Mapped[int]
    change: Mapped[int]
    rating_after: Mapped[int]


class PeriodGame(Base):
    """How one game entered one player's period result (the audit trail of a rating)."""

    __tablename__ = "period_games"
    __table_args__ = (
        Index("ix_period_games_period_player", "period", "player_id"),
    )

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    period: Mapped[str] = mapped_column(ForeignKey("periods.period"))
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    own_rating: Mapped[int]
    opponent_rating: Mapped[int]
    difference: Mapped[int]
    counted_difference: Mapped[int]
    expected_hundredths: Mapped[int]
    score_halves: Mapped[int]


class RatingAdjustment(Base):
    """A change a published list made outside any game: the 1 March 2024 raise of every rating
    below 2000 (written once by the close that publishes that list, never updated)."""

    __tablename__ = "rating_adjustments"

    period: Mapped[str] = mapped_column(ForeignKey("periods.period"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    rating_before: Mapped[int]
    adjustment: Mapped[int]
    rating_after: Mapped[int]
    rule: Mapped[str] = mapped_column(String(100))


class InitialRating(Base):
    """An unrated player's initial rating Ru as one close computed it from their pool (FIDE B.02
    §8.2; written once, never updated). A row whose ``published`` is False (Ru below the floor)
    leaves the player unrated and their pool growing. Ra is (``opponents_sum`` + 1800 x
    ``hypothetical``) / (``games`` + ``hypothetical``); ``rating`` is Ru after the ``cap``."""

    __tablename__ = "initial_ratings"

    period: Mapped[str] = mapped_column(ForeignKey("periods.period"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    method: Mapped[str] = mapped_column(String(20))
    games: Mapped[int]
    opponents_sum: Mapped[int]
    score_halves: Mapped[int]
    hypothetical: Mapped[int]
    p_hundredths: Mapped[int]
    dp: Mapped[int]
    bonus: Mapped[int]
    ru: Mapped[int]
    cap: Mapped[int | None]
    rating: Mapped[int]
    floor: Mapped[int]
    published: Mapped[bool]
    disregarded: Mapped[int]


class InitialRatingGame(Base):
    """One game of the pool an initial rating was computed from (the audit trail of Ru)."""

    __tablename__ = "initial_rating_games"

    period: Mapped[str] = mapped_column(ForeignKey("periods.period"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True, index=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    opponent_rating: Mapped[int]
    score_halves: Mapped[int]


class RatingFloorDrop(Base):
    """A rating that fell below the floor at a close (1400; 1000 before March 2024): the player is
    unrated from the list that close publishes; their rated-games count is kept."""

    __tablename__ = "rating_floor_drops"

    period: Mapped[str] = mapped_column(ForeignKey("periods.period"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    rating: Mapped[int]
    floor: Mapped[int]


class ListRating(Base):
    """A player's rating as printed on a FIDE rating list (``ledger import --format fide-list``):
    published rating (None: unrated), games in the list's period and K as printed, the list's
    flag (``i``, ``w``, ``wi`` ...). Kept for comparison only: the ledger derives K by its own
    rules. One row per player, list date and pool (standard, rapid or blitz)."""

    __tablename__ = "list_ratings"
    __table_args__ = (
        UniqueConstraint("player_id", "list_date", "pool"),
        CheckConstraint("pool IN ('standard', 'rapid', 'blitz')", name="pool"),
        Index("ix_list_ratings_list_date_pool", "list_date", "pool"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    list_date: Mapped[dt.date] = mapped_column(Date)
    pool: Mapped[str] = mapped_column(String(8))
    rating: Mapped[int | None]
    games: Mapped[int | None]
    k: Mapped[int | None]
    flag: Mapped[str | None] = mapped_column(String(4))
    source: Mapped[str] = mapped_column(String(500))
    recorded_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_utcnow)
