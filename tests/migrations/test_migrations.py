"""Migrations: one head, upgrade from empty, models and DDL agree, up/down consistent, and a
populated ledger upgrades from every earlier revision with its facts and results intact; on the
run's database (SQLite, or the ``--database-url`` server: ``new_database`` in tests/conftest.py).

The populations are SQL every database takes: booleans as ``true``/``false``, dates as text."""

from __future__ import annotations

import datetime as dt
import runpy
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from ledgers import Factory, every_table, sql
from pytest_alembic.tests import (  # noqa: F401  (pytest collects these imported tests)
    test_model_definitions_match_ddl,
    test_single_head_revision,
    test_up_down_consistency,
    test_upgrade,
)
from sqlalchemy import Connection, Table, text

from ledger.db import audit_pack, migrate
from ledger.db.engine import make_engine
from ledger.db.sequences import reset_sequences
from ledger.domain import round_key
from ledger.errors import LedgerError
from ledger.names import name_key
from ledger.services.admin.recompute import check_ledger
from ledger.services.admin.setup import init_ledger
from ledger.services.close.period_audits import current_sides
from ledger.services.close.periods import close_period, list_periods
from ledger.services.close.rerate import reopen_period
from ledger.services.core.chain import chain_from
from ledger.services.core.session import open_ledger, transaction
from ledger.services.publishing.lists import rating_list
from ledger.services.register.events import find_event
from ledger.services.register.game_views import list_games
from ledger.services.register.player_refs import resolve


def _populate_0001(conn: Connection, *, keyed: bool = False) -> None:
    """Facts as revision 0001's schema holds them: two players, one event, one decisive game
    (``keyed``: with the name keys revision 0005 adds)."""
    key, alpha, beta, cup = ((", name_key", ", 'alpha, ann'", ", 'beta, bob'", ", 'upgrade cup'")
                             if keyed else ("", "", "", ""))
    conn.execute(text(
        f"INSERT INTO players (id, name{key}, fide_id, registered_at) VALUES "
        f"(1, 'Alpha, Ann'{alpha}, 90000001, '2026-01-01 00:00:00'), "
        f"(2, 'Beta, Bob'{beta}, 90000002, '2026-01-01 00:00:00')"))
    conn.execute(text(
        "INSERT INTO player_entries (player_id, effective_from, rating, prior_games, reached_2400,"
        " reached_2300, source, recorded_at) VALUES "
        "(1, NULL, 1800, 100, false, false, 'test', '2026-01-01 00:00:00'), "
        "(2, NULL, 1700, 100, false, false, 'test', '2026-01-01 00:00:00')"))
    conn.execute(text(
        f"INSERT INTO events (id, name{key}, start_date, end_date) VALUES "
        f"(1, 'Upgrade Cup'{cup}, '2026-01-10', '2026-01-10')"))
    conn.execute(text(
        "INSERT INTO games (event_id, round, date, period, white_id, black_id, result, played,"
        " recorded_at) VALUES (1, '1', '2026-01-10', '2026-01', 1, 2, '1-0', true,"
        " '2026-01-10 00:00:00')"))


def _populate_0002(conn: Connection) -> None:
    """As 0001, with the event details a TRF header gives and the record of an imported file."""
    _populate_0001(conn)
    conn.execute(text(
        "UPDATE events SET city = 'Kilkenny', federation = 'IRL', arbiter = 'A. Arbiter', "
        "time_control = '90 min + 30 s', rounds = 6 WHERE id = 1"))
    conn.execute(text(
        "INSERT INTO imported_files (sha256, file_name, format, imported_at, games, players) "
        "VALUES ('" + "ab" * 32 + "', 'upgrade.trf', 'trf', '2026-01-11 00:00:00', 1, 2)"))


def _populate_0003(conn: Connection) -> None:
    """Revision 0003 adds title columns on players and the FIDE list ratings: the 0001 facts,
    a woman's title, and a list rating kept for comparison (not a rating the ledger uses)."""
    _populate_0001(conn)
    conn.execute(text("UPDATE players SET title = 'WGM', w_title = 'WGM', o_title = 'IA,FT' "
                      "WHERE id = 1"))
    conn.execute(text(
        "INSERT INTO list_ratings (player_id, list_date, pool, rating, games, k, flag, source,"
        " recorded_at) VALUES (1, '2026-01-01', 'blitz', 1900, 8, 20, 'w', 'list.txt',"
        " '2026-01-01 00:00:00')"))


def _populate_0004(conn: Connection) -> None:
    """0001's facts, an unrated third player and a closed 2025-12 whose initial rating for them was
    below the floor (not published: they stay off the list)."""
    _populate_0001(conn)
    conn.execute(text(
        "INSERT INTO players (id, name, registered_at) VALUES (3, 'Gamma, Gil', "
        "'2026-01-01 00:00:00')"))
    conn.execute(text(
        "INSERT INTO player_entries (player_id, effective_from, rating, prior_games, reached_2400,"
        " reached_2300, source, recorded_at) VALUES "
        "(3, NULL, NULL, 0, false, false, 'test', '2026-01-01 00:00:00')"))
    conn.execute(text(
        "INSERT INTO periods (period, edition, closed_at) VALUES "
        "('2025-12', '2025-10', '2026-01-02 00:00:00')"))
    conn.execute(text(
        "INSERT INTO initial_ratings (period, player_id, method, games, opponents_sum,"
        " score_halves, hypothetical, p_hundredths, dp, bonus, ru, cap, rating, floor, published,"
        " disregarded) VALUES ('2025-12', 3, 'two-1800-draws', 5, 7000, 1, 2, 21, -230, 0, 1284,"
        " 2200, 1284, 1400, false, 0)"))


