"""``ledger serve`` as a real process: waitress answering HTTP on a loopback port, while the CLI,
in processes of its own, records games in the same ledger (a copy of the README's example
season): every page answers throughout, the pages change after each write, and nothing is
lost, doubled or half-written. Also the command's refusals and its log.
"""

from __future__ import annotations

import http.cookiejar
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cli_runs import run
from example_ledgers import copy_of
from helpers import csrf_token
from ledgers import Factory, sql
from serving import environment, ledger_run, serving, stop
from sqlalchemy.engine import make_url

from ledger.cli.serve import default_secret_file, is_loopback
from ledger.db.engine import shown_db

#: The games the CLI records while the server answers: (white, black, result, round); Club
#: Night, 2026-11-05 (the example's players, each game a round of its own).
GAMES = [("Tanaka, Hiro", "Okafor, Grace", "1-0", "1"), ("Novak, Petra", "Byrne, Seán", "0-1", "2"),
         ("Moreau, Claire", "Lindqvist, Erik", "1/2-1/2", "3"),
         ("Okafor, Grace", "Novak, Petra", "1-0", "4"), ("Byrne, Seán", "Tanaka, Hiro", "0-1", "5"),
         ("Lindqvist, Erik", "Moreau, Claire", "1-0", "6")]


def get(url: str) -> tuple[int, str]:
    """The status and body of GET ``url``."""
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


@pytest.fixture
def copy_db(season_db: str, new_ledger: Factory) -> str:
    return copy_of(season_db, new_ledger("served"))


def test_served_while_the_cli_writes(copy_db: str, tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with serving(copy_db, log, "--insecure-cookies") as (address, process):
        said = log.read_text(encoding="utf-8")
        assert f"the ledger {shown_db(copy_db)} on {address}" in said
        password = make_url(copy_db).password if "://" in copy_db else None
        assert password is None or str(password) not in said
        assert "--insecure-cookies: cookies are sent over plain HTTP" in said
        status, home = get(address)
        assert status == 200
        assert '<a href="players/6.html">Tanaka, Hiro</a>' in home
        status, listed = get(address + "lists/standard/2026-10.html")
        assert status == 200 and '<td class="num rating">1693</td>' in listed
        assert get(address + "events/5.html")[0] == 404  # no fifth event yet

        failures: list[tuple[str, int]] = []
        done = threading.Event()

        def read() -> None:  # a member reading the site while the secretary types games in
            while not done.is_set():
                for path in ("", "lists/standard/2026-10.html", "players/6.html",
                             "api/players/6/history", "lists/standard/preview.html"):
                    status, _ = get(address + path)
                    if status != 200:
                        failures.append((path, status))

        reader = threading.Thread(target=read)
        reader.start()
        try:
            for n, (white, black, result, round_) in enumerate(GAMES, start=1):
                written = ledger_run(copy_db, "game", "add", white, black, result, "--date",
                               "2026-11-05", "--event", "Club Night", "--round", round_)
                assert written.returncode == 0, written.stderr
                # the page changes after the write: the event has every game recorded so far
                status, page = get(address + "api/events/5")
                assert status == 200
                assert json.loads(page)["games"] == n
        finally:
            done.set()
            reader.join()
        assert failures == []

        # nothing lost, doubled or half-written: the server and the CLI say the same
        status, served = get(address + "api/events/5")
        assert status == 200
        shown = ledger_run(copy_db, "event", "show", "#5", "--json")
        assert shown.returncode == 0
        assert served == shown.stdout
        report = json.loads(served)
        assert report["games"] == len(GAMES) == 6
        # Tanaka: 1-0 v Okafor (round 1) and 1-0 v Byrne (round 5): 2 points
        assert next(p for p in report["players"] if p["player_id"] == 6)["points"] == 2
        player = get(address + "players/6.html")[1]
        # his two games of the night, each once
        assert player.count('<tr><td>2026-11-05</td><td class="wrap"><a href="../events/5.html">'
                            'Club Night</a>') == 2
    assert process.returncode == 0
    assert "ledger serve: stopped" in log.read_text(encoding="utf-8")


def test_insecure_cookies_only_on_a_loopback_host(copy_db: str) -> None:
    result = run(copy_db, "serve", "--host", "0.0.0.0", "--insecure-cookies")
    assert result.exit_code == 2
    assert "--insecure-cookies: only for a server on this machine" in result.stderr
    assert not Path(copy_db + ".secret").exists()  # refused before anything was made


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.3.2.1", True), ("localhost", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("192.168.1.5", False), ("::", False),
    ("club.example", False),
])
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_the_secret_file_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_secret_file(str(tmp_path / "club.db")) == tmp_path / "club.db.secret"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert default_secret_file("postgresql+psycopg://ann:s3cret@db.example/club") \
        == tmp_path / "config" / "ledger" / "club.secret"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def gunicorn(db: str, secret: Path, log: Path, workers: int = 4) -> Iterator[str]:
    """``gunicorn -w WORKERS 'ledger.web:app_from_environment()'`` on ``db`` (``LEDGER_DB``,
    ``LEDGER_SECRET_FILE``), as docs/serve.md starts it: its address once it answers; stopped
    (SIGTERM) at the end."""
    port = _free_port()
    env = environment(LEDGER_DB=db, LEDGER_SECRET_FILE=str(secret),
                      LEDGER_CLUB="Riverside Chess Club")
    with open(log, "w", encoding="utf-8") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"127.0.0.1:{port}",
             "ledger.web:app_from_environment()"], env=env, stdout=err, stderr=err, text=True)
    address = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(600):
            assert process.poll() is None, log.read_text(encoding="utf-8")
            try:
                if get(address + "site.css")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        yield address
    finally:
        stop(process, timeout=60)


