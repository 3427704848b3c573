"""The players: their identities (``players``), the rating history each brings
(``player_entries``), their earlier identities (``player_revisions``) and their ratings as FIDE's
lists print them (``list_ratings``, kept for comparison only)."""

import datetime as dt

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ledger.db.models.base import KEY_LENGTH, POOL_CHECK, Base, KeyedName, pool_column, utcnow


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
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"), index=True)
    #: Registered by mistake and withdrawn (``ledger player withdraw``, ``ledger imports
    #: revert``; revision 0012): kept with the audit, on no later list, in no search or page.
    withdrawn: Mapped[bool] = mapped_column(default=False, server_default=false())


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
    change_id: Mapped[int | None] = mapped_column(ForeignKey("changes.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10), default="rating", server_default="rating")
    #: The rating pool the entry is of (docs/RULES.md §9): its rating, prior games and
    #: reached-2400 / 2300 facts count in that pool only.
    pool: Mapped[str] = pool_column()


class PlayerRevision(Base):
    """A player's earlier identity (docs/CORRECTIONS.md §2): what the row held from change
    ``valid_from_change`` (None: change 0) until ``valid_to_change`` replaced it."""

    __tablename__ = "player_revisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    valid_from_change: Mapped[int | None] = mapped_column(ForeignKey("changes.id"), index=True)
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
    withdrawn: Mapped[bool] = mapped_column(default=False, server_default=false())


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
