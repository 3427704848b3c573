"""Many writers at once on one ledger: the figures of issue 11, measured with real ``ledger``
processes started together (``python -m ledger``, one per file or command).

Run from the repository root::

    python benchmarks/concurrency.py [--server postgresql+psycopg://USER:PASSWORD@HOST:PORT/postgres]

Without ``--server`` every scenario runs on SQLite files; with it, on a database of its own on
that server (created and dropped; the user must be allowed to create databases), and the player
list's order is compared with SQLite's. Scenarios: 4 imports naming the same 20 new players (by
name, then with FIDE ids); the same 500 games in two files whose bytes differ; one event name in
4 files; a close started while a 2,000-game import is in flight; two closes at once (the loser's
message); a wrong password in the URL (is it shown?). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from ledger.services.admin.setup import init_ledger
from ledger.services.core.session import open_ledger
from ledger.services.register.players import NewPlayer, add_player

NEW = [(f"Newcomer, N{i:02d}", 4100000 + 10 * i) for i in range(1, 21)]
#: Names a server's collation may put elsewhere than the code points do.
ORDER_NAMES = ["Mitchell, Sam", "Məmmədov, Rauf", "Nzinga, Ada", "Ŋgugi, Wanjiru",
               "Van Dyke, Anna", "Vance, Bob", "de Vries, Jan", "Doyle, Liam", "Zhou, Li"]


class Ledgers:
    """New ledgers for the scenarios: SQLite files in ``folder``, or databases on ``server``."""

    def __init__(self, folder: Path, server: str | None) -> None:
        self.folder, self.server = folder, server
        self.made: list[str] = []

    @contextmanager
    def new(self, name: str) -> Iterator[str]:
        if self.server is None:
            db = str(self.folder / f"{name}-{uuid.uuid4().hex[:6]}.db")
            init_ledger(db)
            yield db
            return
        database = f"ledger_bench_{uuid.uuid4().hex[:10]}"
        admin = create_engine(self.server, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'CREATE DATABASE "{database}"')
            db = make_url(self.server).set(database=database).render_as_string(hide_password=False)
            init_ledger(db)
            yield db
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            admin.dispose()


#: A ``ledger`` process that imports the ledger, says it is ready (``argv[1]`` + ".ready"),
#: waits for ``argv[1]`` to exist, then runs the command: processes started one after the
#: other begin their work at the same moment, not a Python start-up apart.
LAUNCH = """
import os, sys, time
from ledger.cli.app import main
go = sys.argv.pop(1)
open(f"{go}.{os.getpid()}.ready", "w").close()
while not os.path.exists(go):
    time.sleep(0.005)
sys.argv[0] = "ledger"
main()
"""


class Start:
    """Processes to start together: each waits for the go file once it is ready."""

    def __init__(self, folder: Path) -> None:
        self.go = folder / f"go-{uuid.uuid4().hex[:8]}"
        self.runs: list[subprocess.Popen[str]] = []

    def ledger(self, db: str, *args: str) -> subprocess.Popen[str]:
        run = subprocess.Popen([sys.executable, "-c", LAUNCH, str(self.go), "--db", db, *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "COLUMNS": "200"})
        self.runs.append(run)
        return run

    def now(self) -> None:
        """Go, once every process is ready."""
        while len(list(self.go.parent.glob(f"{self.go.name}.*.ready"))) < len(self.runs):
            time.sleep(0.01)
        self.go.touch()


def ledger(db: str, *args: str) -> subprocess.Popen[str]:
    """A ``ledger`` process on ``db``, started now."""
    return subprocess.Popen([sys.executable, "-m", "ledger", "--db", db, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"})


def together(runs: Sequence[subprocess.Popen[str]]) -> list[tuple[int, str, str]]:
    """Each process's exit code, stdout and stderr, once all have ended."""
    return [(p.wait(), *p.communicate()) for p in runs]


def at_once(folder: Path, db: str, commands: Sequence[Sequence[str]]) -> list[tuple[int, str, str]]:
    """``commands`` (``ledger`` arguments) in processes of their own, begun at one moment."""
    start = Start(folder)
    runs = [start.ledger(db, *command) for command in commands]
    start.now()
    return together(runs)


def rows(db: str, query: str) -> list[tuple[Any, ...]]:
    engine = create_engine(make_url(db) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(query))]
    finally:
        engine.dispose()


