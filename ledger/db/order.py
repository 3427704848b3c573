"""The orders users see, decided here once, the same on every database whatever its collation.

Text is compared by code point: the order of Python's ``str`` comparison, of SQLite's default
BINARY collation and of PostgreSQL's ``"C"`` collation (UTF-8 bytes sort as code points). A
server's own collation (``en_US``, ICU) would otherwise put ``Zed`` after ``abe`` and skip
blanks and commas, and a ``player list`` would differ between SQLite and PostgreSQL. Names
sort by their stored key (``ledger.names.name_key``: case, accents and punctuation aside), then
by id, so two namesakes keep one order.

``*_ORDER`` are the SQL orders (``select(...).order_by(*PLAYER_ORDER)``); ``player_sort_key``
and ``name_sort_key`` are the same rule for rows already in Python (rating lists, reports),
whose ties must break as the SQL order would.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, String
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import QueryableAttribute
from sqlalchemy.sql import coercions, roles
from sqlalchemy.sql.visitors import InternalTraversal

from ledger.db.models import Event, Game, Player
from ledger.names import name_key


class CodePointOrder(ColumnElement[str]):
    """A text column compared by code point: ``COLLATE "C"`` on PostgreSQL, the column as it
    is on SQLite (whose default collation, BINARY, already is)."""

    inherit_cache = True
    #: The column is its state: a statement holding one has a cache key (compiled once per
    #: process), where without it every such statement was compiled again at each run.
    _traverse_internals = [("column", InternalTraversal.dp_clauseelement)]
    type = String()

    def __init__(self, column: ColumnElement[Any] | QueryableAttribute[Any]) -> None:
        self.column = coercions.expect(roles.ExpressionElementRole, column)


@compiles(CodePointOrder)
def _compile_default(element: CodePointOrder, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(element.column, **kw))


@compiles(CodePointOrder, "postgresql")
def _compile_postgresql(element: CodePointOrder, compiler: Any, **kw: Any) -> str:
    return f'{compiler.process(element.column, **kw)} COLLATE "C"'


def by_code_point(column: ColumnElement[Any] | QueryableAttribute[Any]) -> ColumnElement[str]:
    """``column`` (text) as an ORDER BY compares it on every database: by code point."""
    return CodePointOrder(column)


#: Players wherever they are listed or offered: by name key, then id.
PLAYER_ORDER = (by_code_point(Player.name_key), Player.id)
#: Events: by start date, name key, id.
EVENT_ORDER = (Event.start_date, by_code_point(Event.name_key), Event.id)
#: Games: by date, then id (the order they were recorded in).
GAME_ORDER = (Game.date, Game.id)


def name_sort_key(name: str) -> str:
    """The key a name sorts by in Python, as ``PLAYER_ORDER`` sorts ``players.name_key``."""
    return name_key(name)


def player_sort_key(name: str, player_id: int) -> tuple[str, int]:
    """A player's place in ``PLAYER_ORDER``, for rows already in Python: (name key, id)."""
    return name_key(name), player_id
