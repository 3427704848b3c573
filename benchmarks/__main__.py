"""The federation benchmark: ``python -m benchmarks [--size S|M|L] [--runs N] [--db URL]``.

Run from the repository root (``ledger`` installed in the same Python). A synthetic federation
(``benchmarks.federation``, seeded) is loaded the documented ways: its register through ``ledger
import PLAYERS.csv --format players``, its month (2026-09) through ``ledger import`` of a CSV.
Each of ``--runs`` runs (default 3) starts from a fresh ledger and times, through the CLI in a
child process (wall time, and the child's own peak RSS: ``benchmarks.launch``): the register
import, the month's import, ``period close --json``, the close with its table on the
terminal (a file, 160 columns),
``list --format csv --output``, ``db check`` (the audit chain, each list revision against its
digest and recounted: issue 24; shown beside the close). Then, once: ``history`` p50/p99 over up
to 200 players on a ledger of ``--periods`` closed periods (1 to 24, default 3; the issue asks
for 24 M periods, about 8 minutes more at M): with 1, the measured ledger after its close; else
a fresh ledger of the register and that many months, ending 2026-11, each imported and closed in
order; in process (after one call not counted: the first compiles the statements) and (20
players) through the CLI; and start-up of ``ledger --help``, ``ledger calc expected 2000 1800``
and ``ledger game add`` on a small ledger (median of 7), beside floor (3b): a one-command Typer
app's ``--help`` and run (Typer's own Rich help and its argument coercion).

Floors, in the same run (``benchmarks.floors``): (1) the imported game rows inserted again by
one raw ``sqlite3`` executemany; (2) a plain ``sqlite3`` + Python close writing one row per
player, (2a) and one audit row per game and player; (3) ``python -c "import sqlalchemy.orm,
typer"`` and ``python -c "import typer"``. One Rich table (measure, value, floor, ratio, target,
pass/fail) is printed and appended, with the machine's description, to benchmarks/RESULTS.md.

``--db URL`` (PostgreSQL): the ledger's steps run on that database (every table dropped before
each run: give a database you can lose); the floors and the close with its table, which need a
copy of the ledger, are not run there ("-"): compare with a SQLite run. Default: SQLite files
in a temporary folder. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import federation, floors

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
#: The month every run imports and closes (the measured close), on a fresh ledger.
MONTH = (2026, 9)
#: The last month of the ledger ``history`` is measured on: ``--periods`` months ending here.
LAST_HISTORY_MONTH = (2026, 11)
MAX_PERIODS = 24
STARTUP_RUNS = 7
#: Floor (3b): a one-command Typer app with one integer argument (what Typer itself costs to
#: parse a command line or print its Rich help, before any of the ledger's code).
TYPER_APP = ("import typer\napp = typer.Typer()\n@app.command()\ndef main(x: int) -> None:\n"
             "    print(x)\napp()")


def _ledger() -> list[str]:
    script = Path(sys.executable).parent / "ledger"
    return [str(script)] if script.exists() else [sys.executable, "-m", "ledger"]


@dataclass
class Child:
    """One child process: wall seconds and peak RSS in MB (``ru_maxrss`` of that child alone,
    through ``benchmarks.launch``)."""

    seconds: float
    rss_mb: float


def child(args: list[str], stdout: Path | None = None) -> Child:
    """Run ``args`` through ``benchmarks.launch`` (its own wall time and peak RSS, not counting
    the benchmark's memory it started as a copy of: see that module) and wait for it; raise on
    failure. The child may write bytecode caches (``PYTHONDONTWRITEBYTECODE`` dropped), as an
    installed package has them: else every start-up compiles the ledger's sources again."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"COLUMNS": "160", "LEDGER_USER": "bench"}
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(Path(__file__).resolve().parent.parent), env.get("PYTHONPATH")) if p)
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as measured, \
            (stdout.open("wb") if stdout else open(os.devnull, "wb")) as out:
        proc = subprocess.Popen([sys.executable, "-m", "benchmarks.launch", measured.name, *args],
                                stdout=out, stderr=err, env=env)
        if proc.wait() != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(args)}: exit {proc.returncode}\n"
                             f"{err.read().decode(errors='replace')[-3000:]}")
        seconds, rss_kib = measured.read().split()
    return Child(float(seconds), int(rss_kib) / 1024)


