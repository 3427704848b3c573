"""Finding players and events by name (issue 9, item 6), through the CLI on a fresh ledger
(SQLite, or the server of ``LEDGER_TEST_DATABASE_URL``).

Names match by one key (ledger.names.name_key: accents, case, blanks and punctuation aside), the
same in every command and in imports; a player's name also in the other word order when that is
unambiguous; a name that matches nothing asks "did you mean". Events are unique by key and start
date, listed by ``ledger event list``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(db: str, *args: str | Path) -> Result:
    return CliRunner().invoke(app, ["--db", db, *(str(a) for a in args)])


def ok(db: str, *args: str | Path) -> Result:
    result = run(db, *args)
    assert result.exit_code == 0, (args, result.output, result.stderr)
    return result


def refused(db: str, *args: str | Path) -> str:
    """The stderr of a command the ledger refuses (exit 1), on one line."""
    result = run(db, *args)
    assert result.exit_code == 1, (args, result.output)
    assert result.stdout == ""
    return " ".join(result.stderr.split())


def names(db: str) -> list[tuple[int, str]]:
    return [(p["id"], p["name"]) for p in json.loads(ok(db, "player", "list", "--json").stdout)[
        "players"]]


@pytest.fixture
def db(ledger_db: str) -> str:
    """#1 Ó Briain, Seán (FIDE 2500035, born 1990), #2 O'Brien, Kevin, #3 Doyle, Liam (FIDE
    90000003), #4 Walsh, Brendan; all rated 1800 with an established history."""
    for args in (("Ó Briain, Seán", "--fide-id", "2500035", "--birth-year", "1990"),
                 ("O'Brien, Kevin",), ("Doyle, Liam", "--fide-id", "90000003"),
                 ("Walsh, Brendan",)):
        ok(ledger_db, "player", "add", *args, "--rating", "1800", "--prior-games", "100")
    return ledger_db


