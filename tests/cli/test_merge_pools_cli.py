"""``player merge`` in every rating pool (issue 21 §5, §6; docs/CORRECTIONS.md §10): a rapid or
blitz rating, games count and K history only the duplicate brought are carried to the player
kept; histories that contradict in any pool are refused as in standard; with ``--rerate`` two
records both rated in one period become one player, the kept history standing and every list
that published the duplicate re-rated (the dry run lists them all). Every expected value is
worked by hand in its comment (table 8.1.2; K 20: adults below 2400 with 30 or more games)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger

ANN, DUP, BOB, CY = "Ash, Ann", "Ash, A.", "Birch, Bob", "Cedar, Cy"


def changes(db: Path) -> int:
    with sqlite3.connect(db) as con:
        found = int(con.execute("SELECT count(*) FROM changes").fetchone()[0])
    con.close()
    return found


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_rapid_rating_only_the_duplicate_brought_is_carried(tmp_path: Path) -> None:
    """Ann #1 brings standard 1900 (50 games); 'Ash, A.' #2 was registered from the rapid
    list: rapid 1700 with 40 rapid games, unrated in standard. Merged into #1, Ann is rated
    1700 in rapid with 40 games (before: unrated there, the rapid rating dropped)."""
    db = tmp_path / "merge.db"
    sqlite_ledger(db)
    ok(db, "player", "add", ANN, "--rating", "1900", "--prior-games", "50")
    ok(db, "player", "add", DUP, "--rapid-rating", "1700", "--rapid-games", "40")
    ok(db, "player", "add", BOB, "--rapid-rating", "1700", "--rapid-games", "40")
    merged = data(db, "player", "merge", ANN, DUP, "--reason", "registered twice")
    assert merged["entries_carried"] == {"rapid": 1}
    assert merged["contradicting_pools"] == []
    rapid = data(db, "player", "show", ANN, "--pool", "rapid")
    assert (rapid["rating"], rapid["rated_games"], rapid["k"]) == (1700, 40, 20)
    assert data(db, "player", "show", ANN)["rating"] == 1900  # standard: KEEP's stands
    # a rapid game after the merge is rated for Ann: 1700 v 1700, D 0 -> PD .50, a win
    # 20 x .50 = +10.00: 1710; Bob -10: 1690
    ok(db, "game", "add", ANN, BOB, "1-0", "--date", "2026-11-14", "--pool", "rapid")
    ok(db, "period", "close", "2026-11", "--pool", "rapid")
    assert ratings(db, "2026-11", "--pool", "rapid") == {ANN: 1710, BOB: 1690}
    ok(db, "db", "check")


def registered_twice(tmp_path: Path, pool: str, ann: tuple[str, str],
                     dup: tuple[str, str]) -> Path:
    """Ann #1 and 'Ash, A.' #2, both standard 1800, each with (rating, games) in ``pool``."""
    db = tmp_path / "merge.db"
    sqlite_ledger(db)
    for name, (rating, games) in ((ANN, ann), (DUP, dup)):
        ok(db, "player", "add", name, "--rating", "1800", "--prior-games", "0", f"--{pool}-rating", rating,
           f"--{pool}-games", games)
    return db


def test_contradicting_ratings_in_a_blitz_pool_are_refused(tmp_path: Path) -> None:
    """Both bring standard 1800; in blitz Ann brings 1750 and #2 1650: one player cannot
    have two published blitz ratings, so the merge is refused as a standard contradiction
    is, and nothing is written."""
    db = registered_twice(tmp_path, "blitz", ("1750", "40"), ("1650", "40"))
    before = changes(db)
    refused = run(db, "player", "merge", ANN, DUP, "--reason", "registered twice")
    assert refused.exit_code == 1
    assert ("duplicate: the histories contradict in the blitz pool: for 2022-01 Ash, Ann (#1) "
            "is rated 1750 and Ash, A. (#2) rated 1650") in flat(refused.stderr)
    assert changes(db) == before
    assert data(db, "player", "show", DUP)["name"] == DUP  # not merged


