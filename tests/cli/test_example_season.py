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
    assert "games not rated: forfeit 1, 1 game against an unrated player" in done.stdout
    # the blitz evening (K 20 for all four: adults below 2400 in blitz, 60 or more blitz games):
    # Okafor 2350: v Novak 2100 D 250 -> .81, +.19; v Byrne 1800 D 550 counted 400 -> .92, +.08;
    # v Lindqvist 1950 D 400 -> .92, draw -.42; sum -.15 x 20 = -3.0 -> 2347.
    # Novak 2100: v Okafor D -250 -> .19, -.19; v Lindqvist D 150 -> .70, +.30; v Byrne D 300
    # -> .85, +.15; sum +.26 x 20 = +5.2 -> +5 -> 2105.
    # Lindqvist 1950: v Byrne D 150 -> .70, draw -.20; v Novak D -150 -> .30, -.30; v Okafor
    # D -400 -> .08, draw +.42; sum -.08 x 20 = -1.6 -> -2 -> 1948.
    # Byrne 1800: v Lindqvist D -150 -> .30, draw +.20; v Okafor D -550 counted -400 -> .08,
    # -.08; v Novak D -300 -> .15, -.15; sum -.03 x 20 = -0.6 -> -1 -> 1799.
    blitz = done.stdout.split("Rating list after period 2026-10, blitz")[1]
    assert _ranks(blitz) == [("1", "2347"), ("2", "2105"), ("3", "1948"), ("4", "1799")]
    # the rapid evening (K 20 for all four: adults, 40 or more rapid games, none has reached
    # 2400 in rapid; the 400-point rule without the 2650 exemption, docs/RULES.md §9):
    # Okafor 2380: v Byrne 1820 D 560 counted 400 -> .92, +.08; v Lindqvist 1960 D 420 counted
    # 400 -> .92, +.08; sum +.16 x 20 = +3.2 -> +3 -> 2383.
    # Novak 2120: v Lindqvist D 160 -> .71, draw -.21; v Byrne D 300 -> .85, +.15; sum -.06
    # x 20 = -1.2 -> -1 -> 2119.
    # Lindqvist 1960: v Novak D -160 -> .29, draw +.21; v Okafor D -420 counted -400 -> .08,
    # -.08; sum +.13 x 20 = +2.6 -> +3 -> 1963.
    # Byrne 1820: v Okafor -> .08, -.08; v Novak D -300 -> .15, -.15; sum -.23 x 20 = -4.6
    # -> -5 (half away from zero) -> 1815.
    rapid = done.stdout.split("Rating list after period 2026-10, rapid")[1].split(
        "Rating list after")[0]
    assert _ranks(rapid) == [("1", "2383"), ("2", "2119"), ("3", "1963"), ("4", "1815")]
    # the web page and the chart beside the database
    page = (tmp_path / "riverside-list.html").read_text(encoding="utf-8")
    assert "Riverside Chess Club" in page and "Tanaka, Hiro" in page
    assert (tmp_path / "tanaka.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # and the club's website
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Riverside Chess Club" in home and (tmp_path / "site" / "players" / "6.html").is_file()


def _ranks(table: str) -> list[tuple[str, str]]:
    """(rank, rating) of each row of a printed rating list."""
    return [(line.split("│")[1].strip(), line.split("│")[6].strip())
            for line in table.splitlines() if line.count("│") > 8]
