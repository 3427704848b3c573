"""Results submitted on the web and waiting for an officer (``ledger serve``, issue 23):
``submissions``. A pending submission is never rated: its games become facts of the ledger
only when an officer accepts it (then ``change_id`` is the import's change).
"""

import datetime as dt

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ledger.db.models.base import Base, utcnow

#: A submission's states, in the order it passes them.
SUBMISSION_STATES = ("pending", "accepted", "rejected", "withdrawn")


class Submission(Base):
    """One submission: a file as submitted (``content``: the bytes, ``sha256`` of them,
    ``filename`` as the reporter's browser named it, ``format`` trf|pgn|csv) or games typed in a
    form (``format`` ``form``: ``content`` is their JSON), by ``user_id`` at ``submitted_at``.

    ``options`` (JSON text): the import's options (event name, pool, ...); ``findings`` (JSON
    text): the errors, warnings and notes of its last validation, and the integrity checks.
    ``state`` one of ``SUBMISSION_STATES``; ``reviewed_by``/``reviewed_at`` the officer who
    accepted or rejected it, ``reason`` why it was rejected (the reporter sees it);
    ``change_id`` the change that recorded its games; ``replaces`` the accepted submission a
    corrected file replaces (reviewed as ``import --replace``'s difference)."""

    __tablename__ = "submissions"
    __table_args__ = (CheckConstraint(
        "state IN ('pending', 'accepted', 'rejected', 'withdrawn')", name="state"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    submitted_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    filename: Mapped[str | None] = mapped_column(String(255))
    format: Mapped[str] = mapped_column(String(10))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    sha256: Mapped[str] = mapped_column(String(64))
    options: Mapped[str | None] = mapped_column(Text)
    findings: Mapped[str | None] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(10), default="pending", index=True)
    reviewed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    reviewed_at: Mapped[dt.datetime | None] = mapped_column(DateTime)
    reason: Mapped[str | None] = mapped_column(Text)
    change_id: Mapped[int | None] = mapped_column()
    replaces: Mapped[int | None] = mapped_column(ForeignKey("submissions.id"))
