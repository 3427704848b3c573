"""A rating list as one self-contained HTML page a club can post: the website's look
(``formats.site``: the same Jinja2 templates and stylesheet), a small plain script that sorts the
table by the column heading clicked, no network access (a Content Security Policy allows only the
page's own inline style and script, by their SHA-256), and every text from the ledger escaped, so
a player named ``<script>alert(1)</script>`` is shown as those characters and never run.
"""

from __future__ import annotations

from collections.abc import Iterable

from ledger.formats.rating_list import ListedPlayer, ListHeading
from ledger.formats.site.model import long_date
from ledger.formats.site.pages import standalone_list


def _names_a_list(heading: ListHeading) -> bool:
    return "rating list" in heading.title.casefold()


def page_title(heading: ListHeading) -> str:
    """The browser's title for the page (unescaped): ``Riverside - rating list 2026-10``, or,
    when the heading already names a rating list (the default ``Rating list``), the heading and
    the period alone: ``Rating list 2026-10``."""
    pool = "" if heading.pool == "standard" else f" {heading.pool}"
    if _names_a_list(heading):
        return f"{heading.title} {heading.period}{pool}"
    return f"{heading.title} - rating list {heading.period}{pool}"


def write(heading: ListHeading, players: Iterable[ListedPlayer]) -> str:
    """The page: ``heading.title`` (the club's name) as its heading, the period and list date
    below it (``1 November 2026``), one table row per player in the order given, and the sorting
    script. Printed, every page starts with a line naming the club, the pool, the period and
    the list's date, and the column headings. A rapid or blitz list says its pool (``Blitz
    rating list after ...``), a preview that it is one (``Preview, not published: ...``). With
    ``heading.digest`` the footer gives it: ``Digest (SHA-256) of this list's manifest: ...``
    (``ledger verify`` checks a bundle against it, docs/VERIFY.md)."""
    rows = list(players)
    lead = "After" if _names_a_list(heading) else "Rating list after"
    if heading.pool != "standard":
        lead = f"{heading.pool.capitalize()} rating list after"
    subtitle = (f"{lead} rating period {heading.period}, "
                f"in force from {long_date(heading.in_force_from)}")
    running = (f"{heading.title} · {heading.pool.capitalize()} rating list after rating period "
               f"{heading.period}, in force from {long_date(heading.in_force_from)}")
    if heading.preview:
        subtitle = f"Preview, not published: {subtitle[0].lower()}{subtitle[1:]}"
        running = f"Preview, not published: {running}"
    count = f"{len(rows)} player" + ("" if len(rows) == 1 else "s")
    return standalone_list(heading.title, subtitle, page_title(heading), str(heading.period),
                           count, rows, running, digest=heading.digest)
