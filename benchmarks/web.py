"""The web's load benchmark: ``python -m benchmarks.web [--size S|M] [--db URL] [--seconds N]``.

Issue 23. A synthetic federation (``benchmarks.federation``) is loaded and its month closed
through the CLI, as ``python -m benchmarks`` does; reporters are added with ``ledger user add``;
then the server is started as a real process on a loopback port: on SQLite ``ledger serve``
(waitress), on PostgreSQL (``--db URL``) gunicorn with ``--workers`` workers
(``ledger.web:app_from_environment()``). After a warm-up (every worker gathers the site once),
``--readers`` clients (default 50) read the current list page and player pages at random, and
``--submitters`` clients (default 5) log in and submit a small CSV of games, all at once for
``--seconds`` (default 30). Each answer is timed from the request to its last byte.

``--reuse`` (with ``--db``) uses the ledger a former run of the same size left in the database
instead of building it again (its submissions pending; none is shown on a page).

Printed (and appended to benchmarks/RESULTS.md): per page kind, the requests, p50 and p99 in
ms, and the errors (any answer but the expected status, or no answer: must be 0); and the
conditions: the load average before and after, pages read a second, the CPU seconds of the
server (its processes) and of the client during the load. Target
(issue 23): p99 under 100 ms for a list page and a player page at M on PostgreSQL with 4
workers. Not part of the test suite. The client runs in this process (threads, one keep-alive
connection each), on the same machine as the server: on a 2-core machine they share it.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import http.client
import io
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import federation
from benchmarks.__main__ import MONTH, RESULTS, Ledger, ledger, machine, percentile

PASSWORD = "bench load passphrase 2026"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Kind:
    """The answers of one kind of request: seconds of each, and the errors."""

    seconds: list[float] = field(default_factory=list)
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float, ok: bool) -> None:
        with self.lock:
            if ok:
                self.seconds.append(seconds)
            else:
                self.errors += 1


class Browser:
    """One client: a keep-alive connection to the server and its cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes, float]:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        t0 = time.perf_counter()
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=sent)
                answer = self.conn.getresponse()
                data = answer.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt == 2:
                    return 0, b"", time.perf_counter() - t0
        seconds = time.perf_counter() - t0
        for header in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if "Max-Age=0" in header or "expires=Thu, 01 Jan 1970" in header:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        return answer.status, data, seconds

    def form(self, page: str, path: str, fields: dict[str, str],
             file: tuple[str, bytes] | None = None) -> tuple[int, float]:
        """GET ``page``, then POST ``fields`` (and ``file`` as ``file``) with its CSRF token."""
        status, data, _ = self.request("GET", page)
        found = CSRF.search(data.decode("utf-8", "replace"))
        if status != 200 or found is None:
            return status or 599, 0.0
        fields = {**fields, "csrf_token": found.group(1)}
        if file is None:
            body = urllib.parse.urlencode(fields).encode()
            kind = "application/x-www-form-urlencoded"
        else:
            boundary = f"bench{random.getrandbits(64):x}"
            parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
                     .encode() for k, v in fields.items()]
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                         f'filename="{file[0]}"\r\nContent-Type: text/csv\r\n\r\n'.encode()
                         + file[1] + b"\r\n")
            body = b"".join(parts) + f"--{boundary}--\r\n".encode()
            kind = f"multipart/form-data; boundary={boundary}"
        status, _, seconds = self.request("POST", path, body, {"Content-Type": kind})
        return status, seconds


def build(work: Path, size: str, url: str | None) -> tuple[str, int, str]:
    """A ledger of the size's register and month, the month closed; (db, players, period)."""
    players, games = federation.SIZES[size]
    register = federation.federation(players)
    register_csv, month_csv = work / "players.csv", work / "month.csv"
    federation.write_register(register_csv, register)
    year, month = MONTH
    federation.write_month(month_csv, register, games, year, month)
    db = Ledger(work, url).fresh("web")
    ledger(db, "init")
    ledger(db, "import", str(register_csv), "--format", "players", "--quiet")
    ledger(db, "import", str(month_csv), "--quiet")
    period = f"{year}-{month:02d}"
    ledger(db, "period", "close", period, "--json", stdout=work / "close.json")
    return db, players, period


