"""Writing an event of the ledger as a TRF-16 file (``ledger export trf``): read only.

The file holds the event's header (name, city, federation, dates, arbiter, time control, rounds,
round dates in record ``132``) and one ``001`` line per player who has a game in the event:
start ranks by published rating at the event's start (highest first, unrated last, then name),
the rating in force then, and one round cell per round from the recorded games (TRF-16 codes:
``1 = 0``; ``+ -`` forfeits; ``W D L`` games of less than one move).

The ledger records games, not byes: points and ranks count only the recorded games, and the
export says so (:data:`GAMES_ONLY`) in a ``###`` comment line and in its notes; for an event
imported from a TRF file it names that file as the authority for points, ranks and byes.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ledger.db.models import Event, Game, ImportedFile, Player
from ledger.db.order import by_code_point, player_sort_key
from ledger.domain import STANDARD, Period, RatingPool, Result, parse_pool, round_of
from ledger.errors import InvalidInput
from ledger.formats.trf import TrfEvent
from ledger.formats.trf_lines import TrfPlayer, TrfRound
from ledger.formats.trf_writer import write_trf
from ledger.services.close.state import load_histories
from ledger.services.core.session import transaction
from ledger.services.register.events import resolve_event

#: (White's code, Black's code) for a result, played over the board and with less than one move.
_CODES: dict[tuple[Result, bool], tuple[str, str]] = {
    (Result.WHITE_WINS, True): ("1", "0"), (Result.DRAW, True): ("=", "="),
    (Result.BLACK_WINS, True): ("0", "1"), (Result.WHITE_WINS, False): ("W", "L"),
    (Result.DRAW, False): ("D", "D"), (Result.BLACK_WINS, False): ("L", "W"),
}
_FORFEITS = {Result.WHITE_FORFEIT_WIN: ("+", "-"), Result.BLACK_FORFEIT_WIN: ("-", "+"),
             Result.DOUBLE_FORFEIT: ("-", "-")}
#: The highest round number a TRF's round columns can hold.
MAX_TRF_ROUND = 999
#: The note every export carries: what its points and ranks count.
GAMES_ONLY = ("points and ranks count only the games recorded in the ledger (byes and unrecorded "
              "games are not in it), so they can differ from the event's own standings")


@dataclass(frozen=True)
class TrfExport:
    """An exported event: ``text`` the TRF-16 file (LF line ends), ``notes`` what the reader
    of the file must know (also written in it as ``###`` comment lines), one line each;
    ``pool`` the rating pool whose games and ratings it holds (docs/RULES.md §9)."""

    text: str
    notes: tuple[str, ...]
    pool: RatingPool = STANDARD


def export_trf(engine: Engine, event_ref: str, pool: RatingPool | None = None) -> TrfExport:
    """The event ``event_ref`` (``#ID`` or its name: ``events.resolve_event``) as TRF-16 text
    (its valid games: a voided game is not exported),
    with the notes written into it (:data:`GAMES_ONLY`; for an event imported from a TRF file,
    that the file is the authority).

    Raises ``NotFound``/``Ambiguous`` for the event, ``InvalidInput`` when a game's round is not
    a round number (``3`` or ``3.1``), a player has two games in one round, or a value does not
    fit its TRF columns (a name over 33 characters).

    ``pool``: the games of that pool and the players' ratings in it (docs/RULES.md §9); None:
    the event's own pool (``events.pool``, standard unless imported with ``--pool``).
    """
    with transaction(engine, write=False) as session:
        event = resolve_event(session, event_ref)
        wanted = pool or parse_pool(event.pool)
        games = list(session.scalars(select(Game).where(Game.event_id == event.id,
                                                        Game.status == "valid",
                                                        Game.pool == wanted)
                                     .order_by(by_code_point(Game.round), Game.id)))
        ids = sorted({g.white_id for g in games} | {g.black_id for g in games})
        players = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(ids)))}
        at = Period.of(event.start_date)
        histories = load_histories(session, ids, through=at.previous(), pool=wanted)
        ratings = {pid: histories[pid].rating(at) for pid in ids}
        cells: dict[int, dict[int, TrfRound]] = defaultdict(dict)
        points: Counter[int] = Counter()
        round_dates: dict[int, dt.date] = {}
        for g in games:
            number = _round(g.round, g.id)
            result = Result(g.result)
            white_code, black_code = _FORFEITS.get(result) or _CODES[(result, g.played)]
            for pid, opp, colour, code in ((g.white_id, g.black_id, "w", white_code),
                                           (g.black_id, g.white_id, "b", black_code)):
                if number in cells[pid]:
                    raise InvalidInput(f"event: {players[pid].name} has two games in round "
                                       f"{number}; a TRF file holds one per round")
                cells[pid][number] = TrfRound(opp, colour, code)
            points[g.white_id] += int(2 * result.white_score)  # half-points
            points[g.black_id] += int(2 * result.black_score)
            round_dates.setdefault(number, g.date)
        order = sorted(ids, key=lambda pid: (-(ratings[pid] or -1),
                                                *player_sort_key(players[pid].name, pid)))
        rank = {pid: n for n, pid in enumerate(order, start=1)}
        standing = sorted(ids, key=lambda pid: (-points[pid], rank[pid]))
        place = {pid: n for n, pid in enumerate(standing, start=1)}
        rounds = max((n for c in cells.values() for n in c), default=0)
        trf_players = []
        for pid in order:
            p = players[pid]
            row = tuple(_renumber(cells[pid].get(n), rank) for n in range(1, rounds + 1))
            trf_players.append(TrfPlayer(
                rank=rank[pid], name=p.name, sex=p.sex, title=p.title, rating=ratings[pid],
                federation=p.federation, fide_id=p.fide_id,
                birth=str(p.birth_year) if p.birth_year else None,
                points=Decimal(points[pid]) / 2, place=place[pid], rounds=row))
        trf_event = TrfEvent(
            name=event.name, players=tuple(trf_players), city=event.city or event.site,
            federation=event.federation, start=event.start_date, end=event.end_date,
            arbiter=event.arbiter, time_control=event.time_control,
            rounds=event.rounds or rounds or None,
            round_dates=tuple(round_dates.get(n) for n in range(1, rounds + 1)))
        notes = (GAMES_ONLY, *_authority(session, event))
        try:
            return TrfExport(write_trf(trf_event, notes), notes, wanted)
        except ValueError as exc:
            raise InvalidInput(f"event: {exc}") from None


def _authority(session: Session, event: Event) -> tuple[str, ...]:
    """A note naming the TRF file the event was imported from, when it was (none else)."""
    if not event.source:
        return ()
    imported = session.scalar(select(ImportedFile.id).where(
        ImportedFile.file_name == event.source, ImportedFile.format == "trf").limit(1))
    if imported is None:
        return ()
    name = " ".join(event.source.split())  # one line, whatever the file name holds
    return (f"the event was imported from the TRF file {name}: that file is the authority "
            "for its points, ranks and byes",)


def _round(text: str | None, game_id: int) -> int:
    """The round number of a game's round label, read as everywhere (``domain.round_of``:
    ``1.1`` is round 1); a label that is not a round from 1 to ``MAX_TRF_ROUND`` is refused."""
    number = round_of(text)
    if not isinstance(number, int) or not 1 <= number <= MAX_TRF_ROUND:
        raise InvalidInput(f"event: game {game_id} has round {text!r}; TRF needs round numbers")
    return number


def _renumber(cell: TrfRound | None, rank: dict[int, int]) -> TrfRound:
    """A cell with the opponent's ledger id replaced by their start rank (blank: no game)."""
    if cell is None:
        return TrfRound(None, "", "")
    return TrfRound(rank[cell.opponent] if cell.opponent else None, cell.colour, cell.result)

