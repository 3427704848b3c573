"""Logging in and changing one's password at the web's forms (issue 23), with the login
throttle (OWASP ASVS 5.0 level 1).

The throttle: after ``MAX_FAILURES`` failed logins for one name (its key) or from one address
within ``WINDOW``, every further attempt is refused, even with the right password, until the
oldest of those failures is ``WINDOW`` old. Refused attempts are not counted (they would push
the time to try again further off with every try), and attempts older than the window are
deleted at the next login (the throttle counts nothing else); every attempt is in the audit log
(``user.login``, ``user.login-failed``, ``user.login-throttled``), ``by`` the name tried.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ledger.db.models.accounts import LoginAttempt, User
from ledger.db.models.base import utcnow
from ledger.domain import MAX_ACTOR, Actor
from ledger.errors import InvalidInput, NotFound
from ledger.services.accounts import passwords
from ledger.services.accounts.sessions import start_session
from ledger.services.accounts.users import Account, account_of, name_key, set_password
from ledger.services.core.audit import record_change
from ledger.services.core.session import transaction

#: The failed logins, per name or per address, after which logins are refused for a while.
MAX_FAILURES = 10
#: The window the failures are counted in.
WINDOW = dt.timedelta(minutes=15)


@dataclass(frozen=True)
class Login:
    """What a login came to: ``account`` and its new session's ``token`` when it succeeded;
    neither when the name or the password was wrong (which, not said); ``retry_at`` (UTC,
    naive) and ``wait_seconds`` (until then, rounded up, at least 1) when it was refused by
    the throttle, untried."""

    account: Account | None = None
    token: str | None = None
    retry_at: dt.datetime | None = None
    wait_seconds: int | None = None


def tried_by(name: str) -> str:
    """The name tried at a login as the audit log's ``by``: its printable characters, at most
    ``MAX_ACTOR``; ``(no name)`` for none."""
    shown = "".join(c for c in name if c.isprintable()).strip()[:MAX_ACTOR]
    return shown or "(no name)"


def _retry_at(times: list[dt.datetime]) -> dt.datetime | None:
    """When a throttle counting the failures at ``times`` (within the window) lets logins in
    again; None when it does not hold them (fewer than ``MAX_FAILURES``). With n failures in
    the window, the (n - 9)th oldest must leave it."""
    if len(times) < MAX_FAILURES:
        return None
    return sorted(times)[len(times) - MAX_FAILURES] + WINDOW


class Throttled(InvalidInput):
    """A password check refused by the throttle (``change_password``): ``retry_at`` (UTC,
    naive) and ``wait_seconds`` as ``Login``'s."""

    def __init__(self, retry_at: dt.datetime, wait_seconds: int) -> None:
        super().__init__(f"too many wrong passwords: try again after {retry_at:%H:%M} UTC")
        self.retry_at = retry_at
        self.wait_seconds = wait_seconds


def _held(session: Session, key: str, address: str, now: dt.datetime) -> dt.datetime | None:
    """When the throttle lets ``key`` from ``address`` try again (the later of the name's and
    the address's), None when it holds neither."""
    failed = LoginAttempt.succeeded.is_(False), LoginAttempt.at > now - WINDOW
    return max(filter(None, (
        _retry_at(list(session.scalars(select(LoginAttempt.at).where(
            LoginAttempt.name_key == key, *failed)))),
        _retry_at(list(session.scalars(select(LoginAttempt.at).where(
            LoginAttempt.address == address, *failed)))))), default=None)


def _wait(retry_at: dt.datetime, now: dt.datetime) -> int:
    return max(1, math.ceil((retry_at - now).total_seconds()))


def _attempted(session: Session, key: str, address: str, now: dt.datetime, ok: bool) -> None:
    """Record one attempt; those the throttle no longer counts go (the audit log keeps every
    attempt)."""
    session.execute(delete(LoginAttempt).where(LoginAttempt.at <= now - WINDOW))
    session.add(LoginAttempt(name_key=key, address=address, at=now, succeeded=ok))


def log_in(engine: Engine, name: str, password: str, address: str, command: str) -> Login:
    """Try ``name`` with ``password`` from ``address`` (``command``: how the audit log names
    the request, e.g. ``web 203.0.113.9 POST /login``).

    Refused untried (``retry_at``) when the throttle holds the name or the address; else the
    password is checked (Argon2id; the same time spent for a name nobody has), the attempt
    recorded, and on success a new session begins (``Login.token``) and a hash made with old
    parameters is made again. A disabled user's login fails like a wrong password."""
    key = name_key(name)[:200]
    address = address[:64]
    actor = Actor(tried_by(name), command)
    now = utcnow()
    with transaction(engine, write=False) as session:
        retry = _held(session, key, address, now)
        user = session.scalars(select(User).where(User.name_key == key)).one_or_none()
        stored = None if user is None or user.disabled else user.password_hash
    ok = False
    if retry is None:
        if stored is None:
            passwords.waste_time(password)
        ok = stored is not None and passwords.verify(stored, password)
    with transaction(engine) as session:
        if retry is not None:
            record_change(session, actor, "user.login-throttled", "user", key,
                          after={"retry_at": retry})
            return Login(retry_at=retry, wait_seconds=_wait(retry, now))
        user = session.scalars(select(User).where(User.name_key == key)).one_or_none()
        ok = ok and user is not None and not user.disabled and user.password_hash == stored
        _attempted(session, key, address, now, ok)
        if not ok or user is None:
            record_change(session, actor, "user.login-failed", "user",
                          key if user is None else user.id)
            return Login()
        if passwords.needs_rehash(user.password_hash):
            user.password_hash = passwords.hash_password(password)
        token = start_session(session, user, address)
        record_change(session, actor, "user.login", "user", user.id)
        return Login(account=account_of(user), token=token)


def change_password(engine: Engine, actor: Actor, user_id: int, current: str, new: str,
                    address: str) -> str:
    """The user ``user_id`` changes their password from ``current`` to ``new``, from
    ``address``: every session of theirs ends and a new one begins for the browser that asked;
    its token.

    ``current`` is checked as a login checks it: a wrong one counts as a failed login of the
    user (audited ``user.password-failed``), and the throttle holding the user or the address
    refuses it untried (``Throttled``). Raises ``InvalidInput`` (nothing else changed) when
    ``current`` is not their password, ``new`` breaks the rules (``passwords.check_rules``) or
    is ``current`` again; ``NotFound`` for a user gone or disabled."""
    address = address[:64]
    now = utcnow()
    with transaction(engine, write=False) as session:
        user = session.get(User, user_id)
        stored = None if user is None or user.disabled else user.password_hash
        key = "" if user is None else user.name_key
        retry = _held(session, key, address, now)
    if stored is None:
        raise NotFound("no such user (or disabled): log in again")
    if retry is not None:
        raise Throttled(retry, _wait(retry, now))
    if not passwords.verify(stored, current):
        with transaction(engine) as session:
            _attempted(session, key, address, now, False)
            record_change(session, actor, "user.password-failed", "user", user_id)
        raise InvalidInput("current password: not right")
    if new == current:
        raise InvalidInput("new password: the same as the current one; choose another")
    passwords.check_rules(new)
    with transaction(engine) as session:
        user = session.get(User, user_id)
        if user is None or user.password_hash != stored:
            raise InvalidInput("current password: changed meanwhile; log in again")
        set_password(session, actor, user, new)
        return start_session(session, user, address)

