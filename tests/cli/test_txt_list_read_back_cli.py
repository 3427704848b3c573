"""A rating list written by ``ledger list --format txt`` reads back with the FIDE-list importer
(``ledger import FILE --format fide-list``) into a fresh ledger: the same players, FIDE ids (or
none), identity and published ratings, and the list's games, K and flags as printed (issue 5,
"TXT written then read back")."""

from __future__ import annotations

import json
from pathlib import Path

from ledgers import Factory
from sqlalchemy import text
from typer.testing import CliRunner, Result

from ledger.cli.app import app
from ledger.db.engine import make_engine


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", db, *args])


def ok(db: str, *args: str) -> Result:
    result = run(db, *args)
    assert result.exit_code == 0, result.output + result.stderr
    return result


def identities(db: str) -> list[tuple[object, ...]]:
    """(name, FIDE id, federation, sex, title, birth year, rating) per player, by name."""
    players = json.loads(ok(db, "player", "list", "--json").stdout)["players"]
    return sorted((p["name"], p["fide_id"], p["federation"], p["sex"], p["title"],
                   p["birth_year"], p["rating"]) for p in players)


def list_ratings(db: str) -> list[tuple[object, ...]]:
    """(name, list date, pool, rating, games, K, flag) per recorded list rating, by name."""
    engine = make_engine(db)
    try:
        with engine.connect() as conn:
            return sorted((name, str(day), *rest) for name, day, *rest in conn.execute(text(
                "SELECT p.name, l.list_date, l.pool, l.rating, l.games, l.k, l.flag "
                "FROM list_ratings l JOIN players p ON p.id = l.player_id")))
    finally:
        engine.dispose()


def write_and_read_back(tmp_path: Path, new_ledger: Factory, source: str,
                        list_date: str) -> tuple[str, Result]:
    """Write ``source``'s rating list as TXT to ``list.txt`` and import it, dated ``list_date``,
    into a fresh ledger ``fresh``; the import's result is returned, not checked."""
    txt = tmp_path / "list.txt"
    ok(source, "list", "--format", "txt", "--output", str(txt))
    fresh = new_ledger("fresh")
    return fresh, run(fresh, "import", str(txt), "--format", "fide-list", "--list-date", list_date,
                      "--pool", "standard")


def test_club_ledger_reads_back_with_a_player_without_fide_id(tmp_path: Path, new_ledger: Factory) -> None:
    source = new_ledger("club")
    ok(source, "player", "add", "Alpha, Ann", "--rating", "1800", "--fide-id", "4100010", "--sex",
       "F", "--federation", "ENG", "--birth-year", "1990", "--prior-games", "100")
    ok(source, "player", "add", "Beta, Bob", "--rating", "1700", "--fide-id", "4100029", "--title",
       "FM", "--prior-games", "100")
    ok(source, "player", "add", "Plain, Pat", "--rating", "1600",
       "--prior-games", "0", "--birth-year", "2010")
    ok(source, "game", "add", "Plain, Pat", "Beta, Bob", "1-0", "--date", "2025-11-05")
    ok(source, "game", "add", "Alpha, Ann", "Plain, Pat", "1/2-1/2", "--date", "2025-11-06")
    ok(source, "period", "close", "2025-11")
    # Closing 2025-11 (table 8.1.2; K 40 for Pat, a junior born 2010 with no prior games):
    # Pat 1600 beat 1700: D = -100 -> PD .36, +0.64; drew 1800: D = -200 -> PD .24, +0.26;
    #   40 x 0.90 = +36 -> 1636.
    # Bob 1700 lost to 1600: D = +100 -> PD .64; 20 x -0.64 = -12.8 -> -13 -> 1687.
    # Ann 1800 drew 1600: D = +200 -> PD .76; 20 x -0.26 = -5.2 -> -5 -> 1795.
    expected = [("Alpha, Ann", 4100010, "ENG", "F", None, 1990, 1795),
                ("Beta, Bob", 4100029, None, None, "FM", None, 1687),
                ("Plain, Pat", None, None, None, None, 2010, 1636)]
    assert identities(source) == expected

    fresh, result = write_and_read_back(tmp_path, new_ledger, source, "2025-12-01")
    assert result.exit_code == 0, result.output + result.stderr
    assert "players: 0 matched, 3 registered, 0 updated" in result.stdout
    assert "problems: 0 errors, 0 warnings" in result.stdout
    # Same names, FIDE ids (Pat: none), federations, sex, titles, birth years; the list's
    # ratings are the fresh ledger's published ratings from 2025-12.
    assert identities(fresh) == expected
    # Games and K as printed: Ann and Bob 1 game at K 20, Pat 2 games at K 40; flag w for Ann.
    assert list_ratings(fresh) == [
        ("Alpha, Ann", "2025-12-01", "standard", 1795, 1, 20, "w"),
        ("Beta, Bob", "2025-12-01", "standard", 1687, 1, 20, None),
        ("Plain, Pat", "2025-12-01", "standard", 1636, 2, 40, None)]

    # The list read back into the ledger that wrote it finds every player, Pat by name and
    # birth year, and agrees with the ratings the ledger published for 2025-12.
    again = run(source, "import", str(tmp_path / "list.txt"), "--format", "fide-list",
                "--list-date", "2025-12-01", "--pool", "standard")
    assert again.exit_code == 0, again.output + again.stderr
    assert "players: 3 matched, 0 registered, 0 updated" in again.stdout
    assert "problems: 0 errors, 0 warnings" in again.stdout
    assert identities(source) == expected


