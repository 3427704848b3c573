"""Rendering a FIDE rating list import (the progress bar while it runs, then the report) and
the import of a register of players (``--format players``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.cli import render
from ledger.cli.tables import PlainTable

if TYPE_CHECKING:
    from ledger.services.imports.fide_list_report import ListImportReport
    from ledger.services.imports.players import PlayerImportReport


def _report_dict(r: ListImportReport) -> dict[str, Any]:
    return {
        "file": r.file, "list_date": r.list_date.isoformat(), "pool": r.pool, "layout": r.layout,
        "dry_run": r.dry_run, "players_in_file": r.players_in_file,
        "players_matched": r.players_matched, "players_registered": r.players_registered,
        "players_updated": len(r.updated), "ratings_recorded": r.ratings_recorded,
        "ratings_already_recorded": r.ratings_already_recorded, "unrated": r.unrated,
        "published_ratings": r.published,
        "updated": [{"player_id": u.player_id, "name": u.name, "line": u.line,
                     "changes": {k: {"before": old, "after": new}
                                 for k, (old, new) in u.changes.items()}} for u in r.updated],
        "notes": r.notes, "problems": [vars(p) for p in r.problems],
    }


def list_import_report(r: ListImportReport, as_json: bool, *, quiet: bool = False) -> None:
    """What a list import did: counts, identity changes, notes; problems on stderr (``quiet``:
    errors only, no notes)."""
    if as_json:
        render._json(_report_dict(r))
        return
    render.problems(r.problems, quiet=quiet)
    render.notes([] if quiet else r.notes)
    verb = "would record" if r.dry_run else "recorded"
    render.say(f"{r.file}: {r.layout}, {r.pool} pool, list of {r.list_date}: "
               f"{r.players_in_file} players")
    render.say(f"players: {r.players_matched} matched, {r.players_registered} registered, "
               f"{len(r.updated)} updated")
    render.say(f"list ratings: {verb} {r.ratings_recorded}, {r.ratings_already_recorded} already "
               f"in the ledger, {r.unrated} unrated on the list")
    if r.pool == "standard":
        render.say(f"published ratings entered in force from {r.list_date:%Y-%m}: {r.published}")
    if r.updated:
        table = PlainTable(title="Identity changes", show_lines=False)
        for column in ("line", "player", "field", "before", "after"):
            table.add_column(column)
        for u in r.updated:
            for name, (old, new) in u.changes.items():
                table.add_row(str(u.line), f"{u.name} (#{u.player_id})", name,
                              "-" if old is None else str(old), str(new))
        render._out().print(table)
    errors = sum(p.severity == "error" for p in r.problems)
    render.say(f"problems: {errors} errors, {len(r.problems) - errors} warnings")
    if r.dry_run:
        render.say("dry run: nothing was written")


def players_import_report(r: PlayerImportReport, as_json: bool, *, quiet: bool = False) -> None:
    """What ``ledger import FILE --format players`` did: rows, players registered (ids),
    unrated; notes and warnings on stderr (``quiet``: none). JSON: ``file``, ``sha256``,
    ``dry_run``, ``rows``, ``registered``, ``ids`` (``[first, last]`` or null), ``unrated``,
    ``notes``, ``problems``."""
    if as_json:
        render._json({"file": r.file, "sha256": r.sha256, "dry_run": r.dry_run, "rows": r.rows,
                      "registered": r.registered, "ids": r.ids, "unrated": r.unrated,
                      "notes": r.notes, "problems": [vars(p) for p in r.problems]})
        return
    render.problems(r.problems, quiet=quiet)
    render.notes([] if quiet else r.notes)
    verb = "would register" if r.dry_run else "registered"
    ids = f" (#{r.ids[0]} to #{r.ids[1]})" if r.ids else ""
    render.say(f"{r.file}: {r.rows} rows; {verb} {r.registered} players{ids}, "
               f"{r.unrated} of them unrated")
    if r.dry_run:
        render.say("dry run: nothing was written")
