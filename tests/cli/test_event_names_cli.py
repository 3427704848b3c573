"""A typo in an event's name is refused, not made a new event for good (issue 21 §2): ``game
add --event`` and an import whose event name names no recorded event but is a close spelling of
one (the players' closeness rule, ``ledger.names.hints.closeness``, or their look-alike rule) are
refused with "did you mean" unless ``--new-event``; names that differ only in their numbers are
different events, never typos."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from cli_runs import ok, run
from ledgers import sqlite_ledger

from ledger.names import name_key
from ledger.names.hints import numbers_apart


def events(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        rows = [name for (name,) in con.execute("SELECT name FROM events ORDER BY id")]
    con.close()
    return rows


def one_event(db: Path) -> None:
    """Alpha 1800 and Beta 1700; game 1 in event #1 Club Championship 2026 (5 September)."""
    sqlite_ledger(db)
    ok(db, "player", "add", "Alpha, A", "--rating", "1800", "--prior-games", "0")
    ok(db, "player", "add", "Beta, B", "--rating", "1700", "--prior-games", "0")
    ok(db, "game", "add", "Alpha, A", "Beta, B", "1-0", "--date", "2026-09-05", "--event",
       "Club Championship 2026")


def round_two(folder: Path, event: str) -> Path:
    """A CSV file of one game: round 2 of ``event``, Beta beats Alpha on 12 September 2026."""
    path = folder / "round2.csv"
    path.write_text("date,white,black,result,event,round\n"
                    f"2026-09-12,\"Beta, B\",\"Alpha, A\",1-0,{event},2\n", encoding="utf-8")
    return path


def test_numbers_apart_is_the_one_exception() -> None:
    # the years, the ordinals, a year added: only digits differ
    assert numbers_apart(name_key("Spring Open 2026"), name_key("Spring Open 2027"))
    assert numbers_apart(name_key("5th Club Open"), name_key("6th Club Open"))
    assert numbers_apart(name_key("Spring Open"), name_key("Spring Open 2026"))
    # a letter differs: a possible typo; the same key: the same event
    assert not numbers_apart(name_key("Club Champioship 2026"), name_key("Club Championship 2027"))
    assert not numbers_apart(name_key("Spring Open 2026"), name_key("spring open 2026"))


def test_game_add_refuses_a_close_spelling_with_did_you_mean(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_event(db)
    refused = run(db, "game", "add", "Alpha, A", "Beta, B", "0-1", "--date", "2026-09-06",
                  "--event", "Club Champioship 2026")
    assert refused.exit_code == 1
    message = " ".join(refused.stderr.split())
    assert ("event: 'Club Champioship 2026' names no event but is close to Club Championship "
            "2026 (#1, 2026-09-05 to 2026-09-05): did you mean it?") in message
    assert "--new-event" in message
    assert events(db) == ["Club Championship 2026"]  # nothing written
    # a look-alike: Cyrillic "С" for the Latin "C" (closeness alone misses it: other letters)
    refused = run(db, "game", "add", "Alpha, A", "Beta, B", "0-1", "--date", "2026-09-06",
                  "--event", "\u0421lub Championship 2026")
    assert refused.exit_code == 1 and "did you mean it?" in refused.stderr
    # --new-event: it is a new event
    ok(db, "game", "add", "Alpha, A", "Beta, B", "0-1", "--date", "2026-09-06", "--event",
       "Club Champioship 2026", "--new-event")
    assert events(db) == ["Club Championship 2026", "Club Champioship 2026"]


def test_names_that_differ_only_in_numbers_are_different_events(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_event(db)
    ok(db, "game", "add", "Alpha, A", "Beta, B", "0-1", "--date", "2026-09-06", "--event",
       "Club Championship 2027")
    ok(db, "game", "add", "Alpha, A", "Beta, B", "0-1", "--date", "2026-09-07", "--event",
       "5th Rapid")
    ok(db, "game", "add", "Alpha, A", "Beta, B", "0-1", "--date", "2026-09-08", "--event",
       "6th Rapid")
    # the same name, another case: the same event, never refused
    ok(db, "game", "add", "Beta, B", "Alpha, A", "0-1", "--date", "2026-09-09", "--event",
       "club championship 2026")
    assert events(db) == ["Club Championship 2026", "Club Championship 2027", "5th Rapid",
                          "6th Rapid"]


def test_an_import_with_a_close_event_name_is_rejected_naming_line_and_field(
        tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_event(db)
    path = round_two(tmp_path, "Club Champioship 2026")
    refused = run(db, "import", str(path), "--json")
    assert refused.exit_code == 3
    problems = json.loads(refused.stdout)["problems"]
    assert [(p["line"], p["field"]) for p in problems] == [(2, "event")]
    assert "close to Club Championship 2026 (#1" in problems[0]["message"]
    assert events(db) == ["Club Championship 2026"]
    ok(db, "import", str(path), "--new-event")
    assert events(db) == ["Club Championship 2026", "Club Champioship 2026"]


def test_new_event_is_not_for_replace_or_a_list(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_event(db)
    path = round_two(tmp_path, "Club Championship 2026")
    refused = run(db, "import", str(path), "--replace", "--reason", "x", "--new-event")
    assert refused.exit_code == 2 and "--new-event is for a file of games" in refused.stderr
    refused = run(db, "import", str(path), "--format", "players", "--new-event")
    assert refused.exit_code == 2 and "--new-event" in refused.stderr
