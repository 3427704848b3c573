"""A count of one is singular (issue 21 §6, item 3): "1 error", "1 game", never "1 errors" or
"1 games", in the messages built from a number (``domain.count``)."""

from __future__ import annotations

from pathlib import Path

from ledgers import Factory
from typer.testing import CliRunner, Result

from ledger.cli.app import app

PGN = """[Event "One Game Cup"]
[Date "2025.11.08"]
[Round "1"]
[White "Alpha, Ann"]
[Black "Gamma, Gil"]
[Result "1/2-1/2"]
[WhiteElo "1800"]
[BlackElo "1650"]

1. e4 e5 2. Nf3 Nc6 1/2-1/2
"""


def _run(db: str, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", db, *args])


def test_a_register_with_one_bad_row_has_1_error(new_ledger: Factory, tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_text('name,birth_year\n"Doyle, Liam",1990\n"Walsh, Bren",19x0\n', encoding="utf-8")
    result = _run(new_ledger("one-error"), "import", str(path), "--format", "players")
    assert result.exit_code == 3
    assert f"{path}: 1 error; nothing was written" in result.stderr
    assert "1 errors" not in result.stderr


def test_an_import_of_one_game_says_1_game(new_ledger: Factory, tmp_path: Path) -> None:
    pgn = tmp_path / "cup.pgn"
    pgn.write_text(PGN, encoding="utf-8")
    result = _run(new_ledger("one-game"), "import", str(pgn), "--register-players")
    assert result.exit_code == 0, result.output
    # one game, dated 8 November 2025: period 2025-11
    assert "periods: 2025-11 (1 game)" in result.stdout
    assert "1 games" not in result.stdout
