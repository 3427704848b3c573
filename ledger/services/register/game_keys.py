"""One game recorded once: the checks ``ledger game add``, ``game correct``, ``player merge`` and
every import make before a game is written.

A game's natural key (``game_key``: event, round as ``domain.round_of`` reads it, players, and
the date for a game with no event or no round) and the games recorded under an event
(``existing_games``); who plays in each round of an event and which pairs meet on which day
(``RoundSeats``); and the refusals these give, naming the game already recorded
(``check_fits``, ``twice_in_round``, ``twice_on_a_day``). Likely duplicates (the same players and
result under another key) are ``register.lookalikes``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game, Player
from ledger.domain import RatingPool, RoundKey, round_of
from ledger.errors import InvalidInput
from ledger.services.register.lookalikes import round_text

GameKey = tuple[int | None, RoundKey, int, int, dt.date | None]


def game_key(event_id: int | None, round_: str | None, white_id: int, black_id: int,
             date: dt.date) -> GameKey:
    """A game's natural key: event, round and players, and the date for a game with no event or
    no round. The round is compared as ``domain.round_of`` reads its label (``1``, ``01`` and
    ``1.1`` are round 1), so the same game written by two sources of one event is one game."""
    number = round_of(round_)
    dated = event_id is None or number is None
    return (event_id, number, white_id, black_id, date if dated else None)


def existing_games(session: Session, event_id: int | None,
                   dates: tuple[dt.date, dt.date], *, valid_only: bool = False,
                   before_id: int | None = None) -> dict[GameKey, Game]:
    """The games already recorded for an event (or, with no event, dated within ``dates``);
    ``valid_only``: not the voided ones (an import keeps them, so that a file never brings a
    voided game back; ``game add`` may record a voided game again); ``before_id``: only games
    of that id or lower (those recorded before an import that writes in batches began)."""
    query = select(Game)
    if valid_only:
        query = query.where(Game.status == "valid")
    if before_id is not None:
        query = query.where(Game.id <= before_id)
    if event_id is not None:
        query = query.where(Game.event_id == event_id)
    else:
        query = query.where(Game.event_id.is_(None), Game.date.between(*dates))
    return {game_key(g.event_id, g.round, g.white_id, g.black_id, g.date): g
            for g in session.scalars(query)}


class PlayerRef(Protocol):
    """A ledger player as the game checks name them: ``id`` and ``name`` (a ``Player``, or
    the plain ``import_report.Who`` an import reads them into once)."""

    @property
    def id(self) -> int:
        """The player's ledger id."""

    @property
    def name(self) -> str:
        """The player's name as the ledger has it."""


#: Where a player already plays in a round of an event: a recorded ``Game``, or (during an
#: import) the line of the file that seats them there.
Seat = Game | int


