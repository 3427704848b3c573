"""The ledger's tables as typed SQLAlchemy 2.x models.

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
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, MutableMapping
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    ColumnElement,
    Date,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    LargeBinary,
    MetaData,
    String,
    Text,
    TextClause,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, validates

from ledger.domain import ROUND_KEY_LENGTH, STANDARD, round_key
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


#: The check every ``pool`` column carries (docs/RULES.md §9: standard, rapid, blitz).
POOL_CHECK = "pool IN ('standard', 'rapid', 'blitz')"


def _pool_column() -> Mapped[str]:
    """A ``pool`` column: the rating pool a row belongs to; rows written before revision 0009
    are standard (its server default)."""
    return mapped_column(String(8), default=STANDARD, server_default=STANDARD)


#: A partial index's condition: ``text(...)`` or a column expression.
Where = ColumnElement[bool] | TextClause


class _PostgresqlOnFirstRead(MutableMapping[str, Any]):
    """A partial index's ``dialect_options`` (dialect name -> its options): SQLAlchemy's own
    (``options``, filled as each dialect is read), but that PostgreSQL's get ``where`` on their
    first read (``postgresql_where``), and that PostgreSQL is always listed (so that
    ``dialect_kwargs`` and a copy of the table, ``Table.to_metadata``, have it; listing it loads
    the dialect)."""

    def __init__(self, options: MutableMapping[str, Any], where: Where) -> None:
        self._options = options
        self._where: Where | None = where

    def __getitem__(self, dialect: str) -> Any:
        options = self._options[dialect]  # SQLAlchemy's, made on the first read: loads it
        if dialect == "postgresql" and self._where is not None:
            options["where"], self._where = self._where, None
        return options

    def __setitem__(self, dialect: str, options: Any) -> None:
        self._options[dialect] = options

    def __delitem__(self, dialect: str) -> None:
        del self._options[dialect]

    def __contains__(self, dialect: object) -> bool:
        return dialect == "postgresql" or dialect in self._options

    def __iter__(self) -> Iterator[str]:
        yield from self._options
        if "postgresql" not in self._options:
            yield "postgresql"

    def __len__(self) -> int:
        return len(self._options) + ("postgresql" not in self._options)


class PartialIndex(Index):
    """An ``Index`` over the rows where ``where`` (``Where``) holds, on SQLite and on
    PostgreSQL alike: ``Index(name, *columns, sqlite_where=where, postgresql_where=where,
    **kw)``, read back the same (``dialect_options["postgresql"]["where"]``,
    ``dialect_kwargs["postgresql_where"]``, the PostgreSQL DDL). The PostgreSQL option is given
    when first read, not when the index is declared: giving it then imports SQLAlchemy's
    PostgreSQL dialect (to check the option's name), some 20 ms of the start-up of every command
    on a SQLite ledger, which never uses it. Raises as ``Index`` does."""

    def __init__(self, name: str, *columns: str, where: Where, **kw: Any) -> None:
        self._postgresql_where = where
        super().__init__(name, *columns, sqlite_where=where, **kw)

    @property
    def dialect_options(self) -> Any:
        """SQLAlchemy's ``dialect_options``, PostgreSQL's with ``where`` once read."""
        options = self.__dict__.get("_ledger_dialect_options")
        if options is None:
            options = _PostgresqlOnFirstRead(super().dialect_options, self._postgresql_where)
            self.__dict__["_ledger_dialect_options"] = options
        return options


def utcnow() -> dt.datetime:
    """Now, in UTC without a time zone: how the ledger stores its times."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Player(KeyedName, Base):
    """A player: identity and the fixed facts FIDE's K rules need (birth year).

    ``title`` is the highest title (GM ... WCM); ``w_title`` the woman's title, ``o_title`` the
    arbiter, trainer and organiser titles as FIDE's list prints them (``IA,FT``), ``foa_title``
    the FIDE Online Arena title (AGM ... ACM).

    One identity per name: (``name_key``, ``namesake``) is unique. The first player of a name is
    namesake 0; another person of the same name, registered as such (``player add --new``, an
    import or a FIDE list telling them apart by birth year or FIDE id), gets the next number
    (``services.register.players.next_namesake``). Two registrations of one name that each believed it
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
    registered_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    #: The player this identity was merged into (None: an identity of its own).
    merged_into: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    #: The change that last wrote the row (None: before revision 0006, change 0).
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))


#: ``player_entries.kind``: a rating the player brings (``rating``: registration, an import, a
#: FIDE list), a change of the K history only that leaves the rating in force as it is
#: (``history``: ``player edit --prior-games`` / ``--reached-2400``), or an official correction
#: of a published rating (``correction``: ``player correct-rating``).
ENTRY_KINDS = ("rating", "history", "correction")


class PlayerEntry(Base):
    """The rating history a player brings into the ledger, in force from a rating period on.

    ``effective_from`` is the period (``YYYY-MM``) whose list first carries ``rating``; NULL means
    in force from the start. ``prior_games`` NULL means unknown (treated as established).
    ``kind`` (``ENTRY_KINDS``): a ``history`` entry changes the prior games and reached-2400 /
    2300 facts from its period on and never the rating (its ``rating`` is the one in force when
    it was written, for the record only); a ``correction`` entry is an official correction of
    the rating published by the list of the period before ``effective_from``.
    """

    __tablename__ = "player_entries"
    __table_args__ = (CheckConstraint("kind IN ('rating', 'history', 'correction')",
                                      name="kind"),
                      CheckConstraint(POOL_CHECK, name="pool"))

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    effective_from: Mapped[str | None] = mapped_column(String(7))
    rating: Mapped[int | None]
    prior_games: Mapped[int | None]
    reached_2400: Mapped[bool] = mapped_column(default=False)
    reached_2300: Mapped[bool] = mapped_column(default=False)
    source: Mapped[str] = mapped_column(String(200))
    recorded_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    #: The change that recorded the entry (None: before revision 0006, change 0).
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))
    kind: Mapped[str] = mapped_column(String(10), default="rating", server_default="rating")
    #: The rating pool the entry is of (docs/RULES.md §9): its rating, prior games and
    #: reached-2400 / 2300 facts count in that pool only.
    pool: Mapped[str] = _pool_column()


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
    pool: Mapped[str] = _pool_column()


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
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))
    #: The rating pool of the game (docs/RULES.md §9): standard, rapid or blitz.
    pool: Mapped[str] = _pool_column()
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
    again adds nothing. ``games`` recorded and ``players`` registered by that import."""

    __tablename__ = "imported_files"

    id: Mapped[int] = mapped_column(primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    file_name: Mapped[str] = mapped_column(String(500))
    format: Mapped[str] = mapped_column(String(20))
    imported_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    games: Mapped[int]
    players: Mapped[int]


class Change(Base):
    """One entry of the audit log, and the change sequence (docs/CORRECTIONS.md §1): ``id``
    increases and is never reused; append-only, written in the transaction of what it records.

    ``by`` who asked, ``command`` the command line as typed (or the service's name when called
    from code), ``action`` (``player.add``, ``period.close`` ...), ``entity`` and ``entity_id``
    what it changed (``game`` 12, ``period`` 2026-03, ``file`` sha256), ``before``/``after`` JSON
    text (None for a creation; a summary for a bulk write), ``reason`` (required for corrections).
    """

    __tablename__ = "changes"
    __table_args__ = (Index("ix_changes_entity", "entity", "entity_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    by: Mapped[str] = mapped_column(String(200))
    command: Mapped[str] = mapped_column(Text)
    action: Mapped[str] = mapped_column(String(40))
    entity: Mapped[str] = mapped_column(String(20))
    entity_id: Mapped[str] = mapped_column(String(100))
    before: Mapped[str | None] = mapped_column(Text)
    after: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str | None] = mapped_column(Text)


class GameRevision(Base):
    """A game's earlier values (docs/CORRECTIONS.md §2): what the row held from change
    ``valid_from_change`` (None: change 0) until ``valid_to_change`` replaced it."""

    __tablename__ = "game_revisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    valid_from_change: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))
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
    pool: Mapped[str] = _pool_column()
    unequal_times: Mapped[bool] = mapped_column(default=False, server_default=text("false"))


class PlayerRevision(Base):
    """A player's earlier identity (docs/CORRECTIONS.md §2): what the row held from change
    ``valid_from_change`` (None: change 0) until ``valid_to_change`` replaced it."""

    __tablename__ = "player_revisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    valid_from_change: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))
    valid_to_change: Mapped[int] = mapped_column(ForeignKey("changes.id"))
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(KEY_LENGTH))
    fide_id: Mapped[int | None] = mapped_column(BigInteger)
    birth_year: Mapped[int | None]
    sex: Mapped[str | None] = mapped_column(String(1))
    federation: Mapped[str | None] = mapped_column(String(3))
    title: Mapped[str | None] = mapped_column(String(4))
    w_title: Mapped[str | None] = mapped_column(String(4))
    o_title: Mapped[str | None] = mapped_column(String(30))
    foa_title: Mapped[str | None] = mapped_column(String(4))
    merged_into: Mapped[int | None] = mapped_column(ForeignKey("players.id"))


class PeriodRevision(Base):
    """One close or re-rating of a period (docs/CORRECTIONS.md §3): the rule ``edition`` it used,
    the ``change_id`` that computed it (its facts are the facts as of that change), ``reason``,
    when (``closed_at``, UTC) and ``superseded_by_change`` (None while current)."""

    __tablename__ = "period_revisions"

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
    edition: Mapped[str] = mapped_column(String(7))
    change_id: Mapped[int] = mapped_column(ForeignKey("changes.id"))
    reason: Mapped[str | None] = mapped_column(Text)
    closed_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    superseded_by_change: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))
    #: The pool the revision rated (docs/RULES.md §9). Revision numbers are per period, shared
    #: by its pools, so (period, revision) names one pool's computation and every derived row
    #: keeps its key (docs/DESIGN.md "Rating pools").
    pool: Mapped[str] = _pool_column()

    __table_args__ = (CheckConstraint(POOL_CHECK, name="pool"),)


