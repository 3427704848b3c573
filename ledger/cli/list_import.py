"""Rendering a FIDE rating list import: the progress bar while it runs, then the report."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

from ledger.cli import render
from ledger.services.fide_lists import ListImportReport
from ledger.services.fide_lists import Progress as ProgressCallback

#: Files with more lines than this get a progress bar (on a terminal, without --quiet).
PROGRESS_FROM_LINES = 5000
_PHASES = {"reading": "reading the list", "recording": "matching and recording players"}


@contextmanager
def progress_bar(quiet: bool) -> Iterator[ProgressCallback | None]:
    """A ``progress(phase, done, total)`` callback drawing a Rich progress bar on stderr, or None
    when ``quiet`` or stdout is not a terminal. The bar appears only for a list of more than
    :data:`PROGRESS_FROM_LINES` lines, and is removed when the import ends."""
    if quiet or not sys.stdout.isatty():
        yield None
        return
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   console=Console(stderr=True), transient=True)
    tasks: dict[str, TaskID] = {}
    big = False

    def advance(phase: str, done: int, total: int) -> None:
        nonlocal big
        big = big or (phase == "reading" and total > PROGRESS_FROM_LINES)
        if not big:
            return
        if not tasks:
            bar.start()
        if phase not in tasks:
            tasks[phase] = bar.add_task(_PHASES.get(phase, phase), total=total)
        bar.update(tasks[phase], completed=done, total=total)

    try:
        yield advance
    finally:
        if tasks:
            bar.stop()


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


def list_import_report(r: ListImportReport, as_json: bool) -> None:
    """What a list import did: counts, identity changes, notes; problems on stderr."""
    if as_json:
        render._json(_report_dict(r))
        return
    render.problems(r.problems)
    for note in r.notes:
        render._err().print(f"note: {note}", markup=False, style="yellow")
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
        table = render.PlainTable(title="Identity changes", show_lines=False)
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
