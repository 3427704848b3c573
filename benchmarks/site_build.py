"""How long ``ledger site build`` takes on a large ledger, and a second build with nothing changed.

Run from the repository root: ``python benchmarks/site_build.py [--players N]`` (default 20,000).
The ledger: the may13 list of examples/data repeated with new FIDE ids and names until it has N
players (``fide_list_import.synthetic_list``), imported as the standard list of 1 October 2026;
a CSV of one 4-round event in October 2026 in which every player plays every round (2N games);
October 2026 closed. Then the site is built into an empty folder (every file written) and built
again (every file unchanged, the list's bundle kept). Reported: the time of each step and of each
build, files and bytes, the bundle's size.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fide_list_import import synthetic_list  # noqa: E402

from ledger.formats.bundle import stamp  # noqa: E402
from ledger.services.admin.setup import init_ledger  # noqa: E402
from ledger.services.close.periods import close_period  # noqa: E402
from ledger.services.core.session import open_ledger  # noqa: E402
from ledger.services.imports.fide_lists import import_fide_list  # noqa: E402
from ledger.services.imports.games import import_file  # noqa: E402
from ledger.services.publishing.bundles import encoded_bundle  # noqa: E402
from ledger.services.publishing.site import build_site  # noqa: E402

ROUNDS = 4
RESULTS = ("1-0", "1/2-1/2", "0-1")


def games_csv(path: Path, players: int) -> int:
    """One event, ``ROUNDS`` rounds, every player in every round (player i against i + r + 1,
    in blocks), FIDE ids 90000001...; returns the number of games."""
    ids = [90000000 + n for n in range(1, players + 1)]
    rows = 0
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["date", "white", "black", "result", "event", "round", "white_fide_id",
                      "black_fide_id"])
        block = 2 * ROUNDS
        for start in range(0, players - players % block, block):
            group = ids[start:start + block]
            for r in range(ROUNDS):
                for i in range(ROUNDS):
                    white, black = group[i], group[ROUNDS + (i + r) % ROUNDS]
                    out.writerow([f"2026-10-{3 + 7 * r:02d}", f"#{white}", f"#{black}",
                                  RESULTS[(white + r) % 3], "Benchmark Open", r + 1, white,
                                  black])
                    rows += 1
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=20_000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ledger-site-bench-"))
    try:
        listing, games, db = work / "list.txt", work / "games.csv", str(work / "ledger.db")
        synthetic_list(listing, args.players)
        n_games = games_csv(games, args.players)
        init_ledger(db)
        engine = open_ledger(db)
        try:
            t0 = time.perf_counter()
            import_fide_list(engine, str(listing), list_date="2026-10-01", pool="standard")
            t1 = time.perf_counter()
            import_file(engine, str(games), "csv")
            t2 = time.perf_counter()
            close_period(engine, "2026-10")
            t3 = time.perf_counter()
            site = work / "site"
            first = build_site(engine, site, club="Benchmark", base_url_text=None,
                               date="2026-12-01", ledger=db)
            t4 = time.perf_counter()
            second = build_site(engine, site, club="Benchmark", base_url_text=None,
                                date="2026-12-01", ledger=db)
            t5 = time.perf_counter()
            encoded_bundle(engine, "standard", "2026-10", 1)
            t8 = time.perf_counter()
        finally:
            engine.dispose()
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        assert first.files.written == first.files.files and second.files.written == 0
        assert (first.files.made, second.files.made) == (first.bundles, 0)
        bundle = next((site / "bundles").iterdir())
        data = bundle.read_bytes()
        t6 = time.perf_counter()
        stamp(data)
        t7 = time.perf_counter()
    finally:
        shutil.rmtree(work)
    print(f"ledger: {args.players:,} players, {n_games:,} games; list import {t1 - t0:.1f} s, "
          f"games import {t2 - t1:.1f} s, close {t3 - t2:.1f} s")
    print(f"site: {first.files.files:,} files, {size / 1e6:.0f} MB "
          f"({first.players:,} player pages, {first.lists} list, {first.events} tournament)")
    print(f"first build (every file written): {t4 - t3:.1f} s")
    print(f"second build (nothing changed, {second.files.unchanged:,} files unchanged, the "
          f"bundle kept): {t5 - t4:.1f} s")
    print(f"the list's bundle: {len(data) / 1e6:.1f} MB, made by the first build (made alone: "
          f"{t8 - t5:.1f} s); its list digest and signer read in its bytes (the check before "
          f"keeping it): {(t7 - t6) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
