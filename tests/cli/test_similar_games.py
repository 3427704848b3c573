"""Likely duplicates through the CLI (issue 9, item 3): ``ledger import`` refuses a file whose
games look like recorded games of another event (exit 3, each listed with the game it resembles,
in text and in ``--json``'s ``similar``), ``ledger game add`` likewise (exit 1); ``--allow-similar``
records them. ``game add`` without ``--round`` for a pair that already has a game that day in the
event is refused (exit 1).

Data: examples/data/tata_steel_masters_2022.pgn, Event "84th Tata Steel Masters" on its 91 games
(line 1: R1.1 Esipenko v Carlsen 1/2-1/2, 2022-01-15; line 2252: R13.7 Carlsen v Dubov, no
moves, recorded +/-, 2022-01-30: game 91).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from data_files import data_file
from ledgers import Factory, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def games_and_events(db: str) -> tuple[object, object]:
    return (sql(db, "SELECT count(*) FROM games")[0][0],
            sql(db, "SELECT count(*) FROM events")[0][0])


@pytest.fixture
def db(new_ledger: Factory) -> str:
    return new_ledger("dups")


def test_import_of_a_renamed_event_exit_3_then_allow_similar(db: str, tmp_path: Path) -> None:
    tata = data_file("tata_steel_masters_2022.pgn")
    assert run("--db", db, "import", tata, "--register-players").exit_code == 0
    renamed = tmp_path / "tata_2022.pgn"
    renamed.write_text(tata.read_text(encoding="utf-8-sig").replace(
        '[Event "84th Tata Steel Masters"]', '[Event "Tata Steel Masters 2022"]'),
        encoding="utf-8")

    refused = run("--db", db, "import", renamed, "--json")
    assert refused.exit_code == 3
    report = json.loads(refused.stdout)
    assert (report["rejected"], len(report["similar"])) == (True, 91)
    assert report["similar"][0] == {
        "line": 1, "game": {"white": "Esipenko, Andrey", "black": "Carlsen, Magnus",
                            "date": "2022-01-15", "result": "1/2-1/2",
                            "event": "Tata Steel Masters 2022", "round": "1.1"},
        "recorded_game_id": 1, "recorded_event_id": 1, "recorded_event": "84th Tata Steel Masters",
        "recorded_round": "1.1", "earlier_line": None,
        "why": "the same players, date and result in another event (or one without an event)"}
    assert report["similar"][-1] == {
        "line": 2252, "game": {"white": "Carlsen, Magnus", "black": "Dubov, Daniil",
                               "date": "2022-01-30", "result": "+/-",
                               "event": "Tata Steel Masters 2022", "round": "13.7"},
        "recorded_game_id": 91, "recorded_event_id": 1,
        "recorded_event": "84th Tata Steel Masters", "recorded_round": "13.7",
        "earlier_line": None,
        "why": "the same players, date and result in another event (or one without an event)"}
    stderr = " ".join(refused.stderr.split())
    assert (f"{renamed}:2252: error: Event: Carlsen, Magnus v Dubov, Daniil +/- on 2022-01-30 "
            "(round 13.7) looks like game 91 (event '84th Tata Steel Masters', round 13.7) in "
            "the ledger") in stderr
    assert "import rejected, nothing was written" in stderr
    assert games_and_events(db) == (91, 1)

    dry = run("--db", db, "import", renamed, "--allow-similar", "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert ("would record as different games (--allow-similar): 91 that look like games "
            "recorded or elsewhere in the file (each named in a warning)"
            ) in " ".join(dry.stdout.split())
    assert games_and_events(db) == (91, 1)
    allowed = run("--db", db, "import", renamed, "--allow-similar", "--json")
    assert allowed.exit_code == 0, allowed.stderr
    report = json.loads(allowed.stdout)
    assert (report["recorded"], report["allow_similar"], len(report["similar"])) == (91, True, 91)
    assert report["similar"][0]["recorded_game_id"] == 1
    warnings = [p for p in report["problems"] if "looks like game" in p["message"]]
    assert len(warnings) == 91 and {p["severity"] for p in warnings} == {"warning"}
    assert games_and_events(db) == (182, 2)


def test_allow_similar_is_for_files_of_games(db: str) -> None:
    fide_list = data_file("tata_steel_masters_2022.pgn")  # never read: refused before
    result = run("--db", db, "import", fide_list, "--format", "fide-list", "--list-date",
                 "2022-01-01", "--allow-similar")
    assert result.exit_code == 2
    assert "--allow-similar is for a file of games, not for a FIDE rating list" in result.stderr


@pytest.fixture
def club(db: str) -> str:
    for name in ("Doyle, Liam", "Walsh, Brendan"):
        assert run("--db", db, "player", "add", name, "--rating", "1800", "--prior-games", "0").exit_code == 0
    added = run("--db", db, "game", "add", "Doyle, Liam", "Walsh, Brendan", "0-1", "--date", "2026-08-26",
                "--event", "Club")
    assert added.exit_code == 0, added.stderr
    return db


def test_game_add_twice_without_round_exit_1(club: str) -> None:
    # the same game typed again with the colours swapped, no round, same event and day
    again = run("--db", club, "game", "add", "Walsh, Brendan", "Doyle, Liam", "1-0", "--date", "2026-08-26",
                "--event", "Club")
    assert again.exit_code == 1
    assert " ".join(again.stderr.split()) == (
        "error: round: Walsh, Brendan v Doyle, Liam on 2026-08-26 (no round): the pair already "
        "has a game that day in this event, game 1 (Doyle, Liam v Walsh, Brendan, 0-1) in the "
        "ledger (no round); the same pair on one day in one event is one game unless their "
        "rounds differ: give each game its round; to change or remove a recorded game: ledger "
        "game correct ID or ledger game void ID")
    assert games_and_events(club) == (1, 1)


def test_game_add_of_a_likely_duplicate_exit_1_then_allow_similar(club: str) -> None:
    args = ("game", "add", "Walsh, Brendan", "Doyle, Liam", "1-0", "--date", "2026-08-26",
            "--event", "Club B")
    refused = run("--db", club, *args)
    assert refused.exit_code == 1
    assert " ".join(refused.stderr.split()) == (
        "error: game: Walsh, Brendan v Doyle, Liam 1-0 on 2026-08-26 (no round) looks like game "
        "1 (event 'Club', no round) in the ledger: the same players, date and result in another event (or "
        "one without an event); if they are different games, add it with --allow-similar")
    assert games_and_events(club) == (1, 1)
    allowed = run("--db", club, *args, "--allow-similar", "--json")
    assert allowed.exit_code == 0, allowed.stderr
    assert [g["id"] for g in json.loads(allowed.stdout)["games"]] == [2]
    assert "recorded as a different game (--allow-similar)" in allowed.stderr
    assert games_and_events(club) == (2, 2)
