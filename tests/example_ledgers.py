"""The ledgers tests build on: a small club ledger (``build_club_cup``), and the two the site's
tests build on, made from the repository's real files:

- the README's example season: the ``ledger`` lines of ``examples/club-season.sh`` run one by one
  through the CLI in this process (the script's own commands, so the fixture cannot drift from
  the example), up to the closes of 2026-09 and 2026-10;
- the Tata Steel ledger: ``examples/data/tata_steel_masters_2022.pgn`` imported with
  ``--register-players`` and 2022-01 closed (Carlsen +3 -> 2868, Caruana -11, Van Foreest +12 ->
  2714: FIDE's published figures).
"""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import tempfile
from pathlib import Path

from data_files import ROOT, data_file
from typer.testing import CliRunner

from ledger.cli.app import app

SCRIPT = ROOT / "examples" / "club-season.sh"


def season_commands() -> list[list[str]]:
    """The ledger commands of the example script, with ``$here`` its folder, output redirections
    dropped, up to (without) the reports written after the closes."""
    commands = []
    for line in SCRIPT.read_text(encoding="utf-8").splitlines():
        if line.startswith("out="):
            break
        if not line.startswith("ledger "):
            continue
        words = shlex.split(line.replace('"$here', f'"{SCRIPT.parent}'))
        if ">" in words:
            words = words[:words.index(">")]
        commands.append(words[1:])
    return commands


def _run(db: str, *args: str) -> None:
    result = CliRunner().invoke(app, ["--db", db, *args])
    assert result.exit_code == 0, (args, result.output, result.stderr)


def build_season(db: str) -> str:
    """The example season in the ledger ``db`` (a new SQLite file, or an empty ledger on a
    server); returns ``db``."""
    for command in season_commands():
        _run(db, *command)
    return db


def copy_of(db: str, to: str) -> str:
    """``ledger db copy`` of the ledger ``db`` into ``to`` (a new SQLite file, an empty
    database, or an empty ledger at the latest revision: ``new_ledger``, ``sqlite_ledger``,
    which spares the copy migrating its target, seconds on SQLite), for a test that changes
    what others only read; returns ``to``."""
    _run(db, "db", "copy", "--to", to)
    return to


def build_tata(db: str) -> str:
    """The Tata Steel ledger in ``db`` (as ``build_season``), January 2022 closed; returns
    ``db``."""
    _run(db, "init")
    _run(db, "import", str(data_file("tata_steel_masters_2022.pgn")), "--register-players",
         "--quiet")
    _run(db, "period", "close", "2022-01")
    return db


def _build_club_cup(db: Path) -> Path:
    _run(str(db), "init")
    for name, rating in (("Player, A", "1800"), ("Player, B", "1700")):
        _run(str(db), "player", "add", name, "--rating", rating, "--prior-games", "100")
    _run(str(db), "game", "add", "Player, A", "Player, B", "1-0", "--date", "2025-11-05", "--event",
         "Club Cup", "--round", "1")
    _run(str(db), "period", "close", "2025-11")
    return db


#: The club ledger built once per process (``build_club_cup``), in a folder of its own removed
#: when the process ends; None until first asked for.
_CLUB_CUP: Path | None = None


def build_club_cup(db: Path) -> Path:
    """A small ledger in ``db`` (a new file): players ``Player, A`` (1800) and ``Player, B``
    (1700), both established, one game of the ``Club Cup`` (2025-11-05, round 1, 1-0) and
    2025-11 closed; returns ``db``. Built through the CLI once per process (``init`` migrates
    through every revision: about 1.4 CPU s the five commands) and copied, with its mode, for
    every later call: the CLI disposes its engine, so the WAL is checkpointed into the file and
    the copy is the whole ledger."""
    global _CLUB_CUP
    if os.path.exists(db):
        raise AssertionError(f"{db} exists already: build_club_cup needs a new file")
    if _CLUB_CUP is None:
        folder = tempfile.mkdtemp(prefix="ledger-club-cup-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        built = _build_club_cup(Path(folder) / "club-cup.db")
        left = [side for side in ("-wal", "-shm", "-journal") if os.path.exists(f"{built}{side}")]
        assert not left, f"the built club ledger left {left}: a copy of its file alone would lose rows"
        _CLUB_CUP = built
    shutil.copy2(_CLUB_CUP, db)
    return db
