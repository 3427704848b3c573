"""Logging in and out, and one's own password (issue 23): ``/login``, ``/logout``,
``/account/password``; and, before every request, who is logged in (``g.user``: the
``services.accounts.users.Account`` of the session cookie's token, None when nobody is).

The session cookie (``cookie_name``: ``__Host-ledger`` when served over HTTPS, ``ledger-session``
with ``--insecure-cookies``) holds the random token of a session kept on the server
(``services.accounts.sessions``): ``HttpOnly``, ``SameSite=Lax``, ``Path=/``, ``Secure`` when
secure, ``Max-Age`` the session's length. Every login makes a new token (no session fixation)
and ends the one the browser had; logout ends the session on the server, so a copy of the
cookie logs nobody in. A login also gives the browser a new CSRF secret (``_new_form_secret``):
the forms' tokens from before it no longer count. A failed login never says whether the name or
the password was wrong.

Other blueprints write the audit log with ``actor()``: the logged-in user as ``by``, the
client's address and the request as the command (``web 203.0.113.9 POST /login``).
"""

from __future__ import annotations

import datetime as dt
import math
import os
from typing import Any

from flask import Blueprint, current_app, g, redirect, request, session, url_for
from flask_wtf.csrf import generate_csrf
from sqlalchemy.engine import Engine
from werkzeug.wrappers import Response

from ledger.domain import Actor
from ledger.errors import InvalidInput, LedgerError, NotFound
from ledger.services.accounts import logins, sessions
from ledger.web.access import allowed, require
from ledger.web.pages import render

blueprint = Blueprint("auth", __name__)

#: What a form says when the ledger could not take the write (busy past its timeout, or
#: read-only): nothing of the database's own message, which may name it.
UNAVAILABLE = "The ledger could not record this just now (it is busy or read-only): try again."

#: The session cookie's names, served over HTTPS and not.
SECURE_COOKIE, INSECURE_COOKIE = "__Host-ledger", "ledger-session"


def cookie_name() -> str:
    """The session cookie's name for this application (``LEDGER_SECURE_COOKIES``)."""
    return SECURE_COOKIE if current_app.config["LEDGER_SECURE_COOKIES"] else INSECURE_COOKIE


def _engine() -> Engine:
    engine: Engine = current_app.extensions["ledger"]
    return engine


#: The environment variable (and ``app.config`` key) saying how many reverse proxies stand in
#: front of the server (default 0): with N, the client's address is the N-th address from the
#: right of ``X-Forwarded-For``, which those proxies append to (as werkzeug's ``ProxyFix``).
PROXIES = "LEDGER_PROXIES"


@blueprint.record_once
def _read_proxies(state: Any) -> None:
    config = state.app.config
    if PROXIES not in config:
        text = os.environ.get(PROXIES, "").strip() or "0"
        if not text.isdigit():
            raise InvalidInput(f"${PROXIES}: {text!r} is not a number of proxies (0, 1, 2 ...)")
        config[PROXIES] = int(text)


def address() -> str:
    """The client's address: the connection's, or behind ``LEDGER_PROXIES`` = N trusted
    reverse proxies the one the first of them saw (the N-th from the right of
    ``X-Forwarded-For``; the connection's when the header holds fewer). Without it, behind a
    proxy every client would share the proxy's address, and the login throttle would hold them
    all together. At most 64 characters; ``unknown`` when there is none."""
    proxies = int(current_app.config.get(PROXIES) or 0)
    seen = request.remote_addr or "unknown"
    if proxies:
        forwarded = [a.strip() for a in request.headers.get("X-Forwarded-For", "").split(",")]
        if len(forwarded) >= proxies and forwarded[-proxies]:
            seen = forwarded[-proxies]
    return seen[:64]


def command() -> str:
    """The request as the audit log's command: ``web ADDRESS METHOD PATH``."""
    return f"web {address()} {request.method} {request.path}"


def actor() -> Actor:
    """The logged-in user as the author of a write (``by`` their name, ``command()``).
    ``RuntimeError`` when nobody is logged in (a view without ``@require``: a programming
    error)."""
    user = g.get("user")
    if user is None:
        raise RuntimeError("actor(): nobody is logged in (is the view under @require?)")
    return Actor(user.name, command())


@blueprint.before_app_request
def load_user() -> None:
    """``g.user``: the account of the session cookie, None when nobody is logged in."""
    g.user = sessions.account_for_token(_engine(), request.cookies.get(cookie_name()))


def _set_cookie(response: Response, token: str) -> None:
    secure = bool(current_app.config["LEDGER_SECURE_COOKIES"])
    response.set_cookie(cookie_name(), token, max_age=sessions.SESSION_SECONDS, path="/",
                        secure=secure, httponly=True, samesite="Lax")


def _clear_cookie(response: Response) -> None:
    secure = bool(current_app.config["LEDGER_SECURE_COOKIES"])
    response.delete_cookie(cookie_name(), path="/", secure=secure, httponly=True,
                           samesite="Lax")


def safe_next(target: str | None) -> str | None:
    """``target`` when it is a path on this server (``/...``, not ``//host`` nor ``/\\host``,
    no control character): where to go after logging in; else None (no open redirect)."""
    if (not target or not target.startswith("/") or target.startswith(("//", "/\\"))
            or any(ord(c) < 32 or ord(c) == 127 for c in target)):
        return None
    return target


