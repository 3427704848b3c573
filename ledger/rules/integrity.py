"""Integrity checks of a submission under review (issue 23; docs/RULES.md "Integrity checks"):
signs an officer should look at before accepting an event, each a ``Flag`` with its reason,
never a refusal. FIDE asks rating officers to reject suspicious events but names no test (issue
23); the thresholds below are the ledger's, in one place (``Thresholds``, ``THRESHOLDS``), each
with why.

Pure: no database, no clock, no I/O. The service ``services.imports.integrity`` gathers what
these functions read (the players' opponents in the last 12 months, ratings in force, who is
new) and calls them. Exact arithmetic: ``Fraction`` minutes and shares; the performance rating
is ``rules.performance.performance`` (Rp = Ra + dp, table 8.1.1), never a second formula.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from ledger.domain import BLITZ, RAPID, STANDARD, RatingPool
from ledger.rules.performance import performance
from ledger.rules.pools import BLITZ_ABOVE, BLITZ_UP_TO, STANDARD_FROM

#: What a flag concerns: one player, or one event (or a file's games without an event).
Subject = Literal["player", "event"]

#: The flags' codes, one per check.
CLOSED_POOL: Final = "closed-pool"
PERFORMANCE: Final = "performance"
LONG_DAY: Final = "long-day"
LATE_SUBMISSION: Final = "late-submission"
NEW_PLAYER_DETAILS: Final = "new-player-details"
UNRATED_SHARE: Final = "unrated-share"
CODES: Final = (CLOSED_POOL, PERFORMANCE, LONG_DAY, LATE_SUBMISSION, NEW_PLAYER_DETAILS,
                UNRATED_SHARE)


@dataclass(frozen=True)
class Thresholds:
    """Every threshold of the integrity checks (docs/RULES.md "Integrity checks (ledger serve)").

    - ``closed_pool_months`` (12): a closed pool is a group whose players met nobody outside it
      in the 12 months up to the event's end: issue 23's window, and the year after which
      FIDE calls a player without a rated game inactive (docs/RULES.md §6).
    - ``performance_above`` (400) over at least ``performance_min_games`` (5) games: 400 is the
      difference beyond which the 400-point rule stops counting (docs/RULES.md §3, B.02
      §8.3.1): a result that far above a rating is beyond what the rating predicts; 5 is the
      least number of games FIDE rates a newcomer on (docs/RULES.md §6), below which a
      performance says little.
    - ``day_minutes`` (720, 12 hours): FIDE's rating regulations (B.02 §1, rate of play): play
      shall not exceed 12 hours in one day, counted for games of 60 moves; a game lasts at most
      both players' time for 60 moves: 2 x its minutes for 60 moves (``rules.pools``).
    - ``pool_least_minutes``: a game without a time control counts the least its pool allows a
      player for 60 moves (docs/RULES.md §9): standard 60, rapid 10 (more than 10), blitz 3
      (more than 3); so 7 standard games in a day (7 x 2 x 60 = 840 minutes) are more than any
      standard time control allows in 12 hours.
    - ``late_days`` (30): an event submitted more than 30 days after its end (issue 23): its
      results reach the list a period late or later, and a late report is how events that
      never took place have been rated.
    - ``unrated_share`` (1/2): more than half the event's players unrated at its start: a pool
      made mostly of unrated players rates itself (issue 23).
    """

    closed_pool_months: int = 12
    performance_above: int = 400
    performance_min_games: int = 5
    day_minutes: int = 12 * 60
    late_days: int = 30
    unrated_share: Fraction = Fraction(1, 2)

    def pool_least_minutes(self, pool: RatingPool) -> Fraction:
        """The least minutes for 60 moves a player has in a game of ``pool`` (see above)."""
        return {STANDARD: STANDARD_FROM, RAPID: BLITZ_UP_TO, BLITZ: BLITZ_ABOVE}[pool]


#: The thresholds the ledger uses.
THRESHOLDS: Final = Thresholds()


@dataclass(frozen=True)
class Flag:
    """One integrity flag: ``code`` (one of ``CODES``), ``subject`` (``player`` or ``event``)
    and ``concerns`` (the player's name, or the event's), ``message`` (one sentence with the
    numbers, e.g. ``Dorn, Ada scored 4.5/5, performance 2310, 470 above her rating 1840``);
    ``player_id``: the ledger player it concerns, when known (None: an event, or a new player)."""

    code: str
    subject: Subject
    concerns: str
    message: str
    player_id: int | None = None


def year_before(day: dt.date, months: int = 12) -> dt.date:
    """The first day of the ``months`` months up to ``day``: the same day ``months`` months
    earlier, plus one (2026-03-31 -> 2025-04-01), the month's last day standing in for a day it
    lacks (2024-02-29, 12 -> 2023-02-28 + 1 = 2023-03-01)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last)) + dt.timedelta(days=1)


