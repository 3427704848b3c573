"""FIDE's own individual rating calculations (2008-2010) reproduced with table 8.1.2.

Expected values are FIDE's official expected score and unrounded rating change, as transcribed in
tests/data/fide_official_calculations_games_ratings.csv (see tests/data/README.md). K is the one
FIDE used then (15 or 10), passed explicitly.
"""

from __future__ import annotations

import csv
from decimal import Decimal

import pytest
from data_files import data_file

from ledger.rules.editions import Edition
from ledger.rules.period import PlayerGame, rate_player

SCORES = {"W": Decimal(1), "D": Decimal("0.5"), "L": Decimal(0)}
CENT = Decimal("0.01")


def _rows() -> list[dict[str, str]]:
    path = data_file("fide_official_calculations_games_ratings.csv")  # fails loudly, never skips
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


ROWS = _rows()


def test_all_eleven_official_calculations_present() -> None:
    assert len(ROWS) == 11


@pytest.mark.parametrize("row", ROWS, ids=[r["case"] for r in ROWS])
def test_official_fide_calculation(row: dict[str, str]) -> None:
    opponents = [int(x) for x in row["opponent_ratings"].split()]
    results = row["results_WDL"].split()
    assert len(opponents) == len(results)
    rating = int(row["rating_before"])
    games = [
        PlayerGame(i, "event", 1000 + i, rating, opp, SCORES[res])
        for i, (opp, res) in enumerate(zip(opponents, results, strict=True))
    ]
    r = rate_player(0, rating, games, Edition.E2024_03, k=int(row["K"]))
    assert r.n == len(opponents)
    assert r.score == sum((SCORES[x] for x in results), Decimal(0))
    assert r.expected.quantize(CENT) == Decimal(row["official_expected_score"]).quantize(CENT)
    assert r.change_exact == Decimal(row["official_rating_change"])
