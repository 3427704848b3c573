"""``ledger player show`` shows the ratings FIDE's lists printed for a player (``list_ratings``):
the latest per pool, with list date, rating, games, K and flag as printed, labelled as for
comparison only; the rating and K above them stay the ledger's own. Expected values are read from
the files in ``tests/data`` and ``examples/data``, the lines quoted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from data_files import data_file
from typer.testing import CliRunner

from ledger.cli.app import app

LABEL = ("FIDE's rating lists, as printed, for comparison only: the rating and K above are the "
         "ledger's own")


def ledger(db: str, *args: str) -> str:
    result = CliRunner().invoke(app, ["--db", db, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def import_list(db: str, path: Path, list_date: str, pool: str) -> None:
    ledger(db, "import", str(path), "--format", "fide-list", "--list-date", list_date,
           "--pool", pool, "--quiet")


def show_json(db: str, player: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ledger(db, "player", "show", player, "--json"))
    return data


def test_the_latest_list_rating_per_pool_as_printed(ledger_db: str) -> None:
    # The later list imported first: "latest" is by list date, not by import order.
    import_list(ledger_db, data_file("fide_blitz_list_may13_subset.txt"), "2013-05-01", "blitz")
    import_list(ledger_db, data_file("fide_blitz_list_apr13_subset.txt"), "2013-04-01", "blitz")
    # apr13 line 2: "5500222  Abbes, Ali ... TUN M             FI   2128  0   20 1973      "
    # may13 line 2: "5500222  Abbes, Ali ... TUN M   CM        FI   2075  8   20 1973      "
    data = show_json(ledger_db, "5500222")
    assert data["fide_list_ratings_note"] == LABEL
    assert data["fide_list_ratings"] == [
        {"pool": "blitz", "list_date": "2013-05-01", "rating": 2075, "games": 8, "k": 20,
         "flag": None, "source": "fide_blitz_list_may13_subset.txt"}]
    # a blitz list gives the ledger no rating: unrated, and no K of the ledger's own
    assert (data["rating"], data["k"]) == (None, None)
    # may13 line 46: "7600950  Algildah, Nibal ... SYR F   WIM  WIM   1872  5   20 1987  w   "
    text = ledger(ledger_db, "player", "show", "Algildah, Nibal")
    assert LABEL in text
    row = next(line for line in text.splitlines() if "blitz" in line)
    assert row.split("│")[1:-1] == [" blitz ", " 2013-05-01 ", "   1872 ", "     5 ", " 20 ",
                                    " w    ", " fide_blitz_list_may13_subset.txt "]
    assert "2013-04-01" not in text and "1876" not in text  # apr13 line 47: 1876 6 20


def test_each_pool_and_the_ledgers_own_k_beside_the_printed_one(ledger_db: str) -> None:
    xml = data_file("fide_players_list_sample.xml")
    import_list(ledger_db, xml, "2013-05-01", "standard")
    import_list(ledger_db, xml, "2013-05-01", "rapid")
    # lines 3-20: <fideid>13401319</fideid> ... <rating>2729</rating> <games>0</games> <k>10</k>
    # <rapid_rating>2760</rapid_rating> <rapid_games>0</rapid_games> <rapid_k>20</rapid_k>
    # ... <flag></flag>
    data = show_json(ledger_db, "13401319")
    assert [(r["pool"], r["rating"], r["games"], r["k"], r["flag"])
            for r in data["fide_list_ratings"]] == [("standard", 2729, 0, 10, None),
                                                    ("rapid", 2760, 0, 20, None)]
    # lines 23-40: <fideid>10207538</fideid> ... <rating>1864</rating> <games>0</games>
    # <k>30</k> <rapid_rating></rapid_rating> (unrated: no row) ... <flag>i</flag>
    data = show_json(ledger_db, "10207538")
    assert [(r["pool"], r["rating"], r["games"], r["k"], r["flag"])
            for r in data["fide_list_ratings"]] == [("standard", 1864, 0, 30, "i")]
    # The ledger's K is its own: rating 1864 (below 2400), history unknown so treated as 30 or
    # more games, birth year unknown so no junior K 40 -> K 20, not the list's (pre-2014) 30.
    assert (data["rating"], data["k"], data["k_reason"]) == (1864, 20, "standard")


def test_a_player_on_no_list_shows_none(ledger_db: str) -> None:
    ledger(ledger_db, "player", "add", "Plain, Pat", "--rating", "1600", "--prior-games", "0")
    assert show_json(ledger_db, "Plain, Pat")["fide_list_ratings"] == []
    assert LABEL not in ledger(ledger_db, "player", "show", "Plain, Pat")


def test_the_titles_a_list_gives_are_shown(ledger_db: str) -> None:
    import_list(ledger_db, data_file("fide_blitz_list_may13_subset.txt"), "2013-05-01", "blitz")
    # may13 line 80: "13604040 Arabidze, Meri ... GEO F   WGM  WGM  ... 2391  9   20 1994  w"
    meri = show_json(ledger_db, "13604040")
    assert (meri["title"], meri["w_title"], meri["o_title"]) == ("WGM", "WGM", None)
    # may13 line 2: "5500222  Abbes, Ali ... TUN M   CM        FI   2075 ...": OTit FI
    ali = show_json(ledger_db, "5500222")
    assert (ali["title"], ali["w_title"], ali["o_title"]) == ("CM", None, "FI")
    text = " ".join(ledger(ledger_db, "player", "show", "5500222").split())
    assert "other titles FI" in text
    assert "woman's title" not in text
