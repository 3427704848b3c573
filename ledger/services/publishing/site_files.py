"""Writing a built site into its folder DIR, all or nothing: the new site is built in a folder
beside DIR and swapped in (``site_swap``), and it never writes where it could do harm.

A site folder holds a manifest (``MANIFEST``, ``.ledger-site``): the SHA-256 and path of every
file the last build wrote. A file of DIR is the build's own when the manifest lists it with the
SHA-256 of the content it has now; only the build's own files are replaced or left out of the
next site (a page the ledger no longer makes). Every other entry of DIR (the club's ``CNAME``, a
page someone edited, a file an edited manifest names with another SHA-256, a folder, a symbolic
link) is carried into the new site as it is, and a page the build would write in its place is
refused. A symbolic link inside DIR is never followed: one where the site writes is refused. A
manifest without a file listed (an empty ``.ledger-site``) is no manifest.

Beside the manifest, a build writes its record (``site_record.RECORD``, ``.ledger-site.json``:
the ledger's change it was built from, its options, and every entry's size, time and inode), which lets
the next build see that nothing changed (``as_recorded``) or give a few pages new text without
gathering the rest (``refresh_site``); the record is neither the build's page nor carried over.

A folder is refused before anything is written when it is a file, when it holds files but no
manifest (someone else's folder), or when the ledger's own database lies inside it (a folder
that is published must never carry the ledger).
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ledger.db.engine import sqlite_files
from ledger.db.sqlite_files import sqlite_file_kind
from ledger.errors import InvalidInput, LedgerError
from ledger.formats.site.joined import Pieces
from ledger.services.core.bulk import paused_gc
from ledger.services.publishing import site_swap
from ledger.services.publishing.site_record import RECORD, Record, holds, record_text, states

#: The manifest's name, and its first line.
MANIFEST, MANIFEST_HEADER = ".ledger-site", "# files written by ledger site build: SHA-256  path"
#: The first line of the manifest of an earlier ledger, which listed paths only: its files are
#: the build's own when they are named as the site names its files and are no SQLite database;
#: so are the temporary files (``.NAME.XXXXXXXX``) a killed build of that ledger left beside them.
EARLIER_HEADER = "# files written by ledger site build"
_SITE_NAME = re.compile(r"(index\.html|site\.css|site\.js|sitemap\.xml"
                        r"|(lists|players|events)/[A-Za-z0-9_/.-]+\.html)")
_EARLIER_TEMPORARY = re.compile(r"((?:.*/)?)\.(.+)\.[a-z0-9_]{8}")
_LINE = re.compile(r"([0-9a-f]{64})  (.+)")
#: A write renders its pages (``files``, read as it goes) and makes its bundles with the cyclic
#: collector paused (``bulk.paused_gc``), collecting only the young generations every ``YOUNG``
#: files (``write_site`` after each bundle it makes too): the collector's full passes walked
#: the gathered site (millions of objects, alive to the end) again and again. At size M the
#: rebuild after a close went from about 11.4 to 9.7 CPU s, the full build from 57 to 45,
#: their peak RSS the same (345 and 654 MB); the cycles the rendering leaves are still freed
#: as it goes.
YOUNG = 1000


@dataclass(frozen=True)
class SiteWrite:
    """What writing a site did: ``files`` it holds now (pages, stylesheet, script, sitemap,
    bundles), how many were ``written`` (new or changed), ``unchanged`` (the same bytes, kept)
    and ``removed`` (the build's own files that the new site no longer has); of the ``Costly``
    files, how many were ``made`` (the rest kept as the folder held them)."""

    directory: str
    files: int
    written: int
    unchanged: int
    removed: int
    made: int = 0


@dataclass(frozen=True)
class Costly:
    """A file of the site that is costly to make and, once made, does not change (a list
    revision's bundle): ``make`` gives its bytes; a build keeps the folder's own copy
    (``own_files``) when ``still`` says its bytes serve, and calls ``make`` only otherwise."""

    name: str
    make: Callable[[], bytes]
    still: Callable[[bytes], bool]
    #: ``make``'s bytes a piece at a time, for a full build that writes them as they come
    #: (a list's bundle: never joined); None: ``make``.
    pieces: Callable[[], Iterable[bytes]] | None = None


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(folder))
    except ValueError:
        return False
    return True


def _manifest_lines(directory: Path) -> list[str] | None:
    """The lines of ``directory``'s ``MANIFEST``; None when it is no regular file (or a link)."""
    path = directory / MANIFEST
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
    except FileNotFoundError:
        return None
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def read_manifest(directory: Path) -> dict[str, str | None] | None:
    """The files the last build wrote into ``directory``, path inside it -> SHA-256 (hex), or
    None for each file of an earlier ledger's manifest (``EARLIER_HEADER``: paths only). None
    when there is no manifest: no regular file ``MANIFEST`` (a link is none), another first
    line, or no file listed. A line of another shape names nothing."""
    lines = _manifest_lines(directory)
    files: dict[str, str | None] = {}
    if lines and lines[0] == MANIFEST_HEADER:
        files = {m[2]: m[1] for line in lines[1:] if (m := _LINE.fullmatch(line))}
    elif lines and lines[0] == EARLIER_HEADER:
        files = {line: None for line in lines[1:] if line and not line.startswith("#")}
    return files or None


def has_manifest(directory: Path) -> bool:
    """``read_manifest(directory) is not None``, its lines read only up to the first file
    listed (at 200,000 files the whole manifest took 0.15 s)."""
    lines = _manifest_lines(directory)
    if lines and lines[0] == MANIFEST_HEADER:
        return any(_LINE.fullmatch(line) for line in lines[1:])
    if lines and lines[0] == EARLIER_HEADER:
        return any(line and not line.startswith("#") for line in lines[1:])
    return False


def listed_files(directory: Path) -> int:
    """How many files the manifest a build wrote lists (one line each after its header), for a
    manifest the build's record proves untouched (``as_recorded``); counted by its lines, not
    read as ``read_manifest`` reads one (0 when there is none)."""
    lines = _manifest_lines(directory)
    return len(lines) - 1 if lines and lines[0] == MANIFEST_HEADER else len(read_manifest(
        directory) or {})


def sha256_of(path: Path) -> str:
    """The SHA-256 (hex) of the file ``path``, never through a link (``OSError`` for one)."""
    with open(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def own_files(root: Path, found: dict[str, os.stat_result],
              manifest: dict[str, str | None] | None) -> dict[str, str]:
    """The build's own files among ``found`` (``site_swap.survey`` of ``root``), path -> the
    SHA-256 of their content: regular files the manifest lists with that SHA-256, or, for an
    earlier ledger's manifest, with a name the site gives its files (and no SQLite database),
    and that ledger's temporary files beside them (their SHA-256 not needed: "")."""
    own: dict[str, str] = {}
    for name, digest in (manifest or {}).items():
        entry = found.get(name)
        if entry is None or not stat.S_ISREG(entry.st_mode):
            continue
        actual = sha256_of(root / name)
        if actual == digest or (digest is None and _SITE_NAME.fullmatch(name)
                                and sqlite_file_kind(root / name) is None):
            own[name] = actual
    if manifest and all(digest is None for digest in manifest.values()):
        for name, entry in found.items():
            m = _EARLIER_TEMPORARY.fullmatch(name)
            if m and stat.S_ISREG(entry.st_mode) and f"{m[1]}{m[2]}" in manifest:
                own[name] = ""
    return own


def check_site_folder(directory: Path, ledger: str | None) -> None:
    """Refuse a site folder before anything is read or written: ``directory`` is a file (or
    anything but a folder), holds files but no manifest (it was not built by ``ledger site
    build``), lies under a file, or holds the ``ledger`` database (path or URL; None: none).
    A symbolic link given as ``directory`` is followed (the folder it names is the site's).
    Raises ``InvalidInput`` naming the folder."""
    if directory.exists() and not directory.is_dir():
        raise InvalidInput(f"site: {directory} is a file, not a folder; give a folder for the site")
    for parent in directory.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InvalidInput(f"site: {directory} cannot be made: {parent} is a file")
            break
    for path in (sqlite_files(ledger) if ledger is not None else {}):
        if path.exists() and _inside(path, directory):
            raise InvalidInput(f"site: {directory} holds the ledger database {path}: a site "
                               "folder is published, so it must not hold the ledger; give "
                               "another folder")
    if directory.is_dir() and not has_manifest(directory) and any(directory.iterdir()):
        raise InvalidInput(f"site: {directory} already holds files that ledger site build did "
                           f"not write (no {MANIFEST} lists them); give an empty or a new folder")


def _may_write(root: Path, found: dict[str, os.stat_result], own: dict[str, str],
               name: str) -> None:
    """Refuse (``InvalidInput``) a page ``name`` the build cannot write: a symbolic link on its
    way or in its place, a file where it needs a folder, a folder or a file that is not the
    build's own in its place."""
    parts = name.split("/")
    for depth in range(1, len(parts) + 1):
        inside = "/".join(parts[:depth])
        entry = found.get(inside)
        if entry is None:
            return
        if stat.S_ISLNK(entry.st_mode):
            raise InvalidInput(f"site: {root / inside} is a symbolic link; a build writes only "
                               f"inside {root} and follows no link in it: remove the link")
        if depth < len(parts) and not stat.S_ISDIR(entry.st_mode):
            raise InvalidInput(f"site: {root / inside} is a file where the site has a folder: "
                               "move it away")
    if stat.S_ISDIR(found[name].st_mode):
        raise InvalidInput(f"site: {root / name} is a folder where the site has a page: move it "
                           "away")
    if name not in own:
        raise InvalidInput(f"site: {root / name} was not written by ledger site build (or was "
                           "changed since): a build replaces only its own files; move it away")


def write_site(directory: Path, files: Iterable[tuple[str, str | bytes | bytearray | Pieces]],
               costly: Iterable[Costly] = (), record: Record | None = None) -> SiteWrite:
    """Write ``files`` ((path inside the site, text) pairs, written as UTF-8, or its bytes, or
    ``Pieces``: written as they are rendered, then kept when the folder's own) and ``costly``
    (``Costly``: made only when the folder holds no copy that serves) as the site in
    ``directory`` (``check_site_folder`` first), all or nothing: the new site is built beside
    it and swapped in (``site_swap.building``). A file whose bytes the build's own file already
    has is kept (linked, not written); the build's own files that ``files`` no longer holds are
    left out; every other entry of the folder is carried over as it is; the manifest lists
    ``files`` with their SHA-256; ``record`` (its ``files`` filled in here: the new site's
    ``site_record.states``) is written as ``RECORD`` (None: none, and an earlier one is
    dropped). Raises ``InvalidInput`` (nothing changed) for a page the build cannot write
    (``_may_write``), another build writing the folder, and a file system mounted inside it;
    ``LedgerError`` naming the file that cannot be read or written."""
    root = Path(os.path.realpath(directory))
    try:
        with paused_gc(), site_swap.building(root) as build:
            found = build.found
            own = own_files(root, found, read_manifest(root) if found else None)
            written = unchanged = 0
            made: dict[str, str] = {}
            for name, text in files:
                _young(len(made) + 1)
                if isinstance(text, Pieces):  # a long page, written as it is rendered
                    _may_write(root, found, own, name)
                    digest = build.put_parts(name, text.parts, own.get(name))
                else:
                    digest, data = site_swap.text_digest(text)
                    _may_write(root, found, own, name)
                    if own.get(name) == digest:
                        build.keep(name, data)
                    else:
                        build.write_text(name, text, data)
                if own.get(name) == digest:
                    unchanged += 1
                else:
                    written += 1
                made[name] = digest
            new = 0
            for file in costly:
                _may_write(root, found, own, file.name)
                held = (root / file.name).read_bytes() if file.name in own else None
                if held is not None and file.still(held):
                    build.keep(file.name, held)
                    unchanged += 1
                    made[file.name] = own[file.name]
                elif file.pieces is not None:
                    made[file.name] = build.write_pieces(file.name, file.pieces())
                    gc.collect(1)
                    written, new = written + 1, new + 1
                else:
                    data = file.make()
                    gc.collect(1)
                    build.write(file.name, data)
                    written, new = written + 1, new + 1
                    made[file.name] = hashlib.sha256(data).hexdigest()
            removed = sum(1 for name in own if name not in made)
            build.carry([name for name in found if name not in made and name not in own
                         and name not in (MANIFEST, RECORD)])
            _finish(build, made, record)
    except OSError as exc:
        where = exc.filename or directory
        raise LedgerError(f"site: cannot write {where}: {exc.strerror or exc}") from None
    return SiteWrite(str(directory), len(made), written, unchanged, removed, new)


def _young(count: int) -> None:
    """Collect the young generations when ``count`` files have been written since the last
    ``YOUNG``-th (``write_site``, ``patch_site``)."""
    if count % YOUNG == 0:
        gc.collect(1)


def _finish(build: site_swap.Build, made: dict[str, str], record: Record | None) -> None:
    """Write the manifest (``made``: path -> SHA-256) and ``record`` (with the new site's
    ``states``) into the new site, and swap it in."""
    listing = "\n".join([MANIFEST_HEADER, *(f"{made[name]}  {name}"
                                            for name in sorted(made))]) + "\n"
    build.write_or_keep(MANIFEST, listing.encode("utf-8"))
    if record is not None:
        done = replace(record, files=states(build.staged()))
        build.write(RECORD, record_text(done))
    build.swap()


def _finish_over(build: site_swap.Build, manifest: dict[str, str | None], made: dict[str, str],
                 record: Record) -> None:
    """``_finish`` a build over a site the ``manifest`` lists, carrying what is not its own."""
    build.carry([name for name in build.found if name not in manifest
                 and name not in (MANIFEST, RECORD)])
    _finish(build, made, record)


def _cannot_write(exc: OSError, directory: Path) -> LedgerError:
    where = exc.filename or directory
    return LedgerError(f"site: cannot write {where}: {exc.strerror or exc}")


def as_recorded(directory: Path, record: Record) -> bool:
    """Whether the folder ``directory`` holds what ``record`` says the build left in it (no
    file added, removed, edited or touched: ``site_record.states``); one ``lstat`` per entry,
    no file read (``site_record.holds``)."""
    return holds(Path(os.path.realpath(directory)), record.files)


def refresh_site(directory: Path, record: Record,
                 redo: dict[str, Callable[[str], str | None]]) -> SiteWrite | None:
    """Give each page of ``redo`` (path -> a function from the page's text to its new text)
    its new text in the site in ``directory``, which a build left as ``record`` says, every
    other file kept as it is; the manifest and the record (``record``, its ``files`` filled
    in) updated. Checked under the build's lock: the folder as ``record`` says, each page of
    ``redo`` the build's own with the SHA-256 the manifest gives it; when not, or when a
    function gives None, nothing is written and the answer is None (a full build is then
    needed). Raises what ``write_site`` raises."""
    root = Path(os.path.realpath(directory))
    try:
        with site_swap.building(root) as build:
            manifest = read_manifest(root) if build.found else None
            if states(build.found) != record.files or manifest is None or None in \
                    manifest.values() or not set(redo) <= set(manifest):
                return None
            made = {name: str(digest) for name, digest in manifest.items()}
            changed: dict[str, bytes] = {}
            for name, again in redo.items():
                data = (root / name).read_bytes()
                text = again(data.decode("utf-8")) \
                    if hashlib.sha256(data).hexdigest() == made[name] else None
                if text is None:
                    return None
                changed[name] = text.encode("utf-8")
            for name in manifest:
                if name in changed:
                    build.write(name, changed[name])
                    made[name] = hashlib.sha256(changed[name]).hexdigest()
                else:
                    build.keep(name, None)
            _finish_over(build, manifest, made, record)
    except OSError as exc:
        raise _cannot_write(exc, directory) from None
    return SiteWrite(str(directory), len(made), len(redo), len(made) - len(redo), 0)


def patch_site(directory: Path, was: Record,
               files: Iterable[tuple[str, str | bytes | bytearray | Pieces]],
               costly: Iterable[Costly], record: Record) -> SiteWrite | None:
    """A scoped rebuild's write (``site_scope``): ``files`` ((path, text or bytes, or
    ``Pieces``) pairs, a part of the site's pages) into the site in ``directory``, which a
    build left as ``was`` says, every other file of the manifest kept as it is, with the new
    ``record`` (its ``files`` filled in). A page with the bytes the manifest gives it is kept
    (``Pieces`` are written as they are rendered, then taken back), another written; a page
    the manifest does not list is written where the folder has nothing; a ``costly`` file the
    manifest lists is kept (the same options, so the same signer), another made after the
    pages (written a piece at a time, ``Costly.pieces``, as ``write_site`` writes it: a list's
    bundle is never joined; made first, it left the process 270 MB larger at L). Checked
    under the build's lock as ``refresh_site`` checks; when the folder is not as ``was`` says
    or a new page's place is taken, nothing is written and the answer is None (a full build
    is then needed). Raises what ``write_site`` raises."""
    root = Path(os.path.realpath(directory))
    try:
        with paused_gc(), site_swap.building(root) as build:
            manifest = read_manifest(root) if build.found else None
            if states(build.found) != was.files or manifest is None or None in \
                    manifest.values():
                return None
            made = {name: str(digest) for name, digest in manifest.items()}
            changed: set[str] = set()
            made_new = [f for f in costly if f.name not in manifest]
            for count, (name, text) in enumerate(files, 1):
                _young(count)
                if name not in manifest and name in build.found:
                    return None
                if isinstance(text, Pieces):  # a long page, written as it is rendered
                    digest = build.put_parts(name, text.parts, made.get(name), link=False)
                    if made.get(name) != digest:
                        made[name] = digest
                        changed.add(name)
                    continue
                digest, data = site_swap.text_digest(text)
                if made.get(name) != digest:
                    build.write_text(name, text, data)
                    made[name] = digest
                    changed.add(name)
            for file in made_new:  # written a piece at a time when it comes so (a bundle)
                if file.name in build.found:
                    return None
                made[file.name] = build.write_pieces(
                    file.name, file.pieces() if file.pieces is not None else [file.make()])
                gc.collect(1)
                changed.add(file.name)
            for name in manifest:
                if name not in changed:
                    build.keep(name, None)
            _finish_over(build, manifest, made, record)
    except OSError as exc:
        raise _cannot_write(exc, directory) from None
    return SiteWrite(str(directory), len(made), len(changed), len(made) - len(changed), 0,
                     len(made_new))
