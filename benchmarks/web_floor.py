"""The web benchmark's floor: ``python -m benchmarks.web_floor bare|flask [URL] [--seconds N]``.

Issue 23. ``benchmarks.web``'s readers (50, no submitters) against gunicorn (4 workers x 4
threads) serving pages that cost nothing: ``bare``, a WSGI function answering the list page's
and a player page's sizes (213 KB, 9 KB) from memory; ``flask``, the ledger's own application
(at ``URL``, a PostgreSQL ledger; nothing is read from it) answering every path with the kept
``/site.css`` (no database read, nothing rendered). Printed: pages a second, p50 and p99 per
kind, the server's and the client's CPU per page, the load average: what no page can beat on
this machine. Not appended to RESULTS.md (copied there by hand with its conditions).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from benchmarks import web
from benchmarks.__main__ import percentile

BIG, SMALL = b"x" * 213_386, b"y" * 8_866


def bare(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """The list page's or a player page's size, from memory."""
    body = BIG if environ["PATH_INFO"].startswith("/lists/") else SMALL
    start_response("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(body)))])
    return [body]


def flask() -> Callable[..., Iterable[bytes]]:
    """The ledger's application of ``$LEDGER_DB``, every path answered as ``/site.css``."""
    from ledger.web import create_app
    app = create_app(os.environ["LEDGER_DB"], secret=os.urandom(32), insecure_cookies=True)

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        environ["PATH_INFO"] = "/site.css"
        return app(environ, start_response)
    return serve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("server", choices=("bare", "flask"))
    parser.add_argument("url", nargs="?", help="with flask: a PostgreSQL ledger's URL")
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    if args.server == "flask" and not args.url:
        parser.error("flask needs the URL of a ledger")
    port = web.free_port()
    app = "benchmarks.web_floor:bare" if args.server == "bare" else "benchmarks.web_floor:flask()"
    root = str(Path(__file__).resolve().parent.parent)
    env = os.environ | {"PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]),
                        "LEDGER_DB": args.url or ""}
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "-w", "4",
                               "--threads", "4", "-b", f"127.0.0.1:{port}", app],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        web.warm_up(port, ["/lists/standard/2026-09.html", "/players/1.html"], 4)
        kinds, c = web.measured(server, lambda: web.load(port, 20_000, "2026-09", [],
                                                         args.readers, args.seconds))
    finally:
        server.terminate()
        server.wait(30)
    pages = sum(len(kind.seconds) for kind in kinds.values())
    print(f"{args.server}: load average {c.load_before:.1f} -> {c.load_after:.1f}; "
          f"{pages / c.seconds:.0f} pages a second; CPU a page: server "
          f"{c.server_cpu * 1000 / pages:.2f} ms, client {c.client_cpu * 1000 / pages:.2f} ms")
    for name in ("list page", "player page"):
        ms = [s * 1000 for s in kinds[name].seconds]
        print(f"{name}: {len(ms)}, p50 {statistics.median(ms):.1f} ms, "
              f"p99 {percentile(ms, 99):.1f} ms, errors {kinds[name].errors}")


if __name__ == "__main__":
    main()
