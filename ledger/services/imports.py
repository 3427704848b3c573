"""Importing a file of games (PGN, TRF, CSV): all or nothing, every problem with file, line, field.

Each format module turns a stream into common records (``ledger.formats.records.FileGame``) and
problems; this service, the same for every format, matches players and registers unknown ones
on request (``ledger.services.import_matching``: FIDE id, then name and birth year), places games
in events and periods, skips games already recorded (by each game's natural key; a file already
imported is known by the SHA-256 of its bytes), and writes everything in one transaction, or
nothing on any error or with ``dry_run``.

Games dated before 2022 (old tournament files) are recorded with a warning: their period is kept
but never rated, since the ledger implements FIDE's rule editions from 1 January 2022 on.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

from sqlalchemy import Engine, Table, func, insert, select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game, ImportedFile, Player
from ledger.domain import Actor, Period, RatedGame, round_key
from ledger.errors import ImportRejected, Problem, SimilarGame, UsageError
from ledger.formats import games_csv, pgn, trf
from ledger.formats.detect import detect_format
from ledger.formats.records import FileGame, Readout
from ledger.services.audit import record_change, summarise, written_by
from ledger.services.games import (
    ALLOWED,
    SIMILAR,
    GameKey,
    Lookalikes,
    RoundSeats,
    existing_games,
    find_event,
    game_key,
    looks_like,
    place_in_event,
    twice_in_round,
    twice_on_a_day,
)
from ledger.services.import_matching import Matcher
from ledger.services.input_files import InputFile, check_input_file, file_head
from ledger.services.periods import not_rated_reason
from ledger.services.session import transaction
from ledger.services.state import (
    FIRST_RATED_PERIOD,
    is_closed,
    last_closed_period,
    load_histories,
    ratings_period,
)

#: Dates before this are typing errors (FIDE's first rating list is of 1971): refused.
FIRST_LIST = dt.date(1970, 1, 1)

#: ``(done, total)`` of the games being imported, for a progress bar.
Progress = Callable[[int, int], None]


def _read_pgn(path: str, raw: BinaryIO) -> Readout:
    return pgn.to_records(pgn.read_pgn_binary(raw, path))


def _read_trf(path: str, raw: BinaryIO, end_date: dt.date | None = None) -> Readout:
    event, readout = trf.read_trf(raw, path, end_date)
    given = trf.file_end_date(event)
    if end_date is not None and given is not None and given != end_date:
        code = "052" if event.end is not None else "132"
        raise UsageError(f"{path}:{event.lines[code]}: --end-date {end_date} differs from the end "
                         f"date {given} the file gives (record {code}): the file's dates are "
                         "used when it has them; drop --end-date or correct the file")
    return readout


#: Format name -> reader of a file's (path, binary stream at its start). One line per format.
#: Called as ``reader(path, raw, end_date)``; only a TRF can use ``end_date`` (the check in
#: ``import_file`` refuses it for the others).
READERS: dict[str, Callable[[str, BinaryIO, dt.date | None], Readout]] = {
    "pgn": lambda path, raw, _end_date: _read_pgn(path, raw),
    "trf": _read_trf,
    "csv": lambda path, raw, _end_date: games_csv.read_csv(path, raw),
}

#: How the id column of a file is read: ``fide`` (FIDE ids, matched and registered) or
#: ``national`` (a federation's own ids, as Krause files carry: ignored).
ID_KINDS = ("fide", "national")


#: The reason counted for a played game between rated players whose period is before 2022: the
#: ledger records it but no rule edition it implements can rate it.
NEVER_RATED = "period before 2022"


@dataclass
class ImportReport:
    """What an import did (or would do): counts, and every problem with file, line and field.

    ``to_rate``: recorded games that a close will rate (played, both players rated at the event's
    start, period from 2022-01); ``not_rated``: the others by reason (``NEVER_RATED`` for games
    between rated players in a period before 2022). ``already_imported``: the same bytes were imported
    before (``sha256``), so nothing was added. ``players_registered``: every player registered,
    split into ``registered_established`` (with the file's rating; earlier games unknown, assumed
    established: 30 or more) and ``registered_unrated`` (no rating in the file: 0 rated games).
    ``similar``: the file's games that look like recorded games of another event (or one of them
    without an event), likely duplicates: refused, unless ``allow_similar`` (then recorded, each
    with a warning).
    """

    file: str
    dry_run: bool
    format: str = "pgn"
    sha256: str = ""
    games_in_file: int = 0
    players_in_file: int | None = None
    recorded: int = 0
    to_rate: int = 0
    already_recorded: int = 0
    already_imported: bool = False
    players_matched: int = 0
    players_registered: list[str] = field(default_factory=list)
    registered_established: list[str] = field(default_factory=list)
    registered_unrated: list[str] = field(default_factory=list)
    not_rated: Counter[str] = field(default_factory=Counter)
    periods: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    allow_similar: bool = False
    similar: list[SimilarGame] = field(default_factory=list)


Paired = tuple[FileGame, Player, Player]


def sha256_of(raw: bytes) -> str:
    """The SHA-256 of a file's bytes, in hex: how the ledger knows a file imported before."""
    return hashlib.sha256(raw).hexdigest()


