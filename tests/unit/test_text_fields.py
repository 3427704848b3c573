"""The one rule for one-line text fields (ledger.domain.find_control_character): no control
character, no format character (Unicode category Cf), no line or paragraph separator; and how a
reader reports a field that breaks it (ledger.formats.records.text_fault)."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from ledger.domain import described_character, find_control_character
from ledger.formats.records import text_fault


def test_the_rule_holds_every_control_and_format_character_of_this_python() -> None:
    # the format characters are written out (re has no categories): checked against the
    # Unicode database of the Python running the tests
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        category = unicodedata.category(char)
        found = find_control_character(f"a{char}b") is not None
        if category in ("Cc", "Cf", "Zl", "Zp"):
            assert found, f"U+{code:04X} ({category}) is not refused"
        elif found:
            assert category == "Cn", f"U+{code:04X} ({category}) is refused"  # unassigned here


@pytest.mark.parametrize(("text", "described"), [
    ("Tab\tName", "a control character (U+0009)"),
    ("Club\x1b[31mRED", "a control character (U+001B)"),
    ("Nagy\u00adLaszlo", "a format character (U+00AD SOFT HYPHEN)"),
    ("\ufeffKelly", "a format character (U+FEFF ZERO WIDTH NO-BREAK SPACE)"),
    ("one\u2028two", "a line break (U+2028 LINE SEPARATOR)"),
])
def test_described_character(text: str, described: str) -> None:
    found = find_control_character(text)
    assert found is not None and described_character(found.group()) == described


@pytest.mark.parametrize("text", ["Ó Briain, Seán", "Đorđević", "Ютта, Анна", "李, 娜", "O’Brien",
                                  "Müller\u00a0Jürgen", ""])
def test_visible_text_passes(text: str) -> None:
    assert find_control_character(text) is None


def test_text_fault() -> None:
    assert text_fault("Club League", "an event name", 200) is None
    assert text_fault("Ev\x1b[2Jx", "an event name", 200) == (
        "a control character (U+001B): an event name is one line of visible text")
    assert text_fault("x" * 201, "an event name", 200) == "201 characters; at most 200"
    assert text_fault(" 1 ", "a round", 1) is None
    assert text_fault("x" * 201, "a name") is None
