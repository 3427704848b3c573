"""Rendering ``ledger user``: the accounts of the web (lines for people, JSON for programs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.cli.render.output import count, print_json, say, stdout
from ledger.cli.render.tables import PlainTable

if TYPE_CHECKING:
    from ledger.services.accounts.users import Account


def added(account: Account, one_time: str | None) -> None:
    """``user add``: who was added, with which role; a one-time password shown this once."""
    say(f"added user {account.name} (#{account.id}), {account.role}")
    if one_time is not None:
        say(f"one-time password: {one_time}")
        say("shown this once: give it to them; they must choose their own at the first login")


def _state(account: Account) -> str:
    return ("disabled" if account.disabled
            else "one-time password" if account.must_change_password else "")


def listed(accounts: list[Account], as_json: bool) -> None:
    """``user list``: every user, in the order added."""
    if as_json:
        print_json({"users": [a.as_json() for a in accounts]})
        return
    if not accounts:
        say("no user yet (ledger user add NAME --role admin)")
        return
    table = PlainTable(title=f"Users ({len(accounts)})")
    for col, justify in (("id", "right"), ("name", "left"), ("role", "left"), ("state", "left")):
        table.add_column(col, justify=justify)
    for a in accounts:
        table.add_row(f"#{a.id}", a.name, a.role, _state(a))
    stdout().print(table)


def role_set(account: Account) -> None:
    """``user role``: the user's role now."""
    say(f"{account.name} is now {account.role}")


def disabled(account: Account, ended: int) -> None:
    """``user disable``: who, and how many sessions ended."""
    say(f"disabled {account.name}: no more logins; {count(ended, 'session')} ended")


def password_reset(account: Account, ended: int, one_time: str | None) -> None:
    """``user password``: whose, how many sessions ended; a one-time password shown once."""
    say(f"new password for {account.name}; {count(ended, 'session')} ended")
    if one_time is not None:
        say(f"one-time password: {one_time}")
        say("shown this once: give it to them; they must choose their own at the next login")


def enabled(account: Account) -> None:
    """``user enable``: who may log in again."""
    say(f"enabled {account.name}: they may log in again")
