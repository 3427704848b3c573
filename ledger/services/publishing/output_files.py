"""Where a report or a backup may be written: never over a database, nor over the files SQLite
keeps beside one.

Every report the CLI writes to a file (``list --output``, ``export trf --output``, ``history
--chart``) goes through ``cli.publish.write_output``, which asks ``check_output_file`` first;
``db backup`` asks it too (``backup=True``), with the rules of a copy of a database. Replacing
another database's write-ahead log (``-wal``) loses the changes committed to it since its last
checkpoint, and replacing its rollback journal (``-journal``) the means to undo a write a crash
cut short; its shared-memory index (``-shm``) is in use while the database is open.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ledger.db.engine import sqlite_files
from ledger.db.sqlite_files import SIDE_FILES, is_sqlite_file, sqlite_file_kind
from ledger.errors import LedgerError


def _same_file(a: Path, b: Path) -> bool:
    """``a`` and ``b`` are one file: the same inode (a hard or symbolic link, another spelling
    of the path), or, when either does not exist yet, the same path once links are resolved."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


#: What a file that is not a regular one is, by its type (``stat.S_IFMT``).
_NOT_REGULAR = {stat.S_IFDIR: "a folder", stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device",
                stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket"}


def not_regular(path: Path) -> str | None:
    """What ``path`` is when it exists and is not a regular file (a link followed): ``"a
    folder"``, ``"a FIFO"``, ``"a character device"`` ...; None for a regular file, a path where
    nothing is yet, and a link to nothing. Raises ``OSError`` when it cannot be examined."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    return None if stat.S_ISREG(mode) else _NOT_REGULAR.get(stat.S_IFMT(mode), "not a file")


def side_file_of(path: Path) -> tuple[Path, str] | None:
    """The SQLite database whose side file ``path`` is by its name, with what that file is:
    ``X-wal`` (write-ahead log), ``X-shm`` (shared-memory index) or ``X-journal`` (rollback
    journal) where ``X`` is a SQLite database (``is_sqlite_file``), whether the side file exists
    or not; the name as given and the one a link leads to both count. None otherwise. Raises
    ``OSError`` when ``X`` cannot be examined or read."""
    for name in dict.fromkeys((os.fspath(path), os.path.realpath(path))):
        for suffix, what in SIDE_FILES.items():
            if name.endswith(suffix) and len(name) > len(suffix):
                database = Path(name[: -len(suffix)])
                if is_sqlite_file(database):
                    return database, what
    return None


def sides_in_use(database: Path) -> list[Path]:
    """The side files SQLite keeps beside ``database`` that are there now (a connection has it
    open, or a crash left them): replacing the database would leave them to be read as its."""
    return [side for suffix in SIDE_FILES if (side := Path(f"{database}{suffix}")).exists()]


def check_output_file(output: Path, ledger: str | None, *, backup: bool = False) -> None:
    """Refuse a file ``output`` that writing would harm, before anything is written.

    ``ledger`` is the open ledger (``--db``, path or URL; None when no ledger is open). Raises
    ``LedgerError`` (exit 1) naming ``output`` when it is the ledger's SQLite file or one of
    the files SQLite keeps beside it (``-wal``, ``-shm``, ``-journal``; whether they exist or
    not), under any spelling or through a link; when it is the side file of any other SQLite
    database by its name (``side_file_of``); when its first bytes make it a SQLite database,
    write-ahead log or rollback journal (``sqlite_file_kind``); or when it cannot be examined
    or read to tell. Reads at most 16 bytes, and nothing from a device or a pipe.

    With ``backup`` (``db backup``: a copy of the ledger written by rename, messages headed
    ``backup:``), anything but a regular file is refused as well (a device, a FIFO, a socket,
    a folder, through a link or not: a rename would replace it), and an existing SQLite
    database is no harm to replace (an earlier backup) unless it is in use (``sides_in_use``).
    A report writes a device or a FIFO in place (``cli.publish.write_output``).
    """
    label, noun = ("backup", "backup") if backup else ("output", "report")
    for path, what in (sqlite_files(ledger) if ledger is not None else {}).items():
        if _same_file(output, path):
            which = f"'s {what} ({path})" if what else f" {path} itself"
            raise LedgerError(f"{label}: {output} is the ledger database{which}: a {noun} never "
                              f"replaces it; write the {noun} to another file")
    instead = f"write the {noun} to another file"
    try:
        kind = not_regular(output) if backup else None
        side = side_file_of(output)
        content = sqlite_file_kind(output)
    except OSError as exc:
        raise LedgerError(f"{label}: cannot read {output} to make sure it is not a database "
                          f"({exc.strerror or exc}); {instead}") from None
    if kind is not None:
        raise LedgerError(f"{label}: {output} is {kind}, not a regular file; give the name of a "
                          "file (a new one, or a backup to replace)")
    if side is not None:
        database, what = side
        raise LedgerError(f"{label}: {output} is the {what} of the SQLite database {database}: "
                          f"replacing it would lose or damage that database's data; {instead}")
    if content == "database" and backup:
        in_use = sides_in_use(Path(os.path.realpath(output)))
        if in_use:
            raise LedgerError(f"backup: {output} is a SQLite database in use (or left so by a "
                              f"crash): {', '.join(map(str, in_use))} beside it would be read as "
                              f"its own; {instead}")
    elif content == "database":
        raise LedgerError(f"output: {output} is a SQLite database: a report never replaces a "
                          f"database; {instead}")
    elif content is not None:
        raise LedgerError(f"{label}: {output} is a SQLite {content} (its first bytes say so): "
                          f"replacing it would lose or damage a database's data; {instead}")
