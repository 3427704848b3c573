"""What the live site (``ledger serve``) reads besides ``site.site_data``: the ledger's version
(the latest change: every write records one, so a page cached under it is current until it
moves) and the preview of a list no close has published.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from ledger.db.models import Player
from ledger.db.models.changes import Change
from ledger.domain import Period, RatingPool
from ledger.formats.site.model import ListPage
from ledger.services.close.state import load_histories
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.lists import preview_list
from ledger.services.publishing.site import list_lines


def latest_change(engine: Ledger) -> int:
    """The id of the ledger's latest change (0: none yet): one indexed read (``max`` of the
    primary key). Every write the ledger records (the CLI's, the web's) has a change, written
    in its own transaction, so this number moves whenever anything a page shows may have."""
    with transaction(engine, write=False) as session:
        return session.scalar(select(func.max(Change.id))) or 0


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
