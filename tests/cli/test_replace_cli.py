"""``ledger import FILE --replace`` (docs/CORRECTIONS.md §7): a corrected TRF of an event
already imported is shown game by game (one result changed, one game added, one removed) and
applied: in an open period directly; in a closed period refused without a mode, then applied
with ``--in-next-period`` (carried corrections worked by hand in the comments)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cli_runs import data, ok, run
from ledgers import sqlite_ledger

#: The four players: (start rank, name, rating, FIDE id); all adults with 100 rated games: K 20.
PLAYERS = ((1, "Player, A", 1800, 90000001), (2, "Player, B", 1900, 90000002),
           (3, "Player, C", 1700, 90000003), (4, "Player, D", 2000, 90000004))

#: Each player's three round cells (opponent start rank, colour, result; None: no game).
Rounds = dict[int, list[tuple[int, str, str] | None]]

#: As first sent: R1 A-B 1-0, C-D draw; R2 A-C 1-0, B-D 0-1; R3 no games.
FIRST: Rounds = {1: [(2, "w", "1"), (3, "w", "1"), None],
                 2: [(1, "b", "0"), (4, "w", "0"), None],
                 3: [(4, "w", "="), (1, "b", "0"), None],
                 4: [(3, "b", "="), (2, "b", "1"), None]}
#: As corrected: R1 A-B a draw (changed); R2 A-C never played (removed); R3 B-C 0-1 (added).
CORRECTED: Rounds = {1: [(2, "w", "="), None, None],
                     2: [(1, "b", "="), (4, "w", "0"), (3, "w", "0")],
                     3: [(4, "w", "="), None, (2, "b", "1")],
                     4: [(3, "b", "="), (2, "b", "1"), None]}


def trf(rounds: Rounds, month: str) -> str:
    """The TRF-16 file of the Autumn Cup (3-10 of ``month``), columns as the standard says."""
    lines = ["012 Autumn Cup", f"042 2026/{month}/03", f"052 2026/{month}/10", "XXR 3"]
    for rank, name, rating, fide in PLAYERS:
        cells = "".join(f"  {o:>4} {c} {r}" if cell else "  0000 - Z"
                        for cell in rounds[rank] for o, c, r in [cell or (0, "", "")])
        points = sum({"1": 1.0, "=": 0.5, "0": 0.0}[cell[2]] for cell in rounds[rank] if cell)
        lines.append(f"001 {rank:>4} m    {name:<33} {rating:>4} XXX {fide:>11} 1990/01/01 "
                     f"{points:>4.1f} {rank:>4}{cells}")
    return "\n".join(lines) + "\n"


def count_changes(db: Path) -> int:
    with sqlite3.connect(db) as con:
        found = con.execute("SELECT count(*) FROM changes").fetchone()[0]
    con.close()
    return int(found)


def imported(tmp_path: Path, month: str) -> tuple[Path, Path]:
    db = tmp_path / "ledger.db"
    sqlite_ledger(db)
    for _, name, rating, fide in PLAYERS:
        ok(db, "player", "add", name, "--rating", str(rating), "--prior-games", "100",
           "--fide-id", str(fide))
    first = tmp_path / "cup.trf"
    first.write_text(trf(FIRST, month), encoding="utf-8")
    assert data(db, "import", str(first))["recorded"] == 4
    corrected = tmp_path / "cup-corrected.trf"
    corrected.write_text(trf(CORRECTED, month), encoding="utf-8")
    return db, corrected


def difference(report: dict) -> dict[str, list[tuple[str, str, str, str]]]:  # type: ignore[type-arg]
    def four(g: dict) -> tuple[str, str, str, str]:  # type: ignore[type-arg]
        return (g["round"], g["white"], g["black"], g["result"])
    return {"added": [four(g) for g in report["added"]],
            "removed": [four(g) for g in report["removed"]],
            "changed": [four(c["before"]) + (c["after"]["result"],)  # type: ignore[misc]
                        for c in report["changed"]]}


def test_a_corrected_file_in_an_open_period(tmp_path: Path) -> None:
    db, corrected = imported(tmp_path, "11")
    refused = run(db, "import", str(corrected), "--replace")
    assert refused.exit_code == 1 and "reason: say why" in refused.stderr
    dry = data(db, "import", str(corrected), "--replace", "--reason", "arbiter's correction",
               "--dry-run")
    assert (dry["event"]["name"], dry["event"]["period"]) == ("Autumn Cup", "2026-11")
    assert difference(dry) == {"added": [("3", "Player, B", "Player, C", "0-1")],
                               "removed": [("2", "Player, A", "Player, C", "1-0")],
                               "changed": [("1", "Player, A", "Player, B", "1-0", "1/2-1/2")]}
    assert dry["unchanged"] == 2 and dry["effect"]["mode"] == "open"
    before = count_changes(db)
    assert len(data(db, "game", "list")["games"]) == 4  # the dry run wrote nothing
    text = " ".join(ok(db, "import", str(corrected), "--replace", "--reason",
                       "arbiter's correction").stdout.replace("│", " ").split())
    assert ("is a corrected file of event #1 Autumn Cup (2026-11-03 to 2026-11-10, period "
            "2026-11): 1 game added, 1 removed, 1 changed, 2 unchanged") in text
    assert "changed #1 5 1 2026-11-10 Player, A Player, B 1-0 -> 1/2-1/2" in text
    # one import.replace change (the file, the game it adds), one per game changed or removed
    assert count_changes(db) - before == 3
    games = data(db, "game", "list")["games"]
    assert sorted((g["round"], g["white"], g["black"], g["result"], g["status"])
                  for g in games) == [
        ("1", "Player, A", "Player, B", "1/2-1/2", "open"),
        ("1", "Player, C", "Player, D", "1/2-1/2", "open"),
        ("2", "Player, A", "Player, C", "1-0", "void"),
        ("2", "Player, B", "Player, D", "0-1", "open"),
        ("3", "Player, B", "Player, C", "0-1", "open")]
    again = data(db, "import", str(corrected), "--replace", "--reason", "again")
    assert again["already_imported"] is True
    assert count_changes(db) - before == 3
    assert ok(db, "db", "check").exit_code == 0


def test_a_corrected_file_in_a_closed_period_in_next_period(tmp_path: Path) -> None:
    db, corrected = imported(tmp_path, "10")
    closed = data(db, "period", "close", "2026-10")
    # As first sent, October: A v B (D -100, PD .36) +0.64 and v C (D +100, .64) +0.36: 1.00 x
    # 20 = +20: 1820. B: -0.64 and v D (D -100, .36) -0.36: -20: 1880. C: v D (D -300, band
    # 291-302 .85, C .15) 0.5 - .15 = +0.35 and v A (.36) -0.36: -0.01 x 20 = -0.2 -> 0: 1700.
    # D: -0.35 and v B (D +100, .64) +0.36: +0.2 -> 0: 2000.
    assert {r["name"]: r["rating_after"] for r in closed["results"]} == {
        "Player, A": 1820, "Player, B": 1880, "Player, C": 1700, "Player, D": 2000}
    published = ok(db, "list", "--period", "2026-10", "--format", "txt").stdout
    before = count_changes(db)
    refused = run(db, "import", str(corrected), "--replace", "--reason", "arbiter's correction")
    assert refused.exit_code == 1
    assert ("event 'Autumn Cup' is in closed period 2026-10, whose list is published: say how "
            "the correction takes effect") in " ".join(refused.stderr.split())
    assert count_changes(db) == before
    report = data(db, "import", str(corrected), "--replace", "--reason", "arbiter's correction",
                   "--in-next-period")
    assert report["late"] == 1  # the added game: dated in closed October, rated in November
    # Carried, one correction after the other, each with today's facts before and after it:
    # A-B a draw: A (0.5 - .36) + 0.36 = 0.50, x 20 = 10.00 where it gave 20.00: -1000;
    #             B (0.5 - .64) - 0.36 = -0.50, -10.00 where it gave -20.00: +1000.
    # A-C void:   A +0.14 x 20 = 2.80 where it gave 10.00: -720; C +0.35 x 20 = 7.00 where it
    #             gave -0.20: +720. D's change is the same: nothing carried.
    assert [(c["name"], c["hundredths"], c["gave_hundredths"], c["gives_hundredths"])
            for c in report["effect"]["carried"]] == [
        ("Player, A", -1000, 2000, 1000), ("Player, B", 1000, -2000, -1000),
        ("Player, A", -720, 1000, 280), ("Player, C", 720, -20, 700)]
    assert {c["applies_in"] for c in report["effect"]["carried"]} == {"2026-11"}
    assert ok(db, "list", "--period", "2026-10", "--format", "txt").stdout == published
    assert count_changes(db) - before == 3
    assert ok(db, "db", "check").exit_code == 0
    # November: the late game B-C (C wins), rated with the ratings at the event's start (the
    # October list in force: B 1900, C 1700): B D +200 -> PD .76, 0 - .76 = -0.76, x 20 =
    # -15.20, + 10.00 carried = -5.20 -> -5: 1880 - 5 = 1875. C D -200 -> .24, +0.76 x 20 =
    # +15.20, + 7.20 = 22.40 -> +22: 1722. A: only the carried -17.20 -> -17: 1803 (0 games).
    november = data(db, "period", "close", "2026-11")
    assert {r["name"]: (r["games"], r["carried"], r["change"], r["rating_after"])
            for r in november["results"]} == {"Player, B": (1, 10, -5, 1875),
                                              "Player, C": (1, 7.2, 22, 1722),
                                              "Player, A": (0, -17.2, -17, 1803)}
    assert ok(db, "db", "check").exit_code == 0


def test_a_file_that_is_not_of_a_recorded_event_is_rejected(tmp_path: Path) -> None:
    db, corrected = imported(tmp_path, "11")
    other = tmp_path / "other.trf"
    other.write_text(trf(CORRECTED, "11").replace("Autumn Cup", "Winter Cup"), encoding="utf-8")
    rejected = run(db, "import", str(other), "--replace", "--reason", "x")
    assert rejected.exit_code == 3
    assert "no recorded event 'Winter Cup'" in rejected.stderr
    assert len(data(db, "game", "list")["games"]) == 4


def _documented(mode: str) -> list[str]:
    """The arguments after ``ledger`` of docs/correcting.md's ``--replace`` command with
    ``mode`` and ``--dry-run``, for a closed period (item 5)."""
    import re
    import shlex

    from data_files import ROOT

    text = " ".join((ROOT / "docs" / "correcting.md").read_text(encoding="utf-8").split())
    found = [c for c in re.findall(r"`(ledger import [^`]*)`", text)
             if "--replace" in c and mode in c and "--dry-run" in c]
    assert len(found) == 1, found
    return shlex.split(found[0])[1:]


def test_the_documented_dry_run_of_a_closed_period_runs(tmp_path: Path) -> None:
    # docs/correcting.md item 5, as written, on an event of closed October: refused without a
    # mode, shown with the mode the docs give, nothing written either way
    db, corrected = imported(tmp_path, "10")
    data(db, "period", "close", "2026-10")
    before = count_changes(db)
    args = [str(corrected) if a == "fixed.trf" else a for a in _documented("--in-next-period")]
    assert args[-2:] == ["--in-next-period", "--dry-run"]
    shown = data(db, *args)
    # as the test above: A-B changed to a draw, A-C removed, B-C added
    assert (len(shown["changed"]), len(shown["removed"]), len(shown["added"])) == (1, 1, 1)
    assert run(db, *[a for a in args if a != "--in-next-period"]).exit_code == 1
    assert count_changes(db) == before
