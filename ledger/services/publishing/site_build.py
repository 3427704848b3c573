"""``ledger site build``: check the options and the folder, then gather the site
(``site_slices.sliced_site``: a slice of players at a time), render it (``formats.site.pages``)
and write the files that changed (``site_files``), with the build's record (``site_record``),
unless the record says nothing changed since the last build (or a scoped rebuild,
``site_scope``, serves).
"""

from __future__ import annotations

import codecs
import datetime as dt
import hashlib
import itertools
import os
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import ledger
from ledger.errors import InvalidInput, shown
from ledger.formats import signatures
from ledger.formats.site.joined import Pieces
from ledger.formats.site.lead import redate_home
from ledger.formats.site.model import Site
from ledger.formats.site.pages import list_neighbours, list_parts, relinked_list
from ledger.formats.site.paths import HOME, PUBLIC_KEY
from ledger.services.core.session import Ledger, transaction
from ledger.services.publishing.bundles import site_bundles
from ledger.services.publishing.marks import change_mark
from ledger.services.publishing.site_files import (
    SiteWrite,
    as_recorded,
    check_site_folder,
    listed_files,
    patch_site,
    refresh_site,
    write_site,
)
from ledger.services.publishing.site_record import Record, Stamp, read_record
from ledger.services.publishing.site_scope import (
    Scope,
    relinked_lists,
    scope_since,
    scoped_site,
)
from ledger.services.publishing.site_slices import Handed, sliced_site
from ledger.services.publishing.site_swap import work_folder
from ledger.services.register.games import parse_date


def base_url(text: str | None) -> str | None:
    """``--base-url``: an absolute http or https address, ending in "/" (added when missing);
    None stays None. Raises ``InvalidInput`` for anything else (no scheme or host, another
    scheme, a query or fragment, blanks or control characters, a quote, ``<`` or ``>``: it is
    written into the pages' attributes and the sitemap, where those end what holds it)."""
    if text is None:
        return None
    value = text.strip()
    parts = urlsplit(value)
    if (parts.scheme not in ("http", "https") or not parts.netloc or parts.query
            or parts.fragment or re.search(r"[\s\x00-\x1f\x7f\"'<>`\\]", value)):
        raise InvalidInput(f"base-url: {shown(text)} is not a web address; write it like "
                           "https://club.example/ratings/")
    return value if value.endswith("/") else value + "/"



@dataclass(frozen=True)
class SiteBuild:
    """What ``build_site`` did: the files written and left alone (``files``; its ``made``: the
    bundles made, the others kept), and what the site holds (lists, players, tournaments,
    bundles); ``unchanged_since``: the ledger's change the folder was already built from, when
    the build found nothing changed since (None: it gathered the site)."""

    files: SiteWrite
    lists: int
    players: int
    events: int
    built_on: dt.date
    bundles: int = 0
    unchanged_since: int | None = None


