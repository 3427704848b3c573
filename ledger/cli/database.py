"""``ledger init`` (create or upgrade the ledger database with Alembic) and the ``ledger db``
group: ``db check`` (the integrity check and every stored result recomputed) and ``db backup``
(a consistent copy while others write)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy.engine import make_url

from ledger.cli import render, render_revisions
from ledger.cli.common import JsonOpt, actor_of, db_of, reports_errors, run
from ledger.services import backup, recompute
from ledger.services.session import init_ledger

db_app = typer.Typer(help="Check the ledger database and back it up.", no_args_is_help=True)


@reports_errors
def init(ctx: typer.Context) -> None:
    """Create the ledger database, or upgrade an older one to the latest schema."""
    db = db_of(ctx)
    before, after = init_ledger(db, actor_of(ctx))
    db = (make_url(db).render_as_string(hide_password=True) if "://" in db
          else str(Path(db).resolve()))
    if before == after:
        render.say(f"ledger at {db} is up to date (revision {after})")
    elif before is None:
        render.say(f"created ledger at {db} (revision {after})")
    else:
        render.say(f"upgraded ledger at {db} from revision {before} to {after}")


@db_app.command("check")
@reports_errors
def db_check(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Check the database, then recompute every closed period from the facts.

    Reports each stored value that differs from its recomputation (exit 1 if any).
    """
    report = run(ctx, recompute.check_ledger)
    render_revisions.check(report, json_out)
    if not report.ok:
        raise typer.Exit(1)


@db_app.command("backup")
@reports_errors
def db_backup(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The copy to write.", dir_okay=False)],
    force: Annotated[bool, typer.Option(
        "--force", metavar="", help="Replace FILE if it is a file that exists (an earlier backup).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Write a consistent copy of a SQLite ledger (its online backup) while others keep writing.

    The copy is written beside FILE and renamed over it, so FILE must be a regular file or a
    new name: anything but a regular file is refused (a folder, a device, a FIFO), and so is
    another database's -wal, -shm or -journal file or a database in use. A symbolic link is
    followed: the file it names is written, the link kept.
    """
    render_revisions.backup(run(ctx, backup.backup_ledger, str(file), force=force), json_out)
