"""Submissions on the web (issue 23): the reporter's pages and the officer's review, with the
Flask test client, over ``services.submissions`` (tested with the same files in
test_submissions_service.py, whose docstring describes them).

examples/riverside-autumn-open-2026.pgn: 15 games, 6 players unknown to a new ledger (one
warning each, ``--register-players``), the last game without moves (a warning on line 218):
7 warnings, no error. Line 23 is game 2's Result tag.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_token
from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage
from werkzeug.test import TestResponse, encode_multipart

from ledger.db.models import Game
from ledger.services.core.session import transaction
from ledger.services.submissions.checking import UPLOAD_LIMIT

from data_files import EXAMPLE_DATA  # isort: skip

RIVERSIDE = (EXAMPLE_DATA.parent / "riverside-autumn-open-2026.pgn").read_bytes()


def upload(client: FlaskClient, url: str, data: bytes, name: str, page: str | None = None,
           **fields: str) -> TestResponse:
    """POST the file ``data`` named ``name`` (and ``fields``) to ``url`` with the CSRF token
    of the form at ``page`` (default ``/submissions/new``)."""
    token = csrf_token(client.get(page or "/submissions/new").get_data(as_text=True))
    # encoded here, in memory: the test client spools a body over 500 KB to a temporary file
    # it never closes (a ResourceWarning, an error under filterwarnings=error)
    boundary, body = encode_multipart({"file": FileStorage(io.BytesIO(data), name),
                                       "csrf_token": token, **fields})
    return client.post(url, data=body, content_type=f"multipart/form-data; boundary={boundary}")


def games(app: Flask) -> int:
    with transaction(app.extensions["ledger"], write=False) as session:
        return session.scalar(select(func.count()).select_from(Game)) or 0


@pytest.fixture
def officer(app: Flask, login: Callable[..., Any]) -> FlaskClient:
    """A second browser, logged in as the officer Olga."""
    browser = app.test_client()
    login(browser, "Olga", "officer")
    return browser


def test_a_reporter_submits_and_reads_the_status(client: FlaskClient,
                                                 login: Callable[..., Any]) -> None:
    login(client, "Ann", "reporter")
    form = client.get("/submissions/new").get_data(as_text=True)
    assert 'type="file"' in form and 'name="pool"' in form and 'for="file"' in form
    answer = upload(client, "/submissions/new", RIVERSIDE, "riverside.pgn")
    assert answer.status_code == 303 and answer.headers["Location"] == "/submissions/1"
    page = client.get("/submissions/1").get_data(as_text=True)
    assert "Submission 1: pending" in page
    assert "0 errors, 7 warnings; 15 games to record" in page
    assert "waiting for an officer to review 7 warnings" in page
    assert "unknown player &#x27;Okafor, Grace&#x27;" in page
    mine = client.get("/submissions").get_data(as_text=True)
    assert '<a href="/submissions/1">1</a>' in mine and "riverside.pgn" in mine


def test_a_bad_line_is_named_with_its_line_and_field(client: FlaskClient,
                                                     login: Callable[..., Any]) -> None:
    login(client, "Ann", "reporter")
    bad = RIVERSIDE.replace(b'[Result "1/2-1/2"]', b'[Result "2-0"]', 1)  # line 23
    upload(client, "/submissions/new", bad, "open.pgn")
    page = client.get("/submissions/1").get_data(as_text=True)
    assert ("<strong>open.pgn, line 23, field Result</strong>: Result tag &#x27;2-0&#x27; is "
            "not a PGN result") in page
    assert "the file has errors: correct them and submit the file again" in page
    # corrected and submitted again on the status page
    again = upload(client, "/submissions/1/resubmit", RIVERSIDE, "open.pgn",
                   page="/submissions/1")
    assert again.status_code == 303
    assert "0 errors, 7 warnings" in client.get("/submissions/1").get_data(as_text=True)


@pytest.mark.parametrize(("data", "name", "code", "said"), [
    (b"x" * (UPLOAD_LIMIT + 1), "big.pgn", 413, "a submission is at most 10 MB"),
    (b'[Event "a"]\n\x00\x01', "a.pgn", 400, "binary bytes (a NUL byte at offset 12)"),
    (b"%PDF-1.4\n1 0 obj\n", "a.pdf", 400, "not a format the ledger reads"),
])
def test_uploads_refused_with_a_clear_message(client: FlaskClient, login: Callable[..., Any],
                                              data: bytes, name: str, code: int,
                                              said: str) -> None:
    login(client, "Ann", "reporter")
    answer = upload(client, "/submissions/new", data, name)
    assert answer.status_code == code
    assert said in answer.get_data(as_text=True)
    assert "No submissions yet." in client.get("/submissions").get_data(as_text=True)


def test_a_body_over_the_limit_is_413(client: FlaskClient, login: Callable[..., Any]) -> None:
    login(client, "Ann", "reporter")
    answer = upload(client, "/submissions/new", b"x" * (UPLOAD_LIMIT + 128 * 1024), "big.pgn")
    assert answer.status_code == 413


def test_another_reporters_submission_is_404(app: Flask, client: FlaskClient,
                                             login: Callable[..., Any]) -> None:
    login(client, "Ann", "reporter")
    upload(client, "/submissions/new", RIVERSIDE, "r.pgn")
    bob = app.test_client()
    login(bob, "Bob", "reporter")
    assert bob.get("/submissions/1").status_code == 404
    token = csrf_token(bob.get("/submissions/new").get_data(as_text=True))
    assert bob.post("/submissions/1/withdraw", data={"csrf_token": token}).status_code == 404
    assert upload(bob, "/submissions/1/resubmit", RIVERSIDE, "r.pgn").status_code == 404
    assert upload(bob, "/submissions/1/correct", RIVERSIDE, "r.pgn").status_code == 404
    assert bob.get("/submissions/2").status_code == 404  # none: the same answer
    assert "pending" in client.get("/submissions/1").get_data(as_text=True)


def test_writes_refused_below_the_role_and_without_csrf(app: Flask, client: FlaskClient,
                                                        login: Callable[..., Any]) -> None:
    assert client.get("/submissions").status_code == 302  # to /login
    assert client.get("/review").status_code == 302
    assert client.post("/submissions/new").status_code in (400, 401)
    login(client, "Ann", "reporter")
    upload(client, "/submissions/new", RIVERSIDE, "r.pgn")
    token = csrf_token(client.get("/submissions/new").get_data(as_text=True))
    assert client.get("/review").status_code == 403
    assert client.get("/review/1").status_code == 403
    for url in ("/review/1/accept", "/review/1/reject"):
        assert client.post(url, data={"csrf_token": token, "reason": "x"}).status_code == 403
    # without the CSRF token: 400, nothing done
    assert client.post("/submissions/1/withdraw").status_code == 400
    answer = client.post("/submissions/new", data={"file": (io.BytesIO(RIVERSIDE), "r.pgn")},
                         content_type="multipart/form-data")
    assert answer.status_code == 400
    olga = app.test_client()
    login(olga, "Olga", "officer")
    assert olga.post("/review/1/accept", data={"tick": "x"}).status_code == 400
    assert olga.post("/review/1/reject", data={"reason": "no"}).status_code == 400
    assert "Submission 1: pending" in client.get("/submissions/1").get_data(as_text=True)
    assert games(app) == 0


def test_an_officer_ticks_every_warning_to_accept(app: Flask, client: FlaskClient,
                                                  login: Callable[..., Any],
                                                  officer: FlaskClient) -> None:
    login(client, "Ann", "reporter")
    upload(client, "/submissions/new", RIVERSIDE, "riverside.pgn")
    queue = officer.get("/review").get_data(as_text=True)
    assert '<a href="/review/1">1</a>' in queue and "Ann" in queue
    page = officer.get("/review/1").get_data(as_text=True)
    ticks = [part.split('"')[0] for part in page.split('name="tick" value="')[1:]]
    assert len(ticks) == 7
    assert "The games (15)" in page  # the preview: the games as they would be recorded
    token = csrf_token(page)
    refused = officer.post("/review/1/accept", data={"csrf_token": token, "tick": ticks[:6]})
    assert refused.status_code == 409
    assert "tick each warning to accept it; 1 not ticked" in refused.get_data(as_text=True)
    assert games(app) == 0
    done = officer.post("/review/1/accept", data={"csrf_token": token, "tick": ticks})
    assert done.status_code == 303
    assert games(app) == 15
    status = client.get("/submissions/1").get_data(as_text=True)
    assert "Submission 1: accepted" in status and "by Olga" in status
    assert "15 games in period 2026-09 (Standard): rated when the period is closed" in status


def test_html_in_every_field_comes_back_escaped(app: Flask, client: FlaskClient,
                                                login: Callable[..., Any],
                                                officer: FlaskClient) -> None:
    login(client, "Ann", "reporter")
    tagged = RIVERSIDE.replace(b"Riverside Autumn Open 2026", b"<i>Open</i> 2026")
    upload(client, "/submissions/new", tagged, "<img src=x onerror=alert(1)>.pgn")
    mine = client.get("/submissions").get_data(as_text=True)
    assert "<img" not in mine and "&lt;img src=x onerror=alert(1)&gt;.pgn" in mine
    review = officer.get("/review/1").get_data(as_text=True)
    assert "<i>Open</i>" not in review and "&lt;i&gt;Open&lt;/i&gt; 2026" in review
    token = csrf_token(review)
    blank = officer.post("/review/1/reject", data={"csrf_token": token, "reason": " "})
    assert blank.status_code == 400 and "reason: say why" in blank.get_data(as_text=True)
    answer = officer.post("/review/1/reject", data={"csrf_token": token,
                                                    "reason": "<b>Round 5</b> is missing"})
    assert answer.status_code == 303
    status = client.get("/submissions/1").get_data(as_text=True)
    assert "Submission 1: rejected" in status
    assert "&lt;b&gt;Round 5&lt;/b&gt; is missing" in status and "<b>Round 5</b>" not in status


def test_a_corrected_file_of_an_accepted_event_shows_its_difference(
        app: Flask, client: FlaskClient, login: Callable[..., Any],
        officer: FlaskClient) -> None:
    login(client, "Ann", "reporter")
    upload(client, "/submissions/new", RIVERSIDE, "riverside.pgn")
    page = officer.get("/review/1").get_data(as_text=True)
    ticks = [part.split('"')[0] for part in page.split('name="tick" value="')[1:]]
    officer.post("/review/1/accept", data={"csrf_token": csrf_token(page), "tick": ticks})
    # game 2 (R1.2 Novak v Moreau, 2026-09-05, line 23) was a draw; the corrected file: 1-0
    fixed = RIVERSIDE.replace(b'[Result "1/2-1/2"]\n[WhiteElo "2150"]',
                              b'[Result "1-0"]\n[WhiteElo "2150"]', 1).replace(
        b"4. g3 d5 1/2-1/2", b"4. g3 d5 1-0", 1)  # its moves' end, line 29
    answer = upload(client, "/submissions/1/correct", fixed, "riverside.pgn",
                    page="/submissions/1")
    assert answer.status_code == 303 and answer.headers["Location"] == "/submissions/2"
    status = client.get("/submissions/2").get_data(as_text=True)
    assert "A corrected file of submission 1: Riverside Autumn Open 2026" in status
    assert "0 games added, 0 removed, 1 changed, 14 unchanged." in status
    assert "changed: R1.2 2026-09-05 Novak, Petra - Moreau, Claire 1/2-1/2 -&gt; 1-0" in status
    review = officer.get("/review/2").get_data(as_text=True)
    assert "1 changed, 14 unchanged" in review
    # a pending submission is corrected by resubmitting it, not by a correction
    other = upload(client, "/submissions/2/correct", fixed, "r.pgn", page="/submissions/2")
    assert other.status_code == 400
    assert "submission 2 is pending: only the event of an accepted submission can be " \
        "corrected" in other.get_data(as_text=True)


def test_the_review_shows_the_integrity_flags(client: FlaskClient, login: Callable[..., Any],
                                              officer: FlaskClient) -> None:
    # examples/guide/riverside-club-night.pgn (tests/integration/test_integrity_service.py):
    # Walsh, Declan and Byrne, Sinead, unknown to a new ledger, play each other twice on
    # 5 November 2026; a PGN gives no birth year or sex, and they met nobody else: a closed
    # pool and two new players without details (flags, none blocking the accept)
    login(client, "Ann", "reporter")
    night = (EXAMPLE_DATA.parent / "guide" / "riverside-club-night.pgn").read_bytes()
    upload(client, "/submissions/new", night, "night.pgn")
    page = officer.get("/review/1").get_data(as_text=True)
    assert ("<strong>Walsh, Declan</strong> (new-player-details): Walsh, Declan is new to the "
            "ledger and the file gives no birth year and no sex") in page
    assert ("<strong>Riverside Club Night November 2026</strong> (closed-pool): Riverside Club "
            "Night November 2026: its 2 players played nobody outside the group") in page
    assert "<button type=\"submit\">Accept: record the games</button>" in page
