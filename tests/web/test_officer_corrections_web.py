"""The corrections from the web besides a void (issue 23, ``web.officer_corrections`` and
``web.officer``'s reopen and rerate): each previewed (the service's dry run: nothing written),
then done by its POST, as the CLI's command would do it; refusals change nothing.

Ledgers: Tata Steel 2022 (``test_officer_web``'s ``web_db``: imported, 2022-01 open), and the
guide's Harbour Autumn Swiss (``examples/guide``: ``members.csv``, ``autumn-swiss.trf`` and
its corrected ``autumn-swiss-fixed.trf``, round 3 Doherty v Ryan 0-1 rather than 1-0).
"""

from __future__ import annotations

import io
import os
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from data_files import ROOT
from flask.testing import FlaskClient
from helpers import csrf_token, form_post
from ledgers import Server, sql
from officer_ledgers import cli as _cli
from officer_ledgers import copy_for_test, ratings, tata_open

from ledger.domain import Actor
from ledger.services.accounts.users import add_user
from ledger.web import create_app
from ledger.web.officer_corrections import holding

OFFICER = "Olive Officer"
GUIDE = ROOT / "examples" / "guide"


def _changes(db: str) -> int:
    return int(sql(db, "SELECT count(*) FROM changes")[0][0])  # type: ignore[arg-type]


@pytest.fixture
def web_db(server: Server | None, tmp_path_factory: pytest.TempPathFactory,
           new_ledger: Callable[[str], str]) -> str:
    """The ledger the application serves: a copy of the Tata Steel ledger, 2022-01 open."""
    return copy_for_test(tata_open(server, tmp_path_factory), new_ledger, "web")


@pytest.fixture
def officer(client: FlaskClient, login: Callable[..., Any]) -> FlaskClient:
    login(client, OFFICER, "officer")
    return client


def test_reopen_then_close_again_writes_revision_2(officer: FlaskClient, web_db: str) -> None:
    _cli(web_db, "period", "close", "2022-01")
    url = "/officer/reopen"
    preview = officer.get(url, query_string={"preview": "1", "period": "2022-01",
                                             "pool": "standard", "reason": "a late file"})
    assert preview.status_code == 200
    assert ("revision 1, which rated 14 players, would be superseded"
            in preview.get_data(as_text=True))
    assert sql(web_db, "SELECT period, revision FROM periods") == [("2022-01", 1)]
    done = form_post(officer, url, {"period": "2022-01", "pool": "standard",
                                    "reason": "a late file"},
                     page=f"{url}?preview=1&period=2022-01&reason=a+late+file")
    assert done.status_code == 200
    assert sql(web_db, "SELECT count(*) FROM periods") == [(0,)]
    closed = form_post(officer, "/officer/close", {"period": "2022-01", "pool": "standard"})
    assert "closed, revision 2" in closed.get_data(as_text=True)
    not_latest = officer.get(url, query_string={"preview": "1", "period": "2021-12",
                                                "reason": "x"})
    assert not_latest.status_code == 409
    assert "only the latest closed period can be reopened, and that is 2022-01" in (
        not_latest.get_data(as_text=True))


def test_rerate_with_nothing_changed_moves_nobody(officer: FlaskClient, web_db: str) -> None:
    _cli(web_db, "period", "close", "2022-01")
    url = "/officer/rerate"
    page = f"{url}?preview=1&start=2022-01&pool=standard&reason=check"
    preview = officer.get(page)
    assert preview.status_code == 200
    text = preview.get_data(as_text=True)
    assert "Rating period 2022-01: revision 1 replaced by 2" in text
    assert "No rating on the list changes." in text
    assert sql(web_db, "SELECT revision FROM periods") == [(1,)]
    done = form_post(officer, url, {"start": "2022-01", "pool": "standard", "reason": "check"},
                     page=page)
    assert done.status_code == 200
    assert sql(web_db, "SELECT revision FROM periods") == [(2,)]
    assert ratings(web_db)["Carlsen, Magnus"] == 2868  # the same facts: the same list
    before = _changes(web_db)
    open_one = form_post(officer, url, {"start": "2022-02", "reason": "check"}, page=page)
    assert open_one.status_code == 409
    assert _changes(web_db) == before


