"""The admin's page, ``/admin/users`` (issue 23, ``web.admin`` over
``services.accounts.users``): who may use it, adding a user with a one-time password shown
once, changing a role, disabling; refusals change nothing; HTML escaped."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from helpers import form_post
from ledgers import sql

ADMIN = "Ada Admin"
WRITES = [("/admin/users", {"name": "New One", "role": "reporter"}),
          ("/admin/users/role", {"name": "New One", "role": "officer"}),
          ("/admin/users/disable", {"name": "New One"})]


def _users(db: str) -> list[tuple[object, ...]]:
    return sql(db, "SELECT name, role, must_change_password, disabled FROM users ORDER BY id")


def test_only_an_admin_may_use_it(client: FlaskClient, web_db: str,
                                  login: Callable[..., Any]) -> None:
    assert client.get("/admin/users").status_code == 302
    for url, data in WRITES:
        assert form_post(client, url, data, page="/login").status_code == 401, url
    for name, role in (("Rita", "reporter"), ("Olive", "officer")):
        browser = client.application.test_client()
        login(browser, name, role)
        assert browser.get("/admin/users").status_code == 403
        for url, data in WRITES:
            assert form_post(browser, url, data, page="/account/password").status_code == 403
    login(client, ADMIN, "admin")
    for url, data in WRITES:
        assert client.post(url, data=data).status_code == 400, url  # no CSRF token
    assert [u[0] for u in _users(web_db)] == ["Rita", "Olive", ADMIN]


def test_add_role_disable(client: FlaskClient, web_db: str, login: Callable[..., Any]) -> None:
    login(client, ADMIN, "admin")
    added = form_post(client, "/admin/users", {"name": "Rob Reporter", "role": "reporter"})
    assert added.status_code == 200
    page = added.get_data(as_text=True)
    assert "Rob Reporter added as reporter" in page
    password = re.search(r'<code class="password">([^<]+)</code>', page)
    assert password is not None and len(password.group(1)) == 20  # 15 random bytes, base64url
    assert password.group(1) not in client.get("/admin/users").get_data(as_text=True)
    assert _users(web_db)[-1] == ("Rob Reporter", "reporter", 1, 0)
    # the one-time password logs them in, and must be changed first
    other = client.application.test_client()
    first = form_post(other, "/login", {"username": "Rob Reporter",
                                        "password": password.group(1)})
    assert first.status_code == 302

    promoted = form_post(client, "/admin/users/role", {"name": "Rob Reporter", "role": "officer"},
                         page="/admin/users")
    assert promoted.status_code == 200
    assert "Rob Reporter is now officer" in promoted.get_data(as_text=True)
    disabled = form_post(client, "/admin/users/disable", {"name": "Rob Reporter"},
                         page="/admin/users")
    assert disabled.status_code == 200
    assert "Rob Reporter is disabled (1 session ended)" in disabled.get_data(as_text=True)
    assert _users(web_db)[-1] == ("Rob Reporter", "officer", 1, 1)
    assert sql(web_db, "SELECT by, action FROM changes WHERE action IN "
                       "('user.add', 'user.role', 'user.disable') ORDER BY id")[-3:] == [
        (ADMIN, "user.add"), (ADMIN, "user.role"), (ADMIN, "user.disable")]


def test_refusals_change_nothing_and_html_is_escaped(client: FlaskClient, web_db: str,
                                                     login: Callable[..., Any]) -> None:
    login(client, ADMIN, "admin")
    before = _users(web_db)
    twice = form_post(client, "/admin/users", {"name": "ada admin", "role": "reporter"})
    assert twice.status_code == 400
    assert "there is a user &#x27;Ada Admin&#x27; already" in twice.get_data(as_text=True)
    no_role = form_post(client, "/admin/users/role", {"name": ADMIN, "role": "king"},
                        page="/admin/users")
    assert no_role.status_code == 400
    nobody = form_post(client, "/admin/users/disable", {"name": "<b>Nobody</b>"},
                       page="/admin/users")
    assert nobody.status_code == 404
    text = nobody.get_data(as_text=True)
    assert "<b>Nobody</b>" not in text and "&lt;b&gt;Nobody&lt;/b&gt;" in text
    assert _users(web_db) == before
    marked = form_post(client, "/admin/users", {"name": "<i>Ivy</i>", "role": "reporter"},
                       page="/admin/users")
    answer = marked.get_data(as_text=True)
    assert "<i>Ivy</i>" not in answer
    if marked.status_code == 200:  # a name the service takes: shown escaped in the list
        assert "&lt;i&gt;Ivy&lt;/i&gt;" in client.get("/admin/users").get_data(as_text=True)
