"""The same game recorded twice, as a tester attacked it (issue 9, item 3, second round), through
the services on real SQLite:

- a round label is read through NFKC and Unicode digits, in the common forms (``#1``, ``(1)``,
  ``1st``, ``Rd1 Bd1``): the same game written so in a second file is already recorded.

Values worked by hand in the comments.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine

from ledger.services.games import add_game, list_games
from ledger.services.imports import import_file
from ledger.services.players import NewPlayer, add_player


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def pair(engine: Engine) -> Engine:
    """Two established players, 1800 and 1900."""
    for name, rating in (("Player, A", 1800), ("Player, B", 1900)):
        add_player(engine, NewPlayer(name=name, rating=rating, prior_games=100))
    return engine


@pytest.mark.parametrize("label", ["\u0661", "\uff11", "#1", "(1)", "1st", "Rd1 Bd1",
                                   "Round 1 Board 2"])
def test_round_1_however_written_is_already_recorded(pair: Engine, tmp_path: Path,
                                                     label: str) -> None:
    first = add_game(pair, "Player, A", "Player, B", "1-0", "2025-11-05", "Club", "1")
    # the same game with round 1 written as Arabic-Indic ١ (U+0661), full-width １ (U+FF11),
    # #1, (1), 1st, Rd1 Bd1 or Round 1 Board 2: round 1, already recorded
    csv = write(tmp_path, "club.csv", "date,white,black,result,event,round\n"
                f'2025-11-05,"Player, A","Player, B",1-0,Club,{label}\n')
    report = import_file(pair, csv, "csv")
    assert (report.recorded, report.already_recorded, report.similar) == (0, 1, [])
    assert [(g.id, g.round) for g in list_games(pair)] == [(first.id, "1")]
