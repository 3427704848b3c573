"""The close rates from integer rows (``rules.period_rows``); ``db check`` recomputes with the
per-player reference rules (``rules.period.rate_period``). On the benchmark's seeded
federation (``benchmarks/federation.py``: juniors, 2400+ and a few 2650+ players, unrated
newcomers who play rated players and get initial ratings) a standard month and then a rapid
month (the 600-point rule, players unrated in rapid rated with their standard rating) are rated
both ways: every derived row (period_results, period_audits, list_entries, initial ratings ...)
is the same, and so is what the close stores. The small federation runs by default; the M month
(20,000 players, 100,000 games) with ``-m federation_m`` (README, "Benchmarks")."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from benchmarks import federation
from ledger.domain import RAPID, STANDARD, Period
from ledger.rules.editions import edition_for
from ledger.services.admin.recompute import check_ledger, recompute, stored_rows
from ledger.services.close.periods import close_period
from ledger.services.close.rating import derived_rows, rate
from ledger.services.core.session import transaction
from ledger.services.imports.games import import_file
from ledger.services.imports.players import import_players

TODAY = dt.date(2026, 12, 1)


def _sorted(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[tuple[Any, ...]]]:
    return {table: sorted(tuple(sorted(r.items())) for r in found) for table, found in rows.items()}


def _month(tmp_path: Path, register: list[federation.SyntheticPlayer], games: int, month: int,
           pool: str) -> str:
    path = tmp_path / f"games-{month}.csv"
    federation.write_month(path, register, games, 2026, month)
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([[*rows[0], "pool"], *([*r, pool] for r in rows[1:])])
    return str(path)


def both_ways(engine: Engine, period: Period, pool: str) -> dict[str, list[dict[str, Any]]]:
    """The derived rows of ``period`` in ``pool`` from rows and from the reference rules,
    asserted equal; returns them."""
    with transaction(engine, write=False) as session:
        fast = derived_rows(rate(session, period, edition_for(period), pool=pool), 1)
        reference = derived_rows(rate(session, period, edition_for(period), pool=pool,
                                      reference=True), 1)
    assert _sorted(fast) == _sorted(reference)
    return fast


def federation_both_ways(engine: Engine, tmp_path: Path, players: int, games: int) -> None:
    register = federation.federation(players)
    federation.write_register(tmp_path / "players.csv", register)
    import_players(engine, str(tmp_path / "players.csv"))
    import_file(engine, _month(tmp_path, register, games, 9, STANDARD), None, today=TODAY)
    september = both_ways(engine, Period(2026, 9), STANDARD)
    # what the federation gives: hundreds of players rated, juniors with K 40, 2400+ with K
    # 10, some players 2650+, newcomers rated for the first time
    assert len(september["period_results"]) > players // 2
    assert {r["k"] for r in september["period_results"]} >= {10, 20, 40}
    assert max(r["rating_before"] for r in september["period_results"]) >= 2650
    assert september["initial_ratings"]
    close_period(engine, "2026-09", today=TODAY)
    with transaction(engine, write=False) as session:
        assert _sorted(stored_rows(session, Period(2026, 9), 1)) == _sorted(september)
    import_file(engine, _month(tmp_path, register, games, 10, RAPID), None, today=TODAY)
    october = both_ways(engine, Period(2026, 10), RAPID)
    assert len(october["period_results"]) > players // 2
    close_period(engine, "2026-10", today=TODAY)
    with transaction(engine, write=False) as session:
        assert _sorted(recompute(session, Period(2026, 10), 1, RAPID)) == _sorted(october)
    assert check_ledger(engine).ok


def test_small_federation_both_ways(engine: Engine, tmp_path: Path) -> None:
    federation_both_ways(engine, tmp_path, 600, 3_000)


@pytest.mark.federation_m
def test_m_month_both_ways(engine: Engine, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if "federation_m" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the M month (a few minutes): run it with -m federation_m")
    federation_both_ways(engine, tmp_path, *federation.SIZES["M"])
