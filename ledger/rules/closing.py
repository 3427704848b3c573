"""A player's state on the list a close publishes, from their state before and what the close
gave them: pure, so that ``ledger verify`` (``ledger.verify``) recomputes a list from a bundle
with the same code as the close (``services.close.rating``) without any database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.domain import Period, PlayerState

__all__ = ["ClosedResult", "closed_state", "competition_ranks", "new_result", "new_state"]


@dataclass(frozen=True, slots=True)
class ClosedResult:
    """A closed period's outcome for the player: games rated and the new published rating.

    ``order`` 0 is the period result or a published initial rating (``games``: its pool), 1 a
    list adjustment made after it (the 1 March 2024 raise), 2 a drop below the rating floor
    (``rating_after`` None: unrated from the next list; the games count is kept).
    """

    period: Period
    games: int
    rating_after: int | None
    order: int = 0


#: ``PlayerState``'s slots' own setters (a frozen dataclass's ``__init__`` sets each field
#: through ``object.__setattr__``).
_SET_RATING, _SET_BORN, _SET_GAMES, _SET_2400, _SET_2300 = (
    PlayerState.__dict__[name].__set__
    for name in ("rating", "birth_year", "rated_games", "reached_2400", "reached_2300"))
_NEW = object.__new__


def new_state(rating: int | None, birth_year: int | None, rated_games: int | None,
              reached_2400: bool, reached_2300: bool) -> PlayerState:
    """``PlayerState(rating, birth_year, rated_games, reached_2400, reached_2300)``, equal to
    it and checked as it is (``InvalidInput`` for a negative rating or games count), each field
    set by its slot's setter: 0.75 -> 0.35 us, for the close's 40,000 states at M
    (``History.state``, ``closed_state``)."""
    state = _NEW(PlayerState)
    _SET_RATING(state, rating)
    _SET_BORN(state, birth_year)
    _SET_GAMES(state, rated_games)
    _SET_2400(state, reached_2400)
    _SET_2300(state, reached_2300)
    state.__post_init__()
    return state


_SET_PERIOD, _SET_COUNT, _SET_AFTER, _SET_ORDER = (
    ClosedResult.__dict__[name].__set__ for name in ("period", "games", "rating_after", "order"))


def new_result(period: Period, games: int, rating_after: int | None,
               order: int = 0) -> ClosedResult:
    """``ClosedResult(period, games, rating_after, order)``, equal to it, each field set by its
    slot's setter (0.9 -> 0.4 us): a history's results (every closed period of every player,
    ``state.histories_from``) and a close's outcome (``rating._add_outcome``)."""
    result = _NEW(ClosedResult)
    _SET_PERIOD(result, period)
    _SET_COUNT(result, games)
    _SET_AFTER(result, rating_after)
    _SET_ORDER(result, order)
    return result


def closed_state(before: PlayerState, outcome: Sequence[ClosedResult]) -> PlayerState:
    """The player's state on the list published by closing a period, from ``before``, their
    ``History.state`` for that period, and ``outcome``, what closing it gave them (its
    ``ClosedResult`` rows, none of an earlier period; empty: ``before`` itself): the same value
    as ``History.state(period, results_through=period)`` once ``outcome`` is in the results,
    without another walk over the history. The outcome is in force from the next month, so it
    beats every entry in force by then: the rating is the latest of it (result or initial
    rating, then adjustment, then floor drop: by ``order``), its games are added to the rated
    games (unknown stays unknown), its ratings count for 2400/2300 reached."""
    if not outcome:
        return before
    if len(outcome) == 1:  # a result or an initial rating alone (most players): no loops
        rating = outcome[0].rating_after
        return new_state(
            rating, before.birth_year,
            None if before.rated_games is None else before.rated_games + outcome[0].games,
            before.reached_2400 or (rating is not None and rating >= 2400),
            before.reached_2300 or (rating is not None and rating >= 2300))
    last = outcome[0]
    for r in outcome[1:]:
        if r.order > last.order:
            last = r
    ratings = [r.rating_after for r in outcome if r.rating_after is not None]
    return PlayerState(
        rating=last.rating_after,
        birth_year=before.birth_year,
        rated_games=(None if before.rated_games is None
                     else before.rated_games + sum(r.games for r in outcome)),
        reached_2400=before.reached_2400 or any(r >= 2400 for r in ratings),
        reached_2300=before.reached_2300 or any(r >= 2300 for r in ratings),
    )


def competition_ranks(ratings: Sequence[int]) -> list[int]:
    """The rank of each of ``ratings`` (a list's, highest first): 1, 2 ...; equal ratings share
    a rank (1, 2, 2, 4)."""
    ranks = []
    rank, last = 0, None
    for i, rating in enumerate(ratings, start=1):
        if rating != last:
            rank, last = i, rating
        ranks.append(rank)
    return ranks
