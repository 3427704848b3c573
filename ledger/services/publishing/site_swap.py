"""A new site built beside its folder DIR and swapped in at once, so that nobody reading DIR
(a web server, a person) ever sees a site half built, and a build that dies leaves DIR as it was.

Every build works in one folder beside DIR, ``.DIR.ledger-build`` (``work_folder``), which only
it uses: it holds the build's lock (``lock``, an ``flock`` that the system releases when the
process ends, killed or not) and the new site (``site``). When the new site is whole, one
``renameat2(RENAME_EXCHANGE)`` (Linux 3.15 and later, on the file systems that have it: ext4,
XFS, Btrfs, tmpfs ...) swaps it with DIR: DIR stays a real folder, its old content is now in
``site``, and the work folder is removed. A first build (no DIR yet) renames the new site into
place. Where the system cannot exchange two folders (macOS, NFS, SMB shares ...), DIR is renamed
to ``old`` and the new site into DIR: for that moment DIR is missing, never half built, and a
build killed between the two renames leaves ``old``, which the next build puts back first.

A build that finds the work folder of a build that died (its lock free) removes it first,
without asking; one whose lock is held is another build at work, and this one is refused.

The new site gets DIR's permissions (its group when the user may give it and its mode, before a
file is written in it, so that its files get what DIR's got: a set-group-id DIR's group; its
times and extended attributes too, as ``shutil.copystat`` copies them, just before the swap).
Files are kept or carried over by hard links (a copy where the file system refuses one); a
symbolic link is carried over as a link, never followed; DIR must be a folder of its own (not a
mount point) on a file system with nothing mounted inside it.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import shutil
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ledger.errors import InvalidInput, LedgerError

#: ``renameat2``'s flag that exchanges two paths, and the "current folder" of its paths.
RENAME_EXCHANGE, AT_FDCWD = 2, -100


def work_folder(root: Path) -> Path:
    """The folder beside ``root`` in which builds of ``root`` work."""
    return root.parent / f".{root.name}.ledger-build"


#: A text longer than this many characters is hashed and written a piece at a time
#: (``text_digest``).
BIG_TEXT = 1 << 20


def text_digest(text: str | bytes | bytearray) -> tuple[str, bytes | bytearray | None]:
    """The SHA-256 (hex) of ``text``'s UTF-8 bytes, and those bytes; None for a text longer
    than ``BIG_TEXT`` characters, encoded a piece at a time (``Build.write_text`` writes it
    so): a list page of 200,000 players is 80 MB, 160 MB as a text when a name has an accent,
    and its bytes were another 80 MB held at once."""
    if not isinstance(text, str):
        return hashlib.sha256(text).hexdigest(), text
    if len(text) <= BIG_TEXT:
        data = text.encode("utf-8")
        return hashlib.sha256(data).hexdigest(), data
    taken = hashlib.sha256()
    for piece in _pieces(text):
        taken.update(piece)
    return taken.hexdigest(), None


def _pieces(text: str) -> Iterator[bytes]:
    """``text`` in UTF-8, ``BIG_TEXT`` characters at a time."""
    return (text[i:i + BIG_TEXT].encode("utf-8") for i in range(0, len(text), BIG_TEXT))


def survey(root: Path,
           known: dict[str, os.stat_result] | None = None) -> dict[str, os.stat_result]:
    """What the folder ``root`` holds, path inside it ("/"-separated) -> its ``lstat``: every
    folder, file, symbolic link (never followed) and other entry; {} when there is no folder.
    ``known`` (path -> an ``lstat`` taken earlier): a regular file there with that inode is
    given that ``lstat`` unasked (a file the build linked into its new site, which holds the
    inode, so no other file can have it: its size and times are the file's unless it was
    written in place since, and then the record is only stale, which makes the next build a
    full one; at size M 18,000 ``lstat`` calls of 20,000). Raises ``InvalidInput``
    for a folder inside it on another file system (mounted there)."""
    known = known or {}
    try:
        device = os.lstat(root).st_dev
    except FileNotFoundError:
        return {}
    found: dict[str, os.stat_result] = {}
    folders = [""]
    while folders:
        inside = folders.pop()
        with os.scandir(root / inside) as entries:
            for entry in entries:
                name = f"{inside}/{entry.name}" if inside else entry.name
                seen = known.get(name)
                found[name] = seen if seen is not None and entry.inode() == seen.st_ino \
                    and entry.is_file(follow_symlinks=False) else entry.stat(follow_symlinks=False)
                if stat.S_ISDIR(found[name].st_mode):
                    if found[name].st_dev != device:
                        raise InvalidInput(f"site: {root / name} is another file system mounted "
                                           f"in {root}; a build carries only files: unmount it "
                                           "or move it out")
                    folders.append(name)
    return found


def _exchange(a: Path, b: Path) -> bool:
    """Swap the folders ``a`` and ``b`` in one ``renameat2(RENAME_EXCHANGE)``: True when done,
    False when this system or file system cannot (nothing done). Raises ``OSError`` for any
    other failure (``b`` a mount point, no permission ...)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:  # a C library older than glibc 2.28
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove(path: Path) -> None:
    """Remove ``path``: a folder with what it holds (a link inside is removed, not followed; a
    folder the user may not write in made writable first), anything else by itself."""
    def writable_then_again(function: Any, failed: str, _error: Any) -> None:
        parent = os.path.dirname(failed)
        os.chmod(parent, stat.S_IMODE(os.lstat(parent).st_mode) | stat.S_IRWXU)
        function(failed)

    if stat.S_ISDIR(os.lstat(path).st_mode):
        shutil.rmtree(path, onerror=writable_then_again)
    else:
        path.unlink()


