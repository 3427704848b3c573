"""A name that differs from a registered one only by look-alike letters (issue 22 §5: Cyrillic
``а`` for Latin ``a``; Unicode's confusables, the UTS #39 skeleton) is a look-alike, by the one
rule of names that look alike (``ledger.names.loose_forms``): ``player add`` refuses it without
``--new``, "did you mean" names the registered player, an import refuses it (players CSV) or,
registering it (``--register-players``), warns; whichever of the two was registered first. On
SQLite and PostgreSQL (``--database-url``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runs import data, ok, run

LATIN = "Aberg, Anna"
CYRILLIC = "\u0410berg, \u0410nna"  # capital A of the Cyrillic alphabet, twice


def refused(db: str, *args: str) -> str:
    result = run(db, *args)
    assert result.exit_code == 1, result.output
    return result.stderr


@pytest.mark.parametrize(("first", "second"), [(LATIN, CYRILLIC), (CYRILLIC, LATIN),
                                               ("Kim, Anna", "Kirn, Anna"),
                                               ("Kirn, Anna", "Kim, Anna")])
def test_player_add_refuses_a_look_alike_without_new(ledger_db: str, first: str,
                                                    second: str) -> None:
    ok(ledger_db, "player", "add", first, "--birth-year", "1990")
    assert refused(ledger_db, "player", "add", second) == (
        f"error: name: {second!r} looks like {first} (#1, FIDE -, born 1990), already in the "
        "ledger (the same name but for blanks, apostrophes, an umlaut written ae, oe, ue, or "
        "look-alike letters); refer to them by id, or, if this is another person, add them with "
        "--new\n")
    added = json.loads(ok(ledger_db, "player", "add", second, "--new", "--json").stdout)
    assert (added["id"], added["name"]) == (2, second)


def test_did_you_mean_names_the_registered_player(ledger_db: str) -> None:
    ok(ledger_db, "player", "add", LATIN, "--fide-id", "2500035")
    ok(ledger_db, "player", "add", "Walsh, Tom")
    message = refused(ledger_db, "game", "add", CYRILLIC, "Walsh, Tom", "1-0", "--date",
                      "2026-01-10")
    assert message == (f"error: white: no player named {CYRILLIC!r}; did you mean {LATIN} (#1, "
                       "FIDE 2500035)?\n")


def test_a_games_import_warns_when_it_registers_a_look_alike(ledger_db: str,
                                                            tmp_path: Path) -> None:
    ok(ledger_db, "player", "add", LATIN)
    ok(ledger_db, "player", "add", "Walsh, Tom")
    path = tmp_path / "club.csv"
    path.write_text(f'date,white,black,result\n2026-01-10,"{CYRILLIC}","Walsh, Tom",1-0\n')
    unknown = run(ledger_db, "import", str(path))
    assert unknown.exit_code == 3
    assert (f"{path}:2: error: white: unknown player {CYRILLIC!r}: did you mean {LATIN} (#1, no "
            "FIDE id)? If so, write the full name or the FIDE id in the file") in unknown.stderr
    registered = run(ledger_db, "import", str(path), "--register-players")
    assert registered.exit_code == 0, registered.output
    assert (f"{path}:2: warning: white: {CYRILLIC!r} registered as a new player, though the "
            f"ledger has {LATIN} (#1, no FIDE id); if it is the same player, write the full name or "
            "the FIDE id in the file") in registered.stderr
    assert [p["name"] for p in data(ledger_db, "player", "list")["players"]] == [
        LATIN, "Walsh, Tom", CYRILLIC]


def rejected_row(db: str, path: Path, text: str) -> tuple[int, str, str]:
    """Import the players CSV ``text`` at ``path``: rejected (exit 3) for one problem, its
    line, field and message."""
    path.write_text(text)
    result = run(db, "import", str(path), "--format", "players", "--json")
    assert result.exit_code == 3
    [problem] = json.loads(result.stdout)["problems"]
    return problem["line"], problem["field"], problem["message"]


@pytest.mark.parametrize(("registered", "row"), [(LATIN, CYRILLIC), (CYRILLIC, LATIN)])
def test_a_players_import_refuses_a_look_alike(ledger_db: str, tmp_path: Path, registered: str,
                                               row: str) -> None:
    ok(ledger_db, "player", "add", registered)
    path = tmp_path / "register.csv"
    line, column, message = rejected_row(ledger_db, path, f'name\n"{row}"\n')
    assert (line, column) == (2, "name")
    assert message.startswith(f"{row!r} looks like {registered} (#1, FIDE -, born ?)")
    path.write_text(f'name,new\n"{row}",yes\n')
    ok(ledger_db, "import", str(path), "--format", "players")


def test_a_players_import_refuses_a_look_alike_of_an_earlier_row(ledger_db: str,
                                                                 tmp_path: Path) -> None:
    line, column, message = rejected_row(ledger_db, tmp_path / "register.csv",
                                         f'name\n"{LATIN}"\n"{CYRILLIC}"\n')
    assert (line, column) == (3, "name")
    assert message.startswith(f"{CYRILLIC!r} looks like a player of the file")


MEMBERS = ("Doherty, Conor", "Fitzgerald, Ciara", "Gallagher, Tom")


@pytest.mark.parametrize(("typed", "meant"), [("Doherty, Connor", "Doherty, Conor (#1"),
                                              ("Fitzgerald, Clara", "Fitzgerald, Ciara (#2")])
def test_an_import_suggests_the_member_a_misspelt_name_means(ledger_db: str, tmp_path: Path,
                                                            typed: str, meant: str) -> None:
    for name in MEMBERS:
        ok(ledger_db, "player", "add", name, "--new")
    game_add = refused(ledger_db, "game", "add", typed, "Gallagher, Tom", "1-0", "--date",
                       "2026-01-10")
    assert f"did you mean {meant}" in game_add
    csv = tmp_path / "club.csv"
    csv.write_text(f'date,white,black,result\n2026-01-10,"Gallagher, Tom","{typed}",1-0\n')
    pgn = tmp_path / "club.pgn"
    pgn.write_text(f'[Event "Club night"]\n[Date "2026.01.10"]\n[Round "1"]\n'
                   f'[White "Gallagher, Tom"]\n[Black "{typed}"]\n[Result "1-0"]\n\n1-0\n')
    for path in (csv, pgn):
        unknown = run(ledger_db, "import", str(path))
        assert unknown.exit_code == 3, unknown.output
        assert (f": unknown player {typed!r}: did you mean {meant}, no FIDE id)? "
                "correct the name in the file\n") in unknown.stderr
        assert "--register-players" not in unknown.stderr
    registered = run(ledger_db, "import", str(csv), "--register-players")
    assert registered.exit_code == 0, registered.output
    assert (f"warning: black: {typed!r} registered as a new player, though the ledger has "
            f"{meant}, no FIDE id); if it is the same player, correct the name in the "
            "file") in registered.stderr


def test_an_import_of_a_name_close_to_nobody_advises_registering(ledger_db: str,
                                                                  tmp_path: Path) -> None:
    ok(ledger_db, "player", "add", "Gallagher, Tom")
    path = tmp_path / "club.csv"
    path.write_text('date,white,black,result\n2026-01-10,"Gallagher, Tom","Kelly, Ann",1-0\n')
    unknown = run(ledger_db, "import", str(path))
    assert ("error: black: unknown player 'Kelly, Ann': register them with `ledger player add` "
            "or import with --register-players") in unknown.stderr


def test_player_add_refuses_a_close_spelling_without_new(ledger_db: str) -> None:
    for name in MEMBERS:
        ok(ledger_db, "player", "add", name, "--new")
    assert refused(ledger_db, "player", "add", "Doherty, Connor") == (
        "error: name: 'Doherty, Connor' is a close spelling of Doherty, Conor (#1, FIDE -, born "
        "?), already in the ledger (a likely misspelling); refer to them by id, or, if this is "
        "another person, add them with --new\n")
    ok(ledger_db, "player", "add", "Doherty, Connor", "--new")
    # a name that only shortens a member's (an initial, no middle name) is added as before
    ok(ledger_db, "player", "add", "Gallagher, T.")
    ok(ledger_db, "player", "add", "Gallagher, Tom Patrick")
    # nor do another first name (Tim, Tom) and names that differ only in their numbers
    ok(ledger_db, "player", "add", "Gallagher, Tim")
    ok(ledger_db, "player", "add", "Opp, 1600")
    ok(ledger_db, "player", "add", "Opp, 1700")
