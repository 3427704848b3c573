"""Bad and hostile input through the command line: a clear message on stderr naming the field, the
right exit code, no traceback, and nothing changed (each case was found by trying to break it)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from ledgers import Factory
from sqlalchemy import text
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.db.engine import make_engine
from ledger.services.admin.setup import init_ledger
from ledger.services.core.session import open_ledger
from ledger.services.register.game_views import list_games
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def clean_failure(result: Result, code: int, *needles: str) -> None:
    """Exit ``code``, no traceback, every needle in stderr."""
    assert result.exit_code == code, (result.exit_code, result.output, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr


@pytest.fixture
def db(new_ledger: Factory) -> str:
    path = new_ledger("ledger")
    for name, rating in (("Player, A", "1800"), ("Player, B", "1700")):
        assert run("--db", path, "player", "add", name, "--rating", rating,
                   "--prior-games", "100").exit_code == 0
    return path


def tables_and_journal(path: Path) -> tuple[list[str], str]:
    with sqlite3.connect(path) as conn:
        tables = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master "
                                                   "WHERE type = 'table'"))
        journal = conn.execute("PRAGMA journal_mode").fetchone()[0]
    conn.close()
    return tables, journal


def test_names_with_console_markup_print_as_typed(db: str) -> None:
    assert run("--db", db, "player", "add", "[red]Rich[/red], A", "--rating", "1600",
               "--prior-games", "0").exit_code == 0
    assert run("--db", db, "player", "add", "Foo [/red] Bar", "--rating", "1650",
               "--prior-games", "0").exit_code == 0
    listed = run("--db", db, "player", "list")
    assert listed.exit_code == 0
    assert "[red]Rich[/red], A" in listed.stdout and "Foo [/red] Bar" in listed.stdout
    assert run("--db", db, "game", "add", "#3", "#4", "1-0", "--date", "2025-11-05").exit_code == 0
    closed = run("--db", db, "period", "close", "2025-11")
    assert closed.exit_code == 0, closed.output
    assert "Foo [/red] Bar" in closed.stdout


def test_another_programs_database_is_left_untouched(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE players (who TEXT)")
    conn.close()
    before = tables_and_journal(other)
    clean_failure(run("--db", str(other), "player", "list"), 1, "is not a ledger database")
    clean_failure(run("--db", str(other), "init"), 1, "not a ledger", "players")
    assert tables_and_journal(other) == before == (["players"], "delete")


def test_files_that_are_not_databases(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("dear arbiter\n", encoding="utf-8")
    clean_failure(run("--db", str(text), "player", "list"), 1, "is not a SQLite database")
    clean_failure(run("--db", str(tmp_path), "player", "list"), 1, "is a directory")
    clean_failure(run("--db", "foo://x", "init"), 1, "--db")
    clean_failure(run("--db", "sqlite://", "init"), 1, "in-memory")
    clean_failure(run("--db", str(tmp_path / "missing" / "x.db"), "init"), 1, "cannot create")


def test_a_ledger_from_a_newer_version_is_refused(db: str) -> None:
    engine = make_engine(db)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    clean_failure(run("--db", db, "player", "list"), 1, "newer version")
    clean_failure(run("--db", db, "init"), 1, "newer version")


def test_empty_period_is_not_no_period(db: str) -> None:
    assert run("--db", db, "game", "add", "Player, A", "Player, B", "1-0", "--date",
               "2025-11-05").exit_code == 0
    clean_failure(run("--db", db, "period", "close", ""), 1, "period")
    assert run("--db", db, "period", "list", "--json").stdout.count('"period"') == 0


@pytest.mark.parametrize("date", ["20251105", "2025-W45-3", "2025-02-30", "05/11/2025", ""])
def test_dates_must_be_yyyy_mm_dd(db: str, date: str) -> None:
    clean_failure(run("--db", db, "game", "add", "Player, A", "Player, B", "1-0", "--date", date),
                  1, "date")


def test_round_is_trimmed_so_a_duplicate_is_caught(db: str) -> None:
    base = ("--db", db, "game", "add", "Player, A", "Player, B")
    assert run(*base, "1-0", "--date", "2025-11-05", "--round", "3").exit_code == 0
    clean_failure(run(*base, "0-1", "--date", "2025-11-05", "--round", " 3 "), 1,
                  "already recorded")


def test_forfeit_results_that_look_like_options(db: str) -> None:
    for result in ("-/-", "-/+", "+/-"):
        added = run("--db", db, "game", "add", "Player, A", "Player, B", result, "--date",
                    "2025-11-05", "--round", result)
        assert added.exit_code == 0, added.output


@pytest.mark.parametrize(("args", "needle"), [
    (("player", "add", "Huge, Id", "--fide-id", "99999999999999999999"), "fide-id"),
    (("player", "add", "Huge, Games", "--prior-games", "99999999999999999999"), "prior-games"),
    (("player", "add", "12345"), "name"),
    (("player", "add", "\u200b"), "name"),
    (("player", "add", "x" * 201), "name"),
    (("player", "add", "Low, Rating", "--rating", "999", "--prior-games", "0"), "rating"),
    (("player", "show", "99999999999999999999"), "no player"),
    (("player", "show", "#99999999999999999999"), "no player"),
    (("player", "show", "²"), "no player"),
    (("game", "add", "Player, A", "Player, B", "1-0", "--date", "2025-11-05", "--round",
      "r" * 21), "round"),
])
def test_out_of_range_values_are_refused_by_field(db: str, args: tuple[str, ...],
                                                  needle: str) -> None:
    clean_failure(run("--db", db, *args), 1, needle)


def test_names_match_ignoring_case_beyond_ascii(db: str) -> None:
    assert run("--db", db, "player", "add", "Åberg, Sören", "--rating", "1900",
               "--prior-games", "0").exit_code == 0
    shown = run("--db", db, "player", "show", "åberg, sören", "--json")
    assert shown.exit_code == 0, shown.stderr
    assert '"Åberg, Sören"' in shown.stdout


def test_a_year_later_the_same_event_name_is_a_new_event(db: str) -> None:
    base = ("--db", db, "game", "add", "Player, A", "Player, B", "1-0", "--event", "Club Open")
    assert run(*base, "--date", "2024-01-20", "--round", "1").exit_code == 0
    second = run(*base, "--date", "2025-01-20", "--round", "1")
    assert second.exit_code == 0, second.stderr
    # the 2024 game stays in 2024-01: the 2025 game starts a new event instead of stretching it
    periods = [line for line in run("--db", db, "game", "list", "--json").stdout.splitlines()
               if '"period"' in line]
    assert [p.split('"')[3] for p in periods] == ["2024-01", "2025-01"]


def test_a_writer_waits_for_another_writer(tmp_path: Path) -> None:
    # SQLite's BEGIN IMMEDIATE, on either run (tests/integration/test_concurrency.py: the same on
    # the run's database, PostgreSQL's advisory lock included)
    db = str(tmp_path / "busy.db")
    init_ledger(db)
    engine = open_ledger(db)
    try:
        add_player(engine, NewPlayer("Player, A", rating=1800))
        add_player(engine, NewPlayer("Player, B", rating=1700))
        holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")  # another command holds the write lock
        released = threading.Event()

        def release() -> None:
            time.sleep(0.5)
            holder.execute("COMMIT")
            released.set()

        thread = threading.Thread(target=release)
        thread.start()
        # without BEGIN IMMEDIATE this could fail with "database is locked"; it waits instead
        add_game(engine, "Player, A", "Player, B", "1-0", "2025-11-05")
        thread.join()
        holder.close()
        assert released.is_set()
        assert len(list_games(engine)) == 1
    finally:
        engine.dispose()


def test_an_unknown_player_is_named_by_colour(db: str) -> None:
    clean_failure(run("--db", db, "game", "add", "Player, A", "Nobody", "1-0", "--date",
                      "2025-11-05"), 1, "black: no player named 'Nobody'")
    clean_failure(run("--db", db, "game", "add", "Nobody", "Player, A", "1-0", "--date",
                      "2025-11-05"), 1, "white: no player named 'Nobody'")


def test_an_unrated_player_has_no_k_in_json(db: str) -> None:
    assert run("--db", db, "player", "add", "New, Member").exit_code == 0
    shown = run("--db", db, "player", "show", "New, Member", "--json")
    assert '"rating": null' in shown.stdout
    assert '"k": null' in shown.stdout and '"k_reason": null' in shown.stdout


def test_every_problem_of_a_pgn_is_reported_in_one_run(db: str, tmp_path: Path) -> None:
    game = ('[Event "{event}"]\n[Date "{date}"]\n[Round "1"]\n[White "{white}"]\n'
            '[Black "Player, B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n')
    pgn = tmp_path / "two-faults.pgn"
    pgn.write_text(game.format(event="Future Cup", date="2999.10.20", white="Player, A")
                   + game.format(event="Open", date="2025.11.03", white="Unknown, U"),
                   encoding="utf-8")
    result = run("--db", db, "import", str(pgn))
    # game 1 (lines 1-9): its Date tag on line 2 is in the future;
    # game 2 (lines 10-18): its White tag on line 13 names nobody in the ledger
    clean_failure(result, 3, ":2: error: Date:", "is in the future", ":13: error: White:",
                  "unknown player 'Unknown, U'")
    assert result.stderr.index(":2: error") < result.stderr.index(":13: error")


def test_a_month_closed_with_a_later_one_has_no_list_of_its_own(db: str) -> None:
    assert run("--db", db, "game", "add", "Player, A", "Player, B", "1-0", "--date",
               "2025-11-05").exit_code == 0
    assert run("--db", db, "period", "close", "2025-11").exit_code == 0
    clean_failure(run("--db", db, "list", "--period", "2025-10"), 1, "no rating list of its own")
    clean_failure(run("--db", db, "period", "close", "2025-10"), 1, "already closed")


@pytest.mark.parametrize("args", [
    ("whatif", "x" * 5000, "Player, A"),
    ("performance", "Player, A", "--event", "e" * 5000),
    ("list", "--period", "2026-" + "9" * 5000),
    ("calc", "change", "--rating", "1600", "--k", "20", "9" * 5000 + ":1"),
])
def test_a_pasted_page_is_quoted_short_in_the_error(db: str, args: tuple[str, ...]) -> None:
    # The message quotes the first 60 characters and says how long the text was, not 5000.
    result = run("--db", db, *args)
    assert result.exit_code in (1, 2)
    clean_failure(result, result.exit_code, "characters)")
    assert len(result.stderr) < 400, result.stderr
