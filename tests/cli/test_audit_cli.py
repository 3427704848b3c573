"""The audit log through the command line (docs/CORRECTIONS.md §1): every write command appends
exactly one change per thing it changes, with who (``--by``, else ``$LEDGER_USER``) and the
command line; a dry run or a refusal appends none; ``ledger audit`` filters them; ``db backup``
copies a ledger another process is writing, and the copy passes ``db check``."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from ledgers import Factory, sql
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.db.engine import shown_db

PGN = """[Event "Audit Cup"]
[Date "2025.11.08"]
[Round "1"]
[White "Alpha, Ann"]
[Black "Gamma, Gil"]
[Result "1/2-1/2"]
[WhiteElo "1800"]
[BlackElo "1650"]

1. e4 e5 2. Nf3 Nc6 1/2-1/2
"""


def run(db: str | Path, *args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, ["--db", str(db), *args], env=env)


def changes(db: str) -> list[tuple[object, ...]]:
    return sql(db, "SELECT by, action, entity, entity_id, command FROM changes ORDER BY id")


def test_each_write_appends_one_change_and_a_dry_run_or_refusal_none(
        tmp_path: Path, new_database: Factory) -> None:
    db = new_database("ledger")
    pgn = tmp_path / "cup.pgn"
    pgn.write_text(PGN, encoding="utf-8")
    as_ann = {"LEDGER_USER": "ann"}
    steps: list[tuple[tuple[str, ...], int, int]] = [
        # (arguments, exit code, changes it appends)
        (("init",), 0, 0),
        (("--by", "Rating Officer", "player", "add", "Alpha, Ann", "--rating", "1800",
          "--prior-games", "100"), 0, 1),
        (("player", "add", "Beta, Bob", "--rating", "1700", "--prior-games", "100"), 0, 1),
        (("player", "add", "Alpha, Ann"), 1, 0),                     # refused: the same name
        (("game", "add", "Alpha, Ann", "Beta, Bob", "1-0", "--date", "2025-11-05"), 0, 1),
        (("import", str(pgn), "--register-players", "--dry-run"), 0, 0),
        (("import", str(pgn)), 3, 0),                                # rejected: Gamma unknown
        (("import", str(pgn), "--register-players"), 0, 1),          # one change for the file
        (("import", str(pgn), "--register-players"), 0, 0),          # the same file: nothing
        (("period", "close", "2025-11", "--dry-run"), 0, 0),
        (("period", "close", "2025-11"), 0, 1),
        (("game", "add", "Alpha, Ann", "Beta, Bob", "1-0", "--date", "2025-11-05"), 1, 0),
        # refused above: the same game again (a game dated in closed 2025-11 is a late
        # result now, recorded like any other game: tests/cli/test_corrections_cli.py)
        (("game", "add", "Beta, Bob", "Alpha, Ann", "1-0", "--date", "2025-12-06"), 0, 1),
        (("period", "close", "--through", "2025-12"), 0, 1),
        (("period", "reopen", "2025-11", "--reason", "no"), 1, 0),   # not the latest
        (("period", "reopen", "2025-12", "--reason", "late game", "--dry-run"), 0, 0),
        (("period", "reopen", "2025-12", "--reason", "late game"), 0, 1),
        (("period", "close", "2025-12"), 0, 1),
        (("period", "rerate", "--from", "2025-11", "--reason", "check"), 0, 0),  # no --yes
        (("period", "rerate", "--from", "2025-11", "--reason", "check", "--yes"), 0, 2),
    ]
    for args, code, appended in steps:
        before = len(changes(db)) if args != ("init",) else 0
        result = run(db, *args, env=as_ann)
        assert result.exit_code == code, (args, result.output)
        assert len(changes(db)) - before == appended, args
    log = changes(db)
    assert [(by, action, entity) for by, action, entity, _, _ in log] == [
        ("Rating Officer", "player.add", "player"), ("ann", "player.add", "player"),
        ("ann", "game.add", "game"), ("ann", "import", "file"), ("ann", "period.close", "period"),
        ("ann", "game.add", "game"), ("ann", "period.close", "period"),
        ("ann", "period.reopen", "period"), ("ann", "period.close", "period"),
        ("ann", "period.rerate", "period"), ("ann", "period.rerate", "period")]
    # as typed, a database password hidden
    assert log[0][4] == (f"ledger --db {shlex.quote(shown_db(db))} --by 'Rating Officer' player "
                         "add 'Alpha, Ann' --rating 1800 --prior-games 100")

    everything = json.loads(run(db, "audit", "--json").stdout)["changes"]
    assert len(everything) == len(log)
    imported = everything[3]["after"]
    assert (imported["games_recorded"], imported["players_registered"]) == (1, 1)
    assert everything[7]["reason"] == "late game"
    # Beta: registered, the game of 2025-11-05, the December game and the closes rating them
    beta = json.loads(run(db, "audit", "--player", "Beta, Bob", "--json").stdout)["changes"]
    assert [c["action"] for c in beta] == [
        "player.add", "game.add", "period.close", "game.add", "period.close", "period.close",
        "period.rerate", "period.rerate"]
    december = json.loads(run(db, "audit", "--period", "2025-12", "--json").stdout)["changes"]
    assert [c["action"] for c in december] == [
        "game.add", "period.close", "period.reopen", "period.close", "period.rerate"]
    assert run(db, "audit", "--since", "2999-01-01", "--json").stdout.count('"id"') == 0
    bad = run(db, "audit", "--since", "yesterday")
    assert bad.exit_code == 1 and "since:" in bad.output
    assert run(db, "--by", "", "player", "add", "Delta, Dee").exit_code == 1
    assert "Audit log" in run(db, "audit").stdout


WRITER = """
import sys
from ledger.services.register.players import NewPlayer, add_player
from ledger.services.core.session import open_ledger
engine = open_ledger(sys.argv[1])
for i in range(int(sys.argv[2])):
    add_player(engine, NewPlayer(f"Writer, {i:04d}", rating=1500 + i % 500, prior_games=100))
