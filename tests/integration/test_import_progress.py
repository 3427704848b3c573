"""The import's progress bar counts to the file's games from its first batch on: a CSV is read
in batches (``game_files.BATCH_GAMES``), so the total comes from its lines, counted while the
file is hashed before the first batch."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from ledgers import sqlite_ledger

import ledger.services.imports.game_files as game_files
from ledger.services.core.session import open_ledger
from ledger.services.imports.games import import_file
from tests.cli_runs import ok


def test_the_total_is_the_files_games_before_the_first_batch_is_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_files, "BATCH_GAMES", 1000)
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    register = tmp_path / "players.csv"
    names = [f"Player{i:02d}, Test" for i in range(72)]
    register.write_text("name,fide_id,birth_year,sex,federation,rating,prior_games,reached_2400\n"
                        + "".join(f"\"{n}\",{40_000_001 + i},1980,M,ENG,1800,40,\n"
                                  for i, n in enumerate(names)), encoding="utf-8")
    ok(db, "import", str(register), "--format", "players", "--quiet")
    # 2,500 games: 72 players give 2,556 pairs, each pair once, on the days of October 2026
    pairs = list(itertools.combinations(names, 2))[:2500]
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result\n" + "".join(
        f"2026-10-{k % 28 + 1:02d},\"{w}\",\"{b}\",1-0\n" for k, (w, b) in enumerate(pairs)),
        encoding="utf-8")
    calls: list[tuple[int, int]] = []
    engine = open_ledger(str(db))
    try:
        report = import_file(engine, str(games), None, progress=lambda d, t: calls.append((d, t)))
    finally:
        engine.dispose()
    assert report.recorded == 2500
    # the first call (1,000 games matched, counted as half the work) already counts to 2,500
    assert calls[0] == (500, 2500)
    assert {t for _, t in calls[:-1]} == {2500}


@pytest.mark.parametrize(("text", "lines"), [
    (b"", 0), (b"a\n", 1), (b"a\nb", 2), (b"a\nb\n", 2), (b"\n\n", 2), (b"a\r\nb\r\n", 2)])
def test_input_file_counts_lines_while_hashing(tmp_path: Path, text: bytes, lines: int) -> None:
    from ledger.services.imports.input_files import InputFile

    path = tmp_path / "f.csv"
    path.write_bytes(text)
    with InputFile(str(path)) as raw:
        raw.sha256()
        assert raw.lines == lines