def test_correct_a_result_then_close(officer: FlaskClient, web_db: str) -> None:
    # Game 3, Giri v Praggnanandhaa 1/2-1/2, corrected to 0-1 in the open period 2022-01;
    # Giri: D 160, PD 0.71; S - PD = 0 - 0.71 where the draw gave 0.5 - 0.71: 0.5 less, K 10:
    # exact -1.00 - 5.00 = -6.00 -> -6 -> 2766; Pragg 6.80 + 5.00 = 11.80 -> +12 -> 2624.
    url = "/officer/games/3/correct"
    page = f"{url}?preview=1&result=0-1&reason=typed+wrong"
    preview = officer.get(page)
    assert preview.status_code == 200
    assert "Every period it touches is open" in preview.get_data(as_text=True)
    assert sql(web_db, "SELECT result FROM games WHERE id = 3") == [("1/2-1/2",)]
    done = form_post(officer, url, {"result": "0-1", "reason": "typed wrong"}, page=page)
    assert done.status_code == 200
    assert sql(web_db, "SELECT result FROM games WHERE id = 3") == [("0-1",)]
    _cli(web_db, "period", "close", "2022-01")
    now = ratings(web_db)
    assert now["Giri, Anish"] == 2766 and now["Praggnanandhaa, R"] == 2624
    nothing = form_post(officer, url, {"reason": "typed wrong"}, page="/account/password")
    assert nothing.status_code == 400
    assert "nothing to correct" in nothing.get_data(as_text=True)


def test_edit_and_merge(officer: FlaskClient, web_db: str) -> None:
    edit = "/officer/players/2/edit"
    page = f"{edit}?preview=1&birth_year=1990&federation=nor&reason=from+FIDE"
    preview = officer.get(page)
    assert preview.status_code == 200
    text = preview.get_data(as_text=True)
    assert '<tr><th scope="row">birth_year</th><td></td><td>1990</td></tr>' in text
    assert '<tr><th scope="row">federation</th><td></td><td>NOR</td></tr>' in text
    done = form_post(officer, edit, {"birth_year": "1990", "federation": "nor",
                                     "reason": "from FIDE"}, page=page)
    assert done.status_code == 200
    assert sql(web_db, "SELECT birth_year, federation FROM players WHERE id = 2") == [
        (1990, "NOR")]
    # the same player registered again, without games: merged into #2
    _cli(web_db, "player", "add", "Carlsen, Magnus", "--new")
    new_id = sql(web_db, "SELECT max(id) FROM players")[0][0]
    merge = "/officer/players/merge"
    page = f"{merge}?preview=1&keep=%232&duplicate=%23{new_id}&reason=twice"
    preview = officer.get(page)
    assert preview.status_code == 200
    assert "Games moved: none." in preview.get_data(as_text=True)
    done = form_post(officer, merge, {"keep": "#2", "duplicate": f"#{new_id}",
                                      "reason": "twice"}, page=page)
    assert done.status_code == 200
    assert sql(web_db, f"SELECT merged_into FROM players WHERE id = {new_id}") == [(2,)]
    same = form_post(officer, merge, {"keep": "#2", "duplicate": "#2", "reason": "x"},
                     page="/account/password")
    assert same.status_code == 400
    assert "is the player kept" in same.get_data(as_text=True)


def test_revert_an_import(officer: FlaskClient, web_db: str) -> None:
    url = "/officer/imports/1/revert"
    page = f"{url}?preview=1&reason=wrong+file"
    preview = officer.get(page)
    assert preview.status_code == 200
    assert "Import 1: " in preview.get_data(as_text=True)
    assert sql(web_db, "SELECT count(*) FROM games WHERE status = 'void'") == [(0,)]
    done = form_post(officer, url, {"reason": "wrong file"}, page=page)
    assert done.status_code == 200
    # 91 games in the file, every one voided
    assert sql(web_db, "SELECT count(*) FROM games WHERE status = 'void'") == [(91,)]
    again = form_post(officer, url, {"reason": "wrong file"}, page="/account/password")
    assert again.status_code == 400
    unknown = officer.get("/officer/imports/9/revert?preview=1&reason=x")
    assert unknown.status_code == 404


