"""The login throttle (issue 23; ``services.accounts.logins``): after 10 failed logins for one
name or from one address within 15 minutes, every further attempt is refused with 429, the
right password too, until the oldest of those failures is 15 minutes old."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_token, session_cookie
from ledgers import sql

from ledger.services.accounts import logins

PASSWORD = "correct horse battery"
#: The clock of the logins, fixed: 2026-12-02 10:00:00 UTC.
T0 = dt.datetime(2026, 12, 2, 10, 0, 0)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[dt.datetime], None]:
    """``clock(when)``: the logins' ``utcnow`` answers ``when`` from now on (T0 at first)."""
    now = [T0]
    monkeypatch.setattr(logins, "utcnow", lambda: now[0])

    def set_to(when: dt.datetime) -> None:
        now[0] = when

    return set_to


def attempt(client: FlaskClient, name: str, password: str) -> Any:
    page = client.get("/login")
    return client.post("/login", data={"username": name, "password": password,
                                       "csrf_token": csrf_token(page.get_data(as_text=True))})


def test_the_eleventh_attempt_is_refused_even_with_the_right_password(
        client: FlaskClient, make_user: Callable[..., Any],
        clock: Callable[[dt.datetime], None]) -> None:
    make_user("Ann", "officer")
    for minute in range(10):  # failures at 10:00 ... 10:09
        clock(T0 + dt.timedelta(minutes=minute))
        assert attempt(client, "Ann", f"wrong guess {minute}").status_code == 401
    clock(T0 + dt.timedelta(minutes=10))
    refused = attempt(client, "ann", PASSWORD)
    assert refused.status_code == 429
    # The oldest failure (10:00) leaves the window at 10:15: 5 minutes (300 s) from 10:10.
    assert refused.headers["Retry-After"] == "300"
    assert ("Too many failed logins for this name or from this address. Try again after "
            "10:15 UTC (in 5 minutes).") in refused.get_data(as_text=True)
    assert session_cookie(client) is None
    # At 10:15 the failure of 10:00 has left the window (9 remain): the right password works.
    clock(T0 + dt.timedelta(minutes=15))
    assert attempt(client, "Ann", PASSWORD).status_code == 302


def test_the_refused_attempts_are_not_counted_and_are_audited(
        web_db: str, client: FlaskClient, make_user: Callable[..., Any],
        clock: Callable[[dt.datetime], None]) -> None:
    make_user("Ann", "officer")
    for _ in range(10):
        attempt(client, "Ann", "wrong guess")
    for _ in range(3):
        assert attempt(client, "Ann", PASSWORD).status_code == 429
    assert sql(web_db, "SELECT COUNT(*) FROM login_attempts") == [(10,)]
    assert sql(web_db, "SELECT COUNT(*) FROM login_attempts WHERE NOT succeeded") == [(10,)]
    actions = [a for (a,) in sql(web_db, "SELECT action FROM changes ORDER BY id")]
    assert actions == ["user.add"] + ["user.login-failed"] * 10 + ["user.login-throttled"] * 3
    # A minute and a half into the wait: 13.5 minutes (810 s) are left.
    clock(T0 + dt.timedelta(seconds=90))
    refused = attempt(client, "Ann", PASSWORD)
    assert refused.headers["Retry-After"] == "810"
    assert "Try again after 10:15 UTC (in 14 minutes)." in refused.get_data(as_text=True)


def test_one_address_is_held_across_names(app: Flask, make_user: Callable[..., Any],
                                          clock: Callable[[dt.datetime], None]) -> None:
    make_user("Ann", "officer")
    make_user("Bob", "reporter")
    spray = app.test_client()
    spray.environ_base["REMOTE_ADDR"] = "203.0.113.9"
    for n in range(10):  # ten names nobody has
        assert attempt(spray, f"user{n}", "guess").status_code == 401
    assert attempt(spray, "Bob", PASSWORD).status_code == 429
    # From another address, Bob and Ann log in (their names have no failure).
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "198.51.100.7"
    assert attempt(other, "Bob", PASSWORD).status_code == 302


def test_one_name_is_held_across_addresses(app: Flask, make_user: Callable[..., Any],
                                           clock: Callable[[dt.datetime], None]) -> None:
    make_user("Ann", "officer")
    for n in range(10):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"203.0.113.{n + 1}"
        assert attempt(client, "ANN", "guess").status_code == 401
    fresh = app.test_client()
    fresh.environ_base["REMOTE_ADDR"] = "198.51.100.7"
    assert attempt(fresh, "Ann", PASSWORD).status_code == 429


def test_nine_failures_hold_nothing(client: FlaskClient, make_user: Callable[..., Any],
                                    clock: Callable[[dt.datetime], None]) -> None:
    make_user("Ann", "officer")
    for _ in range(9):
        attempt(client, "Ann", "wrong guess")
    assert attempt(client, "Ann", PASSWORD).status_code == 302


def test_behind_a_proxy_the_address_is_the_one_it_forwards(
        web_db: str, app: Flask, make_user: Callable[..., Any],
        clock: Callable[[dt.datetime], None]) -> None:
    app.config["LEDGER_PROXIES"] = 1
    make_user("Ann", "officer")
    proxy = app.test_client()  # every request comes from the proxy, 127.0.0.1
    for n in range(10):  # a forged first entry is not believed: the proxy appends the real one
        proxy.environ_base["HTTP_X_FORWARDED_FOR"] = f"10.0.0.{n}, 203.0.113.9"
        assert attempt(proxy, f"user{n}", "guess").status_code == 401
    assert attempt(proxy, "Ann", PASSWORD).status_code == 429
    # Another client through the same proxy is not held.
    proxy.environ_base["HTTP_X_FORWARDED_FOR"] = "198.51.100.7"
    assert attempt(proxy, "Ann", PASSWORD).status_code == 302
    assert sql(web_db, "SELECT DISTINCT address FROM login_attempts ORDER BY address") == [
        ("198.51.100.7",), ("203.0.113.9",)]


def test_without_the_setting_the_header_is_ignored(
        web_db: str, client: FlaskClient, make_user: Callable[..., Any]) -> None:
    make_user("Ann", "officer")
    client.environ_base["HTTP_X_FORWARDED_FOR"] = "203.0.113.9"
    attempt(client, "Ann", "guess")
    assert sql(web_db, "SELECT address FROM login_attempts") == [("127.0.0.1",)]
