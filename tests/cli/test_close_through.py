"""``ledger period close --through YYYY-MM`` (issue 9, item 8): every open period with games up
to that month, in order, each in its own transaction, stopping at the first refusal."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def _run(db: str, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", db, *args])


@pytest.fixture
def db(new_ledger: Factory) -> str:
    path = new_ledger("through")
    for args in (("player", "add", "Alpha, Ann", "--rating", "2000", "--prior-games", "100"),
                 ("player", "add", "Beta, Bob", "--rating", "1900", "--prior-games", "100"),
                 ("game", "add", "Alpha, Ann", "Beta, Bob", "1-0", "--date", "2026-09-10"),
                 ("game", "add", "Alpha, Ann", "Beta, Bob", "1/2-1/2", "--date", "2026-10-10"),
                 ("game", "add", "Beta, Bob", "Alpha, Ann", "1/2-1/2", "--date", "2026-11-10")):
        result = _run(path, *args)
        assert result.exit_code == 0, result.output
    return path


def _closed(db: str) -> list[str]:
    return [p["period"] for p in json.loads(_run(db, "period", "list", "--json").stdout)["periods"]]


def _alpha(close: dict[str, object]) -> dict[str, object]:
    return next(r for r in close["results"] if r["name"] == "Alpha, Ann")  # type: ignore[attr-defined]


def test_through_closes_each_period_in_order_and_no_further(db: str) -> None:
    result = _run(db, "period", "close", "--through", "2026-10", "--json")
    assert result.exit_code == 0, result.output
    closes = json.loads(result.stdout)["closed"]
    assert [c["period"] for c in closes] == ["2026-09", "2026-10"]
    # September: Alpha 2000 beats Beta 1900: D = 100 -> PD .64; 20 x (1 - .64) = +7.2 -> +7.
    assert (_alpha(closes[0])["rating_before"], _alpha(closes[0])["change"]) == (2000, 7)
    # October from the September list: Alpha 2007 draws Beta 1893: D = 114 -> PD .66;
    # 20 x (.5 - .66) = -3.2 -> -3 -> 2004.
    assert (_alpha(closes[1])["rating_before"], _alpha(closes[1])["rating_after"]) == (2007, 2004)
    assert _closed(db) == ["2026-09", "2026-10"]


def test_dry_run_shows_every_period_and_writes_nothing(db: str) -> None:
    result = _run(db, "period", "close", "--through", "2026-11", "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    closes = json.loads(result.stdout)["closed"]
    assert [c["period"] for c in closes] == ["2026-09", "2026-10", "2026-11"]
    assert all(c["dry_run"] for c in closes)
    # November from the October list (2004 v 1896): D = 108 -> PD .65; 20 x (.5 - .65) = -3.0
    assert (_alpha(closes[2])["rating_before"], _alpha(closes[2])["change"]) == (2004, -3)
    assert _closed(db) == []


def test_it_stops_at_the_first_refusal_keeping_what_it_closed(db: str) -> None:
    # A game today: this month has not ended, so its close is refused (whatever today is).
    today = dt.date.today()
    added = _run(db, "game", "add", "Alpha, Ann", "Beta, Bob", "0-1", "--date", today.isoformat())
    assert added.exit_code == 0, added.output
    month = today.isoformat()[:7]
    result = _run(db, "period", "close", "--through", month)
    assert result.exit_code == 1
    assert f"stopped at {month}: period {month} has not ended yet" in result.stderr
    assert "closed before it: 2026-09, 2026-10, 2026-11" in result.stderr
    assert _closed(db) == ["2026-09", "2026-10", "2026-11"]


def test_a_period_and_through_together_is_a_usage_error(db: str) -> None:
    result = _run(db, "period", "close", "2026-09", "--through", "2026-10")
    assert result.exit_code == 2
    assert _closed(db) == []


def test_nothing_to_close_through_an_earlier_month(db: str) -> None:
    result = _run(db, "period", "close", "--through", "2026-08")
    assert result.exit_code == 1
    assert "nothing to close through 2026-08" in result.stderr


def test_a_named_period_without_games_is_refused_unless_empty(db: str) -> None:
    # 2026-08 has no games: closing it would lock it (and every earlier month) for nothing
    result = _run(db, "period", "close", "2026-08")
    assert result.exit_code == 1
    assert ("period 2026-08 has no games to rate: closing it would publish the list unchanged "
            "and lock 2026-08 and every period before it") in " ".join(result.stderr.split())
    assert _closed(db) == []
    forced = _run(db, "period", "close", "2026-08", "--empty", "--json")
    assert forced.exit_code == 0, forced.output
    assert json.loads(forced.stdout)["games"] == 0
    assert _closed(db) == ["2026-08"]
