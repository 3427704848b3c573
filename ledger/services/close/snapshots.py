"""The published rating list as a snapshot (docs/CORRECTIONS.md §3): the close computes every
line of the list it publishes and stores it in ``list_entries`` with its revision, name,
federation, title, sex and birth year as they stood; ``ledger list`` shows those rows, so a later
change of a player never changes a list already published.

``list_lines`` is the one computation of a list (the close and ``db check`` use it, through
``rating.rate``; ``list_rows`` gives its lines as ``ListRow``s);
``snapshot_upgraded_lists`` writes, once, the snapshots of the lists closed before revision
0006, which had none (``ledger init``, in the upgrade's transaction).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.orm import Session

from ledger.db.models import (
    Change,
    Game,
    InitialRating,
    InitialRatingGame,
    ListEntry,
    PeriodResult,
    PeriodRevision,
    RatingPeriod,
)
from ledger.db.order import player_sort_key
from ledger.db.rows import stream_rows
from ledger.domain import STANDARD, Actor, KReason, Period, PlayerState, RatingPool
from ledger.rules.closing import competition_ranks
from ledger.rules.pools import k_in_pool
from ledger.services.close.revisions import current
from ledger.services.close.state import History, first_closed_period, load_histories
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.chain import seal
from ledger.services.core.facts import NOW, Facts


@dataclass(frozen=True, slots=True)
class ListRow:
    """One line of a rating list. ``games``: rated games in the period; ``k``: K for the next
    period; ``inactive``: flagged ``i``, no rated game in the 12 periods ending with the list's
    (``ledger.rules.activity``); the identity as it stood when the list was published."""

    rank: int
    player_id: int
    name: str
    fide_id: int | None
    federation: str | None
    title: str | None
    rating: int
    games: int
    k: int
    k_reason: KReason
    birth_year: int | None
    inactive: bool = False
    sex: str | None = None


_LIST_ROW_FIELDS = tuple(f.name for f in fields(ListRow))


class ListLine(NamedTuple):
    """One line of a rating list as a close computes and writes it (``list_lines``): the
    ``list_entries`` columns after period, pool and revision, in their order
    (``rating.COLUMNS``), ``k_reason`` as its text (``KReason.value``); the same values as
    ``ListRow``'s. A tuple, so that the row written is the revision's key and the line (at M
    20,000 lines: a ``ListRow`` each and its row 1.6 us a line, a ``ListLine`` and its row
    0.3 us)."""

    player_id: int
    rank: int
    rating: int
    games: int
    k: int
    k_reason: str
    inactive: bool
    name: str
    fide_id: int | None
    federation: str | None
    title: str | None
    sex: str | None
    birth_year: int | None


_REASONS = {reason.value: reason for reason in KReason}


def ranked(rows: list[ListRow]) -> list[ListRow]:
    """``rows`` by rating (highest first), then name key and id (``db.order.player_sort_key``),
    ranked 1, 2 ...; equal ratings share a rank (1, 2, 2, 4: ``competition_ranks``)."""
    ordered = sorted(rows, key=lambda r: (-r.rating, *player_sort_key(r.name, r.player_id)))
    # the constructor: ``replace`` costs 3x as much
    return [ListRow(rank, r.player_id, r.name, r.fide_id, r.federation, r.title, r.rating,
                    r.games, r.k, r.k_reason, r.birth_year, r.inactive, r.sex)
            for rank, r in zip(competition_ranks([r.rating for r in ordered]), ordered,
                               strict=True)]


def list_rows(session: Session, closed: Period, histories: Mapping[int, History],
              games: Mapping[int, int], facts: Facts = NOW,
              pool: RatingPool = STANDARD,
              states: Mapping[int, PlayerState] | None = None) -> list[ListRow]:
    """``list_lines``' lines (the same arguments) as ``ListRow``s, in the same order."""
    return [ListRow(line.rank, line.player_id, line.name, line.fide_id, line.federation,
                    line.title, line.rating, line.games, line.k, _REASONS[line.k_reason],
                    line.birth_year, line.inactive, line.sex)
            for line in list_lines(session, closed, histories, games, facts, pool, states)]