def _populate_0005(conn: Connection) -> None:
    """Revision 0005 adds the name keys: the 0001 facts with their keys, and a player and an
    event whose names have accents."""
    _populate_0001(conn, keyed=True)
    conn.execute(text(
        "INSERT INTO players (id, name, name_key, registered_at) VALUES "
        "(4, 'Ó Briain, Seán', 'o briain, sean', '2026-01-01 00:00:00')"))
    conn.execute(text(
        "INSERT INTO events (id, name, name_key, start_date, end_date) VALUES "
        "(2, 'Östersund Open', 'ostersund open', '2026-01-03', '2026-01-04')"))


def _populate_0006(conn: Connection) -> None:
    """Revision 0006 adds the audit log and change numbers: the 0001 facts with their keys,
    written by one change, and a second game between the two players that is void."""
    _populate_0001(conn, keyed=True)
    conn.execute(text(
        "INSERT INTO changes (id, at, by, command, action, entity, entity_id) VALUES "
        "(1, '2026-01-01 00:00:00', 'tester', 'ledger import cup.pgn', 'import', 'file', "
        "'" + "cd" * 32 + "')"))
    conn.execute(text("UPDATE players SET change_id = 1"))
    conn.execute(text("UPDATE player_entries SET change_id = 1"))
    conn.execute(text("UPDATE games SET change_id = 1"))
    # a second game between them, voided: never rated (the close still gives +7 / -7)
    conn.execute(text(
        "INSERT INTO games (event_id, round, date, period, white_id, black_id, result, played,"
        " recorded_at, status, change_id) VALUES (1, '2', '2026-01-10', '2026-01', 2, 1, '1-0',"
        " true, '2026-01-10 00:00:00', 'void', 1)"))


def _populate_0007(conn: Connection) -> None:
    """Revision 0007 adds the natural keys: the 0006 facts with their round keys, and a namesake
    of Ann's registered as another person (``player add --new``)."""
    _populate_0006(conn)
    conn.execute(text("UPDATE games SET round_key = round"))
    conn.execute(text(
        "INSERT INTO players (id, name, name_key, namesake, registered_at, change_id) VALUES "
        "(5, 'ALPHA, Ann', 'alpha, ann', 1, '2026-01-01 00:00:00', 1)"))


def _populate_0008(conn: Connection) -> None:
    """Revision 0008 adds ``period_results.carried_hundredths`` and ``player_entries.kind``: the
    0007 ledger, with a ``history`` entry for Alpha (prior games 100 -> 120, from 2026-01): it
    changes nothing the 2026-01 close needs (K 20 either way), and it brings no rating."""
    _populate_0007(conn)
    conn.execute(text(
        "INSERT INTO player_entries (player_id, effective_from, rating, prior_games, reached_2400,"
        " reached_2300, source, recorded_at, change_id, kind) VALUES "
        "(1, '2026-01', NULL, 120, false, false, 'ledger player edit', '2026-01-02 00:00:00', 1, "
        "'history')"))


def _populate_0009(conn: Connection) -> None:
    """Revision 0009 adds the pools: the 0008 ledger (every row standard), blitz entries for
    Alpha (1500) and Beta (1600, both with 100 prior blitz games) and a blitz game of 2026-01
    that Alpha wins: the standard close gives +7 / -7 as before, the blitz one its own list."""
    _populate_0008(conn)
    conn.execute(text(
        "INSERT INTO player_entries (player_id, effective_from, rating, prior_games, reached_2400,"
        " reached_2300, source, recorded_at, change_id, kind, pool) VALUES "
        "(1, NULL, 1500, 100, false, false, 'test', '2026-01-01 00:00:00', 1, 'rating', 'blitz'),"
        " (2, NULL, 1600, 100, false, false, 'test', '2026-01-01 00:00:00', 1, 'rating', 'blitz')"))
    conn.execute(text(
        "INSERT INTO games (event_id, round, round_key, date, period, white_id, black_id, result,"
        " played, recorded_at, status, change_id, pool, unequal_times) VALUES (NULL, NULL, NULL,"
        " '2026-01-20', '2026-01', 1, 2, '1-0', true, '2026-01-20 00:00:00', 'valid', 1,"
        " 'blitz', false)"))


def _populate_0010(conn: Connection) -> None:
    """Revision 0010 packs the per-game audit (``period_audits``) and adds no fact: the 0009
    ledger. The packing of stored audit rows is tested from every earlier revision below
    (``test_0010_packs_the_audit_each_earlier_revision_stored``)."""
    _populate_0009(conn)


def _populate_0011(conn: Connection) -> None:
    """Revision 0011 adds ``unverified_copies``, the mark of a ``db copy`` not verified yet,
    which only a copy in progress holds (and every command refuses: see tests/integration/
    test_kill_copy.py): the 0010 ledger, which is no copy."""
    _populate_0010(conn)


