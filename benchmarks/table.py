"""The benchmark's table: its rows (measure, value, floor, ratio, target, pass/fail) from the
samples of a run, printed with Rich and appended, with the machine's description, to
benchmarks/RESULTS.md."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sqlite3
from pathlib import Path

from benchmarks import federation
from benchmarks.children import Samples, percentile

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"

Row = tuple[str, str, str, str, str, str]


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
    if m["site_full"].values:
        rows += site_rows(m)
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


def site_rows(m: dict[str, Samples]) -> list[Row]:
    """The site's rows (``benchmarks.site_steps``), issue 25's targets: the rebuild with nothing
    changed under 2 s (at L; at every size here, as the smaller sites are smaller), the rebuild
    after a close within 2x of that close, every build's peak RSS under 1 GB (at L, likewise)."""
    full, same, close, after = (m[k] for k in ("site_full", "site_same", "site_close",
                                                "site_after"))
    files, written = (round(m[k].median) for k in ("site_files", "site_after_written"))
    rss, ratio = m["site_rss"], after.median / close.median
    return [
        (f"site build into an empty folder ({files:,} files)", full.shown("s"), "", "", "",
         "-"),
        ("site rebuild, nothing changed", same.shown("s"), "", "", "< 2 s",
         _verdict(same.median < 2)),
        (f"site rebuild after a close ({written:,} files written)", after.shown("s"),
         close.shown("s") + " (its close)", f"{ratio:.1f}x", "<= 2x", _verdict(ratio <= 2)),
        ("site build, peak RSS (the largest of the three builds)", rss.shown("MB", digits=0),
         "", "", "< 1024 MB", _verdict(rss.median < 1024)),
    ]


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