class RatingPeriod(Base):
    """A closed rating period of one pool: the pointer to its current revision. A period is
    closed in a pool exactly when it has a row here for that pool; ``period reopen`` removes it
    (the revision's rows stay). Before revision 0009 every row was the standard pool's."""

    __tablename__ = "periods"
    __table_args__ = (ForeignKeyConstraint(["period", "revision"],
                                           ["period_revisions.period", "period_revisions.revision"]),
                      CheckConstraint(POOL_CHECK, name="pool"))

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    pool: Mapped[str] = mapped_column(String(8), primary_key=True, default=STANDARD,
                                      server_default=STANDARD)
    revision: Mapped[int]


def _of_revision() -> ForeignKeyConstraint:
    """The foreign key of a derived row to its ``period_revisions`` row."""
    return ForeignKeyConstraint(["period", "revision"],
                                ["period_revisions.period", "period_revisions.revision"])


class PeriodResult(Base):
    """One player's result for one revision of a closed period (written once, never updated).

    ``change_hundredths`` is the exact change, K x sum(S - PD) plus ``carried_hundredths``: the
    carried corrections (``carried_corrections``) the close added before the one rounding."""

    __tablename__ = "period_results"
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
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
    carried_hundredths: Mapped[int] = mapped_column(default=0, server_default="0")


