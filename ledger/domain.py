"""Pure value types shared by every layer: rating periods, game results, player states, rated games.

Everything here is a frozen dataclass or an enum, validated on construction, with no database, clock
or I/O. Scores are exact ``Decimal`` values 1, 0.5 and 0, never binary floats (docs/DESIGN.md).
"""

from __future__ import annotations

import datetime as dt
import enum
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from ledger.errors import InvalidInput, shown

#: Ratings a player can bring: from the lowest floor of any supported edition (1000, 2022-2024).
MIN_RATING, MAX_RATING = 1000, 3500

_PERIOD_RE = re.compile(r"^(\d{4})-(\d{2})$")

#: A rating pool (docs/RULES.md §9): each has its own games, ratings, K history and lists.
RatingPool = Literal["standard", "rapid", "blitz"]
#: The pools, in the order the ledger shows them.
POOLS: tuple[RatingPool, ...] = ("standard", "rapid", "blitz")
STANDARD: RatingPool = "standard"
RAPID: RatingPool = "rapid"
BLITZ: RatingPool = "blitz"


def parse_pool(text: str, field: str = "pool") -> RatingPool:
    """The pool named by ``text`` (``standard``, ``rapid`` or ``blitz``, any case, spaces
    around ignored). Raises ``InvalidInput`` naming ``field`` for anything else
    (docs/RULES.md §9)."""
    wanted = text.strip().casefold()
    for pool in POOLS:
        if pool == wanted:
            return pool
    raise InvalidInput(f"{field}: {shown(text)} is not a pool; use one of {', '.join(POOLS)}")


ONE = Decimal(1)
HALF = Decimal("0.5")
ZERO = Decimal(0)

#: The format characters (Unicode category Cf) as of Unicode 15.1, written out since ``re`` has
#: no categories (a test checks them against ``unicodedata``): the soft hyphen U+00AD, the
#: zero-width space, joiners and direction marks U+200B-U+200F, the embeddings and overrides
#: U+202A-U+202E, the isolates U+2066-U+2069, the byte-order mark U+FEFF, the tags ...
_FORMAT = (r"\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
           r"\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
           r"\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
           r"\U000e0020-\U000e007f")
#: What no one-line text field holds: control characters (Cc: C0 such as a tab, a line feed or
#: an escape, DEL, C1), format characters (Cf: invisible, or turning the text around on a
#: terminal) and the line and paragraph separators U+2028, U+2029.
_CONTROL_RE = re.compile(rf"[\x00-\x1f\x7f-\x9f\u2028\u2029{_FORMAT}]")


def find_control_character(text: str) -> re.Match[str] | None:
    """The first character in ``text`` that no one-line text field may hold, or None: a control
    character (C0 such as a tab or a line break, DEL, C1), a format character (Unicode category
    Cf: a soft hyphen U+00AD, a zero-width space U+200B, a direction mark, embedding, override
    or isolate, a byte-order mark U+FEFF ...: invisible, so that two names that print alike
    would differ) or a line or paragraph separator (U+2028, U+2029). The one rule by which
    ``player add``, ``game add`` and the imports refuse a name, an event, a round or any other
    one-line text field: ``find_control_character("Tab\\tName").start()`` is 3;
    ``described_character`` names what it found."""
    if text.isascii() and text.isprintable():  # no ASCII control character, nothing else: fast
        return None
    return _CONTROL_RE.search(text)


def described_character(char: str) -> str:
    """A character ``find_control_character`` finds, as messages name it: ``a control character
    (U+001B)``, ``a format character (U+00AD SOFT HYPHEN)``, ``a line break (U+2028 LINE
    SEPARATOR)``."""
    kind = {"Cc": "control character", "Cf": "format character"}.get(
        unicodedata.category(char), "line break")
    name = unicodedata.name(char, "")
    return f"a {kind} (U+{ord(char):04X}{' ' + name if name else ''})"


