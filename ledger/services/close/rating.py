"""Rating one period from the facts: the one way the ledger rates (FIDE B.02 §7-§8).

``rate`` loads the period's games and every player's history (``services.core.facts``: the facts now,
for a close or a re-rating, or as of a change, for ``db check``), runs the rules
(``rules.period.rate_period``, ``rules.initial.rate_pool``, the floor, the 1 March 2024 raise)
and builds the list the period publishes; it writes nothing. ``derived_rows`` turns the outcome
into the rows of every derived table for one revision (the per-game audit unpacked, one
row per game side); ``write_revision`` writes them with the revision and the pointer, the
audit packed (``db.audit_pack``: one ``period_audits`` row per player). The close
(``services.close.periods``), the re-rating (``services.close.rerate``) and the check
(``services.admin.recompute``) all go through here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from operator import itemgetter
from typing import Any

from sqlalchemy.orm import Session

from ledger.db.audit_pack import FIELDS as AUDIT_FIELDS
from ledger.db.audit_pack import pack_flat, unpack
from ledger.db.models import (
    InitialRating,
    InitialRatingGame,
    ListEntry,
    PeriodAudit,
    PeriodResult,
    PeriodRevision,
    RatingAdjustment,
    RatingFloorDrop,
    RatingPeriod,
)
from ledger.db.rows import insert_rows
from ledger.domain import STANDARD, Period, RatedGame, RatingPool
from ledger.rules.closing import ClosedResult, closed_state, new_result
from ledger.rules.editions import RAISE_2024_PERIOD, Edition, list_adjustment
from ledger.rules.initial import InitialRating as Computation
from ledger.rules.initial import Pool, rate_pool
from ledger.rules.period import rate_period
from ledger.rules.period_rows import rate_rows
from ledger.rules.pools import RAISE_2022_PERIOD, raise_2022
from ledger.rules.row_results import RowResult as Result
from ledger.rules.row_results import from_reference
from ledger.services.close.carried import carried_into
from ledger.services.close.game_rows import load_game_rows
from ledger.services.close.late import natural_period
from ledger.services.close.pools import load_pools
from ledger.services.close.rated_games import load_rated_games, seeded_states
from ledger.services.close.snapshots import ListLine, list_lines
from ledger.services.close.state import History, load_histories
from ledger.services.core.chain import LIST_COLUMNS, rows_digest
from ledger.services.core.facts import NOW, Facts

#: Every table a revision writes, by name, in the order they are written and compared.
DERIVED: dict[str, Any] = {
    "period_results": PeriodResult, "period_audits": PeriodAudit,
    "rating_adjustments": RatingAdjustment, "initial_ratings": InitialRating,
    "initial_rating_games": InitialRatingGame, "rating_floor_drops": RatingFloorDrop,
    "list_entries": ListEntry,
}


@dataclass
class Rated:
    """What rating ``period`` by ``edition`` gives: ``left_out``, at least every game no rule
    rates, as the rules saw it (the reference path gives every game; either way the report
    asks ``not_rated_reason`` of each), ``game_count`` games in all, one ``results`` entry
    (integer ``RowResult``) per rated player, the initial ratings (pool and computation) of unrated
    players whose pool reached 5 games, the ratings below the floor (``drops``), the list
    adjustments (rows of ``rating_adjustments`` without their revision), the list it
    publishes (``listed``, ranked: ``snapshots.ListLine`` tuples), the late results among the
    games (``late``: game id -> the natural period of its dates, docs/RULES.md §1) and the
    hundredths carried into the period
    (``carried``: player id -> hundredths, docs/CORRECTIONS.md §5). ``pool``: the rating pool
    rated (docs/RULES.md §9); ``seeded``: player id -> the standard rating a rapid or blitz
    player unrated in the pool was rated with."""

    period: Period
    edition: Edition
    left_out: list[RatedGame]
    results: dict[int, Result]
    initial: dict[int, tuple[Pool, Computation]]
    drops: dict[int, int]
    adjustments: list[dict[str, Any]]
    listed: list[ListLine]
    late: dict[int, Period] = field(default_factory=dict)
    carried: dict[int, int] = field(default_factory=dict)
    pool: RatingPool = STANDARD
    seeded: dict[int, int] = field(default_factory=dict)
    game_count: int = 0


def rate(session: Session, target: Period, edition: Edition, facts: Facts = NOW,
         pool: RatingPool = STANDARD, *, reference: bool = False) -> Rated:
    """Rate ``target`` in ``pool`` by ``edition`` with ``facts`` and the current revisions of
    the earlier periods of that pool, adding the corrections carried into it before each
    player's one rounding; nothing is written. In rapid and blitz from 2024-03 a player
    unrated in the pool with a standard rating is rated from it (docs/RULES.md §9). A fixed
    number of queries for any number of players.

    The players' changes come from integer rows (``rules.period_rows.rate_rows``, games read
    as columns); ``reference=True`` rates them with the per-player rules instead
    (``rules.period.rate_period`` on ``RatedGame`` objects), which give the same values."""
    carried = carried_into(session, target, facts, pool)
    everyone = load_histories(session, None, through=target.previous(), facts=facts, pool=pool)
    before = {pid: h.state(target) for pid, h in everyone.items()}  # once per player
    if reference:
        loaded, histories = load_rated_games(session, lambda g: g.c.period == str(target),
                                             through=target.previous(), also=carried,
                                             facts=facts, pool=pool)
        games = [g.rated for g in loaded]
        late = {g.game.id: natural for g in loaded
                if (natural := natural_period(g.event_end, g.game.date)) < target}
        count = len(games)
    else:
        game_rows = load_game_rows(session, target, everyone, also=carried, facts=facts,
                                   pool=pool, ratings={p: s.rating for p, s in before.items()})
        histories, games, late = game_rows.histories, game_rows.left_out, game_rows.late
        count = game_rows.count
    states = {pid: h.state(target) if reference else before[pid]
              for pid, h in histories.items()}
    seeded = seeded_states(session, histories, target, pool, facts)
    states |= {pid: replace(states[pid], rating=rating) for pid, rating in seeded.items()}
    if reference:
        results = {pid: from_reference(r) for pid, r in rate_period(
            states, games, target, edition,
            {pid: Decimal(h).scaleb(-2) for pid, h in carried.items()}, pool).items()}
    else:
        results = rate_rows(states, game_rows.rows, target, edition, carried, pool)
        del game_rows  # its rows are rated (a federation month: 1,000,000 tuples): free them
    drops = {pid: r.rating_after for pid, r in results.items()
             if r.rating_after < edition.rating_floor}
    initial = _initial_ratings(session, target, edition, facts,
                               [pid for pid, st in states.items() if st.rating is None], pool,
                               everyone)
    del states  # (``before``'s states of the players rated, and the seeded ones): rated
    standard = (load_histories(session, None, through=target, facts=facts)
                if pool != STANDARD and target == RAISE_2022_PERIOD else None)
    adjustments = _list_adjustments(target, everyone, results, initial, drops, standard)
    outcome = _add_outcome(everyone, target, results, initial, drops, adjustments)
    games_in = {pid: r.n for pid, r in results.items()}
    games_in |= {pid: sum(1 for g in pool.games if g.period == target)
                 for pid, (pool, ir) in initial.items() if ir.published}
    for pid, rows in outcome.items():  # each state on the list, in place: one state a player
        before[pid] = closed_state(before[pid], rows)
    listed = list_lines(session, target, everyone, games_in, facts, pool, states=before)
    return Rated(target, edition, games, results, initial, drops, adjustments, listed, late,
                 carried, pool, seeded, count)


def _initial_ratings(session: Session, target: Period, edition: Edition, facts: Facts,
                     unrated: list[int], rating_pool: RatingPool = STANDARD,
                     everyone: dict[int, History] | None = None,
                     ) -> dict[int, tuple[Pool, Computation]]:
    """Ru for each player unrated in ``rating_pool`` at ``target``'s start whose pool of games
    gained a game in ``target`` and holds at least 5 games (FIDE B.02 §8.2), by ``edition``.
    ``everyone``: every player's history in ``rating_pool`` through the period before
    ``target``, as ``rate`` read it (not yet given ``target``'s outcome): the pools' players'
    are taken from it instead of read again (``load_pools``' ``known``)."""
    pools = load_pools(session, unrated, target, ratings_through=target.previous(), facts=facts,
                       pool=rating_pool, known=everyone)
    rated = {}
    for pid, pool in pools.items():
        if not any(g.period == target for g in pool.games):
            continue
        computed = rate_pool(pool, edition)
        if computed is not None:
            rated[pid] = (pool, computed)
    return rated


def _list_adjustments(target: Period, everyone: dict[int, History], results: dict[int, Result],
                      initial: dict[int, tuple[Pool, Computation]],
                      drops: dict[int, int],
                      standard: dict[int, History] | None = None) -> list[dict[str, Any]]:
    """Rows for the ratings the list published by closing ``target`` changes outside any game
    (the 1 March 2024 raise, in every pool: ``ledger.rules.editions.list_adjustment``; and,
    for a rapid or blitz list, with ``standard`` the standard histories through ``target``, the
    1 October 2022 raise to standard - 100: ``rules.pools.raise_2022``), from the ratings this
    close gives (results, published initial ratings) or else the ones in force; players this
    close drops below the floor are not raised."""
    if standard is not None:
        return _raise_2022(target, everyone, results, initial, drops, standard)
    if target != RAISE_2024_PERIOD:
        return []
    new_ratings = {pid: r.rating_after for pid, r in results.items() if pid not in drops}
    new_ratings |= {pid: ir.rating for pid, (_, ir) in initial.items() if ir.published}
    rows = []
    for pid, history in everyone.items():
        rating = new_ratings[pid] if pid in new_ratings else history.rating(target)
        if rating is None or pid in drops:
            continue
        raise_by = list_adjustment(target, rating)
        if raise_by:
            rows.append(dict(period=str(target), player_id=pid, rating_before=rating,
                             adjustment=raise_by, rating_after=rating + raise_by,
                             rule="1 March 2024 list: +0.4 x (2000 - R) below 2000"))
    return rows


def _raise_2022(target: Period, everyone: dict[int, History], results: dict[int, Result],
                initial: dict[int, tuple[Pool, Computation]], drops: dict[int, int],
                standard: dict[int, History]) -> list[dict[str, Any]]:
    """The rows of the 1 October 2022 raise (docs/RULES.md §9) for a rapid or blitz close of
    2022-09: every rating of the list more than 100 below the player's standard rating on the
    standard list of the same date, raised to standard - 100."""
    new_ratings = {pid: r.rating_after for pid, r in results.items() if pid not in drops}
    new_ratings |= {pid: ir.rating for pid, (_, ir) in initial.items() if ir.published}
    rows = []
    for pid, history in everyone.items():
        rating = new_ratings[pid] if pid in new_ratings else history.rating(target)
        if rating is None or pid in drops or pid not in standard:
            continue
        in_standard = standard[pid].rating(target.next(), results_through=target)
        raise_by = raise_2022(target, "rapid", rating, in_standard)
        if raise_by:
            rows.append(dict(period=str(target), player_id=pid, rating_before=rating,
                             adjustment=raise_by, rating_after=rating + raise_by,
                             rule="1 October 2022 list: raised to the standard rating - 100"))
    return rows


def _add_outcome(everyone: dict[int, History], target: Period, results: dict[int, Result],
                 initial: dict[int, tuple[Pool, Computation]], drops: dict[int, int],
                 adjustments: list[dict[str, Any]]) -> dict[int, list[ClosedResult]]:
    """Add ``target``'s outcome to the histories, as ``load_histories`` would read it back once
    written (result or published initial rating, then adjustment, then floor drop); returns
    it: player id -> the rows added, in that order."""
    outcome: dict[int, list[ClosedResult]] = defaultdict(list)
    for pid, r in results.items():
        outcome[pid].append(new_result(target, r.n, r.rating_after))
    for pid, (_, ir) in initial.items():
        if ir.published:
            outcome[pid].append(new_result(target, ir.games, ir.rating))
    for a in adjustments:
        outcome[a["player_id"]].append(new_result(target, 0, a["rating_after"], 1))
    for pid in drops:
        outcome[pid].append(new_result(target, 0, None, 2))
    for pid, rows in outcome.items():
        everyone[pid].results.extend(rows)
    return dict(outcome)


#: Each derived table's columns, in the order of the tuples ``derived_tuples`` gives.
COLUMNS: dict[str, tuple[str, ...]] = {
    "period_results": ("period", "pool", "revision", "player_id", "rating_before", "games",
                       "score_halves", "expected_hundredths", "k", "k_before_cap", "k_reason",
                       "change_hundredths", "change", "rating_after", "carried_hundredths"),
    "period_audits": ("period", "pool", "revision", "player_id", "sides"),
    "rating_adjustments": ("period", "pool", "revision", "player_id", "rating_before", "adjustment",
                           "rating_after", "rule"),
    "initial_ratings": ("period", "pool", "revision", "player_id", "method", "games", "opponents_sum",
                        "score_halves", "hypothetical", "p_hundredths", "dp", "bonus", "ru",
                        "cap", "rating", "floor", "published", "disregarded"),
    "initial_rating_games": ("period", "pool", "revision", "player_id", "game_id", "opponent_id",
                             "opponent_rating", "score_halves"),
    "rating_floor_drops": ("period", "pool", "revision", "player_id", "rating", "floor"),
    "list_entries": ("period", "pool", "revision", "player_id", "rank", "rating", "games", "k",
                     "k_reason", "inactive", "name", "fide_id", "federation", "title", "sex",
                     "birth_year"),
}


def derived_tuples(rated: Rated, revision: int) -> dict[str, Iterable[tuple[Any, ...]]]:
    """The rows of every table in ``DERIVED`` for ``revision`` of ``rated.period``: table name
    -> rows as tuples in the order of ``COLUMNS[table]`` (a table with none: empty lists):
    ``period_audits`` one row per player with a rated game, ``sides`` the player's
    ``RowResult.sides`` packed (``db.audit_pack``, in the order the games were rated).
    ``period_results`` and ``period_audits`` (a row per rated player) are iterators, each row
    made as it is taken (a federation's month: no 64 MB of packed audits held at once); read
    each once."""
    key = (str(rated.period), rated.pool, revision)
    results = (key + r.totals() for r in rated.results.values())
    audit = ((*key, pid, pack_flat(r.sides))  # RowResult.sides: SIDE_FIELDS = FIELDS
             for pid, r in rated.results.items() if r.n)
    initial = [(*key, pid, ir.method.value, ir.games, ir.opponents_sum, int(ir.points * 2),
                ir.hypothetical, ir.p_hundredths, ir.dp, ir.bonus, ir.ru, ir.cap, ir.rating,
                ir.floor, ir.published, len(pool.disregarded))
               for pid, (pool, ir) in rated.initial.items()]
    pool_games = [(*key, pid, g.game_id, g.opponent_id, g.opponent_rating, int(g.score * 2))
                  for pid, (pool, _) in rated.initial.items() for g in pool.games]
    drops = [(*key, pid, rating, rated.edition.rating_floor)
             for pid, rating in rated.drops.items()]
    adjustments = [(*key, a["player_id"], a["rating_before"], a["adjustment"],
                    a["rating_after"], a["rule"]) for a in rated.adjustments]
    listed = [key + line for line in rated.listed]  # ListLine: the columns after the key
    return {"period_results": results, "period_audits": audit,
            "rating_adjustments": adjustments, "initial_ratings": initial,
            "initial_rating_games": pool_games, "rating_floor_drops": drops,
            "list_entries": listed}


#: The columns of one unpacked game side of ``period_audits`` (``unpacked_audits``): the
#: ``period_games`` columns before revision 0010.
AUDIT_COLUMNS = ("period", "pool", "revision", "player_id", *AUDIT_FIELDS)


def unpacked_audits(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``period_audits`` rows (dicts with period, pool, revision, player_id, sides) as one dict per
    game side with ``AUDIT_COLUMNS``, in the rows' order then the sides' (``ValueError`` for
    bytes that are not whole sides)."""
    return [{"period": r["period"], "pool": r["pool"], "revision": r["revision"],
             "player_id": r["player_id"], **side._asdict()}
            for r in rows for side in unpack(r["sides"])]


def derived_rows(rated: Rated, revision: int) -> dict[str, list[dict[str, Any]]]:
    """The rows of every table in ``DERIVED`` for ``revision`` of ``rated.period`` (table name
    -> rows as dicts of column values, a table with none: an empty list): ``derived_tuples``
    named by ``COLUMNS``, except ``period_audits``: one dict per game side
    (``unpacked_audits``), so that a comparison names the game."""
    rows = {table: [dict(zip(COLUMNS[table], row, strict=True)) for row in found]
            for table, found in derived_tuples(rated, revision).items()}
    rows["period_audits"] = unpacked_audits(rows["period_audits"])
    return rows


def write_revision(session: Session, rated: Rated, revision: int, change_id: int,
                   reason: str | None) -> dict[str, int]:
    """Write ``revision`` of ``rated.period`` computed by change ``change_id``: its
    ``period_revisions`` row, every derived row, and ``periods`` pointing at it (made or moved).
    Returns the rows written per table. The revision's ``digest`` (``core.chain``: the list as
    published) is taken from the ``list_entries`` rows as written, not read back."""
    tables = derived_tuples(rated, revision)
    session.add(PeriodRevision(period=str(rated.period), revision=revision,
                               edition=rated.edition.value, change_id=change_id, reason=reason,
                               pool=rated.pool, digest=_list_digest(tables["list_entries"])))
    session.flush()
    written = {}
    for table, rows in tables.items():
        # the driver's executemany of tuples, in batches (db.rows: no per-row bind processing)
        written[table] = insert_rows(session, DERIVED[table].__table__, COLUMNS[table], rows,
                                     bound=table in _AS_THEY_ARE)
    pointer = session.get(RatingPeriod, (str(rated.period), rated.pool))
    if pointer is None:
        session.add(RatingPeriod(period=str(rated.period), pool=rated.pool, revision=revision))
    else:
        pointer.revision = revision
    session.flush()
    return written


#: The tables whose rows ``derived_tuples`` gives as the driver takes them, written without
#: bind processing (``insert_rows``' ``bound``): ``period_audits``, text, ints and the packed
#: ``bytes``, which sqlite3 and psycopg store as the same BLOB / bytea as the ``Binary``
#: that ``LargeBinary`` wraps each in (19,764 rows at M 0.065 -> 0.055 s).
_AS_THEY_ARE = frozenset({"period_audits"})

#: Where each of ``chain.LIST_COLUMNS`` is in a ``list_entries`` tuple (``COLUMNS``).
_DIGESTED = itemgetter(*(COLUMNS["list_entries"].index(name) for name in LIST_COLUMNS))
_INACTIVE = LIST_COLUMNS.index("inactive")
_RANK, _PLAYER = COLUMNS["list_entries"].index("rank"), COLUMNS["list_entries"].index("player_id")


def _list_digest(rows: Iterable[tuple[Any, ...]]) -> str:
    """``chain.list_digest`` of the ``list_entries`` tuples ``rows`` (``derived_tuples``'
    order), from the values written instead of the rows read back (20,000 at M): by rank then
    player id, each ``LIST_COLUMNS``' values; ``inactive`` as the bool a BOOLEAN column reads
    back."""
    digested = list(map(_DIGESTED, sorted(rows, key=itemgetter(_RANK, _PLAYER))))
    if any(type(row[_INACTIVE]) is not bool for row in digested):  # 0/1: read back as bools
        digested = [(*row[:_INACTIVE], None if row[_INACTIVE] is None else bool(row[_INACTIVE]),
                     *row[_INACTIVE + 1:]) for row in digested]
    return rows_digest(digested)[0]
