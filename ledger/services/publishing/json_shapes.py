"""The JSON shapes of what the ledger shows: the one definition of each document the CLI's
``--json`` prints and the web's API (``ledger.web.api``) answers with, so the two never differ.

Each function takes a service's value and gives plain data (dicts, lists, str, int, float,
bool, None) for ``json.dumps``; exact values as ``formats.json_values`` writes them. Pure: no
database, no clock; the service values are only read.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ledger.formats.json_values import json_number, two_decimals
from ledger.formats.sparkline import sparkline
from ledger.services.publishing.history_summary import peak, period_points, rating_brought

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ledger.rules.initial import InitialRating
    from ledger.services.close.carried import CarriedLine
    from ledger.services.close.life import PoolView, RatingLife
    from ledger.services.publishing.event_reports import EventReport
    from ledger.services.publishing.histories import PlayerHistory
    from ledger.services.publishing.lists import RatingList
    from ledger.services.register.player_views import PlayerView, PrintedListRating

# ``rules.initial`` is imported where it is used (start-up, issue 14).


def rating_list_dict(rl: RatingList) -> dict[str, Any]:
    """A published rating list as JSON data (``pool`` on the list and on every row)."""
    return {"period": rl.period, "pool": rl.pool, "revision": rl.revision,
            "in_force_from": rl.in_force_from,
            **({"preview": True, "period_ended": rl.ended} if rl.preview else {}), "players": [
        {"pool": rl.pool, "rank": r.rank, "id": r.player_id, "name": r.name, "fide_id": r.fide_id,
         "federation": r.federation, "sex": r.sex, "title": r.title, "rating": r.rating,
         "games": r.games, "k": r.k, "k_reason": r.k_reason.value,
         "birth_year": r.birth_year, "inactive": r.inactive} for r in rl.rows]}


def player_dict(v: PlayerView) -> dict[str, Any]:
    """A player as JSON: who they are, their rating in their pool (``rating_pool``) and the K
    for ``next_period`` with its reason (both null while unrated)."""
    return {"id": v.id, "name": v.name, "fide_id": v.fide_id, "birth_year": v.birth_year,
            "sex": v.sex, "federation": v.federation, "title": v.title, "w_title": v.w_title,
            "o_title": v.o_title, "foa_title": v.foa_title, "rating": v.rating,
            "rated_games": v.rated_games, "history_unknown": v.history_unknown,
            "reached_2400": v.reached_2400, "reached_2300": v.reached_2300,
            "k": v.k if v.rating is not None else None,
            "k_reason": v.k_reason.value if v.rating is not None else None,
            "next_period": v.next_period, "rating_pool": v.pool}


def player_show_dict(v: PlayerView, *, added: bool = False) -> dict[str, Any]:
    """``ledger player show --json`` (and ``player add``'s, ``added``: without FIDE's list
    ratings and the carried corrections): the player, the life of their rating, FIDE's printed
    list ratings and the carried corrections."""
    return (player_dict(v) | (life_dict(v.life, v.pool) if v.life else {})
            | ({} if added else list_ratings_dict(v.list_ratings)
               | {"carried_corrections": carried_dicts(v.carried)}))


def carried_dicts(lines: Iterable[CarriedLine]) -> list[dict[str, Any]]:
    """Carried corrections as JSON (``player show``, ``history``, ``whatif``, ``event show``):
    the amount exact (``-20.0``) and in hundredths, where it applies and comes from, the change
    and its game, ``added`` (its close has added it) and the line as the text shows it."""
    return [{"applies_in": c.applies_in, "carried": json_number(c.amount),
             "hundredths": c.hundredths, "origin_period": c.origin_period,
             "origin_revision": c.origin_revision, "change_id": c.change_id,
             "action": c.action, "game_id": c.game_id, "reason": c.reason, "added": c.added,
             "line": c.label} for c in lines]


#: How ``player show`` labels FIDE's printed list ratings, in text and JSON.
LIST_RATINGS_LABEL = ("FIDE's rating lists, as printed, for comparison only: the rating and K "
                      "above are the ledger's own")


def list_ratings_dict(items: tuple[PrintedListRating, ...]) -> dict[str, Any]:
    return {"fide_list_ratings_note": LIST_RATINGS_LABEL,
            "fide_list_ratings": [{"pool": r.pool, "list_date": r.list_date.isoformat(),
                                   "rating": r.rating, "games": r.games, "k": r.k, "flag": r.flag,
                                   "source": r.source} for r in items]}


def pool_dict(pool: PoolView, rating_pool: str = "standard") -> dict[str, Any]:
    """A pool in progress for JSON (average to two decimals, and exact as a fraction); each
    game row carries ``pool``, the rating pool (``rating_pool``) its games are of."""
    return {"as_of": pool.as_of, "games": pool.games,
            "opponents_average": json_number(two_decimals(pool.average)) if pool.average else None,
            "opponents_average_exact": str(pool.average) if pool.average else None,
            "score": json_number(pool.points), "games_needed": pool.needed,
            "games_disregarded": pool.disregarded, "first_period": pool.first_period,
            "computed_at": pool.computed_at,
            "pool_games": [{"pool": rating_pool, "period": r.period, "game_id": r.game_id,
                            "opponent": r.opponent, "opponent_rating": r.opponent_rating,
                            "score": json_number(r.score),
                            "counted": r.counted} for r in pool.rows]}


def computation_dict(period: str, c: InitialRating) -> dict[str, Any]:
    """An initial rating's whole computation for JSON."""
    from ledger.rules.initial import HYPOTHETICAL_RATING
    return {"period": period, "method": c.method.value, "games": c.games,
            "score": json_number(c.points), "opponents_sum": c.opponents_sum,
            "hypothetical_opponents": c.hypothetical,
            "hypothetical_rating": HYPOTHETICAL_RATING if c.hypothetical else None,
            "ra": json_number(two_decimals(c.ra)), "ra_exact": str(c.ra),
            "p": json_number(Decimal(c.p_hundredths).scaleb(-2)), "p_exact": str(c.p),
            "dp": c.dp, "bonus": c.bonus, "ru_exact": str(c.ru_exact), "ru": c.ru,
            "cap": c.cap, "capped": c.capped, "rating": c.rating, "floor": c.floor,
            "published": c.published}


