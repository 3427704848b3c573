"""Names in commands and files (issue 9, items 5 and 6), through the CLI on a fresh ledger: a
comma optional where a name has none, invisible characters refused, control characters refused
in labels, "did you mean" for close spellings, a typo of an event refused by ``game add``, full
names for writes, and ambiguous names told apart.

Each refusal is checked for its message, its exit code and that the ledger did not change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from data_files import data_file
from ledgers import contents
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(db: str, *args: str | Path) -> Result:
    return CliRunner().invoke(app, ["--db", db, *(str(a) for a in args)])


def ok(db: str, *args: str | Path) -> Result:
    result = run(db, *args)
    assert result.exit_code == 0, (args, result.output, result.stderr)
    return result


def refused(db: str, *args: str | Path, code: int = 1) -> str:
    """The stderr of a command the ledger refuses (exit ``code``), on one line; the ledger's
    every row is checked unchanged (on either database)."""
    before = contents(db)
    result = run(db, *args)
    assert result.exit_code == code, (args, result.output)
    assert contents(db) == before
    return " ".join(result.stderr.split())


def players(db: str) -> list[tuple[int, str]]:
    return [(p["id"], p["name"]) for p in json.loads(ok(db, "player", "list", "--json").stdout)[
        "players"]]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def db(ledger_db: str) -> str:
    """#1 O'Brien, Kevin, #2 Doyle, Liam (FIDE 90000003), #3 Kelly, Ann; rated, established."""
    for args in (("O'Brien, Kevin",), ("Doyle, Liam", "--fide-id", "90000003"), ("Kelly, Ann",)):
        ok(ledger_db, "player", "add", *args, "--rating", "1800", "--prior-games", "100")
    return ledger_db


# ------------------------------------------------------------------------------------------------
# 1. "Surname Name" without a comma is "Surname, Name"


def test_player_add_refuses_the_name_without_its_comma(db: str) -> None:
    assert refused(db, "player", "add", "O'Brien Kevin") == (
        "error: name: \"O'Brien Kevin\" is already in the ledger as O'Brien, Kevin (#1, FIDE -, "
        "born ?); refer to them by id, or, if this is another person, add them with --new")
    assert players(db) == [(2, "Doyle, Liam"), (3, "Kelly, Ann"), (1, "O'Brien, Kevin")]


def test_a_name_without_its_comma_finds_the_player(db: str) -> None:
    for ref in ("O'Brien Kevin", "obrien kevin", "Doyle Liam"):
        assert json.loads(ok(db, "player", "show", ref, "--json").stdout)["name"] in (
            "O'Brien, Kevin", "Doyle, Liam")
    added = json.loads(ok(db, "game", "add", "O'Brien Kevin", "Doyle Liam", "1-0", "--date",
                          "2026-11-02", "--json").stdout)
    assert [(g["white"], g["black"]) for g in added["games"]] == [("O'Brien, Kevin",
                                                                   "Doyle, Liam")]


def _gros(db: str) -> None:
    """The Gros 2010 TRF, whose names have no comma (``Mirzoev Azer``), every player registered."""
    ok(db, "import", data_file("javafo_trfx_sample2_gros_2010.trf"), "--register-players")


def test_a_file_naming_the_player_with_a_comma_matches_one_registered_without(
        ledger_db: str, tmp_path: Path) -> None:
    _gros(ledger_db)
    before = players(ledger_db)
    assert {"Mirzoev Azer", "Argandona Riveiro Inigo"} <= {name for _, name in before}
    games = write(tmp_path / "blitz.csv", "date,white,black,result,event\n"
                  '2010-10-03,"Mirzoev, Azer","Argandona Riveiro, Inigo",1-0,Gros Blitz\n')
    # was: unknown player 'Mirzoev, Azer': did you mean Mirzoev Azer (#1 ...)? If so, write the
    # full name in the file
    ok(ledger_db, "import", games, "--dry-run")
    # was: registered 'Mirzoev, Azer' a second time, with a warning
    imported = json.loads(ok(ledger_db, "import", games, "--register-players", "--json").stdout)
    assert (imported["players_matched"], imported["players_registered"]) == (2, [])
    assert players(ledger_db) == before
    listed = json.loads(ok(ledger_db, "game", "list", "--player", "Mirzoev, Azer", "--json").stdout)
    assert [(g["white"], g["black"], g["event"]) for g in listed["games"]
            if g["event"] == "Gros Blitz"] == [("Mirzoev Azer", "Argandona Riveiro Inigo",
                                                "Gros Blitz")]


