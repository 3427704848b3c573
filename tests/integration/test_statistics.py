"""PostgreSQL's statistics after a bulk write (``services.core.statistics``, issue 25): the
register's import, the games' import and the close analyze the tables they filled when they
wrote many rows into them; SQLite is left as it is."""

from __future__ import annotations

from pathlib import Path

from ledgers import Factory, sqlite_ledger
from sqlalchemy import Engine, text

from ledger.services.admin.copy import copy_ledger
from ledger.services.close.periods import close_period
from ledger.services.core.session import open_ledger
from ledger.services.core.statistics import analyze_written, stale
from ledger.services.imports.games import import_file
from ledger.services.imports.players import import_players

PLAYERS = 80
GAMES = 120


def test_a_table_is_stale_past_autovacuums_rule() -> None:
    # autovacuum's rule: more than 50 rows + 10 % of reltuples; reltuples -1: never analyzed
    assert stale({"games": 51, "players": 50}, {}) == ["games"]
    assert stale({"games": 51}, {"games": -1}) == ["games"]
    assert stale({"games": 150}, {"games": 1_000}) == []  # 50 + 100 = 150: not more
    assert stale({"games": 151}, {"games": 1_000}) == ["games"]
    assert stale({"games": 100_000, "players": 0}, {"games": 1_000_000}) == []
    assert stale({"games": 100_051, "players": 0}, {"games": 1_000_000}) == ["games"]


def _files(tmp_path: Path) -> tuple[Path, Path]:
    register = tmp_path / "register.csv"
    rows = ["name,fide_id,birth_year,sex,federation,rating,prior_games,reached_2400"]
    rows += [f'"Fed{n:07d}, Player",{40_000_001 + n},1990,M,ENG,{1600 + 10 * n},40,'
             for n in range(PLAYERS)]
    register.write_text("\n".join(rows) + "\n", encoding="utf-8")
    month = tmp_path / "month.csv"
    games = ["date,white,black,result"]
    # each player against the next one, on three days: no pair twice on a day
    games += [f'2026-09-{1 + g // PLAYERS:02d},"Fed{g % PLAYERS:07d}, Player",'
              f'"Fed{(g % PLAYERS + 1) % PLAYERS:07d}, Player",1-0' for g in range(GAMES)]
    month.write_text("\n".join(games) + "\n", encoding="utf-8")
    return register, month


def _tuples(engine: Engine, *tables: str) -> dict[str, int]:
    with engine.connect() as conn:
        return {name: int(rows) for name, rows in conn.execute(text(
            "SELECT relname, reltuples::bigint FROM pg_class WHERE relkind = 'r' "
            "AND relname = ANY(:names)"), {"names": list(tables)})}


def test_the_imports_and_the_close_analyze_what_they_wrote(
        engine: Engine, on_postgres: bool, tmp_path: Path) -> None:
    register, month = _files(tmp_path)
    import_players(engine, str(register))
    import_file(engine, str(month), "csv")
    report = close_period(engine, "2026-09")
    assert len(report.players) == PLAYERS
    if not on_postgres:
        with engine.connect() as conn:
            assert conn.scalar(text(
                "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")) == 0
        return
    # an ANALYZE of a table this small reads every row: reltuples is the count (-1 before any)
    assert _tuples(engine, "players", "player_entries", "games", "period_results",
                   "period_audits", "list_entries") == {
        "players": PLAYERS, "player_entries": PLAYERS, "games": GAMES,
        "period_results": PLAYERS, "period_audits": PLAYERS, "list_entries": PLAYERS}


def test_few_rows_or_sqlite_analyze_nothing(engine: Engine, on_postgres: bool) -> None:
    assert analyze_written(engine, {"games": 50, "players": 0}) == []
    assert analyze_written(engine, {}) == []
    if on_postgres:
        assert analyze_written(engine, {"games": 51}) == ["games"]
        assert _tuples(engine, "games") == {"games": 0}  # analyzed: empty, no longer -1
    else:
        assert analyze_written(engine, {"games": 51}) == []


def test_a_copy_analyzes_the_tables_it_filled(
        new_database: Factory, on_postgres: bool, tmp_path: Path) -> None:
    source, target = str(tmp_path / "source.db"), new_database("copy")
    sqlite_ledger(Path(source))
    register, month = _files(tmp_path)
    engine = open_ledger(source)
    try:
        import_players(engine, str(register))
        import_file(engine, str(month), "csv")
        report = copy_ledger(engine, target)
    finally:
        engine.dispose()
    assert (report.rows["players"], report.rows["games"]) == (PLAYERS, GAMES)
    copied = open_ledger(target)
    try:
        if on_postgres:  # the tables of more than 50 rows: analyzed, reltuples their count
            assert _tuples(copied, "players", "player_entries", "games", "changes") == {
                "players": PLAYERS, "player_entries": PLAYERS, "games": GAMES, "changes": -1}
        else:
            with copied.connect() as conn:
                assert conn.scalar(text(
                    "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")) == 0
    finally:
        copied.dispose()
