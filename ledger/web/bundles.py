"""The lists' bundles on the live site (issue 24; docs/VERIFY.md "On the site"): each published
list revision's bundle at the path the static build writes it to (``bundles/POOL-PERIOD-rN.json``,
``formats.site.paths.bundle_path``), and, when the server is given a signing key, its public key
(``public-key.pem``).

Thin over ``services.publishing.bundles.kept_bundle``: a bundle is made on its first request
(some 20 seconds at size M) into the server's cache folder (``LEDGER_CACHE_DIR``: never a folder
anyone is served from) and kept there, named by the list revision, its stored list digest and
the signing key; every later request sends the file, with that name as its ETag (304 on
``If-None-Match``). A revision the ledger has not published is the 404 page.
"""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Blueprint, Response, current_app, request, send_file

from ledger.domain import POOLS, parse_pool
from ledger.formats import signatures
from ledger.formats.site.paths import PUBLIC_KEY
from ledger.services.publishing.bundles import kept_bundle
from ledger.web import SIGNING_KEY, public

blueprint = Blueprint("bundles", __name__)

#: The app's configuration naming the folder its bundles are kept in (``create_app``).
CACHE_DIR = "LEDGER_CACHE_DIR"

_NAME = re.compile(rf"({'|'.join(POOLS)})-(\d{{4}}-\d{{2}})-r([1-9][0-9]{{0,8}})")
#: One lock per bundle file: two requests for a bundle not made yet make it once.
_making: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
_making_lock = threading.Lock()


def signing_key() -> Ed25519PrivateKey | None:
    """The key this server signs its bundles with (None: it signs none)."""
    key: Ed25519PrivateKey | None = current_app.extensions.get(SIGNING_KEY)
    return key


@blueprint.get("/bundles/<name>.json")
def bundle(name: str) -> Response:
    """The bundle of a published list revision (``standard-2026-10-r1.json``), signed when
    the server has a key; the 404 page for any other name."""
    found = _NAME.fullmatch(name)
    if found is None:
        return public.not_found()
    pool, period, revision = parse_pool(found[1]), found[2], int(found[3])
    page = next((p for p in public.current().site.lists
                 if (p.pool, p.period, p.revision) == (pool, period, revision)), None)
    if page is None or page.digest is None or page.bundle is None:  # bundle None: withheld
        return public.not_found()
    with _making_lock:
        lock = _making[name]
    with lock:
        path = kept_bundle(current_app.extensions["ledger"], Path(current_app.config[CACHE_DIR]),
                           pool, period, revision, page.digest, signing_key())
    response = send_file(path, mimetype="application/json", etag=path.stem, conditional=True,
                         download_name=f"{name}.json", max_age=None)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blueprint.get(f"/{PUBLIC_KEY}")
def public_key() -> Response:
    """The public key (PEM) that checks the bundles' signatures; the 404 page when the server
    signs none."""
    key = signing_key()
    if key is None:
        return public.not_found()
    response = Response(signatures.public_pem(key), content_type="application/x-pem-file")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    response.make_conditional(request)
    return response