def test_a_different_k_history_of_the_duplicate_is_named(tmp_path: Path) -> None:
    """Both bring rapid 1700; Ann with 10 rapid games, #2 with 40: Ann's entries stand, and
    the note names the duplicate's 40 games and the edit that takes them (the count decides K:
    fewer than 30 games K 40, else 20)."""
    db = registered_twice(tmp_path, "rapid", ("1700", "10"), ("1700", "40"))
    merged = run(db, "player", "merge", ANN, DUP, "--reason", "registered twice")
    assert merged.exit_code == 0
    assert ("Ash, A. (#2) brought another K history in the rapid pool: prior games 40 (kept: "
            "10); Ash, Ann's stands (if the duplicate's is right: ledger player edit #1 "
            "--prior-games N --pool rapid --reason ...)") in flat(merged.stderr)


def two_rated_records(db: Path) -> None:
    """Ann #1 brings 1800, 'Ash, A.' #2 1750, Bob 1700, Cy 1800 (all 50 games, K 20).
    2026-09: Bob draws Cy: D -100 -> PD .36; Bob 20 x (.50 - .36) = +2.80 -> +3: 1703; Cy
    20 x (.50 - .64) = -2.80 -> -3: 1797; Ann 1800 and #2 1750 are on the list without games.
    2026-10: #2 1750 beats Bob 1703: D 47 -> PD .57 (47-53); 20 x .43 = +8.60 -> +9: 1759;
    Bob -8.60 -> -9: 1694."""
    sqlite_ledger(db)
    for name, rating in ((ANN, "1800"), (DUP, "1750"), (BOB, "1700"), (CY, "1800")):
        ok(db, "player", "add", name, "--rating", rating, "--prior-games", "50")
    ok(db, "game", "add", BOB, CY, "1/2-1/2", "--date", "2026-09-12")
    ok(db, "period", "close", "2026-09")
    ok(db, "game", "add", DUP, BOB, "1-0", "--date", "2026-10-12")
    ok(db, "period", "close", "2026-10")
    assert ratings(db, "2026-09") == {ANN: 1800, DUP: 1750, BOB: 1703, CY: 1797}
    assert ratings(db, "2026-10") == {ANN: 1800, DUP: 1759, BOB: 1694, CY: 1797}


def test_contradicting_records_merge_with_rerate_the_kept_history_standing(
        tmp_path: Path) -> None:
    db = tmp_path / "merge.db"
    two_rated_records(db)
    refused = run(db, "player", "merge", ANN, DUP, "--reason", "one person")
    assert refused.exit_code == 1
    assert ("the histories contradict: for 2022-01 Ash, Ann (#1) is rated 1800 and Ash, A. (#2) "
            "rated 1750" in flat(refused.stderr)) and "merge with --rerate" in flat(
        refused.stderr)
    before = changes(db)
    # Re-rated from 2026-09, the first list showing #2: 2026-09 loses #2 (1750); 2026-10: game
    # 2 is Ann 1800 v Bob 1703: D 97 -> PD .63 (92-98); Ann 20 x .37 = +7.40 -> +7: 1807; Bob
    # 20 x -.37 = -7.40 -> -7: 1696; #2 (1759) off the list.
    dry = data(db, "player", "merge", ANN, DUP, "--reason", "one person", "--rerate",
               "--dry-run")
    assert dry["contradicting_pools"] == ["standard"]
    assert dry["entries_carried"] == {}
    assert [(p["pool"], p["period"], p["old_revision"], p["new_revision"],
             [(c["name"], c["before"], c["after"]) for c in p["changes"]])
            for p in dry["rerated"]] == [
        ("standard", "2026-09", 1, 2, [(DUP, 1750, None)]),
        ("standard", "2026-10", 1, 2, [(DUP, 1759, None), (ANN, 1800, 1807), (BOB, 1694, 1696)])]
    text = flat(ok(db, "player", "merge", ANN, DUP, "--reason", "one person", "--rerate",
                   "--dry-run").stdout)
    assert "standard: the histories contradict; Ash, Ann's stands" in text
    assert "2026-09: revision 1 -> 2 (1 rating change)" in text
    assert "2026-10: revision 1 -> 2 (3 ratings change)" in text
    assert changes(db) == before  # the dry run wrote nothing
    merged = data(db, "player", "merge", ANN, DUP, "--reason", "one person", "--rerate")
    assert changes(db) == before + 3  # the merge and two re-ratings
    assert merged["rerated"] == dry["rerated"]
    assert ratings(db, "2026-09") == {ANN: 1800, BOB: 1703, CY: 1797}
    assert ratings(db, "2026-10") == {ANN: 1807, BOB: 1696, CY: 1797}
    # the published lists stay readable as revision 1, the duplicate on them
    assert ratings(db, "2026-10", "--revision", "1")[DUP] == 1759
    history = data(db, "history", ANN)["periods"]
    assert [(p["period"], p["rating_before"], p["games"], p["change"], p["rating_after"])
            for p in history] == [("2026-10", 1800, 1, 7, 1807)]
    ok(db, "db", "check")


