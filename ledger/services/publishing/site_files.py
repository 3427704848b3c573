"""Writing a built site into its folder: only the files whose bytes changed, each whole or not at
all, and never anywhere it could do harm.

A site folder holds a manifest (``MANIFEST``: the files the last build wrote), so that a rebuild
can remove the pages the ledger no longer makes (a player merged away) and nothing else. A
folder is refused before anything is written when it is a file, when it holds files but no
manifest (someone else's folder), or when the ledger's own database lies inside it (a folder
that is published must never carry the ledger).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ledger.db.engine import sqlite_files
from ledger.errors import InvalidInput, LedgerError

#: The manifest's name, and its first line.
MANIFEST, MANIFEST_HEADER = ".ledger-site", "# files written by ledger site build"


@dataclass(frozen=True)
class SiteWrite:
    """What writing a site did: ``files`` it holds now (pages, stylesheet, script, sitemap),
    how many were ``written`` (new or changed), ``unchanged`` (the same bytes, left alone) and
    ``removed`` (made by an earlier build, no longer made)."""

    directory: str
    files: int
    written: int
    unchanged: int
    removed: int


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(folder))
    except ValueError:
        return False
    return True


def _manifest(directory: Path) -> list[str] | None:
    """The files the last build listed, or None when the folder has no manifest."""
    path = directory / MANIFEST
    if not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines[1:] if line and not line.startswith("#")]


def check_site_folder(directory: Path, ledger: str | None) -> None:
    """Refuse a site folder before anything is read or written: ``directory`` is a file (or
    anything but a folder), holds files but no manifest (it was not built by ``ledger site
    build``), lies under a file, or holds the ``ledger`` database (path or URL; None: none).
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
    if directory.is_dir() and _manifest(directory) is None and any(directory.iterdir()):
        raise InvalidInput(f"site: {directory} already holds files that ledger site build did "
                           f"not write (it has no {MANIFEST}); give an empty or a new folder")


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole: a temporary file beside it, renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_site(directory: Path, files: Iterable[tuple[str, str]]) -> SiteWrite:
    """Write ``files`` ((path inside the site, text) pairs, written as UTF-8) into
    ``directory`` (made when missing; ``check_site_folder`` first): a file whose bytes are
    already there is left alone; files an earlier build listed in the manifest and ``files``
    no longer holds are removed; the manifest is rewritten when the list changes. Raises
    ``LedgerError`` naming the file that cannot be written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        before = _manifest(directory) or []
        written = unchanged = 0
        paths: list[str] = []
        for name, text in files:
            paths.append(name)
            target = directory / name
            data = text.encode("utf-8")
            if target.is_file() and target.stat().st_size == len(data) and \
                    target.read_bytes() == data:
                unchanged += 1
                continue
            _write(target, data)
            written += 1
        kept = set(paths)
        removed = 0
        for name in before:
            stale = directory / name
            if name not in kept and stale.is_file() and _inside(stale, directory):
                stale.unlink()
                removed += 1
        listing = "\n".join([MANIFEST_HEADER, *sorted(paths)]) + "\n"
        manifest = directory / MANIFEST
        if not manifest.is_file() or manifest.read_text(encoding="utf-8") != listing:
            _write(manifest, listing.encode("utf-8"))
    except OSError as exc:
        where = exc.filename or directory
        raise LedgerError(f"site: cannot write {where}: {exc.strerror or exc}") from None
    return SiteWrite(str(directory), len(paths), written, unchanged, removed)
