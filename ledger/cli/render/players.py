"""Rendering players: ``player add`` and ``player show`` (one player, with the life of their
rating and FIDE's printed list ratings) and ``player list``; ``player_dict`` is a player's JSON
for the history too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table

from ledger.cli.render.life import life_lines
from ledger.cli.render.output import notes, print_json, say, stdout
from ledger.cli.render.tables import PlainTable
from ledger.services.publishing.json_shapes import LIST_RATINGS_LABEL, player_dict, player_show_dict

if TYPE_CHECKING:

    from ledger.services.register.player_views import PlayerView, PrintedListRating


def player(v: PlayerView, as_json: bool, *, added: bool = False) -> None:
    """One player, as key/value lines or JSON; notes on stderr."""
    notes(v.notes)
    if as_json:
        print_json(player_show_dict(v, added=added))
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
    stdout().print(table)
    for line in life_lines(v.life) if v.life else []:
        say(line)
    for carried in v.carried:
        say(carried.detail)
    if v.list_ratings:
        say(LIST_RATINGS_LABEL)
        stdout().print(_list_ratings_table(v.list_ratings))


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
        print_json({"pool": pool, "players": [{"pool": v.pool} | player_dict(v) for v in views]})
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
    stdout().print(table)