def import_pgn(engine: Engine, path: str, *, register_players: bool = False,
               dry_run: bool = False, today: dt.date | None = None,
               allow_similar: bool = False) -> ImportReport:
    """``ledger import FILE.pgn``: ``import_file`` with the PGN reader."""
    return import_file(engine, path, "pgn", register_players=register_players, dry_run=dry_run,
                       today=today, allow_similar=allow_similar)


def import_file(engine: Engine, path: str, fmt: str | None, *, register_players: bool = False,
                dry_run: bool = False, ids: str = "fide", today: dt.date | None = None,
                progress: Progress | None = None, end_date: dt.date | None = None,
                allow_similar: bool = False, actor: Actor | None = None) -> ImportReport:
    """``ledger import FILE``: record the games of a ``fmt`` file (a key of ``READERS``; None: told
    by the file's first bytes, else its extension, ``formats.detect``) in one transaction.

    ``ids="national"`` ignores the file's id column (national ids in a Krause file): players
    match by name and birth year only and are registered without a FIDE id. ``progress`` is called
    with (games done, games in all) while the games are matched and recorded.

    Raises ``ImportRejected`` (exit 3, nothing written) listing every error with file, line and
    field: unreadable records, unknown players (without ``register_players``), ambiguous ones,
    dates in the future (after ``today``), games in a closed period, a game already recorded with
    another result (both shown), a player twice in one round of an event, one pair twice on one
    day in an event when one of the games has no round (``games.RoundSeats``), dates before
    1970, an empty file or one without a game, and, unless ``allow_similar``, each likely
    duplicate (``games.Lookalikes``: the same players, date and result recorded in another event
    or without one), listed in ``report.similar`` and ``ImportRejected.similar`` with the game it
    resembles. Games already recorded (rounds read by ``domain.round_of``: ``1.1`` is round 1)
    are skipped; a file whose bytes were imported before adds nothing. Games before 2022 are
    recorded with a warning (never rated).

    ``end_date`` (TRF only) is the event's end date for a TRF that gives none (no record 052 and
    no 132): its games are dated on it, the start date being record 042's or the end date.
    Raises ``UsageError`` (exit 2, nothing read into the ledger) for a format that is not known
    or cannot be told, ``ids`` not in ``ID_KINDS``, ``end_date`` given for another format, or
    an ``end_date`` that differs from the end date the file gives (052, else the last 132 date).

    One ``import`` change by ``actor`` (None: called from code, ``Actor.from_code``) records the
    file (entity ``file``, its SHA-256) and summarises what it wrote; every game, player, entry
    and event written carries it. A file imported before, a dry run or a rejection writes none.
    """
    check_input_file(path)  # a regular file of at most 2 GB, or ImportRejected (exit 3)
    fmt = fmt or detect_format(file_head(path), Path(path).suffix)
    if fmt not in READERS:
        what = f"format {fmt!r} is not known" if fmt else "cannot tell the format"
        raise UsageError(f"{path}: {what}; give --format {'|'.join([*READERS, 'fide-list'])}")
    if ids not in ID_KINDS:
        raise UsageError(f"--ids {ids!r}: use {' or '.join(ID_KINDS)}")
    if end_date is not None and fmt != "trf":
        raise UsageError(f"{path}: --end-date is for a TRF without dates; a {fmt.upper()} file "
                         "dates each game itself")
    name = str(path)
    with InputFile(path) as raw:  # read as a stream, and hashed while it is read
        readout = READERS[fmt](name, raw.stream, end_date)
        sha256 = raw.sha256()
    report = ImportReport(name, dry_run, format=fmt, sha256=sha256,
                          games_in_file=readout.games_in_file,
                          players_in_file=readout.players_in_file, allow_similar=allow_similar)
    report.problems.extend(readout.problems)
    if not readout.games_in_file and not any(p.severity == "error" for p in readout.problems):
        report.problems.append(Problem(name, None, "file", "the file is empty" if raw.blank
                                       else f"no games in this {fmt.upper()} file: nothing to "
                                       "import (is it the right file?)"))
    undatable = _check_dates(name, readout.games, today or dt.date.today(), report)
    with transaction(engine, dry_run=dry_run) as session:
        earlier = session.scalar(select(ImportedFile).where(ImportedFile.sha256 == report.sha256))
        if earlier is not None:
            report.already_imported = True
            report.already_recorded = len(readout.games)
            report.notes.append(f"this file was imported on {earlier.imported_at:%Y-%m-%d %H:%M} "
                                f"(as {earlier.file_name}): nothing to add")
            report.problems = _in_file_order(report.problems)
            return report
        change = record_change(session, actor or Actor.from_code("import_file"), "import",
                               "file", report.sha256)
        _record(session, name, readout.games, undatable, register_players, ids == "fide",
                report, progress)
        report.problems = _in_file_order(report.problems)
        if any(p.severity == "error" for p in report.problems):
            raise ImportRejected(f"{name}: import rejected, nothing was written", report.problems,
                                 report.similar)
        session.add(ImportedFile(sha256=report.sha256, file_name=name[-500:], format=fmt,
                                 games=report.recorded, players=len(report.players_registered)))
        summarise(change, _summary(session, change.id, report))
    return report


