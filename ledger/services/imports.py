"""Importing a file of games: all or nothing, every problem reported with file, line and field.

The format module turns text into records and problems; this service matches players, registers
unknown ones on request, places games in events and periods, skips games already recorded, and
writes everything in one transaction (or nothing, on any error or with ``dry_run``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from ledger.db.models import Game, Player
from ledger.domain import Period
from ledger.errors import ImportRejected, LedgerError, Problem
from ledger.formats.pgn import PgnGame, read_pgn_file
from ledger.services.games import (
    GameKey,
    check_date,
    existing_games,
    find_event,
    game_key,
    place_in_event,
)
from ledger.services.matching import PlayerIndex
from ledger.services.players import NewPlayer, register
from ledger.services.session import transaction
from ledger.services.state import last_closed_period, load_histories


@dataclass
class ImportReport:
    """What an import did (or would do): counts, and every warning with file and line."""

    file: str
    dry_run: bool
    games_in_file: int = 0
    recorded: int = 0
    already_recorded: int = 0
    players_matched: int = 0
    players_registered: list[str] = field(default_factory=list)
    not_rated: Counter[str] = field(default_factory=Counter)
    periods: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class _Matcher:
    """Finds (or registers) the ledger player for a name and FIDE id seen in a file."""

    session: Session
    file: str
    register_unknown: bool
    report: ImportReport
    index: PlayerIndex = field(init=False)
    matched: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.index = PlayerIndex.load(self.session)

    def find(self, g: PgnGame, side: str) -> Player | None:
        """The ledger player for ``side`` ("white" or "black") of ``g``: by FIDE id, then name
        (``PlayerIndex.match``); registered from the tags when allowed. None (with an error
        recorded) otherwise."""
        name: str = getattr(g, side)
        fide_id: int | None = getattr(g, f"{side}_fide_id")
        tag = side.capitalize()
        found = self.index.match(name, fide_id)
        if found.error is not None:
            self._error(g, f"{tag}FideId" if "FIDE id" in found.error and fide_id else tag,
                        found.error)
            return None
        if found.player is not None:
            return self._seen(found.player)
        if not self.register_unknown:
            self._error(g, tag, f"unknown player {name!r}"
                        + (f" (FIDE id {fide_id})" if fide_id else "")
                        + ": register them with `ledger player add` or import with --register-players")
            return None
        elo: int | None = getattr(g, f"{side}_elo")
        start = g.event_date or g.date
        try:
            player = register(self.session, NewPlayer(
                name=name, fide_id=fide_id, title=getattr(g, f"{side}_title"), rating=elo,
                prior_games=None), source=f"import {self.file}", effective_from=Period.of(start))
        except LedgerError as exc:
            field = {"rating": f"{tag}Elo", "fide-id": f"{tag}FideId",
                     "title": f"{tag}Title"}.get(str(exc).split(":")[0], tag)
            self._error(g, field, str(exc))
            return None
        self.report.players_registered.append(name)
        self.index.add(player)
        self.matched.add(player.id)
        return player

    def _seen(self, player: Player) -> Player:
        if player.id not in self.matched:
            self.matched.add(player.id)
            self.report.players_matched += 1
        return player

    def _error(self, g: PgnGame, tag: str, message: str) -> None:
        self.report.problems.append(Problem(self.file, g.line_of(tag), tag, message))


def import_pgn(engine: Engine, path: str, *, register_players: bool = False,
               dry_run: bool = False, today: dt.date | None = None) -> ImportReport:
    """``ledger import FILE.pgn``: record the file's games in one transaction.

    Raises ``ImportRejected`` (exit 3, nothing written) listing every error with file, line and
    tag: unreadable games, unknown players (without ``register_players``), dates in the future
    (after ``today``) or before 2022, games in a closed period, a game already recorded with
    another result. Games already recorded are skipped.
    """
    readout = read_pgn_file(path)
    name = str(path)
    report = ImportReport(name, dry_run, games_in_file=len(readout.games) + len(readout.errors))
    report.problems.extend(readout.problems)
    today = today or dt.date.today()
    undatable: set[int] = set()
    for g in readout.games:
        try:
            check_date(g.date, today, field="Date")
        except LedgerError as exc:
            undatable.add(g.line)
            report.problems.append(Problem(name, g.line_of("Date"), "Date",
                                           str(exc).removeprefix("Date: ")))
    with transaction(engine, dry_run=dry_run) as session:
        _record(session, name, readout.games, undatable, register_players, report)
        report.problems.sort(key=lambda p: (p.line or 0, p.severity != "error"))
        if any(p.severity == "error" for p in report.problems):
            raise ImportRejected(f"{name}: import rejected, nothing was written", report.problems)
    return report


def _record(session: Session, name: str, games: list[PgnGame], undatable: set[int],
            register_players: bool, report: ImportReport) -> None:
    """Match every game's players, then place the games that can be placed, so that one run
    reports every problem of the file (the caller rolls everything back if there is any)."""
    matcher = _Matcher(session, name, register_players, report)
    paired = [(g, matcher.find(g, "white"), matcher.find(g, "black")) for g in games]
    by_event: dict[str | None, list[tuple[PgnGame, Player, Player]]] = defaultdict(list)
    for g, w, b in paired:
        if w is None or b is None or g.line in undatable:
            continue
        if w.id == b.id:
            report.problems.append(Problem(name, g.line_of("Black"), "Black", f"White and Black are the same "
                                           f"ledger player, {b.name} (#{b.id})"))
            continue
        by_event[g.event].append((g, w, b))
    last_closed = last_closed_period(session)
    for event_name, event_games in by_event.items():
        dates = [g.date for g, _, _ in event_games]
        starts = [g.event_date for g, _, _ in event_games if g.event_date is not None]
        start, end = (min(starts) if starts else min(dates)), max(dates)
        event = None
        if event_name is not None:
            event = find_event(session, event_name, start, end, exact_start=bool(starts))
        known = existing_games(session, event.id if event else None, (min(dates), end))
        fresh = _skip_recorded(name, event.id if event else None, known, event_games, report)
        if not fresh:
            continue
        if event_name is None:
            late = [x for x in fresh if _closed(Period.of(x[0].date), last_closed)]
            if late:
                _closed_errors(name, late, last_closed, report)
                continue
            _add_games(session, name, None, None, fresh, report)
            continue
        if _closed(Period.of(max(end, event.end_date if event else end)), last_closed):
            _closed_errors(name, fresh, last_closed, report)
            continue
        event, period = place_in_event(session, event_name, start, end,
                                       site=event_games[0][0].site, source=name,
                                       exact_start=bool(starts), notes=report.notes)
        _add_games(session, name, event.id, period, fresh, report)
    _cross_check_ratings(session, name, [x for x in paired if x[0].line not in undatable], report)


def _closed(period: Period, last_closed: Period | None) -> bool:
    return last_closed is not None and period <= last_closed


def _skip_recorded(name: str, event_id: int | None, known: dict[GameKey, Game],
                   games: list[tuple[PgnGame, Player, Player]],
                   report: ImportReport) -> list[tuple[PgnGame, Player, Player]]:
    """The games not yet in the ledger; a recorded one with another result is an error."""
    fresh, seen = [], dict(known)
    for g, w, b in games:
        old = seen.get(game_key(event_id, g.round, w.id, b.id, g.date))
        if old is None:
            fresh.append((g, w, b))
            seen[game_key(event_id, g.round, w.id, b.id, g.date)] = Game(
                result=g.result.value, played=g.played, id=None)
        elif old.result != g.result.value or old.played != g.played:
            where = f"game {old.id}" if old.id is not None else "earlier in the file"
            report.problems.append(Problem(
                name, g.line_of("Result"), "Result", f"{w.name} v {b.name} round {g.round or '-'} is "
                f"recorded as {old.result} ({where}); the file says {g.result.value}"))
        else:
            report.already_recorded += 1
    return fresh


def _closed_errors(name: str, games: list[tuple[PgnGame, Player, Player]],
                   last_closed: Period | None, report: ImportReport) -> None:
    for g, _, _ in games:
        report.problems.append(Problem(name, g.line_of("Date"), "Date", f"{g.date} is in a closed period "
                               f"(periods up to {last_closed} are closed)"))


def _add_games(session: Session, name: str, event_id: int | None, event_period: Period | None,
               games: list[tuple[PgnGame, Player, Player]], report: ImportReport) -> None:
    """Insert new games: in the event's period, or (no event) each in its own date's period."""
    rows = []
    for g, w, b in games:
        period = event_period or Period.of(g.date)
        rows.append(Game(event_id=event_id, round=g.round, date=g.date, period=str(period),
                         white_id=w.id, black_id=b.id, result=g.result.value, played=g.played,
                         source=f"{name}:{g.line}"))
        report.recorded += 1
        report.periods[str(period)] += 1
        if not g.result.is_played:
            report.not_rated["forfeit"] += 1
        elif not g.played:
            report.not_rated["less than one move"] += 1
    session.add_all(rows)
    session.flush()


def _cross_check_ratings(session: Session, name: str,
                         paired: list[tuple[PgnGame, Player | None, Player | None]],
                         report: ImportReport) -> None:
    """Warn where an Elo tag differs from the ledger's published rating (the ledger's is used)."""
    registered = set(report.players_registered)
    ids = [p.id for _, w, b in paired for p in (w, b) if p is not None]
    histories = load_histories(session, ids, through=Period(9999, 12))
    warned: set[tuple[int, int]] = set()
    for g, w, b in paired:
        for player, elo, tag in ((w, g.white_elo, "WhiteElo"), (b, g.black_elo, "BlackElo")):
            if player is None or elo is None or player.name in registered:
                continue
            at = Period.of(g.event_date or g.date)
            ledger_rating = histories[player.id].rating(at)
            if ledger_rating != elo and (player.id, elo) not in warned:
                warned.add((player.id, elo))
                report.problems.append(Problem(
                    name, g.line_of(tag), tag, f"{player.name}: the file says {elo}, the ledger's "
                    f"published rating is {ledger_rating or 'unrated'}; the ledger's is used",
                    severity="warning"))

