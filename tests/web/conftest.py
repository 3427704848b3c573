"""Fixtures of the web tests (``ledger serve``, issue 23). Every web test gets a fresh ledger
and an application over it; Argon2id runs at its least cost (``helpers.CHEAP_HASHER``) so that
logins are fast.

- ``web_db``: a fresh ledger at the latest revision (path or URL: ``ledger_db``).
- ``app``: ``create_app(web_db, secret=b"x" * 64, club="Test club", insecure_cookies=True)``
  (cookies ``ledger-session`` and ``ledger-form``, not ``Secure``); its engine disposed at the end.
- ``client``: ``app.test_client()``.
- ``make_user(name, role, password="correct horse battery", one_time=False)``: adds the user
  through ``services.accounts.users.add_user``; their ``Account``.
- ``form_post(client, url, data, page=None)``: GETs ``page or url``, reads its hidden
  ``csrf_token``, POSTs ``data`` with it to ``url``; the response (``helpers.form_post``).
- ``login(client, name, role, password="correct horse battery")``: ``make_user`` then a login
  at ``/login``, asserted to succeed (302 and a session cookie); the ``Account``.

Plain functions (``csrf_token``, ``form_post``, ``session_cookie``) are in ``helpers.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import CHEAP_HASHER, session_cookie
from helpers import form_post as post_form
from werkzeug.test import TestResponse

from ledger.domain import Actor
from ledger.services.accounts import passwords
from ledger.services.accounts.users import Account, add_user
from ledger.web import create_app

#: The password ``make_user`` and ``login`` give by default (not among the common ones).
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(passwords, "HASHER", CHEAP_HASHER)


@pytest.fixture
def web_db(ledger_db: str) -> str:
    """A fresh ledger at the latest revision, for the web tests."""
    return ledger_db


@pytest.fixture
def app(web_db: str) -> Iterator[Flask]:
    """The application over ``web_db`` (club "Test club", cookies over plain HTTP)."""
    made = create_app(web_db, secret=b"x" * 64, club="Test club", insecure_cookies=True)
    made.config["TESTING"] = True
    try:
        yield made
    finally:
        made.extensions["ledger"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser of ``app`` (keeps its cookies)."""
    return app.test_client()


@pytest.fixture
def make_user(web_db: str, app: Flask) -> Callable[..., Account]:
    """``make_user(name, role, password=PASSWORD, one_time=False)``: a new user, added as
    ``ledger user add`` adds one; their ``Account``."""

    def make(name: str, role: str, password: str = PASSWORD, one_time: bool = False) -> Account:
        return add_user(app.extensions["ledger"], Actor("tests", "make_user"), name, role,
                        password, one_time=one_time)

    return make


@pytest.fixture
def form_post() -> Callable[..., TestResponse]:
    """``form_post(client, url, data, page=None)``: ``helpers.form_post``."""
    return post_form


@pytest.fixture
def login(make_user: Callable[..., Account]) -> Callable[..., Account]:
    """``login(client, name, role, password=PASSWORD)``: make the user, log ``client`` in as
    them (asserted: 302 and a session cookie); their ``Account``."""

    def log_in(client: FlaskClient, name: str, role: str, password: str = PASSWORD) -> Any:
        account = make_user(name, role, password)
        answer = post_form(client, "/login", {"username": name, "password": password})
        assert answer.status_code == 302, answer.get_data(as_text=True)
        assert session_cookie(client) is not None
        return account

    return log_in