def reused(url: str, size: str, submitters: int) -> tuple[str, int, str] | None:
    """The ledger a former run built at ``url`` for ``size`` (its players all there, its month
    closed, its reporters added), as ``build`` returns it; None when there is none."""
    from sqlalchemy import create_engine, inspect, text  # only for --db URL
    players = federation.SIZES[size][0]
    period = f"{MONTH[0]}-{MONTH[1]:02d}"
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            if not {"players", "period_revisions", "users"} <= set(inspect(conn).get_table_names()):
                return None
            count = conn.scalar(text("SELECT count(*) FROM players"))
            closed = conn.scalar(text("SELECT count(*) FROM period_revisions"))
            users = conn.scalar(text("SELECT count(*) FROM users WHERE name LIKE 'bench-reporter-%'"))
    finally:
        engine.dispose()
    return (url, players, period) if count == players and closed and users >= submitters else None


def add_users(db: str, count: int) -> list[str]:
    names = [f"bench-reporter-{i}" for i in range(count)]
    exe = Path(sys.executable).parent / "ledger"
    for name in names:
        subprocess.run([str(exe), "--db", db, "user", "add", name, "--role", "reporter"],
                       input=f"{PASSWORD}\n", text=True, check=True, capture_output=True,
                       env=os.environ | {"LEDGER_USER": "bench"})
    return names


def start(db: str, port: int, work: Path, url: str | None, workers: int) -> subprocess.Popen[bytes]:
    bindir = Path(sys.executable).parent
    env = os.environ | {"LEDGER_USER": "bench"}
    secret = work / "web.secret"
    if url is None:
        args = [str(bindir / "ledger"), "--db", db, "serve", "--port", str(port),
                "--insecure-cookies", "--secret-file", str(secret), "--threads", "8"]
    else:
        secret.write_text(os.urandom(32).hex() + "\n")
        secret.chmod(0o600)
        env |= {"LEDGER_DB": db, "LEDGER_SECRET_FILE": str(secret), "LEDGER_INSECURE_COOKIES": "1"}
        args = [str(bindir / "gunicorn"), "-w", str(workers), "--threads", "4", "-b",
                f"127.0.0.1:{port}", "--timeout", "600", "ledger.web:app_from_environment()"]
    log = (work / "server.log").open("wb")
    return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)


