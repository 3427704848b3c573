"""``ledger db backup FILE``: a consistent copy of a SQLite ledger while others keep writing.

SQLite's online backup (``sqlite3.Connection.backup``, https://www.sqlite.org/backup.html) copies
every page in one step inside one read transaction, so the copy is the ledger as of one moment:
writers (WAL) are not held up, and nothing they commit meanwhile is half in it. The copy is made
beside ``FILE`` under a temporary name and renamed over it, so no half-written backup is left.
A PostgreSQL ledger is refused: its own tool (``pg_dump``) does this.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine

from ledger.db.engine import SIDE_FILES, sqlite_path
from ledger.errors import LedgerError


@dataclass(frozen=True)
class BackupReport:
    """The copy written: its ``file`` and size in ``bytes``; ``replaced``: an older file there
    was replaced (``--force``)."""

    file: str
    bytes: int
    replaced: bool


def backup_ledger(engine: Engine, target: str, *, force: bool = False) -> BackupReport:
    """Copy the SQLite ledger of ``engine`` to ``target`` (a path), consistently while other
    processes write. An existing file is replaced only with ``force``.

    Raises ``LedgerError`` (nothing written) for a PostgreSQL ledger (use ``pg_dump``), a target
    that is the ledger itself or one of its side files (``-wal``, ``-shm``, ``-journal``), a
    folder, an existing file without ``force``, or a folder that cannot be written.
    """
    source = sqlite_path(engine.url)
    if source is None:
        raise LedgerError("db backup copies a SQLite ledger; for a PostgreSQL ledger use its own "
                          "tool: pg_dump --format=custom --file FILE DATABASE")
    path = Path(target).expanduser()
    ledger_files = {Path(f"{source}{s}").resolve() for s in ("", *SIDE_FILES)}
    if path.resolve() in ledger_files:
        raise LedgerError(f"backup: {path} is the ledger itself (or one of its files); give "
                          "another file")
    if path.is_dir():
        raise LedgerError(f"backup: {path} is a folder; give a file name")
    existed = path.exists()
    if existed and not force:
        raise LedgerError(f"backup: {path} exists; give another file or --force to replace it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise LedgerError(f"backup: the folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    except OSError as exc:
        raise LedgerError(f"backup: cannot write in {folder}: {exc.strerror or exc}") from None
    os.close(fd)
    try:
        raw = engine.raw_connection()
        try:
            copy = sqlite3.connect(tmp)
            try:
                live = raw.driver_connection
                assert isinstance(live, sqlite3.Connection)
                live.backup(copy)  # every page in one step: one consistent snapshot
            finally:
                copy.close()
        finally:
            raw.close()
        os.replace(tmp, path)
    except (OSError, sqlite3.Error) as exc:
        Path(tmp).unlink(missing_ok=True)
        raise LedgerError(f"backup: cannot write {path}: {exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return BackupReport(str(path), path.stat().st_size, existed)
