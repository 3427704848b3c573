"""``ledger db backup FILE``: a consistent copy of a SQLite ledger while others keep writing.

SQLite's online backup (``sqlite3.Connection.backup``, https://www.sqlite.org/backup.html) copies
every page in one step inside one read transaction, so the copy is the ledger as of one moment:
writers (WAL) are not held up, and nothing they commit meanwhile is half in it. The copy is made
beside ``FILE`` under a temporary name and renamed over it, so no half-written backup is left;
so ``FILE`` must be a regular file (or nothing yet): a rename would replace a device or a FIFO
(``output_files.check_output_file``). A symbolic link is followed. A PostgreSQL ledger is
refused: its own tool (``pg_dump``) does this.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine

from ledger.db.engine import sqlite_path
from ledger.errors import LedgerError
from ledger.services.publishing.output_files import check_output_file


@dataclass(frozen=True)
class BackupReport:
    """The copy written: its ``file`` and size in ``bytes``; ``replaced``: an older file there
    was replaced (``--force``)."""

    file: str
    bytes: int
    replaced: bool


def backup_ledger(engine: Engine, target: str, *, force: bool = False) -> BackupReport:
    """Copy the SQLite ledger of ``engine`` to ``target`` (a path), consistently while other
    processes write. An existing file is replaced only with ``force``. A symbolic link is
    followed: the file it names is written (made when it does not exist), the link kept, as
    every report writer does.

    Raises ``LedgerError`` (nothing written) for a PostgreSQL ledger (use ``pg_dump``), for a
    target that ``output_files.check_output_file`` refuses (``backup=True``: the ledger itself
    or one of its side files, the side file of another SQLite database, a database in use, a
    write-ahead log or journal, anything but a regular file: a folder, a device, a FIFO), an
    existing file without ``force``, a folder that does not exist or cannot be written, and a
    name the system refuses (too long ...).
    """
    source = sqlite_path(engine.url)
    if source is None:
        raise LedgerError("db backup copies a SQLite ledger; for a PostgreSQL ledger use its own "
                          "tool: pg_dump --format=custom --file FILE DATABASE")
    path = Path(target).expanduser()
    check_output_file(path, str(source), backup=True)
    try:
        real = Path(os.path.realpath(path))  # a link is followed: the file it names is written
        existed = real.exists()
        if existed and not force:
            raise LedgerError(f"backup: {path} exists; give another file or --force to replace "
                              "it")
        folder = real.parent
        if not folder.is_dir():
            raise LedgerError(f"backup: the folder {folder} does not exist")
    except OSError as exc:
        raise LedgerError(f"backup: cannot write {path}: {exc.strerror or exc}") from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name[:200]}.", dir=folder)
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
        os.replace(tmp, real)
    except (OSError, sqlite3.Error) as exc:
        Path(tmp).unlink(missing_ok=True)
        raise LedgerError(f"backup: cannot write {path}: {exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return BackupReport(str(path), real.stat().st_size, existed)
