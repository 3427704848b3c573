"""``ledger db copy --to``: the Tata Steel ledger (a SQLite file) copied to the run's database
(PostgreSQL with ``--database-url``) and back to a SQLite file gives every row, every list and
every history again; the copy goes on from the highest id; a target that is not empty, or the
source itself, is refused and left as it was.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from example_ledgers import build_tata
from ledgers import Factory, contents, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.services.admin.recompute import check_ledger
from ledger.services.core.session import open_ledger
from ledger.services.publishing.histories import history
from ledger.services.publishing.lists import rating_list
from ledger.services.register.player_views import list_players
from ledger.services.register.players import NewPlayer, add_player


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def tata_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Tata Steel ledger in a SQLite file, whatever the run's database; read only."""
    return build_tata(str(tmp_path_factory.mktemp("tata-file") / "tata.db"))


def test_tata_steel_round_trips_with_identical_rows_lists_and_histories(
        tata_file: str, new_database: Factory, tmp_path: Path) -> None:
    middle = new_database("copy")
    there = run("--db", tata_file, "db", "copy", "--to", middle, "--json")
    assert there.exit_code == 0, there.stderr
    report = json.loads(there.stdout)
    # 14 players, 91 games in one event, 14 results of 2022-01, read back as 1 list and 14
    # histories
    assert [report["rows"][t] for t in ("players", "games", "events", "period_results")] == [
        14, 91, 1, 14]
    assert (report["players"], report["rating_lists"], report["periods_recomputed"],
            report["histories"]) == (14, 1, 1, 14)
    back = str(tmp_path / "back.db")
    returned = run("--db", middle, "db", "copy", "--to", back)
    assert returned.exit_code == 0, returned.stderr
    assert " ".join(returned.stdout.split()).endswith(
        "verified: every row, the player list (14 players), 1 rating list, 1 closed period "
        "recomputed from the facts and 14 player histories read back the same")
    assert contents(back) == contents(tata_file)  # every row of every table, there and back
    seen = []
    for db in (tata_file, middle, back):
        engine = open_ledger(db)
        try:
            carlsen = history(engine, "Carlsen, Magnus")
            # FIDE's figures: 2865, +3, 2868 (tests/integration/test_tata_steel.py)
            assert [(h.period, h.rating_before, h.change, h.rating_after)
                    for h in carlsen.periods] == [("2022-01", 2865, 3, 2868)]
            assert check_ledger(engine).differences == []  # every close recomputed the same
            seen.append((rating_list(engine, "2022-01"), list_players(engine),
                         [history(engine, f"#{p.id}") for p in list_players(engine)]))
        finally:
            engine.dispose()
    assert seen[0] == seen[1] == seen[2]  # the list, the players, every history


def test_the_copy_goes_on_from_the_highest_id(tata_file: str, new_database: Factory) -> None:
    middle = new_database("copy")
    assert run("--db", tata_file, "db", "copy", "--to", middle).exit_code == 0
    engine = open_ledger(middle)
    try:
        added = add_player(engine, NewPlayer("Newcomer, Nia", rating=1800))
    finally:
        engine.dispose()
    assert added.id == 15  # after the 14 copied (PostgreSQL: its sequence set past them)


def test_a_target_that_is_not_empty_is_refused_and_left_alone(
        tata_file: str, new_ledger: Factory, tmp_path: Path) -> None:
    used = new_ledger("used")
    assert run("--db", used, "player", "add", "Alpha, Ann").exit_code == 0
    before = contents(used)
    refused = run("--db", tata_file, "db", "copy", "--to", used)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: db copy: ")
    assert "is a ledger with rows already (in changes, player_entries, players); copy into an " \
           "empty database" in " ".join(refused.stderr.split())
    assert contents(used) == before
    same = run("--db", tata_file, "db", "copy", "--to", tata_file)
    assert same.exit_code == 1
    assert f"db copy: {tata_file} is the ledger being copied" in same.stderr


def test_another_programs_database_is_refused(tata_file: str, tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.db"
    with sqlite3.connect(theirs) as conn:  # a file another program made: a table of its own
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    refused = run("--db", tata_file, "db", "copy", "--to", str(theirs))
    assert refused.exit_code == 1
    assert f"db copy: {theirs} is not empty (it holds tables: notes); copy into an empty " \
           "database" in " ".join(refused.stderr.split())
    assert sql(str(theirs), "SELECT count(*) FROM notes") == [(0,)]
