"""``cli.render.values.indented_json``: the text of ``json.dumps(indent=2,
ensure_ascii=False)``, which every ``--json`` output is, written faster; anything unusual is
left to ``json.dumps``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger.cli.render.values import Rendered, indented_json, write_json

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


def _streamed(value: Any) -> tuple[str, int]:
    """``write_json``'s text and how many writes it took."""
    pieces: list[str] = []
    write_json(value, pieces.append)
    return "".join(pieces), len(pieces)


@pytest.mark.parametrize("value", SAMPLES + [{1: "int key"}, [float("nan")],
                                             {"l": [{"inf": float("inf")}, {2: [1]}]}])
def test_streamed_text_is_json_dumps_and_a_newline(value: Any) -> None:
    text, _ = _streamed(value)
    assert text == json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def test_an_iterator_is_streamed_as_a_list() -> None:
    # a generator of two rows and an empty one: written as the lists json.dumps writes
    text, _ = _streamed({"rows": ({"id": i} for i in (1, 2)), "none": iter(())})
    assert text == ('{\n  "rows": [\n    {\n      "id": 1\n    },\n    {\n      "id": 2\n'
                    '    }\n  ],\n  "none": []\n}\n')


def test_a_big_document_is_written_in_pieces() -> None:
    # 3,000 rows of 7 pieces each ("[" or "," before it; the game id with its key; the "score"
    # key, 0.5; the "late" key, false; the "}"): 21,000 pieces, written every 4,096 (5 writes)
    # and the rest with the newline (1): 6 writes, the same text
    rows = [{"game_id": i, "score": 0.5, "late": False} for i in range(3_000)]
    text, writes = _streamed({"results": iter(rows)})
    assert writes == 6
    assert text == json.dumps({"results": rows}, indent=2, ensure_ascii=False) + "\n"


def test_rendered_texts_are_written_every_megabyte() -> None:
    # 5 rows of 400,000 characters each (a Rendered string of 399,998 "x" and its quotes), 2
    # pieces each ("[" or "," with the indent; the text), 10 pieces, far below 4,096: the held
    # Rendered texts reach 1,200,000 >= 1,048,576 characters after row 3 (one write); rows 4
    # and 5 (800,000) go with the newline (one more): 2 writes, the same text
    row = "x" * 399_998
    text, writes = _streamed({"results": (Rendered(lambda _level: json.dumps(row))
                                          for _ in range(5))})
    assert writes == 2
    assert text == json.dumps({"results": [row] * 5}, indent=2, ensure_ascii=False) + "\n"


def test_streamed_what_json_cannot_hold_raises() -> None:
    with pytest.raises(TypeError):
        _streamed({"x": object()})
