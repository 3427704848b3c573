"""The README's first quick-start command runs examples/club-season.sh: keep it working."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_example_season_runs_and_publishes_the_list(tmp_path: Path) -> None:
    ledger_bin = Path(sys.executable).parent / "ledger"
    if not ledger_bin.exists():
        pytest.fail(f"the ledger command is not installed beside {sys.executable}", pytrace=False)
    env = {**os.environ, "PATH": f"{ledger_bin.parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "200"}
    db = tmp_path / "riverside.db"
    done = subprocess.run(["bash", str(ROOT / "examples" / "club-season.sh"), str(db)], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    last_table = done.stdout.split("Rating list after period 2026-10")[1]
    # Tanaka (junior, K 40), 1628 on the October list; in October beat Moreau (1799):
    # D = -171 -> band 171-179 -> .73 for Moreau, .27 for Tanaka: 1 - .27 = +0.73; and beat
    # Lindqvist (1990): D = -362 -> band 358-374 -> .90, Tanaka .10: 1 - .10 = +0.90.
    # 40 x 1.63 = +65.2 -> +65 -> 1693
    tanaka = next(line for line in last_table.splitlines() if "Tanaka, Hiro" in line)
    assert "1693" in tanaka
    # the forfeit in the PGN and the forfeit and the unrated player's game in October
    assert "games not rated: forfeit 1, unrated player 1" in done.stdout
    # the web page and the chart beside the database
    page = (tmp_path / "riverside-list.html").read_text(encoding="utf-8")
    assert "Riverside Chess Club" in page and "Tanaka, Hiro" in page
    assert (tmp_path / "tanaka.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # and the club's website
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Riverside Chess Club" in home and (tmp_path / "site" / "players" / "6.html").is_file()
