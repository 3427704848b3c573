"""A close's list lines (``snapshots.ListLine``) are the ``list_entries`` rows it writes, less
the revision's key: the same columns in the same order, so that a row is the key and the line."""

from __future__ import annotations

from ledger.domain import Period
from ledger.rules.editions import Edition
from ledger.services.close.rating import COLUMNS, Rated, derived_tuples
from ledger.services.close.snapshots import ListLine


def test_a_line_is_a_list_entry_after_its_key() -> None:
    assert ListLine._fields == ("player_id", "rank", "rating", "games", "k", "k_reason",
                                "inactive", "name", "fide_id", "federation", "title", "sex",
                                "birth_year")
    assert COLUMNS["list_entries"][:3] == ("period", "pool", "revision")
    assert COLUMNS["list_entries"][3:] == ListLine._fields


def test_the_rows_written_are_the_key_and_the_lines() -> None:
    lines = [ListLine(7, 1, 2105, 3, 20, "standard", False, "Ada Lovelace", 1234, "ENG", "WFM",
                      "F", 1990),
             ListLine(3, 2, 1890, 0, 40, "junior", True, "Bo", None, None, None, None, 2012)]
    rated = Rated(Period(2026, 9), Edition.E2024_03, [], {}, {}, {}, [], lines)
    assert list(derived_tuples(rated, 2)["list_entries"]) == [
        ("2026-09", "standard", 2, 7, 1, 2105, 3, 20, "standard", False, "Ada Lovelace", 1234,
         "ENG", "WFM", "F", 1990),
        ("2026-09", "standard", 2, 3, 2, 1890, 0, 40, "junior", True, "Bo", None, None, None,
         None, 2012)]
