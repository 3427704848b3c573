"""SQLite's own files, told by their first bytes and their permissions: which of SQLite's files a
path is (database, write-ahead log, rollback journal: https://www.sqlite.org/fileformat.html, 1.3,
4.1 and 4.3), whether a ledger file can be written, whether it can be read at all, and the
``file:`` URI that opens one read-only (https://www.sqlite.org/wal.html, "Read-Only Databases").
Used by ``db.engine`` when it opens a ledger and by the publishing services that refuse to write
over a database.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

#: The first 16 bytes of every SQLite database file (https://www.sqlite.org/fileformat.html).
SQLITE_HEADER = b"SQLite format 3\x00"

#: The files SQLite keeps beside a database, by suffix: what each one is.
SIDE_FILES = {"-wal": "write-ahead log", "-shm": "shared-memory index",
              "-journal": "rollback journal"}

#: The first bytes of a write-ahead log (big-endian 0x377f0682 or 0x377f0683, by the byte order
#: of its checksums) and of a rollback journal (fileformat.html, 4.1 and 4.3).
WAL_MAGICS = (bytes.fromhex("377f0682"), bytes.fromhex("377f0683"))
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


def sqlite_file_kind(path: Path) -> str | None:
    """Which of SQLite's files ``path`` is by its first bytes: ``"database"`` (``SQLITE_HEADER``),
    ``"write-ahead log"`` (``WAL_MAGICS``) or ``"rollback journal"`` (``JOURNAL_MAGIC``); None
    for any other file and for anything but a regular file (a link is followed; nothing is read
    from a device or a pipe). Reads at most 16 bytes. Raises ``OSError`` when ``path`` cannot
    be examined or read."""
    if not path.is_file():
        return None
    with open(path, "rb") as handle:
        head = handle.read(len(SQLITE_HEADER))
    if head == SQLITE_HEADER:
        return "database"
    if head[:4] in WAL_MAGICS:
        return SIDE_FILES["-wal"]
    if head[:8] == JOURNAL_MAGIC:
        return SIDE_FILES["-journal"]
    return None


def is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (a link is followed) starting with ``SQLITE_HEADER``;
    a device or a pipe is not (nothing is read from it). Raises ``OSError`` when ``path``
    cannot be examined or read."""
    return sqlite_file_kind(path) == "database"


def read_only_reason(path: Path) -> str | None:
    """Why SQLite cannot write the existing ledger file ``path``, or None when it can: the file
    is read-only, or its folder is and the -wal and -shm files a WAL write needs are not there
    to be written. (``os.access``: a read-only mount counts; root may write any file.)"""
    if not os.access(path, os.W_OK):
        return "the file is read-only"
    if os.access(path.parent, os.W_OK) or all(os.access(f"{path}{suffix}", os.W_OK)
                                             for suffix in ("-wal", "-shm")):
        return None
    return f"its folder {path.parent} is read-only, and SQLite writes its journal there"


def _wal_holds_nothing(path: Path) -> bool:
    """Whether no -wal file beside ``path`` holds anything: there is none, or an empty one
    that no connection uses (no -shm file beside it)."""
    wal = Path(f"{path}-wal")
    if not wal.exists():
        return True
    return wal.stat().st_size == 0 and not Path(f"{path}-shm").exists()


def read_only_uri(path: Path) -> str:
    """A ``file:`` URI opening ``path`` read-only. ``immutable=1`` when no -wal file holds
    anything (``_wal_holds_nothing``: nothing committed lies outside the file) and the folder
    cannot hold the -shm file a reader of a WAL ledger must otherwise create (wal.html,
    "Read-Only Databases")."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    if _wal_holds_nothing(path) and not os.access(path.parent, os.W_OK):
        uri += "&immutable=1"
    return uri


def unreadable_wal(path: Path) -> str | None:
    """Why SQLite cannot read the existing ledger file ``path`` at all, or None when it can:
    its -wal file holds changes not yet in the file, no -shm file is beside it, and its folder
    is read-only, so SQLite cannot make the -shm file it needs to read the -wal (wal.html,
    "Read-Only Databases"). The message says what to do."""
    if _wal_holds_nothing(path) or Path(f"{path}-shm").exists() or os.access(path.parent, os.W_OK):
        return None
    return (f"cannot read the ledger {path}: its write-ahead log {path}-wal holds changes not yet "
            f"written into it, and its folder {path.parent} is read-only, so SQLite cannot make "
            f"the {path}-shm file it needs to read them; copy the ledger with its -wal file to a "
            "folder you can write and use that copy, or let the program that writes the ledger "
            "open and close it there (which moves the changes into the file), then try again")
