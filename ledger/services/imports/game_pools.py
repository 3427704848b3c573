"""Which rating pool a game read from a file belongs to (docs/RULES.md §9), and whether its
players had the same time: from the file's time control (``FileGame.time_control``, read by
``rules.pools``), a pool the file names (a CSV ``pool`` column) and the event's pool
(``import --pool``, default standard).

Refusals are ``Problem`` values naming the file, line and field, as every import reports them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ledger.domain import POOLS, STANDARD, RatingPool, parse_pool
from ledger.errors import InvalidInput, Problem, shown
from ledger.formats.records import FileGame
from ledger.rules.pools import (
    TimeControl,
    parse_pgn_time_control,
    parse_time_control,
    parse_trf_time_control,
    pool_of_minutes,
)


@dataclass(frozen=True)
class GamePool:
    """A file game's ``pool`` and ``unequal_times`` (the players had different times: recorded,
    not rated)."""

    pool: RatingPool
    unequal_times: bool = False


def _control(file: str, g: FileGame, text: str, key: str, problems: list[Problem],
             event_pool: RatingPool | None = None) -> TimeControl | None:
    """The time control ``text`` of ``g`` (its field ``key``), read as its file writes them
    (``g.time_control_unit``: PGN seconds, TRF 122 free text, or as people write it). None with
    an error in ``problems`` when it cannot be read or, for the game's own ``time_control``, is
    3 minutes or less (FIDE rates no such game); TRF 122 free text the ledger cannot read is
    a warning instead (the games take ``event_pool``, else standard). A problem of a line every
    game of the file shares (TRF 122) is reported once."""
    line, where = g.where(key)
    try:
        if g.time_control_unit == "free":
            control = parse_trf_time_control(text)
            if control is None:
                _once(problems, Problem(
                    file, line, where, f"{shown(text)} is not a time control the ledger reads "
                    "(e.g. 90 min/40 moves + 30 min + 30 sec increment, or 15 min + 10 sec): "
                    f"the games are {event_pool or STANDARD} (--pool, default standard)",
                    "warning"))
                return None
        elif g.time_control_unit == "seconds":
            control = parse_pgn_time_control(text)
        else:
            control = parse_time_control(text, where)
        if control is not None and key == "time_control":  # a player's own time: any length
            pool_of_minutes(control.minutes)  # raises InvalidInput for 3 minutes or less
        return control
    except InvalidInput as exc:
        _once(problems, Problem(file, line, where,
                                _without_field(exc).removeprefix("time control: ")))
        return None


def _once(problems: list[Problem], problem: Problem) -> None:
    """``problem`` into ``problems`` unless it is there already (a TRF file's 122 line is the
    time control of each of its games)."""
    if problem not in problems:
        problems.append(problem)


def _without_field(exc: InvalidInput) -> str:
    """The message of ``exc`` without the ``field: `` it starts with (the problem names it)."""
    text = str(exc)
    head, sep, rest = text.partition(": ")
    return rest if sep and " " not in head else text


#: The ``GamePool`` of a game whose file names neither its pool nor a time control, by pool.
_PLAIN = {pool: GamePool(pool) for pool in POOLS}


def game_pool(file: str, g: FileGame, event_pool: RatingPool | None,
              problems: list[Problem]) -> GamePool | None:
    """The pool of ``g``: its time control's (``rules.pools``), else the pool the file names,
    else ``event_pool`` (``import --pool``), else standard. None, with an error in
    ``problems`` naming the line and field, when they disagree (a time control and ``--pool``,
    a time control and the ``pool`` column, the column and ``--pool``), or a value cannot be
    read; ``unequal_times`` when the file gives the two players time controls of different
    lengths (docs/RULES.md §9)."""
    if (g.pool is None and not g.time_control and not g.white_time_control
            and not g.black_time_control):  # nothing in the file says: as below, quickly
        return _PLAIN[event_pool or STANDARD]
    errors = sum(p.severity == "error" for p in problems)
    named: RatingPool | None = None
    if g.pool is not None:
        line, where = g.where("pool")
        try:
            named = parse_pool(g.pool, where)
        except InvalidInput as exc:
            problems.append(Problem(file, line, where, _without_field(exc)))
    control = (_control(file, g, g.time_control, "time_control", problems, event_pool)
               if g.time_control else None)
    line, where = g.where("time_control")
    if control is not None:
        for other, said in ((named, "the pool column"), (event_pool, "--pool")):
            if other is not None and control.pool != other:
                _once(problems, Problem(file, line, where, f"{g.time_control} is "
                                        f"{control.pool} ({control.minutes} minutes for 60 "
                                        f"moves), not {other} ({said})"))
    elif named is not None and event_pool is not None and named != event_pool:
        line, where = g.where("pool")
        problems.append(Problem(file, line, where, f"{named} is not {event_pool} (--pool)"))
    sides = [_control(file, g, text, key, problems)
             for text, key in ((g.white_time_control, "white_time_control"),
                               (g.black_time_control, "black_time_control")) if text]
    if sum(p.severity == "error" for p in problems) > errors:
        return None
    pool = control.pool if control else named or event_pool or STANDARD
    unequal = len(sides) == 2 and sides[0] is not None and sides[1] is not None and (
        sides[0].minutes != sides[1].minutes)
    return GamePool(pool, unequal)


def game_pools(file: str, games: Iterable[FileGame], event_pool: RatingPool | None,
               problems: list[Problem]) -> dict[int, GamePool]:
    """``id(FileGame)`` -> ``game_pool`` of each of ``games`` that has one (a game refused has
    no entry; its errors are in ``problems``, in the order of ``games``), for a batch of an
    import: a game whose file names neither its pool nor a time control (every game of a
    federation's month) is given the plain pool without a call a game."""
    plain = _PLAIN[event_pool or STANDARD]
    found: dict[int, GamePool] = {}
    for g in games:
        if (g.pool is None and not g.time_control and not g.white_time_control
                and not g.black_time_control):  # ``game_pool``'s first test, written out
            found[id(g)] = plain
            continue
        pool = game_pool(file, g, event_pool, problems)
        if pool is not None:
            found[id(g)] = pool
    return found
