"""Revision 0006 on a ledger with closed periods: each becomes revision 1 with one change written
by the upgrade, ``ledger init`` writes the list snapshots in the same transaction (one more
change), and the lists and histories read the same as before; the stored results recompute."""

from __future__ import annotations

from ledgers import Factory, every_table, sql
from sqlalchemy import Connection, text

from ledger.db import migrate
from ledger.db.engine import make_engine
from ledger.db.sequences import reset_sequences
from ledger.domain import Actor
from ledger.services.admin.recompute import check_ledger
from ledger.services.admin.setup import init_ledger
from ledger.services.close.periods import close_period, list_periods
from ledger.services.close.snapshots import UPGRADE_REASON
from ledger.services.core.session import open_ledger
from ledger.services.publishing.histories import history
from ledger.services.publishing.lists import rating_list


def _closed_january_at_0005(conn: Connection) -> None:
    """Two players, one game and 2026-01 closed, as revision 0005 stored a close (by hand).

    A 1800 (adult, 100 games: K 20) beats B 1700: D = +100 -> PD .64; 20 x (1 - .64) = +7.2 ->
    +7 -> 1807. B: D = -100 -> .36; 20 x (0 - .36) = -7.2 -> -7 -> 1693. A federation and a
    title on A, so the snapshot carries them.
    """
    conn.execute(text(
        "INSERT INTO players (id, name, name_key, fide_id, federation, title, birth_year, sex,"
        " registered_at) VALUES "
        "(1, 'Alpha, Ann', 'alpha, ann', 90000001, 'IRL', 'WFM', 1990, 'F', '2026-01-01'), "
        "(2, 'Beta, Bob', 'beta, bob', 90000002, 'ENG', NULL, 1985, 'M', '2026-01-01')"))
    conn.execute(text(
        "INSERT INTO player_entries (player_id, effective_from, rating, prior_games, reached_2400,"
        " reached_2300, source, recorded_at) VALUES "
        "(1, NULL, 1800, 100, false, false, 'test', '2026-01-01'), "
        "(2, NULL, 1700, 100, false, false, 'test', '2026-01-01')"))
    conn.execute(text(
        "INSERT INTO games (id, date, period, white_id, black_id, result, played, recorded_at)"
        " VALUES (1, '2026-01-10', '2026-01', 1, 2, '1-0', true, '2026-01-10')"))
    conn.execute(text("INSERT INTO periods (period, edition, closed_at) VALUES "
                      "('2026-01', '2025-10', '2026-02-01 10:00:00')"))
    conn.execute(text(
        "INSERT INTO period_results (period, player_id, rating_before, games, score_halves,"
        " expected_hundredths, k, k_before_cap, k_reason, change_hundredths, change,"
        " rating_after) VALUES "
        "('2026-01', 1, 1800, 1, 2, 64, 20, 20, 'standard', 720, 7, 1807), "
        "('2026-01', 2, 1700, 1, 0, 36, 20, 20, 'standard', -720, -7, 1693)"))
    conn.execute(text(
        "INSERT INTO period_games (game_id, player_id, period, opponent_id, own_rating,"
        " opponent_rating, difference, counted_difference, expected_hundredths, score_halves)"
        " VALUES (1, 1, '2026-01', 2, 1800, 1700, 100, 100, 64, 2), "
        "(1, 2, '2026-01', 1, 1700, 1800, -100, -100, 36, 0)"))