def _populate_0012(conn: Connection) -> None:
    """Revision 0012 adds ``players.withdrawn`` (and ``player_revisions.withdrawn``) and
    ``imported_files.change_id``: the 0011 ledger, with a player registered by mistake (rated
    2000, no game) and withdrawn by change 2: the close of 2026-01 must not list them."""
    _populate_0011(conn)
    conn.execute(text(
        "INSERT INTO changes (id, at, by, command, action, entity, entity_id, reason) VALUES "
        "(2, '2026-01-02 00:00:00', 'tester', 'ledger player withdraw #6', 'player.withdraw',"
        " 'player', '6', 'registered by mistake')"))
    conn.execute(text(
        "INSERT INTO players (id, name, name_key, namesake, registered_at, change_id, withdrawn)"
        " VALUES (6, 'Mistake, Mo', 'mistake, mo', 0, '2026-01-01 00:00:00', 2, true)"))
    conn.execute(text(
        "INSERT INTO player_entries (player_id, effective_from, rating, prior_games, reached_2400,"
        " reached_2300, source, recorded_at, change_id, kind, pool) VALUES (6, NULL, 2000, 100,"
        " false, false, 'test', '2026-01-01 00:00:00', 1, 'rating', 'standard')"))


def _populate_0013(conn: Connection) -> None:
    """Revision 0013 numbers revisions per (period, pool) and adds no fact: the 0012 ledger.
    Its renumbering of stored revisions is tested below
    (``test_0013_numbers_each_pools_revisions_of_a_period_from_1``)."""
    _populate_0012(conn)


def _populate_0014(conn: Connection) -> None:
    """Revision 0014 adds the web's tables (users, their sessions and login attempts,
    submissions) and no fact: the 0013 ledger, which has no user."""
    _populate_0013(conn)


def _populate_0015(conn: Connection) -> None:
    """Revision 0015 chains the audit log: the 0014 ledger, its two changes chained as the
    writers chain them when they commit (``chain.chain_from``: a ledger at 0015 never holds an
    entry without its hash)."""
    _populate_0014(conn)
    chain_from(conn, 0)


#: How to fill a ledger at each revision. A new revision must add its own entry here.
POPULATE: dict[str, Callable[[Connection], None]] = {"0001": _populate_0001,
                                                     "0002": _populate_0002,
                                                     "0003": _populate_0003,
                                                     "0004": _populate_0004,
                                                     "0005": _populate_0005,
                                                     "0006": _populate_0006,
                                                     "0007": _populate_0007,
                                                     "0008": _populate_0008,
                                                     "0009": _populate_0009,
                                                     "0010": _populate_0010,
                                                     "0011": _populate_0011,
                                                     "0012": _populate_0012,
                                                     "0013": _populate_0013,
                                                     "0014": _populate_0014,
                                                     "0015": _populate_0015}


def _revisions() -> list[str]:
    script = ScriptDirectory.from_config(migrate.alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def test_every_revision_has_a_population() -> None:
    assert set(_revisions()) == set(POPULATE), "add a POPULATE entry for each new revision"


@pytest.mark.parametrize("revision", _revisions())
def test_populated_ledger_upgrades_from_every_revision(new_database: Factory,
                                                       revision: str) -> None:
    db = new_database(f"at-{revision}")
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, revision)
        with engine.begin() as conn:
            POPULATE[revision](conn)
            reset_sequences(conn, every_table(conn))  # the rows were given their ids
    finally:
        engine.dispose()

    before, after = init_ledger(db)  # what `ledger init` does to an older ledger
    assert (before, after) == (revision, migrate.head_revision())

    engine = open_ledger(db)
    try:
        report = close_period(engine, "2026-01")
        # D = 1800 - 1700 = +100 -> PD .64; 20 x (1 - .64) = +7.2 -> +7; the loser -7.2 -> -7
        changes = {p.name: p.result.change for p in report.players}
        assert changes == {"Alpha, Ann": 7, "Beta, Bob": -7}
        ratings = {r.name: r.rating for r in rating_list(engine).rows}
        assert ratings == {"Alpha, Ann": 1807, "Beta, Bob": 1693}
        if revision >= "0009":  # the blitz game closes with the standard one, on its own list
            # blitz: Alpha 1500 beats Beta 1600: D -100 -> PD .36; 20 x (1 - .36) = +12.8 -> +13
            # (1513); Beta D +100 -> .64; 20 x (0 - .64) = -12.8 -> -13 (1587): Beta ranks 1st
            assert [o.pool for o in report.others] == ["blitz"]
            blitz = {r.name: (r.rank, r.rating) for r in rating_list(engine, pool="blitz").rows}
            assert blitz == {"Beta, Bob": (1, 1587), "Alpha, Ann": (2, 1513)}
        else:
            assert report.others == []
    finally:
        engine.dispose()


