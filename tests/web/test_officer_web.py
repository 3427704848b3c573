"""The rating officer's pages (issue 23, ``web.officer`` and ``web.officer_corrections``): who
may use them, the close from its preview, a correction from its preview, refusals that change
nothing, the audit log naming the web user, and HTML escaped wherever it may come back.

The ledger is the Tata Steel Masters 2022 (``examples/data/tata_steel_masters_2022.pgn``,
imported with ``--register-players``; 2022-01 left open unless a test closes it). The values
are FIDE's published February 2022 list (docs of ``example_ledgers.build_tata``): Carlsen 2865
+ 3 = 2868, Caruana 2792 - 11 = 2781, Van Foreest 2702 + 12 = 2714.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import form_post
from ledgers import Server, sql
from officer_ledgers import cli as _cli
from officer_ledgers import copy_for_test, listed, ratings, tata_open

from ledger.db.models.accounts import ROLES
from ledger.services.submissions import submissions
from ledger.web.access import ACTIONS

OFFICER = "Olive Officer"


@pytest.fixture
def web_db(server: Server | None, tmp_path_factory: pytest.TempPathFactory,
           new_ledger: Callable[[str], str]) -> str:
    """The ledger the application serves: a copy of the Tata Steel ledger, 2022-01 open."""
    return copy_for_test(tata_open(server, tmp_path_factory), new_ledger, "web")


def _changes(db: str) -> int:
    return int(sql(db, "SELECT count(*) FROM changes")[0][0])  # type: ignore[arg-type]


#: Every page of the officer (GET) and every write (POST, with a form the service would take).
PAGES = ["/officer", "/officer/close", "/officer/audit", "/officer/reopen", "/officer/rerate",
         "/officer/games/3/void", "/officer/games/3/correct", "/officer/players/merge",
         "/officer/players/1/edit", "/officer/imports/1/revert", "/officer/replace"]
WRITES = [("/officer/close", {"period": "2022-01", "pool": "standard"}),
          ("/officer/reopen", {"period": "2022-01", "pool": "standard", "reason": "why"}),
          ("/officer/rerate", {"start": "2022-01", "pool": "standard", "reason": "why"}),
          ("/officer/games/3/void", {"reason": "never played"}),
          ("/officer/games/3/correct", {"result": "1-0", "reason": "typed wrong"}),
          ("/officer/players/merge", {"keep": "#1", "duplicate": "#2", "reason": "why"}),
          ("/officer/players/1/edit", {"birth_year": "1999", "reason": "why"}),
          ("/officer/imports/1/revert", {"reason": "wrong file"}),
          ("/officer/replace", {"held": "0" * 64, "reason": "why"})]


def test_not_logged_in_pages_go_to_login_and_writes_get_401(client: FlaskClient,
                                                             web_db: str) -> None:
    before = _changes(web_db)
    for page in PAGES:
        answer = client.get(page)
        assert answer.status_code == 302, page
        assert answer.headers["Location"].startswith("/login"), page
    for url, data in WRITES:  # with a valid CSRF token (the login page's): 401
        assert form_post(client, url, data, page="/login").status_code == 401, url
    assert _changes(web_db) == before


def test_a_reporter_is_refused_every_page_and_write(client: FlaskClient, web_db: str,
                                                     login: Callable[..., Any]) -> None:
    login(client, "Rita Reporter", "reporter")
    before = _changes(web_db)
    for page in PAGES:
        assert client.get(page).status_code == 403, page
    for url, data in WRITES:  # with a valid CSRF token (the account page's): still 403
        assert form_post(client, url, data, page="/account/password").status_code == 403, url
    assert _changes(web_db) == before


def test_every_write_without_its_csrf_token_is_refused(client: FlaskClient, web_db: str,
                                                       login: Callable[..., Any]) -> None:
    login(client, OFFICER, "officer")
    before = _changes(web_db)
    for url, data in WRITES:
        assert client.post(url, data=data).status_code == 400, url
    assert _changes(web_db) == before


def test_the_close_from_the_web_equals_the_cli_close(client: FlaskClient, web_db: str,
                                                     login: Callable[..., Any],
                                                     server: Server | None,
                                                     tmp_path_factory: pytest.TempPathFactory,
                                                     new_ledger: Callable[[str], str]) -> None:
    by_cli = copy_for_test(tata_open(server, tmp_path_factory), new_ledger, "cli")
    _cli(by_cli, "period", "close", "2022-01")
    login(client, OFFICER, "officer")
    preview = client.get("/officer/close")
    assert preview.status_code == 200
    page = preview.get_data(as_text=True)
    assert "Rating period 2022-01, standard (dry run, nothing written" in page
    # Carlsen's row: 2865, 12 games, 8.5 points, K 10, +3.10 exact, +3, 2868 (FIDE's figures)
    assert ('<th scope="row" class="name">Carlsen, Magnus</th>'
            '<td class="num" data-label="FIDE id">1503014</td>'
            '<td class="num" data-label="Before">2865</td>'
            '<td class="num" data-label="Games">12</td>'
            '<td class="num" data-label="Score">8.5</td>') in page
    assert ('<td class="num" data-label="K × (S − PD)">+3.10</td>'
            '<td class="num" data-label="Change">+3</td>'
            '<td class="num rating" data-label="After">2868</td>') in page
    assert "Close 2022-01 (standard) and publish its list" in page
    assert "nothing to close in the rapid pool" in page  # no rapid or blitz games
    assert sql(web_db, "SELECT count(*) FROM periods")[0][0] == 0  # the preview wrote nothing

    done = form_post(client, "/officer/close", {"period": "2022-01", "pool": "standard"})
    assert done.status_code == 200
    assert "closed, revision 1" in done.get_data(as_text=True)
    web_list, cli_list = listed(web_db), listed(by_cli)
    assert web_list == cli_list
    now = ratings(web_db)
    assert now["Carlsen, Magnus"] == 2868  # 2865 + 3
    assert now["Caruana, Fabiano"] == 2781  # 2792 - 11
    assert now["Van Foreest, Jorden"] == 2714  # 2702 + 12

    # the button of a preview shown before the close (nothing left to close: no form now)
    again = form_post(client, "/officer/close", {"period": "2022-01", "pool": "standard"},
                      page="/account/password")
    assert again.status_code == 409
    assert "period 2022-01 is already closed" in again.get_data(as_text=True)


def test_a_void_previewed_then_done_changes_the_list_after_a_rerate(
        client: FlaskClient, web_db: str, login: Callable[..., Any]) -> None:
    _cli(web_db, "period", "close", "2022-01")
    login(client, OFFICER, "officer")
    # Game 3: Giri (2772) v Praggnanandhaa (2612), 1/2-1/2. D = 160: PD 0.71 for Giri (FIDE's
    # table 8.1.2, 158-166), 0.29 for Pragg. Without it Giri's exact change K x sum(S - PD) =
    # -1.00 - 10 x (0.5 - 0.71) = +1.10 -> +1 -> 2773 (was -1 -> 2771); Pragg's 6.80 - 2.10 =
    # 4.70 -> +5 -> 2617 (was +7 -> 2619).
    url = "/officer/games/3/void"
    preview_url = f"{url}?preview=1&reason=never+played&effect=rerate"
    preview = client.get(preview_url)
    assert preview.status_code == 200
    page = preview.get_data(as_text=True)
    assert "Preview: nothing is written yet" in page
    assert ('<tr><td>Giri, Anish</td><td class="num">2771</td><td class="num">2773</td></tr>'
            in page)
    assert ('<tr><td>Praggnanandhaa, R</td><td class="num">2619</td><td class="num">2617</td>'
            in page)
    assert ratings(web_db)["Giri, Anish"] == 2771  # the preview wrote nothing

    done = form_post(client, url, {"reason": "never played", "effect": "rerate"},
                     page=preview_url)
    assert done.status_code == 200
    assert "Done" in done.get_data(as_text=True)
    after = listed(web_db)
    assert after["revision"] == 2
    now = {p["name"]: p["rating"] for p in after["players"]}
    assert now["Giri, Anish"] == 2773 and now["Praggnanandhaa, R"] == 2617
    assert sql(web_db, "SELECT status FROM games WHERE id = 3") == [("void",)]


def test_refusals_change_nothing_and_say_why(client: FlaskClient, web_db: str,
                                             login: Callable[..., Any]) -> None:
    _cli(web_db, "period", "close", "2022-01")
    login(client, OFFICER, "officer")
    before = _changes(web_db)
    url = "/officer/games/3/void"
    # the page whose POST form is read for the token: a preview that the service accepts
    page = f"{url}?preview=1&reason=never+played&effect=rerate"
    no_reason = form_post(client, url, {"reason": "  ", "effect": "rerate"}, page=page)
    assert no_reason.status_code == 400
    assert "reason: say why" in no_reason.get_data(as_text=True)
    unknown = form_post(client, "/officer/games/999/void", {"reason": "never played"},
                        page=page)
    assert unknown.status_code == 404
    assert "game: no game with id 999" in unknown.get_data(as_text=True)
    no_mode = form_post(client, url, {"reason": "never played"}, page=page)
    assert no_mode.status_code == 409
    assert "--in-next-period" in no_mode.get_data(as_text=True)
    preview = client.get("/officer/games/999/void?preview=1&reason=x")
    assert preview.status_code == 404
    bad_year = form_post(client, "/officer/players/1/edit", {"birth_year": "19x9",
                                                             "reason": "why"}, page=page)
    assert bad_year.status_code == 400
    assert "birth_year: &#x27;19x9&#x27; is not a whole number" in bad_year.get_data(as_text=True)
    assert _changes(web_db) == before
    assert sql(web_db, "SELECT status FROM games WHERE id = 3") == [("valid",)]
    assert ratings(web_db)["Giri, Anish"] == 2771


def test_the_audit_page_shows_the_web_user_as_by(client: FlaskClient, web_db: str,
                                                 login: Callable[..., Any]) -> None:
    login(client, OFFICER, "officer")
    done = form_post(client, "/officer/games/3/void", {"reason": "never played"},
                     page="/officer/games/3/void?preview=1&reason=never+played")
    assert done.status_code == 200  # 2022-01 is open: no mode needed
    page = client.get("/officer/audit").get_data(as_text=True)
    assert (f'<td class="by" data-label="By">{OFFICER}</td>'
            '<td data-label="Action">game.void</td>') in page
    assert "web 127.0.0.1 POST /officer/games/3/void" in page
    assert sql(web_db, "SELECT by, command FROM changes WHERE action = 'game.void'") == [
        (OFFICER, "web 127.0.0.1 POST /officer/games/3/void")]
    filtered = client.get("/officer/audit?period=2022-13")
    assert filtered.status_code == 400


def test_html_in_every_field_comes_back_escaped(client: FlaskClient, web_db: str,
                                                login: Callable[..., Any]) -> None:
    login(client, OFFICER, "officer")
    mark = "<script>alert(1)</script>"
    shown = "&lt;script&gt;alert(1)&lt;/script&gt;"
    preview = client.get("/officer/games/3/void", query_string={"preview": "1", "reason": mark})
    assert preview.status_code == 200
    assert mark not in preview.get_data(as_text=True) and shown in preview.get_data(as_text=True)
    done = form_post(client, "/officer/games/3/void", {"reason": mark},
                     page="/officer/games/3/void?preview=1&reason=x")
    assert done.status_code == 200
    audit = client.get("/officer/audit").get_data(as_text=True)
    assert mark not in audit and shown in audit
    for url, field in (("/officer/players/merge", "keep"), ("/officer/players/1/edit", "name"),
                       ("/officer/games/4/correct", "white"), ("/officer/audit", "player"),
                       ("/officer/reopen", "period"), ("/officer/rerate", "start")):
        answer = client.get(url, query_string={"preview": "1", field: mark, "reason": mark})
        text = answer.get_data(as_text=True)
        assert mark not in text, url
        assert shown in text, url


def test_the_audit_page_shows_the_newest_changes_and_filters(
        client: FlaskClient, web_db: str, login: Callable[..., Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ledger.web import officer

    login(client, OFFICER, "officer")
    _cli(web_db, "player", "edit", "#2", "--birth-year", "1990", "--reason", "from FIDE")
    page = client.get("/officer/audit").get_data(as_text=True)
    # the import, the user added, its login, the edit: 4 changes
    assert "<caption>4 changes, newest first</caption>" in page
    monkeypatch.setattr(officer, "AUDIT_ROWS", 2)
    page = client.get("/officer/audit").get_data(as_text=True)
    assert "4 changes, newest first; the newest 2 shown" in page
    assert page.index("player.edit") < page.index("user.login")  # newest first
    only = client.get("/officer/audit", query_string={"player": "Carlsen"})
    assert only.status_code == 200
    text = only.get_data(as_text=True)
    # Carlsen's: registered by the import, and the edit
    assert "<caption>2 changes, newest first</caption>" in text
    nobody = client.get("/officer/audit", query_string={"player": "Nobody, At All"})
    assert nobody.status_code == 404


def test_a_pending_submission_holds_the_close_unless_left(client: FlaskClient, web_db: str,
                                                          login: Callable[..., Any]) -> None:
    reporter = client.application.test_client()
    rita = login(reporter, "Rita Reporter", "reporter")
    game = (b'[Event "Wijk rapid evening"]\n[Date "2022.01.30"]\n[Round "1"]\n'
            b'[White "Carlsen, Magnus"]\n[Black "Giri, Anish"]\n[Result "1-0"]\n\n1-0\n')
    made = submissions.submit(client.application.extensions["ledger"], rita.id, "late.pgn",
                              game, {})
    assert made.state == "pending"
    login(client, OFFICER, "officer")
    assert "1 submission waits for review" in client.get("/officer").get_data(as_text=True)
    page = client.get("/officer/close").get_data(as_text=True)
    assert "1 submission waits for review" in page
    assert 'name="leave_pending"' in page
    held = form_post(client, "/officer/close", {"period": "2022-01", "pool": "standard"})
    assert held.status_code == 409
    assert f"submission {made.id} dated in it or before is pending review" in (
        held.get_data(as_text=True))
    assert sql(web_db, "SELECT count(*) FROM periods") == [(0,)]
    left = form_post(client, "/officer/close", {"period": "2022-01", "pool": "standard",
                                                "leave_pending": "1"})
    assert left.status_code == 200
    assert ratings(web_db)["Carlsen, Magnus"] == 2868  # the pending game is not rated


def test_every_route_names_its_action_and_each_role_gets_what_the_table_says(
        app: Flask, web_db: str, login: Callable[..., Any]) -> None:
    rules = [r for r in app.url_map.iter_rules()
             if r.endpoint.split(".")[0] in ("officer", "corrections", "events", "admin")]
    # officer: dashboard, close (GET, POST), reopen, rerate, audit; corrections: void, correct,
    # merge, edit, withdraw, correct-rating, revert, replace and the dashboard's "go"; events:
    # rename, void, merge; admin: users (GET, POST), role, disable
    assert len(rules) == 22
    for role in ROLES:
        browser = app.test_client()
        login(browser, f"User {role}", role)
        for rule in rules:
            action = app.view_functions[rule.endpoint].required_action
            if "GET" not in (rule.methods or ()):
                continue
            url = rule.build({a: 1 for a in rule.arguments} | (
                {"what": "game", "id": 3} if "what" in rule.arguments else {}))[1]
            answer = browser.get(url)
            wanted = (200, 302) if role in ACTIONS[action] else (403,)
            assert answer.status_code in wanted, (role, url, answer.status_code)
