"""The columns of each table of the club's website (``TABLES``): their headings, how they sort,
and the width below which a table becomes cards on a phone (``CARDS_BELOW``). Pure data, which
``pages`` renders (the tables' headings, ``site.css``'s card labels)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    """A table column: its heading, the CSS class of its heading, whether it sorts as a
    number, whether the first click sorts it highest first, the words an abbreviated
    heading stands for (None: it is not one), and whether a list's row shows it on its one line
    on a phone (``key``; the others a tap away)."""

    label: str
    css: str = ""
    numeric: bool = False
    descending: bool = False
    abbr: str | None = None
    key: bool = False


def _num(label: str, abbr: str | None = None, descending: bool = True,
         key: bool = False) -> Column:
    return Column(label, "num", True, descending, abbr, key)


#: The columns of each table, by the table's class (``t-NAME``): the headings, and on a phone
#: the label each cell of a card carries (``site.css``).
TABLES: dict[str, tuple[Column, ...]] = {
    "list": (_num("#", descending=False, key=True), Column("Name", key=True), Column("Title"),
             Column("Fed"), _num("Rating", key=True), _num("Change", key=True),
             _num("Previous"), _num("Games"), _num("K"), Column("Flag")),
    "rating-list": (_num("#", descending=False, key=True), Column("Name", "name", key=True),
                    Column("Title", "title"), Column("Fed", "fed"), Column("FIDE ID", "id", True),
                    _num("Rating", key=True), _num("Games"), _num("K"), _num("Born")),
    "players": (Column("Name"), Column("Title"), Column("Fed"), _num("FIDE ID"), _num("Rating"),
                _num("Born")),
    "history": (Column("Period"), _num("Before"), _num("Games"), _num("Score"),
                _num("Expected"), Column("K"), _num("Exact", "exact change"),
                _num("Change"), _num("After")),
    "games": (Column("Date"), Column("Tournament"), Column("Round"), Column("Colour"),
              Column("Opponent"), _num("Rating"), _num("Result"),
              _num("D", "rating difference"), _num("PD", "expected score"),
              _num("S − PD", "score minus expected score")),
    "report": (_num("No.", "number"), Column("Name"), Column("Fed"), _num("Rating"),
               _num("Games"), _num("Score"), _num("Expected"), _num("K"),
               _num("Change", "K × (score − expected), exact"),
               _num("Period", "the period's change, rounded once"),
               _num("Rp", "performance rating")),
    "top": (_num("#"), Column("Name"), Column("Title"), Column("Fed"), _num("Rating"),
            _num("Change")),
    "events": (Column("Tournament"), Column("Start"), Column("End"), Column("Period"),
               _num("Players"), _num("Games")),
    "cross": (_num("No."), Column("Name"), _num("Rating")),
    "periods": (Column("Period"), Column("In force from")),
}


#: The width (em) below which a table becomes cards: as wide as its columns need (the
#: crosstable has a column a round); every other table at 40em, a phone.
CARDS_BELOW = {"cross": 64, "report": 64, "games": 64, "history": 54, "list": 54,
               "rating-list": 54}


def table_class(name: str) -> str:
    """The classes of the table ``name`` (a key of ``TABLES``): its card breakpoint and name."""
    return f"cards-{CARDS_BELOW.get(name, 40)} t-{name}"
