"""``ledger import PLAYERS.csv --format players`` through Typer's CliRunner: a small register
imported and shown by ``player list --json``; every kind of bad row refused naming its line and
column (exit 3, nothing written); a name already registered refused as ``player add`` refuses
it, unless the row's ``new`` column says it is another person."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ledgers import Factory, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app

HEADER = "name,fide_id,birth_year,sex,federation,title,rating,prior_games,reached_2400,reached_2300"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("players")


def register(runner: CliRunner, db: str, tmp_path: Path, *lines: str,
             name: str = "players.csv") -> Result:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return runner.invoke(app, ["--db", db, "import", str(path), "--format", "players", "--json"])


def listed(runner: CliRunner, db: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["--db", db, "player", "list", "--json"])
    assert result.exit_code == 0, result.output
    data: list[dict[str, object]] = json.loads(result.stdout)["players"]
    return data


def test_a_register_of_three_is_imported_with_their_k_histories(
        runner: CliRunner, db: str, tmp_path: Path) -> None:
    result = register(runner, db, tmp_path, HEADER,
                      '"Doyle, Liam",2500035,1990,m,irl,,1850,120,,',
                      '"Walsh, Brendan",,2011,M,IRL,,,,no,no',
                      '"Okafor, Grace",,1985,F,NGA,WGM,2389,300,yes,yes')
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["rows"], report["registered"], report["ids"], report["unrated"]) == \
        (3, 3, [1, 3], 1)
    rows = {p["name"]: p for p in listed(runner, db)}
    doyle, walsh, okafor = rows["Doyle, Liam"], rows["Walsh, Brendan"], rows["Okafor, Grace"]
    # Doyle: 1850 with 120 earlier games, born 1990: no junior, 30+ games, under 2400 -> K 20;
    # sex and federation read in capitals, as player add reads them
    assert (doyle["fide_id"], doyle["sex"], doyle["federation"], doyle["rating"],
            doyle["rated_games"], doyle["k"]) == (2500035, "M", "IRL", 1850, 120, 20)
    # Walsh: unrated, prior games blank -> 0 (as every import registers an unrated player)
    assert (walsh["rating"], walsh["rated_games"], walsh["birth_year"]) == (None, 0, 2011)
    # Okafor: reached 2400 -> K 10 for ever (B.02 §8.3.3), although 2389 today
    assert (okafor["title"], okafor["rating"], okafor["reached_2400"], okafor["k"]) == \
        ("WGM", 2389, True, 10)
    # one audit change for the whole import
    assert sql(db, "SELECT action, COUNT(*) FROM changes GROUP BY action") == \
        [("players.import", 1)]
    assert sql(db, "SELECT COUNT(DISTINCT change_id) FROM players") == [(1,)]


@pytest.mark.parametrize(("row", "column", "message"), [
    ('"Byrne, Seán",,2030,,,,,,,', "birth_year", "2030 is after this year"),
    ('"Byrne, Seán",,19x0,,,,,,,', "birth_year", "'19x0' is not a whole number"),
    ('"Byrne, Seán",,,,,,900,,,', "rating", "900 is outside 1000..3500"),
    ('"Byrne, Seán",,,X,,,,,,', "sex", "'X' must be M or F"),
    ('"Byrne, Seán",,,,IRELAND,,,,,', "federation", "must be a three-letter code"),
    ('"Byrne, Seán",,,,,XM,,,,', "title", "'XM' must be one of GM"),
    ('"Byrne, Seán",,,,,,1800,-3,,', "prior_games", "'-3' is not a whole number"),
    ('"Byrne, Seán",,,,,,1800,200000,,', "prior_games", "200000 must be 0 to 100000"),
    ('"Byrne, Seán",,,,,,,,maybe,', "reached_2400", "'maybe' must be yes or no"),
    ('"Byrne,\tSeán",,,,,,,,,', "name", "holds a control character (U+0009)"),
    ('"",,1990,,,,,,,', "name", "no player name"),
    ('"Byrne, Seán",,,,,', "row", "6 fields where the header has 10"),
    ('"Byrne, Seán",2500035,,,,,,,,', "fide_id", "2500035 is already the FIDE id of line 2"),
])
def test_each_kind_of_bad_row_is_refused_naming_line_and_column(
        runner: CliRunner, db: str, tmp_path: Path, row: str, column: str, message: str) -> None:
    result = register(runner, db, tmp_path, HEADER, '"Doyle, Liam",2500035,,,,,,,,', row)
    assert result.exit_code == 3, result.output
    problems = json.loads(result.stdout)["problems"]
    assert [(p["file"].endswith("players.csv"), p["line"], p["field"]) for p in problems] == \
        [(True, 3, column)]
    assert message in problems[0]["message"]
    # all or nothing: the good row on line 2 is not written either, nor any change
    assert sql(db, "SELECT COUNT(*) FROM players") == [(0,)]
    assert sql(db, "SELECT COUNT(*) FROM changes") == [(0,)]


def test_a_bad_header_is_one_error_on_line_1(runner: CliRunner, db: str, tmp_path: Path) -> None:
    result = register(runner, db, tmp_path, "fide_id,rating,elo", "2500035,1800,1800")
    assert result.exit_code == 3
    [problem] = json.loads(result.stdout)["problems"]
    assert (problem["line"], problem["field"]) == (1, "header")
    assert "missing name; unknown column 'elo'" in problem["message"]


def test_a_name_already_registered_is_refused_as_player_add_refuses_it(
        runner: CliRunner, db: str, tmp_path: Path) -> None:
    added = runner.invoke(app, ["--db", db, "player", "add", "Doyle, Liam", "--fide-id",
                                "2500035", "--birth-year", "1990", "--federation", "IRL"])
    assert added.exit_code == 0, added.output
    result = register(runner, db, tmp_path, "name,birth_year", '"Walsh, Tom",1990',
                      '"Liam Doyle",1995', '"Walsh, Tom",2001')
    assert result.exit_code == 3, result.output
    problems = json.loads(result.stdout)["problems"]
    # line 3: the other word order of a player of the ledger, described as player add does;
    # line 4: the name of line 2 of the same file
    assert [(p["line"], p["field"]) for p in problems] == [(3, "name"), (4, "name")]
    assert "'Liam Doyle' is already in the ledger as Doyle, Liam (#1, FIDE 2500035, born " \
        "1990, IRL)" in problems[0]["message"]
    assert "line 2 of the file" in problems[1]["message"]
    assert sql(db, "SELECT COUNT(*) FROM players") == [(1,)]


def test_the_new_column_registers_a_namesake(runner: CliRunner, db: str, tmp_path: Path) -> None:
    added = runner.invoke(app, ["--db", db, "player", "add", "Doyle, Liam", "--birth-year", "1990"])
    assert added.exit_code == 0, added.output
    result = register(runner, db, tmp_path, "name,birth_year,new", '"Doyle, Liam",2008,yes',
                      '"Doyle, Liam",2012,y')
    assert result.exit_code == 0, result.output
    # namesakes 0 (player add), then 1 and 2 (the file's rows, in its order)
    assert sql(db, "SELECT id, birth_year, namesake FROM players ORDER BY id") == \
        [(1, 1990, 0), (2, 2008, 1), (3, 2012, 2)]


def test_a_lookalike_name_is_refused(runner: CliRunner, db: str, tmp_path: Path) -> None:
    added = runner.invoke(app, ["--db", db, "player", "add", "Müller, Jürgen"])
    assert added.exit_code == 0, added.output
    result = register(runner, db, tmp_path, "name", '"Mueller, Juergen"')
    assert result.exit_code == 3
    [problem] = json.loads(result.stdout)["problems"]
    assert (problem["line"], problem["field"]) == (2, "name")
    assert "looks like Müller, Jürgen (#1" in problem["message"]


def test_game_options_are_usage_errors(runner: CliRunner, db: str, tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("name\nDoyle\n", encoding="utf-8")
    result = runner.invoke(app, ["--db", db, "import", str(path), "--format", "players",
                                 "--register-players"])
    assert result.exit_code == 2
    assert "--register-players: not for a register of players" in result.output
