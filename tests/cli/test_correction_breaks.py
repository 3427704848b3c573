"""A rating officer's awkward input to the correction commands (docs/CORRECTIONS.md §5-§10):
each finding is refused in the ledger's words (exit 1, the field named, nothing written) or
gives the right values, worked by hand in the comments."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cli_runs import data, ok, run
from ledgers import sqlite_ledger


def dump(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        lines = list(con.iterdump())
    con.close()
    return lines


def one_closed_period(db: Path) -> None:
    """A 1800 and B 1700, adults with 100 rated games: K 20. September 2026: A beats B.
    A: D = +100 -> PD .64; 20 x (1 - .64) = +7.2 -> +7: 1807. B: 20 x (0 - .36) = -7.2 -> -7:
    1693. Closed (revision 1)."""
    sqlite_ledger(db)
    ok(db, "player", "add", "Alpha, A", "--rating", "1800", "--prior-games", "100")
    ok(db, "player", "add", "Beta, B", "--rating", "1700", "--prior-games", "100")
    ok(db, "game", "add", "Alpha, A", "Beta, B", "1-0", "--date", "2026-09-05")
    ok(db, "period", "close", "2026-09")
    listed = {p["name"]: p["rating"] for p in data(db, "list", "--period", "2026-09")["players"]}
    assert listed == {"Alpha, A": 1807, "Beta, B": 1693}


def test_a_huge_revision_number_is_refused_naming_the_field(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    one_closed_period(db)
    before = dump(db)
    for huge in ("99999999999999999999999", "9223372036854775808"):
        refused = run(db, "list", "--period", "2026-09", "--revision", huge)
        assert refused.exit_code == 1, refused.output
        assert refused.exception is None or isinstance(refused.exception, SystemExit)
        assert f"revision: period 2026-09 has no revision {huge} (it has revision(s) 1)" in \
            " ".join(refused.stderr.split())
    assert dump(db) == before


def test_the_player_kept_takes_back_the_name_of_the_duplicate_merged_into_them(
        tmp_path: Path) -> None:
    """#3 'Gamma, C.' and #4 'Gamma, Cathal' are one person; merged into #3, the officer gives
    #3 the full name #4 had. #4 is found no more, so the name is #3's: no 'already the name of'
    refusal (and no raw uniqueness error), and the name then finds #3. A fifth player asking
    for that name is refused, pointing at the live identity #3, not at #4 (a merge naming #4
    would be refused: it was merged)."""
    db = tmp_path / "ledger.db"
    one_closed_period(db)
    ok(db, "player", "add", "Gamma, C.")
    ok(db, "player", "add", "Gamma, Cathal")
    ok(db, "player", "add", "Delta, D")
    ok(db, "game", "add", "Gamma, Cathal", "Alpha, A", "1-0", "--date", "2026-10-03")
    ok(db, "player", "merge", "#3", "#4", "--reason", "registered twice")
    published = ok(db, "list", "--period", "2026-09", "--format", "csv").stdout

    edited = data(db, "player", "edit", "#3", "--name", "Gamma, Cathal", "--reason",
                  "the name in full")
    assert edited["player"]["id"] == 3 and edited["player"]["name"] == "Gamma, Cathal"
    assert data(db, "player", "show", "Gamma, Cathal")["id"] == 3
    game = data(db, "game", "list", "--player", "Gamma, Cathal")["games"][0]
    assert (game["white"], game["black"]) == ("Gamma, Cathal", "Alpha, A")

    before = dump(db)
    refused = run(db, "player", "edit", "Delta, D", "--name", "Gamma, Cathal", "--reason", "x")
    assert refused.exit_code == 1
    message = " ".join(refused.stderr.split())
    assert message.startswith("error: name: 'Gamma, Cathal' is already the name of")
    assert "if they are one person, ledger player merge #3 #5" in message
    assert dump(db) == before
    assert ok(db, "list", "--period", "2026-09", "--format", "csv").stdout == published
    ok(db, "db", "check")


def test_a_reason_with_an_escape_or_an_invisible_character_is_refused(tmp_path: Path) -> None:
    """The reason goes into the audit log, printed on the officer's terminal by ``ledger audit``:
    an escape sequence (``ESC [31m`` turns the rest red, or worse), a line break or a
    direction override would print there as it is. It is refused as a name with one is
    (exit 1, ``reason:`` named, nothing written), by every correction."""
    db = tmp_path / "ledger.db"
    one_closed_period(db)
    ok(db, "game", "add", "Alpha, A", "Beta, B", "0-1", "--date", "2026-10-05")
    before = dump(db)
    for reason, what in (("scoresheet \x1b[31m", "a control character (U+001B)"),
                         ("line one\nline two", "a control character (U+000A)"),
                         ("not \u202eplayed", "a format character (U+202E RIGHT-TO-LEFT OVERRIDE)")):
        for command in (("game", "void", "2"), ("game", "correct", "2", "--result", "1-0"),
                        ("game", "void", "1", "--in-next-period"),
                        ("player", "edit", "Beta, B", "--birth-year", "2000"),
                        ("period", "reopen", "2026-09"),
                        ("period", "rerate", "--from", "2026-09", "--yes"),
                        ("game", "add", "Alpha, A", "Beta, B", "1-0", "--date", "2026-09-20",
                         "--rerate")):
            refused = run(db, *command, "--reason", reason)
            assert refused.exit_code == 1, (command, refused.output)
            assert refused.stderr.startswith(f"error: reason: holds {what}"), refused.stderr
    assert dump(db) == before
    ok(db, "game", "void", "2", "--reason", "not played: a bye")  # a plain one still does


def audit_reasons(db: Path, action: str) -> list[str | None]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT reason FROM changes WHERE action = ? ORDER BY id",
                           (action,)).fetchall()
    con.close()
    return [r for (r,) in rows]


def test_a_late_game_keeps_the_reason_given_without_rerate(tmp_path: Path) -> None:
    """``game add`` of a late result with ``--reason`` but no ``--rerate`` (the published list
    stands, the game is rated in the earliest open period): the reason the officer typed is the
    audit log's (optional for a game add, but recorded when given), not dropped; a blank or
    an escape is refused as for any reason. The game goes into 2026-10, dated 2026-09."""
    db = tmp_path / "ledger.db"
    one_closed_period(db)
    before = dump(db)
    for bad in (" ", "late \x1b[2J"):
        refused = run(db, "game", "add", "Beta, B", "Alpha, A", "1-0", "--date", "2026-09-20",
                      "--reason", bad)
        assert refused.exit_code == 1 and refused.stderr.startswith("error: reason: ")
    assert dump(db) == before
    game = data(db, "game", "add", "Beta, B", "Alpha, A", "1-0", "--date", "2026-09-20",
                "--reason", "scoresheet handed in late")["games"][0]
    assert (game["period"], game["late"], game["dated_in"]) == ("2026-10", True, "2026-09")
    ok(db, "game", "add", "Beta, B", "Alpha, A", "1/2-1/2", "--date", "2026-10-02")
    assert audit_reasons(db, "game.add") == [None, "scoresheet handed in late", None]


def test_adding_the_name_of_a_merged_player_points_at_the_identity_it_joined(
        tmp_path: Path) -> None:
    """'Gamma, C.' (#4) was merged into 'Gamma, Cathal' (#3): adding 'Gamma, C.' again is
    refused as a name already in the ledger, and the message says which identity to refer to
    (#3): 'refer to them by id' with #4 alone would send the officer to a player found no
    more."""
    db = tmp_path / "ledger.db"
    one_closed_period(db)
    ok(db, "player", "add", "Gamma, Cathal")
    ok(db, "player", "add", "Gamma, C.")
    ok(db, "player", "merge", "#3", "#4", "--reason", "registered twice")
    before = dump(db)
    refused = run(db, "player", "add", "Gamma, C.")
    assert refused.exit_code == 1
    assert " ".join(refused.stderr.split()) == (
        "error: name: 'Gamma, C.' is already in the ledger as Gamma, C. (#4, FIDE -, born ?), "
        "merged into Gamma, Cathal (#3); refer to them by id, or, if this is another person, "
        "add them with --new")
    assert dump(db) == before