class RoundSeats:
    """Who plays in each round of one event, and which pairs meet on which day, for the rules
    both ``ledger game add`` and every import apply (rounds compared as ``domain.round_of``
    reads them: ``1.1`` is round 1):

    - one game per player per round (``clash``): the same game entered twice, colours swapped,
      would be rated twice;
    - the same pair on one date is one game unless their rounds differ (``same_day``): a game
      without a round when the pair already has a game that day, or one with a round when they
      have a game without one that day, is the same game entered twice.

    Built from the event's recorded games (``existing_games(...).values()``; games without an
    event are one such group); an import takes each accepted game of its file with ``take`` so
    that later lines are checked against it too.
    """

    def __init__(self, recorded: Iterable[Game]) -> None:
        self._seats: dict[tuple[RoundKey, int], Seat] = {}
        self._days: dict[tuple[int, int, dt.date], list[tuple[str | None, Seat]]] = {}
        # the same pair-days' games without a round, in the same order (``same_day`` of a game
        # with a round looks there: one lookup, not a scan of the day's games)
        self._unnumbered: dict[tuple[int, int, dt.date], list[tuple[str | None, Seat]]] = {}
        for game in recorded:
            self.take(game.round, (game.white_id, game.black_id), game.date, game)

    def take(self, round_: str | None, pair: tuple[int, int], date: dt.date, seat: Seat) -> None:
        """Seat the two players (ledger ids) in ``round_`` (str or None) on ``date`` at ``seat``;
        the first seat of a player in a round is kept."""
        self._seat(round_, round_of(round_), pair, _pair_day(pair, date), seat)

    def _seat(self, round_: str | None, number: RoundKey | None, pair: tuple[int, int],
              day: tuple[int, int, dt.date], seat: Seat) -> None:
        """``take`` with the round read (``number``) and the pair-day made."""
        if number is not None:
            for player_id in pair:
                self._seats.setdefault((number, player_id), seat)
        self._days.setdefault(day, []).append((round_, seat))
        if number is None:
            self._unnumbered.setdefault(day, []).append((round_, seat))

    def forget(self, lines: set[int]) -> None:
        """Undo ``take`` of the file's ``lines`` (seats that are ints: once their games are
        written and can be read back, ``import_written``); recorded games stay."""
        self._seats = {key: seat for key, seat in self._seats.items()
                       if not isinstance(seat, int) or seat not in lines}
        self._days = _without(self._days, lines)
        self._unnumbered = _without(self._unnumbered, lines)

    def in_order(self, pair: tuple[int, int], date: dt.date) -> None:
        """Order the pair's games on ``date``: recorded games first, then the file's by line
        (after games read back from the ledger were taken out of order)."""
        day = _pair_day(pair, date)
        for days in (self._days, self._unnumbered):  # one stable order: the same in both
            if day in days:
                days[day].sort(key=lambda x: (isinstance(x[1], int),
                                              x[1] if isinstance(x[1], int) else 0))

    def clash(self, round_: str | None,
              players: Sequence[PlayerRef]) -> tuple[PlayerRef, Seat] | None:
        """The first of ``players`` who already plays in ``round_``, with where; None when
        nobody does (or ``round_`` names no round)."""
        number = round_of(round_)
        if number is None:
            return None
        for player in players:
            seat = self._seats.get((number, player.id))
            if seat is not None:
                return player, seat
        return None

    def same_day(self, round_: str | None, pair: tuple[int, int],
                 date: dt.date) -> tuple[str | None, Seat] | None:
        """The first game the pair (ledger ids, either colours) already has on ``date`` that this
        one would be the same game as (one of the two has no round), as (its round label, where);
        None when there is none."""
        day = _pair_day(pair, date)
        games = self._days.get(day) if round_of(round_) is None else self._unnumbered.get(day)
        return games[0] if games else None

    def holds_any_day(self, days: Iterable[tuple[int, int, dt.date]]) -> bool:
        """Whether any of ``days`` (lower ledger id, higher, date) has a game seated: when none
        has, ``admit`` of a game without a round on one of them finds nothing and seats it."""
        return bool(self._days) and not self._days.keys().isdisjoint(days)

    def admit(self, round_: str | None, pair: tuple[int, int], date: dt.date,
              seat: Seat) -> tuple[str | None, Seat] | None:
        """``same_day``, and when it finds no game, ``take`` of the same game at ``seat``
        (``round_`` read and the pair-day made once: an import asks it of every game)."""
        number = round_of(round_)
        day = (pair[0], pair[1], date) if pair[0] < pair[1] else (pair[1], pair[0], date)
        if number is None:
            games = self._days.get(day)
            if games:
                return games[0]
            # ``_seat`` written out (a call a game fewer): no round, so no seat in one
            taken = (round_, seat)
            if games is None:
                self._days[day] = [taken]
            else:
                games.append(taken)
            self._unnumbered.setdefault(day, []).append(taken)
            return None
        games = self._unnumbered.get(day)
        if games:
            return games[0]
        self._seat(round_, number, pair, day, seat)
        return None


def _without(days: dict[tuple[int, int, dt.date], list[tuple[str | None, Seat]]], lines: set[int],
             ) -> dict[tuple[int, int, dt.date], list[tuple[str | None, Seat]]]:
    """``days`` without the seats that are one of the file's ``lines`` (days left empty go; a
    day of one game, the usual one, keeps its list)."""
    kept = {}
    for day, games in days.items():
        if len(games) == 1:
            seat = games[0][1]
            if not isinstance(seat, int) or seat not in lines:
                kept[day] = games
            continue
        left = [x for x in games if not isinstance(x[1], int) or x[1] not in lines]
        if left:
            kept[day] = left
    return kept


def _pair_day(pair: tuple[int, int], date: dt.date) -> tuple[int, int, dt.date]:
    return (min(pair), max(pair), date)


