"""The audit log (``changes``): one row a change, and the change sequence every fact and every
derived row points at (docs/CORRECTIONS.md §1); and the mark of a copy not yet verified
(``unverified_copies``, ``ledger db copy``)."""

import datetime as dt

from sqlalchemy import CheckConstraint, DateTime, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ledger.db.models.base import Base, utcnow


class Change(Base):
    """One entry of the audit log, and the change sequence (docs/CORRECTIONS.md §1): ``id``
    increases and is never reused; append-only, written in the transaction of what it records.

    ``by`` who asked, ``command`` the command line as typed (or the service's name when called
    from code), ``action`` (``player.add``, ``period.close`` ...), ``entity`` and ``entity_id``
    what it changed (``game`` 12, ``period`` 2026-03, ``file`` sha256), ``before``/``after`` JSON
    text (None for a creation; a summary for a bulk write), ``reason`` (required for corrections).

    ``hash``: the SHA-256 of the entry's content, of the facts it wrote and of ``prev_hash``,
    the hash of the entry before it (revision 0015; ``services.core.chain``, docs/VERIFY.md);
    None only until the transaction that writes the entry commits.
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
    hash: Mapped[str | None] = mapped_column(String(64))
    prev_hash: Mapped[str | None] = mapped_column(String(64))


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
