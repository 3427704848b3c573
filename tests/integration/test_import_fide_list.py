"""Importing FIDE rating lists through the service: registering and updating players, list
ratings kept for comparison, published ratings for the standard pool, all or nothing.

Small XML lists are written into ``tmp_path`` one element per line, so each ``<player>`` line can
be counted by eye: the list opens on line 1, and each player below takes 10 lines (``<player>``,
8 elements, ``</player>``), so player n starts on line 2 + 10 (n - 1).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from data_files import data_file
from fide_list_samples import BAD_RATING, FOA_HEADER, RUN_ON, combined_with
from sqlalchemy import Engine, text

from ledger.errors import ImportRejected
from ledger.services.close.periods import close_period
from ledger.services.imports.fide_lists import import_fide_list
from ledger.services.register.games import add_game
from ledger.services.register.player_views import show_player
from ledger.services.register.players import NewPlayer, add_player


def xml_list(tmp_path: Path, name: str,
             *players: tuple[int, str, int, int | str] | tuple[int, str, int, int | str, int]) -> str:
    """A standard XML list: (FIDE id, name, rating, birth year[, K]) per player (K 20 unless
    given; a birth year "" is an empty element), 10 lines each."""
    body = "".join(
        f"<player>\n<fideid>{fide_id}</fideid>\n<name>{player}</name>\n<country>ENG</country>\n"
        f"<sex>M</sex>\n<rating>{rating}</rating>\n<games>0</games>\n<k>{k[0] if k else 20}</k>\n"
        f"<birthday>{born}</birthday>\n</player>\n"
        for fide_id, player, rating, born, *k in players)
    path = tmp_path / name
    path.write_text(f"<playerslist>\n{body}</playerslist>\n", encoding="utf-8")
    return str(path)


def rows(engine: Engine, sql: str) -> list[tuple[object, ...]]:
    """Rows of a raw query; dates as ISO text (SQLite returns text, PostgreSQL ``date``)."""
    with engine.connect() as conn:
        return [tuple(v.isoformat() if isinstance(v, dt.date) else v for v in r)
                for r in conn.execute(text(sql))]


def count(engine: Engine, table: str) -> int:
    return int(rows(engine, f"SELECT count(*) FROM {table}")[0][0])


def test_xml_list_registers_every_player_with_the_published_rating(engine: Engine) -> None:
    path = str(data_file("fide_players_list_sample.xml"))
    report = import_fide_list(engine, path, list_date="2013-05-01")
    assert (report.players_in_file, report.players_registered, report.players_matched) == (11, 11, 0)
    assert (report.ratings_recorded, report.published, report.problems) == (11, 11, [])
    # <fideid>1503014</fideid> ... <rating>2843</rating> <games>10</games> <k>10</k>
    assert rows(engine, "SELECT l.rating, l.games, l.k, l.pool, l.list_date FROM list_ratings l "
                        "JOIN players p ON p.id = l.player_id WHERE p.fide_id = 1503014") == [
        (2843, 10, 10, "standard", "2013-05-01")]
    # in force from the list's period, prior games unknown (treated as established)
    assert rows(engine, "SELECT e.effective_from, e.rating, e.prior_games, e.reached_2400 FROM "
                        "player_entries e JOIN players p ON p.id = e.player_id "
                        "WHERE p.fide_id = 1503014") == [("2013-05", 2843, None, 1)]
    carlsen = show_player(engine, "1503014")
    assert (carlsen.name, carlsen.rating, carlsen.history_unknown) == ("Carlsen, Magnus", 2843, True)
    # <name>Ui  Laighleis , Gearoidin</name> <title>WC</title> <w_title>WC</w_title> <flag>w</flag>
    assert rows(engine, "SELECT p.name, p.title, p.w_title, p.sex, l.flag FROM players p JOIN "
                        "list_ratings l ON l.player_id = p.id WHERE p.fide_id = 2501171") == [
        ("Ui Laighleis, Gearoidin", "WCM", "WCM", "F", "w")]


def test_dry_run_writes_nothing_and_reimport_adds_nothing(engine: Engine) -> None:
    path = str(data_file("fide_players_list_sample.xml"))
    dry = import_fide_list(engine, path, list_date="2013-05-01", dry_run=True)
    assert (dry.players_registered, dry.ratings_recorded) == (11, 11)
    assert [count(engine, t) for t in ("players", "player_entries", "list_ratings")] == [0, 0, 0]
    import_fide_list(engine, path, list_date="2013-05-01")
    again = import_fide_list(engine, path, list_date="2013-05-01")
    assert (again.players_matched, again.players_registered, again.updated) == (11, 0, [])
    assert (again.ratings_recorded, again.ratings_already_recorded, again.published) == (0, 11, 0)
    assert [count(engine, t) for t in ("players", "player_entries", "list_ratings")] == [11, 11, 11]


def test_rapid_pool_becomes_the_rapid_pools_published_ratings(engine: Engine) -> None:
    """Issue 12: a rapid list's ratings are the rapid pool's published ratings (before, they
    went into ``list_ratings`` only); the players stay unrated in standard."""
    path = str(data_file("fide_players_list_sample.xml"))
    report = import_fide_list(engine, path, list_date="2013-05-01", pool="rapid")
    # only Mamedyarov (<rapid_rating>2760</rapid_rating>) and Carlsen (2845) have rapid ratings
    assert (report.ratings_recorded, report.unrated, report.published) == (2, 9, 2)
    assert rows(engine, "SELECT p.fide_id, l.rating, l.k FROM list_ratings l JOIN players p ON "
                        "p.id = l.player_id ORDER BY p.fide_id") == [(1503014, 2845, 20),
                                                                    (13401319, 2760, 20)]
    assert rows(engine, "SELECT p.fide_id, e.pool, e.rating FROM player_entries e JOIN players p"
                        " ON p.id = e.player_id WHERE e.rating IS NOT NULL ORDER BY p.fide_id"
                        ) == [(1503014, "rapid", 2845), (13401319, "rapid", 2760)]
    assert show_player(engine, "1503014", "rapid").rating == 2845
    assert show_player(engine, "1503014").rating is None


def test_blitz_lists_apr13_then_may13(engine: Engine) -> None:
    apr = str(data_file("fide_blitz_list_apr13_subset.txt"))
    may = str(data_file("fide_blitz_list_may13_subset.txt"))
    first = import_fide_list(engine, apr, list_date="2013-04-01", pool="blitz")
    second = import_fide_list(engine, may, list_date="2013-05-01", pool="blitz")
    assert (first.players_registered, second.players_matched, second.players_registered) == (
        1506, 1506, 0)
    assert rows(engine, "SELECT count(*) FROM (SELECT player_id FROM list_ratings GROUP BY "
                        "player_id HAVING count(*) = 2) t") == [(1506,)]
    # apr13 line 87: "400270  Arkell, Keith C ... 2512  0   20 1961"
    # may13 line 86: "400270  Arkell, Keith C ... 2492  10  20 1961"
    assert rows(engine, "SELECT l.list_date, l.rating, l.games, l.k FROM list_ratings l JOIN "
                        "players p ON p.id = l.player_id WHERE p.fide_id = 400270 "
                        "ORDER BY l.list_date") == [("2013-04-01", 2512, 0, 20),
                                                    ("2013-05-01", 2492, 10, 20)]
    # apr13 line 2 "Abbes, Ali ... TUN M             FI" -> may13 line 2 "TUN M   CM        FI"
    changes = {u.name: u.changes for u in second.updated}
    assert changes["Abbes, Ali"] == {"title": (None, "CM")}
    # apr13 "9000410  Adnani, Moklis" is "El Adnani, Mokliss" on may13 line 371
    assert changes["El Adnani, Mokliss"] == {"name": ("Adnani, Moklis", "El Adnani, Mokliss")}


def test_an_older_list_keeps_the_identity_of_a_newer_one(engine: Engine) -> None:
    import_fide_list(engine, str(data_file("fide_blitz_list_may13_subset.txt")),
                     list_date="2013-05-01", pool="blitz")
    older = import_fide_list(engine, str(data_file("fide_blitz_list_apr13_subset.txt")),
                             list_date="2013-04-01", pool="blitz")
    assert older.updated == [] and older.ratings_recorded == 1506
    assert show_player(engine, "9000410").name == "El Adnani, Mokliss"


def test_known_player_is_matched_by_name_and_birth_year_and_updated(engine: Engine) -> None:
    add_player(engine, NewPlayer(name="carlsen, magnus", birth_year=1990, rating=2800,
                                 prior_games=500))
    report = import_fide_list(engine, str(data_file("fide_players_list_sample.xml")),
                              list_date="2013-05-01")
    assert (report.players_matched, report.players_registered) == (1, 10)
    [change] = report.updated
    assert change.changes == {"name": ("carlsen, magnus", "Carlsen, Magnus"),
                              "fide_id": (None, 1503014), "federation": (None, "NOR"),
                              "sex": (None, "M"), "title": (None, "GM")}
    # the list's 2843 is in force from 2013-05; the 500 prior games the ledger knows are kept
    assert rows(engine, "SELECT effective_from, rating, prior_games FROM player_entries "
                        "WHERE player_id = 1 ORDER BY id") == [(None, 2800, 500), ("2013-05", 2843, 500)]


def test_ambiguous_player_is_an_error_listing_the_candidates(engine: Engine) -> None:
    add_player(engine, NewPlayer(name="Quinn, Mark"))
    add_player(engine, NewPlayer(name="Quinn, Mark"), new=True)
    with pytest.raises(ImportRejected) as caught:
        import_fide_list(engine, str(data_file("fide_players_list_sample.xml")),
                         list_date="2013-05-01")
    [problem] = caught.value.problems
    # <player> of "Quinn, Mark" (FIDE 2500450) starts on line 122 of the sample
    assert (problem.line, problem.field) == (122, "name")
    assert "Quinn, Mark (#1, FIDE -, born ?); Quinn, Mark (#2, FIDE -, born ?)" in problem.message
    assert [count(engine, t) for t in ("players", "list_ratings")] == [2, 0]


def test_namesake_with_another_fide_id_is_another_player(engine: Engine, tmp_path: Path) -> None:
    add_player(engine, NewPlayer(name="Quinn, Mark", fide_id=90000001))
    path = xml_list(tmp_path, "l.xml", (2500450, "Quinn, Mark", 2388, 1976))
    report = import_fide_list(engine, path, list_date="2025-12-01")
    assert (report.players_matched, report.players_registered) == (0, 1)


def test_two_list_namesakes_for_a_player_without_fide_id_is_an_error(
        engine: Engine, tmp_path: Path) -> None:
    add_player(engine, NewPlayer(name="Smith, John", rating=1900, prior_games=50))
    path = xml_list(tmp_path, "l.xml", (1001, "Smith, John", 1950, 1980),
                    (1002, "Smith, John", 2050, 1990))
    with pytest.raises(ImportRejected) as caught:
        import_fide_list(engine, path, list_date="2025-12-01")
    problems = caught.value.problems
    assert [p.line for p in problems] == [2, 12]  # each list line could be the ledger's player
    assert all("Smith, John (#1, no FIDE id) could be any of line 2 (FIDE 1001, born 1980); "
               "line 12 (FIDE 1002, born 1990)" in p.message for p in problems)
    assert count(engine, "players") == 1


def _closed_november(engine: Engine) -> None:
    add_player(engine, NewPlayer(name="Alpha, Ann", fide_id=90000001, rating=1800, prior_games=100))
    add_player(engine, NewPlayer(name="Beta, Bob", fide_id=90000002, rating=1700, prior_games=100))
    add_game(engine, "Alpha, Ann", "Beta, Bob", "1-0", "2025-11-05")
    # D = 1800 - 1700 = +100 -> PD .64; 20 x (1 - .64) = +7.2 -> +7: Ann 1807, Bob 1693
    close_period(engine, "2025-11")


def test_list_for_a_list_the_ledger_published_warns_and_keeps_the_ledgers(
        engine: Engine, tmp_path: Path) -> None:
    _closed_november(engine)
    path = xml_list(tmp_path, "dec.xml", (90000001, "Alpha, Ann", 1810, 1990),
                    (90000002, "Beta, Bob", 1693, 1990))
    report = import_fide_list(engine, path, list_date="2025-12-01")
    [warning] = report.problems
    assert (warning.line, warning.field, warning.severity) == (2, "rating", "warning")
    assert "the list says 1810, the ledger's published rating is 1807" in warning.message
    assert (report.ratings_recorded, report.published) == (2, 0)
    assert count(engine, "player_entries") == 2
    assert show_player(engine, "Alpha, Ann").rating == 1807


def test_list_of_a_closed_period_is_for_comparison_only(engine: Engine, tmp_path: Path) -> None:
    _closed_november(engine)
    path = xml_list(tmp_path, "nov.xml", (90000001, "Alpha, Ann", 1790, 1990))
    report = import_fide_list(engine, path, list_date="2025-11-01")
    [warning] = report.problems
    assert "the ledger's published rating is 1800 (period 2025-11 is closed)" in warning.message
    assert count(engine, "player_entries") == 2


def test_list_after_an_open_period_enters_a_published_rating(engine: Engine, tmp_path: Path) -> None:
    _closed_november(engine)
    # 2025-12 is open: the ledger has not derived the January list yet, so the list's is used
    path = xml_list(tmp_path, "jan.xml", (90000001, "Alpha, Ann", 1815, 1990))
    report = import_fide_list(engine, path, list_date="2026-01-01")
    assert (report.published, report.problems) == (1, [])
    assert rows(engine, "SELECT effective_from, rating, prior_games FROM player_entries "
                        "WHERE player_id = 1 ORDER BY id") == [(None, 1800, 100), ("2026-01", 1815, 100)]


def test_same_list_with_other_values_is_an_error(engine: Engine, tmp_path: Path) -> None:
    import_fide_list(engine, xml_list(tmp_path, "a.xml", (1001, "Smith, John", 1950, 1980)),
                     list_date="2025-12-01")
    with pytest.raises(ImportRejected) as caught:
        import_fide_list(engine, xml_list(tmp_path, "b.xml", (1001, "Smith, John", 1960, 1980),
                                          (1002, "Doe, Jane", 1700, 1999)),
                         list_date="2025-12-01")
    [problem] = caught.value.problems
    assert (problem.line, problem.field) == (2, "rating")
    assert "already recorded on the standard list of 2025-12-01 from a.xml: rating 1950" \
        in problem.message
    assert [count(engine, t) for t in ("players", "list_ratings")] == [1, 1]


def test_list_date_and_header_month_disagree(engine: Engine) -> None:
    report = import_fide_list(engine, str(data_file("fide_blitz_list_may13_subset.txt")),
                              list_date="2013-06-01", pool="blitz", dry_run=True)
    [warning] = report.problems
    assert (warning.line, warning.severity) == (1, "warning") and "may13" in warning.message


def _flags(engine: Engine) -> list[tuple[object, ...]]:
    return rows(engine, "SELECT p.fide_id, l.pool, l.rating, l.games, l.k, l.flag FROM list_ratings l "
                        "JOIN players p ON p.id = l.player_id ORDER BY p.fide_id, l.pool DESC")


def test_a_long_other_titles_value_is_read_with_a_warning_and_the_list_imports(
        engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "players_list_foa.txt"
    path.write_text(combined_with(RUN_ON), encoding="utf-8")
    report = import_fide_list(engine, str(path), list_date="2025-12-01")
    [warning] = report.problems
    assert (warning.line, warning.field, warning.severity) == (3, "OTit (column 95)", "warning")
    assert "'IA,FA,IO,FST,DI,NA' (18 characters) is longer than the OTit column" in warning.message
    assert (report.players_registered, report.ratings_recorded, report.published) == (4, 3, 3)
    # fide_list_samples.RUN_ON: OTit IA,FA,IO,FST,DI,NA, SRtng 1845 SGm 4 SK 20, B-day 1968, wi;
    # the others as on COMBINED_FOA (Olga: no standard rating)
    assert rows(engine, "SELECT fide_id, name, sex, o_title, birth_year FROM players "
                        "ORDER BY fide_id") == [
        (1503014, "Carlsen, Magnus", "M", None, 1990), (13708694, "Ju, Wenjun", "F", None, 1991),
        (35093487, "Online, Olga", "F", None, 2009),
        (45000012, "Referee, Rita", "F", "IA,FA,IO,FST,DI,NA", 1968)]
    assert _flags(engine) == [(1503014, "standard", 2831, 9, 10, None),
                              (13708694, "standard", 2560, 0, 10, "w"),
                              (45000012, "standard", 1845, 4, 20, "wi")]
    assert show_player(engine, "45000012").rating == 1845


def test_a_line_still_unreadable_after_a_long_value_rejects_the_list(
        engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "players_list_foa.txt"
    path.write_text(combined_with(BAD_RATING), encoding="utf-8")
    with pytest.raises(ImportRejected) as caught:
        import_fide_list(engine, str(path), list_date="2025-12-01")
    # fide_list_samples.BAD_RATING: after the 3-character shift, SRtng (column 117) says 18x5
    assert [(p.line, p.field, p.severity) for p in caught.value.problems] == [
        (3, "SRtng (column 117)", "error"), (3, "OTit (column 95)", "warning")]
    assert [count(engine, t) for t in ("players", "list_ratings")] == [0, 0]


def test_a_combined_lists_i_is_not_the_rapid_pools_flag(engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "players_list_foa.txt"
    path.write_text(combined_with(RUN_ON), encoding="utf-8")
    import_fide_list(engine, str(path), list_date="2025-12-01", pool="standard")
    import_fide_list(engine, str(path), list_date="2025-12-01", pool="rapid")
    # Flag column: Ju w, Olga wi, Rita wi (the standard list's): rapid keeps only the w.
    # RRtng RGm Rk: Carlsen 2827 0 20, Ju 2487 11 20, Olga 1610 7 40, Rita 1790 0 20
    assert _flags(engine) == [
        (1503014, "standard", 2831, 9, 10, None), (1503014, "rapid", 2827, 0, 20, None),
        (13708694, "standard", 2560, 0, 10, "w"), (13708694, "rapid", 2487, 11, 20, "w"),
        (35093487, "rapid", 1610, 7, 40, "w"),
        (45000012, "standard", 1845, 4, 20, "wi"), (45000012, "rapid", 1790, 0, 20, "w")]
    shown = show_player(engine, "45000012").list_ratings
    assert [(r.pool, r.rating, r.flag) for r in shown] == [("standard", 1845, "wi"),
                                                           ("rapid", 1790, "w")]


def xenia(tmp_path: Path) -> str:
    """A combined XML list of one player, one element a line: <player> on line 2, <sex></sex>
    blank, <rating>1922 <games>0 <k>20, <rapid_rating>1870 <rapid_games>5 <rapid_k>20, <flag>wi."""
    path = tmp_path / "players_list_xml.xml"
    path.write_text(
        "<playerslist>\n<player>\n<fideid>45000063</fideid>\n<name>Xml, Xenia</name>\n"
        "<country>GRE</country>\n<sex></sex>\n<rating>1922</rating>\n<games>0</games>\n"
        "<k>20</k>\n<rapid_rating>1870</rapid_rating>\n<rapid_games>5</rapid_games>\n"
        "<rapid_k>20</rapid_k>\n<flag>wi</flag>\n</player>\n</playerslist>\n", encoding="utf-8")
    return str(path)


def test_an_xml_lists_i_is_not_the_rapid_pools_flag(engine: Engine, tmp_path: Path) -> None:
    path = xenia(tmp_path)
    for pool in ("standard", "rapid"):
        assert import_fide_list(engine, path, list_date="2025-12-01", pool=pool).problems == []
    assert _flags(engine) == [(45000063, "standard", 1922, 0, 20, "wi"),
                              (45000063, "rapid", 1870, 5, 20, "w")]
    # <sex></sex> with the flag w: a woman
    assert rows(engine, "SELECT sex FROM players") == [("F",)]


def test_a_rapid_row_recorded_with_the_standard_flag_is_named_on_reimport(
        engine: Engine, tmp_path: Path) -> None:
    """A ledger that recorded a combined list's rapid row with the Flag column as printed (wi,
    before the i was left to the standard pool) refuses the same list again, naming the flag."""
    path = xenia(tmp_path)
    import_fide_list(engine, path, list_date="2025-12-01", pool="rapid")
    with engine.begin() as conn:
        conn.execute(text("UPDATE list_ratings SET flag = 'wi'"))
    with pytest.raises(ImportRejected) as caught:
        import_fide_list(engine, path, list_date="2025-12-01", pool="rapid")
    [problem] = caught.value.problems
    assert (problem.line, problem.field) == (2, "rapid_rating")
    assert problem.message.endswith("rating 1870, games 5, K 20, flag wi; this file says 1870, 5, "
                                    "20, w")


# A list written on one line: every <player> starts on line 1. (issue 9, item 7.1)
ONE_LINE = ("<playerslist><player>{a}<name>Alpha, Ann</name><country>NOR</country><rating>2000"
            "</rating><birthday>1990</birthday></player><player>{b}<name>Beta, Bob</name><country>"
            "SWE</country><rating>2100</rating><birthday>1980</birthday></player></playerslist>\n")


@pytest.mark.parametrize("ids", [("", ""), ("<fideid>12</fideid>", "<fideid>13</fideid>")],
                         ids=["without FIDE ids", "with FIDE ids"])
def test_a_list_on_one_line_registers_each_player(engine: Engine, tmp_path: Path,
                                                  ids: tuple[str, str]) -> None:
    path = tmp_path / "one_line.xml"
    path.write_text(ONE_LINE.format(a=ids[0], b=ids[1]), encoding="utf-8")
    dry = import_fide_list(engine, str(path), list_date="2026-09-01", dry_run=True)
    assert (dry.players_registered, dry.ratings_recorded, dry.problems) == (2, 2, [])
    report = import_fide_list(engine, str(path), list_date="2026-09-01")
    assert (report.players_registered, report.published, report.problems) == (2, 2, [])
    fide_ids = (12, 13) if ids[0] else (None, None)
    # Alpha, Ann NOR 2000 born 1990; Beta, Bob SWE 2100 born 1980, as written above
    assert rows(engine, "SELECT p.name, p.fide_id, p.federation, p.birth_year, l.rating FROM "
                        "players p JOIN list_ratings l ON l.player_id = p.id ORDER BY p.id") == [
        ("Alpha, Ann", fide_ids[0], "NOR", 1990, 2000), ("Beta, Bob", fide_ids[1], "SWE", 1980, 2100)]
    assert rows(engine, "SELECT p.name, e.rating FROM player_entries e JOIN players p ON "
                        "p.id = e.player_id ORDER BY p.id") == [("Alpha, Ann", 2000),
                                                                ("Beta, Bob", 2100)]


@pytest.mark.parametrize("name, content, message", [
    ("header_only.txt", f"{FOA_HEADER}\n\n", "no players in this list: only its header, on line 1"),
    ("empty.xml", "<playerslist>\n</playerslist>\n",
     "no players in this list: <playerslist> has no <player> element"),
])
@pytest.mark.parametrize("dry_run", [False, True], ids=["import", "dry run"])
def test_a_list_without_players_is_refused_and_writes_nothing(
        engine: Engine, tmp_path: Path, name: str, content: str, message: str,
        dry_run: bool) -> None:
    """A list that is only its header (issue 9, item 7.3), as an empty file is: no audit entry."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ImportRejected) as caught:
        import_fide_list(engine, str(path), list_date="2026-09-01", dry_run=dry_run)
    assert [(p.line, p.field, p.severity, p.message) for p in caught.value.problems] == [
        (None, "players", "error", message)]
    assert [count(engine, t) for t in ("players", "list_ratings", "changes")] == [0, 0, 0]


