"""The integrity flags on the officer's review page (issue 23, "Integrity checks"), with the
Flask test client: ``web.submissions.integrity_flags`` runs ``imports.integrity`` on the file as
submitted, on the day it was submitted, and the page shows each flag with its reason.

examples/riverside-autumn-open-2026.pgn on a new ledger: 6 players the ledger does not know
(the PGN gives their ratings, no birth year, no sex), 15 games from 2026-09-05 to 2026-09-27.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_token
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from data_files import EXAMPLE_DATA  # isort: skip

RIVERSIDE = (EXAMPLE_DATA.parent / "riverside-autumn-open-2026.pgn").read_bytes()


def test_the_review_page_shows_the_integrity_flags(app: Flask, client: FlaskClient,
                                                   login: Callable[..., Any]) -> None:
    login(client, "Ann", "reporter")
    token = csrf_token(client.get("/submissions/new").get_data(as_text=True))
    boundary, body = encode_multipart({"file": FileStorage(io.BytesIO(RIVERSIDE), "open.pgn"),
                                       "csrf_token": token})
    answer = client.post("/submissions/new", data=body,
                         content_type=f"multipart/form-data; boundary={boundary}")
    assert answer.status_code == 303
    officer = app.test_client()
    login(officer, "Olga", "officer")
    page = officer.get("/review/1").get_data(as_text=True)
    today = dt.datetime.now(dt.UTC).date()
    # ended on 2026-09-27 (its last game), submitted today: more than 30 days later
    days = (today - dt.date(2026, 9, 27)).days
    assert days > 30
    assert (f"<li><strong>late-submission</strong>: Riverside Autumn Open 2026 ended on "
            f"2026-09-27 and was submitted on {today.isoformat()}, {days} days later (more "
            "than 30)</li>") in page
    # a new ledger: none of the six has played anyone but the others
    assert ("<strong>closed-pool</strong>: Riverside Autumn Open 2026: its 6 players played "
            "nobody outside the group in the 12 months to") in page
    # a PGN gives neither birth year nor sex: one flag for each of the six
    assert ("<li><strong>new-player-details</strong>: Okafor, Grace is new to the ledger and "
            "the file gives no birth year and no sex</li>") in page
    assert page.count("new-player-details</strong>") == 6
    assert "No integrity flag." not in page