def closed_pool(event: str, end: dt.date, group: Collection[Hashable],
                meetings: Iterable[tuple[Hashable, Hashable]], recorded: int,
                limits: Thresholds = THRESHOLDS) -> Flag | None:
    """(a) A closed pool: a flag when no player of ``group`` (the event's players, any hashable
    identity) met anyone outside it in the ``closed_pool_months`` up to ``end`` (the later of
    the event's end and its submission: the last 12 months as the officer reviews it).

    ``meetings``: every (player, opponent) pair of the games in that window that have a player
    of ``group`` (recorded in the ledger, and the submission's own); ``recorded``: how many of
    them the ledger had before (said in the sentence). None when some pair has an opponent
    outside the group, or the group has fewer than 2 players."""
    if len(group) < 2:
        return None
    members = set(group)
    games = 0
    for a, b in meetings:
        if a not in members or b not in members:
            return None
        games += 1
    before = (f"{recorded} earlier games recorded among them" if recorded
              else "none of them has an earlier game recorded")
    return Flag(CLOSED_POOL, "event", event,
                f"{event}: its {len(members)} players played nobody outside the group in the "
                f"{limits.closed_pool_months} months to {end.isoformat()} ({games} games, "
                f"{before})")


def performance_flag(name: str, rating: int | None, opponent_ratings: Sequence[int],
                     scores: Sequence[Fraction], sex: str | None = None,
                     player_id: int | None = None,
                     limits: Thresholds = THRESHOLDS) -> Flag | None:
    """(b) A performance ``performance_above`` or more above a rated player's ``rating`` over at
    least ``performance_min_games`` games.

    ``opponent_ratings[i]`` and ``scores[i]`` (0, 1/2, 1): the games played over the board
    against rated opponents (``rules.performance.performance``: Rp = Ra + dp). ``sex`` (``F``,
    ``M`` or None) chooses her, his or their in the sentence. None for an unrated player, fewer
    games, or a smaller gap. Raises ``ValueError`` as ``performance`` does."""
    if rating is None or len(scores) < limits.performance_min_games:
        return None
    perf = performance(opponent_ratings, scores)
    above = perf.rp - rating
    if above < limits.performance_above:
        return None
    own = {"F": "her", "M": "his"}.get(sex or "", "their")
    return Flag(PERFORMANCE, "player", name,
                f"{name} scored {_points(perf.points)}/{perf.n}, performance {perf.rp}, "
                f"{above} above {own} rating {rating}", player_id)


@dataclass(frozen=True)
class DayGame:
    """One game of a player's day, for ``long_day``: ``minutes`` for 60 moves a player (its
    time control, ``rules.pools.TimeControl.minutes``; None: not given) and its ``pool``."""

    minutes: Fraction | None
    pool: RatingPool


def game_minutes(game: DayGame, limits: Thresholds = THRESHOLDS) -> Fraction:
    """A game's length as FIDE counts a day's play: 60 moves, each player using all their time:
    2 x its minutes for 60 moves, or 2 x its pool's least when it has no time control
    (90 min + 30 s: 2 x 120 = 240; a standard game without one: 2 x 60 = 120)."""
    return 2 * (game.minutes if game.minutes is not None else limits.pool_least_minutes(game.pool))


