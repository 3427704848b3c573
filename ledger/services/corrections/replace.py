"""Re-importing a corrected file: ``ledger import FILE --replace`` (docs/CORRECTIONS.md §7).

The file must be a file of one event, and that event already recorded (matched as an import
matches it: by name, and by start date when the file gives one); the report names it. The
file's games are compared, game by game, with the event's valid games (a game is the same game
when its round and its pair of players are, either colours; without a round, its date and pair):

- a game of the file the event lacks is **added** (as an import adds it: late when the event's
  period is closed, or with ``--rerate`` in its own period);
- a game of the event the file lacks is **removed** (voided: ``game.void``);
- a game in both whose result, colours, date or moves differ is **changed** (``game.correct``).

One ``import.replace`` change records the file (the games it adds carry it), and each game
removed or changed is a correction of its own, with the reason. When the event is in a closed
period the choice of ``--in-next-period`` or ``--rerate`` is required, as for any correction
(``services.corrections.effects``). One transaction; ``dry_run`` shows the difference and its full effect
and writes nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game, ImportedFile, Player
from ledger.domain import STANDARD, Actor, Period, RatingPool, parse_pool, round_of
from ledger.errors import ImportRejected, PeriodError, Problem
from ledger.formats.records import FileGame
from ledger.services.close.rerate import check_reason
from ledger.services.close.state import is_closed, last_closed_period
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.session import transaction
from ledger.services.corrections.effects import CHOOSE, Effect, Effects, Mode, mode_of
from ledger.services.corrections.games import revise
from ledger.services.imports.game_files import check_dates, read_games_file
from ledger.services.imports.games import ImportReport, add_games
from ledger.services.imports.matching import Matcher
from ledger.services.register.events import find_event, place_in_event
from ledger.services.register.game_keys import RoundSeats, twice_in_round
from ledger.services.register.matching import PlayerRow


@dataclass(frozen=True)
class DiffGame:
    """One game of the difference: the file's ``line`` (None: not in the file), the ledger's
    ``game_id`` (None: not recorded before), round, date, players, result, ``played``."""

    line: int | None
    game_id: int | None
    round: str | None
    date: dt.date
    white: str
    black: str
    result: str
    played: bool = True


@dataclass(frozen=True)
class ChangedGame:
    """A game in the file and the event whose values differ: as recorded and as the file has it."""

    before: DiffGame
    after: DiffGame


@dataclass
class ReplaceReport:
    """What ``import --replace`` did (or, with ``dry_run``, would do): the event replaced
    (``event_id``, ``event``, its dates and ``period``), the difference game by game
    (``added``, ``removed``, ``changed``; ``unchanged``: games in both that agree), how it took
    effect (``effect``), the problems (warnings), notes and the change numbers."""

    file: str
    format: str
    sha256: str
    dry_run: bool
    reason: str
    event_id: int = 0
    event: str = ""
    start: dt.date | None = None
    end: dt.date | None = None
    period: str = ""
    added: list[DiffGame] = field(default_factory=list)
    removed: list[DiffGame] = field(default_factory=list)
    changed: list[ChangedGame] = field(default_factory=list)
    unchanged: int = 0
    effect: Effect = field(default_factory=lambda: Effect("open"))
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    already_imported: bool = False
    late: int = 0


Key = tuple[Any, frozenset[int]]


def _key(round_: str | None, white: int, black: int, day: dt.date) -> Key:
    number = round_of(round_)
    return (number if number is not None else day, frozenset((white, black)))


def replace_event(engine: Engine, path: str, fmt: str | None, *, reason: str | None,
                  in_next_period: bool = False, rerate: bool = False, dry_run: bool = False,
                  register_players: bool = False, ids: str = "fide",
                  end_date: dt.date | None = None, today: dt.date | None = None,
                  actor: Actor | None = None, no_moves: str | None = None) -> ReplaceReport:
    """``ledger import FILE --replace``: apply a corrected file of an event already imported
    (see the module docstring). ``reason`` is required; ``in_next_period`` / ``rerate`` say how
    the correction takes effect when the event is in a closed period.

    Raises ``ImportRejected`` (exit 3, nothing written) for a file that is not of one recorded
    event, unknown players (without ``register_players``), a player twice in a round of the
    file, a game outside a closed event's dates, and the reader's own errors; ``PeriodError``
    for a closed event without a mode (or what a carried correction cannot express);
    ``InvalidInput`` for a missing reason; ``UsageError`` as ``import_file`` (and for both
    modes). ``no_moves``: a PGN's games without moves, as ``import_file`` reads them.
    """
    why = check_reason(reason)
    mode = mode_of(in_next_period, rerate)
    report, games = read_replacement(path, fmt, why, dry_run=dry_run, ids=ids,
                                     end_date=end_date, today=today, no_moves=no_moves)
    with transaction(engine, dry_run=dry_run) as session:
        return apply_replacement(session, report, games, mode,
                                 actor or Actor.from_code("replace_event"),
                                 register_players=register_players, ids=ids)


def read_replacement(path: str, fmt: str | None, why: str, *, dry_run: bool = False,
                     ids: str = "fide", end_date: dt.date | None = None,
                     today: dt.date | None = None, no_moves: str | None = None,
                     name: str | None = None) -> tuple[ReplaceReport, list[FileGame]]:
    """``replace_event``'s reading of the corrected file, before any transaction: its report
    (named ``name``, default ``path``) and the games that can be dated. Raises
    ``ImportRejected`` for the reader's errors and a file that is not of one event."""
    name = name or str(path)
    sha256, _, fmt, readout = read_games_file(path, fmt, ids, end_date, no_moves)
    report = ReplaceReport(name, fmt, sha256, dry_run, why)
    report.problems.extend(readout.problems)
    report.notes.extend(readout.notes)
    undatable = check_dates(name, readout.games, today or dt.date.today(), report.problems)
    games = [g for g in readout.games if id(g) not in undatable]
    names = {g.event for g in readout.games}
    if len(names) != 1 or None in names:
        report.problems.append(Problem(name, None, "event", "--replace takes the file of one "
                                       "recorded event; this file has "
                                       + (f"{len(names)} events" if None not in names
                                          else "games without an event")))
    _reject_on_errors(report)
    return report, games


