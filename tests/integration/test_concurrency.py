"""Many secretaries, one ledger: commands run in processes of their own at the same moment
(tests/processes.py), on the run's database (SQLite, or the ``--database-url`` server).

Writers take turns (SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock taken first by every
writing transaction), so what the ledger refuses or skips when run one after the other it
refuses or skips when run together: every game recorded once, every new player registered once,
one event per name, one close of a period, and an import either rated by a close or refused by
it. Each test takes a few seconds.
"""

from __future__ import annotations

import json
import struct
import threading
import time
from pathlib import Path

import pytest
from ledgers import contents, sql
from processes import Announce, Child, Pause, all_done, start
from sqlalchemy import Engine, create_engine, text

from ledger.db import engine as engine_module
from ledger.errors import LedgerBusy
from ledger.services.core.session import open_ledger, transaction
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player

#: The 20 new players the concurrent imports name (FIDE ids 4100010 ... 4100200).
NEW = [(f"Newcomer, N{i:02d}", 4100000 + 10 * i) for i in range(1, 21)]


def count(db: str, table: str) -> int:
    return int(str(sql(db, f"SELECT count(*) FROM {table}")[0][0]))


def rated_sides(db: str) -> list[tuple[int, int]]:
    """(game id, player id) of every stored audit side: the packed ``period_audits.sides``
    read as little-endian int32, eight a side, the game id first (db.audit_pack)."""
    return [(side[0], pid) for pid, packed in sql(db, "SELECT player_id, sides FROM period_audits")
            for side in struct.iter_unpack("<8i", packed)]


def csv_file(path: Path, rows: list[tuple[str, ...]], *, ids: bool = False,
             comment: str = "") -> str:
    """A CSV of games (date, white, black, result, event, round[, FIDE ids])."""
    header = "date,white,black,result,event,round" + (",white_fide_id,black_fide_id" if ids else "")
    lines = [header, *(",".join(f'"{v}"' if "," in v else v for v in r) for r in rows)]
    path.write_text("\n".join(lines) + "\n" + comment, encoding="utf-8")
    return str(path)


def games_of_file(n: int, *, ids: bool = False) -> list[tuple[str, ...]]:
    """File ``n``'s 10 games: round ``n`` of the Spring Open, the 20 new players in 10 pairs."""
    rows = []
    for board in range(10):
        (white, wid), (black, bid) = NEW[board], NEW[19 - board]
        if n % 2:
            (white, wid), (black, bid) = (black, bid), (white, wid)
        row: tuple[str, ...] = ("2026-10-0" + str(n), white, black, "1-0",
                                "Spring Open", str(n))
        rows.append(row + ((str(wid), str(bid)) if ids else ()))
    return rows


def two_players(engine: Engine, *names: str) -> None:
    for i, name in enumerate(names):
        add_player(engine, NewPlayer(name, rating=1800 + 10 * i, prior_games=100))


def test_eight_processes_adding_games_at_once_record_each_once(
        ledger_db: str, engine: Engine, tmp_path: Path) -> None:
    names = [f"Member, M{i:02d}" for i in range(16)]
    two_players(engine, *names)
    # 8 processes: process p adds, in rounds 1 to 3 of Club Night, the game of its pair
    # (M2p v M2p+1), and tries to add the game of the next process's pair in round 1 again
    children = []
    for p in range(8):
        white, black = names[2 * p], names[2 * p + 1]
        other = names[(2 * p + 2) % 16], names[(2 * p + 3) % 16]
        commands = [("--db", ledger_db, "game", "add", white, black, "1-0", "--date",
                     f"2026-10-{r:02d}", "--event", "Club Night", "--round", str(r))
                    for r in range(1, 4)]
        commands.append(("--db", ledger_db, "game", "add", *other, "1-0", "--date", "2026-10-01",
                         "--event", "Club Night", "--round", "1"))
        children.append(start(tmp_path / f"p{p}", commands))
    all_done(children)
    # each pair's round 1 game was added twice (by its process and the one before): recorded
    # once, the other attempt refused (exit 1) naming the recorded game, whichever came first
    codes = [code for child in children for code in child.codes]
    assert sorted(codes) == [0] * 24 + [1] * 8, [c.stderr for c in children]
    refusals = [line for c in children for line in c.stderr.splitlines()]
    assert len(refusals) == 8 and all("(round 1) is already recorded as game" in line
                                      for line in refusals), refusals
    assert count(ledger_db, "games") == 24
    assert count(ledger_db, "events") == 1
    assert sql(ledger_db, "SELECT count(*) FROM (SELECT DISTINCT event_id, round, white_id, "
               "black_id FROM games) t")[0][0] == 24


