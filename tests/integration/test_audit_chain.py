"""The chained audit log and the lists' digests (issue 24, docs/VERIFY.md): the encoding a hash
is taken over, written out by hand; and ``ledger db check`` on a copy of a real ledger (the
Tata Steel month, closed, one game corrected and the month re-rated, a web user added, a
player's birth year corrected), untouched and then tampered with by raw SQL behind the
ledger's back, on the run's database (the copy is made by ``db copy``: on PostgreSQL with
``--database-url``, so the hashes a SQLite ledger wrote are checked there).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from example_ledgers import build_tata, copy_of
from ledgers import Factory, sql
from sqlalchemy import create_engine, make_url, text
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.services.core import chain


def run(db: str, *args: str) -> Any:
    return CliRunner().invoke(app, ["--db", db, *args])


def test_a_row_digest_is_the_sha256_of_the_rows_canonical_json(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [[1, "Müller", dt.date(2026, 1, 2), True, None], [2, "b", None, False, 3]]
    # written by hand: arrays in order, dates as text, true/false/null, UTF-8 kept, no blanks
    expected = hashlib.sha256('[[1,"Müller","2026-01-02",true,null],[2,"b",null,false,3]]'
                              .encode()).hexdigest()
    assert chain.rows_digest(rows) == (expected, 2)
    monkeypatch.setattr(chain, "BATCH", 1)  # a batch a row: the comma between batches
    assert chain.rows_digest(rows) == (expected, 2)
    assert chain.rows_digest([]) == (hashlib.sha256(b"[]").hexdigest(), 0)


def test_an_entrys_hash_covers_its_content_its_facts_and_the_hash_before() -> None:
    entry = (7, dt.datetime(2026, 1, 2, 3, 4, 5), "tester", "ledger game add", "game.add",
             "game", "12", None, '{"id": 12}', None)
    # keys sorted, the time with its microseconds, after as the JSON text it is stored as
    canonical = ('{"action":"game.add","after":"{\\"id\\": 12}","at":"2026-01-02T03:04:05.000000",'
                 '"before":null,"by":"tester","command":"ledger game add","entity":"game",'
                 '"entity_id":"12","facts":{"games":"' + "ab" * 32 + '"},"id":7,'
                 '"prev_hash":"' + "cd" * 32 + '","reason":null}')
    assert chain.entry_hash(entry, {"games": "ab" * 32}, "cd" * 32) == hashlib.sha256(
        canonical.encode("utf-8")).hexdigest()


@pytest.fixture(scope="module")
def tata_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Tata Steel ledger (a SQLite file) with its history: entry 1 the import, 2 the close
    of 2022-01, 3 the correction of game 1 (Esipenko - Carlsen, a draw, to 0-1) and 4 the
    re-rating of 2022-01 it asked for (revision 2), 5 a web user added, 6 Giri's birth year
    corrected (his identity as imported kept as an earlier value)."""
    db = build_tata(str(tmp_path_factory.mktemp("tata-chain") / "tata.db"))
    for args in (("game", "correct", "1", "--result", "0-1", "--reason", "the arbiter's sheet",
                  "--rerate"),
                 ("user", "add", "clerk", "--role", "reporter", "--one-time"),
                 ("player", "edit", "Giri, Anish", "--birth-year", "1994", "--reason",
                  "FIDE's card")):
        done = run(db, *args)
        assert done.exit_code == 0, (args, done.output, done.stderr)
    return db


ACTIONS = [(1, "import"), (2, "period.close"), (3, "game.correct"), (4, "period.rerate"),
           (5, "user.add"), (6, "player.edit")]


