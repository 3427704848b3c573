"""Rendering the corrections of an event: ``event rename``, ``event merge`` and ``event void``
(a sentence for people, JSON for programs), with the effect as ``game void`` shows it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.cli.render.corrections import effect_dict, effect_lines
from ledger.cli.render.output import count, notes, print_json, say

if TYPE_CHECKING:
    from ledger.services.corrections.events import EventCorrection


def _named(values: dict[str, Any]) -> str:
    return f"{values['name']} (#{values['id']}, {values['start']} to {values['end']})"


def event_correction(r: EventCorrection, as_json: bool) -> None:
    """What ``event rename`` / ``merge`` / ``void`` did or, with ``--dry-run``, would do."""
    notes(r.notes)
    if as_json:
        print_json({"action": r.action, "dry_run": r.dry_run, "reason": r.reason,
                    "change": r.change_id, "before": r.before, "after": r.after,
                    "games": r.games, "effect": effect_dict(r.effect)})
        return
    would = "would be" if r.dry_run else ""
    if r.action == "event.rename":
        say(f"event #{r.before['id']} {would or 'is'} renamed: {r.before['name']!r} -> "
            f"{r.after['name']!r} (the old name stays in the audit log)")
    elif r.action == "event.merge":
        say(f"event {_named(r.before['merged'])} {would or 'is'} merged into "
            f"{_named(r.after)}: {count(len(r.games), 'game')} moved")
    else:
        say(f"event {_named(r.before)}: {count(len(r.games), 'game')} {would or ''} voided "
            f"({', '.join(f'#{g}' for g in r.games)})".replace("  ", " "))
    effect_lines(r.effect, r.dry_run)