@pytest.mark.parametrize("ids", [False, True], ids=["names", "fide-ids"])
def test_four_imports_naming_the_same_new_players_register_each_once(
        ledger_db: str, tmp_path: Path, ids: bool) -> None:
    files = [csv_file(tmp_path / f"round{n}.csv", games_of_file(n, ids=ids), ids=ids)
             for n in range(1, 5)]
    children = [start(tmp_path / f"i{n}", [("--db", ledger_db, "import", path,
                                             "--register-players", "--json", "--quiet")])
                for n, path in enumerate(files)]
    assert all_done(children) == [0, 0, 0, 0], [c.stderr for c in children]
    reports = [json.loads(c.stdout) for c in children]
    assert sorted(r["recorded"] for r in reports) == [10, 10, 10, 10]
    # the first import registers the 20; each later one finds them
    assert sorted(len(r["players_registered"]) for r in reports) == [0, 0, 0, 20]
    assert count(ledger_db, "players") == 20
    assert count(ledger_db, "games") == 40
    assert count(ledger_db, "events") == 1  # one event name in 4 files: one event
    if ids:
        assert sorted(r[0] for r in sql(ledger_db, "SELECT fide_id FROM players")) == [
            fide for _, fide in NEW]


def test_the_same_games_in_two_files_at_once_are_recorded_once(
        ledger_db: str, tmp_path: Path) -> None:
    rows = [row for n in range(1, 5) for row in games_of_file(n)]
    # the same 40 games, in two files whose bytes differ (order, a trailing blank line)
    first = csv_file(tmp_path / "organiser.csv", rows)
    second = csv_file(tmp_path / "arbiter.csv", rows[::-1], comment="\n")
    children = [start(tmp_path / f"f{n}", [("--db", ledger_db, "import", path,
                                             "--register-players", "--json", "--quiet")])
                for n, path in enumerate((first, second))]
    assert all_done(children) == [0, 0], [c.stderr for c in children]
    reports = sorted((json.loads(c.stdout) for c in children), key=lambda r: -r["recorded"])
    assert [(r["recorded"], r["already_recorded"]) for r in reports] == [(40, 0), (0, 40)]
    assert count(ledger_db, "games") == 40
    assert count(ledger_db, "players") == 20


def _club_with_games(engine: Engine) -> None:
    two_players(engine, "Alpha, Ann", "Beta, Bob", "Gamma, Gil", "Delta, Dan")
    add_game(engine, "Alpha, Ann", "Beta, Bob", "1-0", "2026-10-03", "Club Night", "1")
    add_game(engine, "Gamma, Gil", "Delta, Dan", "1/2-1/2", "2026-10-03", "Club Night", "1")


def test_two_closes_at_once_one_wins_the_other_hears_already_closed(
        ledger_db: str, engine: Engine, tmp_path: Path) -> None:
    _club_with_games(engine)
    children = [start(tmp_path / f"c{n}", [("--db", ledger_db, "period", "close", "2026-10")])
                for n in range(2)]
    assert sorted(all_done(children)) == [0, 1]
    loser = next(c for c in children if c.code == 1)
    assert loser.stderr.strip() == ("error: period 2026-10 is already closed (periods up to "
                                    "2026-10 are closed)")
    assert count(ledger_db, "periods") == 1
    assert count(ledger_db, "period_results") == 4


def _import_during_close(ledger_db: str, tmp_path: Path, first: str) -> tuple[Child, Child]:
    """An import of 2026-10 games and a close of 2026-10, ``first`` ("import" or "close") held
    inside its transaction just before its commit while the other one starts."""
    late = csv_file(tmp_path / "late.csv", [
        ("2026-10-20", "Alpha, Ann", "Gamma, Gil", "0-1", "Autumn Rapidplay", "1"),
        ("2026-10-20", "Beta, Bob", "Delta, Dan", "1-0", "Autumn Rapidplay", "1")])
    commands = {"import": ("--db", ledger_db, "import", late, "--json", "--quiet"),
                "close": ("--db", ledger_db, "period", "close", "2026-10", "--json")}
    second = "close" if first == "import" else "import"
    held = start(tmp_path / first, [commands[first]], pause=Pause(tmp_path / f"{first}-pause"))
    held.wait_paused()
    waiting = start(tmp_path / second, [commands[second]], pause=Announce(tmp_path / "begun"))
    waiting.wait_paused()  # its writing transaction has begun
    time.sleep(1.0)
    assert waiting.running(), waiting.stderr  # it waits for the write lock
    held.go_on()
    held.wait()
    waiting.wait()
    return held, waiting


