"""Submissions on the web (issue 23): a reporter's pages (``/submissions``: theirs with their
status; ``/submissions/new``: the upload form; ``/submissions/<id>``: its status page, with
withdraw and resubmit) and the officer's (``/review``: the queue; ``/review/<id>``: the
findings, each warning with its checkbox, the integrity flags and the preview; accept and
reject). A corrected file of an accepted submission's event (``/submissions/<id>/correct``)
is a new submission replacing it, reviewed as ``import --replace``'s difference. Thin over
``services.submissions``: every check is the import's.

Every view names its action (``web.access.require``); a submission another reporter owns
answers 404 (``web.access.may_see_submission``). Every change is a POST with the CSRF token,
answered by a redirect (303) to the submission's page.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, g, redirect, request, url_for
from sqlalchemy import Engine
from werkzeug.wrappers import Response

from ledger.domain import POOLS
from ledger.errors import LedgerError, NotFound
from ledger.services.submissions import preview as previews
from ledger.services.submissions import submissions as service
from ledger.services.submissions.checking import ALL_OVERRIDES as OVERRIDES
from ledger.services.submissions.checking import UPLOAD_LIMIT
from ledger.web import pages
from ledger.web.access import may_see_submission, require
from ledger.web.auth import actor

blueprint = Blueprint("submissions", __name__)


def _engine() -> Engine:
    engine: Engine = current_app.extensions["ledger"]
    return engine


def render(template: str, title: str, status: int = 200, **context: Any) -> tuple[str, int]:
    """A page of the site's templates (``web.pages.render``) with its status code."""
    return pages.render(template, title, **context), status


def integrity_flags(engine: Engine, submission_id: int) -> list[Any]:
    """The integrity flags of a submission's games (issue 23, "Integrity checks": each with
    its reason, never blocking: ``rules.integrity.Flag``, with ``code``, ``concerns`` and
    ``message``), from ``services.submissions.submissions.integrity``."""
    return list(service.integrity(engine, submission_id))


def _visible(submission_id: int) -> service.SubmissionView:
    """The submission, if the logged-in user may see it; 404 otherwise (ids do not leak)."""
    try:
        found = service.show(_engine(), submission_id)
    except NotFound:
        abort(404)
    if not may_see_submission(g.user, found.user_id):
        abort(404)
    return found


def _options() -> dict[str, str]:
    return {k: request.form.get(k, "") for k in ("pool", "end_date", "no_moves")}


