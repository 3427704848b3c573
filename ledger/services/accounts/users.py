"""The web's users (issue 23): adding one with a role, finding one by the name typed, listing
them, changing a role, disabling one and setting a password. Each change is one transaction
with its audit entry (``user.add``, ``user.role``, ``user.disable``, ``user.password``);
before/after never hold a password or its hash.

``Account`` is what the faces get: the row's values, no hash.
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ledger.db.models.accounts import ROLES, User, WebSession
from ledger.db.models.base import utcnow
from ledger.domain import Actor, described_character, find_control_character
from ledger.errors import InvalidInput, NotFound
from ledger.services.accounts import passwords
from ledger.services.core.audit import record_change
from ledger.services.core.session import transaction

#: The longest name a user may have (the column holds 100).
MAX_NAME = 100


def one_time_password() -> str:
    """A random password to give a new user once (``ledger user add --one-time``): 20
    characters of base64url, 120 random bits."""
    return secrets.token_urlsafe(15)


@dataclass(frozen=True)
class Account:
    """A user as the faces see them: ``id``, ``name`` (as typed when added), ``role`` (one of
    ``ROLES``), ``must_change_password`` (a one-time password not yet replaced), ``disabled``."""

    id: int
    name: str
    role: str
    must_change_password: bool
    disabled: bool

    def as_json(self) -> dict[str, object]:
        """The ``ledger user list --json`` shape of the account."""
        return {"id": self.id, "name": self.name, "role": self.role,
                "must_change_password": self.must_change_password, "disabled": self.disabled}


def account_of(user: User) -> Account:
    """The ``Account`` of a ``users`` row."""
    return Account(user.id, user.name, user.role, bool(user.must_change_password),
                   bool(user.disabled))


def name_key(name: str) -> str:
    """How a user's name is compared: NFC, case folded, outer spaces off (``"  ÉVA "`` and
    ``"éva"`` are one user; ``"Eva"`` another)."""
    return unicodedata.normalize("NFC", name).strip().casefold()


def check_name(name: str) -> str:
    """``name`` as it will be kept (NFC, outer spaces off). Raises ``InvalidInput`` for an
    empty name, one over ``MAX_NAME`` characters, or one holding a control character."""
    kept = unicodedata.normalize("NFC", name).strip()
    if not kept:
        raise InvalidInput("name: empty; a user needs a name to log in with")
    if len(kept) > MAX_NAME:
        raise InvalidInput(f"name: {len(kept)} characters; at most {MAX_NAME}")
    control = find_control_character(kept)
    if control is not None:
        raise InvalidInput(f"name: holds {described_character(control.group())}")
    return kept


def check_role(role: str) -> str:
    """``role`` when it is one of ``ROLES``; else ``InvalidInput`` naming them."""
    if role not in ROLES:
        raise InvalidInput(f"role: {role!r} is not a role; one of {', '.join(ROLES)}")
    return role


def user_row(session: Session, name: str) -> User:
    """The ``users`` row of ``name`` (by its key). Raises ``NotFound`` when there is none."""
    user = session.scalars(select(User).where(User.name_key == name_key(name))).one_or_none()
    if user is None:
        raise NotFound(f"no user {name!r}: ledger user list shows them")
    return user


def add_user(engine: Engine, actor: Actor, name: str, role: str, password: str, *,
             one_time: bool = False) -> Account:
    """Add the user ``name`` with ``role`` and ``password`` (hashed with Argon2id);
    ``one_time``: the password must be changed at the first login. Audited ``user.add``.

    Raises ``InvalidInput`` (nothing written) for a bad name or role, a password against the
    rules (``passwords.check_rules``), or a name whose key another user has."""
    kept = check_name(name)
    check_role(role)
    passwords.check_rules(password)
    digest = passwords.hash_password(password)
    with transaction(engine) as session:
        key = name_key(kept)
        taken = session.scalars(select(User).where(User.name_key == key)).one_or_none()
        if taken is not None:
            raise InvalidInput(f"name: there is a user {taken.name!r} already "
                               "(names are compared ignoring case)")
        user = User(name=kept, name_key=key, role=role, password_hash=digest,
                    must_change_password=one_time, disabled=False)
        session.add(user)
        session.flush()
        record_change(session, actor, "user.add", "user", user.id,
                      after={"name": kept, "role": role, "one_time": one_time})
        return account_of(user)


def list_users(engine: Engine) -> list[Account]:
    """Every user, in the order added."""
    with transaction(engine, write=False) as session:
        return [account_of(u) for u in session.scalars(select(User).order_by(User.id))]


def find_user(engine: Engine, name: str) -> Account:
    """The user ``name`` (compared by ``name_key``). Raises ``NotFound``."""
    with transaction(engine, write=False) as session:
        return account_of(user_row(session, name))


def set_role(engine: Engine, actor: Actor, name: str, role: str) -> Account:
    """Give ``name`` the role ``role`` (audited ``user.role``, before and after). Raises
    ``InvalidInput`` for an unknown role, ``NotFound`` for an unknown user; nothing written."""
    check_role(role)
    with transaction(engine) as session:
        user = user_row(session, name)
        before = user.role
        user.role = role
        record_change(session, actor, "user.role", "user", user.id,
                      before={"role": before}, after={"role": role})
        return account_of(user)


def end_sessions(session: Session, user_id: int) -> int:
    """Delete every session of the user ``user_id``; how many there were."""
    ended = session.execute(delete(WebSession).where(WebSession.user_id == user_id))
    return int(ended.rowcount or 0)  # type: ignore[attr-defined]


def disable_user(engine: Engine, actor: Actor, name: str) -> tuple[Account, int]:
    """Disable ``name``: no login any more, and every session of theirs ended (audited
    ``user.disable`` with how many); the account and how many sessions ended. Raises
    ``NotFound`` for an unknown user and ``InvalidInput`` for one disabled already; nothing
    written."""
    with transaction(engine) as session:
        user = user_row(session, name)
        if user.disabled:
            raise InvalidInput(f"user {user.name!r} is disabled already")
        user.disabled = True
        ended = end_sessions(session, user.id)
        record_change(session, actor, "user.disable", "user", user.id,
                      before={"disabled": False}, after={"disabled": True, "sessions_ended": ended})
        return account_of(user), ended


def enable_user(engine: Engine, actor: Actor, name: str) -> Account:
    """Let a disabled user log in again (audited ``user.enable``); their old sessions stay
    ended. Raises ``NotFound`` for an unknown user and ``InvalidInput`` for one not disabled;
    nothing written."""
    with transaction(engine) as session:
        user = user_row(session, name)
        if not user.disabled:
            raise InvalidInput(f"user {user.name!r} is not disabled")
        user.disabled = False
        record_change(session, actor, "user.enable", "user", user.id,
                      before={"disabled": True}, after={"disabled": False})
        return account_of(user)


def set_password(session: Session, actor: Actor, user: User, password: str, *,
                 one_time: bool = False, action: str = "user.password") -> int:
    """Give ``user`` the new ``password`` (checked against the rules: ``InvalidInput``),
    one-time or not, and end every session of theirs (audited ``action``, with how many ended
    and whether one-time), inside the caller's transaction; how many sessions ended."""
    passwords.check_rules(password)
    user.password_hash = passwords.hash_password(password)
    user.must_change_password = one_time
    user.password_changed_at = utcnow()
    ended = end_sessions(session, user.id)
    record_change(session, actor, action, "user", user.id,
                  after={"sessions_ended": ended} | ({"one_time": True} if one_time else {}))
    return ended


def reset_password(engine: Engine, actor: Actor, name: str, password: str, *,
                   one_time: bool = False) -> tuple[Account, int]:
    """Give ``name`` a new password chosen for them (a forgotten one: ``ledger user password``),
    ``one_time`` to be changed at their next login; every session of theirs ends (audited
    ``user.password-reset``). The account and how many sessions ended. Raises ``NotFound``
    for an unknown user, ``InvalidInput`` for a password against the rules; nothing written."""
    passwords.check_rules(password)
    with transaction(engine) as session:
        user = user_row(session, name)
        ended = set_password(session, actor, user, password, one_time=one_time,
                             action="user.password-reset")
        return account_of(user), ended
