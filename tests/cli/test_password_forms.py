"""Every form a database URL gives its password in (issue 22 §3), through every command that
prints or stores a URL: the password is never shown (``errors.hide_passwords``, the one function
that masks one), and it need not be on the command line at all (``LEDGER_DB``, PostgreSQL's
``PGPASSWORD`` and pass file), where ``ps`` would show it.

The forms: the user information (as typed, with a blank; URL-quoted, with ``@``, ``/``, ``#`` and
a blank), a ``password=`` query parameter (URL-quoted, as typed with blanks and ``@``, with
``+`` for a blank, followed by another parameter). Without a server, each goes to a port nothing
listens on; with ``--database-url`` (``bash .ci/postgres-tests``) a role whose password holds a
blank, ``@``, ``/`` and ``#`` creates, writes, audits and copies a ledger in each form.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from typer.testing import CliRunner, Result

from ledger.cli.app import app

#: A password with a blank, ``@``, ``/`` and ``#``: its two words must never be seen.
WORDS = ("Zq9Secret", "Xk7Word")
PASSWORD = f"{WORDS[0]} {WORDS[1]}@/#1"
#: A password SQLAlchemy reads whole when typed as it is (an ``@`` must be written ``%40``).
TYPED = f"{WORDS[0]} {WORDS[1]}"


def forms(user: str, host: str, database: str) -> dict[str, str]:
    """The URL of ``user`` at ``host`` in every form, by name: password ``PASSWORD``, or
    ``TYPED`` in the forms as typed."""
    base = f"postgresql+psycopg://{user}"
    return {
        "userinfo quoted": f"{base}:{quote(PASSWORD, safe='')}@{host}/{database}",
        "userinfo typed": f"{base}:{TYPED}@{host}/{database}",
        "query quoted": f"{base}@{host}/{database}?password={quote(PASSWORD, safe='')}",
        "query as typed": f"{base}@{host}/{database}?password={TYPED}",
        "query plus": f"{base}@{host}/{database}?password={quote_plus(PASSWORD)}",
        "query then another": (f"{base}@{host}/{database}?password={quote(PASSWORD, safe='')}"
                               "&sslmode=disable"),
    }


#: A server nothing listens on (port 1 of this machine).
NOWHERE = "127.0.0.1:1"
#: Each form to ``NOWHERE``.
UNANSWERED = forms("ann", NOWHERE, "ledger")


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=env)


def said(result: Result, caplog: pytest.LogCaptureFixture) -> str:
    """What the command said and logged, none of it a word of the password."""
    text = result.stdout + result.stderr + caplog.text
    for word in WORDS:
        assert word not in text, text
    assert "Traceback" not in text
    return " ".join(text.split())


@pytest.fixture(autouse=True)
def _log_everything(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)


@pytest.mark.parametrize("form", sorted(UNANSWERED))
@pytest.mark.parametrize("command", [("init",), ("player", "list", "--json"),
                                     ("player", "add", "Alpha, Ann"), ("audit", "--json")],
                         ids=" ".join)
def test_no_form_shows_its_password_when_the_server_does_not_answer(
        form: str, command: tuple[str, ...], caplog: pytest.LogCaptureFixture) -> None:
    result = run("--db", UNANSWERED[form], *command)
    assert result.exit_code == 1
    text = said(result, caplog)
    assert "127.0.0.1:1/ledger" in text and "***" in text


@pytest.mark.parametrize("form", sorted(UNANSWERED))
def test_no_form_shows_its_password_from_ledger_db(form: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    result = run("player", "list", env={"LEDGER_DB": UNANSWERED[form]})
    assert result.exit_code == 1
    assert "127.0.0.1:1/ledger" in said(result, caplog)


@pytest.mark.parametrize("form", sorted(UNANSWERED))
def test_no_form_shows_its_password_as_a_copy_target(form: str, ledger_db: str,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    result = run("--db", ledger_db, "db", "copy", "--to", UNANSWERED[form], "--json")
    assert result.exit_code == 1
    assert "127.0.0.1:1/ledger" in said(result, caplog)


@pytest.mark.parametrize(("url", "shown"), [
    (f"postgresql+psycopg://ann:{PASSWORD}@{NOWHERE}/ledger",
     "postgresql+psycopg://ann:***@127.0.0.1:1/ledger"),
    (f"postgresql+psycopg://ann@{NOWHERE}/ledger?password={PASSWORD}",
     "postgresql+psycopg://ann@127.0.0.1:1/ledger?password=***"),
], ids=["userinfo", "query"])
def test_a_password_with_an_at_as_typed_is_refused_without_showing_it(
        url: str, shown: str, caplog: pytest.LogCaptureFixture) -> None:
    result = run("--db", url, "player", "list")
    assert result.exit_code == 1
    assert said(result, caplog) == (
        f"error: --db: '{shown}': the URL has more than one @; write an @ in a user name, "
        "password or parameter as %40")


# --------------------------------------------------------------------------------------------
# What ps shows: a command line is public to every local user, the environment is not


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A loopback address that accepts connections and never answers (a server that hangs):
    a command connecting to it waits, so that its process can be looked at."""
    listener = socket.create_server(("127.0.0.1", 0))
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()


