"""The packed per-game audit (``ledger.db.audit_pack``, the ``period_audits.sides`` column):
eight little-endian int32 values a game side, in the order given."""

from __future__ import annotations

import pytest

from ledger.db.audit_pack import FIELDS, SIDE_BYTES, AuditSide, game_ids, pack, unpack


def test_the_byte_layout_of_a_hand_written_side() -> None:
    # game 1, opponent 2, own 1800 (0x708), opponent 1700 (0x6a4), D +100 (0x64), counted
    # +100, PD .64 (64 = 0x40), a win (2 halves): each value four bytes, low byte first
    side = AuditSide(1, 2, 1800, 1700, 100, 100, 64, 2)
    assert pack([side]) == bytes.fromhex(
        "01000000" "02000000" "08070000" "a4060000" "64000000" "64000000" "40000000" "02000000")
    assert SIDE_BYTES == 32 and len(FIELDS) == 8


def test_negative_differences_are_twos_complement() -> None:
    # the loser's side of the same game: D = 1700 - 1800 = -100 -> 0xffffff9c; PD .36 = 0x24
    side = (1, 1, 1700, 1800, -100, -100, 36, 0)
    assert pack([side]) == bytes.fromhex(
        "01000000" "01000000" "a4060000" "08070000" "9cffffff" "9cffffff" "24000000" "00000000")
    assert unpack(pack([side])) == [side]


def test_round_trip_keeps_the_order_and_the_values() -> None:
    # three games, the second first by date: the order given is the order kept
    sides = [AuditSide(30, 7, 2650, 2100, 550, 400, 92, 1),  # D 550 counted 400 -> PD .92
             AuditSide(12, 8, 2650, 3000, -350, -350, 12, 2),
             AuditSide(40, 9, 2650, 2650, 0, 0, 50, 0)]
    packed = pack(sides)
    assert len(packed) == 3 * 32
    assert unpack(packed) == sides
    assert game_ids(packed) == [30, 12, 40]
    assert unpack(pack([])) == [] and pack([]) == b""


def test_big_ids_and_the_int32_limits() -> None:
    # the largest id an Integer column holds: 2**31 - 1 = 0x7fffffff; the smallest -2**31
    big = (2_147_483_647, 2_147_483_646, 1000, 1000, -2_147_483_648, 0, 50, 1)
    packed = pack([big])
    assert packed[:8] == bytes.fromhex("ffffff7f" "feffff7f")
    assert packed[16:20] == bytes.fromhex("00000080")
    assert unpack(packed) == [big]
    assert game_ids(packed) == [2_147_483_647]


def test_what_cannot_be_packed_is_refused() -> None:
    with pytest.raises(ValueError, match="not an int32"):
        pack([(2 ** 31, 2, 1800, 1700, 100, 100, 64, 2)])
    with pytest.raises(ValueError, match="7 audit values are not whole sides of 8"):
        pack([(1, 2, 1800, 1700, 100, 100, 64)])
    with pytest.raises(ValueError, match="33 bytes is not a whole number of 32-byte sides"):
        unpack(bytes(33))
    with pytest.raises(ValueError, match="not an int32"):
        pack([(1, 2, 1800, 1700, 100, 100, 0.64, 2)])


def test_the_close_s_flat_sides_pack_to_the_same_bytes() -> None:
    from array import array

    from ledger.db.audit_pack import pack_flat

    # RowResult.sides holds the same eight values a side, in the same order, as 64-bit ints
    flat = array("q", [1, 2, 1800, 1700, 100, 100, 64, 2, 1, 1, 1700, 1800, -100, -100, 36, 0])
    assert pack_flat(flat) == bytes.fromhex(
        "01000000" "02000000" "08070000" "a4060000" "64000000" "64000000" "40000000" "02000000"
        "01000000" "01000000" "a4060000" "08070000" "9cffffff" "9cffffff" "24000000" "00000000")
    with pytest.raises(ValueError, match="whole sides"):
        pack_flat(flat[:-1])
    # the same sides as 32-bit ints (the close's array path): packed as their bytes, the same
    narrow = array("i", [1, 2, 1800, 1700, 100, 100, 64, 2, 1, 1, 1700, 1800, -100, -100, 36, 0])
    assert pack_flat(narrow) == bytes.fromhex(
        "01000000" "02000000" "08070000" "a4060000" "64000000" "64000000" "40000000" "02000000"
        "01000000" "01000000" "a4060000" "08070000" "9cffffff" "9cffffff" "24000000" "00000000")
    assert pack_flat(array("i")) == b""
    with pytest.raises(ValueError, match="whole sides"):
        pack_flat(narrow[:-1])
    with pytest.raises(ValueError, match="int32"):
        pack_flat(array("q", [2 ** 31, 0, 0, 0, 0, 0, 0, 0]))