@dataclass
class Samples:
    """The samples of one measure, in seconds (or MB, or ms)."""

    values: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.values.append(value)

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def shown(self, unit: str, scale: float = 1.0, digits: int = 2) -> str:
        med, lo, hi = (v * scale for v in (self.median, min(self.values), max(self.values)))
        if len(self.values) == 1:
            return f"{med:.{digits}f} {unit}"
        return f"{med:.{digits}f} {unit} ({lo:.{digits}f}-{hi:.{digits}f})"


class Ledger:
    """Where the ledger's steps run: a fresh SQLite file per run, or the ``--db`` URL, emptied."""

    def __init__(self, work: Path, url: str | None) -> None:
        self.work, self.url = work, url

    def fresh(self, name: str) -> str:
        if self.url is None:
            return str(self.work / f"{name}.db")
        from sqlalchemy import MetaData, create_engine, text  # only for --db URL
        engine = create_engine(self.url)
        with engine.begin() as conn:
            meta = MetaData()
            meta.reflect(conn)
            meta.drop_all(conn)
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        engine.dispose()
        return self.url

    def copy(self, db: str, name: str) -> str | None:
        """A copy of an SQLite ledger (None on a URL: it cannot be copied)."""
        if self.url is not None:
            return None
        target = self.work / f"{name}.db"
        shutil.copy(db, target)
        return str(target)


def ledger(db: str, *args: str, stdout: Path | None = None) -> Child:
    return child([*_ledger(), "--db", db, *args], stdout)


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile (1..99) of ``values`` (``statistics.quantiles``, inclusive)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=sorted(federation.SIZES), default="S")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--periods", type=int, default=3, choices=range(1, MAX_PERIODS + 1),
                        metavar=f"1..{MAX_PERIODS}")
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite files)")
    parser.add_argument("--no-results", action="store_true", help="do not append RESULTS.md")
    args = parser.parse_args()
    players, games = federation.SIZES[args.size]
    work = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    try:
        rows = run(work, args.size, players, games, args.runs, args.periods, args.db)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(rows, args)


Row = tuple[str, str, str, str, str, str]


def run(work: Path, size: str, players: int, games: int, runs: int, periods: int,
        url: str | None) -> list[Row]:
    register = federation.federation(players)
    register_csv = work / "players.csv"
    federation.write_register(register_csv, register)
    year, month = MONTH
    period, month_csv = f"{year}-{month:02d}", work / f"games-{year}-{month:02d}.csv"
    federation.write_month(month_csv, register, games, year, month)
    where = Ledger(work, url)
    m: dict[str, Samples] = {k: Samples() for k in (
        "register", "import", "import_rss", "close", "close_rss", "close_table", "list_csv",
        "db_check", "floor1", "floor2", "floor2a")}
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
        print(f"run {i + 1}/{runs}: import {m['import'].values[-1]:.2f} s, close "
              f"{m['close'].values[-1]:.2f} s", file=sys.stderr)
    if periods > 1:  # a ledger of ``periods`` closed periods, for history
        db = history_ledger(work, where, register, register_csv, games, periods)
    hist, hist_cli = history_times(db, register)
    start = startup(work, where)
    return table(size, players, games, periods, m, hist, hist_cli, start)


def history_months(periods: int) -> list[tuple[int, int]]:
    """The ``periods`` months ending with ``LAST_HISTORY_MONTH``, oldest first."""
    year, month = LAST_HISTORY_MONTH
    index = year * 12 + month - 1
    return [divmod(i, 12) for i in range(index - periods + 1, index + 1)]