def csv(tmp_path: Path, name: str, *lines: str) -> Path:
    path = tmp_path / name
    path.write_text("date,white,black,result,event,round\n" + "".join(r + "\n" for r in lines),
                    encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------------
# events


def _ostersund(db: str, tmp_path: Path) -> Path:
    """The Östersund Open in two files, as written: round 1, then rounds 2 (the same day) and 3.
    Returns the first file."""
    first = csv(tmp_path, "round1.csv",
                '2026-08-01,"Ó Briain, Seán","O\'Brien, Kevin",1-0,Östersund Open,1',
                '2026-08-01,"Doyle, Liam","Walsh, Brendan",1/2-1/2,Östersund Open,1')
    second = csv(tmp_path, "rounds2-3.csv",
                 '2026-08-01,"O\'Brien, Kevin","Doyle, Liam",0-1,Östersund Open,2',
                 '2026-08-01,"Walsh, Brendan","Ó Briain, Seán",0-1,Östersund Open,2',
                 '2026-08-02,"Ó Briain, Seán","Doyle, Liam",1/2-1/2,Östersund Open,3')
    ok(db, "import", first)
    ok(db, "import", second)  # was: UNIQUE constraint failed: events.name, events.start_date
    return first


def test_an_event_with_accents_imported_twice_is_one_event(db: str, tmp_path: Path) -> None:
    first = _ostersund(db, tmp_path)
    # one event, its five games; its source is the file that started it
    assert json.loads(ok(db, "event", "list", "--json").stdout) == {"events": [
        {"id": 1, "name": "Östersund Open", "start_date": "2026-08-01", "end_date": "2026-08-02",
         "period": "2026-08", "games": 5, "void": 0, "rated_in": ["2026-08"], "late": False,
         "source": str(first)}]}


def test_imports_match_names_without_accents_and_in_the_other_order(db: str,
                                                                    tmp_path: Path) -> None:
    _ostersund(db, tmp_path)
    ok(db, "import", csv(tmp_path, "round4.csv",
                         '2026-08-02,Kevin O’Brien,"O Briain, Sean",0-1,ÖSTERSUND OPEN,4',
                         '2026-08-02,"WALSH,BRENDAN",Liam Doyle,1-0,Ostersund  Open,4'))
    # the file's players are the ledger's (nobody registered), its event the same event
    assert names(db) == [(3, "Doyle, Liam"), (1, "Ó Briain, Seán"), (2, "O'Brien, Kevin"),
                         (4, "Walsh, Brendan")]
    [event] = json.loads(ok(db, "event", "list", "--json").stdout)["events"]
    assert (event["id"], event["name"], event["games"]) == (1, "Östersund Open", 7)


def test_an_event_is_found_without_its_accents(db: str, tmp_path: Path) -> None:
    _ostersund(db, tmp_path)
    exported = ok(db, "export", "trf", "--event", "Ostersund Open")
    assert "012 Östersund Open\n" in exported.stdout
    # Seán's games: beat Kevin (round 1), beat Brendan (round 2), drew Liam (round 3)
    shown = json.loads(ok(db, "performance", "Sean O Briain", "--event", "ostersund open",
                          "--json").stdout)
    assert shown["scope"] == "event 'Östersund Open' (2026-08-01 to 2026-08-02)"
    assert [(g["game_id"], g["opponent"], g["score"]) for g in shown["per_game"]] == [
        (1, "O'Brien, Kevin", 1), (4, "Walsh, Brendan", 1), (5, "Doyle, Liam", 0.5)]


def test_an_event_name_that_matches_nothing_asks_did_you_mean(db: str, tmp_path: Path) -> None:
    _ostersund(db, tmp_path)
    hint = "did you mean Östersund Open (#1, 2026-08-01 to 2026-08-02)?"
    assert refused(db, "export", "trf", "--event", "Open Ostersund") == (
        f"error: event: no event named 'Open Ostersund'; {hint}")
    assert refused(db, "performance", "#1", "--event", "open, ÖSTERSUND") == (
        "error: event: the player has no games in an event named 'open, ÖSTERSUND'; " + hint)
    # nothing like it: no hint
    assert refused(db, "export", "trf", "--event", "Galway Masters") == (
        "error: event: no event named 'Galway Masters'")


def test_event_list_by_start_date_then_name_key(db: str) -> None:
    # two events on one day with another result each (the same result would be a likely
    # duplicate of the first game)
    for event, date, result in (("Blitz Night", "2026-09-05", "1-0"),
                                ("Ärö Rapid", "2026-09-05", "1/2-1/2"),
                                ("Club Night", "2026-07-15", "1-0"),
                                ("Ärö Rapid", "2026-10-20", "1-0")):
        ok(db, "game", "add", "#1", "#2", result, "--date", date, "--event", event)
    ok(db, "game", "add", "#3", "#4", "0-1", "--date", "2026-09-05", "--event", "aro rapid")
    # 2026-09-05: "aro rapid" before "blitz night" (by name, "Ä" would sort after "B");
    # the two Ärö Rapids are two events: 2026-10-20 is beyond 31 days of 2026-09-05
    rows = json.loads(ok(db, "event", "list", "--json").stdout)["events"]
    assert [(e["id"], e["name"], e["start_date"], e["period"], e["games"], e["source"])
            for e in rows] == [
        (3, "Club Night", "2026-07-15", "2026-07", 1, "ledger game add"),
        (2, "Ärö Rapid", "2026-09-05", "2026-09", 2, "ledger game add"),
        (1, "Blitz Night", "2026-09-05", "2026-09", 1, "ledger game add"),
        (4, "Ärö Rapid", "2026-10-20", "2026-10", 1, "ledger game add")]
    september = json.loads(ok(db, "event", "list", "--period", "2026-09", "--json").stdout)
    assert [e["id"] for e in september["events"]] == [2, 1]
    assert json.loads(ok(db, "event", "list", "--period", "2025-01", "--json").stdout) == {
        "events": []}
    table = ok(db, "event", "list", "--period", "2026-09").stdout
    assert "Events (2)" in table and "Ärö Rapid" in table and "Blitz Night" in table
    assert "Club Night" not in table
    assert refused(db, "event", "list", "--period", "2026-13") == (
        "error: period: 2026-13 is not a valid month")


# ------------------------------------------------------------------------------------------------
# players


def test_a_player_is_found_whatever_the_accents_case_and_word_order(db: str) -> None:
    for ref in ("Sean O Briain", "ó briain, sean", "O BRIAIN,SEAN", "Seán Ó Briain"):
        shown = json.loads(ok(db, "player", "show", ref, "--json").stdout)
        assert (shown["id"], shown["name"]) == (1, "Ó Briain, Seán"), ref
    added = json.loads(ok(db, "game", "add", "Kevin O’Brien", "Liam Doyle", "1-0", "--date",
                          "2026-11-02", "--json").stdout)
    assert [(g["white"], g["black"]) for g in added["games"]] == [("O'Brien, Kevin",
                                                                   "Doyle, Liam")]


def test_the_other_word_order_is_refused_when_ambiguous(db: str) -> None:
    ok(db, "player", "add", "Smith, John", "--birth-year", "1980")
    ok(db, "player", "add", "John Smith", "--birth-year", "1995", "--new")
    # each is found by its own name, before the other word order is tried
    assert json.loads(ok(db, "player", "show", "John Smith", "--json").stdout)["id"] == 6
    assert json.loads(ok(db, "player", "show", "Smith, John", "--json").stdout)["id"] == 5
    ok(db, "player", "add", "Smith, John", "--birth-year", "2001", "--new")  # #7
    assert refused(db, "player", "show", "smith, john") == (
        "error: player: 'smith, john' matches several players: Smith, John (#5, FIDE -, born "
        "1980); Smith, John (#7, FIDE -, born 2001); write #ID")


def test_a_player_name_that_matches_nothing_asks_did_you_mean(db: str) -> None:
    # "Doyle Li" starts Liam's name (the comma aside), but it is not his name
    assert refused(db, "player", "show", "Doyle Li") == (
        "error: player: no player named 'Doyle Li'; did you mean Doyle, Liam (#3, FIDE "
        "90000003)?")
    assert refused(db, "game", "add", "Walsh, Brendan", "Briain Sean", "1-0", "--date",
                   "2026-11-02") == (
        "error: black: no player named 'Briain Sean'; did you mean Ó Briain, Seán (#1, FIDE "
        "2500035)?")
    # "doyle liam" starts with "doyle l" (the comma aside)
    assert refused(db, "performance", "Doyle L", "--period", "2026-11") == (
        "error: player: no player named 'Doyle L'; did you mean Doyle, Liam (#3, FIDE "
        "90000003)?")
    assert refused(db, "history", "Nobody") == "error: player: no player named 'Nobody'"


def test_player_add_refuses_a_name_already_in_the_ledger(db: str) -> None:
    for name in ("O Briain, Sean", "SEÁN Ó BRIAIN"):
        assert refused(db, "player", "add", name, "--birth-year", "2010") == (
            f"error: name: '{name}' is already in the ledger as Ó Briain, Seán (#1, FIDE 2500035, "
            "born 1990); refer to them by id, or, if this is another person, add them with --new")
    assert refused(db, "player", "add", "Kevin O'Brien") == (
        "error: name: \"Kevin O'Brien\" is already in the ledger as O'Brien, Kevin (#2, FIDE -, "
        "born ?); refer to them by id, or, if this is another person, add them with --new")
    assert len(names(db)) == 4


def test_player_add_new_registers_another_person_of_the_same_name(db: str) -> None:
    added = ok(db, "player", "add", "O Briain, Sean", "--birth-year", "2010", "--new", "--json")
    assert json.loads(added.stdout)["id"] == 5
    assert " ".join(added.stderr.split()) == (
        "note: Ó Briain, Seán (#1) has the same name: refer to them by id or FIDE id")
    # the same key: by id
    assert names(db) == [(3, "Doyle, Liam"), (1, "Ó Briain, Seán"), (5, "O Briain, Sean"),
                         (2, "O'Brien, Kevin"), (4, "Walsh, Brendan")]


def test_player_list_is_by_name_key_then_id(ledger_db: str) -> None:
    for name, new in (("Zeta, Zed", ()), ("Östberg, Olle", ()), ("aaron, Bob", ()),
                      ("Ärö, Anna", ()), ("Beta, Ben", ()), ("Aaron, Bob", ("--new",))):
        ok(ledger_db, "player", "add", name, *new)
    # by raw name, "Beta" < "Zeta" < "aaron" < "Ärö" < "Östberg"
    assert names(ledger_db) == [(3, "aaron, Bob"), (6, "Aaron, Bob"), (4, "Ärö, Anna"),
                                (5, "Beta, Ben"), (2, "Östberg, Olle"), (1, "Zeta, Zed")]


# ------------------------------------------------------------------------------------------------
# Spellings a key keeps apart: blanks, apostrophes, umlauts written ae/oe/ue (hints, never a match)


def test_player_add_refuses_a_spelling_that_looks_like_a_registered_player(db: str) -> None:
    # "O'Briain" joins into "obriain"; "Ó Briain" is "o briain": other keys, the same letters
    assert refused(db, "player", "add", "O'Briain, Sean") == (
        "error: name: \"O'Briain, Sean\" looks like Ó Briain, Seán (#1, FIDE 2500035, born 1990), "
        "already in the ledger (the same name but for blanks, apostrophes, an umlaut written "
        "ae, oe, ue, or look-alike letters); refer to them by id, or, if this is another "
        "person, add them with --new")
    ok(db, "player", "add", "Müller, Jürgen", "--rating", "2050", "--prior-games", "200")
    for spelling in ("Mueller, Juergen", "Juergen Mueller"):
        assert "looks like Müller, Jürgen (#5, FIDE -, born ?)" in refused(
            db, "player", "add", spelling)
    added = ok(db, "player", "add", "Mueller, Juergen", "--new", "--json")
    assert json.loads(added.stdout)["name"] == "Mueller, Juergen"


def test_a_loose_spelling_gets_did_you_mean_in_commands_and_imports(db: str, tmp_path: Path) -> None:
    ok(db, "player", "add", "Müller, Jürgen", "--rating", "2050", "--prior-games", "200")
    for text in ("Mueller", "Juergen Mueller", "o'briain"):
        message = refused(db, "player", "show", text)
        assert "did you mean" in message, message
    assert refused(db, "player", "show", "Mueller").endswith(
        "did you mean Müller, Jürgen (#5, no FIDE id)?")
    pgn = tmp_path / "cup.pgn"
    pgn.write_text('[Event "Cup"]\n[Date "2026.11.28"]\n[Round "1"]\n[White "Mueller, Juergen"]\n'
                   '[Black "Walsh, Brendan"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n', encoding="utf-8")
    rejected = run(db, "import", pgn)
    assert rejected.exit_code == 3
    assert "unknown player 'Mueller, Juergen': did you mean Müller, Jürgen (#5" in rejected.stderr
    registered = run(db, "import", pgn, "--register-players", "--dry-run")
    assert registered.exit_code == 0
    assert ("'Mueller, Juergen' registered as a new player, though the ledger has Müller, Jürgen "
            "(#5") in " ".join(registered.stderr.split())