# ------------------------------------------------------------------------------------------------
# 2. Invisible characters in names: refused by the one rule of control characters

#: Format characters (Unicode category Cf) the tester found accepted, by name.
INVISIBLE = {"\u00ad": "SOFT HYPHEN", "\u200b": "ZERO WIDTH SPACE",
             "\u200e": "LEFT-TO-RIGHT MARK", "\u200f": "RIGHT-TO-LEFT MARK",
             "\u202a": "LEFT-TO-RIGHT EMBEDDING", "\u202e": "RIGHT-TO-LEFT OVERRIDE",
             "\u2066": "LEFT-TO-RIGHT ISOLATE", "\u2069": "POP DIRECTIONAL ISOLATE",
             "\ufeff": "ZERO WIDTH NO-BREAK SPACE"}


@pytest.mark.parametrize("char", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_player_add_refuses_an_invisible_character(db: str, char: str) -> None:
    name = f"Nagy{char}Laszlo, Zoltan"
    assert refused(db, "player", "add", name) == (
        f"error: name: {name!r} holds a format character (U+{ord(char):04X} {INVISIBLE[char]}): "
        "a name is one line of visible text")
    ok(db, "player", "add", "NagyLaszlo, Zoltan")
    assert refused(db, "player", "add", f"{char}Kelly, Ann").startswith(
        f"error: name: {f'{char}Kelly, Ann'!r} holds a format character")


def test_a_csv_name_with_an_invisible_character_is_refused(db: str, tmp_path: Path) -> None:
    games = write(tmp_path / "games.csv",
                  'date,white,black,result\n2026-11-02,"Kelly\u200b, Ann","Doyle, Liam",1-0\n')
    assert ("games.csv:2: error: white: a format character (U+200B ZERO WIDTH SPACE): a name is "
            "one line of visible text") in refused(db, "import", games, "--register-players",
                                                   code=3)


#: A TRF-16 file of one game (2026-11-07, round 1: Kelly beats Doyle); ``{event}``, ``{white}``.
TRF = ("012 {event}\n042 2026/11/07\n052 2026/11/07\nXXR 1\n"
       "001    1 f    {white:<33} 1800 IRL    90000001 1990/01/01  1.0    1     2 w 1\n"
       "001    2 m    {black:<33} 1800 IRL    90000003 1990/01/01  0.0    2     1 b 0\n")


def test_a_trf_name_with_an_invisible_character_is_refused(db: str, tmp_path: Path) -> None:
    path = write(tmp_path / "cup.trf", TRF.format(event="Cup", white="Kelly\u202e, Ann",
                                                  black="Doyle, Liam"))
    assert ("cup.trf:5: error: col 20: a format character (U+202E RIGHT-TO-LEFT OVERRIDE): a TRF "
            "line holds visible text only") in refused(db, "import", path, code=3)


def pgn(event: str = "Cup", round_: str = "1", white: str = "Kelly, Ann") -> str:
    return (f'[Event "{event}"]\n[Site "Galway"]\n[Date "2026.11.04"]\n[Round "{round_}"]\n'
            f'[White "{white}"]\n[Black "Doyle, Liam"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n')


def test_a_pgn_name_with_an_invisible_character_is_refused(db: str, tmp_path: Path) -> None:
    # the key of "Kelly\u00ad, Ann" is Ann Kelly's: without the rule the game went to her
    path = write(tmp_path / "cup.pgn", pgn(white="Kelly\u00ad, Ann"))
    assert ("cup.pgn:5: error: White: a format character (U+00AD SOFT HYPHEN): a name is one line "
            "of visible text") in refused(db, "import", path, code=3)


def test_a_fide_list_name_with_an_invisible_character_is_refused(ledger_db: str,
                                                                 tmp_path: Path) -> None:
    from fide_list_samples import COMBINED_FOA
    listing = write(tmp_path / "list.txt", COMBINED_FOA.replace("Carlsen, Magnus ",
                                                                "Carl\u200bsen, Magnus"))
    assert ("list.txt:2: error: Name (column 16): a format character (U+200B ZERO WIDTH SPACE): a "
            "name is one line of visible text") in refused(
        ledger_db, "import", listing, "--format", "fide-list", "--list-date", "2026-11-01",
        code=3)
    assert players(ledger_db) == []


# ------------------------------------------------------------------------------------------------
# 3. Control characters in event names and rounds: refused in every label


@pytest.mark.parametrize(("option", "value", "described"), [
    ("--event", "Club\x1b[31mRED", "a control character (U+001B)"),
    ("--round", "1\x1b[31m", "a control character (U+001B)"),
    ("--event", "Club\u202eLeague", "a format character (U+202E RIGHT-TO-LEFT OVERRIDE)"),
    ("--round", "1\n2", "a control character (U+000A)"),
])
def test_game_add_refuses_a_control_character_in_a_label(db: str, option: str, value: str,
                                                         described: str) -> None:
    field = option.removeprefix("--")
    assert refused(db, "game", "add", "#1", "#2", "1-0", "--date", "2026-11-02", option, value) == (
        f"error: {field}: {value!r} holds {described}: it is one line of visible text")
    assert json.loads(ok(db, "game", "list", "--json").stdout) == {"games": []}


@pytest.mark.parametrize(("tags", "line", "message"), [
    ({"event": "Ev\x1b[2Jx"}, 1, "Event: a control character (U+001B): an event name is one line "
     "of visible text"),
    ({"round_": "1\u200b"}, 4, "Round: a format character (U+200B ZERO WIDTH SPACE): a round is "
     "one line of visible text"),
    ({"event": "E" * 201}, 1, "Event: 201 characters; at most 200"),
    ({"round_": "9" * 21}, 4, "Round: 21 characters; at most 20"),
])
def test_a_pgn_label_with_a_control_character_or_too_long_is_refused(
        db: str, tmp_path: Path, tags: dict[str, str], line: int, message: str) -> None:
    path = write(tmp_path / "cup.pgn", pgn(**tags))
    assert f"cup.pgn:{line}: error: {message}" in refused(db, "import", path, code=3)


def test_a_trf_event_name_with_a_control_character_or_a_tab_is_refused(db: str,
                                                                       tmp_path: Path) -> None:
    escape = write(tmp_path / "esc.trf", TRF.format(event="Cup\x1b[2J", white="Kelly, Ann",
                                                    black="Doyle, Liam"))
    assert ("esc.trf:1: error: col 8: a control character (U+001B): a TRF line holds visible "
            "text only") in refused(db, "import", escape, code=3)
    tab = write(tmp_path / "tab.trf", TRF.format(event="Club\tCup", white="Kelly, Ann",
                                                 black="Doyle, Liam"))
    assert "tab.trf:1: error: col 9: record 012: a tab: a TRF record holds blanks, not tabs" in (
        refused(db, "import", tab, code=3))


def test_a_csv_event_or_round_with_a_format_character_is_refused(db: str, tmp_path: Path) -> None:
    games = write(tmp_path / "games.csv", "date,white,black,result,event,round\n"
                  '2026-11-02,"Kelly, Ann","Doyle, Liam",1-0,Club\u2066League,1\n'
                  '2026-11-02,"Doyle, Liam","Kelly, Ann",1-0,Club League,2\u00ad\n')
    message = refused(db, "import", games, code=3)
    assert ("games.csv:2: error: event: a format character (U+2066 LEFT-TO-RIGHT ISOLATE): an "
            "event name is one line of visible text") in message
    assert ("games.csv:3: error: round: a format character (U+00AD SOFT HYPHEN): a round is one "
            "line of visible text") in message


# ------------------------------------------------------------------------------------------------
# 4. "Did you mean" for a close spelling too, wherever a PLAYER or an EVENT is taken


def test_a_misspelt_player_gets_did_you_mean(db: str) -> None:
    ok(db, "player", "add", "Müller, Jürgen", "--rating", "2050", "--prior-games", "200")
    kevin = "did you mean O'Brien, Kevin (#1, no FIDE id)?"
    assert refused(db, "player", "show", "O'Brian, Kevin") == (
        f"error: player: no player named \"O'Brian, Kevin\"; {kevin}")
    assert refused(db, "game", "list", "--player", "Kevn O'Brien") == (
        f"error: player: no player named \"Kevn O'Brien\"; {kevin}")
    assert refused(db, "history", "Doyle, Laim") == (
        "error: player: no player named 'Doyle, Laim'; did you mean Doyle, Liam (#2, FIDE "
        "90000003)?")
    assert refused(db, "whatif", "#1", "Mueler") == (
        "error: opponent: no player named 'Mueler'; did you mean Müller, Jürgen (#4, no FIDE "
        "id)?")
    # nothing close: no hint
    assert refused(db, "player", "show", "Walsh, Tom") == (
        "error: player: no player named 'Walsh, Tom'")


def test_a_misspelt_event_gets_did_you_mean(db: str) -> None:
    ok(db, "game", "add", "#1", "#2", "1-0", "--date", "2026-08-01", "--event", "Östersund Open",
       "--round", "1")
    hint = "did you mean Östersund Open (#1, 2026-08-01 to 2026-08-01)?"
    assert refused(db, "export", "trf", "--event", "Osterstund") == (
        f"error: event: no event named 'Osterstund'; {hint}")
    assert refused(db, "performance", "#1", "--event", "Östersund Opne") == (
        f"error: event: the player has no games in an event named 'Östersund Opne'; {hint}")
    assert refused(db, "event", "show", "Ostersund Oen") == (
        f"error: event: no event named 'Ostersund Oen'; {hint}")


# ------------------------------------------------------------------------------------------------
# 6. A write names its players in full; the reports may take a part


def test_game_add_refuses_a_part_of_a_name(db: str) -> None:
    # was: both recorded as rated games of Doyle, Liam and Kelly, Ann
    assert refused(db, "game", "add", "Doyle", "Kelly, Ann", "1-0", "--date", "2026-11-02") == (
        "error: white: 'Doyle' is only a part of a name; did you mean Doyle, Liam (#2, FIDE "
        "90000003)? A change to the ledger names its players in full (the name, a FIDE id or "
        "#ID)")
    assert refused(db, "game", "add", "Doyle, Liam", "Ann", "1-0", "--date", "2026-11-02") == (
        "error: black: 'Ann' is only a part of a name; did you mean Kelly, Ann (#3, no FIDE id)? "
        "A change to the ledger names its players in full (the name, a FIDE id or #ID)")
    assert "white: 'Liam' is only a part of a name" in refused(
        db, "game", "add", "Liam", "Ann", "1-0", "--date", "2026-11-02")
    assert json.loads(ok(db, "game", "list", "--json").stdout) == {"games": []}
    # in full: the name (any word order, comma optional), the FIDE id, #ID
    for white, black, day in (("Doyle, Liam", "Kelly, Ann", "2026-11-02"),
                              ("Liam Doyle", "Kelly Ann", "2026-11-03"),
                              ("90000003", "#3", "2026-11-04")):
        added = json.loads(ok(db, "game", "add", white, black, "1-0", "--date", day,
                              "--json").stdout)
        assert [(g["white"], g["black"]) for g in added["games"]] == [("Doyle, Liam",
                                                                       "Kelly, Ann")]


def test_the_reports_still_take_a_unique_part_of_a_name(db: str) -> None:
    ok(db, "game", "add", "Doyle, Liam", "Kelly, Ann", "1-0", "--date", "2026-11-02")
    assert json.loads(ok(db, "player", "show", "Doyle", "--json").stdout)["id"] == 2
    listed = json.loads(ok(db, "game", "list", "--player", "Ann", "--json").stdout)
    assert [g["black"] for g in listed["games"]] == ["Kelly, Ann"]
    ok(db, "history", "Liam")
    ok(db, "whatif", "Doyle", "Kelly", "--period", "2026-11")
    ok(db, "performance", "Doyle", "--period", "2026-11")


# ------------------------------------------------------------------------------------------------
# 7. An ambiguous name lists what tells the candidates apart


def test_an_ambiguous_name_lists_fide_id_birth_year_and_federation(db: str,
                                                                   tmp_path: Path) -> None:
    ok(db, "player", "add", "Walsh, Tom", "--fide-id", "2500035", "--birth-year", "1990",
       "--federation", "IRL")
    ok(db, "player", "add", "Walsh, Tom", "--birth-year", "1985", "--new")
    both = ("Walsh, Tom (#4, FIDE 2500035, born 1990, IRL); Walsh, Tom (#5, FIDE -, born 1985)")
    # was: matches several players: #4 Walsh, Tom (FIDE 2500035); #5 Walsh, Tom
    assert refused(db, "player", "show", "Walsh, Tom") == (
        f"error: player: 'Walsh, Tom' matches several players: {both}; write #ID")
    assert refused(db, "game", "add", "Tom Walsh", "#1", "1-0", "--date", "2026-11-02") == (
        f"error: white: 'Tom Walsh' matches several players: {both}; write #ID")
    games = write(tmp_path / "games.csv",
                  'date,white,black,result\n2026-11-02,"Walsh, Tom","Kelly, Ann",1-0\n')
    # was: matches several players: #4 (FIDE 2500035, born 1990); #5 (FIDE -, born 1985)
    assert (f"games.csv:2: error: white: 'Walsh, Tom' matches several players: {both}; give a "
            "FIDE id or a birth year to tell them apart") in refused(db, "import", games, code=3)