def _closed_january(conn: Connection, revision: str) -> None:
    """On a ledger populated at ``revision`` (before 0010): a second January game, Beta (white)
    beats Alpha on 2026-01-05 (id 9: after game 1 by id, before it by date), and 2026-01
    closed as that revision stored a close, by hand, with its ``period_games`` rows in id order.

    Alpha 1800 v Beta 1700, K 20 (100 prior games each): D = +100 -> PD .64 for Alpha, .36 for
    Beta, in both games. Alpha 1 + 0 = 1, expected 1.28: 20 x (1 - 1.28) = -5.6 -> -6 (1794);
    Beta 0 + 1 = 1, expected .72: 20 x (1 - .72) = +5.6 -> +6 (1706).
    """
    conn.execute(text(
        "INSERT INTO games (id, event_id, round, date, period, white_id, black_id, result, played,"
        " recorded_at) VALUES (9, 1, '3', '2026-01-05', '2026-01', 2, 1, '1-0', true,"
        " '2026-01-10 00:00:00')"))
    revised = revision >= "0006"
    key, one = (", revision", ", 1") if revised else ("", "")
    if revised:
        conn.execute(text(
            "INSERT INTO period_revisions (period, revision, edition, change_id, closed_at) VALUES"
            " ('2026-01', 1, '2025-10', 1, '2026-02-01 10:00:00')"))
        conn.execute(text("INSERT INTO periods (period, revision) VALUES ('2026-01', 1)"))
    else:
        conn.execute(text("INSERT INTO periods (period, edition, closed_at) VALUES "
                          "('2026-01', '2025-10', '2026-02-01 10:00:00')"))
    conn.execute(text(
        f"INSERT INTO period_results (period{key}, player_id, rating_before, games, score_halves,"
        " expected_hundredths, k, k_before_cap, k_reason, change_hundredths, change,"
        f" rating_after) VALUES ('2026-01'{one}, 1, 1800, 2, 2, 128, 20, 20, 'standard', -560,"
        f" -6, 1794), ('2026-01'{one}, 2, 1700, 2, 2, 72, 20, 20, 'standard', 560, 6, 1706)"))
    conn.execute(text(
        f"INSERT INTO period_games (period{key}, player_id, game_id, opponent_id, own_rating,"
        " opponent_rating, difference, counted_difference, expected_hundredths, score_halves)"
        f" VALUES ('2026-01'{one}, 1, 1, 2, 1800, 1700, 100, 100, 64, 2),"
        f" ('2026-01'{one}, 1, 9, 2, 1800, 1700, 100, 100, 64, 0),"
        f" ('2026-01'{one}, 2, 1, 1, 1700, 1800, -100, -100, 36, 0),"
        f" ('2026-01'{one}, 2, 9, 1, 1700, 1800, -100, -100, 36, 2)"))


#: The packed sides of the January close above (``<8i``: game, opponent, own, opponent's
#: rating, D, counted D, PD hundredths, score halves), game 9 first (it is earlier by date).
#: 1800 = 0x708, 1700 = 0x6a4, 100 = 0x64, -100 = 0xffffff9c, 64 = 0x40, 36 = 0x24.
PACKED_JANUARY = {
    1: bytes.fromhex("09000000" "02000000" "08070000" "a4060000" "64000000" "64000000"
                     "40000000" "00000000"
                     "01000000" "02000000" "08070000" "a4060000" "64000000" "64000000"
                     "40000000" "02000000"),
    2: bytes.fromhex("09000000" "01000000" "a4060000" "08070000" "9cffffff" "9cffffff"
                     "24000000" "02000000"
                     "01000000" "01000000" "a4060000" "08070000" "9cffffff" "9cffffff"
                     "24000000" "00000000"),
}


@pytest.mark.parametrize("revision", [r for r in _revisions() if r < "0010"])
def test_0010_packs_the_audit_each_earlier_revision_stored(new_database: Factory,
                                                           revision: str) -> None:
    db = new_database(f"audit-at-{revision}")
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, revision)
        with engine.begin() as conn:
            POPULATE[revision](conn)
            _closed_january(conn, revision)
            reset_sequences(conn, every_table(conn))
    finally:
        engine.dispose()
    assert init_ledger(db) == (revision, migrate.head_revision())
    stored = sql(db, "SELECT period, revision, player_id, sides FROM period_audits "
                     "ORDER BY player_id")
    assert [(p, r, pid, bytes(packed)) for p, r, pid, packed in stored] == [
        ("2026-01", 1, 1, PACKED_JANUARY[1]), ("2026-01", 1, 2, PACKED_JANUARY[2])]
    assert "period_games" not in {t.name for t in every_table_of(db)}
    engine = open_ledger(db)
    try:
        # the readers see the stored audit: game 1 and 9 rated; Alpha's D +100 and PD .64
        assert {g.id: g.status for g in list_games(engine, "2026-01")}[9] == "rated"
        with transaction(engine, write=False) as session:
            sides = current_sides(session, "2026-01")
        assert sides[(9, 1)].expected_hundredths == 64 and sides[(1, 2)].difference == -100
        # and db check finds the stored audit is what the rules give from the facts
        found = check_ledger(engine).differences
        assert [d for d in found if d.table in ("period_audits", "period_results")] == []
    finally:
        engine.dispose()


def _three_revisions_at_0009(db: str, then: str) -> None:
    """At 0009: the January close above as revision 1, superseded by a re-rating (revision 2,
    the same rows), and the blitz close of 2026-01 as revision 3 (revision numbers shared by
    the pools, as 0009 numbered them): Alpha 1500 beats Beta 1600 (D -100 -> PD .36, 2 halves;
    Beta D +100 -> .64, 0); then upgraded to ``then``."""
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, "0009")
        with engine.begin() as conn:
            _populate_0009(conn)
            _closed_january(conn, "0009")
            for statement in (
                    "INSERT INTO period_revisions (period, revision, edition, change_id,"
                    " closed_at) VALUES ('2026-01', 2, '2025-10', 1, '2026-02-02 10:00:00')",
                    "UPDATE period_revisions SET superseded_by_change = 1 WHERE revision = 1",
                    "UPDATE periods SET revision = 2",
                    "INSERT INTO period_results (period, revision, player_id, rating_before,"
                    " games, score_halves, expected_hundredths, k, k_before_cap, k_reason,"
                    " change_hundredths, change, rating_after) SELECT period, 2, player_id,"
                    " rating_before, games, score_halves, expected_hundredths, k, k_before_cap,"
                    " k_reason, change_hundredths, change, rating_after FROM period_results",
                    "INSERT INTO period_games (period, revision, player_id, game_id,"
                    " opponent_id, own_rating, opponent_rating, difference, counted_difference,"
                    " expected_hundredths, score_halves) SELECT period, 2, player_id, game_id,"
                    " opponent_id, own_rating, opponent_rating, difference, counted_difference,"
                    " expected_hundredths, score_halves FROM period_games",
                    "INSERT INTO period_revisions (period, revision, edition, change_id,"
                    " closed_at, pool) VALUES ('2026-01', 3, '2025-10', 1,"
                    " '2026-02-03 10:00:00', 'blitz')",
                    "INSERT INTO periods (period, revision, pool) VALUES ('2026-01', 3, 'blitz')",
                    "INSERT INTO period_games (period, revision, player_id, game_id,"
                    " opponent_id, own_rating, opponent_rating, difference, counted_difference,"
                    " expected_hundredths, score_halves) VALUES"
                    " ('2026-01', 3, 1, 3, 2, 1500, 1600, -100, -100, 36, 2),"
                    " ('2026-01', 3, 2, 3, 1, 1600, 1500, 100, 100, 64, 0)"):
                conn.execute(text(statement))
            reset_sequences(conn, every_table(conn))
        migrate.upgrade(engine, then)
    finally:
        engine.dispose()


