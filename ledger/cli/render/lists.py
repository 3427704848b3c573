"""Rendering a published rating list (``ledger list``'s table and JSON; ``cli.publish`` writes
the other formats)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ledger.cli.render.output import print_json, stdout
from ledger.cli.render.tables import PlainTable
from ledger.services.publishing.json_shapes import rating_list_dict

if TYPE_CHECKING:
    from ledger.services.publishing.lists import RatingList


def rating_list(rl: RatingList, as_json: bool, console: Console | None = None) -> None:
    """A published rating list (on ``console``, default stdout)."""
    if as_json:
        print_json(rating_list_dict(rl))
        return
    state = ("" if not rl.preview else "; preview, not published"
             + ("" if rl.ended else ": the period has not ended"))
    table = PlainTable(title=f"Rating list after period {rl.period}, {rl.pool} "
                             f"(in force from {rl.in_force_from}{state})")
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
    (console or stdout()).print(table)