def closed_games(db: str) -> set[int]:
    """Ids of the games of a closed period."""
    return {int(g) for (g,) in rows(db, "SELECT g.id FROM games g JOIN periods p ON "
                                             "p.period = g.period AND p.pool = g.pool")}


def rated_games(db: str) -> set[int]:
    """Ids of the games with a stored audit side (``period_audits.sides``: little-endian int32,
    eight a side, the game id first; ledger.db.audit_pack)."""
    return {side[0] for (packed,) in rows(db, "SELECT sides FROM period_audits")
            for side in struct.iter_unpack("<8i", packed)}


def count(db: str, query: str) -> int:
    engine = create_engine(make_url(db) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(query)).scalar_one())
    finally:
        engine.dispose()


def csv_file(path: Path, rows: list[tuple[str, ...]], ids: bool = False, tail: str = "") -> str:
    header = "date,white,black,result,event,round" + (",white_fide_id,black_fide_id" if ids else "")
    body = [",".join(f'"{v}"' if "," in v else v for v in r) for r in rows]
    path.write_text("\n".join([header, *body]) + "\n" + tail, encoding="utf-8")
    return str(path)


def round_of_new_players(n: int, ids: bool) -> list[tuple[str, ...]]:
    rows = []
    for board in range(10):
        (white, wid), (black, bid) = NEW[board], NEW[19 - board]
        row = (f"2026-10-{n:02d}", white, black, "1/2-1/2", "Spring Open", str(n))
        rows.append(row + ((str(wid), str(bid)) if ids else ()))
    return rows


def new_players(ledgers: Ledgers, work: Path, ids: bool) -> str:
    with ledgers.new("players") as db:
        files = [csv_file(work / f"r{n}-{ids}.csv", round_of_new_players(n, ids), ids)
                 for n in range(1, 5)]
        done = at_once(work, db, [("import", f, "--register-players", "--quiet") for f in files])
        failed = [err.strip().splitlines()[-1] for code, _, err in done if code]
        players = count(db, "SELECT count(*) FROM players")
        events = count(db, "SELECT count(*) FROM events")
    return (f"{players} players registered, {4 - len(failed)} of 4 imports done, {events} event"
            + (f"; failures: {failed}" if failed else ""))


def same_games_twice(ledgers: Ledgers, work: Path) -> str:
    names = [f"Member, M{i:02d}" for i in range(20)]
    rows = [(f"2026-10-{1 + r // 10:02d}", names[(r + b) % 20], names[(r + 19 - b) % 20], "1-0",
             "Marathon", str(r + 1)) for r in range(50) for b in range(10)]
    rows = [row for row in rows if row[1] != row[2]]
    first = csv_file(work / "organiser.csv", rows[:500])
    second = csv_file(work / "arbiter.csv", rows[:500][::-1], tail="\n")
    with ledgers.new("twice") as db:
        done = at_once(work, db, [("import", f, "--register-players", "--quiet")
                                  for f in (first, second)])
        games = count(db, "SELECT count(*) FROM games")
        twice = count(db, "SELECT count(*) FROM (SELECT e.name, round, white_id, black_id "
                          "FROM games JOIN events e ON e.id = event_id "
                          "GROUP BY e.name, round, white_id, black_id HAVING count(*) > 1) t")
    codes = [code for code, _, _ in done]
    failed = [err.strip().splitlines()[-1] for code, _, err in done if code]
    return (f"{games} games recorded from {len(rows[:500])} (recorded twice: {twice}); exit "
            f"codes {codes}" + (f"; failures: {failed}" if failed else ""))