def warm_up(port: int, paths: list[str], workers: int, limit: float = 900) -> float:
    """Read ``paths`` from ``workers`` x 2 clients at once until each answers under a second
    (every worker has gathered the site); the seconds it took."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < limit:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.5)
    slow = threading.Event()

    def read() -> None:
        browser = Browser(port)
        for path in paths:
            status, _, seconds = browser.request("GET", path)
            if status != 200 or seconds > 1:
                slow.set()

    while time.perf_counter() - t0 < limit:
        slow.clear()
        threads = [threading.Thread(target=read) for _ in range(workers * 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if not slow.is_set():
            return time.perf_counter() - t0
    raise SystemExit(f"the server did not answer every page under a second in {limit} s")


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system) process ``pid`` and its children (gunicorn's workers)
    have used so far, from Linux's ``/proc``; 0 elsewhere."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if stat.parent.name == str(pid) or fields[1] == str(pid):  # fields[1]: the parent
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


@dataclass(frozen=True)
class Conditions:
    """What the machine did during the load: seconds, the CPU seconds of the client (this
    process) and of the server (its process and workers), the load average before and after."""

    seconds: float
    client_cpu: float
    server_cpu: float
    load_before: float
    load_after: float


def load(port: int, players: int, period: str, users: list[str], readers: int,
         seconds: float) -> dict[str, Kind]:
    kinds = {k: Kind() for k in ("list page", "player page", "login", "submission")}
    stop = time.perf_counter() + seconds
    list_page = f"/lists/standard/{period}.html"
    year, month = (int(part) for part in period.split("-"))
    day = f"{year + month // 12}-{month % 12 + 1:02d}-05"  # in the open period after it
    register = federation.federation(players)

    def read(seed: int) -> None:
        rng, browser = random.Random(seed), Browser(port)
        while time.perf_counter() < stop:
            if rng.random() < 0.5:
                status, _, took = browser.request("GET", list_page)
                kinds["list page"].add(took, status == 200)
            else:
                status, _, took = browser.request("GET",
                                                  f"/players/{rng.randint(1, players)}.html")
                kinds["player page"].add(took, status == 200)

    def submit(name: str, seed: int) -> None:
        rng, browser = random.Random(seed), Browser(port)
        status, took = browser.form("/login", "/login", {"username": name, "password": PASSWORD})
        kinds["login"].add(took, status == 302)
        while time.perf_counter() < stop:
            a, b = rng.sample(range(players), 2)
            out = io.StringIO()
            csv.writer(out).writerows([("date", "white", "black", "result"),
                                       (day, register[a].name, register[b].name, "1-0")])
            text = out.getvalue()
            status, took = browser.form("/submissions/new", "/submissions/new",
                                        {"pool": "standard"}, (f"{name}.csv", text.encode()))
            kinds["submission"].add(took, status in (302, 303))

    threads = [threading.Thread(target=read, args=(i,)) for i in range(readers)]
    threads += [threading.Thread(target=submit, args=(n, 1000 + i)) for i, n in enumerate(users)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return kinds


def measured(server: subprocess.Popen[bytes],
             run: Callable[[], dict[str, Kind]]) -> tuple[dict[str, Kind], Conditions]:
    """``run()`` (the load), with the conditions it ran in."""
    before, client, served, t0 = os.getloadavg()[0], os.times(), cpu_seconds(server.pid), \
        time.perf_counter()
    kinds = run()
    after = os.times()
    return kinds, Conditions(time.perf_counter() - t0,
                             after.user + after.system - client.user - client.system,
                             cpu_seconds(server.pid) - served, before, os.getloadavg()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=("S", "M"), default="S")
    parser.add_argument("--db", help="a PostgreSQL URL (its tables are dropped): gunicorn")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--submitters", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--no-results", action="store_true", help="do not append to RESULTS.md")
    parser.add_argument("--reuse", action="store_true",
                        help="with --db: use the ledger a former run of this size left there")
    args = parser.parse_args()
    if args.reuse and not args.db:
        parser.error("--reuse needs --db (an SQLite ledger is built in a temporary folder)")
    with tempfile.TemporaryDirectory(prefix="ledger-web-bench-") as tmp:
        work = Path(tmp)
        t0 = time.perf_counter()
        found = reused(args.db, args.size, args.submitters) if args.reuse else None
        if found is None:
            db, players, period = build(work, args.size, args.db)
            print(f"ledger built and closed in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
            users = add_users(db, args.submitters)
        else:
            db, players, period = found
            users = [f"bench-reporter-{i}" for i in range(args.submitters)]
            print("ledger of a former run reused", file=sys.stderr)
        port = free_port()
        server = start(db, port, work, args.db, args.workers)
        try:
            warm = warm_up(port, ["/", f"/lists/standard/{period}.html", "/players/1.html"],
                           args.workers if args.db else 1)
            print(f"warm in {warm:.0f} s", file=sys.stderr)
            kinds, conditions = measured(server, lambda: load(
                port, players, period, users[:args.submitters], args.readers, args.seconds))
        finally:
            server.terminate()
            server.wait(30)
    report(kinds, args, warm, conditions)


def report(kinds: dict[str, Kind], args: argparse.Namespace, warm: float,
           conditions: Conditions) -> None:
    players, games = federation.SIZES[args.size]
    server = (f"PostgreSQL, gunicorn {args.workers} workers" if args.db
              else "SQLite, ledger serve (waitress, 8 threads)")
    title = (f"web load, size {args.size} ({players:,} players, {games:,} games), {server}, "
             f"{args.readers} readers + {args.submitters} submitters for {args.seconds:.0f} s")
    rows = []
    for name, kind in kinds.items():
        ms = [s * 1000 for s in kind.seconds]
        p50 = f"{statistics.median(ms):.1f}" if ms else "-"
        p99 = f"{percentile(ms, 99):.1f}" if ms else "-"
        target = "< 100 ms p99" if name in ("list page", "player page") else ""
        rows.append((name, str(len(ms)), p50, p99, str(kind.errors), target))
    c = conditions
    reads = sum(len(kinds[k].seconds) for k in ("list page", "player page"))
    note = (f"warm-up {warm:.0f} s; load average {c.load_before:.1f} before, "
            f"{c.load_after:.1f} after; {reads / c.seconds:.0f} pages a second; CPU seconds: "
            f"server {c.server_cpu:.1f} ({c.server_cpu * 1000 / max(reads, 1):.2f} ms a page "
            f"read, submissions included), client {c.client_cpu:.1f}, in {c.seconds:.0f} s")
    table(title, note, ("request", "answered", "p50 ms", "p99 ms", "errors", "target"), rows,
          keep=not args.no_results)


def table(title: str, note: str, columns: tuple[str, ...], rows: list[tuple[str, ...]],
          keep: bool) -> None:
    """Print a Markdown table of ``rows`` under a heading of today's date and ``title``, the
    machine and ``note`` below it; appended to benchmarks/RESULTS.md when ``keep``."""
    lines = [f"\n## {dt.date.today()}: {title}\n", f"{machine()}; {note}\n",
             "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    print("\n".join(lines))
    if keep:
        with RESULTS.open("a", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
