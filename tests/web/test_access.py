"""Every route of the web against the one role x action table (``web.access.ACTIONS``), for
every role: the table is the only thing that decides.

The routes are read from the application itself (``app.url_map``), so a route added without
``@require`` fails ``test_every_route_is_public_or_names_its_action`` rather than going unseen.
The public routes are the site's pages, its files (the lists' bundles and the public key among
them), the JSON API and the login itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ledger.db.models.accounts import ROLES
from ledger.web.access import ACTIONS

#: The blueprints whose every route anyone may open (no login).
PUBLIC_BLUEPRINTS = {"public", "api", "pickers", "bundles"}
#: The other routes anyone may open: logging in and out, Flask's own static files.
PUBLIC_ENDPOINTS = {"auth.login", "auth.logout", "static"}


def _routes(app: Flask) -> list[tuple[str, str, str | None]]:
    """(path with each variable as 1, or an ``any`` variable's first choice; method; action)
    of every route but the public ones."""
    found = []
    for rule in app.url_map.iter_rules():
        blueprint = rule.endpoint.partition(".")[0] if "." in rule.endpoint else None
        if blueprint in PUBLIC_BLUEPRINTS or rule.endpoint in PUBLIC_ENDPOINTS:
            continue
        view = app.view_functions[rule.endpoint]
        path = re.sub(r"<any\(([^,)]+)[^>]*>", r"\1", rule.rule)  # any(a, b): a
        path = re.sub(r"<(?:[^:>]+:)?[^>]+>", "1", path)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((path, method, getattr(view, "required_action", None)))
    return found


def test_every_route_is_public_or_names_its_action(app: Flask) -> None:
    routes = _routes(app)
    # the web's pages for reporters, officers and admins are all there (at least one each)
    actions = {action for _, _, action in routes}
    assert {"submission.create", "submission.review", "period.close", "correction.make",
            "audit.read", "user.manage", "account.password"} <= actions
    assert [r for r in routes if r[2] is None] == []
    assert actions <= set(ACTIONS)


def test_not_logged_in_every_page_asks_for_a_login_and_every_post_is_refused(
        app: Flask, client: FlaskClient, form_post: Callable[..., Any]) -> None:
    for path, method, _ in _routes(app):
        if method == "GET":
            answer = client.get(path)
            assert answer.status_code == 302, path
            assert answer.headers["Location"].startswith("/login?next="), path
        else:
            # with a valid CSRF token (the login page's), still refused: nobody is logged in
            answer = form_post(client, path, {}, page="/login")
            assert answer.status_code == 401, (path, answer.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_each_role_is_refused_what_the_table_does_not_give_it(
        app: Flask, client: FlaskClient, login: Callable[..., Any],
        form_post: Callable[..., Any], role: str) -> None:
    login(client, f"Someone {role}", role)
    refused = 0
    for path, method, action in _routes(app):
        assert action is not None
        if role in ACTIONS[action]:
            continue
        refused += 1
        if method == "GET":
            assert client.get(path).status_code == 403, (role, path)
        else:
            assert form_post(client, path, {}, page="/account").status_code == 403, (role, path)
    # a reporter is refused the officer's and admin's routes, an officer the admin's, an admin
    # nothing
    assert (refused > 0) == (role != "admin")


def test_every_post_without_its_csrf_token_is_refused(app: Flask, client: FlaskClient,
                                                     login: Callable[..., Any]) -> None:
    login(client, "Ada Admin", "admin")
    posts = [path for path, method, _ in _routes(app) if method == "POST"]
    assert "/logout" not in posts and posts
    for path in [*posts, "/logout", "/login"]:
        answer = client.post(path, data={"reason": "no token"})
        assert answer.status_code == 400, path
        assert "CSRF" in answer.get_data(as_text=True), path
