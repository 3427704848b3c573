"""The rating a player registered from a file comes in with (issue 9, item 3, second round): the
first rating the file gives them, whichever of their games gives it, not only their first
game's; two different ratings for one new player are a warning naming both lines.

K as FIDE B.02 §8.3.3 gives it: registered with a rating, earlier games unknown (treated as
established: 30 or more), no birth year, under 2400 -> K 20; registered unrated, 0 rated games
-> K 40.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine

from ledger.services.imports.games import import_file
from ledger.services.register.player_views import show_player
from ledger.services.register.players import NewPlayer, add_player

NEW = "New, Xavier"


def game(white: str, black: str, day: str, round_: str, *elo: str) -> str:
    """A PGN game of the event Club, White winning, with extra tags ``elo`` after Result: 6 tag
    lines, the extra ones, a blank line, the moves and a blank line."""
    tags = ['[Event "Club"]', f'[Date "{day}"]', f'[Round "{round_}"]', f'[White "{white}"]',
            f'[Black "{black}"]', '[Result "1-0"]', *elo]
    return "\n".join(tags) + "\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"


@pytest.fixture
def club(engine: Engine) -> Engine:
    for name in ("Player, A", "Player, B"):
        add_player(engine, NewPlayer(name=name, rating=2000, prior_games=100))
    return engine


def test_the_rating_of_a_later_game_registers_the_player(club: Engine, tmp_path: Path) -> None:
    # game 1 (lines 1-9): A v New, no Elo tag; game 2 (from line 10): B v New, BlackElo 1800 on
    # line 16 (tags on lines 10-15, then BlackElo)
    path = tmp_path / "club.pgn"
    path.write_text(game("Player, A", NEW, "2025.11.05", "1")
                    + game("Player, B", NEW, "2025.11.12", "2", '[BlackElo "1800"]'),
                    encoding="utf-8")
    report = import_file(club, str(path), "pgn", register_players=True)
    assert (report.registered_established, report.registered_unrated) == ([NEW], [])
    assert report.problems == []
    view = show_player(club, NEW)
    # 1800, history unknown (established), no birth year -> K 20, not unrated with K 40
    assert (view.rating, view.history_unknown, view.k, view.k_reason.value) == (
        1800, True, 20, "standard")


def test_the_first_game_gives_none_and_none_later(club: Engine, tmp_path: Path) -> None:
    path = tmp_path / "club.pgn"
    path.write_text(game("Player, A", NEW, "2025.11.05", "1")
                    + game("Player, B", NEW, "2025.11.12", "2"), encoding="utf-8")
    report = import_file(club, str(path), "pgn", register_players=True)
    assert (report.registered_established, report.registered_unrated) == ([], [NEW])
    view = show_player(club, NEW)
    assert (view.rating, view.rated_games, view.k) == (None, 0, 40)


def test_two_ratings_for_one_new_player_are_a_warning(club: Engine, tmp_path: Path) -> None:
    # game 1 (lines 1-10): A v New, BlackElo 1800 on line 7; game 2 (from line 11): New v B,
    # WhiteElo 1900 on line 17 (tags on lines 11-16, then WhiteElo)
    path = tmp_path / "club.pgn"
    path.write_text(game("Player, A", NEW, "2025.11.05", "1", '[BlackElo "1800"]')
                    + game(NEW, "Player, B", "2025.11.12", "2", '[WhiteElo "1900"]'),
                    encoding="utf-8")
    report = import_file(club, str(path), "pgn", register_players=True)
    assert [(p.line, p.field, p.severity, p.message) for p in report.problems] == [
        (17, "WhiteElo", "warning", f"{NEW}: the file gives 1800 (line 7, BlackElo) and 1900 "
         "(line 17, WhiteElo); registered with 1800, the first (check the file)")]
    assert show_player(club, NEW).rating == 1800
