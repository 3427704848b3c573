"""The JSON API (docs/api.md): read only, public, under ``/api/``, each answer in exactly the
shape the CLI's ``--json`` prints (``services.publishing.json_shapes``, the one definition):

- ``GET /api/lists/POOL/PERIOD[?revision=N]``: ``ledger list --period PERIOD --pool POOL
  [--revision N] --json``;
- ``GET /api/players/ID[?pool=P]``: ``ledger player show '#ID' [--pool P] --json``;
- ``GET /api/players/ID/history[?pool=P]``: ``ledger history '#ID' [--pool P] --json``;
- ``GET /api/events/ID[?pool=P]``: ``ledger event show '#ID' [--pool P] --json``.

Every answer has an ``ETag`` (a hash of its body) and is answered 304 to an ``If-None-Match``
holding it; ``Cache-Control``: a list revision asked for by number never changes (a year's
``max-age``, ``immutable``), anything else ``no-cache`` (ask again, the ETag saves the body).
Errors are JSON too: ``{"status", "field", "error"}``, 400 for a bad value (the field named:
``pool``, ``period``, ``revision``), 404 for what the ledger does not have.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, request
from sqlalchemy import Engine

from ledger.domain import STANDARD, Period, RatingPool, parse_pool
from ledger.errors import InvalidInput, LedgerBusy, LedgerError, NotFound, PeriodError
from ledger.services.publishing import event_reports, histories, json_shapes, lists
from ledger.services.register import player_views

blueprint = Blueprint("api", __name__, url_prefix="/api")

JSON = "application/json; charset=utf-8"
#: A list revision asked for by number: cached for a year, never revalidated.
FOREVER = "public, max-age=31536000, immutable"
#: Anything else: cached, but asked again every time (the ETag spares the body).
REVALIDATE = "no-cache"
#: The field an error message names first (``period: '2026-13' is not a period ...``).
_FIELD = re.compile(r"^([a-z][a-z-]*): ")


def _engine() -> Engine:
    engine: Engine = current_app.extensions["ledger"]
    return engine


def _json(data: Any, status: int = 200, cache: str = REVALIDATE) -> Response:
    """``data`` as the CLI prints it (two spaces an indent, non-ASCII as it is, a newline at
    the end), with its ETag; 304 when the client holds it already."""
    body = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    response = Response(body, status=status, content_type=JSON)
    response.headers["Cache-Control"] = cache if status == 200 else "no-store"
    if status == 200:
        response.add_etag()
        response.make_conditional(request)
    return response


def error(status: int, field: str | None, message: str) -> Response:
    """An error as JSON: ``{"status": 404, "field": "period", "error": "..."}``."""
    return _json({"status": status, "field": field, "error": message}, status)


def _answer(call: Callable[[], Any], cache: str = REVALIDATE) -> Response:
    """``call()``'s data as JSON; the ledger's refusals as JSON errors naming the field their
    message names (``InvalidInput`` 400, ``NotFound`` and ``PeriodError`` 404, ``LedgerBusy``
    503, any other 400)."""
    try:
        data = call()
    except LedgerError as exc:
        message = str(exc)
        named = _FIELD.match(message)
        status = (404 if isinstance(exc, NotFound | PeriodError) else
                  503 if isinstance(exc, LedgerBusy) else 400)
        return error(status, named.group(1) if named else None, message)
    return _json(data, cache=cache)


def _pool() -> RatingPool:
    """``?pool=`` (default standard); ``InvalidInput`` naming ``pool`` for one that is none."""
    return parse_pool(request.args.get("pool", STANDARD))


def _revision() -> int | None:
    """``?revision=N`` (None: the current revision); ``InvalidInput`` naming ``revision``."""
    text = request.args.get("revision")
    if text is None:
        return None
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise InvalidInput(f"revision: {text[:20]!r} is not a revision number; write 1, 2 ...")
    return int(text)


@blueprint.get("/lists/<pool>/<period>")
def rating_list(pool: str, period: str) -> Response:
    """The list closing ``period`` published in ``pool`` (``?revision=N``: as revision N did)."""
    return _answer(lambda: json_shapes.rating_list_dict(lists.rating_list(
        _engine(), str(Period.parse(period)), revision=_revision(), pool=parse_pool(pool))),
        FOREVER if "revision" in request.args else REVALIDATE)


@blueprint.get("/players/<int:player_id>")
def player(player_id: int) -> Response:
    """One player in ``?pool=`` (default standard), as ``player show --json``."""
    return _answer(lambda: json_shapes.player_show_dict(
        player_views.show_player(_engine(), f"#{player_id}", _pool())))


@blueprint.get("/players/<int:player_id>/history")
def history(player_id: int) -> Response:
    """A player's history in ``?pool=`` (default standard), as ``history --json``."""
    return _answer(lambda: json_shapes.history_json(
        histories.history(_engine(), f"#{player_id}", _pool())))


@blueprint.get("/events/<int:event_id>")
def event(event_id: int) -> Response:
    """An event and its rating report in ``?pool=`` (default: the event's own pool), as
    ``event show --json``."""
    pool = request.args.get("pool")
    return _answer(lambda: json_shapes.event_dict(
        event_reports.event_report(_engine(), f"#{event_id}", pool)))