def life_dict(life: RatingLife, rating_pool: str = "standard") -> dict[str, Any]:
    """Pool of games in progress, initial ratings and floor drops for JSON; every row (game,
    computation, drop) carries ``pool``: ``rating_pool``, the rating pool (docs/RULES.md §9)
    the life is of. The top-level ``pool`` is the pool of games, not a rating pool."""
    return {"pool": pool_dict(life.pool, rating_pool) if life.pool else None,
            "initial_ratings": [{"pool": rating_pool} | computation_dict(i.period, i.computation)
                                for i in life.initial],
            "floor_drops": [{"pool": rating_pool, "period": d.period, "rating": d.rating,
                             "floor": d.floor} for d in life.drops]}


def history_dict(h: PlayerHistory) -> dict[str, Any]:
    """A player's history as JSON data: ``rating_pool`` and ``pool`` on every period row the
    rating pool (docs/RULES.md §9); the top-level ``pool`` is an unrated player's pool of games
    in progress (``life_dict``)."""
    return {"player": player_dict(h.player), "rating_pool": h.player.pool, "periods": [
        {"pool": h.player.pool, "period": r.period, "rating_before": r.rating_before,
         "games": r.games,
         "score": json_number(r.score), "expected": json_number(r.expected), "k": r.k,
         "k_reason": r.k_reason, "k_capped": r.k_capped,
         "change_exact": json_number(r.change_exact), "change": r.change,
         "rating_after": r.rating_after, "note": r.note, "carried": json_number(r.carried)}
        for r in h.periods], "carried_corrections": carried_dicts(h.carried)} \
        | life_dict(h.life, h.player.pool)


def history_trend(h: PlayerHistory) -> list[int]:
    """The rating the player brought into the first period (if any), then the rating published
    after each period: what the sparkline draws."""
    brought = rating_brought(h)
    return ([] if brought is None else [brought]) + [p.rating for p in period_points(h)]


def history_sparkline(h: PlayerHistory) -> str:
    """The sparkline of ``history_trend`` (one block each)."""
    return sparkline(history_trend(h))


def history_json(h: PlayerHistory, chart: str | None = None) -> dict[str, Any]:
    """``ledger history --json``: ``history_dict``, the peak (rating, period, in force from),
    the sparkline and the chart file written (``chart``; None: none)."""
    top = peak(h)
    return {**history_dict(h),
            "peak": None if top is None else {"rating": top.rating, "period": top.period,
                                               "in_force_from": top.in_force_from},
            "sparkline": history_sparkline(h), "chart": chart}


def event_dict(r: EventReport) -> dict[str, Any]:
    """``ledger event show --json``: the event and its rating report, a row per player."""
    return {
        "id": r.id, "name": r.name, "site": r.site, "city": r.city,
        "start_date": r.start_date.isoformat(), "end_date": r.end_date.isoformat(),
        "period": r.period, "closed": r.closed, "source": r.source, "games": r.games,
        "late_games": r.late_games,
        "pool": r.pool, "pools": list(r.pools),
        "players": [{
            "player_id": p.player_id, "name": p.name, "fide_id": p.fide_id,
            "federation": p.federation, "title": p.title, "rating": p.rating,
            "games": p.games, "points": json_number(p.points), "rated_games": p.rated_games,
            "score": json_number(p.score), "expected": json_number(p.expected), "k": p.k,
            "change": json_number(p.change) if p.change is not None else None,
            "period_change": p.period_change, "period_games": p.period_games,
            "performance": p.performance.rp if p.performance else None,
            "performance_games": p.performance.n if p.performance else 0,
            "period_exact": json_number(p.period_exact) if p.period_exact is not None else None,
            "carried": json_number(p.carried), "why": p.why,
            "carried_corrections": carried_dicts(p.carried_lines),
            "other_games": p.other_games,
            "late": [{"game_id": g.line.game_id, "date": g.line.date.isoformat(),
                      "rated_in": g.line.period, "opponent": g.line.opponent,
                      "score": json_number(g.line.score),
                      "expected": json_number(g.line.expected)
                      if g.line.expected is not None else None, "k": g.k,
                      "change": json_number(g.change) if g.change is not None else None}
                     for g in p.late],
        } for p in r.players]}
