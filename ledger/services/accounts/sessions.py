"""Sessions kept on the server (issue 23; OWASP ASVS 5.0 level 1): a session is a random
256-bit token (``secrets.token_urlsafe(32)``: 43 characters) that only the browser's cookie
holds; ``web_sessions`` keeps its SHA-256 (hex), so a copy of the database logs nobody in.

A session ends ``SESSION_HOURS`` after it began, however busy (an absolute limit: no idle
timeout, which would mean a write on every page read), at logout, when its user is disabled and
when they change their password. Sessions past their end are deleted at the next login of
anyone.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ledger.db.models.accounts import User, WebSession
from ledger.db.models.base import utcnow
from ledger.domain import Actor
from ledger.services.accounts.users import Account, account_of
from ledger.services.core.audit import record_change
from ledger.services.core.session import transaction

#: How long a session lasts from its login, in hours (a club evening, or a working day).
SESSION_HOURS = 12
#: The same, as a ``timedelta`` (and the cookie's ``Max-Age``: ``SESSION_SECONDS``).
SESSION_LENGTH = dt.timedelta(hours=SESSION_HOURS)
SESSION_SECONDS = SESSION_HOURS * 3600


def token_digest(token: str) -> str:
    """The SHA-256 of ``token`` (its UTF-8 bytes), 64 hex digits: what ``web_sessions``
    keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def start_session(session: Session, user: User, address: str | None) -> str:
    """A new session of ``user`` from ``address``, inside the caller's transaction: its token
    (new, random: a session is never taken over from before the login), of which only the
    digest is written; it ends ``SESSION_LENGTH`` from now. Sessions past their end, anyone's,
    are deleted."""
    now = utcnow()
    session.execute(delete(WebSession).where(WebSession.expires_at <= now))
    token = secrets.token_urlsafe(32)
    session.add(WebSession(token_sha256=token_digest(token), user_id=user.id, created_at=now,
                           expires_at=now + SESSION_LENGTH,
                           address=None if address is None else address[:64]))
    session.flush()
    return token


def _live(session: Session, token: str) -> tuple[WebSession, User] | None:
    row = session.execute(
        select(WebSession, User).join(User, User.id == WebSession.user_id)
        .where(WebSession.token_sha256 == token_digest(token))).one_or_none()
    if row is None:
        return None
    web_session, user = row
    if web_session.expires_at <= utcnow() or user.disabled:
        return None
    return web_session, user


def account_for_token(engine: Engine, token: str | None) -> Account | None:
    """The user whose live session ``token`` is (the cookie's value); None for no token, an
    unknown or ended one, one past its end, or a disabled user's. Only reads."""
    if not token:
        return None
    with transaction(engine, write=False) as session:
        found = _live(session, token)
        return None if found is None else account_of(found[1])


def end_session(engine: Engine, actor: Actor, token: str | None) -> Account | None:
    """End the session ``token`` (logout, audited ``user.logout``): its row deleted, so the
    cookie, replayed, logs nobody in. Its user, or None when it was no live session (nothing
    written)."""
    if not token:
        return None
    with transaction(engine) as session:
        found = _live(session, token)
        session.execute(delete(WebSession).where(WebSession.token_sha256 == token_digest(token)))
        if found is None:
            return None
        record_change(session, actor, "user.logout", "user", found[1].id)
        return account_of(found[1])