engine.dispose()
"""


def test_a_backup_while_another_process_writes_opens_and_checks(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    assert run(db, "init").exit_code == 0
    for name, rating in (("Alpha, Ann", "1800"), ("Beta, Bob", "1700")):
        assert run(db, "player", "add", name, "--rating", rating, "--prior-games", "100",
                   ).exit_code == 0
    assert run(db, "game", "add", "Alpha, Ann", "Beta, Bob", "1-0", "--date",
               "2025-11-05").exit_code == 0
    assert run(db, "period", "close", "2025-11").exit_code == 0
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db), "400"])
    try:
        copies = []
        for i in range(3):
            time.sleep(0.3)
            copy = tmp_path / f"copy{i}.db"
            made = run(db, "db", "backup", str(copy), "--json")
            assert made.exit_code == 0, made.output
            copies.append(copy)
    finally:
        assert writer.wait(timeout=120) == 0
    for copy in copies:
        checked = run(copy, "db", "check", "--json")
        assert checked.exit_code == 0, checked.output
        assert json.loads(checked.stdout)["ok"] is True
        players = json.loads(run(copy, "player", "list", "--json").stdout)["players"]
        assert 2 <= len(players) <= 402
    again = run(db, "db", "backup", str(copies[0]))
    assert again.exit_code == 1 and "exists" in again.output
    assert run(db, "db", "backup", str(copies[0]), "--force").exit_code == 0
    itself = run(db, "db", "backup", str(db), "--force")
    assert itself.exit_code == 1 and "is the ledger database" in itself.output


def test_a_period_lists_the_game_add_of_a_game_later_corrected_or_voided(ledger_db: str) -> None:
    """``audit --period`` lists every change that wrote one of the period's games, the first
    one included: a game corrected and another voided keep their ``game.add`` in the list (the
    first write is the revision's ``valid_from_change``; before the fix only ``Game.change_id``
    and ``valid_to_change`` were read, and both game.add entries went missing)."""
    db = ledger_db
    for name in ("Alpha, Ann", "Beta, Bob"):
        assert run(db, "player", "add", name, "--rating", "1800", "--prior-games", "30").exit_code == 0
    for day in ("2025-11-05", "2025-11-12"):
        assert run(db, "game", "add", "Alpha, Ann", "Beta, Bob", "1-0", "--date", day,
                   "--event", f"Club night {day}").exit_code == 0
    assert run(db, "game", "correct", "1", "--result", "0-1", "--reason", "scoresheet").exit_code == 0
    assert run(db, "game", "void", "2", "--reason", "not played").exit_code == 0
    november = json.loads(run(db, "audit", "--period", "2025-11", "--json").stdout)["changes"]
    assert [(c["action"], c["entity_id"]) for c in november] == [
        ("game.add", "1"), ("game.add", "2"), ("game.correct", "1"), ("game.void", "2")]


def test_the_table_names_each_closes_pool_and_shows_the_command(new_ledger: Factory) -> None:
    db = new_ledger("pools")
    for args in (("player", "add", "Alpha, Ann", "--rating", "2000", "--prior-games", "100"),
                 ("player", "add", "Beta, Bob", "--rating", "1900", "--prior-games", "100"),
                 ("game", "add", "Alpha, Ann", "Beta, Bob", "1-0", "--date", "2026-09-10"),
                 ("game", "add", "Alpha, Ann", "Beta, Bob", "1-0", "--date", "2026-09-11",
                  "--pool", "rapid"),
                 ("period", "close", "2026-09")):
        assert run(db, *args).exit_code == 0
    shown = run(db, "audit", "--period", "2026-09")  # not a terminal: 160 columns
    assert shown.exit_code == 0, shown.output
    # one close of two pools: a change each, told apart by the pool
    rows = [line for line in shown.stdout.splitlines() if "period.close" in line]
    assert [("period 2026-09 (standard)" in r, "period 2026-09 (rapid)" in r) for r in rows] == [
        (True, False), (False, True)]
    # the command column docs/commands.md promises, folded into the width left
    assert "command" in shown.stdout.splitlines()[2]
    assert "ledger --db" in rows[0] and shown.stdout.count("period close 2026-09") == 2
