"""``ledger user``: the web's accounts from the command line (issue 23): add (the password on
standard input, or ``--one-time``), list, role, disable; each audited without the password; each
refusal a message, exit 1 and nothing written."""

from __future__ import annotations

import json

import pytest
from argon2 import PasswordHasher
from cli_runs import data
from ledgers import contents, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.services.accounts import passwords

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Argon2id at its least cost: the same PHC strings, made in a millisecond.
    monkeypatch.setattr(passwords, "HASHER", PasswordHasher(time_cost=1, memory_cost=8,
                                                              parallelism=1))


def user(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, ["--db", db, "--by", "secretary", "user", *args], input=stdin)


def test_add_reads_the_password_from_stdin_and_keeps_only_its_hash(ledger_db: str) -> None:
    added = user(ledger_db, "add", "Ann Officer", "--role", "officer", stdin=PASSWORD + "\n")
    assert added.exit_code == 0, added.output
    assert added.stdout == "added user Ann Officer (#1), officer\n"
    [(name, key, role, digest, once, off)] = sql(
        ledger_db, "SELECT name, name_key, role, password_hash, must_change_password, disabled "
        "FROM users")
    assert (name, key, role, bool(once), bool(off)) == ("Ann Officer", "ann officer", "officer",
                                                        False, False)
    assert str(digest).startswith("$argon2id$v=19$m=8,t=1,p=1$")
    assert PasswordHasher().verify(str(digest), PASSWORD)
    change = data(ledger_db, "audit")["changes"][-1]
    assert (change["by"], change["action"], change["entity_id"]) == ("secretary", "user.add", "1")
    assert change["after"] == {"name": "Ann Officer", "role": "officer", "one_time": False}
    assert PASSWORD not in json.dumps(change) and str(digest) not in json.dumps(change)


def test_a_one_time_password_is_printed_once_and_must_be_changed(ledger_db: str) -> None:
    added = user(ledger_db, "add", "Rita", "--role", "reporter", "--one-time")
    assert added.exit_code == 0, added.output
    lines = added.stdout.splitlines()
    assert lines[0] == "added user Rita (#1), reporter"
    shown = lines[1].removeprefix("one-time password: ")
    assert len(shown) == 20  # 15 random bytes in base64url
    [(digest, once)] = sql(ledger_db, "SELECT password_hash, must_change_password FROM users")
    assert bool(once) and PasswordHasher().verify(str(digest), shown)
    assert data(ledger_db, "user", "list")["users"] == [
        {"id": 1, "name": "Rita", "role": "reporter", "must_change_password": True,
         "disabled": False}]


def test_list_role_and_disable(ledger_db: str) -> None:
    assert user(ledger_db, "list").stdout == "no user yet (ledger user add NAME --role admin)\n"
    user(ledger_db, "add", "Ann", "--role", "admin", stdin=PASSWORD + "\n")
    user(ledger_db, "add", "Bob", "--role", "reporter", stdin=PASSWORD + "\n")
    role = user(ledger_db, "role", "BOB", "officer")
    assert (role.exit_code, role.stdout) == (0, "Bob is now officer\n")
    off = user(ledger_db, "disable", "bob")
    assert (off.exit_code, off.stdout) == (0, "disabled Bob: no more logins; 0 sessions ended\n")
    assert data(ledger_db, "user", "list")["users"] == [
        {"id": 1, "name": "Ann", "role": "admin", "must_change_password": False,
         "disabled": False},
        {"id": 2, "name": "Bob", "role": "officer", "must_change_password": False,
         "disabled": True}]
    changes = data(ledger_db, "audit")["changes"]
    assert [(c["action"], c["before"], c["after"]) for c in changes[2:]] == [
        ("user.role", {"role": "reporter"}, {"role": "officer"}),
        ("user.disable", {"disabled": False}, {"disabled": True, "sessions_ended": 0})]


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (("add", "Cy", "--role", "boss"), PASSWORD,
     "error: role: 'boss' is not a role; one of reporter, officer, admin"),
    (("add", "ann", "--role", "reporter"), PASSWORD,
     "error: name: there is a user 'Ann' already (names are compared ignoring case)"),
    (("add", "Cy", "--role", "reporter"), "short12",  # 7 characters
     "error: password: 7 characters; at least 8"),
    (("add", "Cy", "--role", "reporter"), "",
     "error: password: none on standard input (give it on the first line, or use --one-time)"),
    (("add", "   ", "--role", "reporter"), PASSWORD,
     "error: name: empty; a user needs a name to log in with"),
    (("role", "Ann", "boss"), None,
     "error: role: 'boss' is not a role; one of reporter, officer, admin"),
    (("role", "Zed", "officer"), None, "error: no user 'Zed': ledger user list shows them"),
    (("disable", "Zed"), None, "error: no user 'Zed': ledger user list shows them"),
])
def test_refusals_say_why_exit_1_and_write_nothing(ledger_db: str, args: tuple[str, ...],
                                                    stdin: str | None, message: str) -> None:
    user(ledger_db, "add", "Ann", "--role", "admin", stdin=PASSWORD + "\n")
    before = contents(ledger_db)
    refused = user(ledger_db, *args, stdin=None if stdin is None else stdin + "\n")
    assert refused.exit_code == 1
    assert refused.stderr.strip() == message
    assert contents(ledger_db) == before


