"""Who may do what on the web (issue 23): the one role x action table, and the one place it is
checked (``require``). Every view that reads beyond the public pages or writes anything names
its action with ``@require(ACTION)``; nothing else decides.

The public (no login) may read what the static site shows, live, and the JSON API. The CLI is
not governed by this table: it is the officer's and the admin's tool, with full rights on a
database it can open.

Records are checked apart from actions: a reporter reaches only their own submissions
(``may_see_submission``); a submission they may not see answers 404, not 403, so ids do not
leak.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import abort, g, redirect, request, url_for

from ledger.db.models.accounts import ROLES

F = TypeVar("F", bound=Callable[..., Any])

#: Every action of the web and the roles that may take it (``ROLES``: reporter < officer <
#: admin). Adding a view that reads or writes beyond the public pages means adding its action
#: here; ``tests/web/test_access.py`` drives every route with every role against this table.
ACTIONS: dict[str, frozenset[str]] = {
    # the account itself
    "account.password": frozenset(ROLES),
    # reporters: submit results, see, edit or withdraw their own until reviewed
    "submission.create": frozenset(ROLES),
    "submission.own": frozenset(ROLES),
    # officers: the review queue, accept or reject; close; corrections; the audit log
    "submission.review": frozenset({"officer", "admin"}),
    "period.close": frozenset({"officer", "admin"}),
    "correction.make": frozenset({"officer", "admin"}),
    "audit.read": frozenset({"officer", "admin"}),
    # admins: users and roles
    "user.manage": frozenset({"admin"}),
}


def allowed(role: str | None, action: str) -> bool:
    """Whether ``role`` (None: not logged in) may take ``action``. ``KeyError`` for an action
    not in ``ACTIONS`` (a programming error: every action is in the table)."""
    return role is not None and role in ACTIONS[action]


def require(action: str) -> Callable[[F], F]:
    """The view may be run only by a logged-in user whose role may take ``action``: not logged
    in, a page is redirected to ``/login`` (a POST or an API call gets 401); logged in with a
    lower role, 403. ``g.user`` is the logged-in user (set by ``web.auth`` before each request),
    None when nobody is."""
    if action not in ACTIONS:
        raise KeyError(f"{action!r} is not in web.access.ACTIONS")

    def decorate(view: F) -> F:
        @wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            user = g.get("user")
            if user is None:
                if request.method == "GET":
                    return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
                abort(401)
            if user.must_change_password and action != "account.password":
                return redirect(url_for("auth.password"))
            if not allowed(user.role, action):
                abort(403)
            return view(*args, **kwargs)

        checked.required_action = action  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate


def may_see_submission(user: Any, owner_id: int) -> bool:
    """Whether ``user`` (logged in) may see a submission of the user ``owner_id``: its owner,
    or anyone who may review submissions."""
    return user.id == owner_id or allowed(user.role, "submission.review")