def test_inactive_and_women_flags_survive(tmp_path: Path, new_ledger: Factory) -> None:
    source = new_ledger("idle")
    for name, sex in (("Alpha, Ann", "F"), ("Beta, Bea", "F"), ("Gamma, Gil", "M")):
        ok(source, "player", "add", name, "--rating", "1800", "--sex", sex, "--prior-games", "100")
    for white, black, day, period in (("Alpha, Ann", "Beta, Bea", "2025-01-10", "2025-01"),
                                      ("Alpha, Ann", "Gamma, Gil", "2026-01-10", "2026-01")):
        ok(source, "game", "add", white, black, "1/2-1/2", "--date", day)
        ok(source, "period", "close", period)
    # The 12 periods ending with 2026-01 are 2025-02 .. 2026-01: Beta's only game was in 2025-01,
    # so Beta is inactive (i) on the list of 1 February 2026; Ann and Bea are women (w). Every
    # game is a draw at D = 0 (PD .50), so all three stay 1800, K 20 (100 prior games).
    fresh, result = write_and_read_back(tmp_path, new_ledger, source, "2026-02-01")
    assert result.exit_code == 0, result.output + result.stderr
    assert list_ratings(fresh) == [
        ("Alpha, Ann", "2026-02-01", "standard", 1800, 1, 20, "w"),
        ("Beta, Bea", "2026-02-01", "standard", 1800, 0, 20, "wi"),
        ("Gamma, Gil", "2026-02-01", "standard", 1800, 1, 20, None)]
    assert [row[:4] for row in identities(fresh)] == [
        ("Alpha, Ann", None, None, "F"), ("Beta, Bea", None, None, "F"),
        ("Gamma, Gil", None, None, "M")]


def test_two_players_without_fide_id_the_list_cannot_tell_apart(tmp_path: Path, new_ledger: Factory) -> None:
    source = new_ledger("twins")
    for born, another in (("1980", ()), ("1981", ("--new",))):  # --new: another person
        ok(source, "player", "add", "Smith, John", "--rating", "1500",
           "--prior-games", "0", "--birth-year", born,
           *another)
    ok(source, "game", "add", "#1", "#2", "1-0", "--date", "2025-11-05")
    ok(source, "period", "close", "2025-11")
    # Born 1980 and 1981: their birth years tell them apart, so both come back.
    fresh, result = write_and_read_back(tmp_path, new_ledger, source, "2025-12-01")
    assert result.exit_code == 0, result.output + result.stderr
    assert [(row[0], row[5]) for row in identities(fresh)] == [("Smith, John", 1980),
                                                               ("Smith, John", 1981)]
    # Without birth years the list cannot tell them apart: refused, nothing written.
    txt = tmp_path / "list.txt"
    lines = txt.read_text(encoding="utf-8").split("\n")
    txt.write_text("\n".join(line[:122] + "    " + line[126:] if i else line
                             for i, line in enumerate(lines)), encoding="utf-8")
    other = new_ledger("other")
    refused = run(other, "import", str(txt), "--format", "fide-list", "--list-date", "2025-12-01",
                  "--pool", "standard")
    assert refused.exit_code == 3
    assert (f"{txt}:3: error: ID (column 1): no FIDE id, and Smith, John (born ?) on line 2 "
            "(born ?) has none either: the two cannot be told apart") in refused.stderr
    assert identities(other) == []
