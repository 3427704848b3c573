"""Games typed in the web's form (issue 23), through ``services.submissions.typed`` on a real
ledger: stored as typed, checked and accepted by the same path as a CSV file
(``formats.games_form`` turns the rows into the CSV ``formats.games_csv`` reads).

The ledgers: "Byrne, Seán" (rating 1850) and "Novak, Petra" (1720), both registered with
``player add`` (standard pool, established: 300 prior games); reporters ann, officer olga.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from ledger.db.models import Event, Game, Player
from ledger.db.models.accounts import User
from ledger.db.models.submissions import Submission
from ledger.errors import InvalidInput
from ledger.formats.games_form import TypedGames, from_json, to_csv
from ledger.services.core.session import open_ledger, transaction
from ledger.services.imports.games import import_file
from ledger.services.register.players import NewPlayer, add_player
from ledger.services.submissions import submissions as subs
from ledger.services.submissions.typed import submit_typed, typed_games

#: The day the tests run on (2026-09 has ended).
TODAY = dt.date(2026, 12, 2)
EVENT = "Riverside Autumn Open 2026"


def _players(engine: Engine) -> None:
    for name, rating in (("Byrne, Seán", 1850), ("Novak, Petra", 1720)):
        add_player(engine, NewPlayer(name=name, rating=rating, prior_games=300))


def _users(engine: Engine) -> tuple[int, int]:
    with transaction(engine) as session:
        made = [User(name=n, name_key=n, role=r, password_hash="-")
                for n, r in (("ann", "reporter"), ("olga", "officer"))]
        session.add_all(made)
        session.flush()
        return made[0].id, made[1].id


def _typed(*rows: dict[str, str], event: str = EVENT) -> TypedGames:
    return TypedGames.typed({"event": event}, list(rows))


def _games(engine: Engine) -> list[tuple[object, ...]]:
    """Every game's facts: date, period, pool, White's and Black's names, result, played,
    round, event's name, status."""
    with transaction(engine, write=False) as session:
        rows = session.execute(select(Game, Event.name).outerjoin(
            Event, Event.id == Game.event_id).order_by(Game.id)).all()
        return [(g.date, g.period, g.pool, session.get(Player, g.white_id).name,
                 session.get(Player, g.black_id).name, g.result, g.played, g.round, event,
                 g.status) for g, event in rows]


def test_the_json_is_what_was_typed_and_its_csv_names_each_row() -> None:
    typed = TypedGames.typed({"event": " Open ", "pool": "", "time_control": ""}, [
        {"date": "2026-09-19", "round": "1", "white": "a, b", "black": "C", "result": "1-0"},
        {"date": " ", "white": ""},
        {"date": "2026-09-20", "white": 'say "x"\nmore', "black": "D", "result": "0-1"},
        {}, {}])
    assert len(typed.rows) == 3 and typed.games == 2  # blank rows after the last dropped
    assert from_json(typed.to_json()) == typed
    assert json.loads(typed.to_json())["event"] == " Open "  # as typed, blanks and all
    table = to_csv(typed)
    assert table.data.decode().splitlines() == [
        "date,white,black,result,round,event,pool,time_control",
        '2026-09-19,"a, b",C,1-0,1, Open ,,',
        '2026-09-20,"say ""x""', 'more",D,0-1,, Open ,,']
    # CSV line 2 is row 1; lines 3 and 4 (one quoted value over two lines) are row 3
    assert [table.row_of(n) for n in (1, 2, 3, 4, None)] == [None, 1, 3, 3, None]
    with pytest.raises(InvalidInput, match="form: not games typed"):
        from_json(b'{"rows": [1]}')


