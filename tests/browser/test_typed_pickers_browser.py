"""The typed-games form in a real browser (issue 23): the site's script fills the player
picker's datalist from ``/api/search/players?q=`` as one types (``sean`` offers ``Byrne,
Seán``), and the form is readable at 390 px (nothing wider than the window).

The application is served by werkzeug in a thread of the test, over a fresh ledger on the
run's database (``ledger_db``: a SQLite file, or a PostgreSQL database of its own on
``.ci/postgres-tests``) with the players "Byrne, Seán" and "Novak, Petra" and the reporter Ann.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher
from chromium import missing

from ledger.domain import Actor
from ledger.services.accounts import passwords
from ledger.services.accounts.users import add_user
from ledger.services.register.players import NewPlayer, add_player
from ledger.web import create_app

pytestmark = pytest.mark.browser

if missing():
    pytest.skip(missing() or "", allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

PASSWORD = "correct horse battery"
#: Argon2id at its least cost (as tests/web/helpers.py): fast logins.
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@pytest.fixture
def served(ledger_db: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The application over a ledger with two players and Ann, on a loopback port: its
    address (``http://127.0.0.1:PORT``)."""
    from werkzeug.serving import make_server

    monkeypatch.setattr(passwords, "HASHER", CHEAP_HASHER)
    app = create_app(ledger_db, secret=b"x" * 64, club="Test club", insecure_cookies=True)
    engine = app.extensions["ledger"]
    for name in ("Byrne, Seán", "Novak, Petra"):
        add_player(engine, NewPlayer(name=name, rating=1800, prior_games=300))
    add_user(engine, Actor("tests", "served"), "Ann", "reporter", PASSWORD)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)
        server.server_close()
        engine.dispose()


def test_typing_sean_offers_sean_with_its_accent(browser: Any, served: str) -> None:
    browser.set_window_size(390, 844)
    browser.get(served + "/login")
    browser.find_element(By.ID, "username").send_keys("Ann")
    browser.find_element(By.ID, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    WebDriverWait(browser, 10).until(lambda d: "/login" not in d.current_url)
    browser.get(served + "/submissions/type")
    browser.find_element(By.ID, "white-1").send_keys("sean")
    offered = WebDriverWait(browser, 10).until(lambda d: d.execute_script(
        "return Array.from(document.querySelectorAll('#players-found option'))"
        ".map(function (o) { return o.value; });"))
    assert offered == ["Byrne, Seán"]
    # readable on a phone: nothing wider than the 390 px window
    width = browser.execute_script("return document.documentElement.clientWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    # no script error (the meta policy's ignored frame-ancestors and the favicon's 404 are
    # the base page's, not the script's)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"
              and e.get("source") in ("javascript", "console-api")]
    assert errors == []
