"""One's own password on the web, the password rules, and what ends sessions (issue 23):
``/account/password``, a one-time password, disabling a user, a session's 12 hours, the audit
entries of the web's logins and their address."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest
from argon2 import PasswordHasher
from flask import Flask
from flask.testing import FlaskClient
from helpers import form_post, session_cookie
from ledgers import sql

from ledger.domain import Actor
from ledger.errors import InvalidInput
from ledger.services.accounts import passwords, sessions
from ledger.services.accounts.users import disable_user

PASSWORD = "correct horse battery"
NEW = "seven bridges of koenigsberg"


def logged_in(client: FlaskClient) -> bool:
    return "You are logged in" in client.get("/login").get_data(as_text=True)


def change(client: FlaskClient, current: str, new: str, again: str | None = None) -> Any:
    return form_post(client, "/account/password", {
        "current_password": current, "new_password": new,
        "new_password_again": new if again is None else again})


def test_changing_the_password_ends_every_other_session(
        app: Flask, client: FlaskClient, login: Callable[..., Any]) -> None:
    login(client, "Ann", "officer")
    laptop = app.test_client()
    form_post(laptop, "/login", {"username": "Ann", "password": PASSWORD})
    assert logged_in(laptop)
    before = session_cookie(client)
    answer = change(client, PASSWORD, NEW)
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/account/password?changed=1"
    # This browser goes on with a new token; the laptop is logged out.
    assert session_cookie(client) not in (None, before) and logged_in(client)
    assert not logged_in(laptop)
    assert "Your password is changed" in client.get(answer.headers["Location"]).get_data(
        as_text=True)
    # The old password no longer logs in; the new one does.
    assert form_post(laptop, "/login", {"username": "Ann", "password": PASSWORD}
                     ).status_code == 401
    assert form_post(laptop, "/login", {"username": "Ann", "password": NEW}).status_code == 302


@pytest.mark.parametrize(("current", "new", "again", "message"), [
    ("not my password", NEW, None, "current password: not right"),
    (PASSWORD, NEW, NEW + "!", "The two new passwords differ: type the same one twice."),
    (PASSWORD, "short12", None, "password: 7 characters; at least 8"),
    (PASSWORD, "password1", None, "password: one of the 10,000 most common passwords"),
    (PASSWORD, "Sunshine", None, "password: one of the 10,000 most common passwords"),
    (PASSWORD, "x" * 129, None, "password: 129 characters; at most 128"),
    (PASSWORD, PASSWORD, None, "new password: the same as the current one"),
])
def test_a_refused_change_says_why_and_changes_nothing(
        web_db: str, client: FlaskClient, login: Callable[..., Any], current: str, new: str,
        again: str | None, message: str) -> None:
    login(client, "Ann", "officer")
    before = sql(web_db, "SELECT password_hash FROM users")
    answer = change(client, current, new, again)
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    assert message in text
    assert new not in text and current not in text  # no password comes back
    assert sql(web_db, "SELECT password_hash FROM users") == before
    assert logged_in(client)


def test_the_rules_take_a_long_passphrase_and_no_composition() -> None:
    passwords.check_rules("correct horse battery staple")  # 28 letters and spaces only
    passwords.check_rules("x" * 128)
    passwords.check_rules("80417365")  # 8 digits, not on the list (12345679 is)
    with pytest.raises(InvalidInput, match="one of the 10,000 most common"):
        passwords.check_rules("QWERTYUIOP")  # on the list as qwertyuiop: case aside
    with pytest.raises(InvalidInput, match="at least 8"):
        passwords.check_rules("")


def test_the_list_is_the_10000_most_common() -> None:
    common = passwords.common_passwords()
    assert len(common) == 10_000
    assert {"password", "123456", "password1", "iloveyou", "trustno1"} <= common


def test_a_one_time_password_leads_to_the_password_form_first(
        client: FlaskClient, make_user: Callable[..., Any]) -> None:
    make_user("Rita", "reporter", "temporary Xy7 pass", one_time=True)
    answer = form_post(client, "/login", {"username": "Rita", "password": "temporary Xy7 pass"})
    assert (answer.status_code, answer.headers["Location"]) == (302, "/account/password")
    page = client.get("/account/password").get_data(as_text=True)
    assert "You logged in with a one-time password" in page
    assert change(client, "temporary Xy7 pass", NEW).status_code == 302
    assert "one-time" not in client.get("/account/password").get_data(as_text=True)


def test_disabling_a_user_ends_their_sessions(
        app: Flask, client: FlaskClient, login: Callable[..., Any]) -> None:
    login(client, "Ann", "officer")
    phone = app.test_client()
    form_post(phone, "/login", {"username": "Ann", "password": PASSWORD})
    account, ended = disable_user(app.extensions["ledger"], Actor("admin", "test"), "ann")
    assert (account.disabled, ended) == (True, 2)
    assert not logged_in(client) and not logged_in(phone)
    # And a disabled user's login fails as a wrong password does.
    refused = form_post(client, "/login", {"username": "Ann", "password": PASSWORD})
    assert refused.status_code == 401
    assert "That name and password do not match an account." in refused.get_data(as_text=True)


def test_a_session_ends_12_hours_after_the_login(
        client: FlaskClient, login: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    login(client, "Ann", "officer")
    started = sessions.utcnow()
    monkeypatch.setattr(sessions, "utcnow",
                        lambda: started + dt.timedelta(hours=11, minutes=59))
    assert logged_in(client)
    monkeypatch.setattr(sessions, "utcnow", lambda: started + dt.timedelta(hours=12, seconds=1))
    assert not logged_in(client)


def test_every_login_logout_and_change_is_audited_with_the_address(
        web_db: str, app: Flask, make_user: Callable[..., Any]) -> None:
    make_user("Ann", "officer")
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "203.0.113.9"
    form_post(client, "/login", {"username": "Zed", "password": "a guess"})
    form_post(client, "/login", {"username": "Ann", "password": PASSWORD})
    change(client, PASSWORD, NEW)
    form_post(client, "/logout", {}, page="/login")
    rows = sql(web_db, "SELECT by, command, action, entity, entity_id, after FROM changes "
                       "ORDER BY id")[1:]
    assert [row[:5] for row in rows] == [
        ("Zed", "web 203.0.113.9 POST /login", "user.login-failed", "user", "zed"),
        ("Ann", "web 203.0.113.9 POST /login", "user.login", "user", "1"),
        ("Ann", "web 203.0.113.9 POST /account/password", "user.password", "user", "1"),
        ("Ann", "web 203.0.113.9 POST /logout", "user.logout", "user", "1")]
    # The password change ended the one session (its browser got a new one, not counted).
    assert json.loads(str(rows[2][5])) == {"sessions_ended": 1}
    every = repr(sql(web_db, "SELECT * FROM changes"))
    assert PASSWORD not in every and NEW not in every and "a guess" not in every


def test_a_hash_of_other_parameters_is_made_again_at_login(
        web_db: str, client: FlaskClient, make_user: Callable[..., Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    make_user("Ann", "officer")  # made with CHEAP_HASHER: m=8, t=1, p=1
    stronger = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    monkeypatch.setattr(passwords, "HASHER", stronger)
    assert form_post(client, "/login", {"username": "Ann", "password": PASSWORD}
                     ).status_code == 302
    [(digest,)] = sql(web_db, "SELECT password_hash FROM users")
    assert str(digest).startswith("$argon2id$v=19$m=16,t=2,p=1$")
    assert stronger.verify(str(digest), PASSWORD)


def test_wrong_current_passwords_count_as_failed_logins(
        web_db: str, client: FlaskClient, login: Callable[..., Any]) -> None:
    login(client, "Ann", "officer")
    for n in range(10):
        assert change(client, f"guess {n}", NEW).status_code == 400
    refused = change(client, PASSWORD, NEW)  # the right one, but held
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 890  # 15 minutes (900 s) less the test's time
    assert "Too many wrong passwords for this account or from this address." in (
        refused.get_data(as_text=True))
    actions = [a for (a,) in sql(web_db, "SELECT action FROM changes ORDER BY id")]
    assert actions == ["user.add", "user.login"] + ["user.password-failed"] * 10
    # The login is held too: the failures were the account's.
    assert form_post(client, "/login", {"username": "Ann", "password": PASSWORD}
                     ).status_code == 429