def test_a_typed_game_is_recorded_as_the_csv_import_records_it(
        engine: Engine, new_ledger: object, tmp_path: Path) -> None:
    _players(engine)
    ann, olga = _users(engine)
    # "byrne, sean": no accent, no capitals; the ledger's name key matches "Byrne, Seán"
    typed = _typed({"date": "2026-09-19", "round": "1", "white": "byrne, sean",
                    "black": "Novak, Petra", "result": "1-0"})
    made = submit_typed(engine, ann, typed, today=TODAY)
    assert made.format == "form" and made.errors == [] and made.warnings == []
    assert made.filename == "typed games" and made.findings["games"] == 1
    with transaction(engine, write=False) as session:
        stored = session.get(Submission, made.id)
        assert stored is not None and stored.content == typed.to_json()
    assert typed_games(engine, made.id) == typed
    subs.accept(engine, made.id, olga, [], today=TODAY)
    # the same game, from a CSV file, imported into a second ledger with the same players
    other = open_ledger(new_ledger("csv"))  # type: ignore[operator]
    try:
        _players(other)
        path = tmp_path / "games.csv"
        path.write_text(f"date,white,black,result,round,event\n"
                        f'2026-09-19,"Byrne, Seán","Novak, Petra",1-0,1,{EVENT}\n')
        import_file(other, str(path), "csv", today=TODAY)
        assert _games(engine) == _games(other) == [
            (dt.date(2026, 9, 19), "2026-09", "standard", "Byrne, Seán", "Novak, Petra", "1-0",
             True, "1", EVENT, "valid")]
    finally:
        other.dispose()


def test_errors_name_the_form_row_and_field(engine: Engine) -> None:
    _players(engine)
    ann, _ = _users(engine)
    made = submit_typed(engine, ann, _typed(
        {"date": "2026-09-19", "round": "1", "white": "Byrne, Seán", "black": "Novak, Petra",
         "result": "1-0"},
        {},  # a blank row: no game, but row 3 stays row 3
        {"date": "2026-09-19", "round": "2", "white": "Novak, Petra", "black": "Byrne, Seán",
         "result": "2-0"}), today=TODAY)
    assert [(e["row"], e["field"]) for e in made.errors] == [(3, "result")]
    assert "2-0" in made.errors[0]["message"]


def test_a_new_player_is_a_request_the_officers_tick_grants(engine: Engine) -> None:
    _players(engine)
    ann, olga = _users(engine)
    made = submit_typed(engine, ann, _typed(
        {"date": "2026-09-19", "round": "1", "white": "Byrne, Seán", "black": "Quinn, Aoife",
         "result": "0-1"},
        {"date": "2026-09-20", "round": "2", "white": "Quinn, Aoife", "black": "Novak, Petra",
         "result": "1/2-1/2"}), today=TODAY)
    assert made.errors == []
    [new] = made.warnings  # one warning for the player, on both rows
    assert new["message"] == "new player: Quinn, Aoife (register on accepting)"
    assert new["flag"] == "register_players" and new["rows"] == [1, 2]
    # the integrity checks read the typed games as their CSV too: a new player without birth
    # year or sex is flagged
    assert [(f.subject, f.concerns) for f in subs.integrity(engine, made.id)
            if f.player_id is None and f.subject == "player"] == [("player", "Quinn, Aoife")]
    with pytest.raises(InvalidInput, match="1 not ticked"):
        subs.accept(engine, made.id, olga, [], today=TODAY)
    assert _games(engine) == []
    subs.accept(engine, made.id, olga, [new["id"]], today=TODAY)
    assert [g[3:6] for g in _games(engine)] == [("Byrne, Seán", "Quinn, Aoife", "0-1"),
                                                ("Quinn, Aoife", "Novak, Petra", "1/2-1/2")]


def test_nothing_typed_is_refused_and_nothing_stored(engine: Engine) -> None:
    ann, _ = _users(engine)
    with pytest.raises(InvalidInput, match="rows: no game typed"):
        submit_typed(engine, ann, _typed({}, {"date": " "}), today=TODAY)
    assert subs.mine(engine, ann) == []


def test_a_name_the_other_way_round_matches_and_a_part_keeps_the_imports_hint(
        engine: Engine) -> None:
    _players(engine)
    ann, _ = _users(engine)
    # "Sean Byrne": "Byrne, Seán" written the other way round: matched, no warning
    made = submit_typed(engine, ann, _typed(
        {"date": "2026-09-19", "white": "Sean Byrne", "black": "Novak, Petra",
         "result": "1-0"}), today=TODAY)
    assert made.errors == [] and made.warnings == []
    # "Byrne" alone: unknown, a new player to register, with the import's "did you mean"
    made = submit_typed(engine, ann, _typed(
        {"date": "2026-09-19", "white": "Byrne", "black": "Novak, Petra",
         "result": "1-0"}), today=TODAY)
    [new] = made.warnings
    assert new["flag"] == "register_players" and (new["row"], new["field"]) == (1, "white")
    assert new["message"] == ("new player: Byrne (register on accepting); did you mean "
                              "Byrne, Seán (#1, no FIDE id)? If so, write the full name or the "
                              "FIDE id in the form")
