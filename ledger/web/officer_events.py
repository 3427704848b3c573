"""The corrections of events from the web (issue 23), each the CLI's command over the same
service (``services.corrections.events``) with the same arguments: ``/officer/events/ID/
rename`` (``event rename``), ``/officer/events/ID/void`` (``event void``) and ``/officer/
events/merge`` (``event merge``). As every correction (``web.officer.previewed``): a GET with
``preview`` shows the dry run's full effect with the button that does it; the POST (CSRF) does
it as the web user; a reason is required; a refusal changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint

from ledger.services.corrections import events
from ledger.web.access import require
from ledger.web.officer import previewed
from ledger.web.officer_pages import EFFECT, REASON, Field, actor, effect, engine, text

blueprint = Blueprint("events", __name__, url_prefix="/officer/events")

RENAME = (Field("name", "The event's right name", required=True), REASON)
VOID = (REASON, EFFECT)
MERGE = (Field("keep", "The event that stays (id #3 or name)", required=True),
         Field("other", "The same event recorded under another name: its games move",
               required=True), REASON, EFFECT)


@blueprint.route("/<int:event_id>/rename", methods=["GET", "POST"])
@require("correction.make")
def rename(event_id: int) -> tuple[str, int]:
    """``event rename #ID NAME --reason``: ratings do not depend on a name (no mode)."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        return events.rename_event(engine(), f"#{event_id}", text(values, "name") or "",
                                   reason=values.get("reason"), dry_run=dry_run, actor=actor())
    return previewed("event", f"Rename event {event_id}", RENAME, run)


@blueprint.route("/<int:event_id>/void", methods=["GET", "POST"])
@require("correction.make")
def void(event_id: int) -> tuple[str, int]:
    """``event void #ID --reason [--in-next-period | --rerate]``: every valid game of it."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        in_next, rerate = effect(values)
        return events.void_event(engine(), f"#{event_id}", reason=values.get("reason"),
                                 in_next_period=in_next, rerate=rerate, dry_run=dry_run,
                                 actor=actor())
    return previewed("event", f"Void event {event_id}", VOID, run)


@blueprint.route("/merge", methods=["GET", "POST"])
@require("correction.make")
def merge() -> tuple[str, int]:
    """``event merge KEEP OTHER --reason [mode]``: OTHER's games move to KEEP."""
    def run(values: Mapping[str, str], dry_run: bool) -> Any:
        in_next, rerate = effect(values)
        return events.merge_events(engine(), text(values, "keep") or "",
                                   text(values, "other") or "", reason=values.get("reason"),
                                   in_next_period=in_next, rerate=rerate, dry_run=dry_run,
                                   actor=actor())
    return previewed("event", "Merge an event recorded under two names", MERGE, run)
