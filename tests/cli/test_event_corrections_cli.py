"""Events are facts that can be corrected (issue 21 §2): ``event rename``, ``event merge``,
``event void`` and ``game correct --event``, each audited, each with ``--dry-run`` and
``--json``; voiding (and merging) in a closed period takes a mode as ``game void`` does. Expected
values are worked by hand in the comments (FIDE table 8.1.2, K 20)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger


def changes(db: Path) -> list[tuple[str, str, str | None, str | None]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT action, entity_id, reason, before FROM changes "
                           "ORDER BY id").fetchall()
    con.close()
    return rows


def events(db: Path) -> dict[str, tuple[str, str, int, int]]:
    """Event name -> (start, end, valid games, void games)."""
    return {e["name"]: (e["start_date"], e["end_date"], e["games"], e["void"])
            for e in data(db, "event", "list")["events"]}


def players(db: Path) -> None:
    """A 1800, B 1700, C 1800, all adults with 100 rated games: K 20."""
    sqlite_ledger(db)
    for name, rating in (("Alpha, A", "1800"), ("Beta, B", "1700"), ("Gamma, C", "1800")):
        ok(db, "player", "add", name, "--rating", rating, "--prior-games", "100")


def test_rename_keeps_the_old_name_in_the_audit_and_refuses_another_events_name(
        tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    players(db)
    ok(db, "game", "add", "Alpha, A", "Beta, B", "1-0", "--date", "2026-09-05", "--event",
       "Club Champioship 2026", "--new-event")
    ok(db, "game", "add", "Alpha, A", "Gamma, C", "1-0", "--date", "2026-09-06", "--event",
       "Autumn Rapid")
    before = changes(db)
    dry = data(db, "event", "rename", "#1", "Club Championship 2026", "--reason", "typo",
               "--dry-run")
    assert (dry["action"], dry["dry_run"], dry["change"]) == ("event.rename", True, None)
    assert (dry["before"]["name"], dry["after"]["name"]) == ("Club Champioship 2026",
                                                             "Club Championship 2026")
    assert changes(db) == before and "Club Champioship 2026" in events(db)
    done = data(db, "event", "rename", "Club Champioship 2026", "Club Championship 2026",
                "--reason", "typo")
    assert done["change"] == len(before) + 1
    assert events(db)["Club Championship 2026"] == ("2026-09-05", "2026-09-05", 1, 0)
    action, entity_id, reason, old = changes(db)[-1]
    assert (action, entity_id, reason) == ("event.rename", "1", "typo")
    assert json.loads(old or "")["name"] == "Club Champioship 2026"
    assert data(db, "audit")["changes"][-1]["what"] == (
        "event #1 Club Championship 2026 (was Club Champioship 2026)")
    # the old name is found no more, but the message points at the event it became
    gone = run(db, "event", "show", "Club Champioship 2026")
    assert gone.exit_code == 1
    assert ("event #1 was named so until change 6: it is now 'Club Championship 2026'"
            in " ".join(gone.stderr.split()))
    # a name another event holds: refused, naming it; nothing written
    taken = run(db, "event", "rename", "#1", "autumn rapid", "--reason", "x")
    assert taken.exit_code == 1
    assert ("name: 'autumn rapid' is the name of event Autumn Rapid (#2, 2026-09-06 to "
            "2026-09-06)") in " ".join(taken.stderr.split())
    assert run(db, "event", "rename", "#1", "X").exit_code == 1  # no reason
    assert run(db, "event", "rename", "#1", "Club Championship 2026",
               "--reason", "x").exit_code == 1  # nothing different
    assert len(changes(db)) == len(before) + 1


def test_merge_refuses_likely_duplicates_then_moves_the_games(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    players(db)
    # round 1 recorded under both names (game 1 and game 2); round 2 under the typo only
    ok(db, "game", "add", "Alpha, A", "Beta, B", "1-0", "--date", "2026-09-05", "--round", "1",
       "--event", "Club Championship")
    ok(db, "game", "add", "Alpha, A", "Beta, B", "1-0", "--date", "2026-09-05", "--round", "1",
       "--event", "Club Champioship", "--new-event", "--allow-similar")
    ok(db, "game", "add", "Beta, B", "Gamma, C", "1/2-1/2", "--date", "2026-09-12", "--round",
       "2", "--event", "Club Champioship")
    # a double round on 12 September, round 3 under one name and round 4 under the other: two
    # games of one pair on one day in two rounds, not a duplicate
    ok(db, "game", "add", "Gamma, C", "Alpha, A", "1-0", "--date", "2026-09-12", "--round", "3",
       "--event", "Club Championship")
    ok(db, "game", "add", "Alpha, A", "Gamma, C", "1-0", "--date", "2026-09-12", "--round", "4",
       "--event", "Club Champioship")
    before = changes(db)
    refused = run(db, "event", "merge", "Club Championship", "Club Champioship", "--reason",
                  "one event")
    assert refused.exit_code == 1
    assert ("1 likely duplicate(s) between the two events, which a merge would double: game 2 "
            "(2026-09-05, round 1, Alpha, A - Beta, B 1-0) is likely game 1 (2026-09-05, "
            "round 1, Alpha, A - Beta, B 1-0)") in " ".join(refused.stderr.split())
    assert changes(db) == before
    ok(db, "game", "void", "2", "--reason", "recorded twice")
    dry = data(db, "event", "merge", "#1", "#2", "--reason", "one event", "--dry-run")
    assert (dry["games"], dry["after"]["end"], dry["change"]) == ([3, 5], "2026-09-12", None)
    assert len(changes(db)) == len(before) + 1  # the void only
    done = data(db, "event", "merge", "#1", "#2", "--reason", "one event")
    assert done["effect"]["mode"] == "open"
    # #1 now runs 5 to 12 September with games 1, 3, 4 and 5; #2 keeps only its void game 2
    assert events(db) == {"Club Championship": ("2026-09-05", "2026-09-12", 4, 0),
                          "Club Champioship": ("2026-09-05", "2026-09-12", 0, 1)}
    assert data(db, "audit")["changes"][-3]["what"] == (
        "event #1 Club Championship (merged #2 Club Champioship)")
    assert [(a, e, r) for a, e, r, _ in changes(db)[-3:]] == [
        ("event.merge", "1", "one event"), ("game.correct", "3", "one event"),
        ("game.correct", "5", "one event")]
    assert run(db, "event", "merge", "#1", "#1", "--reason", "x").exit_code == 1
    # the merged-away name takes no game again: it points at the event it joined
    again = run(db, "game", "add", "Gamma, C", "Beta, B", "1-0", "--date", "2026-09-12",
                "--round", "5", "--event", "Club Champioship")
    assert again.exit_code == 1
    assert ("event: 'Club Champioship' was merged into Club Championship (#1, 2026-09-05 to "
            "2026-09-12) by change") in " ".join(again.stderr.split())


def autumn_open_closed(db: Path) -> None:
    """Event #1 Autumn Open, September 2026: game 1 A beats B, game 2 A draws B; September
    closed. A: D = +100 -> PD .64; (1 - .64) + (0.5 - .64) = 0.22 x 20 = +4.40 -> 1804. B:
    D = -100 -> .36; (0 - .36) + (0.5 - .36) = -0.22 x 20 = -4.40 -> 1696."""
    players(db)
    for result, day in (("1-0", "2026-09-05"), ("1/2-1/2", "2026-09-12")):
        ok(db, "game", "add", "Alpha, A", "Beta, B", result, "--date", day, "--event",
           "Autumn Open")
    ok(db, "period", "close", "2026-09")
    assert ratings(db, "2026-09") == {"Gamma, C": 1800, "Alpha, A": 1804, "Beta, B": 1696}


def test_void_an_event_of_a_closed_period_needs_a_mode(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    autumn_open_closed(db)
    before = changes(db)
    refused = run(db, "event", "void", "Autumn Open", "--reason", "not rated")
    assert refused.exit_code == 1
    assert ("event #1 is in closed period 2026-09, whose list is published"
            in " ".join(refused.stderr.split()))
    assert changes(db) == before
    dry = ok(db, "event", "void", "Autumn Open", "--reason", "not FIDE-rated",
             "--in-next-period", "--dry-run")
    assert ("event Autumn Open (#1, 2026-09-05 to 2026-09-12): 2 games would be voided (#1, "
            "#2)") in " ".join(dry.stdout.split())
    assert changes(db) == before
    done = data(db, "event", "void", "Autumn Open", "--reason", "not FIDE-rated",
                "--in-next-period")
    # one change a game, each carrying its own difference into October. Game 1 voided: A has
    # the draw only, 0.5 - .64 = -0.14 x 20 = -2.80 where it gave +4.40: -720 (B +720); game 2
    # voided: A has no game, 0 where it gave -2.80: +280 (B -280). In all A -440, B +440:
    # September's +4.40 and -4.40 undone; the September list stands
    assert done["games"] == [1, 2]
    carried = [(c["name"], c["applies_in"], c["hundredths"]) for c in done["effect"]["carried"]]
    assert carried == [("Alpha, A", "2026-10", -720), ("Beta, B", "2026-10", 720),
                       ("Alpha, A", "2026-10", 280), ("Beta, B", "2026-10", -280)]
    assert ratings(db, "2026-09") == {"Gamma, C": 1800, "Alpha, A": 1804, "Beta, B": 1696}
    ok(db, "db", "check")  # the closed period recomputes from the facts as they were
    assert events(db)["Autumn Open"] == ("2026-09-05", "2026-09-12", 0, 2)
    assert [a for a, *_ in changes(db)[len(before):]] == ["event.void", "game.void",
                                                           "game.void"]
    assert run(db, "event", "void", "#1", "--reason", "again").exit_code == 1  # no valid game
    ok(db, "db", "check")


def test_void_an_event_with_rerate_rates_september_again(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    autumn_open_closed(db)
    ok(db, "event", "void", "#1", "--reason", "not FIDE-rated", "--rerate")
    # September re-rated without its only games: A and B keep 1800 and 1700
    assert ratings(db, "2026-09") == {"Alpha, A": 1800, "Gamma, C": 1800, "Beta, B": 1700}
    assert ratings(db, "2026-09", "--revision", "1") == {
        "Gamma, C": 1800, "Alpha, A": 1804, "Beta, B": 1696}
    ok(db, "db", "check")


def test_game_correct_event_moves_a_game_to_another_event(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    players(db)
    ok(db, "game", "add", "Alpha, A", "Beta, B", "1-0", "--date", "2026-09-05", "--event",
       "Autumn Open")
    ok(db, "game", "add", "Alpha, A", "Gamma, C", "1-0", "--date", "2026-09-05", "--event",
       "Blitz Evening")
    ok(db, "game", "add", "Beta, B", "Gamma, C", "1-0", "--date", "2026-09-06", "--event",
       "Autumn Open")
    outside = run(db, "game", "correct", "2", "--event", "Autumn Open", "--date", "2026-09-07",
                  "--reason", "x")
    assert outside.exit_code == 1
    assert ("date: 2026-09-07 is outside the dates of event 'Autumn Open' (2026-09-05 to "
            "2026-09-06)") in " ".join(outside.stderr.split())
    fixed = data(db, "game", "correct", "2", "--event", "#1", "--reason", "wrong event")
    assert (fixed["before"]["event"], fixed["after"]["event"]) == ("Blitz Evening",
                                                                   "Autumn Open")
    assert changes(db)[-1][:3] == ("game.correct", "2", "wrong event")
    assert json.loads(changes(db)[-1][3] or "")["event"] == 2  # the event it had
    assert events(db)["Autumn Open"][2:] == (3, 0)  # games 1, 2 and 3


def test_merge_into_an_event_of_a_closed_period(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    autumn_open_closed(db)
    # 19 September, September closed: a late result, rated in October, in event #2 (the typo)
    ok(db, "game", "add", "Alpha, A", "Gamma, C", "1/2-1/2", "--date", "2026-09-19", "--event",
       "Autumn Opn", "--new-event")
    # 3 October, in event #3, another typo: merging it would move Autumn Open's end to
    # October, behind September's published list
    ok(db, "game", "add", "Beta, B", "Gamma, C", "1-0", "--date", "2026-10-03", "--event",
       "Autum Open", "--new-event")
    before = changes(db)
    refused = run(db, "event", "merge", "Autumn Open", "Autum Open", "--reason", "typo")
    assert refused.exit_code == 1
    assert ("merging would move the dates of Autumn Open (#1, 2026-09-05 to 2026-09-12) to "
            "2026-09-05 .. 2026-10-03, into other months, but its game 1 is rated in closed "
            "period 2026-09") in " ".join(refused.stderr.split())
    assert changes(db) == before
    # #2 ends in September too: its late game moves to #1 and stays late, rated in October;
    # no closed period is touched (the game is in October), so no mode is needed
    done = data(db, "event", "merge", "#1", "#2", "--reason", "typo")
    assert (done["games"], done["effect"]["mode"], done["effect"]["closed_periods"]) == (
        [3], "open", [])
    listed = {e["name"]: e for e in data(db, "event", "list")["events"]}
    autumn = listed["Autumn Open"]
    assert (autumn["end_date"], autumn["games"], autumn["late"], autumn["rated_in"]) == (
        "2026-09-19", 3, True, ["2026-09", "2026-10"])
    assert ratings(db, "2026-09") == {"Gamma, C": 1800, "Alpha, A": 1804, "Beta, B": 1696}
    ok(db, "db", "check")  # the closed period recomputes from the facts as they were
