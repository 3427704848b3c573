"""What the ledger agrees to read as an import file: a regular file of at most 2 GB.

Checked before a byte is read, by every import (``imports.import_file`` and
``fide_lists.import_fide_list``): ``/dev/zero`` never ends, a pipe waits for a writer for ever
and a folder is no file, so each of them, and a file too large to hold in memory, is refused
with the file named (exit 3, as any other import file the ledger cannot take).
"""

from __future__ import annotations

import os
import stat

from ledger.errors import ImportRejected, Problem

#: The largest import file the ledger reads (2 GB): a file is read whole into memory.
MAX_INPUT_BYTES = 2 * 1024 ** 3


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def check_input_file(path: str) -> int:
    """The size in bytes of the import file ``path``, after checking it can be read whole.

    A link is followed. Raises ``ImportRejected`` (exit 3) with one problem (``path``, no line,
    field ``file``) when ``path`` does not exist, is not a regular file (a folder, a device, a
    pipe, a socket), is larger than ``MAX_INPUT_BYTES``, or cannot be opened for reading.
    Reads nothing from the file (a regular file is opened and closed, to know it can be read).
    """
    def refuse(message: str) -> ImportRejected:
        return ImportRejected(f"{path}: import rejected, nothing was written",
                              [Problem(path, None, "file", message)])

    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise refuse("no such file") from None
    except OSError as exc:
        raise refuse(f"cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise refuse(f"{_kind(info.st_mode)}, not a regular file")
    if info.st_size > MAX_INPUT_BYTES:
        raise refuse(f"{info.st_size} bytes; the ledger imports files up to 2 GB "
                     f"({MAX_INPUT_BYTES} bytes)")
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise refuse(f"cannot be read: {exc.strerror or exc}") from None
    return info.st_size