def test_disabling_twice_is_refused(ledger_db: str) -> None:
    user(ledger_db, "add", "Ann", "--role", "admin", stdin=PASSWORD + "\n")
    assert user(ledger_db, "disable", "Ann").exit_code == 0
    before = contents(ledger_db)
    again = user(ledger_db, "disable", "Ann")
    assert (again.exit_code, again.stderr.strip()) == (1, "error: user 'Ann' is disabled already")
    assert contents(ledger_db) == before


def test_on_a_terminal_the_password_is_asked_twice(
        ledger_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from ledger.cli import users as cli_users

    answers = iter([PASSWORD, PASSWORD + "x"])
    monkeypatch.setattr(cli_users, "on_a_terminal", lambda: True)
    monkeypatch.setattr(cli_users.getpass, "getpass", lambda prompt: next(answers))
    before = contents(ledger_db)
    differ = user(ledger_db, "add", "Ann", "--role", "admin")
    assert (differ.exit_code, differ.stderr.strip()) == (
        1, "error: password: the two differ; nothing was written")
    assert contents(ledger_db) == before
    answers = iter([PASSWORD, PASSWORD])
    assert user(ledger_db, "add", "Ann", "--role", "admin").exit_code == 0


def test_a_forgotten_password_is_replaced_and_ends_the_sessions(ledger_db: str) -> None:
    user(ledger_db, "add", "Ann", "--role", "officer", stdin=PASSWORD + "\n")
    typed = user(ledger_db, "password", "ann", stdin="a brand new passphrase\n")
    assert (typed.exit_code, typed.stdout) == (0, "new password for Ann; 0 sessions ended\n")
    [(digest, once)] = sql(ledger_db, "SELECT password_hash, must_change_password FROM users")
    assert PasswordHasher().verify(str(digest), "a brand new passphrase") and not once
    given = user(ledger_db, "password", "Ann", "--one-time")
    assert given.exit_code == 0, given.output
    shown = given.stdout.splitlines()[1].removeprefix("one-time password: ")
    [(digest, once)] = sql(ledger_db, "SELECT password_hash, must_change_password FROM users")
    assert PasswordHasher().verify(str(digest), shown) and once
    changes = data(ledger_db, "audit")["changes"][-2:]
    assert [(c["action"], c["after"]) for c in changes] == [
        ("user.password-reset", {"sessions_ended": 0}),
        ("user.password-reset", {"sessions_ended": 0, "one_time": True})]
    assert shown not in json.dumps(changes)


def test_enable_lets_a_disabled_user_in_again(ledger_db: str) -> None:
    user(ledger_db, "add", "Ann", "--role", "officer", stdin=PASSWORD + "\n")
    before = contents(ledger_db)
    refused = user(ledger_db, "enable", "Ann")
    assert (refused.exit_code, refused.stderr.strip()) == (1, "error: user 'Ann' is not disabled")
    assert contents(ledger_db) == before
    user(ledger_db, "disable", "Ann")
    back = user(ledger_db, "enable", "ann")
    assert (back.exit_code, back.stdout) == (0, "enabled Ann: they may log in again\n")
    assert data(ledger_db, "user", "list")["users"][0]["disabled"] is False


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (("password", "Zed"), PASSWORD, "error: no user 'Zed': ledger user list shows them"),
    (("password", "Ann"), "password1", "error: password: one of the 10,000 most common "
     "passwords; choose another (a few unrelated words make a good one)"),
    (("enable", "Zed"), None, "error: no user 'Zed': ledger user list shows them"),
])
def test_password_and_enable_refusals(ledger_db: str, args: tuple[str, ...], stdin: str | None,
                                      message: str) -> None:
    user(ledger_db, "add", "Ann", "--role", "admin", stdin=PASSWORD + "\n")
    before = contents(ledger_db)
    refused = user(ledger_db, *args, stdin=None if stdin is None else stdin + "\n")
    assert (refused.exit_code, refused.stderr.strip()) == (1, message)
    assert contents(ledger_db) == before