def test_gunicorn_four_workers_on_postgresql(copy_db: str, on_postgres: bool,
                                             tmp_path: Path) -> None:
    """Four workers, each with its own cache of the site: after each game the CLI records,
    every answer (whichever worker gives it) has every game so far; at the end the server and
    the CLI agree, byte for byte."""
    if not on_postgres:
        pytest.skip("gunicorn's several workers are for PostgreSQL (bash .ci/postgres-tests)")
    from ledger.web import read_secret

    secret = tmp_path / "federation.secret"
    read_secret(secret)  # made as ledger serve makes it: 0600
    with gunicorn(copy_db, secret, tmp_path / "gunicorn.log") as address:
        status, listed = get(address + "lists/standard/2026-10.html")
        assert status == 200 and '<td class="num rating">1693</td>' in listed
        for n, (white, black, result, round_) in enumerate(GAMES, start=1):
            written = ledger_run(copy_db, "game", "add", white, black, result, "--date",
                           "2026-11-05", "--event", "Club Night", "--round", round_)
            assert written.returncode == 0, written.stderr
            for _ in range(8):  # more requests than workers: each worker answers some
                status, page = get(address + "api/events/5")
                assert status == 200
                assert json.loads(page)["games"] == n
                status, player = get(address + "players/6.html")
                assert status == 200
                assert "Club Night" in player
        shown = ledger_run(copy_db, "event", "show", "#5", "--json")
        assert get(address + "api/events/5") == (200, shown.stdout)


def test_no_ledger_no_server(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.db"
    result = run(str(missing), "serve", "--port", "0")
    assert result.exit_code == 4
    assert "ledger init" in result.stderr
    assert not (tmp_path / "nothing.db.secret").exists()


def test_a_secret_file_others_can_read_is_refused(ledger_db: str, tmp_path: Path) -> None:
    secret = tmp_path / "open.secret"
    secret.write_text("a" * 64 + "\n", encoding="ascii")
    secret.chmod(0o644)
    result = run(ledger_db, "serve", "--port", "0", "--secret-file", str(secret))
    assert result.exit_code == 1  # refused by the ledger (InvalidInput)
    assert "can be read by others (mode 644): chmod 600" in result.stderr


def test_proxies_the_address_is_the_one_the_proxy_forwards(ledger_db: str,
                                                           tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with serving(ledger_db, log, "--insecure-cookies", "--proxies", "1") as (address, _):
        assert ("trusting 1 reverse proxy in front: the client's address is read from "
                "X-Forwarded-For") in log.read_text(encoding="utf-8")
        browser = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with browser.open(address + "login", timeout=60) as page:
            token = csrf_token(page.read().decode("utf-8"))
        # this test is the proxy (127.0.0.1): it appended the client's address, 203.0.113.9,
        # after what the client sent (10.0.0.1, not believed)
        attempt = urllib.request.Request(
            address + "login", headers={"X-Forwarded-For": "10.0.0.1, 203.0.113.9"},
            data=urllib.parse.urlencode({"username": "Nobody", "password": "not the password",
                                         "csrf_token": token}).encode("ascii"))
        with pytest.raises(urllib.error.HTTPError) as refused:
            browser.open(attempt, timeout=60)
        refused.value.close()
        assert refused.value.code == 401
    assert sql(ledger_db, "SELECT address FROM login_attempts") == [("203.0.113.9",)]


def test_proxies_is_a_number_of_proxies(ledger_db: str) -> None:
    result = run(ledger_db, "serve", "--proxies", "-1")
    assert result.exit_code == 2
    assert "Invalid value for '--proxies'" in result.stderr
    assert "greater than or equal to 0" in result.stderr
