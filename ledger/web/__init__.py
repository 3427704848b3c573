"""``ledger serve``: the ledger on the web (issue 23), a Flask 3 WSGI application over the same
services as the CLI (synchronous SQLAlchemy, so synchronous WSGI), served by waitress (``ledger
serve``) or gunicorn (``gunicorn 'ledger.web:app_from_environment()'``).

The face is thin: each blueprint module (``BLUEPRINTS``) turns requests into service calls and
service results into pages of the site's templates (``formats.site``) or JSON in the CLI's
``--json`` shapes. Who may do what is ``web.access`` (one table, one check); the account, its
session and login throttling are ``services.accounts`` behind ``web.auth``.

Security (OWASP ASVS 5.0 level 1 where it applies): every change is a POST with a CSRF token
(Flask-WTF's ``CSRFProtect``, on for every POST); the response headers of ``_headers`` on every
answer; request bodies limited (``MAX_REQUEST_BYTES``: an upload of 10 MB and its form).
"""

from __future__ import annotations

import os
import re
import stat
from importlib import import_module
from pathlib import Path
from typing import Any

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect

from ledger.errors import InvalidInput
from ledger.formats import signatures
from ledger.services.core.session import open_ledger
from ledger.services.submissions.checking import UPLOAD_LIMIT as UPLOAD_LIMIT  # re-exported

#: The blueprint modules under ``ledger.web``, each with a ``blueprint``, registered in order.
BLUEPRINTS: tuple[str, ...] = ("auth", "public", "bundles", "api", "pickers", "submissions",
                               "officer", "officer_corrections", "officer_events", "admin", "typed")

#: The largest request body: one upload and the rest of its form.
MAX_REQUEST_BYTES = UPLOAD_LIMIT + 64 * 1024

#: Every answer's Content-Security-Policy: nothing inline, nothing from elsewhere, no framing.
POLICY = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")

#: The environment variables ``app_from_environment`` reads (gunicorn has no options of ours).
SECRET_FILE_ENV = "LEDGER_SECRET_FILE"
INSECURE_COOKIES_ENV = "LEDGER_INSECURE_COOKIES"
CACHE_DIR_ENV = "LEDGER_CACHE_DIR"
#: Where an app keeps the private key that signs its bundles (``app.extensions``; None: none).
SIGNING_KEY = "ledger.signing_key"
#: Where the cache of a ledger named by URL is kept: ``$XDG_CACHE_HOME/ledger/``.
CACHE_HOME_ENV = "XDG_CACHE_HOME"


def _headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def read_secret(path: str | Path, *, create: bool = True) -> bytes:
    """The key that signs the CSRF tokens, from ``path``: made (32 random bytes, hex, mode
    0600) when missing and ``create``. Every worker of one server must read the same file.

    Raises ``InvalidInput`` (exit 1) when the file can be read by its group or others, is not
    a regular file, or holds fewer than 32 characters."""
    file = Path(path)
    if not file.exists() and create:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(os.urandom(32).hex() + "\n")
    try:
        info = file.stat()
    except OSError as exc:
        raise InvalidInput(f"{file}: cannot read the server's secret file ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise InvalidInput(f"{file}: the server's secret file is not a regular file")
    if info.st_mode & 0o077:
        raise InvalidInput(f"{file}: the server's secret file can be read by others "
                           f"(mode {stat.S_IMODE(info.st_mode):o}): chmod 600 {file}")
    secret = file.read_text(encoding="ascii").strip()
    if len(secret) < 32:
        raise InvalidInput(f"{file}: the server's secret file holds fewer than 32 characters")
    return secret.encode("ascii")


def default_cache_dir(db: str) -> Path:
    """The folder the server keeps what it makes once (the lists' bundles) for the ledger
    ``db``: beside a SQLite file (``club.db`` -> ``club.db.cache``); for a URL,
    ``$XDG_CACHE_HOME/ledger/DATABASE`` (default ``~/.cache``; DATABASE the URL's database
    name, any character but letters, digits, ``.``, ``_`` and ``-`` as ``_``). Never a folder
    the server serves files from (it serves none)."""
    if "://" not in db:
        path = Path(db)
        return path.with_name(path.name + ".cache")
    from sqlalchemy.engine import make_url  # only for a URL
    name = make_url(db).database or "ledger"
    home = os.environ.get(CACHE_HOME_ENV) or str(Path.home() / ".cache")
    return Path(home) / "ledger" / re.sub(r"[^\w.-]", "_", Path(name).name)


def create_app(db: str, *, secret: bytes, club: str = "Chess club",
               insecure_cookies: bool = False, settings: dict[str, Any] | None = None,
               signing_key: Path | None = None, cache_dir: Path | None = None) -> Flask:
    """The application serving the ledger at ``db`` (path or URL; opened with
    ``services.core.session.open_ledger``, so ``NeedsInit``/``LedgerError`` as there).

    ``secret``: the key of ``read_secret``; ``club`` heads every page; ``insecure_cookies``
    lets cookies go over plain HTTP without the ``__Host-`` prefix and ``Secure`` (only for a
    server on the loopback address; ``ledger serve`` says so in its log); ``signing_key``: the
    private key that signs the lists' bundles (``web.bundles``; its public key is published;
    ``KeyFileError`` when it cannot be used); ``cache_dir``: where the bundles are kept
    (default ``default_cache_dir``); ``settings`` overrides Flask's configuration (tests)."""
    app = Flask(__name__)
    secure = not insecure_cookies
    app.config.update(
        SECRET_KEY=secret,
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        SESSION_COOKIE_NAME="__Host-ledger-form" if secure else "ledger-form",
        SESSION_COOKIE_SECURE=secure,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_PATH="/",
        WTF_CSRF_TIME_LIMIT=None,
        LEDGER_CLUB=club,
        LEDGER_SECURE_COOKIES=secure,
        LEDGER_CACHE_DIR=os.path.abspath(cache_dir or default_cache_dir(db)),
    )
    app.config.update(settings or {})
    app.extensions[SIGNING_KEY] = (
        None if signing_key is None else signatures.load_private(signing_key))
    app.extensions["ledger"] = open_ledger(db)
    CSRFProtect(app)
    app.after_request(_headers)
    for name in BLUEPRINTS:
        app.register_blueprint(import_module(f"ledger.web.{name}").blueprint)
    return app


def app_from_environment() -> Flask:
    """The application as gunicorn starts it: the ledger of ``$LEDGER_DB``, the secret file of
    ``$LEDGER_SECRET_FILE`` (required, not created: ``ledger serve`` or the guide makes it),
    the club of ``$LEDGER_CLUB``; ``$LEDGER_INSECURE_COOKIES=1`` only behind no TLS; the key
    of ``$LEDGER_SIGNING_KEY`` signs the bundles (none: unsigned), kept in
    ``$LEDGER_CACHE_DIR`` (default ``default_cache_dir``)."""
    from ledger.config import SIGNING_KEY_ENV, resolve_db

    secret_file = os.environ.get(SECRET_FILE_ENV)
    if not secret_file:
        raise InvalidInput(f"${SECRET_FILE_ENV} must name the server's secret file")
    return create_app(resolve_db(None), secret=read_secret(secret_file, create=False),
                      club=os.environ.get("LEDGER_CLUB") or "Chess club",
                      insecure_cookies=os.environ.get(INSECURE_COOKIES_ENV) == "1",
                      signing_key=_path_in(SIGNING_KEY_ENV), cache_dir=_path_in(CACHE_DIR_ENV))


def _path_in(variable: str) -> Path | None:
    value = os.environ.get(variable)
    return Path(value) if value else None
