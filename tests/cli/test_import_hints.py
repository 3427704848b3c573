"""An unknown name in an imported file that is short for a ledger player's name (found by a new
user: `Doyle` in a CSV while the ledger has "Doyle, Liam" #3; following the old hint registered a
second Doyle). The error asks "did you mean ...?"; registering such a name anyway is a warning.
Matching itself is unchanged: FIDE id, then full name and birth year."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def players(db: str) -> list[str]:
    """Player names by id, read with sqlite3, not through the ledger."""
    with sqlite3.connect(db) as con:
        names = [r[0] for r in con.execute("SELECT name FROM players ORDER BY id")]
    con.close()
    return names


@pytest.fixture
def db(tmp_path: Path) -> str:
    """#1 Walsh, Brendan; #2 Keane, Roy; #3 Doyle, Liam (FIDE 90000003)."""
    path = str(tmp_path / "club.db")
    assert run("--db", path, "init").exit_code == 0
    for args in (["Walsh, Brendan"], ["Keane, Roy"], ["Doyle, Liam", "--fide-id", "90000003"]):
        assert run("--db", path, "player", "add", *args, "--rating", "1800").exit_code == 0
    return path


def csv(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "round5.csv"
    path.write_text("date,white,black,result,event,round\n" + "".join(r + "\n" for r in rows))
    return path


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_short_name_asks_did_you_mean(db: str, tmp_path: Path) -> None:
    path = csv(tmp_path, "2026-09-02,Doyle,\"Walsh, Brendan\",1-0,Club Championship 2026,5",
               "2026-09-02,Kelly,\"Keane, Roy\",0-1,Club Championship 2026,5")
    result = run("--db", db, "import", path)
    assert result.exit_code == 3, result.stderr
    stderr = flat(result.stderr)
    assert ("round5.csv:2: error: white: unknown player 'Doyle': did you mean Doyle, Liam (#3, "
            "FIDE 90000003)? If so, write the full name or the FIDE id in the file") in stderr
    # no ledger name holds or starts with "Kelly": the register hint, as before
    assert ("round5.csv:3: error: white: unknown player 'Kelly': register them with `ledger "
            "player add` or import with --register-players") in stderr
    assert "register them" not in stderr.split("round5.csv:3")[0]
    assert len(players(db)) == 3


def test_up_to_three_candidates_are_listed(db: str, tmp_path: Path) -> None:
    for name in ("Doyle, Sean", "Doyle, Aoife", "Doyle, Mary"):  # #4, #5, #6
        assert run("--db", db, "player", "add", name).exit_code == 0
    path = csv(tmp_path, "2026-09-02,\"Keane, Roy\",DOYLE,1-0,Club Championship 2026,5",
               "2026-09-02,Liam Doyle,\"Walsh, Brendan\",1-0,Club Championship 2026,5")
    result = run("--db", db, "import", path)
    assert result.exit_code == 3
    stderr = flat(result.stderr)
    # four players hold the word "doyle": the first three by id, and the count
    assert ("round5.csv:2: error: black: unknown player 'DOYLE': did you mean Doyle, Liam (#3, "
            "FIDE 90000003) or Doyle, Sean (#4, no FIDE id) or Doyle, Aoife (#5, no FIDE id) "
            "(4 players in all)?") in stderr
    # every word of "Liam Doyle" is a word of "Doyle, Liam" only
    assert ("round5.csv:3: error: white: unknown player 'Liam Doyle': did you mean Doyle, Liam "
            "(#3, FIDE 90000003)?") in stderr


def test_registering_a_short_name_is_a_warning(db: str, tmp_path: Path) -> None:
    path = csv(tmp_path, "2026-09-02,Doyle,\"Walsh, Brendan\",1-0,Club Championship 2026,5",
               "2026-09-02,Kelly,\"Keane, Roy\",0-1,Club Championship 2026,5")
    result = run("--db", db, "import", path, "--register-players")
    assert result.exit_code == 0, result.stderr
    stderr = flat(result.stderr)
    # the file asked: Doyle is registered (#4), with a warning naming Doyle, Liam
    assert players(db) == ["Walsh, Brendan", "Keane, Roy", "Doyle, Liam", "Doyle", "Kelly"]
    assert ("round5.csv:2: warning: white: 'Doyle' registered as a new player, though the ledger "
            "has Doyle, Liam (#3, FIDE 90000003); if it is the same player, write the full name "
            "or the FIDE id in the file") in stderr
    assert "Kelly" not in stderr  # nobody like Kelly: registered without a word


def test_the_full_name_or_fide_id_matches_as_before(db: str, tmp_path: Path) -> None:
    path = tmp_path / "full.csv"
    path.write_text("date,white,black,result,white_fide_id\n"
                    "2026-09-02,\"DOYLE, Liam\",\"Walsh, Brendan\",1-0,\n"
                    "2026-09-03,L. Doyle,\"Keane, Roy\",1-0,90000003\n")
    result = run("--db", db, "import", path)
    assert result.exit_code == 0, result.stderr
    assert len(players(db)) == 3
