"""The checks an import applies to the games of one event (or to the games without one),
in this order, each keeping the games that pass: ``skip_recorded`` (``FileKeys``: games
already recorded or repeated in the file), ``one_game_a_round`` (``game_keys.RoundSeats``) and
``likely_duplicates`` (``lookalikes.Lookalikes``). Every problem names the file's line and
field; ``services.imports.games`` drives them, ``services.imports.writing`` writes what is kept."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import NamedTuple

from sqlalchemy.orm import Session

from ledger.db.models import Game
from ledger.domain import STANDARD, RatingPool
from ledger.errors import Problem, SimilarGame
from ledger.services.imports.report import ImportReport, Paired
from ledger.services.register.game_keys import (
    NO_CORRECTIONS,
    GameKey,
    RoundSeats,
    game_key,
    twice_in_round,
    twice_on_a_day,
)
from ledger.services.register.lookalikes import (
    ALLOWED,
    Lookalike,
    Lookalikes,
    looks_like,
    round_text,
    why_similar,
)


class _Seen(NamedTuple):
    """A game ``_skip_recorded`` has seen under its natural key: its result, whether it was
    played, and where: a recorded game (``game_id``) or a line of this file (``line``), with its
    date. A named tuple: one is made per game of the file."""

    result: str
    played: bool
    game_id: int | None
    line: int | None
    date: dt.date

    @property
    def where(self) -> str:
        """``game 8`` (recorded) or ``line 12`` (of this file), as messages name it."""
        return f"game {self.game_id}" if self.game_id is not None else f"line {self.line}"


def skip_recorded(name: str, event_id: int | None, known: dict[GameKey, Game],
                  games: list[Paired], report: ImportReport) -> list[Paired]:
    """The games not yet in the ledger (``known``: the recorded games of the event, or of the
    dates, by natural key), the first of each natural key in the file: ``FileKeys.fresh``."""
    keys = FileKeys()
    keys.know(known)
    return keys.fresh(name, event_id, games, report)


class FileKeys:
    """The natural keys (``game_key``) an import has seen for one event (or for the games
    without one): the recorded games' (``know``, as they are loaded) and the file's."""

    def __init__(self) -> None:
        self.seen: dict[GameKey, _Seen] = {}
        self.void: set[int] = set()

    def know(self, known: dict[GameKey, Game]) -> None:
        """Add recorded games (natural key -> ``Game``) to those the file's are compared with."""
        for key, g in known.items():
            self.seen[key] = _Seen(g.result, g.played, g.id, None, g.date)
            if g.status == "void":
                self.void.add(g.id)

    def recall(self, event_id: int | None, round_: str | None, white_id: int, black_id: int,
               date: dt.date, result: str, played: bool, line: int) -> GameKey | None:
        """Add a game of the file written in an earlier batch and read back
        (``import_written.recall``) as the line it was; returns its key, or None when the key
        is known already (nothing added)."""
        key = game_key(event_id, round_, white_id, black_id, date)
        if key in self.seen:
            return None
        self.seen[key] = _Seen(result, played, None, line, date)
        return key

    def forget(self, lines: set[int]) -> None:
        """Drop the file's ``lines`` (once their games are written and can be read back); the
        recorded games and the file's other lines stay."""
        self.seen = {key: old for key, old in self.seen.items()
                     if old.game_id is not None or old.line not in lines}

    def holds_any(self, keys: Iterable[GameKey]) -> bool:
        """Whether any of ``keys`` is seen (a recorded game's or a line's not forgotten): when
        none is, ``fresh`` of games with these keys, each once, keeps them all."""
        return bool(self.seen) and not self.seen.keys().isdisjoint(keys)

    def fresh(self, name: str, event_id: int | None, games: list[Paired],
              report: ImportReport) -> list[Paired]:
        """The games not yet in the ledger, the first of each natural key (``game_key``) in the
        file. A game already recorded is counted in ``report.already_recorded`` (a warning
        naming both dates when its date differs from the recorded one's); a game the file repeats
        (an earlier line has the same key, result and date) is counted in
        ``report.repeated_in_file``, with a warning naming both lines. The same game with
        another result, or twice in the file with two dates, is an error that shows both. A
        voided game stays void (a note says so)."""
        return _fresh(name, event_id, self.seen, self.void, games, report)


def _fresh(name: str, event_id: int | None, seen: dict[GameKey, _Seen], void: set[int],
           games: list[Paired], report: ImportReport) -> list[Paired]:
    fresh = []
    for item in games:  # each game kept as the tuple it came in (not a new one a game)
        g, w, b = item
        key = game_key(event_id, g.round, w.id, b.id, g.date)
        old = seen.get(key)
        if old is None:
            fresh.append(item)
            # ``_value_``: the member's value as ``.value`` gives it, without its Python-level
            # descriptor (a call a game here and in ``writing.add_games``)
            # (``tuple.__new__``: the same named tuple without its Python-level ``__new__``)
            seen[key] = tuple.__new__(_Seen, (g.result._value_, g.played, None, g.line, g.date))
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


def one_game_a_round(session: Session, name: str, seats: RoundSeats,
                     games: list[Paired], report: ImportReport,
                     in_event: bool) -> list[Paired]:
    """The games of one event (``in_event``; else the games without an event) that break
    neither rule of ``RoundSeats`` against the ledger and the earlier lines of the file
    (``seats``: built from the valid recorded games, ``RoundSeats``; this takes each game
    kept): a player in two games of one round (events only), and one pair twice on one day
    when one of the games has no round. Each game that breaks one is an error naming the
    first game."""
    kept = []
    for item in games:
        g, w, b = item
        clash = seats.clash(g.round, (w, b)) if in_event else None
        if clash is not None:
            player, seat = clash
            line, where = (g.white if player is w else g.black).where("name")
            report.problems.append(Problem(name, line, where, twice_in_round(
                session, player, str(g.round), seat)))
            continue
        first = seats.admit(g.round, (w.id, b.id), g.date, g.line)
        if first is not None:
            line, where = g.where("round")
            report.problems.append(Problem(name, line, where, twice_on_a_day(
                session, w, b, g.round, g.date, first, in_event)))
            continue
        kept.append(item)
    return kept


def likely_duplicates(name: str, event_id: int | None, dates: tuple[dt.date, dt.date] | None,
                      games: list[Paired], lookalikes: Lookalikes,
                      report: ImportReport, pool: RatingPool = STANDARD, *,
                      take: bool = True) -> list[Paired]:
    """The games to record of one event (``event_id``, its ``dates`` in the file; None: the
    games without an event), all of ``pool`` (a game of another pool is never a likely
    duplicate: docs/RULES.md §9): each game that resembles a recorded one or one of the file's
    games already taken (``Lookalikes``) goes into ``report.similar`` with that game, as an
    error that keeps it out, or with ``report.allow_similar`` a warning, and it is recorded.
    Each game kept is taken into ``lookalikes`` (unless not ``take``: the caller takes them
    later, ``Lookalikes.take``), so that the file's later games are compared with it too."""
    kept = []
    any_of = lookalikes.any_of
    for item in games:
        g, w, b = item
        if not take and not any_of(w.id, b.id, g.result, pool):
            kept.append(item)  # nothing it could resemble, nothing to take
            continue
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
        if take:
            lookalikes.take(w.id, b.id, g.result, seen_as)
        kept.append(item)
    return kept


def _shown(result: str, played: bool) -> str:
    return result if played else f"{result} (less than one move)"
