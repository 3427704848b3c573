"""Where each file of the club's website lives: paths relative to the site's folder, with "/"
separators, the same for the static build (``ledger site build``) and the live site (``ledger
serve``), and the relative link between two of them (``formats.site.model`` re-exports them).
"""

from __future__ import annotations


def list_path(pool: str, period: str, revision: int | None = None) -> str:
    """The page of the list published by closing ``period`` (YYYY-MM) in ``pool``:
    ``lists/standard/2026-10.html``; a superseded ``revision``: ``lists/standard/2026-10-r1.html``."""
    suffix = f"-r{revision}" if revision is not None else ""
    return f"lists/{pool}/{period}{suffix}.html"


def preview_path(pool: str) -> str:
    """The live page of the list closing ``pool``'s earliest open period would publish today
    (``ledger serve`` only: the static site has no preview): ``lists/standard/preview.html``."""
    return f"lists/{pool}/preview.html"


def bundle_path(pool: str, period: str, revision: int) -> str:
    """The bundle of a list revision (``ledger export bundle``: what ``ledger verify`` recounts
    the list from): ``bundles/standard-2026-10-r1.json``. A published revision never changes,
    nor does its bundle (but for a signature by another key)."""
    return f"bundles/{pool}-{period}-r{revision}.json"


#: The public key (PEM) of the key that signs the bundles, when the site is given one.
PUBLIC_KEY = "public-key.pem"


def player_path(player_id: int) -> str:
    """``players/12.html`` (the ledger's id: it never changes)."""
    return f"players/{player_id}.html"


def event_path(event_id: int) -> str:
    """``events/3.html``."""
    return f"events/{event_id}.html"


#: What a site page may load: its stylesheet and script, from the site's own folder.
SITE_POLICY = ("default-src 'none'; style-src 'self'; script-src 'self'; base-uri 'none'; "
               "form-action 'none'")

HOME, PLAYERS, EVENTS, STYLESHEET, SCRIPT = (
    "index.html", "players/index.html", "events/index.html", "site.css", "site.js")
#: The index of the rating lists: each pool with a published list, and every list of it.
LISTS = "lists/index.html"


def relative(page: str, target: str) -> str:
    """The link from ``page`` to ``target`` (both site paths, "/"-separated, without ``.`` or
    ``..``): ``relative("players/3.html", "lists/standard/2026-10.html") ==
    "../lists/standard/2026-10.html"``, ``relative("players/3.html", "players/9.html") ==
    "9.html"``."""
    here, there = page.split("/")[:-1], target.split("/")
    common = 0
    while common < len(here) and common < len(there) - 1 and here[common] == there[common]:
        common += 1
    return "../" * (len(here) - common) + "/".join(there[common:])
