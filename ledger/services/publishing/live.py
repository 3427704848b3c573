"""What the live site (``ledger serve``) reads besides ``site.site_data``: the ledger's version
(the latest change: every write records one, so a page cached under it is current until it
moves) and the preview of a list no close has published.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Connection, Engine, func, or_, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ledger.db.engine import ledger_name
from ledger.db.models import Player
from ledger.db.models.changes import Change
from ledger.domain import Period, RatingPool, parse_pool
from ledger.errors import database_error
from ledger.formats import rating_list_csv
from ledger.formats.rating_list import ListHeading
from ledger.formats.site.model import ListPage
from ledger.services.close.state import load_histories
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.lists import preview_list, rating_list
from ledger.services.publishing.site import list_lines

#: Audit actions that change nothing a page shows: logins, accounts, and submissions not
#: accepted (an accepted one records its games under an import's change, which counts).
UNSHOWN_ACTIONS = ("user.", "submission.submit", "submission.resubmit", "submission.withdraw",
                   "submission.reject")
#: How many of the latest changes ``latest_change`` reads before asking the database for the
#: latest shown one (a burst of logins longer than this costs one scan of the log).
RECENT = 64


def _shown(action: str) -> bool:
    return not action.startswith(UNSHOWN_ACTIONS)


def latest_change(engine: Ledger) -> int:
    """The id of the ledger's latest change a page may show (0: none yet). Every write the
    ledger records (the CLI's, the web's) has a change, written in its own transaction, so this
    number moves whenever anything a page shows may have; logins, account changes and
    submissions not accepted (``UNSHOWN_ACTIONS``) do not move it, so a busy login page does not
    make the live site gather everything again. One read of the latest ``RECENT`` changes (the
    primary key, backwards); a longer run of unshown ones, one scan.

    The live site asks this on every request, so on PostgreSQL the read is one statement on a
    connection in autocommit (one round trip to the server: no BEGIN, no SET TRANSACTION, no
    ROLLBACK; one statement needs no snapshot of its own). Raises ``LedgerError`` for a database
    error (``errors.database_error``)."""
    if isinstance(engine, Engine) and engine.dialect.name == "postgresql":
        try:
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                return _latest(conn)
        except SQLAlchemyError as exc:
            raise database_error(exc, ledger_name(engine.url)) from None
    with transaction(engine, write=False) as session:
        return _latest(session)


def _latest(conn: Connection | Session) -> int:
    recent = conn.execute(select(Change.id, Change.action)
                          .order_by(Change.id.desc()).limit(RECENT)).all()
    for change_id, action in recent:
        if _shown(action):
            return int(change_id)
    if len(recent) < RECENT:
        return 0
    unshown = [Change.action.startswith(prefix) for prefix in UNSHOWN_ACTIONS]
    return conn.scalar(select(func.max(Change.id)).where(~or_(*unshown))) or 0


def preview_page(engine: Ledger, pool: RatingPool, *,
                 today: dt.date | None = None) -> tuple[ListPage, bool]:
    """The list closing ``pool``'s earliest open period would publish on ``today`` (``ledger
    list --preview``: ``lists.preview_list``, computed by the close and rolled back, nothing
    written), as a list page: each line's previous rating the one in force for that period;
    and whether the period has ended. Raises what ``preview_list`` raises (``PeriodError``:
    nothing open to close; ``ReadOnlyLedger``)."""
    rl = preview_list(engine, pool=pool, today=today)
    period = Period.parse(rl.period)
    with transaction(engine, write=False) as session:
        states = load_histories(session, None, through=period, pool=pool)
        gone = set(session.scalars(select(Player.id).where(Player.withdrawn.is_(True))))
    before = {pid: h.rating(period) for pid, h in states.items()}
    page = ListPage(pool, rl.period, dt.date.fromisoformat(rl.in_force_from),
                    list_lines(rl, before, period.next(), gone))
    return page, rl.ended


def list_csv(engine: Ledger, pool: str, period: str, revision: int | None, club: str) -> str:
    """The published list of ``pool`` closing ``period`` (``revision``: that one; None: the
    current) as ``ledger list --format csv`` writes it (``formats.rating_list_csv``), headed
    by ``club``. Raises what ``lists.rating_list`` raises (``NotFound``: no such list)."""
    rl = rating_list(engine, period, revision=revision, pool=parse_pool(pool))
    heading = ListHeading(Period.parse(rl.period), dt.date.fromisoformat(rl.in_force_from),
                          club, rl.pool, rl.preview)
    return rating_list_csv.write(heading, rl.rows)
