"""``formats.detect.starts_as_fide_list``: the first bytes of a FIDE rating list (TXT header
``ID Number ...``, or XML with ``<playerslist>``), a BOM and leading blanks aside."""

from __future__ import annotations

import pytest

from ledger.formats.detect import starts_as_fide_list


@pytest.mark.parametrize(("head", "is_list"), [
    (b"ID Number      Name            Fed Sex Tit  WTit OTit  may13 Gms K  B-day Flag\n", True),
    (b"\xef\xbb\xbf  ID Number Name\n", True),
    (b'<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n<player>', True),
    (b'<?xml version="1.0"?>\n<games>', False),  # XML of something else
    (b"012 Riverside Open\n", False),  # a TRF
    (b"date,white,black,result\n", False),  # a CSV of games
    (b"", False),
])
def test_a_fide_list_is_told_by_its_first_bytes(head: bytes, is_list: bool) -> None:
    assert starts_as_fide_list(head) is is_list