class PeriodAudit(Base):
    """How each game entered one player's period result (the audit trail of a rating), for one
    revision: ``sides`` packs the player's rated game sides in the order the close rated them
    (``ledger.db.audit_pack``: per side game id, opponent id, own and opponent's rating, D,
    counted D, PD in hundredths, score in halves; 32 bytes a side). One row per player rather
    than one per game side (revision 0010: ``period_games`` before it), written once. Every
    value is stored, none derived (own rating is the rating at the event's start, which need
    not be ``period_results.rating_before``)."""

    __tablename__ = "period_audits"
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    sides: Mapped[bytes] = mapped_column(LargeBinary)


class RatingAdjustment(Base):
    """A change a published list made outside any game: the 1 March 2024 raise of every rating
    below 2000 (written once by the close that publishes that list, never updated)."""

    __tablename__ = "rating_adjustments"
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
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
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
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
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True, index=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    opponent_rating: Mapped[int]
    score_halves: Mapped[int]


class RatingFloorDrop(Base):
    """A rating that fell below the floor at a close (1400; 1000 before March 2024): the player is
    unrated from the list that close publishes; their rated-games count is kept."""

    __tablename__ = "rating_floor_drops"
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    rating: Mapped[int]
    floor: Mapped[int]


class ListEntry(Base):
    """One line of the rating list a revision of a period published, as it stood (the
    snapshot, docs/CORRECTIONS.md §3): ``rank`` on the whole list, rating, rated ``games`` in the
    period, K for the next period and its reason, the ``inactive`` flag, and the player's name,
    FIDE id, federation, title, sex and birth year at the close. Never updated."""

    __tablename__ = "list_entries"
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    revision: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rank: Mapped[int]
    rating: Mapped[int]
    games: Mapped[int]
    k: Mapped[int]
    k_reason: Mapped[str] = mapped_column(String(20))
    inactive: Mapped[bool]
    name: Mapped[str] = mapped_column(String(200))
    fide_id: Mapped[int | None] = mapped_column(BigInteger)
    federation: Mapped[str | None] = mapped_column(String(3))
    title: Mapped[str | None] = mapped_column(String(4))
    sex: Mapped[str | None] = mapped_column(String(1))
    birth_year: Mapped[int | None]