def command_line_while_waiting(args: list[str], env: dict[str, str]) -> tuple[str, str]:
    """The command line and environment of a ``ledger`` process (``/proc/PID/cmdline`` and
    ``environ``, what ``ps`` and ``ps e`` read) while it waits for a server; then it is ended."""
    process = subprocess.Popen([sys.executable, "-m", "ledger", *args], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(3)  # started, and connecting to the silent server
        assert process.poll() is None
        proc = Path(f"/proc/{process.pid}")
        environ = proc.joinpath("environ")
        return (proc.joinpath("cmdline").read_bytes().decode().replace("\0", " "),
                f"{environ.stat().st_mode & 0o777:o} " + environ.read_bytes().decode())
    finally:
        process.kill()
        process.wait()


def test_ps_shows_a_password_given_on_the_command_line_and_not_one_from_ledger_db(
        silent_server: str) -> None:
    url = f"postgresql+psycopg://ann:{WORDS[0]}@{silent_server}/ledger"
    env = {k: v for k, v in os.environ.items() if k != "LEDGER_DB"}
    shown, _ = command_line_while_waiting(["--db", url, "player", "list"], env)
    assert WORDS[0] in shown  # why the README says: never on the command line
    shown, environ = command_line_while_waiting(["player", "list"], env | {"LEDGER_DB": url})
    assert shown == f"{sys.executable} -m ledger player list "
    # the environment holds it, readable by the process's owner (and root) only
    assert environ.startswith("400 ") and WORDS[0] in environ


# --------------------------------------------------------------------------------------------
# On a real server (--database-url): a role whose password has a blank, @, / and #


@pytest.fixture
def role(database_url: str | None) -> Iterator[str]:
    """A role ``ann22`` with ``PASSWORD`` that may create databases; its server's host:port."""
    if database_url is None:
        pytest.skip("needs a PostgreSQL server: run with --database-url (bash .ci/postgres-tests)")
    admin = create_engine(database_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql("DROP ROLE IF EXISTS ann22")
            assert "'" not in PASSWORD  # a literal: DDL takes no parameters
            conn.exec_driver_sql(f"CREATE ROLE ann22 LOGIN CREATEDB PASSWORD '{PASSWORD}'")
        url = make_url(database_url)
        yield f"{url.host}:{url.port}"
    finally:
        with admin.connect() as conn:
            for (name,) in conn.execute(text(
                    "SELECT datname FROM pg_database WHERE datname LIKE 'ann22%'")).all():
                conn.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
            conn.exec_driver_sql("DROP ROLE IF EXISTS ann22")
        admin.dispose()


def run_sql(database_url: str, statement: str) -> None:
    admin = create_engine(database_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(statement)
    finally:
        admin.dispose()


def create_database(database_url: str, name: str) -> None:
    run_sql(database_url, f'CREATE DATABASE "{name}" OWNER ann22')


@pytest.mark.parametrize("form", sorted(forms("u", "h", "d")))
def test_each_form_creates_writes_audits_and_copies_on_a_server(
        form: str, role: str, database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    tag = form.replace(" ", "_")
    if form.endswith("typed"):  # the forms without the @
        run_sql(database_url, f"ALTER ROLE ann22 PASSWORD '{TYPED}'")
    create_database(database_url, f"ann22_{tag}")
    create_database(database_url, f"ann22_{tag}_copy")
    db = forms("ann22", role, f"ann22_{tag}")[form]
    target = forms("ann22", role, f"ann22_{tag}_copy")[form]
    shown = f"postgresql+psycopg://ann22:***@{role}/ann22_{tag}" if form.startswith("userinfo") \
        else db.split("?")[0] + "?password=***" + ("&sslmode=disable" if "another" in form else "")
    created = run("--db", db, "init")
    assert created.exit_code == 0, created.stderr
    assert said(created, caplog).startswith(f"created ledger at {shown} (revision ")
    added = run(f"--db={db}", "player", "add", "Alpha, Ann", "--json")
    assert added.exit_code == 0, added.stderr
    said(added, caplog)
    audit = run("--db", db, "audit", "--json")
    said(audit, caplog)
    commands = [c["command"] for c in json.loads(audit.stdout)["changes"]]
    assert commands == [f"ledger '--db={shown}' player add 'Alpha, Ann' --json"]
    copied = run("--db", db, "db", "copy", "--to", target, "--json")
    assert copied.exit_code == 0, copied.stderr
    said(copied, caplog)
    report = json.loads(copied.stdout)
    assert report["source"].count("***") == report["target"].count("***") == 1


def test_a_password_from_pgpassword_or_a_pass_file_never_on_the_command_line(
        role: str, database_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    create_database(database_url, "ann22_passfile")
    url = f"postgresql+psycopg://ann22@{role}/ann22_passfile"
    refused = run("--db", url, "init", env={"PGPASSWORD": "", "PGPASSFILE": str(tmp_path / "no")})
    assert refused.exit_code == 1  # no password anywhere: the server says no
    assert "password" in said(refused, caplog)
    created = run("--db", url, "init", env={"PGPASSWORD": PASSWORD})
    assert created.exit_code == 0, created.stderr
    assert said(created, caplog).startswith(f"created ledger at {url} (revision ")
    passfile = tmp_path / "pgpass"
    host, port = role.split(":")
    escaped = PASSWORD.replace("\\", "\\\\").replace(":", "\\:")
    passfile.write_text(f"{host}:{port}:ann22_passfile:ann22:{escaped}\n")
    passfile.chmod(0o600)  # libpq ignores a pass file others may read
    listed = run("--db", url, "player", "list", "--json",
                 env={"PGPASSWORD": "", "PGPASSFILE": str(passfile)})
    assert listed.exit_code == 0, listed.stderr
    said(listed, caplog)
    assert json.loads(listed.stdout)["players"] == []
