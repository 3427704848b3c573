"""Reading the packed per-game audit (``services.close.period_audits``): the D and PD a close stored
for each game side of the current revision, and which games it rated (``game list``), the
same whether the query names the games' players or reads the period's every row; a reopened
period's audit is not current."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text

import ledger.services.close.period_audits as period_audits
from ledger.db.audit_pack import AuditSide
from ledger.services.admin.recompute import check_ledger
from ledger.services.close.period_audits import current_sides, rated_games
from ledger.services.close.periods import close_period
from ledger.services.close.rerate import reopen_period
from ledger.services.core.session import transaction
from ledger.services.register.game_views import list_games
from ledger.services.register.games import add_game
from ledger.services.register.players import NewPlayer, add_player


def _seed(engine: Engine) -> None:
    """The seed example: Sixteen 1600 draws with Eighteen 1800 (game 1), then beats Fourteen
    1400 (game 2), 2025-11; everyone K 20. A fourth player, Unrated, loses to Fourteen (game
    3): not rated for either (Fourteen's opponent has no rating; Unrated has no pool yet)."""
    for name, rating in (("Player, Sixteen", 1600), ("Player, Eighteen", 1800),
                         ("Player, Fourteen", 1400), ("Player, Unrated", None)):
        add_player(engine, NewPlayer(name=name, rating=rating, prior_games=100 if rating else 0))
    add_game(engine, "Player, Sixteen", "Player, Eighteen", "1/2-1/2", "2025-11-05")
    add_game(engine, "Player, Sixteen", "Player, Fourteen", "1-0", "2025-11-12")
    add_game(engine, "Player, Fourteen", "Player, Unrated", "1-0", "2025-11-19")
    close_period(engine, "2025-11")


def test_the_stored_sides_of_the_current_revision(engine: Engine) -> None:
    _seed(engine)
    with transaction(engine, write=False) as session:
        sides = current_sides(session, "2025-11")
        only_sixteen = current_sides(session, "2025-11", players={1})
    # D = 1600 - 1800 = -200 -> PD .24 (table 8.1.2: 198-206 -> .76 for the higher); a draw
    # is 1 half. D = 1600 - 1400 = +200 -> .76, a win 2 halves; Fourteen's side: -200 -> .24
    assert sides == {
        (1, 1): AuditSide(1, 2, 1600, 1800, -200, -200, 24, 1),
        (1, 2): AuditSide(1, 1, 1800, 1600, 200, 200, 76, 1),
        (2, 1): AuditSide(2, 3, 1600, 1400, 200, 200, 76, 2),
        (2, 3): AuditSide(2, 1, 1400, 1600, -200, -200, 24, 0)}
    assert only_sixteen == {(1, 1): sides[(1, 1)], (2, 1): sides[(2, 1)]}
    with transaction(engine, write=False) as session:
        assert current_sides(session, "2025-11", "blitz") == {}  # not closed in blitz


@pytest.mark.parametrize("named", [500, 0])  # players named in the query, or every row read
def test_which_games_were_rated(engine: Engine, monkeypatch: pytest.MonkeyPatch,
                                named: int) -> None:
    monkeypatch.setattr(period_audits, "_NAMED_PLAYERS", named)
    _seed(engine)
    with transaction(engine, write=False) as session:
        assert rated_games(session, [(1, "2025-11", "standard", 1, 2),
                                     (2, "2025-11", "standard", 1, 3),
                                     (3, "2025-11", "standard", 3, 4)]) == {1, 2}
        # the same ids in another pool or period: not rated there
        assert rated_games(session, [(1, "2025-11", "blitz", 1, 2),
                                     (2, "2025-12", "standard", 1, 3)]) == set()
        assert rated_games(session, []) == set()
    assert [(g.id, g.status) for g in list_games(engine, "2025-11")] == [
        (1, "rated"), (2, "rated"), (3, "not rated")]


def test_a_reopened_period_has_no_current_audit(engine: Engine) -> None:
    _seed(engine)
    reopen_period(engine, "2025-11", reason="a game is missing")
    with transaction(engine, write=False) as session:
        assert current_sides(session, "2025-11") == {}
        assert rated_games(session, [(1, "2025-11", "standard", 1, 2)]) == set()
    assert {g.status for g in list_games(engine, "2025-11")} == {"open"}


def test_db_check_compares_the_packed_audit_side_by_side(engine: Engine) -> None:
    _seed(engine)
    assert check_ledger(engine).ok
    # Sixteen's sides written by hand, game 1's PD .24 changed to .25 (0x18 -> 0x19): 1600 =
    # 0x640, 1800 = 0x708, 1400 = 0x578, -200 = 0xffffff38, 200 = 0xc8, 76 = 0x4c
    tampered = bytes.fromhex(
        "01000000" "02000000" "40060000" "08070000" "38ffffff" "38ffffff" "19000000" "01000000"
        "02000000" "03000000" "40060000" "78050000" "c8000000" "c8000000" "4c000000" "02000000")
    with engine.begin() as conn:
        conn.execute(text("UPDATE period_audits SET sides = :sides WHERE player_id = 1"),
                     {"sides": tampered})
    assert [(d.table, d.player_id, d.game_id, d.field, d.stored, d.recomputed)
            for d in check_ledger(engine).differences] == [
        ("period_audits", 1, 1, "expected_hundredths", 25, 24)]
    # bytes that are not whole sides (40 = 32 + 8): reported, not a crash
    with engine.begin() as conn:
        conn.execute(text("UPDATE period_audits SET sides = :sides WHERE player_id = 1"),
                     {"sides": tampered[:40]})
    assert [(d.table, d.player_id, d.game_id, d.field, d.stored, d.recomputed)
            for d in check_ledger(engine).differences] == [
        ("period_audits", 1, None, "row", "present", "absent"),
        ("period_audits", 1, 1, "row", "absent", "present"),
        ("period_audits", 1, 2, "row", "absent", "present")]
