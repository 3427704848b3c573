"""``ledger serve``: the ledger on the web (issue 23), the application of ``ledger.web`` served by
waitress on one machine (a club's one PC). A federation on PostgreSQL with several workers runs
the same application under gunicorn instead (docs/serve.md)."""

from __future__ import annotations

import ipaddress
import os
import re
import signal
from pathlib import Path
from typing import Annotated

import typer

from ledger.cli import publish
from ledger.cli.common import db_of, reports_errors
from ledger.cli.render.output import aside, error
from ledger.config import SIGNING_KEY_ENV

#: Where the secret file of a ledger named by URL is kept: ``$XDG_CONFIG_HOME/ledger/``.
CONFIG_ENV = "XDG_CONFIG_HOME"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine only: ``localhost``, any
    127.x.x.x address, ``::1``."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def default_secret_file(db: str) -> Path:
    """The server's secret file for the ledger ``db``: beside a SQLite file (``club.db`` ->
    ``club.db.secret``); for a URL, ``$XDG_CONFIG_HOME/ledger/DATABASE.secret`` (default
    ``~/.config``; DATABASE the URL's database name, any character but letters, digits, ``.``,
    ``_`` and ``-`` as ``_``)."""
    if "://" not in db:
        path = Path(db)
        return path.with_name(path.name + ".secret")
    from sqlalchemy.engine import make_url  # only for a URL
    name = make_url(db).database or "ledger"
    config = os.environ.get(CONFIG_ENV) or str(Path.home() / ".config")
    return Path(config) / "ledger" / (re.sub(r"[^\w.-]", "_", Path(name).name) + ".secret")


@reports_errors
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(
        "--host", help="The address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The TCP port to listen on (0: any free port; "
                                      "the log says which).", min=0, max=65535)] = 8000,
    club: Annotated[str | None, typer.Option(
        "--club", help=f"Club name heading every page (default: ${publish.CLUB_ENV}).")] = None,
    secret_file: Annotated[Path | None, typer.Option(
        "--secret-file", help="The file holding the key that signs forms (made when missing, "
        "mode 600; default: beside a SQLite ledger, LEDGER.secret, else "
        "$XDG_CONFIG_HOME/ledger/).", dir_okay=False, show_default=False)] = None,
    insecure_cookies: Annotated[bool, typer.Option(
        "--insecure-cookies", metavar="", help="Send cookies over plain HTTP too (only with a "
        "loopback --host: a server behind no TLS, for this machine).")] = False,
    threads: Annotated[int, typer.Option(
        "--threads", help="Requests answered at the same time.", min=1, max=64)] = 4,
    proxies: Annotated[int | None, typer.Option(
        "--proxies", help="Reverse proxies in front of the server, trusted for the client's "
        "address (X-Forwarded-For); only behind them (default: $LEDGER_PROXIES, else 0).",
        min=0, show_default=False)] = None,
    key: Annotated[Path | None, typer.Option(
        "--key", help=f"Sign the lists' bundles with this private key (ledger keys init) and "
        f"publish its public key at /public-key.pem (default: ${SIGNING_KEY_ENV}, else "
        "unsigned).", dir_okay=False, show_default=False, envvar=SIGNING_KEY_ENV)] = None,
    cache_dir: Annotated[Path | None, typer.Option(
        "--cache-dir", help="Where the lists' bundles are kept once made (default: beside a "
        "SQLite ledger, LEDGER.cache, else $XDG_CACHE_HOME/ledger/).", file_okay=False,
        show_default=False)] = None,
) -> None:
    """Serve the ledger on the web: the live site, the JSON API, logins, submissions.

    Answers until stopped (Ctrl-C). The CLI keeps working beside it on the same ledger.
    """
    if insecure_cookies and not is_loopback(host):
        error(f"--insecure-cookies: only for a server on this machine (--host 127.0.0.1); "
              f"{host} is reached by others, whose cookies must go over HTTPS only")
        raise typer.Exit(2)
    import waitress  # the server, its application and the database layer: only now

    from ledger.db.engine import shown_db
    from ledger.services.core.session import open_ledger
    from ledger.web import create_app, read_secret
    from ledger.web.auth import PROXIES

    db = db_of(ctx)
    open_ledger(db).dispose()  # a ledger to serve (NeedsInit, exit 4), before a secret is made
    secret_path = secret_file or default_secret_file(db)
    secret = read_secret(secret_path)
    app = create_app(db, secret=secret, club=publish.club_name(club),
                     insecure_cookies=insecure_cookies,
                     settings=None if proxies is None else {PROXIES: proxies},
                     signing_key=key, cache_dir=cache_dir)
    trusted = app.config[PROXIES]
    # waitress drops X-Forwarded-For before the application sees it unless told to keep it:
    # behind trusted proxies it is kept, and the application reads it (web.auth.address)
    server = waitress.create_server(app, host=host, port=port, threads=threads,
                                    ident="ledger", clear_untrusted_proxy_headers=not trusted)
    listening = getattr(server, "effective_port", port)
    where = f"http://{'[' + host + ']' if ':' in host else host}:{listening}/"
    aside(f"ledger serve: the ledger {shown_db(db)} on {where} ({threads} threads); "
          f"secret file {secret_path}")
    aside(f"the lists' bundles are kept in {app.config['LEDGER_CACHE_DIR']}"
          + (f", signed with {key}" if key is not None else ""))
    if insecure_cookies:
        aside("--insecure-cookies: cookies are sent over plain HTTP (no TLS): for this machine "
              "only")
    if trusted:
        aside(f"trusting {trusted} reverse prox{'y' if trusted == 1 else 'ies'} in front: the "
              "client's address is read from X-Forwarded-For (right only behind them)")
    aside("stop it with Ctrl-C")
    signal.signal(signal.SIGTERM, _interrupt)  # a service manager's stop: as Ctrl-C
    try:
        server.run()  # returns on Ctrl-C (waitress closes its sockets)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        app.extensions["ledger"].dispose()
    aside("ledger serve: stopped")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
