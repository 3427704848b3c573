"""Growth from M to L (issue 25: "every step linear, M to L within 12x for 10x the data"):
``python -m benchmarks.growth [--database SQLite|PostgreSQL] [--results FILE]``, or
``python -m benchmarks --growth [--db URL]`` (PostgreSQL when a URL is given).

Reads benchmarks/RESULTS.md (or FILE): its sections written by ``python -m benchmarks``, each
headed ``## DATE: size X (P players, G games), DATABASE...`` and holding the table
``| measure | value | floor | ratio | target | pass/fail |``. Takes the last M and the last L
section of that database with rows, and prints, for each measure in both, its M and L values,
the ratio L / M (and its floor's, where the row has one) and the target: 1.2 times the data's
growth (the L games over the M games: 10, so within 12x). A measure is matched across sizes
with its numbers left out (``import of the month (100,000 games)`` is ``import of the month
(1,000,000 games)``); its value is the first number of the cell (the median of the runs), or
the second for ``a / b`` (the p99 of ``history``'s p50 / p99), with the unit after it; values
in other units are not compared. The start-up and ``history`` rows do not grow with the data
(expected near 1x). Compare runs made back to back on the same machine's state: the floors'
L / M (10x or more when they were) shows whether they were. Exact: values are read as
``Decimal`` and divided as ``Fraction``, rounded only for printing.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
HEADING = re.compile(r"## \d{4}-\d\d-\d\d: size ([SML]) \(([\d,]+) players, ([\d,]+) games\), "
                     r"(SQLite|PostgreSQL)")
HEADER = "| measure | value | floor | ratio | target | pass/fail |"
NUMBER = r"\d[\d,]*(?:\.\d+)?"
VALUE = re.compile(rf"({NUMBER})(?: / ({NUMBER}))? (\S+)")
#: The target: L / M within this many times the data's growth (12x for 10x).
PER_DATA = Fraction(12, 10)


@dataclass(frozen=True)
class Section:
    """One run's section of RESULTS.md: its heading, size (S, M, L), players and games,
    database (SQLite or PostgreSQL) and table rows (measure, value cell, floor cell) in order."""

    heading: str
    size: str
    players: int
    games: int
    database: str
    rows: tuple[tuple[str, str, str], ...]


def sections(text: str) -> list[Section]:
    """The benchmark's sections of a RESULTS.md text, in order (other sections left out: web
    load, profiles, hand-measured runs). Only the rows of the table right under a section's
    heading count; a section may have none."""
    out: list[Section] = []
    current: tuple[str, re.Match[str]] | None = None
    rows: list[tuple[str, str, str]] = []
    in_table = False

    def close() -> None:
        if current is not None:
            heading, match = current
            out.append(Section(heading, match[1], int(match[2].replace(",", "")),
                               int(match[3].replace(",", "")), match[4], tuple(rows)))

    for line in text.splitlines():
        if line.startswith("## "):
            close()
            match = HEADING.match(line)
            current, rows, in_table = ((line, match) if match else None), [], False
        elif line.strip() == HEADER:
            in_table = current is not None and not rows
        elif in_table and line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((cells[0], cells[1], cells[2]))
        elif in_table and not line.startswith("|"):
            in_table = False
    close()
    return out


def last(found: list[Section], size: str, database: str) -> Section | None:
    """The last section of ``size`` and ``database`` with rows, or None."""
    matching = [s for s in found if s.size == size and s.database == database and s.rows]
    return matching[-1] if matching else None


def measure_key(measure: str) -> str:
    """The measure with each number as ``N``: the same row at every size."""
    return re.sub(NUMBER, "N", measure)


def value(cell: str) -> tuple[Decimal, str] | None:
    """The value of a cell and its unit: ``45.74 s (40.44-74.76)`` is (45.74, "s"), ``1.7 /
    9.9 ms`` is (9.9, "ms"); None when the cell starts with no number and unit."""
    match = VALUE.match(cell)
    if match is None:
        return None
    return Decimal((match[2] or match[1]).replace(",", "")), match[3]


@dataclass(frozen=True)
class Growth:
    """One measure's growth: its name (at L), M and L value cells, L / M of the values and of
    the floors (None: not comparable, or no floor)."""

    measure: str
    m: str
    l: str  # noqa: E741 (the size's name)
    ratio: Fraction | None
    floor_ratio: Fraction | None


def ratio(m_cell: str, l_cell: str) -> Fraction | None:
    """L / M of two cells' values, None unless both have one, in the same unit, M's not 0."""
    a, b = value(m_cell), value(l_cell)
    return Fraction(b[0]) / Fraction(a[0]) if a and b and a[1] == b[1] and a[0] else None


def growth(m: Section, l: Section) -> list[Growth]:  # noqa: E741
    """The measures of ``l`` that ``m`` has too, in ``l``'s order, with L / M."""
    at_m = {measure_key(name): (cell, floor) for name, cell, floor in m.rows}
    out = []
    for name, cell, floor in l.rows:
        if measure_key(name) in at_m:
            m_cell, m_floor = at_m[measure_key(name)]
            out.append(Growth(name, m_cell, cell, ratio(m_cell, cell), ratio(m_floor, floor)))
    return out


def target(m: Section, l: Section) -> Fraction:  # noqa: E741
    """The largest L / M that passes: ``PER_DATA`` times the games' growth."""
    return PER_DATA * Fraction(l.games, m.games)


def report(results: Path, database: str) -> int:
    """Print the growth table of ``results`` for ``database``; 1 when it lacks an M or L run."""
    from rich.console import Console
    from rich.table import Table
    found = sections(results.read_text(encoding="utf-8"))
    m, l = last(found, "M", database), last(found, "L", database)  # noqa: E741
    if m is None or l is None:
        print(f"{results}: no {'M' if m is None else 'L'} run on {database} with a table")
        return 1
    limit = target(m, l)
    grid = Table(title=f"Growth M -> L on {database}: {l.games / m.games:g}x the games, target "
                 f"L / M <= {float(limit):g}x")
    for column in ("measure", "M", "L", "L / M", "its floor's L / M", "target", "pass/fail"):
        grid.add_column(column)
    for g in growth(m, l):
        verdict = "-" if g.ratio is None else "pass" if g.ratio <= limit else "FAIL"
        grid.add_row(g.measure, g.m, g.l, shown(g.ratio), shown(g.floor_ratio),
                     f"<= {float(limit):g}x", verdict, style="red" if verdict == "FAIL" else None)
    console = Console(width=200)
    console.print(grid)
    print(f"M: {m.heading[3:]}\nL: {l.heading[3:]}")
    return 0


def shown(r: Fraction | None) -> str:
    """A ratio as ``12.34x`` (rounded half to even at 2 places), or ``-``."""
    return "-" if r is None else f"{Decimal(r.numerator) / Decimal(r.denominator):.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("SQLite", "PostgreSQL"), default="SQLite")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args()
    raise SystemExit(report(args.results, args.database))


if __name__ == "__main__":
    main()