def _lock(work: Path, root: Path) -> int:
    """Take the lock of the builds of ``root`` (``work / "lock"``, made with ``work`` when
    missing); its file descriptor. Raises ``LedgerError`` when another build holds it, and
    ``InvalidInput`` when ``work`` is not a folder."""
    for _ in range(10):
        try:
            os.mkdir(work, 0o700)
        except FileExistsError:
            pass
        try:
            if not stat.S_ISDIR(os.lstat(work).st_mode):
                raise InvalidInput(f"site: {work} is in the way: builds of {root} work in a "
                                   "folder of that name; move it away")
            fd = os.open(work / "lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except FileNotFoundError:  # the build that held it has just removed it
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LedgerError(f"site: another ledger site build is writing {root}; try again "
                              "when it has ended") from None
        try:  # still the lock, not one its holder removed as this one opened it
            if os.fstat(fd).st_ino == os.lstat(work / "lock").st_ino:
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)
    raise LedgerError(f"site: cannot take the lock {work / 'lock'} of the builds of {root}")


def _clear(work: Path, root: Path, *, dead: bool) -> None:
    """Remove what ``work`` holds but the lock; with ``dead`` (a build that died), first put
    back the ``old`` site it had moved aside when ``root`` is missing."""
    for entry in sorted(os.listdir(work)):
        if entry == "lock":
            continue
        if dead and entry == "old" and not os.path.lexists(root):
            os.rename(work / "old", root)
        else:
            _remove(work / entry)


