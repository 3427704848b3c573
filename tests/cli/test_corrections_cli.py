"""Fixing games through the command line (docs/CORRECTIONS.md §5-§6): ``game void`` and ``game
correct`` change the fact in an open period; in a closed one they refuse unless told how the
correction takes effect: ``--in-next-period`` (the published list stands, each player's
difference is carried into the earliest open period before its one rounding) or ``--rerate``
(the closed period and every later one are re-rated, ``list --revision`` shows both). Every
correction writes one audit entry per change and none on a dry run or a refusal; ``db check``
passes after each. Expected values are worked by hand in the comments."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cli_runs import data, ok, ratings, run
from ledgers import sqlite_ledger

FORMATS = ("table", "csv", "json", "txt", "html")


def lists(db: Path, period: str, *extra: str) -> dict[str, str]:
    return {fmt: ok(db, "list", "--period", period, "--format", fmt, "--club", "Club",
                    *extra).stdout for fmt in FORMATS}


def changes(db: Path) -> list[tuple[str, str, str | None]]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT action, entity_id, reason FROM changes ORDER BY id").fetchall()
    con.close()
    return rows


def two_closed_periods(db: Path) -> None:
    """A 1800, B 1700, C 1800, all adults with 100 rated games: K 20.

    September 2026: game 1 A beats B, game 2 A draws B. A: v B D = +100 -> PD .64;
    (1 - .64) + (0.5 - .64) = 0.36 - 0.14 = 0.22; x 20 = 4.4 -> +4: 1804. B: D = -100 -> .36;
    (0 - .36) + (0.5 - .36) = -0.22; -4.4 -> -4: 1696.
    October: game 3 A draws B: D = 1804 - 1696 = 108 -> PD .65; A 0.5 - .65 = -0.15, x 20 = -3.0
    -> -3: 1801; B D = -108 -> .35, +0.15 x 20 = +3.0 -> +3: 1699. Both periods closed.
    """
    sqlite_ledger(db)
    for name, rating in (("Alpha, A", "1800"), ("Beta, B", "1700"), ("Gamma, C", "1800")):
        ok(db, "player", "add", name, "--rating", rating, "--prior-games", "100")
    ok(db, "game", "add", "Alpha, A", "Beta, B", "1-0", "--date", "2026-09-05")
    ok(db, "game", "add", "Alpha, A", "Beta, B", "1/2-1/2", "--date", "2026-09-12")
    ok(db, "game", "add", "Beta, B", "Alpha, A", "1/2-1/2", "--date", "2026-10-05")
    ok(db, "period", "close", "--through", "2026-10")
    assert ratings(db, "2026-09") == {"Gamma, C": 1800, "Alpha, A": 1804, "Beta, B": 1696}
    assert ratings(db, "2026-10") == {"Gamma, C": 1800, "Alpha, A": 1801, "Beta, B": 1699}


def test_a_void_in_a_closed_period_is_refused_without_a_mode(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    two_closed_periods(db)
    before = len(changes(db))
    refused = run(db, "game", "void", "2", "--reason", "never played")
    assert refused.exit_code == 1
    message = " ".join(refused.stderr.split())
    assert ("game 2 is in closed period 2026-09, whose list is published: say how the "
            "correction takes effect: --in-next-period") in message and "--rerate" in message
    assert run(db, "game", "void", "2").exit_code == 1  # no reason
    both = run(db, "game", "void", "2", "--reason", "x", "--in-next-period", "--rerate")
    assert both.exit_code == 2
    assert run(db, "game", "void", "99", "--reason", "x").exit_code == 1
    assert "game: 'two' is not a game id" in run(db, "game", "void", "two", "--reason",
                                                 "x").stderr
    assert len(changes(db)) == before


def test_void_in_next_period_carries_the_difference_and_the_lists_stand(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    two_closed_periods(db)
    published = {p: lists(db, p) for p in ("2026-09", "2026-10")}
    dry = data(db, "game", "void", "2", "--reason", "never played", "--in-next-period",
               "--dry-run")
    # September without game 2: A 1 - .64 = +0.36, x 20 = +7.20 where it gave +4.40: carried
    # +2.80 (280 hundredths); B 0 - .36 = -0.36, -7.20 where it gave -4.40: carried -280.
    expected = [("Alpha, A", "2026-09", 1, "2026-11", 280, 440, 720),
                ("Beta, B", "2026-09", 1, "2026-11", -280, -440, -720)]
    assert [(c["name"], c["origin_period"], c["origin_revision"], c["applies_in"],
             c["hundredths"], c["gave_hundredths"], c["gives_hundredths"])
            for c in dry["effect"]["carried"]] == expected
    assert dry["dry_run"] and dry["change"] is None
    assert data(db, "game", "list")["games"][1]["status"] == "rated"  # nothing written
    text = " ".join(ok(db, "game", "void", "2", "--reason", "never played",
                       "--in-next-period").stdout.replace("│", " ").split())
    assert "Carried into 2026-11, added before each player's one rounding" in text
    assert "Alpha, A 2026-09 rev 1 +4.40 +7.20 +2.80 +280" in text
    assert [g["status"] for g in data(db, "game", "list")["games"]] == ["rated", "void", "rated"]
    assert changes(db)[-1] == ("game.void", "2", "never played")
    # the published lists stand, byte for byte
    assert {p: lists(db, p) for p in ("2026-09", "2026-10")} == published
    assert ok(db, "db", "check").exit_code == 0
    # November: A (1801) beats C (1800): D = 1 -> PD .50; +0.50 x 20 = 10.00, + 2.80 carried =
    # 12.80 -> +13: 1814. C: -10.00 -> -10: 1790. B: no game, only the carried -2.80 -> -3:
    # 1699 - 3 = 1696 (a result row with 0 games).
    ok(db, "game", "add", "Alpha, A", "Gamma, C", "1-0", "--date", "2026-11-05")
    closed = data(db, "period", "close", "2026-11")
    got = {r["name"]: (r["games"], r["carried"], r["change_exact"], r["change"],
                       r["rating_after"]) for r in closed["results"]}
    assert got == {"Alpha, A": (1, 2.8, 12.8, 13, 1814), "Gamma, C": (1, 0, -10, -10, 1790),
                   "Beta, B": (0, -2.8, -2.8, -3, 1696)}
    beta = data(db, "history", "Beta, B")["periods"]
    assert [(p["period"], p["games"], p["carried"], p["change"]) for p in beta] == [
        ("2026-09", 2, 0, -4), ("2026-10", 1, 0, 3), ("2026-11", 0, -2.8, -3)]
    assert ok(db, "db", "check").exit_code == 0


def test_the_same_void_with_rerate_changes_every_later_list(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    two_closed_periods(db)
    report = data(db, "game", "void", "2", "--reason", "never played", "--rerate")
    # September without game 2: A +7.2 -> +7: 1807; B -7: 1693. October: A 1807 v B 1693 draw,
    # D = 114 -> PD .66: A 0.5 - .66 = -0.16, x 20 = -3.2 -> -3: 1804; B +3.2 -> +3: 1696.
    assert [(p["period"], p["old_revision"], p["new_revision"],
             sorted((c["name"], c["before"], c["after"]) for c in p["changes"]))
            for p in report["effect"]["rerated"]] == [
        ("2026-09", 1, 2, [("Alpha, A", 1804, 1807), ("Beta, B", 1696, 1693)]),
        ("2026-10", 1, 2, [("Alpha, A", 1801, 1804), ("Beta, B", 1699, 1696)])]
    assert ratings(db, "2026-09") == {"Alpha, A": 1807, "Gamma, C": 1800, "Beta, B": 1693}
    assert ratings(db, "2026-10") == {"Alpha, A": 1804, "Gamma, C": 1800, "Beta, B": 1696}
    # list --revision shows both lists
    assert ratings(db, "2026-10", "--revision", "1") == {"Gamma, C": 1800, "Alpha, A": 1801,
                                                         "Beta, B": 1699}
    assert ratings(db, "2026-10", "--revision", "2")["Alpha, A"] == 1804
    assert [a for a, _, _ in changes(db)[-3:]] == ["game.void", "period.rerate", "period.rerate"]
    assert ok(db, "db", "check").exit_code == 0


def test_correct_in_an_open_period_and_its_refusals(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    two_closed_periods(db)
    ok(db, "player", "add", "Delta, D", "--rating", "1800", "--prior-games", "100")
    for white, black, extra in (("Alpha, A", "Gamma, C", ("--event", "Club", "--round", "1")),
                                ("Beta, B", "Delta, D", ("--event", "Club", "--round", "1")),
                                ("Alpha, A", "Gamma, C", ()), ("Beta, B", "Gamma, C", ())):
        ok(db, "game", "add", white, black, "1-0", "--date",
           "2026-11-05" if extra else "2026-11-10", *extra)  # games 4, 5 (Club), 6, 7
    before = len(changes(db))
    for args, field in (
            (("4",), "result: nothing to correct"),
            (("4", "--result", "1-0"), "game: game 4 already has these values"),
            (("4", "--result", "2-0"), "result: '2-0' is not a result"),
            (("4", "--white", "Gamma, C"), "white: Gamma, C cannot play themselves"),
            (("4", "--date", "2026-11-30"), "date: 2026-11-30 is outside the dates of event "
                                             "'Club' (2026-11-05 to 2026-11-05)"),
            (("4", "--date", "2999-01-01"), "date: 2999-01-01 is in the future"),
            (("7", "--white", "Alpha, A"), "game: Alpha, A v Gamma, C (round -) is already "
                                           "recorded as game 6"),
            (("5", "--white", "Alpha, A"), "round: Alpha, A plays twice in round 1"),
            (("4", "--white", "Nobody"), "white: no player named 'Nobody'")):
        refused = run(db, "game", "correct", *args, "--reason", "typo")
        assert refused.exit_code == 1, args
        assert field in " ".join(refused.stderr.split()), (args, refused.stderr)
    assert len(changes(db)) == before
    fixed = data(db, "game", "correct", "4", "--result", "0-1", "--reason", "typed wrong")
    assert (fixed["before"]["result"], fixed["after"]["result"]) == ("1-0", "0-1")
    assert fixed["effect"] == {"mode": "open", "pool": "standard", "closed_periods": [],
                               "carried": [], "rerated": []}
    assert len(changes(db)) == before + 1
    assert changes(db)[-1] == ("game.correct", "4", "typed wrong")
    swapped = data(db, "game", "correct", "4", "--white", "Gamma, C", "--black", "Alpha, A",
                   "--result", "1-0", "--reason", "colours swapped")
    assert (swapped["after"]["white"], swapped["after"]["black"]) == ("Gamma, C", "Alpha, A")
    void = data(db, "game", "void", "5", "--reason", "never played", "--in-next-period")
    assert void["effect"]["mode"] == "open" and void["after"]["status"] == "void"
    again = run(db, "game", "void", "5", "--reason", "twice")
    assert again.exit_code == 1 and "game: game 5 is already void" in again.stderr
    corrected_void = run(db, "game", "correct", "5", "--result", "0-1", "--reason", "x")
    assert corrected_void.exit_code == 1 and "game: game 5 is void" in corrected_void.stderr
    # a void game is no longer a game: the same game can be recorded again
    ok(db, "game", "add", "Beta, B", "Delta, D", "0-1", "--date", "2026-11-05",
       "--event", "Club", "--round", "1")
    events = data(db, "event", "list")["events"]
    assert [(e["name"], e["games"], e["void"]) for e in events] == [("Club", 2, 1)]
    trf = ok(db, "export", "trf", "--event", "Club").stdout
    lines = [x for x in trf.splitlines() if x.startswith("001 ")]
    # four players, one game each: the void game is not exported (B's only game is game 8)
    assert len(lines) == 4
    beta = next(x for x in lines if "Beta, B" in x)
    assert beta[98] == "0"  # B lost game 8 (0-1); the void game 5 was a win
    assert ok(db, "db", "check").exit_code == 0


def test_a_correction_in_a_closed_period_in_next_period_and_by_rerating(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    two_closed_periods(db)
    # Game 1 was a draw, not a win: September gives A (0.5 - .64) x 2 = -0.28, x 20 = -5.60
    # where it gave +4.40: carried -10.00 (-1000); B +0.28 x 20 = +5.60 for -4.40: +1000.
    shown = data(db, "game", "correct", "1", "--result", "1/2-1/2", "--reason", "typed wrong",
                 "--in-next-period", "--dry-run")
    assert [(c["name"], c["hundredths"]) for c in shown["effect"]["carried"]] == [
        ("Alpha, A", -1000), ("Beta, B", 1000)]
    # a date moving it into another closed period: only --rerate can rate it there
    moved = run(db, "game", "correct", "1", "--date", "2026-10-20", "--reason", "wrong date",
                "--in-next-period")
    assert moved.exit_code == 1
    assert "date: 2026-10-20 would move game 1 from closed period 2026-09 into closed period " \
           "2026-10" in " ".join(moved.stderr.split())
    rerated = data(db, "game", "correct", "1", "--date", "2026-10-20", "--reason", "wrong date",
                   "--rerate")
    # September: only game 2, A draws B: -0.14 x 20 = -2.8 -> -3: 1797, B +3: 1703.
    # October: game 3 (draw) at 1797 v 1703, D = 94 -> PD .63: A -0.13; game 1 (A wins) at the
    # same ratings: +0.37; 0.24 x 20 = 4.8 -> +5: 1802. B: D -94 -> .37: +0.13 - 0.37 = -0.24,
    # -4.8 -> -5: 1698.
    assert rerated["after"]["period"] == "2026-10"
    assert ratings(db, "2026-09") == {"Gamma, C": 1800, "Alpha, A": 1797, "Beta, B": 1703}
    assert ratings(db, "2026-10") == {"Alpha, A": 1802, "Gamma, C": 1800, "Beta, B": 1698}
    assert ok(db, "db", "check").exit_code == 0


def test_each_correction_writes_one_change_and_a_dry_run_or_refusal_none(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    two_closed_periods(db)
    steps: list[tuple[tuple[str, ...], int, int]] = [
        # (arguments, exit code, changes it appends)
        (("game", "void", "2", "--reason", "r"), 1, 0),               # closed: no mode
        (("game", "void", "2", "--reason", "r", "--in-next-period", "--dry-run"), 0, 0),
        (("game", "void", "2", "--reason", "r", "--in-next-period"), 0, 1),
        (("game", "void", "2", "--reason", "r", "--in-next-period"), 1, 0),  # already void
        (("game", "correct", "1", "--result", "1/2-1/2", "--reason", "r", "--rerate",
          "--dry-run"), 0, 0),
        (("game", "correct", "1", "--result", "1/2-1/2", "--reason", "r", "--rerate"), 0, 3),
        # one correction, then one re-rating per closed period (2026-09, 2026-10)
        (("game", "add", "Alpha, A", "Gamma, C", "1-0", "--date", "2026-10-20"), 0, 1),  # late
        (("game", "add", "Beta, B", "Gamma, C", "1-0", "--date", "2026-10-21", "--rerate",
          "--reason", "r", "--dry-run"), 0, 0),
        (("game", "add", "Beta, B", "Gamma, C", "1-0", "--date", "2026-10-21", "--rerate",
          "--reason", "r"), 0, 2),                                    # the game, 2026-10
        (("game", "correct", "4", "--result", "0-1"), 1, 0),          # no reason
        (("game", "correct", "4", "--result", "0-1", "--reason", "r"), 0, 1),  # open: late game
    ]
    for args, code, appended in steps:
        before = len(changes(db))
        result = run(db, *args)
        assert result.exit_code == code, (args, result.output)
        assert len(changes(db)) - before == appended, args
        assert ok(db, "db", "check").exit_code == 0, args
