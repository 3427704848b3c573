"""Where a report may be written: never over a database.

Every report the CLI writes to a file (``list --output``, ``export trf --output``, ``history
--chart``) goes through ``cli.publish.write_output``, which asks ``check_output_file`` first.
"""

from __future__ import annotations

import os
from pathlib import Path

from ledger.db.engine import is_sqlite_file, sqlite_files
from ledger.errors import LedgerError


def _same_file(a: Path, b: Path) -> bool:
    """``a`` and ``b`` are one file: the same inode (a hard or symbolic link, another spelling
    of the path), or, when either does not exist yet, the same path once links are resolved."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_output_file(output: Path, ledger: str | None) -> None:
    """Refuse a report file ``output`` that would replace a database.

    ``ledger`` is the open ledger (``--db``, path or URL; None when no ledger is open). Raises
    ``LedgerError`` (exit 1) naming ``output`` when it is the ledger's SQLite file or one of
    the files SQLite keeps beside it (``-wal``, ``-shm``, ``-journal``; whether they exist or
    not), under any spelling or through a link; when it is any SQLite database (its first
    bytes are SQLite's header); or when it is a file that cannot be read to tell. Reads at most
    16 bytes, and nothing from a device or a pipe.
    """
    for path, what in (sqlite_files(ledger) if ledger is not None else {}).items():
        if _same_file(output, path):
            which = f"'s {what} ({path})" if what else f" {path} itself"
            raise LedgerError(f"output: {output} is the ledger database{which}: a report never "
                              "replaces it; write the report to another file")
    try:
        database = is_sqlite_file(output)
    except OSError as exc:
        raise LedgerError(f"output: cannot read {output} to make sure it is not a database "
                          f"({exc.strerror or exc}); write the report to another file") from None
    if database:
        raise LedgerError(f"output: {output} is a SQLite database: a report never replaces a "
                          "database; write the report to another file")
