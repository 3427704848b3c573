"""``ledger db copy`` killed with SIGKILL (tests/processes.py: ``Pause`` and ``AfterCommit``,
hooks in the killed process only) at several points, on the run's database (SQLite, or
PostgreSQL with ``--database-url``): before its commit the target keeps nothing; after it, the
target is a copy marked unverified, which every command refuses and which ``db copy`` finishes:
it resumes the verification when every row is still the source's, and copies again over it when
the source has changed since.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ledgers import Factory, contents
from processes import AfterCommit, Pause, start
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from ledger.db.revision import HEAD_REVISION
from ledger.services.close.periods import close_period
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player

#: Where a killed copy stops: just before its commit; at the first statement after it (the
#: verification begins); at its 40th (the player list and the rating list read back, the
#: histories not yet); at the first write after it (the mark of the unverified copy removed).
POINTS = {
    "before-commit": lambda folder: Pause(folder, 0),
    "after-commit": lambda folder: AfterCommit(folder, 1),
    "verifying": lambda folder: AfterCommit(folder, 40),
    "marking-verified": lambda folder: AfterCommit(folder, 1, writing=True),
}


@pytest.fixture
def source(ledger_db: str, engine: Engine) -> str:
    """A ledger with four players, two games and October 2026 closed."""
    for i, name in enumerate(("Alpha, Ann", "Beta, Bob", "Gamma, Gil", "Delta, Dan")):
        add_player(engine, NewPlayer(name, rating=1800 + 50 * i, prior_games=100))
    add_game(engine, "Alpha, Ann", "Beta, Bob", "1-0", "2026-10-03", "Club Night", "1")
    add_game(engine, "Gamma, Gil", "Delta, Dan", "0-1", "2026-10-03", "Club Night", "1")
    close_period(engine, "2026-10")
    return ledger_db


def named(db: str) -> str:
    """The ledger ``db`` as messages name it: a path as given, a URL without its password."""
    return make_url(db).render_as_string(hide_password=True) if "://" in db else db


def _killed(point: str, source: str, target: str, tmp_path: Path) -> None:
    killed = start(tmp_path / "killed", [("--db", source, "db", "copy", "--to", target)],
                   pause=POINTS[point](tmp_path / "pause"))
    killed.wait_paused()
    killed.kill()


def _copy(source: str, target: str, folder: Path) -> dict:  # type: ignore[type-arg]
    again = start(folder, [("--db", source, "db", "copy", "--to", target, "--json")])
    assert again.wait() == 0, again.stderr
    return json.loads(again.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("point", list(POINTS))
def test_a_copy_killed_is_finished_by_the_next(source: str, new_database: Factory,
                                               tmp_path: Path, point: str) -> None:
    target = new_database("copy")
    _killed(point, source, target, tmp_path)
    if point != "before-commit":
        # a complete copy, not verified: every command refuses it and says how to finish it
        refused = start(tmp_path / "refused", [("--db", target, "player", "list")])
        assert refused.wait() == 1
        said = " ".join(refused.stderr.split())
        assert "is an unverified copy of" in said and "(`ledger db copy` stopped before" in said
        assert f"`ledger --db {named(source)} db copy --to {named(target)}`" in said
    report = _copy(source, target, tmp_path / "again")
    if point == "before-commit":  # the copy's transaction left nothing
        assert (report["done"], report["earlier"]) == ("copied", None)
    else:
        assert report["done"] == "resumed"
        assert report["earlier"].startswith(f"{named(source)}, copied at ")
    assert (report["players"], report["rating_lists"], report["histories"]) == (4, 1, 4)
    assert contents(target) == contents(source)
    listed = start(tmp_path / "listed", [("--db", target, "player", "list", "--json")])
    assert listed.wait() == 0, listed.stderr
    assert [p["name"] for p in json.loads(listed.stdout)["players"]] == [
        "Alpha, Ann", "Beta, Bob", "Delta, Dan", "Gamma, Gil"]


def test_an_unverified_copy_of_a_ledger_changed_since_is_copied_again(
        source: str, engine: Engine, new_database: Factory, tmp_path: Path) -> None:
    target = new_database("copy")
    _killed("verifying", source, target, tmp_path)
    add_player(engine, NewPlayer("Epsilon, Eve", rating=1700))
    again = start(tmp_path / "again", [("--db", source, "db", "copy", "--to", target)])
    assert again.wait() == 0, again.stderr
    said = " ".join(again.stdout.split())
    # 7 changes copied (4 players added, 2 games, the close): Eve's is the 8th; 35 rows: the 32
    # below, Eve, her entry and the change that added her
    assert said.startswith(f"copied the ledger {named(source)} (revision {HEAD_REVISION}) to {named(target)}"
                           f" again, over an unverified copy of {named(source)}, copied at ")
    assert "UTC that differed from it (row 8 of changes): 35 rows in 23 tables" in said
    assert "verified: every row, the player list (5 players), 1 rating list" in said
    assert contents(target) == contents(source)


def test_a_resumed_copy_says_so(source: str, new_database: Factory, tmp_path: Path) -> None:
    target = new_database("copy")
    _killed("after-commit", source, target, tmp_path)
    resumed = start(tmp_path / "resumed", [("--db", source, "db", "copy", "--to", target)])
    assert resumed.wait() == 0, resumed.stderr
    said = " ".join(resumed.stdout.split())
    assert said.startswith(f"resumed the verification of {named(target)}, an unverified copy of "
                           f"{named(source)}, copied at ")
    # the rows: 4 players, 4 entries, 1 event, 2 games, 7 changes, 1 period, 1 revision,
    # 4 results, 4 audits, 4 list entries; 23 tables with the web's four (users, sessions,
    # login attempts, submissions: empty)
    assert "UTC: every row is still the source's (32 rows in 23 tables)" in said
    assert said.endswith("verified: every row, the player list (4 players), 1 rating list, 1 "
                         "closed period recomputed from the facts and 4 player histories read "
                         "back the same")