def test_a_rapid_rating_corrected_by_fide_is_carried_with_the_correction(
        tmp_path: Path) -> None:
    """#2 'Ash, A.' (rapid 1700, 40 games) draws Bob (rapid 1700) in October: D 0, PD .50,
    +0.00: 1700 on the rapid list of 2026-10; FIDE corrects it to 1720. Ann #1 (standard
    only) keeps: both rapid entries are carried, the correction's 1720 in force from 2026-11,
    and Ann's rapid history reads without the merge passing for an official correction."""
    db = tmp_path / "merge.db"
    sqlite_ledger(db)
    ok(db, "player", "add", ANN, "--rating", "1900", "--prior-games", "50")
    ok(db, "player", "add", DUP, "--rapid-rating", "1700", "--rapid-games", "40")
    ok(db, "player", "add", BOB, "--rapid-rating", "1700", "--rapid-games", "40")
    ok(db, "game", "add", DUP, BOB, "1/2-1/2", "--date", "2026-10-14", "--pool", "rapid")
    ok(db, "period", "close", "2026-10", "--pool", "rapid")
    ok(db, "player", "correct-rating", DUP, "--rating", "1720", "--period", "2026-10",
       "--pool", "rapid", "--reason", "FIDE's correction")
    merged = data(db, "player", "merge", ANN, DUP, "--reason", "registered twice")
    assert merged["entries_carried"] == {"rapid": 2}
    assert data(db, "player", "show", ANN, "--pool", "rapid")["rating"] == 1720
    history = data(db, "history", ANN, "--pool", "rapid")
    assert [p["note"] for p in history["periods"]] == []  # #2's rows stay #2's until re-rated
    ok(db, "db", "check")


def test_an_unknown_count_of_prior_games_is_named_unknown(tmp_path: Path) -> None:
    """Ann registered with 200 prior games, #2 with a rating and no count: the note says
    ``unknown``, never ``None``."""
    db = tmp_path / "merge.db"
    sqlite_ledger(db)
    ok(db, "player", "add", ANN, "--rating", "1800", "--prior-games", "200")
    ok(db, "player", "add", "Opp, O")
    # an import registers #3 with the file's rating, its earlier games unknown
    pgn = tmp_path / "club.pgn"
    pgn.write_text('[Event "Club"]\n[Date "2022.01.10"]\n[Round "1"]\n[White "Ash, A."]\n'
                   '[Black "Opp, O"]\n[WhiteElo "1800"]\n[Result "1-0"]\n\n1-0\n')
    ok(db, "import", str(pgn), "--register-players")
    merged = run(db, "player", "merge", ANN, DUP, "--reason", "registered twice")
    assert merged.exit_code == 0, merged.output
    assert "prior games unknown (kept: 200)" in flat(merged.stdout + merged.stderr)
    assert "None" not in merged.stdout + merged.stderr
