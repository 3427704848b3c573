"""``ledger user``: the accounts of the web face (``ledger serve``): add one with a role, list
them, change a role, disable one. The password of ``user add`` is read from standard input
(asked twice on a terminal), never from the command line, so it is in no shell history, no
process list and no audit entry."""

from __future__ import annotations

import getpass
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import JsonOpt, reports_errors, run, run_write
from ledger.cli.lazy import lazy
from ledger.cli.render import users as render_users
from ledger.errors import InvalidInput

if TYPE_CHECKING:
    from ledger.services.accounts import users
else:
    users = lazy("ledger.services.accounts.users")

user_app = typer.Typer(help="The web's users (ledger serve): add them, list them, change a "
                       "role, a forgotten password, disable one.", no_args_is_help=True)

NameArg = Annotated[str, typer.Argument(
    metavar="NAME", help="The name the user logs in with (case aside).")]
ROLE_HELP = "reporter, officer or admin."


def on_a_terminal() -> bool:
    """Whether standard input is a terminal (a person typing, not a pipe)."""
    return sys.stdin.isatty()


def read_password(name: str) -> str:
    """The new password of ``name``: asked twice on a terminal (not shown), else the first
    line of standard input. Raises ``InvalidInput`` when the two differ or none is given."""
    if on_a_terminal():
        first = getpass.getpass(f"Password for {name}: ")
        if first != getpass.getpass("The same again: "):
            raise InvalidInput("password: the two differ; nothing was written")
        return first
    line = sys.stdin.readline()
    password = line[:-1] if line.endswith("\n") else line
    password = password[:-1] if password.endswith("\r") else password
    if not password:
        raise InvalidInput("password: none on standard input (give it on the first line, "
                           "or use --one-time)")
    return password


@user_app.command("add")
@reports_errors
def user_add(
    ctx: typer.Context,
    name: NameArg,
    role: Annotated[str, typer.Option("--role", metavar="ROLE", help=ROLE_HELP)],
    one_time: Annotated[bool, typer.Option(
        "--one-time", metavar="", help="Make a random password, print it once; the user must "
        "change it at the first login.")] = False,
) -> None:
    """Add a user of the web with a role; the password from standard input (or --one-time)."""
    users.check_name(name)
    users.check_role(role)
    password = users.one_time_password() if one_time else read_password(name)
    account = run_write(ctx, users.add_user, name=name, role=role, password=password,
                        one_time=one_time)
    render_users.added(account, password if one_time else None)


@user_app.command("list")
@reports_errors
def user_list(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """List the users of the web: name, role, whether disabled or on a one-time password."""
    render_users.listed(run(ctx, users.list_users), json_out)


@user_app.command("role")
@reports_errors
def user_role(
    ctx: typer.Context,
    name: NameArg,
    role: Annotated[str, typer.Argument(metavar="ROLE", help=ROLE_HELP)],
) -> None:
    """Give a user another role (from their next request on)."""
    render_users.role_set(run_write(ctx, users.set_role, name=name, role=role))


@user_app.command("disable")
@reports_errors
def user_disable(ctx: typer.Context, name: NameArg) -> None:
    """Disable a user: no more logins, and every session of theirs ends now."""
    account, ended = run_write(ctx, users.disable_user, name=name)
    render_users.disabled(account, ended)


@user_app.command("password")
@reports_errors
def user_password(
    ctx: typer.Context,
    name: NameArg,
    one_time: Annotated[bool, typer.Option(
        "--one-time", metavar="", help="Make a random password, print it once; the user must "
        "change it at their next login.")] = False,
) -> None:
    """Give a user a new password (one forgotten); every session of theirs ends."""
    password = users.one_time_password() if one_time else read_password(name)
    account, ended = run_write(ctx, users.reset_password, name=name, password=password,
                               one_time=one_time)
    render_users.password_reset(account, ended, password if one_time else None)


@user_app.command("enable")
@reports_errors
def user_enable(ctx: typer.Context, name: NameArg) -> None:
    """Let a disabled user log in again."""
    render_users.enabled(run_write(ctx, users.enable_user, name=name))