def _execute(db: str, *statements: str) -> None:
    """Run ``statements`` on the ledger ``db`` in one transaction, not through the ledger."""
    engine = create_engine(make_url(db) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def _check(db: str) -> tuple[int, dict[str, Any]]:
    checked = run(db, "db", "check", "--json")
    return checked.exit_code, json.loads(checked.stdout)


@pytest.fixture
def copy(tata_file: str, new_ledger: Factory) -> str:
    """A copy of the Tata Steel ledger on the run's database, to tamper with."""
    return copy_of(tata_file, new_ledger("tampered"))


def test_an_untouched_ledger_passes(copy: str) -> None:
    assert sql(copy, "SELECT id, action FROM changes ORDER BY id") == ACTIONS
    code, found = _check(copy)
    assert code == 0 and found["ok"]
    # six entries; 2022-01's two revisions (the close, the re-rating)
    assert found["chain"] == {"ok": True, "entries": 6, "broken": None, "lists": 2,
                              "lists_broken": []}
    said = run(copy, "db", "check").stdout
    assert "audit log: 6 entries, each one's hash follows from the one before" in said
    assert "lists: 2 lists checked, each gives its digest" in said


@pytest.mark.parametrize(("tampering", "entry", "problem"), [
    # game 2 (Caruana - Karjakin, a draw), written by the import and never corrected
    ("UPDATE games SET result = '1-0' WHERE id = 2", 1, "facts it wrote"),
    # Carlsen's birth year (none in the file): his row is the import's
    ("UPDATE players SET birth_year = 1990 WHERE name = 'Carlsen, Magnus'", 1, "facts it wrote"),
    # the draw game 1 was before its correction, as the import wrote it, kept as its earlier value
    ("UPDATE game_revisions SET result = '1-0' WHERE game_id = 1", 1, "facts it wrote"),
    # Giri's identity as imported, kept when his birth year was corrected
    ("UPDATE player_revisions SET federation = 'RUS' WHERE name = 'Giri, Anish'", 1,
     "facts it wrote"),
    ("UPDATE changes SET reason = 'a typo' WHERE id = 3", 3, "its content"),
    # the user's entry deleted: the player edit after it no longer follows entry 4
    ("DELETE FROM changes WHERE id = 5", 6, "not the hash of entry 4"),
], ids=["game-result", "birth-year", "earlier-game-value", "earlier-identity", "reason",
        "deleted-entry"])
def test_a_tampered_ledger_names_the_first_entry_that_does_not_follow(
        copy: str, tampering: str, entry: int, problem: str) -> None:
    _execute(copy, tampering)
    code, found = _check(copy)
    assert code == 1 and not found["ok"]
    broken = found["chain"]["broken"]
    assert broken["entry"] == entry and problem in broken["problem"], broken
    said = run(copy, "db", "check").stdout
    assert f"audit log: entry {entry} does not follow: " in said


def test_two_entries_swapped_are_named(copy: str) -> None:
    columns = "at, by, command, action, entity, entity_id, before, after, reason, hash, prev_hash"
    five, six = (sql(copy, f"SELECT {columns} FROM changes WHERE id = {i}")[0] for i in (5, 6))
    names = [c.strip() for c in columns.split(",")]

    def setting(values: tuple[object, ...]) -> str:
        return ", ".join(f"{n} = " + ("NULL" if v is None else "'" + str(v).replace("'", "''")
                                      + "'") for n, v in zip(names, values, strict=True))

    _execute(copy, f"UPDATE changes SET {setting(six)} WHERE id = 5",
             f"UPDATE changes SET {setting(five)} WHERE id = 6")
    assert sql(copy, "SELECT id, action FROM changes WHERE id IN (5, 6) ORDER BY id") == [
        (5, "player.edit"), (6, "user.add")]
    code, found = _check(copy)
    assert code == 1
    # entry 5 now holds the player edit's prev_hash, which is entry 5's (the user's) own hash
    assert found["chain"]["broken"] == {
        "entry": 5, "problem": "its prev_hash is not the hash of entry 4 (an entry before it was "
                               "deleted, added or reordered, or its hash changed)"}


def test_a_stored_list_row_changed_is_named_by_period_pool_and_revision(copy: str) -> None:
    # Carlsen's line on the first list of 2022-01 (revision 1, superseded by the re-rating)
    _execute(copy, "UPDATE list_entries SET rating = rating + 1 WHERE period = '2022-01' AND "
                   "revision = 1 AND name = 'Carlsen, Magnus'")
    code, found = _check(copy)
    assert code == 1
    assert found["chain"]["broken"] is None and found["chain"]["entries"] == 6
    (broken,) = found["chain"]["lists_broken"]
    assert (broken["period"], broken["pool"], broken["revision"]) == ("2022-01", "standard", 1)
    stored = sql(copy, "SELECT digest FROM period_revisions WHERE revision = 1")[0][0]
    assert broken["stored"] == stored and broken["computed"] != stored
    said = run(copy, "db", "check").stdout
    assert "list 2022-01 revision 1: its rows give " in said
    assert "lists: 2 lists checked, 1 list with rows that do not give the digest stored" in said


def test_a_list_and_its_digest_changed_together_break_the_close_that_wrote_them(
        copy: str) -> None:
    _execute(copy, "UPDATE list_entries SET rating = rating + 1 WHERE period = '2022-01' AND "
                   "revision = 1 AND name = 'Carlsen, Magnus'")
    engine = create_engine(make_url(copy) if "://" in copy else f"sqlite:///{copy}")
    try:
        with engine.begin() as conn:
            digest = chain.list_digest(conn, "2022-01", "standard", 1)
            conn.execute(text("UPDATE period_revisions SET digest = :d WHERE revision = 1"),
                         {"d": digest})
    finally:
        engine.dispose()
    code, found = _check(copy)
    assert code == 1 and found["chain"]["lists_broken"] == []
    assert found["chain"]["broken"]["entry"] == 2  # the close that published revision 1


def test_an_imports_games_give_the_digest_of_their_rows_before_and_after_a_correction(
        new_ledger: Factory, tmp_path: Path) -> None:
    """The facts of an import's entry: its games' rows as canonical JSON, written out by hand
    (dates as text, the flags true/false); the same after game 1 is corrected (its values as
    imported then come from ``game_revisions``), and ``db check`` agrees."""
    db = new_ledger("facts")
    for name in ("Doyle, Liam", "Walsh, Brendan"):
        assert run(db, "player", "add", name).exit_code == 0
    path = tmp_path / "games.csv"
    path.write_text("date,white,black,result\n2026-11-05,\"Doyle, Liam\",\"Walsh, Brendan\",1-0\n"
                    "2026-11-06,\"Walsh, Brendan\",\"Doyle, Liam\",1/2-1/2\n", encoding="utf-8")
    assert run(db, "import", str(path)).exit_code == 0
    (doyle,), (walsh,) = sql(db, "SELECT id FROM players ORDER BY name")
    (first, second, change), = sql(db, "SELECT min(id), max(id), max(change_id) FROM games")
    rows = (f'[[{first},null,null,"2026-11-05",{doyle},{walsh},"1-0",true,"valid",'
            f'"{path}:2","standard",false],[{second},null,null,"2026-11-06",{walsh},{doyle},'
            f'"1/2-1/2",true,"valid","{path}:3","standard",false]]')
    expected = {"games": hashlib.sha256(rows.encode("utf-8")).hexdigest()}

    def facts() -> dict[str, str]:
        engine = create_engine(make_url(db) if "://" in db else f"sqlite:///{db}")
        try:
            with engine.connect() as conn:
                return chain.facts_digests(conn, change)
        finally:
            engine.dispose()

    assert facts() == expected
    assert run(db, "game", "correct", str(first), "--result", "0-1", "--reason",
               "the arbiter's sheet").exit_code == 0
    assert sql(db, f"SELECT count(*) FROM game_revisions WHERE valid_from_change = {change}"
               ) == [(1,)]
    assert facts() == expected
    code, found = _check(db)
    assert code == 0 and found["chain"]["broken"] is None

