"""The JSON API (web.api) over the README's example season: each route answers, byte for byte,
what the CLI's ``--json`` prints for the same question (one shape: services.publishing.
json_shapes), with ETag/304, Cache-Control, and JSON errors naming the field.

Hand-worked (as tests/web/test_public.py): Tanaka, Hiro (#6) in 2026-10, 1628 before, beat
Moreau 1799 (PD 0.27) and Lindqvist 1990 (PD 0.10): expected 0.37, K 40, exact change
40 x (2 - 0.37) = 65.2, rounded +65, 1693 after, rank 6 of the standard list of 2026-10.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from cli_runs import ok
from flask.testing import FlaskClient
from public_fixtures import app_over

JSON = "application/json; charset=utf-8"


@pytest.fixture
def client(season_db: str) -> Iterator[FlaskClient]:
    with app_over(season_db) as app:
        yield app.test_client()


@pytest.mark.parametrize(("path", "command"), [
    ("/api/lists/standard/2026-10", ["list", "--period", "2026-10"]),
    ("/api/lists/blitz/2026-10?revision=1", ["list", "--period", "2026-10", "--pool", "blitz",
                                             "--revision", "1"]),
    ("/api/players/6", ["player", "show", "#6"]),
    ("/api/players/1?pool=rapid", ["player", "show", "#1", "--pool", "rapid"]),
    ("/api/players/6/history", ["history", "#6"]),
    ("/api/players/7/history?pool=standard", ["history", "#7"]),
    ("/api/events/2", ["event", "show", "#2"]),
    ("/api/events/1?pool=standard", ["event", "show", "#1", "--pool", "standard"]),
])
def test_each_route_answers_what_the_cli_prints(client: FlaskClient, season_db: str, path: str,
                                                command: list[str]) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.content_type == JSON
    assert response.get_data(as_text=True) == ok(season_db, *command, "--json").stdout


def test_the_hand_worked_values(client: FlaskClient) -> None:
    listed = client.get("/api/lists/standard/2026-10").get_json()
    assert listed["in_force_from"] == "2026-11-01"
    tanaka = next(p for p in listed["players"] if p["id"] == 6)
    assert (tanaka["rank"], tanaka["rating"], tanaka["games"], tanaka["k"]) == (6, 1693, 2, 40)
    history = client.get("/api/players/6/history").get_json()
    october = next(r for r in history["periods"] if r["period"] == "2026-10")
    assert (october["rating_before"], october["expected"], october["change_exact"],
            october["change"], october["rating_after"]) == (1628, 0.37, 65.2, 65, 1693)
    assert history["peak"] == {"rating": 1693, "period": "2026-10", "in_force_from": "2026-11-01"}
    event = client.get("/api/events/2").get_json()
    row = next(p for p in event["players"] if p["player_id"] == 6)
    assert (row["rating"], row["score"], row["expected"], row["change"], row["period_change"]) \
        == (1628, 2, 0.37, 65.2, 65)


def test_etag_and_304(client: FlaskClient) -> None:
    first = client.get("/api/players/6")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get("/api/players/6", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert client.get("/api/players/6", headers={"If-None-Match": '"x"'}).status_code == 200


def test_a_numbered_revision_is_cached_for_good(client: FlaskClient) -> None:
    numbered = client.get("/api/lists/standard/2026-10?revision=1")
    assert numbered.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    current = client.get("/api/lists/standard/2026-10")
    assert current.headers["Cache-Control"] == "no-cache"
    # the same list (2026-10 was never re-rated): the same body, the same ETag
    assert numbered.headers["ETag"] == current.headers["ETag"]


@pytest.mark.parametrize(("path", "status", "field", "words"), [
    ("/api/lists/standard/2026-13", 400, "period", "2026-13 is not a valid month"),
    ("/api/lists/standard/October", 400, "period", "is not a period"),
    ("/api/lists/bullet/2026-10", 400, "pool", "'bullet' is not a pool"),
    ("/api/lists/standard/2026-10?revision=two", 400, "revision", "is not a revision number"),
    ("/api/lists/standard/2026-10?revision=0", 400, "revision", "must be 1 or more"),
    ("/api/players/6?pool=bullet", 400, "pool", "'bullet' is not a pool"),
    ("/api/players/6/history?pool=", 400, "pool", "is not a pool"),
    ("/api/events/2?pool=bullet", 400, "pool", "'bullet' is not a pool"),
    ("/api/lists/standard/2026-11", 404, "period", "2026-11 is not closed"),
    ("/api/lists/standard/2026-10?revision=2", 404, "revision", "has no revision 2"),
    ("/api/players/99", 404, "player", "no player with id #99"),
    ("/api/players/99/history", 404, "player", "no player with id #99"),
    ("/api/events/99", 404, "event", "no event with id #99"),
    ("/api/players/six", 404, "path", "no such address in the API"),
    ("/api/nothing", 404, "path", "no such address in the API"),
])
def test_refusals_are_json_naming_the_field(client: FlaskClient, path: str, status: int,
                                            field: str, words: str) -> None:
    response = client.get(path)
    assert response.status_code == status
    assert response.content_type == JSON
    assert response.headers["Cache-Control"] == "no-store"
    body = json.loads(response.get_data(as_text=True))
    assert body["status"] == status
    assert body["field"] == field
    assert words in body["error"]


def test_the_api_only_reads(client: FlaskClient) -> None:
    for path in ("/api/players/6", "/api/lists/standard/2026-10"):
        assert client.post(path).status_code in (400, 405)  # no write: CSRF or no such method
        assert client.delete(path).status_code == 405


def test_the_api_only_reads_and_says_so_in_json(client: FlaskClient) -> None:
    # a POST or a DELETE, which no route of the API takes: 405 as the API's JSON, not an
    # HTML page (the CSRF check only guards a route that takes the POST)
    posted = client.post("/api/players/6")
    assert posted.status_code == 405 and posted.get_json()["field"] == "method"
    answer = client.delete("/api/players/6")
    assert answer.status_code == 405
    assert answer.get_json() == {"status": 405, "field": "method",
                                 "error": "DELETE: the API only reads (GET)"}
    assert "GET" in answer.headers["Allow"]
