"""Corrections through the services (docs/CORRECTIONS.md §5-§7): for random small ledgers, a
closed game voided or corrected in the next period leaves every published list as it was and
``db check`` passes, and the same correction by re-rating passes too; late imports with
``--rerate`` and ``import --replace --rerate`` re-rate from the event's period; a correction's
statements do not grow with the number of players."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, event, text

from ledger.errors import PeriodError
from ledger.services.admin.recompute import check_ledger
from ledger.services.admin.setup import init_ledger
from ledger.services.close.periods import close_period, close_through
from ledger.services.core.session import open_ledger
from ledger.services.corrections.games import GameFix, correct_game, void_game
from ledger.services.corrections.replace import replace_event
from ledger.services.imports.games import import_file
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def snapshots(engine: Engine) -> list[tuple[object, ...]]:
    """Every stored list line of every revision."""
    with engine.connect() as conn:
        return sorted(tuple(r) for r in conn.execute(text("SELECT * FROM list_entries")))


@st.composite
def closed_ledgers(draw: st.DrawFn) -> tuple[list[int | None], list[tuple[int, int, int, str]],
                                            int, str]:
    """Ratings of 3-5 players (None: unrated), games (period offset 0-2 from 2026-07, white,
    black, result), which game to correct and how (``void`` or a result)."""
    ratings = draw(st.lists(st.one_of(st.none(), st.integers(1400, 2300)), min_size=3,
                            max_size=5))
    n = len(ratings)
    games = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(0, n - 1),
                                    st.integers(0, n - 1),
                                    st.sampled_from(("1-0", "0-1", "1/2-1/2")))
                          .filter(lambda g: g[1] != g[2]), min_size=1, max_size=10))
    which = draw(st.integers(0, len(games) - 1))
    how = draw(st.sampled_from(("void", "1-0", "0-1", "1/2-1/2")))
    return ratings, games, which, how


def _build(engine: Engine, ratings: list[int | None],
           games: list[tuple[int, int, int, str]]) -> None:
    for i, rating in enumerate(ratings):
        add_player(engine, NewPlayer(f"Player, {chr(65 + i)}", rating=rating, prior_games=100))
    for day, (offset, white, black, result) in enumerate(games, start=1):
        add_game(engine, f"Player, {chr(65 + white)}", f"Player, {chr(65 + black)}", result,
                 f"2026-{7 + offset:02d}-{day:02d}")
    close_through(engine, "2026-09")


@settings(max_examples=10, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ledger=closed_ledgers())
def test_a_closed_correction_keeps_the_lists_in_next_period_and_checks_in_both_modes(
        tmp_path_factory: pytest.TempPathFactory,
        ledger: tuple[list[int | None], list[tuple[int, int, int, str]], int, str]) -> None:
    ratings, games, which, how = ledger
    for mode in ("in_next_period", "rerate"):
        db = str(tmp_path_factory.mktemp("fix") / "ledger.db")
        init_ledger(db)
        engine = open_ledger(db)
        try:
            _build(engine, ratings, games)
            published = snapshots(engine)
            game_id = which + 1
            try:
                if how == "void":
                    void_game(engine, game_id, reason="never played", **{mode: True})
                else:
                    correct_game(engine, game_id, GameFix(result=how), reason="typed wrong",
                                 **{mode: True})
            except PeriodError as refused:  # what a carried correction cannot express
                assert mode == "in_next_period" and "use --rerate" in str(refused)
                assert snapshots(engine) == published
                continue
            except Exception as exc:  # the same result again: nothing to correct
                assert "already has these values" in str(exc), exc
                continue
            if mode == "in_next_period":
                assert snapshots(engine) == published  # every list as published
            check = check_ledger(engine)
            assert check.ok, check.differences
            # the next closes apply what was carried (into the month after the last closed
            # one, 2026-08 when only 2026-07 had games)
            add_game(engine, "Player, A", "Player, B", "1/2-1/2", "2026-10-01")
            assert close_through(engine, "2026-10").refused is None
            check = check_ledger(engine)
            assert check.ok, check.differences
        finally:
            engine.dispose()


TRF = """012 Harvest Cup
042 2026/09/05
052 2026/09/06
XXR 1
001    1 m    Player, A                         1800 XXX    90000001 1990/01/01  {a}    1  {ra}
001    2 m    Player, B                         1700 XXX    90000002 1990/01/01  {b}    2  {rb}
"""


def test_late_import_and_replace_with_rerate_re_rate_from_the_event(engine: Engine,
                                                                    tmp_path: Path) -> None:
    add_player(engine, NewPlayer("Player, A", fide_id=90000001, rating=1800, prior_games=100))
    add_player(engine, NewPlayer("Player, B", fide_id=90000002, rating=1700, prior_games=100))
    add_player(engine, NewPlayer("Player, C", rating=1800, prior_games=100))
    add_game(engine, "Player, A", "Player, C", "1/2-1/2", "2026-09-01")
    add_game(engine, "Player, B", "Player, C", "1/2-1/2", "2026-10-01")
    close_through(engine, "2026-10")
    late = tmp_path / "harvest.trf"
    late.write_text(TRF.format(a="1.0", ra="   2 w 1", b="0.0", rb="   1 b 0"), encoding="utf-8")
    with pytest.raises(Exception, match="reason: say why"):
        import_file(engine, str(late), None, rerate=True)
    report = import_file(engine, str(late), None, rerate=True, reason="reported late")
    # into its own period, 2026-09, re-rated with 2026-10 after it: A 1800 v B 1700 (D +100,
    # PD .64) A wins: +0.36; A's draw v C (D 0): 0; 0.36 x 20 = 7.2 -> +7: 1807.
    assert report.periods == {"2026-09": 1}
    assert [(p.period, p.new_revision) for p in report.rerated] == [("2026-09", 2),
                                                                   ("2026-10", 2)]
    assert {m.name: m.after for m in report.rerated[0].moves}["Player, A"] == 1807
    assert check_ledger(engine).ok
    fixed = tmp_path / "harvest-fixed.trf"
    fixed.write_text(TRF.format(a="0.5", ra="   2 w =", b="0.5", rb="   1 b ="), encoding="utf-8")
    replaced = replace_event(engine, str(fixed), None, reason="a draw", rerate=True)
    # A drew B: 0.5 - .64 = -0.14, x 20 = -2.8 -> -3: 1797 on the 2026-09 list, revision 3
    assert [(c.before.result, c.after.result) for c in replaced.changed] == [("1-0", "1/2-1/2")]
    assert [(p.period, p.new_revision) for p in replaced.effect.rerated] == [("2026-09", 3),
                                                                           ("2026-10", 3)]
    assert {m.name: m.after for m in replaced.effect.rerated[0].moves}["Player, A"] == 1797
    assert check_ledger(engine).ok


def _statements_in_a_void(tmp_path: Path, players: int) -> int:
    db = str(tmp_path / f"void{players}.db")
    init_ledger(db)
    engine: Engine = open_ledger(db)
    try:
        names = [f"Player, {i:03d}" for i in range(players)]
        for i, name in enumerate(names):
            add_player(engine, NewPlayer(name, rating=1500 + 10 * i, prior_games=100))
        for i in range(0, players, 2):
            add_game(engine, names[i], names[i + 1], "1-0", "2026-10-05")
        close_period(engine, "2026-10")
        seen: list[str] = []
        event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
        void_game(engine, 1, reason="never played", in_next_period=True)
        return len(seen)
    finally:
        engine.dispose()


def test_a_void_in_the_next_period_issues_the_same_statements_for_4_and_40_players(
        tmp_path: Path) -> None:
    assert _statements_in_a_void(tmp_path, 4) == _statements_in_a_void(tmp_path, 40)
