"""Plain helpers of the web tests (the fixtures of ``conftest.py`` hand them out too).

- ``csrf_token(html)``: the value of the page's hidden ``csrf_token`` input.
- ``form_post(client, url, data, page=None)``: GET ``page or url``, read its CSRF token, POST
  ``data`` with it to ``url``; the response.
- ``session_cookie(client, secure=False)``: the value of the client's session cookie, or None.
- ``CHEAP_HASHER``: an Argon2id hasher of the least cost, for tests (the real one takes 64 MiB
  and tens of milliseconds per hash).
"""

from __future__ import annotations

import html
import re
from typing import Any

from argon2 import PasswordHasher
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

#: Argon2id at its least cost (1 pass, 8 KiB, 1 lane): the same PHC strings, made fast.
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)

_TOKEN = re.compile(r'<input[^>]*name="csrf_token"[^>]*value="([^"]*)"')


def csrf_token(page: str) -> str:
    """The value of the first hidden ``csrf_token`` input of the HTML ``page``;
    ``AssertionError`` when there is none."""
    found = _TOKEN.search(page)
    assert found, "no csrf_token input on the page"
    return html.unescape(found.group(1))


def form_post(client: FlaskClient, url: str, data: dict[str, Any],
              page: str | None = None) -> TestResponse:
    """POST ``data`` and the CSRF token of the form at ``page`` (default ``url``) to ``url``."""
    shown = client.get(page or url)
    assert shown.status_code == 200, (page or url, shown.status_code)
    return client.post(url, data={**data, "csrf_token": csrf_token(shown.get_data(as_text=True))})


def session_cookie(client: FlaskClient, secure: bool = False) -> str | None:
    """The value of ``client``'s session cookie (``ledger-session``, or ``__Host-ledger`` when
    ``secure``), None when it has none."""
    cookie = client.get_cookie("__Host-ledger" if secure else "ledger-session")
    return None if cookie is None else cookie.value
