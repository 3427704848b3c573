"""The federation benchmark: ``python -m benchmarks [--size S|M|L] [--runs N] [--periods N]
[--db URL] [--no-results] [--no-site]``, or ``python -m benchmarks --growth [--db URL]``.

Run from the repository root (``ledger`` installed in the same Python). A synthetic federation
(``benchmarks.federation``, seeded) is loaded the documented ways: its register through ``ledger
import PLAYERS.csv --format players``, its month (2026-09) through ``ledger import`` of a CSV.
Each of ``--runs`` runs (default 3) starts from a fresh ledger and times, through the CLI in a
child process (wall time, and the child's own peak RSS: ``benchmarks.launch``): the register
import, the month's import, ``period close --json``, the close with its table on the
terminal (a file, 160 columns),
``list --format csv --output``, ``db check`` (the audit chain, each list revision against its
digest and recounted: issue 24; shown beside the close); then the site (``benchmarks.site_steps``,
skipped with ``--no-site``), on a copy of that ledger (on a ``--db`` URL, the ledger itself):
``site build`` into an empty folder, again with nothing changed (target under 2 s), then the
next month (2026-10: every tenth player, a tenth of the games) imported and closed, and the
site rebuilt after that close (target within 2x of it), with the largest peak RSS of the three
builds (target under 1 GB). Then, once: ``history`` p50/p99 over up
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

``--growth``: no run; the growth M -> L of the last M and L runs in RESULTS.md on SQLite (on
PostgreSQL with ``--db``), each measure's L / M against "within 12x for 10x the data"
(``benchmarks.growth``, also ``python -m benchmarks.growth``).

The modules: ``benchmarks.children`` (a child process through ``benchmarks.launch``, the
samples), ``benchmarks.ledgers`` (where the steps run, the ``history`` ledger),
``benchmarks.steps`` (the run), ``benchmarks.site_steps`` (the site's steps),
``benchmarks.table`` (the rows, the printed table and RESULTS.md), ``benchmarks.growth``.
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import tempfile
from pathlib import Path

from benchmarks import federation, growth
from benchmarks.ledgers import MAX_PERIODS
from benchmarks.steps import run
from benchmarks.table import report


def compile_ledger() -> None:
    """Write the bytecode of the ``ledger`` package this process (and so each child, which has
    its ``PYTHONPATH``) imports, as ``pip install`` does when it installs it: a source tree
    (``PYTHONPATH`` at a checkout) run under ``PYTHONDONTWRITEBYTECODE``, or one never run
    before, compiles every module it imports again in every child, about 35 ms of a ``ledger
    game add``'s start-up on this machine (2026-12-03) that an installed ledger does not pay.
    ``compileall`` writes the ``__pycache__`` files whatever that variable says; one already
    there and current is kept."""
    import ledger
    compileall.compile_dir(Path(ledger.__file__).parent, quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=sorted(federation.SIZES), default="S")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--periods", type=int, default=3, choices=range(1, MAX_PERIODS + 1),
                        metavar=f"1..{MAX_PERIODS}")
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite files)")
    parser.add_argument("--no-results", action="store_true", help="do not append RESULTS.md")
    parser.add_argument("--no-site", action="store_true",
                        help="skip the site rows (site build: full, unchanged, after a close)")
    parser.add_argument("--growth", action="store_true",
                        help="only print the growth M -> L of RESULTS.md's last M and L runs on "
                        "SQLite (PostgreSQL with --db): benchmarks.growth")
    args = parser.parse_args()
    if args.growth:
        raise SystemExit(growth.report(growth.RESULTS, "PostgreSQL" if args.db else "SQLite"))
    players, games = federation.SIZES[args.size]
    compile_ledger()
    work = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    try:
        rows = run(work, args.size, players, games, args.runs, args.periods, args.db,
                   site=not args.no_site)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(rows, args)


if __name__ == "__main__":
    main()