def _login_page(status: int = 200, message: str | None = None, username: str = "",
                **headers: Any) -> tuple[str, int, dict[str, Any]]:
    target = safe_next(request.args.get("next"))
    action = url_for("auth.login", next=target) if target else url_for("auth.login")
    return (render("login.html", f"Log in - {current_app.config['LEDGER_CLUB']}",
                   message=message, username=username, action=action), status, headers)


def _new_form_secret() -> None:
    """A fresh CSRF secret for this browser (OWASP: a new one at login): Flask-WTF keeps the
    secret its tokens are signed over in Flask's session (the signed form cookie,
    ``SESSION_COOKIE_NAME``; the login's session is the other cookie, kept on the server) under
    ``WTF_CSRF_FIELD_NAME``, and caches this request's token in ``g``. Both are dropped and a new
    secret made, which the answer's form cookie carries: a token of a form shown before the
    login is refused after it (400)."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    session.pop(field, None)
    g.pop(field, None)
    generate_csrf()


def _minute_after(when: dt.datetime) -> dt.datetime:
    """``when`` rounded up to the minute (a time to try again is never early)."""
    minute = when.replace(second=0, microsecond=0)
    return minute + dt.timedelta(minutes=1) if minute < when else minute


@blueprint.route("/login", methods=["GET", "POST"])
def login() -> Any:
    """The login form; posted, the login: 302 to ``next`` (or ``/``; to ``/account/password``
    for a one-time password) with a new session cookie; 401 and the form again when the name
    or password is wrong; 429 when the throttle holds the name or the address."""
    if request.method == "GET":
        return _login_page()
    name = request.form.get("username", "")
    try:
        result = logins.log_in(_engine(), name, request.form.get("password", ""), address(),
                               command())
    except LedgerError:  # busy past the timeout, read-only: nothing was recorded
        return _login_page(503, UNAVAILABLE, name, **{"Retry-After": "5"})
    if result.retry_at is not None:
        wait = result.wait_seconds or 1
        minutes = math.ceil(wait / 60)
        return _login_page(429, "Too many failed logins for this name or from this address. "
                           f"Try again after {_minute_after(result.retry_at):%H:%M} UTC (in {minutes} "
                           f"minute{'' if minutes == 1 else 's'}).", name,
                           **{"Retry-After": str(wait)})
    if result.token is None or result.account is None:
        return _login_page(401, "That name and password do not match an account. "
                           "Check both and try again.", name)
    old = request.cookies.get(cookie_name())
    if old:
        sessions.end_session(_engine(), Actor(result.account.name, command()), old)
    _new_form_secret()
    target = (url_for("auth.password") if result.account.must_change_password
              else safe_next(request.args.get("next")) or "/")
    response = redirect(target)
    _set_cookie(response, result.token)
    return response


@blueprint.route("/logout", methods=["POST"])
def logout() -> Any:
    """End the browser's session on the server and clear its cookie; 302 to ``/``."""
    user = g.get("user")
    if user is not None:
        sessions.end_session(_engine(), actor(), request.cookies.get(cookie_name()))
    response = redirect("/")
    _clear_cookie(response)
    return response


#: The pages the account page links, each with the action that opens it (``web.access``),
#: in the order shown; a page whose blueprint is not registered is left out.
ACCOUNT_PAGES = (
    ("/submissions", "Your submissions", "submission.own"),
    ("/submissions/new", "Submit results", "submission.create"),
    ("/submissions/type", "Type games in", "submission.create"),
    ("/review", "Submissions to review", "submission.review"),
    ("/officer", "Rating officer: close and correct", "period.close"),
    ("/officer/audit", "The audit log", "audit.read"),
    ("/admin/users", "Users and roles", "user.manage"),
    ("/account/password", "Change your password", "account.password"),
)


@blueprint.route("/account")
@require("account.password")
def account() -> Any:
    """Who is logged in, the pages their role opens, and the logout form."""
    registered = {rule.rule for rule in current_app.url_map.iter_rules()}
    pages = [(address, label) for address, label, action in ACCOUNT_PAGES
             if allowed(g.user.role, action) and address in registered]
    return render("account.html", f"Your account - {current_app.config['LEDGER_CLUB']}",
                  pages=pages)


def _password_page(status: int = 200, message: str | None = None,
                   done: bool = False) -> tuple[str, int]:
    return (render("account_password.html",
                   f"Change your password - {current_app.config['LEDGER_CLUB']}",
                   message=message, done=done), status)


@blueprint.route("/account/password", methods=["GET", "POST"])
@require("account.password")
def password() -> Any:
    """The form to change one's own password (current, new, new again); posted and right,
    every other session of the user ends, this browser gets a new one, 302 back here; else
    400 and the form with what was wrong (never a password)."""
    if request.method == "GET":
        return _password_page(done=request.args.get("changed") == "1")
    new = request.form.get("new_password", "")
    if new != request.form.get("new_password_again", ""):
        return _password_page(400, "The two new passwords differ: type the same one twice.")
    try:
        token = logins.change_password(_engine(), actor(), g.user.id,
                                       request.form.get("current_password", ""), new, address())
    except logins.Throttled as exc:
        page, _ = _password_page(429, f"Too many wrong passwords for this account or from this "
                                 f"address. Try again after {_minute_after(exc.retry_at):%H:%M} "
                                 "UTC.")
        return page, 429, {"Retry-After": str(exc.wait_seconds)}
    except (InvalidInput, NotFound) as exc:
        return _password_page(400, str(exc))
    except LedgerError:
        return _password_page(503, UNAVAILABLE)
    response = redirect(url_for("auth.password", changed="1"))
    _set_cookie(response, token)
    return response
