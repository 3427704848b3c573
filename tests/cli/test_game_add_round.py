"""`ledger game add` applies the import's rule: a player in two games of one round of an event is
an error (found by a new user: the same game typed twice with colours swapped was rated twice).
Refusals name the recorded game and say that it cannot be changed or removed yet."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.app import app

EVENT = "Club Championship 2026"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def rows(db: str) -> tuple[int, int]:
    """(games, events), read with sqlite3, not through the ledger."""
    with sqlite3.connect(db) as con:
        counted = (con.execute("SELECT count(*) FROM games").fetchone()[0],
                   con.execute("SELECT count(*) FROM events").fetchone()[0])
    con.close()
    return counted


@pytest.fixture
def db(tmp_path: Path) -> str:
    """#1 Walsh, #2 Keane, #3 Doyle, #4 Byrne; game 1: Doyle v Walsh 0-1, round 4 of the event."""
    path = str(tmp_path / "club.db")
    assert run("--db", path, "init").exit_code == 0
    for name in ("Walsh, Brendan", "Keane, Roy", "Doyle, Liam", "Byrne, Ann"):
        assert run("--db", path, "player", "add", name, "--rating", "1800").exit_code == 0
    added = run("--db", path, "game", "add", "Doyle", "Walsh", "0-1", "--date", "2026-08-26",
                "--event", EVENT, "--round", "4")
    assert added.exit_code == 0, added.output + added.stderr
    return path


def refused(db: str, *args: str) -> str:
    """Run `game add` expecting a refusal: exit 1, no traceback, nothing written; its stderr."""
    before = rows(db)
    result = run("--db", db, "game", "add", *args)
    assert result.exit_code == 1, (result.output, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    assert rows(db) == before
    return " ".join(result.stderr.split())


def test_the_same_game_with_colours_swapped_is_refused(db: str) -> None:
    stderr = refused(db, "Walsh", "Doyle", "1-0", "--date", "2026-08-26", "--event", EVENT,
                     "--round", "4")
    assert ("error: round: Walsh, Brendan plays twice in round 4: also game 1 (Doyle, Liam v "
            "Walsh, Brendan, 0-1) in the ledger; a recorded game cannot be changed or removed "
            "yet") in stderr


def test_a_second_game_in_the_round_is_refused(db: str) -> None:
    stderr = refused(db, "Doyle", "Keane", "0-1", "--date", "2026-08-26", "--event", EVENT,
                     "--round", "4")
    assert ("error: round: Doyle, Liam plays twice in round 4: also game 1 (Doyle, Liam v "
            "Walsh, Brendan, 0-1) in the ledger") in stderr
    # Black's seat is checked too; the event name matches ignoring case, as events do
    stderr = refused(db, "Keane", "Doyle", "1-0", "--date", "2026-08-27", "--event",
                     EVENT.upper(), "--round", "4")
    assert "Doyle, Liam plays twice in round 4: also game 1 (" in stderr


def test_the_same_game_again_says_it_cannot_be_changed_yet(db: str) -> None:
    stderr = refused(db, "Doyle", "Walsh", "1-0", "--date", "2026-08-26", "--event", EVENT,
                     "--round", "4")
    assert ("error: game: Doyle, Liam v Walsh, Brendan (round 4) is already recorded as game 1 "
            "(0-1); a recorded game cannot be changed or removed yet") in stderr


def test_other_rounds_events_and_players_are_accepted(db: str) -> None:
    base = ("--date", "2026-08-26")
    ok = [("Walsh", "Doyle", "1-0", *base, "--event", EVENT, "--round", "5"),  # next round
          ("Keane", "Byrne", "1-0", *base, "--event", EVENT, "--round", "4"),  # free players
          ("Walsh", "Doyle", "1-0", *base, "--event", "Summer Rapid", "--round", "4"),
          ("Walsh", "Doyle", "1-0", *base, "--event", EVENT),                  # no round
          ("Walsh", "Doyle", "1/2-1/2", *base, "--round", "4")]                # no event
    for args in ok:
        result = run("--db", db, "game", "add", *args)
        assert result.exit_code == 0, (args, result.stderr)
    assert rows(db) == (1 + 5, 2)
