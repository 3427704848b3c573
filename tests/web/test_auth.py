"""Logging in and out, the session cookie and the sessions kept on the server (issue 23,
``web.auth`` over ``services.accounts``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_token, form_post, session_cookie
from ledgers import sql

from ledger.web import create_app

PASSWORD = "correct horse battery"


def test_the_login_page_has_the_three_fields(client: FlaskClient) -> None:
    page = client.get("/login")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'name="username"' in text and 'name="password"' in text
    assert csrf_token(text)
    assert "<title>Log in - Test club</title>" in text


def test_a_login_logs_in_and_sets_the_cookie(client: FlaskClient,
                                             make_user: Callable[..., Any]) -> None:
    make_user("Ann Reporter", "reporter")
    answer = form_post(client, "/login", {"username": "ann reporter", "password": PASSWORD})
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("ledger-session=")
    flags = {part.strip().split("=")[0].lower(): part for part in cookie.split(";")[1:]}
    assert "httponly" in flags and flags["samesite"].strip() == "SameSite=Lax"
    assert flags["path"].strip() == "Path=/"
    assert "secure" not in flags  # insecure_cookies=True
    assert flags["max-age"].strip() == "Max-Age=43200"  # 12 h x 3600 s


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(
        client: FlaskClient, make_user: Callable[..., Any]) -> None:
    make_user("Ann", "reporter")
    wrong = form_post(client, "/login", {"username": "Ann", "password": "not the password"})
    nobody = form_post(client, "/login", {"username": "Zed", "password": PASSWORD})
    assert wrong.status_code == nobody.status_code == 401
    message = "That name and password do not match an account."
    assert message in wrong.get_data(as_text=True) and message in nobody.get_data(as_text=True)
    assert session_cookie(client) is None


def test_a_login_without_the_csrf_token_is_refused(client: FlaskClient,
                                                   make_user: Callable[..., Any]) -> None:
    make_user("Ann", "reporter")
    answer = client.post("/login", data={"username": "Ann", "password": PASSWORD})
    assert answer.status_code == 400
    assert session_cookie(client) is None


def test_secure_cookies_are_host_prefixed_and_secure(web_db: str,
                                                     make_user: Callable[..., Any]) -> None:
    app = create_app(web_db, secret=b"y" * 64, club="Test club")
    try:
        client = app.test_client()
        make_user("Ann", "reporter")
        # The form cookie is __Host- and Secure too: the test client sends it back over https,
        # with the Referer Flask-WTF asks for there (Referrer-Policy same-origin sends it).
        page = client.get("/login", base_url="https://localhost")
        answer = client.post("/login", base_url="https://localhost",
                             headers={"Referer": "https://localhost/login"}, data={
            "username": "Ann", "password": PASSWORD,
            "csrf_token": csrf_token(page.get_data(as_text=True))})
        assert answer.status_code == 302
        cookie = answer.headers["Set-Cookie"]
        assert cookie.startswith("__Host-ledger=")
        parts = [p.strip() for p in cookie.split(";")]
        assert "Secure" in parts and "HttpOnly" in parts and "SameSite=Lax" in parts
        assert "Path=/" in parts and not any(p.startswith("Domain") for p in parts)
    finally:
        app.extensions["ledger"].dispose()


def test_a_new_token_at_every_login_and_the_old_one_ends(
        app: Flask, client: FlaskClient, make_user: Callable[..., Any]) -> None:
    make_user("Ann", "reporter")
    form_post(client, "/login", {"username": "Ann", "password": PASSWORD})
    first = session_cookie(client)
    form_post(client, "/login", {"username": "Ann", "password": PASSWORD})
    second = session_cookie(client)
    assert first and second and first != second
    # The first token, replayed by another browser, logs nobody in.
    other = app.test_client()
    other.set_cookie("ledger-session", first)
    assert "You are logged in" not in other.get("/login").get_data(as_text=True)
    other.set_cookie("ledger-session", second)
    assert "You are logged in as Ann (reporter)" in other.get("/login").get_data(as_text=True)


def test_a_token_planted_before_the_login_is_not_the_session(
        app: Flask, client: FlaskClient, make_user: Callable[..., Any]) -> None:
    make_user("Ann", "reporter")
    client.set_cookie("ledger-session", "planted-by-an-attacker")
    form_post(client, "/login", {"username": "Ann", "password": PASSWORD})
    assert session_cookie(client) not in (None, "planted-by-an-attacker")


def test_a_login_starts_a_new_csrf_secret(client: FlaskClient,
                                          make_user: Callable[..., Any]) -> None:
    """OWASP: the CSRF secret is new after the login; a token of a form shown before it (one an
    attacker could have read or planted) no longer counts."""
    make_user("Ann", "reporter")
    before = csrf_token(client.get("/login").get_data(as_text=True))
    answer = client.post("/login", data={"username": "Ann", "password": PASSWORD,
                                         "csrf_token": before})
    assert answer.status_code == 302
    token = session_cookie(client)
    refused = client.post("/logout", data={"csrf_token": before})
    assert refused.status_code == 400
    assert "The CSRF tokens do not match." in refused.get_data(as_text=True)
    assert session_cookie(client) == token  # still logged in: nothing was done
    fresh = csrf_token(client.get("/account").get_data(as_text=True))
    assert fresh != before
    done = client.post("/logout", data={"csrf_token": fresh})
    assert done.status_code == 302 and session_cookie(client) is None


def test_logout_ends_the_session_on_the_server(app: Flask, client: FlaskClient,
                                               login: Callable[..., Any]) -> None:
    login(client, "Ann", "reporter")
    token = session_cookie(client)
    assert token
    answer = form_post(client, "/logout", {}, page="/login")
    assert answer.status_code == 302
    assert session_cookie(client) is None
    replay = app.test_client()
    replay.set_cookie("ledger-session", token)
    assert "You are logged in" not in replay.get("/login").get_data(as_text=True)
    # A page that needs a login sends the replayed cookie to /login.
    assert replay.get("/account/password").headers["Location"].startswith("/login")


def test_the_database_holds_no_password_and_only_the_tokens_digest(
        web_db: str, client: FlaskClient, login: Callable[..., Any]) -> None:
    login(client, "Ann", "reporter")
    token = session_cookie(client)
    assert token and len(token) == 43  # 32 random bytes, base64url without padding
    [(stored,)] = sql(web_db, "SELECT password_hash FROM users")
    assert str(stored).startswith("$argon2id$v=19$") and PASSWORD not in str(stored)
    [(digest,)] = sql(web_db, "SELECT token_sha256 FROM web_sessions")
    assert digest == hashlib.sha256(token.encode()).hexdigest()
    every_value = repr(sql(web_db, "SELECT * FROM users")) + repr(
        sql(web_db, "SELECT * FROM web_sessions")) + repr(sql(web_db, "SELECT * FROM changes"))
    assert token not in every_value and PASSWORD not in every_value


def test_the_account_page_links_what_the_role_opens_and_logs_out(
        client: FlaskClient, login: Callable[..., Any]) -> None:
    # a reporter: their submissions and their password, never the review queue or the users
    login(client, "Rita Reporter", "reporter")
    page = client.get("/account")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "You are logged in as Rita Reporter (reporter)." in text
    assert 'href="/account/password"' in text
    assert 'href="/admin/users"' not in text and 'href="/review"' not in text
    assert '<form method="post" action="/logout">' in text


def test_the_account_page_needs_a_login(client: FlaskClient) -> None:
    answer = client.get("/account")
    assert answer.status_code == 302 and answer.headers["Location"].startswith("/login")


def test_every_form_of_the_account_refuses_a_post_without_its_csrf_token(
        web_db: str, client: FlaskClient, login: Callable[..., Any]) -> None:
    login(client, "Ann", "officer")
    before = sql(web_db, "SELECT * FROM users"), sql(web_db, "SELECT * FROM web_sessions")
    assert client.post("/logout").status_code == 400
    assert client.post("/account/password", data={
        "current_password": PASSWORD, "new_password": "a new long passphrase",
        "new_password_again": "a new long passphrase"}).status_code == 400
    assert client.post("/logout", data={"csrf_token": "forged"}).status_code == 400
    assert (sql(web_db, "SELECT * FROM users"), sql(web_db, "SELECT * FROM web_sessions")) == before


def test_a_login_goes_on_to_the_page_asked_for_and_never_elsewhere(
        client: FlaskClient, make_user: Callable[..., Any]) -> None:
    make_user("Ann", "officer")
    asked = client.get("/account/password")
    assert asked.headers["Location"] == "/login?next=/account/password"
    answer = form_post(client, "/login?next=/account/password",
                       {"username": "Ann", "password": PASSWORD})
    assert answer.headers["Location"] == "/account/password"
    for elsewhere in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "x"):
        answer = form_post(client, f"/login?next={elsewhere}",
                           {"username": "Ann", "password": PASSWORD})
        assert answer.headers["Location"] == "/", elsewhere


def test_html_in_the_name_tried_comes_back_escaped(client: FlaskClient) -> None:
    answer = form_post(client, "/login", {"username": "<script>x</script>", "password": "p"})
    text = answer.get_data(as_text=True)
    assert "<script>x" not in text and "&lt;script&gt;x&lt;/script&gt;" in text


def test_a_busy_ledger_at_login_says_try_again_and_logs_nobody_in(
        client: FlaskClient, make_user: Callable[..., Any], monkeypatch: Any) -> None:
    from ledger.errors import LedgerBusy
    from ledger.services.accounts import logins

    make_user("Ann", "officer")

    def busy(*args: object) -> None:
        raise LedgerBusy("ledger.db: another process is writing (password=secret)")

    monkeypatch.setattr(logins, "log_in", busy)
    answer = form_post(client, "/login", {"username": "Ann", "password": PASSWORD})
    assert (answer.status_code, answer.headers["Retry-After"]) == (503, "5")
    text = answer.get_data(as_text=True)
    assert "The ledger could not record this just now (it is busy or read-only): try again." in text
    assert "secret" not in text and session_cookie(client) is None
