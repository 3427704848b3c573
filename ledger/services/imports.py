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
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from sqlalchemy import Engine, Table, func, select
from sqlalchemy.orm import Session

from ledger.db.models import IMPORTED_GAME_COLUMNS, Event, Game, ImportedFile, Player, utcnow
from ledger.db.rows import insert_rows
from ledger.domain import (
    POOLS,
    STANDARD,
    Actor,
    Period,
    RatedGame,
    RatingPool,
    parse_pool,
    round_key,
)
from ledger.errors import ImportRejected, PeriodError, Problem, SimilarGame
from ledger.formats.records import FileGame
from ledger.services.audit import record_change, summarise, written_by
from ledger.services.game_files import FIRST_LIST, check_dates, read_games_file
from ledger.services.game_files import READERS as READERS  # re-exported
from ledger.services.game_pools import GamePool, game_pool
from ledger.services.games import (
    NO_CORRECTIONS,
    GameKey,
    RoundSeats,
    existing_games,
    find_event,
    game_key,
    place_in_event,
    twice_in_round,
    twice_on_a_day,
)
from ledger.services.import_matching import Matcher
from ledger.services.late import check_own_list, natural_period, place
from ledger.services.lookalikes import (
    ALLOWED,
    Lookalike,
    Lookalikes,
    looks_like,
    round_text,
    why_similar,
)
from ledger.services.periods import not_rated_reason
from ledger.services.rerate import PeriodRerate, check_reason, rerate_in
from ledger.services.session import transaction
from ledger.services.state import (
    FIRST_RATED_PERIOD,
    is_closed,
    last_closed_period,
    load_histories,
    ratings_period,
)

#: ``(done, total)`` of the games being imported, for a progress bar.
Progress = Callable[[int, int], None]


#: The reason counted for a played game between rated players whose period is before 2022: the
#: ledger records it but no rule edition it implements can rate it.
NEVER_RATED = "period before 2022"