def list_lines(session: Session, closed: Period, histories: Mapping[int, History],
               games: Mapping[int, int], facts: Facts = NOW,
               pool: RatingPool = STANDARD,
               states: Mapping[int, PlayerState] | None = None) -> list[ListLine]:
    """Every line of the list published by closing ``closed``, ranked: each player of
    ``histories`` (everyone, with ``closed``'s own outcome in their results) with a published
    rating on it, their rated ``games`` in the period (player id -> count; 0 when absent), K for
    the next period and why, the inactive flag, and their identity from ``facts`` (one query).
    A player merged into another (``players.merged_into``, as ``facts`` has it) is not listed:
    their games are the other's; nor is a withdrawn one (``players.withdrawn``: registered by
    mistake, ``ledger player withdraw``). ``pool``: the rating pool of the list (docs/RULES.md §9), for
    its K rules and its first closed period (``histories`` must be that pool's); each pool's
    list is ranked on its own. ``states``: each player's state on the list when the caller has
    it (``state.closed_state``, the close), else ``History.state`` of ``closed`` through
    ``closed``. The identities are read as the driver gives them (``db.rows.stream_rows``:
    20,000 players at M 0.047 -> 0.021 s). Each line a ``ListLine`` (``list_rows``: the same
    lines as ``ListRow``s)."""
    first_closed = first_closed_period(session, pool) or closed
    if first_closed > closed:
        first_closed = closed
    following = closed.next()
    known = facts.players()
    # each line as a tuple led by its sort key (as ``ranked`` orders them: rating, highest
    # first, then the stored name key and id, which no two lines share), then ``ListLine``'s
    # values but the rank, one ``ListLine`` each once ranked;
    # the identities streamed from the query (no mapping of every player's kept beside)
    lines = []
    seen = 0
    once: dict[object, Any] = {}  # each repeating value's first object (federations, ratings...)
    # ``gone``: SQLite's 0 or 1, psycopg's bool (only its truth is asked)
    for pid, name, fide_id, federation, title, birth_year, sex, gone, key in stream_rows(
            session, select(known.c.id, known.c.name, known.c.fide_id, known.c.federation,
                            known.c.title, known.c.birth_year, known.c.sex,
                            known.c.merged_into.is_not(None) | known.c.withdrawn,
                            known.c.name_key)):
        history = histories.get(pid)
        if history is None:
            continue
        seen += 1
        state = (states[pid] if states is not None
                 else history.state(closed, results_through=closed))
        rating = state.rating
        if rating is None or gone:
            continue
        k, reason = k_in_pool(state, following, pool)
        played = games.get(pid, 0)
        # rated games in ``closed``: active (rated in the last of the 12 periods) without a
        # walk over the history
        lines.append((once.setdefault(-rating, -rating), key, pid,
                      once.setdefault(rating, rating), played, k, reason.value,
                      played == 0 and history.inactive(closed, first_closed), name, fide_id,
                      once.setdefault(federation, federation), once.setdefault(title, title),
                      sex, once.setdefault(birth_year, birth_year)))
    if seen != len(histories):  # every player of the histories is known (as before: KeyError)
        raise KeyError(f"{len(histories) - seen} players of the histories are not known")
    lines.sort()
    ranks = competition_ranks([line[3] for line in lines])  # [3]: the rating
    listed: list[Any] = lines  # each line replaced by its ListLine: one of the two held at a time
    new = tuple.__new__  # ``ListLine``'s own ``__new__`` without its call (0.4 -> 0.3 us)
    for i, rank in enumerate(ranks):
        line = lines[i]
        listed[i] = new(ListLine, (line[2], rank, *line[3:]))
    return listed


def entry_values(period: Period, revision: int, row: ListRow,
                 pool: RatingPool = STANDARD) -> dict[str, Any]:
    """The ``list_entries`` row of ``row`` in ``revision`` of ``period`` in ``pool`` (every
    field is a plain value, so a shallow copy: ``dataclasses.asdict`` deep-copies, a second per
    20,000 rows)."""
    values = {name: getattr(row, name) for name in _LIST_ROW_FIELDS}
    values["k_reason"] = row.k_reason.value
    return values | {"period": str(period), "pool": pool, "revision": revision}


#: Above this many players ``read_rows`` reads every line and keeps theirs (a statement's
#: parameters are limited: SQLite's to 32,766).
MANY_PLAYERS = 5000