def close_during_import(ledgers: Ledgers, work: Path, after: float) -> str:
    names = [f"Member, M{i:02d}" for i in range(40)]
    rows = [(f"2026-10-{1 + r % 28:02d}", names[b], names[39 - b], "1-0", f"League {r}", "1")
            for r in range(100) for b in range(20)]
    big = csv_file(work / "big.csv", rows)
    seed = csv_file(work / "seed.csv", [("2026-10-01", names[b], names[39 - b], "1-0", "Seed",
                                         "1") for b in range(20)])
    with ledgers.new("late") as db:  # 40 rated players, and 20 games of theirs recorded
        engine = open_ledger(db)
        try:
            for name in names:
                add_player(engine, NewPlayer(name, rating=1800, prior_games=100))
        finally:
            engine.dispose()
        subprocess.run([sys.executable, "-m", "ledger", "--db", db, "import", seed, "--quiet"],
                       check=True, capture_output=True)
        importing = ledger(db, "import", big, "--quiet", "--allow-similar")
        time.sleep(after)
        closing = ledger(db, "period", "close", "2026-10")
        (icode, _, ierr), (ccode, _, cerr) = together([importing, closing])
        said = [e.strip().splitlines()[-1] for e in (ierr, cerr) if e.strip()]
        unrated = len(closed_games(db) - rated_games(db))
        recorded = count(db, "SELECT count(*) FROM games")
        late = count(db, "SELECT count(*) FROM games WHERE period = '2026-11'")
    how = ("the import landed first and was rated" if icode == 0 and ccode == 0 and not late else
           f"the close came first; the import's {late} games are late results of 2026-11"
           if icode == 0 and ccode == 0 else f"import exit {icode}, close exit {ccode}")
    return (f"{how}: {recorded} games recorded, {unrated} unrated in the closed period "
            f"(import exit {icode}, close exit {ccode})" + (f"; said: {said}" if said else ""))


def two_closes(ledgers: Ledgers, work: Path) -> str:
    with ledgers.new("closes") as db:
        for name in ("Alpha, Ann", "Beta, Bob"):
            subprocess.run([sys.executable, "-m", "ledger", "--db", db, "player", "add", name,
                            "--rating", "1800", "--prior-games", "0"], check=True, capture_output=True)
        subprocess.run([sys.executable, "-m", "ledger", "--db", db, "game", "add", "Alpha, Ann",
                        "Beta, Bob", "1-0", "--date", "2026-10-03"], check=True, capture_output=True)
        done = at_once(work, db, [("period", "close", "2026-10")] * 2)
    loser = [err.strip() for code, _, err in done if code]
    return f"exit codes {sorted(c for c, _, _ in done)}; the loser: {loser}"


def wrong_password(server: str | None) -> str:
    url = (make_url(server).set(password="Wr0ng-Secret") if server else
           make_url("postgresql+psycopg://ann:Wr0ng-Secret@127.0.0.1:1/ledger"))
    done = together([ledger(url.render_as_string(hide_password=False), "player", "list")])
    code, out, err = done[0]
    return (f"exit {code}, password shown: {'Wr0ng-Secret' in out + err}: "
            f"{err.strip().splitlines()[-1]}")


def player_order(ledgers: Ledgers, server: str | None) -> str:
    orders = []
    for on in ([None, server] if server else [None]):
        here = Ledgers(ledgers.folder, on)
        with here.new("order") as db:
            for name in ORDER_NAMES:
                subprocess.run([sys.executable, "-m", "ledger", "--db", db, "player", "add", name],
                               check=True, capture_output=True)
            listed = subprocess.run([sys.executable, "-m", "ledger", "--db", db, "player", "list",
                                     "--json"], check=True, capture_output=True, text=True)
            orders.append([p["name"] for p in json.loads(listed.stdout)["players"]])
    same = len(orders) == 1 or orders[0] == orders[1]
    return f"the same on SQLite and the server: {same}: {orders[-1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--server", help="a PostgreSQL URL to run on (default: SQLite files)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ledger-concurrency-"))
    ledgers = Ledgers(work, args.server)
    scenarios: list[tuple[str, Callable[[], str]]] = [
        ("4 imports naming the same 20 new players", lambda: new_players(ledgers, work, False)),
        ("the same with FIDE ids", lambda: new_players(ledgers, work, True)),
        ("the same 500 games in two files", lambda: same_games_twice(ledgers, work)),
        ("a close 1 s into a 2,000-game import", lambda: close_during_import(ledgers, work, 1)),
        ("a close 6 s into a 2,000-game import", lambda: close_during_import(ledgers, work, 6)),
        ("two closes at once", lambda: two_closes(ledgers, work)),
        ("a wrong password in the URL", lambda: wrong_password(args.server)),
        ("player list order", lambda: player_order(ledgers, args.server)),
    ]
    print(f"on {make_url(args.server).render_as_string() if args.server else 'SQLite files'}")
    for title, scenario in scenarios:
        started = time.perf_counter()
        outcome = scenario()
        print(f"- {title}: {outcome} ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