def test_0010_packs_every_revision_of_every_pool(new_database: Factory) -> None:
    # 1500 = 0x5dc, 1600 = 0x640
    db = new_database("audit-revisions")
    _three_revisions_at_0009(db, "head")  # 0010 packs; the later revisions keep what it packed
    # (0013 numbers the revisions per pool: the blitz close, 3 at 0009, is the blitz pool's 1)
    stored = sql(db, "SELECT pool, revision, player_id, sides FROM period_audits "
                     "ORDER BY pool DESC, revision, player_id")
    assert [(p, r, pid, bytes(packed)) for p, r, pid, packed in stored] == [
        ("standard", 1, 1, PACKED_JANUARY[1]), ("standard", 1, 2, PACKED_JANUARY[2]),
        ("standard", 2, 1, PACKED_JANUARY[1]), ("standard", 2, 2, PACKED_JANUARY[2]),
        ("blitz", 1, 1, bytes.fromhex("03000000" "02000000" "dc050000" "40060000" "9cffffff"
                                      "9cffffff" "24000000" "02000000")),
        ("blitz", 1, 2, bytes.fromhex("03000000" "01000000" "40060000" "dc050000" "64000000"
                                      "64000000" "40000000" "00000000"))]
    engine = open_ledger(db)
    try:
        with transaction(engine, write=False) as session:
            assert set(current_sides(session, "2026-01")) == {(1, 1), (9, 1), (1, 2), (9, 2)}
            assert current_sides(session, "2026-01", "blitz")[(3, 2)].expected_hundredths == 64
    finally:
        engine.dispose()


def test_0013_numbers_each_pools_revisions_of_a_period_from_1(new_database: Factory) -> None:
    db = new_database("revisions-per-pool")
    _three_revisions_at_0009(db, "0011")
    # 0011 numbers the revisions of 2026-01 across its pools: standard 1 and 2, blitz 3
    revisions = "SELECT pool, revision FROM period_revisions ORDER BY closed_at"
    assert sql(db, revisions) == [("standard", 1), ("standard", 2), ("blitz", 3)]
    assert init_ledger(db) == ("0011", migrate.head_revision())
    # each pool's revisions of the period from 1 in their order: the first blitz list is 1
    assert sql(db, revisions) == [("standard", 1), ("standard", 2), ("blitz", 1)]
    assert sql(db, "SELECT pool, revision FROM periods ORDER BY pool DESC") == [
        ("standard", 2), ("blitz", 1)]
    assert sql(db, "SELECT DISTINCT pool, revision FROM period_audits "
                   "ORDER BY pool DESC, revision") == [
        ("standard", 1), ("standard", 2), ("blitz", 1)]
    assert sql(db, "SELECT DISTINCT pool, revision FROM period_results "
                   "ORDER BY pool DESC, revision") == [("standard", 1), ("standard", 2)]
    engine = open_ledger(db)
    try:
        views = {(v.pool, v.revision): [r.revision for r in v.revisions]
                 for v in list_periods(engine)}
        assert views == {("standard", 2): [1, 2], ("blitz", 1): [1]}
        # the blitz audit is current as the blitz pool's revision 1 (Beta's PD .64)
        with transaction(engine, write=False) as session:
            assert current_sides(session, "2026-01", "blitz")[(3, 2)].expected_hundredths == 64
        # the next blitz close of 2026-01 (after a reopen) is the blitz pool's revision 2
        reopened = reopen_period(engine, "2026-01", reason="test", pool="blitz")
        assert (reopened.revision, reopened.next) == (1, 2)
    finally:
        engine.dispose()
    engine = make_engine(db)
    try:
        with engine.begin() as conn:
            # 0013's own downgrade (0012, after it, touches no revision)
            command.downgrade(migrate.alembic_config(conn), "0012")
    finally:
        engine.dispose()
    # back at 0012: numbered across the pools again, in the order written
    assert sql(db, revisions) == [("standard", 1), ("standard", 2), ("blitz", 3)]
    assert sql(db, "SELECT DISTINCT revision FROM period_audits ORDER BY revision") == [
        (1,), (2,), (3,)]


