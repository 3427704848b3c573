"""The settings every SQLite connection of the ledger gets (ledger.db.engine's connect hook)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ledgers import sqlite_ledger

from ledger.services.core.session import open_ledger


def test_every_connection_has_foreign_keys_a_busy_timeout_and_a_64_mib_page_cache(
        tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    engine = open_ledger(str(db))
    try:
        with engine.connect() as conn:
            # cache_size=-N is N KiB (https://www.sqlite.org/pragma.html#pragma_cache_size):
            # 64 MiB = 65,536 KiB; SQLite's own default would read -2000.
            assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -65536
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            # 30 s in milliseconds
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
    finally:
        engine.dispose()


def test_the_close_page_cache_holds_for_its_block_only(tmp_path: Path) -> None:
    # the close's 8 MiB (8,192 KiB: -8192) inside the block, the 64 MiB (-65536) after it;
    # the same connection, inside one transaction as a close uses it
    from ledger.db.engine import SQLITE_CLOSE_CACHE_KIB, sqlite_cache

    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    engine = open_ledger(str(db))
    try:
        with engine.begin() as conn:
            with sqlite_cache(conn, SQLITE_CLOSE_CACHE_KIB):
                assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -8192
            assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -65536
    finally:
        engine.dispose()


def test_a_close_rates_with_the_close_page_cache_then_gives_the_64_mib_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ledger.services.close.periods as periods
    from ledger.services.register.games import add_game
    from ledger.services.register.players import NewPlayer, add_player

    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    engine = open_ledger(str(db))
    seen: list[int] = []
    rate = periods.rate

    def rate_and_look(session, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(session.connection().exec_driver_sql("PRAGMA cache_size").scalar())
        return rate(session, *args, **kwargs)

    monkeypatch.setattr(periods, "rate", rate_and_look)
    try:
        for name, rating in (("Player, One", 1600), ("Player, Two", 1800)):
            add_player(engine, NewPlayer(name=name, rating=rating, prior_games=100))
        add_game(engine, "Player, One", "Player, Two", "1-0", "2025-11-05")
        periods.close_period(engine, "2025-11")
        assert seen == [-8192]  # one pool (standard), rated with 8,192 KiB
        with engine.connect() as conn:  # the pool's one connection, the close's: 64 MiB again
            assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -65536
    finally:
        engine.dispose()
