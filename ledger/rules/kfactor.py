"""The K-factor and its reason (FIDE B.02 §8.3.3; docs/RULES.md §4), and the K x n <= 700 cap."""

from __future__ import annotations

from ledger.domain import KReason, Period, PlayerState

#: Games a new player needs before K drops from 40.
NEW_PLAYER_GAMES = 30
#: The most K x n may be in one period.
K_TIMES_GAMES_MAX = 700
JUNIOR_MAX_AGE = 18


def is_junior(birth_year: int | None, period: Period) -> bool:
    """True through December of the year the player turns 18 (unknown birth year: never)."""
    return birth_year is not None and period.year - birth_year <= JUNIOR_MAX_AGE


def k_factor(state: PlayerState, period: Period) -> tuple[int, KReason]:
    """K for ``period`` from the player's ``state`` on the list in force at its start.

    Precedence (docs/RULES.md §4 Decision): a published rating ever reached 2400 -> 10; a junior
    whose published rating never reached 2300 -> 40; fewer than 30 rated games before the period
    -> 40; otherwise 20. ``state.rated_games`` None (history unknown) counts as established.
    Returns ``(K, reason)``.
    """
    if state.reached_2400:
        return 10, KReason.REACHED_2400
    if is_junior(state.birth_year, period) and not state.reached_2300:
        return 40, KReason.JUNIOR
    if state.rated_games is not None and state.rated_games < NEW_PLAYER_GAMES:
        return 40, KReason.NEW_PLAYER
    return 20, KReason.STANDARD


def cap_k(k: int, games: int) -> int:
    """K after the 700 rule: if K x n > 700 (n = rated games in the period), K = floor(700 / n).

    ``cap_k(40, 18) == 38``, ``cap_k(20, 36) == 19``, ``cap_k(10, 71) == 9``; n = 0 leaves K.
    """
    if games > 0 and k * games > K_TIMES_GAMES_MAX:
        return K_TIMES_GAMES_MAX // games
    return k
