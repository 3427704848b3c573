"""Revisions through the services (docs/CORRECTIONS.md §3-§4): re-rating with no fact changed
gives every stored value again and ``db check`` passes (a hypothesis test over random small
ledgers); a value changed behind the ledger's back is reported; a voided game is never rated."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, text

from ledger.domain import Actor, Period
from ledger.services.admin.recompute import check_ledger
from ledger.services.admin.setup import init_ledger
from ledger.services.close.periods import close_period, close_through
from ledger.services.close.rerate import rerate
from ledger.services.core.session import open_ledger
from ledger.services.register.game_views import list_games
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player

DERIVED = ("period_results", "period_audits", "rating_adjustments", "initial_ratings",
           "initial_rating_games", "rating_floor_drops", "list_entries")


def current_rows(engine: Engine) -> dict[str, list[tuple[object, ...]]]:
    """Every derived row of the current revisions, without the revision number."""
    found = {}
    with engine.connect() as conn:
        for table in DERIVED:
            rows = conn.execute(text(
                f"SELECT t.* FROM {table} t JOIN periods p ON p.period = t.period AND "
                "p.revision = t.revision"))
            keys = list(rows.keys())
            found[table] = sorted(tuple(v for k, v in zip(keys, r, strict=True) if k != "revision")
                                  for r in rows)
    return found


#: A ledger the examples copy (initialising one per example would take most of the time).
_TEMPLATE: dict[str, Path] = {}


def _fresh(tmp_path_factory: pytest.TempPathFactory, name: str) -> str:
    if "db" not in _TEMPLATE:
        folder = tmp_path_factory.mktemp("template")
        _TEMPLATE["db"] = folder / "template.db"
        init_ledger(str(_TEMPLATE["db"]))
    folder = tmp_path_factory.mktemp(name)
    shutil.copy(_TEMPLATE["db"], folder / "ledger.db")
    return str(folder / "ledger.db")


RESULTS = ("1-0", "0-1", "1/2-1/2", "+/-")


@st.composite
def small_ledgers(draw: st.DrawFn) -> tuple[list[NewPlayer], Period, list[tuple[int, int, int, str]]]:
    """A few players (some unrated, some juniors, some new), a first period (2024-02 brings the
    1 March 2024 raise; 2025-08 the 2650 rule) and games (period offset, white, black, result)
    over up to four periods."""
    count = draw(st.integers(3, 6))
    players = [NewPlayer(
        name=f"Player, {chr(65 + i)}",
        rating=draw(st.one_of(st.none(), st.integers(1400, 2500))),
        prior_games=draw(st.sampled_from((0, 12, 29, 100))),
        birth_year=draw(st.sampled_from((None, 1980, 2009))))
        for i in range(count)]
    first = draw(st.sampled_from((Period(2024, 1), Period(2024, 2), Period(2025, 8))))
    games = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, count - 1),
                                    st.integers(0, count - 1), st.sampled_from(RESULTS))
                          .filter(lambda g: g[1] != g[2]), min_size=1, max_size=16))
    return players, first, games


def _build(engine: Engine, players: list[NewPlayer], first: Period,
           games: list[tuple[int, int, int, str]]) -> None:
    for p in players:
        add_player(engine, p)
    days: dict[int, int] = {}
    for offset, white, black, result in games:
        period = first
        for _ in range(offset):
            period = period.next()
        days[offset] = days.get(offset, 0) + 1  # a day of its own: never the same game twice
        add_game(engine, players[white].name, players[black].name, result,
                 str(period.start.replace(day=days[offset])))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(ledger=small_ledgers())
def test_rerating_with_no_fact_changed_gives_every_stored_value_again(
        tmp_path_factory: pytest.TempPathFactory,
        ledger: tuple[list[NewPlayer], Period, list[tuple[int, int, int, str]]]) -> None:
    players, first, games = ledger
    engine = open_ledger(_fresh(tmp_path_factory, "rerate"))
    try:
        _build(engine, players, first, games)
        closed = close_through(engine, "2025-11")
        assert closed.refused is None
        stored = current_rows(engine)
        assert check_ledger(engine).ok
        start = closed.closed[0].period
        report = rerate(engine, start, reason="no fact changed", yes=True,
                        actor=Actor("tester", "test"))
        assert [p.period for p in report.periods] == [c.period for c in closed.closed]
        assert all(p.moves == () for p in report.periods)
        assert all(p.new_revision == p.old_revision + 1 for p in report.periods)
        assert current_rows(engine) == stored
        check = check_ledger(engine)
        assert check.ok, check.differences
        assert [n for _, n in check.checked] == [2] * len(closed.closed)
    finally:
        engine.dispose()


def _two_periods(engine: Engine) -> None:
    # A 1800 beats B 1700 in November: D = +100 -> PD .64; 20 x 0.36 = +7.2 -> +7 -> 1807;
    # B: 20 x -0.36 = -7.2 -> -7 -> 1693. December: B beats A: A 1807 v 1693, D = +114 -> .66;
    # A: 20 x -0.66 = -13.2 -> -13 -> 1794; B: D = -114 -> .34; +0.66 x 20 = 13.2 -> +13 -> 1706.
    add_player(engine, NewPlayer("Alpha, Ann", rating=1800, prior_games=100))
    add_player(engine, NewPlayer("Beta, Bob", rating=1700, prior_games=100))
    add_game(engine, "Alpha, Ann", "Beta, Bob", "1-0", "2025-11-05")
    add_game(engine, "Beta, Bob", "Alpha, Ann", "1-0", "2025-12-05")
    close_through(engine, "2025-12")


def test_db_check_reports_a_value_changed_behind_the_ledgers_back(engine: Engine) -> None:
    _two_periods(engine)
    assert check_ledger(engine).ok
    with engine.begin() as conn:
        conn.execute(text("UPDATE period_results SET rating_after = 1795 WHERE period = "
                          "'2025-12' AND player_id = 1"))
    report = check_ledger(engine)
    assert not report.ok
    assert [(d.period, d.revision, d.table, d.player_id, d.field, d.stored, d.recomputed)
            for d in report.differences] == [
        ("2025-12", 1, "period_results", 1, "rating_after", 1795, 1794)]
    # a November value changed: December, rated from it, no longer recomputes either
    with engine.begin() as conn:
        conn.execute(text("UPDATE period_results SET rating_after = 1794 WHERE period = "
                          "'2025-12' AND player_id = 1"))
        conn.execute(text("UPDATE period_results SET rating_after = 1808 WHERE period = "
                          "'2025-11' AND player_id = 1"))
    found = check_ledger(engine).differences
    assert (found[0].period, found[0].field, found[0].stored, found[0].recomputed) == (
        "2025-11", "rating_after", 1808, 1807)
    assert {d.period for d in found} == {"2025-11", "2025-12"}


def test_rerate_shows_each_rating_that_changes_and_writes_only_when_told(engine: Engine) -> None:
    _two_periods(engine)
    with engine.begin() as conn:  # the facts change behind the ledger's back: A drew in November
        conn.execute(text("UPDATE games SET result = '1/2-1/2' WHERE id = 1"))
    # November again: A 1800 v 1700 draw: 20 x (0.5 - .64) = -2.8 -> -3 -> 1797; B +3 -> 1703.
    # December: B 1703 beats A 1797: A D = +94 -> .63, 20 x -0.63 = -12.6 -> -13 -> 1784;
    # B D = -94 -> .37, 20 x 0.63 = +12.6 -> +13 -> 1716.
    shown = rerate(engine, "2025-11", reason="result typed wrong")
    assert not shown.written
    assert [(p.period, p.old_revision, p.new_revision,
             [(m.name, m.before, m.after) for m in p.moves]) for p in shown.periods] == [
        ("2025-11", 1, 2, [("Alpha, Ann", 1807, 1797), ("Beta, Bob", 1693, 1703)]),
        ("2025-12", 1, 2, [("Alpha, Ann", 1794, 1784), ("Beta, Bob", 1706, 1716)])]
    assert current_rows(engine)["period_results"][0][:2] == ("2025-11", 1)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM period_revisions")).scalar_one() == 2
    written = rerate(engine, "2025-11", reason="result typed wrong", yes=True)
    assert written.written
    # every stored value is what the facts give; the chained audit log still tells that game 1
    # changed behind the ledger's back: entry 3, its `game add`, no longer follows
    checked = check_ledger(engine)
    assert checked.differences == [] and checked.chain.broken is not None
    assert checked.chain.broken.entry == 3
    with engine.connect() as conn:
        assert conn.execute(text("SELECT period, revision FROM periods ORDER BY period")).all() \
            == [("2025-11", 2), ("2025-12", 2)]
        assert conn.execute(text(
            "SELECT period, revision, superseded_by_change IS NOT NULL, reason FROM "
            "period_revisions ORDER BY period, revision")).all() == [
            ("2025-11", 1, 1, None), ("2025-11", 2, 0, "result typed wrong"),
            ("2025-12", 1, 1, None), ("2025-12", 2, 0, "result typed wrong")]


def test_a_void_game_is_never_rated_and_listed_as_void(engine: Engine) -> None:
    add_player(engine, NewPlayer("Alpha, Ann", rating=1800, prior_games=100))
    add_player(engine, NewPlayer("Beta, Bob", rating=1700, prior_games=100))
    add_game(engine, "Alpha, Ann", "Beta, Bob", "1-0", "2025-11-05")
    add_game(engine, "Beta, Bob", "Alpha, Ann", "1-0", "2025-11-06")
    with engine.begin() as conn:  # voided (part B's `game void` will do this through a change)
        conn.execute(text("UPDATE games SET status = 'void' WHERE id = 2"))
    report = close_period(engine, "2025-11")
    # only game 1 counts: A +7 -> 1807, B -7 -> 1693 (see _two_periods)
    assert {p.name: (p.result.n, p.result.rating_after) for p in report.players} == {
        "Alpha, Ann": (1, 1807), "Beta, Bob": (1, 1693)}
    assert [(g.id, g.status) for g in list_games(engine, "2025-11")] == [(1, "rated"),
                                                                         (2, "void")]
    # the close recomputes; the void set behind the ledger's back breaks game 2's entry (4)
    checked = check_ledger(engine)
    assert checked.differences == [] and checked.chain.broken is not None
    assert checked.chain.broken.entry == 4
