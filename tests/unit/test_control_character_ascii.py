"""``domain.find_control_character`` answers printable ASCII at once (issue 14: four columns of
every CSV row go through it); every control character, ASCII or not, is still found."""

from __future__ import annotations

import pytest

from ledger.domain import find_control_character


@pytest.mark.parametrize("text", ["Carlsen, Magnus", "", " ", "Round 1.2 (a) ~!@#$%^&*"])
def test_printable_ascii_has_none(text: str) -> None:
    assert find_control_character(text) is None


@pytest.mark.parametrize(("text", "at"), [
    ("Tab\tName", 3),          # C0: a tab
    ("Line\nbreak", 4),        # C0: a line feed
    ("Del\x7f", 3),            # DEL, the one ASCII control past the C0 range
    ("\x00", 0),               # NUL
    ("Müller\u00ad", 6),       # not ASCII: a soft hyphen (Cf) after six letters
    ("Ab\u2028c", 2),          # a line separator
    ("Zoë\x85", 3),            # C1 (NEXT LINE), after three letters
])
def test_every_control_character_is_found(text: str, at: int) -> None:
    found = find_control_character(text)
    assert found is not None and found.start() == at


def test_a_name_with_letters_beyond_ascii_has_none() -> None:
    assert find_control_character("Müller, Zoë") is None
