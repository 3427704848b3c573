"""What the live site (``ledger serve``) reads besides ``site.site_data``: the ledger's version
(``latest_change``, from ``marks``: every write records one, so a page cached under it is current
until it moves) and the preview of a list no close has published.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from ledger.db.models import Player
from ledger.domain import Period, RatingPool, parse_pool
from ledger.formats import rating_list_csv
from ledger.formats.rating_list import ListHeading
from ledger.formats.site.model import ListPage
from ledger.services.close.state import load_histories
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.lists import preview_list, rating_list
from ledger.services.publishing.marks import UNSHOWN_ACTIONS as UNSHOWN_ACTIONS
from ledger.services.publishing.marks import latest_change as latest_change
from ledger.services.publishing.site import list_lines


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