@dataclass(frozen=True, order=True)
class Period:
    """A rating period: one calendar month, written ``YYYY-MM`` (FIDE B.02 §7.1).

    Closing period ``2026-11`` publishes the rating list in force from 1 December 2026.
    Ordered chronologically. Raises ``InvalidInput`` for a malformed text or a month outside 1-12.
    """

    year: int
    month: int

    def __post_init__(self) -> None:
        if not 1 <= self.month <= 12 or not 1 <= self.year <= 9999:
            raise InvalidInput(f"period: {self.year:04d}-{self.month:02d} is not a valid month")

    @classmethod
    def parse(cls, text: str) -> Period:
        """Parse ``"YYYY-MM"``; raise ``InvalidInput`` naming the field ``period`` otherwise."""
        m = _PERIOD_RE.match(text.strip())
        if not m:
            raise InvalidInput(f"period: {shown(text)} is not a period; write YYYY-MM, "
                               "e.g. 2026-11")
        return cls(int(m.group(1)), int(m.group(2)))

    @classmethod
    def of(cls, day: dt.date) -> Period:
        """The period a date falls in."""
        return cls(day.year, day.month)

    @property
    def start(self) -> dt.date:
        """First day of the period."""
        return dt.date(self.year, self.month, 1)

    @property
    def end(self) -> dt.date:
        """Last day of the period."""
        return self.next().start - dt.timedelta(days=1)

    def next(self) -> Period:
        """The following month."""
        return Period(self.year + (self.month == 12), self.month % 12 + 1)

    def previous(self) -> Period:
        """The preceding month."""
        return Period(self.year - (self.month == 1), (self.month - 2) % 12 + 1)

    def list_date(self) -> dt.date:
        """Date from which the list published by closing this period is in force (the 1st of next month)."""
        return self.next().start

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


class Result(enum.Enum):
    """A game's result, from White's point of view, in the notation ``ledger game add`` accepts.

    Only ``WHITE_WINS``, ``DRAW`` and ``BLACK_WINS`` can be rated; forfeits (``+/-``, ``-/+``,
    ``-/-``) are recorded and never rated (FIDE B.02 §5.1).
    """

    WHITE_WINS = "1-0"
    DRAW = "1/2-1/2"
    BLACK_WINS = "0-1"
    WHITE_FORFEIT_WIN = "+/-"
    BLACK_FORFEIT_WIN = "-/+"
    DOUBLE_FORFEIT = "-/-"

    @classmethod
    def parse(cls, text: str) -> Result:
        """Parse a result token; ``½-½`` is accepted for a draw. Raise ``InvalidInput`` (field ``result``)."""
        token = text.strip().replace("½", "1/2")
        if token in cls._value2member_map_:
            return cls(token)
        accepted = ", ".join(m.value for m in cls)
        raise InvalidInput(f"result: {text!r} is not a result; use one of {accepted} (or ½-½)")

    @property
    def mirrored(self) -> Result:
        """The same outcome written with the colours swapped: ``1-0`` <-> ``0-1``, ``+/-`` <->
        ``-/+``; a draw and ``-/-`` stay as they are."""
        return _MIRRORED_BY_VALUE.get(self._value_, self)  # by its text: a str hashes fast

    @property
    def is_played(self) -> bool:
        """True for a game played over the board (not a forfeit)."""
        return self in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)

    @property
    def white_score(self) -> Decimal:
        """White's points: 1, 0.5 or 0 (a forfeit counts in standings, never in ratings)."""
        return _WHITE_SCORE[self._value_]  # by its text: no table built at each call

    @property
    def black_score(self) -> Decimal:
        """Black's points: 1, 0.5 or 0."""
        if self is Result.DOUBLE_FORFEIT:
            return ZERO
        return ONE - self.white_score


_MIRRORED = {Result.WHITE_WINS: Result.BLACK_WINS, Result.BLACK_WINS: Result.WHITE_WINS,
             Result.WHITE_FORFEIT_WIN: Result.BLACK_FORFEIT_WIN,
             Result.BLACK_FORFEIT_WIN: Result.WHITE_FORFEIT_WIN}
_MIRRORED_BY_VALUE = {result.value: mirror for result, mirror in _MIRRORED.items()}
_WHITE_SCORE = {Result.WHITE_WINS.value: ONE, Result.DRAW.value: HALF,
                Result.BLACK_WINS.value: ZERO, Result.WHITE_FORFEIT_WIN.value: ONE,
                Result.BLACK_FORFEIT_WIN.value: ZERO, Result.DOUBLE_FORFEIT.value: ZERO}


#: A round as ``round_of`` reads its label: a number, another label (case folded), or None.
RoundKey = int | str | None

