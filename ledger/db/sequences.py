"""The id sequences of PostgreSQL tables, set past the highest id a table holds.

Rows written with their ids (a copied ledger, rows put in by hand) do not move a sequence, so
the next row the ledger adds would take an id already in use. SQLite needs nothing: it gives the
next id from the highest one itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, Table, text


def reset_sequences(conn: Connection, tables: Iterable[Table]) -> list[str]:
    """On PostgreSQL, set the sequence of each of ``tables`` that has one (an integer id the
    database fills) past its highest id (to 1, not yet used, for an empty table), inside the
    caller's transaction; returns the tables whose sequence was set (none on SQLite)."""
    if conn.dialect.name != "postgresql":
        return []
    done = []
    for table in tables:
        column = table.autoincrement_column
        if column is None:
            continue
        conn.execute(text(f"SELECT setval(pg_get_serial_sequence(:table, :column), "
                          f'COALESCE(MAX("{column.name}"), 1), MAX("{column.name}") IS NOT NULL) '
                          f'FROM "{table.name}"'), {"table": table.name, "column": column.name})
        done.append(table.name)
    return done
