"""The benchmark's run: the steps of each run on a fresh ledger (register, month's import, close,
the floors beside them, list, ``db check``), then once ``history`` and the start-up times.
``run`` returns the table's rows (``benchmarks.table``)."""

from __future__ import annotations

import random
import shutil
import sys
import time
from pathlib import Path

from benchmarks import federation, floors
from benchmarks.children import Samples, child, ledger, ledger_command
from benchmarks.ledgers import MONTH, Ledger, history_ledger
from benchmarks.site_steps import SITE_MEASURES, site_month, site_steps
from benchmarks.table import Row, table

STARTUP_RUNS = 7
#: Floor (3b): a one-command Typer app with one integer argument (what Typer itself costs to
#: parse a command line or print its Rich help, before any of the ledger's code).
TYPER_APP = ("import typer\napp = typer.Typer()\n@app.command()\ndef main(x: int) -> None:\n"
             "    print(x)\napp()")


def run(work: Path, size: str, players: int, games: int, runs: int, periods: int,
        url: str | None, site: bool = True) -> list[Row]:
    """Every run's steps on a fresh ledger (``where.fresh``), then ``history`` and the start-up
    times once; the table's rows. ``url``: ``--db`` (None: SQLite files in ``work``). ``site``:
    each run ends with the site steps (``benchmarks.site_steps``) on a copy of its ledger, or on
    a ``--db`` URL on the ledger itself: the last run's then after ``history`` when that reads
    it (``periods`` 1), so that ``history`` measures the ledger of one close as before."""
    register = federation.federation(players)
    register_csv = work / "players.csv"
    federation.write_register(register_csv, register)
    year, month = MONTH
    period, month_csv = f"{year}-{month:02d}", work / f"games-{year}-{month:02d}.csv"
    federation.write_month(month_csv, register, games, year, month)
    where = Ledger(work, url)
    m: dict[str, Samples] = {k: Samples() for k in (
        "register", "import", "import_rss", "close", "close_rss", "close_table", "list_csv",
        "db_check", "floor1", "floor2", "floor2a", *SITE_MEASURES)}
    site_csv = site_month(work, register, games) if site else None
    deferred = False
    db = ""
    for i in range(runs):
        db = where.fresh(f"run{i}")
        ledger(db, "init")
        step = ledger(db, "import", str(register_csv), "--format", "players", "--quiet")
        m["register"].add(step.seconds)
        players_only = where.copy(db, f"players{i}")
        step = ledger(db, "import", str(month_csv), "--quiet")
        m["import"].add(step.seconds)
        m["import_rss"].add(step.rss_mb)
        before_close = where.copy(db, f"imported{i}")
        step = ledger(db, "period", "close", period, "--json", stdout=work / "close.json")
        m["close"].add(step.seconds)
        m["close_rss"].add(step.rss_mb)
        if before_close is not None and players_only is not None:
            table_db = where.copy(before_close, f"table{i}")
            assert table_db is not None
            m["close_table"].add(ledger(table_db, "period", "close", period,
                                        stdout=work / "close.txt").seconds)
            columns, game_rows = floors.game_rows(Path(before_close))
            m["floor1"].add(floors.insert_games(Path(players_only), game_rows, columns))
            audited = Path(str(where.copy(before_close, f"audited{i}")))
            m["floor2"].add(floors.close_floor(Path(before_close), period, audit=False))
            m["floor2a"].add(floors.close_floor(audited, period, audit=True))
        m["list_csv"].add(ledger(db, "list", "--format", "csv", "--output",
                                 str(work / "list.csv")).seconds)
        m["db_check"].add(ledger(db, "db", "check").seconds)
        if site_csv is not None:
            site_db = where.copy(db, "site") or db
            deferred = site_db == db and periods == 1 and i == runs - 1
            if not deferred:
                site_steps(work, site_db, site_csv, m)
            if site_db != db:
                Path(site_db).unlink()
        print(f"run {i + 1}/{runs}: import {m['import'].values[-1]:.2f} s, close "
              f"{m['close'].values[-1]:.2f} s", file=sys.stderr)
    if periods > 1:  # a ledger of ``periods`` closed periods, for history
        db = history_ledger(work, where, register, register_csv, games, periods)
    hist, hist_cli = history_times(db, register)
    if deferred and site_csv is not None:
        site_steps(work, db, site_csv, m)
    start = startup(work, where)
    return table(size, players, games, periods, m, hist, hist_cli, start)


def history_times(db: str, register: list[federation.SyntheticPlayer]) -> tuple[Samples, Samples]:
    """``history`` of up to 200 players in process (ms each) and 20 through the CLI (s). In
    process, one call before the timed ones is not counted: a process's first call compiles the
    statements (about 30 ms, once per process, as a long-running one would pay it; each CLI call
    pays it and is counted)."""
    from ledger.services.core.session import open_ledger
    from ledger.services.publishing.histories import history
    rng = random.Random(7)
    chosen = rng.sample(range(1, len(register) + 1), min(200, len(register)))
    engine = open_ledger(db)
    inside = Samples()
    try:
        history(engine, f"#{chosen[-1]}")  # the first call of the process: not counted
        for pid in chosen:
            t0 = time.perf_counter()
            history(engine, f"#{pid}")
            inside.add((time.perf_counter() - t0) * 1e3)
    finally:
        engine.dispose()
    cli = Samples()
    for pid in chosen[:20]:
        cli.add(ledger(db, "history", f"#{pid}", "--json").seconds)
    return inside, cli


def startup(work: Path, where: Ledger) -> dict[str, Samples]:
    """Start-up times (s): ``ledger --help``, ``calc expected``, ``game add`` on a two-player
    ledger (a fresh copy each time), and the import floors (3)."""
    small = str(work / "small.db")
    ledger(small, "init")
    ledger(small, "player", "add", "Doyle, Liam", "--rating", "1850", "--prior-games", "0")
    ledger(small, "player", "add", "Walsh, Brendan", "--rating", "1790", "--prior-games", "0")
    out = {k: Samples() for k in ("help", "calc", "game_add", "typer", "sqlalchemy", "typer_app",
                                  "typer_help")}
    for i in range(STARTUP_RUNS):
        out["help"].add(child([*ledger_command(), "--help"]).seconds)
        out["calc"].add(child([*ledger_command(), "calc", "expected", "2000", "1800"]).seconds)
        copy = work / f"small{i}.db"
        shutil.copy(small, copy)
        out["game_add"].add(ledger(str(copy), "game", "add", "Doyle, Liam", "Walsh, Brendan",
                                   "1-0", "--date", "2026-11-05").seconds)
        out["typer"].add(child([sys.executable, "-c", "import typer"]).seconds)
        out["sqlalchemy"].add(child([sys.executable, "-c", "import sqlalchemy.orm, typer"]).seconds)
        out["typer_app"].add(child([sys.executable, "-c", TYPER_APP, "3"]).seconds)
        out["typer_help"].add(child([sys.executable, "-c", TYPER_APP, "--help"]).seconds)
    return out

