"""A list revision's manifest and bundle (issue 24; docs/VERIFY.md): the facts its close read,
taken as the check of a stored revision takes them (``services.admin.recompute``: the facts as
of the revision's change, the current revisions of the earlier periods), and its rows as stored.

``ledger list --manifest`` prints ``list_manifest``; ``ledger export bundle`` writes
``list_bundle``; ``ledger verify`` (``ledger.verify``) recounts the list from the bundle alone.
No schema of its own: everything is computed from what the ledger stores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import ledger
from ledger.db.models import PeriodRevision
from ledger.domain import STANDARD, Period, RatingPool
from ledger.formats import bundle as bundles
from ledger.rules.editions import Edition
from ledger.rules.pools import RAISE_2022_PERIOD
from ledger.rules.recount import ROW_FIELDS, ListFacts
from ledger.services.close.carried import carried_into
from ledger.services.close.pools import load_pools
from ledger.services.close.rated_games import load_rated_games, seeded_states
from ledger.services.close.snapshots import read_rows
from ledger.services.close.state import first_closed_period, load_histories
from ledger.services.core.facts import Facts
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.lists import list_revision


@dataclass(frozen=True)
class ListFactsRead:
    """What one list revision's close read, as bundle records: ``games``, ``players``,
    ``carried`` (``formats.bundle`` records) and the ``manifest`` over them and the stored rows."""

    manifest: dict[str, Any]
    games: list[dict[str, Any]]
    players: list[dict[str, Any]]
    carried: list[dict[str, Any]]


def list_manifest(engine: Ledger, period: str | None = None, revision: int | None = None,
                  pool: RatingPool = STANDARD) -> dict[str, Any]:
    """``ledger list --manifest``: the manifest of ``revision`` (default: the current one) of
    ``period``'s list (default: the latest closed) in ``pool`` (``formats.bundle.manifest``).
    Raises what ``lists.rating_list`` raises for a list that does not exist."""
    return list_bundle(engine, period, revision, pool)["manifest"]  # type: ignore[no-any-return]


def list_bundle(engine: Ledger, period: str | None = None, revision: int | None = None,
                pool: RatingPool = STANDARD,
                signature: Any = None) -> dict[str, Any]:
    """``ledger export bundle``: the bundle of that list (``formats.bundle.bundle``), its
    manifest signed by ``signature`` when given (a callable: manifest -> signature record,
    ``formats.signatures.sign`` with a key)."""
    with transaction(engine, write=False) as session:
        closed, shown = list_revision(session, period, revision, pool)
        read = facts_read(session, closed, shown, pool)
    signed = signature(read.manifest) if signature is not None else None
    return bundles.bundle(read.manifest, read.games, read.players, read.carried, signed)


def facts_read(session: Session, period: Period, revision: int,
               pool: RatingPool = STANDARD) -> ListFactsRead:
    """The facts ``revision`` of ``period``'s list in ``pool`` was rated from, and its manifest.
    As ``services.close.rating.rate`` reads them with ``reference=True``: the period's valid
    games of the pool (the ratings at each event's start), every player's state in force at
    the period's start, the hundredths carried into it, the seeded standard ratings (rapid,
    blitz), the pools of the unrated players, the standard ratings of the 2022-09 raise, and
    each player's activity (``History.activity``)."""
    stored = session.get(PeriodRevision, (str(period), pool, revision))
    assert stored is not None  # list_revision checked it
    edition = Edition(stored.edition)
    facts = Facts(as_of=stored.change_id)
    carried = carried_into(session, period, facts, pool)
    everyone = load_histories(session, None, through=period.previous(), facts=facts, pool=pool)
    loaded, histories = load_rated_games(session, lambda g: g.c.period == str(period),
                                         through=period.previous(), also=carried,
                                         facts=facts, pool=pool)
    everyone |= {pid: h for pid, h in histories.items() if pid not in everyone}
    seeded = seeded_states(session, histories, period, pool, facts)
    unrated = [pid for pid, h in histories.items()
               if h.state(period).rating is None and pid not in seeded]
    pools = {pid: p for pid, p in load_pools(session, unrated, period,
                                             ratings_through=period.previous(), facts=facts,
                                             pool=pool).items()
             if any(g.period == period for g in p.games)}
    standard = (load_histories(session, None, through=period, facts=facts)
                if pool != STANDARD and period == RAISE_2022_PERIOD else {})
    first_closed = min(first_closed_period(session, pool) or period, period)
    known = facts.players()
    identity = {row.id: row for row in session.execute(
        select(known.c.id, known.c.name, known.c.fide_id, known.c.federation, known.c.title,
               known.c.sex, (known.c.merged_into.is_not(None) | known.c.withdrawn)
               .label("gone")))}
    players = []
    for pid in sorted(everyone):
        history, who = everyone[pid], identity[pid]
        since, last = history.activity(period.previous(), first_closed)
        in_standard = (standard[pid].rating(period.next(), results_through=period)
                       if pid in standard else None)
        players.append(bundles.player_record(pid, ListFacts(
            history.state(period), who.name, who.fide_id, who.federation, who.title, who.sex,
            not who.gone, seeded.get(pid), in_standard, since, last, pools.get(pid))))
    games = [bundles.game_record(g.rated, g.game.date.isoformat()) for g in loaded]
    carried_records = [bundles.carried_record(pid, h) for pid, h in sorted(carried.items())]
    rows = [{name: (getattr(r, name).value if name == "k_reason" else getattr(r, name))
             for name in ROW_FIELDS} for r in read_rows(session, period, revision, pool)]
    manifest = bundles.manifest(period, pool, revision, edition, ledger.__version__, rows,
                                games, players, carried_records, change=stored.change_id,
                                reason=stored.reason)
    return ListFactsRead(manifest, games, players, carried_records)