class Build:
    """One build of the site in ``root``: ``found`` (``survey``: what ``root`` holds now) and
    the new site taking shape in ``staging``, swapped in by ``swap``."""

    def __init__(self, root: Path, staging: Path) -> None:
        self.root, self.staging = root, staging
        self.found = survey(root)
        #: The files of ``root`` linked into the new site as they are (``keep``, ``carry``):
        #: path -> their ``lstat`` in ``found`` (``staged``).
        self.linked: dict[str, os.stat_result] = {}
        self._folders: set[str] = set()
        self._alike: list[tuple[Path, Path]] = []
        os.mkdir(staging)
        if os.path.isdir(root):
            self._like(root, staging)

    def _like(self, original: Path, made: Path) -> None:
        """Give the folder ``made`` the permissions of ``original``: its group when the user
        may give it, then its mode (the user's own right to write in it kept until ``swap``,
        which gives the mode exactly, with the times and extended attributes)."""
        seen = os.lstat(original)
        if os.lstat(made).st_gid != seen.st_gid:
            try:
                os.chown(made, -1, seen.st_gid)
            except PermissionError:
                pass  # a group the user is not a member of: the new site keeps the user's
        os.chmod(made, stat.S_IMODE(seen.st_mode) | stat.S_IRWXU)
        self._alike.append((original, made))

    def _folder(self, inside: str) -> None:
        """Make the folder ``inside`` of the new site and its parents, each like its
        counterpart in ``root`` when it has one."""
        if not inside or inside in self._folders:
            return
        parent = inside.rpartition("/")[0]
        self._folder(parent)
        os.mkdir(self.staging / inside)
        entry = self.found.get(inside)
        if entry is not None and stat.S_ISDIR(entry.st_mode):
            self._like(self.root / inside, self.staging / inside)
        self._folders.add(inside)

    def write(self, name: str, data: bytes | bytearray) -> None:
        """Write the file ``name`` of the new site."""
        self._folder(name.rpartition("/")[0])
        with open(self.staging / name, "xb") as handle:
            handle.write(data)

    def write_text(self, name: str, text: str | bytes | bytearray,
                   data: bytes | bytearray | None) -> None:
        """Write the file ``name`` of the new site: ``data`` (``text_digest``'s), or when
        None ``text`` a piece at a time."""
        if data is not None:
            self.write(name, data)
        else:
            assert isinstance(text, str)
            self.write_pieces(name, _pieces(text))

    def write_pieces(self, name: str, pieces: Iterable[bytes]) -> str:
        """Write the file ``name`` of the new site from ``pieces`` (its bytes in order, never
        joined); its SHA-256 in hex."""
        self._folder(name.rpartition("/")[0])
        taken = hashlib.sha256()
        with open(self.staging / name, "xb") as handle:
            for piece in pieces:
                taken.update(piece)
                handle.write(piece)
        return taken.hexdigest()

    def put_parts(self, name: str, parts: Iterable[str], was: str | None, *,
                  link: bool = True) -> str:
        """Write the file ``name`` of the new site from the text ``parts`` (in order, each
        encoded as it comes: a long page never held whole, ``joined.Pieces``); its SHA-256
        (hex). When that is ``was`` (the SHA-256 of ``root``'s own file ``name``), the written
        file is taken back and, with ``link``, ``root``'s file kept in its place (``keep``):
        the same bytes, the same file as when the text was held."""
        digest = self.write_pieces(name, (part.encode("utf-8") for part in parts))
        if digest == was:
            os.unlink(self.staging / name)
            if link:
                self.keep(name, None)
        return digest

    def keep(self, name: str, data: bytes | bytearray | None) -> None:
        """Put ``root``'s file ``name`` (the build's own, holding ``data``; None: read it when
        needed) into the new site as it is: a hard link (its times kept), else ``data``
        written. (The paths as strings: a rebuild keeps most files, and joining ``Path``s took
        half the time of the links, 0.12 of 0.27 s for 20,000.)"""
        self._folder(name.rpartition("/")[0])
        try:
            os.link(f"{self.root}/{name}", f"{self.staging}/{name}", follow_symlinks=False)
        except OSError:
            self.write(name, (self.root / name).read_bytes() if data is None else data)
            return
        entry = self.found.get(name)
        if entry is not None:
            self.linked[name] = entry

    def write_or_keep(self, name: str, data: bytes) -> None:
        """``keep`` ``root``'s regular file ``name`` when it holds ``data``, else ``write``."""
        entry = self.found.get(name)
        if entry is not None and stat.S_ISREG(entry.st_mode) and entry.st_size == len(data) \
                and (self.root / name).read_bytes() == data:
            self.keep(name, data)
        else:
            self.write(name, data)

    def carry(self, names: list[str]) -> None:
        """Carry ``root``'s entries ``names`` into the new site as they are: a folder (made
        when it held nothing, else with what it holds), a symbolic link as a link to the same
        target, a file or anything else as a hard link (a regular file copied where the file
        system refuses one)."""
        parents = {name.rpartition("/")[0] for name in self.found}
        for name in sorted(names):
            mode = self.found[name].st_mode
            source, target = self.root / name, self.staging / name
            if stat.S_ISDIR(mode):
                if name not in parents:
                    self._folder(name)
                continue
            self._folder(name.rpartition("/")[0])
            if stat.S_ISLNK(mode):
                os.symlink(os.readlink(source), target)
                continue
            try:
                os.link(source, target, follow_symlinks=False)
            except OSError:
                if not stat.S_ISREG(mode):
                    raise
                shutil.copy2(source, target, follow_symlinks=False)
            else:
                self.linked[name] = self.found[name]

    def staged(self) -> dict[str, os.stat_result]:
        """``survey`` of the new site, the files linked from ``root`` given the ``lstat`` that
        ``found`` has for them (``linked``) when they are still that inode."""
        return survey(self.staging, self.linked)

    def swap(self) -> None:
        """Put the new site in ``root``'s place in one step (``_exchange``); a first build
        renames it there; ``swap_by_renames`` where the system cannot exchange."""
        for original, made in reversed(self._alike):  # the deepest first
            shutil.copystat(original, made, follow_symlinks=False)
        if not os.path.lexists(self.root):
            os.rename(self.staging, self.root)
        elif _exchange(self.staging, self.root):
            self._put_back_late(self.staging)
        else:
            self.swap_by_renames()

    def swap_by_renames(self) -> None:
        """``swap`` where the system cannot exchange two folders: ``root`` renamed to ``old``
        beside the new site, then the new site to ``root``. For that moment ``root`` is
        missing; a build that dies between the two leaves ``old``, which the next build puts
        back (``_clear``)."""
        old = self.staging.parent / "old"
        os.rename(self.root, old)
        os.rename(self.staging, self.root)
        self._put_back_late(old)

    def _put_back_late(self, old: Path) -> None:
        """Move into the new site what someone put in ``root`` during the build (``old``: what
        ``root`` held at the swap): every entry but a folder that ``found`` had not, or had as
        another file (another inode or time), in its place (a page's too: it is not the build's
        own then; a file the new site holds as a link to the same inode is that file already:
        ``linked``, its times not asked again). One whose place the new site holds as a folder
        is kept beside ``root``, as ``old`` renamed ``.ROOT.ledger-kept-N``, and ``LedgerError``
        says so."""
        for name, entry in sorted(survey(old, self.linked).items()):
            seen = self.found.get(name)
            if stat.S_ISDIR(entry.st_mode) or (seen is not None and (
                    seen.st_ino, seen.st_mtime_ns) == (entry.st_ino, entry.st_mtime_ns)):
                continue
            try:
                (self.root / name).parent.mkdir(parents=True, exist_ok=True)
                os.rename(old / name, self.root / name)
            except OSError:
                kept = _free(self.root.parent / f".{self.root.name}.ledger-kept")
                os.rename(old, kept)
                raise LedgerError(f"site: {self.root / name} was put there during the build, "
                                  "where the new site has a folder: it is kept with what the "
                                  f"folder held before the build in {kept}") from None


def _free(stem: Path) -> Path:
    """``stem-1``, ``stem-2`` ...: the first that does not exist."""
    n = 1
    while os.path.lexists(f"{stem}-{n}"):
        n += 1
    return Path(f"{stem}-{n}")


@contextmanager
def building(root: Path) -> Iterator[Build]:
    """A build of the site in ``root`` (an absolute path, links resolved): its parents made,
    the lock taken, what a dead build left cleared (``_clear``), the new site begun; at the end,
    swapped in or not, the work folder removed and the lock let go. Raises ``LedgerError`` when
    another build holds the lock; ``OSError`` as the system raises it."""
    root.parent.mkdir(parents=True, exist_ok=True)
    work = work_folder(root)
    fd = _lock(work, root)
    try:
        _clear(work, root, dead=True)
        yield Build(root, work / "site")
    finally:
        try:
            _clear(work, root, dead=False)
            (work / "lock").unlink()
            os.rmdir(work)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno != errno.ENOTEMPTY:  # another build has begun in it
                raise
        finally:
            os.close(fd)