def apply_replacement(session: Session, report: ReplaceReport, games: list[FileGame],
                      mode: Mode | None, who: Actor, *, register_players: bool = False,
                      ids: str = "fide") -> ReplaceReport:
    """``replace_event``'s work inside the caller's writing transaction ``session``: the
    difference of ``games`` (``read_replacement``) with the recorded event, applied by
    ``mode`` (None: the event must be in an open period). Raises as ``replace_event``."""
    name, why = report.file, report.reason
    earlier = session.scalar(select(ImportedFile).where(ImportedFile.sha256 == report.sha256))
    if earlier is not None:
        report.already_imported = True
        report.notes.append(f"this file was imported on {earlier.imported_at:%Y-%m-%d %H:%M} "
                            f"(as {earlier.file_name}): nothing to replace")
        return report
    event = _the_event(session, name, games, report)
    change = record_change(session, who, "import.replace", "file", report.sha256,
                           reason=why)
    matcher = Matcher(session, name, register_players, ids == "fide")
    paired = _paired(name, games, matcher, report, parse_pool(event.pool))
    _reject_on_errors(report)
    recorded = list(session.scalars(select(Game).where(Game.event_id == event.id,
                                                       Game.status == "valid")))
    added, changes = _diff(session, paired, recorded, report)
    _reject_on_errors(report)
    last = last_closed_period(session, parse_pool(event.pool))
    if (report.added or report.removed or report.changed) and mode is None \
            and is_closed(Period.parse(report.period), last):
        named = "" if event.pool == STANDARD else f" of the {event.pool} pool"
        raise PeriodError(f"event {event.name!r} is in closed period {report.period}"
                          f"{named}, whose list is published: " + CHOOSE.format(
                              next=last.next() if last else "-", period=report.period))
    effects = Effects(session, mode, f"event {event.name!r}")
    _apply(session, name, event, games, added, changes, report, effects, why, who,
           mode is Mode.RERATE)
    session.add(ImportedFile(sha256=report.sha256, file_name=name[-500:], format=report.format,
                             games=len(report.added), players=len(matcher.registered),
                             change_id=change.id))
    summarise(change, {"file": name, "sha256": report.sha256, "event": event.id,
                       "added": len(report.added), "removed": len(report.removed),
                       "changed": len(report.changed), "unchanged": report.unchanged})
    report.effect = effects.finish(why, who)
    return report


def _reject_on_errors(report: ReplaceReport) -> None:
    if any(p.severity == "error" for p in report.problems):
        raise ImportRejected(f"{report.file}: --replace rejected, nothing was written",
                             sorted(report.problems, key=lambda p: (p.line or 0,
                                                                    p.severity != "error")))


def _the_event(session: Session, name: str, games: list[FileGame],
               report: ReplaceReport) -> Event:
    """The recorded event the file is a corrected version of, named in the report."""
    first = games[0]
    starts = [g.event_start for g in games if g.event_start is not None]
    ends = [g.event_end for g in games if g.event_end is not None]
    dates = [g.date for g in games]
    start, end = (min(starts) if starts else min(dates)), max(dates + ends)
    event = find_event(session, str(first.event), start, end, exact_start=bool(starts))
    if event is None:
        line, where = first.where("event")
        report.problems.append(Problem(name, line, where, f"no recorded event {first.event!r} "
                                       f"({start} to {end}) for --replace to correct: import "
                                       "the file without --replace"))
        raise ImportRejected(f"{name}: --replace rejected, nothing was written", report.problems)
    report.event_id, report.event = event.id, event.name
    report.start, report.end = event.start_date, event.end_date
    report.period = str(Period.of(event.end_date))
    return event