def test_0010_downgrade_unpacks_the_audit_into_period_games(new_database: Factory) -> None:
    db = new_database("audit-down")
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, "0009")
        with engine.begin() as conn:
            _populate_0009(conn)
            _closed_january(conn, "0009")
            reset_sequences(conn, every_table(conn))
        migrate.upgrade(engine, "0010")
        with engine.connect() as conn, migrate.migration_transaction(conn):
            command.downgrade(migrate.alembic_config(conn), "0009")
    finally:
        engine.dispose()
    assert sql(db, "SELECT version_num FROM alembic_version") == [("0009",)]
    assert sql(db, "SELECT period, revision, player_id, game_id, opponent_id, own_rating,"
                   " opponent_rating, difference, counted_difference, expected_hundredths,"
                   " score_halves FROM period_games ORDER BY player_id, game_id") == [
        ("2026-01", 1, 1, 1, 2, 1800, 1700, 100, 100, 64, 2),
        ("2026-01", 1, 1, 9, 2, 1800, 1700, 100, 100, 64, 0),
        ("2026-01", 1, 2, 1, 1, 1700, 1800, -100, -100, 36, 0),
        ("2026-01", 1, 2, 9, 1, 1700, 1800, -100, -100, 36, 2)]
    assert "period_audits" not in {t.name for t in every_table_of(db)}


def test_0010_freezes_the_packing_as_it_is_today() -> None:
    frozen = runpy.run_path(str(migrate.migrations_dir() / "versions" / "0010_packed_audit.py"))
    sides = [(1, 2, 1800, 1700, 100, 100, 64, 2), (2 ** 31 - 1, 7, 1000, 2700, -1700, -400, 8, 0)]
    assert frozen["FIELDS"] == audit_pack.FIELDS
    assert frozen["pack"](sides) == audit_pack.pack(sides)
    assert frozen["unpack"](audit_pack.pack(sides)) == sides


def every_table_of(db: str) -> list[Table]:
    engine = make_engine(db)
    try:
        with engine.connect() as conn:
            return every_table(conn)
    finally:
        engine.dispose()


def test_init_is_idempotent_and_keeps_data(new_database: Factory) -> None:
    db = new_database("ledger")
    assert init_ledger(db) == (None, migrate.head_revision())
    engine = make_engine(db)
    try:
        with engine.begin() as conn:
            _populate_0001(conn, keyed=True)  # the head's schema
    finally:
        engine.dispose()
    head = migrate.head_revision()
    assert init_ledger(db) == (head, head)
    engine = make_engine(db)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM games")).scalar_one() == 1
    finally:
        engine.dispose()


def _accented_0004(conn: Connection, second_event: str, second_start: str) -> None:
    """0004's facts, a player and two events whose names differ from their keys."""
    _populate_0004(conn)
    conn.execute(text(
        "INSERT INTO players (id, name, registered_at) VALUES "
        "(4, '  Ó Briain ,Seán ', '2026-01-01 00:00:00'), "
        "(5, 'Søren Høeg', '2026-01-01 00:00:00')"))
    conn.execute(text(
        "INSERT INTO events (id, name, start_date, end_date) VALUES "
        "(2, 'Östersund Open', '2025-08-01', '2025-08-09'), "
        f"(3, '{second_event}', '{second_start}', '{second_start}')"))


def _at_0004(db: str, second_event: str, second_start: str) -> None:
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, "0004")
        with engine.begin() as conn:
            _accented_0004(conn, second_event, second_start)
    finally:
        engine.dispose()


def test_0005_fills_the_keys_of_an_older_ledger_in_python(new_database: Factory) -> None:
    db = new_database("at-0004")
    _at_0004(db, "ÖSTERSUND OPEN", "2026-08-01")  # the same name a year later: another event
    assert init_ledger(db) == ("0004", migrate.head_revision())
    engine = open_ledger(db)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT id, name_key FROM players ORDER BY id")).all() == [
                (1, "alpha, ann"), (2, "beta, bob"), (3, "gamma, gil"), (4, "o briain, sean"),
                (5, "soren hoeg")]
            assert conn.execute(text("SELECT id, name_key FROM events ORDER BY id")).all() == [
                (1, "upgrade cup"), (2, "ostersund open"), (3, "ostersund open")]
        with transaction(engine, write=False) as session:
            # found by key, and by word order, after the upgrade
            assert resolve(session, "Sean O Briain").id == 4
            assert resolve(session, "soren hoeg").id == 5
            # the event by its key, without its accents (#3, a year later, is another event)
            found = find_event(session, "Ostersund Open", dt.date(2025, 8, 1),
                               dt.date(2025, 8, 1), exact_start=True)
            assert found is not None and (found.id, found.name) == (2, "Östersund Open")
    finally:
        engine.dispose()


def test_0005_names_the_events_only_their_key_tells_apart(new_database: Factory) -> None:
    db = new_database("at-0004")
    _at_0004(db, "ÖSTERSUND  open", "2025-08-01")  # same key, same start as event #2
    with pytest.raises(LedgerError) as refused:
        init_ledger(db)
    assert str(refused.value) == (
        "cannot upgrade the ledger to revision 0005: events must differ by more than case, "
        "accents and punctuation when they start on the same day, and these do not: "
        "#2 'Östersund Open' and #3 'ÖSTERSUND  open' (starting 2025-08-01). Nothing was "
        "changed; rename one of each (UPDATE events SET name = ... WHERE id = ...) or move its "
        "games to the other, then run `ledger init` again")
    engine = make_engine(db)
    try:
        assert migrate.current_revision(engine) == "0004"
        with engine.connect() as conn:  # nothing half done: no key column was left behind
            assert "name_key" not in conn.execute(text("SELECT * FROM events")).keys()
    finally:
        engine.dispose()


