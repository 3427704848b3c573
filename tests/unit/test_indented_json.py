"""``cli.values.indented_json``: the text of ``json.dumps(indent=2, ensure_ascii=False)``, which
every ``--json`` output is, written faster; anything unusual is left to ``json.dumps``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger.cli.values import indented_json

SAMPLES: list[Any] = [
    {}, [], "x", 3, None, True, 1.5,
    {"a": [], "b": {}, "c": [[]]},
    {"é": "ß\n\"x\\", "n": None, "t": True, "f": False, "x": 1.25, "i": -3, "big": 10 ** 20,
     "l": [1, [2, {}], {"k": [{"deep": "é"}]}], "tab": "\t\u0001"},
    [{"game_id": 7, "expected": 0.64, "score": 1, "late": False}] * 3,
    (1, "two"), 1e20, 1e-7, 0.1,
]


@pytest.mark.parametrize("value", SAMPLES)
def test_same_text_as_json_dumps(value: Any) -> None:
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_a_small_document_by_hand() -> None:
    # two-space indent, ": " after a key, "," at line ends, non-ASCII kept
    assert indented_json({"name": "Åsa", "games": [1, 2]}) == (
        '{\n  "name": "Åsa",\n  "games": [\n    1,\n    2\n  ]\n}')


@pytest.mark.parametrize("value", [{1: "int key"}, [float("nan")], {"inf": float("inf")}])
def test_unusual_values_left_to_json(value: Any) -> None:
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_what_json_cannot_hold_raises_as_json_does() -> None:
    with pytest.raises(TypeError):
        indented_json({"x": object()})
