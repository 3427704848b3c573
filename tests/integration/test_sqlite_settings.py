"""The settings every SQLite connection of the ledger gets (ledger.db.engine's connect hook)."""

from __future__ import annotations

from pathlib import Path

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