def test_0005_freezes_the_key_function_as_it_is_today() -> None:
    frozen = runpy.run_path(str(migrate.migrations_dir() / "versions" / "0005_name_keys.py"))
    names = ["Ó Briain, Seán", "ÅBERG,  Nils", "Łukasz Øster", "Strauß", "O’Brien-Smith, J.",
             "İnci Işık", "Æbelø Þór", "ﬁsher²", "Col·legi", "", "  ,,  "]
    assert [frozen["name_key"](n) for n in names] == [name_key(n) for n in names]


def test_an_upgrade_that_would_leave_a_row_pointing_at_nothing_changes_nothing(
        tmp_path: Path) -> None:
    # Foreign keys are off while SQLite rebuilds tables (migrate.migration_transaction) and
    # checked before the commit: a game of a player who is not there stops the upgrade. SQLite
    # only, on either run: PostgreSQL enforces foreign keys on every write, so no row can
    # point at nothing.
    db = str(tmp_path / "at-0004.db")
    _at_0004(db, "Galway Open", "2026-02-01")
    with sqlite3.connect(db) as con:  # no ledger hooks: foreign keys off, as an old tool had it
        con.execute("INSERT INTO games (id, event_id, round, date, period, white_id, black_id,"
                    " result, played, recorded_at) VALUES (7, 1, '2', '2026-01-10', '2026-01', 1,"
                    " 99, '1-0', 1, '2026-01-10 00:00:00')")
    con.close()
    with pytest.raises(LedgerError) as refused:
        init_ledger(db)
    assert str(refused.value) == ("the upgrade would leave rows pointing at nothing (games row 7 "
                                  "-> players); nothing was changed")
    engine = make_engine(db)
    try:
        assert migrate.current_revision(engine) == "0004"
    finally:
        engine.dispose()


def _at_0005(db: str, *statements: str) -> None:
    """A ledger at revision 0005 with its population and ``statements``."""
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, "0005")
        with engine.begin() as conn:
            _populate_0005(conn)
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def test_0007_numbers_the_namesakes_a_ledger_has_and_keys_its_rounds(new_database: Factory) -> None:
    db = new_database("at-0005")
    _at_0005(db,
             "INSERT INTO players (id, name, name_key, birth_year, registered_at) VALUES "
             "(7, 'ALPHA, ANN', 'alpha, ann', 1990, '2026-01-02 00:00:00'), "
             "(6, 'Alpha,  Ann', 'alpha, ann', 1980, '2026-01-02 00:00:00'), "
             "(8, 'Briain, Sean O', 'briain, sean o', NULL, '2026-01-02 00:00:00')",
             "INSERT INTO games (event_id, round, date, period, white_id, black_id, result, "
             "played, recorded_at) VALUES "
             "(1, '01', '2026-01-10', '2026-01', 4, 1, '0-1', true, '2026-01-10 00:00:00'), "
             "(1, 'Round 2', '2026-01-10', '2026-01', 1, 4, '1-0', true, '2026-01-10 00:00:00'), "
             "(1, NULL, '2026-01-10', '2026-01', 2, 4, '1-0', true, '2026-01-10 00:00:00'), "
             "(1, ' Final ', '2026-01-10', '2026-01', 2, 4, '1-0', true, '2026-01-10 00:00:00')")
    assert init_ledger(db) == ("0005", migrate.head_revision())
    # three players share the key 'alpha, ann': numbered by id (1, 6, 7); the rest 0
    assert sql(db, "SELECT id, namesake FROM players ORDER BY id") == [
        (1, 0), (2, 0), (4, 0), (6, 1), (7, 2), (8, 0)]
    assert sql(db, "SELECT round, round_key FROM games ORDER BY id") == [
        ("1", "1"), ("01", "1"), ("Round 2", "2"), (None, None), (" Final ", "final")]


def test_0007_names_the_games_recorded_twice_and_changes_nothing(new_database: Factory) -> None:
    db = new_database("at-0005")
    # round 1.1 is round 1: game 2 is game 1 again (two imports that raced before the lock)
    _at_0005(db,
             "INSERT INTO games (id, event_id, round, date, period, white_id, black_id, result, "
             "played, recorded_at) VALUES "
             "(2, 1, '1.1', '2026-01-10', '2026-01', 1, 2, '1-0', true, '2026-01-10 00:00:00'), "
             "(3, 1, '2', '2026-01-10', '2026-01', 1, 2, '1-0', true, '2026-01-10 00:00:00')")
    with pytest.raises(LedgerError) as refused:
        init_ledger(db)
    assert str(refused.value) == (
        "cannot upgrade the ledger to revision 0007: a game of an event's round between two "
        "players is recorded once, and these are recorded more than once (rounds compared as "
        "they read: 1, 01 and 1.1 are round 1): event #1 'Upgrade Cup': game 1 (round 1, "
        "Alpha, Ann v Beta, Bob, 1-0, 2026-01-10) and game 2 (round 1.1, Alpha, Ann v Beta, "
        "Bob, 1-0, 2026-01-10). Nothing was changed; mark the extra copy of each void (UPDATE "
        "games SET status = 'void' WHERE id = ...), run `ledger init` again, then re-rate any "
        "closed period it is in (`ledger period rerate --from YYYY-MM`)")
    engine = make_engine(db)
    try:
        assert migrate.current_revision(engine) == "0005"
        with engine.connect() as conn:  # nothing half done: no column was left behind
            assert "round_key" not in conn.execute(text("SELECT * FROM games")).keys()
            assert "namesake" not in conn.execute(text("SELECT * FROM players")).keys()
    finally:
        engine.dispose()


