"""Typing games in on the web (issue 23): ``/submissions/type`` (``web.typed``) over
``services.submissions.typed``, reviewed and accepted on the officer's pages.

The ledger: "Byrne, Seán" (rating 1850) and "Novak, Petra" (1720), registered with ``player
add`` (standard, established). Ann is a reporter, Olga an officer.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_token
from sqlalchemy import select
from werkzeug.test import TestResponse

from ledger.db.models import Event, Game, Player
from ledger.services.core.session import open_ledger, transaction
from ledger.services.imports.games import import_file
from ledger.services.register.players import NewPlayer, add_player

EVENT = "Riverside Rapid Evening"


def _players(engine: Any) -> None:
    for name, rating in (("Byrne, Seán", 1850), ("Novak, Petra", 1720)):
        add_player(engine, NewPlayer(name=name, rating=rating, prior_games=300))


@pytest.fixture
def ann(app: Flask, client: FlaskClient, login: Callable[..., Any]) -> FlaskClient:
    """The reporter Ann's browser, over a ledger with the two players."""
    _players(app.extensions["ledger"])
    login(client, "Ann", "reporter")
    return client


@pytest.fixture
def olga(app: Flask, login: Callable[..., Any]) -> FlaskClient:
    """The officer Olga's browser."""
    browser = app.test_client()
    login(browser, "Olga", "officer")
    return browser


def _type(client: FlaskClient, rows: list[dict[str, str]], action: str = "submit",
          url: str = "/submissions/type", **form: str) -> TestResponse:
    """POST the typed-games form: ``rows`` as rows 1, 2, ... (of 10), ``form``'s fields."""
    token = csrf_token(client.get(url).get_data(as_text=True))
    data = {"csrf_token": token, "rows": str(max(10, len(rows))), "action": action, **form}
    for n, row in enumerate(rows, start=1):
        data.update({f"{field}-{n}": value for field, value in row.items()})
    return client.post("/submissions/type", data=data)


def _games(engine: Any) -> list[tuple[object, ...]]:
    """Every game: date, period, pool, White's and Black's names, result, played, round,
    the event's name, status."""
    with transaction(engine, write=False) as session:
        rows = session.execute(select(Game, Event.name).outerjoin(
            Event, Event.id == Game.event_id).order_by(Game.id)).all()
        return [(g.date, g.period, g.pool, session.get(Player, g.white_id).name,
                 session.get(Player, g.black_id).name, g.result, g.played, g.round, event,
                 g.status) for g, event in rows]


def _ticks(page: str) -> list[str]:
    return re.findall(r'name="tick" value="([0-9a-f]+)"', page)


def test_the_form_has_ten_labelled_rows_and_more_on_asking(ann: FlaskClient) -> None:
    page = ann.get("/submissions/type").get_data(as_text=True)
    assert page.count('name="white-') == 10 and 'name="white-11"' not in page
    # every input and select has its label
    for field in re.findall(r'<(?:input|select) id="([^"]+)"', page):
        assert f'<label for="{field}">' in page, field
    assert 'list="players-found"' in page and '<datalist id="events-found">' in page
    assert '<script src="/site.js">' in page and "<script>" not in page  # no inline script
    more = _type(ann, [{"date": "2026-09-19", "white": "Novak, Petra"}], action="more",
                 event=EVENT)
    assert more.status_code == 200
    again = more.get_data(as_text=True)
    assert again.count('name="white-') == 20  # ten more; what was typed kept
    assert 'name="white-1" value="Novak, Petra"' in again.replace(
        ' type="text" autocomplete="off" list="players-found" data-picker="players"', "")
    assert f'value="{EVENT}"' in again
    assert "Type games in" in ann.get("/account").get_data(as_text=True)
    assert 'href="/submissions/type"' in ann.get("/submissions/new").get_data(as_text=True)


def test_a_typed_game_accepted_is_the_game_the_csv_import_records(
        app: Flask, ann: FlaskClient, olga: FlaskClient, new_ledger: Callable[..., str],
        tmp_path: Path) -> None:
    engine = app.extensions["ledger"]
    # "byrne, SEAN" without its accent: the ledger's name key is "byrne, sean", Seán's
    answer = _type(ann, [{"date": "2026-09-19", "round": "3", "white": "byrne, SEAN",
                          "black": "Novak, Petra", "result": "1/2-1/2"}], event=EVENT)
    assert answer.status_code == 303 and answer.headers["Location"] == "/submissions/1"
    status = ann.get("/submissions/1").get_data(as_text=True)
    assert "Submission 1: pending" in status and "0 errors, 0 warnings" in status
    review = olga.get("/review/1").get_data(as_text=True)
    assert "The games (1)" in review and "Byrne, Seán" in review
    done = olga.post("/review/1/accept", data={"csrf_token": csrf_token(review)})
    assert done.status_code == 303
    other = open_ledger(new_ledger("csv"))
    try:
        _players(other)
        path = tmp_path / "games.csv"
        path.write_text("date,white,black,result,round,event\n"
                        f'2026-09-19,"Byrne, Seán","Novak, Petra",1/2-1/2,3,{EVENT}\n')
        import_file(other, str(path), "csv", today=dt.date(2026, 12, 2))
        assert _games(engine) == _games(other) == [
            (dt.date(2026, 9, 19), "2026-09", "standard", "Byrne, Seán", "Novak, Petra",
             "1/2-1/2", True, "3", EVENT, "valid")]
    finally:
        other.dispose()


