"""``domain.round_of``: one reading of a round label for every comparison of rounds (the natural
key of a game, the one-game-per-round rule), and ``Result.mirrored`` (the same outcome with the
colours swapped), which the likely-duplicate check compares."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ledger.domain
from ledger.domain import Result, round_of


@pytest.mark.parametrize(("label", "expected"), [
    # numbered rounds: leading zeros, the board notation round.board, an R/Rd/Rnd/Round prefix
    ("1", 1), ("01", 1), ("001", 1), ("1.1", 1), ("1.01", 1), ("01.7", 1), ("1.1.2", 1),
    ("1.", 1), ("12.7", 12), ("0", 0),
    ("R3", 3), ("r3", 3), ("Rd 3", 3), ("Rd.3", 3), ("RND 3", 3), ("Round 3", 3),
    ("round  3", 3), ("R3.1", 3), (" 3 ", 3),
    # no round
    (None, None), ("", None), ("   ", None), ("?", None), ("-", None),
    # any other label is a round of its own, spaces collapsed and case folded
    ("3a", "3a"), ("3A", "3a"), ("3b", "3b"), ("Final", "final"), (" FINAL ", "final"),
    ("Play  off", "play off"), ("1-2", "1-2"), ("R", "r"),
    # more than nine digits is not a round number anyone writes: kept as a label
    ("1234567890", "1234567890"),
])
def test_round_of(label: str | None, expected: int | str | None) -> None:
    assert round_of(label) == expected


def test_split_rounds_are_not_the_round() -> None:
    # "3a" and "3b" (two games of round 3 on one day) are two rounds, and neither is round 3
    assert len({round_of("3"), round_of("3a"), round_of("3b")}) == 3


def test_one_round_however_written() -> None:
    assert {round_of(label) for label in ("1", "01", "1.1", "1.4", "R1", "Round 1")} == {1}


@given(st.integers(min_value=0, max_value=999_999_999), st.integers(min_value=1, max_value=99))
def test_round_and_board(number: int, board: int) -> None:
    assert round_of(f"{number}.{board}") == round_of(str(number)) == round_of(f"0{number}") == number


def test_round_of_doctest() -> None:
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(ledger.domain.round_of, "round_of", globs={"round_of": round_of}):
        runner.run(test)
    assert (runner.failures, runner.tries) == (0, 1)


@pytest.mark.parametrize(("result", "mirrored"), [
    ("1-0", "0-1"), ("0-1", "1-0"), ("1/2-1/2", "1/2-1/2"), ("+/-", "-/+"), ("-/+", "+/-"),
    ("-/-", "-/-"),
])
def test_result_mirrored(result: str, mirrored: str) -> None:
    assert Result(result).mirrored is Result(mirrored)
    assert Result(result).mirrored.mirrored is Result(result)
