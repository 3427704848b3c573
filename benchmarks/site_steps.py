"""The benchmark's site steps (issue 25): ``ledger site build`` through the CLI in a child process,
on a run's ledger after its close and the other steps (``--no-site`` skips them).

Each run: (1) the full build into an empty folder; (2) a rebuild with nothing changed; then the
next month (``SITE_MONTH``, 2026-10) of a tenth of the players (every tenth of the register, a
tenth of the month's games: like ``benchmarks/site_build.py``'s small month) is imported and
closed with ``--json``, that close timed, and (3) the site rebuilt after it. Every build gives
the same ``--date`` (``SITE_DATE``), so that the rebuild with nothing changed has nothing to
write; and ``--json``, read back for the number of files and those written. Samples (seconds,
MB): ``site_full``, ``site_same``, ``site_close``, ``site_after``, ``site_rss`` (the largest
peak RSS of the three builds, each the child's own), and ``site_files`` /
``site_after_written`` (counts). Each run also prints each step's wall and CPU seconds to
stderr (CPU: the steady figure on a shared machine).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from benchmarks import federation
from benchmarks.children import Child, Samples, ledger

#: The month imported and closed between the site's second and third builds.
SITE_MONTH = (2026, 10)
#: The build date every build gives (the home page shows it).
SITE_DATE = "2026-12-01"
#: The measures ``site_steps`` adds to.
SITE_MEASURES = ("site_full", "site_same", "site_close", "site_after", "site_rss", "site_files",
                 "site_after_written")


def site_month(work: Path, register: list[federation.SyntheticPlayer], games: int) -> Path:
    """The CSV of ``SITE_MONTH``: every tenth player of ``register``, ``games // 10`` games."""
    year, month = SITE_MONTH
    path = work / f"site-games-{year}-{month:02d}.csv"
    federation.write_month(path, register[::10], games // 10, year, month)
    return path


def _build(db: str, site: Path, out: Path) -> tuple[Child, dict[str, int]]:
    """One ``site build --json`` of ``db`` into ``site``: the child and its JSON report."""
    step = ledger(db, "site", "build", str(site), "--club", "Benchmark", "--date", SITE_DATE,
                  "--json", stdout=out)
    return step, json.loads(out.read_text(encoding="utf-8"))


def site_steps(work: Path, db: str, month_csv: Path, m: dict[str, Samples]) -> None:
    """The site steps of one run on ``db`` (a ledger after the run's close; the month of
    ``month_csv`` is imported into it and closed); the site's folder is removed after them.
    Raises ``SystemExit`` when a step fails, or ``AssertionError`` when a build did not do what
    it is measured for (the first writes every file, the second none)."""
    site, out = work / "site", work / "site.json"
    shutil.rmtree(site, ignore_errors=True)
    try:
        full, first = _build(db, site, out)
        assert first["written"] == first["files"], first
        same, second = _build(db, site, out)
        assert second["written"] == 0, second
        year, month = SITE_MONTH
        ledger(db, "import", str(month_csv), "--quiet")
        close = ledger(db, "period", "close", f"{year}-{month:02d}", "--json",
                       stdout=work / "site-close.json")
        after, third = _build(db, site, out)
    finally:
        shutil.rmtree(site, ignore_errors=True)
    m["site_full"].add(full.seconds)
    m["site_same"].add(same.seconds)
    m["site_close"].add(close.seconds)
    m["site_after"].add(after.seconds)
    m["site_rss"].add(max(full.rss_mb, same.rss_mb, after.rss_mb))
    m["site_files"].add(first["files"])
    m["site_after_written"].add(third["written"])
    print(f"site: full build {full.seconds:.2f} s (CPU {full.cpu:.2f} s), nothing changed "
          f"{same.seconds:.2f} s (CPU {same.cpu:.2f} s), close {close.seconds:.2f} s (CPU "
          f"{close.cpu:.2f} s), after it {after.seconds:.2f} s (CPU {after.cpu:.2f} s); peak RSS "
          f"{full.rss_mb:.0f} / {same.rss_mb:.0f} / {after.rss_mb:.0f} MB",
          file=sys.stderr)