def _summary(session: Session, change_id: int, report: ImportReport) -> dict[str, object]:
    """What an import wrote, for its change: the file, the games and players with their id
    ranges (two queries)."""
    games = session.execute(select(func.min(Game.id), func.max(Game.id))
                            .where(Game.change_id == change_id)).one()
    players = session.execute(select(func.min(Player.id), func.max(Player.id))
                              .where(Player.change_id == change_id)).one()
    return {"file": report.file, "sha256": report.sha256, "format": report.format,
            "games_recorded": report.recorded, "already_recorded": report.already_recorded,
            "game_ids": None if games[0] is None else list(games),
            "players_registered": len(report.players_registered),
            "player_ids": None if players[0] is None else list(players),
            "periods": dict(sorted(report.periods.items()))}


def _in_file_order(problems: list[Problem]) -> list[Problem]:
    """One problem per line and message (a TRF event's games share the line of record 052),
    by line, errors before warnings."""
    return sorted(dict.fromkeys(problems), key=lambda p: (p.line or 0, p.severity != "error"))


def _check_dates(name: str, games: list[FileGame], today: dt.date,
                 report: ImportReport) -> set[int]:
    """Refuse dates in the future or before 1970 (errors; returns those games' ids); warn once
    per period before 2022 that its games are recorded and never rated."""
    undatable: set[int] = set()
    warned: set[Period] = set()
    for g in games:
        period = Period.of(g.date)
        line, where = g.where("date")
        if g.date > today:
            undatable.add(id(g))
            report.problems.append(Problem(name, line, where, f"{g.date} is in the future "
                                           f"(today is {today})"))
        elif min(g.date, g.event_start or g.date) < FIRST_LIST:
            undatable.add(id(g))
            day = min(g.date, g.event_start or g.date)
            line, where = g.where("date" if day == g.date else "start")
            report.problems.append(Problem(name, line, where, f"{day} is before {FIRST_LIST}: "
                                           "FIDE published its first rating list in 1971; check "
                                           "the year"))
        elif period < FIRST_RATED_PERIOD and period not in warned:
            warned.add(period)
            report.problems.append(Problem(
                name, line, where, f"{g.date}: games before {FIRST_RATED_PERIOD} are recorded in "
                "their period, which is never rated (the ledger implements FIDE's rule editions "
                "from 1 January 2022 on)", severity="warning"))
    return undatable


