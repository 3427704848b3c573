"""Rendering what takes a wrong registration or import back: ``player withdraw`` (Rich lines
for people, JSON for programs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.cli.render.output import count, print_json, say

if TYPE_CHECKING:
    from ledger.services.register.withdrawal import Withdrawal


def withdrawal_dict(w: Withdrawal) -> dict[str, Any]:
    """A player withdrawn, as JSON."""
    return {"id": w.player_id, "name": w.name, "fide_id_released": w.fide_id,
            "void_games": list(w.void_games)}


def withdrawn(w: Withdrawal, as_json: bool) -> None:
    """``player withdraw``: who was withdrawn, the FIDE id released, the void games kept."""
    if as_json:
        print_json({"action": "player.withdraw", "player": withdrawal_dict(w),
                    "reason": w.reason, "dry_run": w.dry_run, "change": w.change_id})
        return
    verb = "would withdraw" if w.dry_run else "withdrew"
    say(f"{verb} {w.name} (#{w.player_id}): on no later list, in no search or page; kept in "
        f"the audit log (ledger audit --player #{w.player_id})"
        + (f"; FIDE id {w.fide_id} released" if w.fide_id is not None else "")
        + (f"; {count(len(w.void_games), 'void game')} kept" if w.void_games else ""))
    if w.dry_run:
        say("dry run: nothing was written")
