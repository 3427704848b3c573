"""The rating periods and what their closes derive: each close or re-rating of a period
(``period_revisions``), the pointer to a closed period's current revision (``periods``), and the
rows every revision writes once and never updates (``period_results``, ``period_audits``,
``rating_adjustments``, ``initial_ratings``, ``initial_rating_games``, ``rating_floor_drops``,
``list_entries``), each keyed by ``(period, pool, revision)`` (revision 0013: revision numbers
per period and pool); and the corrections carried into a later period
(``carried_corrections``)."""

import datetime as dt

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ledger.db.models.base import POOL_CHECK, Base, pool_column, utcnow
from ledger.domain import STANDARD


class PeriodRevision(Base):
    """One close or re-rating of a period in one pool (docs/CORRECTIONS.md §3): the rule
    ``edition`` it used, the ``change_id`` that computed it (its facts are the facts as of that
    change), ``reason``, when (``closed_at``, UTC) and ``superseded_by_change`` (None while
    current). Numbered per period and pool: the first close of a period's blitz list is
    revision 1 whatever the other pools did (revision 0013)."""

    __tablename__ = "period_revisions"

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    #: The pool the revision rated (docs/RULES.md §9).
    pool: Mapped[str] = mapped_column(String(8), primary_key=True, default=STANDARD,
                                      server_default=STANDARD)
    revision: Mapped[int] = mapped_column(primary_key=True)
    edition: Mapped[str] = mapped_column(String(7))
    change_id: Mapped[int] = mapped_column(ForeignKey("changes.id"))
    reason: Mapped[str | None] = mapped_column(Text)
    closed_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    superseded_by_change: Mapped[int | None] = mapped_column(ForeignKey("changes.id"))
    #: The SHA-256 of the list it published (its ``list_entries``: ``services.core.chain``,
    #: revision 0015); None only until the transaction that writes it commits.
    digest: Mapped[str | None] = mapped_column(String(64))

    __table_args__ = (CheckConstraint(POOL_CHECK, name="pool"),
                      Index("ix_period_revisions_change_id", "change_id"))


class RatingPeriod(Base):
    """A closed rating period of one pool: the pointer to its current revision. A period is
    closed in a pool exactly when it has a row here for that pool; ``period reopen`` removes it
    (the revision's rows stay). Before revision 0009 every row was the standard pool's."""

    __tablename__ = "periods"
    __table_args__ = (ForeignKeyConstraint(["period", "pool", "revision"],
                                           ["period_revisions.period", "period_revisions.pool",
                                            "period_revisions.revision"]),
                      CheckConstraint(POOL_CHECK, name="pool"))

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    pool: Mapped[str] = mapped_column(String(8), primary_key=True, default=STANDARD,
                                      server_default=STANDARD)
    revision: Mapped[int]


def _of_revision() -> ForeignKeyConstraint:
    """The foreign key of a derived row to its ``period_revisions`` row."""
    return ForeignKeyConstraint(["period", "pool", "revision"],
                                ["period_revisions.period", "period_revisions.pool",
                                 "period_revisions.revision"])


def _pool_key() -> Mapped[str]:
    """The ``pool`` key column of a derived row: the pool its revision rated (rows written
    before revision 0013 were given theirs by it)."""
    return mapped_column(String(8), primary_key=True, server_default=STANDARD)


class PeriodResult(Base):
    """One player's result for one revision of a closed period (written once, never updated).

    ``change_hundredths`` is the exact change, K x sum(S - PD) plus ``carried_hundredths``: the
    carried corrections (``carried_corrections``) the close added before the one rounding."""

    __tablename__ = "period_results"
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    pool: Mapped[str] = _pool_key()
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
    pool: Mapped[str] = _pool_key()
    revision: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    sides: Mapped[bytes] = mapped_column(LargeBinary)


class RatingAdjustment(Base):
    """A change a published list made outside any game: the 1 March 2024 raise of every rating
    below 2000 (written once by the close that publishes that list, never updated)."""

    __tablename__ = "rating_adjustments"
    __table_args__ = (_of_revision(),)

    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    pool: Mapped[str] = _pool_key()
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
    pool: Mapped[str] = _pool_key()
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
    pool: Mapped[str] = _pool_key()
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
    pool: Mapped[str] = _pool_key()
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
    pool: Mapped[str] = _pool_key()
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
    ``origin_period`` (as rated by ``origin_revision`` of ``origin_pool``), added before the one
    rounding by the close of ``applies_in`` in that pool. Ignored once the origin period's
    current revision in that pool is another one."""

    __tablename__ = "carried_corrections"
    __table_args__ = (
        ForeignKeyConstraint(["origin_period", "origin_pool", "origin_revision"],
                             ["period_revisions.period", "period_revisions.pool",
                              "period_revisions.revision"]),
        UniqueConstraint("change_id", "player_id", "origin_period"),
        Index("ix_carried_corrections_applies_in", "applies_in"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    change_id: Mapped[int] = mapped_column(ForeignKey("changes.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    origin_period: Mapped[str] = mapped_column(String(7))
    origin_pool: Mapped[str] = pool_column()
    origin_revision: Mapped[int]
    applies_in: Mapped[str] = mapped_column(String(7))
    hundredths: Mapped[int]