def long_day(name: str, day: dt.date, games: Sequence[DayGame], player_id: int | None = None,
             limits: Thresholds = THRESHOLDS) -> Flag | None:
    """(c) More than ``day_minutes`` (12 hours) of play for one player on ``day``, each game
    counted by ``game_minutes``: more games than their time control allows in a day. The
    sentence gives the games, the hours and, when every game has the same length, how many
    games that time control allows (12 hours // its length). None when within 12 hours."""
    total = sum((game_minutes(g, limits) for g in games), Fraction(0))
    if total <= limits.day_minutes:
        return None
    lengths = {game_minutes(g, limits) for g in games}
    counted = "; ".join(
        f"{sum(1 for g in games if game_minutes(g, limits) == m)} x {_number(m)} minutes"
        + ("" if all(g.minutes is not None for g in games if game_minutes(g, limits) == m)
           else " without a time control, the least their pool allows")
        for m in sorted(lengths, reverse=True))
    allows = ""
    if len(lengths) == 1:
        length = next(iter(lengths))
        allows = (f"; games of {_number(length)} minutes fit "
                  f"{math.floor(limits.day_minutes / length)} in a day")
    return Flag(LONG_DAY, "player", name,
                f"{name} played {len(games)} games on {day.isoformat()}: {_hours(total)} of "
                f"play counted for 60 moves a game ({counted}), more than "
                f"{_hours(Fraction(limits.day_minutes))}{allows}", player_id)


def late_submission(event: str, end: dt.date, submitted: dt.date,
                    limits: Thresholds = THRESHOLDS) -> Flag | None:
    """(d) An event submitted more than ``late_days`` (30) days after its ``end``: 2026-03-01
    to 2026-03-31 is 30 days (no flag), to 2026-04-01 is 31 (a flag)."""
    days = (submitted - end).days
    if days <= limits.late_days:
        return None
    return Flag(LATE_SUBMISSION, "event", event,
                f"{event} ended on {end.isoformat()} and was submitted on "
                f"{submitted.isoformat()}, {days} days later (more than {limits.late_days})")


def new_player_details(name: str, birth_year: int | None, sex: str | None) -> Flag | None:
    """(e) A player new to the ledger (the submission would register them) without a birth year
    or a sex (K needs the birth year, docs/RULES.md §4; the women's titles and lists the sex).
    None when the file gives both."""
    missing = [what for what, value in (("birth year", birth_year), ("sex", sex))
               if value is None]
    if not missing:
        return None
    return Flag(NEW_PLAYER_DETAILS, "player", name,
                f"{name} is new to the ledger and the file gives no {' and no '.join(missing)}")


def unrated_share(event: str, players: int, unrated: int,
                  limits: Thresholds = THRESHOLDS) -> Flag | None:
    """(f) More than ``unrated_share`` (half) of an event's ``players`` unrated at its start:
    6 of 12 is half (no flag), 7 of 12 is more (a flag, 58 %)."""
    if players < 1 or Fraction(unrated, players) <= limits.unrated_share:
        return None
    share = math.floor(Fraction(100 * unrated, players) + Fraction(1, 2))
    return Flag(UNRATED_SHARE, "event", event,
                f"{event}: {unrated} of its {players} players are unrated ({share} %), more "
                f"than {_share(limits.unrated_share)}")


def _points(points: Fraction) -> str:
    """4.5, 5, 0.5: a score as scoresheets write it."""
    return str(points.numerator) if points.denominator == 1 else f"{float(points):g}"


def _number(value: Fraction) -> str:
    """A whole number as is, else to one decimal (minutes from seconds: 2.5)."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.1f}"


def _hours(minutes: Fraction) -> str:
    """840 -> ``14 hours``; 750 -> ``12 hours 30 minutes``."""
    whole = math.floor(minutes)
    hours, rest = divmod(whole, 60)
    return f"{hours} hours" + (f" {rest} minutes" if rest else "")


def _share(share: Fraction) -> str:
    return "half" if share == Fraction(1, 2) else f"{_number(share * 100)} %"
