"""``ledger init``: create the ledger database or upgrade it (Alembic)."""

from __future__ import annotations

from pathlib import Path

import typer
from sqlalchemy.engine import make_url

from ledger.cli import render
from ledger.cli.common import db_of, reports_errors
from ledger.services.session import init_ledger


@reports_errors
def init(ctx: typer.Context) -> None:
    """Create the ledger database, or upgrade an older one to the latest schema."""
    db = db_of(ctx)
    before, after = init_ledger(db)
    db = (make_url(db).render_as_string(hide_password=True) if "://" in db
          else str(Path(db).resolve()))
    if before == after:
        render.say(f"ledger at {db} is up to date (revision {after})")
    elif before is None:
        render.say(f"created ledger at {db} (revision {after})")
    else:
        render.say(f"upgraded ledger at {db} from revision {before} to {after}")
