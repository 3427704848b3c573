"""``ledger init`` (create or upgrade the ledger database with Alembic) and the ``ledger db``
group: ``db check`` (the integrity check and every stored result recomputed), ``db backup``
(a consistent copy while others write) and ``db copy`` (the whole ledger into another, empty
database, verified)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import JsonOpt, actor_of, db_of, reports_errors, run
from ledger.cli.lazy import lazy
from ledger.cli.render import revisions as render_revisions
from ledger.cli.render.output import count, print_json, say

if TYPE_CHECKING:
    from ledger.db import engine
    from ledger.services.admin import backup, copy, recompute, setup
    from ledger.services.core import session
else:
    engine = lazy("ledger.db.engine")
    session = lazy("ledger.services.core.session")
    backup = lazy("ledger.services.admin.backup")
    copy = lazy("ledger.services.admin.copy")
    recompute = lazy("ledger.services.admin.recompute")
    setup = lazy("ledger.services.admin.setup")

db_app = typer.Typer(help="Check the ledger database, back it up, copy it to another database.",
                     no_args_is_help=True)


@reports_errors
def init(ctx: typer.Context) -> None:
    """Create the ledger database, or upgrade an older one to the latest schema."""
    db = db_of(ctx)
    before, after = setup.init_ledger(db, actor_of(ctx))
    db = engine.shown_db(db) if "://" in db else str(Path(db).resolve())
    if before == after:
        say(f"ledger at {db} is up to date (revision {after})")
    elif before is None:
        say(f"created ledger at {db} (revision {after})")
    else:
        say(f"upgraded ledger at {db} from revision {before} to {after}")


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

    The copy is written beside FILE and renamed over it: FILE must be a regular file or a new name.

    Refused: a folder, a device, a FIFO, another database's -wal/-shm/-journal, a database in use.

    A symbolic link is followed: the file it names is written, the link kept.
    """
    render_revisions.backup(run(ctx, backup.backup_ledger, str(file), force=force), json_out)


@db_app.command("copy")
@reports_errors
def db_copy(
    ctx: typer.Context,
    to: Annotated[str, typer.Option(
        "--to", metavar="PATH_OR_URL", help="The database to copy the ledger into: a SQLite "
        "file that does not exist yet, or an empty database (a SQLAlchemy URL).",
        show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Copy the whole ledger into an empty database (SQLite or PostgreSQL) and verify the copy.

    An unverified copy (stopped before its verification) is finished: verified, or copied again.
    """
    report = run(ctx, copy.copy_ledger, to)
    if json_out:
        print_json(asdict(report))
        return
    rows = f"{count(sum(report.rows.values()), 'row')} in {count(len(report.rows), 'table')}"
    if report.done == "resumed":
        say(f"resumed the verification of {report.target}, an unverified copy of "
            f"{report.earlier}: every row is still the source's ({rows})")
    else:
        again = (f" again, over an unverified copy of {report.earlier} that differed from it "
                 f"({report.differed})" if report.done == "copied again" else "")
        say(f"copied the ledger {report.source} (revision {report.revision}) to "
            f"{report.target}{again}: {rows}"
            + (f", {count(len(report.sequences), 'sequence')} set past the highest id"
               if report.sequences else ""))
    say(f"verified: every row, the player list ({count(report.players, 'player')}), "
        f"{count(report.rating_lists, 'rating list')}, "
        f"{count(report.periods_recomputed, 'closed period')} recomputed from the facts "
        f"and {report.histories} player histor{'y' if report.histories == 1 else 'ies'} "
        "read back the same")
