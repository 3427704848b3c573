"""The per-game audit of one player's period, packed into bytes (the ``period_audits.sides``
column, Alembic revision 0010).

Layout: for each game side, in the order the close rated them (the games by date then id),
``FIELDS`` as eight little-endian signed 32-bit integers (32 bytes a side, no header, no
padding): game id, opponent id, own rating, opponent's rating, D (own - opponent), D counted
after the 400-point rule, PD in hundredths (table 8.1.2, FIDE B.02 §8.1), score in halves (S x
2: 2, 1 or 0). A player's 10 games take 320 bytes. Every value is an ``Integer`` column of the
ledger (ids, ratings, differences, hundredths), so it fits in an int32; ``pack`` refuses one
that does not (``ValueError``) rather than store something else.

Pure: no database, no I/O.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import NamedTuple

from ledger.rules.row_results import SIDE_FIELDS

#: The values of one side, in their order in the packed bytes: the close's own order
#: (``rules.row_results.SIDE_FIELDS``, its ``RowResult.sides``), so it packs them as they are.
FIELDS = SIDE_FIELDS

#: Bytes per side: len(FIELDS) int32 values.
SIDE_BYTES = 4 * len(FIELDS)

_INT32 = (-(2 ** 31), 2 ** 31 - 1)
_SWAP = sys.byteorder != "little"  # ``array`` is in the machine's order
_CODE = "i" if array("i").itemsize == 4 else "l"  # a 4-byte C int (or long)


class AuditSide(NamedTuple):
    """How one game entered one player's period change (one ``period_games`` row before
    revision 0010, without period, revision and player): ids, the published ratings used,
    ``difference`` D = own - opponent, ``counted_difference`` D after the 400-point rule,
    ``expected_hundredths`` PD x 100, ``score_halves`` S x 2."""

    game_id: int
    opponent_id: int
    own_rating: int
    opponent_rating: int
    difference: int
    counted_difference: int
    expected_hundredths: int
    score_halves: int


def pack(sides: Iterable[Sequence[int]]) -> bytes:
    """``sides`` (each ``len(FIELDS)`` ints in the order of ``FIELDS``, e.g. ``AuditSide``) as
    the packed bytes, in their order: ``pack_flat`` of their values. Raises ``ValueError`` as
    ``pack_flat``."""
    return pack_flat(list(chain.from_iterable(sides)))


def pack_flat(values: Sequence[int]) -> bytes:
    """Sides given as one flat sequence of ints (``len(FIELDS)`` a side in the order of
    ``FIELDS``: the close's ``rules.row_results.RowResult.sides``) as the packed bytes. Raises
    ``ValueError`` when the values are not whole sides, or one is not an integer or is outside
    int32 (-2,147,483,648 .. 2,147,483,647). An ``array`` of 4-byte ints (the close's sides:
    ``rules.period_arrays`` narrows them to ``"i"``) is packed as its own bytes (in
    little-endian order), not a value at a time (19,764 players' sides at M: 0.04 s)."""
    if len(values) % len(FIELDS):
        raise ValueError(f"{len(values)} audit values are not whole sides of {len(FIELDS)}")
    if type(values) is array and values.typecode == _CODE:  # int32 already: its bytes
        if not _SWAP:
            return values.tobytes()
        swapped = array(_CODE, values)
        swapped.byteswap()
        return swapped.tobytes()
    try:
        return struct.pack(f"<{len(values)}i", *values)
    except struct.error as error:
        raise ValueError(f"an audit value is not an int32 ({_INT32[0]} .. {_INT32[1]}): "
                         f"{error}") from None


def _values(packed: bytes) -> array[int]:
    if len(packed) % SIDE_BYTES:
        raise ValueError(f"packed audit of {len(packed)} bytes is not a whole number of "
                         f"{SIDE_BYTES}-byte sides")
    values = array(_CODE)
    values.frombytes(packed)
    if _SWAP:
        values.byteswap()
    return values


def unpack(packed: bytes) -> list[AuditSide]:
    """The sides ``pack`` packed, in their order. Raises ``ValueError`` when the length is not
    a multiple of ``SIDE_BYTES``."""
    values = _values(bytes(packed))
    width = len(FIELDS)
    return [AuditSide(*values[i:i + width]) for i in range(0, len(values), width)]


def game_ids(packed: bytes) -> list[int]:
    """Only the game ids of the packed sides, in their order (no ``AuditSide`` built: the
    rated flag of ``game list``). Raises ``ValueError`` as ``unpack``."""
    return list(_values(bytes(packed))[0::len(FIELDS)])
