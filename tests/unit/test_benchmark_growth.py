"""``benchmarks.growth``: the last M and L runs of a RESULTS.md for one database, and each
measure's L / M against "within 12x for 10x the data" (issue 25), on an excerpt written here."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from benchmarks.growth import growth, last, measure_key, sections, target, value

HEAD = "| measure | value | floor | ratio | target | pass/fail |\n|---|---|---|---|---|---|"
RESULTS = f"""# Benchmark results (`python -m benchmarks`)

Each section is one run.

## 2026-12-01: size M (20,000 players, 100,000 games), SQLite, median of 1 runs (min-max), older

Linux, 2 CPUs, Python 3.11.7, SQLite 3.40.1

{HEAD}
| import of the month (100,000 games) | 6.00 s | 2.00 s (1) | 0.33x speed | >= 0.5x speed | FAIL |
| history in process, p50 / p99 (200 players, 24 periods) | 5.5 / 8.8 ms |  |  | p99 < 20 ms | pass |

## 2026-12-02: size M (20,000 players, 100,000 games), SQLite, median of 3 runs (min-max), newer

{HEAD}
| import of the month (100,000 games) | 5.00 s (4.00-9.00) | 2.50 s (2.00-3.00) (1) | 0.50x | >= 0.5x | pass |
| period close --json vs floor (2a) | 2.40 s | 1.60 s (2a) | 1.5x | <= 1.5x | pass |
| import, peak RSS | 200 MB |  |  | < 600 MB, flat | pass |
| history in process, p50 / p99 (200 players, 3 periods) | 5.0 / 8.0 ms |  |  | p99 < 20 ms | pass |
| start-up: ledger --help | 150 ms (140-160) | 80 ms (3, typer) | 1.88x | <= 1.5x | FAIL |
| site build into an empty folder (20,008 files) | 61.70 s |  |  |  | - |

## 2026-12-02 (before: commit 5931868): web load, size M (20,000 players, 100,000 games), PostgreSQL

| route | p50 | p99 |
|---|---|---|
| /players | 10 ms | 90 ms |

## 2026-12-02: size M (20,000 players, 100,000 games), PostgreSQL 15 (a private server), median of 1 runs

{HEAD}
| import of the month (100,000 games) | 11.40 s | - | - | >= 0.5x speed | - |

## 2026-12-03: size L (200,000 players, 1,000,000 games), SQLite, median of 1 runs (min-max), with a table

Linux, 2 CPUs, Python 3.11.7, SQLite 3.40.1

{HEAD}
| import of the month (1,000,000 games) | 62.50 s | 30.00 s (1) | 0.48x speed | >= 0.5x speed | FAIL |
| period close --json vs floor (2a) | 30.00 s | 24.00 s (2a) | 1.2x | <= 1.2x | pass |
| import, peak RSS | 1,200 MB |  |  | < 600 MB, flat | FAIL |
| history in process, p50 / p99 (200 players, 1 periods) | 2.0 / 9.9 ms |  |  | p99 < 20 ms | pass |
| start-up: ledger --help | 0.15 s | 0.08 s (3, typer) | 1.88x | <= 1.5x | FAIL |
| site build into an empty folder (200,008 files) | 740.40 s |  |  |  | - |
| list --format csv (200,000 players) | 12.00 s |  |  |  | - |

The text under the table.

## 2026-12-03: size L (200,000 players, 1,000,000 games), SQLite, median of 1 runs, its table lost

Linux, 2 CPUs, Python 3.11.7, SQLite 3.40.1

## Profiles of the L close (2026-12-03)

{HEAD}
| import of the month (1,000,000 games) | 1.00 s |  |  |  |  |
"""


def test_sections_are_the_benchmark_runs_only() -> None:
    found = sections(RESULTS)
    # The two SQLite M runs, the PostgreSQL M run, the two L runs; not the web load (another
    # heading), nor the profiles (no size in the heading).
    assert [(s.size, s.database, len(s.rows)) for s in found] == [
        ("M", "SQLite", 2), ("M", "SQLite", 6), ("M", "PostgreSQL", 1), ("L", "SQLite", 7),
        ("L", "SQLite", 0)]
    assert (found[3].players, found[3].games) == (200_000, 1_000_000)
    assert found[3].rows[2] == ("import, peak RSS", "1,200 MB", "")


def test_last_m_and_l_of_one_database() -> None:
    found = sections(RESULTS)
    m, l = last(found, "M", "SQLite"), last(found, "L", "SQLite")  # noqa: E741
    assert m is not None and m.heading.endswith("newer")
    assert l is not None and l.heading.endswith("with a table")  # the later L has no rows
    assert last(found, "L", "PostgreSQL") is None
    # 1.2 x (1,000,000 / 100,000 games) = 12
    assert target(m, l) == 12


def test_values_and_keys() -> None:
    assert value("45.74 s (40.44-74.76)") == (Decimal("45.74"), "s")
    assert value("1.7 / 9.9 ms") == (Decimal("9.9"), "ms")  # the p99 of p50 / p99
    assert value("1,232 MB") == (Decimal(1232), "MB")
    assert value("-") is None and value("") is None
    assert (measure_key("import of the month (100,000 games)")
            == measure_key("import of the month (1,000,000 games)")
            == "import of the month (N games)")
    assert measure_key("period close --json vs floor (2a)") == "period close --json vs floor (Na)"


def test_growth_l_over_m() -> None:
    found = sections(RESULTS)
    m, l = last(found, "M", "SQLite"), last(found, "L", "SQLite")  # noqa: E741
    assert m is not None and l is not None
    rows = {g.measure: (g.ratio, g.floor_ratio) for g in growth(m, l)}
    # By hand, L / M of the newer M run:
    #   import of the month 62.50 / 5.00 = 12.5, its floor 30.00 / 2.50 = 12
    #   close (2a) 30.00 / 2.40 = 12.5, its floor 24.00 / 1.60 = 15
    #   import peak RSS 1,200 / 200 = 6 (no floor)
    #   history p99 9.9 / 8.0 = 99/80 (1.2375)
    #   start-up: ms at M, s at L: not compared (nor the floors)
    #   site build 740.40 / 61.70 = 12 (61.70 x 12 = 740.40)
    #   list --format csv: not in the M run, left out
    assert list(rows) == [
        "import of the month (1,000,000 games)", "period close --json vs floor (2a)",
        "import, peak RSS", "history in process, p50 / p99 (200 players, 1 periods)",
        "start-up: ledger --help", "site build into an empty folder (200,008 files)"]
    assert rows["import of the month (1,000,000 games)"] == (Fraction(25, 2), 12)
    assert rows["period close --json vs floor (2a)"] == (Fraction(25, 2), 15)
    assert rows["import, peak RSS"] == (6, None)
    assert rows["history in process, p50 / p99 (200 players, 1 periods)"] == (Fraction(99, 80),
                                                                               None)
    assert rows["start-up: ledger --help"] == (None, None)
    assert rows["site build into an empty folder (200,008 files)"] == (12, None)