def test_a_0005_ledger_with_a_closed_period_upgrades_to_the_same_lists(
        new_database: Factory) -> None:
    db = new_database("at-0005")
    engine = make_engine(db)
    try:
        migrate.upgrade(engine, "0005")
        with engine.begin() as conn:
            _closed_january_at_0005(conn)
            reset_sequences(conn, every_table(conn))  # the rows were given their ids
    finally:
        engine.dispose()

    assert init_ledger(db, Actor("upgrader", "ledger init")) == ("0005", migrate.head_revision())
    engine = open_ledger(db)
    try:
        with engine.connect() as conn:
            changes = conn.execute(text(
                "SELECT id, by, command, action, reason FROM changes ORDER BY id")).all()
        revisions = sql(db, "SELECT period, revision, edition, change_id, closed_at "
                            "FROM period_revisions")
        assert changes == [
            (1, "upgrader", "ledger init", "schema.upgrade",
             "upgrade to revision 0006: existing closed periods recorded as revision 1"),
            (2, "upgrader", "ledger init", "audit.chain",
             "audit log chained: 1 entry; every entry now carries the SHA-256 of its content, "
             "of the facts it wrote and of the entry before it, and every published list its "
             "digest (revision 0015)"),
            (3, "upgrader", "ledger init", "list.snapshot", UPGRADE_REASON)]
        assert revisions == [("2026-01", 1, "2025-10", 1, "2026-02-01 10:00:00.000000")]
        # revision 0010 packed each player's period_games rows into one row: eight
        # little-endian int32 a side (game 1, opponent, own, opponent's rating, D, counted D,
        # PD hundredths, score halves): 1800 = 0x708, 1700 = 0x6a4, -100 = 0xffffff9c
        packed = sql(db, "SELECT period, revision, player_id, sides FROM period_audits "
                         "ORDER BY player_id")
        assert [(p, r, pid, bytes(b).hex()) for p, r, pid, b in packed] == [
            ("2026-01", 1, 1, "01000000" "02000000" "08070000" "a4060000" "64000000" "64000000"
                              "40000000" "02000000"),
            ("2026-01", 1, 2, "01000000" "01000000" "a4060000" "08070000" "9cffffff" "9cffffff"
                              "24000000" "00000000")]

        listed = rating_list(engine, "2026-01")
        assert listed.revision == 1
        assert [(r.rank, r.name, r.federation, r.title, r.rating, r.games, r.k, r.k_reason.value,
                 r.birth_year, r.sex, r.inactive) for r in listed.rows] == [
            (1, "Alpha, Ann", "IRL", "WFM", 1807, 1, 20, "standard", 1990, "F", False),
            (2, "Beta, Bob", "ENG", None, 1693, 1, 20, "standard", 1985, "M", False)]
        rows = history(engine, "Alpha, Ann").periods
        assert [(h.period, h.rating_before, h.games, h.change, h.rating_after) for h in rows] == [
            ("2026-01", 1800, 1, 7, 1807)]
        assert [(p.period, p.revision, p.edition, p.players) for p in list_periods(engine)] == [
            ("2026-01", 1, "2025-10", 2)]
        # the stored results are what the rules give from the facts; the chain follows, with
        # the list the upgrade wrote after revision 0015 chained the entry of its revision
        checked = check_ledger(engine)
        assert checked.differences == [] and checked.chain.broken is None
        assert (checked.chain.entries, checked.chain.lists, checked.chain.lists_broken) == (
            3, 1, [])
        # the next close builds on revision 1: A 1807 v B 1693 draw in February:
        # D = +114 -> PD .66; 20 x (0.5 - .66) = -3.2 -> -3 -> 1804
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO games (id, date, period, white_id, black_id, result, played,"
                " recorded_at) VALUES (2, '2026-02-10', '2026-02', 1, 2, '1/2-1/2', true,"
                " '2026-02-10')"))
        feb = close_period(engine, "2026-02")
        assert {p.name: p.result.rating_after for p in feb.players} == {
            "Alpha, Ann": 1804, "Beta, Bob": 1696}
    finally:
        engine.dispose()

    # init again: nothing more to do, no change written
    assert init_ledger(db)[0] == migrate.head_revision()
    engine = open_ledger(db)
    try:
        with engine.connect() as conn:
            assert conn.execute(text(
                "SELECT action FROM changes ORDER BY id")).scalars().all() == [
                "schema.upgrade", "audit.chain", "list.snapshot", "period.close"]
    finally:
        engine.dispose()
