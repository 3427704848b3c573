"""Rendering service results: Rich tables for people, JSON for programs, errors on stderr."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ledger.cli.columns import columns
from ledger.cli.render_life import computation_lines, life_dict, life_lines
from ledger.cli.tables import PlainTable
from ledger.cli.values import (
    indented_json,
    json_number,
    write_json,
)
from ledger.errors import Problem, SimilarGame

if TYPE_CHECKING:
    from ledger.services.close.close_report import CloseReport, RatedPlayer, ThroughReport
    from ledger.services.close.life import PoolView
    from ledger.services.imports.games import ImportReport
    from ledger.services.publishing.lists import PlayerHistory, RatingList
    from ledger.services.register.events import EventView
    from ledger.services.register.game_views import GameView
    from ledger.services.register.player_views import PlayerView, PrintedListRating

#: Width of output that is not a terminal (a pipe, a file), unless ``COLUMNS`` gives one.
PIPE_WIDTH = 160


def _terminal_width() -> int:
    """The width of the terminal on standard input, output or error, as Rich finds it when
    ``COLUMNS`` is not set; 80 when none is a terminal."""
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (OSError, ValueError):
            continue
        if width:
            return width
    return 80


def console(*, stderr: bool = False, **options: Any) -> Console:
    """A console on stdout (or stderr), with ``options`` for Rich: ``COLUMNS`` wide when it is
    a sensible width (``columns``), else a terminal's own width, else (a pipe or a file)
    ``PIPE_WIDTH`` on stdout and 80 on stderr. Every console the CLI makes comes from here."""
    width = columns()
    if width is None:
        terminal = Console(stderr=stderr, width=80).is_terminal  # the width given: COLUMNS unread
        width = _terminal_width() if terminal else 80 if stderr else PIPE_WIDTH
    return Console(stderr=stderr, width=width, **options)


def _out() -> Console:
    """The console for stdout: ``console``."""
    return console(highlight=False, emoji=False)


def _err() -> Console:
    """The console for stderr: ``console``, lines never folded (``soft_wrap``)."""
    return console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def say(text: str) -> None:
    """A line for the user on stdout."""
    _out().print(text, markup=False)


def aside(text: str) -> None:
    """A line for the user on stderr, beside output that goes to stdout (a file's text)."""
    _err().print(text, markup=False)


def error(text: str) -> None:
    """An error message on stderr."""
    _err().print(f"error: {text}", markup=False, style="bold red")


def notes(texts: Iterable[str]) -> None:
    """Each text as a ``note:`` line on stderr (what the user must know of a result)."""
    for text in texts:
        _err().print(f"note: {text}", markup=False, style="yellow")


#: At most this many problems are printed (a binary file picked by mistake gives thousands);
#: ``--json`` lists them all.
MAX_PROBLEMS_SHOWN = 100


def problems(items: Iterable[Problem], *, quiet: bool = False) -> None:
    """The problems of a file on stderr, one per line: the first ``MAX_PROBLEMS_SHOWN``, then
    how many more there are and of which severity, then those of the rest about the whole file
    (field ``file``: where a reader stopped, how many warnings it did not keep); ``quiet``
    (``--quiet``): errors only."""
    console = _err()
    listed = [p for p in items if not quiet or p.severity == "error"]
    for p in listed[:MAX_PROBLEMS_SHOWN]:
        console.print(str(p), markup=False, style="red" if p.severity == "error" else "yellow")
    rest = [p for p in listed[MAX_PROBLEMS_SHOWN:] if p.field != "file"]
    if rest:
        errors = sum(p.severity == "error" for p in rest)
        console.print(f"... and {len(rest)} more problems ({errors} errors, {len(rest) - errors} "
                      "warnings) not shown; --json lists them all", markup=False, style="red")
    for p in listed[MAX_PROBLEMS_SHOWN:]:
        if p.field == "file":
            console.print(str(p), markup=False, style="red" if p.severity == "error" else "yellow")


def _json(data: Any) -> None:
    print(indented_json(data))


def _streamed_json(data: Any) -> None:
    """``_json``'s text, written piece by piece (``values.write_json``: iterators in ``data``
    are listed one item at a time)."""
    write_json(data, sys.stdout.write)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


#: At most this many names on one line of a report; --json lists them all.
MAX_NAMES_SHOWN = 10


def _names(names: list[str]) -> str:
    """``names`` joined by ``; ``: the first ``MAX_NAMES_SHOWN``, then how many more."""
    shown = "; ".join(names[:MAX_NAMES_SHOWN])
    rest = len(names) - MAX_NAMES_SHOWN
    return shown + (f" ... and {rest} more (--json lists them all)" if rest > 0 else "")


def _signed(n: int | Decimal) -> str:
    return f"+{n}" if n > 0 else str(n)


def _player_dict(v: PlayerView) -> dict[str, Any]:
    return {"id": v.id, "name": v.name, "fide_id": v.fide_id, "birth_year": v.birth_year,
            "sex": v.sex, "federation": v.federation, "title": v.title, "w_title": v.w_title,
            "o_title": v.o_title, "foa_title": v.foa_title, "rating": v.rating,
            "rated_games": v.rated_games, "history_unknown": v.history_unknown,
            "reached_2400": v.reached_2400, "reached_2300": v.reached_2300,
            "k": v.k if v.rating is not None else None,
            "k_reason": v.k_reason.value if v.rating is not None else None,
            "next_period": v.next_period, "rating_pool": v.pool}


def player(v: PlayerView, as_json: bool, *, added: bool = False) -> None:
    """One player, as key/value lines or JSON; notes on stderr."""
    notes(v.notes)
    if as_json:
        _json(_player_dict(v) | (life_dict(v.life, v.pool) if v.life else {})
              | ({} if added else _list_ratings_dict(v.list_ratings)))
        return
    table = PlainTable(title=("Registered" if added else None), show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    games = ("unknown: treated as established (30 or more)" if v.history_unknown
             else str(v.rated_games))
    for label, value in (
        ("id", f"#{v.id}"), ("name", v.name), ("FIDE id", v.fide_id), ("title", v.title),
        *((label, value) for label, value in (("woman's title", v.w_title),
                                              ("other titles", v.o_title),
                                              ("FOA title", v.foa_title)) if value),
        ("federation", v.federation), ("sex", v.sex), ("birth year", v.birth_year),
        ("pool", v.pool),
        ("rating", v.rating if v.rating is not None else "unrated"),
        ("rated games", games),
        ("reached 2400", "yes" if v.reached_2400 else "no"),
        ("reached 2300", "yes" if v.reached_2300 else "no"),
        (f"K for {v.next_period}", f"{v.k} ({v.k_reason.value})" if v.rating is not None
         else "none while unrated"),
    ):
        table.add_row(label, "" if value is None else str(value))
    _out().print(table)
    for line in life_lines(v.life) if v.life else []:
        say(line)
    if v.list_ratings:
        say(LIST_RATINGS_LABEL)
        _out().print(_list_ratings_table(v.list_ratings))


#: How ``player show`` labels FIDE's printed list ratings, in text and JSON.
LIST_RATINGS_LABEL = ("FIDE's rating lists, as printed, for comparison only: the rating and K "
                      "above are the ledger's own")


def _list_ratings_dict(items: tuple[PrintedListRating, ...]) -> dict[str, Any]:
    return {"fide_list_ratings_note": LIST_RATINGS_LABEL,
            "fide_list_ratings": [{"pool": r.pool, "list_date": r.list_date.isoformat(),
                                   "rating": r.rating, "games": r.games, "k": r.k, "flag": r.flag,
                                   "source": r.source} for r in items]}


def _list_ratings_table(items: tuple[PrintedListRating, ...]) -> Table:
    """The latest list rating per pool, as FIDE printed it."""
    table = PlainTable()
    for col, priority in (("pool", 0), ("list date", 0), ("rating", 0), ("games", 1), ("K", 1),
                          ("flag", 2), ("list file", 3)):
        table.add_column(col, priority=priority,
                         justify="right" if col in ("rating", "games", "K") else "left")
    for r in items:
        table.add_row(r.pool, r.list_date.isoformat(),
                      "unrated" if r.rating is None else str(r.rating),
                      *("-" if n is None else str(n) for n in (r.games, r.k)), r.flag or "",
                      r.source)
    return table


def player_list(views: list[PlayerView], pool: str, as_json: bool) -> None:
    """All players with their rating in ``pool``; JSON carries ``pool`` on the list and on every
    row (``rating_pool`` too, as ``player show`` has it)."""
    if as_json:
        _json({"pool": pool, "players": [{"pool": v.pool} | _player_dict(v) for v in views]})
        return
    table = PlainTable(title=f"Players ({len(views)}), {pool} ratings")
    for col, priority in (("id", 0), ("name", 0), ("FIDE id", 5), ("fed", 3), ("title", 4),
                          ("born", 6), ("rating", 0), ("rated games", 2), ("K", 1)):
        table.add_column(col, priority=priority,
                         justify="left" if col in ("name", "FIDE id", "fed", "title") else "right")
    for v in views:
        table.add_row(f"#{v.id}", v.name, str(v.fide_id or ""), v.federation or "",
                      v.title or "", str(v.birth_year or ""),
                      str(v.rating) if v.rating is not None else "unrated",
                      "?" if v.rated_games is None else str(v.rated_games),
                      str(v.k) if v.rating is not None else "-")
    _out().print(table)


def game_dict(g: GameView) -> dict[str, Any]:
    """A recorded game as JSON: ``late`` and ``dated_in`` (the closed period its dates belong
    to) for a late result, rated in the later ``period``."""
    return {"id": g.id, "date": g.date.isoformat(), "period": g.period, "white": g.white,
            "black": g.black, "result": g.result, "status": g.status,
            "rated": g.status == "rated", "event": g.event, "round": g.round,
            "late": g.late, "dated_in": g.dated_in, "pool": g.pool}


def game_status(g: GameView) -> str:
    """A game's status as the tables show it: a late result says so, and a rapid or blitz
    game its pool."""
    return (g.status + (f", late (dated {g.dated_in})" if g.late else "")
            + ("" if g.pool == "standard" else f", {g.pool}"))


def game_list(views: list[GameView], as_json: bool, *, title: str = "Games") -> None:
    """Games, by date, with their rating status (late results and void games say so); notes
    (what moved) on stderr."""
    for g in views:
        notes(g.notes)
    if as_json:
        _json({"games": [game_dict(g) for g in views]})
        return
    table = PlainTable(title=f"{title} ({len(views)})")
    for col, priority in (("id", 1), ("date", 0), ("period", 5), ("event", 4), ("round", 3),
                          ("white", 0), ("black", 0), ("result", 0), ("status", 2)):
        table.add_column(col, priority=priority)
    for g in views:
        table.add_row(str(g.id), g.date.isoformat(), g.period, g.event or "", g.round or "",
                      g.white, g.black, g.result, game_status(g))
    _out().print(table)


def event_list(views: list[EventView], as_json: bool) -> None:
    """Events, by start date, with their period, games and source."""
    if as_json:
        _json({"events": [{"id": e.id, "name": e.name, "start_date": e.start_date.isoformat(),
                           "end_date": e.end_date.isoformat(), "period": e.period,
                           "games": e.games, "void": e.void, "rated_in": e.rated_in,
                           "late": e.late, "source": e.source} for e in views]})
        return
    table = PlainTable(title=f"Events ({len(views)})")
    for col, priority in (("id", 0), ("name", 0), ("start", 0), ("end", 2), ("period", 3),
                          ("games", 1), ("source", 4)):
        table.add_column(col, justify="right" if col in ("id", "games") else "left",
                         priority=priority)
    for e in views:
        period = e.period + (f" (late: rated in {', '.join(e.rated_in)})" if e.late else "")
        games = str(e.games) + (f" ({e.void} void)" if e.void else "")
        table.add_row(f"#{e.id}", e.name, e.start_date.isoformat(), e.end_date.isoformat(),
                      period, games, e.source or "")
    _out().print(table)


def import_rejected_json(file: str, problems: Iterable[Problem],
                         similar: Iterable[SimilarGame] = ()) -> None:
    """``ledger import --json`` of a rejected file: ``{"file", "rejected": true, "problems",
    "similar"}`` on stdout (the same problems also go to stderr as text); ``similar``: the
    likely duplicates refused, each with the recorded game it resembles (``similar_dict``)."""
    _json({"file": file, "rejected": True, "problems": [vars(p) for p in problems],
           "similar": [similar_dict(s) for s in similar]})


def similar_dict(s: SimilarGame) -> dict[str, Any]:
    """A likely duplicate as JSON: the file's ``line`` and ``game`` (white, black, date, result,
    event, round), the game it resembles (``recorded_game_id``, ``recorded_event_id``,
    ``recorded_event``, ``recorded_round``; for a game of the same file ``earlier_line``, the
    ids null) and ``why``."""
    return {"line": s.line,
            "game": {"white": s.white, "black": s.black, "date": s.date.isoformat(),
                     "result": s.result, "event": s.event, "round": s.round},
            "recorded_game_id": s.game_id, "recorded_event_id": s.recorded_event_id,
            "recorded_event": s.recorded_event, "recorded_round": s.recorded_round,
            "earlier_line": s.earlier_line, "why": s.why}


def import_report(r: ImportReport, as_json: bool, *, quiet: bool = False) -> None:
    """What an import did; warnings and notes on stderr, unless ``quiet``."""
    if as_json:
        _json({"file": r.file, "format": r.format, "sha256": r.sha256, "dry_run": r.dry_run,
               "games_in_file": r.games_in_file, "players_in_file": r.players_in_file,
               "recorded": r.recorded, "to_rate": r.to_rate,
               "already_recorded": r.already_recorded, "repeated_in_file": r.repeated_in_file,
               "already_imported": r.already_imported, "players_matched": r.players_matched,
               "players_registered": r.players_registered,
               "registered_established": r.registered_established,
               "registered_unrated": r.registered_unrated,
               "not_rated": dict(r.not_rated), "periods": dict(r.periods), "notes": r.notes,
               "allow_similar": r.allow_similar, "likely_duplicates": r.likely_duplicates,
               "similar": [similar_dict(s) for s in r.similar],
               "late": [{"line": x.line, "white": x.white, "black": x.black,
                         "date": x.date.isoformat(), "dated_in": x.dated_in,
                         "period": x.period, "pool": x.pool} for x in r.late],
               "rerated": [{"period": p.period, "old_revision": p.old_revision,
                            "new_revision": p.new_revision,
                            "changes": [vars(m) for m in p.moves]} for p in r.rerated],
               "problems": [vars(p) for p in r.problems]})
        return
    problems(r.problems, quiet=quiet)
    notes([] if quiet else r.notes)
    verb = "would record" if r.dry_run else "recorded"
    lines = [
        f"{r.file} ({r.format}): {_count(r.games_in_file, 'game')} in the file; {verb} "
        f"{r.recorded} ({r.to_rate} to rate), {r.already_recorded} already in the ledger"
        + (f", {r.repeated_in_file} repeated in the file (recorded once, each named in a "
           "warning)" if r.repeated_in_file else ""),
        (f"players: {r.players_in_file} in the file, " if r.players_in_file is not None
         else "players: ")
        + f"{r.players_matched} matched, {len(r.players_registered)} registered",
    ]
    if r.registered_established:
        lines.append(f"registered with the file's rating, earlier games unknown (assumed "
                     f"established: 30 or more rated games): {_names(r.registered_established)}")
    if r.registered_unrated:
        lines.append(f"registered unrated, 0 rated games (K 40 until 30): "
                     f"{_names(r.registered_unrated)}")
    if r.periods:
        lines.append("periods: " + ", ".join(f"{p} ({n} games)" for p, n in sorted(r.periods.items())))
    if r.not_rated:
        lines.append("recorded, not rated: "
                     + ", ".join(f"{reason} {n}" for reason, n in sorted(r.not_rated.items())))
    if r.similar:
        lines.append(f"{verb} as different games (--allow-similar): {r.likely_duplicates} "
                     "that look like games recorded or elsewhere in the file (each named in a "
                     "warning)")
    if r.late:
        dated = ", ".join(sorted({x.dated_in for x in r.late}))
        into = ", ".join(sorted({x.period for x in r.late}))
        lines.append(f"late results: {_count(len(r.late), 'game')} dated in closed period(s) "
                     f"{dated}, recorded in {into}, rated with the ratings in force at their "
                     "event's start" + ("; the periods from there are re-rated" if r.rerated
                                        else "; the published lists stand"))
    for p in r.rerated:
        lines.append(f"re-rated {p.period}: revision {p.old_revision} -> {p.new_revision}, "
                     f"{_count(len(p.moves), 'rating')} changed"
                     + ("".join(f"; {m.name} {m.before} -> {m.after}" for m in p.moves[:10])))
    if r.dry_run:
        lines.append("dry run: nothing was written")
    for line in lines:
        say(line)


#: A close of more players than this prints its summary and the ``BIGGEST`` largest gains and
#: losses, not a row per player (``period close --all``, ``period report`` show them all): a
#: federation's month of 200,000 players is no table for a terminal.
LARGE_CLOSE = 50
BIGGEST = 10


def close_report(r: CloseReport, as_json: bool, *, every_row: bool = False) -> None:
    """A period close: one row per rated player (more than ``LARGE_CLOSE``: the biggest
    changes only, unless ``every_row``); with a dry run, their games as well. A close
    of several pools (docs/RULES.md §9) shows each pool's, each titled with its pool; JSON
    (every player, whatever the size) carries ``pool`` on every row and the other pools in
    ``other_pools``."""
    if as_json:
        from ledger.cli.render_close import close_dict  # the close's rules: not for calc
        _streamed_json(close_dict(r))
        return
    named = bool(r.others) or r.pool != "standard"
    for report in r.every_pool:
        _close_one(report, named, every_row)


def _biggest(r: CloseReport) -> list[RatedPlayer]:
    """The ``BIGGEST`` largest gains, then the ``BIGGEST`` largest losses, of ``r`` (by the
    rounded change, then name)."""
    gains = sorted((p for p in r.players if p.result.change > 0),
                   key=lambda p: (-p.result.change, p.name))[:BIGGEST]
    losses = sorted((p for p in r.players if p.result.change < 0),
                    key=lambda p: (p.result.change, p.name))[:BIGGEST]
    return gains + losses


def _close_one(r: CloseReport, named: bool, every_row: bool = True) -> None:
    state = "dry run, nothing written" if r.dry_run else "closed"
    pool = f" {r.pool}" if named else ""
    large = not every_row and len(r.players) > LARGE_CLOSE
    shown = _biggest(r) if large else r.players
    part = "; the biggest gains and losses" if large else ""
    table = PlainTable(title=f"Rating period {r.period}{pool} ({state}; rules of {r.edition}){part}")
    for col, priority in (("name", 0), ("FIDE id", 6), ("before", 1), ("games", 2), ("score", 3),
                          ("expected", 3), ("K", 2), ("K reason", 4), ("K x (S - PD)", 5),
                          ("change", 0), ("after", 0)):
        table.add_column(col, priority=priority,
                         justify="left" if col in ("name", "K reason") else "right")
    for p in shown:
        res = p.result
        reason = res.k_reason.value + (f", capped from {res.k_before_cap}" if res.k_capped else "")
        table.add_row(p.name, str(p.fide_id or ""), str(res.rating_before), str(res.n),
                      f"{res.score:.1f}", f"{res.expected:.2f}", str(res.k), reason,
                      _signed(res.change_exact.quantize(Decimal("0.01"))), _signed(res.change),
                      str(res.rating_after))
    console = _out()
    console.print(table)
    if r.dry_run:
        for p in shown:
            games = PlainTable(title=f"{p.name}: K {p.result.k}", title_justify="left")
            for col, priority in (("opponent", 0), ("rating", 0), ("D", 0), ("D counted", 1),
                                  ("PD", 0), ("S", 0), ("S - PD", 0)):
                games.add_column(col, priority=priority,
                                 justify="left" if col == "opponent" else "right")
            late = {g.game_id for g in r.late}
            for a in p.result.games:
                games.add_row(p.opponents[a.opponent_id]
                              + (" (late result)" if a.game_id in late else ""),
                              str(a.opponent_rating),
                              str(a.difference), str(a.counted_difference), f"{a.expected:.2f}",
                              f"{a.score:.1f}", _signed(a.surplus))
            games.add_row("sum", "", "", "", f"{p.result.expected:.2f}", f"{p.result.score:.1f}",
                          _signed(p.result.surplus))
            console.print(games)
    not_rated = ", ".join(f"{why} {n}" for why, n in sorted(r.not_rated.items()))
    first = sum(1 for n in r.initial if n.rating.published)
    names = {p.player_id: p.name for p in r.players}
    for pid, rating in sorted(r.seeded.items()):
        if pid in names:
            say(f"{names[pid]}: unrated in {r.pool}, rated from their standard rating {rating} "
                "(and rated for their opponents)")
    say(f"{_count(r.games, 'game')} in {r.period}{pool}; "
        f"{_count(len(r.players), 'player')} rated"
        + (f"; {_count(first, 'initial rating')} published" if first else "")
        + (f"; games not rated: {not_rated}" if not_rated else ""))
    if large:
        say(f"{_count(len(r.players) - len(shown), 'more player')} not shown: --all shows "
            f"every row, `ledger period report {r.period}` what the close changed")
    if r.adjustments and r.period == "2022-09":
        say(f"list adjustment: {_count(r.adjustments, 'rating')} more than 100 below the "
            "standard rating raised to standard - 100 on the 1 October 2022 list")
    elif r.adjustments:
        say(f"list adjustment: {_count(r.adjustments, 'rating')} below 2000 raised by "
            "0.4 x (2000 - R) on the 1 March 2024 list")
    for gap in r.gap_games:
        say(f"not rated: game {gap.game_id}, {gap.white} ({gap.white_rating}) v {gap.black} "
            f"({gap.black_rating}): {abs(gap.white_rating - gap.black_rating)} apart, one above "
            "2600 (rapid and blitz, from December 2024)")
    for g in r.late:
        say(f"late result: game {g.game_id} of {g.date} ({g.white} v {g.black}"
            + (f", {g.event}" if g.event else "") + f"), dated in closed period {g.dated_in}, "
            "rated here with the ratings in force at its event's start")
    for p in r.players:
        if p.result.carried:
            say(f"carried correction: {p.name} {_signed(p.result.carried.quantize(Decimal('0.01')))}"
                " added to the exact change before its one rounding")
    for n in r.initial:
        say(f"{n.name}: " + "\n".join(computation_lines(r.period, n.rating)))
    for d in r.dropped:
        say(f"{d.name}: {d.rating} is below the floor {d.floor}: unrated from this list on")


def close_through_report(r: ThroughReport, as_json: bool) -> None:
    """``period close --through``: each period closed, in order (JSON: ``{"through", "closed":
    [close reports], "refused": {"period", "reason"} or null}``)."""
    if as_json:
        from ledger.cli.render_close import close_dict
        _streamed_json({"through": r.through, "closed": [close_dict(c) for c in r.closed],
               "refused": None if r.refused is None else {"period": r.refused[0],
                                                          "reason": r.refused[1]}})
        return
    for close in r.closed:
        close_report(close, False)


def rating_list_dict(rl: RatingList) -> dict[str, Any]:
    """A published rating list as JSON data (``pool`` on the list and on every row)."""
    return {"period": rl.period, "pool": rl.pool, "revision": rl.revision,
            "in_force_from": rl.in_force_from, "players": [
        {"pool": rl.pool, "rank": r.rank, "id": r.player_id, "name": r.name, "fide_id": r.fide_id,
         "federation": r.federation, "sex": r.sex, "title": r.title, "rating": r.rating,
         "games": r.games, "k": r.k, "k_reason": r.k_reason.value,
         "birth_year": r.birth_year, "inactive": r.inactive} for r in rl.rows]}


def rating_list(rl: RatingList, as_json: bool, console: Console | None = None) -> None:
    """A published rating list (on ``console``, default stdout)."""
    if as_json:
        _json(rating_list_dict(rl))
        return
    table = PlainTable(title=f"Rating list after period {rl.period}, {rl.pool} "
                             f"(in force from {rl.in_force_from})")
    for col, priority in (("rank", 0), ("name", 0), ("FIDE id", 4), ("fed", 1), ("title", 3),
                          ("rating", 0), ("games", 2), ("K", 2), ("born", 5), ("flag", 3)):
        table.add_column(col, priority=priority,
                         justify="right" if col in ("rank", "rating", "games", "K") else "left")
    table.caption = Text(f"games: rated games in {rl.period}; K: the K-factor for the next period; "
                         "flag i: inactive, no rated game in the last 12 periods (txt and csv "
                         "lists write FIDE's flag: w woman, i inactive, wi both)")
    for r in rl.rows:
        table.add_row(str(r.rank), r.name, str(r.fide_id or ""), r.federation or "",
                      r.title or "", str(r.rating), str(r.games), str(r.k), str(r.birth_year or ""),
                      "i" if r.inactive else "")
    (console or _out()).print(table)


def history_dict(h: PlayerHistory) -> dict[str, Any]:
    """A player's history as JSON data: ``rating_pool`` and ``pool`` on every period row the
    rating pool (docs/RULES.md §9); the top-level ``pool`` is an unrated player's pool of games
    in progress (``life_dict``)."""
    return {"player": _player_dict(h.player), "rating_pool": h.player.pool, "periods": [
        {"pool": h.player.pool, "period": r.period, "rating_before": r.rating_before,
         "games": r.games,
         "score": json_number(r.score), "expected": json_number(r.expected), "k": r.k,
         "k_reason": r.k_reason, "k_capped": r.k_capped,
         "change_exact": json_number(r.change_exact), "change": r.change,
         "rating_after": r.rating_after, "note": r.note, "carried": json_number(r.carried)}
        for r in h.periods]} | life_dict(h.life, h.player.pool)


def _history_table(title: str, h: PlayerHistory) -> PlainTable:
    """One row per rated period."""
    table = PlainTable(title=title)
    for col, priority in (("period", 0), ("before", 1), ("games", 1), ("score", 2),
                          ("expected", 2), ("K", 1), ("K reason", 3), ("change", 0), ("after", 0)):
        table.add_column(col, priority=priority,
                         justify="left" if col in ("period", "K reason") else "right")
    for r in h.periods:
        table.add_row(r.period, str(r.rating_before), str(r.games), f"{r.score:.1f}",
                      f"{r.expected:.2f}",
                      str(r.k) if r.note is None else "",
                      r.k_reason + (" (capped)" if r.k_capped else "")
                      + (f", carried {_signed(r.carried.quantize(Decimal('0.01')))}"
                         if r.carried else "") if r.note is None else r.note,
                      _signed(r.change), str(r.rating_after))
    return table


def _pool_table(pool: PoolView) -> PlainTable:
    """An unrated player's pool in progress, one row per game against a rated opponent."""
    table = PlainTable(title=f"Pool in progress for {pool.as_of} (games against rated opponents)")
    for col, priority in (("period", 0), ("game", 1), ("opponent", 0), ("rating", 0),
                          ("score", 0), ("counted", 0)):
        table.add_column(col, priority=priority,
                         justify="right" if col in ("rating", "score") else "left")
    for r in pool.rows:
        table.add_row(r.period, f"#{r.game_id}", r.opponent, str(r.opponent_rating),
                      f"{r.score:.1f}", "yes" if r.counted else "no: first event scored zero")
    return table


def history(h: PlayerHistory, as_json: bool) -> None:
    """A player's history, one row per rated period."""
    if as_json:
        _json(history_dict(h))
        return
    v = h.player
    status = (f"{v.pool} rating {v.rating}, K {v.k} ({v.k_reason.value})"
              if v.rating is not None else f"unrated in {v.pool}, no K") + f" for {v.next_period}"
    title = f"{v.name} (#{v.id}{', FIDE ' + str(v.fide_id) if v.fide_id else ''}): {status}"
    if h.periods:
        _out().print(_history_table(title, h))
    else:
        say(title)
        if h.life.pool is not None and h.life.pool.rows:
            _out().print(_pool_table(h.life.pool))
    if not h.periods and not h.life.initial:
        say("no rated periods yet")
    for line in life_lines(h.life):
        say(line)
