"""A rating list as one self-contained HTML page a club can post: inline CSS, a few lines of plain
JavaScript that sort the table by the column heading clicked, no network access (a Content Security
Policy forbids any fetch), and every text from the ledger escaped (``html.escape``), so a player
named ``<script>alert(1)</script>`` is shown as those characters and never run.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from ledger.formats.rating_list import ListedPlayer, ListHeading

#: (heading, css class, sort type, first click sorts descending)
COLUMNS: tuple[tuple[str, str, str, bool], ...] = (
    ("#", "num", "num", False), ("Name", "name", "text", False), ("Title", "title", "text", False),
    ("Fed", "fed", "text", False), ("FIDE ID", "id", "num", False),
    ("Rating", "num rating", "num", True), ("Games", "num", "num", True),
    ("K", "num", "num", True), ("Born", "num", "num", True),
)

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")

_CSS = """
:root { --ink: #1d2330; --muted: #5b6475; --line: #dfe3ea; --band: #f5f7fa; --accent: #1f4e79; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue",
       Arial, sans-serif; color: var(--ink); background: #eef1f5; }
main { max-width: 960px; margin: 0 auto; padding: 24px 16px 40px; }
header { background: var(--accent); color: #fff; padding: 20px 24px; border-radius: 10px 10px 0 0; }
header h1 { margin: 0; font-size: 26px; letter-spacing: .01em; }
header p { margin: 4px 0 0; opacity: .9; }
.sheet { background: #fff; border-radius: 0 0 10px 10px; box-shadow: 0 1px 3px rgba(0,0,0,.12);
         overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 7px 12px; text-align: left; white-space: nowrap; }
thead th { position: sticky; top: 0; background: #fff; border-bottom: 2px solid var(--accent);
           font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted);
           cursor: pointer; user-select: none; }
thead th:hover { color: var(--accent); }
thead th[aria-sort="ascending"]::after { content: " \\25B2"; font-size: 10px; }
thead th[aria-sort="descending"]::after { content: " \\25BC"; font-size: 10px; }
tbody tr:nth-child(even) { background: var(--band); }
tbody tr:hover { background: #e6eef7; }
td { border-bottom: 1px solid var(--line); }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.rating { font-weight: 700; }
.name { white-space: normal; min-width: 14em; }
.title span { display: inline-block; padding: 0 6px; border-radius: 4px; background: #fbe7b5;
              color: #6b4a00; font-size: 12px; font-weight: 700; }
.id, .fed { color: var(--muted); }
tr.inactive td { color: var(--muted); }
.flag { margin-left: 6px; padding: 0 5px; border: 1px solid var(--line); border-radius: 4px;
        font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
footer { color: var(--muted); font-size: 13px; margin-top: 12px; }
@media print { body { background: #fff; } header { color: #000; background: none; padding: 0; }
  .sheet { box-shadow: none; } thead th { position: static; } }
"""

#: Sorts the table by the clicked column: numbers as numbers (blanks last), text by locale;
#: a second click reverses. Plain JavaScript, no library.
SORT_SCRIPT = """
(function () {
  var table = document.getElementById("rating-list");
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    th.addEventListener("click", function () {
      var numeric = th.getAttribute("data-type") === "num";
      var current = th.getAttribute("aria-sort");
      var desc = current ? current === "ascending" : th.hasAttribute("data-desc");
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", desc ? "descending" : "ascending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].textContent.trim(), y = b.cells[col].textContent.trim();
        if (x === "" || y === "") { return (x === "") - (y === ""); }
        var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return desc ? -order : order;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
"""


def _e(value: object) -> str:
    return "" if value is None else html.escape(str(value), quote=True)


def long_date(heading: ListHeading) -> str:
    """The list date as people write it: ``1 December 2026``."""
    day = heading.in_force_from
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def _row(p: ListedPlayer) -> str:
    title = f"<span>{_e(p.title)}</span>" if p.title else ""
    name = _e(p.name) + (' <span class="flag">inactive</span>' if p.inactive else "")
    cells = (_e(p.rank), name, title, _e(p.federation), _e(p.fide_id), _e(p.rating),
             _e(p.games), _e(p.k), _e(p.birth_year))
    row = '<tr class="inactive">' if p.inactive else "<tr>"
    return row + "".join(f'<td class="{cls}">{cell}</td>'
                         for cell, (_, cls, _, _) in zip(cells, COLUMNS, strict=True)) + "</tr>"


def _head() -> str:
    cells = []
    for i, (label, cls, kind, desc) in enumerate(COLUMNS):
        attrs = f' class="{cls}" data-type="{kind}"' + (" data-desc" if desc else "")
        attrs += ' aria-sort="ascending"' if i == 0 else ""
        cells.append(f'<th scope="col"{attrs}>{_e(label)}</th>')
    return "<tr>" + "".join(cells) + "</tr>"


def _names_a_list(heading: ListHeading) -> bool:
    return "rating list" in heading.title.casefold()


def page_title(heading: ListHeading) -> str:
    """The browser's title for the page (unescaped): ``Riverside - rating list 2026-10``, or,
    when the heading already names a rating list (the default ``Rating list``), the heading and
    the period alone: ``Rating list 2026-10``."""
    if _names_a_list(heading):
        return f"{heading.title} {heading.period}"
    return f"{heading.title} - rating list {heading.period}"


def write(heading: ListHeading, players: Iterable[ListedPlayer]) -> str:
    """The page: ``heading.title`` (the club's name) as its heading, the period and list date
    below it, one table row per player in the order given, and the sorting script."""
    rows = [_row(p) for p in players]
    club = _e(heading.title)
    lead = "After" if _names_a_list(heading) else "Rating list after"
    subtitle = (f"{lead} rating period {_e(heading.period)}, "
                f"in force from {_e(long_date(heading))}")
    count = f"{len(rows)} player" + ("" if len(rows) == 1 else "s")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(page_title(heading))}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<header><h1>{club}</h1><p>{subtitle}</p></header>",
        '<div class="sheet">',
        '<table id="rating-list">',
        f"<thead>{_head()}</thead>",
        "<tbody>",
        *rows,
        "</tbody>",
        "</table>",
        "</div>",
        f"<footer>{count}. Ratings under the FIDE Rating Regulations; games: rated games in "
        f"{_e(heading.period)}; K: the K-factor for the next period; inactive: no rated game in the "
        "last 12 rating periods (the rating stands). Click a column heading to sort.</footer>",
        "</main>",
        f"<script>{SORT_SCRIPT}</script>",
        "</body>",
        "</html>",
        "",
    ])
