"""What a site build records in its folder so that the next build can tell that nothing changed:
``.ledger-site.json`` (``RECORD``, linked from no page), written with the manifest just before
the swap.

It holds the ledger's mark when the build began (``marks.change_mark``: the id of the latest
change a page may show and its chain hash), the package's version, the build's options (club,
base URL, build date, the bundles: none, unsigned or signed by which key), what the site held
(lists, players, tournaments, bundles: the numbers a build reports) and ``files``: every entry
of the new site but the record itself, path -> its state
(``states``: a regular file's size and modification time in nanoseconds, a link's target, a
folder as one). Reading it back (``read_record``) gives None for anything but a record of this
format (missing, a link, unreadable, another shape): the full build then.

Why the change id is enough (``marks.latest_change``): every write of the ledger through its
services (games, players, events, imports, closes, re-ratings, corrections, accepted
submissions) records a change in its own writing transaction, and writing transactions take the
ledger's write lock when they begin, so change ids are committed in increasing order and a
later write always has a larger id than the one recorded. The chain hash tells apart two
ledgers (another database, a backup put back) that happen to stand at the same id. A change made
by raw SQL, without a change entry, is not seen and need not be: it is outside what the ledger
supports (``ledger db check`` finds the fact rows a chained change wrote altered); a full build
is had by removing the record. Likewise a change to the pages' code under the same version (a
developer's tree): the version is the only mark of the code that is recorded.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ledger.services.core.bulk import paused_gc

#: The record's name in the site folder, and the shape of its content.
RECORD, FORMAT = ".ledger-site.json", 1


@dataclass(frozen=True)
class Stamp:
    """What a build is of: the ledger's latest shown change (``change``, its ``hash``; 0 and
    None for a ledger without one), the package ``version`` and the options (``club``,
    ``base_url``: None when not given, ``built_on``: YYYY-MM-DD, ``bundles``: "none" with
    ``--no-bundles``, "unsigned", or "signed " and the SHA-256 of the public key's PEM)."""

    change: int
    hash: str | None
    version: str
    club: str
    base_url: str | None
    built_on: str
    bundles: str

    def same_site(self, other: Stamp) -> bool:
        """The same ledger state, version and options, the build date aside."""
        return (self.change, self.hash, self.version, self.club, self.base_url,
                self.bundles) == (other.change, other.hash, other.version, other.club,
                                  other.base_url, other.bundles)


@dataclass(frozen=True)
class Record:
    """A build's record: its ``stamp``, the numbers of ``lists``, ``players`` and ``events``
    it wrote pages for and of list ``bundles``, and the ``files`` of the folder as it left it
    (``states``)."""

    stamp: Stamp
    lists: int
    players: int
    events: int
    bundles: int
    files: dict[str, list[Any]]


def states(found: dict[str, os.stat_result]) -> dict[str, list[Any]]:
    """The state of each entry of ``found`` (``site_swap.survey``) but the record: ``["f",
    size, mtime_ns, inode]`` for a regular file, ``["l", size]`` for a symbolic link, ``["d"]``
    for a folder (its times move with what it holds and the swap: not recorded), ``["o"]`` for
    anything else. A file edited by hand gets another time (and mostly another size; an
    editor that writes a new file and renames it, another inode). Not the change time, which
    moves when the next build links the file into its new site and removes the old tree. On a
    file system with coarse times (FAT: 2 s) an edit keeping the size within the same tick
    goes unseen."""
    return {name: state(entry) for name, entry in found.items() if name != RECORD}


def state(entry: os.stat_result) -> list[Any]:
    """The state ``states`` records of one entry, from its ``lstat``."""
    mode = entry.st_mode
    return (["f", entry.st_size, entry.st_mtime_ns, entry.st_ino] if stat.S_ISREG(mode)
            else ["l", entry.st_size] if stat.S_ISLNK(mode)
            else ["d"] if stat.S_ISDIR(mode) else ["o"])


def holds(root: Path, files: dict[str, list[Any]]) -> bool:
    """Whether the folder ``root`` holds what ``files`` (a record's ``states``) says: the same
    answer as ``states(site_swap.survey(root)) == files``, one ``lstat`` per entry and no file
    read, without making either, the cyclic collector paused (``bulk.paused_gc``: none of the
    objects a file are in a cycle); at 200,000 files 1.25 -> 0.85 CPU s with ``read_record``.
    False, too, for a folder inside on another file system (``survey`` raises for it, in the
    build that follows)."""
    try:
        device = os.lstat(root).st_dev
    except FileNotFoundError:
        return not files
    seen, folders = 0, [""]
    with paused_gc():
        while folders:
            inside = folders.pop()
            with os.scandir(os.path.join(root, inside)) as entries:
                for entry in entries:
                    name = f"{inside}/{entry.name}" if inside else entry.name
                    if name == RECORD:
                        continue
                    want = files.get(name)
                    if want is None:
                        return False
                    found = entry.stat(follow_symlinks=False)
                    if want != state(found):
                        return False
                    if stat.S_ISDIR(found.st_mode):
                        if found.st_dev != device:
                            return False
                        folders.append(name)
                    seen += 1
    return seen == len(files)


def record_text(record: Record) -> bytes:
    """The record as written: JSON, keys sorted, one file a line."""
    s = record.stamp
    head = {"format": FORMAT, "change": s.change, "hash": s.hash, "version": s.version,
            "club": s.club, "base_url": s.base_url, "built_on": s.built_on,
            "bundles": s.bundles, "lists": record.lists, "players": record.players,
            "events": record.events, "bundle_files": record.bundles}
    files = ",\n".join(f"  {_name_json(name)}: {_state_json(state)}"
                       for name, state in sorted(record.files.items()))
    text = json.dumps(head, sort_keys=True, ensure_ascii=False)[:-1]
    return f'{text}, "files": {{\n{files}\n}}}}\n'.encode()


def _name_json(name: str) -> str:
    """``json.dumps(name)``, written directly for a name of printable ASCII without a quote or
    a backslash (every page's: 20,000 at M, 200,000 at L)."""
    if name.isascii() and name.isprintable() and '"' not in name and "\\" not in name:
        return f'"{name}"'
    return json.dumps(name)


def _state_json(state: list[Any]) -> str:
    """``json.dumps(state)``, written directly for a regular file's ``["f", size, mtime_ns,
    inode]`` of plain integers."""
    if len(state) == 4 and state[0] == "f" and type(state[1]) is int \
            and type(state[2]) is int and type(state[3]) is int:
        return f'["f", {state[1]}, {state[2]}, {state[3]}]'
    return json.dumps(state)


def read_record(root: Path) -> Record | None:
    """The record in the site folder ``root``; None when there is none of this ``FORMAT`` (no
    regular file, unreadable, not JSON, another shape)."""
    path = root / RECORD
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        with paused_gc():
            data = json.loads(path.read_bytes())
        stamp = Stamp(int(data["change"]), data["hash"], str(data["version"]), str(data["club"]),
                      data["base_url"], str(data["built_on"]), str(data["bundles"]))
        files = data["files"]
        if data["format"] != FORMAT or not isinstance(files, dict) or not all(
                isinstance(v, list) for v in files.values()):
            return None
        return Record(stamp, int(data["lists"]), int(data["players"]), int(data["events"]),
                      int(data["bundle_files"]), files)
    except (OSError, ValueError, KeyError, TypeError):
        return None
