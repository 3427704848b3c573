"""site_files.write_site renders its pages with the cyclic collector paused, collecting only
the young generations every ``YOUNG`` files, and switches it back on after."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.services.publishing import site_files


def test_a_write_renders_with_the_collector_paused_and_collects_the_young(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    collected: list[int] = []
    monkeypatch.setattr(site_files, "YOUNG", 2)

    def collect(generation: int = 2) -> int:
        collected.append(generation)
        return 0

    monkeypatch.setattr(gc, "collect", collect)
    on: list[bool] = []

    def pages() -> Iterator[tuple[str, str]]:
        for n in range(1, 6):
            on.append(gc.isenabled())
            yield f"players/{n}.html", f"<p>{n}</p>\n"

    assert gc.isenabled()
    done = site_files.write_site(tmp_path / "site", pages())
    assert on == [False] * 5 and gc.isenabled()
    assert collected == [1, 1]  # the young generations, at the 2nd and the 4th page
    assert (done.files, done.written) == (5, 5)
    assert (tmp_path / "site" / "players" / "3.html").read_text(encoding="utf-8") == "<p>3</p>\n"
