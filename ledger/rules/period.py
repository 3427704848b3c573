"""Rating one period: FIDE B.02 §8.3 (change = K x sum(S - PD), rounded once, half away from zero).

``rate_period`` turns player states and the period's games into one ``PeriodResult`` per rated player
who has at least one rated game, with a per-game audit. It writes nothing; the caller stores it.
All sums are exact ``Decimal`` values built from two-decimal table values; the only rounding is
``round_half_away_from_zero`` on the period total (§8.3.4). A carried correction (an exact
amount in hundredths that a correction of a closed period carries into this one, docs/CORRECTIONS.md
§5) is added to that total before the rounding.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from ledger.domain import STANDARD, KReason, Period, PlayerState, RatedGame, RatingPool
from ledger.rules.editions import Edition
from ledger.rules.expected import cap_difference, expected_score, rule_400_applies_to
from ledger.rules.kfactor import cap_k
from ledger.rules.pools import exempt_from_400_rule, gap_rule_excludes, k_in_pool


def round_half_away_from_zero(value: Decimal) -> int:
    """Round an exact value to a whole number, halves away from zero: 4.5 -> 5, -2.5 -> -3 (§8.3.4)."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class PlayerGame:
    """One rated game from one player's point of view.

    ``own_rating`` / ``opponent_rating``: published ratings in force at the event's start (ints);
    ``score``: the player's points, ``Decimal`` 1, 0.5 or 0; ``event_key`` groups a tournament.
    """

    game_id: int
    event_key: int | str | None
    opponent_id: int
    own_rating: int
    opponent_rating: int
    score: Decimal


@dataclass(frozen=True)
class GameAudit:
    """How one game entered the change.

    ``difference`` is the real D (own - opponent); ``counted_difference`` the D used after the
    400-point rule; ``capped`` whether the rule changed it; ``expected`` the two-decimal PD.
    """

    game_id: int
    opponent_id: int
    own_rating: int
    opponent_rating: int
    difference: int
    counted_difference: int
    capped: bool
    expected: Decimal
    score: Decimal

    @property
    def surplus(self) -> Decimal:
        """S - PD for this game."""
        return self.score - self.expected


@dataclass(frozen=True)
class PeriodResult:
    """One player's period: the K used and why, the games, the exact and the rounded change.

    - ``k``: K applied to every game of the period (after the 700 cap); ``k_before_cap``: K from
      the rules; ``k_capped``: True when the 700 rule reduced it.
    - ``score`` / ``expected``: sums of S and PD; ``surplus`` = score - expected (exact Decimal).
    - ``change_exact`` = k x surplus + ``carried`` (exact); ``change`` its one rounding;
      ``rating_after`` = ``rating_before`` + ``change``.
    - ``carried``: the carried corrections added before the rounding (exact, 0 for none).
    """

    player_id: int
    rating_before: int
    k: int
    k_before_cap: int
    k_reason: KReason
    games: tuple[GameAudit, ...]
    score: Decimal
    expected: Decimal
    surplus: Decimal
    change_exact: Decimal
    change: int
    rating_after: int
    carried: Decimal = Decimal(0)

    @property
    def k_capped(self) -> bool:
        """True when K x n > 700 cut K."""
        return self.k != self.k_before_cap

    @property
    def n(self) -> int:
        """Rated games in the period."""
        return len(self.games)


def _counted_differences(games: Sequence[PlayerGame], edition: Edition,
                         pool: RatingPool = STANDARD) -> list[tuple[int, int]]:
    """(real D, counted D) per game under ``edition``'s 400-point rule, from the player's own view.

    2024-03 and later: every game's D is limited to +-400 (2025-10: not for players rated 2650+
    in the standard pool; rapid and blitz keep the cap for everyone, docs/RULES.md §9).
    2022-01: in each event only the game with the largest |D| (the first such, in the order
    given) is limited; a game with no event is a tournament of its own.
    """
    real = [g.own_rating - g.opponent_rating for g in games]
    if edition is not Edition.E2022_01:
        return [
            (d, cap_difference(d) if (rule_400_applies_to(g.own_rating, edition)
                                      or not exempt_from_400_rule(pool)) else d)
            for d, g in zip(real, games, strict=True)
        ]
    largest: dict[object, int] = {}
    for i, (d, g) in enumerate(zip(real, games, strict=True)):
        event: object = g.event_key if g.event_key is not None else ("game", g.game_id)
        j = largest.get(event)
        if j is None or abs(d) > abs(real[j]):
            largest[event] = i
    chosen = set(largest.values())
    return [(d, cap_difference(d) if i in chosen else d) for i, d in enumerate(real)]


