"""The rating officer's pages (issue 23): ``/officer`` (what is open, what to do), ``/officer/
close`` (each pool's close previewed, then closed by its button), ``/officer/reopen`` and
``/officer/rerate`` (previewed, then done), and ``/officer/audit`` (the audit log, filtered as
``ledger audit``). The corrections of games, players and imports are ``web.officer_corrections``.

Every view names its action (``web.access.require``); a GET previews (the service's dry run:
nothing written), a POST (with its CSRF token) does it, as ``web.actor`` (the user, the
request). A refusal of the ledger is the page again with its message, nothing changed
(``officer_pages.status_of``: 400, 404 or 409).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, request

from ledger.domain import POOLS, parse_pool
from ledger.errors import InvalidInput, LedgerError, PeriodError
from ledger.services.admin import audit_log
from ledger.services.close import periods, rerate
from ledger.services.submissions import submissions
from ledger.web.access import require
from ledger.web.officer_pages import (
    POOL,
    REASON,
    Field,
    actor,
    engine,
    render,
    status_of,
    text,
    ticked,
)

blueprint = Blueprint("officer", __name__, url_prefix="/officer")


@blueprint.get("")
@require("period.close")
def dashboard() -> tuple[str, int]:
    """The officer's start page: each pool's latest closed period (``period list``), how many
    submissions wait for review (``submissions.pending``) and the pages of the officer's
    work."""
    closed = periods.list_periods(engine())
    latest = {pool: max((p.period for p in closed if p.pool == pool), default=None)
              for pool in POOLS}
    return render("officer.html", "Rating officer", latest=latest,
                  pending=len(submissions.pending(engine())))


def _previews() -> list[tuple[str, Any, str | None]]:
    """Each pool's close previewed (``period close --dry-run --pool P``): (pool, the report or
    None, why it cannot be closed or None)."""
    shown: list[tuple[str, Any, str | None]] = []
    for pool in POOLS:
        try:
            shown.append((pool, periods.close_period(engine(), None, dry_run=True, pool=pool),
                          None))
        except PeriodError as exc:
            shown.append((pool, None, str(exc)))
    return shown


@blueprint.get("/close")
@require("period.close")
def close_form() -> tuple[str, int]:
    """Each pool's next close previewed, every player's row as ``period close --dry-run`` shows
    it, with the button that closes it (not for a period that has not ended: a preview) and
    the choice to leave submissions pending (``--leave-pending``); how many wait for review."""
    return render("officer_close.html", "Close a rating period", previews=_previews(),
                  done=None, error=None, pending=len(submissions.pending(engine())))


@blueprint.post("/close")
@require("period.close")
def close() -> tuple[str, int]:
    """Close ``period`` of ``pool`` (the form's hidden fields: the period previewed), as
    ``period close PERIOD --pool POOL [--leave-pending]``; the result is the close's rows. A refusal (a period
    closed meanwhile, one not ended) is the preview page again with the message."""
    try:
        period = text(request.form, "period")
        if period is None:
            raise InvalidInput("period: which period to close (YYYY-MM)")
        report = periods.close_period(engine(), period,
                                      pool=parse_pool(request.form.get("pool", "standard")),
                                      leave_pending=ticked(request.form, "leave_pending"),
                                      actor=actor())
    except LedgerError as exc:
        return render("officer_close.html", "Close a rating period", status=status_of(exc),
                      previews=_previews(), done=None, error=str(exc),
                      pending=len(submissions.pending(engine())))
    return render("officer_close.html", f"Rating period {report.period} closed", previews=[],
                  done=report, error=None, pending=0)


#: The form of ``/officer/reopen`` (``period reopen``).
REOPEN = (Field("period", "Period (YYYY-MM): the latest closed one", required=True), POOL, REASON)
#: The form of ``/officer/rerate`` (``period rerate``).
RERATE = (Field("start", "From the closed period (YYYY-MM)", required=True), POOL, REASON)


def _reopen(values: Mapping[str, str], dry_run: bool) -> Any:
    return rerate.reopen_period(engine(), text(values, "period") or "",
                                reason=values.get("reason"), dry_run=dry_run,
                                pool=parse_pool(values.get("pool") or "standard"),
                                actor=actor())


def _rerate(values: Mapping[str, str], dry_run: bool) -> Any:
    return rerate.rerate(engine(), text(values, "start") or "", reason=values.get("reason"),
                         yes=not dry_run, pool=parse_pool(values.get("pool") or "standard"),
                         actor=actor())


def previewed(kind: str, title: str, fields: tuple[Field, ...], run: Any,
              **context: Any) -> tuple[str, int]:
    """The page of one correction: a GET with ``preview`` in its query runs ``run(values,
    dry_run=True)`` and shows what it would do under the form, with the button that does it
    (a POST of the same values); a POST runs ``run(form, dry_run=False)`` and shows what it
    did. A refusal is the form again with the message and its status (nothing written)."""
    posted = request.method == "POST"
    values: Mapping[str, str] = request.form if posted else request.args
    page: dict[str, Any] = {"kind": kind, "fields": fields, "values": values, "error": None,
                            "report": None, "done": posted, **context}
    if posted or "preview" in values:
        try:
            page["report"] = run(values, not posted)
        except LedgerError as exc:
            page.update(error=str(exc), done=False,
                        problems=getattr(exc, "problems", ()))
            return render("officer_correction.html", title, status=status_of(exc), **page)
    return render("officer_correction.html", title, **page)


@blueprint.route("/reopen", methods=["GET", "POST"])
@require("correction.make")
def reopen() -> tuple[str, int]:
    """``period reopen PERIOD --reason --pool``: previewed, then done."""
    return previewed("reopen", "Reopen a rating period", REOPEN, _reopen)


@blueprint.route("/rerate", methods=["GET", "POST"])
@require("correction.make")
def rerate_periods() -> tuple[str, int]:
    """``period rerate --from PERIOD --reason --pool``: every rating that changes (without
    ``--yes``), then written (``--yes``)."""
    return previewed("rerate", "Re-rate closed periods", RERATE, _rerate)


#: The filters of ``/officer/audit`` (``ledger audit``'s options).
AUDIT = (Field("player", "Player (id #12, FIDE id or name)"),
         Field("period", "Period (YYYY-MM)"), Field("since", "Since (YYYY-MM-DD)"))


#: The most changes ``/officer/audit`` shows (the newest); the filters reach older ones, the
#: CLI's ``ledger audit`` prints them all.
AUDIT_ROWS = 500


@blueprint.get("/audit")
@require("audit.read")
def audit() -> tuple[str, int]:
    """The audit log as ``ledger audit --player --period --since`` shows it, newest first (the
    ``AUDIT_ROWS`` newest): who (the web user, or the CLI's ``--by``), when, what, why and the
    command. A filter the service refuses (no such player, a malformed date) is the form with
    its message."""
    values = request.args
    try:
        entries = audit_log.audit_log(engine(), player=text(values, "player"),
                                      period=text(values, "period"), since=text(values, "since"))
    except LedgerError as exc:
        return render("officer_audit.html", "Audit log", status=status_of(exc), fields=AUDIT,
                      values=values, entries=[], total=0, error=str(exc))
    newest = list(reversed(entries))
    return render("officer_audit.html", "Audit log", fields=AUDIT, values=values,
                  entries=newest[:AUDIT_ROWS], total=len(newest), error=None)
