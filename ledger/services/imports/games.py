"""Importing a file of games (PGN, TRF, CSV): all or nothing, every problem with file, line, field.

Each format module turns a stream into common records (``ledger.formats.records.FileGame``) and
problems; this service, the same for every format, matches players and registers unknown ones
on request (``ledger.services.imports.matching``: FIDE id, then name and birth year), places games
in events and periods, skips games already recorded (by each game's natural key; a file already
imported is known by the SHA-256 of its bytes), and writes everything in one transaction, or
nothing on any error or with ``dry_run``. A CSV file is read and imported in batches
(``game_files.GameBatches``: never the whole file at once), written batch by batch inside that
one transaction; the games are grouped and placed by ``services.imports.placing``, checked by
``services.imports.checks``, written by ``services.imports.writing``; what it did is an
``services.imports.report.ImportReport``.

Games dated before 2022 (old tournament files) are recorded with a warning: their period is kept
but never rated, since the ledger implements FIDE's rule editions from 1 January 2022 on.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from ledger.db.models import Game, ImportedFile, Player
from ledger.domain import POOLS, STANDARD, Actor, Period, RatingPool, parse_pool
from ledger.errors import ImportRejected, Problem
from ledger.services.close.late import check_own_list
from ledger.services.close.rerate import check_reason, rerate_in
from ledger.services.core.audit import record_change, summarise
from ledger.services.core.bulk import paused_gc
from ledger.services.core.session import transaction
from ledger.services.core.statistics import analyze_written
from ledger.services.imports.game_files import READERS as READERS  # re-exported
from ledger.services.imports.game_files import GameBatches, check_dates
from ledger.services.imports.game_pools import GamePool, game_pools
from ledger.services.imports.matching import Matcher
from ledger.services.imports.placing import Placing
from ledger.services.imports.report import NEVER_RATED as NEVER_RATED  # re-exported
from ledger.services.imports.report import ImportReport as ImportReport
from ledger.services.imports.report import LateRecord as LateRecord
from ledger.services.imports.report import Matched, Progress
from ledger.services.imports.writing import RatingChecks
from ledger.services.imports.writing import add_games as add_games


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
                pool: str | None = None, no_moves: str | None = None,
                late: bool = False, new_event: bool = False) -> ImportReport:
    """``ledger import FILE``: record the games of a ``fmt`` file (a key of ``READERS``; None: told
    by the file's first bytes, else its extension, ``formats.detect``) in one transaction.

    ``ids="national"`` ignores the file's id column (national ids in a Krause file): players
    match by name and birth year only and are registered without a FIDE id. ``progress`` is called
    with (games done, games in all) while the games are matched and recorded.

    Games dated in a closed period are late results (docs/RULES.md §1): they go into the
    earliest open period, keeping their dates, and the report lists them (``report.late``);
    with ``rerate`` they go into their own period and every closed period from the earliest of
    them is re-rated (``rerate.rerate_in``: one ``period.rerate`` change each, giving
    ``reason``, which ``rerate`` requires; ``report.rerated``). A game whose period (its
    event's end, else its date) lies more than ``late.LATE_PERIODS`` periods before its pool's
    earliest open period is an error naming its date line (``late.too_late``: a year typed
    wrong), unless ``late`` (or ``rerate``) says such dates are meant; a ledger that has closed
    no period refuses none.

    Raises ``ImportRejected`` (exit 3, nothing written) listing every error with file, line and
    field: unreadable records, unknown players (without ``register_players``), ambiguous ones,
    dates in the future (after ``today``), a game already recorded with
    another result (both shown), a player twice in one round of an event, one pair twice on one
    day in an event when one of the games has no round (``game_keys.RoundSeats``), dates before
    1970, an empty file or one without a game, and, unless ``allow_similar``, each likely
    duplicate (``lookalikes.Lookalikes``: the same players, date and result recorded in another event
    or without one), listed in ``report.similar`` and ``ImportRejected.similar`` with the game it
    resembles. Games already recorded (rounds read by ``domain.round_of``: ``1.1`` is round 1)
    are skipped; a file whose bytes were imported before adds nothing. Games before 2022 are
    recorded with a warning (never rated).

    ``no_moves`` (PGN only; ``formats.records.NO_MOVES``): its games without moves are played
    games (``played``) or forfeits (``forfeit``); None: a file in which no game has moves is a
    results file, its games played and rated (a note says so), else they are forfeits
    (``formats.pgn.read_pgn``). Given for another format: ``UsageError``.

    ``end_date`` (TRF only) is the event's end date for a TRF that gives none (no record 052 and
    no 132): its games are dated on it, the start date being record 042's or the end date.
    Raises ``UsageError`` (exit 2, nothing read into the ledger) for a format that is not known
    or cannot be told, ``ids`` not in ``ID_KINDS``, ``end_date`` given for another format, or
    an ``end_date`` that differs from the end date the file gives (052, else the last 132 date).

    A CSV file is read twice, as a stream each time: once for its SHA-256 (a file imported
    before adds nothing), then in batches of ``game_files.BATCH_GAMES`` games, each checked and
    written in the one transaction; a file whose bytes change between the two reads is an
    error (field ``file``). Every message is the one a whole-file read would give.

    ``pool``: the event's rating pool (``import --pool``: standard, rapid or blitz; docs/RULES.md
    §9), for games whose file gives no time control; a game's time control (PGN
    ``TimeControl``, a CSV ``time_control`` column, TRF record 122) or a CSV ``pool`` column
    decides its pool, and one that disagrees with ``pool`` is an error naming its line
    (``services.imports.game_pools``). A game whose players had different times is recorded, not rated.
    With ``rerate`` a late result goes into its own period and each pool with such games
    re-rates its own closed periods from the earliest one (``rerate.rerate_in`` per pool: the
    other pools' closes stand).

    An event name that names no recorded event but may be a misspelling of one (``Club
    Champioship 2026`` beside ``Club Championship 2026``: ``register.events.check_new_name``)
    is an error naming its line and field ``event``, unless ``new_event``.

    One ``import`` change by ``actor`` (None: called from code, ``Actor.from_code``) records the
    file (entity ``file``, its SHA-256) and summarises what it wrote; every game, player, entry
    and event written carries it. A file imported before, a dry run or a rejection writes none.
    On PostgreSQL the games (and the players registered, with their entries) are analyzed
    after the commit when many were written (``core.statistics.analyze_written``: the close
    that follows is planned with their statistics).
    """
    with paused_gc(), GameBatches(path, fmt, ids, end_date,
                                                   no_moves=no_moves) as source:
        with transaction(engine, dry_run=dry_run) as session:
            report = import_games(session, str(path), source, register_players=register_players,
                                  dry_run=dry_run, ids=ids, today=today, progress=progress,
                                  allow_similar=allow_similar, actor=actor, rerate=rerate,
                                  reason=reason, pool=pool, late=late, new_event=new_event)
    if not dry_run:  # PostgreSQL's statistics on the rows written (core.statistics)
        registered = len(report.players_registered)
        analyze_written(engine, {"games": report.recorded, "players": registered,
                                 "player_entries": registered})
    return report


def import_games(session: Session, name: str, source: GameBatches, *,
                 register_players: bool = False, dry_run: bool = False, ids: str = "fide",
                 today: dt.date | None = None, progress: Progress | None = None,
                 allow_similar: bool = False, actor: Actor | None = None,
                 rerate: bool = False, reason: str | None = None, pool: str | None = None,
                 late: bool = False, new_event: bool = False) -> ImportReport:
    """``import_file``'s work inside the caller's writing transaction ``session`` (committed or
    rolled back by the caller: ``dry_run`` only marks the report), on the file ``source`` read
    by ``GameBatches``, named ``name`` in its problems and its ``imported_files`` row; the
    options and errors are ``import_file``'s (a web submission accepted records its games by
    it: ``services.submissions``)."""
    event_pool = parse_pool(pool) if pool is not None else None
    why = check_reason(reason) if rerate or reason is not None else None
    report = ImportReport(name, dry_run, format=source.format, sha256=source.sha256,
                          allow_similar=allow_similar)
    earlier = session.scalar(select(ImportedFile)
                             .where(ImportedFile.sha256 == report.sha256))
    if earlier is not None:
        report.already_imported = True
        report.already_recorded = _read_only(name, source, today, report)
        report.notes.append(f"this file was imported on "
                            f"{earlier.imported_at:%Y-%m-%d %H:%M} (as "
                            f"{earlier.file_name}): nothing to add")
        report.problems = _in_file_order(report.problems)
        return report
    who = actor or Actor.from_code("import_file")
    change = record_change(session, who, "import", "file", report.sha256, reason=why)
    _record(session, name, source, today or dt.date.today(), register_players,
            ids == "fide", report, progress, rerate, event_pool, late=late,
            new_event=new_event)
    report.problems = _in_file_order(report.problems)
    if any(p.severity == "error" for p in report.problems):
        raise ImportRejected(f"{name}: import rejected, nothing was written",
                             report.problems, report.similar)
    session.add(ImportedFile(sha256=report.sha256, file_name=name[-500:],
                             format=source.format, games=report.recorded,
                             players=len(report.players_registered),
                             change_id=change.id))
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


def _read_only(name: str, source: GameBatches, today: dt.date | None,
               report: ImportReport) -> int:
    """Read every batch of ``source`` for the problems a reader and ``check_dates`` find (into
    ``report``, with its counts of the file), placing nothing; returns the games read."""
    games = 0
    warned: set[Period] = set()
    for batch in source.batches():
        report.problems.extend(source.new_problems())
        check_dates(name, batch, today or dt.date.today(), report.problems, warned)
        games += len(batch)
    report.problems.extend(source.new_problems())
    _file_counts(name, source, report)
    return 0 if source.failed else games


def _file_counts(name: str, source: GameBatches, report: ImportReport) -> None:
    """The counts of the file read to its end into ``report``; a file that gave no games
    (``source.failed``) keeps only its reader's problems; an empty file, or one without a game,
    is an error; one changed while read is an error."""
    if source.failed:
        report.problems = list(source.problems)
    report.games_in_file = source.games_in_file
    report.players_in_file = source.players_in_file
    report.notes[:0] = source.notes
    if not source.games_in_file and not any(p.severity == "error" for p in source.problems):
        report.problems.append(Problem(name, None, "file", "the file is empty" if source.blank
                                       else f"no games in this {source.format.upper()} file: "
                                       "nothing to import (is it the right file?)"))
    if source.changed:
        report.problems.append(Problem(name, None, "file", "the file changed while it was "
                                       "being imported: nothing was written; import it again "
                                       "once it is complete"))


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


def _record(session: Session, name: str, source: GameBatches, today: dt.date,
            register_players: bool, use_ids: bool, report: ImportReport,
            progress: Progress | None, rerate: bool = False,
            event_pool: RatingPool | None = None, *, late: bool = False,
            new_event: bool = False) -> None:
    """Match every game's players, then place the games that can be placed, so that one run
    reports every problem of the file (the caller rolls everything back if there is any), a
    batch of the file at a time (``GameBatches``). Each game's pool (``game_pools.game_pool``)
    is found first: a player registered from the file is registered in it (``Matcher.find``);
    the games of an event are placed per pool (``import_placing.Placing``)."""
    matcher = Matcher(session, name, register_players, use_ids)
    placing = Placing(session, name, report, rerate,
                      session.scalar(select(func.max(Game.id))) or 0, source.expected_games,
                      late=late, new_event=new_event)
    checks = RatingChecks(session, name, report)
    warned: set[Period] = set()
    done = 0
    for games in source.batches():
        report.problems.extend(source.new_problems())
        undatable = check_dates(name, games, today, report.problems, warned)
        # id(FileGame) -> its pool; absent: refused
        pools: dict[int, GamePool] = game_pools(name, games, event_pool, report.problems)
        usual = event_pool or STANDARD  # a refused game's players: as without a pool
        # the games a side of which the file gives a rating (none in a federation's month):
        # what ``expect`` and ``warn`` read, found in one pass
        rated = [g for g in games if g.white.rating is not None or g.black.rating is not None]
        matcher.expect([(p, pools[id(g)].pool if id(g) in pools else usual)
                        for g in rated for p in (g.white, g.black) if p.rating is not None])
        total = max(done + len(games), source.games_in_file, source.expected_games)
        paired: list[Matched] = []
        quiet, who, ids = matcher.quiet_who, matcher.who, matcher.use_ids
        for g in games:
            # one match per distinct question (``Matcher.who``): a dict look-up after the first,
            # its key ``Matcher.asked``'s written out (200,000 calls fewer in a month's file);
            # the game's start and pool, which only a match reads, found for a match only (an
            # answer in ``quiet_who`` is final: ``who`` asks it first)
            wp, bp = g.white, g.black
            white = quiet.get((wp.name, wp.fide_id if ids else None, wp.birth_year))
            black = quiet.get((bp.name, bp.fide_id if ids else None, bp.birth_year))
            if white is None or black is None:
                start = g.event_start or g.date
                found = pools.get(id(g))
                pool = usual if found is None else found.pool
                white = white or who(wp, start, pool)
                black = black or who(bp, start, pool)
            paired.append((g, white, black))
            done += 1
            if progress is not None and done % 1000 == 0:
                progress(done // 2, total)
        matcher.done.clear()  # keyed by id(FilePlayer): the next batch's objects are others
        report.problems.extend(matcher.problems)
        matcher.problems.clear()
        report.players_registered[:] = matcher.registered
        report.registered_established[:] = matcher.registered_established
        report.registered_unrated[:] = matcher.registered_unrated
        recorded = placing.batch(paired, undatable, pools)
        checks.count(recorded, pools)
        # not the games refused for their date (a start in year 1 has no period before it)
        checks.warn([(g, w, b, pools[id(g)].pool) for g, w, b in paired
                     if (g.white.rating is not None or g.black.rating is not None)
                     and id(g) in pools and id(g) not in undatable] if rated else [])
        if progress is not None:
            progress(done // 2 + report.recorded // 2, total)
    report.problems.extend(source.new_problems())
    report.players_matched += matcher.players_matched
    pools = placing.held_pools
    checks.count(placing.finish(progress), pools)
    checks.finish()
    if source.failed:  # the reader gave up: no game of the file counts (nothing is written)
        report.__dict__.update(ImportReport(name, report.dry_run, format=report.format,
                                            sha256=report.sha256,
                                            allow_similar=report.allow_similar).__dict__)
    _file_counts(name, source, report)
