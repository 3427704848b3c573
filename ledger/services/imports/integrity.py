"""The integrity checks of a submission (issue 23; docs/RULES.md "Integrity checks (ledger
serve)"): what ``rules.integrity`` reads, gathered from the ledger for a file's games as the
readers give them (``formats.records.FileGame``, e.g. ``game_files.read_games_file``'s
readout), before anything is written. Each check is a flag with its reason, never a refusal.

Players are matched as an import matches them (``register.matching.PlayerIndex.match``: FIDE
id, then name and birth year), read only: a player the ledger does not know is new (the import
would register them, with the file's rating); one matching several players is left out of the
checks that need a player. Ratings are the published ratings in force at each event's start in
the game's pool (``close.rated_games.ratings_in_pool``, as a close and ``ledger performance``
use them); a new player's is the file's. Queries: the players (one), the games of the last 12
months of the events' players (one per 2,000 players), and the rating histories (six per pool).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from sqlalchemy import Engine, or_, select
from sqlalchemy.orm import Session

from ledger.db.models import Game
from ledger.domain import STANDARD, Period, RatingPool, Result
from ledger.errors import InvalidInput, Problem
from ledger.formats.records import FileGame, FilePlayer
from ledger.names import name_key
from ledger.rules.integrity import (
    THRESHOLDS,
    DayGame,
    Flag,
    Thresholds,
    closed_pool,
    game_minutes,
    late_submission,
    long_day,
    new_player_details,
    performance_flag,
    unrated_share,
    year_before,
)
from ledger.rules.pools import (
    parse_pgn_time_control,
    parse_time_control,
    parse_trf_time_control,
)
from ledger.services.close.rated_games import ratings_in_pool
from ledger.services.close.state import load_histories
from ledger.services.core.session import transaction
from ledger.services.imports.game_files import read_games_file
from ledger.services.imports.game_pools import game_pool
from ledger.services.register.matching import PlayerIndex, PlayerRow

#: How the games without an event are named in a flag.
NO_EVENT = "the games without an event"
#: Players per query of their games (two IN lists of this many ids).
_CHUNK = 2000

#: Who a file's player is, for the checks: ``("id", ledger id)``, or for a player the ledger
#: does not know ``("new", FIDE id or name key)``.
Key = tuple[str, Hashable]


@dataclass
class _Who:
    """A file's player as the checks see them: ``key``, ``name`` (the ledger's, else the
    file's), ``player_id`` (None: new), ``sex``, and the file's values of a new player."""

    key: Key
    name: str
    player_id: int | None
    sex: str | None
    birth_year: int | None
    file_rating: dict[RatingPool, int] = field(default_factory=dict)


#: One game from one player's side: the opponent, the points (exact) and the half points (0,
#: 1 or 2, for quick sums).
_Side = tuple[_Who, Fraction, int]


def check_integrity(engine: Engine, games: Sequence[FileGame], *, submitted: dt.date,
                    event_end: dt.date | None = None, pool: RatingPool | None = None,
                    use_ids: bool = True, limits: Thresholds = THRESHOLDS) -> list[Flag]:
    """``integrity_flags`` in a read-only transaction of its own (``core.session.transaction``
    with ``write=False``: one snapshot, nothing written, no write lock taken)."""
    with transaction(engine, write=False) as session:
        return integrity_flags(session, games, submitted=submitted, event_end=event_end,
                               pool=pool, use_ids=use_ids, limits=limits)


def check_integrity_file(engine: Engine, path: str, fmt: str | None = None, *,
                         submitted: dt.date, end_date: dt.date | None = None,
                         pool: RatingPool | None = None, ids: str = "fide",
                         no_moves: str | None = None,
                         limits: Thresholds = THRESHOLDS) -> list[Flag]:
    """``check_integrity`` of a submitted file at ``path``, read as ``ledger import`` reads it
    (``game_files.read_games_file``: ``fmt`` None told by its first bytes; ``end_date`` a TRF's
    end when it gives none; ``ids``, ``no_moves`` as there); the games its reader gives (those
    without errors). Raises what ``read_games_file`` raises (``UsageError``, ``ImportRejected``
    for a file that is not one)."""
    _sha, _blank, _fmt, readout = read_games_file(path, fmt, ids, end_date, no_moves)
    return check_integrity(engine, readout.games, submitted=submitted, event_end=end_date,
                           pool=pool, use_ids=ids == "fide", limits=limits)


def integrity_flags(session: Session, games: Sequence[FileGame], *, submitted: dt.date,
                    event_end: dt.date | None = None, pool: RatingPool | None = None,
                    use_ids: bool = True, limits: Thresholds = THRESHOLDS) -> list[Flag]:
    """The integrity flags of a submission's ``games`` (``FileGame`` values, as its file's
    reader gives them), submitted on ``submitted``.

    ``event_end``: the event's end when the submission says it (else each event's end is the
    file's, or its last game's date); ``pool``: the event's pool for games without a time
    control (``import --pool``; default standard); ``use_ids``: False when the file's ids are
    national ids (``import --ids national``). Games are grouped by their event's name (the
    games without one form one group, ``NO_EVENT``, not a pool: no closed-pool or unrated-share
    check). Returns the flags in order: per event closed pool, late submission and unrated
    share, then per player new-player details, performance and long days, by name."""
    who_is = _People(PlayerIndex.load_rows(session), use_ids)
    people = who_is.people
    pools: dict[int, RatingPool] = {}
    ignored: list[Problem] = []  # a game whose pool cannot be told: as its event's (the import
    told: dict[tuple[str | None, ...], RatingPool] = {}  # refuses it; the checks still read it)
    for g in games:  # game_pool reads these fields only: each kind of game told once
        kind = (g.pool, g.time_control, g.time_control_unit, g.white_time_control,
                g.black_time_control)
        if kind not in told:
            found = game_pool("", g, pool, ignored)
            told[kind] = found.pool if found is not None else pool or STANDARD
        pools[id(g)] = told[kind]
    sides: dict[int, tuple[_Who, _Who]] = {}
    for g in games:
        white, black = who_is(g.white, pools[id(g)]), who_is(g.black, pools[id(g)])
        if white is not None and black is not None:
            sides[id(g)] = (white, black)
    events: dict[str | None, list[FileGame]] = defaultdict(list)
    for g in games:
        events[g.event].append(g)
    ends = {event: event_end or max(max(g.date for g in event_games), max(
        (g.event_end for g in event_games if g.event_end is not None), default=dt.date.min))
            for event, event_games in events.items()}
    starts = {event: min((g.event_start or g.date) for g in event_games)
              for event, event_games in events.items()}
    rating = _Ratings(session, people, games, pools)
    flags: list[Flag] = []
    met = _meetings(session, games, sides, events,
                    {e: max(end, submitted) for e, end in ends.items()}, limits)
    for event, event_games in events.items():
        label = event or NO_EVENT
        group = {w.key: w for g in event_games if id(g) in sides for w in sides[id(g)]}
        if event is not None:
            pairs, recorded = met[event]
            flags.extend(f for f in [closed_pool(label, max(ends[event], submitted), group,
                                                 pairs, recorded, limits)] if f is not None)
        flags.extend(f for f in [late_submission(label, ends[event], submitted, limits)]
                     if f is not None)
        if event is not None:
            pool_of = {w.key: pools[id(g)] for g in event_games if id(g) in sides
                       for w in sides[id(g)]}
            unrated = sum(1 for w in group.values()
                          if rating(w, pool_of[w.key], starts[event]) is None)
            flags.extend(f for f in [unrated_share(label, len(group), unrated, limits)]
                         if f is not None)
    flags.extend(f for w in sorted(people.values(), key=lambda w: (w.name, str(w.key)))
                 if w.player_id is None
                 for f in [new_player_details(w.name, w.birth_year, w.sex)] if f is not None)
    flags.extend(_performances(events, sides, pools, starts, rating, limits))
    flags.extend(_long_days(games, sides, pools, limits))
    return flags


class _People:
    """The player each of a file's players stands for (see the module), as a ``_Who`` in
    ``people``; a question asked before (the same name, FIDE id and birth year) is answered
    from what it found (a CSV names a player once per game side). None: the name matches
    several players."""

    def __init__(self, index: PlayerIndex[PlayerRow], use_ids: bool) -> None:
        self.index, self.use_ids = index, use_ids
        self.people: dict[Key, _Who] = {}
        self.asked: dict[tuple[str, int | None, int | None], Key | None] = {}

    def __call__(self, p: FilePlayer, pool: RatingPool) -> _Who | None:
        fide_id = p.fide_id if self.use_ids else None
        asked = (p.name, fide_id, p.birth_year)
        if asked in self.asked:
            key = self.asked[asked]
        else:
            key = self.asked[asked] = self._match(p, fide_id)
        if key is None:
            return None
        who = self.people[key]
        if who.player_id is None:  # the file's values of a new player, the first given
            who.sex, who.birth_year = who.sex or p.sex, who.birth_year or p.birth_year
            if p.rating is not None:
                who.file_rating.setdefault(pool, p.rating)  # as the import registers them
        return who

    def _match(self, p: FilePlayer, fide_id: int | None) -> Key | None:
        found = self.index.match(p.name, fide_id, p.birth_year)
        if found.error is not None:
            return None
        key: Key
        if found.player is not None:
            player = found.player
            key = ("id", player.id)
            if key not in self.people:
                self.people[key] = _Who(key, player.name, player.id, player.sex,
                                        player.birth_year)
            return key
        key = ("new", fide_id if fide_id is not None else name_key(p.name))
        if key not in self.people:
            self.people[key] = _Who(key, p.name, None, p.sex, p.birth_year)
        return key


class _Ratings:
    """``(who, pool, start date) -> rating``: a ledger player's published rating in force for
    the period of ``start`` in ``pool``, a new player's the file's; None: unrated. The
    histories of each pool read once (``load_histories``)."""

    def __init__(self, session: Session, people: dict[Key, _Who], games: Sequence[FileGame],
                 pools: dict[int, RatingPool]) -> None:
        ids = sorted(w.player_id for w in people.values() if w.player_id is not None)
        through = Period.of(max((g.date for g in games), default=dt.date.today()))
        self.lookup: dict[RatingPool, Callable[[int, Period], int | None]] = {}
        self.periods: dict[dt.date, Period] = {}  # each start's period made once
        for pool in sorted(set(pools.values())):
            histories = load_histories(session, ids, through=through, pool=pool)
            self.lookup[pool] = ratings_in_pool(session, histories, pool, through=through)

    def __call__(self, who: _Who, pool: RatingPool, start: dt.date) -> int | None:
        if who.player_id is None:
            return who.file_rating.get(pool)
        period = self.periods.get(start)
        if period is None:
            period = self.periods[start] = Period.of(start)
        return self.lookup[pool](who.player_id, period)


def _meetings(session: Session, games: Sequence[FileGame], sides: dict[int, tuple[_Who, _Who]],
              events: dict[str | None, list[FileGame]], ends: dict[str | None, dt.date],
              limits: Thresholds) -> dict[str, tuple[list[tuple[Key, Key]], int]]:
    """For each event: the (player, opponent) pairs of the games in the ``closed_pool_months``
    up to ``ends`` (the later of its end and the submission: the last 12 months as the officer
    reviews it) that have one of its players (the ledger's valid games and the file's own),
    and how many of them the ledger had; for an event one of whose players met someone outside
    it, only that first pair (``rules.integrity.closed_pool`` needs no more to say it is open:
    a federation's month of 600 events is read in a second, not a minute)."""
    named = {e: g for e, g in events.items() if e is not None}
    if not named:
        return {}
    window = {e: (year_before(ends[e], limits.closed_pool_months), ends[e]) for e in named}
    first, last = min(a for a, _ in window.values()), max(b for _, b in window.values())
    by_id = {w.player_id: w for pair in sides.values() for w in pair
             if w.player_id is not None}
    recorded: list[tuple[Key, Key, dt.date, bool]] = []  # (white, black, date, in the ledger)
    ids = sorted(by_id)
    for i in range(0, len(ids), _CHUNK):
        chunk = ids[i:i + _CHUNK]
        rows = session.execute(select(Game.white_id, Game.black_id, Game.date).where(
            Game.status == "valid", Game.date >= first, Game.date <= last,
            or_(Game.white_id.in_(chunk), Game.black_id.in_(chunk))))
        earlier = set(ids[:i])  # a game with a player of an earlier chunk was read with them
        for white, black, day in rows:
            if white in earlier or black in earlier:
                continue
            recorded.append((_known(by_id, white), _known(by_id, black), day, True))
    recorded.extend((sides[id(g)][0].key, sides[id(g)][1].key, g.date, False) for g in games
                    if id(g) in sides)
    by_player: dict[Key, list[int]] = defaultdict(list)  # each player's meetings, by index
    for i, (a, b, _day, _before) in enumerate(recorded):
        by_player[a].append(i)
        by_player[b].append(i)
    met: dict[str, tuple[list[tuple[Key, Key]], int]] = {}
    for event, event_games in named.items():
        low, high = window[event]
        members = {w.key for g in event_games if id(g) in sides for w in sides[id(g)]}
        outside = next((i for key in members for i in by_player[key]
                        if low <= recorded[i][2] <= high
                        and (recorded[i][0] not in members or recorded[i][1] not in members)),
                       None)
        if outside is not None:  # an open pool: the first pair that opens it is all the rule
            met[event] = ([(recorded[outside][0], recorded[outside][1])], 0)  # needs to say so
            continue
        seen = sorted({i for key in members for i in by_player[key]
                       if low <= recorded[i][2] <= high})
        met[event] = ([(recorded[i][0], recorded[i][1]) for i in seen],
                      sum(1 for i in seen if recorded[i][3]))
    return met


def _known(by_id: dict[int, _Who], pid: int) -> Key:
    """A ledger player's key: theirs in the file, else ``("id", pid)``."""
    who = by_id.get(pid)
    return who.key if who is not None else ("id", pid)


def _performances(events: dict[str | None, list[FileGame]], sides: dict[int, tuple[_Who, _Who]],
                  pools: dict[int, RatingPool], starts: dict[str | None, dt.date],
                  rating: _Ratings, limits: Thresholds) -> Iterable[Flag]:
    """Check (b) per player over each event's games of one pool (the games without an event:
    per period), against rated opponents over the board, at the ratings in force at the
    event's start (the period's first day)."""
    groups: dict[tuple[str | None, RatingPool, dt.date], dict[Key, list[_Side]]] = {}
    who_of: dict[Key, _Who] = {}
    for event, event_games in events.items():
        for g in event_games:
            pair = sides.get(id(g))
            if pair is None or not g.played or g.result._value_ not in _SCORES:
                continue  # a forfeit: not over the board
            start = starts[event] if event is not None else g.date.replace(day=1)
            white, black = pair
            who_of[white.key], who_of[black.key] = white, black
            (white_score, white_halves), (black_score, black_halves) = _SCORES[g.result._value_]
            by_player = groups.setdefault((event, pools[id(g)], start), {})
            by_player.setdefault(white.key, []).append((black, white_score, white_halves))
            by_player.setdefault(black.key, []).append((white, black_score, black_halves))
    flags: list[Flag] = []
    for (_event, pool, start), by_player in groups.items():
        for key, player_sides in by_player.items():
            if len(player_sides) < limits.performance_min_games:
                continue  # too few games (the rule says None): the opponents need not be read
            who = who_of[key]
            own = rating(who, pool, start)
            if own is None:
                continue  # unrated: not checked (the rule says None)
            counted = [(r, score, halves) for opponent, score, halves in player_sides
                       if (r := rating(opponent, pool, start)) is not None]
            if sum(h for _, _, h in counted) <= len(counted) and (
                    2 * sum(r for r, _, _ in counted) < (2 * own + 799) * len(counted)):
                # at most half the points: p <= 50 %, dp <= 0 (table 8.1.1), so Rp is at most
                # Ra (the opponents' mean, .5 up), below own + 400 here: the rule says None
                continue
            flag = performance_flag(who.name, own, [r for r, _, _ in counted],
                                    [x for _, x, _ in counted], who.sex, who.player_id,
                                    limits)
            if flag is not None:
                flags.append(flag)
    return sorted(flags, key=lambda f: f.concerns)


def _long_days(games: Sequence[FileGame], sides: dict[int, tuple[_Who, _Who]],
               pools: dict[int, RatingPool], limits: Thresholds) -> list[Flag]:
    """Check (c) per player and day over the file's games played over the board."""
    days: dict[tuple[Key, dt.date], list[DayGame]] = defaultdict(list)
    totals: dict[tuple[Key, dt.date], float] = defaultdict(float)
    who_of: dict[Key, _Who] = {}
    # each kind of game read once: its DayGame, and its rules.integrity.game_minutes
    controls: dict[tuple[str | None, str, RatingPool], tuple[DayGame, float]] = {}
    for g in games:
        pair = sides.get(id(g))
        if pair is None or not g.played or g.result._value_ not in _SCORES:
            continue
        kind = (g.time_control, g.time_control_unit, pools[id(g)])
        if kind not in controls:
            game = DayGame(_minutes(g), pools[id(g)])
            controls[kind] = (game, float(game_minutes(game, limits)))
        game, minutes = controls[kind]
        for who in pair:
            day = (who.key, g.date)
            days[day].append(game)
            totals[day] += minutes
            who_of[who.key] = who
    flags = [f for (key, day), total in totals.items()
             if total > limits.day_minutes - 0.001  # else the rule says None (floats, a margin
             # far above their error: only a prefilter; the rule sums exactly)
             for f in [long_day(who_of[key].name, day, days[key, day], who_of[key].player_id,
                                limits)]
             if f is not None]
    return sorted(flags, key=lambda f: (f.concerns, f.message))


#: White's and Black's points of each result played over the board, by its text (a ``str``
#: hashes in C, an enum member in Python): (exact points, half points) each.
_SCORES = {r.value: tuple((Fraction(str(x)), int(2 * x)) for x in (r.white_score, r.black_score))
           for r in Result if r.is_played}


def _minutes(g: FileGame) -> Fraction | None:
    """The game's time control in minutes for 60 moves a player, as its file writes it
    (``rules.pools``: PGN seconds, TRF 122 free text, else as people write it); None when not
    given or not read."""
    text = g.time_control
    if not text:
        return None
    try:
        control = (parse_trf_time_control(text) if g.time_control_unit == "free"
                   else parse_pgn_time_control(text) if g.time_control_unit == "seconds"
                   else parse_time_control(text))
    except InvalidInput:
        return None
    return control.minutes if control is not None else None