def test_a_bad_result_names_its_row_and_can_be_corrected(app: Flask,
                                                         ann: FlaskClient) -> None:
    rows = [{"date": "2026-09-19", "round": "1", "white": "Byrne, Seán",
             "black": "Novak, Petra", "result": "1-0"},
            {"date": "2026-09-19", "round": "2", "white": "Novak, Petra",
             "black": "Byrne, Seán", "result": "2-0"}]
    assert _type(ann, rows).status_code == 303
    status = ann.get("/submissions/1").get_data(as_text=True)
    assert "<strong>row 2, result</strong>: " in status and "2-0" in status
    assert 'href="/submissions/type?edit=1"' in status
    form = ann.get("/submissions/type?edit=1").get_data(as_text=True)
    assert "Correct submission 1" in form and 'value="2-0" selected' in form
    rows[1]["result"] = "0-1"
    fixed = _type(ann, rows, url="/submissions/type?edit=1", edit="1")
    assert fixed.status_code == 303 and fixed.headers["Location"] == "/submissions/1"
    assert "0 errors, 0 warnings" in ann.get("/submissions/1").get_data(as_text=True)
    assert _games(app.extensions["ledger"]) == []  # pending: nothing recorded


def test_a_new_player_is_a_warning_refused_unticked_registered_ticked(
        app: Flask, ann: FlaskClient, olga: FlaskClient) -> None:
    engine = app.extensions["ledger"]
    _type(ann, [{"date": "2026-09-19", "round": "1", "white": "Byrne, Seán",
                 "black": "Quinn, Aoife", "result": "0-1"},
                {"date": "2026-09-20", "round": "2", "white": "Quinn, Aoife",
                 "black": "Novak, Petra", "result": "1-0"}])
    review = olga.get("/review/1").get_data(as_text=True)
    assert ("<strong>row 1, black</strong> (rows 1, 2): new player: Quinn, Aoife (register on "
            "accepting)") in review
    [tick] = _ticks(review)
    refused = olga.post("/review/1/accept", data={"csrf_token": csrf_token(review)})
    assert refused.status_code == 409 and "1 not ticked" in refused.get_data(as_text=True)
    assert _games(engine) == []
    done = olga.post("/review/1/accept", data={"csrf_token": csrf_token(review), "tick": tick})
    assert done.status_code == 303
    assert [g[3:6] for g in _games(engine)] == [("Byrne, Seán", "Quinn, Aoife", "0-1"),
                                                ("Quinn, Aoife", "Novak, Petra", "1-0")]


def test_refused_without_login_or_csrf_and_nothing_typed(app: Flask, client: FlaskClient,
                                                         login: Callable[..., Any]) -> None:
    assert client.get("/submissions/type").status_code == 302  # to /login
    token = csrf_token(client.get("/login").get_data(as_text=True))
    assert client.post("/submissions/type", data={"csrf_token": token}).status_code == 401
    login(client, "Ann", "reporter")
    no_token = client.post("/submissions/type", data={"date-1": "2026-09-19", "rows": "10"})
    assert no_token.status_code == 400
    empty = _type(client, [{"round": " ", "white": ""}])  # blanks only: no game
    assert empty.status_code == 400
    assert "rows: no game typed" in empty.get_data(as_text=True)
    assert client.get("/submissions/1").status_code == 404  # nothing stored
    assert client.get("/submissions/type?edit=1").status_code == 404


def test_html_in_every_field_comes_back_escaped(ann: FlaskClient, olga: FlaskClient) -> None:
    tag = "<b>x</b>"
    rows = [{field: tag for field in ("date", "round", "white", "black", "result")}]
    shown = _type(ann, rows, action="more", event=tag, time_control=tag, pool=tag)
    assert tag not in shown.get_data(as_text=True)
    # six inputs' values (event, time control, date, round, White, Black), and the pool's and
    # the result's option offering the value given, its value and its text: 6 + 2 + 2
    assert shown.get_data(as_text=True).count("&lt;b&gt;x&lt;/b&gt;") == 10
    assert _type(ann, rows, event=tag, time_control=tag, pool=tag).status_code == 303
    for page in (ann.get("/submissions/1"), olga.get("/review/1"),
                 ann.get("/submissions/type?edit=1")):
        text = page.get_data(as_text=True)
        assert page.status_code == 200 and tag not in text and "&lt;b&gt;x" in text


def test_another_reporters_typed_games_are_not_found(app: Flask, ann: FlaskClient,
                                                    login: Callable[..., Any]) -> None:
    row = {"date": "2026-09-19", "white": "Byrne, Seán", "black": "Novak, Petra",
           "result": "1-0"}
    _type(ann, [row])
    bob = app.test_client()
    login(bob, "Bob", "reporter")
    assert bob.get("/submissions/type?edit=1").status_code == 404
    assert _type(bob, [row], edit="1").status_code == 404  # not his: as if there were none
    assert "Submission 1: pending" in ann.get("/submissions/1").get_data(as_text=True)
