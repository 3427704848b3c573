"""Many rows into one table through the driver's ``executemany``, as SQLAlchemy would store them.

A Core ``insert(table)`` executed with a list of dicts spends most of its time, per row, in
SQLAlchemy's parameter handling (about 2 s for the 100,000 games of an M month, against 1.4 s
in sqlite3 itself). ``insert_rows`` compiles the INSERT once for the dialect (with positional
parameters: psycopg's ``%(name)s`` made ``%s``), applies each column's own bind processor (the
dialect's: SQLite stores a date as ``YYYY-MM-DD`` text, a bool as 0/1; PostgreSQL's driver
takes them as they are) and hands tuples to the DBAPI cursor (``Connection.exec_driver_sql``),
so the stored values are the ones the Core INSERT stores. A caller that builds many rows of
few distinct values (an import's games: a month has about 30 dates) binds each value once
itself (``binders``) and passes the rows ``bound``: no per-row work at all here.

``stream_rows`` is the reverse for a large read (a federation month's games): a Core SELECT
compiled once, its rows fetched from the DBAPI cursor in batches, as the driver gives them.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    ARRAY,
    Connection,
    Integer,
    Select,
    String,
    Table,
    bindparam,
    func,
    insert,
    select,
)
from sqlalchemy.orm import Session

#: Rows handed to the driver at once (bounded memory for a large file).
BATCH = 10_000


def insert_rows(session: Session, table: Table, columns: Sequence[str],
                rows: Iterable[Sequence[Any]], *, bound: bool = False) -> int:
    """Insert ``rows`` (each a sequence of Python values in the order of ``columns``, names of
    ``table``'s columns; a column left out gets its server default, and no Python-side default
    is applied: give every value) in the session's transaction, ``BATCH`` rows per
    ``executemany``; returns how many. With ``bound``, each value is already the driver's
    (made by ``binders``: a caller that binds each distinct value once), passed as it is.
    Raises what the driver raises (SQLAlchemy's ``DBAPIError`` subclasses), as
    ``session.execute(insert(table), dicts)`` would."""
    conn = session.connection()
    dialect = conn.dialect
    sql, order = _positional_sql(table, columns, dialect)
    if order is None:  # a dialect with named parameters other than pyformat: a mapping per row
        return _insert_named(conn, sql, table, columns, rows, bound)
    index = {name: i for i, name in enumerate(columns)}
    where = [index[key] for key in order]
    processors = [None if bound else _processor(table, columns[i], dialect) for i in where]
    shaped = _positional(where, processors)
    count = 0
    if shaped is tuple:  # the driver's values in the statement's order: passed as they are
        each = iter(rows)
        while part := list(islice(each, BATCH)):
            conn.exec_driver_sql(sql, part)
            count += len(part)
        return count
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        batch.append(shaped(row))
        if len(batch) == BATCH:
            conn.exec_driver_sql(sql, batch)
            count += len(batch)
            batch = []
    if batch:
        conn.exec_driver_sql(sql, batch)
        count += len(batch)
    return count


def binders(session: Session, table: Table, columns: Sequence[str]
            ) -> list[Callable[[Any], Any] | None]:
    """For each of ``columns`` (names of ``table``'s), the function making a Python value the
    driver's value as ``insert_rows`` would (the column type's bind processor for the
    session's dialect: on SQLite a date becomes ``YYYY-MM-DD`` text, a time its
    ``YYYY-MM-DD HH:MM:SS.ffffff`` text, a bool 0 or 1), or None where the driver takes the
    value as it is; None always stays None. For rows given to ``insert_rows`` with ``bound``."""
    dialect = session.connection().dialect
    return [_processor(table, name, dialect) for name in columns]


#: A named parameter of the ``pyformat`` style (psycopg): ``%(name)s``.
_PYFORMAT = re.compile(r"%\((\w+)\)s")


def _positional_sql(table: Table, columns: Sequence[str], dialect: Any
                    ) -> tuple[str, list[str] | None]:
    """(The INSERT of ``columns`` into ``table`` for ``dialect``, the column of each of its
    positional parameters in order), or (the SQL, None) for a named style ``insert_rows``
    does not make positional. A ``pyformat`` statement (psycopg) is made ``format`` (``%s``:
    psycopg takes a tuple for either), so that its rows are tuples too, not a dict per row."""
    compiled = insert(table).compile(dialect=dialect, column_keys=list(columns))
    sql = str(compiled)
    if compiled.positiontup is not None:
        return sql, list(compiled.positiontup)
    if dialect.paramstyle == "pyformat" and "%%" not in sql:
        return _PYFORMAT.sub("%s", sql), _PYFORMAT.findall(sql)
    return sql, None


def _processor(table: Table, name: str, dialect: Any) -> Callable[[Any], Any] | None:
    """The bind processor of column ``name`` of ``table`` for ``dialect`` (its type as that
    dialect implements it), or None when the driver takes the Python value as it is."""
    column_type = table.c[name].type
    processor: Callable[[Any], Any] | None = column_type.dialect_impl(dialect).bind_processor(dialect)
    return processor


def _positional(where: list[int], processors: list[Callable[[Any], Any] | None]
                ) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """A function turning one row (in the caller's column order) into the driver's tuple (in the
    statement's order, each value through its column's bind processor; None stays None). Each
    processor is asked once per distinct value (``_once``: a day's games share their date)."""
    if not any(processors):
        if where == list(range(len(where))):  # the caller's order: a tuple is passed as it is
            return tuple
        return lambda row: tuple([row[i] for i in where])
    pick = itemgetter(*where) if len(where) > 1 else (lambda row: (row[where[0]],))
    processed = [(j, _once(p)) for j, p in enumerate(processors) if p is not None]

    def shaped(row: Sequence[Any]) -> tuple[Any, ...]:
        values = list(pick(row))  # in the statement's order, then each through its processor
        for j, p in processed:
            value = values[j]
            if value is not None:
                values[j] = p(value)
        return tuple(values)

    return shaped


def _once(processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``processor`` remembering what it gave for each value of a plain immutable kind (a date,
    a time, a bool, a number or a text: the same value binds the same way); others each time."""
    done: dict[tuple[type, Any], Any] = {}

    def process(value: Any) -> Any:
        if type(value) not in _PLAIN:
            return processor(value)
        key = (type(value), value)  # 1 and True, a date and a datetime: never one entry
        if key not in done:
            if len(done) >= _REMEMBERED:  # values that seldom repeat: start again
                done.clear()
            done[key] = processor(value)
        return done[key]

    return process


#: The most values ``_once`` remembers for one column.
_REMEMBERED = 4096
#: The kinds of value whose bind processing ``_once`` remembers.
_PLAIN = frozenset({dt.date, dt.datetime, bool, int, str, float})


def _insert_named(conn: Any, sql: str, table: Table, columns: Sequence[str],
                  rows: Iterable[Sequence[Any]], bound: bool) -> int:
    """``insert_rows`` for a dialect with named parameters other than ``pyformat``, which take
    one mapping per row, in batches."""
    processors = [None if bound else _processor(table, name, conn.dialect) for name in columns]
    count = 0
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append({name: value if p is None or value is None else p(value)
                      for name, p, value in zip(columns, processors, row, strict=True)})
        if len(batch) == BATCH:
            conn.exec_driver_sql(sql, batch)
            count += len(batch)
            batch = []
    if batch:
        conn.exec_driver_sql(sql, batch)
        count += len(batch)
    return count


def stream_rows(session: Session, statement: Select[Any], batch: int = BATCH
                ) -> Iterator[tuple[Any, ...]]:
    """The rows of the Core SELECT ``statement`` in the session's transaction, straight from the
    DBAPI cursor, ``batch`` rows per ``fetchmany``: tuples of the driver's values, with none of
    SQLAlchemy's result processing (on SQLite a DATE column is its ``YYYY-MM-DD`` text and a
    BOOLEAN 0 or 1; psycopg gives ``datetime.date`` and ``bool``: the caller converts). Its
    parameters must be values the driver takes as they are (``str``, ``int``, None): any
    other raises ``TypeError`` before the query runs."""
    for chunk in stream_chunks(session, statement, batch):
        yield from chunk


def stream_chunks(session: Session, statement: Select[Any], batch: int = BATCH
                  ) -> Iterator[Sequence[tuple[Any, ...]]]:
    """``stream_rows`` a ``fetchmany`` at a time: lists of at most ``batch`` rows (never an empty
    one), for a caller whose loop over a million rows should not pay a generator step per row.
    The same values, parameters and ``TypeError`` as ``stream_rows``."""
    return driver_chunks(session.connection(), statement, batch)


def driver_chunks(conn: Connection, statement: Select[Any], batch: int = BATCH
                  ) -> Iterator[Sequence[tuple[Any, ...]]]:
    """``stream_chunks`` on a Core ``Connection`` (in its transaction): the same lists of the
    driver's rows, parameters and ``TypeError``."""
    compiled = statement.compile(dialect=conn.dialect,
                                 compile_kwargs={"render_postcompile": True})
    values = compiled.params
    for name, value in values.items():
        if value is not None and not isinstance(value, (str, int)):
            raise TypeError(f"stream_rows: parameter {name} is a {type(value).__name__}, "
                            "not a value the driver takes as it is")
    order = compiled.positiontup
    params: Any = tuple(values[k] for k in order) if order is not None else values
    cursor = conn.connection.cursor()
    try:
        cursor.execute(str(compiled), params)
        while chunk := cursor.fetchmany(batch):
            yield chunk
    finally:
        cursor.close()


def typed_chunks(conn: Connection, statement: Select[Any], batch: int = BATCH, *,
                 then: Callable[[Any], Any] | None = None) -> Iterator[list[tuple[Any, ...]]]:
    """``driver_chunks`` with each value as SQLAlchemy's result processing gives it (what
    ``conn.execute(statement)`` yields: on SQLite a DATE column's text made a
    ``datetime.date``, a BOOLEAN's 0 or 1 a bool): each column's own result processor for the
    dialect, asked once per distinct value of a chunk's column (a column of an import's games
    holds a few dates and two flags), not once a value; the rows are tuples. For a
    ``statement`` whose columns' processors give the same value for equal values of the
    driver's (SQLAlchemy's do: they are functions of the value); the same parameters and
    ``TypeError`` as ``driver_chunks``. ``then``: a function of a processed value applied
    after the processor, once per distinct value too (a digest's text of a date), on the
    columns that have a processor only."""
    dialect = conn.dialect
    processors = [(i, p) for i, column in enumerate(statement.selected_columns)
                  if (p := column.type.dialect_impl(dialect).result_processor(dialect, None))
                  is not None]
    for chunk in driver_chunks(conn, statement, batch):
        if not processors:
            yield chunk if type(chunk) is list else list(chunk)
            continue
        columns = list(zip(*chunk, strict=True))
        for i, process in processors:
            made = ({value: process(value) for value in set(columns[i])} if then is None
                    else {value: then(process(value)) for value in set(columns[i])})
            columns[i] = tuple(map(made.__getitem__, columns[i]))
        yield list(zip(*columns, strict=True))


def id_rows(session: Session, ids: Sequence[int]) -> Select[tuple[int]] | list[int]:
    """``ids`` (ints) as a SELECT of one column for ``column.in_(...)``, bound as one parameter:
    on SQLite the JSON array's ``json_each``, on PostgreSQL the array's ``unnest`` (an IN of
    thousands of values bound one by one costs SQLAlchemy about 10 us a value on each query:
    0.2 s for the 18,000 players an M month's first batch asks for); on another database
    ``ids`` as a list, as they are."""
    name = session.connection().dialect.name
    if name == "sqlite":
        each = func.json_each(bindparam("ids", json.dumps([int(i) for i in ids]),
                                        type_=String())).table_valued("value")
        return select(each.c.value)
    if name == "postgresql":
        return select(func.unnest(bindparam("ids", [int(i) for i in ids],
                                            type_=ARRAY(Integer()))).column_valued())
    return list(ids)