@pytest.fixture
def swiss_db(new_ledger: Callable[[str], str]) -> str:
    db = new_ledger("swiss")
    _cli(db, "import", str(GUIDE / "members.csv"), "--format", "players")
    _cli(db, "import", str(GUIDE / "autumn-swiss.trf"), "--register-players", "--quiet")
    return db


def test_replace_an_event_by_its_corrected_file(swiss_db: str) -> None:
    app = create_app(swiss_db, secret=b"x" * 64, insecure_cookies=True)
    browser = app.test_client()
    try:
        add_user(app.extensions["ledger"], Actor("tests", "make_user"), OFFICER, "officer",
                 "correct horse battery")
        assert form_post(browser, "/login", {"username": OFFICER,
                                             "password": "correct horse battery"}).status_code == 302
        shown = browser.get("/officer/replace").get_data(as_text=True)
        fixed = (GUIDE / "autumn-swiss-fixed.trf").read_bytes()
        preview = browser.post("/officer/replace", data={
            "csrf_token": csrf_token(shown), "reason": "the arbiter's fix",
            "file": (io.BytesIO(fixed), "autumn-swiss-fixed.trf")},
            content_type="multipart/form-data")
        assert preview.status_code == 200
        text = preview.get_data(as_text=True)
        assert "0 added, 0 removed, 1 changed, 8 unchanged" in text
        assert "Doherty, Conor v Ryan, Eoin 1-0 (2026-10-25)" in text
        game = sql(swiss_db, "SELECT id FROM games WHERE result = '1-0' AND round = '3' AND "
                             "white_id = (SELECT id FROM players WHERE name = 'Doherty, Conor')")
        assert len(game) == 1
        held = re.search(r'name="held" value="([0-9a-f]{64})"', text)
        assert held is not None
        done = browser.post("/officer/replace", data={
            "csrf_token": csrf_token(text), "reason": "the arbiter's fix",
            "held": held.group(1)})
        assert done.status_code == 200
        assert sql(swiss_db, f"SELECT result FROM games WHERE id = {game[0][0]}") == [("0-1",)]
        gone = browser.post("/officer/replace", data={
            "csrf_token": csrf_token(text), "reason": "again", "held": held.group(1)})
        assert gone.status_code == 404  # applied: no longer kept
        no_file = browser.post("/officer/replace", data={"csrf_token": csrf_token(text),
                                                         "reason": "x"})
        assert no_file.status_code == 400
        unknown = fixed.replace(b"Doherty, Conor   ", b"Dockerty, Conrad ")
        refused = browser.post("/officer/replace", data={
            "csrf_token": csrf_token(text), "reason": "x",
            "file": (io.BytesIO(unknown), "autumn-swiss-fixed.trf")},
            content_type="multipart/form-data")
        assert refused.status_code == 400
        answer = refused.get_data(as_text=True)
        assert "autumn-swiss-fixed.trf:16" in answer  # the file's name as chosen, its line
        assert "ledger-replace" not in answer  # not where the server keeps it
        binary = browser.post("/officer/replace", data={
            "csrf_token": csrf_token(text), "reason": "x",
            "file": (io.BytesIO(b"012 \x00\x01"), "a.trf")}, content_type="multipart/form-data")
        assert binary.status_code == 400
        assert "file: binary bytes (a NUL byte at offset 4)" in binary.get_data(as_text=True)
        # a file previewed two days ago and never applied is let go at the next preview
        stale = holding() / ("f" * 64)
        stale.mkdir(exist_ok=True)
        (stale / "old.trf").write_bytes(b"012 Old")
        two_days_ago = time.time() - 2 * 24 * 3600
        os.utime(stale, (two_days_ago, two_days_ago))
        again = browser.post("/officer/replace", data={
            "csrf_token": csrf_token(text), "reason": "x",
            "file": (io.BytesIO(fixed), "autumn-swiss-fixed.trf")},
            content_type="multipart/form-data")
        assert again.status_code == 200
        assert not stale.exists()
    finally:
        app.extensions["ledger"].dispose()


