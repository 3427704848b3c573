"""The web's accounts (``ledger serve``, issue 23): who may log in and with which role
(``users``), the sessions kept on the server (``web_sessions``) and the login attempts the
throttle counts (``login_attempts``).

Nothing here is a fact of the ledger: the close never reads these tables. A user's password is
kept only as its Argon2id hash (``argon2-cffi``'s PHC string); a session only as the SHA-256 of
its random token, so a copy of the database logs nobody in.
"""

import datetime as dt

from sqlalchemy import Boolean, CheckConstraint, DateTime, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ledger.db.models.base import Base, utcnow

#: The roles, lowest first (``web.access`` says what each may do).
ROLES = ("reporter", "officer", "admin")


class User(Base):
    """One account of the web face. ``name`` is what is typed at ``/login`` (unique, compared
    as typed after NFC and case folding: ``name_key``); ``role`` one of ``ROLES``;
    ``password_hash`` the Argon2id PHC string; ``must_change_password`` for a one-time password
    (``ledger user add --one-time``) until the user sets their own; ``disabled`` refuses every
    login and ended every session when it was set."""

    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('reporter', 'officer', 'admin')", name="role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(200), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(Text)
    must_change_password: Mapped[bool] = mapped_column(Boolean, default=False)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    password_changed_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class WebSession(Base):
    """A logged-in session, kept on the server: the cookie holds a random 256-bit token, this
    row only its SHA-256 (``token_sha256``, hex). Logging out, disabling the user or changing
    their password deletes the row; ``expires_at`` (UTC) ends it otherwise."""

    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime)
    address: Mapped[str | None] = mapped_column(String(64))


class LoginAttempt(Base):
    """One login tried at ``/login``: the name typed (its key), the client's address, when, and
    whether it succeeded. The throttle counts the failures per account and per address in a
    window (``services.accounts``)."""

    __tablename__ = "login_attempts"
    __table_args__ = (Index("ix_login_attempts_name_key_at", "name_key", "at"),
                      Index("ix_login_attempts_address_at", "address", "at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    name_key: Mapped[str] = mapped_column(String(200))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    succeeded: Mapped[bool] = mapped_column(Boolean)