Paired = tuple[FileGame, PlayerRow, PlayerRow]


def _paired(name: str, games: list[FileGame], matcher: Matcher,
            report: ReplaceReport, pool: RatingPool) -> list[Paired]:
    """The file's games with their ledger players (one registered from the file: in the
    event's ``pool``); one seat per player per round."""
    paired: list[Paired] = []
    seats = RoundSeats(())
    for g in games:
        start = g.event_start or g.date
        w, b = matcher.find(g.white, start, pool), matcher.find(g.black, start, pool)
        if w is None or b is None:
            continue
        clash = seats.clash(g.round, (w, b))
        if clash is not None:
            line, where = (g.white if clash[0] is w else g.black).where("name")
            report.problems.append(Problem(name, line, where, twice_in_round(
                matcher.session, clash[0], str(g.round), clash[1])))
            continue
        seats.take(g.round, (w.id, b.id), g.date, g.line)
        paired.append((g, w, b))
    report.problems.extend(matcher.problems)
    return paired


#: A recorded game the file changes, with the file's game and its players.
Change = tuple[Game, FileGame, PlayerRow, PlayerRow]


def _diff(session: Session, paired: list[Paired], recorded: list[Game],
          report: ReplaceReport) -> tuple[list[Paired], list[Change]]:
    """Fill the report's difference; return the file's games to add and the changes."""
    ids = {p for g in recorded for p in (g.white_id, g.black_id)}
    names = dict(session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())
    names |= {p.id: p.name for _, w, b in paired for p in (w, b)}
    by_key = {_key(g.round, g.white_id, g.black_id, g.date): g for g in recorded}
    added, changes, seen = [], [], set()
    for g, w, b in paired:
        key = _key(g.round, w.id, b.id, g.date)
        old = by_key.get(key)
        new = DiffGame(g.line, old.id if old else None, g.round, g.date, w.name, b.name,
                       g.result.value, g.played)
        if old is None:
            report.added.append(new)
            added.append((g, w, b))
            continue
        seen.add(old.id)
        if (old.white_id, old.black_id, old.result, old.played, old.date) == (
                w.id, b.id, g.result.value, g.played, g.date):
            report.unchanged += 1
            continue
        report.changed.append(ChangedGame(_recorded(old, names), new))
        changes.append((old, g, w, b))
    report.removed = [_recorded(g, names) for g in recorded if g.id not in seen]
    return added, changes


def _recorded(game: Game, names: dict[int, str]) -> DiffGame:
    return DiffGame(None, game.id, game.round, game.date, names[game.white_id],
                    names[game.black_id], game.result, game.played)


def _apply(session: Session, name: str, event: Event, games: list[FileGame],
           added: list[Paired], changes: list[Change], report: ReplaceReport,
           effects: Effects, why: str, who: Actor, rerate: bool) -> None:
    """Write the difference: the games added (carrying the ``import.replace`` change), then one
    correction per game changed or removed."""
    if added:
        starts = [g.event_start for g in games if g.event_start is not None]
        dates = [g.date for g, _, _ in added]
        try:
            placed, period = place_in_event(session, event.name, min(starts or dates),
                                            max(dates), exact_start=bool(starts),
                                            notes=report.notes, rerate=rerate,
                                            pool=parse_pool(event.pool))
        except PeriodError as exc:
            line, where = added[0][0].where("date")
            report.problems.append(Problem(name, line, where, str(exc)))
            placed, period = event, Period.parse(report.period)
        if placed.id != event.id:
            line, where = added[0][0].where("date")
            report.problems.append(Problem(name, line, where, f"{added[0][0].date} is outside "
                                           f"the dates of event {event.name!r} ({event.start_date}"
                                           f" to {event.end_date}), in a closed period: the "
                                           "dates of an event of a closed period never change"))
        _reject_on_errors(report)
        effects.touch([period], pool=event.pool)
        scratch = ImportReport(name, report.dry_run)
        add_games(session, name, event.id, period, added, scratch, rerate, event.end_date,
                  pool=parse_pool(event.pool))
        report.late = len(scratch.late)
    for game, g, w, b in changes:
        values = {k: v for k, v in (("white_id", w.id), ("black_id", b.id),
                                    ("result", g.result.value), ("played", g.played),
                                    ("date", g.date))
                  if getattr(game, k) != v}
        if "date" in values and not event.start_date <= g.date <= event.end_date:
            values.pop("date")
            report.notes.append(f"game {game.id}: the file's date {g.date} is outside the "
                                "event's dates; the recorded date is kept")
        if values:
            revise(session, game, values, "game.correct", why, who, effects, {w.id, b.id})
    removed = {r.game_id for r in report.removed}
    for game in session.scalars(select(Game).where(Game.id.in_(removed)).order_by(Game.id)):
        revise(session, game, {"status": "void"}, "game.void", why, who, effects, set())