def build_site(engine: Ledger, directory: str | Path, *, club: str, base_url_text: str | None,
               date: str | None, ledger: str | None, today: dt.date | None = None,
               bundles: bool = True, key: Path | None = None) -> SiteBuild:
    """``ledger site build DIR``: check the options and the folder, gather the site
    (``site_slices.sliced_site``: the pages of a slice of players, or of a few events, at a
    time, each rendered and written before the next is gathered), render it and write the
    files that changed (``site_files.write_site``), with the build's record (``site_record``).

    A folder whose record says it was built from the ledger's latest change
    (``marks.change_mark``, read before gathering, so a write during the build only makes the
    next build gather again), by this version, with the same club and base URL, and which
    holds what the record says (``site_files.as_recorded``), is not gathered again: with the
    same build date nothing is written at all; with another, only the home page, the one page
    that shows the date, gets its new date (``lead.redate_home``, ``site_files.refresh_site``).
    Anything else (no record, a file edited, added or removed, another version or option, a
    new change) is the full build. (A build that died beside the folder is cleared first:
    then the unchanged site is swapped in again, nothing rendered.)

    ``date`` (YYYY-MM-DD) is the build date shown on the home page (default ``today``, else
    the clock's); ``ledger`` the open ledger's database (path or URL), which the folder must
    not hold. ``bundles``: write each list revision's bundle (``bundles.site_bundles``; a bundle the
    folder already holds for that revision, with its list digest and signed by the same key,
    is kept, not made again); ``key``: the private key (``ledger keys init``) that signs them,
    whose public key the site publishes (``paths.PUBLIC_KEY``). Raises ``InvalidInput``
    (nothing written) for a bad date or base URL, a folder that is a file, holds someone
    else's files or holds the ledger, a key that cannot be used (``KeyFileError``);
    ``LedgerError`` when a file cannot be written."""
    built_on = parse_date(date, "date") if date is not None else today or dt.date.today()
    address = base_url(base_url_text)
    private = signatures.load_private(key) if key is not None and bundles else None
    folder = Path(directory)
    check_site_folder(folder, ledger)
    stamp = Stamp(*change_mark(engine), _version(), club, address, built_on.isoformat(),
                  _bundles_mark(bundles, private))
    done = _unchanged(folder, stamp)
    if done is not None:
        return done
    signed = private is not None
    scope = _scope(engine, folder, stamp)
    if scope is not None:
        with scoped_site(engine, scope[1], club=club, built_on=built_on, base_url=address,
                         bundles=bundles, public_key=signed) as handed:
            written = _write(engine, folder, stamp, handed, private, scope[0], scope[1].closed)
        if written is not None:
            return written
    with sliced_site(engine, club=club, built_on=built_on, base_url=address, bundles=bundles,
                     public_key=signed) as handed:
        full = _write(engine, folder, stamp, handed, private)
    assert full is not None  # write_site answers or raises
    return full


def _write(engine: Ledger, folder: Path, stamp: Stamp, handed: Handed,
           private: Ed25519PrivateKey | None, record: Record | None = None,
           closed: Collection[tuple[str, str]] = ()) -> SiteBuild | None:
    """Write the site and files ``handed`` (``site_slices.Handed``: every file rendered as it
    is asked for), taken out of it here and held no longer than its files need it (the
    bundles, made after the pages, then have its memory), with its record: every page
    (``site_files.write_site``), or, with ``record``, a scoped rebuild's pages, the others kept
    as ``record`` says the folder holds them (``site_files.patch_site``); None when the scoped
    write found the folder not as ``record`` says. ``closed``: the lists (pool, period) the
    scoped rebuild publishes; the pages of the folder that were the latest of their pool before
    them are given the link to the next list in their bytes (``site_scope.relinked_lists``,
    ``_relinked``)."""
    site, pages = handed.take()
    del handed
    files: Iterator[tuple[str, str | bytes | bytearray | Pieces]] = pages
    relinked = relinked_lists(site.lists, closed)
    if relinked:
        files = itertools.chain(files, _relinked(folder, site, relinked))
    if private is not None:
        files = itertools.chain(files, [(PUBLIC_KEY, signatures.public_pem(private).decode())])
    costly = site_bundles(engine, site.lists, private)
    counts = (len(site.lists), len(site.players), len(site.events))
    del site  # the files hold it while they need it
    done = Record(stamp, *counts, len(costly), {})
    written = write_site(folder, files, costly, done) if record is None else \
        patch_site(folder, record, files, costly, done)
    if written is None:
        return None
    return SiteBuild(written, *counts, dt.date.fromisoformat(stamp.built_on), len(costly))


#: The bytes at the end of a list page read for its links to the lists beside it (``_relinked``).
TAIL = 1 << 16
#: The bytes of a relinked list page read (and decoded) at a time.
CHUNK = 1 << 20