def history_ledger(work: Path, where: Ledger, register: list[federation.SyntheticPlayer],
                   register_csv: Path, games: int, periods: int) -> str:
    """A fresh ledger of the register and ``periods`` months of ``games`` games each, every
    month imported and closed in order (the months of one year are seeded as before; other
    years' months with another seed, so no two months repeat their pairings)."""
    db = where.fresh("history")
    ledger(db, "init")
    ledger(db, "import", str(register_csv), "--format", "players", "--quiet")
    for i, (year, month0) in enumerate(history_months(periods)):
        month = month0 + 1
        path = work / f"history-{year}-{month:02d}.csv"
        federation.write_month(path, register, games, year, month,
                               seed=federation.SEED + (year - MONTH[0]))
        ledger(db, "import", str(path), "--quiet")
        ledger(db, "period", "close", f"{year}-{month:02d}", "--json",
               stdout=work / "close.json")
        print(f"history ledger: {i + 1}/{periods} periods closed", file=sys.stderr)
        path.unlink()
    return db


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
        out["help"].add(child([*_ledger(), "--help"]).seconds)
        out["calc"].add(child([*_ledger(), "calc", "expected", "2000", "1800"]).seconds)
        copy = work / f"small{i}.db"
        shutil.copy(small, copy)
        out["game_add"].add(ledger(str(copy), "game", "add", "Doyle, Liam", "Walsh, Brendan",
                                   "1-0", "--date", "2026-11-05").seconds)
        out["typer"].add(child([sys.executable, "-c", "import typer"]).seconds)
        out["sqlalchemy"].add(child([sys.executable, "-c", "import sqlalchemy.orm, typer"]).seconds)
        out["typer_app"].add(child([sys.executable, "-c", TYPER_APP, "3"]).seconds)
        out["typer_help"].add(child([sys.executable, "-c", TYPER_APP, "--help"]).seconds)
    return out


def _verdict(ok: bool | None) -> str:
    return "-" if ok is None else "pass" if ok else "FAIL"