def describe_game(session: Session, game: Game) -> str:
    """A recorded game as messages name it: ``game 11 (Doyle, Liam v Walsh, Brendan, 0-1)``."""
    white, black = session.get(Player, game.white_id), session.get(Player, game.black_id)
    names = f"{white.name if white else game.white_id} v {black.name if black else game.black_id}"
    return f"game {game.id} ({names}, {game.result})"


def recorded_game(session: Session, game: Game, pool: RatingPool | None = None) -> str:
    """A recorded game as a refusal of the same game names it: ``game 30 (2026-01-10, event
    'Club', round 1, 1-0)``, and ``a rapid game`` when its pool is not ``pool``."""
    event = session.get(Event, game.event_id) if game.event_id is not None else None
    where = f"event {event.name!r}" if event is not None else "no event"
    other = f", a {game.pool} game" if pool is not None and game.pool != pool else ""
    return f"game {game.id} ({game.date}, {where}, {round_text(game.round)}, {game.result}{other})"


def _where(session: Session, seat: Seat) -> str:
    return (f"line {seat}" if isinstance(seat, int)
            else f"{describe_game(session, seat)} in the ledger")


def twice_in_round(session: Session, player: PlayerRef, round_: str, seat: Seat) -> str:
    """The message refusing a second game of ``player`` in ``round_``, naming the first one."""
    return f"{player.name} plays twice in round {round_}: also {_where(session, seat)}"


def twice_on_a_day(session: Session, white: PlayerRef, black: PlayerRef, round_: str | None,
                   date: dt.date, first: tuple[str | None, Seat], in_event: bool) -> str:
    """The message refusing a second game of one pair on one date in one event (``in_event``;
    else both without an event) (``RoundSeats.same_day``), naming the first one (``first``: its
    round label and where)."""
    label, seat = first
    where = "in this event" if in_event else "without an event"
    return (f"{white.name} v {black.name} on {date} ({round_text(round_)}): the pair already "
            f"has a game that day {where}, {_where(session, seat)} ({round_text(label)}); "
            "the same pair on one day in one event is one game unless their rounds differ: "
            "give each game its round")


#: Said where ``ledger game add`` refuses a game because of one already recorded.
NO_CORRECTIONS = ("to change or remove a recorded game: ledger game correct ID or ledger game "
                  "void ID")


def check_fits(session: Session, event_id: int | None, round_: str | None, white: Player,
               black: Player, day: dt.date, *, skip: int | None = None,
               then: str = "", pool: RatingPool | None = None) -> None:
    """Refuse (``InvalidInput`` naming ``game`` or ``round``) a game of ``white`` v ``black`` on
    ``day`` in ``round_`` of event ``event_id`` (None: without an event) that the valid games
    recorded there (but game ``skip``, the one being corrected) make wrong: the same game
    (``game_key``), a player twice in the round, or the pair twice on that day where one of the
    games has no round (``RoundSeats``). ``then`` is added to each message. ``pool``: only
    games of that pool count (a blitz game and a standard game of one pair on one day, without
    an event, are two games; docs/RULES.md §9); None: every pool."""
    valid = {key: g for key, g in existing_games(session, event_id, (day, day),
                                                 valid_only=True).items() if g.id != skip}
    known = {key: g for key, g in valid.items() if pool is None or g.pool == pool}
    # the same game in another pool too where the database's key (event, round, players), which
    # has no pool, holds: in an event; without one, a blitz and a standard game are two games
    same = (valid if event_id is not None else known).get(
        game_key(event_id, round_, white.id, black.id, day))
    if same is not None:
        raise InvalidInput(f"game: {white.name} v {black.name} (round {round_ or '-'}) is "
                           f"already recorded as {recorded_game(session, same, pool)}{then}")
    seats = RoundSeats(known.values())
    clash = seats.clash(round_, (white, black)) if event_id is not None else None
    if clash is not None:
        raise InvalidInput(f"round: {twice_in_round(session, clash[0], str(round_), clash[1])}"
                           f"{then}")
    first = seats.same_day(round_, (white.id, black.id), day)
    if first is not None:
        twice = twice_on_a_day(session, white, black, round_, day, first, event_id is not None)
        raise InvalidInput(f"round: {twice}{then}")
