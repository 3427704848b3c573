"""The games an import has written in its earlier batches, recalled from the ``games`` table
instead of held in memory: a fixed-size filter of their pair-days (``PairDays``) says which of
a batch's games may meet one of them (the same two players on the same date, either colours),
and only those are read back (``recall``), so that the duplicate checks of
``services.imports.checks`` see every earlier line of the file while the memory they hold does
not grow with it. Used by ``services.imports.placing`` for the games without an event."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import NamedTuple

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from ledger.db.models import Game
from ledger.domain import RatingPool
from ledger.formats.records import FileGame
from ledger.services.register.game_keys import PlayerRef

#: Filter bits per game the file is expected to hold (4 probes: about 1 in 400 false hits).
BITS_PER_GAME = 16
#: The filter's smallest and largest sizes in bits (64 Kbit = 8 KB; 128 Mbit = 16 MB).
FEWEST_BITS, MOST_BITS = 1 << 16, 1 << 27
_PROBES = 4


def pair_day(white_id: int, black_id: int, date: dt.date) -> tuple[int, int, int]:
    """A game's pair-day: (lower ledger id, higher ledger id, the date's ordinal), the same for
    either colours (one comparison, not ``min`` and ``max``: it is made for every game)."""
    day = date.toordinal()
    return (white_id, black_id, day) if white_id < black_id else (black_id, white_id, day)


def pair_days(games: Iterable[tuple[FileGame, PlayerRef, PlayerRef]]
              ) -> dict[int, tuple[int, int, int]]:
    """``id(FileGame)`` -> its ``pair_day``, for ``games`` (game, White, Black: ledger players
    with ``id``)."""
    return {id(g): pair_day(w.id, b.id, g.date) for g, w, b in games}


class PairDays:
    """A Bloom filter of pair-days (``pair_day``): ``add`` one, ``may_hold`` says False for one
    never added and True for every one added (and, rarely, for one never added). Its size is
    fixed when made: ``BITS_PER_GAME`` bits per expected game (``expected``: the lines of the
    file), within ``FEWEST_BITS``..``MOST_BITS`` and a power of 2; a file with more games than
    expected only gives more false hits (each costs one query in ``recall``)."""

    def __init__(self, expected: int) -> None:
        bits = FEWEST_BITS
        while bits < min(expected * BITS_PER_GAME, MOST_BITS):
            bits <<= 1
        self._mask = bits - 1
        self._bits = bytearray(bits >> 3)

    def add(self, day: tuple[int, int, int]) -> None:
        """Put ``day`` (a ``pair_day``) in the filter."""
        self.add_all((day,))

    def add_all(self, days: Iterable[tuple[int, int, int]]) -> None:
        """Put each of ``days`` in the filter (``add``, the probes written out: one call a
        batch)."""
        bits, mask = self._bits, self._mask
        for day in days:
            h = hash(day)  # of a tuple of ints: the same in every process (no hash seed)
            # the ``_PROBES`` (4) spots written out, not a loop: the same bits, 2/3 the time
            spot, step = h & mask, (h >> 32) | 1
            bits[spot >> 3] |= 1 << (spot & 7)
            spot = (spot + step) & mask
            bits[spot >> 3] |= 1 << (spot & 7)
            spot = (spot + step) & mask
            bits[spot >> 3] |= 1 << (spot & 7)
            spot = (spot + step) & mask
            bits[spot >> 3] |= 1 << (spot & 7)

    def may_hold(self, day: tuple[int, int, int]) -> bool:
        """False when ``day`` was never added; True when it was (or, rarely, when not)."""
        return bool(self.holding((day,)))

    def holding(self, days: Iterable[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """The ``days`` the filter may hold (``may_hold`` of each, the probes written out: one
        call a batch), in their order."""
        bits, mask = self._bits, self._mask
        found = []
        for day in days:
            h = hash(day)
            # the spots of ``add_all`` written out, each asked only when those before are set
            spot, step = h & mask, (h >> 32) | 1
            if bits[spot >> 3] & (1 << (spot & 7)):
                spot = (spot + step) & mask
                if bits[spot >> 3] & (1 << (spot & 7)):
                    spot = (spot + step) & mask
                    if bits[spot >> 3] & (1 << (spot & 7)):
                        spot = (spot + step) & mask
                        if bits[spot >> 3] & (1 << (spot & 7)):
                            found.append(day)
        return found


class Written(NamedTuple):
    """A game an import wrote, as read back: ledger ids, round label, date, result value,
    whether played, and the file's line (from ``source``, ``FILE:LINE``)."""

    white_id: int
    black_id: int
    round: str | None
    date: dt.date
    result: str
    played: bool
    line: int


def recall(session: Session, before_id: int, pool: RatingPool,
           days: Iterable[tuple[int, int, int]]) -> list[Written]:
    """The games without an event of ``pool`` written by this import (ids above ``before_id``)
    on ``days`` (``pair_day`` values), in the order written (the file's); one query per 200
    pair-days, each pair found through the index on ``white_id``."""
    wanted = sorted(set(days))
    found: list[Written] = []
    for start in range(0, len(wanted), 200):
        chunk = wanted[start:start + 200]
        pairs = [or_(and_(Game.white_id == low, Game.black_id == high),
                     and_(Game.white_id == high, Game.black_id == low))
                 for low, high, _ in chunk]
        dates = {dt.date.fromordinal(day) for _, _, day in chunk}
        exact = set(chunk)  # the query matches pairs and dates apart: keep the exact pair-days
        rows = session.execute(
            select(Game.id, Game.white_id, Game.black_id, Game.round, Game.date, Game.result,
                   Game.played, Game.source)
            .where(Game.id > before_id, Game.event_id.is_(None), Game.pool == pool,
                   Game.date.in_(dates), or_(*pairs))
            .order_by(Game.id))
        found.extend(
            Written(white, black, round_, date, result, played,
                    int(str(source).rsplit(":", 1)[1]))  # written as FILE:LINE (add_games)
            for _, white, black, round_, date, result, played, source in rows
            if pair_day(white, black, date) in exact)
    return found

