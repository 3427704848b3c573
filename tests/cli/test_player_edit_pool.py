"""``player edit --pool``: the K history of one rating pool (docs/RULES.md §9: each pool keeps its
own rated-games count and reached-2400), counted from that pool's earliest open period, the
other pools' untouched. Every expected value is worked by hand in its comment.

The ledger of every test: 2026-10 closed in standard and blitz. Ann: standard 2000 with 100
games (K 20), blitz 2000 with 10 games (K 40: fewer than 30 rated games). Bob: the same.
October: Ann beats Bob in standard and in blitz (D 0 -> PD .50):
standard 20 x .50 = +10 -> Ann 2010, Bob 1990; blitz 40 x .50 = +20 -> Ann 2020, Bob 1980.
"""

from __future__ import annotations

from pathlib import Path

from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger

ANN, BOB = "Ash, Ann", "Birch, Bob"


def closed_october(tmp_path: Path) -> Path:
    db = tmp_path / "edit.db"
    sqlite_ledger(db)
    for name in (ANN, BOB):
        ok(db, "player", "add", name, "--rating", "2000", "--prior-games", "100", "--birth-year",
           "1980", "--blitz-rating", "2000", "--blitz-games", "10")
    ok(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-10-10")
    ok(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-10-14", "--pool", "blitz")
    ok(db, "period", "close", "2026-10")
    assert ratings(db, "2026-10") == {ANN: 2010, BOB: 1990}
    assert ratings(db, "2026-10", "--pool", "blitz") == {ANN: 2020, BOB: 1980}
    return db


def test_prior_games_in_blitz_change_the_blitz_k_only(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    # 11 blitz games (10 + 1): K 40 in blitz; standard K 20
    assert data(db, "player", "show", ANN, "--pool", "blitz", "--json")["k"] == 40
    edited = data(db, "player", "edit", ANN, "--prior-games", "40", "--pool", "blitz",
                  "--reason", "her blitz games abroad", "--json")
    assert edited["pool"] == "blitz" and edited["k_from"] == "2026-11"
    assert edited["changed"] == {"prior_games": {"before": 10, "after": 40}}
    # 40 + 1 blitz games: K 20 from November; standard stays K 20 with its 100 + 1 games
    assert data(db, "player", "show", ANN, "--pool", "blitz", "--json")["k"] == 20
    assert data(db, "player", "show", ANN, "--json")["k"] == 20
    # November: Bob beats Ann in both pools.
    # blitz: Ann 2020 v Bob 1980, D 40 -> PD .56 (band 40-46), 0 - .56 = -.56: K 20 (edited)
    # x -.56 = -11.2 -> -11 -> 2009 (with K 40 it would be -22.4 -> -22 -> 1998); Bob K 40
    # x (1 - .44) = +22.4 -> +22 -> 2002.
    # standard: Ann 2010 v Bob 1990, D 20 -> PD .53 (band 18-25), 20 x -.53 = -10.6 -> -11 ->
    # 1999; Bob 20 x (1 - .47) = +10.6 -> +11 -> 2001.
    ok(db, "game", "add", BOB, ANN, "1-0", "--date", "2026-11-10")
    ok(db, "game", "add", BOB, ANN, "1-0", "--date", "2026-11-14", "--pool", "blitz")
    ok(db, "period", "close", "2026-11")
    assert ratings(db, "2026-11", "--pool", "blitz") == {ANN: 2009, BOB: 2002}
    assert ratings(db, "2026-11") == {ANN: 1999, BOB: 2001}
    # the October blitz list as published: K 40 for both
    assert ratings(db, "2026-10", "--pool", "blitz") == {ANN: 2020, BOB: 1980}


def test_reached_2400_in_one_pool_gives_k_10_there_only(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    ok(db, "player", "edit", BOB, "--reached-2400", "--pool", "blitz", "--reason",
       "his blitz rating was 2412 on FIDE's 2019 list")
    assert data(db, "player", "show", BOB, "--pool", "blitz", "--json")["k"] == 10
    assert data(db, "player", "show", BOB, "--json")["k"] == 20


def test_a_pool_without_a_k_fact_is_refused(tmp_path: Path) -> None:
    db = closed_october(tmp_path)
    done = run(db, "player", "edit", ANN, "--federation", "IRL", "--pool", "blitz",
               "--reason", "moved")
    assert done.exit_code == 1
    assert "pool: --pool blitz names the pool whose K history" in done.stderr
    # nothing written: the federation is as it was
    assert data(db, "player", "show", ANN, "--json")["federation"] is None