def test_an_import_held_before_a_close_lands_first_and_is_rated(
        ledger_db: str, engine: Engine, tmp_path: Path) -> None:
    _club_with_games(engine)
    imported, closed = _import_during_close(ledger_db, tmp_path, "import")
    assert (imported.code, closed.code) == (0, 0), imported.stderr + closed.stderr
    assert json.loads(imported.stdout)["recorded"] == 2
    report = json.loads(closed.stdout)
    assert report["games"] == 4  # the two club games and the two imported ones, all rated
    sides = rated_sides(ledger_db)
    assert len(sides) == 8  # 4 games x 2 players
    assert {g for g, _ in sides} == {g for (g,) in sql(ledger_db, "SELECT id FROM games")}


def test_an_import_after_a_close_it_waited_for_is_a_late_result(
        ledger_db: str, engine: Engine, tmp_path: Path) -> None:
    # It waited for the write lock, so it reads the close: its games, dated in the period just
    # closed, are late results of the earliest open period (2026-11), never slipped into 2026-10.
    _club_with_games(engine)
    closed, imported = _import_during_close(ledger_db, tmp_path, "close")
    assert closed.code == 0, closed.stderr
    assert imported.code == 0, imported.stderr
    late = json.loads(imported.stdout)["late"]
    assert [(x["date"], x["dated_in"], x["period"]) for x in late] == [
        ("2026-10-20", "2026-10", "2026-11"), ("2026-10-20", "2026-10", "2026-11")]
    assert sql(ledger_db, "SELECT period, count(*) FROM games GROUP BY period ORDER BY period") \
        == [("2026-10", 2), ("2026-11", 2)]
    assert len(rated_sides(ledger_db)) == 4  # the close rated the two games it saw


def test_a_writer_past_the_busy_timeout_hears_that_another_process_is_writing(
        ledger_db: str, engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_SECONDS", 1)
    waiting = open_ledger(ledger_db)  # its SQLite connections wait 1 s, as PostgreSQL's lock
    try:
        before = contents(ledger_db)
        with transaction(engine) as holder:  # another command holds the write lock
            holder.execute(text("SELECT 1 FROM players"))
            started = time.monotonic()
            with pytest.raises(LedgerBusy) as busy:
                add_player(waiting, NewPlayer("Late, Lou", rating=1800))
            assert 0.9 < time.monotonic() - started < 10
    finally:
        waiting.dispose()
    name = busy.value.args[0].split("to the ledger ")[1].split(";")[0]
    assert str(busy.value) == (f"another process is writing to the ledger {name}; nothing was "
                               "written: try again when it has finished")
    assert contents(ledger_db) == before


def test_a_reader_sees_one_snapshot_while_a_writer_commits(
        ledger_db: str, engine: Engine) -> None:
    two_players(engine, "Alpha, Ann")
    seen: list[int] = []
    with transaction(engine, write=False) as reader:
        seen.append(len(reader.execute(text("SELECT id FROM players")).all()))
        writer = threading.Thread(target=add_player,
                                  args=(engine, NewPlayer("Beta, Bob", rating=1700)))
        writer.start()
        writer.join(30)
        assert not writer.is_alive()  # a reader never holds up a writer
        seen.append(len(reader.execute(text("SELECT id FROM players")).all()))
    assert seen == [1, 1]
    assert count(ledger_db, "players") == 2


def test_a_deadlock_is_run_again_and_the_game_recorded_once(
        database_url: str | None, ledger_db: str, engine: Engine, tmp_path: Path) -> None:
    # Another program (no ledger code) locks player 1's row, then asks for the ledger's write
    # lock while `game add` holds it and waits for that row: a deadlock PostgreSQL breaks by
    # giving up `game add`'s transaction (40P01), which the CLI runs again once the other has
    # committed. SQLite cannot deadlock: BEGIN IMMEDIATE locks the whole database first.
    if database_url is None:
        pytest.skip("needs a PostgreSQL server: run with --database-url (bash .ci/postgres-tests)")
    two_players(engine, "Alpha, Ann", "Beta, Bob")
    other = create_engine(ledger_db)
    try:
        with other.connect() as conn:
            conn.execute(text("SELECT id FROM players WHERE id = 1 FOR UPDATE"))
            adding = start(tmp_path / "add", [("--db", ledger_db, "game", "add", "Alpha, Ann", "Beta, Bob",
                                               "1-0", "--date", "2026-10-03")])
            waits_for_row = text("SELECT count(*) FROM pg_locks WHERE NOT granted AND "
                                 "locktype = 'transactionid'")
            deadline = time.monotonic() + 30
            while not conn.execute(waits_for_row).scalar_one():
                assert adding.running() and time.monotonic() < deadline, adding.stderr
                time.sleep(0.05)
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                         {"key": engine_module.WRITE_LOCK_KEY})  # the deadlock, then the lock
            conn.commit()
    finally:
        other.dispose()
    assert adding.wait() == 0, adding.stderr
    assert adding.stderr == ""  # run again without a word: the user sees the game recorded
    assert count(ledger_db, "games") == 1
