"""K for an unrated player registered by an import (issue 9, item 2).

FIDE B.02 §8.3.3: K 40 until a player has completed 30 rated games. A player who comes into the
ledger unrated has no rated games before their pool, whether they were registered by
``ledger player add`` (no ``--rating``) or by ``ledger import --register-players``: both start
with 0 rated games. Only a player who arrives with a rating may be assumed established (their
earlier games are unknown).
"""

from __future__ import annotations

from pathlib import Path

from data_files import data_file
from sqlalchemy import Engine

from ledger.services.close.periods import close_period
from ledger.services.imports.fide_lists import import_fide_list
from ledger.services.imports.games import import_file
from ledger.services.register.games import add_game
from ledger.services.register.player_views import show_player
from ledger.services.register.players import NewPlayer, add_player

OPPONENTS = (("Opponent, Sixteen", 1600), ("Opponent, Seventeen", 1700),
             ("Opponent, Eighteen", 1800), ("Opponent, Nineteen", 1900),
             ("Opponent, Twenty", 2000))
#: The unrated player's result against each opponent: 1 + 1 + 1/2 + 1/2 + 1/2 = 3.5 points.
RESULTS = ("1-0", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2")
ADDED, IMPORTED = "Unrated, Added", "Unrated, Imported"


def test_unrated_player_registered_by_import_gets_k40_like_player_add(
        engine: Engine, tmp_path: Path) -> None:
    for name, rating in OPPONENTS:
        add_player(engine, NewPlayer(name=name, rating=rating, prior_games=100))
    add_player(engine, NewPlayer(name=ADDED))  # unrated, prior games 0 (player add's default)
    # The same five games (January 2025, no event) for both unrated players, in one CSV file;
    # "Unrated, Imported" is registered by the import (a CSV gives no rating: unrated).
    rows = ["date,white,black,result"]
    for day, ((opponent, _), result) in enumerate(zip(OPPONENTS, RESULTS, strict=True), start=6):
        rows += [f'2025-01-{day:02d},"{ADDED}","{opponent}",{result}',
                 f'2025-01-{day:02d},"{IMPORTED}","{opponent}",{result}']
    path = tmp_path / "january.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    report = import_file(engine, str(path), "csv", register_players=True)
    assert (report.recorded, report.players_registered) == (10, [IMPORTED])
    assert (report.registered_unrated, report.registered_established) == ([IMPORTED], [])

    closed = close_period(engine, "2025-01")  # edition 2024-03: two hypothetical 1800 draws
    # Ra = (1600 + 1700 + 1800 + 1900 + 2000 + 2 x 1800) / (5 + 2) = 12600 / 7 = 1800;
    # p = (3.5 + 1) / 7 = .642857 -> .64 -> dp 102 (table 8.1.1) -> Ru 1902 (RULES §6 example).
    initial = {n.name: n.rating for n in closed.initial}
    assert {name: (ir.games, ir.p_hundredths, ir.dp, ir.rating, ir.published)
            for name, ir in initial.items()} == {
        ADDED: (5, 64, 102, 1902, True), IMPORTED: (5, 64, 102, 1902, True)}

    # On the list in force for 2025-02: 1902, 5 rated games (the pool's), fewer than 30 -> K 40.
    for name in (ADDED, IMPORTED):
        view = show_player(engine, name)
        assert (view.rating, view.rated_games, view.history_unknown) == (1902, 5, False), name
        assert (view.k, view.k_reason.value) == (40, "new-player"), name

    # February 2025: each beats the 1800 opponent. D = 1902 - 1800 = 102 -> PD .64 (table
    # 8.1.2, 99-106); 1 - .64 = +.36; K 40 -> +14.4 -> +14 -> 1916 (K 20 would give +7.2 -> +7).
    for name in (ADDED, IMPORTED):
        add_game(engine, name, "Opponent, Eighteen", "1-0", "2025-02-10")
    february = {p.name: p.result for p in close_period(engine, "2025-02").players}
    for name in (ADDED, IMPORTED):
        r = february[name]
        assert (r.rating_before, r.n, r.k, r.k_reason.value, r.change, r.rating_after) == (
            1902, 1, 40, "new-player", 14, 1916), name


def test_registered_from_a_rating_assumed_established_unrated_from_none(
        engine: Engine, tmp_path: Path) -> None:
    # A PGN game: White has an Elo tag (registered with it, earlier games unknown: treated as
    # established, K 20 at 1850 without a birth year), Black has none (unrated: 0 rated games).
    path = tmp_path / "one.pgn"
    path.write_text('[Event "Club"]\n[Date "2025.11.05"]\n[Round "1"]\n[White "Rated, New"]\n'
                    '[Black "Unrated, New"]\n[Result "1-0"]\n[WhiteElo "1850"]\n\n'
                    '1. e4 e5 2. Nf3 Nc6 1-0\n', encoding="utf-8")
    report = import_file(engine, str(path), "pgn", register_players=True)
    assert sorted(report.players_registered) == ["Rated, New", "Unrated, New"]
    assert (report.registered_established, report.registered_unrated) == (["Rated, New"],
                                                                   ["Unrated, New"])
    rated, unrated = show_player(engine, "Rated, New"), show_player(engine, "Unrated, New")
    assert (rated.rating, rated.rated_games, rated.history_unknown, rated.k) == (
        1850, None, True, 20)
    assert (unrated.rating, unrated.rated_games, unrated.history_unknown) == (None, 0, False)


def test_a_player_a_blitz_list_registers_is_unrated_in_standard_with_0_games(
        engine: Engine) -> None:
    # The May 2013 blitz list registers its players into the standard pool unrated (a blitz list
    # gives no standard rating), so with 0 rated games, as player add would, not "history
    # unknown". Line 2: "5500222  Abbes, Ali ... TUN M CM ... 2075 8 20 1973".
    import_fide_list(engine, data_file("fide_blitz_list_may13_subset.txt"),
                     list_date="2013-05-01", pool="blitz")
    abbes = show_player(engine, "5500222")
    assert (abbes.name, abbes.rating, abbes.rated_games, abbes.history_unknown) == (
        "Abbes, Ali", None, 0, False)