def _relinked(folder: Path, site: Site, paths: frozenset[str]) -> Iterator[tuple[str, Pieces]]:
    """The list pages of ``site`` at ``paths``, which ``folder`` holds as the latest lists of
    their pools, with their links to the lists after them (``pages.relinked_list``), as
    ``Pieces``: read as they are asked for (under the scoped write's lock), each rendered whole
    when its bytes do not end as the page of a latest list does. A page's last ``TAIL`` or so
    bytes (from a line's start) only are decoded and relinked, and the bytes before them read,
    decoded and written ``CHUNK`` at a time: an 80 MB list page of names with accents is a
    160 MB text, which the relinking copied three times, and then held its 80 MB of bytes, the
    peak of the rebuild after a close at L (1,032 MB of 1,057)."""
    for page in site.lists:
        if page.path in paths:
            neighbours = list_neighbours(site, page)
            with open(folder / page.path, "rb") as handle:
                cut = _line_before(handle, os.fstat(handle.fileno()).st_size - TAIL)
                handle.seek(cut)
                tail = relinked_list(handle.read().decode("utf-8"), page.path,
                                     (neighbours[0], None), neighbours)
            yield page.path, Pieces(list_parts(site, page, neighbours) if tail is None
                                    else itertools.chain(_head(folder / page.path, cut), [tail]))


def _line_before(handle: BinaryIO, end: int) -> int:
    """The offset in ``handle``'s file of its last newline before ``end`` (0: none), read
    ``TAIL`` bytes at a time backwards."""
    while end > 0:
        start = max(end - TAIL, 0)
        handle.seek(start)
        at = handle.read(end - start).rfind(b"\n")
        if at >= 0:
            return start + at
        end = start
    return 0


def _head(path: Path, size: int) -> Iterator[str]:
    """The first ``size`` bytes of the file ``path`` (a line's end), decoded ``CHUNK`` at a
    time. Raises ``OSError`` when it holds fewer."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    with open(path, "rb") as handle:
        while size > 0:
            block = handle.read(min(size, CHUNK))
            if not block:
                raise OSError(f"{path} was cut short")
            size -= len(block)
            yield decoder.decode(block)
    yield decoder.decode(b"", final=True)


def _scope(engine: Ledger, folder: Path, stamp: Stamp) -> tuple[Record, Scope] | None:
    """The folder's record and the pages the changes since it touched (``site_scope``), when
    a scoped rebuild can serve: the folder built by this version with the same options (the
    build date aside), as its record says, and every change since a close or a recording of
    games; None: the full build."""
    record = read_record(folder)
    if record is None or replace(record.stamp, change=stamp.change, hash=stamp.hash,
                                 built_on=stamp.built_on) != stamp \
            or record.stamp.change >= stamp.change or not as_recorded(folder, record):
        return None
    with transaction(engine, write=False) as session:
        scope = scope_since(session, record.stamp.change, record.stamp.hash)
    return None if scope is None else (record, scope)


def _bundles_mark(bundles: bool, private: Ed25519PrivateKey | None) -> str:
    """The record's mark of the bundles a build writes (``site_record.Stamp.bundles``)."""
    if not bundles:
        return "none"
    if private is None:
        return "unsigned"
    return "signed " + hashlib.sha256(signatures.public_pem(private)).hexdigest()


def _version() -> str:
    """The package's version, which a build records (``build_site`` has a ``ledger`` of its
    own: the database)."""
    return ledger.__version__


def _unchanged(folder: Path, stamp: Stamp) -> SiteBuild | None:
    """The build of ``folder`` when its record shows the site of ``stamp`` (``build_site``),
    with at most the home page given its new date; None when the full build is needed."""
    record = read_record(folder)
    if record is None or not record.stamp.same_site(stamp) or not as_recorded(folder, record):
        return None
    built_on, was = (dt.date.fromisoformat(s.built_on) for s in (stamp, record.stamp))
    again = replace(record, stamp=stamp)
    if built_on == was and not os.path.lexists(work_folder(Path(os.path.realpath(folder)))):
        files = listed_files(folder)
        written: SiteWrite | None = SiteWrite(str(folder), files, 0, files, 0)
    else:  # another date, or what a build that died left beside the folder to clear
        redo = {HOME: lambda text: redate_home(text, was, built_on)} if built_on != was else {}
        written = refresh_site(folder, again, redo)
    if written is None:
        return None
    return SiteBuild(written, record.lists, record.players, record.events, built_on,
                     record.bundles, stamp.change)
