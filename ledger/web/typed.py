"""Typing games in (issue 23: "a reporter ... types games into a form"): ``GET/POST
/submissions/type``, a form of ``ROWS`` rows (date, round, White, Black, result) under one
event, pool and time control; the "More rows" button shows it again with ``ROWS`` more (no
script needed). The event's and players' fields are text inputs with a ``list=`` datalist the
site's script fills from ``/api/search/players?q=`` and ``/api/search/events?q=``
(``web.pickers``) as the reporter types; without the script names are typed in full and matched
by the ledger's name key when the games are checked (``sean`` is ``Seán``). Submitted, the games
are a submission of format ``form`` (``services.submissions.typed``), checked as a file is, its
page the submission's status page. ``?edit=N``: the reporter's pending typed submission N,
shown to correct and submit again.

Thin over ``services.submissions.typed``: every check is the import's. ``@require
("submission.create")``; the POST carries the CSRF token.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, g, redirect, request, url_for
from sqlalchemy import Engine
from werkzeug.wrappers import Response

from ledger.domain import POOLS
from ledger.errors import LedgerError, NotFound
from ledger.formats.games_form import FORM_FIELDS, ROW_FIELDS, TypedGames
from ledger.services.submissions import submissions as service
from ledger.services.submissions import typed as typing
from ledger.web import pages
from ledger.web.access import require
from ledger.web.auth import actor

blueprint = Blueprint("typed", __name__)

#: The rows the form shows at first, and how many "More rows" adds.
ROWS = 10
#: The result codes the form offers (``ledger game add``'s: White's point of view).
RESULTS = (("1-0", "1-0 (White won)"), ("0-1", "0-1 (Black won)"),
           ("1/2-1/2", "½-½ (a draw)"), ("+/-", "+/- (White won by forfeit)"),
           ("-/+", "-/+ (Black won by forfeit)"), ("-/-", "-/- (neither played)"))


def _engine() -> Engine:
    engine: Engine = current_app.extensions["ledger"]
    return engine


def _shown_rows(rows: list[dict[str, str]], at_least: int) -> list[dict[str, str]]:
    """``rows`` and blank ones after them: at least ``at_least``, a multiple of ``ROWS``."""
    count = max(at_least, len(rows), ROWS)
    count = -(-count // ROWS) * ROWS
    return rows + [{f: "" for f in ROW_FIELDS} for _ in range(count - len(rows))]


def _page(form: dict[str, str], rows: list[dict[str, str]], *, error: str | None = None,
          edit: int | None = None, status: int = 200) -> tuple[str, int]:
    return pages.render("type_games.html", "Type games in", script=True, form=form,
                        rows=rows, error=error, edit=edit, pools=POOLS, results=RESULTS,
                        max_rows=typing.MAX_ROWS), status


def _posted() -> tuple[dict[str, str], list[dict[str, str]]]:
    """The form's fields and its rows as posted (``field-N``, N from 1 to the hidden ``rows``,
    at most ``typing.MAX_ROWS`` + ``ROWS`` read; a row beyond that is refused by the service)."""
    try:
        count = int(request.form.get("rows", ROWS))
    except ValueError:
        count = ROWS
    count = min(max(count, 1), typing.MAX_ROWS + ROWS)
    form = {f: request.form.get(f, "") for f in FORM_FIELDS}
    rows = [{f: request.form.get(f"{f}-{n}", "") for f in ROW_FIELDS}
            for n in range(1, count + 1)]
    return form, rows


def _editable(submission_id: int) -> TypedGames:
    """The typed games of the logged-in user's submission ``submission_id``; 404 when it is
    not theirs or not typed games (ids do not leak)."""
    try:
        found = service.show(_engine(), submission_id)
        if found.user_id != g.user.id:
            abort(404)
        return typing.typed_games(_engine(), submission_id)
    except (NotFound, LedgerError):
        abort(404)


@blueprint.route("/submissions/type", methods=["GET", "POST"])
@require("submission.create")
def type_games() -> Response | tuple[str, int]:
    """The form (GET; ``?edit=N``: submission N's games), shown again with more rows ("More
    rows"), or submitted: the submission's status page (303), or the form again with the
    service's message (400)."""
    edit = request.values.get("edit", type=int)
    if request.method == "GET":
        if edit is None:
            return _page({}, _shown_rows([], ROWS))
        typed = _editable(edit)
        return _page({"event": typed.event, "pool": typed.pool,
                      "time_control": typed.time_control},
                     _shown_rows(list(typed.rows), len(typed.rows) + 1), edit=edit)
    form, rows = _posted()
    if request.form.get("action") == "more":
        return _page(form, _shown_rows(rows, len(rows) + ROWS), edit=edit)
    typed = TypedGames.typed(form, rows)
    try:
        if edit is None:
            made = typing.submit_typed(_engine(), g.user.id, typed, actor=actor())
        else:
            made = typing.resubmit_typed(_engine(), edit, g.user.id, typed, actor=actor())
    except NotFound:
        abort(404)
    except LedgerError as exc:
        return _page(form, _shown_rows(rows, len(rows)), error=str(exc), edit=edit, status=400)
    return redirect(url_for("submissions.status", submission_id=made.id), 303)
