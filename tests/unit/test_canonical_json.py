"""Canonical JSON (ledger.formats.canonical): the bytes every digest of issue 24 is taken over."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from ledger.formats.canonical import canonical_json, digest, sha256_hex


def test_keys_sorted_no_whitespace_utf8_kept() -> None:
    # {"b": 1, "a": "é"}: keys sorted, ',' and ':' without spaces, é as its two UTF-8 bytes
    # C3 A9 (not \u00e9): 16 bytes in all.
    data = canonical_json({"b": 1, "a": "é"})
    assert data == b'{"a":"\xc3\xa9","b":1}'
    assert len(data) == 16


def test_nested_lists_keep_their_order() -> None:
    assert canonical_json({"z": [3, 1, {"y": None, "x": True}]}) == \
        b'{"z":[3,1,{"x":true,"y":null}]}'


def test_sha256_of_the_empty_object() -> None:
    # SHA-256 of the two bytes "{}", as `printf '{}' | sha256sum` prints it.
    assert digest({}) == "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
    assert sha256_hex(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


@pytest.mark.parametrize("value", [1.5, dt.date(2026, 9, 1), Decimal("1.5"), {"a": [0.1]}])
def test_values_without_one_encoding_are_refused(value: object) -> None:
    with pytest.raises(TypeError, match="must be written as a string or an integer"):
        canonical_json(value)


def test_a_key_not_a_string_is_refused() -> None:
    with pytest.raises(ValueError, match="a key must be a string"):
        canonical_json({1: "a"})
