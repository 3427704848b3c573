"""No message, log or JSON ever shows a password from a database URL: ``init``, every error on
opening or writing a ledger, ``db copy``, the audit log's command line, and whatever the
ledger's libraries log meanwhile (captured at DEBUG).

The first tests need no server (a URL nothing answers, or one that cannot be parsed); those that
need PostgreSQL itself (a real login refused, a real init and copy) run with ``--database-url``.
"""

from __future__ import annotations

import json
import logging

import pytest
from ledgers import Factory
from sqlalchemy.engine import make_url
from typer.testing import CliRunner, Result

from ledger.cli.app import app

SECRET = "S3cret-Pw"
#: A server nothing listens on (port 1 of this machine), with a password.
NOWHERE = f"postgresql+psycopg://ann:{SECRET}@127.0.0.1:1/ledger"
NEEDS_SERVER = "needs a PostgreSQL server: run with --database-url (bash .ci/postgres-tests)"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def hidden(result: Result, caplog: pytest.LogCaptureFixture, *secrets: str) -> str:
    """Everything the command said (stdout, stderr) and logged, checked for ``secrets``."""
    said = result.stdout + result.stderr
    for secret in secrets or (SECRET,):
        assert secret not in said, said
        assert secret not in caplog.text, caplog.text
    assert "Traceback" not in said
    return " ".join(said.split())


@pytest.fixture(autouse=True)
def _log_everything(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)


@pytest.mark.parametrize("command", [("init",), ("player", "list"), ("period", "close"),
                                     ("player", "add", "Alpha, Ann")], ids=" ".join)
def test_a_server_that_does_not_answer(caplog: pytest.LogCaptureFixture,
                                       command: tuple[str, ...]) -> None:
    result = run("--db", NOWHERE, *command)
    assert result.exit_code == 1
    said = hidden(result, caplog)
    assert "postgresql+psycopg://ann:***@127.0.0.1:1/ledger" in said
    assert "connection" in said and "refused" in said


@pytest.mark.parametrize("url", [
    f"postgresql+psycopg://ann:{SECRET}@db.example:notaport/ledger",
    f"postgresql+nosuchdriver://ann:{SECRET}@db.example/ledger",
])
def test_a_url_that_cannot_be_used(caplog: pytest.LogCaptureFixture, url: str) -> None:
    result = run("--db", url, "player", "list")
    assert result.exit_code == 1
    assert "ann:***@db.example" in hidden(result, caplog)


def test_db_copy_to_a_server_that_does_not_answer(ledger_db: str,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    result = run("--db", ledger_db, "db", "copy", "--to", NOWHERE, "--json")
    assert result.exit_code == 1
    assert "postgresql+psycopg://ann:***@127.0.0.1:1/ledger" in hidden(result, caplog)


def _with_password(database_url: str | None) -> str:
    if database_url is None:
        pytest.skip(NEEDS_SERVER)
    url = make_url(database_url)
    if not url.password:
        pytest.skip("the --database-url has no password to hide")
    return str(url.password)


def test_a_login_the_server_refuses(database_url: str | None, new_ledger: Factory,
                                    caplog: pytest.LogCaptureFixture) -> None:
    real = _with_password(database_url)
    wrong = make_url(new_ledger("ledger")).set(password=SECRET).render_as_string(
        hide_password=False)
    result = run("--db", wrong, "player", "list")
    assert result.exit_code == 1
    said = hidden(result, caplog, SECRET, real)
    assert "password authentication failed" in said


def test_init_copy_and_audit_on_a_server(database_url: str | None, new_ledger: Factory,
                                         new_database: Factory,
                                         caplog: pytest.LogCaptureFixture) -> None:
    real = _with_password(database_url)
    db, target = new_database("ledger"), new_database("copy")
    shown = make_url(db).render_as_string(hide_password=True)
    created = run("--db", db, "init")
    assert created.exit_code == 0
    assert hidden(created, caplog, real).startswith(f"created ledger at {shown} (revision")
    added = run(f"--db={db}", "player", "add", "Alpha, Ann", "--rating", "1800",
                "--prior-games", "0", "--json")
    assert added.exit_code == 0
    hidden(added, caplog, real)
    audit = run("--db", db, "audit", "--json")
    commands = [c["command"] for c in json.loads(audit.stdout)["changes"]]
    assert commands == [f"ledger '--db={shown}' player add 'Alpha, Ann' --rating 1800 --prior-games 0 --json"]
    hidden(audit, caplog, real)
    copied = run("--db", db, "db", "copy", "--to", target, "--json")
    assert copied.exit_code == 0, copied.stderr
    hidden(copied, caplog, real)
    report = json.loads(copied.stdout)
    assert (report["source"], report["target"]) == (
        shown, make_url(target).render_as_string(hide_password=True))
    refused = run("--db", db, "db", "copy", "--to", target)  # not empty now
    assert refused.exit_code == 1
    assert hidden(refused, caplog, real).startswith("error: db copy: ")
