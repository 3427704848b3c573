"""Rendering what ``ledger import`` did: a file of games (``import_report``, and a rejected
file's JSON: ``import_rejected_json``), a FIDE rating list (``list_import_report``) and a
register of players (``players_import_report``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ledger.cli.render.output import count, not_rated_text, notes, print_json, problems, say, stdout
from ledger.errors import Problem, SimilarGame

if TYPE_CHECKING:
    from ledger.services.imports.fide_list_report import ListImportReport
    from ledger.services.imports.games import ImportReport
    from ledger.services.imports.players import PlayerImportReport

#: At most this many names on one line of a report; --json lists them all.
MAX_NAMES_SHOWN = 10


def _names(names: list[str]) -> str:
    """``names`` joined by ``; ``: the first ``MAX_NAMES_SHOWN``, then how many more."""
    shown = "; ".join(names[:MAX_NAMES_SHOWN])
    rest = len(names) - MAX_NAMES_SHOWN
    return shown + (f" ... and {rest} more (--json lists them all)" if rest > 0 else "")


def import_rejected_json(file: str, problems: Iterable[Problem],
                         similar: Iterable[SimilarGame] = ()) -> None:
    """``ledger import --json`` of a rejected file: ``{"file", "rejected": true, "problems",
    "similar"}`` on stdout (the same problems also go to stderr as text); ``similar``: the
    likely duplicates refused, each with the recorded game it resembles (``similar_dict``)."""
    print_json({"file": file, "rejected": True, "problems": [vars(p) for p in problems],
                "similar": [similar_dict(s) for s in similar]})


def similar_dict(s: SimilarGame) -> dict[str, Any]:
    """A likely duplicate as JSON: the file's ``line`` and ``game`` (white, black, date, result,
    event, round), the game it resembles (``recorded_game_id``, ``recorded_event_id``,
    ``recorded_event``, ``recorded_round``; for a game of the same file ``earlier_line``, the
    ids null) and ``why``."""
    return {"line": s.line,
            "game": {"white": s.white, "black": s.black, "date": s.date.isoformat(),
                     "result": s.result, "event": s.event, "round": s.round},
            "recorded_game_id": s.game_id, "recorded_event_id": s.recorded_event_id,
            "recorded_event": s.recorded_event, "recorded_round": s.recorded_round,
            "earlier_line": s.earlier_line, "why": s.why}


def import_report(r: ImportReport, as_json: bool, *, quiet: bool = False) -> None:
    """What an import did; warnings and notes on stderr, unless ``quiet``."""
    if as_json:
        print_json({"file": r.file, "format": r.format, "sha256": r.sha256, "dry_run": r.dry_run,
                    "games_in_file": r.games_in_file, "players_in_file": r.players_in_file,
                    "recorded": r.recorded, "to_rate": r.to_rate,
                    "already_recorded": r.already_recorded, "repeated_in_file": r.repeated_in_file,
                    "already_imported": r.already_imported, "players_matched": r.players_matched,
                    "players_registered": r.players_registered,
                    "registered_established": r.registered_established,
                    "registered_unrated": r.registered_unrated,
                    "not_rated": dict(r.not_rated), "periods": dict(r.periods), "notes": r.notes,
                    "allow_similar": r.allow_similar, "likely_duplicates": r.likely_duplicates,
                    "similar": [similar_dict(s) for s in r.similar],
                    "late": [{"line": x.line, "white": x.white, "black": x.black,
                              "date": x.date.isoformat(), "dated_in": x.dated_in,
                              "period": x.period, "pool": x.pool} for x in r.late],
                    "rerated": [{"period": p.period, "old_revision": p.old_revision,
                                 "new_revision": p.new_revision,
                                 "changes": [vars(m) for m in p.moves]} for p in r.rerated],
                    "problems": [vars(p) for p in r.problems]})
        return
    problems(r.problems, quiet=quiet)
    notes([] if quiet else r.notes)
    verb = "would record" if r.dry_run else "recorded"
    lines = [
        f"{r.file} ({r.format}): {count(r.games_in_file, 'game')} in the file; {verb} "
        f"{r.recorded} ({r.to_rate} to rate), {r.already_recorded} already in the ledger"
        + (f", {r.repeated_in_file} repeated in the file (recorded once, each named in a "
           "warning)" if r.repeated_in_file else ""),
        (f"players: {r.players_in_file} in the file, " if r.players_in_file is not None
         else "players: ")
        + f"{r.players_matched} matched, {len(r.players_registered)} registered",
    ]
    if r.registered_established:
        lines.append(f"registered with the file's rating, earlier games unknown (assumed "
                     f"established: 30 or more rated games): {_names(r.registered_established)}")
    if r.registered_unrated:
        lines.append(f"registered unrated, 0 rated games (K 40 until 30): "
                     f"{_names(r.registered_unrated)}")
    if r.periods:
        lines.append("periods: " + ", ".join(f"{p} ({count(n, 'game')})"
                                             for p, n in sorted(r.periods.items())))
    if r.not_rated:
        lines.append("recorded, not rated: "
                     + not_rated_text(r.not_rated))
    if r.similar:
        lines.append(f"{verb} as different games (--allow-similar): {r.likely_duplicates} "
                     "that look like games recorded or elsewhere in the file (each named in a "
                     "warning)")
    if r.late:
        dated = ", ".join(sorted({x.dated_in for x in r.late}))
        into = ", ".join(sorted({x.period for x in r.late}))
        lines.append(f"late results: {count(len(r.late), 'game')} dated in closed period(s) "
                     f"{dated}, recorded in {into}, rated with the ratings in force at their "
                     "event's start" + ("; the periods from there are re-rated" if r.rerated
                                        else "; the published lists stand"))
    for p in r.rerated:
        lines.append(f"re-rated {p.period}: revision {p.old_revision} -> {p.new_revision}, "
                     f"{count(len(p.moves), 'rating')} changed"
                     + ("".join(f"; {m.name} {m.before} -> {m.after}" for m in p.moves[:10])))
    if r.dry_run:
        lines.append("dry run: nothing was written")
    for line in lines:
        say(line)


def _list_import_dict(r: ListImportReport) -> dict[str, Any]:
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
        print_json(_list_import_dict(r))
        return
    problems(r.problems, quiet=quiet)
    notes([] if quiet else r.notes)
    verb = "would record" if r.dry_run else "recorded"
    say(f"{r.file}: {r.layout}, {r.pool} pool, list of {r.list_date}: "
        f"{count(r.players_in_file, 'player')}")
    say(f"players: {r.players_matched} matched, {r.players_registered} registered, "
        f"{len(r.updated)} updated")
    say(f"list ratings: {verb} {r.ratings_recorded}, {r.ratings_already_recorded} already "
        f"in the ledger, {r.unrated} unrated on the list")
    if r.pool == "standard":
        say(f"published ratings entered in force from {r.list_date:%Y-%m}: {r.published}")
    if r.updated:
        from ledger.cli.render.tables import PlainTable  # Rich: for this table only

        table = PlainTable(title="Identity changes", show_lines=False)
        for column in ("line", "player", "field", "before", "after"):
            table.add_column(column)
        for u in r.updated:
            for name, (old, new) in u.changes.items():
                table.add_row(str(u.line), f"{u.name} (#{u.player_id})", name,
                              "-" if old is None else str(old), str(new))
        stdout().print(table)
    errors = sum(p.severity == "error" for p in r.problems)
    say(f"problems: {count(errors, 'error')}, {count(len(r.problems) - errors, 'warning')}")
    if r.dry_run:
        say("dry run: nothing was written")


def players_import_report(r: PlayerImportReport, as_json: bool, *, quiet: bool = False) -> None:
    """What ``ledger import FILE --format players`` did: rows, players registered (ids),
    unrated; notes and warnings on stderr (``quiet``: none). JSON: ``file``, ``sha256``,
    ``dry_run``, ``rows``, ``registered``, ``ids`` (``[first, last]`` or null), ``unrated``,
    ``notes``, ``problems``."""
    if as_json:
        print_json({"file": r.file, "sha256": r.sha256, "dry_run": r.dry_run, "rows": r.rows,
                    "registered": r.registered, "ids": r.ids, "unrated": r.unrated,
                    "notes": r.notes, "problems": [vars(p) for p in r.problems]})
        return
    problems(r.problems, quiet=quiet)
    notes([] if quiet else r.notes)
    verb = "would register" if r.dry_run else "registered"
    ids = f" (#{r.ids[0]} to #{r.ids[1]})" if r.ids else ""
    say(f"{r.file}: {count(r.rows, 'row')}; {verb} {count(r.registered, 'player')}{ids}, "
        f"{r.unrated} of them unrated")
    if r.dry_run:
        say("dry run: nothing was written")
