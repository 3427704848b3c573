"""The pickers' search, read only and public (issue 23's typed-games form asks for a player or an
event by a part of its name; docs/api.md):

- ``GET /api/search/players?q=sean``: the players whose name key holds every word of the
  query's (``services.register.search.search_players``: ``sean`` finds ``Byrne, Seán``), at most
  20, by name: ``{"query", "players": [{"id", "name", "fide_id", "federation", "birth_year",
  "title"}], "more"}`` (``more``: more match; type more of the name);
- ``GET /api/search/events?q=autumn``: the same for events (``search_events``): ``{"query",
  "events": [{"id", "name", "start", "end", "pool", "site"}], "more"}``.

JSON as the API answers (``web.api``: ETag, ``no-cache``, errors as ``{"status", "field",
"error"}``: 400 naming ``q`` for a query of more than 100 characters). No ``q``: nothing found.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask import Blueprint, Response, request

from ledger.services.register import search
from ledger.web.api import _answer, _engine

blueprint = Blueprint("pickers", __name__, url_prefix="/api/search")


def _query() -> str:
    return request.args.get("q", "")


def _shape(found: search.Found[Any], what: str) -> dict[str, Any]:
    """``found`` as JSON: its query, its items under ``what`` (dates as ``YYYY-MM-DD``), more."""
    items = [{key: value.isoformat() if hasattr(value, "isoformat") else value
              for key, value in asdict(item).items()} for item in found.items]
    return {"query": found.query, what: items, "more": found.more}


@blueprint.get("/players")
def players() -> Response:
    """The players ``?q=`` finds (at most 20)."""
    return _answer(lambda: _shape(search.search_players(_engine(), _query()), "players"))


@blueprint.get("/events")
def events() -> Response:
    """The events ``?q=`` finds (at most 20)."""
    return _answer(lambda: _shape(search.search_events(_engine(), _query()), "events"))