@dataclass
class ImportReport:
    """What an import did (or would do): counts, and every problem with file, line and field.

    ``to_rate``: recorded games that a close will rate (played, both players rated at the event's
    start, period from 2022-01); ``not_rated``: the others by reason (``NEVER_RATED`` for games
    between rated players in a period before 2022). ``already_imported``: the same bytes were
    imported before (``sha256``), so nothing was added. ``already_recorded``: the file's games
    already in the ledger (skipped); ``repeated_in_file``: the file's games that repeat an
    earlier line of it (the same event, round, players and result: recorded once).
    ``players_registered``: every player registered, split into ``registered_established``
    (with the file's rating; earlier games unknown, assumed established: 30 or more) and
    ``registered_unrated`` (no rating in the file: 0 rated games). ``similar``: the file's games
    that look like games recorded or earlier in the file (``lookalikes.Lookalikes``), likely
    duplicates: refused, unless ``allow_similar`` (then recorded, each with a warning), one
    entry for each game it resembles; ``likely_duplicates``: how many of the file's games.
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
    repeated_in_file: int = 0
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
    likely_duplicates: int = 0
    late: list[LateRecord] = field(default_factory=list)
    rerated: list[PeriodRerate] = field(default_factory=list)


@dataclass(frozen=True)
class LateRecord:
    """A late result an import records (docs/RULES.md §1): the file's ``line``, the players, the
    game's ``date``, the closed period its dates belong to (``dated_in``) and the period it is
    recorded in (``period``: the earliest open one, or with ``--rerate`` its own), of ``pool``
    (whose closes decide both)."""

    line: int
    white: str
    black: str
    date: dt.date
    dated_in: str
    period: str
    pool: RatingPool = STANDARD


Paired = tuple[FileGame, Player, Player]


def import_pgn(engine: Engine, path: str, *, register_players: bool = False,
               dry_run: bool = False, today: dt.date | None = None,
               allow_similar: bool = False) -> ImportReport:
    """``ledger import FILE.pgn``: ``import_file`` with the PGN reader."""
    return import_file(engine, path, "pgn", register_players=register_players, dry_run=dry_run,
                       today=today, allow_similar=allow_similar)


def import_file(engine: Engine, path: str, fmt: str | None, *, register_players: bool = False,
                dry_run: bool = False, ids: str = "fide", today: dt.date | None = None,
                progress: Progress | None = None, end_date: dt.date | None = None,
                allow_similar: bool = False, actor: Actor | None = None,
                rerate: bool = False, reason: str | None = None,
                pool: str | None = None) -> ImportReport:
    """``ledger import FILE``: record the games of a ``fmt`` file (a key of ``READERS``; None: told
    by the file's first bytes, else its extension, ``formats.detect``) in one transaction.

    ``ids="national"`` ignores the file's id column (national ids in a Krause file): players
    match by name and birth year only and are registered without a FIDE id. ``progress`` is called
    with (games done, games in all) while the games are matched and recorded.

    Games dated in a closed period are late results (docs/RULES.md §1): they go into the
    earliest open period, keeping their dates, and the report lists them (``report.late``);
    with ``rerate`` they go into their own period and every closed period from the earliest of
    them is re-rated (``rerate.rerate_in``: one ``period.rerate`` change each, giving
    ``reason``, which ``rerate`` requires; ``report.rerated``).

    Raises ``ImportRejected`` (exit 3, nothing written) listing every error with file, line and
    field: unreadable records, unknown players (without ``register_players``), ambiguous ones,
    dates in the future (after ``today``), a game already recorded with
    another result (both shown), a player twice in one round of an event, one pair twice on one
    day in an event when one of the games has no round (``games.RoundSeats``), dates before
    1970, an empty file or one without a game, and, unless ``allow_similar``, each likely
    duplicate (``lookalikes.Lookalikes``: the same players, date and result recorded in another event
    or without one), listed in ``report.similar`` and ``ImportRejected.similar`` with the game it
    resembles. Games already recorded (rounds read by ``domain.round_of``: ``1.1`` is round 1)
    are skipped; a file whose bytes were imported before adds nothing. Games before 2022 are
    recorded with a warning (never rated).

    ``end_date`` (TRF only) is the event's end date for a TRF that gives none (no record 052 and
    no 132): its games are dated on it, the start date being record 042's or the end date.
    Raises ``UsageError`` (exit 2, nothing read into the ledger) for a format that is not known
    or cannot be told, ``ids`` not in ``ID_KINDS``, ``end_date`` given for another format, or
    an ``end_date`` that differs from the end date the file gives (052, else the last 132 date).

    ``pool``: the event's rating pool (``import --pool``: standard, rapid or blitz; docs/RULES.md
    §9), for games whose file gives no time control; a game's time control (PGN
    ``TimeControl``, a CSV ``time_control`` column, TRF record 122) or a CSV ``pool`` column
    decides its pool, and one that disagrees with ``pool`` is an error naming its line
    (``services.game_pools``). A game whose players had different times is recorded, not rated.
    With ``rerate`` a late result goes into its own period and each pool with such games
    re-rates its own closed periods from the earliest one (``rerate.rerate_in`` per pool: the
    other pools' closes stand).

    One ``import`` change by ``actor`` (None: called from code, ``Actor.from_code``) records the
    file (entity ``file``, its SHA-256) and summarises what it wrote; every game, player, entry
    and event written carries it. A file imported before, a dry run or a rejection writes none.
    """
    name = str(path)
    event_pool = parse_pool(pool) if pool is not None else None
    why = check_reason(reason) if rerate or reason is not None else None
    sha256, blank, fmt, readout = read_games_file(path, fmt, ids, end_date)
    report = ImportReport(name, dry_run, format=fmt, sha256=sha256,
                          games_in_file=readout.games_in_file,
                          players_in_file=readout.players_in_file, allow_similar=allow_similar)
    report.problems.extend(readout.problems)
    if not readout.games_in_file and not any(p.severity == "error" for p in readout.problems):
        report.problems.append(Problem(name, None, "file", "the file is empty" if blank
                                       else f"no games in this {fmt.upper()} file: nothing to "
                                       "import (is it the right file?)"))
    undatable = check_dates(name, readout.games, today or dt.date.today(), report.problems)
    with transaction(engine, dry_run=dry_run) as session:
        earlier = session.scalar(select(ImportedFile).where(ImportedFile.sha256 == report.sha256))
        if earlier is not None:
            report.already_imported = True
            report.already_recorded = len(readout.games)
            report.notes.append(f"this file was imported on {earlier.imported_at:%Y-%m-%d %H:%M} "
                                f"(as {earlier.file_name}): nothing to add")
            report.problems = _in_file_order(report.problems)
            return report
        who = actor or Actor.from_code("import_file")
        change = record_change(session, who, "import", "file", report.sha256, reason=why)
        _record(session, name, readout.games, undatable, register_players, ids == "fide",
                report, progress, rerate, event_pool)
        report.problems = _in_file_order(report.problems)
        if any(p.severity == "error" for p in report.problems):
            raise ImportRejected(f"{name}: import rejected, nothing was written", report.problems,
                                 report.similar)
        session.add(ImportedFile(sha256=report.sha256, file_name=name[-500:], format=fmt,
                                 games=report.recorded, players=len(report.players_registered)))
        summarise(change, _summary(session, change.id, report))
        for rating_pool in POOLS:
            closed = sorted({Period.parse(x.period) for x in report.late
                             if x.period == x.dated_in and x.pool == rating_pool})
            if closed:
                assert why is not None  # only --rerate records a game in a closed period
                session.flush()
                for period in closed:
                    check_own_list(session, period, rating_pool)
                report.rerated.extend(rerate_in(session, closed[0], why, who, rating_pool))
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
            "repeated_in_file": report.repeated_in_file,
            "game_ids": None if games[0] is None else list(games),
            "players_registered": len(report.players_registered),
            "player_ids": None if players[0] is None else list(players),
            "periods": dict(sorted(report.periods.items())), "late_games": len(report.late)}


def _in_file_order(problems: list[Problem]) -> list[Problem]:
    """One problem per line and message (a TRF event's games share the line of record 052),
    by line, errors before warnings."""
    return sorted(dict.fromkeys(problems), key=lambda p: (p.line or 0, p.severity != "error"))


def _record(session: Session, name: str, games: list[FileGame], undatable: set[int],
            register_players: bool, use_ids: bool, report: ImportReport,
            progress: Progress | None, rerate: bool = False,
            event_pool: RatingPool | None = None) -> None:
    """Match every game's players, then place the games that can be placed, so that one run
    reports every problem of the file (the caller rolls everything back if there is any).
    Each game's pool: ``game_pools.game_pool``; the games of an event are placed per pool."""
    matcher = Matcher(session, name, register_players, use_ids)
    matcher.expect(p for g in games for p in (g.white, g.black))
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
    by_event: dict[tuple[str | None, RatingPool], list[Paired]] = defaultdict(list)
    pools: dict[int, GamePool] = {}
    for g, w, b in paired:
        found = game_pool(name, g, event_pool, report.problems)
        if found is None:
            continue
        pools[id(g)] = found
        if w is None or b is None or id(g) in undatable:
            continue
        if w.id == b.id:
            line, where = g.black.where("name")
            report.problems.append(Problem(name, line, where, f"White and Black are the same "
                                           f"ledger player, {b.name} (#{b.id})"))
            continue
        by_event[(g.event, found.pool)].append((g, w, b))
    every_date = [day for event_games in by_event.values() for g, _, _ in event_games
                  for day in (g.date, g.event_start, g.event_end) if day is not None]
    lookalikes = Lookalikes(session, min(every_date, default=FIRST_LIST),
                            max(every_date, default=FIRST_LIST))
    recorded: list[Paired] = []
    for (event_name, game_pool_), event_games in by_event.items():
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
            fresh = _likely_duplicates(name, None, None, fresh, lookalikes, report, game_pool_)
            add_games(session, name, None, None, fresh, report, rerate, pools=pools,
                      pool=game_pool_)
            recorded.extend(fresh)
            continue
        try:
            event, period = place_in_event(session, event_name, start, end,
                                           site=event_games[0][0].site, source=name[-500:],
                                           exact_start=bool(starts), notes=report.notes,
                                           rerate=rerate, pool=game_pool_)
        except PeriodError as exc:
            line, where = fresh[0][0].where("start")
            report.problems.append(Problem(name, line, where, str(exc)))
            continue
        fresh = _likely_duplicates(name, event.id, (start, end), fresh, lookalikes, report,
                                   game_pool_)
        _describe(event, event_games[0][0])
        add_games(session, name, event.id, period, fresh, report, rerate, event.end_date,
                  pools=pools, pool=game_pool_)
        recorded.extend(fresh)
        if progress is not None:
            progress(total // 2 + len(recorded) // 2, total)
    _rating_checks(session, name, paired, recorded, report, pools)


def _describe(event: Event, g: FileGame) -> None:
    """Fill the event's details from the file where the ledger has none yet."""
    d = g.details
    if d is None:
        return
    for attr, value in (("city", d.city), ("federation", d.federation), ("arbiter", d.arbiter),
                        ("time_control", d.time_control), ("rounds", d.rounds)):
        if getattr(event, attr) is None and value is not None:
            setattr(event, attr, value[:200] if isinstance(value, str) else value)


@dataclass(frozen=True)
class _Seen:
    """A game ``_skip_recorded`` has seen under its natural key: its result, whether it was
    played, and where: a recorded game (``game_id``) or a line of this file (``line``), with its
    date."""

    result: str
    played: bool
    game_id: int | None
    line: int | None
    date: dt.date

    @property
    def where(self) -> str:
        """``game 8`` (recorded) or ``line 12`` (of this file), as messages name it."""
        return f"game {self.game_id}" if self.game_id is not None else f"line {self.line}"


def _skip_recorded(name: str, event_id: int | None, known: dict[GameKey, Game],
                   games: list[Paired], report: ImportReport) -> list[Paired]:
    """The games not yet in the ledger, the first of each natural key (``game_key``) in the
    file. A game already recorded is counted in ``report.already_recorded`` (a warning naming
    both dates when its date differs from the recorded one's); a game the file repeats (an
    earlier line has the same key, result and date) is counted in ``report.repeated_in_file``,
    with a warning naming both lines. The same game with another result, or twice in the file
    with two dates, is an error that shows both. A voided game stays void (a note says so)."""
    fresh = []
    seen: dict[GameKey, _Seen] = {
        key: _Seen(g.result, g.played, g.id, None, g.date) for key, g in known.items()}
    void = {g.id for g in known.values() if g.status == "void"}
    for g, w, b in games:
        key = game_key(event_id, g.round, w.id, b.id, g.date)
        old = seen.get(key)
        if old is None:
            fresh.append((g, w, b))
            seen[key] = _Seen(g.result.value, g.played, None, g.line, g.date)
        elif old.game_id in void:
            report.already_recorded += 1
            report.notes.append(f"line {g.line}: {w.name} v {b.name} is game {old.game_id}, void "
                                "in the ledger: it stays void (ledger import --replace applies a "
                                "corrected file)")
        elif (old.result, old.played) != (g.result.value, g.played):
            line, field_ = g.where("result")
            report.problems.append(Problem(
                name, line, field_, f"{w.name} v {b.name} round {g.round or '-'} is recorded as "
                f"{_shown(old.result, old.played)} ({old.where}); the file says "
                f"{_shown(g.result.value, g.played)}"))
        elif old.game_id is None and old.date != g.date:
            line, field_ = g.where("date")
            report.problems.append(Problem(
                name, line, field_, f"{w.name} v {b.name} ({round_text(g.round)}) is on line "
                f"{old.line} dated {old.date}; this line dates it {g.date}: one game with two "
                "dates; correct the file"))
        elif old.game_id is None:
            report.repeated_in_file += 1
            line, field_ = g.where("game")
            report.problems.append(Problem(
                name, line, field_, f"line {g.line} repeats line {old.line} ({w.name} v "
                f"{b.name}, {round_text(g.round)}, {g.result.value}): recorded once",
                severity="warning"))
        else:
            report.already_recorded += 1
            if old.date != g.date:
                line, field_ = g.where("date")
                report.problems.append(Problem(
                    name, line, field_, f"{w.name} v {b.name} ({round_text(g.round)}) is "
                    f"recorded as {old.where} dated {old.date}; the file dates it {g.date}: the "
                    f"recorded date is kept ({NO_CORRECTIONS})", severity="warning"))
    return fresh


def _one_game_a_round(session: Session, name: str, known: dict[GameKey, Game],
                      games: list[Paired], report: ImportReport,
                      in_event: bool) -> list[Paired]:
    """The games of one event (``in_event``; else the games without an event) that break
    neither rule of ``RoundSeats`` against the ledger and the earlier lines of the file: a
    player in two games of one round (events only), and one pair twice on one day when one of
    the games has no round. Each game that breaks one is an error naming the first game."""
    seats = RoundSeats(g for g in known.values() if g.status == "valid")
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


def _likely_duplicates(name: str, event_id: int | None, dates: tuple[dt.date, dt.date] | None,
                       games: list[Paired], lookalikes: Lookalikes,
                       report: ImportReport, pool: RatingPool = STANDARD) -> list[Paired]:
    """The games to record of one event (``event_id``, its ``dates`` in the file; None: the
    games without an event), all of ``pool`` (a game of another pool is never a likely
    duplicate: docs/RULES.md §9): each game that resembles a recorded one or one of the file's
    games already taken (``Lookalikes``) goes into ``report.similar`` with that game, as an
    error that keeps it out, or with ``report.allow_similar`` a warning, and it is recorded.
    Each game kept is taken into ``lookalikes``, so that the file's later games are compared
    with it too."""
    kept = []
    for g, w, b in games:
        seen_as = Lookalike(None, event_id, g.event, g.round, g.date, dates, g.line, pool)
        alike = lookalikes.of(w.id, b.id, g.result, seen_as)
        for r in alike:
            old = r.game
            report.similar.append(SimilarGame(
                g.line, w.name, b.name, g.date, g.result.value, g.event, g.round, old.game_id,
                old.event_id if old.game_id is not None else None, old.event, old.round,
                why=r.why, earlier_line=old.line))
        if alike:
            report.likely_duplicates += 1
            line, where = g.where("event")
            named = looks_like(w.name, b.name, g.result, g.date, g.round, (r.game for r in alike))
            if report.allow_similar:
                report.problems.append(Problem(name, line, where, f"{named}; {ALLOWED}",
                                               severity="warning"))
            else:
                report.problems.append(Problem(name, line, where, f"{named}: "
                                               + why_similar(alike, "import the file")))
                continue
        lookalikes.take(w.id, b.id, g.result, seen_as)
        kept.append((g, w, b))
    return kept


def _shown(result: str, played: bool) -> str:
    return result if played else f"{result} (less than one move)"


def add_games(session: Session, name: str, event_id: int | None, event_period: Period | None,
               games: list[Paired], report: ImportReport, rerate: bool = False,
               event_end: dt.date | None = None, *, pools: dict[int, GamePool] | None = None,
               pool: RatingPool = STANDARD) -> None:
    """Insert new games of ``pool`` (one multi-row INSERT): in the event's period, or (no
    event) each in its own date's period; a game whose dates are in a closed period of the
    pool is a late result (``late.placement``: the earliest open period, or with ``rerate`` its
    own), in ``report.late``. ``pools``: ``id(FileGame)`` -> its ``GamePool`` (different
    times)."""
    rows = []
    change_id = written_by(session)
    last = last_closed_period(session, pool)
    for g, w, b in games:
        period = event_period or place(Period.of(g.date), last, rerate=rerate)[0]
        natural = natural_period(event_end, g.date)
        if is_closed(natural, last):
            report.late.append(LateRecord(g.line, w.name, b.name, g.date, str(natural),
                                          str(period), pool))
        rows.append((event_id, g.round, round_key(g.round), g.date, str(period), w.id, b.id,
                     g.result.value, g.played, f"{name[-480:]}:{g.line}", utcnow(), "valid",
                     change_id, pool,
                     (pools or {}).get(id(g), GamePool(pool)).unequal_times))
        report.recorded += 1
        report.periods[str(period)] += 1
    # the driver's executemany of tuples (db.rows): no ORM objects, no per-row dicts
    insert_rows(session, cast(Table, Game.__table__), IMPORTED_GAME_COLUMNS, rows)


def _rating_checks(session: Session, name: str,
                   paired: list[tuple[FileGame, Player | None, Player | None]],
                   recorded: list[Paired], report: ImportReport,
                   pools: dict[int, GamePool] | None = None) -> None:
    """Count the recorded games a close will rate (and why the others are not rated: with
    each game's pool's ratings), and warn where the file's rating differs from the ledger's
    published standard rating (the ledger's is used)."""
    ids = {p.id for _, w, b in paired for p in (w, b) if p is not None}
    histories = load_histories(session, sorted(ids), through=Period(9999, 12))
    of_pool = {STANDARD: histories}
    # (pool, ratings period) -> player -> rating: each looked up once; periods by date once
    known: dict[tuple[RatingPool, Period], dict[int, int | None]] = {}
    periods: dict[tuple[dt.date | None, dt.date], Period] = {}
    ended: dict[dt.date, Period] = {}

    def ratings_period_of(g: FileGame) -> Period:
        if (g.event_start, g.date) not in periods:
            periods[g.event_start, g.date] = ratings_period(g.event_start, g.date)
        return periods[g.event_start, g.date]

    def period_of(day: dt.date) -> Period:
        if day not in ended:
            ended[day] = Period.of(day)
        return ended[day]

    def rating(ratings: dict[int, int | None], pool: RatingPool, pid: int,
               at: Period) -> int | None:
        if pid not in ratings:
            ratings[pid] = of_pool[pool][pid].rating(at)
        return ratings[pid]

    for g, w, b in recorded:
        found = (pools or {}).get(id(g), GamePool(STANDARD))
        if found.pool not in of_pool:
            of_pool[found.pool] = load_histories(session, sorted(ids), through=Period(9999, 12),
                                                 pool=found.pool)
        at = ratings_period_of(g)
        ratings = known.setdefault((found.pool, at), {})
        white_id, black_id = w.id, b.id
        reason = not_rated_reason(RatedGame(
            game_id=0, event_key=None, white_id=white_id, black_id=black_id,
            white_rating=rating(ratings, found.pool, white_id, at),
            black_rating=rating(ratings, found.pool, black_id, at),
            result=g.result, played=g.played, unequal_times=found.unequal_times))
        if reason is None and period_of(g.event_end or g.date) < FIRST_RATED_PERIOD:
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