#: A numbered round, read after NFKC (full-width ``１`` is ``1``) with runs of blanks as one: an
#: optional ``#``, ``R``, ``Rd``, ``Rnd`` or ``Round`` (with or without a dot or a space), the
#: number (any Unicode decimal digits: ``١`` is 1), then one of: board or game numbers after dots
#: (``1.1``, ``3.12``) and an optional final dot; an English ordinal ending (``1st``, ``2nd``,
#: ``3rd``, ``4th``, checked against the number), optionally followed by ``round``; a board
#: (``Bd1``, ``Board 2``, after an optional comma). The whole label may stand in parentheses.
_ROUND_RE = re.compile(
    r"(?:#|(?:round|rnd|rd|r)\.?)?\s*(\d{1,30})"
    r"(?:(?:\.\d+)*\.?|(st|nd|rd|th)(?: ?round)?|,? ?(?:board|bd)\.? ?\d+)")

#: Round numbers are below this; a longer number is a label of its own.
_MAX_ROUND_NUMBER = 10**9


def _ordinal_ending(number: int) -> str:
    """The English ordinal ending of ``number``: ``st`` (1, 21), ``nd``, ``rd``, else ``th``
    (4, 11, 12, 13)."""
    if number % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def round_of(label: str | None) -> RoundKey:
    """The round a round label names, so that the same round written two ways is one round.

    ``label`` is the round as written (a PGN ``Round`` tag, a TRF round number, a CSV cell, the
    ``--round`` of ``ledger game add``); it is stored as written, and compared through this one
    reading (the natural key of a game and the one-game-per-round rule). The label is read
    through Unicode NFKC (full-width ``１`` is ``1``), blanks of any kind collapsed, case folded.
    Returns:

    - an ``int`` for a numbered round: ``1``, ``01`` and the board notation ``1.1`` (round 1,
      board 1; ``1.1.2`` too) are round 1, as are ``R1``, ``Rd 1``, ``Rnd.1``, ``Round 1``
      (any case), ``1.``, ``#1``, ``(1)``, ``1st`` (``2nd``, ``3rd``, ``4th``, ``21st``: the
      ending must fit the number), ``Rd1 Bd1`` and ``Round 1 Board 2``; the digits may be any
      Unicode decimal digits (Arabic-Indic ``١`` is 1), up to 999,999,999;
    - None for no round: None, blank, ``?`` or ``-`` (the PGN tag's "unknown" and "none");
    - any other label, NFKC, blanks collapsed and case folded, as a round of its own: ``3a``
      and ``3b`` (a split round, or the games of a match) are two rounds and neither is round
      3; ``Final`` and ``final`` are one; so are ``2st`` and ``1b``.

    >>> round_of("1.1"), round_of("01"), round_of("R3"), round_of("3a"), round_of(" ")
    (1, 1, 3, '3a', None)
    >>> round_of("\u0661"), round_of("\uff11"), round_of("#1"), round_of("(1)"), round_of("2nd")
    (1, 1, 1, 1, 2)
    """
    if label is None:
        return None
    text = " ".join(unicodedata.normalize("NFKC", label).split()).casefold()
    if text in ("", "?", "-"):
        return None
    inner = text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text
    numbered = _ROUND_RE.fullmatch(inner)
    if numbered is None:
        return text
    number = int(numbered.group(1))
    ending = numbered.group(2)
    if number >= _MAX_ROUND_NUMBER or (ending is not None and ending != _ordinal_ending(number)):
        return text
    return number


#: Room for a stored round key: a label's 20 characters, case folded (``ß`` -> ``ss``).
ROUND_KEY_LENGTH = 40


def round_key(label: str | None) -> str | None:
    """``round_of(label)`` as ``games.round_key`` stores it, for the database's unique
    constraint on a game's event, round and players: a numbered round as its digits, another
    label as ``round_of`` folds it, None for no round.

    >>> round_key("1.1"), round_key("01"), round_key("Round 12"), round_key("Final"), round_key("?")
    ('1', '1', '12', 'final', None)
    """
    read = round_of(label)
    return None if read is None else str(read)[:ROUND_KEY_LENGTH]


