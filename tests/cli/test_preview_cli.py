"""A preview before the month ends (issue 21 §6, item 1): ``period close --dry-run`` of the
period today is in, labelled a preview, and ``ledger list --preview``, the list the close would
publish today; neither writes anything. Today is fixed by replacing ``core.clock.today``."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable

import pytest
from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.services.core import clock


def _run(db: str, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", db, *args])


@pytest.fixture
def db(new_ledger: Factory) -> str:
    path = new_ledger("preview")
    for args in (("player", "add", "Alpha, Ann", "--rating", "2000", "--prior-games", "100"),
                 ("player", "add", "Beta, Bob", "--rating", "1900", "--prior-games", "100"),
                 ("game", "add", "Alpha, Ann", "Beta, Bob", "1-0", "--date", "2026-11-10")):
        result = _run(path, *args)
        assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def on(monkeypatch: pytest.MonkeyPatch) -> Callable[[dt.date], None]:
    """Make ``day`` today for the ledger (its one clock)."""
    return lambda day: monkeypatch.setattr(clock, "today", lambda: day)


def _written(db: str) -> tuple[list[str], int]:
    """The closed periods and the number of changes in the audit log."""
    periods = json.loads(_run(db, "period", "list", "--json").stdout)["periods"]
    changes = json.loads(_run(db, "audit", "--json").stdout)["changes"]
    return [p["period"] for p in periods], len(changes)


def test_dry_run_of_the_month_not_ended_is_a_labelled_preview(db: str, on) -> None:
    on(dt.date(2026, 11, 20))  # 2026-11 runs to the 30th
    before = _written(db)
    result = _run(db, "period", "close", "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    close = json.loads(result.stdout)
    assert (close["period"], close["dry_run"], close["preview"]) == ("2026-11", True, True)
    # Alpha 2000 beats Beta 1900: D = 100 -> PD .64 (table 8.1.2); 20 x (1 - .64) = +7.2 -> +7
    assert {r["name"]: (r["change"], r["rating_after"]) for r in close["results"]} == {
        "Alpha, Ann": (7, 2007), "Beta, Bob": (-7, 1893)}
    table = _run(db, "period", "close", "--dry-run")
    assert table.exit_code == 0, table.output
    shown = " ".join(table.stdout.split())  # the title may fold
    assert "Rating period 2026-11 (preview: the period has not ended; dry run" in shown
    assert "games still to come in 2026-11 will change these figures" in shown
    assert _written(db) == before == ([], 3)  # two players and a game: nothing more


def test_closing_the_month_not_ended_is_still_refused(db: str, on) -> None:
    on(dt.date(2026, 11, 20))
    result = _run(db, "period", "close")
    assert result.exit_code == 1
    assert ("period 2026-11 has not ended yet (its last day is 2026-11-30); it can be closed "
            "from 2026-12-01; `period close --dry-run` previews it") in result.stderr
    assert _written(db) == ([], 3)


def test_dry_run_of_an_ended_month_is_no_preview(db: str, on) -> None:
    on(dt.date(2026, 12, 1))
    close = json.loads(_run(db, "period", "close", "--dry-run", "--json").stdout)
    assert (close["period"], close["dry_run"], close["preview"]) == ("2026-11", True, False)


def test_list_preview_is_the_list_the_close_would_publish(db: str, on) -> None:
    on(dt.date(2026, 11, 20))
    assert _run(db, "list").exit_code == 1  # nothing published yet
    result = _run(db, "list", "--preview", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert (shown["period"], shown["in_force_from"], shown["preview"], shown["period_ended"]) == (
        "2026-11", "2026-12-01", True, False)
    # the close's ratings above: 2000 + 7, 1900 - 7, each with one rated game, K 20 (2000 and
    # more than 30 games: B.02 §8.3.3)
    assert [(p["rank"], p["name"], p["rating"], p["games"], p["k"]) for p in shown["players"]] == [
        (1, "Alpha, Ann", 2007, 1, 20), (2, "Beta, Bob", 1893, 1, 20)]
    assert "preview: the list closing 2026-11 would publish today; nothing is written (the " \
        "period has not ended" in result.stderr
    table = _run(db, "list", "--preview")
    assert "preview, not published: the period has not ended" in " ".join(table.stdout.split())
    html = _run(db, "list", "--preview", "--format", "html", "--club", "Riverside")
    assert "Preview, not published: rating list after rating period 2026-11" in html.stdout
    assert _written(db) == ([], 3)
    # the close, once the month has ended, publishes exactly that list
    on(dt.date(2026, 12, 1))
    assert json.loads(_run(db, "list", "--preview", "--json").stdout)["period_ended"] is True
    assert _run(db, "period", "close").exit_code == 0
    published = json.loads(_run(db, "list", "--json").stdout)
    assert "preview" not in published
    assert published["players"] == shown["players"]


def test_list_preview_takes_the_filters_and_no_period(db: str, on) -> None:
    on(dt.date(2026, 11, 20))
    top = json.loads(_run(db, "list", "--preview", "--top", "1", "--json").stdout)
    assert [p["name"] for p in top["players"]] == ["Alpha, Ann"]
    for extra in (("--period", "2026-11"), ("--revision", "1")):
        result = _run(db, "list", "--preview", *extra)
        assert result.exit_code == 2
        assert f"give no {extra[0]} with it" in result.stderr


def test_list_preview_with_nothing_open(new_ledger: Factory) -> None:
    result = _run(new_ledger("empty"), "list", "--preview")
    assert result.exit_code == 1
    assert "nothing to close: no games are recorded in open periods" in result.stderr


def test_a_dry_run_through_the_month_not_ended_previews_it(db: str, on) -> None:
    on(dt.date(2026, 11, 20))
    result = _run(db, "period", "close", "--through", "2026-11", "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    [close] = json.loads(result.stdout)["closed"]
    assert (close["period"], close["preview"]) == ("2026-11", True)
    # refused without --dry-run, naming the month and the preview
    refused = _run(db, "period", "close", "--through", "2026-11")
    assert refused.exit_code == 1
    assert "stopped at 2026-11: period 2026-11 has not ended yet" in refused.stderr
    assert _written(db) == ([], 3)