def test_event_rename_void_and_merge(officer: FlaskClient, web_db: str) -> None:
    rename = "/officer/events/1/rename"
    page = f"{rename}?preview=1&name=Tata+Steel+Masters+2022&reason=the+short+name"
    preview = officer.get(page)
    assert preview.status_code == 200
    text = preview.get_data(as_text=True)
    assert "<td>84th Tata Steel Masters</td>" in text and "<td>Tata Steel Masters 2022</td>" in text
    assert sql(web_db, "SELECT name FROM events") == [("84th Tata Steel Masters",)]
    done = form_post(officer, rename, {"name": "Tata Steel Masters 2022",
                                       "reason": "the short name"}, page=page)
    assert done.status_code == 200
    assert sql(web_db, "SELECT name FROM events") == [("Tata Steel Masters 2022",)]

    void = "/officer/events/1/void"
    page = f"{void}?preview=1&reason=not+to+be+rated"
    preview = officer.get(page)
    assert preview.status_code == 200
    assert "games voided: 1, 2, 3," in preview.get_data(as_text=True)
    assert sql(web_db, "SELECT count(*) FROM games WHERE status = 'void'") == [(0,)]
    done = form_post(officer, void, {"reason": "not to be rated"}, page=page)
    assert done.status_code == 200
    assert sql(web_db, "SELECT count(*) FROM games WHERE status = 'void'") == [(91,)]

    # a game typed in under another name of the event: merged into it
    _cli(web_db, "game", "add", "Carlsen, Magnus", "Giri, Anish", "1-0", "--date", "2022-01-29",
         "--event", "Wijk aan Zee 2022", "--new-event")
    merge_url = "/officer/events/merge"
    page = f"{merge_url}?preview=1&keep=%231&other=%232&reason=one+event"
    preview = officer.get(page)
    assert preview.status_code == 200
    assert "event.merge: event #1; games moved: 92" in preview.get_data(as_text=True)
    done = form_post(officer, merge_url, {"keep": "#1", "other": "#2", "reason": "one event"},
                     page=page)
    assert done.status_code == 200
    assert sql(web_db, "SELECT event_id FROM games WHERE id = 92") == [(1,)]

    before = _changes(web_db)
    merge = officer.get("/officer/events/merge?preview=1&keep=%231&other=%231&reason=x")
    assert merge.status_code == 400
    unknown = officer.get("/officer/events/7/rename?preview=1&name=X&reason=x")
    assert unknown.status_code == 404
    assert _changes(web_db) == before


def test_withdraw_a_player_and_correct_a_published_rating(officer: FlaskClient,
                                                          web_db: str) -> None:
    _cli(web_db, "player", "add", "Mistake, Made", "--new")
    new_id = sql(web_db, "SELECT max(id) FROM players")[0][0]
    url = f"/officer/players/{new_id}/withdraw"
    page = f"{url}?preview=1&reason=registered+by+mistake"
    preview = officer.get(page)
    assert preview.status_code == 200
    assert f"Mistake, Made (#{new_id}) would be withdrawn" in preview.get_data(as_text=True)
    done = form_post(officer, url, {"reason": "registered by mistake"}, page=page)
    assert done.status_code == 200
    assert sql(web_db, f"SELECT withdrawn FROM players WHERE id = {new_id}") in ([(1,)], [(True,)])
    played = officer.get("/officer/players/2/withdraw?preview=1&reason=x")  # Carlsen has games
    assert played.status_code == 400

    _cli(web_db, "period", "close", "2022-01")
    url = "/officer/players/2/correct-rating"
    page = f"{url}?preview=1&rating=2870&period=2022-01&reason=FIDE+corrected+it"
    preview = officer.get(page)
    assert preview.status_code == 200
    assert "the standard list of 2022-01 published 2868; FIDE's correction 2870 would be in force" \
        in preview.get_data(as_text=True)
    done = form_post(officer, url, {"rating": "2870", "period": "2022-01",
                                    "reason": "FIDE corrected it"}, page=page)
    assert done.status_code == 200
    assert ratings(web_db)["Carlsen, Magnus"] == 2868  # the published list stands
    no_rating = officer.get(f"{url}?preview=1&period=2022-01&reason=x")
    assert no_rating.status_code == 400
    assert "rating: give the corrected rating" in no_rating.get_data(as_text=True)
