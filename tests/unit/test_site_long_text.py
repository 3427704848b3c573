"""A page longer than ``site_swap.BIG_TEXT`` characters (a list page of 200,000 players: 80 MB,
160 MB as a text once a name has an accent) is hashed and written a piece at a time, never
encoded whole: the same SHA-256 and the same bytes as the text encoded at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.services.publishing import site_swap

TEXT = "Müller, Zoë · 北京 " * 3  # 51 characters, 1-, 2- and 3-byte ones
UTF8 = ("M\u00fcller, Zo\u00eb \u00b7 \u5317\u4eac ".encode() * 3)


def test_a_long_text_is_hashed_and_written_a_piece_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(site_swap, "BIG_TEXT", 4)
    digest, data = site_swap.text_digest(TEXT)
    assert data is None
    assert digest == "258280c70d96e195ae5864f535acdcf17df962a444dc5bd58b9283a19af96238"
    with site_swap.building(tmp_path / "site") as build:
        build.write_text("lists/a.html", TEXT, data)
        build.swap()
    assert (tmp_path / "site" / "lists" / "a.html").read_bytes() == UTF8
    assert len(UTF8) == 72


def test_a_short_text_and_bytes_are_taken_whole() -> None:
    assert site_swap.text_digest(TEXT) == (
        "258280c70d96e195ae5864f535acdcf17df962a444dc5bd58b9283a19af96238", UTF8)
    raw = bytearray(b"<p>seven</p>\n")
    assert site_swap.text_digest(raw) == (
        "176e21613c29045bf4afc7e1236a827946f78c3ef16167f8134188550a5ad0b3", raw)