class CarriedCorrection(Base):
    """A correction carried into a later period (docs/CORRECTIONS.md §5, ``--in-next-period``):
    the exact difference in hundredths that change ``change_id`` makes to ``player_id``'s change in
    ``origin_period`` (as rated by ``origin_revision``), added before the one rounding by the
    close of ``applies_in``. Ignored once the origin period's current revision is another one."""

    __tablename__ = "carried_corrections"
    __table_args__ = (
        ForeignKeyConstraint(["origin_period", "origin_revision"],
                             ["period_revisions.period", "period_revisions.revision"]),
        UniqueConstraint("change_id", "player_id", "origin_period"),
        Index("ix_carried_corrections_applies_in", "applies_in"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    change_id: Mapped[int] = mapped_column(ForeignKey("changes.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    origin_period: Mapped[str] = mapped_column(String(7))
    origin_revision: Mapped[int]
    applies_in: Mapped[str] = mapped_column(String(7))
    hundredths: Mapped[int]


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
    recorded_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class UnverifiedCopy(Base):
    """This ledger is a copy (``ledger db copy``) that has not been verified yet: one row (id
    1), written in the copy's transaction and deleted once the copy has been read back and
    found the source's. Every command refuses a ledger that has it (``db.revision``); ``db
    copy`` from the source finishes it (``services.admin.copy``). ``source``: the ledger copied,
    as messages name it (no password); ``copied_at``: when the copy committed (UTC)."""

    __tablename__ = "unverified_copies"
    __table_args__ = (CheckConstraint("id = 1", name="one_row"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    source: Mapped[str] = mapped_column(Text)
    copied_at: Mapped[dt.datetime] = mapped_column(DateTime)
