"""The floors ``python -m benchmarks`` compares the ledger with: plain ``sqlite3`` and Python.

- (1) ``insert_games``: the game rows the ledger's import wrote, inserted again with one
  ``executemany`` into a copy of the ledger before the import, in one transaction.
- (2) ``close_floor``: read the month's games and every player's rating, sum each player's
  S - PD in integer hundredths with a lookup in table 8.1.2 (copied below as data, not taken
  from the ledger's rules) and the 400-point cap, write one row per player (K 20 for all);
  (2a) the same, writing one audit row per game and player as well (the ledger's
  ``period_games`` before revision 0010, which packs the audit into one row per player).

Each returns its wall time in seconds; none uses SQLAlchemy or the ledger's code. Each connection
gets the page cache the ledger gives its own (``ledger.db.engine.SQLITE_CACHE_KIB``, a setting,
not code), so that a ratio measures the ledger's work and not a difference of settings.
"""

from __future__ import annotations

import sqlite3
import time
from collections import defaultdict
from pathlib import Path

from ledger.db.engine import SQLITE_CACHE_KIB

#: FIDE B.02 table 8.1.2: (largest |D| of the band, PD of the higher rated, hundredths); above
#: 735: 100. A copy of the published table, so that the floor shares no code with the ledger.
_BANDS = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58),
    (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66), (129, 67),
    (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74), (197, 75),
    (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81), (267, 82), (278, 83),
    (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90), (391, 91),
    (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98), (735, 99),
)
#: PD of the higher rated player by |D| 0..400 (the 400-point cap: a larger |D| counts as 400).
PD_BY_DIFF = [next(pd for top, pd in _BANDS if d <= top) for d in range(401)]


def _connect(db: Path) -> sqlite3.Connection:
    """A plain ``sqlite3`` connection to ``db`` with the ledger's page cache."""
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KIB}")
    return conn


#: White's score in hundredths by result code.
SCORE = {"1-0": 100, "1/2-1/2": 50, "0-1": 0}


def insert_games(db: Path, rows: list[tuple[object, ...]], columns: list[str]) -> float:
    """Seconds to insert ``rows`` (values of ``columns``) into ``games`` of ``db`` with one
    executemany and commit."""
    conn = _connect(db)
    try:
        t0 = time.perf_counter()
        conn.executemany(f"INSERT INTO games ({', '.join(columns)}) VALUES "
                         f"({', '.join('?' * len(columns))})", rows)
        conn.commit()
        return time.perf_counter() - t0
    finally:
        conn.close()


def game_rows(db: Path) -> tuple[list[str], list[tuple[object, ...]]]:
    """The columns (all but ``id``) and rows of ``games`` in ``db``."""
    conn = _connect(db)
    try:
        columns = [r[1] for r in conn.execute("PRAGMA table_info(games)") if r[1] != "id"]
        return columns, conn.execute(f"SELECT {', '.join(columns)} FROM games").fetchall()
    finally:
        conn.close()


def close_floor(db: Path, period: str, audit: bool) -> float:
    """Seconds for floor (2), or with ``audit`` (2a), on the games of ``period`` in ``db``:
    read, sum S - PD per player in hundredths, write ``floor_results`` (and ``floor_games``),
    commit."""
    conn = _connect(db)
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS floor_results (player_id INTEGER PRIMARY KEY, "
                     "rating_before INTEGER, games INTEGER, expected INTEGER, change INTEGER, "
                     "rating_after INTEGER)")
        conn.execute("CREATE TABLE IF NOT EXISTS floor_games (player_id INTEGER, game_id INTEGER,"
                     " opponent_id INTEGER, own INTEGER, opponent INTEGER, pd INTEGER, "
                     "score INTEGER, PRIMARY KEY (player_id, game_id))")
        conn.commit()
        t0 = time.perf_counter()
        rating = dict(conn.execute("SELECT player_id, rating FROM player_entries WHERE pool = "
                                   "'standard' AND rating IS NOT NULL"))
        sums: dict[int, int] = defaultdict(int)
        expected: dict[int, int] = defaultdict(int)
        games: dict[int, int] = defaultdict(int)
        trail: list[tuple[int, int, int, int, int, int, int]] = []
        for gid, white, black, result in conn.execute(
                "SELECT id, white_id, black_id, result FROM games WHERE period = ? AND "
                "pool = 'standard' AND played", (period,)):
            rw, rb = rating.get(white), rating.get(black)
            if rw is None or rb is None:
                continue
            d = rw - rb
            pd = PD_BY_DIFF[min(d, 400)] if d >= 0 else 100 - PD_BY_DIFF[min(-d, 400)]
            s = SCORE[result]
            sums[white] += s - pd
            sums[black] += pd - s
            expected[white] += pd
            expected[black] += 100 - pd
            games[white] += 1
            games[black] += 1
            if audit:
                trail.append((white, gid, black, rw, rb, pd, s))
                trail.append((black, gid, white, rb, rw, 100 - pd, 100 - s))
        rows = []
        for pid, total in sums.items():
            change = (abs(20 * total) + 50) // 100 * (1 if total >= 0 else -1)  # half away from 0
            rows.append((pid, rating[pid], games[pid], expected[pid], change, rating[pid] + change))
        conn.executemany("INSERT INTO floor_results VALUES (?, ?, ?, ?, ?, ?)", rows)
        if audit:
            conn.executemany("INSERT INTO floor_games VALUES (?, ?, ?, ?, ?, ?, ?)", trail)
        conn.commit()
        return time.perf_counter() - t0
    finally:
        conn.close()
