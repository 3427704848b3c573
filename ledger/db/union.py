"""Several SELECTs of different shapes read in one statement (one round trip to the server),
their rows given back per SELECT with their own column names.

``Union`` lays the SELECTs side by side in one ``UNION ALL`` whose columns are typed slots: a
first column saying which SELECT a row comes from, then integer, text, boolean and date slots,
as many of each as the widest SELECT needs; each SELECT fills its own columns' slots, in order, and
NULL (cast to the slot's type, so that PostgreSQL can type the union) the others. ``split``
gives the rows of each SELECT back as named tuples (``row.player_id``, ``row[:8]``), in the
order they came. A SELECT's ORDER BY is dropped (a branch of a union has none, and the union
has none): sort each SELECT's rows in Python where the order matters. Used where the round
trips are most of the time (``services.publishing.histories``: issue 25, a history on
PostgreSQL; ``services.close.pools.open_pools``: an unrated player's pool in progress).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    Boolean,
    CompoundSelect,
    Date,
    Integer,
    Select,
    String,
    cast,
    literal_column,
    null,
    union_all,
)
from sqlalchemy.types import TypeEngine

#: The slot families and the type a SELECT's column must have to go in one (``BigInteger``
#: is an ``Integer``; ``Text`` a ``String``; a ``DateTime`` is none of them).
_FAMILIES: tuple[tuple[str, type[TypeEngine[Any]]], ...] = (
    ("i", Integer), ("t", String), ("b", Boolean), ("d", Date))


class Union:
    """One ``UNION ALL`` of ``selects`` (name -> SELECT of integer, text, boolean or date columns,
    each with a distinct name); ``statement`` the statement to execute (build it once: it
    keeps its compiled form). Raises ``TypeError`` for a column of another type."""

    def __init__(self, selects: Mapping[str, Select[Any]]) -> None:
        self._names = list(selects)
        layouts: list[list[tuple[str, int]]] = []  # per SELECT: (family, index) of each column
        widths = dict.fromkeys((f for f, _ in _FAMILIES), 0)
        for name, select in selects.items():
            counts = dict.fromkeys(widths, 0)
            layout = []
            for column in select.selected_columns:
                family = _family(name, str(column.key), column.type)
                layout.append((family, counts[family]))
                counts[family] += 1
            widths = {f: max(widths[f], counts[f]) for f in widths}
            layouts.append(layout)
        slots = [(f, n) for f, _ in _FAMILIES for n in range(widths[f])]
        position = {slot: 1 + i for i, slot in enumerate(slots)}
        types = dict(_FAMILIES)
        branches = []
        for kind, (select, layout) in enumerate(zip(selects.values(), layouts, strict=True)):
            mine = dict(zip(layout, select.selected_columns, strict=True))
            branches.append(select.with_only_columns(
                literal_column(str(kind), Integer).label("kind"),
                *(mine.get(slot, cast(null(), types[slot[0]]())).label(f"{slot[0]}{slot[1]}")
                  for slot in slots), maintain_column_froms=True).order_by(None))
        self.statement: CompoundSelect[Any] = union_all(*branches)
        self._rows = [(namedtuple(f"{name}_row", [c.key for c in select.selected_columns]),  # type: ignore[misc]
                       _getter([position[slot] for slot in layout]))
                      for (name, select), layout in zip(selects.items(), layouts, strict=True)]

    def split(self, rows: Iterable[Any]) -> dict[str, list[Any]]:
        """Name -> the rows of that SELECT (named tuples), in the order ``rows`` gave them."""
        found: list[list[Any]] = [[] for _ in self._names]
        shapes, new = self._rows, tuple.__new__
        for row in rows:
            kind = row[0]
            make, values = shapes[kind]
            found[kind].append(new(make, values(row)))
        return dict(zip(self._names, found, strict=True))


def _getter(positions: list[int]) -> Callable[[Any], tuple[Any, ...]]:
    """The values at ``positions`` of a row, as a tuple (one value too)."""
    if len(positions) == 1:
        only = positions[0]
        return lambda row: (row[only],)
    return itemgetter(*positions)


def _family(name: str, column: str, type_: TypeEngine[Any]) -> str:
    for family, base in _FAMILIES:
        if isinstance(type_, base):
            return family
    raise TypeError(f"{name}.{column}: {type_!r} has no slot in a Union (integer, text, boolean, date)")
