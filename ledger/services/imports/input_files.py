"""What the ledger agrees to read as an import file (a regular file of at most 2 GB), and the
file read as a stream that hashes itself (:class:`InputFile`).

Checked before a byte is read, by every import (``imports.import_file`` and
``fide_lists.import_fide_list``): ``/dev/zero`` never ends, a pipe waits for a writer for ever
and a folder is no file, so each of them, and a file too large to import, is refused with the
file named (exit 3, as any other import file the ledger cannot take).
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
from types import TracebackType
from typing import TYPE_CHECKING, BinaryIO

from ledger.errors import ImportRejected, Problem

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer

#: The largest import file the ledger reads (2 GB). ``import_file`` reads a file as a stream;
#: ``import_fide_list`` still reads one whole into memory.
MAX_INPUT_BYTES = 2 * 1024 ** 3
#: Bytes read at a time (the readers read lines from a buffer of this size).
_CHUNK = 1 << 20


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


def file_head(path: str, size: int = 4096) -> bytes:
    """The first ``size`` bytes of the file ``path`` (what tells its format)."""
    with open(path, "rb") as handle:
        return handle.read(size)


class _HashingFile(io.RawIOBase):
    """A file opened ``"rb"`` whose bytes go into a SHA-256 the first time they are read, in
    order: reading again after a seek back hashes nothing twice, a seek forward hashes the bytes
    it skips, and :meth:`finish` hashes the rest of the file."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self._file = open(path, "rb", buffering=0)  # closed by close()
        self._sha = hashlib.sha256()
        self._hashed = 0  # bytes 0 .. _hashed - 1 are in the hash
        self.blank = True  # only ASCII whitespace so far (bytes.strip() would leave nothing)
        self.newlines = 0  # b"\n" in the bytes hashed so far
        self.hashed_tail = False  # they end with a line that has no newline yet

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def _hash(self, start: int, data: ReadableBuffer) -> None:
        """Hash the part of ``data`` (the bytes from offset ``start``) not hashed yet."""
        view = memoryview(data).cast("B")
        end = start + len(view)
        if end <= self._hashed:
            return
        if start > self._hashed:
            self._catch_up(start)
        fresh = view[self._hashed - start :]
        self._sha.update(fresh)
        self.newlines += fresh.tobytes().count(b"\n")
        if self.blank and bytes(fresh).strip():
            self.blank = False
        self._hashed = end
        if len(fresh):
            self.hashed_tail = fresh[-1] != 0x0A  # the bytes so far end inside a line

    def _catch_up(self, offset: int) -> None:
        """Hash the bytes from ``_hashed`` to ``offset`` (skipped by a seek), where the file is."""
        while self._hashed < offset:
            data = os.pread(self._file.fileno(), min(_CHUNK, offset - self._hashed), self._hashed)
            if not data:
                break
            self._hash(self._hashed, data)

    def readinto(self, buffer: WriteableBuffer) -> int:
        start = self._file.tell()
        count = self._file.readinto(buffer) or 0
        self._hash(start, memoryview(buffer).cast("B")[:count])
        return count

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def close(self) -> None:
        self._file.close()
        super().close()

    def finish(self) -> str:
        """Hash the bytes never read (a reader that stopped early) and give the SHA-256 in hex."""
        self._catch_up(os.fstat(self._file.fileno()).st_size)
        return self._sha.hexdigest()


class InputFile:
    """An import file open for reading: ``stream``, a buffered binary handle for the readers,
    hashing the file as they read it (one pass: no byte is read for the hash alone, except those
    a reader never reached). A context manager; closing it closes the file.

    :meth:`sha256`: the SHA-256 of the whole file, in hex, the bytes not read yet hashed first;
    after it, ``blank`` says whether the file holds only ASCII whitespace (or nothing).
    ``OSError`` from opening or reading goes through.
    """

    def __init__(self, path: str) -> None:
        self._raw = _HashingFile(path)
        self.stream: BinaryIO = io.BufferedReader(self._raw, _CHUNK)

    def sha256(self) -> str:
        """The SHA-256 of the file's bytes, in hex."""
        return self._raw.finish()

    @property
    def blank(self) -> bool:
        """Only ASCII whitespace in the bytes hashed so far (all of them after :meth:`sha256`)."""
        return self._raw.blank

    @property
    def lines(self) -> int:
        """The lines in the bytes hashed so far (all of them after :meth:`sha256`): newlines,
        plus one for a last line without one."""
        raw = self._raw
        return raw.newlines + (1 if raw.hashed_tail else 0)

    def __enter__(self) -> InputFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stream.close()
