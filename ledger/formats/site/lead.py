"""The home page's lead, which says the build date: the one text of the site that is not the
ledger's, so a rebuild with only another date replaces it in the page it wrote (``redate_home``)
instead of making the page again. Pure."""

from __future__ import annotations

import datetime as dt

from markupsafe import Markup

from ledger.formats.site.model import long_date


def built_on_lead(built_on: dt.date) -> Markup:
    """``<p>Rating lists, players and tournaments · built on 1 December 2026</p>``."""
    return Markup(f"<p>Rating lists, players and tournaments · built on {long_date(built_on)}</p>")


def redate_home(text: str, was: dt.date, built_on: dt.date) -> str | None:
    """The home page ``text`` built on ``was`` as built on ``built_on``: its lead replaced;
    None when ``text`` does not hold that lead exactly once (not the page a build wrote).
    Every text from the ledger is escaped on its way into a page, so none can hold the lead's
    ``</p>``."""
    lead = built_on_lead(was)
    return text.replace(lead, built_on_lead(built_on)) if text.count(lead) == 1 else None