def rate_player(
    player_id: int,
    rating_before: int,
    games: Sequence[PlayerGame],
    edition: Edition,
    k: int,
    k_reason: KReason = KReason.EXPLICIT,
    *,
    fide_rules: bool = True,
    carried: Decimal = Decimal(0),
    pool: RatingPool = STANDARD,
) -> PeriodResult:
    """Rate one player's period with a given K (the 700 cap applied here).

    ``games`` are the player's rated games (non-empty is not required: no games, no change).
    Pass ``k`` explicitly to reproduce a calculation whose K is known (FIDE's own pages);
    ``rate_period`` passes the K from ``k_factor``. ``fide_rules=False`` is the seeds' plain
    worksheet (``ledger calc change`` without ``--fide-rules``): every game with its real D and no
    700 cap. ``carried`` (exact) is added to K x sum(S - PD) before the one rounding (a
    player with no game and a carried correction: a change of exactly ``carried``). ``pool``:
    the rating pool, for its 400-point rule (docs/RULES.md §9). Returns a ``PeriodResult``.
    """
    k_used = cap_k(k, len(games)) if fide_rules else k
    counted_differences = (_counted_differences(games, edition, pool) if fide_rules else
                           [(d, d) for d in (g.own_rating - g.opponent_rating for g in games)])
    audits = []
    for game, (d, counted) in zip(games, counted_differences, strict=True):
        audits.append(
            GameAudit(
                game_id=game.game_id,
                opponent_id=game.opponent_id,
                own_rating=game.own_rating,
                opponent_rating=game.opponent_rating,
                difference=d,
                counted_difference=counted,
                capped=counted != d,
                expected=expected_score(counted),
                score=game.score,
            )
        )
    score = sum((a.score for a in audits), Decimal(0))
    expected = sum((a.expected for a in audits), Decimal(0))
    surplus = score - expected
    change_exact = k_used * surplus + carried
    change = round_half_away_from_zero(change_exact)
    return PeriodResult(
        player_id=player_id,
        rating_before=rating_before,
        k=k_used,
        k_before_cap=k,
        k_reason=k_reason,
        games=tuple(audits),
        score=score,
        expected=expected,
        surplus=surplus,
        change_exact=change_exact,
        change=change,
        rating_after=rating_before + change,
        carried=carried,
    )


def player_games(games: Sequence[RatedGame],
                 current: Mapping[int, int | None] | None = None, *,
                 pool: RatingPool = STANDARD,
                 period: Period | None = None) -> dict[int, list[PlayerGame]]:
    """Split games into each rated player's rated games (FIDE B.02 §5.1, §8.3.1, §8.2.4).

    A game counts for a player only if it was played (no forfeit, at least one move each) and
    the opponent had a published rating at the event's start. The player's own rating is theirs
    at the event's start; when they were unrated then but ``current`` (player id -> published
    rating on the list in force for the period) gives them a rating, they play the event as a
    rated player with it (§8.2.4), while for their opponents the game stays one against an
    unrated player. In a rapid or blitz ``pool``, a game of ``period`` that
    ``rules.pools.gap_rule_excludes`` (600 apart, one above 2600, from 2024-12) counts for
    neither. Returns player id -> games in the order given.
    """
    now = current or {}
    by_player: dict[int, list[PlayerGame]] = defaultdict(list)
    for g in games:
        if not g.is_rateable:
            continue
        if period is not None and gap_rule_excludes(g.white_rating, g.black_rating, pool, period):
            continue
        sides = ((g.white_id, g.white_rating, g.black_id, g.black_rating, g.result.white_score),
                 (g.black_id, g.black_rating, g.white_id, g.white_rating, g.result.black_score))
        for pid, own, opponent, opponent_rating, score in sides:
            own = own if own is not None else now.get(pid)
            if own is None or opponent_rating is None:
                continue
            by_player[pid].append(
                PlayerGame(g.game_id, g.event_key, opponent, own, opponent_rating, score))
    return dict(by_player)


def rate_period(
    states: Mapping[int, PlayerState],
    games: Sequence[RatedGame],
    period: Period,
    edition: Edition,
    carried: Mapping[int, Decimal] | None = None,
    pool: RatingPool = STANDARD,
) -> dict[int, PeriodResult]:
    """Rate every rated player of ``period``.

    ``states``: player id -> ``PlayerState`` on the list in force at the period's start (every
    player in ``games`` must be present; a ``KeyError`` otherwise). ``games``: the period's games.
    Players unrated at the period's start get no result here (initial ratings are separate); a
    player rated on that list but unrated at an event's start plays it as rated (§8.2.4).
    ``carried``: player id -> the exact carried corrections to add before the rounding (each
    such player must be in ``states``; one unrated at the period's start gets none: there is
    no rating to correct). ``pool``: the rating pool rated (docs/RULES.md §9): its K
    (``rules.pools.k_in_pool``), its 400-point rule and the 600-point rule of rapid and blitz;
    ``states`` and the games' ratings must be that pool's.
    Returns player id -> ``PeriodResult`` for each player with at least one rated game or a
    carried correction (then possibly with no game).
    """
    results: dict[int, PeriodResult] = {}
    current = {pid: state.rating for pid, state in states.items()}
    extra = dict(carried or {})
    by_player = player_games(games, current, pool=pool, period=period)
    for player_id in [*by_player, *(pid for pid in extra if pid not in by_player)]:
        state = states[player_id]
        if state.rating is None:
            continue
        k, reason = k_in_pool(state, period, pool)
        results[player_id] = rate_player(player_id, state.rating, by_player.get(player_id, []),
                                         edition, k, reason,
                                         carried=extra.get(player_id, Decimal(0)), pool=pool)
    return results