class KReason(enum.Enum):
    """Why a player has the K-factor they have (FIDE B.02 §8.3.3; docs/RULES.md §4)."""

    REACHED_2400 = "reached-2400"
    JUNIOR = "junior"
    NEW_PLAYER = "new-player"
    STANDARD = "standard"
    EXPLICIT = "explicit"
    #: Rapid and blitz 2022-01 .. 2022-09: K 20 for everyone (docs/RULES.md §9).
    FLAT_20 = "flat-20"


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's state on the rating list in force at the start of a period.

    - ``rating``: published rating (int), or ``None`` for an unrated player.
    - ``birth_year``: year of birth, or ``None`` if unknown (then never a junior).
    - ``rated_games``: rated games completed before this period (prior games included); ``None``
      when the history is unknown, which the ledger treats as established (30 or more).
    - ``reached_2400`` / ``reached_2300``: a published rating has ever been at least 2400 / 2300.
    """

    rating: int | None
    birth_year: int | None = None
    rated_games: int | None = 0
    reached_2400: bool = False
    reached_2300: bool = False

    def __post_init__(self) -> None:
        if self.rating is not None and self.rating < 0:
            raise InvalidInput(f"rating: {self.rating} is negative")
        if self.rated_games is not None and self.rated_games < 0:
            raise InvalidInput(f"rated games: {self.rated_games} is negative")


@dataclass(frozen=True)
class RatedGame:
    """One recorded game as the period close sees it.

    - ``game_id``: the ledger's id (any hashable int for pure use).
    - ``event_key``: groups games of one tournament (the 2022 edition caps one game per event).
    - ``white_id`` / ``black_id``: player ids (different).
    - ``white_rating`` / ``black_rating``: each player's published rating in force on the event's
      start date, or ``None`` if unrated then (FIDE Title Regs §1.4.6a).
    - ``result``: the ``Result``; ``played``: False when the game lasted less than one move each
      (TRF ``W D L``, a PGN with fewer than two half-moves), so it is not rated (B.02 §5.1).
    - ``unequal_times``: the two players had different times, so it is not rated
      (docs/RULES.md §9).
    """

    game_id: int
    event_key: int | str | None
    white_id: int
    black_id: int
    white_rating: int | None
    black_rating: int | None
    result: Result
    played: bool = True
    unequal_times: bool = False

    def __post_init__(self) -> None:
        if self.white_id == self.black_id:
            raise InvalidInput(f"game {self.game_id}: a player cannot play themselves")

    @property
    def is_rateable(self) -> bool:
        """True when the game counts for ratings at all: played over the board, not a forfeit,
        both players with the same time."""
        return self.result.is_played and self.played and not self.unequal_times


#: The longest ``Actor.by``: a person's name or login.
MAX_ACTOR = 200


@dataclass(frozen=True)
class Actor:
    """Who asks for a write, and how (docs/CORRECTIONS.md §1): ``by`` (``--by NAME``, else
    ``$LEDGER_USER``, else the login name: the CLI decides, services never read the
    environment) and ``command``, the command line as typed or, called from code, the service's
    name. Every writing service records it in the ``changes`` it writes.

    Raises ``InvalidInput`` naming ``by`` for an empty name, one over ``MAX_ACTOR`` characters or
    one with a control character.
    """

    by: str
    command: str

    def __post_init__(self) -> None:
        if not self.by.strip():
            raise InvalidInput("by: an empty name; say who is writing (--by NAME or $LEDGER_USER)")
        if len(self.by) > MAX_ACTOR:
            raise InvalidInput(f"by: {len(self.by)} characters; at most {MAX_ACTOR}")
        control = find_control_character(self.by)
        if control is not None:
            raise InvalidInput(f"by: {shown(self.by)} holds {described_character(control.group())}")

    @classmethod
    def from_code(cls, service: str) -> Actor:
        """The actor of a service called from code without one: by ``code``, the command the
        service's name (``Actor.from_code("add_player").command == "add_player"``)."""
        return cls("code", service)


def count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: ``count(1, "game")`` -> ``1 game``,
    ``count(0, "game")`` -> ``0 games`` (every message built from a number says it so)."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def not_a_date(text: str) -> str:
    """Why ``text`` (stripped) is not a ``YYYY-MM-DD`` date, in words: the month or day out of
    range when the form is right (``2026-12-32: December has 31 days``, ``2026-13-01: there is
    no month 13``), else ``'12/01/2026' is not a date; write YYYY-MM-DD``."""
    found = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if found is not None:
        year, month, day = map(int, found.groups())
        if not 1 <= month <= 12:
            return f"{text}: there is no month {month}; write YYYY-MM-DD"
        first = dt.date(max(year, 1), month, 1)
        days = ((first + dt.timedelta(days=32)).replace(day=1) - first).days
        named = first.strftime("%B") + (f" {year}" if month == 2 else "")
        if not 1 <= day <= days:
            return f"{text}: {named} has {days} days"
    return f"{text!r} is not a date; write YYYY-MM-DD"
