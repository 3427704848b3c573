"""How error messages quote what the user typed (``ledger.errors.shown``)."""

from __future__ import annotations

from ledger.errors import shown


def test_short_text_is_quoted_whole() -> None:
    assert shown("Nobody, Here") == "'Nobody, Here'"
    assert shown("x" * 60) == "'" + "x" * 60 + "'"


def test_long_text_is_cut_to_60_characters_with_its_length() -> None:
    assert shown("y" * 61) == "'" + "y" * 60 + "'... (61 characters)"
    assert shown("ab" * 2500, limit=4) == "'abab'... (5000 characters)"
