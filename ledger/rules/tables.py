"""FIDE tables 8.1.2 (expected score PD from rating difference D) and 8.1.1 (dp from p), as data.

Source: FIDE Handbook B.02 (Rating Regulations, 1 March 2024) tables 8.1.1 and 8.1.2, as transcribed
in docs/RULES.md §3 and §7; tests check every band against tests/data's independent copies.
Values are integers in hundredths (PD 0.64 is 64) so that sums stay exact.
"""

from __future__ import annotations

from typing import Final

#: Table 8.1.2: (largest |D| of the band, PD of the higher-rated player in hundredths).
#: A |D| above the last band's 735 gives 100 (1.00).
PD_BANDS: Final[tuple[tuple[int, int], ...]] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58),
    (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66), (129, 67),
    (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74), (197, 75),
    (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81), (267, 82), (278, 83),
    (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90), (391, 91),
    (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98), (735, 99),
)

#: Table 8.1.1: dp for p = 0.50 .. 1.00, indexed by p in hundredths minus 50.
#: dp(1 - p) = -dp(p).
DP_FROM_P_UPPER: Final[tuple[int, ...]] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
    351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)


#: ``PD_BANDS`` spread out: PD (hundredths) by |D| 0..735, one entry per difference, so that a
#: close of a million game sides looks each one up instead of scanning the bands.
_PD_BY_DIFF: Final[tuple[int, ...]] = tuple(
    next(pd for upper, pd in PD_BANDS if d <= upper) for d in range(PD_BANDS[-1][0] + 1))


def pd_higher_hundredths(abs_diff: int) -> int:
    """PD of the higher-rated player, in hundredths, for a rating difference ``abs_diff`` >= 0.

    Table 8.1.2 with no 400-point rule applied (the caller decides that). Raises ``ValueError``
    for a negative difference.
    """
    if abs_diff < 0:
        raise ValueError(f"rating difference must be >= 0, got {abs_diff}")
    return _PD_BY_DIFF[abs_diff] if abs_diff < len(_PD_BY_DIFF) else 100


def dp_from_p_hundredths(p: int) -> int:
    """Table 8.1.1: dp (rating points) for a percentage score ``p`` in hundredths, 0..100.

    Raises ``ValueError`` outside 0..100.
    """
    if not 0 <= p <= 100:
        raise ValueError(f"p must be 0..100 hundredths, got {p}")
    if p >= 50:
        return DP_FROM_P_UPPER[p - 50]
    return -DP_FROM_P_UPPER[50 - p]