def read_rows(session: Session, period: Period, revision: int,
              pool: RatingPool = STANDARD, players: Collection[int] | None = None
              ) -> list[ListRow]:
    """The stored lines of ``revision`` of ``period``'s list in ``pool``, in list order: rank,
    then name key and id (``db.order.player_sort_key``, as ``ranked`` put them; in Python, so
    that no server's collation decides a tie). ``players``: only the lines of those ids (None:
    every line; above ``MANY_PLAYERS`` of them every line is read and theirs kept). Read as
    columns, no ORM object per line."""
    e = ListEntry
    where = (e.period == str(period)) & (e.pool == pool) & (e.revision == revision)
    if players is not None and len(players) <= MANY_PLAYERS:
        where = where & e.player_id.in_(players)
    c = ListEntry.__table__.c  # the columns of a ``ListRow`` (``ROW_FIELDS``), in its order
    rows = [ListRow(rank, pid, name, fide_id, federation, title, rating, games, k,
                    KReason(reason), born, inactive, sex)
            for rank, pid, name, fide_id, federation, title, rating, games, k, reason, born,
            inactive, sex in session.execute(select(
                c.rank, c.player_id, c.name, c.fide_id, c.federation, c.title, c.rating,
                c.games, c.k, c.k_reason, c.birth_year, c.inactive, c.sex).where(where))
            if players is None or pid in players]
    return sorted(rows, key=lambda r: (r.rank, *player_sort_key(r.name, r.player_id)))


def count_rows(session: Session, period: Period, revision: int,
               pool: RatingPool = STANDARD) -> int:
    """How many lines ``read_rows`` reads of that list revision: its players."""
    e = ListEntry
    return session.scalar(select(func.count()).where(
        e.period == str(period), e.pool == pool, e.revision == revision)) or 0


def stored_games(session: Session, closed: Period) -> dict[int, int]:
    """Player id -> rated games of ``closed`` as its current revision stored them: the period
    result's games, or the games of ``closed`` in the pool of an initial rating it published."""
    games = dict(session.execute(select(PeriodResult.player_id, PeriodResult.games).where(
        PeriodResult.period == str(closed), current(PeriodResult))).all())
    games |= dict(session.execute(
        select(InitialRatingGame.player_id, func.count())
        .join(Game, Game.id == InitialRatingGame.game_id)
        .join(InitialRating, (InitialRating.period == InitialRatingGame.period)
              & (InitialRating.pool == InitialRatingGame.pool)
              & (InitialRating.revision == InitialRatingGame.revision)
              & (InitialRating.player_id == InitialRatingGame.player_id))
        .where(InitialRatingGame.period == str(closed), Game.period == str(closed),
               InitialRating.published.is_(True), current(InitialRatingGame))
        .group_by(InitialRatingGame.player_id)).all())
    return games


#: The ``changes.action`` of the one-off snapshot of the lists closed before revision 0006.
UPGRADE_SNAPSHOT = "list.snapshot"
UPGRADE_REASON = ("lists closed before revision 0006 kept no snapshot: theirs are taken at the "
                  "upgrade, with the players' names, federations, titles, sex and birth years as "
                  "they are at the upgrade")


def snapshot_upgraded_lists(conn: Connection, actor: Actor) -> int:
    """Write the snapshot of every list revision 0006 recorded as revision 1 of a period closed
    before it (``changes.action`` ``schema.upgrade``), once: with one ``list.snapshot`` change
    saying that the players' details are those at the upgrade. Runs on ``conn`` inside the
    upgrade's transaction (``admin.setup.init_ledger``); returns the lines written (0 when there is
    nothing to do or it was done)."""
    with Session(bind=conn) as session:
        done = session.scalar(select(Change.id).where(Change.action == UPGRADE_SNAPSHOT))
        upgraded = list(session.execute(
            select(PeriodRevision.period, PeriodRevision.revision, PeriodRevision.change_id)
            .join(Change, Change.id == PeriodRevision.change_id)
            .join(RatingPeriod, (RatingPeriod.period == PeriodRevision.period)
                  & (RatingPeriod.pool == PeriodRevision.pool)
                  & (RatingPeriod.revision == PeriodRevision.revision))
            .where(Change.action == "schema.upgrade").order_by(PeriodRevision.period)))
        if done is not None or not upgraded:
            return 0
        change = record_change(session, actor, UPGRADE_SNAPSHOT, "list", "upgrade-0006",
                               reason=UPGRADE_REASON)
        written = 0
        for period, revision, _ in upgraded:
            closed = Period.parse(period)
            histories = load_histories(session, None, through=closed)
            rows = list_rows(session, closed, histories, stored_games(session, closed))
            if rows:
                session.execute(insert(ListEntry), [entry_values(closed, revision, r)
                                                    for r in rows])
            written += len(rows)
        summarise(change, {"periods": [p for p, _, _ in upgraded], "list_entries": written})
        # revision 0015 chained the upgrade's change with these lists still empty, in this same
        # transaction: their digests and the entries from that change on are taken again
        upgrade = min(c for _, _, c in upgraded)
        session.execute(update(PeriodRevision).where(PeriodRevision.change_id == upgrade)
                        .values(digest=None))
        seal(session, since=upgrade)  # in the upgrade's transaction, which commits it
        return written
