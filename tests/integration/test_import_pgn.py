"""Importing PGN files through the service (all or nothing), then closing: docs/CASES.md C21, C23.

Small PGN files are written into ``tmp_path``, one tag per line, so every line number used below
can be counted by eye in the text (``line_of`` only finds a line in the text the test wrote).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from ledger.errors import ImportRejected
from ledger.services.close.periods import close_period
from ledger.services.imports.games import import_pgn
from ledger.services.register.players import NewPlayer, add_player


def pgn_game(white: str, black: str, result: str, moves: str, *, date: str = "2025.11.05",
             round_: str = "1", event: str = "Placeholder Club Ch",
             white_elo: str | None = None, black_elo: str | None = None) -> str:
    tags = [("Event", event), ("Date", date), ("Round", round_), ("White", white),
            ("Black", black), ("Result", result)]
    if white_elo is not None:
        tags.append(("WhiteElo", white_elo))
    if black_elo is not None:
        tags.append(("BlackElo", black_elo))
    header = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return f"{header}\n{moves}\n\n"


def write(tmp_path: Path, name: str, *games: str) -> str:
    path = tmp_path / name
    path.write_text("".join(games), encoding="utf-8")
    return str(path)


def line_of(path: str, needle: str, occurrence: int = 1) -> int:
    """1-based number of the ``occurrence``-th line of the file containing ``needle``."""
    seen = 0
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{needle!r} (#{occurrence}) not in {path}")


def count(engine: Engine, table: str) -> int:
    with engine.connect() as conn:
        return conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()


def player(engine: Engine, name: str, rating: int | None, prior_games: int = 100) -> None:
    add_player(engine, NewPlayer(name=name, rating=rating, prior_games=prior_games))


def errors(exc: ImportRejected) -> list[tuple[int | None, str, str]]:
    return [(p.line, p.field, p.message) for p in exc.problems if p.severity == "error"]


# ------------------------------------------------------------------------------------------------
# C21: Elo tags `?`, `-`, missing, or not the ledger's ratings


def test_c21_elo_tags_cross_checked_ledger_ratings_used(engine: Engine, tmp_path: Path) -> None:
    player(engine, "Player, A", 1800)  # adult, 100 prior games -> K 20
    player(engine, "Player, G", None, prior_games=0)  # unrated
    player(engine, "Player, H", 1750)
    player(engine, "Player, I", 1900)
    path = write(
        tmp_path, "c21.pgn",
        pgn_game("Player, A", "Player, G", "1-0", "1. e4 e5 2. Nf3 Nc6 1-0",
                 date="2025.11.05", round_="1", white_elo="1800", black_elo="?"),
        pgn_game("Player, H", "Player, A", "1/2-1/2", "1. d4 d5 2. c4 e6 1/2-1/2",
                 date="2025.11.12", round_="2", white_elo="-", black_elo="1800"),
        pgn_game("Player, A", "Player, I", "1-0", "1. c4 e5 2. Nc3 Nf6 1-0",
                 date="2025.11.19", round_="3", white_elo="1800", black_elo="2210"),
    )
    report = import_pgn(engine, path)
    assert report.recorded == 3
    assert report.players_registered == []
    assert [p for p in report.problems if p.severity == "error"] == []
    warnings = [p for p in report.problems if p.severity == "warning"]
    # Only the 2210 tag differs from the ledger (I is 1900); `?` and `-` mean "no rating".
    assert len(warnings) == 1
    w = warnings[0]
    assert w.field == "BlackElo"
    assert w.file == path
    assert "2210" in w.message and "1900" in w.message
    # Each game is 11 lines (8 tags, blank, moves, blank): the third starts on line 23 and its
    # BlackElo tag is on line 30. Problems found by the service point at the tag they name.
    assert line_of(path, '[Event "', 3) == 23
    assert line_of(path, '[BlackElo "2210"]') == 30
    assert w.line == 30
    assert count(engine, "games") == 3

    result = {p.name: p.result for p in close_period(engine, "2025-11").players}["Player, A"]
    # G unrated -> game 1 not rated for A.  Game 2 v H 1750: D = +50 -> .57; 0.5 - .57 = -0.07.
    # Game 3 v I 1900 (tag 2210 ignored): D = -100 -> .36; 1 - .36 = +0.64.
    # sum 0.57; 20 x 0.57 = 11.4 -> +11 -> 1811; n = 2
    assert result.n == 2
    assert result.surplus == Decimal("0.57")
    assert (result.change, result.rating_after) == (11, 1811)


# ------------------------------------------------------------------------------------------------
# C23: PGN results that are not rated results


@pytest.fixture
def c23_players(engine: Engine) -> Engine:
    player(engine, "Player, A", 1800)  # K 20
    player(engine, "Player, B", 1900)
    player(engine, "Player, C", 1700)
    player(engine, "Player, E", 1800)
    player(engine, "Player, F", 1850)
    player(engine, "Player, D", 2000)
    return engine


G1 = pgn_game("Player, A", "Player, B", "0-0", "0-0", round_="1")
G2 = pgn_game("Player, A", "Player, C", "1-0", "1-0", round_="2")
G3 = pgn_game("Player, E", "Player, A", "*", "1. e4 e5 2. Nf3 *", round_="3")
G4 = pgn_game("Player, A", "Player, F", "1-0", "1. e4 1-0", round_="4")
G5 = pgn_game("Player, D", "Player, A", "1/2-1/2",
              "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 1/2-1/2", round_="5")
G6 = pgn_game("Player, D", "Player, B", "0.5-0.5",
              "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 0.5-0.5", round_="6")


def test_c23_non_results_reject_the_whole_file(c23_players: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "c23_bad.pgn", G1, G3, G5, G6)
    with pytest.raises(ImportRejected) as caught:
        import_pgn(c23_players, path)
    assert caught.value.exit_code == 3
    found = {(line, field) for line, field, _ in errors(caught.value)}
    # Each game is 9 lines (6 tags, blank, moves, blank) and its Result tag is its 6th line:
    # G1 lines 1-9 -> Result on 6; G3 10-18 -> 15; G5 19-27 (fine); G6 28-36 -> 33.
    g1 = line_of(path, '[Result "0-0"]')
    g3 = line_of(path, '[Result "*"]')
    g6 = line_of(path, '[Result "0.5-0.5"]')
    assert (g1, g3, g6) == (6, 15, 33)
    assert {(g1, "Result"), (g3, "Result"), (g6, "Result")} <= found
    assert all(p.file == path for p in caught.value.problems)
    assert count(c23_players, "games") == 0  # G5 is valid but nothing is written
    assert count(c23_players, "events") == 0


def test_c23_only_the_played_draw_is_rated(c23_players: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "c23_good.pgn", G2, G4, G5)
    report = import_pgn(c23_players, path)
    assert report.recorded == 3
    # G2: no moves -> forfeit; G4: Black never moved -> less than one move
    assert dict(report.not_rated) == {"forfeit": 1, "less than one move": 1}
    close = close_period(c23_players, "2025-11")
    result = {p.name: p.result for p in close.players}["Player, A"]
    # Only G5: D = 1800 - 2000 = -200 -> band 198-206 -> .76 for D, A gets .24;
    # 0.5 - .24 = +0.26; 20 x 0.26 = 5.2 -> +5 -> 1805; n = 1
    assert result.n == 1
    assert (result.change, result.rating_after) == (5, 1805)
    rated = {p.name for p in close.players}
    assert rated == {"Player, A", "Player, D"}  # C and F played no rated game


# ------------------------------------------------------------------------------------------------
# Players, all or nothing, dates


def test_unknown_player_without_register_is_rejected(engine: Engine, tmp_path: Path) -> None:
    player(engine, "Player, A", 1800)
    path = write(tmp_path, "unknown.pgn",
                 pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 1-0", round_="1"),
                 pgn_game("Player, Z", "Player, A", "0-1", "1. e4 e5 0-1", round_="2"))
    with pytest.raises(ImportRejected) as caught:
        import_pgn(engine, path)
    problems = errors(caught.value)
    game1, game2 = line_of(path, '[Event "', 1), line_of(path, '[Event "', 2)
    assert (game1, game2) == (1, 10)
    # Player, B is Black in game 1 (its Black tag: line 5); Player, Z is White in game 2 (line 13).
    black1, white2 = line_of(path, '[Black "Player, B"]'), line_of(path, '[White "Player, Z"]')
    assert (black1, white2) == (5, 13)
    by_field = {(line, field): message for line, field, message in problems}
    assert (black1, "Black") in by_field and "Player, B" in by_field[(black1, "Black")]
    assert (white2, "White") in by_field and "Player, Z" in by_field[(white2, "White")]
    assert count(engine, "games") == 0
    assert count(engine, "players") == 1


def test_register_players_registers_unknown_names(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "new.pgn",
                 pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 1-0",
                          white_elo="1800", black_elo="1900"))
    report = import_pgn(engine, path, register_players=True)
    assert sorted(report.players_registered) == ["Player, A", "Player, B"]
    assert count(engine, "players") == 2


def test_all_or_nothing_third_game_error(engine: Engine, tmp_path: Path) -> None:
    player(engine, "Player, A", 1800)
    player(engine, "Player, B", 1900)
    path = write(tmp_path, "third_bad.pgn",
                 pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 1-0", round_="1"),
                 pgn_game("Player, B", "Player, A", "0-1", "1. d4 d5 0-1", round_="2"),
                 pgn_game("Player, A", "Player, B", "2-0", "1. c4 c5 *", round_="3"))
    with pytest.raises(ImportRejected) as caught:
        import_pgn(engine, path)
    assert (line_of(path, '[Result "2-0"]'), "Result") in {
        (line, field) for line, field, _ in errors(caught.value)}
    assert line_of(path, '[Result "2-0"]') == 24  # 6th line of the 3rd 9-line game
    assert count(engine, "games") == 0
    assert count(engine, "events") == 0


def test_partial_date_is_rejected_with_its_line(engine: Engine, tmp_path: Path) -> None:
    player(engine, "Player, A", 1800)
    player(engine, "Player, B", 1900)
    path = write(tmp_path, "partial.pgn",
                 pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 1-0", date="2025.11.??"))
    with pytest.raises(ImportRejected) as caught:
        import_pgn(engine, path)
    problems = errors(caught.value)
    assert line_of(path, '[Date "2025.11.??"]') == 2
    assert (2, "Date") in {(line, field) for line, field, _ in problems}
    assert any("2025.11.??" in message for _, _, message in problems)
    assert count(engine, "games") == 0


def test_same_game_twice_in_a_file_counts_once(engine: Engine, tmp_path: Path) -> None:
    player(engine, "Player, A", 1800)
    player(engine, "Player, B", 1900)
    game = pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 2. Nf3 Nc6 1-0", round_="1")
    path = write(tmp_path, "twice.pgn", game, game)  # 9 lines each: the second starts on line 10
    report = import_pgn(engine, path)
    assert report.recorded == 1
    # not in the ledger before: the file repeats it, which is counted apart and said
    assert (report.already_recorded, report.repeated_in_file) == (0, 1)
    assert [(p.line, p.field, p.severity, p.message) for p in report.problems] == [
        (10, "game", "warning", "line 10 repeats line 1 (Player, A v Player, B, round 1, 1-0): "
         "recorded once")]
    assert count(engine, "games") == 1


def test_same_game_other_result_in_second_file_rejected(engine: Engine, tmp_path: Path) -> None:
    player(engine, "Player, A", 1800)
    player(engine, "Player, B", 1900)
    first = write(tmp_path, "first.pgn",
                  pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 2. Nf3 Nc6 1-0", round_="1"))
    assert import_pgn(engine, first).recorded == 1
    second = write(tmp_path, "second.pgn",
                   pgn_game("Player, A", "Player, B", "0-1", "1. e4 e5 2. Nf3 Nc6 0-1", round_="1"))
    with pytest.raises(ImportRejected) as caught:
        import_pgn(engine, second)
    problems = errors(caught.value)
    assert len(problems) == 1
    line, field, message = problems[0]
    assert (line, field) == (6, "Result")  # the Result tag is the 6th line of the game
    assert "1-0" in message and "0-1" in message
    assert count(engine, "games") == 1


def test_a_game_in_a_closed_period_is_a_late_result(engine: Engine, tmp_path: Path) -> None:
    player(engine, "Player, A", 1800)
    player(engine, "Player, B", 1900)
    first = write(tmp_path, "november.pgn",
                  pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 1-0", round_="1",
                           date="2025.11.05"))
    import_pgn(engine, first)
    close_period(engine, "2025-11")
    late = write(tmp_path, "late.pgn",
                 pgn_game("Player, B", "Player, A", "1-0", "1. d4 d5 1-0", round_="2",
                          date="2025.11.20", event="Another Event"))
    report = import_pgn(engine, late)
    # docs/RULES.md §1: recorded in the earliest open period, keeping its date
    assert report.periods == {"2025-12": 1}
    assert [(x.line, x.date.isoformat(), x.dated_in, x.period) for x in report.late] == [
        (1, "2025-11-20", "2025-11", "2025-12")]
    assert count(engine, "games") == 2


def test_dry_run_import_writes_nothing(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "dry.pgn",
                 pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 1-0",
                          white_elo="1800", black_elo="1900"))
    report = import_pgn(engine, path, register_players=True, dry_run=True)
    assert (report.dry_run, report.recorded, len(report.players_registered)) == (True, 1, 2)
    for table in ("games", "players", "player_entries", "events"):
        assert count(engine, table) == 0, table


def test_event_imported_round_by_round_across_months_stays_one_event(
        engine: Engine, tmp_path: Path) -> None:
    # RULES §1: a game belongs to the period in which its event ended. A club imports each
    # round's PGN as it comes (no EventDate tag, as many exporters write): round 1 on 28 Nov,
    # round 2 on 2 Dec, same Event tag. `ledger game add --event` puts both games in 2025-12
    # (the event ends in December); the import must place them the same way, not split the
    # event and rate round 1 in November.
    player(engine, "Player, A", 1800)
    player(engine, "Player, B", 1900)
    r1 = write(tmp_path, "round1.pgn",
               pgn_game("Player, A", "Player, B", "1-0", "1. e4 e5 1-0", round_="1",
                        date="2025.11.28", event="Winter Open"))
    r2 = write(tmp_path, "round2.pgn",
               pgn_game("Player, B", "Player, A", "1-0", "1. d4 d5 1-0", round_="2",
                        date="2025.12.02", event="Winter Open"))
    import_pgn(engine, r1)
    import_pgn(engine, r2)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT round, period, event_id FROM games ORDER BY round")).all()
    assert [(r, p) for r, p, _ in rows] == [("1", "2025-12"), ("2", "2025-12")]
    assert len({e for _, _, e in rows}) == 1
    assert count(engine, "events") == 1
