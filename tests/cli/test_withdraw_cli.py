"""``ledger player withdraw``: a player registered by mistake leaves every later list, search
and page, and stays in the audit log (issue 21 §3). Expected values are worked by hand in the
comments (FIDE B.02 table 8.1.2; K 20: adults with 30 or more games, rated under 2400)."""

from __future__ import annotations

from pathlib import Path

from cli_runs import data, last_changes, ok, ratings, run


def two_players_and_a_mistake(db: str) -> None:
    """Doyle 1800 and Walsh 1700 (100 prior games each: K 20), and Mistake, Mary 1900 (FIDE id
    90000099), registered by mistake. September: Doyle beats Walsh; closed: D = +100 -> PD
    .64, 20 x (1 - .64) = +7.2 -> +7 (1807); Walsh 20 x (0 - .36) = -7.2 -> -7 (1693); Mary
    has a published rating and no game: on the list at 1900."""
    ok(db, "init")
    ok(db, "player", "add", "Doyle, Liam", "--rating", "1800", "--prior-games", "100",
       "--fide-id", "2500035")
    ok(db, "player", "add", "Walsh, Brendan", "--rating", "1700", "--prior-games", "100")
    ok(db, "player", "add", "Mistake, Mary", "--rating", "1900", "--prior-games", "0",
       "--fide-id", "90000099")
    ok(db, "game", "add", "Doyle, Liam", "Walsh, Brendan", "1-0", "--date", "2026-09-10")
    ok(db, "period", "close", "2026-09")


def test_a_player_registered_by_mistake_leaves_lists_searches_and_pages(
        ledger_db: str, tmp_path: Path) -> None:
    db = ledger_db
    two_players_and_a_mistake(db)
    september = {"Mistake, Mary": 1900, "Doyle, Liam": 1807, "Walsh, Brendan": 1693}
    assert ratings(db, "2026-09") == september

    dry = data(db, "player", "withdraw", "Mistake, Mary", "--reason", "registered by mistake",
               "--dry-run")
    assert (dry["dry_run"], dry["change"], dry["player"]["id"]) == (True, None, 3)
    assert "Mistake, Mary" in ok(db, "player", "list").stdout  # nothing written

    done = data(db, "player", "withdraw", "#3", "--reason", "registered by mistake")
    [(number, action)] = last_changes(db)  # the withdrawal: the latest change
    assert action == "player.withdraw"
    assert done == {"action": "player.withdraw", "reason": "registered by mistake",
                    "dry_run": False, "change": number,
                    "player": {"id": 3, "name": "Mistake, Mary", "fide_id_released": 90000099,
                               "void_games": []}}

    # player list and every search
    assert [p["name"] for p in data(db, "player", "list")["players"]] == [
        "Doyle, Liam", "Walsh, Brendan"]
    for ref in ("Mistake, Mary", "#3", "90000099", "Mistake"):
        shown = run(db, "player", "show", ref)
        assert shown.exit_code == 1, ref
        assert (f"Mistake, Mary (#3) was withdrawn (change {number}: 'registered by mistake')"
                in shown.stderr), ref
    # "did you mean" never offers her: a close spelling names nobody
    typo = run(db, "game", "add", "Mistake, Marie", "Doyle, Liam", "1-0", "--date", "2026-10-02")
    assert typo.exit_code == 1
    assert "no player named 'Mistake, Marie'" in typo.stderr and "Mary" not in typo.stderr

    # the list of a later close leaves her out: October, Doyle 1807 draws Walsh 1693: D = +114
    # -> PD .66; 20 x (.5 - .66) = -3.2 -> -3 (1804); Walsh +3.2 -> +3 (1696)
    ok(db, "game", "add", "Doyle, Liam", "Walsh, Brendan", "1/2-1/2", "--date", "2026-10-10")
    ok(db, "period", "close", "2026-10")
    assert ratings(db, "2026-10") == {"Doyle, Liam": 1804, "Walsh, Brendan": 1696}
    assert ratings(db, "2026-09") == september  # a published list is a snapshot
    assert data(db, "db", "check")["differences"] == []  # as of each close: who was withdrawn

    # the site: no page of hers, and no page names her (September's list page leaves her out;
    # Doyle and Walsh keep the ranks it published: 2 and 3)
    site = tmp_path / "site"
    ok(db, "site", "build", str(site), "--club", "Club", "--date", "2026-11-01")
    assert sorted(p.name for p in (site / "players").glob("*.html")) == [
        "1.html", "2.html", "index.html"]
    assert [p.relative_to(site).as_posix() for p in sorted(site.rglob("*"))
            if p.is_file() and "Mistake" in p.read_text(errors="replace")] == []
    september_page = (site / "lists" / "standard" / "2026-09.html").read_text()
    assert 'Doyle, Liam' in september_page and 'Walsh, Brendan' in september_page
    # nor a list's bundle: one holds every player its close read, her too (September's rows,
    # October's states in force), so neither list publishes its bundle, and each says why
    assert not (site / "bundles").exists()
    for month in ("2026-09", "2026-10"):
        page = " ".join((site / "lists" / "standard" / f"{month}.html").read_text().split())
        assert "List digest" in page and "would name a player withdrawn since" in page
        assert "bundles/" not in page

    # kept in the audit log
    audit = data(db, "audit", "--player", "#3")["changes"]
    assert [(c["action"], c["reason"]) for c in audit][-1] == (
        "player.withdraw", "registered by mistake")
    # her name and FIDE id are free for the right registration
    again = data(db, "player", "add", "Mistake, Mary", "--fide-id", "90000099")
    assert (again["id"], again["fide_id"]) == (4, 90000099)


def test_a_player_with_a_valid_game_is_refused_naming_the_game(ledger_db: str) -> None:
    db = ledger_db
    two_players_and_a_mistake(db)
    refused = run(db, "player", "withdraw", "Walsh, Brendan", "--reason", "oops")
    assert refused.exit_code == 1
    assert "Walsh, Brendan (#2) has a valid game, game 1 of 2026-09-10" in refused.stderr
    assert "ledger game void 1" in refused.stderr
    # once the game is void she can go; the void game stays, pointing at her
    ok(db, "game", "void", "1", "--reason", "never played", "--rerate")
    done = data(db, "player", "withdraw", "Walsh, Brendan", "--reason", "oops")
    assert done["player"]["void_games"] == [1]
    twice = run(db, "player", "withdraw", "#2", "--reason", "oops")
    assert twice.exit_code == 1 and "was withdrawn" in twice.stderr
    missing = run(db, "player", "withdraw", "Mistake, Mary")
    assert missing.exit_code != 0 and "reason" in missing.stderr


def test_a_register_in_bulk_takes_a_withdrawn_name_and_fide_id_again(
        ledger_db: str, tmp_path: Path) -> None:
    db = ledger_db
    two_players_and_a_mistake(db)
    register = tmp_path / "players.csv"
    register.write_text('name,fide_id,rating\n"Mistake, Mary",90000099,1900\n',
                        encoding="utf-8")
    taken = run(db, "import", str(register), "--format", "players")
    assert taken.exit_code == 3 and "Mistake, Mary" in taken.stderr  # her name is taken
    ok(db, "player", "withdraw", "Mistake, Mary", "--reason", "registered by mistake")
    data(db, "import", str(register), "--format", "players")
    # registered again, as another player: the next id (#4)
    again = data(db, "player", "show", "90000099")
    assert (again["id"], again["name"], again["rating"]) == (4, "Mistake, Mary", 1900)