def _k40_warning(name: str, fide_id: int, why: str) -> str:
    return (f"{name} (FIDE {fide_id}): the list's K 40 means fewer than 30 rated games ({why}), but "
            "the ledger does not know their rated games and treats them as established (K 20); "
            f'give them with `ledger player add "{name}" --fide-id {fide_id} --prior-games N` '
            "before importing the list, in a new ledger")


def test_a_list_k_40_the_junior_rule_does_not_explain_is_a_warning(engine: Engine,
                                                                   tmp_path: Path) -> None:
    """(issue 9, item 7.6) On the list of 2026-09-01 (in force for 2026-09; juniors: born 2008 or
    later), K 40 for a player who is no junior, or a junior rated 2300 or more, means fewer than
    30 rated games; registered from the list they were "treated as established" (K 20) without
    a word. Problems name the player's first line, 2 + 10 (n - 1)."""
    add_player(engine, NewPlayer(name="Known, Kim", fide_id=90000017, birth_year=1985,
                                 rating=1500, prior_games=10))
    path = xml_list(tmp_path, "sep.xml",
                    (90000011, "Adult, Al", 1600, 1980, 40),   # line 2: warned
                    (90000012, "Junior, Jo", 1600, 2012, 40),  # line 12: a junior, K 40 explained
                    (90000013, "Steady, Sam", 1600, 1980, 20),  # line 22: K 20
                    (90000014, "Nobody, Ned", 1700, "", 40),   # line 32: warned
                    (90000015, "Strong, Stu", 2350, 2010, 40),  # line 42: warned
                    (90000016, "Master, Max", 2450, 1990, 40),  # line 52: K 10 whatever the games
                    (90000017, "Known, Kim", 1520, 1985, 40))  # line 62: the ledger knows 10 games
    report = import_fide_list(engine, path, list_date="2026-09-01")
    assert [(p.line, p.field, p.severity, p.message) for p in report.problems] == [
        (2, "k", "warning", _k40_warning("Adult, Al", 90000011, "born 1980, no junior in 2026")),
        (32, "k", "warning", _k40_warning("Nobody, Ned", 90000014, "birth year unknown")),
        (42, "k", "warning", _k40_warning("Strong, Stu", 90000015,
                                          "born 2010, a junior, but rated 2300 or more"))]
    assert (report.players_registered, report.players_matched) == (6, 1)
    # the warned players are still registered as the list says, rated games unknown
    assert rows(engine, "SELECT p.name, e.rating, e.prior_games FROM player_entries e JOIN players "
                        "p ON p.id = e.player_id WHERE p.fide_id IN (90000011, 90000017) "
                        "ORDER BY p.id, e.id") == [("Known, Kim", 1500, 10),
                                                   ("Known, Kim", 1520, 10),
                                                   ("Adult, Al", 1600, None)]


def test_a_known_player_whose_games_the_ledger_does_not_know_is_warned_too(
        engine: Engine, tmp_path: Path) -> None:
    """Registered from the August list (K 20) with games unknown, Adult, Al has K 40 on
    September's (line 2)."""
    import_fide_list(engine, xml_list(tmp_path, "aug.xml", (90000011, "Adult, Al", 1600, 1980)),
                     list_date="2026-08-01")
    report = import_fide_list(engine, xml_list(tmp_path, "sep.xml",
                                               (90000011, "Adult, Al", 1610, 1980, 40)),
                              list_date="2026-09-01")
    assert [(p.line, p.message) for p in report.problems] == [
        (2, _k40_warning("Adult, Al", 90000011, "born 1980, no junior in 2026"))]
    assert report.published == 1
