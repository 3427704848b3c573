"""A player's period in integers: ``RowResult`` (the ``period_results`` values and the per-game
audit of one player), the one rounding of §8.3.4 on hundredths, and the rows the close rates
(``GameRow``; a period's of them held as columns, ``GameRowColumns``). Shared by the close's
two ways of rating (``rules.period_rows`` on Python rows, ``rules.period_arrays`` on numpy
columns), neither of which the other's values depend on.

Pure: no database, no I/O.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import NamedTuple

from ledger.domain import KReason
from ledger.rules.period import GameAudit, PeriodResult

#: One recorded game: (game id, event key or None, white id, black id, white's rating at the
#: event's start or None, black's or None, white's score in halves: 2, 1 or 0; None when the
#: game cannot be rated at all: a forfeit, less than one move each, different times).
GameRow = tuple[int, int | str | None, int, int, int | None, int | None, int | None]

#: A ``GameRowColumns`` value that is None (ids, ratings and halves are never negative).
NONE = -1


class GameRowColumns:
    """``GameRow`` tuples kept as seven columns of 64-bit ints (``array("q")``, None as
    ``NONE``), the event an event id (an int) or None: a federation's month of 1,000,000 games
    in 56 MB instead of a tuple a game. ``extend`` adds rows in order; ``rows`` gives them back
    as ``GameRow`` tuples, equal to those added."""

    __slots__ = ("game_id", "event", "white", "black", "white_rating", "black_rating", "halves")

    def __init__(self) -> None:
        self.game_id, self.event, self.white, self.black = (array("q") for _ in range(4))
        self.white_rating, self.black_rating, self.halves = (array("q") for _ in range(3))

    def __len__(self) -> int:
        return len(self.game_id)

    def extend(self, rows: Sequence[GameRow]) -> None:
        """Add ``rows`` (their events ints or None) after those already held. ``TypeError``
        for a value that is not an int or None (a text event key)."""
        if not rows:
            return
        game_id, event, white, black, white_rating, black_rating, halves = zip(*rows,
                                                                                strict=True)
        added = [array("q", game_id), array("q", [NONE if v is None else v for v in event]),
                 array("q", white), array("q", black)]  # all made before any is added
        added += [array("q", [NONE if v is None else v for v in values])
                  for values in (white_rating, black_rating, halves)]
        for column, values in zip((self.game_id, self.event, self.white, self.black,
                                   self.white_rating, self.black_rating, self.halves), added,
                                  strict=True):
            column.extend(values)

    def sort_by(self, keys: array[int]) -> None:
        """Put the rows in the order of ``keys`` (one 64-bit int a row, ``array("q")``), rows of
        equal keys in the order they were added (a stable sort). ``ValueError`` when ``keys``
        is not one key a row."""
        if len(keys) != len(self):
            raise ValueError(f"{len(keys)} keys for {len(self)} rows")
        import numpy as np  # the close's rating imports it already; other commands need not

        order = np.argsort(np.frombuffer(keys, dtype=np.int64), kind="stable")
        for name in self.__slots__:  # in place: one column's copy held at a time
            column = np.frombuffer(getattr(self, name), dtype=np.int64)  # a writable view
            column[:] = column[order]
            del column  # the view lets go of the array (which may grow again)

    def rows(self) -> Iterable[GameRow]:
        """The rows added, in order, as ``GameRow`` tuples (``NONE`` back to None)."""
        def back(column: array[int]) -> Iterable[int | None]:
            return (None if v == NONE else v for v in column)

        return zip(self.game_id, back(self.event), self.white, self.black,
                   back(self.white_rating), back(self.black_rating), back(self.halves), strict=True)


_HALF = Decimal("0.5")
_HUNDREDTH = Decimal("0.01")


class SideAudit(NamedTuple):
    """How one game entered one player's change (``period_audits.sides`` packs them without
    the player id, ``db.audit_pack``): ``difference`` the real D (own - opponent),
    ``counted_difference`` the D after the 400-point rule, ``expected_hundredths`` PD x 100,
    ``score_halves`` S x 2."""

    game_id: int
    player_id: int
    opponent_id: int
    own_rating: int
    opponent_rating: int
    difference: int
    counted_difference: int
    expected_hundredths: int
    score_halves: int


#: The values of one game side in ``RowResult.sides``, in order: a ``SideAudit`` without the
#: player id (the ``RowResult``'s own).
SIDE_FIELDS = ("game_id", "opponent_id", "own_rating", "opponent_rating", "difference",
               "counted_difference", "expected_hundredths", "score_halves")
_WIDTH = len(SIDE_FIELDS)


def side_values(audits: Iterable[SideAudit]) -> array[int]:
    """``SideAudit`` rows as ``RowResult.sides``: their values but the player id, flat, in
    ``SIDE_FIELDS`` order (64-bit ints)."""
    flat = array("q")
    for a in audits:
        flat.extend((a.game_id, a.opponent_id, a.own_rating, a.opponent_rating, a.difference,
                     a.counted_difference, a.expected_hundredths, a.score_halves))
    return flat


class RowResult:
    """One player's period in integers: the ``period_results`` values and the per-game audit.

    ``score_halves`` = 2 x sum(S); ``expected_hundredths`` = 100 x sum(PD);
    ``change_hundredths`` = K x (50 x score_halves - expected_hundredths) + carried_hundredths
    (exact); ``change`` its one rounding half away from zero; ``sides``: the per-game audit,
    ``SIDE_FIELDS`` for each game side in the order of the games, flat in one ``array`` of
    ints: from the array path (``rules.period_arrays``) 32-bit (``"i"``, as ``period_audits``
    packs them; 64-bit, ``"q"``, when a value is outside int32, which the write then refuses),
    from the rows' path and ``side_values`` 64-bit; no object per side: a federation month
    has 2,000,000 sides, 64 MB as int32); ``audits``: the same as ``SideAudit`` rows, built on each call. The
    ``Decimal`` properties and ``games`` (``GameAudit`` objects, built on demand) give the same
    view as the reference ``rules.period.PeriodResult``.
    """

    __slots__ = ("player_id", "rating_before", "k", "k_before_cap", "k_reason", "n",
                 "score_halves", "expected_hundredths", "change_hundredths", "change",
                 "rating_after", "carried_hundredths", "sides")

    def __init__(self, player_id: int, rating_before: int, k: int, k_before_cap: int,
                 k_reason: KReason, score_halves: int, expected_hundredths: int,
                 change_hundredths: int, change: int, carried_hundredths: int,
                 sides: array[int]) -> None:
        self.player_id = player_id
        self.rating_before = rating_before
        self.k = k
        self.k_before_cap = k_before_cap
        self.k_reason = k_reason
        self.n = len(sides) // _WIDTH
        self.score_halves = score_halves
        self.expected_hundredths = expected_hundredths
        self.change_hundredths = change_hundredths
        self.change = change
        self.rating_after = rating_before + change
        self.carried_hundredths = carried_hundredths
        self.sides = sides

    @property
    def audits(self) -> list[SideAudit]:
        """The per-game audit as ``SideAudit`` rows, in the order of the games (built on each
        call from ``sides``)."""
        v, pid = self.sides, self.player_id
        return [SideAudit(v[i], pid, v[i + 1], v[i + 2], v[i + 3], v[i + 4], v[i + 5], v[i + 6],
                          v[i + 7]) for i in range(0, len(v), _WIDTH)]

    @property
    def opponent_ids(self) -> Sequence[int]:
        """The opponent of each game side, in the order of the games."""
        return self.sides[1::_WIDTH]

    def __repr__(self) -> str:
        return (f"RowResult(player_id={self.player_id}, rating_before={self.rating_before}, "
                f"k={self.k}, n={self.n}, change_hundredths={self.change_hundredths}, "
                f"change={self.change})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RowResult) and self.values() == other.values()

    __hash__ = None  # type: ignore[assignment]

    def values(self) -> tuple[object, ...]:
        """The ``period_results`` values after (period, revision), then the audits."""
        return (*self.totals(), tuple(self.audits))

    def totals(self) -> tuple[int, int, int, int, int, int, int, str, int, int, int, int]:
        """(player id, rating before, games, score halves, expected hundredths, K, K before the
        cap, K reason, change hundredths, change, rating after, carried hundredths): the
        ``period_results`` columns after (period, revision)."""
        return (self.player_id, self.rating_before, self.n, self.score_halves,
                self.expected_hundredths, self.k, self.k_before_cap, self.k_reason.value,
                self.change_hundredths, self.change, self.rating_after, self.carried_hundredths)

    @property
    def k_capped(self) -> bool:
        """True when K x n > 700 cut K."""
        return self.k != self.k_before_cap

    @property
    def score(self) -> Decimal:
        """Sum of S (exact)."""
        return self.score_halves * _HALF

    @property
    def expected(self) -> Decimal:
        """Sum of PD (exact, two decimals)."""
        return Decimal(self.expected_hundredths).scaleb(-2)

    @property
    def surplus(self) -> Decimal:
        """Sum of S - PD (exact)."""
        return self.score - self.expected

    @property
    def change_exact(self) -> Decimal:
        """K x sum(S - PD) + carried (exact)."""
        return Decimal(self.change_hundredths).scaleb(-2)

    @property
    def carried(self) -> Decimal:
        """The carried corrections added before the rounding (exact)."""
        return Decimal(self.carried_hundredths).scaleb(-2)

    @property
    def games(self) -> tuple[GameAudit, ...]:
        """The audit as ``rules.period.GameAudit`` objects (built on each call)."""
        return tuple(GameAudit(a.game_id, a.opponent_id, a.own_rating, a.opponent_rating,
                               a.difference, a.counted_difference,
                               a.counted_difference != a.difference,
                               Decimal(a.expected_hundredths).scaleb(-2), a.score_halves * _HALF)
                     for a in self.audits)


def round_hundredths(hundredths: int) -> int:
    """A whole number of hundredths rounded to a whole number, halves away from zero (§8.3.4):
    450 -> 5, -250 -> -3, 449 -> 4, -449 -> -4."""
    whole, rest = divmod(abs(hundredths), 100)
    rounded = whole + (1 if rest >= 50 else 0)
    return rounded if hundredths >= 0 else -rounded


def exact_hundredths(value: Decimal) -> int:
    """An exact value as a whole number of hundredths; ``ValueError`` when it is not one."""
    scaled = value * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not a whole number of hundredths")
    return int(scaled)


def from_reference(result: PeriodResult) -> RowResult:
    """The reference ``PeriodResult`` as a ``RowResult`` (the same values in integers);
    ``ValueError`` when a value is not a whole number of hundredths (it always is)."""
    audits = [SideAudit(a.game_id, result.player_id, a.opponent_id, a.own_rating,
                        a.opponent_rating, a.difference, a.counted_difference,
                        exact_hundredths(a.expected), int(a.score * 2)) for a in result.games]
    return RowResult(result.player_id, result.rating_before, result.k, result.k_before_cap,
                     result.k_reason, int(result.score * 2), exact_hundredths(result.expected),
                     exact_hundredths(result.change_exact), result.change,
                     exact_hundredths(result.carried), side_values(audits))
