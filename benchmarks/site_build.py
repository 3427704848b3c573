"""How long ``ledger site build`` takes on a large ledger: the full build, a rebuild with nothing
changed, a rebuild with only another build date, and a rebuild after a month's close next to the
close itself (issue 25).

Run from the repository root: ``python benchmarks/site_build.py [--players N]`` (default 20,000).
The ledger: the may13 list of examples/data repeated with new FIDE ids and names until it has N
players (``fide_list_import.synthetic_list``), imported as the standard list of 1 October 2026;
a CSV of one 4-round event in October 2026 in which every player plays every round (2N games);
October 2026 closed. Then the site is built into an empty folder (every file written), built
again (nothing changed: nothing gathered or written), built with another date (the home page
only); the gather (``site_data``) and the rendering (``render_site``) are timed on their own
once; then a November event of the same shape is imported and November closed, and the site
built again. The first build makes the list's bundle, which later builds keep; the bundle is
also made alone, and the check before keeping it (its list digest and signer read in its bytes)
timed. Reported: the time of each step and of each build (wall, and the process's CPU
seconds of the builds and closes), files and bytes, the bundle's size.
Then a December event where a tenth of the players play, December closed, the site built
again (``--profile FILE``: that rebuild under cProfile), and a full build of the same ledger
into an empty folder, compared byte for byte. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import datetime as dt
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fide_list_import import synthetic_list  # noqa: E402

from ledger.formats.bundle import stamp  # noqa: E402
from ledger.formats.site.pages import render_site  # noqa: E402
from ledger.services.admin.setup import init_ledger  # noqa: E402
from ledger.services.close.periods import close_period  # noqa: E402
from ledger.services.core.session import open_ledger  # noqa: E402
from ledger.services.imports.fide_lists import import_fide_list  # noqa: E402
from ledger.services.imports.games import import_file  # noqa: E402
from ledger.services.publishing.bundles import encoded_bundle  # noqa: E402
from ledger.services.publishing.site import site_data  # noqa: E402
from ledger.services.publishing.site_build import SiteBuild, build_site  # noqa: E402

ROUNDS = 4
RESULTS = ("1-0", "1/2-1/2", "0-1")
T = TypeVar("T")


def games_csv(path: Path, players: int, month: int = 10, step: int = 1) -> int:
    """One event of ``month`` 2026, ``ROUNDS`` rounds, every ``step``-th player (FIDE ids
    90000001...) in every round (player i against i + r + 1, in blocks); returns the number
    of games."""
    ids = [90000000 + n for n in range(1, players + 1, step)]
    players = len(ids)
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
                    # December's rounds by the 3rd: the import takes no game after today
                    day = 3 + 7 * r if month < 12 else (1, 2, 3, 3)[r]
                    out.writerow([f"2026-{month:02d}-{day:02d}", f"#{white}", f"#{black}",
                                  RESULTS[(white + r + month) % 3], f"Benchmark Open {month}",
                                  r + 1, white, black])
                    rows += 1
    return rows


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file of a site folder but the build's record, path -> bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != ".ledger-site.json"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--profile", help="write the cProfile of the rebuild after the small "
                        "close (a tenth of the players playing) to this file")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ledger-site-bench-"))
    times: dict[str, float] = {}
    cpu: dict[str, float] = {}

    def timed(name: str, step: Callable[[], T]) -> T:
        start, used = time.perf_counter(), time.process_time()
        done = step()
        times[name] = time.perf_counter() - start
        cpu[name] = time.process_time() - used
        return done

    try:
        listing, games, db = work / "list.txt", work / "games.csv", str(work / "ledger.db")
        synthetic_list(listing, args.players)
        n_games = games_csv(games, args.players)
        init_ledger(db)
        engine = open_ledger(db)
        site = work / "site"

        def build(date: str = "2026-12-01") -> SiteBuild:
            return build_site(engine, site, club="Benchmark", base_url_text=None, date=date,
                              ledger=db)

        try:
            timed("list import", lambda: import_fide_list(
                engine, str(listing), list_date="2026-10-01", pool="standard"))
            timed("games import", lambda: import_file(engine, str(games), "csv"))
            timed("close", lambda: close_period(engine, "2026-10"))
            first = timed("full build", build)
            size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
            same = timed("nothing changed", build)
            redated = timed("another date", lambda: build("2026-12-02"))
            gathered = timed("gather", lambda: site_data(
                engine, club="Benchmark", built_on=dt.date(2026, 12, 2)))
            timed("render", lambda: sum(1 for _ in render_site(gathered)))
            games_csv(games, args.players, month=11)
            timed("November import", lambda: import_file(engine, str(games), "csv"))
            timed("November close", lambda: close_period(engine, "2026-11"))
            closed = timed("after the close", lambda: build("2026-12-02"))
            few = games_csv(games, args.players, month=12, step=10)
            timed("December import", lambda: import_file(engine, str(games), "csv"))
            timed("December close", lambda: close_period(engine, "2026-12",
                                                         today=dt.date(2027, 1, 4)))
            if args.profile:
                profile = cProfile.Profile()
                december = profile.runcall(timed, "after the small close",
                                           lambda: build("2026-12-02"))
                profile.dump_stats(args.profile)
            else:
                december = timed("after the small close", lambda: build("2026-12-02"))
            timed("full build after", lambda: build_site(
                engine, work / "fresh", club="Benchmark", base_url_text=None, date="2026-12-02",
                ledger=db))
            made, full = tree_bytes(site), tree_bytes(work / "fresh")
            same_bytes = made == full
            if not same_bytes:
                print("differ:", sorted(n for n in made.keys() | full.keys()
                                        if made.get(n) != full.get(n))[:20])
            timed("bundle alone", lambda: encoded_bundle(engine, "standard", "2026-10", 1))
        finally:
            engine.dispose()
        assert first.files.written == first.files.files
        assert same.files.written == 0 and same.unchanged_since is not None
        assert redated.files.written == 1 and redated.unchanged_since is not None
        assert closed.unchanged_since is None and closed.lists == 2
        assert (first.files.made, same.files.made) == (first.bundles, 0)
        bundle = site / "bundles" / "standard-2026-10-r1.json"
        data = bundle.read_bytes()
        t0 = time.perf_counter()
        stamp(data)
        check_ms = (time.perf_counter() - t0) * 1000
    finally:
        shutil.rmtree(work)
    print(f"ledger: {args.players:,} players, {n_games:,} games a month; list import "
          f"{times['list import']:.1f} s, games import {times['games import']:.1f} s, close "
          f"{times['close']:.1f} s")
    print(f"site: {first.files.files:,} files, {size / 1e6:.0f} MB "
          f"({first.players:,} player pages, {first.lists} list, {first.events} tournament)")
    print(f"full build (every file written): {times['full build']:.1f} s (gather "
          f"{times['gather']:.1f} s, render {times['render']:.1f} s, timed apart)")
    print(f"rebuild, nothing changed (nothing gathered, none of {same.files.files:,} files "
          f"written): {times['nothing changed']:.2f} s")
    print(f"rebuild, another build date ({redated.files.written} file written): "
          f"{times['another date']:.2f} s")
    print(f"November: import {times['November import']:.1f} s, close "
          f"{times['November close']:.1f} s; rebuild after the close ({closed.files.written:,} "
          f"written, {closed.files.unchanged:,} unchanged): {times['after the close']:.1f} s = "
          f"{times['after the close'] / times['November close']:.1f}x the close")
    print(f"December, {few:,} games (a tenth of the players): import "
          f"{times['December import']:.1f} s, close {times['December close']:.1f} s; rebuild "
          f"after the close ({december.files.written:,} written, {december.files.unchanged:,} "
          f"unchanged): {times['after the small close']:.1f} s = "
          f"{times['after the small close'] / times['December close']:.1f}x the close; a full "
          f"build of the same ledger into an empty folder {times['full build after']:.1f} s, "
          f"{'the same bytes' if same_bytes else 'OTHER BYTES'}")
    print("CPU seconds (this process: the machine's load inflates the wall times above): "
          f"full build {cpu['full build']:.1f}, November close {cpu['November close']:.1f} and "
          f"rebuild {cpu['after the close']:.1f} "
          f"({cpu['after the close'] / cpu['November close']:.1f}x), December close "
          f"{cpu['December close']:.1f} and rebuild {cpu['after the small close']:.1f} "
          f"({cpu['after the small close'] / cpu['December close']:.1f}x), the full build after "
          f"{cpu['full build after']:.1f}")
    print(f"the October list's bundle: {len(data) / 1e6:.1f} MB, made by the first build (made "
          f"alone: {times['bundle alone']:.1f} s); its list digest and signer read in its bytes "
          f"(the check before keeping it): {check_ms:.0f} ms")


if __name__ == "__main__":
    main()
