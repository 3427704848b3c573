"""Tables 8.1.2 (D -> PD) and 8.1.1 (p -> dp) against FIDE's own values.

Expected values come from tests/data's independent transcriptions of the tables (FIDE TEC's
TieBreakServer) and from the text of docs/RULES.md §3 and §7; none is computed with ledger code.
"""

from __future__ import annotations

import csv
from decimal import Decimal

import pytest
from data_files import data_file

from ledger.rules.expected import expected_score, pd_hundredths
from ledger.rules.tables import dp_from_p_hundredths, pd_higher_hundredths


def _read_csv(name: str) -> list[dict[str, str]]:
    path = data_file(name)  # fails loudly: these tests must never silently vanish
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise AssertionError(f"test data is empty: {path}")
    return rows


def _hundredths(text: str) -> int:
    """'0.64' -> 64, exactly (Decimal, no float)."""
    value = Decimal(text) * 100
    assert value == value.to_integral_value(), text
    return int(value)


PD_ROWS = _read_csv("fide_table_8_1_2_expected_score.csv")
DP_ROWS = _read_csv("fide_table_8_1_1_dp_from_p.csv")


def test_pd_table_file_has_every_band() -> None:
    # RULES.md §3 lists 50 bands (0-3 .. 620-735) plus "above 735 -> 1.00": 51 rows, contiguous.
    assert len(PD_ROWS) == 51
    assert int(PD_ROWS[0]["diff_min"]) == 0
    for before, after in zip(PD_ROWS, PD_ROWS[1:], strict=False):
        assert int(after["diff_min"]) == int(before["diff_max"]) + 1
    assert int(PD_ROWS[-1]["diff_min"]) == 736


@pytest.mark.parametrize(
    "row", PD_ROWS, ids=[f"{r['diff_min']}-{r['diff_max']}" for r in PD_ROWS]
)
def test_pd_band_edges_match_fide_table(row: dict[str, str]) -> None:
    higher = _hundredths(row["pd_higher_rated"])
    lower = _hundredths(row["pd_lower_rated"])
    for d in (int(row["diff_min"]), int(row["diff_max"])):
        assert pd_higher_hundredths(d) == higher, f"|D| = {d}"
        assert pd_hundredths(d) == higher, f"D = +{d}"
        assert pd_hundredths(-d) == lower, f"D = -{d}"
        assert expected_score(d) == Decimal(row["pd_higher_rated"])
        assert expected_score(-d) == Decimal(row["pd_lower_rated"])


@pytest.mark.parametrize("d", [736, 801, 1000, 3000])
def test_pd_above_735_is_one(d: int) -> None:
    # RULES.md §3: "above 735 1.00"; the lower-rated player gets 1 - 1.00 = 0.
    assert pd_higher_hundredths(d) == 100
    assert pd_hundredths(d) == 100
    assert pd_hundredths(-d) == 0


@pytest.mark.parametrize(
    ("d", "pd"),
    [
        # spot checks read from the band list in RULES.md §3
        (0, 50),  # 0-3 .50
        (3, 50),
        (4, 51),  # 4-10 .51
        (50, 57),  # 47-53 .57
        (100, 64),  # 99-106 .64
        (190, 75),  # 189-197 .75
        (200, 76),  # 198-206 .76
        (250, 81),  # 246-256 .81
        (30, 54),  # 26-32 .54
        (400, 92),  # 392-411 .92
        (411, 92),
        (412, 93),  # 412-432 .93
        (450, 94),  # 433-456 .94
        (500, 96),  # 485-517 .96
        (735, 99),  # 620-735 .99
    ],
)
def test_pd_spot_checks_from_rules_text(d: int, pd: int) -> None:
    assert pd_higher_hundredths(d) == pd
    assert pd_hundredths(-d) == 100 - pd


def test_pd_negative_abs_diff_is_refused() -> None:
    with pytest.raises(ValueError):
        pd_higher_hundredths(-1)


def test_dp_table_file_has_every_p() -> None:
    # p = 0.00 .. 1.00 in steps of 0.01: 101 rows.
    assert [_hundredths(r["p"]) for r in DP_ROWS] == list(range(101))


@pytest.mark.parametrize("row", DP_ROWS, ids=[r["p"] for r in DP_ROWS])
def test_dp_matches_fide_table(row: dict[str, str]) -> None:
    assert dp_from_p_hundredths(_hundredths(row["p"])) == int(row["dp"])


@pytest.mark.parametrize(
    ("p", "dp"),
    [
        # RULES.md §7 table 8.1.1 text, and dp(1 - p) = -dp(p)
        (100, 800),
        (99, 677),
        (90, 366),
        (86, 309),
        (70, 149),
        (64, 102),  # RULES.md §6 example: p .64 -> dp 102
        (56, 43),  # RULES.md §7 seed example: p .56 -> +43
        (50, 0),
        (44, -43),
        (36, -102),
        (0, -800),
    ],
)
def test_dp_spot_checks_from_rules_text(p: int, dp: int) -> None:
    assert dp_from_p_hundredths(p) == dp


@pytest.mark.parametrize("p", [-1, 101])
def test_dp_outside_0_100_is_refused(p: int) -> None:
    with pytest.raises(ValueError):
        dp_from_p_hundredths(p)