def test_0007_freezes_the_round_key_function_as_it_is_today() -> None:
    frozen = runpy.run_path(str(migrate.migrations_dir() / "versions" / "0007_natural_keys.py"))
    labels = [None, "", " ", "?", "-", "1", "01", "1.1", "1.1.2", "10.3", "R1", "rd 2",
              "Rnd.3", "Round 4", "ROUND  5", "6.", "3a", "Final", " FINAL ", "Straße",
              "0", "000", "x" * 25]
    assert [frozen["round_key"](label) for label in labels] == [round_key(label)
                                                                  for label in labels]


def test_the_cheap_revision_check_knows_alembics_head() -> None:
    # ledger.db.revision checks every command's database without Alembic: its constant must be
    # the head of migrations/versions (0015_chained_audit_log.py, "revision: str = '0015'")
    from ledger.db.revision import HEAD_REVISION
    assert HEAD_REVISION == migrate.head_revision() == "0015"


def test_0011_adds_no_mark_to_a_ledger_and_its_downgrade_drops_the_table(
        new_ledger: Factory) -> None:
    db = new_ledger("at-0011")  # `ledger init`: every revision, 0011 the last
    assert sql(db, "SELECT count(*) FROM unverified_copies") == [(0,)]
    engine = open_ledger(db)  # not refused: no copy in progress
    try:
        with engine.connect() as conn, migrate.migration_transaction(conn):
            command.downgrade(migrate.alembic_config(conn), "0010")
    finally:
        engine.dispose()
    assert sql(db, "SELECT version_num FROM alembic_version") == [("0010",)]
    assert "unverified_copies" not in {t.name for t in every_table_of(db)}


def test_0012_ties_each_imported_file_to_its_change_and_withdraws_nobody(
        new_database: Factory) -> None:
    """At 0011: the 0006 facts (change 1 is the ``import`` of the file ``cd...``), that file's
    ``imported_files`` row, and one imported before the audit log (``ab...``, no change).
    0012 gives the first change 1 (its change's entity is the file's SHA-256), the second
    none; no player is withdrawn; the downgrade drops the three columns again."""
    db = new_database("at-0011-files")
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, "0011")
        with engine.begin() as conn:
            _populate_0006(conn)
            conn.execute(text(
                "INSERT INTO imported_files (id, sha256, file_name, format, imported_at, games,"
                " players) VALUES (1, '" + "ab" * 32 + "', 'old.trf', 'trf', "
                "'2025-12-01 00:00:00', 1, 2), (2, '" + "cd" * 32 + "', 'cup.pgn', 'pgn', "
                "'2026-01-01 00:00:00', 2, 2)"))
            reset_sequences(conn, every_table(conn))
        migrate.upgrade(engine, "0012")
    finally:
        engine.dispose()
    assert sql(db, "SELECT id, change_id FROM imported_files ORDER BY id") == [(1, None), (2, 1)]
    assert sql(db, "SELECT count(*) FROM players WHERE withdrawn") == [(0,)]
    engine = make_engine(db)
    try:
        with engine.connect() as conn, migrate.migration_transaction(conn):
            command.downgrade(migrate.alembic_config(conn), "0011")
    finally:
        engine.dispose()
    columns = {t.name: {c.name for c in t.columns} for t in every_table_of(db)}
    assert "change_id" not in columns["imported_files"]
    assert "withdrawn" not in columns["players"] | columns["player_revisions"]


def test_0015_chains_a_populated_ledger_and_db_check_passes(new_database: Factory) -> None:
    db = new_database("chained")
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, "0014")
        with engine.begin() as conn:
            _populate_0014(conn)  # changes 1 (the import) and 2 (a withdrawal)
            reset_sequences(conn, every_table(conn))
    finally:
        engine.dispose()
    assert init_ledger(db) == ("0014", "0015")
    rows = sql(db, "SELECT id, action, reason, hash, prev_hash FROM changes ORDER BY id")
    assert [r[:2] for r in rows] == [(1, "import"), (2, "player.withdraw"), (3, "audit.chain")]
    assert rows[2][2].startswith("audit log chained: 2 entries; ")
    assert rows[0][4] == "0" * 64  # the first entry follows the start of the log
    assert [r[4] for r in rows[1:]] == [r[3] for r in rows[:2]]  # each follows the one before
    assert all(len(r[3]) == 64 and int(r[3], 16) >= 0 for r in rows)
    engine = open_ledger(db)
    try:
        close_period(engine, "2026-01")
        report = check_ledger(engine)
        # the three entries and the close's two (one a pool: standard and blitz)
        assert report.chain.broken is None and report.chain.entries == 5
        assert report.chain.lists == 2 and report.ok  # standard and blitz 2026-01
    finally:
        engine.dispose()
    # one game's result changed behind the ledger's back: entry 1 (its import) no longer follows
    tampered = make_engine(db)
    try:
        with tampered.begin() as conn:
            conn.execute(text("UPDATE games SET result = '0-1' WHERE id = 2"))  # the void game
    finally:
        tampered.dispose()
    engine = open_ledger(db)
    try:
        broken = check_ledger(engine).chain.broken
        assert broken is not None and broken.entry == 1
    finally:
        engine.dispose()
