"""The pickers' search (``web.pickers`` over ``services.register.search``): ``GET
/api/search/players?q=`` and ``/api/search/events?q=``, public, read only, JSON."""

from __future__ import annotations

from flask.testing import FlaskClient
from typer.testing import CliRunner

from ledger.cli.app import app as cli


def _run(db: str, *args: str) -> None:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == 0, (args, result.output, result.stderr)


def _players(db: str) -> None:
    _run(db, "player", "add", "Byrne, Seán", "--fide-id", "90001004", "--federation", "IRL",
         "--birth-year", "1968", "--rating", "1850", "--prior-games", "300", "--sex", "M")
    _run(db, "player", "add", "Murphy, Sean", "--birth-year", "1983", "--sex", "M")
    _run(db, "player", "add", "Seanor, Ann", "--title", "WFM")
    _run(db, "player", "add", "Okafor, Grace", "--federation", "IRL")
    _run(db, "player", "add", "Mistake, Sean")
    _run(db, "player", "withdraw", "Mistake, Sean", "--reason", "typed twice")


def test_sean_finds_sean_with_and_without_accent(client: FlaskClient, web_db: str) -> None:
    _players(web_db)
    answer = client.get("/api/search/players?q=sean")
    assert answer.status_code == 200
    assert answer.content_type == "application/json; charset=utf-8"
    assert answer.headers["Cache-Control"] == "no-cache" and answer.headers["ETag"]
    # by name key: "byrne, sean" < "murphy, sean" < "seanor, ann"; the withdrawn
    # "Mistake, Sean" is offered nowhere; "Okafor, Grace" holds no "sean"
    assert answer.get_json() == {"query": "sean", "more": False, "players": [
        {"id": 1, "name": "Byrne, Seán", "fide_id": 90001004, "federation": "IRL",
         "birth_year": 1968, "title": None},
        {"id": 2, "name": "Murphy, Sean", "fide_id": None, "federation": None,
         "birth_year": 1983, "title": None},
        {"id": 3, "name": "Seanor, Ann", "fide_id": None, "federation": None,
         "birth_year": None, "title": "WFM"}]}


def test_every_word_in_any_order(client: FlaskClient, web_db: str) -> None:
    _players(web_db)
    # "SEÁN byrne": key words "sean", "byrne", both in "byrne, sean" only
    names = [p["name"] for p in client.get("/api/search/players?q=SE%C3%81N%20byrne")
             .get_json()["players"]]
    assert names == ["Byrne, Seán"]
    assert client.get("/api/search/players?q=nobody").get_json() == {
        "query": "nobody", "players": [], "more": False}


def test_no_query_finds_nothing(client: FlaskClient, web_db: str) -> None:
    _players(web_db)
    for url in ("/api/search/players", "/api/search/players?q=", "/api/search/players?q=%2C%20-",
                "/api/search/events?q="):
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer.get_json()["more"] is False
        assert next(v for k, v in answer.get_json().items() if k in ("players", "events")) == []


def test_at_most_twenty_and_more_said(client: FlaskClient, web_db: str) -> None:
    for i in range(21):
        _run(web_db, "player", "add", f"Kelly {i:02d}, Sean")
    found = client.get("/api/search/players?q=kelly").get_json()
    assert len(found["players"]) == 20 and found["more"] is True
    assert found["players"][0]["name"] == "Kelly 00, Sean"
    assert found["players"][-1]["name"] == "Kelly 19, Sean"
    _run(web_db, "player", "withdraw", "Kelly 20, Sean", "--reason", "typed by mistake")
    found = client.get("/api/search/players?q=kelly").get_json()
    assert len(found["players"]) == 20 and found["more"] is False


def test_a_query_too_long_is_refused(client: FlaskClient) -> None:
    answer = client.get("/api/search/players?q=" + "a" * 101)
    assert answer.status_code == 400
    assert answer.get_json() == {"status": 400, "field": "q",
                                 "error": "q: 101 characters; a search reads at most 100"}
    assert client.get("/api/search/players?q=" + "a" * 100).status_code == 200


def test_events(client: FlaskClient, web_db: str) -> None:
    _run(web_db, "player", "add", "Okafor, Grace", "--rating", "2412", "--prior-games", "240")
    _run(web_db, "player", "add", "Novak, Petra", "--rating", "2150", "--prior-games", "80")
    for event, day in (("Riverside Autumn Open 2026", "2026-09-05"),
                       ("Harbour Autumn Swiss 2026", "2026-10-24"),
                       ("Club League 2026-27", "2026-10-03")):
        _run(web_db, "game", "add", "Okafor, Grace", "Novak, Petra", "1-0", "--date", day,
             "--event", event, "--round", "1")
    answer = client.get("/api/search/events?q=autumn")
    assert answer.status_code == 200
    # by start date: the Riverside Open (5 September) before the Harbour Swiss (24 October)
    assert answer.get_json() == {"query": "autumn", "more": False, "events": [
        {"id": 1, "name": "Riverside Autumn Open 2026", "start": "2026-09-05",
         "end": "2026-09-05", "pool": "standard", "site": None},
        {"id": 2, "name": "Harbour Autumn Swiss 2026", "start": "2026-10-24",
         "end": "2026-10-24", "pool": "standard", "site": None}]}


def test_html_in_a_query_comes_back_as_json_text(client: FlaskClient) -> None:
    answer = client.get("/api/search/players?q=%3Cscript%3Ex%3C/script%3E")
    assert answer.status_code == 200
    assert answer.get_json()["query"] == "<script>x</script>"
    assert answer.content_type.startswith("application/json")
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_only_get(client: FlaskClient) -> None:
    # no write here: a POST is not a method of the routes (405, before any CSRF check)
    assert client.post("/api/search/players?q=sean").status_code == 405
    assert client.post("/api/search/events?q=open").status_code == 405
