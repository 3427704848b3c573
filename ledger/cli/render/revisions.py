"""Rendering revisions and the audit log: ``period list``, ``period reopen``, ``period rerate``,
``audit``, ``db check`` and ``db backup`` (Rich tables for people, JSON for programs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.cli.render.output import count, print_json, say, stdout
from ledger.cli.render.tables import PlainTable
from ledger.domain import STANDARD

if TYPE_CHECKING:
    from ledger.services.admin.audit_chain import ChainReport
    from ledger.services.admin.audit_log import AuditEntry
    from ledger.services.admin.backup import BackupReport
    from ledger.services.admin.recompute import CheckReport
    from ledger.services.close.periods import PeriodView
    from ledger.services.close.rerate import PeriodRerate, RatingMove, ReopenReport, RerateReport
    from ledger.services.close.revisions import RevisionView


def _when(view: RevisionView) -> str:
    return view.closed_at.isoformat(sep=" ", timespec="seconds")


def _revision_dict(v: RevisionView) -> dict[str, Any]:
    return {"revision": v.revision, "edition": v.edition,
            "at": v.closed_at.isoformat(timespec="seconds"), "by": v.by, "command": v.command,
            "action": v.action, "change": v.change_id, "reason": v.reason,
            "current": v.current, "superseded_by_change": v.superseded_by}


def period_list(views: list[PeriodView], as_json: bool) -> None:
    """Closed periods with their current revision (JSON: every revision of each)."""
    if as_json:
        print_json({"periods": [{"period": v.period, "pool": v.pool, "revision": v.revision,
                                 "edition": v.edition,
                                 "closed_at": v.closed_at.isoformat(timespec="seconds"),
                                 "players_rated": v.players, "games": v.games,
                                 "revisions": [_revision_dict(r) for r in v.revisions]}
                                for v in views]})
        return
    table = PlainTable(title="Closed rating periods")
    for col, priority in (("period", 0), ("pool", 0), ("revision", 0), ("rules of", 0),
                          ("closed at (UTC)", 1), ("players rated", 0), ("games", 0)):
        table.add_column(col, priority=priority)
    for v in views:
        table.add_row(v.period, v.pool, str(v.revision), v.edition,
                      v.closed_at.isoformat(sep=" ", timespec="seconds"), str(v.players),
                      str(v.games))
    stdout().print(table)


def reopen(r: ReopenReport, as_json: bool) -> None:
    """What ``period reopen`` did (or would do)."""
    if as_json:
        print_json({"period": r.period, "pool": r.pool, "revision": r.revision,
                    "players_rated": r.players_rated,
                    "reason": r.reason, "dry_run": r.dry_run})
        return
    verb = "would reopen" if r.dry_run else "reopened"
    say(f"{verb} {r.period}: revision {r.revision} ({count(r.players_rated, 'player')} rated) "
        f"is kept as superseded (ledger list --period {r.period} --revision {r.revision}); "
        f"closing {r.period} again writes revision {r.next or r.revision + 1}"
        + ("" if r.pool == "standard" else f" (the {r.pool} pool's)"))
    if r.dry_run:
        say("dry run: nothing was written")


def _move_dict(m: RatingMove) -> dict[str, Any]:
    return {"player_id": m.player_id, "name": m.name, "before": m.before, "after": m.after}


def rerate_dict(p: PeriodRerate) -> dict[str, Any]:
    """One period re-rated, as JSON: revisions and every rating that changes."""
    return {"period": p.period, "old_revision": p.old_revision, "new_revision": p.new_revision,
            "changes": [_move_dict(m) for m in p.moves]}


def rerate_tables(periods: list[PeriodRerate]) -> None:
    """Each period re-rated, with every player whose rating on its list changes."""
    for p in periods:
        if not p.moves:
            say(f"{p.period}: revision {p.old_revision} -> {p.new_revision}: no rating changes")
            continue
        table = PlainTable(title=f"{p.period}: revision {p.old_revision} -> {p.new_revision} "
                                 f"({count(len(p.moves), 'rating')} change)")
        for col, priority in (("id", 1), ("name", 0), ("before", 0), ("after", 0),
                              ("change", 0)):
            table.add_column(col, priority=priority,
                             justify="left" if col == "name" else "right")
        for m in p.moves:
            change = (f"{m.after - m.before:+d}" if m.before is not None and m.after is not None
                      else "")
            table.add_row(f"#{m.player_id}", m.name, _rating(m.before), _rating(m.after), change)
        stdout().print(table)


def rerate(r: RerateReport, as_json: bool) -> None:
    """Each period re-rated and every player whose rating on its list changes."""
    if as_json:
        print_json({"from": r.start, "reason": r.reason, "written": r.written,
                    "periods": [rerate_dict(p) for p in r.periods]})
        return
    rerate_tables(r.periods)
    if r.written:
        say(f"re-rated {count(len(r.periods), 'period')} from {r.start}")
    else:
        say("nothing was written: run again with --yes to re-rate")


def _rating(value: int | None) -> str:
    return "unlisted" if value is None else str(value)


def audit(entries: list[AuditEntry], as_json: bool) -> None:
    """The audit log, oldest first."""
    if as_json:
        print_json({"changes": [{"id": e.id, "at": e.at.isoformat(timespec="seconds"), "by": e.by,
                                 "command": e.command, "action": e.action, "entity": e.entity,
                                 "entity_id": e.entity_id, "what": e.what, "before": e.before,
                                 "after": e.after, "reason": e.reason} for e in entries]})
        return
    table = PlainTable(title=f"Audit log ({count(len(entries), 'change')})")
    for col, priority in (("change", 0), ("at (UTC)", 0), ("by", 2), ("action", 0),
                          ("what", 0), ("reason", 1), ("command", 1)):
        table.add_column(col, priority=priority, justify="right" if col == "change" else "left",
                         folds=col == "command", overflow="fold" if col == "command" else None)
    for e in entries:
        table.add_row(str(e.id), e.at.isoformat(sep=" ", timespec="minutes"), e.by, e.action,
                      e.what, e.reason or "", e.command)
    stdout().print(table)


def check(r: CheckReport, as_json: bool) -> None:
    """What ``db check`` found: the integrity check, then every stored value that differs."""
    if as_json:
        c = r.chain
        print_json({"ok": r.ok, "integrity": r.integrity,
                    "chain": {"ok": c.ok, "entries": c.entries,
                              "broken": None if c.broken is None else vars(c.broken),
                              "lists": c.lists,
                              "lists_broken": [vars(b) for b in c.lists_broken]},
                    "checked": [{"period": p, "revision": n} for p, n in r.checked],
                    "differences": [vars(d) for d in r.differences]})
        return
    say("integrity check: " + ("; ".join(r.integrity) if r.integrity
                               else "not run (the database server keeps its own checks)"))
    chain(r.chain)
    if r.differences:
        table = PlainTable(title=f"Stored values that differ from a recomputation "
                                 f"({len(r.differences)})")
        for col, priority in (("period", 0), ("revision", 1), ("table", 1), ("player", 0),
                              ("game", 2), ("field", 0), ("stored", 0), ("recomputed", 0)):
            table.add_column(col, priority=priority)
        for d in r.differences:
            table.add_row(d.period, str(d.revision), d.table, f"#{d.player_id}",
                          "" if d.game_id is None else f"#{d.game_id}", d.field, str(d.stored),
                          str(d.recomputed))
        stdout().print(table)
    periods = ", ".join(f"{p} (revision {n})" for p, n in r.checked) or "none"
    say(f"recomputed {count(len(r.checked), 'closed period')}: {periods}; "
        + ("every stored value is what the facts give" if not r.differences
           else f"{count(len(r.differences), 'value')} differ"))


def chain(c: ChainReport) -> None:
    """The audit log's chain and the lists' digests: the first entry that does not follow,
    each list that does not give its digest."""
    entries = f"{c.entries} {'entry' if c.entries == 1 else 'entries'}"
    if c.broken is None:
        say(f"audit log: {entries}, each one's hash follows from the one before")
    else:
        say(f"audit log: entry {c.broken.entry} does not follow: {c.broken.problem} "
            f"(the {entries} before it follow)")
    for b in c.lists_broken:
        pool = "" if b.pool == STANDARD else f" ({b.pool})"
        say(f"list {b.period}{pool} revision {b.revision}: its rows give {b.computed}, not "
            f"the digest stored ({b.stored or 'none'})")
    say(f"lists: {count(c.lists, 'list')} checked, " + (
        "each gives its digest" if not c.lists_broken
        else f"{count(len(c.lists_broken), 'list')} with rows that do not give the digest stored"))


def backup(r: BackupReport, as_json: bool) -> None:
    """The backup written."""
    if as_json:
        print_json({"file": r.file, "bytes": r.bytes, "replaced": r.replaced})
        return
    say(f"wrote a consistent copy of the ledger to {r.file} ({r.bytes} bytes)"
        + (", replacing the file there" if r.replaced else ""))