def table(size: str, players: int, games: int, periods: int, m: dict[str, Samples],
          hist: Samples, hist_cli: Samples, start: dict[str, Samples]) -> list[Row]:
    """The rows of the results table: (measure, value, floor, ratio, target, verdict)."""
    rows: list[Row] = []
    reg = m["register"]
    rows.append((f"import --format players ({players:,} rows)", reg.shown("s"), "", "",
                 f"{players / reg.median:,.0f} rows/s", "-"))
    imp, f1 = m["import"], m["floor1"]
    speed = f1.median / imp.median if f1.values else None
    rows.append((f"import of the month ({games:,} games)", imp.shown("s"),
                 f1.shown("s") + " (1)" if f1.values else "-",
                 f"{speed:.2f}x speed" if speed else "-", ">= 0.5x speed", _verdict(
                     speed >= 0.5 if speed else None)))
    rows.append(("import, peak RSS", m["import_rss"].shown("MB", digits=0), "", "",
                 "< 600 MB, flat", _verdict(m["import_rss"].median < 600)))
    close, f2, f2a = m["close"], m["floor2"], m["floor2a"]
    # Issue 25's targets: (2a) within 1.2x at L, 1.5x below; (2) within 2x at L.
    limits = {"(2)": 2.0 if size == "L" else None, "(2a)": 1.2 if size == "L" else 1.5}
    for floor, name in ((f2, "(2)"), (f2a, "(2a)")):
        ratio = close.median / floor.median if floor.values else None
        limit = limits[name]
        rows.append((f"period close --json vs floor {name}", close.shown("s"),
                     floor.shown("s") + f" {name}" if floor.values else "-",
                     f"{ratio:.1f}x" if ratio else "-", f"<= {limit}x" if limit else "",
                     _verdict(ratio <= limit if ratio and limit else None)))
    rss = m["close_rss"]
    rows.append(("period close, peak RSS", rss.shown("MB", digits=0), "", "", "< 600 MB",
                 _verdict(rss.median < 600)))
    tab = m["close_table"]
    if tab.values:
        ratio = tab.median / close.median
        rows.append(("period close, table on the terminal", tab.shown("s"), close.shown("s"),
                     f"{ratio:.2f}x", "<= 1.10x --json", _verdict(ratio <= 1.10)))
    rows.append((f"list --format csv ({players:,} players)", m["list_csv"].shown("s"), "", "",
                 "", "-"))
    check = m["db_check"]
    rows.append(("db check (the audit chain, list digests, every list recounted)",
                 check.shown("s"), close.shown("s") + " (close)",
                 f"{check.median / close.median:.1f}x", "(information)", "-"))
    p99 = percentile(hist.values, 99)
    rows.append((f"history in process, p50 / p99 ({len(hist.values)} players, {periods} periods)",
                 f"{hist.median:.1f} / {p99:.1f} ms", "", "", "p99 < 20 ms",
                 _verdict(p99 < 20)))
    help_s = start["help"].median
    cli99 = percentile(hist_cli.values, 99)
    rows.append((f"history through the CLI, p50 / p99 ({len(hist_cli.values)} players)",
                 f"{hist_cli.median * 1e3:.0f} / {cli99 * 1e3:.0f} ms",
                 f"{help_s * 1e3:.0f} ms (--help)", f"+{(cli99 - help_s) * 1e3:.0f} ms",
                 "<= start-up + 50 ms", _verdict(cli99 - help_s <= 0.050)))
    typer_s, sa_s = start["typer"].median, start["sqlalchemy"].median
    for key, what in (("help", "ledger --help"), ("calc", "ledger calc expected 2000 1800")):
        ratio = start[key].median / typer_s
        rows.append((f"start-up: {what}", start[key].shown("ms", 1e3, 0),
                     start["typer"].shown("ms", 1e3, 0) + " (3, typer)", f"{ratio:.2f}x",
                     "<= 1.5x", _verdict(ratio <= 1.5)))
    for key, what, floor in (("help", "ledger --help", "typer_help"),
                             ("calc", "ledger calc expected", "typer_app")):
        ratio = start[key].median / start[floor].median
        rows.append((f"start-up: {what} vs a one-command Typer app", start[key].shown("ms", 1e3, 0),
                     start[floor].shown("ms", 1e3, 0) + " (3b)", f"{ratio:.2f}x", "(information)",
                     "-"))
    extra = start["game_add"].median - sa_s
    rows.append(("start-up: ledger game add (small ledger)", start["game_add"].shown("ms", 1e3, 0),
                 start["sqlalchemy"].shown("ms", 1e3, 0) + " (3, sqlalchemy.orm+typer)",
                 f"+{extra * 1e3:.0f} ms", "<= +100 ms", _verdict(extra <= 0.100)))
    return rows


def machine() -> str:
    """Platform, CPU count, Python and SQLite versions."""
    return (f"{platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"SQLite {sqlite3.sqlite_version}")


def report(rows: list[Row], args: argparse.Namespace) -> None:
    from rich.console import Console
    from rich.table import Table
    players, games = federation.SIZES[args.size]
    db = "PostgreSQL" if args.db else "SQLite"
    title = (f"size {args.size} ({players:,} players, {games:,} games), {db}, "
             f"median of {args.runs} runs (min-max)")
    grid = Table(title=title)
    for column in ("measure", "value", "floor", "ratio", "target", "pass/fail"):
        grid.add_column(column)
    for row in rows:
        grid.add_row(*row, style="red" if row[5] == "FAIL" else None)
    Console(width=200).print(grid)
    print(machine())
    if args.no_results:
        return
    lines = [f"\n## {dt.date.today()}: {title}\n", f"{machine()}\n",
             "| measure | value | floor | ratio | target | pass/fail |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows]
    with RESULTS.open("a", encoding="utf-8") as handle:
        if handle.tell() == 0:
            handle.write("# Benchmark results (`python -m benchmarks`)\n")
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
