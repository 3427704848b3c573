"""The admin's page (issue 23): ``/admin/users``, the accounts of the web as ``ledger user
list`` shows them, and the forms that ``ledger user add --one-time``, ``user role`` and ``user
disable`` are on the command line, over the same service (``services.accounts.users``).

A user added here always gets a one-time password (``users.one_time_password``), shown once on
the answer to the POST that made it (never stored, never logged; every answer is ``no-store``)
and changed by the user at their first login: the admin never knows a user's own password.
Every write is a POST with its CSRF token, by ``web.auth.actor`` (audited with the admin as
``by``); a refusal is the page again with its message and nothing changed.
"""

from __future__ import annotations

from flask import Blueprint, request

from ledger.db.models.accounts import ROLES
from ledger.errors import LedgerError
from ledger.services.accounts import users
from ledger.web.access import require
from ledger.web.officer_pages import actor, engine, render, status_of, text

blueprint = Blueprint("admin", __name__, url_prefix="/admin")


def _page(*, status: int = 200, error: str | None = None, done: str | None = None,
          password: str | None = None) -> tuple[str, int]:
    return render("admin_users.html", "Users", status=status, accounts=users.list_users(engine()),
                  roles=ROLES, error=error, done=done, password=password, values=request.form)


@blueprint.get("/users")
@require("user.manage")
def user_list() -> tuple[str, int]:
    """Every user (name, role, one-time password pending, disabled), with the forms."""
    return _page()


@blueprint.post("/users")
@require("user.manage")
def add() -> tuple[str, int]:
    """``ledger user add NAME --role ROLE --one-time``: the password is shown once, here."""
    password = users.one_time_password()
    try:
        account = users.add_user(engine(), actor(), text(request.form, "name") or "",
                                 request.form.get("role", ""), password, one_time=True)
    except LedgerError as exc:
        return _page(status=status_of(exc), error=str(exc))
    return _page(done=f"{account.name} added as {account.role}", password=password)


@blueprint.post("/users/role")
@require("user.manage")
def role() -> tuple[str, int]:
    """``ledger user role NAME ROLE``."""
    try:
        account = users.set_role(engine(), actor(), request.form.get("name", ""),
                                 request.form.get("role", ""))
    except LedgerError as exc:
        return _page(status=status_of(exc), error=str(exc))
    return _page(done=f"{account.name} is now {account.role}")


@blueprint.post("/users/disable")
@require("user.manage")
def disable() -> tuple[str, int]:
    """``ledger user disable NAME``: no more logins, every session of theirs ended."""
    try:
        account, ended = users.disable_user(engine(), actor(), request.form.get("name", ""))
    except LedgerError as exc:
        return _page(status=status_of(exc), error=str(exc))
    sessions = f"{ended} session{'' if ended == 1 else 's'}"
    return _page(done=f"{account.name} is disabled ({sessions} ended)")
