"""What a new user found typing in and importing a club's games, through the CLI.

`ledger game add` applies the import's rule: a player in two games of one round of an event is an
error (the same game typed twice with colours swapped was rated twice). Its refusals name the
recorded game and say how to correct or void a recorded game.

An unknown name in an imported file that is short for a ledger player's name (`Doyle` in a CSV
while the ledger has "Doyle, Liam" #3; following the old hint registered a second Doyle) asks
"did you mean ...?"; registering such a name anyway is a warning. Matching itself is unchanged:
FIDE id, then full name and birth year.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ledgers import Factory, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app

EVENT = "Club Championship 2026"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def rows(db: str) -> tuple[int, int, list[str]]:
    """(games, events, player names by id), read with SQL, not through the ledger."""
    return (int(str(sql(db, "SELECT count(*) FROM games")[0][0])),
            int(str(sql(db, "SELECT count(*) FROM events")[0][0])),
            [str(r[0]) for r in sql(db, "SELECT name FROM players ORDER BY id")])


#: The players, named in full as a write names them.
WALSH, KEANE, DOYLE, BYRNE = "Walsh, Brendan", "Keane, Roy", "Doyle, Liam", "Byrne, Ann"


@pytest.fixture
def db(new_ledger: Factory) -> str:
    """#1 Walsh, #2 Keane, #3 Doyle, Liam (FIDE 90000003), #4 Byrne; game 1: Doyle v Walsh 0-1,
    round 4 of the event."""
    path = new_ledger("club")
    for args in (["Walsh, Brendan"], ["Keane, Roy"], ["Doyle, Liam", "--fide-id", "90000003"],
                 ["Byrne, Ann"]):
        assert run("--db", path, "player", "add", *args, "--rating", "1800",
                   "--prior-games", "0").exit_code == 0
    added = run("--db", path, "game", "add", DOYLE, WALSH, "0-1", "--date", "2026-08-26",
                "--event", EVENT, "--round", "4")
    assert added.exit_code == 0, added.output + added.stderr
    return path


def flat(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------------------------------------
# ledger game add: one game per player per round of an event


def refused(db: str, *args: str) -> str:
    """Run `game add` expecting a refusal: exit 1, no traceback, nothing written; its stderr."""
    before = rows(db)
    result = run("--db", db, "game", "add", *args)
    assert result.exit_code == 1, (result.output, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    assert rows(db) == before
    return flat(result.stderr)


def test_the_same_game_with_colours_swapped_is_refused(db: str) -> None:
    stderr = refused(db, WALSH, DOYLE, "1-0", "--date", "2026-08-26", "--event", EVENT,
                     "--round", "4")
    assert ("error: round: Walsh, Brendan plays twice in round 4: also game 1 (Doyle, Liam v "
            "Walsh, Brendan, 0-1) in the ledger; to change or remove a recorded game: ledger "
            "game correct ID or ledger game void ID") in stderr


def test_a_second_game_in_the_round_is_refused(db: str) -> None:
    stderr = refused(db, DOYLE, KEANE, "0-1", "--date", "2026-08-26", "--event", EVENT,
                     "--round", "4")
    assert ("error: round: Doyle, Liam plays twice in round 4: also game 1 (Doyle, Liam v "
            "Walsh, Brendan, 0-1) in the ledger") in stderr
    # Black's seat is checked too; the event name matches ignoring case, as events do
    stderr = refused(db, KEANE, DOYLE, "1-0", "--date", "2026-08-27", "--event",
                     EVENT.upper(), "--round", "4")
    assert "Doyle, Liam plays twice in round 4: also game 1 (" in stderr


def test_the_same_game_again_says_how_to_correct_it(db: str) -> None:
    stderr = refused(db, DOYLE, WALSH, "1-0", "--date", "2026-08-26", "--event", EVENT,
                     "--round", "4")
    assert ("error: game: Doyle, Liam v Walsh, Brendan (round 4) is already recorded as game 1 "
            "(2026-08-26, event 'Club Championship 2026', round 4, 0-1); to change or remove a "
            "recorded game: ledger game correct ID or ledger game void ID") in stderr


def test_the_same_game_in_another_pool_names_the_game_not_another_process(db: str) -> None:
    stderr = refused(db, DOYLE, WALSH, "1-0", "--date", "2026-08-26", "--event", EVENT,
                     "--round", "4", "--pool", "rapid")
    assert ("error: game: Doyle, Liam v Walsh, Brendan (round 4) is already recorded as game 1 "
            "(2026-08-26, event 'Club Championship 2026', round 4, 0-1, a standard game); to "
            "change or remove a recorded game") in stderr
    assert "another process" not in stderr


def test_other_rounds_events_and_players_are_accepted(db: str) -> None:
    base = ("--date", "2026-08-26")
    ok = [(WALSH, DOYLE, "1-0", *base, "--event", EVENT, "--round", "5"),  # next round
          (KEANE, BYRNE, "1-0", *base, "--event", EVENT, "--round", "4"),  # free players
          # another event, another result (Doyle wins: not game 1, where Walsh won)
          (WALSH, DOYLE, "0-1", *base, "--event", "Summer Rapid", "--round", "4"),
          # the same players, date and result as round 5 above, in another event: a likely
          # duplicate, recorded when the rating officer says it is another game
          (WALSH, DOYLE, "1-0", *base, "--event", "Summer Rapid", "--round", "5",
           "--allow-similar"),
          # no round, another day (on 2026-08-26 the pair has a game in the event: refused);
          # Walsh also won their rounds 4 and 5 of the event, so one game with a round and one
          # without, same result, is a likely duplicate: recorded with --allow-similar
          (WALSH, DOYLE, "1-0", "--date", "2026-08-27", "--event", EVENT, "--allow-similar"),
          (WALSH, DOYLE, "1/2-1/2", *base, "--round", "4")]                # no event
    for args in ok:
        result = run("--db", db, "game", "add", *args)
        assert result.exit_code == 0, (args, result.stderr)
    assert rows(db)[:2] == (1 + 6, 2)


# ------------------------------------------------------------------------------------------------
# ledger import: an unknown name short for a ledger player's


def csv(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "round5.csv"
    path.write_text("date,white,black,result,event,round\n" + "".join(r + "\n" for r in lines))
    return path


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
    assert len(rows(db)[2]) == 4


def test_up_to_three_candidates_are_listed(db: str, tmp_path: Path) -> None:
    for name in ("Doyle, Sean", "Doyle, Aoife", "Doyle, Mary"):  # #5, #6, #7
        assert run("--db", db, "player", "add", name).exit_code == 0
    path = csv(tmp_path, "2026-09-02,\"Keane, Roy\",DOYLE,1-0,Club Championship 2026,5",
               "2026-09-02,Doyle L,\"Walsh, Brendan\",1-0,Club Championship 2026,5")
    result = run("--db", db, "import", path)
    assert result.exit_code == 3
    stderr = flat(result.stderr)
    # four players hold the word "doyle": the first three by id, and the count
    assert ("round5.csv:2: error: black: unknown player 'DOYLE': did you mean Doyle, Liam (#3, "
            "FIDE 90000003) or Doyle, Sean (#5, no FIDE id) or Doyle, Aoife (#6, no FIDE id) "
            "(4 players in all)?") in stderr
    # "Doyle L" starts "Doyle, Liam" only (the comma aside; "Doyle Liam" is his name, the comma
    # optional, and "Liam Doyle" in the other word order: both match)
    assert ("round5.csv:3: error: white: unknown player 'Doyle L': did you mean Doyle, Liam "
            "(#3, FIDE 90000003)?") in stderr


def test_registering_a_short_name_is_a_warning(db: str, tmp_path: Path) -> None:
    path = csv(tmp_path, "2026-09-02,Doyle,\"Walsh, Brendan\",1-0,Club Championship 2026,5",
               "2026-09-02,Kelly,\"Keane, Roy\",0-1,Club Championship 2026,5")
    result = run("--db", db, "import", path, "--register-players")
    assert result.exit_code == 0, result.stderr
    stderr = flat(result.stderr)
    # the file asked: Doyle is registered (#5), with a warning naming Doyle, Liam
    assert rows(db)[2] == ["Walsh, Brendan", "Keane, Roy", "Doyle, Liam", "Byrne, Ann", "Doyle",
                           "Kelly"]
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
    assert len(rows(db)[2]) == 4