def _upload() -> tuple[str, bytes]:
    """The uploaded file's name and bytes (``("", b"")`` when none was chosen); its spooled
    copy closed at once (the bytes go to the service, never to a served folder)."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return "", b""
    try:  # read at most one byte over the limit: enough to refuse it
        return upload.filename, upload.stream.read(UPLOAD_LIMIT + 1)
    finally:
        upload.close()


def _form_page(error: str | None, status: int = 200) -> tuple[str, int]:
    return render("submission_new.html", "Submit results", status, error=error,
                  pools=POOLS, given=_options() if request.method == "POST" else {},
                  limit_mb=UPLOAD_LIMIT // (1024 * 1024))


@blueprint.get("/submissions")
@require("submission.own")
def mine() -> tuple[str, int]:
    return render("submissions.html", "My submissions",
                  submissions=service.mine(_engine(), g.user.id))


@blueprint.route("/submissions/new", methods=["GET", "POST"])
@require("submission.create")
def new() -> Response | tuple[str, int]:
    if request.method == "GET":
        return _form_page(None)
    filename, data = _upload()
    if not filename:
        return _form_page("file: choose a TRF, PGN or CSV file to submit", 400)
    try:
        made = service.submit(_engine(), g.user.id, filename, data, _options(),
                              actor=actor())
    except LedgerError as exc:
        return _form_page(str(exc), 413 if len(data) > UPLOAD_LIMIT else 400)
    return redirect(url_for("submissions.status", submission_id=made.id), 303)


@blueprint.get("/submissions/<int:submission_id>")
@require("submission.own")
def status(submission_id: int) -> tuple[str, int]:
    found = _visible(submission_id)
    return _status_page(found, None)


def _status_page(found: service.SubmissionView, error: str | None,
                 code: int = 200) -> tuple[str, int]:
    return render("submission.html", f"Submission {found.id}", code, s=found, error=error,
                  placements=service.placements(_engine(), found.id), pools=POOLS,
                  overrides=OVERRIDES, own=found.user_id == g.user.id,
                  limit_mb=UPLOAD_LIMIT // (1024 * 1024))


@blueprint.post("/submissions/<int:submission_id>/withdraw")
@require("submission.own")
def withdraw(submission_id: int) -> Response | tuple[str, int]:
    found = _visible(submission_id)
    try:
        service.withdraw(_engine(), submission_id, g.user.id, actor=actor())
    except NotFound:
        abort(404)
    except LedgerError as exc:
        return _status_page(found, str(exc), 409)
    return redirect(url_for("submissions.status", submission_id=submission_id), 303)


@blueprint.post("/submissions/<int:submission_id>/resubmit")
@require("submission.own")
def resubmit(submission_id: int) -> Response | tuple[str, int]:
    found = _visible(submission_id)
    filename, data = _upload()
    if not filename:
        return _status_page(found, "file: choose the corrected file to submit", 400)
    try:
        service.resubmit(_engine(), submission_id, g.user.id, filename, data, _options(),
                         actor=actor())
    except NotFound:
        abort(404)
    except LedgerError as exc:
        return _status_page(found, str(exc), 413 if len(data) > UPLOAD_LIMIT else 400)
    return redirect(url_for("submissions.status", submission_id=submission_id), 303)


@blueprint.post("/submissions/<int:submission_id>/correct")
@require("submission.create")
def correct(submission_id: int) -> Response | tuple[str, int]:
    """A corrected file of an accepted submission's event: a new submission replacing it
    (reviewed as ``import --replace``'s difference)."""
    found = _visible(submission_id)
    filename, data = _upload()
    if not filename:
        return _status_page(found, "file: choose the corrected file to submit", 400)
    try:
        made = service.submit(_engine(), g.user.id, filename, data, _options(),
                              actor=actor(), replaces=submission_id)
    except NotFound:
        abort(404)
    except LedgerError as exc:
        return _status_page(found, str(exc), 413 if len(data) > UPLOAD_LIMIT else 400)
    return redirect(url_for("submissions.status", submission_id=made.id), 303)


@blueprint.get("/review")
@require("submission.review")
def queue() -> tuple[str, int]:
    return render("review.html", "Submissions to review",
                  submissions=service.pending(_engine()))


def _review_page(submission_id: int, error: str | None = None,
                 code: int = 200) -> tuple[str, int]:
    try:
        found = service.show(_engine(), submission_id)
    except NotFound:
        abort(404)
    shown = (previews.preview(_engine(), submission_id) if found.state == "pending"
             and not found.errors else None)
    return render("review_submission.html", f"Review submission {found.id}", code, s=found,
                  error=error, preview=shown, overrides=OVERRIDES,
                  integrity=integrity_flags(_engine(), submission_id),
                  ticked=set(request.form.getlist("tick")))


@blueprint.get("/review/<int:submission_id>")
@require("submission.review")
def review(submission_id: int) -> tuple[str, int]:
    return _review_page(submission_id)


@blueprint.post("/review/<int:submission_id>/accept")
@require("submission.review")
def accept(submission_id: int) -> Response | tuple[str, int]:
    try:
        service.accept(_engine(), submission_id, g.user.id, request.form.getlist("tick"),
                       actor=actor())
    except NotFound:
        abort(404)
    except LedgerError as exc:
        return _review_page(submission_id, str(exc), 409)
    return redirect(url_for("submissions.review", submission_id=submission_id), 303)


@blueprint.post("/review/<int:submission_id>/reject")
@require("submission.review")
def reject(submission_id: int) -> Response | tuple[str, int]:
    try:
        service.reject(_engine(), submission_id, g.user.id, request.form.get("reason", ""),
                       actor=actor())
    except NotFound:
        abort(404)
    except LedgerError as exc:
        return _review_page(submission_id, str(exc), 400)
    return redirect(url_for("submissions.review", submission_id=submission_id), 303)
