"""The ``ledger`` command line through Typer's CliRunner: help, exit codes, JSON, the Tata Steel run.

Exit codes (docs/DESIGN.md, Conventions): 0 ok, 1 refused by the ledger, 2 usage, 3 import
rejected, 4 the database needs ``ledger init``. Errors go to stderr.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
import typer.main
from data_files import data_file
from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def tata() -> str:
    return str(data_file("tata_steel_masters_2022.pgn"))


def run(runner: CliRunner, *args: str, env: dict[str, str] | None = None) -> Result:
    return runner.invoke(app, list(args), env=env)


def stderr_of(result: Result) -> str:
    """stderr as CliRunner keeps it (separate from stdout in this Typer)."""
    return result.stderr


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("cli")


# ------------------------------------------------------------------------------------------------
# Help


def _walk(command: typer.main.TyperGroup | object, path: tuple[str, ...]) -> Iterator[
        tuple[tuple[str, ...], object]]:
    """Every command under ``command``, through Click's own ``list_commands``/``get_command``
    (the app's group loads its commands as they are asked for: ``cli.tree.LazyGroup``)."""
    yield path, command
    if isinstance(command, typer.main.TyperGroup):
        ctx = typer.Context(command, info_name=path[-1] if path else "ledger")
        for name in sorted(command.list_commands(ctx)):
            yield from _walk(command.get_command(ctx, name), (*path, name))


def test_every_command_has_help(runner: CliRunner) -> None:
    root = typer.main.get_command(app)
    seen = list(_walk(root, ()))
    names = {" ".join(path) for path, _ in seen}
    # The commands of docs/DESIGN.md that exist so far.
    assert {"", "init", "import", "list", "history", "player", "player add", "player list",
            "player show", "game", "game add", "game list", "period", "period close",
            "period list"} <= names
    for path, command in seen:
        help_text = (getattr(command, "help", None) or "").strip()
        assert help_text, f"`ledger {' '.join(path)}` has no help text"
        result = run(runner, *path, "--help")
        assert result.exit_code == 0, (path, result.output)
        assert "Usage" in result.output
        assert help_text.split("\n")[0].strip()[:30] in " ".join(result.output.split()), path
        for param in getattr(command, "params", []):
            if getattr(param, "param_type_name", "") == "option" and param.name != "help":
                assert (param.help or "").strip(), f"`ledger {' '.join(path)}` {param.name}"


def test_help_paragraphs_have_no_hard_line_breaks() -> None:
    # Rich help keeps a docstring's line breaks inside a paragraph, so a paragraph written over two
    # source lines printed as "... the 400-point rule and" / "the 700 cap." on two short lines.
    root = typer.main.get_command(app)
    for path, command in _walk(root, ()):
        paragraphs = (getattr(command, "help", None) or "").strip().split("\n\n")
        for paragraph in paragraphs:
            assert "\n" not in paragraph.strip(), (path, paragraph)


def test_calc_help_uses_the_fields_terms(runner: CliRunner) -> None:
    out = " ".join(run(runner, "--help").output.split())
    assert "Rating calculators: expected score (PD)" in out and "seeds" not in out
    usage = run(runner, "calc", "change", "--help").output
    assert "GAME" in usage and "{games}" not in usage
    assert "GM|IM|WGM|WIM" in run(runner, "performance", "--help").output
    assert "rating difference D" in " ".join(run(runner, "calc", "--help").output.split())


# ------------------------------------------------------------------------------------------------
# Exit codes


def test_missing_database_exits_4(runner: CliRunner, tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.db")
    for args in (("list",), ("player", "list"), ("period", "close"), ("history", "X")):
        result = run(runner, "--db", missing, *args)
        assert result.exit_code == 4, (args, result.output)
        assert "ledger init" in stderr_of(result)
        assert "ledger init" not in result.stdout
    assert not Path(missing).exists()  # a command other than init never creates the file


def test_uninitialised_database_exits_4(runner: CliRunner, tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")  # exists, but is not a ledger
    result = run(runner, "--db", str(empty), "player", "list")
    assert result.exit_code == 4
    assert "ledger init" in stderr_of(result)


@pytest.fixture
def two_players(runner: CliRunner, db: str) -> str:
    for name, rating in (("Player, A", "1800"), ("Player, B", "1900")):
        result = run(runner, "--db", db, "player", "add", name, "--rating", rating,
                     "--prior-games", "100")
        assert result.exit_code == 0, result.output
    return db


def test_game_add_unknown_player_exits_1(runner: CliRunner, two_players: str) -> None:
    result = run(runner, "--db", two_players, "game", "add", "Player, A", "Nobody, Here", "1-0",
                 "--date", "2025-11-05")
    assert result.exit_code == 1
    err = stderr_of(result)
    assert "player" in err and "Nobody, Here" in err


def test_game_add_bad_result_exits_1(runner: CliRunner, two_players: str) -> None:
    result = run(runner, "--db", two_players, "game", "add", "Player, A", "Player, B", "2-0",
                 "--date", "2025-11-05")
    assert result.exit_code == 1
    assert "result" in stderr_of(result)
    assert "2-0" in stderr_of(result)


@pytest.mark.parametrize("date", ["2025-13-01", "05/11/2025", "2025-11-31"])
def test_game_add_bad_date_exits_1(runner: CliRunner, two_players: str, date: str) -> None:
    result = run(runner, "--db", two_players, "game", "add", "Player, A", "Player, B", "1-0",
                 "--date", date)
    assert result.exit_code == 1
    assert "date" in stderr_of(result)


def test_game_add_same_player_twice_exits_1(runner: CliRunner, two_players: str) -> None:
    result = run(runner, "--db", two_players, "game", "add", "Player, A", "Player, A", "1-0",
                 "--date", "2025-11-05")
    assert result.exit_code == 1
    assert "Player, A" in stderr_of(result)


def test_game_add_without_date_is_usage_error(runner: CliRunner, two_players: str) -> None:
    result = run(runner, "--db", two_players, "game", "add", "Player, A", "Player, B", "1-0")
    assert result.exit_code == 2
    assert "--date" in stderr_of(result)


def test_game_add_then_list(runner: CliRunner, two_players: str) -> None:
    result = run(runner, "--db", two_players, "game", "add", "Player, A", "Player, B", "1-0",
                 "--date", "2025-11-05", "--json")
    assert result.exit_code == 0, result.output
    games = json.loads(result.stdout)["games"]
    # 2025-11 is not closed yet: the game is "open", not rated so far
    assert [(g["white"], g["black"], g["result"], g["period"], g["status"]) for g in games] == [
        ("Player, A", "Player, B", "1-0", "2025-11", "open")]


def test_import_rejected_exits_3(runner: CliRunner, two_players: str, tmp_path: Path) -> None:
    pgn = tmp_path / "bad.pgn"
    pgn.write_text('[Event "Club"]\n[Date "2025.11.05"]\n[Round "1"]\n[White "Player, A"]\n'
                   '[Black "Player, B"]\n[Result "0-0"]\n\n0-0\n', encoding="utf-8")
    result = run(runner, "--db", two_players, "import", str(pgn))
    assert result.exit_code == 3
    err = stderr_of(result)
    assert f"{pgn}:6" in err  # file:line of the Result tag
    assert "Result" in err
    listed = run(runner, "--db", two_players, "game", "list", "--json")
    assert json.loads(listed.stdout)["games"] == []


def test_import_of_a_file_of_no_known_format_is_usage_error(runner: CliRunner, db: str,
                                                tmp_path: Path) -> None:
    other = tmp_path / "games.txt"
    other.write_text("not a pgn\n", encoding="utf-8")
    result = run(runner, "--db", db, "import", str(other))
    assert result.exit_code == 2
    assert "--format pgn|trf|csv" in stderr_of(result)


def test_database_path_that_is_a_directory_is_a_clean_error(runner: CliRunner,
                                                           tmp_path: Path) -> None:
    # Errors go to stderr with an exit code (DESIGN, Conventions), never as a traceback.
    directory = tmp_path / "folder.db"
    directory.mkdir()
    result = run(runner, "--db", str(directory), "list")
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 4)
    assert "folder.db" in stderr_of(result)


def test_closed_period_refused_exits_1(runner: CliRunner, two_players: str) -> None:
    assert run(runner, "--db", two_players, "game", "add", "Player, A", "Player, B", "1-0",
               "--date", "2025-11-05").exit_code == 0
    assert run(runner, "--db", two_players, "period", "close", "2025-11").exit_code == 0
    again = run(runner, "--db", two_players, "period", "close", "2025-11")
    assert again.exit_code == 1
    assert "closed" in stderr_of(again)
    # a game dated in the closed period is a late result (docs/RULES.md §1): recorded in the
    # earliest open period, with a note saying so
    late = run(runner, "--db", two_players, "game", "add", "Player, B", "Player, A", "1-0",
               "--date", "2025-11-20")
    assert late.exit_code == 0
    assert "late result: its period 2025-11 is closed" in " ".join(stderr_of(late).split())
    assert "open, late (dated 2025-11)" in late.stdout


# ------------------------------------------------------------------------------------------------
# End to end: Tata Steel Masters 2022 exactly as a user would run it


def test_tata_steel_end_to_end(runner: CliRunner, tmp_path: Path, tata: str,
                               new_database: Factory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = new_database("t")
    if "://" not in db:
        db = "t.db"  # a SQLite file named as a user types it, in the folder they are in
    init = run(runner, "--db", db, "init")
    assert init.exit_code == 0, init.output
    assert "created ledger at" in init.stdout
    assert db.startswith("postgresql") or (tmp_path / "t.db").is_file()

    imported = run(runner, "--db", db, "import", tata, "--register-players")
    assert imported.exit_code == 0, imported.output
    assert "recorded 91" in imported.stdout
    assert "14 registered" in imported.stdout

    closed = run(runner, "--db", db, "period", "close", "2022-01", "--json")
    assert closed.exit_code == 0, closed.output
    report = json.loads(closed.stdout)
    assert report["period"] == "2022-01"
    assert report["edition"] == "2022-01"
    results = {r["name"]: r for r in report["results"]}
    assert len(results) == 14
    keys = {"name", "fide_id", "rating_before", "games", "score", "expected", "k", "k_reason",
            "change", "rating_after"}
    for r in report["results"]:
        assert keys <= set(r), set(r)
    carlsen = results["Carlsen, Magnus"]
    # 12 rated games, 8.5 points, sum PD 8.19: +0.31 x K 10 = +3.1 -> +3 (worked in
    # tests/integration/test_tata_steel.py; FIDE: "earned 3 points in Tata Steel Masters")
    assert carlsen["fide_id"] == 1503014
    assert (carlsen["rating_before"], carlsen["games"], carlsen["score"], carlsen["expected"]) == (
        2865, 12, 8.5, 8.19)
    assert (carlsen["k"], carlsen["k_reason"], carlsen["change"], carlsen["rating_after"]) == (
        10, "reached-2400", 3, 2868)
    # FIDE: "an 11-point loss by Caruana" (sum -1.05 x 10 = -10.5 -> -11); Van Foreest +12.
    assert (results["Caruana, Fabiano"]["change"], results["Caruana, Fabiano"]["rating_after"]) == (
        -11, 2781)
    assert results["Van Foreest, Jorden"]["rating_after"] == 2714
    assert results["Dubov, Daniil"]["games"] == 9

    listed = run(runner, "--db", db, "list", "--json")
    assert listed.exit_code == 0, listed.output
    rl = json.loads(listed.stdout)
    assert rl["period"] == "2022-01"
    assert len(rl["players"]) == 14
    for row in rl["players"]:
        assert {"rank", "name", "fide_id", "rating", "games", "k"} <= set(row)
    first = rl["players"][0]
    assert (first["rank"], first["name"], first["fide_id"], first["rating"], first["games"],
            first["k"]) == (1, "Carlsen, Magnus", 1503014, 2868, 12, 10)

    hist = run(runner, "--db", db, "history", "Carlsen, Magnus", "--json")
    assert hist.exit_code == 0, hist.output
    h = json.loads(hist.stdout)
    assert h["player"]["name"] == "Carlsen, Magnus"
    assert h["player"]["rating"] == 2868
    assert len(h["periods"]) == 1
    row = h["periods"][0]
    assert (row["period"], row["rating_before"], row["games"], row["score"], row["k"],
            row["k_reason"], row["change"], row["rating_after"]) == (
        "2022-01", 2865, 12, 8.5, 10, "reached-2400", 3, 2868)

    # Re-importing the file: nothing new.
    again = run(runner, "--db", db, "import", tata, "--register-players", "--json")
    assert again.exit_code == 0, again.output
    data = json.loads(again.stdout)
    assert (data["recorded"], data["already_recorded"]) == (0, 91)


def test_ledger_db_environment_variable(runner: CliRunner, new_database: Factory) -> None:
    env_db = new_database("from_env")
    env = {"LEDGER_DB": env_db}
    assert run(runner, "init", env=env).exit_code == 0
    assert env_db.startswith("postgresql") or Path(env_db).is_file()
    added = run(runner, "player", "add", "Player, Env", "--rating", "1500",
                "--prior-games", "0", "--json", env=env)
    assert added.exit_code == 0, added.output
    listed = run(runner, "player", "list", "--json", env=env)
    assert [p["name"] for p in json.loads(listed.stdout)["players"]] == ["Player, Env"]
    # --db wins over LEDGER_DB
    other = new_database("other")
    assert run(runner, "--db", other, "init", env=env).exit_code == 0
    listed_other = run(runner, "--db", other, "player", "list", "--json", env=env)
    assert json.loads(listed_other.stdout)["players"] == []


def one_game_pgn(tmp_path: Path, white: str, black: str, elo_tags: str) -> Path:
    """A PGN of one game, White wins, on 2025-11-05 in round 1 of "Club"; ``elo_tags``: the
    ``WhiteElo``/``BlackElo`` tag lines it has."""
    pgn = tmp_path / "one.pgn"
    pgn.write_text(f'[Event "Club"]\n[Date "2025.11.05"]\n[Round "1"]\n[White "{white}"]\n'
                   f'[Black "{black}"]\n[Result "1-0"]\n{elo_tags}\n'
                   '1. e4 e5 2. Nf3 Nc6 1-0\n', encoding="utf-8")
    return pgn


def test_import_report_says_who_is_assumed_established(runner: CliRunner, db: str,
                                                       tmp_path: Path) -> None:
    # White has an Elo tag: registered with it, earlier games unknown, assumed established.
    # Black has none: registered unrated with 0 rated games (K 40 until 30, B.02 §8.3.3).
    pgn = one_game_pgn(tmp_path, "Player, Rated", "Player, Unrated", '[WhiteElo "1850"]\n')
    dry = run(runner, "--db", db, "import", str(pgn), "--register-players", "--dry-run")
    assert dry.exit_code == 0, dry.output
    flat = " ".join(dry.stdout.split())
    assert "players: 0 matched, 2 registered" in flat
    assert ("registered with the file's rating, earlier games unknown (assumed established: 30 "
            "or more rated games): Player, Rated") in flat
    assert "registered unrated, 0 rated games (K 40 until 30): Player, Unrated" in flat
    assert "history unknown: treated as established" not in flat
    as_json = json.loads(run(runner, "--db", db, "import", str(pgn), "--register-players",
                             "--json").stdout)
    assert (as_json["players_registered"], as_json["registered_established"],
            as_json["registered_unrated"]) == (["Player, Rated", "Player, Unrated"],
                                               ["Player, Rated"], ["Player, Unrated"])


def test_player_show_pgn_registered_history_unknown(runner: CliRunner, db: str,
                                                    tmp_path: Path) -> None:
    pgn = one_game_pgn(tmp_path, "Player, New", "Player, Other",
                       '[WhiteElo "1850"]\n[BlackElo "1700"]\n')
    imported = run(runner, "--db", db, "import", str(pgn), "--register-players")
    assert imported.exit_code == 0, imported.output
    shown = run(runner, "--db", db, "player", "show", "Player, New")
    assert shown.exit_code == 0, shown.output
    flat = " ".join(shown.stdout.split())
    assert "unknown" in flat and "treated as established" in flat
    as_json = json.loads(run(runner, "--db", db, "player", "show", "Player, New", "--json").stdout)
    assert as_json["history_unknown"] is True
    assert as_json["rated_games"] is None
    # rating 1850 < 2400, no birth year, history unknown = established -> K 20 (RULES §4)
    assert (as_json["rating"], as_json["k"], as_json["k_reason"]) == (1850, 20, "standard")
