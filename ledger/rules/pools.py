"""The rapid and blitz rules (docs/RULES.md §9; FIDE's rapid and blitz rating regulations, whose
sections are numbered one lower than B.02's): which pool a time control is, and how the rules of
a rapid or blitz period differ from the standard ones.

Pure: no database, clock or I/O. Times are exact ``Fraction`` minutes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ledger.domain import BLITZ, RAPID, STANDARD, KReason, Period, PlayerState, RatingPool
from ledger.errors import InvalidInput, shown
from ledger.rules.kfactor import k_factor

#: FIDE counts a time control for 60 moves (docs/RULES.md §9).
MOVES_COUNTED = 60
#: Blitz: more than 3 and at most 10 minutes; rapid: more than 10 and less than 60; standard:
#: 60 or more (minutes for 60 moves).
BLITZ_ABOVE = Fraction(3)
BLITZ_UP_TO = Fraction(10)
STANDARD_FROM = Fraction(60)
#: The longest time control read (minutes for 60 moves): 24 hours, beyond any real game.
LONGEST_MINUTES = 24 * 60
#: Rapid and blitz: K 20 for everyone until this period (exclusive), the standard K rules from it.
STANDARD_K_FROM = Period(2022, 10)
#: From this period a rapid or blitz game 600 or more apart is not rated when either player is
#: rated above 2600 (1 Dec 2024).
GAP_RULE_FROM = Period(2024, 12)
GAP = 600
GAP_ABOVE = 2600
#: From this period an unrated rapid or blitz player with a standard rating is rated with it.
SEEDED_FROM = Period(2024, 3)
#: The period whose close publishes the 1 October 2022 lists, which raised every rapid and
#: blitz rating more than 100 below the player's standard rating to standard - 100.
RAISE_2022_PERIOD = Period(2022, 9)
RAISE_2022_BELOW_STANDARD = 100


@dataclass(frozen=True)
class TimeControl:
    """A time control counted for 60 moves: ``minutes`` (exact), and the ``pool`` it gives."""

    minutes: Fraction

    @property
    def pool(self) -> RatingPool:
        """The pool of ``minutes`` (``pool_of_minutes``)."""
        return pool_of_minutes(self.minutes)


def minutes_for_60_moves(base_minutes: Fraction, increment_seconds: Fraction) -> Fraction:
    """Base minutes + increment seconds x 60 moves / 60 (docs/RULES.md §9): 15 min + 10 s ->
    25; 3 + 2 -> 5; 90 + 30 -> 120. Exact ``Fraction`` minutes."""
    return base_minutes + increment_seconds * MOVES_COUNTED / 60


def pool_of_minutes(minutes: Fraction) -> RatingPool:
    """The pool of a time control of ``minutes`` for 60 moves (docs/RULES.md §9): blitz above 3
    and up to 10, rapid above 10 and below 60, standard from 60 (10 -> blitz, 25 -> rapid, 60
    -> standard). Raises ``InvalidInput`` for 3 minutes or less (FIDE rates no such game) and
    for more than ``LONGEST_MINUTES`` (24 hours: no real game; a typo)."""
    if minutes <= BLITZ_ABOVE:
        raise InvalidInput(f"time control: {_minutes(minutes)} minutes for 60 moves is 3 or "
                           "less; FIDE rates no such game (blitz is more than 3)")
    if minutes > LONGEST_MINUTES:
        shown_minutes = _minutes(minutes) if minutes < 10**9 else "over a billion"
        raise InvalidInput(f"time control: {shown_minutes} minutes for 60 moves is more than 24 "
                           f"hours ({LONGEST_MINUTES} minutes); no real game is that long")
    if minutes <= BLITZ_UP_TO:
        return BLITZ
    if minutes < STANDARD_FROM:
        return RAPID
    return STANDARD


def _minutes(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


_PGN_PERIOD = re.compile(r"^(?:(\d+)/)?(\d+)(?:\+(\d+))?$")
_SANDCLOCK = re.compile(r"^\*(\d+)$")
_MINUTES = re.compile(
    r"^(\d+)\s*(?:min|mins|minutes|m|')?\s*(?:\+\s*(\d+)\s*(?:s|sec|secs|seconds|\"|'')?)?$",
    re.IGNORECASE)


def parse_pgn_time_control(text: str) -> TimeControl | None:
    """A PGN ``TimeControl`` tag (PGN standard §9.6.1: seconds): ``"900+10"`` (15 min + 10 s ->
    25, rapid), ``"180+2"`` (3 min + 2 s -> 5, blitz), ``"40/5400:1800+30"`` (40 moves in 90 min,
    then 30 min + 30 s: 90 + 30 + 30 = 150, standard), ``"*180"`` (a sandclock of 3 min).
    Periods are summed and the last period's increment counts for 60 moves. ``"?"``, ``"-"``
    and an empty tag: None (no time control given). Raises ``InvalidInput`` naming the field
    for anything else."""
    value = text.strip()
    if value in ("", "?", "-"):
        return None
    sandclock = _SANDCLOCK.match(value)
    if sandclock:
        return TimeControl(Fraction(int(sandclock.group(1)), 60))
    seconds = Fraction(0)
    increment = Fraction(0)
    for part in value.split(":"):
        match = _PGN_PERIOD.match(part.strip())
        if match is None:
            raise InvalidInput(f"TimeControl: {shown(text)} is not a PGN time control "
                               "(seconds, e.g. 900+10 or 40/5400:1800+30)")
        seconds += int(match.group(2))
        increment = Fraction(int(match.group(3) or 0))
    return TimeControl(minutes_for_60_moves(seconds / 60, increment))


def parse_time_control(text: str, field: str = "time_control") -> TimeControl | None:
    """A time control as people write it (a CSV ``time_control`` column, ``game add
    --time-control``, TRF's time-control record): base minutes + increment seconds, ``"15+10"``
    (25, rapid), ``"3+2"`` (5, blitz), ``"90 min + 30 s"``, ``"90'+30''"`` (120, standard); or
    the PGN form in seconds when it says so by its shape (``"40/5400:1800+30"``, ``"*180"``) or
    by a base of 180 or more (``"900+10"``: a base of 180 minutes is written ``180 min``).
    Empty, ``"?"`` or ``"-"``: None. Raises ``InvalidInput`` naming ``field``."""
    value = text.strip()
    if value in ("", "?", "-"):
        return None
    plain = _MINUTES.match(value)
    has_unit = bool(re.search(r"[a-z']", value, re.IGNORECASE))
    if plain and (has_unit or int(plain.group(1)) < 180):
        return TimeControl(minutes_for_60_moves(Fraction(int(plain.group(1))),
                                                Fraction(int(plain.group(2) or 0))))
    try:
        return parse_pgn_time_control(value)
    except InvalidInput:
        raise InvalidInput(f"{field}: {shown(text)} is not a time control (base minutes + "
                           "increment seconds, e.g. 15+10 or 90 min + 30 s)") from None


_TRF_SEPARATORS = re.compile(r"\+|,|;|\bplus\b|\bthen\b|\band\b", re.IGNORECASE)
_TRF_MINUTES = r"(?:h|hr|hrs|hour|hours|m|min|mins|minute|minutes|')"
#: One period of a TRF 122 text: ``90 min/40 moves``, ``90 min for 40 moves``, ``2 hours``,
#: ``30'``, ``40 moves in 90 min``; group 1 (or 3) the number, group 2 (or 4) the unit.
_TRF_PERIOD = re.compile(
    rf"^(?:(\d+)\s*({_TRF_MINUTES})\s*(?:(?:/|for|in)\s*\d+\s*moves?)?"
    rf"|\d+\s*moves?\s*(?:/|in)\s*(\d+)\s*({_TRF_MINUTES}))"
    r"(?:\s*(?:for the rest|for the game|to finish|sudden death|qpf))?$", re.IGNORECASE)
#: Words that make a number of seconds an increment (``30 sec increment``, ``15 per move``).
_TRF_INCREMENT_WORDS = re.compile(
    r"\s*(?:increment|inc|bonus|added|(?:/|per|a|each)\s*move|from move \d+)\b\.?",
    re.IGNORECASE)
_TRF_SECONDS = re.compile(r"^(\d+)\s*(?:s|sec|secs|second|seconds|''|\")?$", re.IGNORECASE)


def parse_trf_time_control(text: str) -> TimeControl | None:
    """TRF-16 record 122, "allotted time per moves/game", free text (FIDE's TRF-16
    description), in minutes: ``"90 min/40 moves + 30 min + 30 sec increment"`` (90 + 30 +
    30 = 150, standard), ``"15 min + 10 sec"`` (25, rapid), ``"40/120, 60"`` (40 moves in 120
    minutes, then 60: 180), ``"1:30 plus 15 per move"`` (90 + 15 = 105), ``"3+2"`` (5,
    blitz). Periods (separated by ``+``, ``,``, ``;``, ``plus``, ``then``, ``and``) are summed
    and the last increment counts for 60 moves, as ``minutes_for_60_moves``. None when the text
    says nothing the ledger reads (``"G/60"``, ``"Rapid"``, empty): the caller warns."""
    value = text.strip()
    plain = _MINUTES.match(value)
    if plain:  # base minutes + increment seconds, whatever the size of the base
        return TimeControl(minutes_for_60_moves(Fraction(int(plain.group(1))),
                                                Fraction(int(plain.group(2) or 0))))
    minutes = Fraction(0)
    increment = Fraction(0)
    periods = 0
    for part in _TRF_SEPARATORS.split(value):
        part = part.strip()
        if not part:
            continue
        clock = re.match(r"^(\d+):([0-5]\d)(?:\s*h)?$", part)
        moves_in = re.match(r"^\d+\s*/\s*(\d+)$", part)
        period = _TRF_PERIOD.match(part)
        seconds_text, marked = _TRF_INCREMENT_WORDS.subn("", part)
        seconds = _TRF_SECONDS.match(seconds_text.strip())
        if clock:
            minutes += int(clock.group(1)) * 60 + int(clock.group(2))
        elif moves_in:  # moves/minutes
            minutes += int(moves_in.group(1))
        elif period:
            number, unit = (period.group(1), period.group(2)) if period.group(1) else (
                period.group(3), period.group(4))
            minutes += int(number) * (60 if unit.lower().startswith("h") else 1)
        elif seconds and (marked or seconds_text.strip() != seconds.group(1)):
            increment = Fraction(int(seconds.group(1)))
            continue
        elif part.isdigit():  # a bare number is minutes ("40/120, 60")
            minutes += int(part)
        else:
            return None
        periods += 1
    if not periods:
        return None
    return TimeControl(minutes_for_60_moves(minutes, increment))


def k_in_pool(state: PlayerState, period: Period, pool: RatingPool) -> tuple[int, KReason]:
    """K for ``period`` in ``pool`` from the player's ``state`` in that pool (docs/RULES.md §4,
    §9): rapid and blitz 2022-01 .. 2022-09: 20 for everyone (``KReason.FLAT_20``; the 700 cap
    still applies); otherwise ``rules.kfactor.k_factor`` with the facts of that pool.
    Returns ``(K, reason)``."""
    if pool != STANDARD and period < STANDARD_K_FROM:
        return 20, KReason.FLAT_20
    return k_factor(state, period)


def exempt_from_400_rule(pool: RatingPool) -> bool:
    """Whether ``pool`` has the 2650 exemption of the 400-point rule (docs/RULES.md §3, §9):
    standard only; rapid and blitz keep the cap for everyone (decision)."""
    return pool == STANDARD


def gap_rule_applies(pool: RatingPool, period: Period) -> bool:
    """Whether ``gap_rule_excludes`` can be True for a game of ``pool`` in ``period``: rapid
    and blitz from 2024-12 (standard never)."""
    return pool != STANDARD and not period < GAP_RULE_FROM


def gap_rule_excludes(white: int | None, black: int | None, pool: RatingPool,
                      period: Period) -> bool:
    """True when a rapid or blitz game of ``period`` is not rated because its players' ratings
    (in ``pool``, at the event's start) are 600 or more apart and either is above 2600 (from
    2024-12; docs/RULES.md §9). 2650 v 2040 (610 apart) in 2025-03: True; in 2024-11: False."""
    if not gap_rule_applies(pool, period) or white is None or black is None:
        return False
    return abs(white - black) >= GAP and max(white, black) > GAP_ABOVE


GAP_REASON = "600 or more apart, one above 2600"


def seeded_from_standard(pool: RatingPool, period: Period) -> bool:
    """Whether an unrated player of ``pool`` with a standard rating at the event's start is
    rated with it in ``period`` and counts as rated for the opponents (rapid and blitz from
    2024-03; docs/RULES.md §9; earlier periods use the initial-rating rule)."""
    return pool != STANDARD and period >= SEEDED_FROM


def raise_2022(closed: Period, pool: RatingPool, rating: int, standard: int | None) -> int:
    """Points added to a rapid or blitz ``rating`` on the list published by closing ``closed``
    (docs/RULES.md §9): the 1 October 2022 lists (closing 2022-09) raised a rating more than 100
    below the player's ``standard`` rating to standard - 100. Every other list, the standard
    pool, or no standard rating: 0. ``raise_2022(Period(2022, 9), "rapid", 1500, 1800) == 200``."""
    if closed != RAISE_2022_PERIOD or pool == STANDARD or standard is None:
        return 0
    return max(0, standard - RAISE_2022_BELOW_STANDARD - rating)