def _record(session: Session, name: str, games: list[FileGame], undatable: set[int],
            register_players: bool, use_ids: bool, report: ImportReport,
            progress: Progress | None) -> None:
    """Match every game's players, then place the games that can be placed, so that one run
    reports every problem of the file (the caller rolls everything back if there is any)."""
    matcher = Matcher(session, name, register_players, use_ids)
    total = len(games)
    paired: list[tuple[FileGame, Player | None, Player | None]] = []
    for done, g in enumerate(games, start=1):
        start = g.event_start or g.date
        paired.append((g, matcher.find(g.white, start), matcher.find(g.black, start)))
        if progress is not None and done % 1000 == 0:
            progress(done // 2, total)
    report.problems.extend(matcher.problems)
    report.players_matched += matcher.players_matched
    report.players_registered.extend(matcher.registered)
    report.registered_established.extend(matcher.registered_established)
    report.registered_unrated.extend(matcher.registered_unrated)
    by_event: dict[str | None, list[Paired]] = defaultdict(list)
    for g, w, b in paired:
        if w is None or b is None or id(g) in undatable:
            continue
        if w.id == b.id:
            line, where = g.black.where("name")
            report.problems.append(Problem(name, line, where, f"White and Black are the same "
                                           f"ledger player, {b.name} (#{b.id})"))
            continue
        by_event[g.event].append((g, w, b))
    last_closed = last_closed_period(session)
    every_date = [g.date for event_games in by_event.values() for g, _, _ in event_games]
    lookalikes = Lookalikes(session, min(every_date, default=FIRST_LIST),
                            max(every_date, default=FIRST_LIST))
    recorded: list[Paired] = []
    for event_name, event_games in by_event.items():
        dates = [g.date for g, _, _ in event_games]
        starts = [g.event_start for g, _, _ in event_games if g.event_start is not None]
        ends = [g.event_end for g, _, _ in event_games if g.event_end is not None]
        start, end = (min(starts) if starts else min(dates)), max(dates + ends)
        event = None
        if event_name is not None:
            event = find_event(session, event_name, start, end, exact_start=bool(starts))
        known = existing_games(session, event.id if event else None, (min(dates), end))
        fresh = _skip_recorded(name, event.id if event else None, known, event_games, report)
        fresh = _one_game_a_round(session, name, known, fresh, report, event_name is not None)
        if not fresh:
            continue
        if event_name is None:
            late = [x for x in fresh if is_closed(Period.of(x[0].date), last_closed)]
            if late:
                _closed_errors(name, late, last_closed, report)
                continue
            fresh = _likely_duplicates(name, None, fresh, lookalikes, report)
            _add_games(session, name, None, None, fresh, report)
            recorded.extend(fresh)
            continue
        if is_closed(Period.of(max(end, event.end_date if event else end)), last_closed):
            _closed_errors(name, fresh, last_closed, report)
            continue
        event, period = place_in_event(session, event_name, start, end,
                                       site=event_games[0][0].site, source=name[-500:],
                                       exact_start=bool(starts), notes=report.notes)
        fresh = _likely_duplicates(name, event.id, fresh, lookalikes, report)
        _describe(event, event_games[0][0])
        _add_games(session, name, event.id, period, fresh, report)
        recorded.extend(fresh)
        if progress is not None:
            progress(total // 2 + len(recorded) // 2, total)
    _rating_checks(session, name, paired, recorded, report)


def _describe(event: Event, g: FileGame) -> None:
    """Fill the event's details from the file where the ledger has none yet."""
    d = g.details
    if d is None:
        return
    for attr, value in (("city", d.city), ("federation", d.federation), ("arbiter", d.arbiter),
                        ("time_control", d.time_control), ("rounds", d.rounds)):
        if getattr(event, attr) is None and value is not None:
            setattr(event, attr, value[:200] if isinstance(value, str) else value)


def _skip_recorded(name: str, event_id: int | None, known: dict[GameKey, Game],
                   games: list[Paired], report: ImportReport) -> list[Paired]:
    """The games not yet in the ledger; a recorded one with another result is an error that
    shows both."""
    fresh = []
    seen: dict[GameKey, tuple[str, bool, int | None]] = {
        key: (g.result, g.played, g.id) for key, g in known.items()}
    for g, w, b in games:
        key = game_key(event_id, g.round, w.id, b.id, g.date)
        old = seen.get(key)
        if old is None:
            fresh.append((g, w, b))
            seen[key] = (g.result.value, g.played, None)
        elif old[:2] != (g.result.value, g.played):
            where = f"game {old[2]}" if old[2] is not None else "earlier in the file"
            line, field_ = g.where("result")
            report.problems.append(Problem(
                name, line, field_, f"{w.name} v {b.name} round {g.round or '-'} is recorded as "
                f"{_shown(*old[:2])} ({where}); the file says {_shown(g.result.value, g.played)}"))
        else:
            report.already_recorded += 1
    return fresh


def _one_game_a_round(session: Session, name: str, known: dict[GameKey, Game],
                      games: list[Paired], report: ImportReport,
                      in_event: bool) -> list[Paired]:
    """The games of one event (``in_event``; else the games without an event) that break
    neither rule of ``RoundSeats`` against the ledger and the earlier lines of the file: a
    player in two games of one round (events only), and one pair twice on one day when one of
    the games has no round. Each game that breaks one is an error naming the first game."""
    seats = RoundSeats(known.values())
    kept = []
    for g, w, b in games:
        clash = seats.clash(g.round, (w, b)) if in_event else None
        if clash is not None:
            player, seat = clash
            line, where = (g.white if player is w else g.black).where("name")
            report.problems.append(Problem(name, line, where, twice_in_round(
                session, player, str(g.round), seat)))
            continue
        first = seats.same_day(g.round, (w.id, b.id), g.date)
        if first is not None:
            line, where = g.where("round")
            report.problems.append(Problem(name, line, where, twice_on_a_day(
                session, w, b, g.round, g.date, first, in_event)))
            continue
        seats.take(g.round, (w.id, b.id), g.date, g.line)
        kept.append((g, w, b))
    return kept


def _likely_duplicates(name: str, event_id: int | None, games: list[Paired],
                       lookalikes: Lookalikes, report: ImportReport) -> list[Paired]:
    """The games to record of one event (``event_id``; None: the games without an event): each
    game that resembles a recorded one of another event (``Lookalikes``) goes into
    ``report.similar`` with that game, as an error that keeps it out, or with
    ``report.allow_similar`` a warning, and it is recorded."""
    kept = []
    for g, w, b in games:
        alike = lookalikes.of(w.id, b.id, g.date, g.result, event_id)
        for old in alike:
            report.similar.append(SimilarGame(
                g.line, w.name, b.name, g.date, g.result.value, g.event, g.round, old.game_id,
                old.event_id, old.event, old.round))
        if alike:
            line, where = g.where("event")
            named = looks_like(w.name, b.name, g.result, g.date, g.round, alike)
            if report.allow_similar:
                report.problems.append(Problem(name, line, where, f"{named}; {ALLOWED}",
                                               severity="warning"))
            else:
                report.problems.append(Problem(name, line, where, f"{named}: "
                                               + SIMILAR.format(how="import the file")))
                continue
        kept.append((g, w, b))
    return kept


def _shown(result: str, played: bool) -> str:
    return result if played else f"{result} (less than one move)"


def _closed_errors(name: str, games: list[Paired], last_closed: Period | None,
                   report: ImportReport) -> None:
    for g, _, _ in games:
        line, where = g.where("date")
        report.problems.append(Problem(name, line, where, f"{g.date} is in a closed period "
                                       f"(periods up to {last_closed} are closed)"))


def _add_games(session: Session, name: str, event_id: int | None, event_period: Period | None,
               games: list[Paired], report: ImportReport) -> None:
    """Insert new games (one multi-row INSERT): in the event's period, or (no event) each in its
    own date's period."""
    rows = []
    change_id = written_by(session)
    for g, w, b in games:
        period = event_period or Period.of(g.date)
        rows.append(dict(event_id=event_id, round=g.round, round_key=round_key(g.round),
                         date=g.date, period=str(period),
                         white_id=w.id, black_id=b.id, result=g.result.value, played=g.played,
                         source=f"{name[-480:]}:{g.line}", change_id=change_id))
        report.recorded += 1
        report.periods[str(period)] += 1
    if rows:
        # Core INSERT of many rows (executemany): no ORM objects for games nobody reads back
        session.execute(insert(cast(Table, Game.__table__)), rows)


def _rating_checks(session: Session, name: str,
                   paired: list[tuple[FileGame, Player | None, Player | None]],
                   recorded: list[Paired], report: ImportReport) -> None:
    """Count the recorded games a close will rate (and why the others are not rated), and warn
    where the file's rating differs from the ledger's published rating (the ledger's is used)."""
    ids = {p.id for _, w, b in paired for p in (w, b) if p is not None}
    histories = load_histories(session, sorted(ids), through=Period(9999, 12))
    for g, w, b in recorded:
        at = ratings_period(g.event_start, g.date)
        reason = not_rated_reason(RatedGame(
            game_id=0, event_key=None, white_id=w.id, black_id=b.id,
            white_rating=histories[w.id].rating(at), black_rating=histories[b.id].rating(at),
            result=g.result, played=g.played))
        if reason is None and Period.of(g.event_end or g.date) < FIRST_RATED_PERIOD:
            reason = NEVER_RATED
        if reason is None:
            report.to_rate += 1
        else:
            report.not_rated[reason] += 1
    fresh_names = set(report.players_registered)
    warned: set[tuple[int, int]] = set()
    for g, maybe_white, maybe_black in paired:
        for someone, side in ((maybe_white, g.white), (maybe_black, g.black)):
            if someone is None or side.rating is None or someone.name in fresh_names:
                continue
            ledger_rating = histories[someone.id].rating(ratings_period(g.event_start, g.date))
            if ledger_rating != side.rating and (someone.id, side.rating) not in warned:
                warned.add((someone.id, side.rating))
                line, where = side.where("rating")
                report.problems.append(Problem(
                    name, line, where, f"{someone.name}: the file says {side.rating}, the "
                    f"ledger's published rating is {ledger_rating or 'unrated'}; the ledger's is "
                    "used", severity="warning"))

