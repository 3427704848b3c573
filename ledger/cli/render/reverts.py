"""Rendering the imports and what takes a wrong registration or import back: ``imports``,
``imports revert`` and ``player withdraw`` (Rich tables and lines for people, JSON for
programs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.cli.render.corrections import effect_dict, effect_lines
from ledger.cli.render.games import game_dict, game_list
from ledger.cli.render.output import count, notes, print_json, say, stdout
from ledger.cli.render.tables import PlainTable

if TYPE_CHECKING:
    from ledger.services.corrections.revert import RevertReport
    from ledger.services.imports.imported import ImportView
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


def import_dict(v: ImportView) -> dict[str, Any]:
    """One import, as JSON (``at``: UTC, ISO 8601)."""
    return {"id": v.id, "file": v.file, "sha256": v.sha256, "format": v.format,
            "at": v.at.isoformat(timespec="seconds"), "by": v.by, "change": v.change_id,
            "action": v.action, "games_recorded": v.games, "players_registered": v.players,
            "periods": list(v.periods), "void_games": v.void, "reverted_by": v.reverted_by}


def imports(views: list[ImportView], as_json: bool) -> None:
    """``imports``: every imported file, oldest first."""
    if as_json:
        print_json({"imports": [import_dict(v) for v in views]})
        return
    if not views:
        say("no file imported yet (ledger import FILE)")
        return
    table = PlainTable(title=f"Imports ({len(views)})")
    for col, priority, justify in (("id", 0, "right"), ("file", 0, "left"),
                                   ("SHA-256", 3, "left"), ("when (UTC)", 1, "left"),
                                   ("by", 2, "left"), ("games", 0, "right"),
                                   ("players", 1, "right"), ("periods", 0, "left"),
                                   ("", 0, "left")):
        table.add_column(col, priority=priority, justify=justify)
    for v in views:
        state = (f"reverted (change {v.reverted_by})" if v.reverted_by is not None
                 else f"{v.void} void" if v.void else "")
        if v.action == "import.replace":
            state = ("--replace; " + state) if state else "--replace"
        table.add_row(f"#{v.id}", v.file, v.sha256[:12], f"{v.at:%Y-%m-%d %H:%M}",
                      v.by or "", str(v.games), str(v.players), ", ".join(v.periods), state)
    stdout().print(table)


def reverted(r: RevertReport, as_json: bool) -> None:
    """``imports revert``: the games voided, the players withdrawn and kept, the effect."""
    notes(r.notes)
    if as_json:
        print_json({"action": "import.revert", "import": import_dict(r.imported),
                    "reason": r.reason, "dry_run": r.dry_run, "change": r.change_id,
                    "games_voided": [game_dict(g) for g in r.voided],
                    "already_void": r.already_void,
                    "players_withdrawn": [withdrawal_dict(w) for w in r.withdrawn],
                    "players_kept": [{"id": k.player_id, "name": k.name, "game": k.game_id}
                                     for k in r.kept],
                    "effect": effect_dict(r.effect)})
        return
    v = r.imported
    verb = "would take back" if r.dry_run else "took back"
    say(f"{verb} import #{v.id} {v.file} ({v.at:%Y-%m-%d %H:%M}, by {v.by}): "
        f"{count(len(r.voided), 'game')} voided, {count(len(r.withdrawn), 'player')} "
        "withdrawn")
    if r.voided:
        game_list(r.voided, False, title="Voided" if not r.dry_run else "Would void")
    for w in r.withdrawn:
        say(f"withdrawn: {w.name} (#{w.player_id})"
            + (f", FIDE id {w.fide_id} released" if w.fide_id is not None else ""))
    for k in r.kept:
        say(f"kept: {k.name} (#{k.player_id}), "
            + (f"who has another valid game, game {k.game_id}" if k.game_id is not None
               else "merged into another player"))
    effect_lines(r.effect, r.dry_run)
