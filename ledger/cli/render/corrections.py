"""Rendering corrections: ``game add`` (a late result), ``game void``, ``game correct``,
``import --replace``, ``player edit``, ``player merge``, ``player correct-rating`` and ``event
rename`` / ``merge`` / ``void`` (Rich tables or a sentence for people, JSON for programs).
What a correction carries into the next period is shown per player, in hundredths, exactly as
the close will add it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.cli.render.games import game_dict, game_list
from ledger.cli.render.output import count, notes, print_json, problems, say, stdout
from ledger.cli.render.revisions import rerate_dict, rerate_tables
from ledger.cli.render.tables import PlainTable

if TYPE_CHECKING:
    from ledger.services.close.rerate import PeriodRerate
    from ledger.services.corrections.effects import CarriedView, Effect
    from ledger.services.corrections.events import EventCorrection
    from ledger.services.corrections.games import CorrectionReport
    from ledger.services.corrections.merge import MergeReport
    from ledger.services.corrections.player_edit import EditReport, RatingCorrection
    from ledger.services.corrections.replace import DiffGame, ReplaceReport
    from ledger.services.register.game_views import GameView


def hundredths_text(value: int) -> str:
    """Hundredths as a signed decimal: ``-280`` -> ``-2.80``, ``7`` -> ``+0.07``."""
    sign = "-" if value < 0 else "+"
    return f"{sign}{abs(value) // 100}.{abs(value) % 100:02d}"


def _carried_dict(c: CarriedView) -> dict[str, Any]:
    return {"player_id": c.player_id, "name": c.name, "origin_period": c.origin_period,
            "origin_revision": c.origin_revision, "applies_in": c.applies_in,
            "hundredths": c.hundredths, "gave_hundredths": c.gave,
            "gives_hundredths": c.gives, "stored_hundredths": c.stored}


def effect_dict(e: Effect) -> dict[str, Any]:
    """How a correction took effect, as JSON."""
    return {"mode": e.mode, "pool": e.pool, "closed_periods": e.closed,
            "carried": [_carried_dict(c) for c in e.carried],
            "rerated": [rerate_dict(p) for p in e.rerated]}


def effect_lines(e: Effect, dry_run: bool) -> None:
    """How a correction took effect (or would), for people."""
    if e.mode == "open":
        say("every period it touches is open: the correction is made there, nothing derived "
            "changes")
    elif e.mode == "in-next-period":
        _carried_table(e.carried, e.closed, e.pool)
    else:
        rerate_tables(e.rerated)
        say(f"re-rated {count(len(e.rerated), 'closed period')}{_in_pool(e.pool)} from "
            f"{e.closed[0]}, each as its next revision (ledger list --revision shows the "
            "earlier ones)")
    if dry_run:
        say("dry run: nothing was written")


def _in_pool(pool: str) -> str:
    return "" if pool == "standard" else f" of the {pool} pool"


def _carried_table(carried: list[CarriedView], closed: list[str], pool: str) -> None:
    where = ", ".join(closed) + _in_pool(pool)
    if not carried:
        say(f"the published list of {where} stands; no player's exact change in it differs: "
            "nothing is carried")
        return
    applies_in = carried[0].applies_in
    table = PlainTable(title=f"Carried into {applies_in}, added before each player's one "
                             f"rounding (the published list of {where} stands)")
    for col, priority in (("id", 2), ("name", 0), ("from", 1), ("gave", 0), ("gives", 0),
                          ("carried", 0), ("hundredths", 0)):
        table.add_column(col, priority=priority,
                         justify="left" if col in ("name", "from") else "right")
    for c in carried:
        table.add_row(f"#{c.player_id}", c.name, f"{c.origin_period} rev {c.origin_revision}",
                      hundredths_text(c.gave), hundredths_text(c.gives),
                      hundredths_text(c.hundredths), f"{c.hundredths:+d}")
    stdout().print(table)
    say("gave / gives: the player's exact change in the closed period (K x sum(S - PD)) "
        "before and after the correction; carried = gives - gave")


def added_game(view: GameView, as_json: bool, *, dry_run: bool) -> None:
    """``game add``: the game recorded (a late one says so), and any periods re-rated."""
    rerated: list[PeriodRerate] = []
    if view.rerated:  # only then was the re-rating code loaded
        from ledger.services.close.rerate import PeriodRerate
        rerated = [p for p in view.rerated if isinstance(p, PeriodRerate)]
    if as_json:
        extra = ({"rerated": [rerate_dict(p) for p in rerated]} if rerated else {})
        print_json({"games": [game_dict(view)]} | extra | ({"dry_run": True} if dry_run else {}))
        notes(view.notes)
        return
    game_list([view], False, title="Recorded" if not dry_run else "Would record")
    if rerated:
        rerate_tables(rerated)
    if dry_run:
        say("dry run: nothing was written")


def correction(r: CorrectionReport, as_json: bool) -> None:
    """``game correct`` (and ``game void`` of one game): the game before and after, and the
    effect."""
    voided([r], as_json)


def voided(reports: list[CorrectionReport], as_json: bool) -> None:
    """``game void ID...`` / ``game correct``: each game before and after, and the one effect
    they share. JSON: ``games`` (each game's ``change``, ``before``, ``after``); one game also
    at the top (``change``, ``before``, ``after``), as before several could be voided."""
    r = reports[0]
    notes(r.notes)
    if as_json:
        one = ({"change": r.change_id, "before": game_dict(r.before),
                "after": game_dict(r.after)} if len(reports) == 1 else {})
        print_json({"action": r.action, "dry_run": r.dry_run, "reason": r.reason} | one
                   | {"games": [{"change": g.change_id, "before": game_dict(g.before),
                                 "after": game_dict(g.after)} for g in reports],
                      "effect": effect_dict(r.effect)})
        return
    verb = {"game.void": "void", "game.correct": "corrected"}[r.action]
    ids = ", ".join(str(g.before.id) for g in reports)
    table = PlainTable(title=f"Game{'s' if len(reports) > 1 else ''} {ids} {verb}"
                             + (" (dry run)" if r.dry_run else ""))
    several = len(reports) > 1  # then each row says its game
    for col, priority in (("", 0), *((("id", 1),) if several else ()), ("date", 0),
                          ("period", 1), ("event", 3), ("round", 2), ("white", 0),
                          ("black", 0), ("result", 0), ("status", 0)):
        table.add_column(col, priority=priority)
    for g in reports:
        for label, view in (("before", g.before), ("after", g.after)):
            table.add_row(label, *((str(view.id),) if several else ()),
                          view.date.isoformat(), view.period, view.event or "",
                          view.round or "", view.white, view.black, view.result, view.status)
    stdout().print(table)
    effect_lines(r.effect, r.dry_run)


def _diff_dict(g: DiffGame) -> dict[str, Any]:
    return {"line": g.line, "game_id": g.game_id, "round": g.round, "date": g.date.isoformat(),
            "white": g.white, "black": g.black, "result": g.result, "played": g.played}


def replace_report(r: ReplaceReport, as_json: bool, *, quiet: bool = False) -> None:
    """``import --replace``: the event, the difference game by game, and the effect."""
    if as_json:
        print_json({"file": r.file, "format": r.format, "sha256": r.sha256, "dry_run": r.dry_run,
                    "reason": r.reason, "already_imported": r.already_imported,
                    "event": {"id": r.event_id, "name": r.event,
                              "start_date": r.start.isoformat() if r.start else None,
                              "end_date": r.end.isoformat() if r.end else None,
                              "period": r.period},
                    "added": [_diff_dict(g) for g in r.added],
                    "removed": [_diff_dict(g) for g in r.removed],
                    "changed": [{"before": _diff_dict(c.before), "after": _diff_dict(c.after)}
                                for c in r.changed],
                    "unchanged": r.unchanged, "late": r.late, "effect": effect_dict(r.effect),
                    "notes": r.notes, "problems": [vars(p) for p in r.problems]})
        return
    problems(r.problems, quiet=quiet)
    notes([] if quiet else r.notes)
    if r.already_imported:
        say(f"{r.file}: already imported, nothing to replace")
        return
    say(f"{r.file} is a corrected file of event #{r.event_id} {r.event} ({r.start} to "
        f"{r.end}, period {r.period}): {count(len(r.added), 'game')} added, "
        f"{len(r.removed)} removed, {len(r.changed)} changed, {r.unchanged} unchanged")
    table = PlainTable(title="Difference, game by game")
    for col, priority in (("", 0), ("game", 1), ("line", 2), ("round", 0), ("date", 3),
                          ("white", 0), ("black", 0), ("result", 0)):
        table.add_column(col, priority=priority)
    for what, g in [*(("added", g) for g in r.added), *(("removed", g) for g in r.removed)]:
        table.add_row(what, "" if g.game_id is None else f"#{g.game_id}",
                      "" if g.line is None else str(g.line), g.round or "", g.date.isoformat(),
                      g.white, g.black, g.result)
    for c in r.changed:
        result = (c.before.result if c.before.result == c.after.result
                  else f"{c.before.result} -> {c.after.result}")
        white = c.after.white if c.before.white == c.after.white else \
            f"{c.before.white} -> {c.after.white}"
        black = c.after.black if c.before.black == c.after.black else \
            f"{c.before.black} -> {c.after.black}"
        table.add_row("changed", f"#{c.before.game_id}", str(c.after.line), c.after.round or "",
                      c.after.date.isoformat(), white, black, result)
    stdout().print(table)
    if r.late:
        say(f"{count(r.late, 'game')} added as late result{'s' if r.late != 1 else ''} (rated "
            "in a later period with the ratings in force at the event's start)")
    effect_lines(r.effect, r.dry_run)


def edit(r: EditReport, as_json: bool) -> None:
    """``player edit``: each field changed, before and after, and from when K counts it."""
    notes(r.notes)
    if as_json:
        print_json({"player": {"id": r.player.id, "name": r.player.name},
                    "changed": {f: {"before": b, "after": a} for f, (b, a) in r.changed.items()},
                    "k_from": r.k_from, "pool": r.pool, "reason": r.reason, "dry_run": r.dry_run,
                    "change": r.change_id})
        return
    table = PlainTable(title=f"{r.player.name} (#{r.player.id})"
                             + (" (dry run)" if r.dry_run else ""))
    for col in ("field", "before", "after"):
        table.add_column(col)
    for f, (b, a) in r.changed.items():
        table.add_row(f.replace("_", "-"), "" if b is None else str(b), "" if a is None else str(a))
    stdout().print(table)
    if r.dry_run:
        say("dry run: nothing was written")


def merge(r: MergeReport, as_json: bool) -> None:
    """``player merge``: the games moved, the details taken, the closed periods to re-rate."""
    notes(r.notes)
    if as_json:
        print_json({"kept": {"id": r.kept.id, "name": r.kept.name},
                    "duplicate": {"id": r.duplicate_id, "name": r.duplicate},
                    "games_moved": r.games, "filled": r.filled, "list_ratings_moved": r.list_ratings,
                    "closed_periods": r.to_rerate,
                    "rerated": [{"pool": pool} | rerate_dict(p)
                                for p, pool in zip(r.rerated, r.rerated_pools, strict=True)],
                    "entries_carried": r.entries_carried,
                    "contradicting_pools": r.contradicting,
                    "reason": r.reason, "dry_run": r.dry_run, "change": r.change_id})
        return
    verb = "would merge" if r.dry_run else "merged"
    say(f"{verb} {r.duplicate} (#{r.duplicate_id}) into {r.kept.name} (#{r.kept.id}): "
        f"{count(len(r.games), 'game')} moved"
        + (f"; details taken from the duplicate: {', '.join(r.filled)}" if r.filled else "")
        + (f"; {count(r.list_ratings, 'FIDE list rating')} moved" if r.list_ratings else ""))
    for pool, n in r.entries_carried.items():
        say(f"{pool}: {n} {'entry' if n == 1 else 'entries'} of the duplicate carried to "
            f"{r.kept.name} (rating, rated games and K history it brought)")
    if r.to_rerate:
        say(f"closed periods with the duplicate's games: {', '.join(r.to_rerate)}")
    for pool in r.contradicting:
        say(f"{pool}: the histories contradict; {r.kept.name}'s stands, and every {pool} list "
            "that published the duplicate is re-rated (below)")
    for pool in dict.fromkeys(r.rerated_pools):
        say(f"{pool} lists re-rated:")
        rerate_tables([p for p, of in zip(r.rerated, r.rerated_pools, strict=True)
                       if of == pool])
    if r.dry_run:
        say("dry run: nothing was written")


def rating_correction(r: RatingCorrection, as_json: bool) -> None:
    """``player correct-rating``: the published rating, the corrected one, from when."""
    if as_json:
        print_json({"player": {"id": r.player.id, "name": r.player.name}, "period": r.period,
                    "pool": r.pool,
                    "published": r.published, "rating": r.rating, "in_force_from": r.in_force_from,
                    "reason": r.reason, "dry_run": r.dry_run, "change": r.change_id})
        return
    listed = "" if r.pool == "standard" else f" {r.pool}"
    say(f"{r.player.name} (#{r.player.id}): the {r.period}{listed} list published {r.published}; "
        f"corrected to {r.rating}, in force from {r.in_force_from} (the published list stands; "
        "the rated-games count goes on)" + ("; dry run: nothing was written" if r.dry_run else ""))


def _event_named(values: dict[str, Any]) -> str:
    return f"{values['name']} (#{values['id']}, {values['start']} to {values['end']})"


def event_correction(r: EventCorrection, as_json: bool) -> None:
    """What ``event rename`` / ``merge`` / ``void`` did or, with ``--dry-run``, would do."""
    notes(r.notes)
    if as_json:
        print_json({"action": r.action, "dry_run": r.dry_run, "reason": r.reason,
                    "change": r.change_id, "before": r.before, "after": r.after,
                    "games": r.games, "effect": effect_dict(r.effect)})
        return
    done = "would be" if r.dry_run else "is"
    if r.action == "event.rename":
        say(f"event #{r.before['id']} {done} renamed: {r.before['name']!r} -> "
            f"{r.after['name']!r} (the old name stays in the audit log)")
    elif r.action == "event.merge":
        say(f"event {_event_named(r.before['merged'])} {done} merged into "
            f"{_event_named(r.after)}: {count(len(r.games), 'game')} moved")
    else:
        say(f"event {_event_named(r.before)}: {count(len(r.games), 'game')} "
            f"{'would be voided' if r.dry_run else 'voided'} "
            f"({', '.join(f'#{g}' for g in r.games)})")
    effect_lines(r.effect, r.dry_run)
